//! Settings resolved once, at the edge: each struct here is plain typed data with a
//! `resolve(&Config, flags…)` that reads [`crate::config`] (the layered loader) and
//! [`crate::env`] (the names), and nothing else does that for the API clients and providers.
//!
//! `api/` and `provider/` are handed these values and never see a `Config` (a test keeps that
//! rule, tests/it/layering.rs). So the advice a user needs for a missing or bad setting ("set
//! DAYTONA_API_KEY…", "run `outposts connect`…") lives here, next to the variable it names,
//! and the clients' own errors carry only what the wire said.

pub mod advice;
mod descriptor;
mod devin;
mod doctor;
mod http;
mod integrity;
mod keyring;
mod output;
mod prices;
mod provider;
#[cfg(test)]
mod tests;

pub use descriptor::{ALL as PROVIDERS, Descriptor, descriptor, not_ready};
pub use devin::{DevinSettings, V3Settings};
pub use doctor::DoctorSettings;
pub use http::HttpSettings;
pub use integrity::integrity_bounds;
pub use keyring::KeyringSettings;
pub use output::OutputSettings;
pub use prices::PriceSettings;
pub use provider::{
    CoreweaveSettings, DaytonaApiSettings, DaytonaSettings, LocalSettings, ProviderSettings,
};
