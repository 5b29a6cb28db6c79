//! The §5.1b timer auction, active by governance parameter (off at genesis by default):
//! firing order by tip × fairness weight, tips to the proposer, the timer lane's own
//! EIP-1559 basefee, and the fairness weight favouring actors that fired less.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{fees, params::Parameters, world::World};
use cowboy_pvm::Value;
use cowboy_state::Overlay;
use cowboy_types::{Address, Instruction, SystemInstruction, TimerBid, TimerSpec};

const TICKER: &str = r#"
import cowboy_sdk as sdk

class Actor:
    def __init__(self):
        self.storage["ticks"] = []

    def tick(self, label):
        ticks = self.storage["ticks"]
        ticks.append([label, sdk.block_height()])
        self.storage["ticks"] = ticks
        return label

    def burn(self, label):
        x = 0
        for i in range(30000):
            x += i
        return x
"#;

fn auction_params(lane: u64) -> Parameters {
    let mut p = Parameters::spec();
    p.timer.auction_enabled = true;
    p.lanes.timer_cycles = lane;
    p
}

fn fired_at(node: &Node, actor: &Address) -> Vec<i64> {
    match node.storage(actor, "ticks") {
        Some(Value::List(items)) => items
            .into_iter()
            .map(|i| match i {
                Value::List(p) => match &p[1] {
                    Value::Int(h) => i64::try_from(h).unwrap(),
                    other => panic!("{other:?}"),
                },
                other => panic!("{other:?}"),
            })
            .collect(),
        other => panic!("no ticks: {other:?}"),
    }
}

fn timer(
    actor: Address,
    height: u64,
    cycles: u64,
    bid: Option<(u64, u64)>,
    every: u64,
) -> Instruction {
    let timer = TimerSpec {
        actor,
        handler: "tick".into(),
        args: encode_args(vec![Value::Str("t".into())]),
        cycles_per_fire: cycles,
        cells_per_fire: 5_000,
        expires_at: None,
        bid: bid.map(|(f, p)| TimerBid {
            max_fee_per_cycle: f,
            max_priority_fee_per_cycle: p,
        }),
    };
    if every == 0 {
        Instruction::System(SystemInstruction::SetTimer { timer, height })
    } else {
        Instruction::System(SystemInstruction::SetInterval {
            timer,
            start_height: height,
            every_blocks: every,
        })
    }
}

/// Deploys `n` tickers from key 1; returns their addresses.
fn tickers(engine: &mut cowboy_pvm::Engine, node: &Node, n: u8) -> Vec<Address> {
    let a = key(1);
    let txs = (0..n)
        .map(|i| tx(&a, i as u64, deploy(TICKER, i, vec![])))
        .collect();
    node.block(engine, txs);
    (0..n).map(|i| actor_at(a.address(), TICKER, i)).collect()
}

