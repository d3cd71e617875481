//! The one kind of `RUN` step the emulated image builder executes: a download verified by
//! checksum — `curl … -o PATH URL && echo "SUM  PATH" | sha256sum -c`, the form Daytona's docs
//! and `outposts snapshot build --bake-remote` use to put a file into an image. Any other `RUN`
//! is only logged (image content is not emulated). The builder fetches the URL as a builder
//! would (it shows in the request log when it is the emulator's own distribution), fails the
//! build on a failed download or a checksum mismatch, and keeps the file with the snapshot;
//! sandboxes created from the snapshot find it at PATH.

use std::path::Path;
use std::sync::Arc;

use sha2::{Digest, Sha256};

/// A verified download a `RUN` step asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetch {
    /// Absolute path inside the image.
    pub path: String,
    pub url: String,
    /// Lower-case hex sha256 the step checks.
    pub sum: String,
}

/// A file the build put into the image.
#[derive(Debug, Clone)]
pub struct ImageFile {
    pub path: String,
    pub bytes: Arc<Vec<u8>>,
}

/// The verified download in a `RUN` command (one `&&` chain), if it has one: a `curl` segment
/// with `-o PATH` and a URL, and an `echo "SUM  PATH" | sha256sum -c` segment for that PATH.
pub fn fetch_of(cmd: &str) -> Option<Fetch> {
    let segments: Vec<&str> = cmd.split("&&").map(str::trim).collect();
    let curl = segments.iter().find(|s| s.starts_with("curl "))?;
    let words: Vec<&str> = curl.split_whitespace().collect();
    let path = words
        .iter()
        .position(|w| *w == "-o" || *w == "--output")
        .and_then(|i| words.get(i + 1))?
        .to_string();
    let url = words
        .iter()
        .rev()
        .find(|w| w.starts_with("http://") || w.starts_with("https://"))?
        .to_string();
    let check = segments
        .iter()
        .find(|s| s.starts_with("echo ") && s.contains("| sha256sum -c"))?;
    let quoted = check.strip_prefix("echo ")?.split('|').next()?.trim();
    let line = quoted.trim_matches(|c| c == '"' || c == '\'');
    // The builder's instruction text has its whitespace collapsed: `SUM PATH`.
    let mut parts = line.split_whitespace();
    let (sum, file) = (parts.next()?.to_ascii_lowercase(), parts.next()?);
    (path.starts_with('/')
        && file == path
        && sum.len() == 64
        && sum.chars().all(|c| c.is_ascii_hexdigit()))
    .then_some(Fetch { path, url, sum })
}

/// Perform the downloads, in order: the files, and log lines in the tools' own words; or why
/// the step failed (the build fails with it).
pub async fn perform(fetches: &[Fetch], log: &mut Vec<String>) -> Result<Vec<ImageFile>, String> {
    // A builder gives up on a stalled download; so does this one (curl's `--retry` aside).
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(60))
        .build()
        .map_err(|e| format!("cannot start the download: {e}"))?;
    let mut out = Vec::new();
    for f in fetches {
        let resp = client.get(&f.url).send().await;
        let bytes = match resp {
            Ok(r) if r.status().is_success() => r.bytes().await.map_err(|e| e.to_string()),
            Ok(r) => Err(format!(
                "curl: (22) The requested URL returned error: {}",
                r.status().as_u16()
            )),
            Err(e) => Err(format!("curl: (7) {e}")),
        };
        let bytes = match bytes {
            Ok(b) => b.to_vec(),
            Err(e) => {
                log.push(e.clone());
                return Err(format!("downloading {} failed: {e}", f.url));
            }
        };
        let got = hex::encode(Sha256::digest(&bytes));
        if got != f.sum {
            log.push(format!("{}: FAILED", f.path));
            log.push("sha256sum: WARNING: 1 computed checksum did NOT match".into());
            return Err(format!(
                "the sha256 of {} is {got}, not {} (sha256sum -c failed)",
                f.url, f.sum
            ));
        }
        log.push(format!("{}: OK", f.path));
        out.push(ImageFile {
            path: f.path.clone(),
            bytes: Arc::new(bytes),
        });
    }
    Ok(out)
}

/// Put the image's files into a sandbox's filesystem tree (executable, as the step's `chmod`).
pub fn place(tree: &Path, files: &[ImageFile]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for f in files {
        let target = tree.join(f.path.trim_start_matches('/'));
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&target, f.bytes.as_slice())?;
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_verified_download() {
        let sum = "a".repeat(64);
        let cmd = format!(
            "mkdir -p /c && curl -fsSL --retry 3 -o /c/f http://h/x/f && echo \"{sum}  /c/f\" | sha256sum -c - && chmod 0755 /c/f"
        );
        assert_eq!(
            fetch_of(&cmd),
            Some(Fetch {
                path: "/c/f".into(),
                url: "http://h/x/f".into(),
                sum
            })
        );
        // Unverified, or checking another file: not executed.
        assert_eq!(fetch_of("curl -o /c/f http://h/f"), None);
        let other = format!(
            "curl -o /c/f http://h/f && echo \"{}  /c/g\" | sha256sum -c",
            "a".repeat(64)
        );
        assert_eq!(fetch_of(&other), None);
        assert_eq!(fetch_of("apt-get update && apt-get install -y curl"), None);
    }
}
