//! Unit tests of the `.env` editor.

use super::*;

fn parsed(text: &str) -> BTreeMap<String, String> {
    dotenvy::from_read_iter(text.as_bytes())
        .map(|r| r.expect("dotenvy parses our output"))
        .collect()
}

fn managed(token: &str) -> EnvUpdate {
    EnvUpdate::new()
        .set("DEVIN_OUTPOSTS_TOKEN", token)
        .set("DEVIN_API_URL", "https://api.devin.ai")
        .set_with_aliases("OUTPOST_ID", &["POOL_ID"], "outpost_env-new")
}

#[test]
fn new_file_gets_each_key_once() {
    let (out, change) = rewrite("", &managed("cog_new")).unwrap();
    assert_eq!(
        out,
        "DEVIN_OUTPOSTS_TOKEN=cog_new\nDEVIN_API_URL=https://api.devin.ai\nOUTPOST_ID=outpost_env-new\n"
    );
    assert_eq!(change.added.len(), 3);
    assert!(change.replaced.is_empty() && change.removed.is_empty());
}

#[test]
fn comments_unrelated_lines_and_crlf_are_kept() {
    let original = "# Devin\r\nDAYTONA_API_KEY=dtn_keep # inline\r\n\r\nDEVIN_OUTPOSTS_TOKEN=cog_old\r\n  # indented comment\r\nREPOS=\"a b\"\r\n";
    let (out, change) = rewrite(original, &managed("cog_new")).unwrap();
    assert_eq!(
        out,
        "# Devin\r\nDAYTONA_API_KEY=dtn_keep # inline\r\n\r\nDEVIN_OUTPOSTS_TOKEN=cog_new\r\n  # indented comment\r\nREPOS=\"a b\"\r\nDEVIN_API_URL=https://api.devin.ai\r\nOUTPOST_ID=outpost_env-new\r\n"
    );
    assert_eq!(change.replaced, vec!["DEVIN_OUTPOSTS_TOKEN"]);
    assert_eq!(change.added, vec!["DEVIN_API_URL", "OUTPOST_ID"]);
    let v = parsed(&out);
    assert_eq!(v["DAYTONA_API_KEY"], "dtn_keep");
    assert_eq!(v["REPOS"], "a b");
}

#[test]
fn duplicates_collapse_to_the_first_position() {
    let original = "OUTPOST_ID=a\nX=1\nOUTPOST_ID=b\nexport OUTPOST_ID=c\nY=2";
    let (out, change) = rewrite(
        original,
        &EnvUpdate::new().set("OUTPOST_ID", "outpost_env-new"),
    )
    .unwrap();
    assert_eq!(out, "OUTPOST_ID=outpost_env-new\nX=1\nY=2");
    assert_eq!(change.replaced, vec!["OUTPOST_ID"]);
    assert!(change.removed.is_empty(), "{change:?}");
}

#[test]
fn export_prefix_and_legacy_alias() {
    let original = "export POOL_ID=old\nexport DEVIN_OUTPOSTS_TOKEN='cog_old'\nexport KEEP=1\n";
    let (out, change) = rewrite(original, &managed("cog_new")).unwrap();
    assert_eq!(
        out,
        "export OUTPOST_ID=outpost_env-new\nexport DEVIN_OUTPOSTS_TOKEN=cog_new\nexport KEEP=1\nDEVIN_API_URL=https://api.devin.ai\n"
    );
    assert_eq!(change.removed, vec!["POOL_ID"]);
    // `export` itself as a key is an ordinary key.
    let (out, _) = rewrite("export=1\n", &EnvUpdate::new().set("A", "b")).unwrap();
    assert_eq!(out, "export=1\nA=b\n");
}

