//! The Kubernetes kit in `deploy/kubernetes/` (docker and a cluster cannot run here): every
//! overlay renders with `kubectl kustomize` and validates strictly, offline, against the
//! Kubernetes schemas (`kubernetes-validate --strict`), as shipped (no prometheus-operator kinds:
//! monitoring is opt-in) and with its monitoring line uncommented as the README says; the image
//! tag is the binary's version; the pods are restricted and probe `/livez` and `/readyz`; every
//! flag and variable the manifests hand the binary is one it knows; the PrometheusRule is the
//! alert file.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Parser;
use outposts::cli::Cli;
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn overlays() -> Vec<PathBuf> {
    let dir = root().join("deploy/kubernetes/overlays");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("kustomization.yaml").is_file())
        .collect();
    out.sort();
    assert!(out.len() >= 2, "no overlays in {}", dir.display());
    out
}

/// The overlay's opt-in line, commented out as shipped; the README says to uncomment it.
const MONITORING_OFF: &str = "  # - ../../monitoring";
const MONITORING_ON: &str = "  - ../../monitoring";

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// A copy of the kit in `dir` with every overlay's monitoring line uncommented (what a user with
/// the prometheus-operator does); its overlays, in the order of [`overlays`].
fn overlays_with_monitoring(dir: &Path) -> Vec<PathBuf> {
    let kit = dir.join("kubernetes");
    copy_tree(&root().join("deploy/kubernetes"), &kit);
    overlays()
        .iter()
        .map(|o| {
            let copy = kit.join("overlays").join(o.file_name().unwrap());
            let file = copy.join("kustomization.yaml");
            let text = std::fs::read_to_string(&file).unwrap();
            assert_eq!(
                text.lines().filter(|l| *l == MONITORING_OFF).count(),
                1,
                "{}: no line {MONITORING_OFF:?} to uncomment",
                o.display()
            );
            let on: Vec<&str> = text
                .lines()
                .map(|l| {
                    if l == MONITORING_OFF {
                        MONITORING_ON
                    } else {
                        l
                    }
                })
                .collect();
            std::fs::write(&file, on.join("\n") + "\n").unwrap();
            copy
        })
        .collect()
}

