//! The cost ledger on disk: `cost-ledger.jsonl` in the outpost's state dir, one JSON
//! [`Entry`] a line, appended and fsynced as each sandbox changes state, so the numbers are
//! right after a crash (a `kill -9` loses at most a line being written, which the reader
//! skips). Bounded: past [`COMPACT_AT`] bytes, or twice its size after the last compaction
//! when that is more, the file is rewritten (temp, fsync, rename) in its compacted form, closed
//! stretches folded into one line per session and day and days older than [`RETENTION_DAYS`]
//! dropped. Never a secret: ids, states, resources and prices.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::prices::{CostState, Prices, Resources};
use super::tally::{DAY, Entry, Mark, Tally};

/// The ledger's file name in an outpost's state dir.
pub const FILE: &str = "cost-ledger.jsonl";
/// Rewrite the file in compacted form once it grows past this (or past twice its compacted
/// size: 5,414 open sessions compacted to 1.7 MB, and a fixed bound rewrote it at every line).
pub const COMPACT_AT: u64 = 1 << 20;
/// Days of history a compaction keeps.
pub const RETENTION_DAYS: f64 = 400.0;

/// Read a ledger file; a missing file is an empty ledger, unreadable lines are counted.
pub fn read(path: &Path) -> Result<Tally> {
    let mut tally = Tally::default();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(tally),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    for line in BufReader::new(file).split(b'\n') {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Entry>(&line) {
            Ok(e) => tally.apply(&e),
            Err(_) => tally.unreadable += 1,
        }
    }
    Ok(tally)
}

/// Every ledger under a state dir (`outposts/*/cost-ledger.jsonl`), replayed into one tally.
pub fn read_all(state_dir: &Path) -> Result<Tally> {
    let mut all = Tally::default();
    let Ok(dirs) = std::fs::read_dir(state_dir.join("outposts")) else {
        return Ok(all);
    };
    let mut paths: Vec<PathBuf> = dirs
        .flatten()
        .map(|d| d.path().join(FILE))
        .filter(|p| p.exists())
        .collect();
    paths.sort();
    for p in paths {
        let t = read(&p)?;
        all.unreadable += t.unreadable;
        all.sessions.extend(t.sessions);
    }
    Ok(all)
}

/// The orchestrator's writer: what one outpost's sandboxes cost, as they change state.
#[derive(Debug)]
pub struct Ledger {
    path: PathBuf,
    file: File,
    tally: Tally,
    outpost: String,
    provider: String,
    prices: Prices,
    resources: Resources,
    /// The size past which the file is next compacted.
    compact_at: u64,
    /// The least that is ([`COMPACT_AT`]; smaller in tests).
    compact_floor: u64,
}

impl Ledger {
    /// Open (and create) the ledger in `dir`, replaying what it holds; compacts it first when
    /// it has grown past [`COMPACT_AT`].
    pub fn open(
        dir: &Path,
        outpost: &str,
        provider: &str,
        prices: Prices,
        resources: Resources,
        now: f64,
    ) -> Result<Ledger> {
        let path = dir.join(FILE);
        let tally = read(&path)?;
        if tally.unreadable > 0 {
            tracing::warn!(
                "{}: {} unreadable line(s) skipped (a write cut short by a crash?)",
                path.display(),
                tally.unreadable
            );
        }
        let file = open_append(&path)?;
        let mut ledger = Ledger {
            path,
            file,
            tally,
            outpost: outpost.to_string(),
            provider: provider.to_string(),
            prices,
            resources,
            compact_at: COMPACT_AT,
            compact_floor: COMPACT_AT,
        };
        if ledger.file.metadata()?.len() > ledger.compact_at {
            ledger.compact(now)?;
        }
        Ok(ledger)
    }

    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    pub fn prices(&self) -> &Prices {
        &self.prices
    }

