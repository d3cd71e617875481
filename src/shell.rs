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

/// A PowerShell single-quoted literal. PowerShell ends such a literal at any single quote,
/// typographic ones (`‘ ’ ‚ ‛`) included, so each of them is doubled, not just `'`.
pub fn powershell_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        if matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}') {
            out.push(c);
        }
        out.push(c);
    }
    out.push('\'');
    out
}

/// cmd.exe's longest command line. Daytona's Windows daemon (`apps/daemon-win`) runs every
/// toolbox exec as `cmd.exe /C <command>`, so no command for a Windows sandbox may be longer.
pub const CMD_EXE_LIMIT: usize = 8191;

/// The longest command we send to a Windows sandbox: the newer Windows daemon runs it as
/// `C:\Windows\system32\cmd.exe /S /C "<command>"`, and cmd.exe counts those ~37 characters of
/// wrapper too.
pub const WINDOWS_COMMAND_BUDGET: usize = CMD_EXE_LIMIT - 37;

/// `powershell.exe … -EncodedCommand <base64 of the UTF-16LE script>`: the one form that reaches
/// Windows PowerShell unharmed through the daemon's `cmd.exe /C`. The daemon's Go runtime quotes
/// the whole command as one argument (a `"` becomes `\"`, which cmd.exe does not understand), and
/// cmd.exe acts on `%`, `^`, `&`, `|`, `<`, `>`; base64 holds none of them and no quote.
pub fn powershell_command(script: &str) -> String {
    use base64::Engine;
    let utf16: Vec<u8> = script.encode_utf16().flat_map(u16::to_le_bytes).collect();
    format!(
        "powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand {}",
        base64::engine::general_purpose::STANDARD.encode(utf16)
    )
}

/// A Windows PowerShell script that runs `argv` with the call operator and exits with the
/// program's exit code (1 when PowerShell could not run it, e.g. not found).
///
/// Windows PowerShell 5.1 hands arguments to a native program without escaping them: it drops
/// an empty one, passes a `"` through raw, and wraps one with whitespace in quotes so that a
/// trailing `\` escapes the closing quote. Such arguments would arrive changed, so they are
/// refused rather than sent.
pub fn powershell_call(argv: &[String]) -> Result<String, String> {
    if argv.is_empty() {
        return Err("empty command (argv has no program)".into());
    }
    for (i, a) in argv.iter().enumerate() {
        let why = if a.is_empty() {
            Some("is empty")
        } else if a.contains('"') {
            Some("contains a double quote")
        } else if a.contains(char::is_whitespace) && a.ends_with('\\') {
            Some("has whitespace and ends with a backslash")
        } else if a.contains('\0') {
            Some("contains a NUL")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(format!(
                "argument {i} {why}: Windows PowerShell would not pass it to the program unchanged"
            ));
        }
    }
    let words: Vec<String> = argv.iter().map(|a| powershell_quote(a)).collect();
    Ok(format!(
        "& {}\n$ok = $?\n$code = $LASTEXITCODE\nif ($null -ne $code) {{ exit $code }}\nif ($ok) {{ exit 0 }} else {{ exit 1 }}\n",
        words.join(" ")
    ))
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
        assert_eq!(powershell_quote("a’b‘c"), "'a’’b‘‘c'");
    }

    #[test]
    fn powershell_commands_survive_cmd_exe() {
        let cmd = powershell_command("Write-Output \"a & b | c %PATH% ^x\"");
        let b64 = cmd.rsplit(' ').next().unwrap();
        assert!(
            b64.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+/=".contains(c)),
            "{cmd}"
        );
        assert!(!cmd.contains(['"', '%', '^', '&', '|', '<', '>']), "{cmd}");
    }

    #[test]
    fn powershell_calls_quote_and_refuse_what_would_change() {
        let argv = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let s = powershell_call(&argv(&["git", "it's", "C:\\a b\\x"])).unwrap();
        assert!(s.starts_with("& 'git' 'it''s' 'C:\\a b\\x'\n"), "{s}");
        // The program's exit code is the script's.
        assert!(s.contains("exit $code"), "{s}");
        assert!(s.contains("else { exit 1 }"), "{s}");
        assert!(powershell_call(&[]).is_err());
        for bad in [&["git", ""][..], &["git", "a\"b"], &["x", "C:\\a b\\"]] {
            assert!(powershell_call(&argv(bad)).is_err(), "{bad:?}");
        }
        // A trailing backslash without whitespace is passed unquoted, so unchanged.
        assert!(powershell_call(&argv(&["dir", "C:\\a\\"])).is_ok());
    }
}
