//! A session's `spec.network_policy`, enforced or refused (fail closed), on every provider: the
//! Daytona create carries `networkBlockAll` and the allow lists (the gateway included), the
//! CoreWeave create carries `NetworkOptions` and the effective egress is read back, a wake with a
//! new policy reapplies it on Daytona, local refuses restricted sessions, a policy a provider
//! cannot express is released without a remote and not re-claimed, and an absent or disabled
//! policy sends no network field at all.

use std::time::{Duration, Instant};

use outposts::api::coreweave::pb;
use outposts::emulator::devin::NewSession;
use outposts::orchestrator::sandbox_name;
use outposts::provider::coreweave::CoreweaveProvider;
use outposts::provider::{Egress, Provider};
use serde_json::{Value, json};

use crate::support::daytona::{assert_openapi_conformance, provider};
use crate::support::orch::*;
use crate::support::{Emu, TestEnv, block_on};

const WAIT: Duration = Duration::from_secs(90);
const CW_IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";

fn allowed_test() -> Value {
    json!({"enabled": true, "allow": [{"hostname": "allowed.test"}]})
}

fn session_with(emu: &Emu, policy: Option<Value>, task: Option<String>) -> String {
    let created = block_on(emu.client().new_sessions(&NewSession {
        task,
        network_policy: policy,
        ..NewSession::default()
    }))
    .expect("new session");
    created[0].session_id.clone()
}

/// The JSON bodies of the Daytona sandbox creates the emulator received.
fn daytona_creates(emu: &Emu) -> Vec<Value> {
    emu.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/daytona/api/sandbox")
        .filter_map(|r| r.body)
        .map(|b| serde_json::from_str(&b).expect("create body is JSON"))
        .collect()
}

fn connected(emu: &Emu, s: &str) -> bool {
    block_on(emu.client().history(Some(s)))
        .unwrap()
        .iter()
        .any(|h| h.event == "connect")
}

fn daytona_setup() -> (Emu, TestEnv) {
    let (emu, env) = orch_emulator_built(&["--sweep-delay", "1s"]);
    (emu, env)
}

#[test]
fn daytona_creates_a_restricted_sandbox_with_the_gateway_allowed_and_serves_it() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = daytona_setup();
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let s = session_with(&emu, Some(allowed_test()), Some(proof_task("fenced")));
    wait_until(WAIT, "the task", || tasks_done(&emu, &s), || orch.log());

    let creates = daytona_creates(&emu);
    assert_eq!(creates.len(), 1, "{creates:?}");
    let body = &creates[0];
    assert_eq!(body["networkBlockAll"], json!(true), "{body}");
    assert_eq!(body["domainAllowList"], json!("allowed.test"), "{body}");
    // The emulator's gateway and remote distribution are on 127.0.0.1: allowed as a block.
    assert_eq!(body["networkAllowList"], json!("127.0.0.1/32"), "{body}");

    // The sandbox reports it back, and `session verify` shows it.
    let sb = block_on(provider(&emu).get(&sandbox_name(&s)))
        .unwrap()
        .expect("sandbox");
    assert!(sb.egress.is_restricted(), "{:?}", sb.egress);
    let v = env.run(&[
        "session",
        "verify",
        "--provider",
        "daytona",
        "--session",
        &s,
        "--proof",
        "fenced",
        "--wait",
        "10s",
        "--json",
    ]);
    let doc = v.json();
    assert_eq!(doc["result"], "match", "{doc}");
    assert_eq!(doc["egress"]["mode"], "restricted", "{doc}");
    let allow = doc["egress"]["allow"].to_string();
    assert!(
        allow.contains("allowed.test") && allow.contains("127.0.0.1/32"),
        "{allow}"
    );
    let human = env.run(&[
        "session",
        "verify",
        "--provider",
        "daytona",
        "--session",
        &s,
        "--proof",
        "fenced",
        "--wait",
        "10s",
    ]);
    assert!(
        human.stdout.contains("network:  restricted to"),
        "{}",
        human.stdout
    );
    assert_openapi_conformance(&emu);
}

