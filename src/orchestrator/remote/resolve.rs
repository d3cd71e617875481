//! Which `devin-remote` build a session runs, and its checksums (spec §8): the claim's pin, else
//! what `latest_<suffix>` names. A build's checksum never changes, so it is fetched once per
//! orchestrator; the `latest` pointer is re-read at most once a minute. A Linux build carries
//! the checksum of every Linux architecture, so the sandbox picks its own in the launch exec
//! (no `uname` round trip).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{RemoteError, parse_checksum, valid_sha};
use crate::api::devin_types::Platform;
use crate::api::http::{self, ApiError, ApiRequest, HttpClient};

/// How long a `latest_*` answer is trusted.
const LATEST_TTL: Duration = Duration::from_secs(60);
const LINUX: [&str; 2] = ["linux_x64", "linux_arm64"];
const WINDOWS: &str = "windows_x64.exe";

/// One build: its sha, where its files are, and their checksums by suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Build {
    pub sha: String,
    /// The distribution's base URL (no trailing `/`).
    pub base: String,
    /// Lower-case hex sha256 by suffix (`linux_x64`, `linux_arm64`, `windows_x64.exe`).
    pub sha256: BTreeMap<&'static str, String>,
}

impl Build {
    pub fn file_name(&self, suffix: &str) -> String {
        format!("devin-remote_{}_{suffix}", self.sha)
    }

    pub fn url(&self, suffix: &str) -> String {
        format!("{}/{}", self.base, self.file_name(suffix))
    }
}

/// Resolves builds, remembering checksums and (briefly) the `latest` pointer.
pub struct Resolver {
    http: HttpClient,
    base: String,
    sums: Mutex<HashMap<String, String>>,
    latest: Mutex<HashMap<&'static str, (String, Instant)>>,
}

impl Resolver {
    pub fn new(http: HttpClient, static_base: &str) -> Self {
        Resolver {
            http,
            base: static_base.trim_end_matches('/').to_string(),
            sums: Mutex::new(HashMap::new()),
            latest: Mutex::new(HashMap::new()),
        }
    }

    /// The build for a session on `platform` pinned to `pinned` (or the latest).
    pub async fn build(
        &self,
        platform: Platform,
        pinned: Option<&str>,
    ) -> Result<Build, RemoteError> {
        let suffixes: &[&'static str] = match platform {
            Platform::Windows => &[WINDOWS],
            _ => &LINUX,
        };
        let sha = match pinned {
            Some(p) if valid_sha(p) => p.to_string(),
            Some(p) => return Err(RemoteError::BadPin(p.to_string())),
            None if platform == Platform::Windows => self.latest_windows().await?,
            None => self.latest(suffixes[0]).await?,
        };
        let mut build = Build {
            sha,
            base: self.base.clone(),
            sha256: BTreeMap::new(),
        };
        for (i, suffix) in suffixes.iter().enumerate() {
            match self.checksum(&build.url(suffix)).await {
                Ok(sum) => {
                    build.sha256.insert(suffix, sum);
                }
                // Another architecture of the build may not be published: only the sandbox's
                // own is needed, and the launch says so when it is missing.
                Err(e) if i > 0 => tracing::debug!("no {suffix} build of {}: {e}", build.sha),
                Err(e) => return Err(e),
            }
        }
        Ok(build)
    }

    /// The pointer's name follows the distribution suffix (`latest_windows_x64.exe`) by
    /// inference only; the name without `.exe` is tried first, and when neither is published
    /// the error says so (pin `remote_binary_sha` instead).
    async fn latest_windows(&self) -> Result<String, RemoteError> {
        let names = ["windows_x64", WINDOWS];
        for name in names {
            match self.latest(name).await {
                Err(RemoteError::Api(ApiError::NotFound { .. })) => continue,
                other => return other,
            }
        }
        Err(RemoteError::NotPublished {
            platform: "Windows".into(),
            base: self.base.clone(),
            tried: names.map(|n| format!("latest_{n}")).join(", "),
        })
    }

    async fn latest(&self, suffix: &'static str) -> Result<String, RemoteError> {
        if let Some((sha, at)) = self.lock_latest().get(suffix)
            && at.elapsed() < LATEST_TTL
        {
            return Ok(sha.clone());
        }
        let url = format!("{}/latest_{suffix}", self.base);
        let body = self.get(&url).await?;
        let sha = body.trim().to_string();
        if !valid_sha(&sha) {
            return Err(RemoteError::BadLatest {
                suffix: suffix.into(),
                base: self.base.clone(),
                body: http::excerpt(body.as_bytes()),
            });
        }
        self.lock_latest()
            .insert(suffix, (sha.clone(), Instant::now()));
        Ok(sha)
    }

    async fn checksum(&self, file_url: &str) -> Result<String, RemoteError> {
        if let Some(s) = self
            .sums
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(file_url)
        {
            return Ok(s.clone());
        }
        let body = self.get(&format!("{file_url}.sha256")).await?;
        let sum = parse_checksum(&body).ok_or_else(|| RemoteError::BadChecksum(file_url.into()))?;
        self.sums
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file_url.to_string(), sum.clone());
        Ok(sum)
    }

    async fn get(&self, url: &str) -> Result<String, ApiError> {
        Ok(self
            .http
            .send(ApiRequest::get(http::STATIC, url.to_string()))
            .await?
            .text())
    }

    fn lock_latest(&self) -> std::sync::MutexGuard<'_, HashMap<&'static str, (String, Instant)>> {
        self.latest.lock().unwrap_or_else(|e| e.into_inner())
    }
}
