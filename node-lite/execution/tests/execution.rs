//! Blocks end to end: transfers, deploys, calls, nested sends, failures that still pay, fees and
//! refunds to the base unit, timers, rewards and supply.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{fees, params::Parameters};
use cowboy_types::{Outcome, receipt::failure as kind};

const COUNTER: &str = r#"
from cowboy_sdk import actor, emit

@actor
class Counter:
    def __init__(self, start=0):
        self.storage["count"] = start

    def increment(self, by=1):
        self.storage["count"] += by
        emit("Incremented", self.storage["count"])
        return self.storage["count"]

    def fail(self):
        self.storage["count"] = 999
        raise ValueError("nope")
"#;

#[test]
fn a_transfer_moves_value_and_pays_exactly_the_fee() {
    with_engine(|engine| {
        let g = genesis(2);
        let node = Node::new(&g);
        let (a, b) = (key(1), key(2));
        let before = node.account(&a.address()).balance;
        let t = tx(&a, 0, transfer(b.address(), 5 * CBY));
        let executed = node.block(engine, vec![t.clone()]);
        let r = receipt_of(&executed, &t.digest());
        assert_success(r);
        assert_eq!(r.cycles_used, 21_000);
        // One cell per byte of the transaction (whitepaper §17 "Calldata").
        let size = commonware_codec::EncodeSize::encode_size(&t) as u64;
        assert_eq!(r.cells_used, size);
        // fee = 21,000 × (10,000 + min(1, 20,000 − 10,000)) + size × 10,000 (no cell tip)
        assert_eq!(r.fee, 21_000 * 10_001 + size * 10_000);
        assert_eq!(node.account(&a.address()).balance, before - 5 * CBY - r.fee);
        assert_eq!(node.account(&a.address()).nonce, 1);
        assert_eq!(
            node.account(&b.address()).balance,
            1_000_000 * CBY + 5 * CBY
        );
        assert_eq!(executed.stats.burned, (21_000 + size) * 10_000);
        assert_eq!(executed.stats.tips, 21_000);
    })
}

#[test]
fn deploy_then_call_a_counter() {
    with_engine(|engine| {
        let g = genesis(1);
        let node = Node::new(&g);
        let a = key(1);
        let d = tx(&a, 0, deploy(COUNTER, 1, vec![int(5)]));
        let executed = node.block(engine, vec![d.clone()]);
        let r = receipt_of(&executed, &d.digest());
        assert_success(r);
        let counter = actor_at(a.address(), COUNTER, 1);
        assert_eq!(r.created, Some(counter));
        assert!(r.cycles_used >= 100_000, "deploy intrinsic is 100,000");
        let acc = node.account(&counter);
        assert!(acc.actor.is_some());

        let c1 = tx(&a, 1, call(counter, "increment", vec![int(3)], 0));
        let c2 = tx(&a, 2, call(counter, "increment", vec![], 0));
        let executed = node.block(engine, vec![c1.clone(), c2.clone()]);
        assert_eq!(returned(receipt_of(&executed, &c1.digest())), int(8));
        let r2 = receipt_of(&executed, &c2.digest());
        assert_eq!(returned(r2), int(9));
        assert_eq!(r2.events.len(), 1);
        assert_eq!(r2.events[0].emitter, counter);
        assert_eq!(r2.deliveries.len(), 1);
        assert_eq!(r2.deliveries[0].outcome, Outcome::Delivered);
    })
}

#[test]
fn a_deploy_whose_strings_normalization_would_change_is_refused() {
    with_engine(|engine| {
        let g = genesis(1);
        let node = Node::new(&g);
        let a = key(1);
        // A Kelvin sign typed into a string: the canonical (NFC) source would hold "K".
        let typed = "class Actor:\n    def unit(self):\n        return '\u{212a}'\n";
        let escaped = "class Actor:\n    def unit(self):\n        return '\\u212a'\n";
        let d1 = tx(&a, 0, deploy(typed, 1, vec![]));
        let d2 = tx(&a, 1, deploy(escaped, 1, vec![]));
        let executed = node.block(engine, vec![d1.clone(), d2.clone()]);
        let r1 = receipt_of(&executed, &d1.digest());
        let (k, msg) = failure(r1);
        assert_eq!(k, cowboy_pvm::ErrorKind::Validation.code());
        assert!(
            msg.contains("line 3:17") && msg.contains("source-normalization"),
            "{msg}"
        );
        assert_eq!(r1.created, None);
        let r2 = receipt_of(&executed, &d2.digest());
        assert_success(r2);
        let actor = actor_at(a.address(), escaped, 1);
        let c = tx(&a, 2, call(actor, "unit", vec![], 0));
        let executed = node.block(engine, vec![c.clone()]);
        assert_eq!(
            returned(receipt_of(&executed, &c.digest())),
            cowboy_pvm::Value::Str("\u{212a}".into())
        );
    })
}

