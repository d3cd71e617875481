//! The documentation users get besides `--help`: man pages render, completion scripts load in
//! their shells and complete, every command's help ends with examples and scripting notes, and
//! the README's configuration table is the one `env.rs` generates.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::CommandFactory;

use crate::support::host::{self, require};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Run a tool the test has required (see `host`).
#[track_caller]
fn tool(program: &str, args: &[&str]) -> std::process::Output {
    // Shells may write history or caches under HOME: give them a throwaway one.
    let home = tempfile::tempdir().expect("temp HOME");
    Command::new(program)
        .args(args)
        .current_dir(root())
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "100")
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join(".config"))
        .env("XDG_DATA_HOME", home.path().join(".local/share"))
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `{program}` ({e}): install it (`.ci/run` lists the packages)")
        })
}

#[test]
fn the_root_man_page_renders_with_man() {
    require!(host::MAN);
    let out = tool("man", &["-l", "man/outposts.1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "man -l failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("NAME"), "{text}");
    assert!(text.contains("outposts - Run Devin Outposts"), "{text}");
    for section in [
        "SYNOPSIS",
        "SUBCOMMANDS",
        "EXAMPLES",
        "ENVIRONMENT",
        "EXIT STATUS",
    ] {
        assert!(text.contains(section), "no {section} section:\n{text}");
    }
    assert!(text.contains("DEVIN_OUTPOSTS_TOKEN"), "{text}");
    // Examples keep their lines (not filled into one paragraph).
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("outposts demo ")),
        "{text}"
    );
}

