//! The shell side of the sleep-integrity proof: two POSIX `sh` scripts run through the
//! provider's exec, like the remote's launch (values come in the exec's environment, never in
//! the script's text).
//!
//! The manifest is built *inside* the sandbox, because that is where the files are: sending
//! 20,000 paths through a provider's exec API and back would cost more than hashing them. It is
//! kept beside the workspace, in `$HOME/.outposts-integrity/manifest` — the home survives a sleep
//! on every provider (CoreWeave keeps it on the workspace volume) — so a wake can name the paths
//! that differ; the state dir keeps only its digest and counts.
//!
//! One manifest line per regular file or symlink under the working tree and the home:
//! `path<TAB>size<TAB>mode<TAB>mtime<TAB>sha256`, sorted (`LC_ALL=C`). A symlink's mtime is `-`
//! (a restore re-creates links with the time of the restore), and so is the hash of a file past
//! the hashing budget: size, mode and mtime still catch most changes there. Paths holding a tab
//! or a newline break the line format; they compare equal to themselves, so they can only be
//! missed, never reported falsely. Our own directories are left out: the manifest's, and the
//! remote's run directory (`$HOME/.devin-outposts`, rewritten by every launch).
//!
//! Bounds (see `INTEGRITY_*` in `env.rs`): at most `OUTPOSTS_INTEGRITY_MAX_FILES` files (the
//! first ones the walk finds: a partial manifest is still a proof for what it lists), hashes only
//! for files up to 8 MiB and until `OUTPOSTS_INTEGRITY_HASH_BYTES` bytes are hashed, and
//! `timeout` around the walk and around the hashing (each `OUTPOSTS_INTEGRITY_SECONDS`): a
//! timed-out walk keeps what it listed, a timed-out hashing leaves the rest unhashed.
//!
//! GNU `find`/`xargs`/`stat`/`sha256sum`/`sort`/`comm` and `awk` are needed (any Debian- or
//! Ubuntu-based image has them); without one the sleep records `unchecked` and says which.

/// What both scripts share: the manifest's directory, tool checks, `describe` (stat + hash a
/// NUL-separated path list into manifest lines, sorted).
macro_rules! common {
    () => {
        r#"set -u
export LC_ALL=C
d="$HOME/.outposts-integrity"
say() { echo "outposts-integrity $*"; }
for t in find xargs stat sha256sum sort comm awk tr head cut wc; do
  command -v "$t" >/dev/null 2>&1 || { say "result=unchecked reason=no-$t"; exit 0; }
done
to=""
command -v timeout >/dev/null 2>&1 && to="timeout $OUTPOSTS_INTEGRITY_SECONDS"
# stdin: NUL-separated paths; $1: awk filter choosing what to hash; out: manifest lines.
# (The joins test FILENAME, not NR == FNR: an empty hash list must not swallow the stat lines.)
describe() {
  xargs -0 -r stat -c '%n	%s	%A	%Y' 2>/dev/null | sort > "$d/stat"
  awk -F'	' -v max=8388608 -v budget="$OUTPOSTS_INTEGRITY_HASH_BYTES" "$1" "$d/stat" \
    | tr '\n' '\0' | $to xargs -0 -r sha256sum > "$d/hash" 2>/dev/null
  awk -F'	' 'FILENAME == ARGV[1] { h[substr($0, 67)] = substr($0, 1, 64); next }
    { m = $4; if (substr($3, 1, 1) == "l") m = "-"
      print $1 "\t" $2 "\t" $3 "\t" m "\t" (($1 in h) ? h[$1] : "-") }' "$d/hash" "$d/stat" | sort
  rm -f "$d/stat" "$d/hash"
}
"#
    };
}

