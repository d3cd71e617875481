//! Local sandboxes behind the emulated Daytona and CoreWeave APIs.

use std::path::{Path, PathBuf};

pub struct Sandboxes {
    pub root: PathBuf,
}

impl Sandboxes {
    pub fn new(root: &Path) -> anyhow::Result<Self> {
        std::fs::create_dir_all(root)?;
        Ok(Sandboxes {
            root: root.to_path_buf(),
        })
    }

    /// Stop every sandbox process (the emulator is exiting).
    pub async fn shutdown(&self) {}
}
