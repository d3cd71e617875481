//! Outposts: CRUD, `first`/`after` paging and live queue counts.

use base64::Engine;
use serde_json::{Value, json};

use super::state::{Micros, OutpostRow, Queue, Refusal, RowPhase, random_hex, secs};

impl Queue {
    /// Queue depth and active claims of one outpost.
    pub fn outpost_counts(&self, outpost_id: &str) -> (usize, usize) {
        let live = self
            .rows
            .iter()
            .filter(|r| !r.tombstoned && r.outpost_id == outpost_id);
        let (mut pending, mut claimed) = (0, 0);
        for r in live {
            match r.phase {
                RowPhase::Pending => pending += 1,
                RowPhase::Claimed => claimed += 1,
            }
        }
        (pending, claimed)
    }

    pub fn outpost_json(&self, o: &OutpostRow) -> Value {
        let (depth, claims) = self.outpost_counts(&o.outpost_id);
        json!({
            "metadata": {"outpost_id": o.outpost_id, "account_id": o.account_id, "created_at": o.created_at},
            "spec": {"name": o.name, "platform": o.platform, "description": o.description},
            "status": {"queue_depth": depth, "active_claims": claims},
        })
    }

    pub fn create_outpost(
        &mut self,
        name: &str,
        platform: Option<&str>,
        description: Option<&str>,
        now: Micros,
    ) -> Result<Value, Refusal> {
        let name = name.trim();
        if name.is_empty() || name.len() > 100 || name.chars().any(char::is_control) {
            return Err(Refusal::new(422, "name must be 1-100 printable characters"));
        }
        let platform = match platform.map(|p| p.trim().to_ascii_lowercase()) {
            None => None,
            Some(p) if p.is_empty() => None,
            Some(p) if matches!(p.as_str(), "linux" | "macos" | "windows") => Some(p),
            Some(p) => {
                return Err(Refusal::new(
                    422,
                    format!("platform must be one of linux, macos, windows (got {p:?})"),
                ));
            }
        };
        // Documented choice: a duplicate name (case-insensitive, per account) is 409.
        if self
            .outposts
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name))
        {
            return Err(Refusal::new(
                409,
                format!("An outpost named {name:?} already exists"),
            ));
        }
        let row = OutpostRow {
            outpost_id: format!("outpost_env-{}", random_hex(32)),
            account_id: self.account_id.clone(),
            name: name.to_string(),
            platform,
            description: description.map(str::to_string),
            created_at: secs(now),
            seq: self.next_outpost_seq,
            personal: false,
        };
        self.next_outpost_seq += 1;
        self.mutations += 1;
        let v = self.outpost_json(&row);
        self.outposts.push(row);
        Ok(v)
    }

    /// Queued sessions of a deleted outpost stay where they are (the real behaviour is
    /// unknown); they simply cannot be enqueued for it any more.
    pub fn delete_outpost(&mut self, id: &str) -> bool {
        let before = self.outposts.len();
        self.outposts.retain(|o| o.outpost_id != id);
        let gone = self.outposts.len() != before;
        if gone {
            self.mutations += 1;
        }
        gone
    }

    pub fn outposts_page(&self, first: usize, after: Option<u64>) -> Value {
        let mut all: Vec<&OutpostRow> = self.outposts.iter().collect();
        all.sort_by_key(|o| o.seq);
        let total = all.len();
        let rest: Vec<&OutpostRow> = all
            .into_iter()
            .filter(|o| after.is_none_or(|a| o.seq > a))
            .collect();
        let has_next = rest.len() > first;
        let page = &rest[..rest.len().min(first)];
        let end_cursor = page.last().map(|o| encode_outpost_cursor(o.seq));
        json!({
            "items": page.iter().map(|o| self.outpost_json(o)).collect::<Vec<_>>(),
            "end_cursor": end_cursor,
            "has_next_page": has_next,
            "total": total,
        })
    }
}

pub fn encode_outpost_cursor(seq: u64) -> String {
    base64::engine::general_purpose::STANDARD.encode(format!("o1:{seq}"))
}

pub fn decode_outpost_cursor(raw: &str) -> Option<u64> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(raw.trim())
        .ok()?;
    String::from_utf8(bytes)
        .ok()?
        .strip_prefix("o1:")?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outposts_page_and_refuse_duplicates() {
        let now = 1_700_000_000_000_000;
        let mut q = Queue::fresh(now);
        for i in 0..4 {
            q.create_outpost(&format!("o{i}"), None, None, now).unwrap();
        }
        assert_eq!(
            q.create_outpost("O1", None, None, now).unwrap_err().status,
            409
        );
        assert_eq!(
            q.create_outpost("x", Some("beos"), None, now)
                .unwrap_err()
                .status,
            422
        );
        let p1 = q.outposts_page(3, None);
        assert_eq!(p1["items"].as_array().unwrap().len(), 3);
        assert_eq!(p1["has_next_page"], true);
        assert_eq!(p1["total"], 5);
        let after = decode_outpost_cursor(p1["end_cursor"].as_str().unwrap());
        let p2 = q.outposts_page(3, after);
        assert_eq!(p2["items"].as_array().unwrap().len(), 2);
        assert_eq!(p2["has_next_page"], false);
    }
}
