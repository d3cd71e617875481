//! `CoreweaveProvider::hand_over` against the emulator: a warm sandbox given to a name is that
//! name's for every reader (this process, and one that knows nothing yet: another replica or
//! a restart), is never ready capacity again, cannot be given twice, and a discard of the name
//! takes its receipt. Also the emulator's CoreWeave create delay, which the warm benchmark uses.

use std::collections::BTreeMap;

use outposts::config::{Config, LoadOptions};
use outposts::provider::coreweave::CoreweaveProvider;
use outposts::provider::{Provider, ProviderError, SandboxSpec, Source, Workspace};

use crate::support::{TestEnv, block_on, emulated_env};

const IMAGE: &str = "public.ecr.aws/e0h8a4b6/devin-cli:stable";

fn provider(env: &TestEnv) -> CoreweaveProvider {
    let cfg = Config::load_with_env(env.vars.clone(), &LoadOptions::default(), &env.cwd).unwrap();
    CoreweaveProvider::from_settings(outposts::settings::CoreweaveSettings::resolve(&cfg).unwrap())
        .unwrap()
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn owner() -> BTreeMap<String, String> {
    labels(&[("devin.outpost_id", "op-1"), ("devin.warm_owner", "acc-1")])
}

fn warm(name: &str) -> SandboxSpec {
    let mut s = SandboxSpec::new(name, Source::Image(IMAGE.into()));
    s.handable = true;
    s.labels = owner();
    s.labels.insert("devin.warm".into(), "gen-1".into());
    s.workspace = Some(Workspace {
        mount_path: "/workspace".into(),
        keep_home: true,
        restore: None,
    });
    s
}

async fn ids(p: &CoreweaveProvider, filter: &BTreeMap<String, String>) -> Vec<String> {
    let mut v: Vec<String> = p
        .list(filter)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    v.sort();
    v
}

#[test]
fn a_handed_over_sandbox_is_the_names_for_every_reader_and_is_never_handed_twice() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (env, _emu) = emulated_env(&[]);
    let p = provider(&env);
    let session = labels(&[("devin.session_id", "s-1"), ("devin.outpost_id", "op-1")]);
    let outpost = labels(&[("devin.outpost_id", "op-1")]);
    block_on(async {
        let a = p.create(&warm("devin-warm-a")).await.unwrap();
        let b = p.create(&warm("devin-warm-b")).await.unwrap();
        let mut both = vec![a.id.clone(), b.id.clone()];
        both.sort();
        assert_eq!(ids(&p, &owner()).await, both);
        assert!(!p.keeps_workspace("devin-s-1").await.unwrap());
        assert!(p.get("devin-s-1").await.unwrap().is_none());

        p.hand_over(&a.id, "devin-s-1", &session).await.unwrap();
        let fresh = provider(&env);
        for (who, reader) in [("this process", &p), ("a new one", &fresh)] {
            // First what a restarted warm loop does first: list its ready capacity.
            assert_eq!(
                ids(reader, &owner()).await,
                vec![b.id.clone()],
                "{who}: not warm any more"
            );
            let got = reader.get("devin-s-1").await.unwrap().expect(who);
            assert_eq!(
                (got.id.as_str(), got.name.as_str()),
                (a.id.as_str(), "devin-s-1"),
                "{who}"
            );
            assert_eq!(got.labels, session, "{who}");
            let by_id = reader.get(&a.id).await.unwrap().expect(who);
            assert_eq!(by_id.labels, session, "{who}");
            let listed = reader.list(&outpost).await.unwrap();
            let shown = listed.iter().find(|s| s.id == a.id).expect(who);
            assert_eq!(shown.labels, session, "{who}");
            assert!(reader.keeps_workspace("devin-s-1").await.unwrap(), "{who}");
        }

        // The name has its sandbox: another cannot be given to it, by any reader.
        for reader in [&p, &fresh] {
            match reader.hand_over(&b.id, "devin-s-1", &session).await {
                Err(ProviderError::AlreadyExists(m)) => assert!(m.contains("devin-s-1"), "{m}"),
                other => panic!("a second hand-over: {other:?}"),
            }
        }
        assert_eq!(ids(&fresh, &owner()).await, vec![b.id.clone()]);

        // A sandbox that is no ready capacity (created without `handable`) is not given.
        let plain = p
            .create(&SandboxSpec::new("plain", Source::Image(IMAGE.into())))
            .await
            .unwrap();
        assert!(matches!(
            p.hand_over(&plain.id, "devin-s-2", &session).await,
            Err(ProviderError::Invalid(_))
        ));

        // The session ends: its sandbox and then its receipt go.
        p.delete(&a.id).await.unwrap();
        p.discard("devin-s-1").await.unwrap();
        assert!(!fresh.keeps_workspace("devin-s-1").await.unwrap());
    });
}

