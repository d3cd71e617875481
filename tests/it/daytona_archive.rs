//! Daytona archive and restore on the emulator: a stopped sandbox archives itself after its
//! `autoArchiveInterval` (with the emulator's "minute" shortened), `POST /sandbox/{id}/archive`
//! does it at once, and a start from `archived` answers `restoring` and ends `started` with the
//! sandbox's files intact.

use std::time::{Duration, Instant};

use outposts::api::daytona::DaytonaClient;
use outposts::api::daytona_types::{CreateSandbox, ExecuteRequest, Sandbox, SandboxState as St};
use outposts::api::{ApiRequest, http};
use outposts::secrets::Secret;
use serde_json::json;

use crate::support::daytona::{assert_openapi_conformance, client, http_client, set_settings};
use crate::support::{Emu, TestEnv, block_on};

fn state(sb: &Sandbox) -> St {
    sb.state.expect("a state")
}

/// Poll until `want`, returning every distinct state seen on the way (in order).
async fn states_until(c: &DaytonaClient, id: &str, want: St) -> Vec<St> {
    let started = Instant::now();
    let mut seen: Vec<St> = Vec::new();
    loop {
        let sb = c.get_sandbox(id).await.unwrap().expect("the sandbox");
        let st = state(&sb);
        if seen.last() != Some(&st) {
            seen.push(st);
        }
        if st == want {
            return seen;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{id} never reached {want:?}; saw {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `POST /sandbox/{id}/archive` (the client has no wrapper): status and JSON body.
async fn archive(emu: &Emu, id: &str) -> (u16, serde_json::Value) {
    let req = ApiRequest::post(
        http::DAYTONA,
        format!("{}/sandbox/{id}/archive", emu.env_value("DAYTONA_API_URL")),
    )
    .bearer(&Secret::new(emu.env_value("DAYTONA_API_KEY")))
    .header("Accept", "application/json")
    .pass_status(&[400, 404, 409]);
    let resp = http_client().send(req).await.expect("archive call");
    let body = serde_json::from_slice(&resp.body).unwrap_or(serde_json::Value::Null);
    (resp.status.as_u16(), body)
}

async fn create(c: &DaytonaClient, name: &str, auto_archive: i64) -> Sandbox {
    let sb = c
        .create_sandbox(&CreateSandbox {
            name: Some(name.into()),
            auto_archive_interval: Some(auto_archive),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(state(&sb), St::Started);
    sb
}

#[test]
fn a_stopped_sandbox_archives_itself_and_restores_with_its_files() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    // One "minute" is 300 ms here; the transitions are slow enough to be seen.
    set_settings(
        &emu,
        json!({"minute_ms": 300, "stop_ms": 50, "archive_ms": 400, "restore_ms": 600}),
    );
    let c = client(&emu);
    block_on(async {
        let sb = create(&c, "archive-auto", 1).await;
        let tb = c.toolbox(sb.toolbox_proxy_url.as_deref().unwrap(), &sb.id);
        tb.upload("/workspace/keep.txt", b"written before the stop")
            .await
            .unwrap();
        c.stop_sandbox(&sb.id, false).await.unwrap();
        let stopped_at = Instant::now();
        let seen = states_until(&c, &sb.id, St::Archived).await;
        assert!(
            stopped_at.elapsed() >= Duration::from_millis(300),
            "archived before its interval was up"
        );
        let from = seen
            .iter()
            .position(|s| *s == St::Stopped)
            .expect("stopped");
        assert_eq!(
            &seen[from..],
            [St::Stopped, St::Archiving, St::Archived],
            "{seen:?}"
        );
        let rec = c.get_sandbox(&sb.id).await.unwrap().unwrap();
        assert_eq!(rec.auto_archive_interval, Some(1));
        // The toolbox is not there while archived.
        assert!(tb.download("/workspace/keep.txt").await.is_err());

        // Start from archived: answered at once, `restoring`, then `started`.
        let asked = Instant::now();
        let resp = c.start_sandbox(&sb.id).await.unwrap();
        assert_eq!(state(&resp), St::Restoring);
        assert!(
            asked.elapsed() < Duration::from_millis(600),
            "the start waited"
        );
        let seen = states_until(&c, &sb.id, St::Started).await;
        assert_eq!(seen, [St::Restoring, St::Started]);
        let kept = tb.download("/workspace/keep.txt").await.unwrap();
        assert_eq!(kept.as_deref(), Some(&b"written before the stop"[..]));
        let out = tb
            .execute(
                &ExecuteRequest {
                    command: "cat /workspace/keep.txt".into(),
                    ..Default::default()
                },
                Duration::from_secs(30),
            )
            .await
            .unwrap();
        assert_eq!(out.result.trim(), "written before the stop");
    });
    assert_openapi_conformance(&emu);
}

#[test]
fn archive_endpoint_only_from_stopped() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    set_settings(
        &emu,
        json!({"stop_ms": 50, "archive_ms": 300, "restore_ms": 100}),
    );
    let c = client(&emu);
    block_on(async {
        // 0 = the maximum interval (30 days): it never archives by itself here.
        let sb = create(&c, "archive-now", 0).await;
        let (status, body) = archive(&emu, &sb.id).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["message"], "Sandbox is not stopped");
        let (status, _) = archive(&emu, "no-such-sandbox").await;
        assert_eq!(status, 404);

        c.stop_sandbox(&sb.id, false).await.unwrap();
        states_until(&c, &sb.id, St::Stopped).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let still = c.get_sandbox(&sb.id).await.unwrap().unwrap();
        assert_eq!(state(&still), St::Stopped, "archived by itself");

        // By name, like every other sandbox route.
        let (status, body) = archive(&emu, "archive-now").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["state"], "archiving");
        assert_eq!(body["desiredState"], "archived");
        let (status, body) = archive(&emu, &sb.id).await;
        assert_eq!(status, 409, "{body}");
        states_until(&c, &sb.id, St::Archived).await;
        let (status, _) = archive(&emu, &sb.id).await;
        assert_eq!(status, 400);
        // Archived is stopped for stop's purposes.
        assert!(c.stop_sandbox(&sb.id, false).await.is_err());

        let resp = c.start_sandbox(&sb.id).await.unwrap();
        assert_eq!(state(&resp), St::Restoring);
        states_until(&c, &sb.id, St::Started).await;
    });
    // The archive went into the mutation journal like the other lifecycle calls.
    let mutations = block_on(emu.client().mutations()).unwrap();
    let ops: Vec<&str> = mutations.iter().map(|m| m.op.as_str()).collect();
    assert_eq!(ops, ["create", "stop", "archive", "start"], "{ops:?}");
    assert_openapi_conformance(&emu);
}
