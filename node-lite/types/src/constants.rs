//! Consensus-critical size limits of the encoding, each defined once and citing its source.
//!
//! Limits marked "Cowboy decision" are not fixed by the spec; they are recorded in
//! `book/src/reference/encoding.md`.

/// Largest encoded transaction, in bytes (whitepaper §12.1 `max_tx_size` = 128 KiB).
pub const MAX_TX_SIZE: usize = 128 * 1024;

/// Largest `metadata` byte string. Bounded by `max_tx_size`; the whole transaction is checked too.
pub const MAX_METADATA_SIZE: usize = MAX_TX_SIZE;

/// Largest actor source in a deploy instruction. Bounded by `max_tx_size`.
pub const MAX_CODE_SIZE: usize = MAX_TX_SIZE;

/// Largest argument blob of a message, deploy or timer. Bounded by `max_tx_size`.
pub const MAX_ARGS_SIZE: usize = MAX_TX_SIZE;

/// Longest handler/method name in bytes (Cowboy decision).
pub const MAX_METHOD_NAME_LEN: usize = 128;

/// Most `additional_signers` on one transaction (Cowboy decision).
pub const MAX_ADDITIONAL_SIGNERS: usize = 16;

/// Most entries in the reserved `access_list` (Cowboy decision; v1 does not enforce it).
pub const MAX_ACCESS_LIST_ENTRIES: usize = 256;

/// Most storage keys per `access_list` entry (Cowboy decision).
pub const MAX_ACCESS_LIST_KEYS: usize = 256;
