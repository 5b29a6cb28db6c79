//! A full disk under the store: a write that fails for lack of space is handed to a
//! [`FullDisk`] policy (the node frees its reserve, then waits for space) and retried, so a
//! disk that fills between two free-space checks pauses the node instead of failing a commit
//! (redb treats any failed write as fatal until the database is reopened).
//!
//! Only writes are retried: a pwrite that failed with `ENOSPC` may have written a prefix, and
//! writing the same bytes at the same offset again is harmless. A failed `fsync` is never
//! retried — the kernel may already have dropped the dirty pages it could not write.

use redb::{BackendError, StorageBackend, backends::FileBackend};
use std::{
    fmt, io,
    ops::Bound,
    path::{Path, PathBuf},
    sync::Arc,
};

/// What to do when a write finds the disk full.
pub trait FullDisk: Send + Sync + 'static {
    /// A write to `file` failed for lack of space. Returns once it is worth retrying (space
    /// was freed), or `false` to fail the write.
    fn wait_for_space(&self, file: &Path) -> bool;
}

/// Whether `error` means the filesystem (or the user's quota) is full.
pub fn is_full(error: &io::Error) -> bool {
    // ENOSPC and EDQUOT.
    matches!(
        error.kind(),
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded
    )
}

/// redb's own file backend, with writes that wait for space instead of failing.
pub(crate) struct PatientFile {
    file: FileBackend,
    path: PathBuf,
    full: Arc<dyn FullDisk>,
}

impl PatientFile {
    pub(crate) fn new(file: FileBackend, path: &Path, full: Arc<dyn FullDisk>) -> Self {
        Self {
            file,
            path: path.to_owned(),
            full,
        }
    }

    fn patiently(&self, mut write: impl FnMut() -> io::Result<()>) -> io::Result<()> {
        loop {
            match write() {
                Err(e) if is_full(&e) && self.full.wait_for_space(&self.path) => continue,
                other => return other,
            }
        }
    }
}

impl fmt::Debug for PatientFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatientFile")
            .field("path", &self.path)
            .finish()
    }
}

impl StorageBackend for PatientFile {
    fn len(&self) -> Result<u64, io::Error> {
        self.file.len()
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), io::Error> {
        self.file.read(offset, out)
    }

    fn set_len(&self, len: u64) -> Result<(), io::Error> {
        self.patiently(|| self.file.set_len(len))
    }

    fn sync_data(&self) -> Result<(), io::Error> {
        self.file.sync_data()
    }

    fn write(&self, offset: u64, data: &[u8]) -> Result<(), io::Error> {
        self.patiently(|| self.file.write(offset, data))
    }

    fn close(&self) -> Result<(), io::Error> {
        self.file.close()
    }

    fn try_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.file.try_lock_range(start, end)
    }

    fn try_lock_shared_range(
        &self,
        start: Bound<u64>,
        end: Bound<u64>,
    ) -> Result<bool, BackendError> {
        self.file.try_lock_shared_range(start, end)
    }

    fn lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.file.lock_range(start, end)
    }

    fn lock_shared_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.file.lock_shared_range(start, end)
    }

    fn unlock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.file.unlock_range(start, end)
    }

    fn query_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.file.query_lock_range(start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counting(AtomicUsize, bool);

    impl FullDisk for Counting {
        fn wait_for_space(&self, _: &Path) -> bool {
            self.0.fetch_add(1, Ordering::SeqCst);
            self.1
        }
    }

    fn full() -> io::Error {
        io::Error::from_raw_os_error(28)
    }

    #[test]
    fn a_full_disk_write_is_retried_while_the_policy_says_so_and_other_errors_are_not() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("db");
        let file = std::fs::File::create(&path).expect("file");
        let policy = Arc::new(Counting(AtomicUsize::new(0), true));
        let patient = PatientFile::new(
            FileBackend::new(file).expect("backend"),
            &path,
            policy.clone(),
        );
        let mut failures = 2;
        let result = patient.patiently(|| {
            if failures > 0 {
                failures -= 1;
                Err(full())
            } else {
                Ok(())
            }
        });
        assert!(result.is_ok());
        assert_eq!(policy.0.load(Ordering::SeqCst), 2);

        let other = patient.patiently(|| Err(io::Error::other("bad sector")));
        assert_eq!(other.expect_err("not retried").to_string(), "bad sector");
        assert_eq!(policy.0.load(Ordering::SeqCst), 2);

        let giving_up = Arc::new(Counting(AtomicUsize::new(0), false));
        let file = std::fs::File::open(&path).expect("file");
        let impatient = PatientFile::new(
            FileBackend::new(file).expect("backend"),
            &path,
            giving_up.clone(),
        );
        assert!(is_full(
            &impatient.patiently(|| Err(full())).expect_err("gave up")
        ));
        assert_eq!(giving_up.0.load(Ordering::SeqCst), 1);
    }
}
