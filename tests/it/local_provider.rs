//! The local provider through the library API: isolation, lifecycle, processes, files, logs, git.
//! Needs bubblewrap (installed by `.ci/run`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use outposts::provider::local::{LocalOptions, LocalProvider, SandboxOptions};
use outposts::provider::{
    ExecRequest, GitClone, Provider, ProviderError, SandboxSpec, SandboxState, Source,
};
use outposts::secrets::Secret;

pub(crate) fn opts() -> LocalOptions {
    LocalOptions {
        stop_grace: Duration::from_millis(500),
        restart_backoff: Duration::from_millis(100),
        restart_backoff_max: Duration::from_millis(200),
        allow_unisolated: crate::support::host::unisolated(),
        ..LocalOptions::default()
    }
}

pub(crate) fn provider(root: &Path) -> LocalProvider {
    LocalProvider::new(root, opts()).expect("provider")
}

/// Kills whatever a failed test left running in sandboxes under `root`.
pub(crate) struct Reaper(PathBuf);

impl Drop for Reaper {
    fn drop(&mut self) {
        let Ok(rd) = std::fs::read_dir(&self.0) else {
            return;
        };
        for e in rd.flatten() {
            for pid in pids_with(&e.file_name().to_string_lossy()) {
                // SAFETY: kill(2) on a pid we found carrying the sandbox's marker.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
    }
}

/// A temporary root whose sandbox processes die with it.
pub(crate) fn root() -> (tempfile::TempDir, Reaper) {
    let t = tempfile::tempdir().unwrap();
    let r = Reaper(t.path().to_path_buf());
    (t, r)
}

pub(crate) fn spec(name: &str) -> SandboxSpec {
    SandboxSpec::new(name, Source::Default)
}

pub(crate) async fn sh(p: &LocalProvider, id: &str, cmd: &str) -> outposts::provider::ExecOutput {
    p.exec(
        id,
        &ExecRequest::shell(cmd).timeout(Duration::from_secs(30)),
    )
    .await
    .expect("exec")
}

/// Poll until `f` holds (or panic after 15 s).
pub(crate) async fn eventually<F: FnMut() -> bool>(what: &str, mut f: F) {
    for _ in 0..300 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

pub(crate) fn cmdline(pid: i32) -> String {
    let b = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    String::from_utf8_lossy(&b).replace('\0', " ")
}

pub(crate) fn pids_with(marker_value: &str) -> Vec<i32> {
    let needle = format!("{}={marker_value}", outposts::provider::local::MARKER);
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .map(|b| b.split(|c| *c == 0).any(|kv| kv == needle.as_bytes()))
                .unwrap_or(false)
        })
        .collect()
}

#[tokio::test]
async fn files_are_private_per_sandbox_and_survive_stop_start_until_delete() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let a = p.create(&spec("sandbox-a")).await.unwrap();
    let b = p.create(&spec("sandbox-b")).await.unwrap();
    assert_eq!(a.state, SandboxState::Started);

    let out = sh(
        &p,
        &a.id,
        "echo from-a > /workspace/outpost-proof.txt && cat /workspace/outpost-proof.txt",
    )
    .await;
    assert_eq!(
        (out.exit_code, out.stdout.trim()),
        (0, "from-a"),
        "{}",
        out.stderr
    );

    // B does not see it, neither does the host at that absolute path.
    let out = sh(&p, &b.id, "cat /workspace/outpost-proof.txt").await;
    assert_ne!(out.exit_code, 0);
    assert!(
        p.read_file(&b.id, "/workspace/outpost-proof.txt")
            .await
            .unwrap()
            .is_none()
    );
    let host_path = Path::new("/workspace/outpost-proof.txt");
    assert!(
        !host_path.exists()
            || std::fs::read_to_string(host_path)
                .unwrap_or_default()
                .trim()
                != "from-a"
    );
    assert_eq!(
        p.read_file(&a.id, "/workspace/outpost-proof.txt")
            .await
            .unwrap()
            .unwrap(),
        b"from-a\n"
    );

