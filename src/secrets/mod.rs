//! Secrets: the one redaction point, and the `Secret` wrapper that keeps values out of `Debug`.
//!
//! Every secret value the process learns (from configuration, from a token exchange, from a
//! claim's connect token) is registered here. Every log line, error message and rendered output
//! passes through [`redact`], which replaces registered values and well-known token shapes.
//!
//! Storage lives beside it: [`dotenv`] edits `.env` files (managed keys, atomic, 0600) and
//! [`keyring`] reaches the OS keyring (bounded, and off with `OUTPOSTS_NO_KEYRING=1`).

pub mod dotenv;
pub mod keyring;
mod registry;

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};
use std::time::Instant;

/// Shortest value we register: shorter ones would redact ordinary words.
const MIN_SECRET_LEN: usize = registry::KEY;
const MASK: &str = "[REDACTED]";

fn registry() -> &'static RwLock<registry::Registry> {
    static REG: OnceLock<RwLock<registry::Registry>> = OnceLock::new();
    REG.get_or_init(Default::default)
}

/// Is `name` a variable `env.rs` declares secret (a token, a key)?
pub fn is_declared_secret(name: &str) -> bool {
    crate::env::find(name).is_some_and(|v| v.secret)
}

/// Remember a secret value so that it is masked wherever it would be printed.
pub fn register(value: &str) {
    let value = value.trim();
    if value.len() < MIN_SECRET_LEN {
        return;
    }
    registry()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(value);
}

/// Mask registered secrets and well-known token shapes in `text`.
pub fn redact(text: &str) -> Cow<'_, str> {
    let masked = registry()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .mask(text, MASK);
    let out: Cow<'_, str> = masked.map_or(Cow::Borrowed(text), Cow::Owned);
    match redact_shapes(&out) {
        Some(s) => Cow::Owned(s),
        None => out,
    }
}

/// Tokens we recognise by shape even if nobody registered them: Devin (`cog_`), Daytona
/// (`dtn_`), and `Bearer …` / `token=…`-style pairs.
fn redact_shapes(text: &str) -> Option<String> {
    let prefixes = ["cog_", "dtn_"];
    let keys = [
        "Bearer ",
        "bearer ",
        "access_token=",
        "code_verifier=",
        "token=",
        "\"access_token\":\"",
        "\"connect_token\":\"",
    ];
    if !prefixes.iter().chain(keys.iter()).any(|p| text.contains(p)) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    'outer: while i < text.len() {
        for p in prefixes {
            if text[i..].starts_with(p) && (i == 0 || !is_token_char(bytes[i - 1])) {
                let end = token_end(text, i + p.len());
                if end - (i + p.len()) >= 8 {
                    out.push_str(p);
                    out.push_str(MASK);
                    i = end;
                    continue 'outer;
                }
            }
        }
        for k in keys {
            if text[i..].starts_with(k) {
                let start = i + k.len();
                let end = token_end(text, start);
                if end > start && &text[start..end] != MASK {
                    out.push_str(k);
                    out.push_str(MASK);
                    i = end;
                    continue 'outer;
                }
            }
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    Some(out)
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'~' | b'+' | b'/' | b'=')
}

fn token_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = start;
    while end < bytes.len() && is_token_char(bytes[end]) {
        end += 1;
    }
    end
}

/// A secret string: `Debug`/`Display` print a mask; the value is registered for redaction.
#[derive(Clone)]
pub struct Secret(Value);

#[derive(Clone)]
enum Value {
    /// Registered for good (or not at all: [`Secret::plain`], or too short).
    Kept(String),
    /// Registered while some copy is held: the copies share one [`Lease`].
    Leased(Arc<Lease>),
}

/// One lease of a registered value; dropping the last copy of its `Secret` ends it.
struct Lease(Arc<str>);

