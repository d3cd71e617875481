//! Generate the CoreWeave Sandbox API (prost messages, tonic client and server) from the
//! descriptor set vendored in `proto/`, without protoc.

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

fn main() -> Result<(), Box<dyn std::error::Error>> {
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