/// Before a sleep. Env: OUTPOSTS_INTEGRITY_WORKDIR, _MAX_FILES, _HASH_BYTES, _SECONDS. Prints
/// `outposts-integrity result=recorded files=N hashed=H bytes=B digest=D truncated=no|count|time`
/// last (or `result=unchecked reason=…`).
pub(super) const RECORD: &str = concat!(
    common!(),
    r#"mkdir -p "$d" 2>/dev/null || { say "result=unchecked reason=no-home"; exit 0; }
rm -f "$d/manifest" "$d/list"
# The working tree and the home, each once (one may hold the other: CoreWeave's home is on the
# workspace volume, Daytona's workspace is in the home).
set -- "$HOME"
w="$OUTPOSTS_INTEGRITY_WORKDIR"
if [ -d "$w" ]; then
  case "$w/" in
    "$HOME"/*) ;;
    *) case "$HOME/" in "$w"/*) set -- "$w" ;; *) set -- "$w" "$HOME" ;; esac ;;
  esac
fi
max="$OUTPOSTS_INTEGRITY_MAX_FILES"
{
  $to find "$@" -xdev \( -path "$d" -o -path "$HOME/.devin-outposts" \) -prune \
    -o \( -type f -o -type l \) -print0 2>/dev/null
  echo "$?" > "$d/walk.rc"
} | head -z -n "$((max + 1))" > "$d/list"
n=$(tr -cd '\0' < "$d/list" | wc -c)
truncated=no
if [ "$n" -gt "$max" ]; then
  head -z -n "$max" "$d/list" > "$d/list.cut" && mv "$d/list.cut" "$d/list"
  truncated=count
elif [ "$(cat "$d/walk.rc" 2>/dev/null)" = 124 ]; then
  truncated=time
fi
describe '$2 <= max && substr($3, 1, 1) == "-" && sum + $2 <= budget { sum += $2; print $1 }' \
  < "$d/list" > "$d/manifest.tmp"
rm -f "$d/list" "$d/walk.rc"
mv "$d/manifest.tmp" "$d/manifest"
files=$(wc -l < "$d/manifest")
hashed=$(awk -F'	' '$5 != "-" { n++; b += $2 } END { printf "%d %d", n, b }' "$d/manifest")
say "result=recorded files=$files hashed=${hashed% *} bytes=${hashed#* } digest=$(sha256sum < "$d/manifest" | cut -c1-64) truncated=$truncated"
"#
);

/// After a wake, before the remote launches. Env: OUTPOSTS_INTEGRITY_HASH_BYTES, _SECONDS,
/// _DIFF_LINES. Describes again exactly the files the manifest lists (hashing those it hashed),
/// prints `outposts-integrity result=checked files=N digest=D differences=K`, then the first
/// _DIFF_LINES differing lines: `-line` as recorded, `+line` as found (a lost file has only the
/// `-`). Or `result=missing` when the manifest itself is gone.
pub(super) const CHECK: &str = concat!(
    common!(),
    r#"[ -f "$d/manifest" ] || { say "result=missing"; exit 0; }
digest=$(sha256sum < "$d/manifest" | cut -c1-64)
cut -f1 "$d/manifest" | tr '\n' '\0' \
  | describe 0 > "$d/now" 2>/dev/null
awk -F'	' '$5 != "-" { print $1 }' "$d/manifest" | tr '\n' '\0' \
  | $to xargs -0 -r sha256sum > "$d/now.hash" 2>/dev/null
awk -F'	' -v OFS='	' 'FILENAME == ARGV[1] { h[substr($0, 67)] = substr($0, 1, 64); next }
  { $5 = (($1 in h) ? h[$1] : "-"); print }' "$d/now.hash" "$d/now" | sort > "$d/now.full"
comm -3 "$d/manifest" "$d/now.full" > "$d/diff"
k=$(wc -l < "$d/diff")
say "result=checked files=$(wc -l < "$d/manifest") digest=$digest differences=$k"
head -n "$OUTPOSTS_INTEGRITY_DIFF_LINES" "$d/diff" | awk '{ if (substr($0, 1, 1) == "\t") print "+" substr($0, 2); else print "-" $0 }'
rm -f "$d/now" "$d/now.hash" "$d/now.full" "$d/diff"
"#
);
