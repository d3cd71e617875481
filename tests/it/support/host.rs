//! Host tools some tests need, decided in one place.
//!
//! A test that needs a program or package this machine may lack starts with
//! `require!(host::BWRAP)` (or another [`Tool`]). When the tool is present the test runs. When it
//! is missing the test returns at once and writes one line to the real stderr (past libtest's
//! capture, so it shows in every run and can be counted):
//!
//! ```text
//! outposts-test: SKIP local_provider::exec_env…: needs bubblewrap (`bwrap` is not on PATH); install: apt-get install -y bubblewrap
//! ```
//!
//! With `OUTPOSTS_TEST_STRICT=1` (`.ci/run` sets it) a missing tool fails the test with the
//! same text instead, so CI never loses coverage silently.
//!
//! Most tests that run sandboxes need isolation only for safety, not for what they test: they
//! start with `require!(host::SANDBOXES)`. Without bubblewrap (and outside strict mode) they
//! run anyway, unisolated, as `outposts demo` does — [`TestEnv`](crate::support::TestEnv) and
//! the in-process provider options then allow it (`OUTPOSTS_LOCAL_UNISOLATED=1`) — and one line
//! per run says so. Only tests *about* isolation keep `require!(host::BWRAP)` and skip. `grep -c 'outposts-test: SKIP'` over
//! a run's output counts the skipped tests.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// Something a test needs from the host.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    /// What the user would call it.
    pub name: &'static str,
    probe: Probe,
    /// The one command that installs it.
    pub install: &'static str,
}

#[derive(Debug, Clone, Copy)]
enum Probe {
    /// The first of these programs on PATH.
    Program(&'static [&'static str]),
    /// `bwrap` on PATH and able to create a user namespace here.
    Bubblewrap,
    /// Bubblewrap, or (outside strict mode) the unisolated fallback.
    Sandboxes,
    /// `python3 -c "import <modules>"` succeeds.
    Python(&'static str),
    /// `node` imports these packages from `tests/conformance/node_modules`.
    Node(&'static [&'static str]),
}

pub const BWRAP: Tool = Tool {
    name: "bubblewrap",
    probe: Probe::Bubblewrap,
    install: "apt-get install -y bubblewrap",
};
/// Sandboxes that need isolation only for safety: bubblewrap, else unisolated (not in strict
/// mode). See the module docs.
pub const SANDBOXES: Tool = Tool {
    name: "bubblewrap",
    probe: Probe::Sandboxes,
    install: "apt-get install -y bubblewrap",
};
pub const CHROMIUM: Tool = Tool {
    name: "Chromium",
    probe: Probe::Program(&["chromium", "chromium-browser"]),
    install: "apt-get install -y chromium",
};
/// The official Daytona SDK and the OpenAPI validator, at the pinned versions.
pub const PY_DAYTONA: Tool = Tool {
    name: "the pinned Daytona SDK and OpenAPI validator for python3",
    probe: Probe::Python("daytona, openapi_core, yaml"),
    install: "python3 -m pip install -r tests/conformance/requirements.txt",
};
/// The OpenAPI validator alone (every Daytona test's final conformance check).
pub const PY_OPENAPI: Tool = Tool {
    name: "the pinned OpenAPI validator for python3",
    probe: Probe::Python("openapi_core, yaml"),
    install: "python3 -m pip install -r tests/conformance/requirements.txt",
};
/// The official Daytona TypeScript SDK (and socket.io-client), at the pinned versions, for Node.
pub const NODE_DAYTONA: Tool = Tool {
    name: "the pinned Daytona TypeScript SDK for node",
    probe: Probe::Node(&["@daytonaio/sdk", "socket.io-client"]),
    install: "npm ci --prefix tests/conformance",
};
/// The official CoreWeave Sandbox SDK.
pub const PY_CWSANDBOX: Tool = Tool {
    name: "the pinned cwsandbox SDK for python3",
    probe: Probe::Python("cwsandbox, wandb"),
    install: "python3 -m pip install -r tests/conformance/requirements-coreweave.txt",
};
pub const PYTHON3: Tool = Tool {
    name: "python3",
    probe: Probe::Program(&["python3"]),
    install: "apt-get install -y python3",
};
pub const ZSH: Tool = program("zsh", &["zsh"], "apt-get install -y zsh");
pub const FISH: Tool = program("fish", &["fish"], "apt-get install -y fish");
pub const ELVISH: Tool = program("elvish", &["elvish"], "apt-get install -y elvish");
pub const BASH: Tool = program("bash", &["bash"], "apt-get install -y bash");
pub const MAN: Tool = program("man", &["man"], "apt-get install -y man-db");
pub const GROFF: Tool = program("groff", &["groff"], "apt-get install -y groff-base");
pub const SYSTEMD_ANALYZE: Tool = program(
    "systemd-analyze",
    &["systemd-analyze"],
    "apt-get install -y systemd",
);
pub const PROMETHEUS: Tool = program(
    "the Prometheus server",
    &["prometheus"],
    "apt-get install -y prometheus",
);
pub const PROMTOOL: Tool = program("promtool", &["promtool"], "apt-get install -y prometheus");
/// kubectl with its built-in kustomize (Debian's `kubernetes-client`).
pub const KUBECTL: Tool = program(
    "kubectl",
    &["kubectl"],
    "apt-get install -y kubernetes-client",
);
/// The Kubernetes schema validator (bundles the schemas: works offline), pinned.
pub const KUBERNETES_VALIDATE: Tool = program(
    "kubernetes-validate",
    &["kubernetes-validate"],
    "python3 -m pip install -r deploy/kubernetes/requirements.txt",
);
/// PyYAML, to read rendered manifests as JSON.
pub const PY_YAML: Tool = Tool {
    name: "PyYAML for python3",
    probe: Probe::Python("yaml"),
    install: "python3 -m pip install -r deploy/kubernetes/requirements.txt",
};
/// util-linux `script`: runs a command under a pseudo-terminal.
pub const SCRIPT: Tool = program("script", &["script"], "apt-get install -y util-linux");