/// `kubectl kustomize DIR`, as YAML text.
fn render(overlay: &Path) -> String {
    let out = Command::new("kubectl")
        .arg("kustomize")
        .arg(overlay)
        .output()
        .expect("kubectl");
    assert!(
        out.status.success(),
        "kubectl kustomize {}: {}",
        overlay.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 manifests")
}

/// YAML documents as JSON values (PyYAML does the reading; no YAML crate in the build).
fn documents(yaml: &str) -> Vec<Value> {
    use std::io::Write;
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import json,sys,yaml; print(json.dumps([d for d in yaml.safe_load_all(sys.stdin) if d]))",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(yaml.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("python3");
    assert!(out.status.success(), "not YAML:\n{yaml}");
    serde_json::from_slice(&out.stdout).expect("json")
}

fn kind(doc: &Value) -> &str {
    doc["kind"].as_str().unwrap_or_default()
}

/// Kinds the Kubernetes schemas do not cover: the prometheus-operator's CRDs.
fn is_crd(doc: &Value) -> bool {
    doc["apiVersion"]
        .as_str()
        .is_some_and(|v| v.starts_with("monitoring.coreos.com/"))
}

#[test]
fn every_overlay_renders_and_validates_strictly_offline() {
    crate::support::host::require!(
        crate::support::host::KUBECTL,
        crate::support::host::KUBERNETES_VALIDATE,
        crate::support::host::PY_YAML
    );
    let dir = tempfile::tempdir().unwrap();
    let core_kinds = [
        "StatefulSet",
        "ConfigMap",
        "Service",
        "PodDisruptionBudget",
        "NetworkPolicy",
    ];
    // As shipped: applies to a cluster without the prometheus-operator CRDs.
    for overlay in overlays() {
        let name = overlay.file_name().unwrap().to_string_lossy().into_owned();
        let docs = documents(&render(&overlay));
        let kinds: Vec<&str> = docs.iter().map(kind).collect();
        for want in core_kinds {
            assert!(kinds.contains(&want), "{name}: no {want} in {kinds:?}");
        }
        assert!(
            !docs.iter().any(is_crd),
            "{name}: monitoring is opt-in, yet the overlay renders {kinds:?}"
        );
        validate(dir.path(), &name, &docs);
        restricted(&name, &docs);
    }
    // With the monitoring line uncommented, as the README says.
    for overlay in overlays_with_monitoring(dir.path()) {
        let name = format!(
            "{}+monitoring",
            overlay.file_name().unwrap().to_string_lossy()
        );
        let docs = documents(&render(&overlay));
        let kinds: Vec<&str> = docs.iter().map(kind).collect();
        for want in core_kinds.iter().chain(&["PodMonitor", "PrometheusRule"]) {
            assert!(kinds.contains(want), "{name}: no {want} in {kinds:?}");
        }
        let (crds, _): (Vec<&Value>, Vec<&Value>) = docs.iter().partition(|d| is_crd(d));
        for d in &crds {
            assert_eq!(d["metadata"]["namespace"], "outposts", "{name}: {d}");
        }
        validate(dir.path(), &name, &docs);
        // The alert rules inside the PrometheusRule are valid rules for Prometheus itself.
        if crate::support::host::which(&["promtool"]).is_some() {
            let rule = crds
                .iter()
                .find(|d| kind(d) == "PrometheusRule")
                .expect("rule");
            let rules = dir.path().join(format!("{name}-rules.json"));
            std::fs::write(&rules, rule["spec"].to_string()).unwrap();
            let out = Command::new("promtool")
                .args(["check", "rules"])
                .arg(&rules)
                .output()
                .expect("promtool");
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        restricted(&name, &docs);
    }
}

/// The core kinds against the bundled schemas, strictly; the CRDs have none there (checked by
/// promtool and the drift test instead), and they are said to be skipped.
fn validate(dir: &Path, name: &str, docs: &[Value]) {
    let (crds, core): (Vec<&Value>, Vec<&Value>) = docs.iter().partition(|d| is_crd(d));
    for d in &crds {
        eprintln!(
            "{name}: {} {} is a prometheus-operator CRD: not schema-validated",
            kind(d),
            d["metadata"]["name"]
        );
    }
    let file = dir.join(format!("{name}.json"));
    let list: Vec<String> = core.iter().map(|d| d.to_string()).collect();
    // JSON is YAML: one document per line, `---` between them.
    std::fs::write(&file, list.join("\n---\n")).unwrap();
    let out = Command::new("kubernetes-validate")
        .args(["--strict", "--quiet"])
        .arg(&file)
        .output()
        .expect("kubernetes-validate");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && !text.contains("WARN") && !text.contains("ERROR"),
        "{name}: kubernetes-validate --strict:\n{text}"
    );
}

/// Monitoring is one commented line in each overlay, and the image each overlay runs is tagged
/// with the binary's version (read from the files: no kubectl needed, so a fresh machine checks
/// it too).
#[test]
fn overlays_tag_the_image_with_the_binary_version_and_leave_monitoring_opt_in() {
    let version = env!("CARGO_PKG_VERSION");
    for overlay in overlays() {
        let file = overlay.join("kustomization.yaml");
        let text = std::fs::read_to_string(&file).unwrap();
        let tags: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("newTag:"))
            .map(|t| t.trim().trim_matches('"'))
            .collect();
        assert_eq!(
            tags,
            vec![version],
            "{}: the image tag must be the version in Cargo.toml ({version})",
            file.display()
        );
        assert_eq!(
            text.lines().filter(|l| *l == MONITORING_OFF).count(),
            1,
            "{}: monitoring is opt-in through one line {MONITORING_OFF:?}",
            file.display()
        );
        assert!(
            !text.lines().any(|l| l.trim() == MONITORING_ON.trim()),
            "{}: monitoring is on by default",
            file.display()
        );
    }
    // The README's Kubernetes section says the same: the tag to build and the line to uncomment.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for said in [
        format!("docker build -t registry.example.com/outposts:{version} ."),
        format!("`{}`", MONITORING_OFF.trim()),
    ] {
        assert!(readme.contains(&said), "the README does not say {said}");
    }
}

/// The pod runs restricted: non-root, read-only root, no token, no escalation, no
/// capabilities, the runtime's seccomp profile; liveness probes `/livez`, readiness `/readyz`,
/// on the port the command serves; the image is tagged with the binary's version.
fn restricted(name: &str, docs: &[Value]) {
    let sts = docs.iter().find(|d| kind(d) == "StatefulSet").unwrap();
    let pod = &sts["spec"]["template"]["spec"];
    assert_eq!(pod["automountServiceAccountToken"], false, "{name}");
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true, "{name}");
    assert_eq!(
        pod["securityContext"]["seccompProfile"]["type"], "RuntimeDefault",
        "{name}"
    );
    assert!(
        sts["spec"]["volumeClaimTemplates"][0]["metadata"]["name"].is_string(),
        "{name}: each replica needs its own state volume"
    );
    for c in pod["containers"].as_array().unwrap() {
        let sc = &c["securityContext"];
        assert_eq!(sc["allowPrivilegeEscalation"], false, "{name}");
        assert_eq!(sc["readOnlyRootFilesystem"], true, "{name}");
        assert_eq!(
            sc["capabilities"]["drop"],
            serde_json::json!(["ALL"]),
            "{name}"
        );
        assert!(c["resources"]["requests"]["memory"].is_string(), "{name}");
        assert_eq!(c["livenessProbe"]["httpGet"]["path"], "/livez", "{name}");
        assert_eq!(c["readinessProbe"]["httpGet"]["path"], "/readyz", "{name}");
        for probe in ["livenessProbe", "readinessProbe"] {
            assert_eq!(c[probe]["httpGet"]["port"], "metrics", "{name} {probe}");
        }
        let image = c["image"].as_str().unwrap_or_default();
        assert!(
            image.ends_with(&format!(":{}", env!("CARGO_PKG_VERSION"))),
            "{name}: image {image} is not tagged with the binary's version"
        );
        // A token never as a literal in a manifest.
        for v in c["env"].as_array().into_iter().flatten() {
            let var = v["name"].as_str().unwrap_or_default();
            assert!(
                outposts::env::find(var).is_none_or(|e| !e.secret) || v.get("value").is_none(),
                "{name}: {var} is a literal in the manifest"
            );
        }
    }
    assert!(
        docs.iter().all(|d| kind(d) != "Secret"),
        "{name}: a Secret in the manifests (tokens are created outside them)"
    );
    let policy = docs.iter().find(|d| kind(d) == "NetworkPolicy").unwrap();
    let types = policy["spec"]["policyTypes"].to_string();
    assert!(types.contains("Egress"), "{name}: {types}");
}

