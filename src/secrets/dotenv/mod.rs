//! Editing `.env` files in place: the one general writer for managed keys.
//!
//! [`rewrite`] is a pure function of the old text; [`apply`] reads the file, rewrites it and
//! replaces it atomically (temp file in the same directory, fsync, rename, mode 0600).
//!
//! What a rewrite keeps and changes:
//! - Unrelated lines are kept byte for byte: comments, blank lines, other keys (multi-line
//!   quoted values included), lines we cannot parse, the BOM, and each line's own ending.
//! - Each managed key (or a legacy alias of it) is written once: its first occurrence is
//!   replaced in place (an `export ` prefix is kept), later duplicates are dropped, and a key
//!   that was not there is appended with the file's line ending (CRLF when the file uses it).
//! - Values are quoted so that `dotenvy` (what [`crate::config`] reads with) and shells read
//!   them back unchanged; a value with a line break or other control character is refused.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One key to write or remove.
#[derive(Debug, Clone)]
struct Edit {
    key: String,
    aliases: Vec<String>,
    /// `None` removes the key.
    value: Option<String>,
}

impl Edit {
    fn matches(&self, key: &str) -> bool {
        self.key == key || self.aliases.iter().any(|a| a == key)
    }
}

/// The managed keys of one rewrite, in the order new keys are appended.
#[derive(Debug, Clone, Default)]
pub struct EnvUpdate {
    edits: Vec<Edit>,
}

impl EnvUpdate {
    pub fn new() -> Self {
        Self::default()
    }

    /// Write `key=value`.
    pub fn set(self, key: &str, value: &str) -> Self {
        self.set_with_aliases(key, &[], value)
    }

    /// Write `key=value`; a line under a legacy alias (e.g. `POOL_ID` for `OUTPOST_ID`) is
    /// replaced by the canonical key.
    pub fn set_with_aliases(mut self, key: &str, aliases: &[&str], value: &str) -> Self {
        self.edits.push(Edit {
            key: key.to_string(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            value: Some(value.to_string()),
        });
        self
    }

    /// Remove every line of `key`.
    pub fn remove(mut self, key: &str) -> Self {
        self.edits.push(Edit {
            key: key.to_string(),
            aliases: Vec::new(),
            value: None,
        });
        self
    }

    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }
}

/// What a rewrite did (key names only, never values).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct EnvChange {
    /// Keys replaced in place.
    pub replaced: Vec<String>,
    /// Keys appended.
    pub added: Vec<String>,
    /// Keys whose lines were removed (asked for, or duplicates/aliases collapsed).
    pub removed: Vec<String>,
    /// The file did not exist before.
    pub created: bool,
}

