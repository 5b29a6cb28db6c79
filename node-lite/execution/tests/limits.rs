//! Every DoS limit (whitepaper §3, §12.1) ends the offending execution with a clear error and
//! changes nothing but the fee: fanout, send depth, mailbox capacity, storage quota, timers per
//! actor, transaction size. Every byte of a transaction is paid for in cells before it runs, a
//! tip above its fee cap is refused, and a free read-only query stops at the user lane.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{BlockError, TxError, params::Parameters};
use cowboy_pvm::{ErrorKind, Value};
use cowboy_types::{Outcome, receipt::failure as kind};

const BOMBS: &str = r#"
import cowboy_sdk as sdk

class Actor:
    def __init__(self):
        pass

    def fanout(self, target, n):
        for i in range(n):
            sdk.send(target, "sink", i)

    def sink(self, i):
        return i

    def flood(self, target, n, size):
        blob = b"x" * size
        for i in range(n):
            sdk.send(target, "sink", blob)

    def hoard(self, n, size):
        for i in range(n):
            self.storage["blob" + str(i)] = b"y" * size

    def grow(self, quota, n, size):
        sdk.set_storage_quota(quota)
        for i in range(n):
            self.storage["blob" + str(i)] = b"y" * size

    def timers(self, n):
        for i in range(n):
            sdk.set_timer(sdk.block_height() + 5, "sink", i, cycles=5000, cells=64)

    def spin(self):
        while True:
            pass

    def down(self, depth):
        self.storage["depth"] = depth
        sdk.send(sdk.self_address(), "down", depth + 1)
"#;

fn setup(engine: &mut cowboy_pvm::Engine, params: Parameters) -> (Node, cowboy_types::Address) {
    let a = key(1);
    let g = genesis_with(params, &[(a.address(), 1_000_000 * CBY)]);
    let node = Node::new(&g);
    node.block(engine, vec![tx(&a, 0, deploy(BOMBS, 1, vec![]))]);
    let bombs = actor_at(a.address(), BOMBS, 1);
    assert!(node.account(&bombs).actor.is_some());
    (node, bombs)
}

fn run_one(
    engine: &mut cowboy_pvm::Engine,
    node: &Node,
    instruction: cowboy_types::Instruction,
    cycles: u64,
    cells: u64,
) -> (cowboy_execution::Executed, cowboy_types::Receipt) {
    let a = key(1);
    let nonce = node.account(&a.address()).nonce;
    let t = tx_with(&a, nonce, instruction, cycles, cells);
    let executed = node.block(engine, vec![t.clone()]);
    let r = receipt_of(&executed, &t.digest()).clone();
    (executed, r)
}

#[test]
fn fanout_above_1024_fails_the_sender() {
    with_engine(|engine| {
        let (node, bombs) = setup(engine, Parameters::spec());
        let target = Value::Str(bombs.to_string());
        let (executed, r) = run_one(
            engine,
            &node,
            call(bombs, "fanout", vec![target, int(1_025)], 0),
            5_000_000,
            100_000,
        );
        let (k, msg) = failure(&r);
        assert_eq!(k, ErrorKind::Exception.code());
        assert!(
            msg.contains("fanout limit reached") && msg.contains("1024"),
            "{msg}"
        );
        assert!(r.fee > 0);
        assert_only_fees_changed(&executed, &key(1).address());
        // 1,024 is allowed.
        let (_, ok) = run_one(
            engine,
            &node,
            call(
                bombs,
                "fanout",
                vec![Value::Str(bombs.to_string()), int(1_024)],
                0,
            ),
            20_000_000,
            100_000,
        );
        assert_success(&ok);
        assert_eq!(ok.deliveries.len(), 1 + 1_024);
    })
}

#[test]
fn sends_nest_at_most_32_deep() {
    with_engine(|engine| {
        let (node, bombs) = setup(engine, Parameters::spec());
        let (_, r) = run_one(
            engine,
            &node,
            call(bombs, "down", vec![int(0)], 0),
            5_000_000,
            100_000,
        );
        assert_success(&r);
        // Depths 0..=31 delivered; the handler at depth 32 tried to send and was reverted.
        assert_eq!(r.deliveries.len(), 33);
        assert!(
            r.deliveries[..32]
                .iter()
                .all(|d| d.outcome == Outcome::Delivered)
        );
        match &r.deliveries[32].outcome {
            Outcome::Failed { kind: k, message } => {
                assert_eq!(*k, ErrorKind::Exception.code());
                assert!(message.contains("message depth limit reached"), "{message}");
            }
            other => panic!("depth 32 should fail, got {other:?}"),
        }
        assert_eq!(node.storage(&bombs, "depth"), Some(int(31)));
    })
}

