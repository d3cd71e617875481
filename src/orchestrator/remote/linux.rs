//! The shell side of a Linux launch, in one exec: adopt a live remote of ours, else detect the
//! architecture, use the cached binary if it verifies or download and verify one (sha256,
//! inside the sandbox), and start it detached with only its documented environment — then say
//! what happened on one structured line the executor parses.
//!
//! Every value reaches the script through the exec's environment, never in its text; the
//! connect token is never on a command line.
//!
//! The PID-reuse guard identifies the *process*, not a file: the launch records the remote's pid
//! and its start time (field 22 of `/proc/<pid>/stat`, in clock ticks since boot), and adoption
//! and liveness compare both. A pid reused by another process has another start time; a remote
//! that is a script (its `/proc/<pid>/exe` is the shell) or whose cached file was replaced or
//! deleted while it runs (`… (deleted)`) is still the same process. The executable path is only
//! a diagnostic, written to the remote's log.

/// Shell functions both scripts use. `started PID` prints the process's start time, or fails
/// when it is gone or a zombie. The command name (field 2) may hold spaces and parentheses, so
/// the fields are split after the *last* `)`: field 3 (state) comes first, field 22 is the 20th.
macro_rules! identity_fns {
    () => {
        r#"started() {
  s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  s=${s##*\)}
  set -- $s
  [ $# -ge 20 ] && [ "$1" != Z ] || return 1
  shift 19
  echo "$1"
}
# Ours: the recorded pid still has the recorded start time. A run dir written by an older
# launcher records no start time; there the executable is all we have (its former guard).
ours() {
  [ -n "$1" ] || return 1
  if [ -n "$2" ]; then
    [ "$(started "$1" || true)" = "$2" ]
  else
    [ -n "$3" ] && [ "$(readlink "/proc/$1/exe" 2>/dev/null || true)" = "$3" ]
  fi
}
"#
    };
}

/// The pick-verify-download step both the launch and the warm-up ([`PREFETCH`]) run: sets `bin`
/// to the verified binary for this architecture and `cached` to `yes` (already there) or `no`.
macro_rules! fetch_remote {
    () => {
        r#"  case "$(uname -m)" in
    aarch64 | arm64) suffix=linux_arm64 ;;
    *) suffix=linux_x64 ;;
  esac
  eval "want=\${OUTPOSTS_SHA256_$suffix:-}"
  if [ -z "$want" ]; then
    say "result=error stage=arch"
    echo "no published devin-remote build for $suffix" >&2
    exit 3
  fi
  dir="$HOME/.devin/remote/cache"
  name="devin-remote_${OUTPOSTS_REMOTE_SHA}_$suffix"
  bin="$dir/$name"
  mkdir -p "$dir"
  if [ -f "$bin" ] && echo "$want  $bin" | sha256sum -c --status 2>/dev/null; then
    cached=yes
  else
    cached=no
    # A partial file of its own, so two launches never write one file.
    part="$bin.partial.$$"
    rm -f "$part"
    if ! curl -fsSL --retry 3 --connect-timeout 20 -o "$part" "$OUTPOSTS_REMOTE_BASE/$name"; then
      rm -f "$part"
      say "result=error stage=download"
      echo "download failed: $OUTPOSTS_REMOTE_BASE/$name" >&2
      exit 3
    fi
    if ! echo "$want  $part" | sha256sum -c --status; then
      got=$(sha256sum "$part" | cut -d' ' -f1)
      rm -f "$part"
      say "result=error stage=checksum"
      echo "checksum mismatch: expected $want, got $got" >&2
      exit 4
    fi
    chmod 0755 "$part"
    mv -f "$part" "$bin"
  fi
"#
    };
}

