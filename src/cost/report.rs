//! What `outposts cost` and `orchestrator status` show of the ledger: sums per session,
//! outpost or day over a window, and their CSV form. Pure: the tally and the clock come in.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::tally::{PerState, SessionTally, Tally, WARM_PREFIX, WARM_ROW, day_of, split_days};

/// How `outposts cost` groups its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum By {
    Session,
    Outpost,
    Day,
}

/// One row of `outposts cost`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct CostRow {
    /// The session id, the outpost id, or the UTC day (`YYYY-MM-DD`), after `--by`.
    pub key: String,
    /// The outpost (by session; empty when a day spans several).
    pub outpost: String,
    /// `daytona`, `coreweave` or `local` (empty when the row spans several).
    pub provider: String,
    /// Sandbox seconds per state within the window.
    pub seconds: PerState,
    /// USD per state within the window, at the prices recorded with each transition.
    pub usd: PerState,
    pub total_usd: f64,
    /// Devin's own usage (ACUs, as v3 reported it); `None`: not recorded.
    pub acus: Option<f64>,
}

/// Sums per provider.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct ProviderTotal {
    pub seconds: PerState,
    pub usd: PerState,
}

/// `outposts cost --json`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CostDoc {
    /// Window start (Unix seconds; 0 = the whole ledger).
    pub since: f64,
    /// Window end: when the report was made (open stretches are counted up to here).
    pub until: f64,
    pub by: By,
    pub rows: Vec<CostRow>,
    /// Sums of every row, per provider (the `outposts_sandbox_cost_usd` metric's labels).
    pub providers: BTreeMap<String, ProviderTotal>,
    pub total_usd: f64,
    /// Ledger lines that could not be read (a write cut short by a crash).
    pub unreadable_lines: usize,
}

/// Per-day sums of one session within `[since, until]`.
fn per_day(t: &SessionTally, since: f64, until: f64) -> BTreeMap<i64, (PerState, PerState)> {
    let mut out: BTreeMap<i64, (PerState, PerState)> = BTreeMap::new();
    for (day, (s, u)) in &t.days {
        if *day >= day_of(since) && (*day as f64) * super::tally::DAY <= until {
            let slot = out.entry(*day).or_default();
            slot.0.merge(s);
            slot.1.merge(u);
        }
    }
    for i in t.intervals_until(until) {
        let (from, to) = (i.from.max(since), i.to.min(until));
        for (day, a, b) in split_days(from, to) {
            let slot = out.entry(day).or_default();
            slot.0.add(i.state, b - a);
            slot.1.add(i.state, i.usd_per_hour * (b - a) / 3600.0);
        }
    }
    out
}