    /// Record that `session`'s sandbox is in `mark` from `at` on; nothing is written when the
    /// ledger already says so.
    pub fn mark(&mut self, session: &str, sandbox: &str, mark: Mark, at: f64) -> Result<()> {
        let key = (self.outpost.clone(), session.to_string());
        if let Some(last) = self.tally.sessions.get(&key).and_then(|t| t.last.as_ref())
            && last.mark == mark
            && (last.sandbox == sandbox || mark == Mark::Gone)
        {
            return Ok(());
        }
        if mark == Mark::Gone && !self.tally.sessions.contains_key(&key) {
            return Ok(());
        }
        let usd_per_hour = mark
            .billed()
            .map_or(0.0, |s| self.prices.hourly(&self.resources, s));
        self.append(Entry::State {
            at,
            outpost: self.outpost.clone(),
            provider: self.provider.clone(),
            session: session.to_string(),
            sandbox: sandbox.to_string(),
            mark,
            resources: self.resources,
            usd_per_hour,
        })?;
        if self.file.metadata()?.len() > self.compact_at {
            self.compact(at)?;
        }
        Ok(())
    }

    /// Record Devin's own usage of `session` (ACUs as v3 reports them).
    pub fn usage(&mut self, session: &str, acus: f64, at: f64) -> Result<()> {
        let key = (self.outpost.clone(), session.to_string());
        if self.tally.sessions.get(&key).and_then(|t| t.acus) == Some(acus) {
            return Ok(());
        }
        self.append(Entry::Usage {
            at,
            outpost: self.outpost.clone(),
            session: session.to_string(),
            acus,
        })
    }

    /// The state a session's sandbox is billed in now.
    pub fn billed_now(&self, session: &str) -> Option<CostState> {
        self.tally
            .sessions
            .get(&(self.outpost.clone(), session.to_string()))?
            .billed_now()
            .map(|(s, _)| s)
    }

    fn append(&mut self, e: Entry) -> Result<()> {
        let mut line = serde_json::to_vec(&e)?;
        line.push(b'\n');
        // One write of the whole line: a crash leaves it whole or cut short, never interleaved.
        self.file
            .write_all(&line)
            .and_then(|()| self.file.sync_data())
            .with_context(|| format!("cannot append to {}", self.path.display()))?;
        self.tally.apply(&e);
        Ok(())
    }

    /// Rewrite the file in compacted form (same sums, bounded size).
    pub fn compact(&mut self, now: f64) -> Result<()> {
        let mut tally = Tally::default();
        crate::orchestrator::state::write_atomic_with(&self.path, |w| {
            self.tally.each_compacted(now - RETENTION_DAYS * DAY, |e| {
                serde_json::to_writer(&mut *w, &e)?;
                w.write_all(b"\n")?;
                tally.apply(&e);
                Ok(())
            })
        })?;
        self.file = open_append(&self.path)?;
        self.tally = tally;
        self.compact_at = self.compact_floor.max(2 * self.file.metadata()?.len());
        Ok(())
    }
}

