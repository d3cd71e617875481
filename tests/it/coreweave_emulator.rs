//! The emulator's CoreWeave API at the wire level (our gRPC client): idempotent creates,
//! paging, not-found details, deletes, lifetime expiry, UNIMPLEMENTED methods, exec
//! cancellation and the emulator's secret store.

use std::time::{Duration, Instant};

use futures::StreamExt;
use outposts::api::coreweave::error::{REASON_REQUEST_ID_CONFLICT, REASON_SANDBOX_NOT_FOUND};
use outposts::api::coreweave::{CoreweaveClient, ErrorKind, pb};
use outposts::config::{Config, LoadOptions};

use crate::support::{Emu, TestEnv, block_on};

fn client(env: &TestEnv) -> CoreweaveClient {
    let cfg =
        Config::load_with_env(env.vars.clone(), &LoadOptions::default(), &env.cwd).expect("config");
    CoreweaveClient::from_config(&cfg).expect("client")
}

fn setup() -> (TestEnv, Emu, CoreweaveClient) {
    let mut env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    emu.configure(&mut env);
    let c = client(&env);
    (env, emu, c)
}

fn sandbox(tags: &[&str], argv: &[&str]) -> pb::Sandbox {
    pb::Sandbox {
        spec: Some(pb::SandboxSpec {
            containers: vec![pb::Container {
                name: "main".into(),
                image: "python:3.11".into(),
                command: argv[0].into(),
                args: argv[1..].iter().map(|s| s.to_string()).collect(),
                ..Default::default()
            }],
            tags: tags.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn state(sb: &pb::Sandbox) -> pb::State {
    pb::State::try_from(sb.status.as_ref().map(|s| s.state).unwrap_or(0)).unwrap()
}

async fn wait_state(c: &CoreweaveClient, id: &str, want: pb::State) -> pb::Sandbox {
    let started = Instant::now();
    loop {
        let sb = c.get_sandbox(id).await.expect("get");
        if state(&sb) == want {
            return sb;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{id} never reached {want:?}: {sb:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[test]
fn create_is_idempotent_per_request_id_and_echoes_the_spec() {
    crate::host::require!(crate::host::BWRAP);
    let (_env, _emu, c) = setup();
    block_on(async {
        let body = sandbox(&["idem"], &["sleep", "60"]);
        let first = c.create_sandbox(body.clone(), "req-1").await.unwrap();
        assert!(first.sandbox_id.starts_with("sb-"), "{first:?}");
        assert_eq!(state(&first), pb::State::Creating);
        assert_eq!(first.spec, body.spec, "the spec is echoed");
        let again = c.create_sandbox(body.clone(), "req-1").await.unwrap();
        assert_eq!(again.sandbox_id, first.sandbox_id);
        let other = sandbox(&["idem", "x"], &["sleep", "60"]);
        let err = c.create_sandbox(other, "req-1").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::AlreadyExists);
        assert_eq!(err.reason.as_deref(), Some(REASON_REQUEST_ID_CONFLICT));
        let running = wait_state(&c, &first.sandbox_id, pb::State::Running).await;
        let cs = &running.status.unwrap().container_statuses;
        assert_eq!((cs[0].name.as_str(), cs[0].restart_count), ("main", 0));

        let bad = pb::Sandbox::default();
        let err = c.create_sandbox(bad, "req-2").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::Invalid);
        assert!(err.to_string().contains("sandbox.spec"), "{err}");
    });
}

#[test]
fn list_filters_by_all_tags_hides_finished_ones_and_pages() {
    crate::host::require!(crate::host::BWRAP);
    let (_env, _emu, c) = setup();
    block_on(async {
        let mut ids = Vec::new();
        for i in 0..3 {
            let tags = ["pool", if i == 0 { "first" } else { "rest" }];
            let sb = c
                .create_sandbox(sandbox(&tags, &["sleep", "60"]), &format!("list-{i}"))
                .await
                .unwrap();
            ids.push(sb.sandbox_id);
        }
        let mut seen = Vec::new();
        let mut token = String::new();
        let mut pages = 0;
        loop {
            let page = c
                .list_page(
                    pb::ListSandboxesRequest {
                        page_size: 1,
                        page_token: token.clone(),
                        tags: vec!["pool".into()],
                        ..Default::default()
                    },
                    Duration::from_secs(10),
                )
                .await
                .unwrap();
            pages += 1;
            assert!(page.sandboxes.len() <= 1);
            seen.extend(page.sandboxes.into_iter().map(|s| s.sandbox_id));
            if page.next_page_token.is_empty() {
                break;
            }
            token = page.next_page_token;
        }
        assert_eq!(pages, 3);
        assert_eq!(seen, ids);
        let both = c
            .list_sandboxes(&["pool".into(), "first".into()], false)
            .await
            .unwrap();
        assert_eq!(both.len(), 1);
        assert_eq!(both[0].sandbox_id, ids[0]);

        c.delete_sandbox(&ids[1], Duration::ZERO, false)
            .await
            .unwrap();
        wait_state(&c, &ids[1], pb::State::Completed).await;
        let active = c.list_sandboxes(&["pool".into()], false).await.unwrap();
        assert_eq!(active.len(), 2);
        let all = c.list_sandboxes(&["pool".into()], true).await.unwrap();
        assert_eq!(all.len(), 3);

        let err = c
            .list_page(
                pb::ListSandboxesRequest {
                    page_token: "garbage".into(),
                    ..Default::default()
                },
                Duration::from_secs(10),
            )
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::Invalid);
    });
}

#[test]
fn not_found_delete_and_lifetime() {
    crate::host::require!(crate::host::BWRAP);
    let (_env, _emu, c) = setup();
    block_on(async {
        let err = c.get_sandbox("sb-doesnotexist").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::NotFound);
        assert_eq!(err.reason.as_deref(), Some(REASON_SANDBOX_NOT_FOUND));
        let err = c
            .delete_sandbox("sb-doesnotexist", Duration::ZERO, false)
            .await
            .unwrap_err();
        assert!(err.is_sandbox_not_found());
        assert!(
            c.delete_sandbox("sb-doesnotexist", Duration::ZERO, true)
                .await
                .unwrap()
                .is_none()
        );

        // Delete: TERMINATING at once, then COMPLETED with an exit code, still readable.
        let sb = c
            .create_sandbox(sandbox(&[], &["sleep", "60"]), "")
            .await
            .unwrap();
        wait_state(&c, &sb.sandbox_id, pb::State::Running).await;
        let resp = c
            .delete_sandbox(&sb.sandbox_id, Duration::from_secs(10), false)
            .await
            .unwrap()
            .expect("the sandbox");
        assert_eq!(state(&resp), pb::State::Terminating);
        let done = wait_state(&c, &sb.sandbox_id, pb::State::Completed).await;
        let status = done.status.unwrap();
        assert_eq!(status.exit_code, Some(143));
        assert!(status.end_time.is_some());
        // Deleting a finished sandbox changes nothing.
        let again = c
            .delete_sandbox(&sb.sandbox_id, Duration::ZERO, false)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(again.status.unwrap().exit_code, Some(143));

        // max_lifetime_seconds is enforced.
        let mut short = sandbox(&[], &["sleep", "60"]);
        if let Some(spec) = short.spec.as_mut() {
            spec.max_lifetime_seconds = 1;
        }
        let sb = c.create_sandbox(short, "").await.unwrap();
        let done = wait_state(&c, &sb.sandbox_id, pb::State::Completed).await;
        assert_eq!(done.status.unwrap().state_reason, "max lifetime reached");
    });
}

#[test]
fn connect_sandbox_is_unimplemented_and_exec_is_cancelled_with_its_call() {
    crate::host::require!(crate::host::BWRAP);
    let (_env, _emu, c) = setup();
    block_on(async {
        let sb = c
            .create_sandbox(sandbox(&[], &["sleep", "60"]), "")
            .await
            .unwrap();
        let id = sb.sandbox_id;
        wait_state(&c, &id, pb::State::Running).await;

        let err = c
            .grpc()
            .connect_sandbox(c.authorized(pb::ConnectSandboxRequest {
                sandbox_id: id.clone(),
                ..Default::default()
            }))
            .await
            .unwrap_err();
        assert_eq!(err.code(), tonic::Code::Unimplemented);

        // A StreamExec whose caller goes away takes its command with it.
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        tx.send(pb::ExecStreamRequest {
            message: Some(pb::exec_stream_request::Message::Init(pb::ExecStreamInit {
                sandbox_id: id.clone(),
                command: vec![
                    "sh".into(),
                    "-c".into(),
                    "sleep 3; touch /tmp/after-cancel".into(),
                ],
                ..Default::default()
            })),
        })
        .await
        .unwrap();
        drop(tx);
        let mut stream = c
            .grpc()
            .stream_exec(c.authorized(tokio_stream::wrappers::ReceiverStream::new(rx)))
            .await
            .unwrap()
            .into_inner();
        let first = stream.next().await.unwrap().unwrap();
        assert!(matches!(
            first.message,
            Some(pb::exec_stream_response::Message::Ready(_))
        ));
        drop(stream);
        tokio::time::sleep(Duration::from_secs(5)).await;
        let check = c
            .exec(
                pb::ExecRequest {
                    sandbox_id: id.clone(),
                    command: vec!["ls".into(), "/tmp/after-cancel".into()],
                    ..Default::default()
                },
                Duration::from_secs(10),
            )
            .await
            .unwrap();
        assert_ne!(check.exit_code, 0, "the cancelled command ran to the end");

        // Unary exec caps output on request.
        let out = c
            .exec(
                pb::ExecRequest {
                    sandbox_id: id.clone(),
                    command: vec!["sh".into(), "-c".into(), "printf 0123456789".into()],
                    max_output_bytes: 4,
                    ..Default::default()
                },
                Duration::from_secs(10),
            )
            .await
            .unwrap();
        assert_eq!(&out.stdout[..], b"0123");
        assert!(out.stdout_truncated);
        assert_eq!(out.stdout_bytes_produced, 10);
    });
}

#[test]
fn secret_store_references_need_provisioned_values() {
    crate::host::require!(crate::host::BWRAP);
    let (_env, emu, c) = setup();
    let mut body = sandbox(
        &[],
        &["sh", "-c", "echo len=${#DEVIN_OUTPOSTS_TOKEN}; sleep 60"],
    );
    if let Some(spec) = body.spec.as_mut() {
        spec.containers[0].secret_stores = vec![pb::SecretStoreReference {
            store_name: "wandb".into(),
            secrets: vec![pb::SecretMapping {
                path: "DEVIN_TOKEN".into(),
                field: String::new(),
                env_var: "DEVIN_OUTPOSTS_TOKEN".into(),
            }],
        }];
    }
    block_on(async {
        let err = c.create_sandbox(body.clone(), "").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::FailedPrecondition);
        assert!(err.to_string().contains("DEVIN_TOKEN"), "{err}");
        let http = outposts::api::HttpClient::new(Default::default()).unwrap();
        http.send(
            outposts::api::ApiRequest::new(
                outposts::api::http::EMULATOR,
                reqwest::Method::PUT,
                format!("{}/_emulator/coreweave/secrets", emu.base_url),
            )
            .json(&serde_json::json!({"store": "wandb", "path": "DEVIN_TOKEN", "value": "cog_secretvalue12345"})),
        )
        .await
        .unwrap();
        let sb = c.create_sandbox(body, "").await.unwrap();
        wait_state(&c, &sb.sandbox_id, pb::State::Running).await;
        let started = Instant::now();
        loop {
            let mut logs = c
                .stream_logs(pb::StreamLogsRequest {
                    sandbox_id: sb.sandbox_id.clone(),
                    ..Default::default()
                })
                .await
                .unwrap();
            let mut text = Vec::new();
            while let Some(chunk) = logs.next().await {
                text.extend_from_slice(&chunk.unwrap());
            }
            if text == b"len=20\n" {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "{text:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
}