/// Env: OUTPOSTS_SAFE_ID, OUTPOSTS_WORKDIR, OUTPOSTS_LAUNCH (`remote` | `cli`); for `remote`
/// OUTPOSTS_REMOTE_SHA, OUTPOSTS_REMOTE_BASE and OUTPOSTS_SHA256_<suffix> per Linux suffix;
/// plus the remote's own variables. Prints `outposts-launch result=… …` last.
pub(super) const LAUNCH: &str = concat!(
    "set -eu\n",
    identity_fns!(),
    r#"run="$HOME/.devin-outposts/$OUTPOSTS_SAFE_ID"
mkdir -p "$run"
say() { echo "outposts-launch $*"; }
# A live remote of ours is never launched twice: the recorded pid is still the process we started.
if [ -f "$run/remote.pid" ]; then
  pid=$(cat "$run/remote.pid" 2>/dev/null || true)
  start=$(cat "$run/remote.start" 2>/dev/null || true)
  old=$(cat "$run/remote.bin" 2>/dev/null || true)
  if ours "$pid" "$start" "$old"; then
    echo "outposts: adopted the running remote pid=$pid start=$start exe=$(readlink "/proc/$pid/exe" 2>/dev/null || echo '?') launched-from=$old" >> "$run/remote.log"
    say "result=running pid=$pid"
    exit 0
  fi
fi
mode="$OUTPOSTS_LAUNCH"
cached=none
if [ "$mode" = cli ]; then
  bin=$(command -v devin || true)
  if [ -z "$bin" ]; then
    say "result=error stage=cli"
    echo "devin CLI not found on PATH in the sandbox" >&2
    exit 5
  fi
else
"#,
    fetch_remote!(),
    r#"fi
# The resolved file, for the log (a diagnostic: the guard is the start time); the process still
# starts under its own name (a multi-call binary decides by argv[0]).
exe=$(readlink -f "$bin")
workdir="$OUTPOSTS_WORKDIR"
# A state dir of its own per session (the shared fallbacks would mix sessions).
DEVIN_REMOTE_STATE_DIR="$HOME/.devin/remote/sessions/$OUTPOSTS_SAFE_ID"
export DEVIN_REMOTE_STATE_DIR
if [ "$mode" = cli ]; then
  DEVIN_WORKER_CACHE_DIR="$HOME/.devin/worker/cache"
  export DEVIN_WORKER_CACHE_DIR
fi
mkdir -p "$workdir" "$DEVIN_REMOTE_STATE_DIR"
rm -f "$run/remote.exit" "$run/remote.pid" "$run/remote.start"
echo "$exe" > "$run/remote.bin"
cd "$workdir"
# Only the documented variables reach the remote; everything else would leak into the agent's
# shell. Values never pass through a command line.
for v in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p'); do
  case "$v" in
    PATH|HOME|USER|LOGNAME|TMPDIR|LANG|TZ|DISPLAY|WAYLAND_DISPLAY|XAUTHORITY) ;;
    DEVIN_OUTPOST_GATEWAY_URL|DEVIN_OUTPOST_CONNECT_TOKEN|DEVIN_OUTPOST_SESSION_ID|DEVIN_REMOTE_STATE_DIR) ;;
    DEVIN_CHROME_PATH|DEVIN_OUTPOST_DESKTOP) ;;
    # Set only by the local provider in an unisolated sandbox: where the sandbox's `/` is.
    OUTPOSTS_SANDBOX_ROOT) ;;
    DEVIN_REMOTE_SESSION_TOKEN|DEVIN_WORKER_REMOTE_SHA|DEVIN_WORKER_CACHE_DIR|DEVIN_OUTPOSTS_TOKEN) [ "$mode" = cli ] || unset "$v" ;;
    *) unset "$v" 2>/dev/null || true ;;
  esac