    // Writes through the API are what the sandbox reads.
    p.write_file(&b.id, "/home/daytona/workspace/note.txt", b"hi b")
        .await
        .unwrap();
    let out = sh(
        &p,
        &b.id,
        "cat /home/daytona/workspace/note.txt; mkdir -p /home/daytona/workspace/x && echo made",
    )
    .await;
    assert_eq!(out.stdout, "hi bmade\n");

    // stop + start keeps the file.
    p.stop(&a.id).await.unwrap();
    assert_eq!(
        p.get(&a.id).await.unwrap().unwrap().state,
        SandboxState::Stopped
    );
    p.stop(&a.id).await.unwrap(); // idempotent
    let err = p
        .exec(&a.id, &ExecRequest::shell("true"))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("stopped"), "{err}");
    p.start(&a.id).await.unwrap();
    p.start(&a.id).await.unwrap(); // idempotent
    assert_eq!(
        p.get("sandbox-a").await.unwrap().unwrap().state,
        SandboxState::Started
    );
    let out = sh(&p, &a.id, "cat /workspace/outpost-proof.txt").await;
    assert_eq!(out.stdout.trim(), "from-a");

    // delete removes everything; deleting again is fine.
    let tree = p.tree(&a.id).unwrap().unwrap();
    assert!(tree.join("workspace/outpost-proof.txt").exists());
    p.delete(&a.id).await.unwrap();
    assert!(!tree.exists());
    assert!(!tree.parent().unwrap().exists());
    assert!(p.get(&a.id).await.unwrap().is_none());
    p.delete(&a.id).await.unwrap();
    assert!(matches!(
        p.exec(&a.id, &ExecRequest::shell("true")).await,
        Err(ProviderError::NotFound(_))
    ));
    p.delete(&b.id).await.unwrap();
}

#[tokio::test]
async fn sandbox_sees_host_system_read_only_and_has_private_dirs() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let s = p.create(&spec("layout")).await.unwrap();
    let mark = format!("w-{}", std::process::id());
    let out = sh(
        &p,
        &s.id,
        &format!("touch /usr/outposts-test 2>/dev/null && echo usr-writable; \
         touch /etc/outposts-test 2>/dev/null && echo etc-writable; \
         for d in /workspace /home /tmp /opt /var/log /root /run; do touch $d/{mark} && echo ok $d; done; \
         echo home=$HOME; pwd; test -e /proc/self/status && echo proc; test -c /dev/null && echo dev; \
         git --version >/dev/null && echo git"),
    )
    .await;
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("writable"), "{}", out.stdout);
    for d in [
        "/workspace",
        "/home",
        "/tmp",
        "/opt",
        "/var/log",
        "/root",
        "/run",
    ] {
        assert!(
            out.stdout.contains(&format!("ok {d}\n")),
            "{d}: {}",
            out.stdout
        );
    }
    assert!(out.stdout.contains("proc\ndev\ngit"), "{}", out.stdout);
    let home = out
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("home="))
        .unwrap()
        .to_string();
    assert!(
        out.stdout.contains(&format!("\n{home}\n")),
        "default cwd is HOME: {}",
        out.stdout
    );
    for d in ["/tmp", "/opt", "/root", "/run", "/var/log"] {
        assert!(
            !Path::new(d).join(&mark).exists(),
            "{d} on the host was written"
        );
    }
    assert!(
        p.tree(&s.id)
            .unwrap()
            .unwrap()
            .join("opt")
            .join(&mark)
            .exists()
    );
    // Its processes are its own: pid 1 is the sandbox's init, and another sandbox's processes
    // (and the host's) are invisible.
    let other = p.create(&spec("layout-other")).await.unwrap();
    sh(&p, &other.id, "nohup sleep 4242 >/dev/null 2>&1 &").await;
    let out = sh(
        &p,
        &s.id,
        "nohup sleep 4343 >/dev/null 2>&1 & sleep 0.2; cat /proc/1/cmdline | tr '\\0' ' '; echo; \
         for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done > /tmp/ps; \
         grep -c '^sleep 4242 $' /tmp/ps; grep -c '^sleep 4343 $' /tmp/ps; ls /proc | grep -c '^[0-9]'",
    )
    .await;
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].contains("bwrap"), "{out:?}");
    assert_eq!(lines[1..3], ["0", "1"], "{out:?}");
    assert!(lines[3].parse::<u32>().unwrap() < 20, "{out:?}");
    p.delete(&other.id).await.unwrap();
    // Loopback reaches host services (the emulator runs there).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let accept = std::thread::spawn(move || listener.accept().is_ok());
    let out = sh(
        &p,
        &s.id,
        &format!("bash -c 'exec 3<>/dev/tcp/127.0.0.1/{port}' && echo connected"),
    )
    .await;
    assert!(out.stdout.contains("connected"), "{out:?}");
    assert!(accept.join().unwrap());
    p.delete(&s.id).await.unwrap();
}

