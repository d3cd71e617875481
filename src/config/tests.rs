use super::*;

fn cfg(
    env: &[(&str, &str)],
    dotenv: Option<&str>,
    toml: Option<&str>,
) -> (tempfile::TempDir, Result<Config, ConfigError>) {
    let dir = tempfile::tempdir().unwrap();
    if let Some(d) = dotenv {
        std::fs::write(dir.path().join(".env"), d).unwrap();
    }
    let mut opts = LoadOptions::default();
    if let Some(t) = toml {
        let p = dir.path().join("outposts.toml");
        std::fs::write(&p, t).unwrap();
        opts.config_file = Some(p);
    }
    let env = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let c = Config::load_with_env(env, &opts, dir.path());
    (dir, c)
}

#[test]
fn precedence_flag_env_dotenv_file_default() {
    let (_d, c) = cfg(
        &[("MAX_CONCURRENT_SESSIONS", "3")],
        Some("MAX_CONCURRENT_SESSIONS=4\nWORKDIR=/w\n"),
        Some("max_concurrent_sessions = 9\nreconcile_interval = 7\n"),
    );
    let mut c = c.unwrap();
    assert_eq!(c.positive(&env::MAX_CONCURRENT_SESSIONS).unwrap(), Some(3));
    assert_eq!(c.get(&env::WORKDIR).unwrap().value, "/w");
    assert!(matches!(
        c.get(&env::WORKDIR).unwrap().source,
        Source::DotEnv(_)
    ));
    assert_eq!(c.get(&env::RECONCILE_INTERVAL).unwrap().value, "7");
    assert_eq!(
        c.get(&env::JANITOR_INTERVAL).unwrap().source,
        Source::Default
    );
    c.set_flag(&env::MAX_CONCURRENT_SESSIONS, Some("1"));
    assert_eq!(c.positive(&env::MAX_CONCURRENT_SESSIONS).unwrap(), Some(1));
}

#[test]
fn pool_id_is_a_legacy_alias() {
    let (_d, c) = cfg(&[], Some("POOL_ID=outpost_env-abc\n"), None);
    let r = c.unwrap().get(&env::OUTPOST_ID).unwrap();
    assert_eq!(r.value, "outpost_env-abc");
    let (_d, c) = cfg(&[("POOL_ID", "old"), ("OUTPOST_ID", "new")], None, None);
    assert_eq!(c.unwrap().value(&env::OUTPOST_ID).unwrap(), "new");
}

#[test]
fn devin_api_url_is_normalised() {
    for raw in [
        "https://api.devin.ai/",
        "https://api.devin.ai/opbeta",
        "https://api.devin.ai/opbeta/",
        "https://api.devin.ai",
    ] {
        let (_d, c) = cfg(&[("DEVIN_API_URL", raw)], None, None);
        assert_eq!(
            c.unwrap().devin_api_url().unwrap(),
            "https://api.devin.ai",
            "{raw}"
        );
    }
    let (_d, c) = cfg(&[("DEVIN_API_URL", "ftp://x")], None, None);
    let err = c.unwrap().devin_api_url().unwrap_err();
    assert!(err.to_string().contains("DEVIN_API_URL"), "{err}");
}

#[test]
fn bad_values_name_the_variable_and_source() {
    let (_d, c) = cfg(&[], Some("MAX_CONCURRENT_SESSIONS=lots\n"), None);
    let err = c
        .unwrap()
        .positive(&env::MAX_CONCURRENT_SESSIONS)
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("MAX_CONCURRENT_SESSIONS") && msg.contains(".env") && msg.contains("lots"),
        "{msg}"
    );
    let (_d, c) = cfg(&[("MAX_CONCURRENT_SESSIONS", "0")], None, None);
    assert!(c.unwrap().positive(&env::MAX_CONCURRENT_SESSIONS).is_err());
}

#[test]
fn bad_files_are_errors_not_panics() {
    let (_d, c) = cfg(&[], Some("DEVIN_OUTPOSTS_TOKEN='cog_unterminated\n"), None);
    let err = c.unwrap_err();
    assert!(!err.to_string().contains("cog_unterminated"), "{err}");
    let (_d, c) = cfg(&[], None, Some("nonsense = 1\n"));
    assert!(c.unwrap_err().to_string().contains("nonsense"));
    let (_d, c) = cfg(&[], None, Some("[[[\n"));
    assert!(c.is_err());
}

#[test]
fn keyring_layer_only_when_no_other_layer_has_the_token() {
    let kr = || Some(secrets::Secret::new("cog_fromkeyring123456"));
    let (_d, c) = cfg(&[], None, None);
    let c = c.unwrap().with_keyring_token(kr());
    let r = c.get(&env::DEVIN_OUTPOSTS_TOKEN).unwrap();
    assert_eq!(r.source, Source::Keyring);
    assert_eq!(r.value, "cog_fromkeyring123456");
    // Any other layer wins.
    let (_d, c) = cfg(
        &[],
        Some("DEVIN_OUTPOSTS_TOKEN=cog_fromdotenv12345\n"),
        None,
    );
    let r = c
        .unwrap()
        .with_keyring_token(kr())
        .get(&env::DEVIN_OUTPOSTS_TOKEN)
        .unwrap();
    assert!(matches!(r.source, Source::DotEnv(_)), "{:?}", r.source);
    let (_d, c) = cfg(
        &[("DEVIN_OUTPOSTS_TOKEN", "cog_fromenv1234567")],
        None,
        None,
    );
    let r = c
        .unwrap()
        .with_keyring_token(kr())
        .get(&env::DEVIN_OUTPOSTS_TOKEN)
        .unwrap();
    assert_eq!(r.source, Source::Env("DEVIN_OUTPOSTS_TOKEN"));
    // Only the outpost token and the v3 key live there, and unit tests never read a real
    // keyring.
    let (_d, c) = cfg(&[], None, None);
    let c = c.unwrap();
    assert!(c.get(&env::DEVIN_OUTPOSTS_TOKEN).is_none());
    assert!(c.get(&env::DEVIN_API_KEY).is_none());
    let c = c
        .with_keyring_token(kr())
        .with_keyring_value(&env::DEVIN_OUTPOST_CREATE_TOKEN, kr());
    assert!(c.get(&env::DEVIN_OUTPOST_CREATE_TOKEN).is_none());
    assert!(c.get(&env::DEVIN_API_KEY).is_none());
    // The v3 key has its own slot, below every other layer too.
    let key = || Some(secrets::Secret::new("cog_v3keyfromkeyring99"));
    let (_d, c) = cfg(&[], None, None);
    let c = c.unwrap().with_keyring_value(&env::DEVIN_API_KEY, key());
    let r = c.get(&env::DEVIN_API_KEY).unwrap();
    assert_eq!(
        (r.source, r.value.as_str()),
        (Source::Keyring, "cog_v3keyfromkeyring99")
    );
    assert!(c.get(&env::DEVIN_OUTPOSTS_TOKEN).is_none());
    let (_d, c) = cfg(&[], Some("DEVIN_API_KEY=cog_v3keyfromdotenv1\n"), None);
    let r = c
        .unwrap()
        .with_keyring_value(&env::DEVIN_API_KEY, key())
        .get(&env::DEVIN_API_KEY)
        .unwrap();
    assert!(matches!(r.source, Source::DotEnv(_)), "{:?}", r.source);
}

#[test]
fn durations() {
    assert_eq!(parse_duration("30").unwrap(), Duration::from_secs(30));
    assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
    assert_eq!(parse_duration("0.5").unwrap(), Duration::from_millis(500));
    assert!(parse_duration("soon").is_err());
}
