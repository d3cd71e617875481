//! T22: security. Fixture secrets (queue token, per-replica Daytona keys, connect tokens, a git
//! token) checked against every artefact (I8); hostile session ids; a foreign sandbox carrying
//! a session's name; a cross-host redirect; a TLS endpoint that is not one.

use std::time::Duration;

use outposts::emulator::devin::NewSession;
use outposts::orchestrator::{sandbox_labels, sandbox_name};
use outposts::provider::{Provider, SandboxSpec, Source};

use crate::invariants::Quiesce;
use crate::support::rel::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(60);

fn hostile_ids() -> Vec<String> {
    vec![
        "../../etc/passwd".into(),
        format!("devin-{}", "x".repeat(244)),
        "séssion ünïcode 🚀".into(),
        "a=b,c;d:e|f\"g'h".into(),
        "%2e%2e%2fadmin".into(),
        "devin-UPPER_case.dots~".into(),
    ]
}

#[test]
fn t22_security_hostile_ids_foreign_sandboxes_redirects_tls() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let seed = seed();
    let mut c = Cluster::start(
        "T22",
        seed,
        ClusterOpts {
            cap: 10,
            ..ClusterOpts::default()
        },
    );
    c.start_all();

    // Hostile ids: served, with safe names, then ended and deleted.
    let ids = hostile_ids();
    for id in &ids {
        block_on(c.emu.client().new_sessions(&NewSession {
            session_id: Some(id.clone()),
            ..NewSession::default()
        }))
        .expect("enqueue a hostile id");
    }
    let ok = time_until(WAIT, || {
        let s = served(&c);
        ids.iter().all(|i| s.contains(i))
    });
    assert!(
        ok.is_some(),
        "hostile ids not served\n{}",
        c.replicas[0].log()
    );
    let w = c.world_light();
    for m in w.mutations.iter().filter(|m| m.op == "create") {
        assert!(
            m.name.len() <= 63
                && m.name
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'),
            "unsafe sandbox name {:?}",
            m.name
        );
    }
    for id in &ids {
        block_on(c.emu.client().terminate(id)).unwrap();
    }

    // A sandbox named after a session but labelled for another outpost: never touched.
    let victim = "devin-victim-session".to_string();
    let provider = crate::support::daytona::provider(&c.emu);
    let mut spec = SandboxSpec::new(sandbox_name(&victim), Source::Snapshot(SNAPSHOT.into()));
    spec.labels = sandbox_labels(&victim, "outpost_env-someone-else");
    let foreign = block_on(provider.create(&spec)).expect("foreign sandbox");
    c.planted.insert(foreign.name.clone());
    block_on(c.emu.client().new_sessions(&NewSession {
        session_id: Some(victim.clone()),
        ..NewSession::default()
    }))
    .unwrap();
    let explained = time_until(WAIT, || {
        c.replicas[0]
            .log()
            .contains("does not carry this session's labels")
    });
    assert!(explained.is_some(), "{}", c.replicas[0].log());

    // An upstream that echoes credentials in its errors (a misconfigured proxy, a chatty API):
    // the orchestrator reports the failure, and every copy of a secret is masked on the way out.
    let echoed: Vec<String> = block_on(c.emu.client().secrets())
        .expect("secrets")
        .into_iter()
        .filter(|s| !s.starts_with("ct_"))
        .chain([GIT_TOKEN.to_string()])
        .collect();
    let message = format!("invalid credentials: {}", echoed.join(" / "));
    let body = serde_json::json!({"statusCode": 400, "message": message, "error": "Bad Request"});
    c.faults(
        &serde_json::json!([{"method": "POST", "path": "/daytona/api/sandbox$", "times": 2,
            "action": {"kind": "status", "status": 400, "body": body.to_string()}}])
        .to_string(),
    );
    let echo = c.new_sessions(1).remove(0);
    let reported = time_until(WAIT, || {
        c.replicas
            .iter()
            .any(|r| r.log().contains("invalid credentials"))
    });
    assert!(reported.is_some(), "{}", c.replicas[0].log());
    let served_again = time_until(WAIT, || served(&c).contains(&echo));
    assert!(served_again.is_some(), "{}", c.replicas[0].log());
    block_on(c.emu.client().terminate(&echo)).unwrap();

    // A redirect to another host is not followed (with or without credentials).
    let evil = Emu::start(&TestEnv::new(), &[]);
    c.faults(&format!(
        r#"{{"method":"GET","path":"/opbeta/outposts/devins$","query":"first=","times":3,"action":{{"kind":"status","status":307,"headers":{{"Location":"{}/opbeta/outposts/devins"}}}}}}"#,
        evil.base_url
    ));
    std::thread::sleep(Duration::from_secs(4));
    c.clear_faults();
    let followed = evil.requests().iter().filter(|r| r.api != "admin").count();
    assert_eq!(followed, 0, "a cross-host redirect was followed");

    // A TLS endpoint that is not TLS: fails closed, nothing readable reaches the server (the
    // quiet second emulator, so no other client's traffic is counted).
    let before = evil.requests().len();
    let mut env = TestEnv::new();
    for (k, v) in &c.replicas[0].env.vars {
        if !(k == "HOME" || k.starts_with("XDG_") || k == "STATE_DIR") {
            env.set(k, v.clone());
        }
    }
    env.set(
        "DEVIN_API_URL",
        evil.base_url.replace("http://", "https://"),
    );
    let run = env.run(&["queue", "list", "--json"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    let after = evil.requests();
    assert!(
        after[before..].iter().all(|r| r.api == "admin"),
        "a request reached the server over a failed TLS handshake"
    );

    // The victim's foreign sandbox: no replica ever sent it anything.
    let w = c.settle(WAIT, |w| {
        let left = w
            .sandboxes
            .iter()
            .filter(|s| !s.state.starts_with("destroy") && s.name != foreign.name)
            .count();
        if left == 0 {
            Ok(())
        } else {
            Err(format!("{left} sandboxes left"))
        }
    });
    let touched: Vec<String> = w
        .mutations
        .iter()
        .filter(|m| m.sandbox_id == foreign.id && m.caller.as_deref() != Some("default"))
        .map(|m| m.op.clone())
        .collect();
    assert!(
        touched.is_empty(),
        "the foreign sandbox was touched: {touched:?}"
    );
    // The state dir once every replica has stopped (a running one rewrites its files through
    // a temporary beside them, which a walk can see): 0700, only the expected files.
    c.stop_all();
    let state = c.replicas[0].state_dir();
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&state).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let mut files = Vec::new();
    walk(&state, &mut files);
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            [
                "orchestrator.lock",
                "acceptor_id",
                "watch_cursor",
                "status.json",
                "sleepers.json",
                // The provider and endpoint holding the sessions (no credentials).
                "provider.json",
                "terminated.json",
                // Placement scores: snapshot names and redacted create errors.
                "placements.json",
                // Failure records (redacted), the cost ledger (seconds, sizes, prices).
                "failures.json",
                "cost-ledger.jsonl",
            ]
            .contains(&name.as_str())
                // A sleeper's integrity summary (digest and counts), one per session.
                || f.parent().and_then(|p| p.file_name()) == Some("integrity".as_ref()),
            "unexpected file in the state dir: {}",
            f.display()
        );
    }
    let w = c.world();
    c.assert_invariants(&w, Quiesce::Yes);
    figure("T22", "hostile_ids_served", ids.len());
    figure(
        "T22",
        "secrets_checked",
        w.secrets.len() + w.session_secrets.len(),
    );
    figure("T22", "argv_samples", w.argv_samples.len());
    figure("T22", "logs_checked", w.logs.len());
    figure("T22", "cross_host_redirects_followed", followed);
    figure("T22", "foreign_sandbox_mutations", touched.len());
}

fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
}
