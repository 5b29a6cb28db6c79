//! The event index: every event of every committed block, found by height, by emitter or by
//! first topic, written in the block's own commit (so a crash leaves the index exactly as
//! consistent as the receipts) and rebuilt from the receipts when a store predates it.
//!
//! Tables (positions are `height (8 B BE) ‖ receipt (4 B BE) ‖ event (4 B BE)`, so every index
//! reads in chain order):
//! - `events`: position → the receipt's transaction hash ‖ the encoded event;
//! - `events_by_emitter`: emitter ‖ position → nothing;
//! - `events_by_topic`: first topic ‖ position → nothing.
//!
//! A query walks the narrowest index its filter allows and checks the rest of the filter on
//! each event, looking at a bounded number of entries per call: a page ends when it is full
//! or that bound is reached, and its cursor continues exactly after the last event looked at.

use crate::StoreError;
use cowboy_types::{Address, Event, Hash, Receipt, codec::encode_to_vec};
use redb::{ReadTransaction, TableDefinition, WriteTransaction};

const EVENTS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("events");
const BY_EMITTER: TableDefinition<&[u8], &[u8]> = TableDefinition::new("events_by_emitter");
const BY_TOPIC: TableDefinition<&[u8], &[u8]> = TableDefinition::new("events_by_topic");

/// A secondary index and the key prefix a query reads under it.
type Narrowed = (
    TableDefinition<'static, &'static [u8], &'static [u8]>,
    Vec<u8>,
);

/// Where an event is: its block, its receipt's place in the block's execution order, and its
/// place among the receipt's events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventPosition {
    pub height: u64,
    pub receipt: u32,
    pub event: u32,
}

impl EventPosition {
    /// Its 16-byte key.
    pub fn to_bytes(self) -> [u8; 16] {
        let mut k = [0u8; 16];
        k[..8].copy_from_slice(&self.height.to_be_bytes());
        k[8..12].copy_from_slice(&self.receipt.to_be_bytes());
        k[12..].copy_from_slice(&self.event.to_be_bytes());
        k
    }

    /// The position a 16-byte key names.
    pub fn from_bytes(b: &[u8]) -> Option<Self> {
        if b.len() != 16 {
            return None;
        }
        Some(Self {
            height: u64::from_be_bytes(b[..8].try_into().ok()?),
            receipt: u32::from_be_bytes(b[8..12].try_into().ok()?),
            event: u32::from_be_bytes(b[12..].try_into().ok()?),
        })
    }

    /// The first position of block `height`.
    pub fn start_of(height: u64) -> Self {
        Self {
            height,
            receipt: 0,
            event: 0,
        }
    }

    /// The position right after this one in key order.
    fn successor(self) -> Option<Self> {
        if let Some(event) = self.event.checked_add(1) {
            return Some(Self { event, ..self });
        }
        if let Some(receipt) = self.receipt.checked_add(1) {
            return Some(Self {
                receipt,
                event: 0,
                ..self
            });
        }
        self.height.checked_add(1).map(Self::start_of)
    }
}

/// Which events a query wants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventFilter {
    /// Blocks `from ..= to`.
    pub from: u64,
    pub to: u64,
    pub emitter: Option<Address>,
    /// Topic `i` must equal `topics[i]` where that is `Some` (at most 4 entries).
    pub topics: Vec<Option<Hash>>,
    /// Continue strictly after this position (a page's cursor).
    pub after: Option<EventPosition>,
    /// At most this many events.
    pub limit: usize,
    /// At most this many index entries looked at.
    pub scan_limit: usize,
}

impl EventFilter {
    fn matches(&self, e: &Event) -> bool {
        self.emitter.is_none_or(|a| a == e.emitter)
            && self
                .topics
                .iter()
                .enumerate()
                .all(|(i, want)| want.is_none_or(|t| e.topics.get(i) == Some(&t)))
    }
}

/// An indexed event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedEvent {
    pub position: EventPosition,
    /// The transaction (or timer firing, or deferred delivery) whose receipt holds it.
    pub tx_hash: Hash,
    pub event: Event,
}

/// A page of events, and where the next page starts when there may be more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventPage {
    pub events: Vec<IndexedEvent>,
    /// Continue after this position (`None`: the range is exhausted).
    pub next: Option<EventPosition>,
}

/// Opens the index's tables (in the store's first write transaction).
pub(crate) fn create(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(EVENTS)?;
    txn.open_table(BY_EMITTER)?;
    txn.open_table(BY_TOPIC)?;
    Ok(())
}

