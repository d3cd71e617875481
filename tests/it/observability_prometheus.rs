//! The deploy/ monitoring files against real Prometheus tools: `promtool check rules` and
//! `promtool test rules` on the alert rules, and a real Prometheus server scraping a real
//! orchestrator, evaluating every expression of the dashboard and of the alert rules.
//!
//! How expressions are judged (read from the files, never copied here):
//! - a dashboard target must evaluate without error and return at least one series — the test
//!   drives what makes each panel non-empty (a served session, one injected 503);
//! - an alert rule must be `<quantity> <comparison> <number>` (one line, no `and`/`or`/`unless`):
//!   the whole rule must evaluate without error, and its quantity — the part before the final
//!   comparison, which is what the threshold is compared with — must return at least one series.
//!   A rule that is quiet because its quantity does not exist (a misspelt metric, a label value
//!   that is never exported) would never fire; this catches it. The rules are also loaded into
//!   the server, whose rule health must be `ok` after an evaluation.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::observability::{http_get, metrics_addr};
use crate::support::orch::*;

fn deploy(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy")
        .join(rel)
}

fn promtool(args: &[&str]) {
    let out = Command::new("promtool")
        .args(args)
        .current_dir(deploy("prometheus"))
        .output()
        .expect("promtool");
    assert!(
        out.status.success(),
        "promtool {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn alert_rules_pass_promtool_check_and_unit_tests() {
    crate::support::host::require!(crate::support::host::PROMTOOL);
    promtool(&["check", "rules", "alerts.yml"]);
    promtool(&["test", "rules", "alerts_test.yml"]);
}

/// Every alert links its runbook as an absolute URL (a Slack or PagerDuty notification has no
/// repository to resolve `README.md#…` against): the README on the project's page (Cargo.toml
/// `repository`), at an anchor a heading of README.md makes.
#[test]
fn alert_rules_link_real_runbooks_by_absolute_url() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README");
    let anchors: Vec<String> = readme
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect();
    let page = format!("{}/blob/main/README.md#", env!("CARGO_PKG_REPOSITORY"));
    assert!(page.starts_with("https://"), "{page}");
    for file in ["prometheus/alerts.yml", "prometheus/alerts_test.yml"] {
        let rules = std::fs::read_to_string(deploy(file)).unwrap();
        let links: Vec<&str> = rules
            .lines()
            .filter_map(|l| l.trim().strip_prefix("runbook_url: "))
            .collect();
        if file.ends_with("alerts.yml") {
            assert_eq!(links.len(), alert_exprs().len(), "every rule has a runbook");
        }
        for link in links {
            let anchor = link.trim_matches('"').strip_prefix(&page);
            let anchor = anchor.unwrap_or_else(|| panic!("{file}: {link} is not {page}…"));
            assert!(
                anchors.iter().any(|a| a == anchor),
                "{file}: README has no heading for #{anchor}"
            );
        }
    }
}

/// Every `expr:` of the alert rules (one line each; a block scalar fails here).
fn alert_exprs() -> Vec<String> {
    let text = std::fs::read_to_string(deploy("prometheus/alerts.yml")).unwrap();
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("expr:"))
        .map(|e| {
            let e = e.trim();
            assert!(
                !e.starts_with('|') && !e.starts_with('>'),
                "write alert exprs on one line: {e}"
            );
            e.to_string()
        })
        .collect()
}

/// Every target expression of the dashboard (rows' panels included).
fn dashboard_exprs() -> Vec<String> {
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(deploy("grafana/outposts.json")).unwrap())
            .expect("dashboard JSON");
    assert_eq!(
        doc["templating"]["list"][0]["type"], "datasource",
        "the dashboard picks its data source from a variable"
    );
    fn walk(panels: &serde_json::Value, out: &mut Vec<String>) {
        for p in panels.as_array().into_iter().flatten() {
            assert_eq!(p["datasource"]["uid"], "${datasource}", "{p}");
            for t in p["targets"].as_array().into_iter().flatten() {
                out.push(t["expr"].as_str().expect("a target expr").to_string());
            }
            walk(&p["panels"], out);
        }
    }
    let mut out = Vec::new();
    walk(&doc["panels"], &mut out);
    out
}

/// The quantity an alert compares: `X > 600` → `X`.
fn quantity(expr: &str) -> &str {
    for op in [" and ", " or ", " unless "] {
        assert!(
            !expr.contains(op),
            "alert exprs compare one quantity: {expr}"
        );
    }
    let (rest, number) = expr
        .rsplit_once(' ')
        .expect("an alert expr has a threshold");
    assert!(
        number.parse::<f64>().is_ok(),
        "no numeric threshold: {expr}"
    );
    let (lhs, op) = rest.trim_end().rsplit_once(' ').expect("a comparison");
    assert!(
        ["==", "!=", ">", "<", ">=", "<="].contains(&op),
        "ends in a comparison with a number: {expr}"
    );
    lhs.trim()
}

