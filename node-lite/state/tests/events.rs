//! The event index: written in each block's commit, queried by range, emitter and topics, a
//! page at a time with cursors that neither skip nor repeat, bounded work per page, and the
//! same answers after reopening the store.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

use cowboy_state::{
    Durability, Store,
    events::{EventFilter, EventPosition},
};
use cowboy_types::{Address, Event, Hash, Receipt, Status};
use support::block;

const A: Address = Address([0xaa; 20]);
const B: Address = Address([0xbb; 20]);

fn topic(name: &str) -> Hash {
    cowboy_types::keccak256(name.as_bytes())
}

/// Block `h` has two receipts: A emits `Tick(h)` then `Tock`, B emits `Tick(h)`.
fn commit(store: &Store) -> u64 {
    let snap = store.snapshot().unwrap();
    let prepared = store
        .prepare(
            &snap,
            vec![(b"k".to_vec(), Some(vec![1]))].into_iter().collect(),
        )
        .unwrap();
    let h = prepared.height;
    let event = |emitter: Address, name: &str| Event {
        emitter,
        topics: vec![topic(name), Hash([h as u8; 32])],
        data: h.to_be_bytes().to_vec(),
    };
    let receipt = |tag: u8, events: Vec<Event>| Receipt {
        tx_hash: Hash([tag; 32]),
        status: Status::Success,
        cycles_used: 1,
        cells_used: 1,
        fee: 0,
        return_data: vec![],
        events,
        created: None,
        deliveries: vec![],
    };
    let receipts = [
        (
            receipt(h as u8, vec![event(A, "Tick"), event(A, "Tock")]),
            Some(0),
        ),
        (receipt(0x80 | h as u8, vec![event(B, "Tick")]), Some(1)),
    ];
    store
        .commit(
            &prepared,
            &cowboy_state::BlockRecord {
                block: &block(h),
                hash: Hash([0xb0 ^ h as u8; 32]),
                receipts: &receipts,
                outcome: &[],
                traces: &[],
                timer_firings: &[],
            },
            Durability::Immediate,
        )
        .unwrap();
    h
}

fn filter(from: u64, to: u64) -> EventFilter {
    EventFilter {
        from,
        to,
        emitter: None,
        topics: vec![],
        after: None,
        limit: 1_000,
        scan_limit: 100_000,
    }
}

/// Every event `f` selects, page by page.
fn all(store: &Store, mut f: EventFilter) -> Vec<EventPosition> {
    let mut out = Vec::new();
    loop {
        let page = store.events(&f).unwrap();
        out.extend(page.events.iter().map(|e| e.position));
        match page.next {
            Some(next) => f.after = Some(next),
            None => return out,
        }
    }
}

#[test]
fn events_are_found_by_range_emitter_and_topic_a_page_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.redb");
    let store = Store::open(&path).unwrap();
    for _ in 0..=10 {
        commit(&store);
    }
    // Blocks 2..=4: three events each, in chain order.
    let page = store.events(&filter(2, 4)).unwrap();
    assert_eq!(page.events.len(), 9);
    assert_eq!(page.next, None);
    assert_eq!(
        page.events[0].position,
        EventPosition {
            height: 2,
            receipt: 0,
            event: 0
        }
    );
    assert_eq!(page.events[2].tx_hash, Hash([0x82; 32]));
    assert_eq!(page.events[2].event.emitter, B);
    // By emitter, by first topic, by a later topic, and both.
    let by = |f: EventFilter| all(&store, f).len();
    assert_eq!(
        by(EventFilter {
            emitter: Some(B),
            ..filter(0, 10)
        }),
        11
    );
    assert_eq!(
        by(EventFilter {
            topics: vec![Some(topic("Tock"))],
            ..filter(0, 10)
        }),
        11
    );
    assert_eq!(
        by(EventFilter {
            topics: vec![Some(topic("Tick"))],
            ..filter(3, 5)
        }),
        6
    );
    assert_eq!(
        by(EventFilter {
            topics: vec![None, Some(Hash([7; 32]))],
            ..filter(0, 10)
        }),
        3
    );
    assert_eq!(
        by(EventFilter {
            emitter: Some(A),
            topics: vec![Some(topic("Tick")), Some(Hash([7; 32]))],
            ..filter(0, 10)
        }),
        1
    );
    // Pages of 2 give every event once, in order, whatever index serves them.
    for f in [
        filter(0, 10),
        EventFilter {
            emitter: Some(A),
            ..filter(0, 10)
        },
        EventFilter {
            topics: vec![Some(topic("Tick"))],
            ..filter(0, 10)
        },
    ] {
        let whole = all(&store, f.clone());
        let paged = all(
            &store,
            EventFilter {
                limit: 2,
                ..f.clone()
            },
        );
        assert_eq!(whole, paged);
        let mut sorted = whole.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, whole);
    }
    // A page looks at a bounded number of entries, and its cursor goes on from there.
    let bounded = store
        .events(&EventFilter {
            emitter: Some(A),
            topics: vec![Some(topic("Tock"))],
            scan_limit: 3,
            ..filter(0, 10)
        })
        .unwrap();
    assert!(bounded.events.len() <= 2 && bounded.next.is_some());
    assert_eq!(
        all(
            &store,
            EventFilter {
                emitter: Some(A),
                topics: vec![Some(topic("Tock"))],
                scan_limit: 3,
                ..filter(0, 10)
            }
        )
        .len(),
        11
    );
    // The same answers after reopening.
    let before = all(&store, filter(0, 10));
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(all(&store, filter(0, 10)), before);
    assert_eq!(before.len(), 33);
}

/// With the index off, commits skip it and queries say so; opened with it on again, the store
/// rebuilds it from the receipts, blocks committed while it was off included.
#[test]
fn an_index_turned_off_is_refused_then_rebuilt_when_turned_on() {
    struct NeverFull;
    impl cowboy_state::FullDisk for NeverFull {
        fn wait_for_space(&self, _file: &std::path::Path) -> bool {
            false
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let open = |event_index: bool| {
        Store::open_with(
            &path,
            std::sync::Arc::new(NeverFull),
            cowboy_state::StoreOptions { event_index },
        )
        .unwrap()
    };
    let store = open(true);
    commit(&store);
    commit(&store);
    drop(store);
    let store = open(false);
    commit(&store);
    let refused = store.events(&filter(0, 2)).expect_err("off");
    assert!(
        refused.to_string().contains("does not index events"),
        "{refused}"
    );
    drop(store);
    let store = open(true);
    // Blocks 0 and 1 were indexed as committed, block 2 by the rebuild.
    let found = all(&store, filter(0, 2));
    assert_eq!(
        found.len(),
        9,
        "three events in each of three blocks: {found:?}"
    );
    assert_eq!(found.iter().filter(|p| p.height == 2).count(), 3);
}
