//! The module map of DESIGN.md, kept by a test: it reads `src/**/*.rs` (production code only —
//! comments and `#[cfg(test)]` code are skipped) and fails naming file and line when a rule is
//! broken:
//!
//! 1. `api/` uses neither `commands`, `cli` nor `emulator`.
//! 2. Only `commands/` (and `main.rs`) name the emulator; the emulator may name itself.
//! 3. Domain code (`api`, `provider`, `orchestrator`) never uses `commands` or `cli`, and never
//!    prints.
//! 4. The planner (`orchestrator/plan/`) does no I/O: no async, clocks, files, network,
//!    processes, logging, providers or API clients.
//! 5. Exit codes are decided in `main.rs` alone: `crate::error` (exit-status types) is used only
//!    by `commands/`, `main.rs` and `error.rs`, and only `main.rs` exits the process.
//! 6. The emulator uses nothing of the client it tests — `orchestrator`, `worker`, `verify`,
//!    `commands`, `provider::daytona`, `provider::coreweave` (the local sandbox runtime and the
//!    generated protobuf types are fine).
//! 7. `api/` and `provider/` are handed resolved settings (`settings/`): they import neither
//!    `config` (the layered loader) nor `env` (the variable names).
//! 8. `doctor/` judges resolved settings (`settings::DoctorSettings`): it never names
//!    `config::Config`.

use std::path::{Path, PathBuf};

fn src_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// One production line of one file.
struct Line {
    file: String,
    number: usize,
    text: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: `src/api/coreweave/auth.rs` → `api::coreweave::auth`.
fn module_of(rel: &str) -> Vec<String> {
    let rel = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    }
    parts
}

/// Production lines: without comment lines, and without the `#[cfg(test)]` code that ends a
/// file (this code base keeps tests last), a test-only file (`#![cfg(test)]`) or a `tests.rs`.
fn production_lines(path: &Path, rel: &str) -> Vec<Line> {
    if rel.ends_with("/tests.rs") || rel == "tests.rs" {
        return Vec::new();
    }
    let text = std::fs::read_to_string(path).expect("read source");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        // A test-only file says so at its top (`#![cfg(test)]`): none of it is production.
        if line.starts_with("#[cfg(test)]") || line.starts_with("#![cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push(Line {
            file: rel.to_string(),
            number: i + 1,
            text: line.to_string(),
        });
    }
    out
}

/// The top-level modules a line refers to through `crate::…`, `super::…` or `self::…` paths,
/// resolved against the file's module.
fn referenced_tops(line: &str, module: &[String]) -> Vec<String> {
    let mut tops = Vec::new();
    let bytes: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let rest: String = bytes[i..].iter().collect();
        let boundary = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        let start = ["crate::", "super::", "self::"]
            .iter()
            .find(|p| boundary && rest.starts_with(**p));
        let Some(_) = start else {
            i += 1;
            continue;
        };
        // Read the whole path `a::b::c`.
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':' || *c == '{')
            .collect();
        i += path.len().max(1);
        let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let mut abs: Vec<String> = Vec::new();
        let mut k = 0;
        match segs.first() {
            Some(&"crate") => k = 1,
            Some(&"self") => {
                abs = module.to_vec();
                k = 1;
            }
            Some(&"super") => {
                abs = module.to_vec();
                while segs.get(k) == Some(&"super") {
                    abs.pop();
                    k += 1;
                }
            }
            _ => {}
        }
        abs.extend(segs[k..].iter().map(|s| s.to_string()));
        if abs.first().is_some_and(|s| s.starts_with('{')) {
            // `crate::{a, b}`: every name in the group.
            let group: String = rest.chars().skip_while(|c| *c != '{').collect();
            let inner = group.trim_start_matches('{');
            for name in inner.split([',', '}']).map(str::trim) {
                let top: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !top.is_empty() {
                    tops.push(top);
                }
            }
        } else if let Some(top) = abs.first() {
            tops.push(top.clone());
        }
    }
    tops
}

struct Rule {
    name: &'static str,
    /// Does the rule apply to a file in this module?
    applies: fn(&[String]) -> bool,
    /// Forbidden top-level modules.
    tops: &'static [&'static str],
    /// Forbidden text.
    text: &'static [&'static str],
}