#[test]
fn daytona_without_a_policy_or_with_it_disabled_sends_no_network_fields() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = daytona_setup();
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let a = session_with(&emu, None, None);
    let b = session_with(&emu, Some(json!({"enabled": false, "allow": []})), None);
    wait_until(
        WAIT,
        "both served",
        || connected(&emu, &a) && connected(&emu, &b),
        || orch.log(),
    );
    let creates = daytona_creates(&emu);
    assert_eq!(creates.len(), 2, "{creates:?}");
    for body in creates {
        for field in ["networkBlockAll", "networkAllowList", "domainAllowList"] {
            assert!(body.get(field).is_none(), "{field} sent: {body}");
        }
    }
}

#[test]
fn daytona_wake_with_a_new_policy_reapplies_it_before_the_remote_runs() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = daytona_setup();
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let s = session_with(&emu, Some(allowed_test()), None);
    wait_until(WAIT, "served", || connected(&emu, &s), || orch.log());
    let daytona = provider(&emu);
    block_on(emu.client().suspend(&s)).unwrap();
    wait_until(
        WAIT,
        "the stop",
        || {
            block_on(daytona.get(&sandbox_name(&s)))
                .unwrap()
                .is_some_and(|x| x.state == outposts::provider::SandboxState::Stopped)
        },
        || orch.log(),
    );
    let wider =
        json!({"enabled": true, "allow": [{"hostname": "allowed.test"}, {"ipv4": "10.9.0.0/16"}]});
    block_on(emu.client().resume_with_policy(&s, &wider)).unwrap();
    wait_until(
        WAIT,
        "the reconnect",
        || connected_at(&emu, &s, 2),
        || orch.log(),
    );
    let settings: Vec<Value> = emu
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/network-settings"))
        .filter_map(|r| r.body)
        .map(|b| serde_json::from_str(&b).unwrap())
        .collect();
    assert_eq!(settings.len(), 1, "{settings:?}\n{}", orch.log());
    assert_eq!(settings[0]["networkBlockAll"], json!(true));
    assert_eq!(
        settings[0]["networkAllowList"],
        json!("10.9.0.0/16,127.0.0.1/32")
    );
    assert_eq!(daytona_creates(&emu).len(), 1, "woken, not recreated");
    assert_openapi_conformance(&emu);
}

#[test]
fn a_policy_daytona_cannot_express_is_released_logged_and_not_reclaimed() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = daytona_setup();
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let glob = json!({"enabled": true, "allow": [{"hostname": "api-*.example.com"}]});
    let s = session_with(&emu, Some(glob), None);
    wait_until(
        WAIT,
        "the refusal",
        || orch.log().contains("api-*.example.com"),
        || orch.log(),
    );
    let log = orch.log();
    assert!(log.contains("not serving the session"), "{log}");
    // Released: back in the queue, unclaimed.
    wait_until(
        WAIT,
        "the release",
        || session(&emu, &s).phase == "pending",
        || orch.log(),
    );
    // A few reconcile rounds later: still one claim, no sandbox, no remote.
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(claims(&emu, &s).len(), 1, "{}", orch.log());
    assert!(daytona_creates(&emu).is_empty());
    assert!(!connected(&emu, &s));
    let status = env.run(&["orchestrator", "status", "--json"]).json();
    let refused = status["refused"].as_array().expect("refused list");
    assert_eq!(refused.len(), 1, "{status}");
    assert_eq!(refused[0]["session_id"], json!(s));
    let reason = refused[0]["reason"].as_str().unwrap();
    assert!(reason.contains("api-*.example.com"), "{reason}");
    let human = env.run(&["orchestrator", "status"]);
    assert!(human.stdout.contains("refused"), "{}", human.stdout);
}

