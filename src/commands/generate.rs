//! `outposts completions SHELL` and the hidden `outposts generate`: shell completions and man
//! pages rendered from the clap definition. The committed copies in `completions/` and `man/`
//! are checked against this rendering by a test.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use super::Ctx;
use crate::cli::Cli;
use crate::error::ExitStatus;

const COMPLETIONS_AFTER_HELP: &str = "\
Examples:
  outposts completions bash > ~/.local/share/bash-completion/completions/outposts
  eval \"$(outposts completions bash)\"        # this shell only
  outposts completions zsh --json | jq -r .script > _outposts

Install:
  bash        outposts completions bash > ~/.local/share/bash-completion/completions/outposts
  zsh         outposts completions zsh > \"${fpath[1]}/_outposts\"   # then: autoload -U compinit && compinit
  fish        outposts completions fish > ~/.config/fish/completions/outposts.fish
  elvish      outposts completions elvish >> ~/.config/elvish/rc.elv
  powershell  outposts completions powershell | Out-String | Invoke-Expression   # add to $PROFILE

Packagers: the same scripts are committed under completions/ (man pages under man/).
Scripting: stdout is the script itself; --json wraps it as {shell, file, script}.";

const GENERATE_AFTER_HELP: &str = "\
Examples:
  outposts generate                 # rewrite completions/ and man/ in the current directory
  outposts generate --check         # exit 1 listing what drifted (what the test checks)

Scripting: --json prints {files, updated: [...]} ({files, differ: [...]} with --check).";

#[derive(Debug, clap::Args)]
#[command(after_help = COMPLETIONS_AFTER_HELP)]
pub struct CompletionsArgs {
    /// Shell to generate completions for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, clap::Args)]
#[command(after_help = GENERATE_AFTER_HELP)]
pub struct GenerateArgs {
    /// Repository root to write `completions/` and `man/` into.
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
    /// Only compare; exit 1 listing the files that differ.
    #[arg(long)]
    pub check: bool,
}

/// File name of each shell's completion script under `completions/`.
pub fn completion_file(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => "outposts.bash",
        Shell::Zsh => "_outposts",
        Shell::Fish => "outposts.fish",
        Shell::Elvish => "outposts.elv",
        Shell::PowerShell => "_outposts.ps1",
        _ => "outposts.unknown",
    }
}

fn completion(shell: Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "outposts", &mut buf);
    buf
}

/// Every generated file, as (path relative to the repository root, bytes).
pub fn render_all() -> Result<Vec<(PathBuf, Vec<u8>)>> {
    let mut out = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        out.push((
            Path::new("completions").join(completion_file(shell)),
            completion(shell),
        ));
    }
    let mut root = Cli::command().disable_help_subcommand(true);
    root.build();
    render_man(&root, &mut out, true)?;
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn render_man(cmd: &clap::Command, out: &mut Vec<(PathBuf, Vec<u8>)>, root: bool) -> Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        render_man(sub, out, false)?;
    }
    // clap_mangen would fill the after-help text (examples!) into one paragraph under
    // "EXTRA": render the page without it and add preformatted sections of our own.
    let bare = cmd
        .clone()
        .after_help(None::<&str>)
        .after_long_help(None::<&str>);
    let man = clap_mangen::Man::new(bare);
    let mut buf = Vec::new();
    man.render(&mut buf)?;
    let mut page = String::from_utf8(buf)?;
    let mut extra = String::new();
    if let Some(text) = cmd.get_after_help() {
        extra.push_str(&after_help_sections(&text.to_string()));
    }
    if root {
        extra.push_str(&environment_section());
        extra.push_str(EXIT_STATUS_SECTION);
    }
    match page.find("\n.SH VERSION") {
        Some(i) => page.insert_str(i + 1, &extra),
        None => page.push_str(&extra),
    }
    out.push((Path::new("man").join(man.get_filename()), page.into_bytes()));
    Ok(())
}

/// Escape text for roff: backslashes, hyphens, quotes, and control characters at line start.
fn roff_escape(line: &str) -> String {
    let s = line
        .replace('\\', "\\e")
        .replace('-', "\\-")
        .replace('\'', "\\*(Aq");
    if s.starts_with('.') {
        format!("\\&{s}")
    } else {
        s
    }
}