struct Prometheus {
    child: Child,
    addr: String,
    _dir: tempfile::TempDir,
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Prometheus {
    fn start(target: &str) -> Prometheus {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - {}\n\
                 scrape_configs:\n  - job_name: outposts\n    static_configs:\n      - targets: [\"{target}\"]\n",
                deploy("prometheus/alerts.yml").display()
            ),
        )
        .unwrap();
        let addr = format!("127.0.0.1:{}", free_port());
        let log = std::fs::File::create(dir.path().join("prometheus.log")).unwrap();
        let child = Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("data").display()
            ))
            .arg(format!("--web.listen-address={addr}"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("spawn prometheus");
        let mut p = Prometheus {
            child,
            addr,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(&p.addr).is_err()
            || !http_get(&p.addr, "/-/ready", None).0.contains(" 200 ")
        {
            if let Ok(Some(st)) = p.child.try_wait() {
                panic!("prometheus exited with {st}:\n{}", p.log());
            }
            assert!(
                Instant::now() < deadline,
                "prometheus never got ready:\n{}",
                p.log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        p
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self._dir.path().join("prometheus.log")).unwrap_or_default()
    }

    fn get(&self, path: &str) -> serde_json::Value {
        let (_, body) = http_get(&self.addr, path, None);
        serde_json::from_str(&body).unwrap_or(serde_json::Value::Null)
    }

    /// `/api/v1/query`: the answer document (status `success` or `error`).
    fn query(&self, expr: &str) -> serde_json::Value {
        let q: String = url::form_urlencoded::byte_serialize(expr.as_bytes()).collect();
        self.get(&format!("/api/v1/query?query={q}"))
    }
}

fn series(answer: &serde_json::Value) -> usize {
    match answer["data"]["resultType"].as_str() {
        Some("vector" | "matrix") => answer["data"]["result"].as_array().map_or(0, Vec::len),
        Some("scalar") => 1,
        _ => 0,
    }
}

#[test]
fn a_real_prometheus_scrapes_the_orchestrator_and_every_dashboard_and_alert_expression_evaluates() {
    crate::support::host::require!(crate::support::host::SANDBOXES);
    crate::support::host::require!(crate::support::host::PROMETHEUS);
    // One 503 from the queue, so that the API-errors panel has something to show.
    let faults = r#"[{"method":"GET","path":"/opbeta/outposts/devins","nth":3,"action":{"kind":"status","status":503}}]"#;
    let (emu, env) = orch_emulator(&["--faults", faults]);
    let orch = Orch::start(
        &env,
        &["--provider", "local", "--metrics-addr", "127.0.0.1:0"],
    );
    let target = metrics_addr(&orch);
    let s = new_session(&emu, Some(proof_task("prom")));
    wait_until(
        Duration::from_secs(60),
        "the session served",
        || tasks_done(&emu, &s),
        || orch.log(),
    );
    let prom = Prometheus::start(&target);
    // Two scrapes of a healthy target (rates need two samples).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let a = prom
            .query("count_over_time(up{job=\"outposts\"}[1m]) >= 2 and up{job=\"outposts\"} == 1");
        if series(&a) == 1 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "Prometheus never scraped the orchestrator twice: {a}\n{}",
            prom.log()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let mut problems = Vec::new();
    let mut judge = |expr: &str, what: &str, need_series: bool| {
        let a = prom.query(expr);
        if a["status"] != "success" {
            problems.push(format!("{what}: {expr}\n  → {}", a["error"]));
        } else if need_series && series(&a) == 0 {
            problems.push(format!("{what} returns no series: {expr}"));
        }
    };
    let dashboard = dashboard_exprs();
    assert!(dashboard.len() >= 10, "{dashboard:?}");
    for e in &dashboard {
        judge(e, "dashboard", true);
    }
    let alerts = alert_exprs();
    assert!(alerts.len() >= 7, "{alerts:?}");
    for e in &alerts {
        judge(e, "alert rule", false);
        judge(quantity(e), "alert quantity", true);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The server loaded the rules and evaluated each without error.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let rules = prom.get("/api/v1/rules");
        let all: Vec<&serde_json::Value> = rules["data"]["groups"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|g| g["rules"].as_array().into_iter().flatten())
            .collect();
        if all.len() == alerts.len() && all.iter().all(|r| r["health"] == "ok") {
            break;
        }
        assert!(Instant::now() < deadline, "rule health: {rules}");
        std::thread::sleep(Duration::from_millis(250));
    }
}
