//! The Cowboy validating node.
//!
//! This crate will grow into the full node: the redb state store, the state transition
//! function, system actors, Simplex consensus, p2p and the JSON-RPC server. The consensus types
//! and codec live in `cowboy-types` and the key handling in `cowboy-crypto`, both re-exported
//! here so that downstream crates depend on one name.

pub use cowboy_crypto as crypto;
pub use cowboy_types as types;