#[test]
fn a_full_mailbox_refuses_the_send() {
    with_engine(|engine| {
        let (node, bombs) = setup(engine, Parameters::spec());
        // 11 messages of ~100 KB to one recipient: the mailbox holds 1,000,000 bytes.
        let (executed, r) = run_one(
            engine,
            &node,
            call(
                bombs,
                "flood",
                vec![Value::Str(bombs.to_string()), int(11), int(100_000)],
                0,
            ),
            10_000_000,
            2_000_000,
        );
        let (k, msg) = failure(&r);
        assert_eq!(k, ErrorKind::Exception.code());
        assert!(
            msg.contains("mailbox of") && msg.contains("is full") && msg.contains("1000000"),
            "{msg}"
        );
        assert_only_fees_changed(&executed, &key(1).address());
    })
}

#[test]
fn storage_beyond_the_quota_fails_and_a_bond_raises_it() {
    with_engine(|engine| {
        let (node, bombs) = setup(engine, Parameters::spec());
        // Two 600,000-byte values exceed the 1 MiB quota.
        let (executed, r) = run_one(
            engine,
            &node,
            call(bombs, "hoard", vec![int(2), int(600_000)], 0),
            10_000_000,
            3_000_000,
        );
        let (k, msg) = failure(&r);
        assert_eq!(k, kind::QUOTA_EXCEEDED);
        assert!(msg.contains("storage quota exceeded"), "{msg}");
        assert_only_fees_changed(&executed, &key(1).address());

        // With a 2 MiB quota the same writes fit, once the actor can post the bond:
        // (2 MiB − 1 MiB) × 100,000 base units per byte.
        let bond = 1_048_576u64 * 100_000;
        let (_, r) = run_one(engine, &node, transfer(bombs, bond), 100_000, 1_000);
        assert_success(&r);
        let (_, r) = run_one(
            engine,
            &node,
            call(bombs, "grow", vec![int(2_097_152), int(2), int(600_000)], 0),
            10_000_000,
            3_000_000,
        );
        assert_success(&r);
        let acc = node.account(&bombs);
        let storage = acc.actor.expect("actor").storage;
        assert_eq!(storage.quota, 2_097_152);
        assert_eq!(storage.bond, bond);
        assert_eq!(acc.balance, 0);
        assert!(storage.used > 1_200_000);
    })
}

#[test]
fn an_actor_holds_at_most_1024_timers() {
    with_engine(|engine| {
        let (node, bombs) = setup(engine, Parameters::spec());
        // Fund the timers' firings is not needed to schedule them.
        let (_, r) = run_one(
            engine,
            &node,
            call(bombs, "timers", vec![int(1_000)], 0),
            20_000_000,
            100_000,
        );
        assert_success(&r);
        let (executed, r) = run_one(
            engine,
            &node,
            call(bombs, "timers", vec![int(30)], 0),
            5_000_000,
            100_000,
        );
        let (k, msg) = failure(&r);
        assert_eq!(k, ErrorKind::Exception.code());
        assert!(
            msg.contains("timer limit reached") && msg.contains("1024"),
            "{msg}"
        );
        assert_only_fees_changed(&executed, &key(1).address());
    })
}

