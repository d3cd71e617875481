//! Helpers for the connect tests: run `outposts connect` in the background, read the URL it
//! prints, and play the admin on the emulator's connect page over plain HTTP (the Chromium
//! test clicks the real button instead).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Emu, Run, TestEnv, block_on};

/// Point `env` at the emulator for connecting: API and app URLs, but no outpost token or id
/// (those are what `connect` produces).
pub fn connect_env(emu: &Emu) -> TestEnv {
    let mut env = TestEnv::new();
    emu.configure(&mut env);
    env.unset("DEVIN_OUTPOSTS_TOKEN").unset("OUTPOST_ID");
    env
}

/// `outposts connect …` running in the background, its output going to files.
pub struct Connecting {
    child: Option<Child>,
    stdout: PathBuf,
    stderr: PathBuf,
}

impl Connecting {
    pub fn spawn(env: &TestEnv, args: &[&str]) -> Connecting {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let stdout = env.path(&format!("connect-{id}.out"));
        let stderr = env.path(&format!("connect-{id}.err"));
        let child = env
            .cmd(args)
            .stdout(std::fs::File::create(&stdout).expect("stdout file"))
            .stderr(std::fs::File::create(&stderr).expect("stderr file"))
            .stdin(Stdio::null())
            .spawn()
            .expect("spawn outposts connect");
        Connecting {
            child: Some(child),
            stdout,
            stderr,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(|c| c.id()).unwrap_or(0)
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    pub fn running(&mut self) -> bool {
        matches!(self.child.as_mut().map(|c| c.try_wait()), Some(Ok(None)))
    }

    /// The connect page URL, once printed (panics after 60 s).
    pub fn url(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            // Under --json the line is inside a JSON object's message (every stderr line JSON).
            let lines: Vec<String> = self
                .stderr()
                .lines()
                .flat_map(|l| match serde_json::from_str::<serde_json::Value>(l) {
                    Ok(v) => v["message"]
                        .as_str()
                        .unwrap_or_default()
                        .lines()
                        .map(|m| m.trim().to_string())
                        .collect(),
                    Err(_) => vec![l.trim().to_string()],
                })
                .collect();
            if let Some(line) = lines
                .iter()
                .find(|l| l.starts_with("http") && l.contains("/outposts/connect?"))
            {
                return line.clone();
            }
            if !self.running() || Instant::now() > deadline {
                let run = self.wait(Duration::from_secs(5));
                panic!("connect printed no URL\n{run:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The local callback port from the printed URL.
    pub fn callback_port(&mut self) -> u16 {
        let cb = query(&self.url(), "callback_url");
        url::Url::parse(&cb)
            .expect("callback url")
            .port()
            .expect("callback port")
    }

    /// Wait for the exit (kills it after `timeout`).
    pub fn wait(&mut self, timeout: Duration) -> Run {
        let mut child = self.child.take().expect("not waited yet");
        let deadline = Instant::now() + timeout;
        let code = loop {
            if let Ok(Some(status)) = child.try_wait() {
                break status.code().unwrap_or(-1);
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "connect did not finish within {timeout:?}\nstderr:\n{}",
                    std::fs::read_to_string(&self.stderr).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        Run {
            code,
            stdout: std::fs::read_to_string(&self.stdout).unwrap_or_default(),
            stderr: std::fs::read_to_string(&self.stderr).unwrap_or_default(),
        }
    }
}

impl Drop for Connecting {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// One query parameter of a URL.
pub fn query(url: &str, key: &str) -> String {
    url::Url::parse(url)
        .expect("url")
        .query_pairs()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| panic!("{url} has no {key}"))
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(60))
        .build()
        .expect("client")
}

/// A response: status, headers, body.
#[derive(Debug)]
pub struct Page {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

impl Page {
    pub fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    }
}

pub fn get(url: &str) -> Page {
    block_on(async {
        let r = client().get(url).send().await.expect("GET");
        Page {
            status: r.status().as_u16(),
            headers: r.headers().clone(),
            body: r.text().await.unwrap_or_default(),
        }
    })
}

pub fn post_form(url: &str, form: &[(&str, &str)]) -> Page {
    block_on(async {
        let r = client().post(url).form(form).send().await.expect("POST");
        Page {
            status: r.status().as_u16(),
            headers: r.headers().clone(),
            body: r.text().await.unwrap_or_default(),
        }
    })
}

/// Submit the connect page's form as its Connect or Deny button would, with `name` typed into
/// the name field (`None` keeps the suggested one). Returns the emulator's answer (a 303 to
/// the callback, or the page again).
pub fn decide(connect_url: &str, decision: &str, name: Option<&str>) -> Page {
    let page = get(connect_url);
    assert_eq!(page.status, 200, "{}", page.body);
    let base = connect_url.split("/outposts/connect").next().expect("base");
    let suggested = query(connect_url, "outpost_name");
    post_form(
        &format!("{base}/outposts/connect"),
        &[
            ("callback_url", &query(connect_url, "callback_url")),
            ("code_challenge", &query(connect_url, "code_challenge")),
            ("outpost_name", name.unwrap_or(&suggested)),
            ("platform", &query(connect_url, "platform")),
            ("decision", decision),
        ],
    )
}

/// Follow the emulator's redirect to the local listener (as the browser would).
pub fn deliver(redirect: &Page) -> Page {
    assert_eq!(redirect.status, 303, "{}", redirect.body);
    let to = redirect
        .header("location")
        .replace("//localhost:", "//127.0.0.1:");
    get(&to)
}

/// Approve the connection and hand the code to the CLI; returns the callback page.
pub fn approve(connect_url: &str) -> Page {
    deliver(&decide(connect_url, "connect", None))
}

/// Every file under `dir` (recursively) as text, for "never appears" checks.
pub fn all_text_under(dir: &Path) -> String {
    let mut out = String::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.push_str(&all_text_under(&p));
        } else if let Ok(bytes) = std::fs::read(&p)
            && bytes.len() < 8 * 1024 * 1024
        {
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    out
}

/// The value of `key` in a `.env` file.
pub fn env_value(path: &Path, key: &str) -> Option<String> {
    dotenvy::from_path_iter(path)
        .ok()?
        .flatten()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// Assert that `secret` appears in none of `texts` (and is long enough to mean something).
#[track_caller]
pub fn assert_never_shown(secret: &str, texts: &[(&str, &str)]) {
    assert!(secret.len() >= 20, "not a real secret: {secret:?}");
    for (what, text) in texts {
        assert!(
            !text.contains(secret),
            "the token appears in {what}:\n{text}"
        );
    }
}

/// Emulator requests other than its admin API.
pub fn api_requests(emu: &Emu) -> Vec<outposts::emulator::RequestRecord> {
    emu.requests()
        .into_iter()
        .filter(|r| r.api != "admin")
        .collect()
}

/// Mode bits of a file.
pub fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777
}
