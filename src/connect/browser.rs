//! Opening the connect page: `$BROWSER` when set, else the platform opener (`open` crate),
//! always detached so that a browser that stays in the foreground never blocks us. The URL is
//! printed before any of this, so a failed or skipped opener costs nothing.

use std::process::{Command, Stdio};

/// Why a browser should not be started on this host, if it should not.
///
/// `lookup` reads an environment variable (empty counts as unset).
pub fn headless_reason(lookup: impl Fn(&str) -> Option<String>) -> Option<String> {
    let set = |k: &str| lookup(k).is_some_and(|v| !v.trim().is_empty());
    if lookup("CI").is_some_and(|v| !matches!(v.trim(), "" | "0" | "false")) {
        return Some("CI is set".into());
    }
    if set("SSH_CONNECTION") || set("SSH_CLIENT") || set("SSH_TTY") {
        return Some("this is an SSH session".into());
    }
    if cfg!(all(unix, not(target_os = "macos"))) && !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
        return Some("there is no DISPLAY or WAYLAND_DISPLAY (headless host)".into());
    }
    None
}

/// The program and arguments `$BROWSER` names for `url`: the first entry of a `:`-separated
/// list, split on whitespace; `%s` is replaced by the URL, else the URL is appended.
pub fn browser_command(browser: &str, url: &str) -> Option<(String, Vec<String>)> {
    let first = browser.split(':').map(str::trim).find(|s| !s.is_empty())?;
    let mut parts = first.split_whitespace().map(str::to_string);
    let program = parts.next()?;
    let mut args: Vec<String> = parts.collect();
    if args.iter().any(|a| a.contains("%s")) {
        for a in &mut args {
            *a = a.replace("%s", url);
        }
    } else {
        args.push(url.to_string());
    }
    Some((program, args))
}

/// Start `$BROWSER` (when given) or the default browser on `url`, detached. Returns what was
/// started, for the user.
pub fn open(url: &str, browser: Option<&str>) -> Result<String, String> {
    match browser.filter(|b| !b.trim().is_empty()) {
        Some(b) => {
            let (program, args) =
                browser_command(b, url).ok_or_else(|| "BROWSER names no command".to_string())?;
            spawn_detached(&program, &args)
                .map(|()| format!("started {program} (from BROWSER)"))
                .map_err(|e| format!("cannot run {program} (from BROWSER): {e}"))
        }
        None => open::that_detached(url)
            .map(|()| "opened the default browser".to_string())
            .map_err(|e| format!("cannot open a browser: {e}")),
    }
}

/// Spawn in a process group of its own with no inherited stdio; a thread reaps it so it never
/// lingers as a zombie, and nobody waits for it.
fn spawn_detached(program: &str, args: &[String]) -> std::io::Result<()> {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd.spawn()?;
    let _ = std::thread::Builder::new()
        .name("outposts-browser-reaper".into())
        .spawn(move || {
            if let Ok(status) = child.wait()
                && !status.success()
            {
                tracing::debug!("the browser command exited with {status}");
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn headless_hosts_are_detected() {
        assert!(headless_reason(env(&[("CI", "true"), ("DISPLAY", ":0")])).is_some());
        assert!(
            headless_reason(env(&[("SSH_CONNECTION", "1 2 3 4"), ("DISPLAY", ":0")])).is_some()
        );
        if cfg!(all(unix, not(target_os = "macos"))) {
            assert!(headless_reason(env(&[])).unwrap().contains("DISPLAY"));
            assert!(headless_reason(env(&[("WAYLAND_DISPLAY", "wayland-0")])).is_none());
        }
        assert!(headless_reason(env(&[("CI", "0"), ("DISPLAY", ":0")])).is_none());
    }

    #[test]
    fn browser_variable_forms() {
        assert_eq!(
            browser_command("firefox", "http://u"),
            Some(("firefox".into(), vec!["http://u".into()]))
        );
        assert_eq!(
            browser_command("chromium --new-window %s:firefox", "http://u"),
            Some((
                "chromium".into(),
                vec!["--new-window".into(), "http://u".into()]
            ))
        );
        assert_eq!(browser_command("  : ", "http://u"), None);
    }

    #[test]
    fn a_missing_browser_is_an_error_not_a_hang() {
        let err = open("http://127.0.0.1:1/", Some("/nonexistent/browser-binary")).unwrap_err();
        assert!(err.contains("BROWSER"), "{err}");
    }
}
