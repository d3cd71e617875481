//! The emulator's CoreWeave API at the wire level (our gRPC client): idempotent creates,
//! paging, not-found details, deletes, lifetime expiry, UNIMPLEMENTED methods, exec
//! cancellation, the emulator's secret store, scratch volumes and file-system snapshots.

use std::time::{Duration, Instant};

use futures::StreamExt;
use outposts::api::coreweave::error::{REASON_REQUEST_ID_CONFLICT, REASON_SANDBOX_NOT_FOUND};
use outposts::api::coreweave::{CoreweaveClient, CoreweaveError, ErrorKind, pb};
use outposts::config::{Config, LoadOptions};

use crate::support::{Emu, TestEnv, block_on, emulated_env};

fn client(env: &TestEnv) -> CoreweaveClient {
    let cfg =
        Config::load_with_env(env.vars.clone(), &LoadOptions::default(), &env.cwd).expect("config");
    CoreweaveClient::from_settings(
        outposts::settings::CoreweaveSettings::resolve(&cfg).expect("settings"),
    )
    .expect("client")
}

fn setup() -> (TestEnv, Emu, CoreweaveClient) {
    let (env, emu) = emulated_env(&[]);
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
    crate::support::host::require!(crate::support::host::SANDBOXES);
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
    crate::support::host::require!(crate::support::host::SANDBOXES);
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
    crate::support::host::require!(crate::support::host::SANDBOXES);
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
    crate::support::host::require!(crate::support::host::SANDBOXES);
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
    crate::support::host::require!(crate::support::host::SANDBOXES);
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

// ---- Scratch volumes and file-system snapshots ----

/// `body` with scratch volumes mounted at `/<name>` (`restore` names a snapshot to restore the
/// first one from).
fn with_volumes(mut body: pb::Sandbox, names: &[&str], restore: &str) -> pb::Sandbox {
    if let Some(spec) = body.spec.as_mut() {
        for (i, name) in names.iter().enumerate() {
            spec.volumes.push(pb::SandboxVolume {
                name: name.to_string(),
                source: Some(pb::sandbox_volume::Source::Scratch(pb::ScratchVolume {
                    size: "1Gi".into(),
                    medium: pb::StorageMedium::Disk as i32,
                    restore_from_snapshot_id: if i == 0 {
                        restore.into()
                    } else {
                        String::new()
                    },
                })),
            });
            spec.containers[0].volume_mounts.push(pb::VolumeMount {
                volume: name.to_string(),
                mount_path: format!("/{name}"),
                ..Default::default()
            });
        }
    }
    body
}

async fn snapshot(
    c: &CoreweaveClient,
    sandbox_id: &str,
    volume: &str,
    request_id: &str,
) -> Result<pb::FileSystemSnapshot, CoreweaveError> {
    let req = pb::CreateFileSystemSnapshotRequest {
        sandbox_id: sandbox_id.into(),
        request_id: request_id.into(),
        scratch_volume_name: volume.into(),
    };
    c.grpc()
        .create_file_system_snapshot(c.authorized(req))
        .await
        .map(|r| r.into_inner())
        .map_err(|s| CoreweaveError::from_status("CreateFileSystemSnapshot", &s))
}

async fn get_snapshot(
    c: &CoreweaveClient,
    id: &str,
) -> Result<pb::FileSystemSnapshot, CoreweaveError> {
    let req = pb::GetFileSystemSnapshotRequest {
        file_system_snapshot_id: id.into(),
    };
    c.grpc()
        .get_file_system_snapshot(c.authorized(req))
        .await
        .map(|r| r.into_inner())
        .map_err(|s| CoreweaveError::from_status("GetFileSystemSnapshot", &s))
}

async fn delete_snapshot(
    c: &CoreweaveClient,
    id: &str,
    allow_missing: bool,
) -> Result<pb::FileSystemSnapshot, CoreweaveError> {
    let req = pb::DeleteFileSystemSnapshotRequest {
        file_system_snapshot_id: id.into(),
        allow_missing,
    };
    c.grpc()
        .delete_file_system_snapshot(c.authorized(req))
        .await
        .map(|r| r.into_inner())
        .map_err(|s| CoreweaveError::from_status("DeleteFileSystemSnapshot", &s))
}

async fn list_snapshots(
    c: &CoreweaveClient,
    req: pb::ListFileSystemSnapshotsRequest,
) -> Result<pb::ListFileSystemSnapshotsResponse, CoreweaveError> {
    c.grpc()
        .list_file_system_snapshots(c.authorized(req))
        .await
        .map(|r| r.into_inner())
        .map_err(|s| CoreweaveError::from_status("ListFileSystemSnapshots", &s))
}

async fn delete_with_snapshots(
    c: &CoreweaveClient,
    id: &str,
    volumes: &[&str],
    request_id: &str,
) -> Result<pb::DeleteSandboxResponse, CoreweaveError> {
    let req = pb::DeleteSandboxRequest {
        sandbox_id: id.into(),
        grace_period_seconds: 1,
        snapshot_volumes: volumes.iter().map(|v| v.to_string()).collect(),
        request_id: request_id.into(),
        allow_missing: false,
    };
    c.grpc()
        .delete_sandbox(c.authorized(req))
        .await
        .map(|r| r.into_inner())
        .map_err(|s| CoreweaveError::from_status("DeleteSandbox", &s))
}

fn snap_state(s: &pb::FileSystemSnapshot) -> pb::SnapshotState {
    pb::SnapshotState::try_from(s.state).unwrap()
}

async fn wait_snapshot(
    c: &CoreweaveClient,
    id: &str,
    want: pb::SnapshotState,
) -> pb::FileSystemSnapshot {
    let started = Instant::now();
    loop {
        let s = get_snapshot(c, id).await.expect("get snapshot");
        if snap_state(&s) == want {
            return s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{id} never reached {want:?}: {s:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn sh(c: &CoreweaveClient, id: &str, script: &str) -> String {
    let out = c
        .exec(
            pb::ExecRequest {
                sandbox_id: id.into(),
                command: vec!["sh".into(), "-c".into(), script.into()],
                ..Default::default()
            },
            Duration::from_secs(10),
        )
        .await
        .unwrap();
    assert_eq!(out.exit_code, 0, "{script}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

async fn logs(c: &CoreweaveClient, id: &str) -> String {
    let mut stream = c
        .stream_logs(pb::StreamLogsRequest {
            sandbox_id: id.into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let mut text = Vec::new();
    while let Some(chunk) = stream.next().await {
        text.extend_from_slice(&chunk.unwrap());
    }
    String::from_utf8_lossy(&text).into_owned()
}

#[test]
fn scratch_volume_files_survive_snapshot_delete_and_restore() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (_env, emu, c) = setup();
    block_on(async {
        let body = with_volumes(sandbox(&[], &["sleep", "60"]), &["workspace"], "");
        let sb = c.create_sandbox(body.clone(), "").await.unwrap();
        let id = sb.sandbox_id;
        let running = wait_state(&c, &id, pb::State::Running).await;
        assert_eq!(running.spec, body.spec, "volumes and mounts are echoed");
        c.write_file(&id, "/workspace/notes/a.txt", "kept".into())
            .await
            .unwrap();
        sh(
            &c,
            &id,
            "ln -s /etc/hostname /workspace/link; echo outside > /tmp/not-in-volume",
        )
        .await;

        let snap = snapshot(&c, &id, "", "snap-req-1").await.unwrap();
        assert!(snap.file_system_snapshot_id.starts_with("fss-"), "{snap:?}");
        assert_eq!(snap_state(&snap), pb::SnapshotState::Creating);
        assert_eq!(snap.trigger, pb::SnapshotTrigger::Manual as i32);
        assert_eq!(
            (
                snap.source_sandbox_id.as_str(),
                snap.source_volume_name.as_str()
            ),
            (id.as_str(), "workspace")
        );
        assert_eq!(snap.request_id, "snap-req-1");
        assert!(snap.create_time.is_some() && snap.updated_at.is_some());
        assert!(snap.complete_time.is_none());
        // The same request_id again: the same snapshot.
        let again = snapshot(&c, &id, "", "snap-req-1").await.unwrap();
        assert_eq!(again.file_system_snapshot_id, snap.file_system_snapshot_id);
        let named = snapshot(&c, &id, "workspace", "snap-req-1").await.unwrap();
        assert_eq!(named.file_system_snapshot_id, snap.file_system_snapshot_id);
        // Written after the snapshot was taken: not in it.
        c.write_file(&id, "/workspace/late.txt", "late".into())
            .await
            .unwrap();
        let ready =
            wait_snapshot(&c, &snap.file_system_snapshot_id, pb::SnapshotState::Ready).await;
        assert_eq!(ready.size_bytes, 4);
        assert!(ready.complete_time.is_some());
        let files = emu
            .data_dir()
            .join("coreweave/snapshots")
            .join(&snap.file_system_snapshot_id);
        assert!(files.join("notes/a.txt").is_file(), "{}", files.display());

        // The sandbox goes; its snapshot stays, and a new sandbox starts from it.
        c.delete_sandbox(&id, Duration::ZERO, false).await.unwrap();
        wait_state(&c, &id, pb::State::Completed).await;
        let retry = snapshot(&c, &id, "", "snap-req-1").await.unwrap();
        assert_eq!(retry.file_system_snapshot_id, snap.file_system_snapshot_id);
        assert_eq!(snap_state(&retry), pb::SnapshotState::Ready);
        let restored = with_volumes(
            sandbox(
                &[],
                &["sh", "-c", "cat /workspace/notes/a.txt; echo; sleep 60"],
            ),
            &["workspace"],
            &snap.file_system_snapshot_id,
        );
        let sb2 = c.create_sandbox(restored, "").await.unwrap();
        let id2 = sb2.sandbox_id;
        wait_state(&c, &id2, pb::State::Running).await;
        // The main command read the file when it started: restored before it ran.
        let started = Instant::now();
        while logs(&c, &id2).await != "kept\n" {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{}",
                logs(&c, &id2).await
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            sh(&c, &id2, "readlink /workspace/link").await,
            "/etc/hostname\n"
        );
        assert_eq!(
            sh(
                &c,
                &id2,
                "ls /workspace/late.txt /tmp/not-in-volume 2>/dev/null; true"
            )
            .await,
            ""
        );
    });
}

#[test]
fn snapshots_list_by_sandbox_page_and_delete() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (_env, emu, c) = setup();
    block_on(async {
        let mut sandboxes = Vec::new();
        for _ in 0..2 {
            let body = with_volumes(sandbox(&[], &["sleep", "60"]), &["workspace"], "");
            let sb = c.create_sandbox(body, "").await.unwrap();
            wait_state(&c, &sb.sandbox_id, pb::State::Running).await;
            sandboxes.push(sb.sandbox_id);
        }
        let mut ids = Vec::new();
        for (i, sb) in [&sandboxes[0], &sandboxes[1], &sandboxes[0], &sandboxes[0]]
            .into_iter()
            .enumerate()
        {
            let snap = snapshot(&c, sb, "workspace", &format!("list-{i}"))
                .await
                .unwrap();
            ids.push(snap.file_system_snapshot_id);
        }
        // A request_id belongs to one snapshot.
        let err = snapshot(&c, &sandboxes[1], "workspace", "list-0")
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::AlreadyExists, "{err}");
        assert_eq!(err.reason.as_deref(), Some(REASON_REQUEST_ID_CONFLICT));
        let of_first: Vec<String> = [0, 2, 3].iter().map(|&i| ids[i].clone()).collect();
        let (mut seen, mut token, mut pages) = (Vec::new(), String::new(), 0);
        loop {
            let page = list_snapshots(
                &c,
                pb::ListFileSystemSnapshotsRequest {
                    page_size: 2,
                    page_token: token.clone(),
                    source_sandbox_id: sandboxes[0].clone(),
                },
            )
            .await
            .unwrap();
            pages += 1;
            seen.extend(
                page.file_system_snapshots
                    .into_iter()
                    .map(|s| s.file_system_snapshot_id),
            );
            if page.next_page_token.is_empty() {
                break;
            }
            token = page.next_page_token;
        }
        assert_eq!(
            (pages, &seen),
            (2, &of_first),
            "in creation order, two pages"
        );
        let all = list_snapshots(&c, Default::default()).await.unwrap();
        let all: Vec<String> = all
            .file_system_snapshots
            .into_iter()
            .map(|s| s.file_system_snapshot_id)
            .collect();
        assert_eq!(all, ids);
        let err = list_snapshots(
            &c,
            pb::ListFileSystemSnapshotsRequest {
                page_token: "garbage".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::Invalid);

        // Delete: DELETING, then gone with its files.
        let victim = &ids[1];
        wait_snapshot(&c, victim, pb::SnapshotState::Ready).await;
        let files = emu.data_dir().join("coreweave/snapshots").join(victim);
        assert!(files.is_dir());
        let gone = delete_snapshot(&c, victim, false).await.unwrap();
        assert_eq!(snap_state(&gone), pb::SnapshotState::Deleting);
        let started = Instant::now();
        let err = loop {
            match get_snapshot(&c, victim).await {
                Err(e) => break e,
                Ok(s) => assert_eq!(snap_state(&s), pb::SnapshotState::Deleting),
            }
            assert!(started.elapsed() < Duration::from_secs(20));
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(err.kind, ErrorKind::NotFound);
        assert_eq!(err.reason.as_deref(), Some("CWSANDBOX_FSS_NOT_FOUND"));
        let started = Instant::now();
        while files.exists() {
            assert!(started.elapsed() < Duration::from_secs(10), "files stay");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let err = delete_snapshot(&c, victim, false).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::NotFound);
        delete_snapshot(&c, victim, true).await.unwrap();
        let left = list_snapshots(&c, Default::default()).await.unwrap();
        assert_eq!(left.file_system_snapshots.len(), 3);
    });
}

#[test]
fn delete_sandbox_snapshots_the_named_volumes_first() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (_env, _emu, c) = setup();
    block_on(async {
        let body = with_volumes(sandbox(&[], &["sleep", "60"]), &["workspace", "cache"], "");
        let id = c.create_sandbox(body, "").await.unwrap().sandbox_id;
        wait_state(&c, &id, pb::State::Running).await;
        sh(
            &c,
            &id,
            "printf abc > /workspace/w; printf 12345 > /cache/c",
        )
        .await;

        // Several volumes: a snapshot must name one.
        let err = snapshot(&c, &id, "", "").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::Invalid, "{err}");
        // An unknown volume: nothing is snapshotted or deleted.
        let err = delete_with_snapshots(&c, &id, &["workspace", "nope"], "del-1")
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::Invalid, "{err}");
        assert!(err.to_string().contains("nope"), "{err}");
        assert_eq!(
            state(&c.get_sandbox(&id).await.unwrap()),
            pb::State::Running
        );
        assert!(
            list_snapshots(&c, Default::default())
                .await
                .unwrap()
                .file_system_snapshots
                .is_empty()
        );

        let resp = delete_with_snapshots(&c, &id, &["workspace", "cache"], "del-1")
            .await
            .unwrap();
        assert_eq!(
            state(resp.sandbox.as_ref().unwrap()),
            pb::State::Terminating
        );
        assert_eq!(resp.file_system_snapshot_ids.len(), 2);
        for (snap_id, (volume, size)) in resp
            .file_system_snapshot_ids
            .iter()
            .zip([("workspace", 3), ("cache", 5)])
        {
            let s = wait_snapshot(&c, snap_id, pb::SnapshotState::Ready).await;
            assert_eq!(s.trigger, pb::SnapshotTrigger::OnDelete as i32);
            assert_eq!(s.request_id, "del-1");
            assert_eq!(
                (s.source_volume_name.as_str(), s.size_bytes),
                (volume, size)
            );
        }
        // A retried delete answers with the same snapshots.
        let retry = delete_with_snapshots(&c, &id, &["workspace", "cache"], "del-1")
            .await
            .unwrap();
        assert_eq!(
            retry.file_system_snapshot_ids,
            resp.file_system_snapshot_ids
        );
        wait_state(&c, &id, pb::State::Completed).await;
        // A finished sandbox has no volumes left to snapshot.
        let err = snapshot(&c, &id, "workspace", "").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::FailedPrecondition, "{err}");
    });
}

#[test]
fn volume_and_snapshot_errors() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (_env, emu, c) = setup();
    block_on(async {
        let base = || with_volumes(sandbox(&[], &["sleep", "60"]), &["workspace"], "");
        let edit = |f: &dyn Fn(&mut pb::SandboxSpec)| {
            let mut b = base();
            f(b.spec.as_mut().unwrap());
            b
        };
        for (body, needle) in [
            (
                edit(&|s| s.containers[0].volume_mounts[0].volume = "undeclared".into()),
                "not a volume declared",
            ),
            (
                edit(&|s| s.volumes.push(s.volumes[0].clone())),
                "declared twice",
            ),
            (
                edit(&|s| s.volumes[0].name = "Bad_Name".into()),
                "lowercase",
            ),
            (
                edit(&|s| {
                    s.volumes[0].source = Some(pb::sandbox_volume::Source::VolumeId("vol-1".into()))
                }),
                "persistent volumes are not emulated",
            ),
        ] {
            let err = c.create_sandbox(body, "").await.unwrap_err();
            assert_eq!(err.kind, ErrorKind::Invalid, "{err}");
            assert!(err.to_string().contains(needle), "{err} lacks {needle}");
        }
        let unknown = with_volumes(
            sandbox(&[], &["sleep", "60"]),
            &["workspace"],
            "fss-unknown",
        );
        let err = c.create_sandbox(unknown, "").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::NotFound, "{err}");
        assert_eq!(err.reason.as_deref(), Some("CWSANDBOX_FSS_NOT_FOUND"));
        assert!(err.to_string().contains("fss-unknown"), "{err}");

        let err = snapshot(&c, "sb-doesnotexist", "", "").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::NotFound);
        let err = get_snapshot(&c, "fss-doesnotexist").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::NotFound);
        let plain = c
            .create_sandbox(sandbox(&[], &["sleep", "60"]), "")
            .await
            .unwrap();
        wait_state(&c, &plain.sandbox_id, pb::State::Running).await;
        let err = snapshot(&c, &plain.sandbox_id, "", "").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::FailedPrecondition, "{err}");

        // A snapshot still CREATING cannot be restored yet.
        let http = outposts::api::HttpClient::new(Default::default()).unwrap();
        http.send(
            outposts::api::ApiRequest::new(
                outposts::api::http::EMULATOR,
                reqwest::Method::PUT,
                format!("{}/_emulator/coreweave/settings", emu.base_url),
            )
            .json(&serde_json::json!({"snapshot_ready_ms": 60_000})),
        )
        .await
        .unwrap();
        let sb = c.create_sandbox(base(), "").await.unwrap();
        wait_state(&c, &sb.sandbox_id, pb::State::Running).await;
        let snap = snapshot(&c, &sb.sandbox_id, "workspace", "").await.unwrap();
        let early = with_volumes(
            sandbox(&[], &["sleep", "60"]),
            &["workspace"],
            &snap.file_system_snapshot_id,
        );
        let err = c.create_sandbox(early, "").await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::FailedPrecondition, "{err}");
        assert_eq!(err.reason.as_deref(), Some("CWSANDBOX_FSS_NOT_READY"));
        assert!(err.to_string().contains("SNAPSHOT_STATE_CREATING"), "{err}");
    });
}