/// `lines` as a no-fill block under `.SH title`.
fn preformatted(title: &str, lines: &[&str]) -> String {
    let mut out = format!(".SH {title}\n.nf\n");
    for l in lines {
        out.push_str(&roff_escape(l));
        out.push('\n');
    }
    out.push_str(".fi\n");
    out
}

/// A command's after-help: its `Examples:` block becomes EXAMPLES, the rest NOTES.
fn after_help_sections(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let (examples, rest): (&[&str], &[&str]) = match lines.first() {
        Some(first) if first.trim() == "Examples:" => {
            let end = lines
                .iter()
                .position(|l| l.trim().is_empty())
                .unwrap_or(lines.len());
            (&lines[1..end], &lines[end.min(lines.len())..])
        }
        _ => (&[], &lines[..]),
    };
    let mut out = String::new();
    if !examples.is_empty() {
        out.push_str(&preformatted("EXAMPLES", examples));
    }
    let rest: Vec<&str> = rest
        .iter()
        .copied()
        .skip_while(|l| l.trim().is_empty())
        .collect();
    if !rest.is_empty() {
        out.push_str(&preformatted("NOTES", &rest));
    }
    out
}

/// ENVIRONMENT of the root page, from the one registry (`env.rs`).
fn environment_section() -> String {
    let mut out = String::from(
        ".SH ENVIRONMENT\nPrecedence: flag > environment > .env (or \\-\\-env\\-file) > \
         outposts.toml (\\-\\-config) > default.\n",
    );
    for v in crate::env::ALL {
        out.push_str(&format!(".TP\n\\fB{}\\fR", roff_escape(v.name)));
        if let Some(d) = v.default {
            out.push_str(&format!(" [default: {}]", roff_escape(d)));
        }
        out.push('\n');
        out.push_str(&roff_escape(&v.doc.trim().replace('\n', " ")));
        out.push('\n');
    }
    out
}

const EXIT_STATUS_SECTION: &str = "\
.SH \"EXIT STATUS\"
.TP
0
Success.
.TP
1
The command failed (it says why).
.TP
2
Usage or configuration error (the message names the flag or variable).
.TP
3
A verification or health check failed (session verify, doctor).
.TP
4
Authentication required or rejected.
.TP
130
Interrupted (Ctrl\\-C or SIGTERM during a wait).
";

pub async fn completions(ctx: &Ctx, args: CompletionsArgs) -> Result<ExitStatus> {
    use std::io::Write;
    let script = completion(args.shell);
    if ctx.printer.json() {
        ctx.printer.json_doc(&serde_json::json!({
            "shell": args.shell.to_string(),
            "file": Path::new("completions").join(completion_file(args.shell)),
            "script": String::from_utf8_lossy(&script),
        }));
    } else {
        std::io::stdout().write_all(&script)?;
    }
    Ok(ExitStatus::Success)
}

pub async fn generate(ctx: &Ctx, args: GenerateArgs) -> Result<ExitStatus> {
    let files = render_all()?;
    let mut drifted = Vec::new();
    for (rel, bytes) in &files {
        let path = args.dir.join(rel);
        if std::fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
            drifted.push(rel.display().to_string());
            if !args.check {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("cannot create {}", parent.display()))?;
                }
                std::fs::write(&path, bytes)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
    }
    // Stale pages of removed commands.
    let expected: std::collections::BTreeSet<PathBuf> =
        files.iter().map(|(p, _)| p.clone()).collect();
    for dir in ["completions", "man"] {
        if let Ok(entries) = std::fs::read_dir(args.dir.join(dir)) {
            for e in entries.flatten() {
                let rel = Path::new(dir).join(e.file_name());
                if !expected.contains(&rel) {
                    drifted.push(format!("{} (stale)", rel.display()));
                    if !args.check {
                        std::fs::remove_file(e.path())?;
                    }
                }
            }
        }
    }
    let verb = if args.check { "differ" } else { "updated" };
    ctx.printer.result(
        &serde_json::json!({"files": files.len(), verb: drifted}),
        || {
            if drifted.is_empty() {
                format!("{} generated files up to date", files.len())
            } else {
                format!("{verb}: {}", drifted.join(", "))
            }
        },
    );
    Ok(if args.check && !drifted.is_empty() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}
