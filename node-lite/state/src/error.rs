//! Why a store operation failed.

use std::path::PathBuf;

/// A store failure. None of these is the caller's input being wrong: they mean the disk, the
/// database file or the node's own bookkeeping failed, and the operation changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the state database at {path}: {source}")]
    Open {
        path: PathBuf,
        #[source]
        source: Box<redb::DatabaseError>,
    },
    #[error(
        "the state database at {0} is open in another process: stop the node that uses it, then try again"
    )]
    InUse(PathBuf),
    #[error("there is no state database at {0}")]
    Missing(PathBuf),
    #[error("state database error: {0}")]
    Database(String),
    #[error("state tree error: {0}")]
    Tree(String),
    #[error("state record under key {key} is corrupt: {reason}")]
    Corrupt { key: String, reason: String },
    #[error("block {got} cannot be committed: the store is at {expected}")]
    OutOfOrder { expected: String, got: u64 },
    #[error("the overlay has {0} open checkpoints; commit or revert them first")]
    OpenCheckpoints(usize),
    #[error(
        "this node does not index events (event_index = false in its config.toml); ask a node \
         that does, or turn it on and restart (the index is rebuilt from the receipts)"
    )]
    EventIndexOff,
}

macro_rules! from_redb {
    ($($t:ty),*) => {$(
        impl From<$t> for StoreError {
            fn from(e: $t) -> Self {
                Self::Database(e.to_string())
            }
        }
    )*};
}
from_redb!(
    redb::Error,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError,
    redb::SetDurabilityError
);
