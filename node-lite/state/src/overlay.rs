//! Uncommitted changes on top of a committed state, with nested checkpoints.
//!
//! Execution writes into an [`Overlay`]; nothing reaches the store until the whole block is
//! done. A transaction opens a checkpoint, and so does every handler it runs: a failing handler
//! reverts its checkpoint (its writes, sends and timers disappear) while the fee, charged
//! outside it, stays. Reads see the newest write at any depth.

use crate::{Entries, StateRead, StoreError, view::successor};
use std::{
    collections::{BTreeMap, VecDeque},
    ops::Bound,
};

/// The final value of every changed key (`None`: deleted), in key order.
pub type ChangeSet = BTreeMap<Vec<u8>, Option<Vec<u8>>>;

type Layer = BTreeMap<Vec<u8>, Option<Vec<u8>>>;

/// Layered writes over a read-only base.
pub struct Overlay<'a> {
    base: &'a dyn StateRead,
    /// `layers[0]` holds the block's committed-so-far changes; each checkpoint adds one.
    layers: Vec<Layer>,
}

impl<'a> Overlay<'a> {
    /// An overlay with no changes.
    pub fn new(base: &'a dyn StateRead) -> Self {
        Self {
            base,
            layers: vec![Layer::new()],
        }
    }

    /// The value of `key` as execution sees it.
    pub fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        for layer in self.layers.iter().rev() {
            if let Some(v) = layer.get(key) {
                return Ok(v.clone());
            }
        }
        self.base.get(key)
    }

    /// Sets `key` to `value`.
    pub fn put(&mut self, key: Vec<u8>, value: Vec<u8>) {
        self.top().insert(key, Some(value));
    }

    /// Deletes `key`.
    pub fn delete(&mut self, key: Vec<u8>) {
        self.top().insert(key, None);
    }

    fn top(&mut self) -> &mut Layer {
        if self.layers.is_empty() {
            self.layers.push(Layer::new());
        }
        let last = self.layers.len() - 1;
        &mut self.layers[last]
    }

    /// Opens a checkpoint: later writes can be reverted together.
    pub fn checkpoint(&mut self) {
        self.layers.push(Layer::new());
    }

    /// Keeps the writes since the last checkpoint (they join the enclosing level).
    pub fn commit_checkpoint(&mut self) {
        if self.layers.len() < 2 {
            return;
        }
        if let Some(layer) = self.layers.pop() {
            self.top().extend(layer);
        }
    }

    /// Discards the writes since the last checkpoint.
    pub fn revert_checkpoint(&mut self) {
        if self.layers.len() >= 2 {
            self.layers.pop();
        }
    }

    /// Open checkpoints.
    pub fn depth(&self) -> usize {
        self.layers.len() - 1
    }

    /// Up to `limit` entries with `from <= key < to` as execution sees them.
    pub fn range(
        &self,
        from: &[u8],
        to: Option<&[u8]>,
        limit: usize,
    ) -> Result<Entries, StoreError> {
        if limit == 0 || to.is_some_and(|t| from >= t) {
            return Ok(Vec::new());
        }
        let upper = to.map_or(Bound::Unbounded, Bound::Excluded);
        // The overlay's own view of the range: newer layers win.
        let mut pending: BTreeMap<&[u8], Option<&[u8]>> = BTreeMap::new();
        for layer in &self.layers {
            for (k, v) in layer.range::<[u8], _>((Bound::Included(from), upper)) {
                pending.insert(k.as_slice(), v.as_deref());
            }
        }
        let mut pending = pending.into_iter().peekable();
        let mut out = Vec::new();
        let mut page: VecDeque<(Vec<u8>, Vec<u8>)> = VecDeque::new();
        let mut cursor = from.to_vec();
        let mut base_done = false;
        let page_size = limit.clamp(16, 1024);
        while out.len() < limit {
            if page.is_empty() && !base_done {
                let fetched = self.base.range(&cursor, to, page_size)?;
                base_done = fetched.len() < page_size;
                if let Some((last, _)) = fetched.last() {
                    cursor = successor(last);
                }
                page.extend(fetched);
            }
            match (page.front(), pending.peek()) {
                (None, None) => break,
                (Some(_), None) => out.extend(page.pop_front()),
                (None, Some(_)) => {
                    if let Some((k, Some(v))) = pending.next() {
                        out.push((k.to_vec(), v.to_vec()));
                    }
                }
                (Some((bk, _)), Some((pk, _))) => {
                    let ord = bk.as_slice().cmp(pk);
                    if ord.is_lt() {
                        out.extend(page.pop_front());
                    } else {
                        if ord.is_eq() {
                            page.pop_front();
                        }
                        if let Some((k, Some(v))) = pending.next() {
                            out.push((k.to_vec(), v.to_vec()));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// Up to `limit` entries under `prefix` with keys greater than `after`.
    pub fn scan(
        &self,
        prefix: &[u8],
        after: Option<&[u8]>,
        limit: usize,
    ) -> Result<Entries, StoreError> {
        let from = match after {
            Some(a) if a >= prefix => successor(a),
            _ => prefix.to_vec(),
        };
        let end = crate::prefix_end(prefix);
        self.range(&from, end.as_deref(), limit)
    }

    /// Every key the block changed with its final value, dropping writes that restored the
    /// committed value (so the state root only sees real changes).
    pub fn into_changes(self) -> Result<ChangeSet, StoreError> {
        if self.layers.len() != 1 {
            return Err(StoreError::OpenCheckpoints(self.layers.len() - 1));
        }
        let base = self.base;
        let mut out = ChangeSet::new();
        for (k, v) in self.layers.into_iter().flatten() {
            if base.get(&k)? != v {
                out.insert(k, v);
            }
        }
        Ok(out)
    }
}

impl StateRead for Overlay<'_> {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Overlay::get(self, key)
    }

    fn range(&self, from: &[u8], to: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError> {
        Overlay::range(self, from, to, limit)
    }
}
