//! The registered secret values, indexed by their first bytes (issue 35).
//!
//! Every claim and every renewal answer carries a new connect token, and each is registered:
//! a replica holding 10,000 sessions knows tens of thousands of values within minutes. Masking
//! them one by one (a substring search per value per log line) made each stderr line cost
//! O(values) — 43 % of a replica's CPU at 30,000 queued sessions, and claims waited on the
//! registry's lock behind it — and each registration re-sorted the whole list. Here a line is
//! scanned once: at each byte, only the values starting with the same `KEY` bytes are tried.
//!
//! Values come two ways. Configuration secrets are registered for good ([`Registry::insert`]).
//! Connect tokens are leased ([`Registry::lease`]): counted while some copy of them is held in
//! memory, and forgotten [`GRACE`] after the last copy is dropped — a replica renewing 10,000
//! claims every four minutes otherwise keeps every token it was ever sent (309–325 MiB per
//! replica at 30,000 over three).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bytes of a value's start it is indexed by: the shortest value registered.
pub(super) const KEY: usize = 6;

/// How long a leased value stays masked after its last in-memory copy is dropped. Once no copy
/// is held, only text already formed from one can still carry it — a log line or error message
/// being rendered on another task as the copy went — and that is written within moments; a
/// minute covers a replica starved of CPU. Bounded, so the values kept are those held plus the
/// last minute's renewals.
pub(super) const GRACE: Duration = Duration::from_secs(60);

/// What keeps a value registered.
#[derive(Debug, Default)]
struct Hold {
    /// Registered for good (configuration): never forgotten.
    permanent: bool,
    /// Live leases (copies of a leased [`super::Secret`] share one).
    leases: u32,
    /// When the last lease ended: forgotten `GRACE` later unless leased again.
    ended: Option<Instant>,
}

#[derive(Default)]
pub(super) struct Registry {
    /// Values by their first `KEY` bytes, longest first within each (a value containing another
    /// from the same start is masked whole). The text is shared with `holds`: stored once.
    by_start: HashMap<[u8; KEY], Vec<Arc<str>>>,
    holds: HashMap<Arc<str>, Hold>,
    /// Leased values whose last lease ended, oldest first (an entry leased again since is
    /// skipped when its turn comes).
    ending: VecDeque<(Instant, Arc<str>)>,
}

impl Registry {
    /// Register `value` for good (at least `KEY` bytes; shorter ones are ignored).
    pub(super) fn insert(&mut self, value: &str) {
        if let Some(v) = self.add(value) {
            self.holds.entry(v).or_default().permanent = true;
        }
    }

    /// Register `value` until [`Self::release`] has been called as often as this (and `GRACE`
    /// has passed); the shared text, or `None` when too short to register.
    pub(super) fn lease(&mut self, value: &str, now: Instant) -> Option<Arc<str>> {
        self.forget_ended(now);
        let v = self.add(value)?;
        let hold = self.holds.entry(v.clone()).or_default();
        hold.leases += 1;
        hold.ended = None;
        Some(v)
    }

    /// One lease of `value` ended at `now`.
    pub(super) fn release(&mut self, value: &Arc<str>, now: Instant) {
        if let Some(hold) = self.holds.get_mut(value) {
            hold.leases = hold.leases.saturating_sub(1);
            if hold.leases == 0 && !hold.permanent {
                hold.ended = Some(now);
                self.ending.push_back((now, value.clone()));
            }
        }
        self.forget_ended(now);
    }

    /// Values registered now (held, permanent, or in their grace period).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.holds.len()
    }

    /// The registered text equal to `value`, adding it to the index if new.
    fn add(&mut self, value: &str) -> Option<Arc<str>> {
        let key = key_of(value.as_bytes())?;
        if let Some((v, _)) = self.holds.get_key_value(value) {
            return Some(v.clone());
        }
        let v: Arc<str> = Arc::from(value);
        let list = self.by_start.entry(key).or_default();
        let at = list.partition_point(|x| x.len() >= v.len());
        list.insert(at, v.clone());
        self.holds.insert(v.clone(), Hold::default());
        Some(v)
    }

    /// Forget the values whose last lease ended more than `GRACE` before `now`.
    fn forget_ended(&mut self, now: Instant) {
        while let Some((at, _)) = self.ending.front() {
            if now.saturating_duration_since(*at) < GRACE {
                break;
            }
            let Some((at, v)) = self.ending.pop_front() else {
                break;
            };
            let over = self
                .holds
                .get(&v)
                .is_some_and(|h| h.leases == 0 && !h.permanent && h.ended == Some(at));
            if !over {
                continue;
            }
            self.holds.remove(&v);
            if let Some(key) = key_of(v.as_bytes())
                && let Some(list) = self.by_start.get_mut(&key)
            {
                list.retain(|x| !Arc::ptr_eq(x, &v));
                if list.is_empty() {
                    self.by_start.remove(&key);
                }
            }
        }
    }

    /// `text` with every registered value replaced by `mask`, left to right, the longest value
    /// at each place first; `None` when nothing matched.
    pub(super) fn mask(&self, text: &str, mask: &str) -> Option<String> {
        if self.by_start.is_empty() {
            return None;
        }
        let bytes = text.as_bytes();
        let mut out: Option<String> = None;
        // Where the text not yet copied to `out` starts.
        let mut copied = 0;
        let mut i = 0;
        while i + KEY <= bytes.len() {
            let hit = key_of(&bytes[i..])
                .and_then(|k| self.by_start.get(&k))
                .and_then(|list| list.iter().find(|v| bytes[i..].starts_with(v.as_bytes())));
            match hit {
                // A value starts on a character boundary (UTF-8 never matches mid-character),
                // so the slices below are whole characters.
                Some(v) => {
                    let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
                    o.push_str(&text[copied..i]);
                    o.push_str(mask);
                    i += v.len();
                    copied = i;
                }
                None => i += 1,
            }
        }
        let mut o = out?;
        o.push_str(&text[copied..]);
        Some(o)
    }
}

