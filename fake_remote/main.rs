//! devin-remote — the fake served by `outposts emulator`. It is NOT Devin's remote: it speaks the
//! emulator's plain-HTTP gateway protocol, marks its session running, carries out scripted tasks
//! and exits 0 when the session ends. A real executable (compiled by `build.rs` with nothing but
//! `std`), so the running process is the downloaded file, as with the real remote: a client that
//! checks `/proc/<pid>/exe` sees this file. The emulator appends a trailer naming the build's sha
//! and target (`#outposts-fake-remote sha=… target=…`), so every sha has its own checksum.
//!
//! Environment (spec §9): DEVIN_OUTPOST_GATEWAY_URL, DEVIN_OUTPOST_CONNECT_TOKEN and
//! DEVIN_OUTPOST_SESSION_ID are required; DEVIN_REMOTE_STATE_DIR is created if set;
//! DEVIN_REMOTE_FS_ROOT (the emulator's own knob) puts absolute task paths under a directory;
//! without it, OUTPOSTS_SANDBOX_ROOT (set by the local provider in an unisolated sandbox, where
//! an absolute path would otherwise be the host's) does.
//! Never prints the connect token.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

const USAGE: &str = "usage: devin-remote serve [--port N]
       devin-remote --version | --help

serve needs DEVIN_OUTPOST_GATEWAY_URL, DEVIN_OUTPOST_CONNECT_TOKEN and DEVIN_OUTPOST_SESSION_ID.
Optional: DEVIN_REMOTE_STATE_DIR (created if set), DEVIN_REMOTE_FS_ROOT (absolute task paths
are written under this directory instead of /).";

/// The build this file is, from the trailer the emulator appended.
fn identity() -> (String, String) {
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::read(p).ok())
        .unwrap_or_default();
    let tail = &me[me.len().saturating_sub(256)..];
    let text = String::from_utf8_lossy(tail);
    let line = text
        .rsplit("#outposts-fake-remote ")
        .next()
        .filter(|_| text.contains("#outposts-fake-remote "))
        .unwrap_or("");
    let field = |k: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(k))
            .unwrap_or("unknown")
            .to_string()
    };
    (field("sha="), field("target="))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--version" | "-V" | "version") => {
            let (sha, target) = identity();
            println!("devin-remote {sha} (outposts emulator fake, {target})");
            ExitCode::SUCCESS
        }
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("serve") => {
            let mut rest = args[1..].iter();
            while let Some(a) = rest.next() {
                match a.as_str() {
                    "--port" => {
                        rest.next();
                    }
                    a if a.starts_with("--port=") => {}
                    other => {
                        eprintln!("devin-remote: unknown option for serve: {other}");
                        return ExitCode::from(2);
                    }
                }
            }
            ExitCode::from(serve())
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
        Some(other) => {
            eprintln!("devin-remote: unknown command: {other}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `http://host:port/path` of the gateway.
struct Gateway {
    host: String,
    port: u16,
    path: String,
    token: String,
    session_b64: String,
}

/// One HTTP answer.
struct Answer {
    status: u16,
    body: Vec<u8>,
}

impl Gateway {
    fn parse(url: &str, token: String, session: &str) -> Result<Gateway, String> {
        let rest = url
            .strip_prefix("ws://")
            .or_else(|| url.strip_prefix("http://"))
            .ok_or_else(|| {
                if url.starts_with("wss://") || url.starts_with("https://") {
                    "the emulator's fake remote speaks plain HTTP only (DEVIN_OUTPOST_GATEWAY_URL is a TLS URL)".to_string()
                } else {
                    "DEVIN_OUTPOST_GATEWAY_URL must be a ws:// or wss:// URL".to_string()
                }
            })?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], rest[i..].trim_end_matches('/').to_string()),
            None => (rest, String::new()),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => (
                h.to_string(),
                p.parse().map_err(|_| format!("bad port in {url}"))?,
            ),
            None => (authority.to_string(), 80),
        };
        Ok(Gateway {
            host,
            port,
            path,
            token,
            session_b64: base64_encode(session.as_bytes()),
        })
    }

    /// One request; `Err` when the gateway cannot be reached (status 000 in the old script).
    fn call(&self, method: &str, path: &str, body: Option<&[u8]>) -> Result<Answer, String> {
        let mut s = TcpStream::connect((self.host.as_str(), self.port))
            .map_err(|e| format!("cannot connect to {}:{}: {e}", self.host, self.port))?;
        s.set_read_timeout(Some(Duration::from_secs(60))).ok();
        s.set_write_timeout(Some(Duration::from_secs(60))).ok();
        let body = body.unwrap_or(&[]);
        let head = format!(
            "{method} {}{path} HTTP/1.1\r\nHost: {}:{}\r\nAuthorization: Bearer {}\r\n\
             X-Devin-Outpost-Session-B64: {}\r\nContent-Type: application/octet-stream\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.path,
            self.host,
            self.port,
            self.token,
            self.session_b64,
            body.len()
        );
        s.write_all(head.as_bytes())
            .and_then(|_| s.write_all(body))
            .map_err(|e| format!("cannot send to the gateway: {e}"))?;
        let mut raw = Vec::new();
        s.read_to_end(&mut raw)
            .map_err(|e| format!("cannot read the gateway's answer: {e}"))?;
        parse_answer(&raw)
    }
}

