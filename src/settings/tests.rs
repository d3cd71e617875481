//! Each setting resolves from the layers, and a missing or bad one says how to fix it.

use std::collections::BTreeMap;
use std::path::Path;

use tonic::metadata::MetadataMap;

use super::*;
use crate::api::coreweave::auth::WANDB_SDK_VERSION;
use crate::config::{Config, ConfigError};
use crate::provider::ProviderKind;

fn config(vars: &[(&str, &str)]) -> (tempfile::TempDir, Config) {
    let dir = tempfile::tempdir().unwrap();
    let env: BTreeMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let c = Config::load_with_env(env, &Default::default(), dir.path()).unwrap();
    (dir, c)
}

#[test]
fn missing_token_is_an_auth_error_with_the_connect_hint() {
    let (_d, c) = config(&[("DEVIN_API_URL", "http://127.0.0.1:1/opbeta/")]);
    let e = DevinSettings::resolve(&c).unwrap_err();
    assert!(matches!(e, ConfigError::MissingCredentials { .. }));
    assert!(e.hint().contains("outposts connect"));
    let (_d, c) = config(&[
        ("DEVIN_API_URL", "http://127.0.0.1:1/opbeta/"),
        ("DEVIN_OUTPOSTS_TOKEN", " cog_testtoken123 "),
    ]);
    let s = DevinSettings::resolve(&c).unwrap();
    assert_eq!(s.api_url, "http://127.0.0.1:1");
    assert_eq!(s.token.expose(), "cog_testtoken123");
}

#[test]
fn v3_needs_a_key_and_an_organisation_and_the_flag_wins() {
    let (_d, c) = config(&[("DEVIN_ORG_ID", "org-env")]);
    let e = V3Settings::resolve(&c, None).unwrap_err();
    assert!(e.to_string().contains("DEVIN_API_KEY"), "{e}");
    let (_d, c) = config(&[("DEVIN_API_KEY", "cog_k")]);
    let e = V3Settings::resolve(&c, None).unwrap_err();
    assert!(e.to_string().contains("DEVIN_ORG_ID"), "{e}");
    assert!(e.hint().contains("--org"));
    let (_d, c) = config(&[("DEVIN_API_KEY", "cog_k"), ("DEVIN_ORG_ID", "org-env")]);
    assert_eq!(V3Settings::resolve(&c, None).unwrap().org, "org-env");
    assert_eq!(
        V3Settings::resolve(&c, Some(" org-flag ")).unwrap().org,
        "org-flag"
    );
}

#[test]
fn http_settings_take_the_outposts_variables() {
    let (_d, c) = config(&[
        ("OUTPOSTS_HTTP_ATTEMPTS", "2"),
        ("OUTPOSTS_CONNECT_TIMEOUT", "3s"),
    ]);
    let h = HttpSettings::resolve(&c).unwrap();
    assert_eq!(h.retry.attempts, 2);
    assert_eq!(h.connect_timeout, std::time::Duration::from_secs(3));
    let (_d, c) = config(&[("OUTPOSTS_HTTP_ATTEMPTS", "0")]);
    let e = HttpSettings::resolve(&c).unwrap_err();
    assert!(e.to_string().contains("OUTPOSTS_HTTP_ATTEMPTS"), "{e}");
}

#[test]
fn the_provider_is_the_flag_else_the_variable_else_daytona() {
    let (_d, c) = config(&[]);
    assert_eq!(
        ProviderSettings::choose(&c, None).unwrap(),
        ProviderKind::Daytona
    );
    assert_eq!(
        ProviderSettings::chosen(&c).unwrap().1,
        crate::config::Source::Default
    );
    let (_d, c) = config(&[("OUTPOSTS_PROVIDER", "local")]);
    assert_eq!(
        ProviderSettings::choose(&c, None).unwrap(),
        ProviderKind::Local
    );
    assert_eq!(
        ProviderSettings::choose(&c, Some(ProviderKind::Coreweave)).unwrap(),
        ProviderKind::Coreweave
    );
    let (_d, c) = config(&[("OUTPOSTS_PROVIDER", "nope")]);
    let e = ProviderSettings::choose(&c, None).unwrap_err();
    assert!(e.to_string().contains("OUTPOSTS_PROVIDER"), "{e}");
    // A flag needs no look at the variable, bad or not.
    assert!(ProviderSettings::choose(&c, Some(ProviderKind::Local)).is_ok());
}