/// Indexes the events of block `height`'s receipts, in the block's write transaction.
pub(crate) fn index_block<'r>(
    txn: &WriteTransaction,
    height: u64,
    receipts: impl IntoIterator<Item = &'r Receipt>,
) -> Result<(), StoreError> {
    let mut events = txn.open_table(EVENTS)?;
    let mut by_emitter = txn.open_table(BY_EMITTER)?;
    let mut by_topic = txn.open_table(BY_TOPIC)?;
    for (r, receipt) in receipts.into_iter().enumerate() {
        for (e, event) in receipt.events.iter().enumerate() {
            let position = EventPosition {
                height,
                receipt: u32::try_from(r).map_err(|_| too_many("receipts"))?,
                event: u32::try_from(e).map_err(|_| too_many("events"))?,
            }
            .to_bytes();
            let mut value = receipt.tx_hash.0.to_vec();
            value.extend_from_slice(&encode_to_vec(event));
            events.insert(position.as_slice(), value.as_slice())?;
            by_emitter.insert(
                [event.emitter.0.as_slice(), &position].concat().as_slice(),
                &[][..],
            )?;
            if let Some(topic) = event.topics.first() {
                by_topic.insert([topic.0.as_slice(), &position].concat().as_slice(), &[][..])?;
            }
        }
    }
    Ok(())
}

fn too_many(what: &str) -> StoreError {
    StoreError::Corrupt {
        key: "event index".into(),
        reason: format!("more {what} in a block than positions can number"),
    }
}

/// The page of events `filter` asks for.
pub(crate) fn query(txn: &ReadTransaction, filter: &EventFilter) -> Result<EventPage, StoreError> {
    let events = txn.open_table(EVENTS)?;
    let start = match filter.after {
        Some(after) => match after.successor() {
            Some(next) if next.height <= filter.to => {
                next.max(EventPosition::start_of(filter.from))
            }
            _ => {
                return Ok(EventPage {
                    events: Vec::new(),
                    next: None,
                });
            }
        },
        None => EventPosition::start_of(filter.from),
    };
    let end = filter.to.checked_add(1).map(EventPosition::start_of);
    // The narrowest index the filter allows: its prefix and the positions under it.
    let prefix: Option<Narrowed> = match (filter.emitter, filter.topics.first()) {
        (Some(emitter), _) => Some((BY_EMITTER, emitter.0.to_vec())),
        (None, Some(Some(topic))) => Some((BY_TOPIC, topic.0.to_vec())),
        _ => None,
    };
    let mut page = EventPage {
        events: Vec::new(),
        next: None,
    };
    let mut scanned = 0usize;
    // `value` is the event's record in `events` (the range over it has it already).
    let mut consider =
        |position: EventPosition, value: &[u8], page: &mut EventPage| -> Result<bool, StoreError> {
            scanned += 1;
            let tx_hash = value
                .get(..32)
                .and_then(Hash::from_slice)
                .ok_or_else(|| corrupt(position, "no transaction hash"))?;
            let event: Event = cowboy_types::codec::decode_strict(&value[32..])
                .map_err(|e| corrupt(position, &e.to_string()))?;
            if filter.matches(&event) {
                page.events.push(IndexedEvent {
                    position,
                    tx_hash,
                    event,
                });
            }
            // Full, or looked at enough: the next page continues after this position.
            let stop = page.events.len() >= filter.limit || scanned >= filter.scan_limit;
            if stop {
                page.next = Some(position);
            }
            Ok(stop)
        };
    match prefix {
        Some((table, prefix)) => {
            let index = txn.open_table(table)?;
            let from = [prefix.as_slice(), &start.to_bytes()].concat();
            let until = match end {
                Some(end) => [prefix.as_slice(), &end.to_bytes()].concat(),
                None => [prefix.as_slice(), &[0xff; 17]].concat(),
            };
            for entry in index.range(from.as_slice()..until.as_slice())? {
                let (key, _) = entry?;
                let position = EventPosition::from_bytes(&key.value()[prefix.len()..])
                    .ok_or_else(|| corrupt(start, "an index key of the wrong length"))?;
                let value = events
                    .get(position.to_bytes().as_slice())?
                    .ok_or_else(|| corrupt(position, "an index names it, but it is missing"))?;
                if consider(position, value.value(), &mut page)? {
                    break;
                }
            }
        }
        None => {
            let from = start.to_bytes();
            let until = end.map(EventPosition::to_bytes);
            let range = match &until {
                Some(until) => events.range(from.as_slice()..until.as_slice())?,
                None => events.range(from.as_slice()..)?,
            };
            for entry in range {
                let (key, value) = entry?;
                let position = EventPosition::from_bytes(key.value())
                    .ok_or_else(|| corrupt(start, "an event key of the wrong length"))?;
                if consider(position, value.value(), &mut page)? {
                    break;
                }
            }
        }
    }
    // A page that stopped on its last possible event has nothing after it.
    if let Some(next) = page.next
        && next.successor().is_none_or(|s| s.height > filter.to)
    {
        page.next = None;
    }
    Ok(page)
}

fn corrupt(position: EventPosition, reason: &str) -> StoreError {
    StoreError::Corrupt {
        key: format!(
            "event {}/{}/{}",
            position.height, position.receipt, position.event
        ),
        reason: reason.into(),
    }
}