/// A handed-over sandbox whose labels file is gone (the session removed it) is no ready
/// capacity and nobody's to act on; its labels are not read again at every listing.
#[test]
fn a_handed_over_sandbox_without_its_labels_file_is_read_once_per_refresh() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (env, emu) = emulated_env(&[]);
    let p = provider(&env);
    let session = labels(&[("devin.session_id", "s-1"), ("devin.outpost_id", "op-1")]);
    let outpost = labels(&[("devin.outpost_id", "op-1")]);
    let reads = |emu: &crate::support::Emu| {
        emu.requests()
            .iter()
            .filter(|r| r.path.ends_with("/ReadFile"))
            .count()
    };
    let a = block_on(async {
        let a = p.create(&warm("devin-warm-a")).await.unwrap();
        p.hand_over(&a.id, "devin-s-1", &session).await.unwrap();
        let rm = outposts::provider::ExecRequest {
            cmd: outposts::provider::Cmd::Shell(
                "rm /workspace/.home/.outposts-handover.json".into(),
            ),
            cwd: None,
            env: Default::default(),
            timeout: None,
        };
        assert_eq!(p.exec(&a.id, &rm).await.unwrap().exit_code, 0);
        a
    });
    let before = reads(&emu);
    let fresh = provider(&env);
    block_on(async {
        for _ in 0..3 {
            assert!(ids(&fresh, &owner()).await.is_empty(), "not ready capacity");
            let listed = fresh.list(&BTreeMap::new()).await.unwrap();
            let shown = listed.iter().find(|s| s.id == a.id).expect("listed");
            assert!(shown.labels.is_empty(), "{shown:?}");
            assert!(fresh.list(&outpost).await.unwrap().is_empty());
        }
    });
    assert_eq!(reads(&emu) - before, 1, "one read of the missing file");
}

/// The emulator's CoreWeave create delay (`create_ms`), which lets warm and cold differ on
/// loopback as they do on the service: a create is answered CREATING and runs only after it.
#[test]
fn the_emulators_create_delay_holds_a_new_sandbox_in_creating() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (env, emu) = emulated_env(&[]);
    let p = provider(&env);
    let http = outposts::api::HttpClient::new(Default::default()).unwrap();
    block_on(async {
        http.send(
            outposts::api::ApiRequest::new(
                outposts::api::http::EMULATOR,
                reqwest::Method::PUT,
                format!("{}/_emulator/coreweave/settings", emu.base_url),
            )
            .json(&serde_json::json!({"create_ms": 1500})),
        )
        .await
        .unwrap();
        let began = std::time::Instant::now();
        let sb = p
            .create(&SandboxSpec::new("slow", Source::Image(IMAGE.into())))
            .await
            .unwrap();
        assert_eq!(sb.state, outposts::provider::SandboxState::Started);
        assert!(
            began.elapsed() >= std::time::Duration::from_millis(1500),
            "{:?}",
            began.elapsed()
        );
    });
}
