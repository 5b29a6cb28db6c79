//! Files and directories only their owner can read: `COWBOY_HOME` and everything under it
//! that holds keys (the keystore, node homes, devnet state).
//!
//! Directories are created `0700` (and an existing one is narrowed to `0700`); files are
//! written `0600`, atomically (a temporary file in the same directory, then a rename), so a
//! crash never leaves a half-written key behind.

use std::{io, path::Path};

/// Creates `dir` and its missing parents as `0700` (an existing `dir` is set to `0700`).
pub fn create_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
    }
    #[cfg(not(unix))]
    {
        std::fs::create_dir_all(dir)
    }
}

/// Writes `contents` to `path` as a `0600` file, atomically.
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let result = (|| {
        let mut file = options.open(&tmp)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // An earlier temporary file may exist with other permissions.
            file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
        file.write_all(contents)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used)] // Tests (clippy's test allowance reads only a plain `cfg(test)`).
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn directories_and_files_are_private() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home/devnets/a");
        create_dir(&home).unwrap();
        assert_eq!(mode(&root.path().join("home")), 0o700);
        assert_eq!(mode(&home), 0o700);
        let file = home.join("devnet.json");
        write(&file, b"{}").unwrap();
        assert_eq!(mode(&file), 0o600);
        assert_eq!(std::fs::read(&file).unwrap(), b"{}");
        // An existing, wider directory is narrowed.
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).unwrap();
        create_dir(&home).unwrap();
        assert_eq!(mode(&home), 0o700);
    }
}
