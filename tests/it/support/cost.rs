//! `outposts cost` as the cost tests read it.

#![allow(dead_code)]

use crate::support::TestEnv;

/// `outposts cost --csv`, and its line for `key` (the row's first field), without the CR.
pub fn csv_line(env: &TestEnv, key: &str) -> (String, String) {
    let csv = env.run(&["cost", "--csv"]).ok().stdout.clone();
    let line = csv
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .find(|l| l.starts_with(&format!("{key},")))
        .unwrap_or_else(|| panic!("{csv}"))
        .to_string();
    (csv, line)
}
