//! What the shipped deployments log: each systemd unit's `ExecStart`, the Dockerfile's
//! `ENTRYPOINT`+`CMD` and the Kubernetes container's `command`/`args`, read from the files and
//! run as they stand against the emulator, with the settings those deployments take from the
//! environment (unit `Environment=` lines and env file, the image's `ENV`, the ConfigMap and
//! Secret) pointed at it. `journalctl -u … -f` and `kubectl logs` show this stderr: every line
//! must be one JSON object, and a session's claim, serve, sleep, wake and end must be there at
//! the default level, as objects whose fields are the event's (`event`, `session`, …).
//!
//! Two values are changed, and only these: paths under `/var/lib/outposts` move into the test's
//! home, and the `--metrics-addr` value becomes `127.0.0.1:0` (two runs must not race for the
//! fixed port 9464, and a test listens on loopback only). The provider is the local one
//! (`OUTPOSTS_PROVIDER=local`, as an env file may choose): the logging is the same for all.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::deploy::{dockerfile_array, read, unit_values};
use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(60);

/// One shipped way to run the orchestrator: its arguments (after the `outposts` binary) and the
/// settings it sets itself.
struct Deployment {
    what: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

/// `KEY=VALUE` pairs.
fn pairs<'a>(items: impl IntoIterator<Item = &'a str>) -> Vec<(String, String)> {
    items
        .into_iter()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn systemd(file: &str) -> Deployment {
    let text = read(&format!("deploy/{file}"));
    let env = pairs(unit_values(&text, "Environment").iter().map(String::as_str));
    let starts = unit_values(&text, "ExecStart");
    assert_eq!(starts.len(), 1, "{file}: {starts:?}");
    // systemd expands `${VAR}` from the unit's own Environment= defaults.
    let mut line = starts[0].clone();
    for (k, v) in &env {
        line = line.replace(&format!("${{{k}}}"), v);
    }
    let mut words = line.split_whitespace().map(str::to_string);
    assert_eq!(
        words.next().as_deref(),
        Some("/usr/local/bin/outposts"),
        "{file}: {line}"
    );
    Deployment {
        what: file.to_string(),
        args: words.collect(),
        env,
    }
}

/// The Dockerfile's `ENV` instruction (one, continued with `\`), as pairs.
fn dockerfile_env(text: &str) -> Vec<(String, String)> {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("ENV ") {
            inside = true;
        }
        if inside {
            out.push_str(line.trim_start_matches("ENV ").trim_end_matches('\\'));
            out.push(' ');
            if !line.trim_end().ends_with('\\') {
                break;
            }
        }
    }
    pairs(out.split_whitespace())
}

fn docker() -> Deployment {
    let text = read("Dockerfile");
    let entry = dockerfile_array(&text, "ENTRYPOINT ");
    assert_eq!(
        entry.last().map(String::as_str),
        Some("outposts"),
        "{entry:?}"
    );
    Deployment {
        what: "Dockerfile ENTRYPOINT + CMD".into(),
        args: dockerfile_array(&text, "CMD "),
        env: dockerfile_env(&text),
    }
}

/// The items of the first YAML block list under `key:` (`- item` lines), unquoted.
fn yaml_list(text: &str, key: &str) -> Option<Vec<String>> {
    let mut lines = text.lines();
    let head = lines.find(|l| l.trim() == format!("{key}:"))?;
    let indent = head.len() - head.trim_start().len();
    let items = lines
        .take_while(|l| {
            let t = l.trim_start();
            t.starts_with("- ") && l.len() - t.len() >= indent
        })
        .map(|l| {
            l.trim_start()[2..]
                .trim()
                .trim_matches('"')
                .trim_matches('\'')
                .to_string()
        })
        .collect();
    Some(items)
}

fn kubernetes() -> Deployment {
    let spec = read("deploy/kubernetes/base/statefulset.yaml");
    // Without `command:` the container runs the image's ENTRYPOINT (`tini -- outposts`) with
    // `args:` in place of CMD.
    assert!(
        yaml_list(&spec, "command").is_none(),
        "the container overrides the image's entrypoint: run that command here"
    );
    let args = yaml_list(&spec, "args").expect("the container's args");
    let settings = read("deploy/kubernetes/base/kustomization.yaml");
    let literals = yaml_list(&settings, "literals").expect("the ConfigMap's literals");
    Deployment {
        what: "Kubernetes StatefulSet container".into(),
        args,
        env: pairs(literals.iter().map(String::as_str)),
    }
}

/// The deployment's arguments with the metrics address on a free loopback port.
fn runnable(args: &[String]) -> Vec<String> {
    let mut out = args.to_vec();
    if let Some(i) = out.iter().position(|a| a == "--metrics-addr") {
        out[i + 1] = "127.0.0.1:0".into();
    }
    out
}

