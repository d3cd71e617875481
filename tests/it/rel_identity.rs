//! One remote per session, whatever the remote is (issue 21): the orchestrator is SIGKILLed
//! while its sessions are served and restarted on the same state dir; the live remotes are
//! adopted, never launched again — with the emulator's remote as a real executable and as a
//! shell script (whose process is the shell), and with the cached file replaced or deleted
//! while the remote runs. Checked on the emulator's history: exactly one remote attach per
//! session generation (I9).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::invariants::{self, Quiesce};
use crate::support::block_on;
use crate::support::rel::*;

const WAIT: Duration = Duration::from_secs(90);

/// A cluster whose emulator serves its remote in `form` (`binary` or `script`).
pub fn cluster(name: &str, form: &str, cap: usize) -> Cluster {
    Cluster::start(
        name,
        seed(),
        ClusterOpts {
            cap,
            emulator_args: vec!["--remote-form".into(), form.into()],
            ..ClusterOpts::default()
        },
    )
}

fn serve(c: &Cluster, n: usize) -> Vec<String> {
    let ids = c.new_sessions(n);
    let ok = time_until(WAIT, || {
        let s = served(c);
        ids.iter().all(|i| s.contains(i))
    });
    assert!(
        ok.is_some(),
        "{}: sessions never served\n{}",
        c.name,
        c.replicas[0].log()
    );
    ids
}

/// The remote files the launches cached in the emulator's sandboxes.
fn cached_remotes(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() && depth > 0 {
            cached_remotes(&p, depth - 1, out);
        } else if ft.is_file()
            && p.parent()
                .is_some_and(|d| d.ends_with(".devin/remote/cache"))
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("devin-remote_") && !n.contains(".partial"))
        {
            out.push(p);
        }
    }
}

/// Every launch record (`remote.pid`, `remote.start`, the remote's log) in the emulator's
/// sandboxes, for failure reports.
fn launch_records(c: &Cluster) -> String {
    let mut out = String::new();
    let Ok(sbs) = std::fs::read_dir(c.emu.data_dir().join("sandboxes")) else {
        return out;
    };
    for sb in sbs.flatten() {
        let Ok(homes) = std::fs::read_dir(sb.path().join("fs/home")) else {
            continue;
        };
        for home in homes.flatten() {
            let Ok(runs) = std::fs::read_dir(home.path().join(".devin-outposts")) else {
                continue;
            };
            for run in runs.flatten() {
                let read =
                    |f: &str| std::fs::read_to_string(run.path().join(f)).unwrap_or_default();
                out.push_str(&format!(
                    "{}: pid={} start={} exit={}\n{}\n",
                    run.path().display(),
                    read("remote.pid").trim(),
                    read("remote.start").trim(),
                    read("remote.exit").trim(),
                    read("remote.log")
                ));
            }
        }
    }
    out
}

/// Replace every other cached remote with a different file (a new inode under the same name, as
/// an update would) and delete the others, while the remotes run.
fn tamper_with_cached_remotes(c: &Cluster) -> usize {
    let mut found = Vec::new();
    cached_remotes(&c.emu.data_dir().join("sandboxes"), 10, &mut found);
    for (i, p) in found.iter().enumerate() {
        if i % 2 == 0 {
            let tmp = p.with_extension("replacement");
            std::fs::write(&tmp, b"#!/bin/sh\nexit 1\n").expect("write replacement");
            std::fs::rename(&tmp, p).expect("replace cached remote");
        } else {
            std::fs::remove_file(p).expect("delete cached remote");
        }
    }
    found.len()
}

/// SIGKILL the orchestrator `kills` times, restarting it each time; every live remote must be
/// adopted (not relaunched), keep serving, and attach exactly once per generation.
fn kill_restart_adopt(name: &str, form: &str, tamper: bool) {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    let mut c = cluster(name, form, 5);
    c.start_all();
    let ids = serve(&c, 3);
    if tamper {
        let n = tamper_with_cached_remotes(&c);
        assert!(n >= 1, "no cached remote found to tamper with");
        figure(name, "cached_remotes_tampered", n);
    }
    for round in 0..2 {
        c.replicas[0].kill();
        c.replicas[0].start();
        let ok = time_until(WAIT, || {
            let log = c.replicas[0].log();
            log.matches("\"adopted\"").count() >= ids.len()
                && log.matches("remote_running").count() >= ids.len()
        });
        assert!(
            ok.is_some(),
            "{name} restart {round}: not reattached\n{}\n{}",
            c.replicas[0].all_logs(),
            launch_records(&c)
        );
        // Give a wrongly judged-absent remote the time to be launched and attach.
        std::thread::sleep(Duration::from_secs(3));
    }
    // The adopted remotes still serve their sessions.
    for s in &ids {
        block_on(c.emu.client().add_task(s, "sh: true")).expect("add task");
    }
    let ok = time_until(WAIT, || {
        ids.iter()
            .all(|s| crate::support::orch::tasks_done(&c.emu, s))
    });
    assert!(
        ok.is_some(),
        "{name}: adopted remotes did not serve new work"
    );
    let w = c.settle(WAIT, all_served(&ids));
    let attaches = invariants::attaches(&w);
    for s in &ids {
        let n: usize = attaches
            .iter()
            .filter(|((sid, _), _)| sid == s)
            .map(|(_, n)| *n)
            .sum();
        assert_eq!(n, 1, "{name}: {s} attached {n} remotes");
    }
    c.assert_one_remote_per_generation(&w);
    c.stop_all();
    let w = c.world();
    c.assert_invariants(&w, Quiesce::Yes);
    figure(name, "double_remotes", 0);
}

#[test]
fn sigkill_restart_adopts_a_binary_remote() {
    kill_restart_adopt("ID-binary", "binary", false);
}

#[test]
fn sigkill_restart_adopts_a_script_remote() {
    kill_restart_adopt("ID-script", "script", false);
}

#[test]
fn sigkill_restart_adopts_a_remote_whose_cached_file_was_replaced_or_deleted() {
    kill_restart_adopt("ID-binary-replaced", "binary", true);
}

#[test]
fn sigkill_restart_adopts_a_script_remote_whose_file_was_replaced_or_deleted() {
    kill_restart_adopt("ID-script-replaced", "script", true);
}
