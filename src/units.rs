//! One parser per kind of value a flag or variable takes — durations, sizes, base URLs — so
//! every flag of a kind accepts the same forms and rejects bad input in the same words.

use std::time::Duration;

/// The forms a duration may take, quoted in every error.
pub const DURATION_FORMS: &str = "e.g. 90s, 10m, 1h30m, or bare seconds like 90";
/// The forms a size may take, quoted in every error.
pub const SIZE_FORMS: &str = "e.g. 16Gi, 512Mi, 1Ti, or a bare number of GiB like 16";

/// `90`, `0.5` (seconds), `90s`, `2m`, `1h 30m`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    if let Ok(secs) = s.parse::<u64>() {
        return Ok(Duration::from_secs(secs));
    }
    if let Ok(secs) = s.parse::<f64>()
        && secs.is_finite()
        && secs >= 0.0
    {
        return Ok(Duration::from_secs_f64(secs));
    }
    humantime::parse_duration(s).map_err(|_| format!("`{s}` is not a duration ({DURATION_FORMS})"))
}

/// A size in GiB: `16Gi`, `512Mi`, `1Ti`, `16G`/`16M` (decimal units), or a bare number of GiB
/// (what `--memory 16` always meant). Positive, at most 64 TiB.
pub fn parse_size_gib(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let (num, scale) = [
        ("Gi", 1.0),
        ("Mi", 1.0 / 1024.0),
        ("Ti", 1024.0),
        ("G", 1e9 / 1073741824.0),
        ("M", 1e6 / 1073741824.0),
        ("T", 1e12 / 1073741824.0),
    ]
    .iter()
    .find_map(|(suffix, scale)| t.strip_suffix(suffix).map(|n| (n, *scale)))
    .unwrap_or((t, 1.0));
    match num.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 && n * scale <= 65536.0 => Ok(n * scale),
        _ => Err(format!("`{s}` is not a size ({SIZE_FORMS})")),
    }
}

/// A size that must be a whole number of GiB (Daytona snapshot resources are integers).
pub fn parse_whole_gib(s: &str) -> Result<u32, String> {
    let gib = parse_size_gib(s)?;
    if gib.fract() != 0.0 || gib < 1.0 {
        return Err(format!(
            "`{s}` is not a whole number of GiB, which this value must be (e.g. 16Gi or 16)"
        ));
    }
    Ok(gib as u32)
}

/// Check an http(s) base URL and strip trailing slashes (and `/opbeta` when asked).
pub fn normalize_base_url(raw: &str, strip_opbeta: bool) -> Result<String, String> {
    let mut s = raw.trim().to_string();
    loop {
        let before = s.len();
        while s.ends_with('/') {
            s.pop();
        }
        if strip_opbeta && s.ends_with("/opbeta") {
            s.truncate(s.len() - "/opbeta".len());
        }
        if s.len() == before {
            break;
        }
    }
    let parsed = url::Url::parse(&s).map_err(|e| format!("`{raw}` is not a URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(format!(
            "`{raw}` must be an http:// or https:// URL with a host"
        ));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_units_or_bare_seconds() {
        assert_eq!(parse_duration("30").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("0.5").unwrap(), Duration::from_millis(500));
        let e = parse_duration("soon").unwrap_err();
        assert!(e.contains("90s") && e.contains("bare seconds"), "{e}");
    }

    #[test]
    fn sizes_take_binary_units_or_bare_gib() {
        assert_eq!(parse_size_gib("4Gi").unwrap(), 4.0);
        assert_eq!(parse_size_gib("512Mi").unwrap(), 0.5);
        assert_eq!(parse_size_gib("1Ti").unwrap(), 1024.0);
        assert_eq!(parse_size_gib("8").unwrap(), 8.0);
        for bad in ["-1Gi", "Gi", "0", "lots", "100000Ti"] {
            let e = parse_size_gib(bad).unwrap_err();
            assert!(e.contains("16Gi") && e.contains("512Mi"), "{e}");
        }
        assert_eq!(parse_whole_gib("16Gi").unwrap(), 16);
        assert_eq!(parse_whole_gib("16").unwrap(), 16);
        assert_eq!(parse_whole_gib("2048Mi").unwrap(), 2);
        assert!(parse_whole_gib("512Mi").is_err() && parse_whole_gib("1.5Gi").is_err());
    }
}
