//! The durable store: consensus state, tree nodes, blocks, receipts and indexes in one redb
//! file, each block written by exactly one write transaction.

use crate::{
    ChangeSet, Entries, StateRead, StoreError,
    tree::{self, NodeSource, StateProof, TreeUpdate},
};
use cowboy_types::{Block, Hash, Receipt, codec::encode_to_vec};
use redb::{
    Database, ReadOnlyTable, ReadTransaction, ReadableDatabase, ReadableTable,
    ReadableTableMetadata, TableDefinition,
};
use std::{ops::Bound, path::Path};

/// Consensus state: state key → value.
const STATE: TableDefinition<&[u8], &[u8]> = TableDefinition::new("state");
/// Jellyfish Merkle Tree nodes.
const NODES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("jmt_nodes");
/// Chain position: `height`, `root`, `hash` of the last committed block.
const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Encoded blocks by height.
const BLOCKS: TableDefinition<u64, &[u8]> = TableDefinition::new("blocks");
/// Block hash → height.
const BLOCK_HASHES: TableDefinition<&[u8], u64> = TableDefinition::new("block_hashes");
/// Receipts by `height (8B BE) ‖ index (4B BE)`, in execution order.
const RECEIPTS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("receipts");
/// Height → the executor's encoded outcome of that block (its post-state commitments).
const OUTCOMES: TableDefinition<u64, &[u8]> = TableDefinition::new("outcomes");
/// Transaction (or deferred delivery, or timer firing) hash → its [`TxLocation`].
const TX_INDEX: TableDefinition<&[u8], &[u8]> = TableDefinition::new("tx_index");
/// Transaction hash → the developer's trace of its calls (`cowboy_types::trace`, as JSON).
/// Not consensus data: only what this node recorded when it executed the block.
const TRACES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("traces");
/// Timer id ‖ firing height (big-endian) → the firing's receipt hash: a timer's past firings,
/// in height order. Developer data, like `TRACES`.
const TIMER_FIRINGS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("timer_firings");

/// Where a transaction's receipt (and, for a block transaction, the transaction) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxLocation {
    pub height: u64,
    /// Position of the receipt in the block's execution order.
    pub receipt_index: u32,
    /// Position in the block body, for transactions the block carries (not for deferred
    /// deliveries and timer firings, which the protocol injects).
    pub body_index: Option<u32>,
}

impl TxLocation {
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(17);
        out.extend_from_slice(&self.height.to_be_bytes());
        out.extend_from_slice(&self.receipt_index.to_be_bytes());
        match self.body_index {
            Some(i) => {
                out.push(1);
                out.extend_from_slice(&i.to_be_bytes());
            }
            None => out.push(0),
        }
        out
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        let height = u64::from_be_bytes(bytes.get(0..8)?.try_into().ok()?);
        let receipt_index = u32::from_be_bytes(bytes.get(8..12)?.try_into().ok()?);
        let body_index = match bytes.get(12)? {
            0 if bytes.len() == 13 => None,
            1 if bytes.len() == 17 => Some(u32::from_be_bytes(bytes.get(13..17)?.try_into().ok()?)),
            _ => return None,
        };
        Some(Self {
            height,
            receipt_index,
            body_index,
        })
    }
}

fn receipt_key(height: u64, index: u32) -> [u8; 12] {
    let mut k = [0u8; 12];
    k[..8].copy_from_slice(&height.to_be_bytes());
    k[8..].copy_from_slice(&index.to_be_bytes());
    k
}

/// The `TIMER_FIRINGS` key of timer `id`'s firing at `height`.
fn firing_key(id: &Hash, height: u64) -> [u8; 40] {
    let mut k = [0u8; 40];
    k[..32].copy_from_slice(&id.0);
    k[32..].copy_from_slice(&height.to_be_bytes());
    k
}

