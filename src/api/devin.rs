//! The Devin fleet API client: the session queue (list, get, claim, release, watch) and outposts.
//!
//! Paths are under `{DEVIN_API_URL}/opbeta/outposts` (specs/devin-outposts-api.md §5). Outposts
//! use the short path `/opbeta/outposts[/{id}]`, which every implementation calls (§5.6). Session
//! and outpost ids are percent-encoded as single path segments, so a hostile id can never
//! address another resource. Every request goes through [`HttpClient`].

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Value, json};

pub use crate::api::devin_types::*;
use crate::api::http::{self, ApiError, ApiRequest, ApiResponse, HttpClient};
use crate::api::sse::{RequestBuilder, Watch, WatchOptions};
use crate::secrets::Secret;
use crate::settings::DevinSettings;

/// Largest page the queue serves.
pub const MAX_PAGE: u32 = 200;
/// Guard against a server that hands out fresh cursors forever.
const MAX_PAGES: u32 = 10_000;

/// Everything but the RFC 3986 unreserved characters (and `.`, so `..` cannot become a path
/// step) is escaped.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'~');

/// Percent-encode one path segment. `.`/`..` and empty ids cannot be sent safely at all: URL
/// parsers treat even `%2E%2E` as "parent directory" (a literal `%2e` is escaped to `%252e`).
pub fn path_segment(id: &str) -> Result<String, ApiError> {
    let trimmed = id.trim();
    if trimmed.is_empty() || id == "." || id == ".." || id.chars().any(char::is_control) {
        return Err(ApiError::InvalidInput {
            service: http::DEVIN,
            detail: format!(
                "the id {:?} cannot be used in a URL path (empty, a dot segment or control characters)",
                id.chars().take(80).collect::<String>()
            ),
        });
    }
    Ok(utf8_percent_encode(id, SEGMENT).to_string())
}

/// Filters for [`DevinClient::list`].
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    pub outpost: Option<String>,
    pub phase: Option<Phase>,
    pub acceptor_id: Option<String>,
    /// 1–200; default 200.
    pub page_size: Option<u32>,
}

/// One page of the queue.
#[derive(Debug, Clone)]
pub struct ListPage {
    pub items: Vec<QueueEntry>,
    pub cursor: Option<String>,
    pub has_next_page: bool,
    pub total: Option<u64>,
    /// Entries we could not read (logged and skipped).
    pub skipped: usize,
}

/// The whole queue, all pages.
#[derive(Debug, Clone)]
pub struct Listing<E = Vec<QueueEntry>> {
    /// Deduplicated by session id; later pages win (in the server's order in a `Vec`).
    pub entries: E,
    /// The last page's cursor: start a watch here to see only later changes.
    pub cursor: Option<String>,
    pub total: Option<u64>,
    pub pages: u32,
    pub skipped: usize,
}

impl Listing<()> {
    fn with<E>(self, entries: E) -> Listing<E> {
        Listing {
            entries,
            cursor: self.cursor,
            total: self.total,
            pages: self.pages,
            skipped: self.skipped,
        }
    }
}

// Short-lived return values; boxing the entry would only cost callers a deref.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum ClaimOutcome {
    /// The claim is ours (or was renewed): the entry carries `connect_token`, `gateway_url` and
    /// `claim_deadline`.
    Won(QueueEntry),
    /// 409: another acceptor holds it, or it is not claimable (suspended/terminated).
    Conflict { message: String },
    /// 404: the entry is gone (suspended or terminated).
    Gone,
}

#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum ReleaseOutcome {
    /// Released; the entry when the server returned one.
    Released(Option<QueueEntry>),
    /// 409 or 404: we did not hold it (any more).
    AlreadyReleased { message: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteOutcome {
    Deleted,
    AlreadyGone,
}

/// What [`DevinClient::probe`] learned.
#[derive(Debug, Clone)]
pub struct Probe {
    /// Entries in the (outpost's) queue, when the server reports a total.
    pub queue_total: Option<u64>,
    /// The server's `Date` header.
    pub server_date: Option<std::time::SystemTime>,
}

/// The fleet API client. Cheap to clone.
#[derive(Clone)]
pub struct DevinClient {
    http: HttpClient,
    base: String,
    token: Secret,
}

impl std::fmt::Debug for DevinClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DevinClient")
            .field("base", &self.base)
            .field("token", &self.token)
            .finish()
    }
}

