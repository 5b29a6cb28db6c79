//! The block pipeline validators run: every rule that makes a proposal invalid rejects it with
//! its own error, an honest proposal passes, and a post-state claim is checked against the
//! verifier's own execution.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{BlockError, TxError, pipeline};
use cowboy_types::{Block, Hash};

/// A chain one block past genesis, with two funded senders, and an honest proposal of three
/// transfers on top of it.
fn proposal_with_transfers() -> (Node, Block) {
    with_engine(|engine| {
        let node = Node::new(&genesis(3));
        node.block(engine, vec![]);
        let block = node.propose(vec![
            tx(&key(1), 0, transfer(key(3).address(), 5)),
            tx(&key(2), 0, transfer(key(3).address(), 7)),
            tx(&key(1), 1, transfer(key(2).address(), 1)),
        ]);
        (node, block)
    })
}

#[test]
fn an_honest_proposal_passes_and_claims_the_head_s_post_state() {
    let (node, block) = proposal_with_transfers();
    let verified = node.check(&block).expect("valid proposal");
    assert_eq!(verified.len(), 3);
    assert_eq!(block.header.state_height, node.height());
    let head = node.chain.outcome(node.height()).expect("read");
    pipeline::check_claim(&block.header, head.as_ref()).expect("the claim holds");
}

#[test]
fn each_rule_of_a_proposal_has_its_own_error() {
    let (node, honest) = proposal_with_transfers();
    let check = |mutate: &dyn Fn(&mut Block)| {
        let mut block = honest.clone();
        mutate(&mut block);
        node.check(&block)
            .expect_err("a broken proposal is rejected")
    };
    let err = check(&|b| b.header.height += 1);
    assert!(matches!(err, BlockError::Height { .. }), "{err}");
    let err = check(&|b| b.header.parent = Hash([9; 32]));
    assert!(matches!(err, BlockError::Parent { .. }), "{err}");
    let err = check(&|b| b.header.timestamp_ms = 0);
    assert!(matches!(err, BlockError::Timestamp { .. }), "{err}");
    let err = check(&|b| b.header.state_height = b.header.height);
    assert!(matches!(err, BlockError::StateHeight { .. }), "{err}");
    let err = check(&|b| b.header.tx_root = Hash([1; 32]));
    assert!(
        matches!(
            err,
            BlockError::Root {
                field: "tx_root",
                ..
            }
        ),
        "{err}"
    );
    let err = check(&|b| b.transactions.swap(0, 2));
    assert!(
        matches!(err, BlockError::Order(_) | BlockError::Root { .. }),
        "{err}"
    );
    let err = check(&|b| {
        let first = b.transactions[0].clone();
        b.transactions.push(first);
    });
    assert!(
        matches!(
            err,
            BlockError::Duplicate {
                first: 0,
                second: 3,
                ..
            }
        ),
        "{err}"
    );
    let err = check(&|b| b.transactions[1].signature = Default::default());
    assert!(
        matches!(
            err,
            BlockError::InvalidTransaction {
                index: 1,
                error: TxError::Signature(_),
                ..
            }
        ),
        "{err}"
    );
    let err = check(&|b| {
        let spare = b.transactions[0].clone();
        b.transactions = vec![spare; cowboy_types::block::MAX_BLOCK_TRANSACTIONS + 1];
    });
    assert!(
        matches!(err, BlockError::TooManyTransactions { .. }),
        "{err}"
    );
    // Limits within the room, however the transactions are signed.
    let err = check(&|b| b.transactions[0].cycles_limit = u64::MAX / 2);
    assert!(
        matches!(err, BlockError::LaneFull { what: "cycles", .. }),
        "{err}"
    );
}

#[test]
fn the_view_decides_round_leader_beacon_and_clock() {
    let (node, block) = proposal_with_transfers();
    let head = node.chain.head().expect("head");
    let params = node.chain.params().expect("params");
    let check = |view: pipeline::View<'_>| {
        let checked = node
            .chain
            .check_transactions(&block.transactions)
            .expect("checks");
        pipeline::check_proposal(&head, &block, &view, &params, checked)
    };
    let honest = || pipeline::View {
        round: block.header.round,
        leader: Some(validator_address()),
        now_ms: block.header.timestamp_ms,
        beacon_verified: &|_| true,
    };
    check(honest()).expect("valid in its own view");
    let mut other_round = block.header.round;
    other_round.view += 1;
    let err = check(pipeline::View {
        round: other_round,
        ..honest()
    })
    .expect_err("another round");
    assert!(matches!(err, BlockError::Round { .. }), "{err}");
    let err = check(pipeline::View {
        leader: Some(key(1).address()),
        ..honest()
    })
    .expect_err("another leader");
    assert!(matches!(err, BlockError::NotLeader(_)), "{err}");
    let err = check(pipeline::View {
        leader: None,
        ..honest()
    })
    .expect_err("an unknown leader");
    assert!(matches!(err, BlockError::NotLeader(_)), "{err}");
    let err = check(pipeline::View {
        beacon_verified: &|_| false,
        ..honest()
    })
    .expect_err("an unverified beacon");
    assert!(matches!(err, BlockError::Beacon), "{err}");
    let mut ahead = block.clone();
    ahead.header.timestamp_ms = 1_000_000;
    let checked = node
        .chain
        .check_transactions(&ahead.transactions)
        .expect("checks");
    let view = pipeline::View {
        now_ms: 1_000_000 - pipeline::MAX_CLOCK_DRIFT_MS - 1,
        ..honest()
    };
    let err = pipeline::check_proposal(&head, &ahead, &view, &params, checked)
        .expect_err("from the future");
    assert!(matches!(err, BlockError::Future { .. }), "{err}");
}