fn world_value(node: &Node, f: impl FnOnce(&World<'_>) -> u64) -> u64 {
    let snap = node.chain.store().snapshot().unwrap();
    let world = World::new(Overlay::new(&snap));
    f(&world)
}

#[test]
fn higher_tips_fire_first_and_pay_the_proposer() {
    with_engine(|engine| {
        // Room for one 100,000-cycle firing per block.
        let g = genesis_with(
            auction_params(150_000),
            &[(key(1).address(), 1_000_000 * CBY)],
        );
        let node = Node::new(&g);
        let t = tickers(engine, &node, 3);
        let a = key(1);
        let at = node.height() + 3;
        let n = node.account(&a.address()).nonce;
        node.block(
            engine,
            vec![
                tx(&a, n, timer(t[0], at, 100_000, Some((50_000, 10)), 0)),
                tx(&a, n + 1, timer(t[1], at, 100_000, Some((50_000, 300)), 0)),
                tx(&a, n + 2, timer(t[2], at, 100_000, Some((50_000, 90)), 0)),
            ],
        );
        let mut fire_receipts = Vec::new();
        for _ in 0..5 {
            let e = node.block(engine, vec![]);
            fire_receipts.extend(e.receipts.into_iter().filter(|(_, b)| b.is_none()));
        }
        let at = at as i64;
        assert_eq!(fired_at(&node, &t[1]), vec![at], "highest tip first");
        assert_eq!(fired_at(&node, &t[2]), vec![at + 1]);
        assert_eq!(fired_at(&node, &t[0]), vec![at + 2]);
        // The first firing paid the lane basefee plus its 300-per-cycle tip.
        let (r, _) = &fire_receipts[0];
        assert_success(r);
        let lane_bf = 10_000; // the timer lane starts at the cycle basefee, the floor
        let expected = fees::fee(
            r.cycles_used,
            r.cells_used,
            &fees::Bid {
                max_fee_per_cycle: 50_000,
                max_fee_per_cell: 10_000,
                max_priority_fee_per_cycle: 300,
                max_priority_fee_per_cell: 0,
            },
            &fees::Basefees {
                cycle: lane_bf,
                cell: 10_000,
            },
        );
        assert_eq!(r.fee as u128, expected.total());
        assert!(expected.tip > 0);
    })
}

#[test]
fn the_timer_lane_basefee_follows_its_own_utilisation() {
    with_engine(|engine| {
        // Lane 300,000 cycles, target 50% = 150,000. An interval whose handler burns ~200,000
        // cycles each block keeps the lane above target: its basefee rises 12.5% at most per
        // block; once the interval stops, it falls back to the floor.
        let g = genesis_with(
            auction_params(300_000),
            &[(key(1).address(), 1_000_000 * CBY)],
        );
        let node = Node::new(&g);
        let t = tickers(engine, &node, 1);
        let a = key(1);
        let n = node.account(&a.address()).nonce;
        let start = node.height() + 2;
        let mut burn = timer(t[0], start, 250_000, Some((1_000_000, 1)), 1);
        if let Instruction::System(SystemInstruction::SetInterval { timer, .. }) = &mut burn {
            timer.handler = "burn".into();
            timer.expires_at = Some(start + 5);
        }
        node.block(engine, vec![tx(&a, n, burn)]);
        let floor = 10_000;
        let mut seen = vec![world_value(&node, |w| w.timer_basefee(floor).unwrap())];
        for _ in 0..12 {
            let e = node.block(engine, vec![]);
            for (r, b) in &e.receipts {
                if b.is_none() {
                    assert_success(r);
                    assert!(
                        r.cycles_used > 150_000,
                        "burns above target: {}",
                        r.cycles_used
                    );
                }
            }
            seen.push(world_value(&node, |w| w.timer_basefee(floor).unwrap()));
        }
        // Rising while the interval fires (6 firings), each step at most 12.5%…
        assert!(seen[6] > seen[0], "{seen:?}");
        for w in seen.windows(2) {
            assert!(w[1] <= w[0] + w[0] / 8 + 1, "{seen:?}");
        }
        // …then falling back to the floor.
        assert_eq!(*seen.last().unwrap(), floor, "{seen:?}");
        // The formula: a full lane raises it by 12.5%, an idle one lowers it by 12.5%.
        let cfg = Parameters::spec().timer;
        assert_eq!(
            fees::next_timer_basefee(80_000, 400_000, 400_000, &cfg, floor),
            90_000
        );
        assert_eq!(
            fees::next_timer_basefee(80_000, 0, 400_000, &cfg, floor),
            70_000
        );
        assert_eq!(
            fees::next_timer_basefee(80_000, 200_000, 400_000, &cfg, floor),
            80_000
        );
        assert_eq!(
            fees::next_timer_basefee(10_500, 0, 400_000, &cfg, floor),
            floor
        );
    })
}

#[test]
fn actors_that_fired_less_win_ties() {
    with_engine(|engine| {
        let g = genesis_with(
            auction_params(350_000),
            &[(key(1).address(), 1_000_000 * CBY)],
        );
        let node = Node::new(&g);
        let t = tickers(engine, &node, 5);
        let (busy, fresh, others) = (t[0], t[1], &t[2..]);
        let a = key(1);
        let start = node.height() + 2;
        let mut n = node.account(&a.address()).nonce;
        // The busy actor fires every block for a while; three others fire once.
        let mut txs = vec![tx(&a, n, timer(busy, start, 50_000, Some((50_000, 5)), 1))];
        n += 1;
        for o in others {
            txs.push(tx(&a, n, timer(*o, start, 50_000, Some((50_000, 5)), 0)));
            n += 1;
        }
        node.block(engine, txs);
        for _ in 0..8 {
            node.block(engine, vec![]);
        }
        assert!(fired_at(&node, &busy).len() >= 6);
        // Median firings: 1; the busy actor is far above twice that: W = 1. The fresh actor
        // has W = 2. Both bid the same tip for a slot only one 200,000-cycle firing fits.
        assert_eq!(fees::fairness_weight_bps(8, 1), 10_000);
        assert_eq!(fees::fairness_weight_bps(0, 1), 20_000);
        assert_eq!(fees::fairness_weight_bps(3, 2), 15_000);
        let n = node.account(&a.address()).nonce;
        let at = node.height() + 2;
        // The busy interval keeps firing too (tip 5 × W 1), and a 200,000-cycle firing by each
        // contender (tip 7): only one of those fits beside the interval. The fresh actor's
        // 7 × 2 outranks the busy one's 7 × 1.
        node.block(
            engine,
            vec![
                tx(&a, n, timer(busy, at, 200_000, Some((50_000, 7)), 0)),
                tx(&a, n + 1, timer(fresh, at, 200_000, Some((50_000, 7)), 0)),
            ],
        );
        let e = node.block(engine, vec![]);
        assert_eq!(node.height(), at);
        let fired: Vec<_> = e
            .receipts
            .iter()
            .filter(|(_, b)| b.is_none())
            .flat_map(|(r, _)| r.deliveries.iter().map(|d| d.to))
            .collect();
        assert!(
            fired.contains(&fresh),
            "the fresh actor wins the slot: {fired:?}"
        );
        assert!(
            !fired.contains(&busy)
                || fired.iter().position(|x| *x == fresh) < fired.iter().position(|x| *x == busy),
            "{fired:?}"
        );
    })
}
