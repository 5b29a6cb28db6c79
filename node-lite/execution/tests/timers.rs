//! Timers (whitepaper §5.1a): firing at their height with the per-fire pre-charge and refund,
//! intervals, the same-block prohibition, FIFO rolling when the timer lane is full, TTL expiry,
//! insufficient-funds self-destruct, cancellation rights; and per-actor block budgets deferring
//! messages to later blocks with their budget in escrow.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{fees, params::Parameters};
use cowboy_pvm::Value;
use cowboy_types::{Instruction, Outcome, SystemInstruction, TimerSpec, receipt::failure as kind};

fn ticks(node: &Node, actor: &cowboy_types::Address) -> Vec<(String, i64)> {
    let Some(Value::List(items)) = node.storage(actor, "ticks") else {
        panic!("no ticks list")
    };
    items
        .into_iter()
        .map(|i| match i {
            Value::List(p) => match (&p[0], &p[1]) {
                (Value::Str(s), Value::Int(h)) => (s.clone(), i64::try_from(h).unwrap()),
                other => panic!("bad tick {other:?}"),
            },
            other => panic!("bad tick {other:?}"),
        })
        .collect()
}

fn setup(
    engine: &mut cowboy_pvm::Engine,
    params: Parameters,
    fund_actor: u64,
) -> (Node, cowboy_types::Address) {
    let a = key(1);
    let g = genesis_with(params, &[(a.address(), 1_000_000 * CBY)]);
    let node = Node::new(&g);
    let ticker = actor_at(a.address(), TICKER, 1);
    let mut txs = vec![tx(&a, 0, deploy(TICKER, 1, vec![]))];
    if fund_actor > 0 {
        txs.push(tx(&a, 1, transfer(ticker, fund_actor)));
    }
    node.block(engine, txs);
    (node, ticker)
}

fn next_nonce(node: &Node) -> u64 {
    node.account(&key(1).address()).nonce
}

#[test]
fn a_timer_fires_at_its_height_and_refunds_the_unused_budget() {
    with_engine(|engine| {
        let (node, ticker) = setup(engine, Parameters::spec(), 10 * CBY);
        let a = key(1);
        let h = node.height();
        let set = tx(
            &a,
            next_nonce(&node),
            call(
                ticker,
                "at",
                vec![int(h as i64 + 3), Value::Str("t".into())],
                0,
            ),
        );
        node.block(engine, vec![set]);
        node.block(engine, vec![]);
        let before = node.account(&ticker).balance;
        let fired = node.block(engine, vec![]);
        assert_eq!(node.height(), h + 3);
        assert_eq!(fired.stats.timers_fired, 1);
        let (r, body) = fired.receipts.last().expect("fire receipt");
        assert!(body.is_none(), "a firing is not a block transaction");
        assert_success(r);
        assert_eq!(returned(r), Value::Str("t".into()));
        // Pre-charged 100,000 × 10,000 + 5,000 × 10,000; charged only what was used, at the
        // basefee, with the firing's 5,000-cycle / 64-cell intrinsic included.
        assert!(r.cycles_used >= 5_000 && r.cells_used >= 64);
        let prices = fees::Basefees {
            cycle: 10_000,
            cell: 10_000,
        };
        let bid = fees::Bid {
            max_fee_per_cycle: 10_000,
            max_fee_per_cell: 10_000,
            max_priority_fee_per_cycle: 0,
            max_priority_fee_per_cell: 0,
        };
        let fee = fees::fee(r.cycles_used, r.cells_used, &bid, &prices).total() as u64;
        assert_eq!(r.fee, fee);
        assert_eq!(node.account(&ticker).balance, before - fee);
        assert_eq!(
            ticks(&node, &ticker),
            vec![("t".to_string(), (h + 3) as i64)]
        );
        // Fired once, then gone.
        node.block(engine, vec![]);
        assert_eq!(ticks(&node, &ticker).len(), 1);
    })
}

#[test]
fn a_timer_cannot_fire_in_the_block_that_creates_it() {
    with_engine(|engine| {
        let (node, ticker) = setup(engine, Parameters::spec(), 10 * CBY);
        let a = key(1);
        let h = node.height() + 1; // the block the call runs in
        let t = tx(
            &a,
            next_nonce(&node),
            call(
                ticker,
                "at",
                vec![int(h as i64), Value::Str("now".into())],
                0,
            ),
        );
        let executed = node.block(engine, vec![t.clone()]);
        let (_, msg) = failure(receipt_of(&executed, &t.digest()));
        assert!(
            msg.contains("cannot fire in the block that creates it"),
            "{msg}"
        );
    })
}