/// A block's state changes with their new root, ready to commit.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub height: u64,
    pub root: Hash,
    changes: ChangeSet,
    tree: TreeUpdate,
}

impl Prepared {
    /// The state changes this block makes.
    pub fn changes(&self) -> &ChangeSet {
        &self.changes
    }
}

/// What is stored alongside a block's state changes.
pub struct BlockRecord<'a> {
    pub block: &'a Block,
    pub hash: Hash,
    /// Receipts in execution order, each with the body index of its transaction (if the block
    /// carries it).
    pub receipts: &'a [(Receipt, Option<u32>)],
    /// The executor's encoded outcome of the block (its post-state commitments), kept by
    /// height so a later header can be checked against it.
    pub outcome: &'a [u8],
    /// Traces to keep, by transaction hash (see `TRACES`): empty when not recorded.
    pub traces: &'a [(Hash, Vec<u8>)],
    /// `(timer id, firing receipt hash)` of the timers that fired in the block.
    pub timer_firings: &'a [(Hash, Hash)],
}

/// When a commit's writes are on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// Before [`Store::commit`] returns: the commit waits for its `fsync`.
    Immediate,
    /// At the next [`Store::sync`] or immediate commit, or when the store is closed cleanly.
    /// Every reader sees the block at once; a crash before then loses it, and the store opens
    /// at the last durable block (atomically: never part of a block). A node commits finalized
    /// blocks this way and acknowledges them to consensus only once synced, so consensus hands
    /// it the lost blocks again; meanwhile the next block executes while the disk writes.
    Deferred,
}

/// The durable store.
pub struct Store {
    db: Database,
    /// Whether commits index events ([`StoreOptions::event_index`]).
    event_index: bool,
}

/// How a store is opened.
#[derive(Clone, Copy, Debug)]
pub struct StoreOptions {
    /// Index every block's events as it is committed (the default). Off, commits skip the
    /// index and [`Store::events`] answers [`StoreError::EventIndexOff`]; opening with it on
    /// again rebuilds the index from the receipts.
    pub event_index: bool,
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self { event_index: true }
    }
}

fn corrupt(key: &str, reason: impl Into<String>) -> StoreError {
    StoreError::Corrupt {
        key: key.to_owned(),
        reason: reason.into(),
    }
}