#[test]
fn a_claim_is_checked_against_the_verifier_s_own_execution() {
    let (node, block) = proposal_with_transfers();
    let executed = node.chain.outcome(node.height()).expect("read");
    let mut lying = block.header.clone();
    lying.state_root = Hash([0xee; 32]);
    let err = pipeline::check_claim(&lying, executed.as_ref()).expect_err("a false claim");
    assert!(
        matches!(
            err,
            BlockError::Claim {
                computed: Some(_),
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("but this node computed"), "{err}");
    let mut ahead = block.header.clone();
    ahead.state_height += 1;
    let err = pipeline::check_claim(&ahead, None).expect_err("a height not executed");
    assert!(
        matches!(err, BlockError::Claim { computed: None, .. }),
        "{err}"
    );
}

#[test]
fn a_claim_height_never_goes_back_and_never_passes_the_parent() {
    let (node, block) = proposal_with_transfers();
    let parent = node.chain.head().expect("head");
    assert_eq!(
        pipeline::claim_height(&parent, parent.height),
        Some(parent.height)
    );
    assert_eq!(
        pipeline::claim_height(&parent, parent.height + 5),
        Some(parent.height)
    );
    assert_eq!(
        pipeline::claim_height(&block.header, block.header.state_height - 1),
        None,
        "below the parent's claim: wait"
    );
}

#[test]
fn a_proposer_skips_the_nonces_of_blocks_not_executed_yet() {
    let (node, block) = proposal_with_transfers();
    // `block` is not executed: a proposer building on it must not reuse its nonces.
    let used = pipeline::nonces_used([&block]);
    assert_eq!(used.get(&key(1).address()), Some(&1));
    assert_eq!(used.get(&key(2).address()), Some(&0));
    let next = node
        .chain
        .select(
            node.verify_all(vec![
                tx(&key(1), 1, transfer(key(3).address(), 1)),
                tx(&key(1), 2, transfer(key(3).address(), 1)),
                tx(&key(2), 1, transfer(key(3).address(), 1)),
            ]),
            &used,
        )
        .expect("selection");
    let mut picked: Vec<(cowboy_types::Address, u64)> =
        next.iter().map(|t| (t.sender, t.tx.nonce)).collect();
    picked.sort();
    let mut want = vec![(key(1).address(), 2), (key(2).address(), 1)];
    want.sort();
    assert_eq!(picked, want);
}

#[test]
fn the_terms_admission_reads_follow_every_committed_block() {
    with_engine(|engine| {
        // A one-cycle target: every transfer pushes the basefee up, every empty block lets it
        // fall back, so consecutive states set different prices.
        let mut params = cowboy_execution::Parameters::spec();
        params.basefee.cycles_target = 1;
        let g = genesis_with(params, &[(key(1).address(), 1_000_000 * CBY)]);
        let node = Node::new(&g);
        let fresh = |node: &Node| {
            let snap = node.chain.store().snapshot().unwrap();
            let world = cowboy_execution::world::World::new(cowboy_state::Overlay::new(&snap));
            (world.params().unwrap(), world.lane_prices().unwrap())
        };
        let mut prices_seen = Vec::new();
        for i in 0..6u64 {
            let snap = node.chain.store().snapshot().unwrap();
            // Asked twice: the second answer is the cached one.
            for _ in 0..2 {
                let terms = node.chain.terms(&snap).unwrap();
                let (params, prices) = fresh(&node);
                assert_eq!(*terms.params, params, "block {}", node.height());
                assert_eq!(terms.prices, prices, "block {}", node.height());
                assert_eq!(node.chain.params().unwrap(), params);
            }
            prices_seen.push(node.chain.terms(&snap).unwrap().prices);
            drop(snap);
            let txs = if i < 3 {
                vec![tx(&key(1), i, transfer(key(2).address(), 1))]
            } else {
                vec![]
            };
            node.block(engine, txs);
        }
        // An older state asked about after a newer one still gets its own terms.
        let old = node.chain.store().snapshot().unwrap();
        let old_prices = node.chain.terms(&old).unwrap().prices;
        node.block(engine, vec![tx(&key(1), 3, transfer(key(2).address(), 1))]);
        let new = node.chain.store().snapshot().unwrap();
        let new_prices = node.chain.terms(&new).unwrap().prices;
        assert_ne!(new_prices, old_prices);
        let read_old = cowboy_execution::world::World::new(cowboy_state::Overlay::new(&old));
        assert_eq!(node.chain.terms(&old).unwrap().prices, old_prices);
        assert_eq!(read_old.lane_prices().unwrap(), old_prices);
        prices_seen.dedup();
        assert!(
            prices_seen.len() >= 4,
            "the basefees moved from block to block: {prices_seen:?}"
        );
    })
}