#[tokio::test]
async fn names_are_unique_get_by_name_and_labels_filter() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let mut s1 = spec("one");
    s1.labels.insert("devin.session_id".into(), "s1".into());
    s1.labels.insert("devin.outpost_id".into(), "o".into());
    let mut s2 = spec("two");
    s2.labels.insert("devin.outpost_id".into(), "o".into());
    let one = p.create(&s1).await.unwrap();
    let two = p.create(&s2).await.unwrap();
    assert!(matches!(p.create(&s1).await, Err(ProviderError::AlreadyExists(n)) if n == "one"));
    assert_ne!(one.id, two.id);
    assert_eq!(p.get("one").await.unwrap().unwrap().id, one.id);
    assert_eq!(p.get(&two.id).await.unwrap().unwrap().name, "two");
    assert!(p.get("../../etc").await.unwrap().is_none());

    let by = |k: &str, v: &str| BTreeMap::from([(k.to_string(), v.to_string())]);
    assert_eq!(p.list(&by("devin.outpost_id", "o")).await.unwrap().len(), 2);
    let only = p.list(&by("devin.session_id", "s1")).await.unwrap();
    assert_eq!(
        only.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(),
        ["one"]
    );
    assert_eq!(p.list(&BTreeMap::new()).await.unwrap().len(), 2);

    p.set_labels(&two.id, &by("devin.session_id", "s1"))
        .await
        .unwrap();
    assert_eq!(
        p.list(&by("devin.session_id", "s1")).await.unwrap().len(),
        2
    );
    assert_eq!(
        p.list(&by("devin.outpost_id", "o")).await.unwrap().len(),
        1,
        "labels are replaced"
    );

    // A second provider on the same root (a restarted process) sees the same sandboxes.
    let again = provider(tmp.path());
    let all = again.list(&BTreeMap::new()).await.unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(again.get("one").await.unwrap().unwrap().labels, s1.labels);
    let out = sh(&again, "one", "echo alive").await;
    assert_eq!(out.stdout, "alive\n");
    // The record is private and holds what we said.
    let rec = tmp.path().join(&one.id).join("sandbox.json");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&rec).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(
        std::fs::metadata(tmp.path().join(&one.id))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o700
    );
    p.delete("one").await.unwrap();
    p.delete("two").await.unwrap();
    assert!(again.list(&BTreeMap::new()).await.unwrap().is_empty());
}