impl Store {
    /// Opens (or creates) the store at `path`. Opening after a crash finds the last durable
    /// block, whole: redb's commits are atomic (see [`Durability`] for when one is durable).
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let db = Database::create(path).map_err(|e| StoreError::Open {
            path: path.to_owned(),
            source: Box::new(e),
        })?;
        Self::init(db, StoreOptions::default())
    }

    /// A store that lives in memory and is gone when dropped: the same tables and commits as
    /// [`Store::open`], for local runs (`cowboy run`, `cowboy test`) that need no history.
    pub fn in_memory() -> Result<Self, StoreError> {
        let db = Database::builder()
            .create_with_backend(redb::backends::InMemoryBackend::new())
            .map_err(|e| StoreError::Open {
                path: "<memory>".into(),
                source: Box::new(e),
            })?;
        Self::init(db, StoreOptions::default())
    }

    /// [`Store::open`], with writes that find the disk full handed to `full` and retried
    /// instead of failing the commit.
    pub fn open_with(
        path: &Path,
        full: std::sync::Arc<dyn crate::FullDisk>,
        options: StoreOptions,
    ) -> Result<Self, StoreError> {
        let opened = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(redb::DatabaseError::from)
            .and_then(redb::backends::FileBackend::new)
            .and_then(|file| {
                Database::builder()
                    .create_with_backend(crate::full_disk::PatientFile::new(file, path, full))
            });
        let db = opened.map_err(|e| StoreError::Open {
            path: path.to_owned(),
            source: Box::new(e),
        })?;
        Self::init(db, options)
    }

    fn init(db: Database, options: StoreOptions) -> Result<Self, StoreError> {
        let txn = db.begin_write()?;
        {
            txn.open_table(STATE)?;
            txn.open_table(NODES)?;
            txn.open_table(META)?;
            txn.open_table(BLOCKS)?;
            txn.open_table(BLOCK_HASHES)?;
            txn.open_table(RECEIPTS)?;
            txn.open_table(TX_INDEX)?;
            crate::events::create(&txn)?;
            // A store written before the event index existed gets it now, from its receipts
            // (in this one write: a crash here leaves it to be rebuilt on the next start).
            let mut meta = txn.open_table(META)?;
            if !options.event_index {
                // Blocks committed from now on are not indexed: the index is rebuilt when it is
                // turned on again.
                meta.remove("event_index")?;
            } else if meta.get("event_index")?.is_none() {
                let receipts = txn.open_table(RECEIPTS)?;
                let mut block: Option<(u64, Vec<Receipt>)> = None;
                for entry in receipts.iter()? {
                    let (key, value) = entry?;
                    let key = key.value();
                    let height = key
                        .get(..8)
                        .and_then(|b| b.try_into().ok())
                        .map(u64::from_be_bytes)
                        .ok_or_else(|| corrupt("receipts", "a key shorter than a height"))?;
                    let receipt: Receipt = cowboy_types::codec::decode_strict(value.value())
                        .map_err(|e| corrupt("receipts", e.to_string()))?;
                    match &mut block {
                        Some((h, list)) if *h == height => list.push(receipt),
                        _ => {
                            if let Some((h, list)) = block.take() {
                                crate::events::index_block(&txn, h, &list)?;
                            }
                            block = Some((height, vec![receipt]));
                        }
                    }
                }
                if let Some((h, list)) = block {
                    crate::events::index_block(&txn, h, &list)?;
                }
                meta.insert("event_index", [1u8].as_slice())?;
            }
        }
        txn.commit()?;
        Ok(Self {
            db,
            event_index: options.event_index,
        })
    }

    /// The events `filter` asks for, in chain order (see [`crate::events`]).
    pub fn events(
        &self,
        filter: &crate::events::EventFilter,
    ) -> Result<crate::events::EventPage, StoreError> {
        if !self.event_index {
            return Err(StoreError::EventIndexOff);
        }
        let txn = self.db.begin_read()?;
        crate::events::query(&txn, filter)
    }

    /// A consistent read view of the last committed state.
    pub fn snapshot(&self) -> Result<Snapshot, StoreError> {
        Snapshot::of(self.db.begin_read()?)
    }

    /// The last committed state of the store at `path`, read without writing to the file
    /// (snapshots of a stopped node's chain). A store its node did not close cleanly needs a
    /// repair, which writes: it is opened for writing then, as the node itself would.
    pub fn read_latest(path: &Path) -> Result<Snapshot, StoreError> {
        if !path.is_file() {
            return Err(StoreError::Missing(path.to_owned()));
        }
        match redb::ReadOnlyDatabase::open(path) {
            Ok(db) => Snapshot::of(db.begin_read()?),
            Err(redb::DatabaseError::RepairAborted) => Self::open(path)?.snapshot(),
            Err(redb::DatabaseError::DatabaseAlreadyOpen) => {
                Err(StoreError::InUse(path.to_owned()))
            }
            Err(e) => Err(StoreError::Open {
                path: path.to_owned(),
                source: Box::new(e),
            }),
        }
    }
}

impl Snapshot {
    fn of(txn: ReadTransaction) -> Result<Self, StoreError> {
        let state = txn.open_table(STATE)?;
        let nodes = txn.open_table(NODES)?;
        let meta = txn.open_table(META)?;
        let height = read_u64_meta(&meta, "height")?;
        let root = match meta.get("root")? {
            Some(v) => {
                Hash::from_slice(v.value()).ok_or_else(|| corrupt("meta/root", "not 32 bytes"))?
            }
            None => Hash::ZERO,
        };
        let hash = match meta.get("hash")? {
            Some(v) => {
                Hash::from_slice(v.value()).ok_or_else(|| corrupt("meta/hash", "not 32 bytes"))?
            }
            None => Hash::ZERO,
        };
        Ok(Snapshot {
            _txn: txn,
            state,
            nodes,
            height,
            root,
            hash,
        })
    }
}

