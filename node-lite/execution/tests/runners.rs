//! The Runner Registry (0x…01) through signed transactions on the block pipeline: registering
//! with a profile and stake, heartbeats, bonding and unbonding, exit and claim, every refusal
//! with its own failure kind and no state change but the fee, genesis runners, and the supply
//! audit holding throughout.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{Genesis, audit, params::Parameters, world::World};
use cowboy_types::{
    Address, Hash, Instruction, SystemInstruction,
    json::Amount,
    receipt::failure as kind,
    runner::{
        Capabilities, JobType, JobTypes, RateCard, Runner, RunnerKey, RunnerProfile, actors,
        storage,
    },
};

/// The ed25519 base point: a valid public key.
const ED25519_KEY: [u8; 32] = [
    0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
    0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
];

const FLOOR: u64 = 10_000 * CBY;

fn profile() -> RunnerProfile {
    RunnerProfile {
        key: RunnerKey::Ed25519(Hash(ED25519_KEY)),
        capabilities: Capabilities {
            job_types: JobTypes::of(&[JobType::Http]),
            models: Vec::new(),
            domains: vec!["api.example.com".into()],
            tee: false,
        },
        rate_card: RateCard {
            per_job: CBY / 100,
            per_1k_tokens: 0,
            per_second: 0,
        },
        max_concurrent_jobs: 2,
        max_job_value: 0,
        endpoint: "https://runner.example.com/push".into(),
    }
}

fn params() -> Parameters {
    let mut p = Parameters::spec();
    p.runner.unbonding_blocks = 3;
    p
}

fn sys(op: SystemInstruction) -> Instruction {
    Instruction::System(op)
}

fn register(stake: u64) -> Instruction {
    sys(SystemInstruction::RunnerRegister {
        profile: Box::new(profile()),
        stake,
    })
}

fn runner(node: &Node, a: &Address) -> Option<Runner> {
    let snap = node.chain.store().snapshot().expect("snapshot");
    World::new(cowboy_state::Overlay::new(&snap))
        .runner(a)
        .expect("decodes")
}

fn audit_holds(node: &Node) {
    let snap = node.chain.store().snapshot().expect("snapshot");
    let a = audit::supply(&snap).expect("audit");
    assert!(a.balanced(), "{a:?}");
}

/// Sends one transaction in its own block and returns its receipt.
fn send(
    node: &Node,
    engine: &mut cowboy_pvm::Engine,
    from: u8,
    nonce: u64,
    i: Instruction,
) -> cowboy_types::Receipt {
    let t = tx(&key(from), nonce, i);
    let hash = t.digest();
    let executed = node.block(engine, vec![t]);
    receipt_of(&executed, &hash).clone()
}