#[tokio::test]
async fn exec_env_cwd_exit_codes_timeout_and_argv() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let p = provider(tmp.path());
    let mut sp = spec("exec");
    sp.env.insert("FROM_SPEC".into(), Secret::new("spec-value"));
    let s = p.create(&sp).await.unwrap();

    let req = ExecRequest::shell("echo $FROM_SPEC $FROM_EXEC; pwd; echo err >&2; exit 7")
        .cwd("/workspace")
        .env("FROM_EXEC", Secret::new("exec-value"));
    let out = p.exec(&s.id, &req).await.unwrap();
    assert_eq!(out.exit_code, 7);
    assert_eq!(out.stdout, "spec-value exec-value\n/workspace\n");
    assert_eq!(out.stderr, "err\n");

    let out = p
        .exec(&s.id, &ExecRequest::argv(["printf", "%s|", "a b", "$HOME"]))
        .await
        .unwrap();
    assert_eq!(out.stdout, "a b|$HOME|");

    let err = p
        .exec(&s.id, &ExecRequest::shell("true").cwd("/nope/missing"))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("/nope/missing"), "{err}");

    // Timeout ends the whole process group.
    let started = std::time::Instant::now();
    let err = p
        .exec(
            &s.id,
            &ExecRequest::shell("sleep 30 & sleep 30").timeout(Duration::from_millis(500)),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ProviderError::Timeout(_)), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10));
    eventually("the timed-out group to die", || {
        p.processes(&s.id)
            .unwrap()
            .iter()
            .all(|pid| !cmdline(*pid).contains("sleep 30"))
    })
    .await;

    // A signal-killed command reports 128+signal.
    let out = sh(&p, &s.id, "kill -9 $$").await;
    assert_eq!(out.exit_code, 137);
    // Output is capped (10 MiB per stream) and says so.
    let out = sh(
        &p,
        &s.id,
        "head -c 11000000 /dev/zero | tr '\\0' a; echo done >&2",
    )
    .await;
    assert_eq!(out.exit_code, 0);
    assert!(
        out.stdout.len() < 10 * 1024 * 1024 + 200,
        "{}",
        out.stdout.len()
    );
    assert!(out.stdout.starts_with("aaaa"));
    assert!(
        out.stdout
            .ends_with("[outposts: output truncated at 10 MiB]\n")
    );
    assert_eq!(out.stderr, "done\n");
    p.delete(&s.id).await.unwrap();
}

pub(crate) fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            out.extend(walk(&p));
        } else if ft.is_file() {
            out.push(p);
        }
    }
    out
}

fn git(args: &[&str], cwd: &Path) {
    let st = std::process::Command::new("git")
        .args(args)
        .current_dir(cwd)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&st.stderr)
    );
}

#[tokio::test]
async fn git_clone_of_a_local_bare_repo_keeps_credentials_out() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let repos = tempfile::tempdir().unwrap();
    let work = repos.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    git(&["init", "-q", "-b", "main"], &work);
    std::fs::write(work.join("README"), "hello repo\n").unwrap();
    git(&["add", "."], &work);
    git(&["commit", "-q", "-m", "one"], &work);
    git(&["branch", "feature"], &work);
    let bare = repos.path().join("repo.git");
    git(
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
        repos.path(),
    );

    let p = LocalProvider::new(
        tmp.path(),
        LocalOptions {
            // The bare repository is a host path: expose it read-only, as the user would.
            ro_binds: vec![(repos.path().to_path_buf(), "/srv/repos".into())],
            ..opts()
        },
    )
    .unwrap();
    let s = p.create(&spec("git")).await.unwrap();
    let password = "gitpw-local-provider-0123456789";
    let req = GitClone {
        url: "file:///srv/repos/repo.git".into(),
        path: "/home/daytona/workspace/repo".into(),
        branch: Some("feature".into()),
        username: Some("x-access-token".into()),
        password: Some(Secret::new(password)),
    };
    p.git_clone(&s.id, &req).await.unwrap();
    let readme = p
        .read_file(&s.id, "/home/daytona/workspace/repo/README")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(readme, b"hello repo\n");
    let out = sh(
        &p,
        &s.id,
        "cd /home/daytona/workspace/repo && git rev-parse --abbrev-ref HEAD",
    )
    .await;
    assert_eq!(out.stdout.trim(), "feature");
    // A plain path works too.
    let req2 = GitClone {
        url: "/srv/repos/repo.git".into(),
        path: "plain".into(),
        branch: None,
        ..req.clone()
    };
    p.git_clone(&s.id, &req2).await.unwrap();
    assert!(p.read_file(&s.id, "plain/README").await.unwrap().is_some());

    // A failing clone explains itself without the password.
    let bad = GitClone {
        url: "file:///srv/repos/missing.git".into(),
        path: "/workspace/m".into(),
        ..req.clone()
    };
    let err = p.git_clone(&s.id, &bad).await.unwrap_err().to_string();
    assert!(
        err.contains("git clone") && !err.contains(password),
        "{err}"
    );
    // A password in the URL is refused (and not echoed).
    let inline = GitClone {
        url: format!("https://u:{password}@example.invalid/r.git"),
        ..req.clone()
    };
    let err = p.git_clone(&s.id, &inline).await.unwrap_err().to_string();
    assert!(!err.contains(password), "{err}");
    for f in walk(tmp.path()) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap_or_default()).into_owned();
        assert!(!text.contains(password), "{}", f.display());
    }
    p.delete(&s.id).await.unwrap();
}