impl Store {
    /// Height of the last committed block (`None` before genesis).
    pub fn height(&self) -> Result<Option<u64>, StoreError> {
        Ok(self.snapshot()?.height)
    }

    /// Computes the root the state would have after `changes` on top of `base`, without writing.
    pub fn prepare(&self, base: &Snapshot, changes: ChangeSet) -> Result<Prepared, StoreError> {
        let height = match base.height {
            Some(h) => h + 1,
            None => 0,
        };
        let tree = tree::update(base, changes.iter(), height)?;
        Ok(Prepared {
            height,
            root: tree.root,
            changes,
            tree,
        })
    }

    /// Writes a prepared block: state changes, tree nodes, block, receipts and indexes, in one
    /// write transaction: all of it or none of it, both to readers and on disk. With
    /// [`Durability::Immediate`] it is on disk when this returns `Ok`.
    pub fn commit(
        &self,
        prepared: &Prepared,
        record: &BlockRecord<'_>,
        durability: Durability,
    ) -> Result<(), StoreError> {
        let mut txn = self.db.begin_write()?;
        if durability == Durability::Deferred {
            txn.set_durability(redb::Durability::None)?;
        }
        {
            let mut meta = txn.open_table(META)?;
            let current = read_u64_meta(&meta, "height")?;
            let expected = current.map_or(0, |h| h + 1);
            if prepared.height != expected || record.block.header.height != prepared.height {
                return Err(StoreError::OutOfOrder {
                    expected: expected.to_string(),
                    got: record.block.header.height,
                });
            }
            let mut state = txn.open_table(STATE)?;
            for (k, v) in &prepared.changes {
                match v {
                    Some(v) => {
                        state.insert(k.as_slice(), v.as_slice())?;
                    }
                    None => {
                        state.remove(k.as_slice())?;
                    }
                }
            }
            let mut nodes = txn.open_table(NODES)?;
            for k in &prepared.tree.delete {
                nodes.remove(k.as_slice())?;
            }
            for (k, v) in &prepared.tree.put {
                nodes.insert(k.as_slice(), v.as_slice())?;
            }
            let height = prepared.height;
            let mut blocks = txn.open_table(BLOCKS)?;
            blocks.insert(height, encode_to_vec(record.block).as_slice())?;
            let mut hashes = txn.open_table(BLOCK_HASHES)?;
            hashes.insert(record.hash.0.as_slice(), height)?;
            txn.open_table(OUTCOMES)?.insert(height, record.outcome)?;
            let mut receipts = txn.open_table(RECEIPTS)?;
            let mut index = txn.open_table(TX_INDEX)?;
            for (i, (receipt, body_index)) in record.receipts.iter().enumerate() {
                let i = u32::try_from(i).map_err(|_| corrupt("receipts", "too many receipts"))?;
                receipts.insert(
                    receipt_key(height, i).as_slice(),
                    encode_to_vec(receipt).as_slice(),
                )?;
                let loc = TxLocation {
                    height,
                    receipt_index: i,
                    body_index: *body_index,
                };
                index.insert(receipt.tx_hash.0.as_slice(), loc.encode().as_slice())?;
            }
            if !record.timer_firings.is_empty() {
                let mut firings = txn.open_table(TIMER_FIRINGS)?;
                for (timer, receipt) in record.timer_firings {
                    firings.insert(firing_key(timer, height).as_slice(), receipt.0.as_slice())?;
                }
            }
            if !record.traces.is_empty() {
                let mut traces = txn.open_table(TRACES)?;
                for (tx_hash, trace) in record.traces {
                    traces.insert(tx_hash.0.as_slice(), trace.as_slice())?;
                }
            }
            if self.event_index {
                crate::events::index_block(&txn, height, record.receipts.iter().map(|(r, _)| r))?;
            }
            meta.insert("height", height.to_be_bytes().as_slice())?;
            meta.insert("root", prepared.root.0.as_slice())?;
            meta.insert("hash", record.hash.0.as_slice())?;
        }
        txn.commit()?;
        Ok(())
    }

