//! Read access to a version of the state, whatever holds it.

use crate::StoreError;
use std::collections::BTreeMap;

/// Key/value entries in key order.
pub type Entries = Vec<(Vec<u8>, Vec<u8>)>;

/// Read access to one version of the state.
pub trait StateRead {
    /// The value of `key`, if present.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError>;

    /// Up to `limit` entries with `from <= key < to` (`to = None`: no upper bound), in key
    /// order.
    fn range(&self, from: &[u8], to: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError>;

    /// Up to `limit` entries whose key starts with `prefix` and is greater than `after`.
    fn scan(
        &self,
        prefix: &[u8],
        after: Option<&[u8]>,
        limit: usize,
    ) -> Result<Entries, StoreError> {
        let from = match after {
            Some(a) if a >= prefix => successor(a),
            _ => prefix.to_vec(),
        };
        let end = prefix_end(prefix);
        self.range(&from, end.as_deref(), limit)
    }
}

/// The smallest key greater than every key starting with `prefix` (an exclusive range end).
/// `None` when no such key exists (the prefix is all `0xff`).
pub fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// The smallest key greater than `key`.
pub fn successor(key: &[u8]) -> Vec<u8> {
    let mut next = key.to_vec();
    next.push(0);
    next
}

/// A state held in memory (tests, tools, the genesis builder).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryState(pub BTreeMap<Vec<u8>, Vec<u8>>);

impl StateRead for MemoryState {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.0.get(key).cloned())
    }

    fn range(&self, from: &[u8], to: Option<&[u8]>, limit: usize) -> Result<Entries, StoreError> {
        use std::ops::Bound;
        if to.is_some_and(|t| from >= t) {
            return Ok(Vec::new());
        }
        let upper = to.map_or(Bound::Unbounded, |t| Bound::Excluded(t.to_vec()));
        Ok(self
            .0
            .range((Bound::Included(from.to_vec()), upper))
            .take(limit)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect())
    }
}