#[test]
fn quoting_round_trips_through_dotenvy() {
    for value in [
        "plain",
        "",
        "with space",
        "hash#inside",
        "dollar$HOME",
        "it's",
        "both ' and \" and $X and \\",
        "trailing ",
        "ünïcode",
    ] {
        let (out, _) = rewrite("", &EnvUpdate::new().set("K", value)).unwrap();
        assert_eq!(parsed(&out)["K"], value, "{out}");
    }
    assert_eq!(quote_value("K", "a b").unwrap(), "'a b'");
    assert_eq!(quote_value("K", "cog_abc").unwrap(), "cog_abc");
}

#[test]
fn line_breaks_and_controls_are_refused() {
    for bad in ["a\nb", "a\r", "a\u{0}b", "\u{1b}[31m"] {
        let err = rewrite("", &EnvUpdate::new().set("K", bad)).unwrap_err();
        assert!(matches!(
            err,
            DotEnvError::Newline { .. } | DotEnvError::Control { .. }
        ));
        assert!(!err.to_string().contains(bad), "{err}");
    }
    assert!(matches!(
        rewrite("", &EnvUpdate::new().set("1BAD", "x")).unwrap_err(),
        DotEnvError::BadKey { .. }
    ));
}

#[test]
fn multiline_values_of_other_keys_are_not_mistaken_for_keys() {
    let original = "CERT=\"-----BEGIN\nOUTPOST_ID=not-a-key\n-----END\"\nOUTPOST_ID=real\n";
    let (out, _) = rewrite(original, &EnvUpdate::new().set("OUTPOST_ID", "new")).unwrap();
    assert_eq!(
        out,
        "CERT=\"-----BEGIN\nOUTPOST_ID=not-a-key\n-----END\"\nOUTPOST_ID=new\n"
    );
    // A managed key with a multi-line value is replaced whole.
    let original = "DEVIN_OUTPOSTS_TOKEN='a\nb'\nZ=1\n";
    let (out, _) = rewrite(original, &EnvUpdate::new().set("DEVIN_OUTPOSTS_TOKEN", "t")).unwrap();
    assert_eq!(out, "DEVIN_OUTPOSTS_TOKEN=t\nZ=1\n");
    // An unterminated quote swallows nothing.
    let original = "A='open\nOUTPOST_ID=x\nB=2\n";
    let (out, _) = rewrite(original, &EnvUpdate::new().set("OUTPOST_ID", "y")).unwrap();
    assert_eq!(out, "A='open\nOUTPOST_ID=y\nB=2\n");
}

#[test]
fn remove_drops_every_line_and_unparseable_lines_stay() {
    let original =
        "\u{feff}DEVIN_OUTPOSTS_TOKEN=a\nthis is not a key line\nDEVIN_OUTPOSTS_TOKEN=b\n";
    let (out, change) =
        rewrite(original, &EnvUpdate::new().remove("DEVIN_OUTPOSTS_TOKEN")).unwrap();
    assert_eq!(out, "\u{feff}this is not a key line\n");
    assert_eq!(change.removed, vec!["DEVIN_OUTPOSTS_TOKEN"]);
    let (out, change) = rewrite("A=1\n", &EnvUpdate::new().remove("B")).unwrap();
    assert_eq!(out, "A=1\n");
    assert!(!change.changed());
}

#[test]
fn apply_writes_atomically_with_mode_0600_and_keeps_symlinks() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".env");
    std::fs::write(&path, "# keep\nA=1\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let change = apply(&path, &EnvUpdate::new().set("B", "2")).unwrap();
    assert!(!change.created);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# keep\nA=1\nB=2\n"
    );
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // No temp files left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

    let real = dir.path().join("real.env");
    let link = dir.path().join("link.env");
    std::fs::write(&real, "").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    apply(&link, &EnvUpdate::new().set("C", "3")).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "C=3\n");

    let created = apply(&dir.path().join("new.env"), &EnvUpdate::new().set("D", "4")).unwrap();
    assert!(created.created);
    assert!(
        apply(
            &dir.path().join("missing/x.env"),
            &EnvUpdate::new().set("D", "4")
        )
        .is_err()
    );
}
