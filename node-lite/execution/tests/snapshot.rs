//! Snapshots (`cowboy_execution::snapshot`): a chain's state saved as a genesis starts a new
//! chain whose accounts, actors and storage read the same, whose timers fire the same number
//! of blocks after its start as they would have after the snapshot, and which saves the same
//! snapshot again; a tampered snapshot is refused with the entry named.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{Genesis, audit, params::Parameters, snapshot, world::decode_due};
use cowboy_pvm::Value;
use cowboy_state::StateRead;
use cowboy_types::{Address, Hash, TimerRecord, json::HexBytes, state::key};

fn timers(state: &dyn StateRead) -> Vec<(Hash, TimerRecord)> {
    state
        .range(&[key::TIMER_DUE], Some(&[key::TIMER_DUE + 1]), usize::MAX)
        .expect("range")
        .iter()
        .map(|(_, v)| decode_due(v).expect("timer"))
        .collect()
}

fn save(node: &Node) -> snapshot::Saved {
    let snap = node.chain.store().snapshot().expect("snapshot");
    snapshot::save(&snap, snap.height.expect("height"), snap.hash, snap.root).expect("save")
}

fn labels_and_heights(node: &Node, actor: &Address) -> Vec<Value> {
    match node.storage(actor, "ticks") {
        Some(Value::List(items)) => items,
        other => panic!("no ticks: {other:?}"),
    }
}

#[test]
fn a_snapshot_starts_a_chain_where_the_state_reads_the_same_and_timers_keep_their_distance() {
    with_engine(|engine| {
        let a = key(1);
        let g = genesis_with(Parameters::spec(), &[(a.address(), 1_000_000 * CBY)]);
        let source = Node::new(&g);
        let ticker = actor_at(a.address(), TICKER, 1);
        source.block(
            engine,
            vec![
                tx(&a, 0, deploy(TICKER, 1, vec![])),
                tx(&a, 1, transfer(ticker, 10 * CBY)),
            ],
        );
        let h = source.height() as i64;
        source.block(
            engine,
            vec![
                tx(
                    &a,
                    2,
                    call(
                        ticker,
                        "every",
                        vec![int(3), Value::Str("i".into()), int(h + 1_000)],
                        0,
                    ),
                ),
                tx(
                    &a,
                    3,
                    call(ticker, "at", vec![int(h + 8), Value::Str("o".into())], 0),
                ),
            ],
        );
        for _ in 0..4 {
            source.block(engine, vec![]);
        }
        let ticks_before = labels_and_heights(&source, &ticker);
        assert!(
            !ticks_before.is_empty(),
            "the interval fired before the snapshot"
        );

        let saved = save(&source);
        let at = source.height();
        assert_eq!(saved.counts.timers, 2);
        assert!(
            saved.counts.dropped > 0,
            "the fairness window or system balances are dropped"
        );
        let carried = saved.genesis.carried.as_ref().expect("carried");
        assert_eq!(carried.source.height, at);
        assert_eq!(
            carried.source.state_root,
            source.chain.store().snapshot().unwrap().root
        );
        assert_eq!(saved.genesis.parameters, Parameters::spec());
        assert_eq!(saved.genesis.validators, g.validators);

        // The file round-trips and validates.
        let text = serde_json::to_string_pretty(&saved.genesis).unwrap();
        let parsed = Genesis::parse(&text).expect("a saved snapshot is a valid genesis");
        assert_eq!(parsed, saved.genesis);

        let copy = Node::new(&parsed);
        assert_eq!(copy.height(), 0);
        for who in [a.address(), ticker] {
            assert_eq!(copy.account(&who), source.account(&who), "account {who}");
        }
        assert_eq!(labels_and_heights(&copy, &ticker), ticks_before);

        let before = timers(&source.chain.store().snapshot().unwrap());
        let after_snap = copy.chain.store().snapshot().unwrap();
        let after = timers(&after_snap);
        assert_eq!(before.len(), 2);
        for ((id0, t0), (id1, t1)) in before.iter().zip(&after) {
            assert_eq!(id0, id1);
            assert_eq!(
                t1.next_height,
                t0.next_height - at,
                "due as many blocks later"
            );
            assert_eq!(t1.expires_at, t0.expires_at.map(|e| e - at));
            assert_eq!(
                (t1.seq, &t1.handler, t1.every),
                (t0.seq, &t0.handler, t0.every)
            );
        }
        assert!(audit::supply(&after_snap).unwrap().balanced());
        assert_eq!(audit::timers(&after_snap).unwrap(), 2);

        // The same snapshot again, from the copy at height 0.
        let again = snapshot::save(&after_snap, 0, after_snap.hash, after_snap.root).unwrap();
        assert_eq!(
            again.genesis.carried.as_ref().unwrap().entries,
            carried.entries
        );
        drop(after_snap);

        // Both chains run on: every timer fires the same number of blocks after the snapshot.
        for _ in 0..9 {
            source.block(engine, vec![]);
            copy.block(engine, vec![]);
        }
        // Firings after the snapshot, as blocks after it.
        let fired = |node: &Node, base: u64| -> Vec<(String, i64)> {
            labels_and_heights(node, &ticker)
                .into_iter()
                .skip(ticks_before.len())
                .map(|v| match v {
                    Value::List(p) => match (&p[0], &p[1]) {
                        (Value::Str(s), Value::Int(h)) => {
                            (s.clone(), i64::try_from(h).unwrap() - base as i64)
                        }
                        other => panic!("bad tick {other:?}"),
                    },
                    other => panic!("bad tick {other:?}"),
                })
                .collect()
        };
        let source_fired = fired(&source, at);
        assert_eq!(
            source_fired,
            [("i", 2), ("o", 3), ("i", 5), ("i", 8)].map(|(l, h)| (l.to_string(), h))
        );
        assert_eq!(fired(&copy, 0), source_fired);
        assert!(
            audit::supply(&copy.chain.store().snapshot().unwrap())
                .unwrap()
                .balanced()
        );
    })
}

