//! What sandboxes cost: the price table of each provider ([`prices`]), the per-session cost
//! ledger the orchestrator keeps in its state dir ([`ledger`], its arithmetic in [`tally`]),
//! and the aggregation `outposts cost` prints ([`report`]).
//!
//! Pure data and arithmetic apart from the ledger file; settings resolve the table
//! ([`crate::settings::PriceSettings`]), the orchestrator records, commands render.

pub mod ledger;
pub mod prices;
pub mod report;
pub mod tally;
