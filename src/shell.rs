//! Quoting for the shells a command line is sent to. Only plain values are ever quoted into a
//! command line: secrets travel in the environment.

/// A POSIX shell word: left bare when it is plainly safe, else single-quoted.
pub fn posix_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@%+=,".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A PowerShell single-quoted literal (`'` doubled).
pub fn powershell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posix_words_round_trip_through_sh() {
        assert_eq!(posix_quote("plain-1.2/x:y@z%+=,"), "plain-1.2/x:y@z%+=,");
        assert_eq!(posix_quote(""), "''");
        assert_eq!(posix_quote("it's $HOME"), r#"'it'\''s $HOME'"#);
        for s in ["a b", "it's", "$(rm -rf /)", "`x`", "a\nb", "\\", "\"q\""] {
            let out = std::process::Command::new("sh")
                .args(["-c", &format!("printf %s {}", posix_quote(s))])
                .output()
                .unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), s);
        }
    }

    #[test]
    fn powershell_literals_double_quotes() {
        assert_eq!(powershell_quote("it's"), "'it''s'");
        assert_eq!(powershell_quote("C:\\repos"), "'C:\\repos'");
    }
}
