//! Checks that need no network: settings, the connect callback port, the state dir, local
//! sandbox isolation.

use std::path::{Path, PathBuf};

use super::{Check, ProviderChoice, Setting, source_kind, where_from};
use crate::config::{ConfigError, Source};
use crate::connect::callback::{BindError, CallbackServer};
use crate::orchestrator::state::StateDir;
use crate::provider::local::{Isolation, usable};
use crate::settings::DoctorSettings;

/// Devin only redirects to its allowlisted callback on this port.
const CONNECT_PORT: u16 = crate::connect::DEFAULT_PORT;

/// Every declared variable that has a value, with where it came from (secrets masked).
pub fn settings_list(settings: &DoctorSettings) -> Vec<Setting> {
    settings
        .listed
        .iter()
        .map(|r| Setting {
            name: r.var.name,
            value: r.shown(),
            source: source_kind(&r.source),
            origin: match &r.source {
                // A legacy name is worth showing.
                Source::Env(name) if *name != r.var.name => format!("environment ({name})"),
                Source::Env(_) => "environment".into(),
                Source::Default => "default".into(),
                other => other.to_string(),
            },
            secret: r.var.secret,
        })
        .collect()
}

pub(super) const SETTINGS_ID: &str = "settings";

/// The settings check when the configuration cannot even be loaded (an unparsable `.env`).
pub fn settings_unloadable(e: &ConfigError) -> Check {
    Check::fail(
        SETTINGS_ID,
        SETTINGS_ID,
        e.to_string(),
        e.hint().to_string(),
    )
}

/// Every typed setting parses; the summary says which files are in use.
pub fn settings(settings: &DoctorSettings) -> Check {
    const ID: &str = SETTINGS_ID;
    const TITLE: &str = SETTINGS_ID;
    let (errors, other) = (&settings.errors, &settings.other_errors);
    let set = settings
        .listed
        .iter()
        .filter(|r| r.source != Source::Default)
        .count();
    let files = format!(
        ".env: {}; outposts.toml: {}",
        settings
            .dotenv_path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "none".into()),
        settings
            .config_path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "none".into()),
    );
    if let Some(first) = errors.first() {
        let mut problems: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        problems.extend(other.iter().cloned());
        return Check::fail(ID, TITLE, problems.join("; "), first.hint().to_string());
    }
    if let Some(first) = other.first() {
        return Check::fail(
            ID,
            TITLE,
            other.join("; "),
            format!("fix the value named in: {first}"),
        );
    }
    // A misspelt key is silently ignored by every command: say so here, where it is asked.
    let misspelt = &settings.misspelt;
    if let Some(first) = misspelt.first() {
        return Check::fail(
            ID,
            TITLE,
            misspelt
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join("; "),
            format!(
                "rename {} to {} on line {} of {}",
                first.key,
                first.did_you_mean,
                first.line,
                first.path.display()
            ),
        );
    }
    Check::pass(ID, TITLE, format!("{set} set, every value valid ({files})"))
}

/// `outposts connect` can listen on its callback port.
pub fn connect_port(settings: &DoctorSettings) -> Check {
    const ID: &str = "connect_port";
    const TITLE: &str = "connect port";
    let port = match &settings.connect_port {
        Ok(p) => p.unwrap_or(CONNECT_PORT),
        Err(e) => return Check::fail(ID, TITLE, e.to_string(), e.hint().to_string()),
    };
    if port == 0 {
        return Check::pass(
            ID,
            TITLE,
            "OUTPOSTS_CONNECT_PORT=0: `outposts connect` picks a free port (emulator only)",
        );
    }
    match CallbackServer::bind(port) {
        Ok(server) => {
            drop(server);
            Check::pass(
                ID,
                TITLE,
                format!("127.0.0.1:{port} is free for `outposts connect`"),
            )
        }
        Err(BindError::InUse { .. }) => Check::fail(
            ID,
            TITLE,
            format!(
                "127.0.0.1:{port} is in use, so `outposts connect` cannot receive Devin's redirect"
            ),
            format!(
                "stop the program listening there (`ss -ltnp 'sport = :{port}'` shows it); Devin \
                 redirects only to http://localhost:{CONNECT_PORT}/callback"
            ),
        ),
        Err(e) => Check::fail(
            ID,
            TITLE,
            e.to_string(),
            "allow listening on loopback, or set OUTPOSTS_CONNECT_PORT (the emulator accepts any port)",
        ),
    }
}

#[cfg(unix)]
fn mode_of(m: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o7777
}

#[cfg(unix)]
fn owner_of(m: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::MetadataExt;
    m.uid()
}

fn writable(p: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path; access() only reads it.
    unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
}

/// Files and directories under `dir` (a few levels, bounded) that group or others can reach.
fn too_open(dir: &Path) -> (usize, Option<PathBuf>) {
    let mut count = 0;
    let mut first = None;
    let mut stack = vec![(dir.to_path_buf(), 0)];
    let mut seen = 0;
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > 10_000 {
                return (count, first);
            }
            let Ok(m) = e.path().symlink_metadata() else {
                continue;
            };
            if m.file_type().is_symlink() {
                continue;
            }
            if mode_of(&m) & 0o077 != 0 {
                count += 1;
                first.get_or_insert_with(|| e.path());
            }
            if m.is_dir() && depth < 4 {
                stack.push((e.path(), depth + 1));
            }
        }
    }
    (count, first)
}

