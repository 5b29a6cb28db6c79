//! The event index's cost, on disk (redb in a temporary directory):
//!
//! - **Block application**: committing blocks of 100 receipts carrying 2 events each (indexed
//!   three ways) against the same blocks whose receipts carry the same bytes as return data
//!   and no events (nothing to index) — the index's share of a commit, as a ratio.
//! - **Queries**: `getEvents`' store call over 100,000 indexed events — a page of 1,000 by
//!   range, by emitter and by first topic, and the whole range paged through by emitter.
//!
//! `cargo bench -p cowboy-state --bench events`

#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code: a failure is the run failing.

#[path = "../tests/support/mod.rs"]
mod support;

use cowboy_state::{Store, events::EventFilter};
use cowboy_types::{Address, Event, Hash, Receipt, Status};
use std::time::{Duration, Instant};
use support::block;

const BLOCKS: u64 = 500;
const RECEIPTS: usize = 100;
const EVENTS: usize = 2;

fn receipts(height: u64, with_events: bool) -> Vec<(Receipt, Option<u32>)> {
    (0..RECEIPTS)
        .map(|i| {
            let events: Vec<Event> = (0..EVENTS)
                .map(|e| Event {
                    emitter: Address([(i % 16) as u8; 20]),
                    topics: vec![
                        cowboy_types::keccak256(if e == 0 { b"Transfer" } else { b"Approval" }),
                        Hash([(height % 251) as u8; 32]),
                    ],
                    data: vec![0x18, i as u8],
                })
                .collect();
            let bytes: usize = events
                .iter()
                .map(|e| 20 + 32 * e.topics.len() + e.data.len())
                .sum();
            let mut tx = [0u8; 32];
            tx[..8].copy_from_slice(&height.to_be_bytes());
            tx[8..16].copy_from_slice(&(i as u64).to_be_bytes());
            (
                Receipt {
                    tx_hash: Hash(tx),
                    status: Status::Success,
                    cycles_used: 1,
                    cells_used: 1,
                    fee: 0,
                    return_data: if with_events { vec![] } else { vec![7; bytes] },
                    events: if with_events { events } else { vec![] },
                    created: None,
                    deliveries: vec![],
                },
                Some(i as u32),
            )
        })
        .collect()
}

/// Commits `BLOCKS` blocks to a fresh store; the time, and the store.
fn apply(with_events: bool, dir: &std::path::Path) -> (Duration, Store) {
    let store = Store::open(&dir.join(if with_events { "on.redb" } else { "off.redb" })).unwrap();
    let mut total = Duration::ZERO;
    for _ in 0..BLOCKS {
        let snap = store.snapshot().unwrap();
        let prepared = store
            .prepare(
                &snap,
                vec![(b"k".to_vec(), Some(vec![1]))].into_iter().collect(),
            )
            .unwrap();
        drop(snap);
        let h = prepared.height;
        let rs = receipts(h, with_events);
        let b = block(h);
        let start = Instant::now();
        store
            .commit(
                &prepared,
                &cowboy_state::BlockRecord {
                    block: &b,
                    hash: Hash([h as u8; 32]),
                    receipts: &rs,
                    outcome: &[],
                    traces: &[],
                    timer_firings: &[],
                },
                cowboy_state::Durability::Immediate,
            )
            .unwrap();
        total += start.elapsed();
    }
    (total, store)
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let (off, _) = apply(false, dir.path());
    let (on, store) = apply(true, dir.path());
    let events = BLOCKS as usize * RECEIPTS * EVENTS;
    println!(
        "block application, {BLOCKS} blocks of {RECEIPTS} receipts × {EVENTS} events \
         ({events} events):"
    );
    println!(
        "  index off (same bytes, no events) {:>8.2} ms/block",
        off.as_secs_f64() * 1e3 / BLOCKS as f64
    );
    println!(
        "  index on                          {:>8.2} ms/block  ({:.2}× off)",
        on.as_secs_f64() * 1e3 / BLOCKS as f64,
        on.as_secs_f64() / off.as_secs_f64()
    );
    let filter = EventFilter {
        from: 0,
        to: BLOCKS,
        emitter: None,
        topics: vec![],
        after: None,
        limit: 1_000,
        scan_limit: 100_000,
    };
    println!("queries over {events} indexed events (median of 21):");
    let page = |f: &EventFilter| store.events(f).unwrap();
    for (label, f) in [
        ("a page of 1,000 by range", filter.clone()),
        (
            "a page of 1,000 by emitter",
            EventFilter {
                emitter: Some(Address([3; 20])),
                ..filter.clone()
            },
        ),
        (
            "a page of 1,000 by first topic",
            EventFilter {
                topics: vec![Some(cowboy_types::keccak256(b"Approval"))],
                ..filter.clone()
            },
        ),
        (
            "by emitter and a second topic (rare)",
            EventFilter {
                emitter: Some(Address([3; 20])),
                topics: vec![None, Some(Hash([7; 32]))],
                ..filter.clone()
            },
        ),
    ] {
        let t = time(21, || page(&f));
        println!(
            "  {label:<40} {:>8.2} ms ({} events)",
            t.as_secs_f64() * 1e3,
            page(&f).events.len()
        );
    }
    let all = time(5, || {
        let mut f = EventFilter {
            emitter: Some(Address([3; 20])),
            ..filter.clone()
        };
        let mut n = 0;
        loop {
            let p = page(&f);
            n += p.events.len();
            match p.next {
                Some(next) => f.after = Some(next),
                None => return n,
            }
        }
    });
    println!(
        "  every event of one emitter, paged      {:>8.2} ms",
        all.as_secs_f64() * 1e3
    );
}
