//! `DaytonaProvider` end to end against the emulated Daytona API and toolbox (real local
//! sandboxes behind it).

use std::collections::BTreeMap;
use std::time::Duration;

use futures::StreamExt;
use outposts::provider::{
    ExecRequest, GitClone, LogOptions, Provider, ProviderError, Resources, SandboxSpec,
    SandboxState, Source,
};
use outposts::secrets::Secret;

use crate::support::daytona::{assert_openapi_conformance, bare_repo, provider, set_settings};
use crate::support::{Emu, TestEnv, block_on};

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn lifecycle_exec_files_git_and_idempotency() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let (repo, readme) = bare_repo(&env);
    let p = provider(&emu);
    block_on(async {
        let mut spec = SandboxSpec::new("devin-it-1", Source::Default);
        spec.labels = labels(&[("devin.session_id", "s1"), ("devin.outpost_id", "o1")]);
        spec.env
            .insert("SANDBOX_VAR".into(), Secret::new("from-create"));
        let info = p.create(&spec).await.unwrap();
        assert_eq!(info.state, SandboxState::Started);
        assert_eq!(info.name, "devin-it-1");
        assert!(info.created_at.is_some());

        // 409 on a duplicate name.
        match p.create(&spec).await {
            Err(ProviderError::AlreadyExists(n)) => assert_eq!(n, "devin-it-1"),
            other => panic!("expected AlreadyExists, got {other:?}"),
        }
        // Resources with a snapshot are refused before any call (the API's 400 rule).
        let mut with_res = SandboxSpec::new("devin-it-res", Source::Snapshot("x".into()));
        with_res.resources = Resources {
            cpu: Some(2.0),
            ..Default::default()
        };
        assert!(matches!(
            p.create(&with_res).await,
            Err(ProviderError::Invalid(_))
        ));

        // get by id and by name; absent → None.
        assert_eq!(p.get(&info.id).await.unwrap().unwrap().name, "devin-it-1");
        assert_eq!(p.get("devin-it-1").await.unwrap().unwrap().id, info.id);
        assert!(p.get("no-such-sandbox").await.unwrap().is_none());

        // list by labels (a second, foreign sandbox is not returned).
        let mut other = SandboxSpec::new("devin-it-2", Source::Default);
        other.labels = labels(&[("devin.outpost_id", "o2")]);
        let other = p.create(&other).await.unwrap();
        let mine = p
            .list(&labels(&[("devin.outpost_id", "o1")]))
            .await
            .unwrap();
        assert_eq!(
            mine.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            vec![info.id.as_str()]
        );
        assert_eq!(p.list(&BTreeMap::new()).await.unwrap().len(), 2);
        // Cursor pagination: one item per page, `nextCursor: null` on the last; all pages read.
        let small = crate::support::daytona::client(&emu).with_page_limit(1);
        let first = small
            .list_sandboxes_page(&BTreeMap::new(), None, 1)
            .await
            .unwrap();
        assert_eq!(first.items.len(), 1);
        let cursor = first.next_cursor.clone().expect("a second page");
        let last = small
            .list_sandboxes_page(&BTreeMap::new(), Some(&cursor), 1)
            .await
            .unwrap();
        assert_eq!(last.items.len(), 1);
        assert_eq!(last.next_cursor, None);
        assert_eq!(
            small.list_sandboxes(&BTreeMap::new()).await.unwrap().len(),
            2
        );
        // Page-based snapshot list, every page (the general default and Windows snapshots are
        // two).
        small
            .create_snapshot(&outposts::api::daytona_types::CreateSnapshot {
                name: "paged-snap:1".into(),
                image_name: Some("debian:12.9".into()),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(small.list_snapshots(None).await.unwrap().len(), 3);

        // exec: env out of band, cwd, argv quoting, exit codes, timeout.
        let out = p
            .exec(
                &info.id,
                &ExecRequest::shell("echo \"$SANDBOX_VAR/$TOKEN\"; pwd")
                    .env("TOKEN", Secret::new("tok-secret-123"))
                    .cwd("/tmp"),
            )
            .await
            .unwrap();
        assert_eq!(out.exit_code, 0, "{out:?}");
        assert_eq!(out.stdout, "from-create/tok-secret-123\n/tmp\n");
        let weird = "it's a \"test\" $HOME `x` ; rm -rf /";
        let out = p
            .exec(&info.id, &ExecRequest::argv(["printf", "%s", weird]))
            .await
            .unwrap();
        assert_eq!(out.stdout, weird);
        let out = p
            .exec(&info.id, &ExecRequest::shell("exit 7"))
            .await
            .unwrap();
        assert_eq!(out.exit_code, 7);
        let slow = ExecRequest::shell("sleep 5").timeout(Duration::from_secs(1));
        assert!(matches!(
            p.exec(&info.id, &slow).await,
            Err(ProviderError::Timeout(_))
        ));

        // files
        p.write_file(&info.id, "/home/daytona/dir/a.bin", b"\x00\x01bin")
            .await
            .unwrap();
        assert_eq!(
            p.read_file(&info.id, "/home/daytona/dir/a.bin")
                .await
                .unwrap()
                .unwrap(),
            b"\x00\x01bin"
        );
        assert!(
            p.read_file(&info.id, "/home/daytona/nope")
                .await
                .unwrap()
                .is_none()
        );

        // git clone of a local bare repository; credentials go in the body only.
        let clone = GitClone {
            url: repo.to_string_lossy().into_owned(),
            path: "/home/daytona/workspace/repo".into(),
            branch: Some("main".into()),
            username: Some("git-user".into()),
            password: Some(Secret::new("git-pass-456789")),
        };
        p.git_clone(&info.id, &clone).await.unwrap();
        let got = p
            .read_file(&info.id, "/home/daytona/workspace/repo/README")
            .await
            .unwrap()
            .unwrap();
        assert!(String::from_utf8(got).unwrap().starts_with(&readme));

        // labels replace
        p.set_labels(
            &other.id,
            &labels(&[("devin.outpost_id", "o1"), ("x", "y")]),
        )
        .await
        .unwrap();
        assert_eq!(p.list(&labels(&[("x", "y")])).await.unwrap().len(), 1);

        // stop / start, idempotent both ways; files survive.
        p.stop(&info.id).await.unwrap();
        assert_eq!(
            p.get(&info.id).await.unwrap().unwrap().state,
            SandboxState::Stopped
        );
        p.stop(&info.id).await.unwrap();
        p.start(&info.id).await.unwrap();
        p.start(&info.id).await.unwrap();
        assert_eq!(
            p.get(&info.id).await.unwrap().unwrap().state,
            SandboxState::Started
        );
        assert!(
            p.read_file(&info.id, "/home/daytona/dir/a.bin")
                .await
                .unwrap()
                .is_some()
        );

        // logs: the sandbox entrypoint log (tail honoured).
        let lines: Vec<_> = p
            .logs(
                &info.id,
                &LogOptions {
                    tail: Some(1),
                    follow: false,
                },
            )
            .await
            .unwrap()
            .collect()
            .await;
        assert!(lines.len() <= 1);

        // delete: the name is free at once; a second delete is fine.
        p.delete(&info.id).await.unwrap();
        p.delete(&info.id).await.unwrap();
        assert!(p.get("devin-it-1").await.unwrap().is_none());
        p.delete(&other.id).await.unwrap();
        assert!(matches!(
            p.stop("gone-gone").await,
            Err(ProviderError::NotFound(_))
        ));
    });

    let reqs = emu.requests();
    let create = reqs
        .iter()
        .find(|r| r.method == "POST" && r.path == "/daytona/api/sandbox")
        .unwrap();
    let body: serde_json::Value = serde_json::from_str(create.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["autoStopInterval"], 0);
    assert_eq!(body["autoArchiveInterval"], 0);
    assert_eq!(body["autoDeleteInterval"], -1);
    assert_eq!(body["labels"]["devin.session_id"], "s1");
    let exec = reqs
        .iter()
        .find(|r| {
            r.path.ends_with("/process/execute")
                && r.body.as_deref().unwrap_or("").contains("TOKEN")
        })
        .unwrap();
    let exec_body: serde_json::Value = serde_json::from_str(exec.body.as_deref().unwrap()).unwrap();
    assert_eq!(exec_body["envs"]["TOKEN"], "tok-secret-123");
    assert!(
        !exec_body["command"]
            .as_str()
            .unwrap()
            .contains("tok-secret-123")
    );
    let clone = reqs
        .iter()
        .find(|r| r.path.ends_with("/git/clone"))
        .unwrap();
    let clone_body: serde_json::Value =
        serde_json::from_str(clone.body.as_deref().unwrap()).unwrap();
    assert_eq!(clone_body["username"], "git-user");
    assert_eq!(clone_body["password"], "git-pass-456789");
    assert!(!clone_body["url"].as_str().unwrap().contains("git-pass"));
    assert!(
        reqs.iter()
            .all(|r| r.query.as_deref().is_none_or(|q| !q.contains("git-pass")))
    );
    // Stop of a stopped sandbox was answered 400 and treated as done.
    assert!(
        reqs.iter()
            .any(|r| r.path.ends_with("/stop") && r.status == 400)
    );
    assert_openapi_conformance(&emu);
}

#[test]
fn rate_limit_with_throttler_retry_after_is_honoured() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    let rule = r#"{"method":"POST","path":"/daytona/api/sandbox$","nth":1,"times":1,
        "action":{"kind":"status","status":429,
        "headers":{"Retry-After-sandbox-create":"1","X-RateLimit-Remaining-sandbox-create":"0"},
        "body":"{\"statusCode\":429,\"message\":\"Rate limit exceeded\",\"error\":\"Too Many Requests\"}"}}"#;
    block_on(emu.client().add_faults(rule)).unwrap();
    let p = provider(&emu);
    let info = block_on(p.create(&SandboxSpec::new("devin-rl", Source::Default))).unwrap();
    assert_eq!(info.state, SandboxState::Started);
    let posts: Vec<_> = emu
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/daytona/api/sandbox")
        .collect();
    assert_eq!(posts.len(), 2, "one 429, one retry");
    assert_eq!(posts[0].status, 429);
    assert_eq!(posts[1].status, 200);
    let waited = posts[1].at_ms - posts[0].at_ms;
    assert!(
        waited >= 950,
        "retried after {waited} ms, before Retry-After-sandbox-create"
    );
    block_on(p.delete(&info.id)).unwrap();
    assert_openapi_conformance(&emu);
}