#[test]
fn a_transaction_above_max_tx_size_never_enters_a_block() {
    with_engine(|engine| {
        let a = key(1);
        let g = genesis_with(Parameters::spec(), &[(a.address(), 1_000_000 * CBY)]);
        let node = Node::new(&g);
        let code = format!(
            "class Actor:\n    def __init__(self):\n        pass\n# {}\n",
            "x".repeat(131_000)
        );
        let big = tx_with(&a, 0, deploy(&code, 1, vec![]), 1_000_000, 200_000);
        let params = node.chain.params().expect("params");
        let err = cowboy_execution::verify(big.clone(), CHAIN_ID, &params).unwrap_err();
        assert!(
            matches!(err, TxError::TooLarge { max: 131_072, .. }),
            "{err}"
        );
        assert!(
            err.to_string().contains("above max_tx_size (131072 bytes)"),
            "{err}"
        );

        // A proposal carrying it is rejected as a whole and nothing changes.
        node.block(engine, vec![]);
        let mut forged = node.propose(vec![]);
        forged.transactions = vec![big];
        let before = node.chain.store().snapshot().expect("snapshot").root;
        let err = node.check(&forged).unwrap_err();
        assert!(
            matches!(
                err,
                BlockError::InvalidTransaction {
                    index: 0,
                    error: TxError::TooLarge { .. },
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(
            node.chain.store().snapshot().expect("snapshot").root,
            before
        );
        assert_eq!(node.height(), 1);
    })
}

/// A transfer carrying `padding` bytes of metadata (metadata is any field a client may fill).
fn padded_transfer(padding: usize, cells_limit: u64) -> cowboy_types::Transaction {
    let a = key(1);
    let mut t = tx_with(&a, 0, transfer(key(2).address(), 1), 30_000, cells_limit);
    t.metadata = vec![0x5a; padding];
    cowboy_crypto::sign_transaction(&mut t, &a).expect("sign");
    t
}

fn encoded_size(t: &cowboy_types::Transaction) -> u64 {
    use commonware_codec::EncodeSize as _;
    t.encode_size() as u64
}

#[test]
fn the_largest_admissible_transaction_pays_one_cell_per_byte_before_it_runs() {
    with_engine(|engine| {
        let a = key(1);
        let g = genesis_with(Parameters::spec(), &[(a.address(), 1_000_000 * CBY)]);
        let node = Node::new(&g);
        let params = node.chain.params().expect("params");
        let max = params.execution.max_tx_size;
        // The padding that makes the transaction exactly max_tx_size bytes (the cells limit
        // stays a 3-byte varint throughout, so it does not move the size).
        let base = encoded_size(&padded_transfer(0, 200_000));
        let mut padding = (max - base) as usize;
        while encoded_size(&padded_transfer(padding, 200_000)) > max {
            padding -= 1;
        }
        let largest = padded_transfer(padding, max);
        let size = encoded_size(&largest);
        assert_eq!(size, max, "the probe hits the limit exactly");
        assert_eq!(cowboy_types::intrinsic::minimum_cells(&largest), size);

        // One cell short of its own size is refused at admission, naming the rule.
        let short = padded_transfer(padding, size - 1);
        let err = cowboy_execution::verify(short, CHAIN_ID, &params).unwrap_err();
        assert!(
            matches!(err, TxError::BelowIntrinsic { what: "cells", needed, .. } if needed == size),
            "{err}"
        );
        // One byte more is too large.
        let over = padded_transfer(padding + 1, max);
        assert!(matches!(
            cowboy_execution::verify(over, CHAIN_ID, &params),
            Err(TxError::TooLarge { .. })
        ));

        // Admitted, it executes and is charged every byte.
        cowboy_execution::verify(largest.clone(), CHAIN_ID, &params).expect("admissible");
        let executed = node.block(engine, vec![largest.clone()]);
        let r = receipt_of(&executed, &largest.digest());
        assert_success(r);
        assert!(
            r.cells_used >= size,
            "{} cells for {size} bytes",
            r.cells_used
        );

        // A plain transfer pays its own (small) size, not the large one's.
        let small = tx_with(&a, 1, transfer(key(2).address(), 1), 30_000, 1_000);
        let executed = node.block(engine, vec![small.clone()]);
        let r = receipt_of(&executed, &small.digest());
        assert_eq!(r.cells_used, encoded_size(&small));
    })
}

#[test]
fn a_tip_above_its_fee_cap_is_refused_at_admission() {
    let a = key(1);
    let params = Parameters::spec();
    for (cycle_tip, cell_tip, what) in [(20_001, 0, "cycle"), (1, 20_001, "cell")] {
        let mut t = tx_with(&a, 0, transfer(key(2).address(), 1), 30_000, 1_000);
        t.max_priority_fee_per_cycle = cycle_tip;
        t.max_priority_fee_per_cell = cell_tip;
        cowboy_crypto::sign_transaction(&mut t, &a).expect("sign");
        let err = cowboy_execution::verify(t, CHAIN_ID, &params).unwrap_err();
        assert!(
            matches!(err, TxError::TipAboveMaxFee { what: w, tip: 20_001, cap: 20_000 } if w == what),
            "{err}"
        );
        assert!(
            err.to_string().contains("lower the tip or raise the cap"),
            "{err}"
        );
    }
    // Equal is allowed: the whole cap may go to the tip.
    let mut t = tx_with(&a, 0, transfer(key(2).address(), 1), 30_000, 1_000);
    t.max_priority_fee_per_cycle = t.max_fee_per_cycle;
    cowboy_crypto::sign_transaction(&mut t, &a).expect("sign");
    cowboy_execution::verify(t, CHAIN_ID, &params).expect("a tip equal to the cap");
}

#[test]
fn a_query_stops_at_the_user_lane_however_many_cycles_it_asks_for() {
    with_engine(|engine| {
        // A 1 s block's budget: the user lane is far below the query's own cap.
        let params = Parameters::for_block_time(1_000);
        let lane = params.lanes.user_cycles;
        assert!(lane < cowboy_execution::query::MAX_QUERY_CYCLES);
        let a = key(1);
        let node = Node::new(&genesis_with(params, &[(a.address(), 1_000_000 * CBY)]));
        node.block(
            engine,
            vec![tx_with(&a, 0, deploy(BOMBS, 1, vec![]), lane, 200_000)],
        );
        let bombs = actor_at(a.address(), BOMBS, 1);
        let q = cowboy_execution::Query {
            from: key(3).address(),
            to: bombs,
            method: "spin".into(),
            args: encode_args(vec![]),
            cycles_limit: u64::MAX,
            cells_limit: u64::MAX,
        };
        let result = node.chain.query(engine, &q).expect("query runs");
        match &result.status {
            cowboy_types::Status::Failed { kind: k, .. } => {
                assert_eq!(*k, cowboy_types::receipt::FailureKind::OutOfCycles.code())
            }
            other => panic!("{other:?}"),
        }
        assert!(
            result.cycles_used <= lane && result.cycles_used > lane / 2,
            "{} cycles for a lane of {lane}",
            result.cycles_used
        );
    })
}