impl EnvChange {
    pub fn changed(&self) -> bool {
        !(self.replaced.is_empty() && self.added.is_empty() && self.removed.is_empty())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DotEnvError {
    #[error("refusing to write {key} to a .env file: the value contains a line break")]
    Newline { key: String },
    #[error("refusing to write {key} to a .env file: the value contains a control character")]
    Control { key: String },
    #[error("{key:?} is not a valid .env variable name")]
    BadKey { key: String },
    #[error("cannot read {}: {detail}", path.display())]
    Read { path: PathBuf, detail: String },
    #[error("cannot write {}: {detail}", path.display())]
    Write { path: PathBuf, detail: String },
}

/// A valid name: a letter or `_`, then letters, digits, `_` or `.` (what dotenvy accepts).
pub fn valid_key(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// The value as it must appear after `KEY=`: bare when it is plainly safe, in single quotes
/// (literal for dotenvy and shells) otherwise, in double quotes with `\`, `"` and `$` escaped
/// when it holds a single quote.
pub fn quote_value(key: &str, value: &str) -> Result<String, DotEnvError> {
    if value.contains(['\n', '\r']) {
        return Err(DotEnvError::Newline {
            key: key.to_string(),
        });
    }
    if value.chars().any(char::is_control) {
        return Err(DotEnvError::Control {
            key: key.to_string(),
        });
    }
    let bare = |c: char| c.is_ascii_alphanumeric() || "_-./:@,+=%~".contains(c);
    if value.chars().all(bare) {
        return Ok(value.to_string());
    }
    if !value.contains('\'') {
        return Ok(format!("'{value}'"));
    }
    let mut out = String::with_capacity(value.len() + 4);
    out.push('"');
    for c in value.chars() {
        if matches!(c, '\\' | '"' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    Ok(out)
}

/// One logical entry of a `.env` file: one line, or several when a quoted value spans lines.
struct Chunk<'a> {
    text: &'a str,
    key: Option<String>,
    export: bool,
    /// The line ending of the chunk's last line (`""` at the end of a file without one).
    eol: &'static str,
}

/// `export KEY=` / `KEY =` at the start of a line: the key, whether `export` was there, and
/// the rest after `=`.
fn parse_key(line: &str) -> Option<(String, bool, &str)> {
    let s = line.trim_start_matches([' ', '\t']);
    let (export, s) = match s.strip_prefix("export") {
        Some(rest) if rest.starts_with([' ', '\t']) => (true, rest.trim_start_matches([' ', '\t'])),
        _ => (false, s),
    };
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(s.len());
    let key = &s[..end];
    if !valid_key(key) {
        return None;
    }
    let rest = s[end..].trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix('=')?;
    Some((key.to_string(), export, rest))
}

#[derive(Clone, Copy, PartialEq)]
enum Scan {
    Plain,
    Single,
    Double,
}

/// Quote state after scanning `text` from `state` (backslash escapes inside quotes, a `#`
/// after whitespace ends the value).
fn scan(mut state: Scan, text: &str) -> Scan {
    let mut chars = text.chars().peekable();
    let mut after_space = false;
    while let Some(c) = chars.next() {
        match state {
            Scan::Plain => match c {
                '#' if after_space => return Scan::Plain,
                '\'' => state = Scan::Single,
                '"' => state = Scan::Double,
                '\\' => {
                    chars.next();
                }
                _ => {}
            },
            Scan::Single | Scan::Double => {
                if c == '\\' {
                    chars.next();
                } else if (state == Scan::Single && c == '\'')
                    || (state == Scan::Double && c == '"')
                {
                    state = Scan::Plain;
                }
            }
        }
        after_space = c == ' ' || c == '\t';
    }
    state
}

fn eol_of(line: &str) -> &'static str {
    if line.ends_with("\r\n") {
        "\r\n"
    } else if line.ends_with('\n') {
        "\n"
    } else {
        ""
    }
}

fn chunks(text: &str) -> Vec<Chunk<'_>> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = Vec::new();
    let mut i = 0;
    // Byte offset of each line, to slice multi-line chunks out of `text`.
    let mut offsets = Vec::with_capacity(lines.len() + 1);
    let mut at = 0;
    for l in &lines {
        offsets.push(at);
        at += l.len();
    }
    offsets.push(at);
    while i < lines.len() {
        let line = lines[i];
        let Some((key, export, rest)) = parse_key(line) else {
            out.push(Chunk {
                text: line,
                key: None,
                export: false,
                eol: eol_of(line),
            });
            i += 1;
            continue;
        };
        // A quoted value may continue on the next lines; an unterminated one is one line.
        let mut state = scan(Scan::Plain, rest);
        let mut end = i;
        while state != Scan::Plain && end + 1 < lines.len() {
            end += 1;
            state = scan(state, lines[end]);
        }
        if state != Scan::Plain {
            end = i;
        }
        out.push(Chunk {
            text: &text[offsets[i]..offsets[end + 1]],
            key: Some(key),
            export,
            eol: eol_of(lines[end]),
        });
        i = end + 1;
    }
    out
}

/// Rewrite `original` with `update` applied. Pure: no I/O.
pub fn rewrite(original: &str, update: &EnvUpdate) -> Result<(String, EnvChange), DotEnvError> {
    let mut quoted = Vec::with_capacity(update.edits.len());
    for e in &update.edits {
        if !valid_key(&e.key) {
            return Err(DotEnvError::BadKey { key: e.key.clone() });
        }
        quoted.push(match &e.value {
            Some(v) => Some(quote_value(&e.key, v)?),
            None => None,
        });
    }
    let (bom, body) = match original.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", original),
    };
    let eol = if body.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(body.len() + 256);
    out.push_str(bom);
    let mut written = vec![false; update.edits.len()];
    let mut change = EnvChange::default();
    for chunk in chunks(body) {
        let edit = chunk
            .key
            .as_deref()
            .and_then(|k| update.edits.iter().position(|e| e.matches(k)));
        let Some(idx) = edit else {
            out.push_str(chunk.text);
            continue;
        };
        let key = chunk.key.unwrap_or_default();
        match &quoted[idx] {
            Some(value) if !written[idx] => {
                written[idx] = true;
                if chunk.export {
                    out.push_str("export ");
                }
                out.push_str(&update.edits[idx].key);
                out.push('=');
                out.push_str(value);
                out.push_str(chunk.eol);
                push_unique(&mut change.replaced, &update.edits[idx].key);
                if key != update.edits[idx].key {
                    push_unique(&mut change.removed, &key);
                }
            }
            _ => push_unique(&mut change.removed, &key),
        }
    }
    for (idx, e) in update.edits.iter().enumerate() {
        let Some(value) = &quoted[idx] else { continue };
        if written[idx] {
            continue;
        }
        if !out.is_empty() && !out.ends_with('\n') && out != bom {
            out.push_str(eol);
        }
        out.push_str(&e.key);
        out.push('=');
        out.push_str(value);
        out.push_str(eol);
        push_unique(&mut change.added, &e.key);
    }
    // A key that was replaced is not also "removed" because a duplicate went away.
    change.removed.retain(|k| !change.replaced.contains(k));
    Ok((out, change))
}

fn push_unique(list: &mut Vec<String>, key: &str) {
    if !list.iter().any(|k| k == key) {
        list.push(key.to_string());
    }
}

/// Read `path` (a missing file is empty), apply `update` and replace the file atomically with
/// mode 0600. The file is not touched when nothing changes.
pub fn apply(path: &Path, update: &EnvUpdate) -> Result<EnvChange, DotEnvError> {
    let target = resolve_symlink(path);
    let (original, existed) = match std::fs::read(&target) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(s) => (s, true),
            Err(_) => {
                return Err(DotEnvError::Read {
                    path: path.to_path_buf(),
                    detail: "the file is not UTF-8 text".into(),
                });
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (String::new(), false),
        Err(e) => {
            return Err(DotEnvError::Read {
                path: path.to_path_buf(),
                detail: e.to_string(),
            });
        }
    };
    let (text, mut change) = rewrite(&original, update)?;
    change.created = !existed;
    // Removing a key from a file that does not exist creates nothing.
    if (existed && text == original) || (!existed && !change.changed()) {
        change.created = false;
        return Ok(change);
    }
    write_private(&target, text.as_bytes()).map_err(|e| DotEnvError::Write {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })?;
    Ok(change)
}

/// Follow a symlinked `.env` so that the link survives and its target is rewritten.
fn resolve_symlink(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Write `bytes` to `path` atomically with mode 0600: a temp file in the same directory,
/// fsync, rename over the target, fsync the directory. The directory must exist.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "env".into());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.tmp-"))
        .tempfile_in(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Each key of a `.env` text with the 1-based line it starts on, in file order.
pub fn key_lines(text: &str) -> Vec<(String, usize)> {
    let mut line = 1;
    let mut out = Vec::new();
    for c in chunks(text) {
        if let Some(k) = c.key {
            out.push((k, line));
        }
        line += c.text.matches('\n').count();
    }
    out
}

/// The 1-based line of a `.env` text where `fragment` (a line the parser rejected, perhaps
/// with the lines after it) starts.
pub fn line_of(text: &str, fragment: &str) -> Option<usize> {
    let first = fragment.lines().next().unwrap_or(fragment).trim_end();
    if first.is_empty() {
        return None;
    }
    let at = text.find(fragment).or_else(|| text.find(first))?;
    Some(text[..at].matches('\n').count() + 1)
}

/// The values of a `.env` file as [`crate::config`] reads them (`None` when it does not
/// exist). Errors never echo a line: it may hold a secret.
pub fn read_values(path: &Path) -> Result<Option<BTreeMap<String, String>>, DotEnvError> {
    if !path.exists() {
        return Ok(None);
    }
    let iter = dotenvy::from_path_iter(path).map_err(|e| read_error(path, &e))?;
    let mut map = BTreeMap::new();
    for item in iter {
        let (k, v) = item.map_err(|e| read_error(path, &e))?;
        map.insert(k, v);
    }
    Ok(Some(map))
}

fn read_error(path: &Path, e: &dotenvy::Error) -> DotEnvError {
    let detail = match e {
        dotenvy::Error::LineParse(line, _) => {
            let key: String = line.chars().take_while(|c| *c != '=').take(40).collect();
            let at = std::fs::read_to_string(path)
                .ok()
                .and_then(|t| line_of(&t, line))
                .map(|n| format!("line {n}: "))
                .unwrap_or_default();
            format!(
                "{at}cannot parse the line starting `{}`",
                crate::secrets::redact(key.trim())
            )
        }
        dotenvy::Error::Io(io) => io.to_string(),
        other => crate::secrets::redact(&other.to_string()).into_owned(),
    };
    DotEnvError::Read {
        path: path.to_path_buf(),
        detail,
    }
}

#[cfg(test)]
mod tests;
