//! The verdict, table-tested from the scripts' answers.

use super::*;

const D: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const E: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

fn recorded(files: u64) -> Summary {
    Summary {
        recorded_at: 1.0,
        files,
        digest: D.into(),
        ..Summary::default()
    }
}

fn checked(differences: usize, digest: &str, lines: &[&str]) -> String {
    let mut s = format!(
        "noise\noutposts-integrity result=checked files=3 digest={digest} differences={differences}\n"
    );
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s
}

#[test]
fn record_answers() {
    let s = parse_record(
        &format!(
            "outposts-integrity result=recorded files=20000 hashed=19999 bytes=123 digest={D} truncated=no\n"
        ),
        0,
        5.0,
    );
    assert_eq!(
        (s.files, s.hashed, s.hashed_bytes, s.truncated, s.unchecked),
        (20000, 19999, 123, None, None)
    );
    let s = parse_record(
        &format!(
            "outposts-integrity result=recorded files=9 hashed=0 bytes=0 digest={D} truncated=time\n"
        ),
        0,
        5.0,
    );
    assert_eq!(s.truncated.as_deref(), Some("time"));
    for (out, code, why) in [
        (
            "outposts-integrity result=unchecked reason=no-sha256sum\n",
            0,
            "`sha256sum` is missing in the sandbox",
        ),
        (
            "outposts-integrity result=unchecked reason=no-home\n",
            0,
            "the sandbox's home is not writable",
        ),
        (
            "sh: 1: syntax error\n",
            2,
            "the manifest script said nothing (exit 2)",
        ),
        (
            "outposts-integrity result=recorded files=1 digest=short\n",
            0,
            "the manifest script failed (exit 0)",
        ),
    ] {
        assert_eq!(
            parse_record(out, code, 1.0).unchecked.as_deref(),
            Some(why),
            "{out}"
        );
    }
}

