//! The header's keccak256 roots: a binary Merkle tree (commonware's BMT, whose leaves are the
//! transaction digests, whitepaper §2.5) over the block's transactions, and one over its
//! receipts (leaf: keccak256 of the receipt's canonical encoding).

use commonware_cryptography::{Keccak256, keccak256::Digest};
use commonware_storage::bmt::Builder;
use cowboy_types::{Hash, Receipt, Transaction, codec::encode_to_vec, keccak256};
use rayon::prelude::*;

pub(crate) fn root(leaves: impl ExactSizeIterator<Item = Hash>) -> Hash {
    let mut b = Builder::<Keccak256>::new(leaves.len());
    for leaf in leaves {
        b.add(&Digest(leaf.0));
    }
    Hash(b.build().root().0)
}

/// Root over the transactions' digests (their signing hashes), in block order.
pub fn tx_root(txs: &[Transaction]) -> Hash {
    tx_root_of(&txs.par_iter().map(Transaction::digest).collect::<Vec<_>>())
}

/// [`tx_root`] from digests already known.
pub fn tx_root_of(digests: &[Hash]) -> Hash {
    root(digests.iter().copied())
}

/// Root over the receipts, in execution order (leaves hashed on every core).
pub fn receipts_root(receipts: &[Receipt]) -> Hash {
    let leaves: Vec<Hash> = receipts
        .par_iter()
        .map(|r| keccak256(&encode_to_vec(r)))
        .collect();
    root(leaves.into_iter())
}
