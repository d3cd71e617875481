//! Every PowerShell text the tool sends to a Windows sandbox, read by a real PowerShell grammar
//! (no PowerShell runs on the build machines): the uploaded scripts, the provisioner asset and
//! the payload of every `-EncodedCommand` line, each generated over hostile inputs. A grammar
//! reads PowerShell 7 syntax too, so a walk over the syntax tree rejects what Windows PowerShell
//! 5.1 (the Daytona Windows image's shell) cannot run.
//!
//! Shared by two test binaries, one per grammar: both grammar crates export the same C symbol
//! (`tree_sitter_powershell`), so one binary linking both would silently read everything with
//! whichever the linker picked first.

use tree_sitter::{Language, Node, Parser};

use outposts::orchestrator::remote::LaunchMode;
use outposts::orchestrator::remote::windows::command;
use outposts::orchestrator::remote::windows_install;
use outposts::orchestrator::remote::windows_scripts::{
    bootstrap_script, check_script, has_clone_script, start_script,
};
use outposts::provider::daytona::windows_build::runner;
use outposts::shell::{CMD_EXE_LIMIT, WINDOWS_COMMAND_BUDGET, powershell_call};

/// The newer Windows daemon runs a command as `cmd.exe /S /C "<command>"`: its ~37 characters
/// of wrapper come out of cmd.exe's 8,191.
pub const BUDGET: usize = CMD_EXE_LIMIT - 37;
const _: () = assert!(BUDGET == WINDOWS_COMMAND_BUDGET);

/// Values a user or the platform can put into a script: quotes of every kind PowerShell knows,
/// subexpressions, backticks, spaces, wildcard brackets, non-ASCII, comment openers.
fn hostile() -> Vec<String> {
    [
        "plain",
        "it's",
        "two words",
        "$(Remove-Item -Recurse C:\\)",
        "`$env:X`",
        "C:\\work\\[x]\\ő",
        "C:\\Users\\Zoë Kovács\\repos\\árvíztűrő",
        "smart ‘single’ ‚low‛ quotes",
        "smart “double” „low",
        "a;b|c&d<e>f",
        "@{a=1}",
        "#not a comment",
        "<# not a block",
        "tab\there",
        "100%",
        "^caret",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("C:\\{}", "deep\\".repeat(40))])
    .collect()
}

/// Every problem the grammar or the 5.1 rule finds in `src`.
pub fn problems(lang: &Language, src: &str) -> Vec<String> {
    let mut parser = Parser::new();
    parser.set_language(lang).expect("grammar loads");
    let tree = parser.parse(src, None).expect("parse");
    let mut out = Vec::new();
    walk(tree.root_node(), src, &mut out);
    out.dedup();
    out
}

fn at(n: Node) -> String {
    let p = n.start_position();
    format!("line {} col {}", p.row + 1, p.column + 1)
}

fn walk(n: Node, src: &str, out: &mut Vec<String>) {
    let text = &src[n.byte_range()];
    if n.is_error() {
        out.push(format!("syntax error at {}: {text:?}", at(n)));
    } else if n.is_missing() {
        out.push(format!("missing `{}` at {}", n.kind(), at(n)));
    }
    match n.kind() {
        "&&" | "||" | "??" | "??=" | "ternary_expression" | "null_coalesce_expression" => {
            out.push(format!(
                "`{}` at {} is PowerShell 7 only (Windows PowerShell 5.1 cannot run it)",
                n.kind(),
                at(n)
            ))
        }
        // A pipe that starts a line continues the pipeline above only in PowerShell 7.
        "|" => {
            let line_start = src[..n.start_byte()].rfind('\n').map_or(0, |i| i + 1);
            if src[line_start..n.start_byte()].trim().is_empty() {
                out.push(format!("a leading `|` at {} is PowerShell 7 only", at(n)));
            }
        }
        "try_statement" => {
            let mut c = n.walk();
            let handled = n.children(&mut c).any(|k| {
                matches!(
                    k.kind(),
                    "catch_clauses" | "catch_clause" | "finally_clause"
                )
            });
            if !handled {
                out.push(format!("`try` without `catch` or `finally` at {}", at(n)));
            }
        }
        _ => {}
    }
    // PowerShell also ends a '…' literal at a typographic single quote (‘ ’ ‚ ‛), which the
    // grammars do not know: inside a single-quoted literal every quote must come doubled.
    if n.child_count() == 0 && text.len() >= 2 && text.starts_with('\'') && text.ends_with('\'') {
        let inner: Vec<char> = text[1..text.len() - 1].chars().collect();
        let mut run = 0;
        for c in inner.iter().chain([&'x']) {
            if matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}') {
                run += 1;
            } else {
                if run % 2 == 1 {
                    out.push(format!(
                        "a lone quote inside the literal at {} ends it early in PowerShell: {text}",
                        at(n)
                    ));
                    break;
                }
                run = 0;
            }
        }
    }
    let mut c = n.walk();
    for k in n.children(&mut c) {
        walk(k, src, out);
    }
}