#[test]
fn a_runner_registers_heartbeats_unbonds_exits_and_claims() {
    with_engine(|engine| {
        let me = key(1).address();
        let node = Node::new(&genesis_with(params(), &[(me, 100_000 * CBY)]));
        let before = node.account(&me).balance;

        let r = send(&node, engine, 1, 0, register(FLOOR + 5 * CBY));
        assert_success(&r);
        let record = runner(&node, &me).expect("registered");
        assert_eq!(record.stake, FLOOR + 5 * CBY);
        assert_eq!(
            (
                record.reputation,
                record.registered_at,
                record.last_heartbeat
            ),
            (75, 1, 1)
        );
        assert_eq!(
            node.account(&actors::RUNNER_REGISTRY).balance,
            FLOOR + 5 * CBY
        );
        // The record's bytes are charged as cells on top of the transaction's own.
        let record_size = commonware_codec::EncodeSize::encode_size(&record) as u64;
        assert!(r.cells_used > record_size, "{} cells", r.cells_used);
        assert_eq!(before - node.account(&me).balance, FLOOR + 5 * CBY + r.fee);
        audit_holds(&node);

        // Heartbeat at height 2; more stake.
        assert_success(&send(
            &node,
            engine,
            1,
            1,
            sys(SystemInstruction::RunnerHeartbeat),
        ));
        assert_eq!(runner(&node, &me).unwrap().last_heartbeat, 2);
        assert_success(&send(
            &node,
            engine,
            1,
            2,
            sys(SystemInstruction::RunnerAddStake { amount: CBY }),
        ));
        assert_eq!(runner(&node, &me).unwrap().stake, FLOOR + 6 * CBY);

        // Withdrawing below the floor is refused; 6 CBY unbonds for 3 blocks.
        let r = send(
            &node,
            engine,
            1,
            3,
            sys(SystemInstruction::RunnerWithdrawStake { amount: 7 * CBY }),
        );
        let (k, message) = failure(&r);
        assert_eq!(k, kind::STAKE_TOO_LOW, "{message}");
        let r = send(
            &node,
            engine,
            1,
            4,
            sys(SystemInstruction::RunnerWithdrawStake { amount: 6 * CBY }),
        );
        assert_success(&r);
        let record = runner(&node, &me).unwrap();
        assert_eq!(
            (
                record.stake,
                record.unbonding.amount,
                record.unbonding.release_height
            ),
            (FLOOR, 6 * CBY, 8)
        );
        let r = send(&node, engine, 1, 5, sys(SystemInstruction::RunnerClaim));
        let (k, message) = failure(&r);
        assert_eq!(k, kind::NOTHING_TO_CLAIM);
        assert!(
            message.contains("unbond at height 8; this is height 6"),
            "{message}"
        );

        // Exit at 7: the whole stake joins the unbonding, released at 10.
        assert_success(&send(
            &node,
            engine,
            1,
            6,
            sys(SystemInstruction::RunnerExit),
        ));
        let record = runner(&node, &me).unwrap();
        assert_eq!(
            (
                record.stake,
                record.unbonding.amount,
                record.unbonding.release_height,
                record.exited_at
            ),
            (0, FLOOR + 6 * CBY, 10, Some(7))
        );
        let (k, _) = failure(&send(
            &node,
            engine,
            1,
            7,
            sys(SystemInstruction::RunnerHeartbeat),
        ));
        assert_eq!(k, kind::RUNNER_EXITED);
        let (k, message) = failure(&send(&node, engine, 1, 8, register(FLOOR)));
        assert_eq!(k, kind::RUNNER_EXISTS);
        assert!(message.contains("exited at height 7"), "{message}");
        audit_holds(&node);

        // At 10 the claim pays everything back and the record goes.
        let balance = node.account(&me).balance;
        let r = send(&node, engine, 1, 9, sys(SystemInstruction::RunnerClaim));
        assert_success(&r);
        assert_eq!(node.height(), 10);
        assert_eq!(runner(&node, &me), None);
        assert_eq!(node.account(&me).balance, balance + FLOOR + 6 * CBY - r.fee);
        assert_eq!(node.account(&actors::RUNNER_REGISTRY).balance, 0);
        audit_holds(&node);
        // Registering again starts afresh.
        assert_success(&send(&node, engine, 1, 10, register(FLOOR)));
    });
}

#[test]
fn refused_registry_operations_change_nothing_but_the_fee() {
    with_engine(|engine| {
        let me = key(1).address();
        let node = Node::new(&genesis_with(params(), &[(me, 100_000 * CBY)]));
        let mut nonce = 0;
        let mut refused = |i: Instruction, expected: u8, says: &str| {
            let t = tx(&key(1), nonce, i);
            nonce += 1;
            let hash = t.digest();
            let executed = node.block(engine, vec![t]);
            let (k, message) = failure(receipt_of(&executed, &hash));
            assert_eq!(k, expected, "{message}");
            assert!(message.contains(says), "{message:?} should say {says:?}");
            assert_only_fees_changed(&executed, &me);
        };
        refused(
            sys(SystemInstruction::RunnerHeartbeat),
            kind::NOT_A_RUNNER,
            "not a registered runner",
        );
        refused(
            register(FLOOR - 1),
            kind::STAKE_TOO_LOW,
            "below the 10000000000000",
        );
        let mut p = profile();
        p.max_job_value = 10_000 * CBY;
        refused(
            sys(SystemInstruction::RunnerRegister {
                profile: Box::new(p),
                stake: FLOOR,
            }),
            kind::STAKE_TOO_LOW,
            "1.5 × max_job_value",
        );
        let mut p = profile();
        p.capabilities.job_types = JobTypes::default();
        refused(
            sys(SystemInstruction::RunnerRegister {
                profile: Box::new(p),
                stake: FLOOR,
            }),
            kind::INVALID_RUNNER,
            "job_types is empty",
        );
        let mut p = profile();
        // x = 0 is on no secp256k1 point.
        let mut point = [0u8; 33];
        point[0] = 2;
        p.key = RunnerKey::Secp256k1(point);
        refused(
            sys(SystemInstruction::RunnerRegister {
                profile: Box::new(p),
                stake: FLOOR,
            }),
            kind::INVALID_RUNNER,
            "not a valid public key",
        );
        let mut p = profile();
        p.endpoint = "runner.example.com".into();
        refused(
            sys(SystemInstruction::RunnerRegister {
                profile: Box::new(p),
                stake: FLOOR,
            }),
            kind::INVALID_RUNNER,
            "endpoint",
        );
        refused(
            sys(SystemInstruction::RunnerClaim),
            kind::NOT_A_RUNNER,
            "not a registered runner",
        );
        audit_holds(&node);
    });
}

