//! [`SessionId`]: a Devin session's id as the orchestrator passes it around, so a session id
//! cannot be swapped for a sandbox id, an acceptor id or a log line at a call site.

use std::borrow::Borrow;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A Devin session's id. Serialises exactly as the string does (events, state and status files
/// keep their shape); reads as `&str` wherever a string is wanted (maps keyed by it, labels).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SessionId(String);

impl SessionId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for SessionId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for SessionId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SessionId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for SessionId {
    fn from(s: String) -> Self {
        SessionId(s)
    }
}

impl From<&str> for SessionId {
    fn from(s: &str) -> Self {
        SessionId(s.to_string())
    }
}

impl From<&String> for SessionId {
    fn from(s: &String) -> Self {
        SessionId(s.clone())
    }
}

impl From<&SessionId> for SessionId {
    fn from(s: &SessionId) -> Self {
        s.clone()
    }
}

impl From<SessionId> for String {
    fn from(s: SessionId) -> String {
        s.0
    }
}

/// What the book looks a session up by, with no allocation: a [`SessionId`] from a stage, or
/// the `str` of a queue row (the API's own type, which cannot name [`SessionId`]). A map keyed
/// by [`SessionId`] is searched through its `Borrow<str>`, so `Hash`/`Ord` agree.
pub trait SessionKey {
    fn key(&self) -> &str;
}

impl SessionKey for SessionId {
    fn key(&self) -> &str {
        &self.0
    }
}

impl SessionKey for str {
    fn key(&self) -> &str {
        self
    }
}

impl SessionKey for String {
    fn key(&self) -> &str {
        self
    }
}

impl PartialEq<str> for SessionId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for SessionId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for SessionId {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

#[cfg(test)]
mod tests {
    use super::SessionId;

    #[test]
    fn serialises_as_the_bare_string() {
        let id = SessionId::from("devin-abc");
        assert_eq!(serde_json::to_string(&id).unwrap(), r#""devin-abc""#);
        let back: SessionId = serde_json::from_str(r#""devin-abc""#).unwrap();
        assert_eq!(back, id);
    }
}