const fn program(
    name: &'static str,
    programs: &'static [&'static str],
    install: &'static str,
) -> Tool {
    Tool {
        name,
        probe: Probe::Program(programs),
        install,
    }
}

impl Tool {
    fn programs(&self) -> Vec<&'static str> {
        match self.probe {
            Probe::Program(list) => list.to_vec(),
            Probe::Bubblewrap | Probe::Sandboxes => vec!["bwrap"],
            Probe::Python(_) => vec!["python3"],
            Probe::Node(_) => vec!["node"],
        }
    }
}

/// A PATH like this process's, minus the programs in `hide` (to test what a machine without
/// them sees): one directory of links to every other program on PATH. Keep the directory alive
/// while the PATH is in use.
pub fn path_without(hide: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::Builder::new()
        .prefix("outposts-path-")
        .tempdir()
        .expect("temp dir");
    let path = std::env::var_os("PATH").unwrap_or_default();
    for d in std::env::split_paths(&path) {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let link = dir.path().join(&name);
            if hide.iter().any(|h| name == **h) || link.exists() || !is_executable(&e.path()) {
                continue;
            }
            let _ = std::os::unix::fs::symlink(e.path(), &link);
        }
    }
    let p = dir.path().to_string_lossy().into_owned();
    (dir, p)
}

/// Is strict mode on (`OUTPOSTS_TEST_STRICT=1`)?
pub fn strict() -> bool {
    std::env::var("OUTPOSTS_TEST_STRICT").is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes"))
}

/// The first of `names` on PATH.
pub fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|n| {
        std::env::split_paths(&path)
            .map(|d| d.join(n))
            .find(|p| is_executable(p))
    })
}