done
# A small wrapper records the remote's own pid and start time — the start time first, and each
# file by rename, so a pid file is never without its identity — and, when it ends, its exit code.
# shellcheck disable=SC2016
wrap='r=$1; shift; "$@" & p=$!
s=$(cat "/proc/$p/stat" 2>/dev/null || true); s=${s##*\)}; set -- $s
if [ $# -ge 20 ]; then shift 19; echo "$1" > "$r/remote.start.tmp" && mv -f "$r/remote.start.tmp" "$r/remote.start"; fi
echo $p > "$r/remote.pid.tmp" && mv -f "$r/remote.pid.tmp" "$r/remote.pid"
wait $p; echo $? > "$r/remote.exit"'
# A session of its own (setsid, where the image has it): the remote must outlive this exec even
# when the exec is cancelled with its process group (the orchestrator died mid-launch) — else a
# remote that already attached dies, and the next launch attaches a second one.
detach=nohup
if command -v setsid >/dev/null 2>&1; then detach="setsid nohup"; fi
if [ "$mode" = cli ]; then
  $detach sh -c "$wrap" wrapper "$run" "$bin" worker start --session "$DEVIN_OUTPOST_SESSION_ID" >> "$run/remote.log" 2>&1 < /dev/null &
else
  $detach sh -c "$wrap" wrapper "$run" "$bin" serve >> "$run/remote.log" 2>&1 < /dev/null &
fi
i=0
while [ ! -s "$run/remote.pid" ] && [ "$i" -lt 100 ]; do
  sleep 0.05
  i=$((i + 1))
done
pid=$(cat "$run/remote.pid" 2>/dev/null || echo 0)
echo "outposts: launched the remote pid=$pid start=$(cat "$run/remote.start" 2>/dev/null || echo '?') binary=$exe" >> "$run/remote.log"
say "result=launched pid=$pid cached=$cached"
"#
);

/// Warm-up of a warm sandbox: put the build's verified binary where [`LAUNCH`] looks for it, so
/// the session handed the sandbox launches with `cached=yes` and no download. Env:
/// OUTPOSTS_REMOTE_SHA, OUTPOSTS_REMOTE_BASE, OUTPOSTS_SHA256_<suffix>. Prints
/// `outposts-launch result=fetched cached=…` last.
pub(super) const PREFETCH: &str = concat!(
    "set -eu\n",
    r#"say() { echo "outposts-launch $*"; }
"#,
    fetch_remote!(),
    r#"say "result=fetched cached=$cached"
"#
);

/// Prints `running <pid>`, `exited <code>` or `absent`. A pid counts only while it has the start
/// time recorded at launch (the PID-reuse guard, see the module doc). Env: OUTPOSTS_SAFE_ID.
pub(super) const CHECK: &str = concat!(
    identity_fns!(),
    r#"run="$HOME/.devin-outposts/$OUTPOSTS_SAFE_ID"
pid=$(cat "$run/remote.pid" 2>/dev/null || true)
start=$(cat "$run/remote.start" 2>/dev/null || true)
bin=$(cat "$run/remote.bin" 2>/dev/null || true)
if ours "$pid" "$start" "$bin"; then
  echo "running $pid"
  exit 0
fi
# The wrapper writes the exit code a moment after the remote ends.
[ -f "$run/remote.exit" ] || sleep 0.2
if [ -f "$run/remote.exit" ]; then
  echo "exited $(cat "$run/remote.exit")"
else
  echo absent
fi
"#
);

/// The last lines of the remote's log. Env: OUTPOSTS_SAFE_ID, OUTPOSTS_LINES.
pub(super) const LOG_TAIL: &str = r#"tail -n "$OUTPOSTS_LINES" "$HOME/.devin-outposts/$OUTPOSTS_SAFE_ID/remote.log" 2>/dev/null || true"#;

/// What the launch line said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launched {
    /// A live remote of ours was already running: nothing was started.
    Running { pid: u32 },
    /// Started; `cached` says whether a verified cached binary was used (`None`: the CLI).
    Started { pid: u32, cached: Option<bool> },
}

/// The `outposts-launch result=… …` line (the last one), as key/value pairs.
pub(super) fn parse_launch(stdout: &str) -> Option<(String, Vec<(String, String)>)> {
    let line = stdout
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("outposts-launch "))?;
    let pairs: Vec<(String, String)> = line
        .split_whitespace()
        .filter_map(|w| w.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let result = pairs.iter().find(|(k, _)| k == "result")?.1.clone();
    Some((result, pairs))
}