/// Open for appending (0600); a last line cut short by a crash is ended first, so the next
/// line is not glued to it.
fn open_append(path: &Path) -> Result<File> {
    let mut opts = OpenOptions::new();
    opts.create(true).append(true).read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let mut f = opts
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let len = f.metadata()?.len();
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::Start(len - 1))?;
        f.read_exact(&mut last)?;
        if last[0] != b'\n' {
            f.write_all(b"\n")?;
            f.sync_data()?;
        }
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RES: Resources = Resources {
        cpu: 1.0,
        memory_gib: 1.0,
        disk_gib: 10.0,
    };

    fn open(dir: &Path) -> Ledger {
        Ledger::open(dir, "o", "daytona", Prices::daytona(), RES, 0.0).unwrap()
    }

    #[test]
    fn marks_are_appended_once_and_survive_a_reopen() {
        let d = tempfile::tempdir().unwrap();
        let mut l = open(d.path());
        l.mark("s", "sb", Mark::Running, 100.0).unwrap();
        l.mark("s", "sb", Mark::Running, 150.0).unwrap();
        l.mark("s", "sb", Mark::Stopped, 400.0).unwrap();
        l.mark("never", "x", Mark::Gone, 400.0).unwrap();
        let text = std::fs::read_to_string(d.path().join(FILE)).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        let l = open(d.path());
        let (secs, usd) = l.tally().sessions[&("o".into(), "s".into())].sum(0.0, 500.0);
        assert_eq!((secs.running, secs.stopped), (300.0, 100.0));
        let running = Prices::daytona().hourly(&RES, CostState::Running);
        assert!((usd.running - running * 300.0 / 3600.0).abs() < 1e-12);
        assert_eq!(l.billed_now("s"), Some(CostState::Stopped));
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_the_next_line_is_whole() {
        let d = tempfile::tempdir().unwrap();
        let mut l = open(d.path());
        l.mark("s", "sb", Mark::Running, 100.0).unwrap();
        drop(l);
        // A crash in the middle of a write.
        let path = d.path().join(FILE);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"kind":"state","at":200.0,"outp"#).unwrap();
        drop(f);
        let mut l = open(d.path());
        assert_eq!(l.tally().unreadable, 1);
        l.mark("s", "sb", Mark::Stopped, 300.0).unwrap();
        let t = read(&path).unwrap();
        assert_eq!(t.unreadable, 1);
        // The stop after the torn line counts: 200 s running, then stopped.
        let (secs, _) = t.sessions[&("o".into(), "s".into())].sum(0.0, 500.0);
        assert_eq!((secs.running, secs.stopped), (200.0, 200.0));
    }

    /// A ledger whose compacted form is over the bound (many open sessions) is appended to,
    /// not rewritten at every line, until it has doubled.
    #[cfg(unix)]
    #[test]
    fn a_compacted_ledger_over_the_bound_is_appended_to_until_it_doubles() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join(FILE);
        let mut l = open(d.path());
        l.compact_floor = 2048;
        l.compact_at = 2048;
        let mut rewrites = 0;
        let mut inode = None::<u64>;
        for i in 0..60 {
            l.mark(
                &format!("s{i:02}"),
                "sb",
                Mark::Running,
                100.0 + f64::from(i),
            )
            .unwrap();
            let now = file_id(&std::fs::metadata(&path).unwrap());
            if inode.is_some_and(|id| id != now) {
                rewrites += 1;
            }
            inode = Some(now);
        }
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size > 2048 * 4, "{size} bytes");
        // Sixty open sessions, no line foldable: each rewrite at least doubles what follows it.
        assert!(
            (1..=4).contains(&rewrites),
            "rewritten {rewrites} times for 60 lines"
        );
        let t = read(&path).unwrap();
        assert_eq!(t.sessions.len(), 60);
        assert_eq!(l.billed_now("s59"), Some(CostState::Running));
    }

    /// What tells a rewritten file (a rename over it) from an appended one.
    #[cfg(unix)]
    fn file_id(m: &std::fs::Metadata) -> u64 {
        std::os::unix::fs::MetadataExt::ino(m)
    }

    #[test]
    fn compaction_bounds_the_file_and_keeps_the_numbers() {
        let d = tempfile::tempdir().unwrap();
        let mut l = open(d.path());
        let mut at = 1000.0;
        for i in 0..300 {
            let s = format!("s{}", i % 3);
            l.mark(&s, "sb", Mark::Running, at).unwrap();
            l.mark(&s, "sb", Mark::Stopped, at + 10.0).unwrap();
            at += 20.0;
        }
        let before = l.tally().by_provider(0.0, at);
        let lines_before = std::fs::read_to_string(d.path().join(FILE))
            .unwrap()
            .lines()
            .count();
        l.compact(at).unwrap();
        let text = std::fs::read_to_string(d.path().join(FILE)).unwrap();
        assert!(text.lines().count() < 10, "{} lines", text.lines().count());
        assert_eq!(lines_before, 600);
        let after = read(&d.path().join(FILE)).unwrap().by_provider(0.0, at);
        let (b, a) = (&before["daytona"], &after["daytona"]);
        assert!((b.0.running - a.0.running).abs() < 1e-6);
        assert!((b.1.total() - a.1.total()).abs() < 1e-9);
        // Still appendable after the rename.
        l.mark("s0", "sb", Mark::Running, at).unwrap();
        assert_eq!(open(d.path()).billed_now("s0"), Some(CostState::Running));
    }
}
