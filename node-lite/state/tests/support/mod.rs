//! Helpers shared by the store's tests and benchmarks.

#![allow(dead_code)]

use cowboy_types::{Beacon, Block, Hash, Header, Round, block::BEACON_SIGNATURE_LEN};

/// An empty block at `height`: what a commit stores beside the state changes.
pub fn block(height: u64) -> Block {
    Block {
        header: Header {
            parent: Hash::ZERO,
            height,
            round: Round::default(),
            timestamp_ms: height,
            proposer: Default::default(),
            beacon: Beacon {
                round: Round::default(),
                signature: [0u8; BEACON_SIGNATURE_LEN],
            },
            tx_root: Hash::ZERO,
            state_height: 0,
            state_root: Hash::ZERO,
            receipts_root: Hash::ZERO,
            cycle_basefee: 0,
            cell_basefee: 0,
        },
        transactions: vec![],
    }
}
