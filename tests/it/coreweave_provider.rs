//! `CoreweaveProvider` end to end against the emulator's CoreWeave gRPC API (which runs real
//! local sandboxes): lifecycle, labels as tags, exec, files, logs, stop/delete semantics,
//! restart counts, auth and retries.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use futures::StreamExt;
use outposts::api::ApiError;
use outposts::config::{Config, ConfigError, LoadOptions};
use outposts::provider::coreweave::CoreweaveProvider;
use outposts::provider::{
    ExecRequest, GitClone, LogOptions, Provider, ProviderError, Resources, SandboxSpec,
    SandboxState, Source,
};
use outposts::secrets::Secret;

use crate::support::{Emu, TestEnv, block_on, emulated_env};

const IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";
const GRPC: &str = "/coreweave.sandbox.v1.SandboxService/";

fn provider(env: &TestEnv) -> anyhow::Result<CoreweaveProvider> {
    let cfg = Config::load_with_env(env.vars.clone(), &LoadOptions::default(), &env.cwd)?;
    CoreweaveProvider::from_settings(outposts::settings::CoreweaveSettings::resolve(&cfg)?)
}

fn setup() -> (TestEnv, Emu, CoreweaveProvider) {
    let (env, emu) = emulated_env(&[]);
    let p = provider(&env).expect("provider");
    (env, emu, p)
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn statuses(log: Vec<outposts::emulator::RequestRecord>, method: &str) -> Vec<u16> {
    log.into_iter()
        .filter(|r| r.path == format!("{GRPC}{method}"))
        .map(|r| r.status)
        .collect()
}

fn calls(emu: &Emu, method: &str) -> Vec<u16> {
    statuses(emu.requests(), method)
}

/// `calls` from inside a runtime.
async fn calls_async(emu: &Emu, method: &str) -> Vec<u16> {
    statuses(emu.client().requests(0).await.expect("request log"), method)
}

#[test]
fn lifecycle_exec_files_logs_stop_and_delete() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (_env, emu, p) = setup();
    let secret = "s3cr3t-token-value-xyz";
    let mut spec = SandboxSpec::new("cw-e2e-worker", Source::Image(IMAGE.into()));
    spec.command = Some(vec![
        "sh".into(),
        "-c".into(),
        "echo started; echo token-len=${#SECRET_TOKEN}; echo env=$FOO; i=0; \
         while :; do i=$((i+1)); echo tick-$i; sleep 0.2; done"
            .into(),
    ]);
    spec.env.insert("FOO".into(), Secret::new("bar"));
    spec.env.insert("SECRET_TOKEN".into(), Secret::new(secret));
    spec.labels = labels(&[("devin.session_id", "sess-1"), ("devin.outpost_id", "op-1")]);
    spec.resources = Resources {
        cpu: Some(2.0),
        memory_gib: Some(4.0),
        ..Default::default()
    };
    spec.max_lifetime = Some(Duration::from_secs(3600));

    block_on(async {
        let info = p.create(&spec).await.expect("create");
        assert_eq!(info.state, SandboxState::Started, "{info:?}");
        assert_eq!(info.raw_state, "STATE_RUNNING");
        assert_eq!(info.name, "cw-e2e-worker");
        assert_eq!(info.labels, spec.labels);
        assert_eq!(info.containers.len(), 1);
        assert_eq!(info.containers[0].name, "main");
        assert_eq!(info.containers[0].restart_count, 0);
        let id = info.id.clone();

        // Names are unique among live sandboxes.
        assert!(matches!(
            p.create(&spec).await,
            Err(ProviderError::AlreadyExists(_))
        ));

        assert_eq!(p.get(&id).await.unwrap().unwrap().id, id);
        assert_eq!(p.get("cw-e2e-worker").await.unwrap().unwrap().id, id);
        assert!(p.get("sb-000000000000").await.unwrap().is_none());

        let found = p
            .list(&labels(&[("devin.session_id", "sess-1")]))
            .await
            .unwrap();
        assert_eq!(
            found.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
            [id.as_str()]
        );
        let both = labels(&[("devin.session_id", "sess-1"), ("devin.outpost_id", "op-1")]);
        assert_eq!(p.list(&both).await.unwrap().len(), 1);
        assert!(
            p.list(&labels(&[("devin.session_id", "other")]))
                .await
                .unwrap()
                .is_empty()
        );

        // exec: argv, env out of band, cwd, exit codes and streams.
        let out = p
            .exec(
                &id,
                &ExecRequest::argv(["sh", "-c", "echo $X; pwd"])
                    .cwd("/tmp")
                    .env("X", Secret::new("from-exec-env")),
            )
            .await
            .unwrap();
        assert_eq!(
            (out.exit_code, out.stdout.as_str()),
            (0, "from-exec-env\n/tmp\n")
        );
        let out = p
            .exec(&id, &ExecRequest::shell("echo out; echo err >&2; exit 4"))
            .await
            .unwrap();
        assert_eq!(
            (out.exit_code, out.stdout.as_str(), out.stderr.as_str()),
            (4, "out\n", "err\n")
        );
        let err = p
            .exec(
                &id,
                &ExecRequest::shell("sleep 5").timeout(Duration::from_secs(1)),
            )
            .await
            .unwrap_err();
        assert!(matches!(err, ProviderError::Timeout(_)), "{err:?}");

        // Files.
        p.write_file(&id, "/tmp/a.txt", b"abc\x00\xff")
            .await
            .unwrap();
        assert_eq!(
            p.read_file(&id, "/tmp/a.txt").await.unwrap().as_deref(),
            Some(&b"abc\x00\xff"[..])
        );
        assert_eq!(p.read_file(&id, "/tmp/missing.txt").await.unwrap(), None);

        // git clone: credentials in the exec env, the URL and argv untouched.
        let out = p
            .exec(
                &id,
                &ExecRequest::shell(
                    "git init -q /tmp/src && cd /tmp/src && echo hi > f && git add f && \
                     git -c user.email=t@example.com -c user.name=t commit -qm init",
                ),
            )
            .await
            .unwrap();
        assert_eq!(out.exit_code, 0, "{out:?}");
        let clone = GitClone {
            url: "file:///tmp/src".into(),
            path: "/tmp/dst".into(),
            branch: None,
            username: Some("bot".into()),
            password: Some(Secret::new("git-password-value-123")),
        };
        p.git_clone(&id, &clone).await.expect("clone");
        assert_eq!(
            p.read_file(&id, "/tmp/dst/f").await.unwrap().as_deref(),
            Some(&b"hi\n"[..])
        );
        let err = p
            .git_clone(
                &id,
                &GitClone {
                    url: "file:///tmp/nowhere".into(),
                    path: "/tmp/dst2".into(),
                    ..clone.clone()
                },
            )
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("git clone of file:///tmp/nowhere"),
            "{err}"
        );
        assert!(!err.to_string().contains("git-password-value-123"));

        // Logs: the main process only; tail and follow.
        let all: Vec<String> = p
            .logs(&id, &LogOptions::default())
            .await
            .unwrap()
            .map(|l| l.unwrap())
            .collect()
            .await;
        assert_eq!(all[..3], ["started", "token-len=22", "env=bar"], "{all:?}");
        assert!(!all.iter().any(|l| l.contains(secret)));
        let tail: Vec<String> = p
            .logs(
                &id,
                &LogOptions {
                    tail: Some(2),
                    follow: false,
                },
            )
            .await
            .unwrap()
            .map(|l| l.unwrap())
            .collect()
            .await;
        assert_eq!(tail.len(), 2, "{tail:?}");
        assert!(tail.iter().all(|l| l.starts_with("tick-")), "{tail:?}");
        let followed: Vec<String> = tokio::time::timeout(
            Duration::from_secs(20),
            p.logs(
                &id,
                &LogOptions {
                    tail: Some(1),
                    follow: true,
                },
            )
            .await
            .unwrap()
            .take(4)
            .map(|l| l.unwrap())
            .collect::<Vec<_>>(),
        )
        .await
        .expect("follow delivers new lines");
        let n = |l: &str| l.trim_start_matches("tick-").parse::<u64>().unwrap();
        assert!(
            followed.windows(2).all(|w| n(&w[1]) == n(&w[0]) + 1),
            "{followed:?}"
        );

        // Stop is final: COMPLETED with the exit code, still readable, no start.
        p.stop(&id).await.unwrap();
        let done = p.get(&id).await.unwrap().unwrap();
        assert_eq!(done.state, SandboxState::Deleted, "{done:?}");
        assert_eq!(done.raw_state, "STATE_COMPLETED");
        assert_eq!(done.containers[0].exit_code, Some(143));
        assert!(
            p.list(&labels(&[("devin.session_id", "sess-1")]))
                .await
                .unwrap()
                .is_empty()
        );
        p.stop(&id).await.expect("stopping twice is fine");
        assert!(matches!(
            p.start(&id).await,
            Err(ProviderError::Unsupported { .. })
        ));
        assert!(matches!(
            p.exec(&id, &ExecRequest::shell("true")).await,
            Err(ProviderError::Invalid(_))
        ));
        p.delete(&id).await.unwrap();
        p.delete("sb-000000000000")
            .await
            .expect("deleting a missing sandbox is done");
        // A finished name can be used again.
        let mut again = SandboxSpec::new("cw-e2e-worker", Source::Default);
        again.labels = labels(&[("devin.session_id", "sess-2")]);
        let second = p.create(&again).await.expect("recreate");
        assert_ne!(second.id, id);
        p.delete(&second.id).await.unwrap();
    });

    let key = emu.env_value("CWSANDBOX_API_KEY");
    for method in [
        "CreateSandbox",
        "GetSandbox",
        "ListSandboxes",
        "Exec",
        "StreamLogs",
    ] {
        assert!(!calls(&emu, method).is_empty(), "{method} never called");
    }
    assert!(calls(&emu, "DeleteSandbox").len() >= 3);
    let log = serde_json::to_string(&emu.requests()).unwrap();
    for text in [log, emu.stderr()] {
        assert!(
            !text.contains(secret) && !text.contains(&key),
            "a secret leaked"
        );
    }
}