/// The state dir: private (0700, ours, files 0600), writable, and who holds its lock.
pub fn state_dir(settings: &DoctorSettings) -> Check {
    const ID: &str = "state_dir";
    const TITLE: &str = "state dir";
    let dir = match &settings.state_dir {
        Ok(d) => d.clone(),
        Err(e) => return Check::fail(ID, TITLE, e.to_string(), e.hint().to_string()),
    };
    let origin = settings
        .get(&crate::env::STATE_DIR)
        .map(|r| where_from(&r.source))
        .unwrap_or_else(|| "the default".into());
    let shown = dir.display().to_string();
    let meta = match std::fs::metadata(&dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return not_yet_created(&dir, &shown, &origin);
        }
        Err(e) => {
            return Check::fail(
                ID,
                TITLE,
                format!("cannot read {shown}: {e}"),
                "point STATE_DIR at a directory this user owns",
            );
        }
    };
    if let Some(problem) = not_private(&dir, &meta, &shown, &origin) {
        return problem;
    }
    let state = StateDir::existing(&dir);
    let lock = if state.is_locked() {
        match state.lock_holder().1 {
            Some(pid) => format!("locked by a running orchestrator (pid {pid})"),
            None => "locked by a running orchestrator".into(),
        }
    } else {
        "not locked (no orchestrator uses it now)".into()
    };
    Check::pass(
        ID,
        TITLE,
        format!("{shown} (STATE_DIR from {origin}) is private (0700) and writable; {lock}"),
    )
}

/// The state dir's check while it does not exist: fine if `orchestrator run` can create it.
fn not_yet_created(dir: &std::path::Path, shown: &str, origin: &str) -> Check {
    const ID: &str = "state_dir";
    const TITLE: &str = "state dir";
    let parent = dir.ancestors().skip(1).find(|p| p.exists());
    match parent {
        Some(p) if writable(p) => Check::pass(
            ID,
            TITLE,
            format!(
                "{shown} (STATE_DIR from {origin}) does not exist yet; `outposts \
                 orchestrator run` creates it 0700"
            ),
        ),
        _ => Check::fail(
            ID,
            TITLE,
            format!("{shown} (STATE_DIR from {origin}) cannot be created here"),
            format!(
                "create it (`mkdir -p -m 700 {shown}`) or point STATE_DIR at a writable \
                 place"
            ),
        ),
    }
}

/// Why an existing state dir is not private to this user and writable, if it is not.
fn not_private(
    dir: &std::path::Path,
    meta: &std::fs::Metadata,
    shown: &str,
    origin: &str,
) -> Option<Check> {
    const ID: &str = "state_dir";
    const TITLE: &str = "state dir";
    if !meta.is_dir() {
        return Some(Check::fail(
            ID,
            TITLE,
            format!("{shown} (STATE_DIR from {origin}) is not a directory"),
            "point STATE_DIR at a directory",
        ));
    }
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    if owner_of(meta) != me {
        return Some(Check::fail(
            ID,
            TITLE,
            format!(
                "{shown} belongs to uid {}, not to this user (uid {me})",
                owner_of(meta)
            ),
            "run as its owner, or give this instance its own STATE_DIR",
        ));
    }
    let mode = mode_of(meta);
    if mode & 0o077 != 0 {
        return Some(Check::fail(
            ID,
            TITLE,
            format!(
                "{shown} is mode {mode:04o}: other users can read its acceptor ids and cursors"
            ),
            format!("chmod 700 {shown}"),
        ));
    }
    let (open, first) = too_open(dir);
    if let Some(first) = first {
        return Some(Check::fail(
            ID,
            TITLE,
            format!(
                "{open} entr{} under {shown} readable by other users (e.g. {})",
                if open == 1 { "y" } else { "ies" },
                first.display()
            ),
            format!("chmod -R go-rwx {shown}"),
        ));
    }
    if !writable(dir) {
        return Some(Check::fail(
            ID,
            TITLE,
            format!("{shown} is not writable by this user"),
            format!("chmod u+rwx {shown}"),
        ));
    }
    None
}

/// Local sandboxes can be isolated (only when the local provider is chosen): the same probe
/// `orchestrator run` makes before its first claim.
pub async fn local_sandboxes(settings: &DoctorSettings, provider: ProviderChoice) -> Check {
    const ID: &str = "local_sandboxes";
    const TITLE: &str = "local sandboxes";
    let how = if provider.explicit {
        "OUTPOSTS_PROVIDER=local"
    } else {
        "the default provider"
    };
    let opts = match &settings.local {
        Ok(o) => o,
        Err(e) => {
            return Check::fail(
                ID,
                TITLE,
                format!("{e:#}"),
                "set OUTPOSTS_LOCAL_UNISOLATED to 1 or 0",
            );
        }
    };
    match usable(opts.bwrap.as_deref(), opts.allow_unisolated).await {
        Ok(Isolation::Bubblewrap { bwrap, .. }) => Check::pass(
            ID,
            TITLE,
            format!(
                "{how}: isolated with bubblewrap ({}); a probe sandbox started",
                bwrap.display()
            ),
        ),
        Ok(_) => Check::pass(
            ID,
            TITLE,
            format!(
                "{how}: bubblewrap is missing and OUTPOSTS_LOCAL_UNISOLATED=1, so sandbox \
                 commands run on this host WITHOUT isolation"
            ),
        ),
        Err(u) => Check::fail(
            ID,
            TITLE,
            format!("{how}, but sandboxes cannot run: {}", u.problem),
            u.fix,
        ),
    }
}

/// How the chosen provider enforces a session's `spec.network_policy` (no network needed: the
/// mapping is fixed; a session whose policy cannot be enforced is refused, never served open).
pub fn network_policy(provider: ProviderChoice) -> Check {
    const ID: &str = "network_policy";
    const TITLE: &str = "network policy";
    Check::pass(
        ID,
        TITLE,
        crate::settings::descriptor(provider.kind).network_policy,
    )
}
