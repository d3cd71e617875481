//! The user's next step after an API failure. The clients in `api/` report what the wire said
//! (status, service, endpoint, the server's reason); the advice names settings and commands
//! ("check DAYTONA_API_KEY", "run `outposts connect`"), so it is decided here, beside the
//! settings it names. `crate::error`'s `HasHint` impls answer with these; `doctor` and the
//! CoreWeave provider's error mapping read them too.

use crate::api::coreweave::{CoreweaveError, ErrorKind};
use crate::api::daytona::TOOLBOX;
use crate::api::devin_v3::{DEVIN_V3, V3Error};
use crate::api::http::{COREWEAVE, DAYTONA, DEVIN, EMULATOR, STATIC};
use crate::api::outpost_lookup::OutpostLookupError;
use crate::api::{ApiError, Service};

/// What fixes a refused credential of this service (401/403).
pub fn auth(service: Service) -> &'static str {
    match service {
        s if s == DEVIN => {
            "run `outposts connect` to get a fresh outpost token, or set DEVIN_OUTPOSTS_TOKEN"
        }
        s if s == DEVIN_V3 => {
            "check DEVIN_API_KEY: a service-user key (cog_…) with ManageOrgSessions, ViewOrgSessions and ManageOrgSettings on DEVIN_ORG_ID"
        }
        s if s == DAYTONA => "check DAYTONA_API_KEY (an API key from the Daytona dashboard)",
        s if s == TOOLBOX => {
            "check DAYTONA_API_KEY; the toolbox proxy checks the same key as the API"
        }
        s if s == COREWEAVE => "check CWSANDBOX_API_KEY, or WANDB_API_KEY and WANDB_ENTITY",
        s if s == STATIC => "check DEVIN_WORKER_STATIC_BASE_URL",
        s if s == EMULATOR => "is `outposts emulator start` running on this port?",
        _ => "check the credential for this service",
    }
}

/// After an HTTP API's failure.
pub fn api(e: &ApiError) -> Option<String> {
    match e {
        ApiError::Unauthorized { service, .. } => Some(auth(*service).to_string()),
        ApiError::RateLimited { .. } => Some(
            "wait a little and retry; lower MAX_CONCURRENT_SESSIONS if this keeps happening".into(),
        ),
        ApiError::Transport { service, .. } if *service == EMULATOR => Some(auth(EMULATOR).into()),
        ApiError::Transport { .. } => {
            Some("check the URL setting and your network, then retry".into())
        }
        ApiError::Decode { .. } => {
            Some("the URL may point at the wrong server (a proxy or web page); check it".into())
        }
        _ => None,
    }
}

/// After a v3 (Devin sessions API) failure.
pub fn v3(e: &V3Error) -> Option<String> {
    match e {
        V3Error::KeyRefused { .. } => Some(
            "DEVIN_API_KEY is a service-user key (cog_…) from the organisation's settings; it is not DEVIN_OUTPOSTS_TOKEN".into(),
        ),
        V3Error::PermissionMissing { permission, .. } => Some(format!(
            "give the service user behind DEVIN_API_KEY the {permission} permission on the organisation (DEVIN_ORG_ID / --org)"
        )),
        V3Error::NotFound { .. } => {
            Some("check the id, and DEVIN_ORG_ID / --org (the organisation it belongs to)".into())
        }
        V3Error::Api(e) => api(e),
        _ => None,
    }
}

/// After a CoreWeave Sandbox API (gRPC) failure.
pub fn coreweave(e: &CoreweaveError) -> Option<String> {
    match e.kind {
        ErrorKind::Unauthenticated | ErrorKind::PermissionDenied => {
            Some(auth(COREWEAVE).to_string())
        }
        ErrorKind::Unavailable => Some(
            "check CWSANDBOX_BASE_URL and your network; the service may be briefly down, retry"
                .into(),
        ),
        ErrorKind::ResourceExhausted => Some(
            "the CoreWeave org is at its sandbox quota or capacity: stop unused sandboxes, \
             lower the worker count, or retry later"
                .into(),
        ),
        ErrorKind::DeadlineExceeded => {
            Some("the call took too long; retry, or allow a longer timeout".into())
        }
        ErrorKind::Unimplemented => Some(
            "this operation is not enabled for your CoreWeave org or endpoint (check \
             CWSANDBOX_BASE_URL)"
                .into(),
        ),
        _ => None,
    }
}

/// After an outpost could not be found from what the user typed.
pub fn outpost_lookup(e: &OutpostLookupError) -> Option<String> {
    match e {
        OutpostLookupError::NotFound { known, .. } if known.is_empty() => Some(
            "create one with `outposts outpost create NAME --platform linux` or run `outposts connect`"
                .into(),
        ),
        OutpostLookupError::NotFound { .. } => Some(
            "pass one of the ids or names above (`outposts outpost list` shows them all), or fix OUTPOST_ID"
                .into(),
        ),
        OutpostLookupError::Ambiguous { .. } => {
            Some("pass the outpost's id instead of its name".into())
        }
        OutpostLookupError::Empty => {
            Some("pass an outpost id (`outpost_env-…`) or name from `outposts outpost list`".into())
        }
        OutpostLookupError::Api(e) => api(e),
    }
}