fn under(module: &[String], top: &str) -> bool {
    module.first().is_some_and(|m| m == top)
}

const RULES: &[Rule] = &[
    Rule {
        name: "api/ knows neither commands, the CLI nor the emulator",
        applies: |m| under(m, "api"),
        tops: &["commands", "cli", "emulator"],
        text: &[],
    },
    Rule {
        name: "only commands/ (and main.rs) name the emulator",
        applies: |m| !m.is_empty() && !under(m, "commands") && !under(m, "emulator"),
        tops: &["emulator"],
        text: &[],
    },
    Rule {
        name: "domain code (api, provider, orchestrator) neither uses commands nor prints",
        applies: |m| under(m, "api") || under(m, "provider") || under(m, "orchestrator"),
        tops: &["commands", "cli"],
        text: &["println!", "print!(", "eprintln!", "eprint!(", "dbg!("],
    },
    Rule {
        name: "the planner does no I/O",
        applies: |m| m.len() >= 2 && m[0] == "orchestrator" && m[1] == "plan",
        tops: &["time", "api::http", "commands", "emulator"],
        text: &[
            "async ",
            ".await",
            "tokio",
            "std::fs",
            "std::net",
            "std::process",
            "std::io",
            "std::thread",
            "SystemTime",
            "Instant",
            "tracing",
            "reqwest",
            "tonic",
            "dyn Provider",
            "DevinClient",
            "HttpClient",
            "print!",
            "println!",
        ],
    },
    Rule {
        name: "exit codes are decided in main.rs (crate::error only in commands/, main.rs, error.rs)",
        applies: |m| !m.is_empty() && !under(m, "commands") && !under(m, "error"),
        tops: &["error"],
        text: &[],
    },
    Rule {
        name: "the emulator takes its behaviour from the specs, not from the client it tests",
        applies: |m| under(m, "emulator"),
        tops: &[
            "orchestrator",
            "worker",
            "verify",
            "commands",
            "provider::daytona",
            "provider::coreweave",
        ],
        text: &[],
    },
    Rule {
        name: "api/ and provider/ take resolved settings: they read neither config nor env",
        applies: |m| under(m, "api") || under(m, "provider"),
        tops: &["config", "env"],
        text: &[],
    },
    Rule {
        name: "only main.rs exits the process",
        applies: |m| !m.is_empty(),
        tops: &[],
        text: &["process::exit("],
    },
];

fn violations(lines: &[Line], rel: &str) -> Vec<String> {
    let module = module_of(rel);
    let mut out = Vec::new();
    for rule in RULES {
        if !(rule.applies)(&module) {
            continue;
        }
        for l in lines {
            let tops = referenced_tops(&l.text, &module);
            let hit_top = rule.tops.iter().find(|t| {
                let want: Vec<&str> = t.split("::").collect();
                tops.iter().any(|top| top == want[0])
                    && (want.len() == 1 || l.text.contains(&format!("crate::{t}")))
            });
            let hit_text = rule.text.iter().find(|t| l.text.contains(**t));
            if let Some(what) = hit_top.or(hit_text) {
                out.push(format!(
                    "{}:{}: {} (found `{what}`): {}",
                    l.file,
                    l.number,
                    rule.name,
                    l.text.trim()
                ));
            }
        }
    }
    out
}

fn all_violations() -> Vec<String> {
    let root = src_root();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut out = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let lines = production_lines(&f, &rel);
        out.extend(violations(&lines, &rel));
    }
    out
}

#[test]
fn the_module_map_holds() {
    let v = all_violations();
    assert!(
        v.is_empty(),
        "{} layering violation(s) (DESIGN.md, module map):\n{}",
        v.len(),
        v.join("\n")
    );
}

