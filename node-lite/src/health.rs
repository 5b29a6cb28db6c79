//! What a node says about itself: why it stopped, whether it is stalled or catching up, and
//! whether its disk has room — the facts behind `cowboy_health`, `cowboy_status`, `GET /health`
//! and `cowboy status`.
//!
//! - **halted**: the node stopped applying blocks and will not resume by itself. The reason
//!   says why: its execution diverged from a finalized header, the execution engine panicked,
//!   or its storage failed. The state is kept for investigation; what to do for each is in the
//!   book ("Running a validator safely").
//! - **disk paused**: free space on the data directory fell below `min_free_bytes`
//!   ([`crate::disk`]). The node stops taking transactions and committing blocks, keeps
//!   everything it accepted, and resumes on its own once twice that much is free again.
//! - **stalled**: nothing was finalized for [`STALL_BLOCKS`] block times (a lost quorum, a
//!   partition): the node itself may be fine.
//! - **catching up**: execution trails finalization by more than
//!   [`cowboy_execution::MAX_EXECUTION_LAG`] blocks.

use serde::{Deserialize, Serialize};
use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

/// Block times without a finalization after which a node reports itself stalled.
pub const STALL_BLOCKS: u32 = 10;

/// Why a node halted (consensus-neutral: what operators and tools read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HaltKind {
    /// Its execution disagreed with a finalized header.
    Divergence,
    /// The execution engine panicked.
    Panic,
    /// Its storage failed (a read or a commit returned an error).
    Storage,
}

impl HaltKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Divergence => "divergence",
            Self::Panic => "panic",
            Self::Storage => "storage",
        }
    }
}

/// A halt and what caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halt {
    pub kind: HaltKind,
    pub message: String,
}

/// The halt, if any (set once: the first cause is the one that matters).
#[derive(Default)]
pub struct HaltState(Mutex<Option<Halt>>);

impl HaltState {
    pub fn get(&self) -> Option<Halt> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Records the halt; returns whether this was the first.
    pub fn set(&self, kind: HaltKind, message: String) -> bool {
        let mut halt = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if halt.is_some() {
            return false;
        }
        *halt = Some(Halt { kind, message });
        true
    }
}

/// When the node last saw the finalized height grow.
pub struct Progress {
    block_time: Duration,
    last: Mutex<Instant>,
}

impl Progress {
    pub fn new(block_time: Duration) -> Self {
        Self {
            block_time,
            last: Mutex::new(Instant::now()),
        }
    }

    pub fn finalized(&self) {
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    /// Time since the finalized height last grew.
    pub fn since_finalized(&self) -> Duration {
        self.last
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .elapsed()
    }

    pub fn stalled(&self) -> bool {
        self.since_finalized() > self.block_time * STALL_BLOCKS
    }
}