#[test]
fn a_failing_handler_reverts_its_writes_and_still_pays() {
    with_engine(|engine| {
        let g = genesis(1);
        let node = Node::new(&g);
        let a = key(1);
        let counter = actor_at(a.address(), COUNTER, 1);
        node.block(engine, vec![tx(&a, 0, deploy(COUNTER, 1, vec![int(5)]))]);
        let before_storage = node.storage(&counter, "count");
        assert_eq!(before_storage, Some(int(5)));
        let before = node.account(&a.address()).balance;
        let f = tx(&a, 1, call(counter, "fail", vec![], 0));
        let executed = node.block(engine, vec![f.clone()]);
        let r = receipt_of(&executed, &f.digest());
        let (k, msg) = failure(r);
        assert_eq!(k, cowboy_pvm::ErrorKind::Exception.code());
        assert!(msg.contains("nope"), "{msg}");
        assert!(r.fee > 0);
        assert_eq!(node.storage(&counter, "count"), before_storage);
        assert_eq!(node.account(&a.address()).balance, before - r.fee);
        assert_eq!(node.account(&a.address()).nonce, 2);
    })
}

#[test]
fn unused_limits_are_refunded_at_the_max_fee() {
    with_engine(|engine| {
        let g = genesis(2);
        let node = Node::new(&g);
        let a = key(1);
        let before = node.account(&a.address()).balance;
        // A huge cycles limit costs nothing extra: only what is used is paid.
        let t = tx_with(&a, 0, transfer(key(2).address(), 1), 20_000_000, 1_000);
        let executed = node.block(engine, vec![t.clone()]);
        let r = receipt_of(&executed, &t.digest());
        let bid = fees::Bid {
            max_fee_per_cycle: 20_000,
            max_fee_per_cell: 20_000,
            max_priority_fee_per_cycle: 1,
            max_priority_fee_per_cell: 0,
        };
        let expected = fees::fee(
            21_000,
            commonware_codec::EncodeSize::encode_size(&t) as u64,
            &bid,
            &fees::Basefees {
                cycle: 10_000,
                cell: 10_000,
            },
        );
        assert_eq!(r.fee as u128, expected.total());
        assert_eq!(node.account(&a.address()).balance, before - 1 - r.fee);
    })
}

const PINGER: &str = r#"
import cowboy_sdk as sdk

class Actor:
    def __init__(self, peer):
        self.peer = peer

    def ping(self, n):
        sdk.send(self.peer, "increment", n)
        sdk.send(self.peer, "fail")
        return n
"#;

#[test]
fn nested_sends_run_breadth_first_and_fail_alone() {
    with_engine(|engine| {
        let g = genesis(1);
        let node = Node::new(&g);
        let a = key(1);
        let counter = actor_at(a.address(), COUNTER, 1);
        let pinger = actor_at(a.address(), PINGER, 2);
        node.block(
            engine,
            vec![
                tx(&a, 0, deploy(COUNTER, 1, vec![int(0)])),
                tx(
                    &a,
                    1,
                    deploy(PINGER, 2, vec![cowboy_pvm::Value::Str(counter.to_string())]),
                ),
            ],
        );
        let p = tx(&a, 2, call(pinger, "ping", vec![int(4)], 0));
        let executed = node.block(engine, vec![p.clone()]);
        let r = receipt_of(&executed, &p.digest());
        assert_success(r);
        assert_eq!(r.deliveries.len(), 3, "{:#?}", r.deliveries);
        assert_eq!(r.deliveries[0].to, pinger);
        assert_eq!(r.deliveries[1].outcome, Outcome::Delivered);
        assert!(matches!(
            r.deliveries[2].outcome,
            Outcome::Failed { kind: k, .. } if k == cowboy_pvm::ErrorKind::Exception.code()
        ));
        // The increment stuck, the failing handler's write did not.
        assert_eq!(node.storage(&counter, "count"), Some(int(4)));
    })
}

#[test]
fn messages_to_accounts_without_code_fail_and_return_the_value() {
    with_engine(|engine| {
        let g = genesis(2);
        let node = Node::new(&g);
        let a = key(1);
        let before = node.account(&a.address()).balance;
        let t = tx(&a, 0, call(key(2).address(), "hello", vec![], 7));
        let executed = node.block(engine, vec![t.clone()]);
        let r = receipt_of(&executed, &t.digest());
        assert_eq!(failure(r).0, kind::NO_ACTOR);
        assert_eq!(node.account(&a.address()).balance, before - r.fee);
    })
}

#[test]
fn blocks_mint_rewards_and_keep_supply_balanced() {
    with_engine(|engine| {
        let g = genesis(1);
        let node = Node::new(&g);
        let e = node.block(engine, vec![]);
        // 8% of 1,000,000 CBY + 100,000 CBY staked, spread over a year of blocks.
        let supply = 1_100_000 * CBY;
        assert_eq!(
            e.stats.minted,
            (supply as u128 * 800 / 10_000 / 31_536_000) as u64
        );
        assert_eq!(
            node.account(&validator_address()).balance,
            e.stats.minted,
            "one validator takes the whole reward"
        );
        let _ = Parameters::spec();
    })
}