/// The checker itself: each rule catches the import it forbids, and resolves relative paths.
#[test]
fn each_rule_catches_what_it_forbids() {
    let line = |file: &str, text: &str| {
        violations(
            &[Line {
                file: file.into(),
                number: 7,
                text: text.into(),
            }],
            file,
        )
    };
    let caught = [
        (
            "api/coreweave.rs",
            "let o = crate::commands::http_options(c);",
        ),
        ("api/devin.rs", "use crate::emulator::devin::NewSession;"),
        (
            "worker/mod.rs",
            "crate::emulator::devin_cli::sandbox_options(dir)",
        ),
        ("orchestrator/run.rs", "use crate::commands::Ctx;"),
        ("provider/daytona.rs", "println!(\"debug\");"),
        (
            "orchestrator/plan/track.rs",
            "let t = std::time::SystemTime::now();",
        ),
        ("orchestrator/plan/mod.rs", "use crate::time::now;"),
        ("api/devin.rs", "use crate::error::CliError;"),
        (
            "orchestrator/state.rs",
            "return Err(crate::error::CliError::usage(m, h));",
        ),
        ("commands/orchestrator.rs", "std::process::exit(130);"),
        (
            "api/daytona/x.rs",
            "use super::super::super::commands::Ctx;",
        ),
        ("api/mod.rs", "use crate::{commands, env};"),
        (
            "emulator/devin_cli/serve.rs",
            "use crate::orchestrator::remote::{self, RemoteBinary};",
        ),
        (
            "emulator/daytona/snapshot.rs",
            "use crate::provider::daytona::snapshot::check_name;",
        ),
        (
            "emulator/coreweave.rs",
            "pub const I: &str = crate::provider::coreweave::DEFAULT_IMAGE;",
        ),
        ("api/devin.rs", "use crate::config::{Config, ConfigError};"),
        (
            "provider/daytona/mod.rs",
            "(None, Some(_)) => Some(crate::env::GIT_USERNAME.default_str().into()),",
        ),
        (
            "provider/local/checks.rs",
            "use crate::{config::Config, env};",
        ),
    ];
    for (file, text) in caught {
        let v = line(file, text);
        assert!(!v.is_empty(), "{file}: `{text}` passed");
        assert!(
            v.iter().all(|m| m.starts_with(&format!("{file}:7: "))),
            "{v:?}"
        );
    }
    let allowed = [
        (
            "commands/demo.rs",
            "use crate::emulator::{Emulator, EmulatorOptions};",
        ),
        ("emulator/devin/fleet.rs", "use crate::emulator::AppState;"),
        ("commands/demo.rs", "use super::Ctx;"),
        (
            "orchestrator/plan/janitor.rs",
            "use crate::provider::{SandboxInfo, SandboxState};",
        ),
        ("orchestrator/run.rs", "use super::plan::{self, Action};"),
        (
            "emulator/coreweave.rs",
            "crate::provider::local::SandboxOptions::host_bin(dir)",
        ),
        ("main.rs", "std::process::exit(2)"),
        (
            "commands/mod.rs",
            "use crate::error::{CliError, ExitStatus};",
        ),
        ("api/devin.rs", "use crate::settings::DevinSettings;"),
        (
            "settings/provider.rs",
            "use crate::config::{Config, ConfigError};",
        ),
        (
            "provider/local/exec.rs",
            "let path = std::env::var_os(\"PATH\");",
        ),
    ];
    for (file, text) in allowed {
        assert!(line(file, text).is_empty(), "{file}: `{text}`");
    }
}

/// Whether a line names the type `Config` (as a whole word: `ConfigError` is fine).
fn names_config(text: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == "Config")
}

/// Rule 8: doctor's checks take the settings `doctor` resolved once, never the raw `Config`.
#[test]
fn doctor_takes_resolved_settings() {
    let root = src_root();
    let mut files = Vec::new();
    rust_files(&root.join("doctor"), &mut files);
    assert!(!files.is_empty(), "no src/doctor/");
    let mut v = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        for l in production_lines(&f, &rel) {
            if names_config(&l.text) {
                v.push(format!("{}:{}: {}", l.file, l.number, l.text.trim()));
            }
        }
    }
    assert!(
        v.is_empty(),
        "doctor/ names config::Config (resolve in settings::DoctorSettings instead):\n{}",
        v.join("\n")
    );
    for caught in [
        "use crate::config::{Config, Source};",
        "pub fn settings(config: &Config) -> Check {",
        "use crate::config::Config;",
    ] {
        assert!(names_config(caught), "{caught}");
    }
    for allowed in [
        "use crate::config::{ConfigError, Source};",
        "fn f(e: &ConfigError, settings: &DoctorSettings)",
    ] {
        assert!(!names_config(allowed), "{allowed}");
    }
}
