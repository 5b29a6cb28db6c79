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
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// The tree version holding the block's root ([`version_of`]).
    pub version: Version,
    pub root: Hash,
    /// New nodes, table-encoded.
    pub put: Vec<(Vec<u8>, Vec<u8>)>,
    /// Node keys no longer reachable from the new root, table-encoded.
    pub delete: Vec<Vec<u8>>,
}

/// The tree version that holds the root after block `height`.
///
/// Each block takes two tree versions: `2h` applies its deletions key by key (the tree's only
/// path that removes keys), `2h + 1` applies its insertions and updates in one batch pass over
/// the sorted keys (the tree's batch path, about four times faster than key by key, but
/// insert-only). The root depends only on the resulting key/value set, not on this split.
pub fn version_of(height: u64) -> Version {
    height * 2 + 1
}

/// Nodes of the store with a not-yet-written batch on top.
struct Layered<'a, S: NodeSource> {
    base: &'a S,
    pending: &'a BTreeMap<Vec<u8>, Vec<u8>>,
}

impl<S: NodeSource> NodeSource for Layered<'_, S> {
    fn node(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match self.pending.get(key) {
            Some(v) => Ok(Some(v.clone())),
            None => self.base.node(key),
        }
    }
}

/// The key of the root node of `version`.
fn root_key(version: Version, any_root: &NodeKey) -> Result<Vec<u8>, StoreError> {
    // borsh puts the version first, little-endian; the rest of a root key (an empty nibble
    // path) is the same for every version.
    let mut k = encode_node_key(any_root)?;
    k[..8].copy_from_slice(&version.to_le_bytes());
    Ok(k)
}

/// The outcome of one tree step: the root, the new nodes (table-encoded, by key), the keys of
/// the nodes it made stale, and the key of the root node it wrote.
type Step = (
    Hash,
    BTreeMap<Vec<u8>, Vec<u8>>,
    Vec<Vec<u8>>,
    Option<Vec<u8>>,
);

/// One tree step: `set` applied at `version`, its new nodes and the nodes it made stale.
fn step<S: NodeSource>(
    nodes: &S,
    set: Vec<(KeyHash, Option<OwnedValue>)>,
    version: Version,
    batch: bool,
) -> Result<Step, StoreError> {
    let reader = Reader {
        nodes,
        proven: None,
    };
    let tree = JellyfishMerkleTree::<_, Blake3>::new(&reader);
    let empty = set.is_empty();
    let (root, update): (_, TreeUpdateBatch) = if batch && !empty {
        let inserts = set
            .into_iter()
            .map(|(k, v)| (k, v.unwrap_or_default()))
            .collect();
        let (roots, update) = tree
            .batch_put_value_sets(vec![inserts], None, version)
            .map_err(tree_err)?;
        (
            roots.first().copied().ok_or_else(|| tree_err("no root"))?,
            update,
        )
    } else {
        tree.put_value_set(set, version).map_err(tree_err)?
    };
    // Encoding thousands of nodes is independent work: spread it over the cores.
    let put = update
        .node_batch
        .nodes()
        .par_iter()
        .map(|(k, n)| Ok((encode_node_key(k)?, encode_node(n)?)))
        .collect::<Result<BTreeMap<_, _>, StoreError>>()?;
    let mut stale = Vec::with_capacity(update.stale_node_index_batch.len());
    for s in &update.stale_node_index_batch {
        stale.push(encode_node_key(&s.node_key)?);
    }
    let new_root = update
        .node_batch
        .nodes()
        .keys()
        .find(|k| k.nibble_path().num_nibbles() == 0);
    if empty
        && version > 0
        && let Some(k) = new_root
    {
        // An unchanged tree is carried to the new version by copying its root; the old copy
        // is then unreachable.
        stale.push(root_key(version - 1, k)?);
    }
    let new_root = new_root.map(encode_node_key).transpose()?;
    Ok((Hash(root.0), put, stale, new_root))
}

/// Computes the root after block `height` from the root after block `height - 1` plus
/// `changes` (see [`version_of`] for the two tree versions a block takes).
pub(crate) fn update<'c, S: NodeSource>(
    nodes: &S,
    changes: impl Iterator<Item = (&'c Vec<u8>, &'c Option<Vec<u8>>)>,
    height: u64,
) -> Result<TreeUpdate, StoreError> {
    let (mut deletes, mut inserts): (Vec<_>, Vec<_>) = changes
        .map(|(k, v)| (key_hash(k), v.clone()))
        .partition(|(_, v)| v.is_none());
    // Sorted by key hash, so the work never depends on the caller's order.
    deletes.sort_by_key(|a| a.0.0);
    inserts.sort_by_key(|a| a.0.0);
    let (_, mut put, mut delete, first_root) = step(nodes, deletes, height * 2, false)?;
    let layered = Layered {
        base: nodes,
        pending: &put,
    };
    let (root, put2, stale2, second_root) = step(&layered, inserts, version_of(height), true)?;
    put.extend(put2);
    delete.extend(stale2);
    // The second step always writes the block's root, so the first step's root is replaced
    // even where the tree library does not report it stale: a tree the block's deletes emptied
    // has a null root that the inserts replace without marking it (found by the property test
    // `incremental_roots_match_from_scratch_and_nodes_do_not_leak`).
    if let Some(first) = first_root
        && second_root.as_ref() != Some(&first)
    {
        delete.push(first);
    }
    // Nodes the first step created and the second replaced never reach the store.
    for k in &delete {
        put.remove(k);
    }
    Ok(TreeUpdate {
        version: version_of(height),
        root,
        put: put.into_iter().collect(),
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

/// Builds the proof of `key` (whose current value is `value`) after block `height`.
pub(crate) fn prove<S: NodeSource>(
    nodes: &S,
    key: &[u8],
    value: Option<Vec<u8>>,
    height: u64,
    root: Hash,
) -> Result<StateProof, StoreError> {
    let version = version_of(height);
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
        height,
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
