//! TEE attestation (spec README "TEE"; whitepaper §5.2): what a runner declaring a TEE proves to
//! the TEE Verifier (`0x…05`) so `tee_required` jobs and the `deterministic` mode can select it.
//!
//! Real attestation formats are not specified by the documents, so the verifier's policy is
//! pluggable by [`AttestationKind`]. The one kind accepted today is `simulated`: a statement
//! signed with a devnet-only ed25519 key named in the genesis (`tee.simulated_key`), shown as
//! `simulated` wherever an attestation is shown. A chain whose genesis names no such key
//! accepts no attestation.

use crate::{Address, Hash, bounded::Bytes, keccak256, record, runner::codes};
use serde::{Deserialize, Serialize};

codes! {
    /// How an attestation is proven.
    AttestationKind {
        /// Signed by the chain's devnet-only simulation key: proves nothing about hardware.
        Simulated = 0 => "simulated",
    }
}

/// Longest evidence an attestation may carry (real quotes run to a few KiB).
pub const MAX_EVIDENCE: usize = 16_384;

/// Longest an attestation may be valid for, in blocks (Cowboy decision: about a week at one
/// block a second, so a runner re-attests regularly).
pub const MAX_ATTESTATION_BLOCKS: u64 = 604_800;

record! {
    /// A runner's attestation: its kind, the enclave measurement it vouches for, the last
    /// height it is valid at, and the evidence (for `simulated`, the 64-byte ed25519
    /// signature of [`simulated_statement`]).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Attestation {
        pub kind: AttestationKind,
        pub measurement: Hash,
        pub expires_at: u64,
        pub evidence: Bytes<MAX_EVIDENCE>,
    }
}

/// What the simulation key signs: `keccak256("cowboy-tee-simulated:" ‖ chain_id (8 B BE) ‖
/// runner ‖ measurement ‖ expires_at (8 B BE))`, so a statement holds for one runner on one
/// chain until one height.
pub fn simulated_statement(
    chain_id: u64,
    runner: &Address,
    measurement: &Hash,
    expires_at: u64,
) -> Hash {
    keccak256(
        &[
            b"cowboy-tee-simulated:".as_slice(),
            &chain_id.to_be_bytes(),
            &runner.0,
            &measurement.0,
            &expires_at.to_be_bytes(),
        ]
        .concat(),
    )
}

record! {
    /// The TEE Verifier's record of a runner's accepted attestation (storage key `attested:` ‖
    /// runner under `0x…05`).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    pub struct Attested {
        pub attestation: Attestation,
        pub attested_at: u64,
    }
}