fn key_of(bytes: &[u8]) -> Option<[u8; KEY]> {
    bytes.get(..KEY)?.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::Registry;

    fn reg(values: &[&str]) -> Registry {
        let mut r = Registry::default();
        for v in values {
            r.insert(v);
        }
        r
    }

    #[test]
    fn masks_each_registered_value_wherever_it_is() {
        let r = reg(&[
            "tok-aaaaaa",
            "tok-aaaaaa-longer",
            "other-secret",
            "tok-aaaaaa",
        ]);
        let cases = [
            ("nothing here", None),
            ("tok-aaaaaa", Some("#")),
            ("a tok-aaaaaa b tok-aaaaaa", Some("a # b #")),
            // The longer value that contains the shorter is masked whole.
            ("x tok-aaaaaa-longer y", Some("x # y")),
            ("other-secrettok-aaaaaa.", Some("##.")),
            ("tok-aaaaa (one byte short)", None),
            ("é tok-aaaaaa ü", Some("é # ü")),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(r.mask(text, "#").as_deref(), want, "{text:?}");
        }
        assert!(reg(&[]).mask("tok-aaaaaa", "#").is_none());
        // Shorter than the index key: never registered.
        assert!(reg(&["abc"]).mask("abc abc", "#").is_none());
    }

    /// Many values cost a line no more than a few: 50,000 registered tokens, each still masked.
    #[test]
    fn fifty_thousand_values_are_each_masked() {
        let mut r = Registry::default();
        let values: Vec<String> = (0..50_000).map(|i| format!("ct-{i:08x}-x")).collect();
        for v in &values {
            r.insert(v);
        }
        for v in values.iter().step_by(997) {
            let line = format!("claimed with {v} now");
            assert_eq!(r.mask(&line, "#").as_deref(), Some("claimed with # now"));
        }
    }

    /// A leased token is masked while held and forgotten `GRACE` after its last lease ends; a
    /// token still held (another lease, leased again, or registered for good) stays masked.
    #[test]
    fn a_leased_value_is_forgotten_a_grace_period_after_its_last_lease() {
        use super::GRACE;
        use std::time::{Duration, Instant};
        let sec = Duration::from_secs(1);
        let t0 = Instant::now();
        let mut r = Registry::default();
        r.insert("config-secret-1");
        let old = r.lease("ct_old_token_1", t0).expect("registered");
        let kept = r.lease("ct_kept_token", t0).expect("registered");
        // The same value leased twice (a claim answer and its copy in the view): one entry.
        let twice = r.lease("ct_kept_token", t0).expect("registered");
        assert!(std::sync::Arc::ptr_eq(&kept, &twice));
        assert_eq!(r.len(), 3);
        let line = "old ct_old_token_1 kept ct_kept_token cfg config-secret-1";
        let all = Some("old # kept # cfg #");
        assert_eq!(r.mask(line, "#").as_deref(), all);
        // A renewal replaced the old token; the kept one lost one of its two copies.
        r.release(&old, t0);
        r.release(&kept, t0);
        // Inside the grace period: a line formed from the old token is still masked.
        r.lease("ct_trigger_a", t0 + GRACE - sec);
        assert_eq!(r.mask(line, "#").as_deref(), all);
        // After it the old token is gone from the registry entirely; the held one stays.
        r.lease("ct_trigger_b", t0 + GRACE + sec);
        assert_eq!(
            r.mask(line, "#").as_deref(),
            Some("old ct_old_token_1 kept # cfg #")
        );
        assert!(!r.holds.contains_key("ct_old_token_1"));
        assert!(
            r.by_start
                .values()
                .flatten()
                .all(|v| &**v != "ct_old_token_1")
        );
        // Its last copy dropped, then leased again inside the grace period: still held.
        let t1 = t0 + GRACE * 2;
        r.release(&twice, t1);
        let again = r.lease("ct_kept_token", t1 + sec).expect("registered");
        r.lease("ct_trigger_c", t1 + GRACE * 2);
        assert_eq!(r.mask("ct_kept_token", "#").as_deref(), Some("#"));
        r.release(&again, t1 + GRACE * 2);
        r.lease("ct_trigger_d", t1 + GRACE * 4);
        assert_eq!(r.mask("ct_kept_token", "#"), None);
        // Registered for good: never forgotten, leased or not.
        let cfg = r.lease("config-secret-1", t1).expect("registered");
        r.release(&cfg, t1);
        r.lease("ct_trigger_e", t1 + GRACE * 8);
        assert_eq!(r.mask("config-secret-1", "#").as_deref(), Some("#"));
    }
}
