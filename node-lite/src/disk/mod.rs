//! Free space on a node's data directory, and what the node does when it runs out.
//!
//! - **Floor.** Every second (and whenever health is asked) the node measures free space. Below
//!   `min_free_bytes` it pauses: no new transactions, no proposals, no votes, no block
//!   commits. At twice the floor it resumes (so it does not flap at the edge).
//! - **Reserve.** A disk can fill faster than a once-a-second check sees it (another process
//!   writes until `ENOSPC`). So the node keeps a reserve file ([`RESERVE_FILE`],
//!   `min_free_bytes / 8`) and its stores never fail a write for lack of space: the first
//!   such write releases the reserve and is retried, and any later one waits, paused, until
//!   space returns ([`cowboy_state::FullDisk`] for the chain store, [`runtime::Patient`] for
//!   consensus storage). The reserve is taken again when the node resumes.
//!
//! A write that waits is one the node has not acknowledged yet: consensus has not sent the
//! vote it was journaling, execution has not committed the block. Nothing is lost or half
//! written, and nothing is signed that was not recorded first.

pub mod runtime;

use std::{
    path::{Path, PathBuf},
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

/// The reserve file, in the data directory.
pub const RESERVE_FILE: &str = "disk.reserve";

/// How often a write waiting for space looks again.
pub const WAIT: Duration = Duration::from_secs(1);

/// Free space on the data directory, against the configured floor, and the reserve.
pub struct Disk {
    path: PathBuf,
    min_free: u64,
    paused: AtomicBool,
    free: AtomicU64,
    reserve: Reserve,
}

/// What the disk looks like now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiskState {
    pub free_bytes: u64,
    pub min_free_bytes: u64,
    pub paused: bool,
}

/// What a write that found the disk full should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFull {
    /// The reserve was released: retry at once.
    RetryNow,
    /// No reserve is left: retry once the node resumes.
    WaitForSpace,
}

impl Disk {
    /// Measures `path` (the data directory) and takes the reserve if there is room for it.
    pub fn new(path: &Path, min_free: u64) -> Self {
        let disk = Self {
            path: path.to_owned(),
            min_free,
            paused: Default::default(),
            free: Default::default(),
            reserve: Reserve {
                path: path.join(RESERVE_FILE),
                size: min_free / 8,
                held: Mutex::new(false),
            },
        };
        if !disk.check().paused {
            disk.reserve.take();
        }
        disk
    }

    /// Measures the free space and updates the pause: paused below `min_free`, resumed once
    /// twice that is free. The reserve is taken again on resuming. Returns the new state.
    pub fn check(&self) -> DiskState {
        let free = free_bytes(&self.path).unwrap_or(u64::MAX);
        self.free.store(free, Ordering::Release);
        let was = self.paused.load(Ordering::Acquire);
        let paused = if was {
            free < self.min_free.saturating_mul(2)
        } else {
            free < self.min_free
        };
        if paused != was {
            self.paused.store(paused, Ordering::Release);
            if paused {
                tracing::error!(
                    path = %self.path.display(),
                    free,
                    min_free = self.min_free,
                    "DISK FULL: the data directory is nearly out of space; this node takes no \
                     transactions and commits no blocks until space is freed"
                );
            } else {
                tracing::warn!(free, "disk space is back; the node resumes");
                self.reserve.take();
            }
        }
        self.state()
    }

    pub fn state(&self) -> DiskState {
        DiskState {
            free_bytes: self.free.load(Ordering::Acquire),
            min_free_bytes: self.min_free,
            paused: self.paused.load(Ordering::Acquire),
        }
    }

    pub fn paused(&self) -> bool {
        self.paused.load(Ordering::Acquire)
    }

    /// A write to `file` failed for lack of space: releases the reserve if the node still
    /// holds it, and pauses the node.
    pub fn on_full(&self, file: &Path) -> OnFull {
        let released = self.reserve.release();
        // Paused until a later check finds twice the floor free.
        self.paused.store(true, Ordering::Release);
        if let Some(free) = free_bytes(&self.path) {
            self.free.store(free, Ordering::Release);
        }
        if released {
            tracing::error!(
                file = %file.display(),
                reserve = self.reserve.size,
                "DISK FULL: a write found no space; the node released its reserve to finish it \
                 and pauses until space is freed"
            );
            OnFull::RetryNow
        } else {
            tracing::error!(
                file = %file.display(),
                "DISK FULL: a write found no space and the reserve is spent; the node waits, \
                 paused, until space is freed"
            );
            OnFull::WaitForSpace
        }
    }
}

impl cowboy_state::FullDisk for Disk {
    /// Blocks the writing thread (the execution worker) until the write is worth retrying.
    fn wait_for_space(&self, file: &Path) -> bool {
        if self.on_full(file) == OnFull::WaitForSpace {
            // At least one wait: a full quota leaves statvfs showing free space.
            std::thread::sleep(WAIT);
            while self.check().paused {
                std::thread::sleep(WAIT);
            }
        }
        true
    }
}

/// A file of reserved space, released when a store finds the disk full.
struct Reserve {
    path: PathBuf,
    size: u64,
    /// Whether the file is allocated (also serializes taking and releasing it).
    held: Mutex<bool>,
}

impl Reserve {
    /// Allocates the reserve (its blocks, not a sparse file), if it is not held already.
    fn take(&self) {
        let Ok(mut held) = self.held.lock() else {
            return;
        };
        if *held || self.size == 0 {
            return;
        }
        match allocate(&self.path, self.size) {
            Ok(()) => *held = true,
            Err(e) => {
                let _ = std::fs::remove_file(&self.path);
                tracing::warn!(
                    path = %self.path.display(),
                    size = self.size,
                    error = %e,
                    "cannot take the disk reserve; a sudden full disk will pause writes \
                     without one"
                );
            }
        }
    }

    /// Deletes the reserve; returns whether that freed space.
    fn release(&self) -> bool {
        let Ok(mut held) = self.held.lock() else {
            return false;
        };
        let was = std::mem::replace(&mut *held, false);
        was && std::fs::remove_file(&self.path).is_ok()
    }
}

/// Creates `path` with `size` bytes of allocated blocks.
fn allocate(path: &Path, size: u64) -> std::io::Result<()> {
    use std::os::fd::AsRawFd as _;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let len = libc::off_t::try_from(size).map_err(std::io::Error::other)?;
    // SAFETY: `file` is an open, writable descriptor for the duration of the call.
    match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) } {
        0 => file.sync_all(),
        code => Err(std::io::Error::from_raw_os_error(code)),
    }
}

/// Bytes an unprivileged process may still write on the filesystem holding `path`.
fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt as _;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs writes into the zeroed struct it is given; `c` is a valid C string.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    Some((stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reserve_is_allocated_released_once_and_taken_again() {
        let dir = tempfile::tempdir().expect("dir");
        let disk = Disk::new(dir.path(), 8 * 1024 * 1024);
        let reserve = dir.path().join(RESERVE_FILE);
        let meta = std::fs::metadata(&reserve).expect("reserve taken at start");
        assert_eq!(meta.len(), 1024 * 1024);
        use std::os::unix::fs::MetadataExt as _;
        assert!(meta.blocks() * 512 >= 1024 * 1024, "allocated, not sparse");

        assert_eq!(disk.on_full(&reserve), OnFull::RetryNow);
        assert!(!reserve.exists());
        assert_eq!(disk.on_full(&reserve), OnFull::WaitForSpace);
        // Plenty of space in a temporary directory: the next check resumes and takes it again.
        assert!(!disk.check().paused);
        assert!(reserve.exists());
    }
}
