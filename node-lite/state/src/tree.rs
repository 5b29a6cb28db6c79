//! The state root: a Jellyfish Merkle Tree with blake3.
//!
//! Why this structure: the state root must commit to all consensus state and be updated per
//! block in O(changes · log n), and the node must prove single keys. The Jellyfish Merkle Tree
//! (`jmt`, maintained by Penumbra, originally Diem's) is a sparse Merkle tree of radix 16 that
//! does exactly that, stores its nodes in any key/value store through two small traits, and
//! ships inclusion/exclusion proofs and their verifier. Its hash function is a type parameter:
//! here every hash is blake3 (whitepaper "Storage and State Persistence": the state root is
//! blake3). Leaves are `blake3(state key) → blake3(value)`; the tree is versioned by block height.
//!
//! Nodes live in the store's `jmt_nodes` table, borsh-encoded (the tree's own encoding). Only the
//! latest version is kept: nodes a block makes stale are deleted in the same write, so proofs are
//! served at the latest committed height.

use crate::StoreError;
use cowboy_types::Hash;
use jmt::{
    JellyfishMerkleTree, KeyHash, OwnedValue, SimpleHasher, Version,
    proof::SparseMerkleProof,
    storage::{LeafNode, Node, NodeKey, TreeReader, TreeUpdateBatch},
};
use serde::{Deserialize, Serialize};

/// blake3 as the tree's hash function.
pub struct Blake3(blake3::Hasher);

impl SimpleHasher for Blake3 {
    fn new() -> Self {
        Self(blake3::Hasher::new())
    }
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finalize(self) -> [u8; 32] {
        *self.0.finalize().as_bytes()
    }
}

/// Where a state key sits in the tree: `blake3(key)`.
pub fn key_hash(key: &[u8]) -> KeyHash {
    KeyHash(*blake3::hash(key).as_bytes())
}

/// Reads tree nodes from somewhere (the store's node table).
pub trait NodeSource {
    fn node(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError>;
}

/// Adapts a [`NodeSource`] to the tree's reader trait. Values are never needed to update the
/// tree (leaves hold value hashes); for a proof, the one value being proven is supplied.
pub(crate) struct Reader<'a, S: NodeSource> {
    pub nodes: &'a S,
    pub proven: Option<(KeyHash, Vec<u8>)>,
}

fn tree_err(e: impl std::fmt::Display) -> StoreError {
    StoreError::Tree(e.to_string())
}

/// The table key of a node.
pub(crate) fn encode_node_key(key: &NodeKey) -> Result<Vec<u8>, StoreError> {
    borsh::to_vec(key).map_err(tree_err)
}

/// The table value of a node.
pub(crate) fn encode_node(node: &Node) -> Result<Vec<u8>, StoreError> {
    borsh::to_vec(node).map_err(tree_err)
}

impl<S: NodeSource> TreeReader for Reader<'_, S> {
    fn get_node_option(&self, node_key: &NodeKey) -> anyhow::Result<Option<Node>> {
        let key = encode_node_key(node_key)?;
        match self.nodes.node(&key)? {
            Some(bytes) => Ok(Some(borsh::from_slice(&bytes)?)),
            None => Ok(None),
        }
    }

    fn get_value_option(
        &self,
        _max_version: Version,
        key_hash: KeyHash,
    ) -> anyhow::Result<Option<OwnedValue>> {
        match &self.proven {
            Some((k, v)) if *k == key_hash => Ok(Some(v.clone())),
            _ => Err(anyhow::anyhow!(
                "value lookups are only served for the proven key"
            )),
        }
    }

    fn get_rightmost_leaf(&self) -> anyhow::Result<Option<(NodeKey, LeafNode)>> {
        Err(anyhow::anyhow!("tree restoration is not supported"))
    }
}

/// The tree nodes a block adds and removes, and the root they produce.
#[derive(Debug, Clone)]
pub struct TreeUpdate {
    pub version: Version,
    pub root: Hash,
    /// New nodes, table-encoded.
    pub put: Vec<(Vec<u8>, Vec<u8>)>,
    /// Node keys no longer reachable from the new root, table-encoded.
    pub delete: Vec<Vec<u8>>,
}