#[tokio::test]
async fn git_askpass_answers_from_the_environment() {
    crate::support::host::require!(crate::support::host::BWRAP);
    // A stand-in `git` on PATH shows what a real HTTPS clone would get from GIT_ASKPASS.
    let (tmp, _reaper) = root();
    let bin = tempfile::tempdir().unwrap();
    std::fs::write(
        bin.path().join("git"),
        "#!/bin/sh\necho \"argv: $*\" > /tmp/git-args\nprintf 'user=%s pass=%s\\n' \"$(\"$GIT_ASKPASS\" 'Username for https://h: ')\" \"$(\"$GIT_ASKPASS\" 'Password for https://h: ')\" > /tmp/git-creds\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        bin.path().join("git"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let p = provider(tmp.path());
    let s = p
        .create_with(
            &spec("askpass"),
            &SandboxOptions {
                ro_binds: vec![(bin.path().to_path_buf(), "/opt/fakebin".into())],
                extra_path: vec!["/opt/fakebin".into()],
            },
        )
        .await
        .unwrap();
    let password = "askpass-secret-0123456789";
    p.git_clone(
        &s.id,
        &GitClone {
            url: "https://git.example.invalid/org/repo.git".into(),
            path: "/workspace/repo".into(),
            branch: None,
            username: Some("bot".into()),
            password: Some(Secret::new(password)),
        },
    )
    .await
    .unwrap();
    let args =
        String::from_utf8(p.read_file(&s.id, "/tmp/git-args").await.unwrap().unwrap()).unwrap();
    assert!(
        args.contains("clone -- https://git.example.invalid/org/repo.git /workspace/repo"),
        "{args}"
    );
    assert!(!args.contains(password));
    let creds =
        String::from_utf8(p.read_file(&s.id, "/tmp/git-creds").await.unwrap().unwrap()).unwrap();
    assert_eq!(creds.trim(), format!("user=bot pass={password}"));
    // Binds are read-only inside and refused by the file API.
    assert!(p.write_file(&s.id, "/opt/fakebin/git", b"x").await.is_err());
    assert_ne!(
        sh(&p, &s.id, "echo x > /opt/fakebin/git").await.exit_code,
        0
    );
    p.delete(&s.id).await.unwrap();
}

#[tokio::test]
async fn hostile_paths_never_touch_the_host() {
    crate::support::host::require!(crate::support::host::BWRAP);
    let (tmp, _reaper) = root();
    let host = tempfile::tempdir().unwrap();
    let victim = host.path().join("victim.txt");
    std::fs::write(&victim, b"host data").unwrap();
    let p = provider(tmp.path());
    let s = p.create(&spec("hostile")).await.unwrap();
    // The sandbox plants links to the host path (absolute and relative).
    let hp = host.path().display();
    let out = sh(&p, &s.id, &format!("ln -s {hp} /workspace/abs && ln -s ../../../../../../../../{hp} /workspace/rel && ln -s /etc /workspace/etc")).await;
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    for path in [
        "/workspace/abs/victim.txt".to_string(),
        "/workspace/rel/victim.txt".to_string(),
        format!("{hp}/victim.txt"),
    ] {
        assert!(p.read_file(&s.id, &path).await.unwrap().is_none(), "{path}");
        let _ = p.write_file(&s.id, &path, b"pwned").await;
    }
    for path in [
        "/../../etc/passwd",
        "../../../../etc/passwd",
        "/etc/passwd",
        "/workspace/etc/passwd",
        "/proc/self/environ",
        "/usr/bin/sh",
        "a\0b",
    ] {
        assert!(p.write_file(&s.id, path, b"pwned").await.is_err(), "{path}");
    }
    assert!(p.read_file(&s.id, "/../../etc/shadow").await.is_err());
    assert_eq!(std::fs::read(&victim).unwrap(), b"host data");
    assert_ne!(std::fs::read_to_string("/etc/passwd").unwrap(), "pwned");
    p.delete(&s.id).await.unwrap();
}

#[tokio::test]
async fn without_bubblewrap_sandboxes_are_refused_unless_opted_in() {
    let (tmp, _reaper) = root();
    let missing = LocalProvider::new(
        tmp.path(),
        LocalOptions {
            bwrap: Some("/nonexistent/bwrap".into()),
            // Not opted in, whatever this host has (`opts()` opts in without bubblewrap).
            allow_unisolated: false,
            ..opts()
        },
    )
    .unwrap();
    match missing.create(&spec("refused")).await.unwrap_err() {
        outposts::provider::ProviderError::NotReady { problem, fix } => {
            assert!(problem.contains("bubblewrap"), "{problem}");
            assert!(
                fix.contains("apt-get install -y bubblewrap")
                    && fix.contains("OUTPOSTS_LOCAL_UNISOLATED=1"),
                "{fix}"
            );
        }
        other => panic!("{other:?}"),
    }
    // The same answer before anything is created, as `orchestrator run` asks first.
    assert!(matches!(
        missing
            .preflight(&outposts::provider::Source::Default)
            .await,
        Err(outposts::provider::ProviderError::NotReady { .. })
    ));
    assert!(
        missing.list(&BTreeMap::new()).await.unwrap().is_empty(),
        "nothing half-created"
    );

    // Opted in: commands run on the host, but cwd, HOME and the file API stay in the tree.
    let p = LocalProvider::new(
        tmp.path(),
        LocalOptions {
            bwrap: Some("/nonexistent/bwrap".into()),
            allow_unisolated: true,
            ..opts()
        },
    )
    .unwrap();
    assert_eq!(p.isolation().as_str(), "none");
    let s = p.create(&spec("unisolated")).await.unwrap();
    let tree = p.tree(&s.id).unwrap().unwrap();
    let out = p
        .exec(
            &s.id,
            &ExecRequest::shell("pwd; echo $HOME; echo x > here.txt").cwd("/workspace"),
        )
        .await
        .unwrap();
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(Path::new(lines[0]), tree.join("workspace"));
    assert!(Path::new(lines[1]).starts_with(&tree));
    assert_eq!(
        p.read_file(&s.id, "/workspace/here.txt")
            .await
            .unwrap()
            .unwrap(),
        b"x\n"
    );
    let events = std::fs::read_to_string(tmp.path().join(&s.id).join("events.log")).unwrap();
    assert!(events.contains("WARNING: no isolation"), "{events}");
    // Processes are still tracked and ended.
    sh(&p, &s.id, "nohup sleep 30 >/dev/null 2>&1 &").await;
    assert!(!p.processes(&s.id).unwrap().is_empty());
    p.stop(&s.id).await.unwrap();
    assert!(p.processes(&s.id).unwrap().is_empty());
    p.delete(&s.id).await.unwrap();
}