impl DevinClient {
    /// The client of resolved [`DevinSettings`] (the origin is already normalised there).
    pub fn new(settings: DevinSettings, http: HttpClient) -> Self {
        DevinClient {
            http,
            base: settings.api_url,
            token: settings.token,
        }
    }

    pub fn base_url(&self) -> &str {
        &self.base
    }

    fn url(&self, path: &str) -> String {
        format!("{}/opbeta/outposts{path}", self.base)
    }

    fn get_req(&self, path: &str) -> ApiRequest {
        ApiRequest::get(http::DEVIN, self.url(path)).bearer(&self.token)
    }

    fn post_req(&self, path: &str) -> ApiRequest {
        ApiRequest::post(http::DEVIN, self.url(path)).bearer(&self.token)
    }

    /// One page of `GET /opbeta/outposts/devins`.
    pub async fn list_page(
        &self,
        q: &ListQuery,
        cursor: Option<&str>,
    ) -> Result<ListPage, ApiError> {
        let first = q.page_size.unwrap_or(MAX_PAGE).clamp(1, MAX_PAGE);
        let mut req = self.get_req("/devins").query("first", first);
        if let Some(o) = &q.outpost {
            req = req.query("outpost", o);
        }
        if let Some(p) = q.phase {
            req = req.query("phase", p.as_str());
        }
        if let Some(a) = &q.acceptor_id {
            req = req.query("acceptor_id", a);
        }
        if let Some(c) = cursor {
            req = req.query("cursor", c);
        }
        let resp = self.http.send(req).await?;
        parse_list_page(&resp)
    }

    /// Every page, in the server's order: see [`DevinClient::list_pages`].
    pub async fn list(&self, q: &ListQuery) -> Result<Listing, ApiError> {
        let mut entries: Vec<QueueEntry> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let tail = self
            .list_pages(q, |e| match index.get(&e.session_id) {
                Some(&i) => entries[i] = e,
                None => {
                    index.insert(e.session_id.clone(), entries.len());
                    entries.push(e);
                }
            })
            .await?;
        Ok(tail.with(entries))
    }

    /// Every page keyed by session id, each entry made into what the caller keeps (`keep`):
    /// the orchestrator's relist builds its view from this directly, sharing the rows it
    /// already holds unchanged instead of holding every row twice while it reads.
    pub async fn list_keyed<V>(
        &self,
        q: &ListQuery,
        mut keep: impl FnMut(QueueEntry) -> V,
    ) -> Result<Listing<BTreeMap<String, V>>, ApiError> {
        let mut entries = BTreeMap::new();
        let tail = self
            .list_pages(q, |e| {
                entries.insert(e.session_id.clone(), keep(e));
            })
            .await?;
        Ok(tail.with(entries))
    }