#[test]
fn a_malformed_policy_is_refused_without_a_sandbox() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = daytona_setup();
    let orch = Orch::start(&env, &["--provider", "daytona"]);
    let s = session_with(&emu, Some(json!({"enabled": "yes"})), None);
    wait_until(
        WAIT,
        "the refusal",
        || orch.log().contains("network_policy cannot be read"),
        || orch.log(),
    );
    wait_until(
        WAIT,
        "the release",
        || session(&emu, &s).phase == "pending",
        || orch.log(),
    );
    assert!(daytona_creates(&emu).is_empty());
    assert!(!connected(&emu, &s));
}

#[test]
fn local_refuses_a_restricted_session_and_launches_nothing() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--sweep-delay", "1s"]);
    let orch = Orch::start(&env, &["--provider", "local"]);
    let s = session_with(&emu, Some(allowed_test()), None);
    let open = session_with(&emu, None, None);
    wait_until(
        WAIT,
        "the refusal",
        || {
            orch.log()
                .contains("local sandboxes share the host's network")
        },
        || orch.log(),
    );
    wait_until(
        WAIT,
        "the open one served",
        || connected(&emu, &open),
        || orch.log(),
    );
    wait_until(
        WAIT,
        "the release",
        || session(&emu, &s).phase == "pending",
        || orch.log(),
    );
    assert!(!connected(&emu, &s));
    assert!(
        orch.log().contains("not serving the session"),
        "{}",
        orch.log()
    );
    // Past the first backoff step: still not claimed again (it cools off).
    std::thread::sleep(Duration::from_secs(6));
    let sandboxes = block_on(local(&env).list(&Default::default())).unwrap();
    assert!(
        sandboxes.iter().all(|sb| sb.name != sandbox_name(&s)),
        "no sandbox for the refused session: {sandboxes:?}"
    );
    assert_eq!(claims(&emu, &s).len(), 1);
}

/// The CoreWeave provider of the emulator, on a runtime of its own (its channel lives there).
fn coreweave(emu: &Emu, env: &TestEnv) -> (tokio::runtime::Runtime, CoreweaveProvider) {
    let vars: std::collections::BTreeMap<String, String> = emu.info.env.iter().cloned().collect();
    let config =
        outposts::config::Config::load_with_env(vars, &Default::default(), env.cwd.as_path())
            .unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let p = rt
        .block_on(async {
            CoreweaveProvider::from_settings(outposts::settings::CoreweaveSettings::resolve(
                &config,
            )?)
        })
        .unwrap();
    (rt, p)
}