/// The environment a deployment runs with: the emulator's endpoints and tokens (what the env
/// file or the Secret holds), then the deployment's own settings, paths moved into the home.
fn environment(emu: &Emu, d: &Deployment) -> TestEnv {
    let mut env = orch_env(emu);
    env.set("OUTPOSTS_PROVIDER", "local");
    let home = env.home.path().to_string_lossy().into_owned();
    for (k, v) in &d.env {
        let v = match v.strip_prefix("/var/lib/outposts") {
            Some(rest) => format!("{home}/var-lib-outposts{rest}"),
            None => v.clone(),
        };
        env.set(k, v);
    }
    env
}

/// Every line of a log as JSON; panics naming the first line that is not an object.
fn json_lines(what: &str, stream: &str, text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| match serde_json::from_str::<Value>(l) {
            Ok(v) if v.is_object() => v,
            _ => panic!("{what}: a {stream} line is not a JSON object: {l:?}\n{text}"),
        })
        .collect()
}

fn has_event(lines: &[Value], session: &str, event: &str, how: Option<&str>) -> bool {
    lines.iter().any(|l| {
        l["session"] == session
            && l["event"] == event
            && how.is_none_or(|h| l["how"] == h)
            && l["level"].is_string()
            && l["timestamp"].is_string()
            && l["message"].as_str().is_some_and(|m| m.contains(session))
    })
}

/// Run one deployment through a session's life and check its log.
fn run_deployment(emu: &Emu, d: &Deployment) {
    let env = environment(emu, d);
    let args = runnable(&d.args);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (out_path, err_path) = (env.path("stdout.log"), env.path("stderr.log"));
    let file = |p: &Path| std::fs::File::create(p).expect("log file");
    let child = env
        .cmd(&argv)
        .stdout(file(&out_path))
        .stderr(file(&err_path))
        .spawn()
        .expect("spawn");
    let mut orch = Orch {
        child,
        log: err_path.clone(),
    };
    let what = &d.what;
    let log = || json_lines(what, "stderr", &orch.log());
    let wait_event = |s: &str, event: &str, how: Option<&str>| {
        wait_until(
            WAIT,
            &format!("{what}: {event} {how:?} of {s} in the log"),
            || has_event(&log(), s, event, how),
            || orch.log(),
        )
    };
    let s = new_session(emu, Some(proof_task("logged")));
    wait_event(&s, "claimed", None);
    wait_event(&s, "remote_launched", None);
    block_on(emu.client().suspend(&s)).unwrap();
    wait_event(&s, "ended", Some("slept"));
    block_on(emu.client().resume(&s)).unwrap();
    wait_event(&s, "sandbox_started", None);
    block_on(emu.client().terminate(&s)).unwrap();
    wait_event(&s, "ended", Some("terminated"));
    let (code, _) = orch.terminate(Duration::from_secs(35));
    assert_eq!(code, Some(0), "{what}: exit\n{}", orch.log());

    let lines = json_lines(what, "stderr", &orch.log());
    let stdout = std::fs::read_to_string(&out_path).unwrap();
    json_lines(what, "stdout", &stdout);
    // The banner and the stop lines are log records too.
    let said = |words: &str| {
        lines
            .iter()
            .any(|l| l["message"].as_str().is_some_and(|m| m.contains(words)))
    };
    assert!(said("orchestrator for outpost"), "{what}: no banner");
    assert!(said("orchestrator stopped"), "{what}: no stop line");
    // The event's fields are the line's fields, not a JSON string inside it.
    let claimed = lines
        .iter()
        .find(|l| l["event"] == "claimed" && l["session"] == s.as_str())
        .expect("claimed");
    assert_eq!(claimed["level"], "INFO", "{claimed}");
    let started = lines
        .iter()
        .find(|l| l["event"] == "sandbox_started")
        .expect("sandbox_started");
    assert!(started["sandbox"].is_string(), "{started}");
    assert_eq!(started["retry"], false, "a wake is no retry: {started}");
    // No credential reaches the log.
    for key in ["DEVIN_OUTPOSTS_TOKEN", "DEVIN_API_KEY", "DAYTONA_API_KEY"] {
        let secret = emu.env_value(key);
        assert!(!orch.log().contains(&secret), "{what}: {key} in the log");
    }
}

#[test]
fn every_shipped_deployment_logs_session_events_as_json_objects() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let deployments = [
        systemd("outposts-orchestrator.service"),
        systemd("outposts-orchestrator@.service"),
        docker(),
        kubernetes(),
    ];
    for d in &deployments {
        assert!(
            d.args.windows(2).any(|w| w == ["--log-format", "json"]),
            "{}: does not log JSON: {:?}",
            d.what,
            d.args
        );
    }
    // One emulator; each deployment gets its own home and STATE_DIR.
    let emu = Emu::start(&TestEnv::new(), &[]);
    for d in &deployments {
        run_deployment(&emu, d);
    }
}
