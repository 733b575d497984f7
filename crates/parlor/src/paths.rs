//! Where Parlor keeps its data: `--data-dir`, else `$PARLOR_DATA_DIR`, else the XDG data directory
//! (`~/.local/share/parlor` on Linux, the platform's equivalent elsewhere); and where it keeps its settings:
//! `--config-dir`, else `$PARLOR_CONFIG_DIR`, else the XDG config directory (`~/.config/parlor` on Linux).

use anyhow::{Result, anyhow};
use std::path::{Path, PathBuf};

/// The data directory to use.
pub fn data_dir(flag: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = flag {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("PARLOR_DATA_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "parlor")
        .map(|p| p.data_dir().to_path_buf())
        .ok_or_else(|| anyhow!("no home directory found: set PARLOR_DATA_DIR or pass --data-dir"))
}

/// The configuration directory to use (the settings file lives there).
pub fn config_dir(flag: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = flag {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("PARLOR_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "parlor")
        .map(|p| p.config_dir().to_path_buf())
        .ok_or_else(|| {
            anyhow!("no home directory found: set PARLOR_CONFIG_DIR or pass --config-dir")
        })
}