/// (check output, result, lost, changed, paths named, more)
type Case = (String, WakeResult, u64, u64, Vec<&'static str>, bool);

#[test]
fn verdicts() {
    let r = recorded(3);
    // (output, result, lost, changed, paths, more)
    let cases: Vec<Case> = vec![
        (checked(0, D, &[]), WakeResult::Intact, 0, 0, vec![], false),
        (
            checked(1, D, &["-/w/a.txt\t5\t-rw-r--r--\t100\t-"]),
            WakeResult::Lost,
            1,
            0,
            vec!["/w/a.txt"],
            false,
        ),
        (
            checked(
                2,
                D,
                &[
                    "-/w/b\t5\t-rw-r--r--\t100\tx",
                    "+/w/b\t5\t-rw-r--r--\t100\ty",
                ],
            ),
            WakeResult::Changed,
            0,
            1,
            vec!["/w/b"],
            false,
        ),
        // Lost first, then changed, in that order.
        (
            checked(
                3,
                D,
                &[
                    "-/w/b\t5\t-\t1\tx",
                    "+/w/b\t6\t-\t1\tx",
                    "-/w/c\t1\t-\t1\t-",
                ],
            ),
            WakeResult::Lost,
            1,
            1,
            vec!["/w/c", "/w/b"],
            false,
        ),
        // Cut after a `-line`: its `+line` may follow, so it is not called lost.
        (
            checked(
                9,
                D,
                &[
                    "-/w/b\t5\t-\t1\tx",
                    "+/w/b\t6\t-\t1\tx",
                    "-/w/c\t1\t-\t1\t-",
                ],
            ),
            WakeResult::Changed,
            0,
            1,
            vec!["/w/b"],
            true,
        ),
        (
            "outposts-integrity result=missing\n".to_string(),
            WakeResult::Lost,
            3,
            0,
            vec!["~/.outposts-integrity/manifest"],
            true,
        ),
        (
            checked(0, E, &[]),
            WakeResult::Changed,
            0,
            0,
            vec!["~/.outposts-integrity/manifest"],
            false,
        ),
        (String::new(), WakeResult::Unchecked, 0, 0, vec![], false),
        (
            "outposts-integrity result=unchecked reason=no-comm\n".into(),
            WakeResult::Unchecked,
            0,
            0,
            vec![],
            false,
        ),
    ];
    for (out, result, lost, changed, paths, more) in cases {
        let v = judge(&r, &out, 0);
        assert_eq!(
            (
                v.result,
                v.lost,
                v.changed,
                v.paths.iter().map(String::as_str).collect::<Vec<_>>(),
                v.more
            ),
            (result, lost, changed, paths, more),
            "{out}"
        );
    }
}

#[test]
fn many_differences_name_the_first_few() {
    let lines: Vec<String> = (0..8).map(|i| format!("-/w/f{i}\t1\t-\t1\t-")).collect();
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let v = judge(&recorded(100), &checked(8, D, &refs), 0);
    assert_eq!(
        (v.result, v.lost, v.paths.len(), v.more),
        (WakeResult::Lost, 8, FIRST_PATHS, true)
    );
    assert_eq!(
        v.words(),
        "8 lost of 100 files: /w/f0, /w/f1, /w/f2, /w/f3, /w/f4, …"
    );
}

#[test]
fn nothing_recorded_is_unchecked_with_the_reason() {
    let v = judge(
        &Summary::unchecked("`awk` is missing in the sandbox", 1.0),
        "",
        0,
    );
    assert_eq!(v.result, WakeResult::Unchecked);
    assert_eq!(
        v.words(),
        "unchecked (nothing recorded at sleep: `awk` is missing in the sandbox)"
    );
    let mut cut = recorded(50_000);
    cut.truncated = Some("count".into());
    let v = judge(&cut, &checked(0, D, &[]), 0);
    assert_eq!(v.result, WakeResult::Intact);
    assert_eq!(
        v.words(),
        "intact (50000 files) (manifest cut by count: the first 50000 files only)"
    );
}

/// The scripts themselves, in this host's `sh` (the local provider runs them the same way).
#[test]
fn scripts_prove_a_tree_in_sh() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let work = h.join("workspace");
    std::fs::create_dir_all(work.join("src")).unwrap();
    for i in 0..50 {
        std::fs::write(
            work.join("src").join(format!("f{i}.rs")),
            format!("fn f{i}() {{}}"),
        )
        .unwrap();
    }
    std::fs::write(h.join(".bashrc"), "export A=1").unwrap();
    std::os::unix::fs::symlink("src/f1.rs", work.join("link")).unwrap();
    std::fs::create_dir_all(h.join(".devin-outposts/x")).unwrap();
    std::fs::write(h.join(".devin-outposts/x/remote.log"), "log").unwrap();
    let run = |script: &str, max: u64| {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(script)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap())
            .env("HOME", h)
            .env("OUTPOSTS_INTEGRITY_WORKDIR", &work)
            .env("OUTPOSTS_INTEGRITY_MAX_FILES", max.to_string())
            .env("OUTPOSTS_INTEGRITY_HASH_BYTES", "1000000")
            .env("OUTPOSTS_INTEGRITY_SECONDS", "20")
            .env("OUTPOSTS_INTEGRITY_DIFF_LINES", "200")
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            out.status.code().unwrap_or(-1),
        )
    };
    let (out, code) = run(script::RECORD, 1000);
    let s = parse_record(&out, code, 1.0);
    // 50 sources, the link, .bashrc; not our own run directory nor the manifest.
    assert_eq!(
        (s.files, s.hashed, s.unchecked.clone()),
        (52, 51, None),
        "{out}"
    );
    let (out, code) = run(script::CHECK, 1000);
    assert_eq!(judge(&s, &out, code).result, WakeResult::Intact, "{out}");
    // The remote's own log changes between wakes: not a difference.
    std::fs::write(h.join(".devin-outposts/x/remote.log"), "more log").unwrap();
    std::fs::remove_file(work.join("src/f7.rs")).unwrap();
    let f9 = work.join("src/f9.rs");
    let mtime = std::fs::metadata(&f9).unwrap().modified().unwrap();
    std::fs::write(&f9, "fn f9() {!}").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&f9)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let (out, code) = run(script::CHECK, 1000);
    let v = judge(&s, &out, code);
    let f7 = work.join("src/f7.rs").display().to_string();
    assert_eq!(
        (v.result, v.lost, v.changed, v.paths.clone()),
        (WakeResult::Lost, 1, 1, vec![f7, f9.display().to_string()]),
        "{out}"
    );
    // Bounded by count: the manifest keeps the first 10 and says it was cut.
    let (out, code) = run(script::RECORD, 10);
    let s = parse_record(&out, code, 1.0);
    assert_eq!(
        (s.files, s.truncated.as_deref()),
        (10, Some("count")),
        "{out}"
    );
    // The manifest gone with the home: lost.
    std::fs::remove_dir_all(h.join(".outposts-integrity")).unwrap();
    let (out, code) = run(script::CHECK, 1000);
    assert_eq!(judge(&s, &out, code).result, WakeResult::Lost, "{out}");
}