#[test]
fn genesis_registers_runners_and_refuses_bad_ones() {
    let me = key(1).address();
    let mut g = genesis_with(params(), &[]);
    g.runners.push(cowboy_execution::genesis::GenesisRunner {
        address: me,
        stake: Amount(FLOOR),
        profile: profile(),
    });
    let node = Node::new(&g);
    let record = runner(&node, &me).expect("registered at genesis");
    assert_eq!((record.stake, record.reputation), (FLOOR, 75));
    assert_eq!(node.account(&actors::RUNNER_REGISTRY).balance, FLOOR);
    audit_holds(&node);
    // Every market system actor has its genesis record.
    let snap = node.chain.store().snapshot().expect("snapshot");
    for (address, _) in actors::ALL {
        let k = cowboy_types::state::key::storage(&address, storage::SYSTEM_ACTOR);
        assert!(
            cowboy_state::StateRead::get(&snap, &k)
                .expect("read")
                .is_some(),
            "{address}"
        );
    }

    let text = serde_json::to_string(&g).expect("json");
    assert_eq!(Genesis::parse(&text).expect("round trip"), g);
    let low = text.replace(
        &format!("\"stake\":\"{FLOOR}\",\"profile\""),
        "\"stake\":\"5\",\"profile\"",
    );
    let e = Genesis::parse(&low).expect_err("refused").to_string();
    assert!(e.contains("runners[0].stake"), "{e}");
    let bad = text.replace("\"job_types\":[\"http\"]", "\"job_types\":[\"ftp\"]");
    let e = Genesis::parse(&bad).expect_err("refused").to_string();
    assert!(
        e.contains("runners[0].profile.capabilities.job_types"),
        "{e}"
    );
}

/// Runner transactions share the runner lane only: a proposer takes as many as its budget
/// holds, and user transactions still get the rest of the block.
#[test]
fn runner_transactions_never_take_more_than_the_runner_lane() {
    with_engine(|engine| {
        let mut p = params();
        p.lanes.runner_cycles = 60_000;
        let funded: Vec<(Address, u64)> =
            (1..=4).map(|i| (key(i).address(), 100_000 * CBY)).collect();
        let node = Node::new(&genesis_with(p, &funded));
        let mut txs: Vec<_> = (1..=3)
            .map(|i| tx_with(&key(i), 0, register(FLOOR), 25_000, 5_000))
            .collect();
        txs.push(tx(&key(4), 0, transfer(key(1).address(), 1)));
        let executed = node.block(engine, txs);
        let registered = executed
            .receipts
            .iter()
            .filter(|(r, _)| r.status == cowboy_types::Status::Success)
            .count();
        // Two registrations (50,000 of 60,000 cycles) and the transfer.
        assert_eq!(executed.block.transactions.len(), 3);
        assert_eq!(registered, 3);
        let runners = (1..=3)
            .filter(|i| runner(&node, &key(*i).address()).is_some())
            .count();
        assert_eq!(runners, 2);
        audit_holds(&node);

        // A proposer that packs more runner transactions than the lane holds is refused.
        let over: Vec<_> = (1..=3)
            .map(|i| {
                tx_with(
                    &key(i),
                    1,
                    sys(SystemInstruction::RunnerHeartbeat),
                    25_000,
                    5_000,
                )
            })
            .collect();
        let head = node.chain.head().expect("head");
        let claim = node
            .chain
            .outcome(head.height)
            .expect("read")
            .expect("executed");
        let block = cowboy_execution::pipeline::assemble(
            &head,
            &node.proposal(),
            &claim,
            node.verify_all(over),
        )
        .block;
        let e = node
            .check(&block)
            .expect_err("over the runner lane")
            .to_string();
        assert!(e.contains("runner-lane cycles"), "{e}");
    });
}
