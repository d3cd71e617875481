//! Generate the CoreWeave Sandbox API (prost messages, tonic client and server) from the
//! descriptor set vendored in `proto/`, without protoc; and compile the emulator's fake
//! `devin-remote` (`fake_remote/main.rs`, `std` only) into an executable the emulator serves.

use std::path::PathBuf;

use prost::Message;

const FDSET: &str = "proto/cwsandbox-1.22.0.fdset.binpb";
/// The coreweave files we generate code for (the other services are not used). Their imports
/// (google.protobuf, google.api) stay in the set: prost needs them to resolve types, maps
/// google.protobuf to `prost_types`, and google.api only carries options.
const FILES: &[&str] = &[
    "coreweave/sandbox/v1/sandbox.proto",
    "coreweave/sandbox/v1/runtime_class.proto",
];

/// The fake remote's source; the executable lands in `$OUT_DIR/fake-remote`.
const FAKE_REMOTE: &str = "fake_remote/main.rs";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    fake_remote()?;
    println!("cargo:rerun-if-changed={FDSET}");
    println!("cargo:rerun-if-changed=build.rs");
    let bytes = std::fs::read(FDSET)?;
    let mut fds = prost_types::FileDescriptorSet::decode(bytes.as_slice())?;
    fds.file.retain(|f| {
        let name = f.name.as_deref().unwrap_or_default();
        !name.starts_with("coreweave/") || FILES.contains(&name)
    });
    let ours = fds
        .file
        .iter()
        .filter(|f| {
            f.name
                .as_deref()
                .is_some_and(|n| n.starts_with("coreweave/"))
        })
        .count();
    if ours != FILES.len() {
        return Err(format!("{FDSET} lacks one of {FILES:?}").into());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let mut config = prost_build::Config::new();
    config.bytes(["."]);
    tonic_build::configure()
        .build_client(true)
        .build_server(true)
        // Methods the emulator does not serve answer UNIMPLEMENTED (what the SDK expects for
        // ConnectSandbox).
        .generate_default_stubs(true)
        .out_dir(&out)
        .compile_fds_with_config(config, fds)?;
    Ok(())
}

/// A small, self-contained executable: the running remote must be the downloaded file itself
/// (`/proc/<pid>/exe`), as with Devin's real one. Built for the target with the same rustc.
fn fake_remote() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed={FAKE_REMOTE}");
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("fake-remote");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let mut cmd = std::process::Command::new(rustc);
    cmd.args([
        "--edition=2024",
        "--crate-type=bin",
        "--crate-name=devin_remote",
    ])
    .args([
        "-C",
        "opt-level=s",
        "-C",
        "debuginfo=0",
        "-C",
        "strip=symbols",
    ])
    .args(["-C", "panic=abort"])
    .arg("-o")
    .arg(&out)
    .arg(FAKE_REMOTE);
    if let (Ok(target), Ok(host)) = (std::env::var("TARGET"), std::env::var("HOST"))
        && target != host
    {
        cmd.args(["--target", &target]);
    }
    let status = cmd.status()?;
    if !status.success() {
        return Err(format!("compiling {FAKE_REMOTE} failed ({status})").into());
    }
    Ok(())
}