/// Computes the root of `version` from the root of `version - 1` plus `changes`.
pub(crate) fn update<'c, S: NodeSource>(
    nodes: &S,
    changes: impl Iterator<Item = (&'c Vec<u8>, &'c Option<Vec<u8>>)>,
    version: Version,
) -> Result<TreeUpdate, StoreError> {
    let reader = Reader {
        nodes,
        proven: None,
    };
    let tree = JellyfishMerkleTree::<_, Blake3>::new(&reader);
    let mut set: Vec<(KeyHash, Option<OwnedValue>)> =
        changes.map(|(k, v)| (key_hash(k), v.clone())).collect();
    let empty = set.is_empty();
    // The tree applies the set in order; sort by key hash so the work is independent of how
    // the caller ordered it (the root never depends on it).
    set.sort_by_key(|a| a.0.0);
    let (root, batch): (_, TreeUpdateBatch) = tree.put_value_set(set, version).map_err(tree_err)?;
    let mut put = Vec::with_capacity(batch.node_batch.nodes().len());
    for (k, n) in batch.node_batch.nodes() {
        put.push((encode_node_key(k)?, encode_node(n)?));
    }
    let mut delete = Vec::with_capacity(batch.stale_node_index_batch.len());
    for stale in &batch.stale_node_index_batch {
        delete.push(encode_node_key(&stale.node_key)?);
    }
    if empty && version > 0 {
        // An unchanged tree is carried to the new version by copying its root; the old copy
        // is then unreachable. Its key is the new root's key with the previous version (borsh
        // puts the version first, little-endian).
        if let Some(root_key) = batch
            .node_batch
            .nodes()
            .keys()
            .find(|k| k.nibble_path().num_nibbles() == 0)
        {
            let mut old = encode_node_key(root_key)?;
            old[..8].copy_from_slice(&(version - 1).to_le_bytes());
            delete.push(old);
        }
    }
    Ok(TreeUpdate {
        version,
        root: Hash(root.0),
        put,
        delete,
    })
}

/// Proof that a state key has a value (or has none) under a state root.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateProof {
    /// The height whose state root the proof is against.
    pub height: u64,
    pub root: Hash,
    pub key: Vec<u8>,
    /// The value, or `None` for a proof of absence.
    pub value: Option<Vec<u8>>,
    pub proof: SparseMerkleProof<Blake3>,
}

/// Why a proof does not hold.
#[derive(Debug, thiserror::Error)]
#[error("the proof does not match the state root: {0}")]
pub struct ProofError(String);

impl StateProof {
    /// Checks the proof against `root` (which the caller trusts, e.g. from a finalized header).
    pub fn verify(&self, root: &Hash) -> Result<(), ProofError> {
        self.proof
            .verify(
                jmt::RootHash(root.0),
                key_hash(&self.key),
                self.value.as_ref(),
            )
            .map_err(|e| ProofError(e.to_string()))
    }
}

/// Builds the proof of `key` (whose current value is `value`) at `version`.
pub(crate) fn prove<S: NodeSource>(
    nodes: &S,
    key: &[u8],
    value: Option<Vec<u8>>,
    version: Version,
    root: Hash,
) -> Result<StateProof, StoreError> {
    let kh = key_hash(key);
    let reader = Reader {
        nodes,
        proven: value.clone().map(|v| (kh, v)),
    };
    let tree = JellyfishMerkleTree::<_, Blake3>::new(&reader);
    let (found, proof) = tree.get_with_proof(kh, version).map_err(tree_err)?;
    if found != value {
        return Err(StoreError::Tree(
            "the tree and the state table disagree about a key".into(),
        ));
    }
    Ok(StateProof {
        height: version,
        root,
        key: key.to_vec(),
        value,
        proof,
    })
}

/// The root of a state holding exactly `changes` (a genesis state), computed in memory.
pub fn root_of(changes: &crate::ChangeSet) -> Result<Hash, StoreError> {
    struct Empty;
    impl NodeSource for Empty {
        fn node(&self, _: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
            Ok(None)
        }
    }
    Ok(update(&Empty, changes.iter(), 0)?.root)
}
