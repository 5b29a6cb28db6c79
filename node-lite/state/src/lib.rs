//! Cowboy's state store.
//!
//! Consensus state is one ordered key/value space (the key layout is
//! [`cowboy_types::state::key`]), kept in three layers:
//!
//! - [`Store`]: the durable copy in `redb`. A block's effects, its receipts and its indexes are
//!   written in **one** redb write transaction, so after a crash the store holds every block up
//!   to the last durable one and nothing of the next ([`Durability`]).
//! - [`Overlay`]: the uncommitted changes of the block being executed, with nested checkpoints
//!   so a failed transaction or handler reverts exactly its own writes.
//! - The state root: a Jellyfish Merkle Tree over `blake3(key) → blake3(value)`, updated per
//!   block in O(changes · log n) ([`tree`]), with inclusion and exclusion proofs
//!   ([`StateProof`]).

mod error;
pub mod events;
mod full_disk;
mod overlay;
mod store;
pub mod tree;
mod view;

pub use error::StoreError;
pub use full_disk::{FullDisk, is_full};
pub use overlay::{ChangeSet, Overlay};
pub use store::{BlockRecord, Durability, Prepared, Snapshot, Store, StoreOptions, TxLocation};
pub use tree::StateProof;
pub use view::{Entries, MemoryState, StateRead, prefix_end, successor};