#[test]
fn daytona_needs_its_key_and_says_where_to_get_one() {
    let (_d, c) = config(&[("OUTPOSTS_PROVIDER", "daytona")]);
    let e = ProviderSettings::resolve(&c, None).unwrap_err();
    assert!(e.to_string().contains("DAYTONA_API_KEY"), "{e}");
    assert!(e.hint().contains("outposts emulator env"));
    let (_d, c) = config(&[("DAYTONA_API_KEY", "dtn_k"), ("DAYTONA_TARGET", "eu")]);
    let ProviderSettings::Daytona(s) = ProviderSettings::resolve(&c, None).unwrap() else {
        panic!("not daytona");
    };
    assert_eq!(s.target.as_deref(), Some("eu"));
    assert_eq!(s.api.api_url, crate::env::DAYTONA_API_URL.default_str());
}

#[test]
fn a_path_is_a_config_error_naming_the_variable() {
    let (_d, c) = config(&[("CWSANDBOX_BASE_URL", "http://127.0.0.1:1/coreweave")]);
    let e = CoreweaveSettings::base_url(&c).unwrap_err();
    assert!(e.to_string().contains("CWSANDBOX_BASE_URL"), "{e}");
    assert!(e.to_string().contains("path"), "{e}");
    let (_d, c) = config(&[]);
    assert_eq!(
        CoreweaveSettings::base_url(&c).unwrap().url,
        "https://api.cwsandbox.com"
    );
}

#[test]
fn api_key_wins_and_is_a_bearer() {
    let (_d, c) = config(&[
        ("CWSANDBOX_API_KEY", "cwk-abcdef123456"),
        ("WANDB_API_KEY", "wandb-key-0000000000"),
    ]);
    let auth = CoreweaveSettings::auth(&c).unwrap();
    let mut md = MetadataMap::new();
    auth.apply(&mut md);
    let v = md.get("authorization").unwrap();
    assert!(v.is_sensitive());
    assert_eq!(v.to_str().unwrap(), "Bearer cwk-abcdef123456");
    assert!(md.get("x-wandb-api-key").is_none());
    assert!(!format!("{auth:?}").contains("cwk-abcdef123456"));
    assert!(!auth.describe().contains("cwk-abcdef123456"));
}

#[test]
fn wandb_headers() {
    let (_d, c) = config(&[
        ("WANDB_API_KEY", "wandb-key-0000000000"),
        ("WANDB_ENTITY", "myteam"),
        ("WANDB_PROJECT", "proj"),
        ("WANDB_BASE_URL", "http://127.0.0.1:9999"),
    ]);
    let mut md = MetadataMap::new();
    CoreweaveSettings::auth(&c).unwrap().apply(&mut md);
    assert!(md.get("x-wandb-api-key").unwrap().is_sensitive());
    assert_eq!(md.get("x-wandb-sdk-version").unwrap(), WANDB_SDK_VERSION);
    assert_eq!(md.get("x-entity-id").unwrap(), "myteam");
    assert_eq!(md.get("x-project-name").unwrap(), "proj");
    assert_eq!(md.get("x-wandb-host").unwrap(), "127.0.0.1:9999");
    assert!(md.get("authorization").is_none());

    let (_d, c) = config(&[
        ("WANDB_API_KEY", "wandb-key-0000000000"),
        ("WANDB_BASE_URL", "https://api.wandb.ai"),
    ]);
    let mut md = MetadataMap::new();
    CoreweaveSettings::auth(&c).unwrap().apply(&mut md);
    assert!(md.get("x-wandb-host").is_none());
    assert!(md.get("x-entity-id").is_none());
}

#[test]
fn no_credentials_is_an_auth_error_with_the_fix() {
    let (_d, c) = config(&[]);
    let e = CoreweaveSettings::auth(&c).unwrap_err();
    assert!(matches!(e, ConfigError::MissingCredentials { .. }));
    let hint = e.hint();
    assert!(hint.contains("CWSANDBOX_API_KEY") && hint.contains("WANDB_API_KEY"));
}

#[test]
fn local_root_and_opt_in_come_from_config() {
    let (_d, c) = config(&[("HOME", "/h")]);
    assert_eq!(
        LocalSettings::root(&c).unwrap(),
        Path::new("/h/.local/share/outposts/sandboxes")
    );
    assert!(!LocalSettings::options(&c).unwrap().allow_unisolated);
    let (_d, c) = config(&[("HOME", "/h"), ("XDG_DATA_HOME", "/d")]);
    assert_eq!(
        LocalSettings::root(&c).unwrap(),
        Path::new("/d/outposts/sandboxes")
    );
    let (_d, c) = config(&[
        ("HOME", "/h"),
        ("OUTPOSTS_LOCAL_ROOT", "~/sb"),
        ("OUTPOSTS_LOCAL_UNISOLATED", "1"),
    ]);
    let s = LocalSettings::resolve(&c).unwrap();
    assert_eq!(s.root, Path::new("/h/sb"));
    assert!(s.options.allow_unisolated);
    let (_d, c) = config(&[("OUTPOSTS_LOCAL_UNISOLATED", "maybe")]);
    let e = LocalSettings::options(&c).unwrap_err().to_string();
    assert!(e.contains("OUTPOSTS_LOCAL_UNISOLATED"), "{e}");
}