/// `YYYY-MM-DD` of a day number (days since 1970-01-01, UTC).
pub fn date(day: i64) -> String {
    // Civil-from-days (proleptic Gregorian), as in Howard Hinnant's date algorithms.
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The report over `[since, until]`, rows grouped `by`, sorted by key. Rows with nothing in
/// the window are left out.
pub fn report(tally: &Tally, since: f64, until: f64, by: By) -> CostDoc {
    let mut rows: BTreeMap<String, CostRow> = BTreeMap::new();
    let mut providers: BTreeMap<String, ProviderTotal> = BTreeMap::new();
    for ((outpost, session), t) in &tally.sessions {
        for (day, (secs, usd)) in per_day(t, since, until) {
            let p = providers.entry(t.provider.clone()).or_default();
            p.seconds.merge(&secs);
            p.usd.merge(&usd);
            let key = match by {
                // Idle warm sandboxes, one pseudo-session each, are one row.
                By::Session if session.starts_with(WARM_PREFIX) => WARM_ROW.to_string(),
                By::Session => session.clone(),
                By::Outpost => outpost.clone(),
                By::Day => date(day),
            };
            let row = rows.entry(key.clone()).or_insert_with(|| CostRow {
                key,
                outpost: outpost.clone(),
                provider: t.provider.clone(),
                ..CostRow::default()
            });
            if row.outpost != *outpost {
                row.outpost.clear();
            }
            if row.provider != t.provider {
                row.provider.clear();
            }
            row.seconds.merge(&secs);
            row.usd.merge(&usd);
        }
        if let Some(acus) = t.acus {
            let key = match by {
                By::Session => Some(session.clone()),
                By::Outpost => Some(outpost.clone()),
                By::Day => None,
            };
            if let Some(row) = key.and_then(|k| rows.get_mut(&k)) {
                row.acus = Some(row.acus.unwrap_or(0.0) + acus);
            }
        }
    }
    let mut rows: Vec<CostRow> = rows.into_values().collect();
    for r in &mut rows {
        r.total_usd = r.usd.total();
    }
    rows.retain(|r| r.seconds.total() > 0.0 || r.acus.is_some());
    // `+ 0.0`: an empty sum is -0.0, which would print as `-0`.
    let total_usd = providers.values().map(|p| p.usd.total()).sum::<f64>() + 0.0;
    CostDoc {
        since,
        until,
        by,
        rows,
        providers,
        total_usd,
        unreadable_lines: tally.unreadable,
    }
}

/// One CSV field, quoted as RFC 4180 asks: fields holding a comma, a quote, CR or LF are put in
/// quotes with their quotes doubled. (No `csv` crate in this project; this is all it needs.)
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The rows as CSV, CRLF line ends (RFC 4180), one header line.
pub fn csv(doc: &CostDoc) -> String {
    let mut out = String::from(
        "key,outpost,provider,running_seconds,stopped_seconds,archived_seconds,running_usd,\
         stopped_usd,archived_usd,total_usd,acus\r\n",
    );
    for r in &doc.rows {
        let fields = [
            csv_field(&r.key),
            csv_field(&r.outpost),
            csv_field(&r.provider),
            format!("{:.0}", r.seconds.running),
            format!("{:.0}", r.seconds.stopped),
            format!("{:.0}", r.seconds.archived),
            format!("{:.6}", r.usd.running),
            format!("{:.6}", r.usd.stopped),
            format!("{:.6}", r.usd.archived),
            format!("{:.6}", r.total_usd),
            r.acus.map(|a| a.to_string()).unwrap_or_default(),
        ];
        out.push_str(&fields.join(","));
        out.push_str("\r\n");
    }
    out
}

/// What `orchestrator status` shows of the ledger for the sessions it lists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct StatusCost {
    /// USD so far per session shown (its sandbox's whole recorded life).
    pub sessions: BTreeMap<String, f64>,
    pub total_usd: f64,
    /// What the sessions shown cost per hour as they are now.
    pub usd_per_hour: f64,
}