    /// Makes every commit so far durable (an empty write transaction, committed with an
    /// `fsync`). While it writes, readers go on, and the next [`Store::commit`] waits for it.
    pub fn sync(&self) -> Result<(), StoreError> {
        let mut txn = self.db.begin_write()?;
        txn.set_durability(redb::Durability::Immediate)?;
        txn.commit()?;
        Ok(())
    }

    /// The block at `height`.
    pub fn block(&self, height: u64) -> Result<Option<Block>, StoreError> {
        let txn = self.db.begin_read()?;
        let blocks = txn.open_table(BLOCKS)?;
        match blocks.get(height)? {
            Some(v) => cowboy_types::codec::decode_strict(v.value())
                .map(Some)
                .map_err(|e| corrupt(&format!("blocks/{height}"), e.to_string())),
            None => Ok(None),
        }
    }

    /// The executor's encoded outcome of the block at `height`.
    pub fn outcome(&self, height: u64) -> Result<Option<Vec<u8>>, StoreError> {
        let txn = self.db.begin_read()?;
        let table = match txn.open_table(OUTCOMES) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        Ok(table.get(height)?.map(|v| v.value().to_vec()))
    }

    /// The height of the block with `hash`.
    pub fn block_height(&self, hash: &Hash) -> Result<Option<u64>, StoreError> {
        let txn = self.db.begin_read()?;
        let hashes = txn.open_table(BLOCK_HASHES)?;
        Ok(hashes.get(hash.0.as_slice())?.map(|v| v.value()))
    }

    /// The trace recorded for `tx_hash` when this node executed it (see `TRACES`), if any.
    pub fn trace(&self, tx_hash: &Hash) -> Result<Option<Vec<u8>>, StoreError> {
        let txn = self.db.begin_read()?;
        let table = match txn.open_table(TRACES) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        Ok(table.get(tx_hash.0.as_slice())?.map(|v| v.value().to_vec()))
    }

    /// The last `limit` firings of timer `id` this node executed, newest first: each firing's
    /// height and receipt hash.
    pub fn timer_firings(&self, id: &Hash, limit: usize) -> Result<Vec<(u64, Hash)>, StoreError> {
        let txn = self.db.begin_read()?;
        let table = match txn.open_table(TIMER_FIRINGS) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        let from = firing_key(id, 0);
        let to = firing_key(id, u64::MAX);
        let mut out = Vec::new();
        for entry in table
            .range(from.as_slice()..=to.as_slice())?
            .rev()
            .take(limit)
        {
            let (k, v) = entry?;
            let height = k
                .value()
                .get(32..40)
                .and_then(|b| b.try_into().ok())
                .map(u64::from_be_bytes)
                .ok_or_else(|| corrupt("timer_firings", "bad key"))?;
            let receipt =
                Hash::from_slice(v.value()).ok_or_else(|| corrupt("timer_firings", "bad value"))?;
            out.push((height, receipt));
        }
        Ok(out)
    }

    /// Where the receipt of `tx_hash` is.
    pub fn locate(&self, tx_hash: &Hash) -> Result<Option<TxLocation>, StoreError> {
        let txn = self.db.begin_read()?;
        let index = txn.open_table(TX_INDEX)?;
        match index.get(tx_hash.0.as_slice())? {
            Some(v) => TxLocation::decode(v.value())
                .map(Some)
                .ok_or_else(|| corrupt("tx_index", "bad location")),
            None => Ok(None),
        }
    }

