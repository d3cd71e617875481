//! The registered secret values, indexed by their first bytes (issue 35).
//!
//! Every claim and every renewal answer carries a new connect token, and each is registered:
//! a replica holding 10,000 sessions knows tens of thousands of values within minutes. Masking
//! them one by one (a substring search per value per log line) made each stderr line cost
//! O(values) — 43 % of a replica's CPU at 30,000 queued sessions, and claims waited on the
//! registry's lock behind it — and each registration re-sorted the whole list. Here a line is
//! scanned once: at each byte, only the values starting with the same `KEY` bytes are tried.

use std::collections::{HashMap, HashSet};

/// Bytes of a value's start it is indexed by: the shortest value registered.
pub(super) const KEY: usize = 6;

#[derive(Default)]
pub(super) struct Registry {
    /// Values by their first `KEY` bytes, longest first within each (a value containing another
    /// from the same start is masked whole).
    by_start: HashMap<[u8; KEY], Vec<String>>,
    known: HashSet<String>,
}

impl Registry {
    /// Add `value` (at least `KEY` bytes; shorter ones are ignored).
    pub(super) fn insert(&mut self, value: &str) {
        let Some(key) = key_of(value.as_bytes()) else {
            return;
        };
        if !self.known.insert(value.to_string()) {
            return;
        }
        let list = self.by_start.entry(key).or_default();
        let at = list.partition_point(|v| v.len() >= value.len());
        list.insert(at, value.to_string());
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
}
