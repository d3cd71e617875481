//! How results and progress are shown: decided once, before the command runs.

use std::io::IsTerminal;

use crate::cli::GlobalArgs;
use crate::output::ColorChoice;

/// Output mode, colour, terminals and CI, resolved from the global flags and the process
/// environment (the printer exists before the layered configuration is loaded, so that a
/// configuration error can be reported in the chosen mode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputSettings {
    /// `--json`: one JSON document on stdout.
    pub json: bool,
    /// `-q`.
    pub quiet: bool,
    /// `-v` count.
    pub verbose: u8,
    /// Colour on stderr: `--color`, else on a terminal unless `NO_COLOR` is set.
    pub color: bool,
    pub stderr_tty: bool,
    pub stdin_tty: bool,
    /// `CI` is set (and not `0`/`false`).
    pub ci: bool,
    /// `RUST_LOG` is set: log lines would interleave with progress bars.
    pub rust_log: bool,
}

impl OutputSettings {
    /// From the global flags, `NO_COLOR`, `CI`, `RUST_LOG` and whether stdin/stderr are
    /// terminals.
    pub fn resolve(global: &GlobalArgs) -> Self {
        Self::resolve_with(
            global,
            |name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()),
            std::io::stderr().is_terminal(),
            std::io::stdin().is_terminal(),
        )
    }

    /// [`Self::resolve`] with the environment and terminals given (tests).
    pub fn resolve_with(
        global: &GlobalArgs,
        env: impl Fn(&str) -> Option<String>,
        stderr_tty: bool,
        stdin_tty: bool,
    ) -> Self {
        let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
        let ci = env("CI").is_some_and(|v| !matches!(v.as_str(), "" | "0" | "false"));
        let color = match global.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => stderr_tty && !set("NO_COLOR"),
        };
        OutputSettings {
            json: global.json,
            quiet: global.quiet,
            verbose: global.verbose,
            color,
            stderr_tty,
            stdin_tty,
            ci,
            rust_log: set("RUST_LOG"),
        }
    }
}