#[test]
fn a_failing_main_command_shows_restarts_and_exit_codes() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (_env, _emu, p) = setup();
    let mut spec = SandboxSpec::new("cw-crashloop", Source::Image(IMAGE.into()));
    spec.command = Some(vec!["sh".into(), "-c".into(), "echo boom; exit 3".into()]);
    block_on(async {
        let info = p.create(&spec).await.expect("create");
        let started = Instant::now();
        let seen = loop {
            let i = p.get(&info.id).await.unwrap().unwrap();
            let c = &i.containers[0];
            if c.restart_count >= 2 && c.exit_code == Some(3) {
                break i;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no restarts seen: {i:?}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        // The sandbox keeps running while its container is restarted.
        assert_eq!(seen.state, SandboxState::Started, "{seen:?}");
        assert_eq!(seen.containers[0].state, "failed");
        let lines: Vec<String> = p
            .logs(&info.id, &LogOptions::default())
            .await
            .unwrap()
            .map(|l| l.unwrap())
            .collect()
            .await;
        assert!(
            lines.iter().filter(|l| *l == "boom").count() >= 2,
            "{lines:?}"
        );
        p.delete(&info.id).await.unwrap();
    });
}

#[test]
fn a_main_command_that_exits_zero_completes() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let (_env, _emu, p) = setup();
    let mut spec = SandboxSpec::new("cw-oneshot", Source::Image(IMAGE.into()));
    spec.command = Some(vec!["sh".into(), "-c".into(), "echo finished".into()]);
    block_on(async {
        let info = p.create(&spec).await.expect("create");
        let started = Instant::now();
        let done = loop {
            let i = p.get(&info.id).await.unwrap().unwrap();
            if i.state == SandboxState::Deleted {
                break i;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "{i:?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        assert_eq!(done.raw_state, "STATE_COMPLETED");
        assert_eq!(done.containers[0].exit_code, Some(0));
        assert_eq!(done.containers[0].state, "completed");
        // Finished sandboxes are not listed as live ones.
        assert!(p.list(&BTreeMap::new()).await.unwrap().is_empty());
    });
}

#[test]
fn credentials_missing_wrong_and_wandb() {
    let (env, emu, _p) = setup();

    // Missing: an auth error (exit 4) that says what to set.
    let mut none = TestEnv::new();
    none.set("CWSANDBOX_BASE_URL", emu.base_url.clone());
    let err = provider(&none).unwrap_err();
    match err.downcast_ref::<ConfigError>() {
        Some(ConfigError::MissingCredentials { hint, .. }) => {
            assert!(hint.contains("CWSANDBOX_API_KEY") && hint.contains("WANDB_API_KEY"));
        }
        other => panic!("expected an auth error, got {other:?} ({err:#})"),
    }

    // A path in the base URL is a configuration error naming the variable (exit 2).
    let mut bad = TestEnv::new();
    bad.set("CWSANDBOX_BASE_URL", format!("{}/coreweave", emu.base_url))
        .set("CWSANDBOX_API_KEY", "whatever-key");
    let err = provider(&bad).unwrap_err();
    let cfg = err.downcast_ref::<ConfigError>().expect("config error");
    assert!(cfg.to_string().contains("CWSANDBOX_BASE_URL"), "{cfg}");

    // Wrong key: UNAUTHENTICATED becomes an auth error, without echoing the key.
    let wrong_key = "cw-wrong-key-0123456789";
    let mut wrong = TestEnv::new();
    wrong
        .set("CWSANDBOX_BASE_URL", emu.base_url.clone())
        .set("CWSANDBOX_API_KEY", wrong_key);
    let p = provider(&wrong).unwrap();
    let err = block_on(p.list(&BTreeMap::new())).unwrap_err();
    match &err {
        ProviderError::Api(api @ ApiError::Unauthorized { .. }) => {
            assert!(api.is_auth());
            assert!(
                outposts::settings::advice::api(api)
                    .unwrap_or_default()
                    .contains("CWSANDBOX_API_KEY")
            );
        }
        other => panic!("expected Unauthorized, got {other:?}"),
    }
    assert!(!err.to_string().contains(wrong_key), "{err}");
    assert!(err.to_string().contains("UNAUTHENTICATED"), "{err}");

    // W&B headers are accepted.
    let mut wandb = TestEnv::new();
    wandb
        .set("CWSANDBOX_BASE_URL", emu.base_url.clone())
        .set("WANDB_API_KEY", "wandb-user-key-0123456789abcdef")
        .set("WANDB_ENTITY", "team")
        .set("WANDB_BASE_URL", "http://wandb.internal:8080");
    let p = provider(&wandb).unwrap();
    assert!(block_on(p.list(&BTreeMap::new())).unwrap().is_empty());
    drop(env);

    let text = format!(
        "{}{}",
        serde_json::to_string(&emu.requests()).unwrap(),
        emu.stderr()
    );
    assert!(!text.contains(wrong_key) && !text.contains("wandb-user-key-0123456789abcdef"));
}

#[test]
fn unavailable_is_retried_for_idempotent_calls_only() {
    let (_env, emu, p) = setup();
    block_on(async {
        emu.client()
            .add_faults(&format!(
                r#"{{"path":"{GRPC}ListSandboxes","nth":1,"times":2,"action":{{"kind":"status","status":503}}}}"#
            ))
            .await
            .unwrap();
        assert!(p.list(&BTreeMap::new()).await.unwrap().is_empty());
        assert_eq!(calls_async(&emu, "ListSandboxes").await, [503, 503, 200]);

        // Exec is not idempotent: one attempt, then the error.
        let mut spec = SandboxSpec::new("cw-retry", Source::Default);
        spec.labels = labels(&[("t", "retry")]);
        let info = p.create(&spec).await.unwrap();
        emu.client()
            .add_faults(&format!(
                r#"{{"path":"{GRPC}Exec","nth":1,"times":1,"action":{{"kind":"status","status":503}}}}"#
            ))
            .await
            .unwrap();
        let err = p
            .exec(&info.id, &ExecRequest::shell("true"))
            .await
            .unwrap_err();
        assert!(
            matches!(err, ProviderError::Api(ApiError::Transport { .. })),
            "{err:?}"
        );
        assert_eq!(calls_async(&emu, "Exec").await, [503]);
        p.delete(&info.id).await.unwrap();
    });
}
