//! Exec mode: the worker runs detached under a tiny restarting supervisor, for providers whose
//! sandboxes have no main command (Daytona).
//!
//! Files in `$HOME/.outposts-worker/`: `supervisor.pid`, `worker.pid`, `state`
//! (`running`/`waiting`/`completed`/`stopped`), `restarts`, `exit_code`, and `worker.log` (the
//! worker's stdout and stderr). The environment — the token included — travels in the launch
//! exec's environment and lives only in the supervisor's and the worker's process environment;
//! the script texts carry no values.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::provider::{Cmd, ExecRequest, Provider, ProviderError};
use crate::secrets::Secret;

/// Restart the worker on failure (backoff 1 s doubling to 60 s), record everything, forward
/// SIGTERM. `$1` is the run dir; the rest is the wrapper's arguments.
const SUPERVISOR: &str = r#"run=$1; shift
restarts=0; delay=1; child=''
trap 'if [ -n "$child" ]; then kill -TERM "$child" 2>/dev/null; wait "$child"; fi; echo stopped > "$run/state"; exit 143' TERM INT
while :; do
  echo running > "$run/state"
  sh -c "$OUTPOSTS_WORKER_WRAPPER" outposts-worker "$@" &
  child=$!
  echo "$child" > "$run/worker.pid"
  wait "$child"; code=$?
  child=''
  echo "$code" > "$run/exit_code"
  if [ "$code" -eq 0 ]; then echo completed > "$run/state"; exit 0; fi
  restarts=$((restarts + 1)); echo "$restarts" > "$run/restarts"
  echo waiting > "$run/state"
  sleep "$delay"
  delay=$((delay * 2)); if [ "$delay" -gt 60 ]; then delay=60; fi
done
"#;

/// Start the supervisor unless one runs. Env: OUTPOSTS_WORKER_OUTPOST, OUTPOSTS_WORKER_WRAPPER,
/// OUTPOSTS_WORKER_SUPERVISOR and the worker's own variables.
const LAUNCH: &str = r#"set -eu
run="$HOME/.outposts-worker"
mkdir -p "$run"
if [ -f "$run/supervisor.pid" ] && kill -0 "$(cat "$run/supervisor.pid")" 2>/dev/null; then
  echo "already running $(cat "$run/supervisor.pid")"
  exit 0
fi
rm -f "$run/exit_code" "$run/worker.pid"
echo 0 > "$run/restarts"
outpost="$OUTPOSTS_WORKER_OUTPOST"
unset OUTPOSTS_WORKER_OUTPOST
nohup sh -c "$OUTPOSTS_WORKER_SUPERVISOR" outposts-worker-supervisor "$run" "--outpost=$outpost" >> "$run/worker.log" 2>&1 < /dev/null &
echo "$!" > "$run/supervisor.pid"
echo "launched $!"
"#;

/// `key=value` lines describing the worker.
const CHECK: &str = r#"run="$HOME/.outposts-worker"
[ -d "$run" ] || { echo "present=no"; exit 0; }
echo "present=yes"
pid=$(cat "$run/supervisor.pid" 2>/dev/null || true)
if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "alive=yes"; else echo "alive=no"; fi
echo "state=$(cat "$run/state" 2>/dev/null || true)"
echo "restarts=$(cat "$run/restarts" 2>/dev/null || echo 0)"
echo "exit_code=$(cat "$run/exit_code" 2>/dev/null || true)"
"#;

/// Stop the supervisor (which stops the worker) and wait up to 20 s.
const STOP: &str = r#"run="$HOME/.outposts-worker"
pid=$(cat "$run/supervisor.pid" 2>/dev/null || true)
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then echo "not running"; exit 0; fi
kill -TERM "$pid" 2>/dev/null || true
i=0
while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 40 ]; do sleep 0.5; i=$((i + 1)); done
if kill -0 "$pid" 2>/dev/null; then
  w=$(cat "$run/worker.pid" 2>/dev/null || true)
  [ -n "$w" ] && kill -KILL "$w" 2>/dev/null
  kill -KILL "$pid" 2>/dev/null || true
  echo stopped > "$run/state"
  echo "killed"
else
  echo "stopped"
fi
"#;

/// Bytes of the log from offset `OUTPOSTS_FROM` (0-based), at most 1 MiB, after a line with
/// the file's size.
const READ_FROM: &str = r#"log="$HOME/.outposts-worker/worker.log"
[ -f "$log" ] || { echo 0; exit 0; }
wc -c < "$log" | tr -d ' '
tail -c +"$((OUTPOSTS_FROM + 1))" "$log" | head -c 1048576
"#;

