//! Failpoints: named spots where a test can crash the orchestrator exactly where a crash would
//! hurt (between a claim and its record, mid stop, mid state write, …).
//!
//! [`failpoint!`](crate::failpoint!) compiles to nothing in release builds. In debug builds (the
//! binary the integration tests run) it consults `OUTPOSTS_FAILPOINTS`, a comma-separated list of
//! `name=action[@n]`:
//!
//! | action | effect |
//! |---|---|
//! | `kill` | the process sends itself SIGKILL at once |
//! | `kill_after:MS` | SIGKILL from a background thread MS milliseconds later (a request sent just before is in flight then) |
//! | `sleep:MS` | block this task for MS milliseconds |
//! | `off` | nothing |
//!
//! `@n` fires on the n-th hit of that name only (default: every hit). A value starting with `@`
//! names a file holding the list instead; it is re-read at every hit, so a test can arm and
//! disarm a running process (a missing file is an empty list). Before acting, one line
//! `failpoint NAME: ACTION` goes to stderr.

#[cfg(debug_assertions)]
mod imp {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    use std::time::Duration;

    #[derive(Debug, Clone, PartialEq)]
    enum Action {
        Kill,
        KillAfter(u64),
        Sleep(u64),
        Off,
    }

    fn spec() -> &'static Option<String> {
        static SPEC: OnceLock<Option<String>> = OnceLock::new();
        SPEC.get_or_init(|| {
            std::env::var(crate::env::OUTPOSTS_FAILPOINTS.name)
                .ok()
                .filter(|s| !s.trim().is_empty())
        })
    }

    fn hits() -> &'static Mutex<HashMap<String, u64>> {
        static HITS: OnceLock<Mutex<HashMap<String, u64>>> = OnceLock::new();
        HITS.get_or_init(|| Mutex::new(HashMap::new()))
    }

    /// The action configured for `name` at hit number `n`, if any.
    fn lookup(list: &str, name: &str, n: u64) -> Option<(Action, String)> {
        for item in list.split([',', '\n']) {
            let Some((k, v)) = item.trim().split_once('=') else {
                continue;
            };
            if k.trim() != name {
                continue;
            }
            let (action, at) = match v.trim().split_once('@') {
                Some((a, at)) => (a.trim(), at.trim().parse::<u64>().ok()),
                None => (v.trim(), None),
            };
            if at.is_some_and(|at| at != n) {
                continue;
            }
            let parsed = match action.split_once(':') {
                None if action == "kill" => Action::Kill,
                None if action == "off" => Action::Off,
                Some(("kill_after", ms)) => Action::KillAfter(ms.trim().parse().ok()?),
                Some(("sleep", ms)) => Action::Sleep(ms.trim().parse().ok()?),
                _ => continue,
            };
            return Some((parsed, action.to_string()));
        }
        None
    }

    fn kill_self() {
        // SAFETY: plain libc calls on our own pid.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
    }

    /// Is any failpoint configured (a list or a file)? Lets a caller skip costly set-up.
    pub fn armed() -> bool {
        spec().is_some()
    }

    pub fn hit(name: &str) {
        let Some(spec) = spec() else { return };
        let list = match spec.strip_prefix('@') {
            Some(path) => std::fs::read_to_string(path.trim()).unwrap_or_default(),
            None => spec.clone(),
        };
        if list.trim().is_empty() {
            return;
        }
        let n = {
            let mut h = hits().lock().unwrap_or_else(|e| e.into_inner());
            let c = h.entry(name.to_string()).or_default();
            *c += 1;
            *c
        };
        let Some((action, text)) = lookup(&list, name, n) else {
            return;
        };
        if action == Action::Off {
            return;
        }
        eprintln!("failpoint {name}: {text}");
        match action {
            Action::Kill => {
                kill_self();
                // SIGKILL is not deliverable late; never carry on past a kill point.
                std::thread::sleep(Duration::from_secs(3600));
            }
            Action::KillAfter(ms) => {
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(ms));
                    kill_self();
                });
            }
            Action::Sleep(ms) => std::thread::sleep(Duration::from_millis(ms)),
            Action::Off => {}
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn parses_actions_and_hit_numbers() {
            let list = "a=kill, b=kill_after:250@2 ,c=sleep:5,d=off,e=bogus";
            assert_eq!(lookup(list, "a", 1).map(|a| a.0), Some(Action::Kill));
            assert_eq!(lookup(list, "b", 1), None);
            assert_eq!(
                lookup(list, "b", 2).map(|a| a.0),
                Some(Action::KillAfter(250))
            );
            assert_eq!(lookup(list, "c", 9).map(|a| a.0), Some(Action::Sleep(5)));
            assert_eq!(lookup(list, "d", 1).map(|a| a.0), Some(Action::Off));
            assert_eq!(lookup(list, "e", 1), None);
            assert_eq!(lookup(list, "zz", 1), None);
        }
    }
}

#[cfg(debug_assertions)]
pub use imp::{armed, hit};

/// Mark a failpoint (see the module docs). Compiles to nothing in release builds.
#[macro_export]
macro_rules! failpoint {
    ($name:expr) => {{
        #[cfg(debug_assertions)]
        $crate::failpoint::hit($name);
    }};
}