#[test]
fn a_tampered_snapshot_is_refused_with_the_entry_named() {
    with_engine(|engine| {
        let a = key(1);
        let g = genesis_with(Parameters::spec(), &[(a.address(), 1_000_000 * CBY)]);
        let source = Node::new(&g);
        let ticker = actor_at(a.address(), TICKER, 1);
        source.block(engine, vec![tx(&a, 0, deploy(TICKER, 1, vec![]))]);
        source.block(
            engine,
            vec![tx(
                &a,
                1,
                call(ticker, "at", vec![int(50), Value::Str("o".into())], 0),
            )],
        );
        let good = save(&source).genesis;
        good.validate().expect("valid");
        let entries = || good.carried.clone().unwrap().entries;
        let refused = |entries: Vec<snapshot::Entry>| -> String {
            let mut g = good.clone();
            g.carried.as_mut().unwrap().entries = entries;
            let text = serde_json::to_string(&g).unwrap();
            Genesis::parse(&text).expect_err("refused").to_string()
        };
        let position = |prefix: u8| entries().iter().position(|e| e.key.0[0] == prefix).unwrap();

        let mut swapped = entries();
        swapped.swap(0, 1);
        assert!(
            refused(swapped).contains(
                "carried.entries[1].key: entries must be in strictly ascending key order"
            )
        );

        let mut with_validator = entries();
        with_validator.push(snapshot::Entry {
            key: HexBytes(key::validator(&a.address())),
            value: HexBytes(vec![0]),
        });
        with_validator.sort_by(|x, y| x.key.0.cmp(&y.key.0));
        let message = refused(with_validator);
        assert!(
            message.contains("is written by the genesis itself"),
            "{message}"
        );

        let mut bad_code = entries();
        let i = position(key::CODE);
        bad_code[i].value.0.extend_from_slice(b"\n# changed");
        let message = refused(bad_code);
        assert!(
            message.contains(&format!(
                "carried.entries[{i}].value: not the source its key names"
            )),
            "{message}"
        );

        // Code that skipped a deploy's validation (a sandbox escape) is refused.
        let mut escape = entries();
        let i = position(key::CODE);
        let source = "import os\n\nclass Actor:\n    def run(self):\n        return os.getcwd()\n";
        escape[i].key.0 = key::code(&cowboy_types::code_hash(source));
        escape[i].value.0 = source.as_bytes().to_vec();
        let message = refused(escape);
        assert!(
            message.contains(&format!(
                "carried.entries[{i}].value: not actor code this PVM accepts: line 1:"
            )) && message.contains("os"),
            "{message}"
        );

        // Storage that disagrees with the actor's own count of it.
        let mut grown = entries();
        let i = grown
            .iter()
            .position(|e| e.key.0[0] == key::STORAGE && e.key.0[1..21] == ticker.0)
            .unwrap();
        grown[i].value.0.push(0);
        let message = refused(grown);
        assert!(
            message.contains("storage.used is")
                && message.contains("but its carried storage holds"),
            "{message}"
        );

        let mut no_code = entries();
        no_code.remove(position(key::CODE));
        assert!(refused(no_code).contains("is not carried"));

        // A counter about to wrap would reuse carried sequence numbers.
        let mut wrapping = entries();
        let i = wrapping
            .iter()
            .position(|e| e.key.0 == key::chain("timer_seq"))
            .unwrap();
        wrapping[i].value.0 = vec![0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert!(refused(wrapping).contains("above 2^62"));

        // A timer the new chain's lane cannot fire would stop every timer behind it.
        let mut small = good.clone();
        small.parameters = small.parameters.rescaled(10_000);
        let message = Genesis::parse(&serde_json::to_string(&small).unwrap())
            .expect_err("refused")
            .to_string();
        assert!(
            message.contains("not a timer this chain can fire"),
            "{message}"
        );

        let mut no_counter = entries();
        no_counter.retain(|e| e.key.0 != key::chain("timer_seq"));
        assert!(refused(no_counter).contains("\"timer_seq\" must be carried"));

        let mut bad_timer = entries();
        let i = position(key::TIMER_DUE);
        bad_timer[i].value.0.truncate(40);
        assert!(refused(bad_timer).contains(&format!("carried.entries[{i}].value: not a timer")));

        let mut dropped = entries();
        dropped.push(snapshot::Entry {
            key: HexBytes(key::dedup(&a.address(), &Hash::ZERO)),
            value: HexBytes(vec![1]),
        });
        dropped.sort_by(|x, y| x.key.0.cmp(&y.key.0));
        assert!(refused(dropped).contains("is not state a snapshot carries"));
    })
}

/// Messages deferred to later blocks are carried with their escrowed budget: the snapshot
/// validates (mailbox sizes and pending counts agree with the messages), and the new chain
/// delivers them all.
#[test]
fn deferred_messages_are_carried_and_delivered_on_the_new_chain() {
    with_engine(|engine| {
        let mut p = Parameters::spec();
        p.execution.per_actor_per_block_cycles = 100_000;
        let a = key(1);
        let g = genesis_with(p, &[(a.address(), 1_000_000 * CBY)]);
        let source = Node::new(&g);
        let busy = actor_at(a.address(), BUSY, 1);
        source.block(engine, vec![tx(&a, 0, deploy(BUSY, 1, vec![]))]);
        let fan = tx_with(
            &a,
            1,
            call(busy, "fan", vec![int(6), int(10_000)], 0),
            3_000_000,
            100_000,
        );
        source.block(engine, vec![fan]);
        let snap = source.chain.store().snapshot().unwrap();
        assert!(audit::supply(&snap).unwrap().in_mailboxes == 0);
        assert!(audit::supply(&snap).unwrap().escrowed > 0, "messages wait");
        drop(snap);
        let saved = save(&source);
        let text = serde_json::to_string(&saved.genesis).unwrap();
        let parsed = Genesis::parse(&text).expect("a snapshot with pending messages is valid");
        let copy = Node::new(&parsed);
        assert!(
            audit::supply(&copy.chain.store().snapshot().unwrap())
                .unwrap()
                .balanced()
        );
        for _ in 0..5 {
            copy.block(engine, vec![]);
        }
        assert_eq!(copy.storage(&busy, "done"), Some(int(6)));
        let snap = copy.chain.store().snapshot().unwrap();
        let audit = audit::supply(&snap).unwrap();
        assert_eq!((audit.escrowed, audit.in_mailboxes), (0, 0));
        assert!(audit.balanced());
    })
}
