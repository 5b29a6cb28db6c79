//! The store and overlay at the level the executor uses them: layered writes and reverts, merged
//! range scans, per-block commits, roots that depend only on the state (not on its history),
//! reopening, and proofs checked against the root.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

use cowboy_state::{ChangeSet, Durability, MemoryState, Overlay, StateRead, Store};
use cowboy_types::{Hash, Receipt, Status};
use proptest::prelude::*;
use std::collections::BTreeMap;
use support::block;

fn commit(store: &Store, changes: ChangeSet) -> Hash {
    commit_as(store, changes, Durability::Immediate)
}

fn commit_as(store: &Store, changes: ChangeSet, durability: Durability) -> Hash {
    let snap = store.snapshot().unwrap();
    let prepared = store.prepare(&snap, changes).unwrap();
    let b = block(prepared.height);
    let receipt = Receipt {
        tx_hash: Hash([prepared.height as u8; 32]),
        status: Status::Success,
        cycles_used: 1,
        cells_used: 2,
        fee: 3,
        return_data: vec![],
        events: vec![],
        created: None,
        deliveries: vec![],
    };
    store
        .commit(
            &prepared,
            &cowboy_state::BlockRecord {
                block: &b,
                hash: Hash([0xb0 ^ prepared.height as u8; 32]),
                receipts: &[(receipt, None)],
                outcome: &[],
                traces: &[],
                timer_firings: &[],
            },
            durability,
        )
        .unwrap();
    prepared.root
}

fn set(pairs: &[(&[u8], Option<&[u8]>)]) -> ChangeSet {
    pairs
        .iter()
        .map(|(k, v)| (k.to_vec(), v.map(|v| v.to_vec())))
        .collect()
}

#[test]
fn roots_depend_only_on_the_state_and_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.redb");
    let store = Store::open(&path).unwrap();
    assert_eq!(store.height().unwrap(), None);
    let r0 = commit(&store, set(&[(b"a", Some(b"1")), (b"b", Some(b"2"))]));
    let r1 = commit(&store, set(&[(b"c", Some(b"3")), (b"a", None)]));
    let r2 = commit(&store, ChangeSet::new());
    assert_ne!(r0, r1);
    assert_eq!(r1, r2, "an empty block keeps the root");
    drop(store);

    // The same final state written in one go has the same root.
    let other = tempfile::tempdir().unwrap();
    let fresh = Store::open(&other.path().join("s.redb")).unwrap();
    let direct = commit(&fresh, set(&[(b"b", Some(b"2")), (b"c", Some(b"3"))]));
    assert_eq!(direct, r1);

    let store = Store::open(&path).unwrap();
    let snap = store.snapshot().unwrap();
    assert_eq!(snap.height, Some(2));
    assert_eq!(snap.root, r1);
    assert_eq!(snap.get(b"a").unwrap(), None);
    assert_eq!(snap.get(b"c").unwrap(), Some(b"3".to_vec()));
    assert_eq!(store.receipts(1).unwrap().len(), 1);
    let loc = store.locate(&Hash([1; 32])).unwrap().unwrap();
    assert_eq!(
        (loc.height, loc.receipt_index, loc.body_index),
        (1, 0, None)
    );
    assert_eq!(store.block(2).unwrap().unwrap().header.height, 2);
    assert_eq!(store.block_height(&Hash([0xb0 ^ 2; 32])).unwrap(), Some(2));
}

#[test]
fn proofs_of_presence_and_absence_verify_against_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let mut changes = ChangeSet::new();
    for i in 0u32..500 {
        changes.insert(i.to_be_bytes().to_vec(), Some(vec![i as u8; 3]));
    }
    let root = commit(&store, changes);
    let present = store.prove(&7u32.to_be_bytes()).unwrap();
    assert_eq!(present.value, Some(vec![7; 3]));
    present.verify(&root).unwrap();
    let absent = store.prove(b"missing").unwrap();
    assert_eq!(absent.value, None);
    absent.verify(&root).unwrap();

    // A forged value or a different root fails.
    let mut forged = present.clone();
    forged.value = Some(vec![8; 3]);
    assert!(forged.verify(&root).is_err());
    assert!(present.verify(&Hash([1; 32])).is_err());
}

#[test]
fn blocks_must_be_committed_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    commit(&store, set(&[(b"a", Some(b"1"))]));
    let snap = store.snapshot().unwrap();
    let prepared = store.prepare(&snap, set(&[(b"b", Some(b"1"))])).unwrap();
    let wrong = block(5);
    let err = store
        .commit(
            &prepared,
            &cowboy_state::BlockRecord {
                block: &wrong,
                hash: Hash::ZERO,
                receipts: &[],
                outcome: &[],
                traces: &[],
                timer_firings: &[],
            },
            Durability::Immediate,
        )
        .unwrap_err();
    assert!(err.to_string().contains("cannot be committed"), "{err}");
    // Nothing was written.
    assert_eq!(store.snapshot().unwrap().get(b"b").unwrap(), None);
    assert_eq!(store.height().unwrap(), Some(0));
}

