//! Executing finalized blocks (consensus mode): a block accepted by consensus is never
//! rejected for its transactions — one that is invalid when it executes gets a `Skipped`
//! receipt and changes nothing — and every replica computes the same outcome, which a later
//! header can claim.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_types::{Block, Header, Status, receipt::failure};

/// A consensus-style block on top of `node`'s head carrying `txs` as given.
fn finalized_block(node: &Node, txs: Vec<cowboy_types::Transaction>) -> Block {
    let head = node.chain.head().expect("head");
    let p = node.proposal();
    let hashes: Vec<_> = txs.iter().map(|t| t.digest()).collect();
    let outcome = node
        .chain
        .outcome(head.height)
        .expect("read")
        .expect("outcome");
    Block {
        header: Header {
            parent: head.digest(),
            height: head.height + 1,
            round: p.round,
            timestamp_ms: p.timestamp_ms,
            proposer: p.proposer,
            beacon: p.beacon,
            tx_root: cowboy_execution::roots::tx_root_of(&hashes),
            state_height: head.height,
            state_root: outcome.state_root,
            receipts_root: outcome.receipts_root,
            cycle_basefee: outcome.cycle_basefee,
            cell_basefee: outcome.cell_basefee,
        },
        transactions: txs,
    }
}

#[test]
fn invalid_transactions_in_a_finalized_block_are_skipped_and_replicas_agree() {
    let genesis = genesis(3);
    let (a, b) = (Node::new(&genesis), Node::new(&genesis));
    let alice = key(1);
    let bob = key(2).address();
    let good = tx(&alice, 0, transfer(bob, 5 * CBY));
    let replayed_nonce = tx(&alice, 0, transfer(bob, 7 * CBY));
    let mut wrong_chain = tx(&alice, 1, transfer(bob, 1));
    wrong_chain.chain_id = 999;
    cowboy_crypto::sign_transaction(&mut wrong_chain, &alice).expect("sign");
    let block = finalized_block(
        &a,
        vec![good.clone(), replayed_nonce.clone(), wrong_chain.clone()],
    );
    let before = a.account(&bob).balance;

    let block_a = block.clone();
    let (ea, eb) = with_engine(move |engine| {
        let ea = a.chain.execute(engine, &block_a, None).expect("executes");
        a.chain.commit(&ea).expect("commit");
        let eb = b.chain.execute(engine, &block_a, None).expect("executes");
        b.chain.commit(&eb).expect("commit");
        let after = a.account(&bob).balance;
        assert_eq!(
            after,
            before + 5 * CBY,
            "only the valid transfer moved funds"
        );
        assert_eq!(a.account(&key(1).address()).nonce, 1);
        // The stored outcome is the one a later header may claim.
        let stored = a
            .chain
            .outcome(ea.block.header.height)
            .expect("read")
            .expect("kept");
        assert_eq!(stored, ea.outcome);
        (ea, eb)
    });
    assert_eq!(
        ea.block, block,
        "a finalized block is stored as consensus ordered it"
    );
    assert_eq!(ea.outcome, eb.outcome, "replicas compute the same outcome");
    assert_eq!(ea.receipts, eb.receipts);
    assert_eq!(ea.stats.skipped, 2);
    assert!(matches!(ea.receipts[0].0.status, Status::Success));
    for (r, i) in &ea.receipts[1..3] {
        match &r.status {
            Status::Failed { kind, message } => {
                assert_eq!(*kind, failure::SKIPPED, "receipt {i:?}: {message}");
                assert_eq!(r.fee, 0, "a skipped transaction pays nothing");
            }
            other => panic!("expected a skipped receipt, got {other:?}"),
        }
    }
    match &ea.receipts[1].0.status {
        Status::Failed { message, .. } => assert!(message.contains("nonce"), "{message}"),
        _ => unreachable!(),
    }
    match &ea.receipts[2].0.status {
        Status::Failed { message, .. } => assert!(message.contains("chain 999"), "{message}"),
        _ => unreachable!(),
    }
}

#[test]
fn a_block_that_does_not_extend_the_head_is_refused() {
    let genesis = genesis(1);
    let node = Node::new(&genesis);
    let mut block = finalized_block(&node, vec![]);
    block.header.height += 1;
    with_engine(move |engine| {
        let err = node
            .chain
            .execute(engine, &block, None)
            .expect_err("refused");
        assert!(err.to_string().contains("does not follow"), "{err}");
    });
}