impl Drop for Lease {
    fn drop(&mut self) {
        registry()
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .release(&self.0, Instant::now());
    }
}

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        let value = value.into();
        register(&value);
        Secret(Value::Kept(value))
    }

    /// A secret that is masked only while some copy of it is held (and a short grace period
    /// after): a connect token, of which a replica receives one per claim and per renewal.
    /// Values registered for good stay so.
    pub fn lease(value: impl Into<String>) -> Self {
        let value = value.into();
        if value.trim() != value {
            // Registered trimmed, as `register` does; rare enough to keep for good.
            return Secret::new(value);
        }
        let shared = registry()
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .lease(&value, Instant::now());
        match shared {
            Some(v) => Secret(Value::Leased(Arc::new(Lease(v)))),
            None => Secret(Value::Kept(value)),
        }
    }

    /// A value that travels where secrets travel (an exec environment) but is not secret
    /// itself: it is not registered for redaction.
    pub fn plain(value: impl Into<String>) -> Self {
        Secret(Value::Kept(value.into()))
    }

    /// The raw value, for the one place that must send it (a header, a sandbox env).
    pub fn expose(&self) -> &str {
        match &self.0 {
            Value::Kept(v) => v,
            Value::Leased(l) => &l.0,
        }
    }

    /// A short, safe hint such as `cog_…a1b2` for `auth status`.
    pub fn hint(&self) -> String {
        let v = self.expose();
        let prefix: String = v.chars().take_while(|c| *c != '_').collect();
        let tail: String = v
            .chars()
            .rev()
            .take(4)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if v.len() > 12 && prefix.len() < 6 && v.contains('_') {
            format!("{prefix}_…{tail}")
        } else {
            format!("…{tail}")
        }
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        self.expose() == other.expose()
    }
}

impl Eq for Secret {}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([REDACTED])")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(MASK)
    }
}

/// A `MakeWriter` for tracing that passes every log line through [`redact`].
#[derive(Clone, Copy, Default)]
pub struct RedactingStderr;

pub struct RedactingWriter {
    buf: Vec<u8>,
}

impl std::io::Write for RedactingWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for RedactingWriter {
    fn drop(&mut self) {
        let text = String::from_utf8_lossy(&self.buf);
        let clean = redact(&text);
        let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), clean.as_bytes());
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for RedactingStderr {
    type Writer = RedactingWriter;
    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter {
            buf: Vec::with_capacity(256),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_values_are_masked() {
        register("s3cr3t-value-123");
        assert_eq!(redact("token is s3cr3t-value-123!"), "token is [REDACTED]!");
        // Too short to register safely.
        register("abc");
        assert_eq!(redact("abc"), "abc");
    }

    #[test]
    fn token_shapes_are_masked() {
        assert_eq!(
            redact("Authorization: Bearer abcdef123"),
            "Authorization: Bearer [REDACTED]"
        );
        assert_eq!(
            redact("got cog_ABCDEFGH12345678 ok"),
            "got cog_[REDACTED] ok"
        );
        assert_eq!(
            redact("x?code_verifier=zzz&y=1"),
            "x?code_verifier=[REDACTED]&y=1"
        );
        assert_eq!(
            redact("{\"access_token\":\"cog_x\"}"),
            "{\"access_token\":\"[REDACTED]\"}"
        );
        assert_eq!(redact("plain text"), "plain text");
        assert_eq!(redact("récit — ünïcode cog_"), "récit — ünïcode cog_");
    }

    /// A leased token (a connect token) is masked while any copy of it is held, and for the
    /// grace period after the last one goes (`registry` tests the forgetting).
    #[test]
    fn a_leased_token_is_masked_while_any_copy_is_held() {
        let line = "connect ct_leasetest_0123456789 now";
        let a = Secret::lease("ct_leasetest_0123456789");
        let b = a.clone();
        assert_eq!(b.expose(), "ct_leasetest_0123456789");
        assert_eq!(a, b);
        drop(a);
        assert_eq!(redact(line), "connect [REDACTED] now");
        drop(b);
        assert_eq!(redact(line), "connect [REDACTED] now");
        // Too short to register: kept as is, masked by nothing.
        assert_eq!(Secret::lease("ab").expose(), "ab");
    }

    #[test]
    fn secret_debug_and_display_hide_value() {
        let s = Secret::new("cog_abcdefghijklmnop");
        assert_eq!(format!("{s:?}"), "Secret([REDACTED])");
        assert_eq!(format!("{s}"), "[REDACTED]");
        assert_eq!(s.hint(), "cog_…mnop");
        assert_eq!(s.expose(), "cog_abcdefghijklmnop");
    }
}