fn is_executable(p: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Sandboxes run unisolated in this test process: bubblewrap is unusable and strict mode is
/// off. Said once per process on the real stderr.
pub fn unisolated() -> bool {
    static NOTED: OnceLock<bool> = OnceLock::new();
    *NOTED.get_or_init(|| {
        let Some(why) = missing(&BWRAP) else {
            return false;
        };
        if strict() {
            return false;
        }
        let _ = writeln!(
            std::io::stderr(),
            "outposts-test: bubblewrap is unusable ({why}): sandboxes run unisolated \
             (OUTPOSTS_LOCAL_UNISOLATED=1), as `outposts demo` does; only tests about isolation \
             skip. Install: {}",
            BWRAP.install
        );
        true
    })
}

/// Why the tool is unusable, or `None` when it is usable. Probed once per process.
fn missing(tool: &Tool) -> Option<String> {
    if let Probe::Sandboxes = tool.probe {
        return if unisolated() { None } else { missing(&BWRAP) };
    }
    static SEEN: OnceLock<Mutex<HashMap<&'static str, Option<String>>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(r) = seen
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(tool.name)
    {
        return r.clone();
    }
    let result = probe(tool);
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(tool.name, result.clone());
    result
}

fn probe(tool: &Tool) -> Option<String> {
    let programs = tool.programs();
    let Some(found) = which(&programs) else {
        return Some(format!("`{}` is not on PATH", programs.join("` or `")));
    };
    match tool.probe {
        Probe::Program(_) | Probe::Sandboxes => None,
        Probe::Bubblewrap => {
            // Installed is not enough: some containers forbid unprivileged user namespaces.
            let out = Command::new(&found)
                .args(["--unshare-user", "--uid", "0", "--gid", "0"])
                .args([
                    "--ro-bind",
                    "/",
                    "/",
                    "--proc",
                    "/proc",
                    "--dev",
                    "/dev",
                    "true",
                ])
                .stdin(Stdio::null())
                .output();
            match out {
                Ok(o) if o.status.success() => None,
                Ok(o) => Some(format!(
                    "`{}` cannot create a sandbox here: {}",
                    found.display(),
                    String::from_utf8_lossy(&o.stderr).trim()
                )),
                Err(e) => Some(format!("cannot run `{}`: {e}", found.display())),
            }
        }
        Probe::Node(packages) => probe_node(&found, packages),
        Probe::Python(modules) => {
            let out = Command::new(&found)
                .args(["-c", &format!("import {modules}")])
                .stdin(Stdio::null())
                .output();
            match out {
                Ok(o) if o.status.success() => None,
                Ok(o) => {
                    let err = String::from_utf8_lossy(&o.stderr);
                    let last = err.lines().last().unwrap_or("import failed").trim();
                    Some(format!(
                        "{} cannot import {modules} ({last})",
                        found.display()
                    ))
                }
                Err(e) => Some(format!("cannot run `{}`: {e}", found.display())),
            }
        }
    }
}

/// `node` run in `tests/conformance` imports every package of `packages`.
fn probe_node(node: &std::path::Path, packages: &[&str]) -> Option<String> {
    let imports: Vec<String> = packages
        .iter()
        .map(|p| format!("await import('{p}');"))
        .collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let out = Command::new(node)
        .args(["--input-type=module", "-e", &imports.join(" ")])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output();
    match out {
        Ok(o) if o.status.success() => None,
        Ok(_) => Some(format!(
            "{} cannot import {} from tests/conformance/node_modules",
            node.display(),
            packages.join(", ")
        )),
        Err(e) => Some(format!("cannot run `{}`: {e}", node.display())),
    }
}

/// `true` when `tool` is usable. Otherwise: in strict mode, fail the calling test; else write
/// the skip line and return `false` (the caller returns). Use [`require!`] rather than this.
#[track_caller]
pub fn available(tool: Tool) -> bool {
    let Some(why) = missing(&tool) else {
        return true;
    };
    let test = std::thread::current()
        .name()
        .unwrap_or("<unnamed test>")
        .to_string();
    let line = format!("needs {} ({why}); install: {}", tool.name, tool.install);
    if strict() {
        panic!("{test} {line} (OUTPOSTS_TEST_STRICT=1 makes a missing tool a failure)");
    }
    // Straight to the process's stderr: libtest captures `eprintln!` of passing tests.
    let _ = writeln!(std::io::stderr(), "outposts-test: SKIP {test}: {line}");
    false
}

/// Return from the calling test (or helper) unless the host has `tool`; see the module docs.
macro_rules! require {
    ($($tool:expr),+ $(,)?) => {
        if !( true $(&& $crate::support::host::available($tool))+ ) {
            return;
        }
    };
}
pub(crate) use require;