#[test]
fn a_timer_for_a_handler_the_actor_lacks_is_refused_when_set() {
    with_engine(|engine| {
        let (node, ticker) = setup(engine, Parameters::spec(), 10 * CBY);
        let a = key(1);
        let t = tx(
            &a,
            next_nonce(&node),
            Instruction::System(SystemInstruction::SetInterval {
                timer: TimerSpec {
                    actor: ticker,
                    handler: "tock".into(),
                    args: encode_args(vec![]),
                    cycles_per_fire: 100_000,
                    cells_per_fire: 5_000,
                    expires_at: None,
                    bid: None,
                },
                start_height: node.height() + 2,
                every_blocks: 3,
            }),
        );
        let executed = node.block(engine, vec![t.clone()]);
        let (code, msg) = failure(receipt_of(&executed, &t.digest()));
        assert_eq!(
            code,
            cowboy_types::FailureKind::HandlerNotFound.code(),
            "{msg}"
        );
        assert!(
            msg.starts_with("`tock` is not a handler of Actor at "),
            "{msg}"
        );
        for _ in 0..4 {
            assert_eq!(node.block(engine, vec![]).stats.timers_fired, 0);
        }
    })
}

#[test]
fn an_interval_repeats_until_its_ttl() {
    with_engine(|engine| {
        let (node, ticker) = setup(engine, Parameters::spec(), 10 * CBY);
        let a = key(1);
        let h = node.height() + 1;
        let t = tx(
            &a,
            next_nonce(&node),
            call(
                ticker,
                "every",
                vec![int(2), Value::Str("i".into()), int(h as i64 + 7)],
                0,
            ),
        );
        node.block(engine, vec![t]);
        for _ in 0..10 {
            node.block(engine, vec![]);
        }
        let heights: Vec<i64> = ticks(&node, &ticker).into_iter().map(|(_, h)| h).collect();
        let h = h as i64;
        assert_eq!(heights, vec![h + 2, h + 4, h + 6]);
    })
}

#[test]
fn due_timers_roll_to_the_next_block_in_order_and_expire_past_their_ttl() {
    with_engine(|engine| {
        let mut p = Parameters::spec();
        // Room for one 100,000-cycle firing per block.
        p.lanes.timer_cycles = 150_000;
        let (node, ticker) = setup(engine, p, 10 * CBY);
        let a = key(1);
        let target = node.height() + 3;
        let spec = |label: &str, expires: Option<u64>| {
            Instruction::System(SystemInstruction::SetTimer {
                timer: TimerSpec {
                    actor: ticker,
                    handler: "tick".into(),
                    args: encode_args(vec![Value::Str(label.into())]),
                    cycles_per_fire: 100_000,
                    cells_per_fire: 5_000,
                    expires_at: expires,
                    bid: None,
                },
                height: target,
            })
        };
        let n = next_nonce(&node);
        node.block(
            engine,
            vec![
                tx(&a, n, spec("first", None)),
                tx(&a, n + 1, spec("second", None)),
                tx(&a, n + 2, spec("short-lived", Some(target))),
                tx(&a, n + 3, spec("third", None)),
            ],
        );
        let mut expired = 0;
        for _ in 0..6 {
            expired += node.block(engine, vec![]).stats.timers_expired;
        }
        let got: Vec<(String, i64)> = ticks(&node, &ticker);
        let t = target as i64;
        // FIFO: one per block; the TTL-limited one missed its only block and expired.
        assert_eq!(
            got,
            vec![
                ("first".into(), t),
                ("second".into(), t + 1),
                ("third".into(), t + 2),
            ]
        );
        assert_eq!(expired, 1);
        let snap = node.chain.store().snapshot().unwrap();
        assert_eq!(cowboy_execution::audit::timers(&snap).unwrap(), 0);
    })
}

#[test]
fn an_unfunded_timer_self_destructs_without_firing() {
    with_engine(|engine| {
        let (node, ticker) = setup(engine, Parameters::spec(), 0);
        let a = key(1);
        let h = node.height() + 2;
        node.block(
            engine,
            vec![tx(
                &a,
                next_nonce(&node),
                call(ticker, "at", vec![int(h as i64), Value::Str("x".into())], 0),
            )],
        );
        let e = node.block(engine, vec![]);
        assert_eq!(e.stats.timers_fired, 0);
        assert_eq!(e.stats.timers_expired, 1);
        assert!(ticks(&node, &ticker).is_empty());
        let snap = node.chain.store().snapshot().unwrap();
        assert_eq!(cowboy_execution::audit::timers(&snap).unwrap(), 0);
    })
}

