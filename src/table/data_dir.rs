//! Where tables live when no directory is named.

use std::path::PathBuf;

/// The directory the binaries read and write tables in when `--data-dir` names none, the same
/// for all of them so that `gen-tables` writes where `solve` looks:
/// 1. `$CUBELAB_DATA`, if set and not empty;
/// 2. `data/` in the working directory, if it exists (a checkout of this repository has it);
/// 3. the per-user data directory of the platform, `cubelab` in it (on Linux
///    `$XDG_DATA_HOME/cubelab`, by default `~/.local/share/cubelab`);
/// 4. `data/`, where the system names no such directory.
pub fn default_data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CUBELAB_DATA").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from("data");
    if local.is_dir() {
        return local;
    }
    dirs::data_dir().map_or(local, |d| d.join("cubelab"))
}