#[test]
fn every_man_page_formats_without_warnings() {
    require!(host::GROFF);
    let pages: Vec<PathBuf> = std::fs::read_dir(root().join("man"))
        .expect("man/")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(pages.len() > 30, "{pages:?}");
    for page in pages {
        let p = page.to_string_lossy().into_owned();
        // -k: UTF-8 input (as man does); -ww: every warning.
        let out = tool("groff", &["-k", "-t", "-man", "-Tutf8", "-ww", "-z", &p]);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{p}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn script(name: &str) -> String {
    root()
        .join("completions")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[track_caller]
fn shell_ok(program: &str, args: &[&str]) -> String {
    let out = tool(program, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{program} failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn bash_completion_loads_and_completes() {
    require!(host::BASH);
    let cmd = format!(
        "source {} && complete -p outposts && COMP_WORDS=(outposts doc) COMP_CWORD=1 && \
         _outposts outposts doc outposts && echo \"reply: ${{COMPREPLY[*]}}\"",
        script("outposts.bash")
    );
    let out = shell_ok("bash", &["--norc", "--noprofile", "-c", &cmd]);
    assert!(out.contains("-F _outposts outposts"), "{out}");
    assert!(out.contains("reply: doctor"), "{out}");
}

#[test]
fn zsh_completion_loads() {
    require!(host::ZSH);
    let cmd = format!(
        "autoload -U compinit && compinit -u -D && source {} && print -r -- \
         \"$_comps[outposts]\" && whence -w _outposts",
        script("_outposts")
    );
    let out = shell_ok("zsh", &["-f", "-c", &cmd]);
    assert!(out.contains("_outposts\n_outposts: function"), "{out}");
}

#[test]
fn fish_completion_loads_and_completes() {
    require!(host::FISH);
    let cmd = format!(
        "source {}; complete -C'outposts doc'; complete -C'outposts worker '",
        script("outposts.fish")
    );
    let out = shell_ok("fish", &["--no-config", "-c", &cmd]);
    assert!(out.contains("doctor\tCheck settings"), "{out}");
    assert!(out.contains("launch\t"), "{out}");
}

#[test]
fn elvish_completion_loads_and_completes() {
    require!(host::ELVISH);
    // Outside the interactive editor there is no `edit:` module: give the script a stand-in
    // and call the completer it registers.
    let prog = format!(
        "var completion = (ns [&arg-completer=[&]])\n\
         var edit = (ns [&completion:=$completion &complex-candidate~={{|text &display=''| put $text }}])\n\
         eval &ns=(ns [&edit:=$edit]) (slurp < {})\n\
         $completion[arg-completer][outposts] outposts doc\n",
        script("outposts.elv")
    );
    let out = shell_ok("elvish", &["-norc", "-c", &prog]);
    assert!(out.lines().any(|l| l.ends_with("doctor")), "{out}");
}

/// Every command path (root, groups, leaves, hidden ones), with whether it is a leaf.
fn commands() -> Vec<(String, clap::Command, bool)> {
    fn walk(cmd: &clap::Command, path: String, out: &mut Vec<(String, clap::Command, bool)>) {
        let subs: Vec<&clap::Command> = cmd
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .collect();
        out.push((path.clone(), cmd.clone(), subs.is_empty()));
        for s in subs {
            walk(s, format!("{path} {}", s.get_name()), out);
        }
    }
    let mut out = Vec::new();
    walk(&outposts::cli::Cli::command(), "outposts".into(), &mut out);
    out
}

#[test]
fn every_help_ends_with_examples_and_leaves_have_scripting_notes() {
    let mut problems = Vec::new();
    for (path, cmd, leaf) in commands() {
        let after = cmd
            .get_after_help()
            .map(|s| s.to_string())
            .unwrap_or_default();
        if !after.starts_with("Examples:\n  ") {
            problems.push(format!("{path}: after_help does not start with Examples"));
            continue;
        }
        // Every example is a command line of this tool (or a shell line using it).
        let examples: Vec<&str> = after
            .lines()
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .collect();
        if !examples.iter().any(|l| l.contains("outposts")) {
            problems.push(format!("{path}: no example runs outposts"));
        }
        if leaf && !after.contains("Scripting") {
            problems.push(format!(
                "{path}: no scripting notes (--json shape, exit codes)"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).expect("README.md")
}

#[test]
fn readme_configuration_table_is_generated_from_env_rs() {
    let text = readme();
    let start = "<!-- env-table:start -->\n";
    let end = "<!-- env-table:end -->";
    let a = text.find(start).expect("env-table:start marker") + start.len();
    let b = text[a..].find(end).expect("env-table:end marker") + a;
    let table = outposts::env::markdown_table();
    if std::env::var_os("UPDATE_README").is_some() && text[a..b] != table {
        let updated = format!("{}{table}{}", &text[..a], &text[b..]);
        std::fs::write(root().join("README.md"), updated).expect("write README.md");
        return;
    }
    assert_eq!(
        &text[a..b],
        table,
        "the README's configuration table drifted from src/env.rs: run \
         `UPDATE_README=1 cargo test --test it docs::readme` to rewrite it"
    );
}

#[test]
fn readme_metrics_table_is_generated_from_the_catalog() {
    let text = readme();
    let start = "<!-- metrics-table:start -->\n";
    let end = "<!-- metrics-table:end -->";
    let a = text.find(start).expect("metrics-table:start marker") + start.len();
    let b = text[a..].find(end).expect("metrics-table:end marker") + a;
    let table = outposts::orchestrator::metrics::catalog::markdown_table();
    if std::env::var_os("UPDATE_README").is_some() && text[a..b] != table {
        let updated = format!("{}{table}{}", &text[..a], &text[b..]);
        std::fs::write(root().join("README.md"), updated).expect("write README.md");
        return;
    }
    assert_eq!(
        &text[a..b],
        table,
        "the README's metrics table drifted from src/orchestrator/metrics/catalog.rs: run \
         `UPDATE_README=1 cargo test --test it docs::readme` to rewrite it"
    );
}

#[test]
fn readme_starts_with_the_two_commands_and_covers_every_command() {
    let text = readme();
    let first_block = text
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a sh block");
    let lines: Vec<&str> = first_block.lines().collect();
    assert!(lines[0].starts_with("cargo run -- demo"), "{first_block}");
    assert!(lines[1].starts_with("cargo test"), "{first_block}");
    for (path, cmd, _) in commands() {
        if cmd.is_hide_set() || path == "outposts" {
            continue;
        }
        let top = path.split(' ').nth(1).unwrap_or_default();
        assert!(
            text.contains(&format!("outposts {top}")),
            "the README never mentions `outposts {top}`"
        );
    }
}