#[test]
fn only_the_creator_cancels_a_timer() {
    with_engine(|engine| {
        let a = key(1);
        let b = key(2);
        let g = genesis_with(
            Parameters::spec(),
            &[
                (a.address(), 1_000_000 * CBY),
                (b.address(), 1_000_000 * CBY),
            ],
        );
        let node = Node::new(&g);
        let ticker = actor_at(a.address(), TICKER, 1);
        node.block(engine, vec![tx(&a, 0, deploy(TICKER, 1, vec![]))]);
        let set = tx(
            &a,
            1,
            Instruction::System(SystemInstruction::SetTimer {
                timer: TimerSpec {
                    actor: ticker,
                    handler: "tick".into(),
                    args: encode_args(vec![Value::Str("a".into())]),
                    cycles_per_fire: 100_000,
                    cells_per_fire: 5_000,
                    expires_at: None,
                    bid: None,
                },
                height: node.height() + 10,
            }),
        );
        let e = node.block(engine, vec![set.clone()]);
        let r = receipt_of(&e, &set.digest());
        assert_success(r);
        let Value::Bytes(id) = returned(r) else {
            panic!("timer id")
        };
        let id = cowboy_types::Hash::from_slice(&id).unwrap();
        let cancel = |k: &cowboy_crypto::PrivateKey, nonce| {
            tx(
                k,
                nonce,
                Instruction::System(SystemInstruction::CancelTimer { timer_id: id }),
            )
        };
        let not_mine = cancel(&b, 0);
        let e = node.block(engine, vec![not_mine.clone()]);
        let r = receipt_of(&e, &not_mine.digest());
        assert_eq!(failure(r).0, kind::TIMER_NOT_FOUND);
        assert_only_fees_changed(&e, &b.address());
        let mine = cancel(&a, 2);
        let e = node.block(engine, vec![mine.clone()]);
        assert_success(receipt_of(&e, &mine.digest()));
        let snap = node.chain.store().snapshot().unwrap();
        assert_eq!(cowboy_execution::audit::timers(&snap).unwrap(), 0);
    })
}

#[test]
fn messages_over_the_per_actor_budget_wait_for_the_next_block() {
    with_engine(|engine| {
        let mut p = Parameters::spec();
        p.execution.per_actor_per_block_cycles = 100_000;
        let a = key(1);
        let g = genesis_with(p, &[(a.address(), 1_000_000 * CBY)]);
        let node = Node::new(&g);
        let busy = actor_at(a.address(), BUSY, 1);
        node.block(engine, vec![tx(&a, 0, deploy(BUSY, 1, vec![]))]);
        let before = node.account(&a.address()).balance;
        // Six self-sends of ~40,000 cycles each: about two fit the actor's budget per block.
        let t = tx_with(
            &a,
            1,
            call(busy, "fan", vec![int(6), int(10_000)], 0),
            3_000_000,
            100_000,
        );
        let e = node.block(engine, vec![t.clone()]);
        let r = receipt_of(&e, &t.digest());
        assert_success(r);
        let deferred = r
            .deliveries
            .iter()
            .filter(|d| d.outcome == Outcome::Deferred)
            .count();
        assert!(deferred >= 3, "{:#?}", r.deliveries);
        let done_now = match node.storage(&busy, "done") {
            Some(Value::Int(i)) => i64::try_from(&i).unwrap(),
            other => panic!("{other:?}"),
        };
        assert_eq!(done_now as usize, 6 - deferred);
        // The unused budget is held, not refunded, while messages wait.
        let snap = node.chain.store().snapshot().unwrap();
        let audit = cowboy_execution::audit::supply(&snap).unwrap();
        assert!(audit.escrowed > 0 && audit.balanced());
        drop(snap);
        let mut delivered = 0;
        for _ in 0..5 {
            delivered += node.block(engine, vec![]).stats.deferred_delivered;
        }
        assert_eq!(delivered, deferred);
        assert_eq!(node.storage(&busy, "done"), Some(int(6)));
        // Everything delivered: the escrow is gone and the payer got the rest back.
        let snap = node.chain.store().snapshot().unwrap();
        let audit = cowboy_execution::audit::supply(&snap).unwrap();
        assert_eq!((audit.escrowed, audit.in_mailboxes), (0, 0));
        assert!(audit.balanced());
        let spent = before - node.account(&a.address()).balance;
        assert!(
            spent < 3_000_000 * 20_000,
            "the payer paid its whole limit: {spent}"
        );
    })
}