#[test]
fn checkpoints_revert_exactly_their_writes() {
    let base = MemoryState(BTreeMap::from([(b"k".to_vec(), b"0".to_vec())]));
    let mut o = Overlay::new(&base);
    o.put(b"a".to_vec(), b"1".to_vec());
    o.checkpoint();
    o.put(b"a".to_vec(), b"2".to_vec());
    o.delete(b"k".to_vec());
    assert_eq!(o.get(b"a").unwrap(), Some(b"2".to_vec()));
    assert_eq!(o.get(b"k").unwrap(), None);
    o.revert_checkpoint();
    assert_eq!(o.get(b"a").unwrap(), Some(b"1".to_vec()));
    assert_eq!(o.get(b"k").unwrap(), Some(b"0".to_vec()));
    o.checkpoint();
    o.put(b"b".to_vec(), b"3".to_vec());
    o.checkpoint();
    o.put(b"k".to_vec(), b"0".to_vec()); // restores the committed value
    o.commit_checkpoint();
    o.commit_checkpoint();
    let changes = o.into_changes().unwrap();
    assert_eq!(
        changes,
        set(&[(b"a", Some(b"1")), (b"b", Some(b"3"))]),
        "writes that restore the committed value are not changes"
    );
}

#[derive(Debug, Clone)]
enum Op {
    Put(u8, u8),
    Delete(u8),
    Checkpoint,
    Commit,
    Revert,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u8..40, any::<u8>()).prop_map(|(k, v)| Op::Put(k, v)),
        2 => (0u8..40).prop_map(Op::Delete),
        1 => Just(Op::Checkpoint),
        1 => Just(Op::Commit),
        1 => Just(Op::Revert),
    ]
}