    /// Every page: follows `cursor` while `has_next_page`, hands each entry to `each` (an
    /// entry repeated at a page boundary comes again: later pages win) and fails rather than
    /// loop when the server repeats a cursor.
    async fn list_pages(
        &self,
        q: &ListQuery,
        mut each: impl FnMut(QueueEntry),
    ) -> Result<Listing<()>, ApiError> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0u32;
        let mut skipped = 0usize;
        loop {
            let page = self.list_page(q, cursor.as_deref()).await?;
            pages += 1;
            skipped += page.skipped;
            page.items.into_iter().for_each(&mut each);
            if !page.has_next_page {
                return Ok(Listing {
                    entries: (),
                    cursor: page.cursor,
                    total: page.total,
                    pages,
                    skipped,
                });
            }
            let next = page.cursor.ok_or_else(|| ApiError::Decode {
                service: http::DEVIN,
                url: self.url("/devins"),
                detail: "the queue says there are more pages but sent no cursor".into(),
            })?;
            if !seen.insert(next.clone()) || cursor.as_deref() == Some(next.as_str()) {
                return Err(ApiError::Decode {
                    service: http::DEVIN,
                    url: self.url("/devins"),
                    detail: format!(
                        "the queue listing does not advance: page {pages} repeated an earlier cursor; stopped to avoid an endless loop"
                    ),
                });
            }
            if pages >= MAX_PAGES {
                return Err(ApiError::Decode {
                    service: http::DEVIN,
                    url: self.url("/devins"),
                    detail: format!("the queue listing did not end after {MAX_PAGES} pages"),
                });
            }
            cursor = Some(next);
        }
    }

    /// `GET /opbeta/outposts/devins/{id}`; `None` when the entry is gone (404).
    pub async fn get(&self, session_id: &str) -> Result<Option<QueueEntry>, ApiError> {
        let path = format!("/devins/{}", path_segment(session_id)?);
        match self.http.send(self.get_req(&path)).await {
            Ok(resp) => Ok(Some(parse_entry(&resp)?)),
            Err(ApiError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Claim (or renew, for the same acceptor) a session. Resent on transport errors: a resent
    /// claim by the same acceptor is a renewal, so the retry is safe.
    pub async fn claim(
        &self,
        session_id: &str,
        acceptor_id: &str,
    ) -> Result<ClaimOutcome, ApiError> {
        let path = format!("/devins/{}/claim", path_segment(session_id)?);
        let req = self
            .post_req(&path)
            .json(&json!({"acceptor_id": acceptor_id}))
            .retry_always();
        match self.http.send(req).await {
            Ok(resp) => Ok(ClaimOutcome::Won(parse_entry(&resp)?)),
            Err(ApiError::Conflict { message, .. }) => Ok(ClaimOutcome::Conflict { message }),
            Err(ApiError::NotFound { .. }) => Ok(ClaimOutcome::Gone),
            Err(e) => Err(e),
        }
    }

    /// Give a claim back. 409/404 mean we did not hold it (any more): not an error.
    pub async fn release(
        &self,
        session_id: &str,
        acceptor_id: &str,
    ) -> Result<ReleaseOutcome, ApiError> {
        let path = format!("/devins/{}/release", path_segment(session_id)?);
        let req = self
            .post_req(&path)
            .json(&json!({"acceptor_id": acceptor_id}))
            .retry_always();
        match self.http.send(req).await {
            Ok(resp) => {
                let entry = resp
                    .json_value()
                    .ok()
                    .and_then(|v| QueueEntry::from_value(&v).ok());
                Ok(ReleaseOutcome::Released(entry))
            }
            Err(ApiError::Conflict { message, .. }) | Err(ApiError::NotFound { message, .. }) => {
                Ok(ReleaseOutcome::AlreadyReleased { message })
            }
            Err(e) => Err(e),
        }
    }

    /// A reconnecting watch of the queue (`?watch=true`), from `cursor` (None replays
    /// everything: list first and pass the listing's cursor).
    pub fn watch(&self, outpost: Option<&str>, cursor: Option<String>) -> Watch {
        self.watch_with(outpost, cursor, WatchOptions::default())
    }

    pub fn watch_with(
        &self,
        outpost: Option<&str>,
        cursor: Option<String>,
        opts: WatchOptions,
    ) -> Watch {
        let me = self.clone();
        let outpost = outpost.map(str::to_string);
        let build: RequestBuilder = Arc::new(move |cursor: Option<&str>| {
            let mut req = me.get_req("/devins").query("watch", "true");
            if let Some(o) = &outpost {
                req = req.query("outpost", o);
            }
            if let Some(c) = cursor {
                req = req.query("cursor", c);
            }
            req
        });
        Watch::new(self.http.clone(), build, cursor, opts)
    }

    /// The cheapest authenticated read, for `doctor`: one entry of the outpost's queue
    /// (`GET /opbeta/outposts/devins?first=1`), with the server's `Date` header so the caller
    /// can measure clock skew.
    pub async fn probe(&self, outpost: Option<&str>) -> Result<Probe, ApiError> {
        let mut req = self.get_req("/devins").query("first", 1);
        if let Some(o) = outpost {
            req = req.query("outpost", o);
        }
        let resp = self.http.send(req).await?;
        let page = parse_list_page(&resp)?;
        let server_date = resp
            .headers
            .get(reqwest::header::DATE)
            .and_then(|v| v.to_str().ok())
            .and_then(|s| httpdate::parse_http_date(s).ok());
        Ok(Probe {
            queue_total: page.total,
            server_date,
        })
    }

    /// Every outpost of the account (`first`/`after` paging).
    pub async fn list_outposts(&self) -> Result<Vec<Outpost>, ApiError> {
        let mut out = Vec::new();
        let mut after: Option<String> = None;
        let mut seen = HashSet::new();
        for _ in 0..MAX_PAGES {
            let mut req = self.get_req("").query("first", 100);
            if let Some(a) = &after {
                req = req.query("after", a);
            }
            let resp = self.http.send(req).await?;
            let v = resp.json_value()?;
            let items = v.get("items").and_then(Value::as_array).ok_or_else(|| {
                resp.decode_error("expected an object with an `items` list".into())
            })?;
            for item in items {
                match Outpost::from_value(item) {
                    Ok(o) => out.push(o),
                    Err(e) => tracing::warn!("skipping an outpost we cannot read: {e}"),
                }
            }
            let more = bool_field(&v, "has_next_page");
            let next = str_field(&v, "end_cursor");
            match (more, next) {
                (true, Some(n)) => {
                    if !seen.insert(n.clone()) {
                        return Err(resp.decode_error(
                            "the outpost listing does not advance (repeated cursor)".into(),
                        ));
                    }
                    after = Some(n);
                }
                (true, None) => {
                    return Err(resp.decode_error(
                        "the outpost list says there are more pages but sent no end_cursor".into(),
                    ));
                }
                (false, _) => return Ok(out),
            }
        }
        Err(ApiError::Decode {
            service: http::DEVIN,
            url: self.url(""),
            detail: format!("the outpost listing did not end after {MAX_PAGES} pages"),
        })
    }

    /// One outpost; `None` when it does not exist.
    pub async fn get_outpost(&self, outpost_id: &str) -> Result<Option<Outpost>, ApiError> {
        let path = format!("/{}", path_segment(outpost_id)?);
        match self.http.send(self.get_req(&path)).await {
            Ok(resp) => Ok(Some(parse_outpost(&resp)?)),
            Err(ApiError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// One outpost by id, for a token that may only list: the machine (outpost) token may not
    /// be allowed to GET one outpost, but the list is readable.
    pub async fn find_outpost(&self, outpost_id: &str) -> Result<Option<Outpost>, ApiError> {
        match self.get_outpost(outpost_id).await {
            Err(ApiError::Unauthorized { .. }) => Ok(self
                .list_outposts()
                .await?
                .into_iter()
                .find(|o| o.outpost_id == outpost_id)),
            other => other,
        }
    }

    /// `POST /opbeta/outposts` (orchestrator scope). Not resent after a transport error: a
    /// duplicate would fail with 409 and hide the first outcome.
    pub async fn create_outpost(
        &self,
        name: &str,
        platform: Option<Platform>,
        description: Option<&str>,
    ) -> Result<Outpost, ApiError> {
        let body = json!({
            "name": name,
            "platform": platform.map(|p| p.as_str()),
            "description": description,
        });
        let resp = self.http.send(self.post_req("").json(&body)).await?;
        parse_outpost(&resp)
    }

    /// `DELETE /opbeta/outposts/{id}` (orchestrator scope); 404 = already gone.
    pub async fn delete_outpost(&self, outpost_id: &str) -> Result<DeleteOutcome, ApiError> {
        let path = format!("/{}", path_segment(outpost_id)?);
        let req = ApiRequest::new(http::DEVIN, reqwest::Method::DELETE, self.url(&path))
            .bearer(&self.token);
        match self.http.send(req).await {
            Ok(_) => Ok(DeleteOutcome::Deleted),
            Err(ApiError::NotFound { .. }) => Ok(DeleteOutcome::AlreadyGone),
            Err(e) => Err(e),
        }
    }
}

fn parse_entry(resp: &ApiResponse) -> Result<QueueEntry, ApiError> {
    let v = resp.json_value()?;
    QueueEntry::from_value(&v).map_err(|e| resp.decode_error(e))
}

fn parse_outpost(resp: &ApiResponse) -> Result<Outpost, ApiError> {
    let v = resp.json_value()?;
    Outpost::from_value(&v).map_err(|e| resp.decode_error(e))
}

fn str_field(v: &Value, name: &str) -> Option<String> {
    v.get(name)
        .or_else(|| v.get(camel(name)))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

fn bool_field(v: &Value, name: &str) -> bool {
    v.get(name)
        .or_else(|| v.get(camel(name)))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// Parse one list page tolerantly: unreadable entries are skipped with a warning.
pub fn parse_list_page(resp: &ApiResponse) -> Result<ListPage, ApiError> {
    let v = resp.json_value()?;
    parse_list_value(&v).map_err(|e| resp.decode_error(e))
}

fn parse_list_value(v: &Value) -> Result<ListPage, String> {
    let items = v
        .get("items")
        .and_then(Value::as_array)
        .ok_or_else(|| "expected an object with an `items` list".to_string())?;
    let mut out = Vec::with_capacity(items.len());
    let mut skipped = 0;
    for item in items {
        match QueueEntry::from_value(item) {
            Ok(e) => out.push(e),
            Err(e) => {
                skipped += 1;
                tracing::warn!("skipping a queue entry we cannot read: {e}");
            }
        }
    }
    Ok(ListPage {
        items: out,
        cursor: str_field(v, "cursor")
            .or_else(|| str_field(v, "end_cursor"))
            .or_else(|| str_field(v, "next_cursor")),
        has_next_page: bool_field(v, "has_next_page"),
        total: v.get("total").and_then(Value::as_u64),
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_ids_stay_one_segment() {
        assert_eq!(path_segment("devin-abc_1").unwrap(), "devin-abc_1");
        assert_eq!(path_segment("../../etc").unwrap(), "%2E%2E%2F%2E%2E%2Fetc");
        assert_eq!(path_segment("a b/ü?#").unwrap(), "a%20b%2F%C3%BC%3F%23");
        assert_eq!(path_segment("%2e%2e").unwrap(), "%252e%252e");
        for bad in ["", " ", ".", "..", "a\nb"] {
            assert!(path_segment(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn base_is_normalised() {
        let http = HttpClient::new(crate::api::HttpOptions::default()).unwrap();
        for raw in [
            "http://x:1",
            "http://x:1/",
            "http://x:1/opbeta",
            "http://x:1/opbeta/",
        ] {
            let c = DevinClient::new(
                DevinSettings::new(raw, Secret::new("cog_testtoken123")),
                http.clone(),
            );
            assert_eq!(c.base_url(), "http://x:1");
            assert_eq!(c.url("/devins"), "http://x:1/opbeta/outposts/devins");
        }
        let c = DevinClient::new(
            DevinSettings::new("http://x:1", Secret::new("cog_testtoken123")),
            http,
        );
        assert!(!format!("{c:?}").contains("cog_testtoken123"));
    }

    #[test]
    fn list_pages_parse_tolerantly() {
        let v = json!({"items": [
            {"metadata": {"session_id": "devin-1"}, "status": {"phase": "pending", "session_status": "exploded"}},
            {"status": {"phase": "pending"}},
            "nonsense"
        ], "cursor": "c2", "has_next_page": true, "total": 3});
        let p = parse_list_value(&v).unwrap();
        assert_eq!(p.items.len(), 1);
        assert_eq!(p.skipped, 2);
        assert_eq!(p.items[0].session_status, SessionStatus::Unknown);
        assert_eq!(p.cursor.as_deref(), Some("c2"));
        assert!(p.has_next_page);
        assert_eq!(p.total, Some(3));
        let camel = json!({"items": [], "endCursor": "e", "hasNextPage": false});
        let p = parse_list_value(&camel).unwrap();
        assert_eq!(p.cursor.as_deref(), Some("e"));
        assert!(!p.has_next_page);
        assert!(parse_list_value(&json!({"data": []})).is_err());
        assert!(parse_list_value(&json!([1])).is_err());
    }
}
