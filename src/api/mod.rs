//! The shared API layer: every byte that crosses the network.

pub mod http;

pub use http::{ApiError, ApiRequest, ApiResponse, HttpClient, HttpOptions, Service};
pub mod connection_token;
pub mod coreweave;
pub mod daytona;
pub mod daytona_types;
pub mod devin;
pub mod devin_types;
pub mod devin_v3;
pub mod devin_v3_types;
pub mod network_policy;
pub mod outpost_lookup;
pub mod sse;
pub mod telemetry;