#[test]
fn output_settings_decide_colour_and_ci_once() {
    use crate::cli::Cli;
    use clap::Parser;
    let cli = Cli::try_parse_from(["outposts", "--json", "doctor"]).unwrap();
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    let s = OutputSettings::resolve_with(&cli.global, env(&[("CI", "true")]), true, false);
    assert!(s.json && s.ci && s.color && s.stderr_tty && !s.stdin_tty);
    let s = OutputSettings::resolve_with(
        &cli.global,
        env(&[("CI", "0"), ("NO_COLOR", "1")]),
        true,
        true,
    );
    assert!(!s.ci && !s.color);
    let cli = Cli::try_parse_from(["outposts", "--color", "always", "doctor"]).unwrap();
    let s = OutputSettings::resolve_with(&cli.global, env(&[]), false, false);
    assert!(s.color && !s.json);
}

#[test]
fn names_and_defaults_the_providers_use_match_env_rs() {
    assert_eq!(
        crate::env::GIT_USERNAME.default_str(),
        crate::provider::TOKEN_USERNAME
    );
    assert_eq!(
        crate::env::OUTPOSTS_SANDBOX_ROOT.name,
        crate::provider::local::SANDBOX_ROOT_VAR
    );
}

/// The advice for an API's failure names the setting to fix; the clients carry only wire facts.
#[test]
fn api_failures_get_advice_naming_the_setting() {
    use crate::api::coreweave::CoreweaveError;
    use crate::api::outpost_lookup::OutpostLookupError;
    use crate::settings::advice;
    let refused = |code: tonic::Code| {
        CoreweaveError::from_status("GetSandbox", &tonic::Status::new(code, "x"))
    };
    let hint = |c| advice::coreweave(&refused(c)).unwrap_or_default();
    assert!(hint(tonic::Code::Unauthenticated).contains("CWSANDBOX_API_KEY"));
    assert!(hint(tonic::Code::Unavailable).contains("CWSANDBOX_BASE_URL"));
    assert_eq!(advice::coreweave(&refused(tonic::Code::NotFound)), None);
    let unauthorized = |service| crate::api::ApiError::Unauthorized {
        service,
        status: 401,
        message: "no".into(),
    };
    assert!(
        advice::api(&unauthorized(crate::api::http::DEVIN))
            .unwrap_or_default()
            .contains("outposts connect")
    );
    assert!(
        advice::api(&unauthorized(crate::api::http::DAYTONA))
            .unwrap_or_default()
            .contains("DAYTONA_API_KEY")
    );
    let missing = OutpostLookupError::Ambiguous {
        wanted: "gpu".into(),
        matches: Vec::new(),
    };
    assert!(
        advice::outpost_lookup(&missing)
            .unwrap_or_default()
            .contains("the outpost's id")
    );
    let empty = OutpostLookupError::Empty;
    assert!(
        advice::outpost_lookup(&empty)
            .unwrap_or_default()
            .contains("outposts outpost list")
    );
}

#[test]
fn each_provider_has_one_descriptor_that_resolves_its_own_settings() {
    let (_dir, cfg) = config(&[
        ("DAYTONA_API_KEY", "k"),
        ("CWSANDBOX_API_KEY", "c"),
        ("OUTPOSTS_LOCAL_ROOT", "/tmp/outposts-test-root"),
    ]);
    assert_eq!(PROVIDERS.len(), 3);
    for kind in [
        ProviderKind::Daytona,
        ProviderKind::Coreweave,
        ProviderKind::Local,
    ] {
        let d = descriptor(kind);
        assert_eq!(d.kind, kind);
        assert_eq!((d.resolve)(&cfg).unwrap().kind(), kind);
        assert_eq!(ProviderSettings::of(&cfg, kind).unwrap().kind(), kind);
        assert!(!d.settings.is_empty() && !d.doctor_checks.is_empty());
        assert!(d.not_ready.contains(": "), "{}", d.not_ready);
    }
}

#[test]
fn not_ready_advice_names_the_fix() {
    assert!(not_ready::local_tool_missing("bubblewrap").contains("apt-get install -y bubblewrap"));
    for fix in [
        not_ready::local_tool_missing("util-linux"),
        not_ready::local_userns_blocked(),
    ] {
        assert!(fix.contains("OUTPOSTS_LOCAL_UNISOLATED=1"), "{fix}");
    }
    for fix in [
        not_ready::daytona_snapshot_missing(),
        not_ready::daytona_snapshot_pending(),
        not_ready::daytona_snapshot_failed("snap"),
    ] {
        assert!(fix.contains("`outposts snapshot build`"), "{fix}");
    }
    assert!(
        not_ready::daytona_snapshot_failed("snap").starts_with("`outposts snapshot delete snap`")
    );
}
