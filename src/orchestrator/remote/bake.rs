//! Baking published `devin-remote` builds into a Linux snapshot: a Dockerfile fragment that
//! downloads each Linux build into the cache the launch script reuses (`$HOME/.devin/remote/cache`
//! in [`super::linux`], files named `devin-remote_<sha>_<suffix>`) and verifies it with
//! `sha256sum -c` at build time, so a session pinned to that build launches with no download
//! (`cached=yes`). The checksums are the distribution's, fetched by us before the build; the
//! fragment is appended to the Dockerfile, so the content-hashed snapshot name covers the bake.

use super::RemoteError;
use super::resolve::{Build, Resolver};
use crate::api::devin_types::Platform;
use crate::api::http::HttpClient;

/// The launch cache of the user Daytona sandboxes run as (`daytona`, home `/home/daytona`):
/// `$HOME/.devin/remote/cache` of the launch script, spelled out because a Dockerfile's `RUN`
/// may run as another user (root) than the sandbox's.
pub const BAKED_CACHE_DIR: &str = "/home/daytona/.devin/remote/cache";

/// The Linux build to bake: `pin`, else what the distribution at `static_base` calls latest,
/// with its checksums fetched now (they go into the fragment).
pub async fn resolve(
    http: HttpClient,
    static_base: &str,
    pin: Option<&str>,
) -> Result<Build, RemoteError> {
    Resolver::new(http, static_base)
        .build(Platform::Linux, pin)
        .await
}

/// The Dockerfile lines that bake `build` (every Linux suffix it has a checksum for). Each
/// `RUN` fails the build when the download fails or its sha256 does not match. When the build
/// runs as root the cache is handed to `daytona`, so a launch can still add other builds to it.
pub fn dockerfile_fragment(build: &Build) -> String {
    let mut out = format!(
        "\n# outposts: devin-remote {} baked into the launch cache, verified by sha256 at build \
         time\n",
        build.sha
    );
    for (suffix, sum) in &build.sha256 {
        if !suffix.starts_with("linux_") {
            continue;
        }
        let file = format!("{BAKED_CACHE_DIR}/{}", build.file_name(suffix));
        out.push_str(&format!(
            "RUN mkdir -p {BAKED_CACHE_DIR} \\\n    \
             && curl -fsSL --retry 3 -o {file} {url} \\\n    \
             && echo \"{sum}  {file}\" | sha256sum -c - \\\n    \
             && chmod 0755 {file} \\\n    \
             && {{ [ \"$(id -u)\" != 0 ] || chown -R daytona: /home/daytona/.devin; }}\n",
            url = build.url(suffix),
        ));
    }
    out
}

/// The Dockerfile with the bake appended (its bytes name the snapshot).
pub fn baked_dockerfile(dockerfile: &[u8], build: &Build) -> Vec<u8> {
    let mut out = dockerfile.to_vec();
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.extend_from_slice(dockerfile_fragment(build).as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn build(sha: &str, sum: &str) -> Build {
        Build {
            sha: sha.into(),
            base: "https://static.example/remote".into(),
            sha256: BTreeMap::from([("linux_x64", sum.into()), ("linux_arm64", "b".repeat(64))]),
        }
    }

    #[test]
    fn fragment_downloads_into_the_launch_cache_and_checks_the_sum() {
        let f = dockerfile_fragment(&build("5eed0f1ce0", &"a".repeat(64)));
        let file = "/home/daytona/.devin/remote/cache/devin-remote_5eed0f1ce0_linux_x64";
        assert!(f.contains(&format!(
            "curl -fsSL --retry 3 -o {file} https://static.example/remote/devin-remote_5eed0f1ce0_linux_x64"
        )));
        assert!(f.contains(&format!(
            "echo \"{}  {file}\" | sha256sum -c -",
            "a".repeat(64)
        )));
        assert!(f.contains("devin-remote_5eed0f1ce0_linux_arm64"));
        assert_eq!(f.matches("RUN ").count(), 2);
    }

    #[test]
    fn another_bake_is_other_bytes() {
        let df = b"FROM x";
        let a = baked_dockerfile(df, &build("5eed0f1ce0", &"a".repeat(64)));
        let b = baked_dockerfile(df, &build("0123456789", &"c".repeat(64)));
        assert!(a.starts_with(b"FROM x\n"));
        assert_ne!(a, b);
    }
}
