//! Where Parlor keeps its data: `--data-dir`, else `$PARLOR_DATA_DIR`, else the platform's data directory; and where
//! it keeps its settings: `--config-dir`, else `$PARLOR_CONFIG_DIR`, else the platform's config directory. The
//! platform's directories are the `directories` crate's: on Linux the XDG ones (`~/.local/share/parlor`,
//! `~/.config/parlor`), on macOS `~/Library/Application Support/parlor`, on Windows the known folder Roaming
//! AppData (`%APPDATA%\parlor\data` and `%APPDATA%\parlor\config`).

use anyhow::{Result, anyhow};
use std::path::{Path, PathBuf};

/// The data directory to use.
pub fn data_dir(flag: Option<&Path>) -> Result<PathBuf> {
    chosen_dir(
        flag,
        "PARLOR_DATA_DIR",
        "--data-dir",
        directories::ProjectDirs::data_dir,
    )
}

/// The configuration directory to use (the settings file lives there).
pub fn config_dir(flag: Option<&Path>) -> Result<PathBuf> {
    chosen_dir(
        flag,
        "PARLOR_CONFIG_DIR",
        "--config-dir",
        directories::ProjectDirs::config_dir,
    )
}

/// The flag's directory, else the environment variable `var`'s (when not empty), else the platform's (`xdg`).
fn chosen_dir(
    flag: Option<&Path>,
    var: &str,
    option: &str,
    xdg: fn(&directories::ProjectDirs) -> &Path,
) -> Result<PathBuf> {
    if let Some(dir) = flag {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "parlor")
        .map(|p| xdg(&p).to_path_buf())
        .ok_or_else(|| anyhow!("no home directory found: set {var} or pass {option}"))
}
