//! The emulated organisation's default platform (specs/devin-sessions-api.md §4): at most one
//! of a hosted label or a *shared* outpost (by name, case-insensitively, or by id); 400 with the
//! accepted platforms and outposts for both given, an unknown or ambiguous name, an outpost not
//! available, a personal outpost, or a hosted label in an Outposts-only enterprise.

use serde_json::{Value, json};

use super::state::Queue;
use super::v3_state::{DefaultSetting, HOSTED, Refused, plain, refused_platform};

impl Queue {
    pub fn v3_default_json(&self) -> Value {
        let d = &self.v3.default;
        let name = d
            .outpost_pool_id
            .as_ref()
            .and_then(|id| self.outposts.iter().find(|o| &o.outpost_id == id))
            .map(|o| o.name.clone());
        json!({"platform": d.platform, "outpost_pool_id": d.outpost_pool_id, "outpost_pool_name": name})
    }

    /// `PUT …/default-platform` (spec §4 and its 400 cases).
    pub fn v3_set_default(&mut self, body: &Value) -> Result<Value, Refused> {
        let field = |k: &str| match body.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
            Some(_) => Err(plain(
                422,
                format!("{k}: must be a non-empty string or null"),
            )),
        };
        if !body.is_object() {
            return Err(plain(422, "the body must be a JSON object"));
        }
        let (platform, pool) = (field("platform")?, field("outpost_pool_id")?);
        let index = match (&platform, &pool) {
            (Some(_), Some(_)) => {
                return Err(refused_platform(
                    self,
                    "Give at most one of platform and outpost_pool_id".into(),
                ));
            }
            (None, None) => {
                self.v3.default = DefaultSetting::default();
                self.mutations += 1;
                return Ok(self.v3_default_json());
            }
            (Some(p), None) if HOSTED.iter().any(|h| h.eq_ignore_ascii_case(p)) => {
                if self.v3.outposts_only {
                    return Err(refused_platform(
                        self,
                        format!(
                            "This enterprise is Outposts-only: the hosted platform {p:?} cannot be the default"
                        ),
                    ));
                }
                self.v3.default = DefaultSetting {
                    platform: Some(p.to_ascii_lowercase()),
                    outpost_pool_id: None,
                };
                self.mutations += 1;
                return Ok(self.v3_default_json());
            }
            (Some(p), None) => self.outpost_by_name(p)?.ok_or_else(|| {
                refused_platform(self, format!("No platform or outpost named {p:?}"))
            })?,
            (None, Some(id)) => self
                .outposts
                .iter()
                .position(|o| &o.outpost_id == id)
                .ok_or_else(|| {
                    refused_platform(
                        self,
                        format!("Outpost {id} is not available to this organization"),
                    )
                })?,
        };
        let o = &self.outposts[index];
        if o.personal {
            return Err(refused_platform(
                self,
                format!(
                    "Outpost {:?} is personal (only its owner can start sessions on it) and cannot be the organization default",
                    o.name
                ),
            ));
        }
        self.v3.default = DefaultSetting {
            platform: None,
            outpost_pool_id: Some(o.outpost_id.clone()),
        };
        self.mutations += 1;
        Ok(self.v3_default_json())
    }
}