#[test]
fn transitions_are_waited_out_and_main_command_logs() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let env = TestEnv::new();
    let emu = Emu::start(&env, &[]);
    // Slow stop: a start during `stopping` meets 409 "state change in progress" and waits.
    set_settings(
        &emu,
        serde_json::json!({"stop_ms": 1500, "start_ms": 100, "create_ms": 100}),
    );
    let p = provider(&emu);
    block_on(async {
        let mut spec = SandboxSpec::new("devin-main", Source::Default);
        spec.command = Some(vec![
            "sh".into(),
            "-c".into(),
            "echo main-started; sleep 60".into(),
        ]);
        let info = p.create(&spec).await.unwrap();
        let mut text = String::new();
        for _ in 0..50 {
            let lines: Vec<_> = p
                .logs(&info.id, &LogOptions::default())
                .await
                .unwrap()
                .collect()
                .await;
            text = lines
                .into_iter()
                .map(Result::unwrap)
                .collect::<Vec<_>>()
                .join("\n");
            if text.contains("main-started") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(text.contains("main-started"), "{text}");
        // Follow mode hands out what is there first, then waits for more.
        let mut follow = p
            .logs(
                &info.id,
                &LogOptions {
                    tail: Some(5),
                    follow: true,
                },
            )
            .await
            .unwrap();
        let first = tokio::time::timeout(Duration::from_secs(5), follow.next())
            .await
            .expect("a line without waiting")
            .unwrap()
            .unwrap();
        assert_eq!(first, "main-started");
        drop(follow);

        let client = crate::support::daytona::client(&emu);
        client.stop_sandbox(&info.id, false).await.unwrap();
        assert_eq!(
            p.get(&info.id).await.unwrap().unwrap().raw_state,
            "stopping",
            "derived transitional state"
        );
        p.start(&info.id).await.unwrap();
        assert_eq!(
            p.get(&info.id).await.unwrap().unwrap().state,
            SandboxState::Started
        );
        p.delete(&info.id).await.unwrap();
    });
    let reqs = emu.requests();
    assert!(
        reqs.iter()
            .any(|r| r.path.ends_with("/start") && r.status == 409),
        "start during stopping was answered 409"
    );
    assert_openapi_conformance(&emu);
}