/// Every flag and variable the manifests pass exists in the CLI and in `src/env.rs`, and the
/// probes hit the port `--metrics-addr` serves. A renamed flag or variable fails here.
#[test]
fn manifests_pass_only_flags_and_variables_the_binary_knows() {
    crate::support::host::require!(crate::support::host::KUBECTL, crate::support::host::PY_YAML);
    let dir = tempfile::tempdir().unwrap();
    let shipped = overlays().into_iter().map(|o| (o, false));
    let monitored = overlays_with_monitoring(dir.path())
        .into_iter()
        .map(|o| (o, true));
    for (overlay, monitoring) in shipped.chain(monitored) {
        let name = format!(
            "{}{}",
            overlay.file_name().unwrap().to_string_lossy(),
            if monitoring { "+monitoring" } else { "" }
        );
        let docs = documents(&render(&overlay));
        let sts = docs.iter().find(|d| kind(d) == "StatefulSet").unwrap();
        for c in sts["spec"]["template"]["spec"]["containers"]
            .as_array()
            .unwrap()
        {
            let args: Vec<String> = c["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect();
            let mut argv = vec!["outposts".to_string()];
            argv.extend(args.iter().cloned());
            if let Err(e) = Cli::try_parse_from(&argv) {
                panic!("{name}: the CLI rejects {argv:?}:\n{e}");
            }
            let port = args
                .iter()
                .skip_while(|a| *a != "--metrics-addr")
                .nth(1)
                .and_then(|a| a.rsplit(':').next())
                .expect("--metrics-addr");
            let named = c["ports"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == "metrics")
                .expect("metrics port");
            assert_eq!(named["containerPort"].to_string(), port, "{name}");
            // Variables: literal `env` entries and every key of the mounted ConfigMaps.
            let mut vars: Vec<String> = c["env"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| v["name"].as_str().unwrap().to_string())
                .collect();
            for from in c["envFrom"].as_array().into_iter().flatten() {
                if let Some(cm) = from["configMapRef"]["name"].as_str() {
                    let map = docs
                        .iter()
                        .find(|d| kind(d) == "ConfigMap" && d["metadata"]["name"] == cm)
                        .unwrap_or_else(|| panic!("{name}: no ConfigMap {cm}"));
                    for (k, _) in map["data"].as_object().unwrap() {
                        assert!(
                            outposts::env::find(k).is_none_or(|v| !v.secret),
                            "{name}: the secret {k} is in a ConfigMap"
                        );
                        vars.push(k.clone());
                    }
                }
            }
            for v in &vars {
                assert!(
                    outposts::env::find(v).is_some(),
                    "{name}: {v} is not a variable `outposts help-env` knows"
                );
            }
        }
        // The PodMonitor scrapes the named port the command serves metrics on.
        if monitoring {
            let monitor = docs.iter().find(|d| kind(d) == "PodMonitor").unwrap();
            assert_eq!(
                monitor["spec"]["podMetricsEndpoints"][0]["port"], "metrics",
                "{name}"
            );
        }
    }
    // The Secret's documented keys are variables too (and the secret ones among them).
    let example = std::fs::read_to_string(root().join("deploy/kubernetes/tokens.env.example"))
        .expect("tokens.env.example");
    for line in example.lines() {
        let line = line.trim_start_matches("# ");
        if let Some((k, _)) = line.split_once('=')
            && k.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        {
            assert!(outposts::env::find(k).is_some(), "tokens.env.example: {k}");
        }
    }
}

/// The PrometheusRule is the alert file, rendered by `outposts generate` (never edited by hand).
#[test]
fn the_prometheus_rule_is_the_alert_file() {
    let alerts = std::fs::read_to_string(root().join("deploy/prometheus/alerts.yml")).unwrap();
    let committed =
        std::fs::read_to_string(root().join(outposts::commands::generate::PROMETHEUS_RULE_PATH))
            .unwrap();
    assert_eq!(
        committed,
        outposts::commands::generate::prometheus_rule(&alerts),
        "the PrometheusRule differs from deploy/prometheus/alerts.yml: run `cargo run -- generate`"
    );
}