/// The script inside a `powershell.exe … -EncodedCommand <base64>` line, as Windows decodes it.
fn payload(line: &str) -> String {
    use base64::Engine;
    let b64 = line
        .strip_prefix(
            "powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ",
        )
        .unwrap_or_else(|| panic!("not an encoded PowerShell line: {line}"));
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("base64");
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16(&units).expect("UTF-16LE")
}

/// (what, script, sent as an encoded command line?) for every script over every hostile value.
pub fn every_script() -> Vec<(String, String, bool)> {
    let mut all = vec![
        (
            "provision_windows.ps1".to_string(),
            String::from_utf8(outposts::provider::daytona::snapshot::WINDOWS_PROVISIONER.to_vec())
                .expect("UTF-8 asset"),
            false,
        ),
        ("build runner".into(), runner::runner_script(), false),
        ("build start".into(), runner::start_script(), true),
    ];
    let sum = "0".repeat(64);
    for v in hostile() {
        let exe = format!("{v}\\devin-remote.exe");
        let url = format!("https://example.test/{v}/devin-remote_windows_x64.exe");
        all.push((
            format!("install {v:?}"),
            windows_install::start_script(&v, &exe, &sum),
            true,
        ));
        all.push((
            format!("install runner {v:?}"),
            windows_install::runner_script(&v, &exe, &sum, &url, &v),
            false,
        ));
        for mode in [LaunchMode::Remote, LaunchMode::Cli] {
            all.push((
                format!("bootstrap {mode:?} {v:?}"),
                bootstrap_script(&v, &exe, mode, &v),
                false,
            ));
        }
        all.push((format!("start {v:?}"), start_script(&v), true));
        all.push((format!("check {v:?}"), check_script(&v), true));
        all.push((format!("has_clone {v:?}"), has_clone_script(&v), true));
        // An argv exec on a Windows sandbox (the Daytona provider's translation).
        if let Ok(s) = powershell_call(&["git".to_string(), "-C".to_string(), v.clone()]) {
            all.push((format!("argv {v:?}"), s, true));
        }
    }
    all
}

/// Every script over every hostile value: no syntax error, nothing 5.1 cannot run, every
/// command line inside the budget. Returns the longest command line.
pub fn every_windows_script_is_clean(lang: &Language) -> usize {
    let mut bad = Vec::new();
    let mut longest = 0;
    for (what, script, encoded) in every_script() {
        let text = if encoded {
            let line = command(&script);
            longest = longest.max(line.len());
            if line.len() > BUDGET {
                bad.push(format!(
                    "{what}: the command is {} characters, over the {BUDGET} the daemon allows",
                    line.len()
                ));
            }
            payload(&line)
        } else {
            script
        };
        for p in problems(lang, &text) {
            bad.push(format!("{what}: {p}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    longest
}

/// The rule refuses what the grammar accepts but 5.1 cannot run, and the grammar refuses
/// broken scripts; clean 5.1 text passes.
/// `knows_ps7`: the grammar parses PowerShell 7 syntax (so only the rule can refuse it).
pub fn the_rule_sees_what_the_grammar_accepts(lang: &Language, knows_ps7: bool) {
    // Each of these parses, yet Windows PowerShell 5.1 refuses or misreads it.
    for (src, why) in [
        ("git status && git log\n", "&&"),
        ("git status || exit 1\n", "||"),
        ("$a = $b ?? 'x'\n", "??"),
        ("$a = $b ? 1 : 2\n", "ternary"),
        ("Get-Item x\n| Out-Null\n", "leading"),
        ("$p = 'a’b'\n", "lone quote"),
    ] {
        let found = problems(lang, src);
        assert!(
            found
                .iter()
                .any(|p| p.contains(why) || (!knows_ps7 && p.contains("syntax error"))),
            "{src:?} must be refused ({why}): {found:?}"
        );
    }
    // And the grammars themselves catch broken scripts.
    for src in [
        "if ($a) { Write-Output 1\n",
        "Write-Output 'open\n",
        "$x = $(Get-Date\n",
        "try { 1 }\n",
    ] {
        assert!(!problems(lang, src).is_empty(), "{src:?} must be refused");
    }
    assert!(problems(lang, "try { 1 } catch { 2 }\n").is_empty());
    assert!(problems(lang, "$p = 'it''s ‘’ fine'\nGet-Item x |\n  Out-Null\n").is_empty());
}