    /// The receipt of `tx_hash`.
    pub fn receipt(&self, tx_hash: &Hash) -> Result<Option<Receipt>, StoreError> {
        let Some(loc) = self.locate(tx_hash)? else {
            return Ok(None);
        };
        let txn = self.db.begin_read()?;
        let receipts = txn.open_table(RECEIPTS)?;
        match receipts.get(receipt_key(loc.height, loc.receipt_index).as_slice())? {
            Some(v) => cowboy_types::codec::decode_strict(v.value())
                .map(Some)
                .map_err(|e| corrupt("receipts", e.to_string())),
            None => Ok(None),
        }
    }

    /// Every receipt of the block at `height`, in execution order.
    pub fn receipts(&self, height: u64) -> Result<Vec<Receipt>, StoreError> {
        let txn = self.db.begin_read()?;
        let receipts = txn.open_table(RECEIPTS)?;
        let from = receipt_key(height, 0);
        let to = receipt_key(height.saturating_add(1), 0);
        let mut out = Vec::new();
        for entry in receipts.range::<&[u8]>(from.as_slice()..to.as_slice())? {
            let (_, v) = entry?;
            out.push(
                cowboy_types::codec::decode_strict(v.value())
                    .map_err(|e| corrupt("receipts", e.to_string()))?,
            );
        }
        Ok(out)
    }

    /// Nodes in the state tree's table (diagnostics: equals the nodes reachable from the root,
    /// since every block deletes the nodes it makes stale).
    pub fn tree_nodes(&self) -> Result<u64, StoreError> {
        let txn = self.db.begin_read()?;
        Ok(txn.open_table(NODES)?.len()?)
    }

    /// A proof of `key`'s value (or absence) under the last committed state root.
    pub fn prove(&self, key: &[u8]) -> Result<StateProof, StoreError> {
        let snap = self.snapshot()?;
        let height = snap
            .height
            .ok_or_else(|| corrupt("meta/height", "no state committed yet"))?;
        let value = snap.get(key)?;
        tree::prove(&snap, key, value, height, snap.root)
    }
}

fn read_u64_meta(
    meta: &impl ReadableTable<&'static str, &'static [u8]>,
    name: &str,
) -> Result<Option<u64>, StoreError> {
    match meta.get(name)? {
        Some(v) => {
            let b: [u8; 8] = v
                .value()
                .try_into()
                .map_err(|_| corrupt(&format!("meta/{name}"), "not 8 bytes"))?;
            Ok(Some(u64::from_be_bytes(b)))
        }
        None => Ok(None),
    }
}

/// A read view of one committed version of the state.
pub struct Snapshot {
    _txn: ReadTransaction,
    state: ReadOnlyTable<&'static [u8], &'static [u8]>,
    nodes: ReadOnlyTable<&'static [u8], &'static [u8]>,
    /// Height of the state (`None`: before genesis).
    pub height: Option<u64>,
    /// Its state root.
    pub root: Hash,
    /// Hash of the block that produced it.
    pub hash: Hash,
}

impl StateRead for Snapshot {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.state.get(key)?.map(|v| v.value().to_vec()))
    }

    fn range(&self, from: &[u8], to: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError> {
        if limit == 0 || to.is_some_and(|t| from >= t) {
            return Ok(Vec::new());
        }
        let upper = to.map_or(Bound::Unbounded, Bound::Excluded);
        let mut out = Vec::new();
        for entry in self.state.range::<&[u8]>((Bound::Included(from), upper))? {
            let (k, v) = entry?;
            out.push((k.value().to_vec(), v.value().to_vec()));
            if out.len() == limit {
                break;
            }
        }
        Ok(out)
    }
}

impl NodeSource for Snapshot {
    fn node(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.nodes.get(key)?.map(|v| v.value().to_vec()))
    }
}