/// The last `OUTPOSTS_LINES` lines of the log.
const TAIL: &str =
    r#"tail -n "$OUTPOSTS_LINES" "$HOME/.outposts-worker/worker.log" 2>/dev/null || true"#;

fn req(script: &str, env: BTreeMap<String, Secret>, timeout: Duration) -> ExecRequest {
    ExecRequest {
        cmd: Cmd::Shell(script.to_string()),
        cwd: None,
        env,
        timeout: Some(timeout),
    }
}

/// Launch (idempotent). `env` is the worker's environment (token included).
pub async fn launch(
    provider: &dyn Provider,
    id: &str,
    outpost: &str,
    env: BTreeMap<String, Secret>,
) -> Result<(), ProviderError> {
    let mut all = env;
    all.insert("OUTPOSTS_WORKER_OUTPOST".into(), Secret::plain(outpost));
    all.insert(
        "OUTPOSTS_WORKER_WRAPPER".into(),
        Secret::plain(super::WRAPPER),
    );
    all.insert(
        "OUTPOSTS_WORKER_SUPERVISOR".into(),
        Secret::plain(SUPERVISOR),
    );
    let out = provider
        .exec(id, &req(LAUNCH, all, Duration::from_secs(60)))
        .await?;
    if out.exit_code != 0 {
        return Err(ProviderError::Other(format!(
            "launching the worker failed (exit {}): {}",
            out.exit_code,
            last_line(&out.stderr, &out.stdout)
        )));
    }
    Ok(())
}

/// What [`check`] saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Supervisor {
    pub present: bool,
    pub alive: bool,
    pub state: String,
    pub restarts: u32,
    pub exit_code: Option<i32>,
}

pub fn parse_check(out: &str) -> Supervisor {
    let mut s = Supervisor::default();
    for line in out.lines() {
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let v = v.trim();
        match k.trim() {
            "present" => s.present = v == "yes",
            "alive" => s.alive = v == "yes",
            "state" => s.state = v.to_string(),
            "restarts" => s.restarts = v.parse().unwrap_or(0),
            "exit_code" => s.exit_code = v.parse().ok(),
            _ => {}
        }
    }
    s
}

pub async fn check(provider: &dyn Provider, id: &str) -> Result<Supervisor, ProviderError> {
    let out = provider
        .exec(id, &req(CHECK, BTreeMap::new(), Duration::from_secs(30)))
        .await?;
    Ok(parse_check(&out.stdout))
}

pub async fn stop(provider: &dyn Provider, id: &str) -> Result<String, ProviderError> {
    let out = provider
        .exec(id, &req(STOP, BTreeMap::new(), Duration::from_secs(60)))
        .await?;
    Ok(out.stdout.trim().to_string())
}

pub async fn tail(provider: &dyn Provider, id: &str, lines: u32) -> Result<String, ProviderError> {
    let mut env = BTreeMap::new();
    env.insert("OUTPOSTS_LINES".into(), Secret::plain(lines.to_string()));
    Ok(provider
        .exec(id, &req(TAIL, env, Duration::from_secs(30)))
        .await?
        .stdout)
}

/// The log's bytes from `from`: `(file size, bytes)`.
pub async fn read_from(
    provider: &dyn Provider,
    id: &str,
    from: u64,
) -> Result<(u64, String), ProviderError> {
    let mut env = BTreeMap::new();
    env.insert("OUTPOSTS_FROM".into(), Secret::plain(from.to_string()));
    let out = provider
        .exec(id, &req(READ_FROM, env, Duration::from_secs(30)))
        .await?;
    let (size, rest) = out.stdout.split_once('\n').unwrap_or((&out.stdout, ""));
    Ok((size.trim().parse().unwrap_or(0), rest.to_string()))
}

fn last_line(stderr: &str, stdout: &str) -> String {
    [stderr, stdout]
        .iter()
        .find_map(|s| s.lines().rev().find(|l| !l.trim().is_empty()))
        .unwrap_or("no output")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_output_parses() {
        let s = parse_check("present=yes\nalive=no\nstate=waiting\nrestarts=4\nexit_code=1\n");
        assert_eq!(
            s,
            Supervisor {
                present: true,
                alive: false,
                state: "waiting".into(),
                restarts: 4,
                exit_code: Some(1)
            }
        );
        assert_eq!(parse_check("present=no\n"), Supervisor::default());
        assert_eq!(parse_check("garbage"), Supervisor::default());
    }

    #[test]
    fn scripts_take_values_from_the_environment() {
        for s in [SUPERVISOR, LAUNCH, CHECK, STOP, READ_FROM, TAIL] {
            assert!(!s.contains("TOKEN"), "no token handling in scripts");
        }
    }
}
