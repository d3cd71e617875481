//! The wake-integrity part of `orchestrator status`: one line per session whose last wake was
//! checked against the manifest its sleep recorded.

use crate::orchestrator::integrity::IntegrityRow;

pub(super) fn lines(rows: &[IntegrityRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nwake integrity (files compared with the sleep's manifest)\n");
    for r in rows {
        let what = match r.result.as_str() {
            "intact" => format!("{} files", r.files),
            "unchecked" => String::new(),
            _ => {
                let mut parts = Vec::new();
                if r.lost > 0 {
                    parts.push(format!("{} lost", r.lost));
                }
                if r.changed > 0 {
                    parts.push(format!("{} changed", r.changed));
                }
                format!(
                    "{} of {} files: {}",
                    parts.join(", "),
                    r.files,
                    r.paths.join(", ")
                )
            }
        };
        let detail = r
            .detail
            .as_deref()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {:<36} {:<9} {}{} — checked in {:.1}s\n",
            r.session_id, r.result, what, detail, r.seconds
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_per_checked_wake() {
        assert_eq!(lines(&[]), "");
        let rows = [
            IntegrityRow {
                session_id: "devin-a".into(),
                result: "lost".into(),
                files: 1000,
                lost: 1,
                paths: vec!["/w/a.txt".into()],
                seconds: 0.25,
                ..IntegrityRow::default()
            },
            IntegrityRow {
                session_id: "devin-b".into(),
                result: "unchecked".into(),
                detail: Some("nothing recorded at sleep: x".into()),
                ..IntegrityRow::default()
            },
        ];
        let out = lines(&rows);
        assert!(
            out.contains("devin-a") && out.contains("lost      1 lost of 1000 files: /w/a.txt"),
            "{out}"
        );
        assert!(
            out.contains("unchecked  (nothing recorded at sleep: x)"),
            "{out}"
        );
    }
}