#[test]
fn coreweave_creates_with_network_options_and_reads_the_effective_egress_back() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--sweep-delay", "1s"]);
    let orch = Orch::start(&env, &["--provider", "coreweave", "--image", CW_IMAGE]);
    let s = session_with(&emu, Some(allowed_test()), None);
    let open = session_with(&emu, None, None);
    wait_until(
        WAIT,
        "both served",
        || connected(&emu, &s) && connected(&emu, &open),
        || orch.log(),
    );
    let (rt, cw) = coreweave(&emu, &env);
    let get = |name: &str| {
        let sb = rt.block_on(cw.get(name)).unwrap().expect("sandbox");
        rt.block_on(cw.client().get_sandbox(&sb.id)).unwrap()
    };
    let status = get(&sandbox_name(&s)).status.unwrap_or_default();
    let rules: Vec<String> = status
        .effective_egress
        .iter()
        .map(|r| match &r.destination {
            Some(pb::egress_rule::Destination::HttpsHostname(h)) => format!("https:{h}"),
            Some(pb::egress_rule::Destination::Cidr(c)) => format!("cidr:{}", c.cidr),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(rules, ["https:allowed.test", "cidr:127.0.0.1/32"]);
    assert_eq!(
        status.effective_dns_egress,
        pb::DnsEgressMode::Allow as i32,
        "hostnames need DNS"
    );
    let info = rt.block_on(cw.get(&sandbox_name(&s))).unwrap().unwrap();
    assert!(info.egress.is_restricted(), "{:?}", info.egress);
    // The open session: no NetworkOptions, so nothing is reported either.
    let open_status = get(&sandbox_name(&open)).status.unwrap_or_default();
    assert!(open_status.effective_egress.is_empty());
    let open_info = rt.block_on(cw.get(&sandbox_name(&open))).unwrap().unwrap();
    assert_eq!(open_info.egress, Egress::Unknown);
    // The create requests: the restricted one carries the matching NetworkOptions, the open
    // one none at all.
    let mut creates = coreweave_creates(&emu);
    creates.sort_by_key(|c| c["network"].is_null());
    assert_eq!(creates.len(), 2, "{creates:?}");
    assert_eq!(
        creates[0]["network"],
        json!({
            "deny_egress": true,
            "dns_egress": "DNS_EGRESS_MODE_ALLOW",
            "egress": [{"https_hostname": "allowed.test"}, {"cidr": "127.0.0.1/32"}]
        })
    );
    assert_eq!(creates[1]["network"], Value::Null);
}

/// The network options of the CoreWeave creates the emulator received (its request log keeps
/// them as JSON).
fn coreweave_creates(emu: &Emu) -> Vec<Value> {
    emu.requests()
        .into_iter()
        .filter(|r| r.api == "coreweave" && r.path.ends_with("/CreateSandbox"))
        .map(|r| serde_json::from_str(&r.body.expect("create body logged")).unwrap())
        .collect()
}

#[test]
fn a_policy_coreweave_cannot_express_launches_no_remote() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--sweep-delay", "1s"]);
    let orch = Orch::start(&env, &["--provider", "coreweave", "--image", CW_IMAGE]);
    let s = session_with(
        &emu,
        Some(json!({"enabled": true, "allow": [{"hostname": "a*b.example.com"}]})),
        None,
    );
    wait_until(
        WAIT,
        "the refusal",
        || orch.log().contains("a*b.example.com"),
        || orch.log(),
    );
    assert!(
        orch.log().contains("not serving the session"),
        "{}",
        orch.log()
    );
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(6) {
        assert!(!connected(&emu, &s));
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(claims(&emu, &s).len(), 1);
    assert!(coreweave_creates(&emu).is_empty());
    // The check that says nothing was created does see creates when there are some.
    let open = session_with(&emu, None, None);
    wait_until(
        WAIT,
        "the open one served",
        || connected(&emu, &open),
        || orch.log(),
    );
    assert_eq!(coreweave_creates(&emu).len(), 1);
}

#[test]
fn coreweave_refuses_to_launch_when_the_effective_egress_is_not_what_was_asked() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (emu, env) = orch_emulator(&["--sweep-delay", "1s"]);
    // A backend that takes NetworkOptions and applies none of them.
    let http = outposts::api::HttpClient::new(Default::default()).unwrap();
    block_on(
        http.send(
            outposts::api::ApiRequest::new(
                outposts::api::http::EMULATOR,
                reqwest::Method::PUT,
                format!("{}/_emulator/coreweave/settings", emu.base_url),
            )
            .json(&json!({"ignore_network": true})),
        ),
    )
    .unwrap();
    let orch = Orch::start(&env, &["--provider", "coreweave", "--image", CW_IMAGE]);
    let s = session_with(&emu, Some(allowed_test()), None);
    wait_until(
        WAIT,
        "the refusal",
        || orch.log().contains("the network policy is not in force"),
        || orch.log(),
    );
    wait_until(
        WAIT,
        "the release",
        || session(&emu, &s).phase == "pending",
        || orch.log(),
    );
    // The sandbox was created (the policy was asked for), but no remote ever ran in it.
    let creates = coreweave_creates(&emu);
    assert_eq!(creates.len(), 1);
    assert_eq!(creates[0]["network"]["deny_egress"], json!(true));
    assert!(!connected(&emu, &s));
    assert_eq!(claims(&emu, &s).len(), 1);
}
