//! What sandboxes cost: the price table of each provider ([`prices`]).
//!
//! Pure data and arithmetic; settings resolve the table ([`crate::settings::PriceSettings`]),
//! the orchestrator records what each session's sandbox used, and commands render it.

pub mod prices;
