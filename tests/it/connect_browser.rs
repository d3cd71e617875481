//! The whole connect flow in real headless Chromium: `outposts connect` starts the browser
//! through a `BROWSER` wrapper script; the test finds the page over the DevTools protocol and
//! clicks the Connect button with real mouse events (press and release at the button's
//! centre); the page's redirect reaches the CLI's listener; the CLI exchanges the code and
//! writes `.env`; `queue list` then works with the stored token.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::connect::{
    Connecting, all_text_under, assert_never_shown, connect_env, env_value, mode,
};
use crate::support::{Emu, TestEnv};

/// Chromium's flags: headless, and nothing that phones home (refused on a closed network).
const CHROMIUM_FLAGS: &str = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
--disable-background-networking --disable-component-update --disable-sync \
--disable-default-apps --no-default-browser-check --remote-debugging-port=0";

/// The browser the wrapper started: its process group is killed on drop.
struct Browser {
    profile: PathBuf,
    pid_file: PathBuf,
}

impl Browser {
    /// Write the wrapper script that `outposts connect` runs as `$BROWSER <url>`.
    fn wrapper(env: &TestEnv) -> (Browser, PathBuf) {
        let chromium = crate::support::host::which(&["chromium", "chromium-browser"])
            .expect("required by the test: chromium");
        let profile = env.path("chromium-profile");
        std::fs::create_dir_all(&profile).unwrap();
        let pid_file = env.path("chromium.pid");
        let log = env.path("chromium.log");
        let script = env.path("browser.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n# BROWSER wrapper written by the connect test: headless Chromium on \"$1\".\n\
echo $$ > '{pid}'\nexec '{chromium}' {CHROMIUM_FLAGS} --user-data-dir='{profile}' \"$1\" >>'{log}' 2>&1\n",
                pid = pid_file.display(),
                chromium = chromium.display(),
                profile = profile.display(),
                log = log.display(),
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        (Browser { profile, pid_file }, script)
    }

    /// The DevTools port Chromium wrote into its profile.
    fn devtools_port(&self, timeout: Duration) -> u16 {
        let file = self.profile.join("DevToolsActivePort");
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(text) = std::fs::read_to_string(&file)
                && let Some(Ok(port)) = text.lines().next().map(str::parse::<u16>)
            {
                return port;
            }
            assert!(
                Instant::now() < deadline,
                "Chromium did not start its DevTools server (no {})",
                file.display()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let Some(pid) = std::fs::read_to_string(&self.pid_file)
            .ok()
            .and_then(|s| s.trim().parse::<i32>().ok())
        else {
            return;
        };
        // `outposts connect` starts the wrapper in a process group of its own (pgid = pid),
        // and the wrapper execs Chromium: the group holds Chromium and its helpers.
        unsafe {
            libc::kill(-pid, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while alive(pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// Running and not a zombie.
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// `GET http://127.0.0.1:<port><path>` on the DevTools HTTP endpoint, as JSON.
fn devtools_json(port: u16, path: &str) -> Option<Value> {
    let page = crate::support::connect::get(&format!("http://127.0.0.1:{port}{path}"));
    serde_json::from_str(&page.body).ok()
}

/// A DevTools protocol session with one page, over its websocket.
struct Cdp {
    ws: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Cdp {
    fn connect(ws_url: &str) -> Cdp {
        let (ws, _) = tungstenite::connect(ws_url).expect("DevTools websocket");
        if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        }
        Cdp { ws, next_id: 1 }
    }

    /// Send a command and wait for its answer (events in between are skipped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({"id": id, "method": method, "params": params}).to_string();
        self.ws
            .send(tungstenite::Message::Text(msg.into()))
            .expect("send to DevTools");
        loop {
            let m = self.ws.read().expect("read from DevTools");
            let tungstenite::Message::Text(text) = m else {
                continue;
            };
            let v: Value = serde_json::from_str(text.as_str()).expect("DevTools JSON");
            if v["id"] == json!(id) {
                assert!(v.get("error").is_none(), "{method} failed: {v}");
                return v["result"].clone();
            }
        }
    }

    /// Evaluate a read-only expression in the page; its value.
    fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        r["result"]["value"].clone()
    }

    /// Press and release the left mouse button at (x, y), as a user's click.
    fn click(&mut self, x: f64, y: f64) {
        for (kind, buttons) in [("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1}),
            );
        }
    }
}

/// The websocket URL of the page showing the connect form.
fn connect_page(port: u16, timeout: Duration, log: &Path) -> String {
    let deadline = Instant::now() + timeout;
    loop {
        let list = devtools_json(port, "/json/list");
        if let Some(Value::Array(targets)) = &list
            && let Some(t) = targets.iter().find(|t| {
                t["type"] == "page"
                    && t["url"]
                        .as_str()
                        .is_some_and(|u| u.contains("/outposts/connect?"))
            })
            && let Some(ws) = t["webSocketDebuggerUrl"].as_str()
        {
            return ws.to_string();
        }
        assert!(
            Instant::now() < deadline,
            "Chromium never showed the connect page; targets: {list:?}\nlog:\n{}",
            text(log)
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Poll `expression` until it yields a non-null value.
fn wait_for(cdp: &mut Cdp, expression: &str, what: &str, timeout: Duration) -> Value {
    let deadline = Instant::now() + timeout;
    loop {
        let v = cdp.eval(expression);
        if !v.is_null() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn connect_in_headless_chromium_stores_env_and_queue_list_works() {
    crate::support::host::require!(crate::support::host::CHROMIUM);
    let emu_env = TestEnv::new();
    let emu = Emu::start(&emu_env, &[]);
    let mut env = connect_env(&emu);
    let (browser, script) = Browser::wrapper(&env);
    env.set("BROWSER", script.to_string_lossy());

    let mut connect = Connecting::spawn(&env, &["connect", "--port", "0", "--timeout", "4m"]);
    let url = connect.url();
    let port = browser.devtools_port(Duration::from_secs(90));
    let mut cdp = Cdp::connect(&connect_page(
        port,
        Duration::from_secs(90),
        &env.path("chromium.log"),
    ));

    // The real page: outpost name and platform shown, a Connect button to press.
    let button = wait_for(
        &mut cdp,
        "(() => { const b = document.getElementById('connect'); \
           if (!b || document.readyState !== 'complete') return null; \
           const r = b.getBoundingClientRect(); \
           return {x: r.left + r.width / 2, y: r.top + r.height / 2, text: b.textContent, \
                   name: document.getElementById('outpost-name').textContent, \
                   platform: document.getElementById('outpost-platform').textContent, \
                   deny: !!document.getElementById('deny')}; })()",
        "the Connect button",
        Duration::from_secs(60),
    );
    assert_eq!(button["text"], "Connect");
    assert_eq!(button["name"], "daytona-linux");
    assert_eq!(button["platform"], "linux");
    assert_eq!(button["deny"], true);
    cdp.click(button["x"].as_f64().unwrap(), button["y"].as_f64().unwrap());

    let run = connect.wait(Duration::from_secs(120));
    run.ok();
    // The browser followed the redirect to the CLI's listener and shows the outcome.
    let title = wait_for(
        &mut cdp,
        "document.title.startsWith('Outpost connected') ? document.title : null",
        "the success page",
        Duration::from_secs(30),
    );
    assert!(title.as_str().unwrap().contains("Outpost connected"));
    drop(cdp);

    let env_file = env.cwd.join(".env");
    assert_eq!(mode(&env_file), 0o600);
    let token = env_value(&env_file, "DEVIN_OUTPOSTS_TOKEN").expect("token in .env");
    let outpost = env_value(&env_file, "OUTPOST_ID").expect("outpost id in .env");
    assert_eq!(
        env_value(&env_file, "DEVIN_API_URL").as_deref(),
        Some(emu.base_url.as_str())
    );
    assert!(outpost.starts_with("outpost_env-"), "{outpost}");
    assert!(run.stdout.contains(&outpost), "{}", run.stdout);
    assert!(
        run.stderr.contains(&url),
        "the URL is printed: {}",
        run.stderr
    );
    // The new outpost exists under the name on the page.
    let outposts = crate::support::block_on(emu.client().outposts()).unwrap();
    assert!(
        outposts
            .iter()
            .any(|o| o["metadata"]["outpost_id"] == outpost.as_str()
                && o["spec"]["name"] == "daytona-linux"),
        "{outposts:?}"
    );

    // The fleet API accepts the stored machine token (nothing in the environment).
    assert!(!env.vars.contains_key("DEVIN_OUTPOSTS_TOKEN"));
    let queue = env.run(&["queue", "list", "--json"]);
    queue.ok();
    assert_eq!(queue.json(), json!([]));
    let last = emu
        .requests()
        .into_iter()
        .rev()
        .find(|r| r.path == "/opbeta/outposts/devins");
    let last = last.expect("queue list reached the emulator");
    assert_eq!(last.status, 200);
    assert!(last.query.unwrap_or_default().contains(&outpost));

    drop(browser);
    assert_never_shown(
        &token,
        &[
            ("connect stdout", &run.stdout),
            ("connect stderr", &run.stderr),
            ("queue list", &queue.all()),
            ("emulator log", &emu.stderr()),
            ("emulator data dir", &all_text_under(emu.data_dir())),
            ("chromium log", &text(&env.path("chromium.log"))),
        ],
    );
}
