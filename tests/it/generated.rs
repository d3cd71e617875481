//! completions/ and man/ are generated from the CLI; this fails when they drift.

use crate::support::TestEnv;

#[test]
fn committed_completions_and_man_pages_match_the_cli() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = outposts::commands::generate::render_all().expect("render");
    let mut drift = Vec::new();
    for (rel, bytes) in &files {
        if std::fs::read(root.join(rel)).ok().as_deref() != Some(bytes.as_slice()) {
            drift.push(rel.display().to_string());
        }
    }
    for dir in ["completions", "man"] {
        for e in std::fs::read_dir(root.join(dir))
            .expect("generated dir")
            .flatten()
        {
            let rel = std::path::Path::new(dir).join(e.file_name());
            if !files.iter().any(|(p, _)| *p == rel) {
                drift.push(format!("{} (stale)", rel.display()));
            }
        }
    }
    assert!(
        drift.is_empty(),
        "generated files drifted from the CLI: {drift:?}\nrun `cargo run -- generate` and commit the result"
    );
    assert!(files.iter().any(|(p, _)| p.ends_with("outposts.1")));
}

#[test]
fn completions_command_prints_a_script() {
    let env = TestEnv::new();
    let r = env.run(&["completions", "bash"]);
    r.ok();
    assert!(
        r.stdout.contains("_outposts()"),
        "{}",
        &r.stdout[..r.stdout.len().min(200)]
    );
    env.run(&["completions", "tcsh"]).code(2);
}

#[test]
fn generate_check_reports_drift_in_an_empty_dir() {
    let env = TestEnv::new();
    let r = env.run(&["generate", "--check", "--dir", "."]);
    r.code(1);
    assert!(r.stdout.contains("man/outposts.1"), "{}", r.stdout);
    env.run(&["generate", "--dir", "."]).ok();
    env.run(&["generate", "--check", "--dir", "."]).ok();
    assert!(env.cwd.join("completions/_outposts").exists());
}