fn parse_answer(raw: &[u8]) -> Result<Answer, String> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("a truncated HTTP answer")?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("an HTTP answer without a status")?;
    let mut body = raw[split + 4..].to_vec();
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    if chunked {
        body = dechunk(&body);
    }
    Ok(Answer { status, body })
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(i) = b.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&b[..i]).trim(), 16).unwrap_or(0);
        if size == 0 || b.len() < i + 2 + size {
            break;
        }
        out.extend_from_slice(&b[i + 2..i + 2 + size]);
        b = &b[(i + 2 + size + 2).min(b.len())..];
    }
    out
}

fn excerpt(b: &[u8]) -> String {
    String::from_utf8_lossy(&b[..b.len().min(300)]).trim().to_string()
}

fn serve() -> u8 {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let (Some(url), Some(token), Some(session)) = (
        var("DEVIN_OUTPOST_GATEWAY_URL"),
        var("DEVIN_OUTPOST_CONNECT_TOKEN"),
        var("DEVIN_OUTPOST_SESSION_ID"),
    ) else {
        for k in [
            "DEVIN_OUTPOST_GATEWAY_URL",
            "DEVIN_OUTPOST_CONNECT_TOKEN",
            "DEVIN_OUTPOST_SESSION_ID",
        ] {
            if var(k).is_none() {
                eprintln!(
                    "devin-remote: {k} is not set; serve needs DEVIN_OUTPOST_GATEWAY_URL, DEVIN_OUTPOST_CONNECT_TOKEN and DEVIN_OUTPOST_SESSION_ID together"
                );
                break;
            }
        }
        return 2;
    };
    let gw = match Gateway::parse(&url, token, &session) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("devin-remote: {e}");
            return 2;
        }
    };
    if let Some(dir) = var("DEVIN_REMOTE_STATE_DIR") {
        let _ = std::fs::create_dir_all(dir);
    }
    let fs_root = var("DEVIN_REMOTE_FS_ROOT").or_else(|| var("OUTPOSTS_SANDBOX_ROOT"));
    let home = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let auth_failed = |a: &Answer| {
        eprintln!(
            "devin-remote: the outpost gateway rejected the connect token (HTTP {}): {}",
            a.status,
            excerpt(&a.body)
        );
        1
    };

    // Connect (a few tries: the gateway may still be starting).
    let mut tries = 0;
    let first = loop {
        match gw.call("POST", "/connect", None) {
            Ok(a) if a.status == 200 => break a,
            Ok(a) if a.status == 401 || a.status == 403 => return auth_failed(&a),
            other => {
                tries += 1;
                if tries >= 10 {
                    let why = match other {
                        Ok(a) => format!("HTTP {}: {}", a.status, excerpt(&a.body)),
                        Err(e) => e,
                    };
                    eprintln!(
                        "devin-remote: cannot reach the outpost gateway at {}:{}{} ({why})",
                        gw.host, gw.port, gw.path
                    );
                    return 1;
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        }
    };
    let line = String::from_utf8_lossy(&first.body).to_string();
    let mut words = line.split_whitespace();
    if words.next() == Some("exit") {
        println!("session ended ({}); exiting", words.next().unwrap_or(""));
        return 0;
    }
    println!("connected to outpost gateway");
    let (sha, target) = identity();
    println!(
        "session {session}, remote {sha} ({target}), cwd {}",
        home.display()
    );
    let _ = std::io::stdout().flush();

    let mut failures = 0;
    loop {
        let a = match gw.call("GET", "/next", None) {
            Ok(a) if a.status == 200 => {
                failures = 0;
                a
            }
            Ok(a) if a.status == 401 || a.status == 403 => return auth_failed(&a),
            other => {
                failures += 1;
                if failures >= 30 {
                    let why = match other {
                        Ok(a) => format!("HTTP {}: {}", a.status, excerpt(&a.body)),
                        Err(e) => e,
                    };
                    eprintln!("devin-remote: lost the outpost gateway ({why})");
                    return 1;
                }
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
        };
        let line = String::from_utf8_lossy(&a.body).trim().to_string();
        let w: Vec<&str> = line.split_whitespace().collect();
        let task = w.get(1).copied().unwrap_or("none");
        match w.first().copied() {
            None | Some("wait") => {}
            Some("exit") => {
                println!("session ended ({task}); exiting");
                return 0;
            }
            Some("write") => {
                let path = String::from_utf8_lossy(&base64_decode(w.get(2).unwrap_or(&""))).to_string();
                println!("execute_tool write_file {task} {path}");
                let content = match w.get(3) {
                    Some(&"-") | None => Vec::new(),
                    Some(b) => base64_decode(b),
                };
                let target = resolve(&path, fs_root.as_deref(), &home);
                let written = target
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .and_then(|_| std::fs::write(&target, &content))
                    .and_then(|_| std::fs::read(&target));
                match written {
                    Ok(back) => report(&gw, task, "ok", 0, &back),
                    Err(e) => report(&gw, task, "error", 1, e.to_string().as_bytes()),
                }
            }
            Some("run") => {
                let cmd = base64_decode(w.get(2).unwrap_or(&""));
                println!("execute_tool shell {task}");
                let cmd = match var("OUTPOSTS_SANDBOX_ROOT") {
                    Some(root) => map_paths(&String::from_utf8_lossy(&cmd), &root).into_bytes(),
                    None => cmd,
                };
                let (code, out) = run_shell(&cmd, &home);
                let status = if code == 0 { "ok" } else { "error" };
                report(&gw, task, status, code, &out[..out.len().min(65536)]);
            }
            Some(other) => {
                let msg = format!("unknown instruction: {other}\n");
                report(&gw, task, "error", 2, msg.as_bytes());
            }
        }
        let _ = std::io::stdout().flush();
    }
}

/// An unisolated sandbox (OUTPOSTS_SANDBOX_ROOT): the sandbox's own absolute paths in a shell
/// task, at the start of a word, moved under its root on the host — as its provider does for
/// the commands it runs.
fn map_paths(script: &str, root: &str) -> String {
    const TOPS: &[&str] = &[
        "workspace", "home", "root", "tmp", "opt", "var", "run", "mnt", "srv",
    ];
    let mut out = String::with_capacity(script.len());
    let mut prev: Option<char> = None;
    let mut rest = script;
    while let Some(c) = rest.chars().next() {
        let at_word = prev.is_none_or(|p| " \t\n=:'\"(;|&><`,".contains(p));
        if c == '/' && at_word && !rest.starts_with(root) {
            let top: String = rest[1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-' || *c == '.')
                .collect();
            if TOPS.contains(&top.as_str()) {
                out.push_str(root.trim_end_matches('/'));
            }
        }
        out.push(c);
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Absolute task paths go under DEVIN_REMOTE_FS_ROOT when set; relative ones under the cwd.
fn resolve(path: &str, fs_root: Option<&str>, home: &Path) -> PathBuf {
    match (path.strip_prefix('/'), fs_root) {
        (Some(rel), Some(root)) => Path::new(root).join(rel),
        (Some(_), None) => PathBuf::from(path),
        (None, _) => home.join(path),
    }
}

fn run_shell(script: &[u8], cwd: &Path) -> (i32, Vec<u8>) {
    let child = Command::new("sh")
        .arg("-c")
        .arg(String::from_utf8_lossy(script).as_ref())
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output();
    match child {
        Ok(o) => {
            let mut out = o.stdout;
            out.extend_from_slice(&o.stderr);
            (o.status.code().unwrap_or(1), out)
        }
        Err(e) => (127, format!("cannot run sh: {e}").into_bytes()),
    }
}

fn report(gw: &Gateway, task: &str, status: &str, code: i32, body: &[u8]) {
    let path = format!("/result?task={task}&status={status}&code={code}");
    if let Ok(a) = gw.call("POST", &path, Some(body))
        && a.status == 401
    {
        eprintln!(
            "devin-remote: the outpost gateway rejected the connect token (HTTP 401): {}",
            excerpt(&a.body)
        );
        std::process::exit(1);
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_encode(data: &[u8]) -> String {
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
