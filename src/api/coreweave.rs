//! CoreWeave Sandbox API client (gRPC, `coreweave.sandbox.v1.SandboxService`).

/// Generated messages, client and server (from `proto/`, see `build.rs`).
#[allow(clippy::all, clippy::pedantic, missing_docs, rustdoc::all)]
pub mod pb {
    include!(concat!(env!("OUT_DIR"), "/coreweave.sandbox.v1.rs"));
}
