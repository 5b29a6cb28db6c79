//! The runner market on chain (CIP-2, whitepaper §5 and "Off-Chain Compute", and the spec
//! README's "Decisions for the runner market"): one module per concept.
//!
//! - [`candidates`]: the CIP-2 §4 candidate filters, giving a job's candidate snapshot.
//! - [`dispatcher`]: the Job Dispatcher (0x…02): submission and escrow, committee draws, commit
//!   deadlines, re-selection and failure.
//! - [`registry`]: the Runner Registry (0x…01): registration, heartbeats, stake, reputation and
//!   exit.
//! - [`tee`]: the TEE Verifier (0x…05): accepted attestation kinds, runners' attestations.
//! - [`verification`]: what a revealed result agrees on under each verification mode and
//!   snapshot mode, with the JSON Schema check, and which results the verified group keeps.
//! - [`selection`]: who runs a job — the v3 selection seed, retry seeds, the stake-weighted
//!   Fisher-Yates shuffle, the aggregator draw and the candidate snapshot's root. Pure
//!   functions of their inputs; test vectors in `tests/vectors/runner_selection.json` are
//!   computed by an independent Python implementation (`tests/selection_oracle.py`).
//!
//! The market's protocol constants (those the spec fixes rather than leaves to governance)
//! are declared once here; the governance parameters (`RunnerConfig`, `ReputationConfig`,
//! `CommitteeConfig`, …) are read from 0x09 through [`crate::params`], never restated.

pub mod candidates;
pub mod dispatcher;
pub mod registry;
pub mod selection;
pub mod tee;
pub mod verification;

/// The selection seed's domain (spec README "Selection seed"; whitepaper §5.3, replacing
/// CIP-2 §5's `cowboy-runner-select-v2:`).
pub const SELECTION_DOMAIN: &[u8] = b"cowboy-runner-select-v3:";
/// Prefix of a dispute's fresh committee's seed (Cowboy decision, book "Challenges").
pub const DISPUTE_LABEL: &[u8] = b"cowboy-dispute:";
/// The retry seed's label (CIP-2 §6: `keccak256(seed ‖ "retry:" ‖ retry_count_le4)`).
pub const RETRY_LABEL: &[u8] = b"retry:";
/// The aggregator draw's label (spec README "Aggregator").
pub const AGGREGATOR_LABEL: &[u8] = b"aggregator";
/// Reputation a new runner starts with (Cowboy decision: the spec is silent; below the 100 of
/// a runner with a clean record, above the 50 candidates need, so registering a fresh address
/// neither outranks established runners nor erases a penalised one's history).
pub const INITIAL_REPUTATION: u64 = 75;
/// Lowest reputation a runner may have to be a candidate (CIP-2 §4 filter 2).
pub const MIN_REPUTATION: u64 = 50;
/// Reputation lost per missed commit deadline (CIP-2 §6: `TIMEOUT_PENALTY`, 5).
pub const TIMEOUT_PENALTY: u64 = 5;
/// Re-selections before a job fails (CIP-2 §6: `MAX_RETRIES`, 3).
pub const MAX_RETRIES: u32 = 3;