proptest! {
    /// The overlay behaves like a stack of copies of a map, and its range scans equal a scan
    /// of the map it stands for.
    #[test]
    fn overlay_matches_a_model(
        base in proptest::collection::btree_map(0u8..40, any::<u8>(), 0..30),
        ops in proptest::collection::vec(op(), 0..80),
        from in 0u8..35,
        limit in 1usize..50,
    ) {
        let base_state = MemoryState(base.iter().map(|(k, v)| (vec![*k], vec![*v])).collect());
        let mut overlay = Overlay::new(&base_state);
        let mut model: Vec<BTreeMap<u8, u8>> = vec![base.clone()];
        for op in ops {
            let top = model.len() - 1;
            match op {
                Op::Put(k, v) => { overlay.put(vec![k], vec![v]); model[top].insert(k, v); }
                Op::Delete(k) => { overlay.delete(vec![k]); model[top].remove(&k); }
                Op::Checkpoint => { overlay.checkpoint(); let c = model[top].clone(); model.push(c); }
                Op::Commit => if model.len() > 1 {
                    overlay.commit_checkpoint();
                    let m = model.pop().unwrap();
                    *model.last_mut().unwrap() = m;
                },
                Op::Revert => if model.len() > 1 { overlay.revert_checkpoint(); model.pop(); },
            }
        }
        let current = model.last().unwrap();
        for k in 0u8..40 {
            prop_assert_eq!(overlay.get(&[k]).unwrap(), current.get(&k).map(|v| vec![*v]));
        }
        let scanned = overlay.range(&[from], Some(&[35]), limit).unwrap();
        let expected: Vec<(Vec<u8>, Vec<u8>)> = current
            .range(from..35)
            .take(limit)
            .map(|(k, v)| (vec![*k], vec![*v]))
            .collect();
        prop_assert_eq!(scanned, expected);
        while overlay.depth() > 0 { overlay.commit_checkpoint(); }
        let changes = overlay.into_changes().unwrap();
        let mut applied = base_state.0.clone();
        for (k, v) in changes {
            match v { Some(v) => { applied.insert(k, v); } None => { applied.remove(&k); } }
        }
        let final_model: BTreeMap<Vec<u8>, Vec<u8>> =
            current.iter().map(|(k, v)| (vec![*k], vec![*v])).collect();
        prop_assert_eq!(applied, final_model);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Across blocks of inserts, updates and deletes, the root always equals the root of the
    /// same state written in one go, stale tree nodes never accumulate, and proofs verify.
    #[test]
    fn incremental_roots_match_from_scratch_and_nodes_do_not_leak(
        blocks in proptest::collection::vec(
            proptest::collection::btree_map(0u16..300, proptest::option::weighted(0.7, any::<u8>()), 0..40),
            1..12,
        ),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        let mut model: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        for changes in blocks {
            let mut set = ChangeSet::new();
            for (k, v) in changes {
                let key = k.to_be_bytes().to_vec();
                let old = model.get(&key).cloned();
                match v {
                    Some(v) => { model.insert(key.clone(), vec![v]); if old != Some(vec![v]) { set.insert(key, Some(vec![v])); } }
                    None => { if model.remove(&key).is_some() { set.insert(key, None); } }
                }
            }
            let root = commit(&store, set);
            let scratch: ChangeSet = model.iter().map(|(k, v)| (k.clone(), Some(v.clone()))).collect();
            prop_assert_eq!(cowboy_state::tree::root_of(&scratch).unwrap(), root);
            for probe in [0u16, 7, 150, 299] {
                let p = store.prove(&probe.to_be_bytes()).unwrap();
                prop_assert_eq!(p.value.clone(), model.get(probe.to_be_bytes().as_slice()).cloned());
                prop_assert!(p.verify(&root).is_ok());
            }
        }
        // The same state written in one go has exactly as many tree nodes.
        let other = tempfile::tempdir().unwrap();
        let fresh = Store::open(&other.path().join("s.redb")).unwrap();
        commit(&fresh, model.iter().map(|(k, v)| (k.clone(), Some(v.clone()))).collect());
        prop_assert_eq!(store.tree_nodes().unwrap(), fresh.tree_nodes().unwrap());
    }
}

/// Set in the child process of
/// [`a_deferred_commit_is_seen_at_once_durable_after_sync_and_lost_whole_by_a_crash`]: the
/// store it writes and then crashes on.
const CRASH_CHILD: &str = "COWBOY_STATE_TEST_CRASH_CHILD";

/// Block 2 of the crash test: large enough (about 10 MB with its tree nodes) that redb may
/// write some of its pages to the file before any sync.
fn large_block() -> ChangeSet {
    let mut changes = set(&[(b"c", Some(b"2")), (b"a", None)]);
    for i in 0..4_000u32 {
        changes.insert(i.to_be_bytes().to_vec(), Some(vec![i as u8; 2_048]));
    }
    changes
}

/// What the child does before it aborts: block 0 immediate, block 1 deferred then synced,
/// block 2 deferred and never synced. `abort` runs no destructor, so redb does not close.
fn write_then_crash(path: &std::path::Path) -> ! {
    let store = Store::open(path).unwrap();
    commit(&store, set(&[(b"a", Some(b"0"))]));
    commit_as(&store, set(&[(b"b", Some(b"1"))]), Durability::Deferred);
    // Every reader sees a deferred block at once.
    assert_eq!(store.height().unwrap(), Some(1));
    assert_eq!(
        store.snapshot().unwrap().get(b"b").unwrap(),
        Some(b"1".to_vec())
    );
    store.sync().unwrap();
    commit_as(&store, large_block(), Durability::Deferred);
    assert_eq!(store.height().unwrap(), Some(2));
    std::process::abort();
}

#[test]
fn a_deferred_commit_is_seen_at_once_durable_after_sync_and_lost_whole_by_a_crash() {
    if let Some(path) = std::env::var_os(CRASH_CHILD) {
        write_then_crash(std::path::Path::new(&path));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.redb");
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "a_deferred_commit_is_seen_at_once_durable_after_sync_and_lost_whole_by_a_crash",
            "--exact",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(CRASH_CHILD, &path)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    assert!(!child.status.success(), "the child crashes: {said}");

    // Read as `cowboy devnet snapshot` reads a stopped node's store, which then opens again.
    let read = Store::read_latest(&path).unwrap();
    assert_eq!(read.height, Some(1));
    drop(read);

    // The store opens at the synced block 1: block 2 is gone, all of it.
    let store = Store::open(&path).unwrap();
    let snap = store.snapshot().unwrap();
    assert_eq!(snap.height, Some(1), "the child said: {said}");
    assert_eq!(snap.get(b"a").unwrap(), Some(b"0".to_vec()));
    assert_eq!(snap.get(b"b").unwrap(), Some(b"1".to_vec()));
    assert_eq!(snap.get(b"c").unwrap(), None);
    for i in [0u32, 1_999, 3_999] {
        assert_eq!(snap.get(&i.to_be_bytes()).unwrap(), None);
    }
    assert!(store.block(2).unwrap().is_none());
    assert!(store.receipts(2).unwrap().is_empty());
    drop(snap);

    // Block 2 commits again, to the root a store that never crashed has.
    let again = commit(&store, large_block());
    let other = tempfile::tempdir().unwrap();
    let fresh = Store::open(&other.path().join("s.redb")).unwrap();
    commit(&fresh, set(&[(b"a", Some(b"0"))]));
    commit(&fresh, set(&[(b"b", Some(b"1"))]));
    assert_eq!(again, commit(&fresh, large_block()));

    // Closed cleanly, a deferred commit is kept.
    commit_as(&store, set(&[(b"d", Some(b"3"))]), Durability::Deferred);
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.height().unwrap(), Some(3));
    assert_eq!(
        store.snapshot().unwrap().get(b"d").unwrap(),
        Some(b"3".to_vec())
    );
}