/// The ledger's sums for `sessions`.
pub fn status_cost<'a>(
    tally: &Tally,
    outpost: &str,
    sessions: impl IntoIterator<Item = &'a str>,
    now: f64,
) -> StatusCost {
    let mut out = StatusCost::default();
    for s in sessions {
        let Some(t) = tally.sessions.get(&(outpost.to_string(), s.to_string())) else {
            continue;
        };
        let usd = t.sum(0.0, now).1.total();
        out.sessions.insert(s.to_string(), usd);
        out.total_usd += usd;
        out.usd_per_hour += t.billed_now().map_or(0.0, |(_, r)| r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::prices::Resources;
    use crate::cost::tally::{DAY, Entry, Mark};

    fn state(at: f64, outpost: &str, session: &str, mark: Mark, rate: f64) -> Entry {
        Entry::State {
            at,
            outpost: outpost.into(),
            provider: "daytona".into(),
            session: session.into(),
            sandbox: "sb".into(),
            mark,
            resources: Resources::default(),
            usd_per_hour: rate,
        }
    }

    fn tally() -> Tally {
        let mut t = Tally::default();
        for e in [
            state(DAY - 3600.0, "o1", "a", Mark::Running, 1.0),
            state(DAY + 3600.0, "o1", "a", Mark::Stopped, 0.1),
            state(DAY + 7200.0, "o1", "a", Mark::Gone, 0.0),
            state(DAY, "o2", "b", Mark::Running, 2.0),
            Entry::Usage {
                at: DAY,
                outpost: "o2".into(),
                session: "b".into(),
                acus: 3.0,
            },
        ] {
            t.apply(&e);
        }
        t
    }

    #[test]
    fn idle_warm_sandboxes_are_one_row_by_session_and_count_in_every_total() {
        let mut t = tally();
        for (sb, from, to) in [("w1", 0.0, 1800.0), ("w2", 0.0, 3600.0)] {
            let session = format!("{WARM_PREFIX}{sb}");
            t.apply(&state(from, "o1", &session, Mark::Running, 1.0));
            t.apply(&state(to, "o1", &session, Mark::Gone, 0.0));
        }
        let now = DAY + 3.0 * 3600.0;
        let by_session = report(&t, 0.0, now, By::Session);
        let warm: Vec<&CostRow> = by_session
            .rows
            .iter()
            .filter(|r| r.key.starts_with("warm"))
            .collect();
        assert_eq!(warm.len(), 1, "{:?}", by_session.rows);
        assert_eq!(warm[0].key, WARM_ROW);
        assert_eq!(warm[0].seconds.running, 5400.0);
        assert!((warm[0].total_usd - 1.5).abs() < 1e-9);
        // The outposts_warm_idle_cost_usd series reads the same warm share, per provider.
        let warm_metric = t.warm_by_provider(now);
        assert_eq!(warm_metric.len(), 1, "{warm_metric:?}");
        assert!((warm_metric.values().sum::<f64>() - warm[0].total_usd).abs() < 1e-9);
        assert!((by_session.total_usd - 9.6).abs() < 1e-9);
        let by_outpost = report(&t, 0.0, now, By::Outpost);
        assert!((by_outpost.total_usd - by_session.total_usd).abs() < 1e-9);
    }

    #[test]
    fn rows_by_session_outpost_and_day_add_up_to_the_same_total() {
        let t = tally();
        let now = DAY + 3.0 * 3600.0;
        let by_session = report(&t, 0.0, now, By::Session);
        // a: 2 h running at $1 + 1 h stopped at $0.1; b: 3 h at $2.
        assert_eq!(by_session.rows.len(), 2);
        assert!((by_session.rows[0].total_usd - 2.1).abs() < 1e-9);
        assert_eq!(by_session.rows[0].seconds.running, 7200.0);
        assert_eq!(by_session.rows[1].acus, Some(3.0));
        assert!((by_session.total_usd - 8.1).abs() < 1e-9);
        let by_day = report(&t, 0.0, now, By::Day);
        assert_eq!(
            by_day
                .rows
                .iter()
                .map(|r| r.key.as_str())
                .collect::<Vec<_>>(),
            ["1970-01-01", "1970-01-02"]
        );
        assert!((by_day.rows[0].total_usd - 1.0).abs() < 1e-9);
        assert_eq!(
            by_day.rows[1].outpost, "",
            "a day of two outposts names neither"
        );
        let by_outpost = report(&t, 0.0, now, By::Outpost);
        for doc in [&by_day, &by_outpost] {
            let sum: f64 = doc.rows.iter().map(|r| r.total_usd).sum();
            assert!((sum - by_session.total_usd).abs() < 1e-9);
        }
        // A window: the last hour only.
        let last = report(&t, now - 3600.0, now, By::Session);
        assert!((last.total_usd - (0.0 + 2.0)).abs() < 1e-9, "{last:?}");
        assert_eq!(
            last.rows.len(),
            1,
            "a gone session has nothing in the window"
        );
    }

    #[test]
    fn csv_quotes_what_rfc_4180_asks_for() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        let doc = report(&tally(), 0.0, DAY + 3.0 * 3600.0, By::Session);
        let text = csv(&doc);
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert_eq!(lines.len(), 4, "header, two rows, the empty end: {text:?}");
        assert!(
            lines[1].starts_with("a,o1,daytona,7200,3600,0,2.000000,0.100000,0.000000,2.100000,")
        );
        assert!(lines[2].ends_with(",3"));
    }

    #[test]
    fn dates_are_utc_days() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(20_426), "2025-12-04");
        assert_eq!(date(-1), "1969-12-31");
    }

    #[test]
    fn status_sums_the_sessions_shown() {
        let s = status_cost(&tally(), "o2", ["b", "missing"], DAY + 1800.0);
        assert!((s.total_usd - 1.0).abs() < 1e-9);
        assert_eq!(s.usd_per_hour, 2.0);
        assert_eq!(s.sessions.len(), 1);
    }
}
