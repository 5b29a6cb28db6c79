//! The Job Dispatcher (0x…02) on the block pipeline: a job's escrow, its draw from the parent
//! beacon (single runner) or from the beacon `K` rounds after its binding round (committee),
//! commit deadlines with penalties and re-selection without the runners that timed out, and
//! failure with a refund — the supply audit holding every block, and every draw re-computable
//! from what the job records.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{
    audit,
    genesis::GenesisRunner,
    params::Parameters,
    runners::{
        dispatcher,
        selection::{self, Candidate, Snapshot},
    },
    world::World,
};
use cowboy_types::{
    Address, Hash, Instruction, SystemInstruction,
    job::{JobRecord, JobSpec, JobStatus},
    json::Amount,
    receipt::failure as kind,
    runner::{Capabilities, JobType, JobTypes, RateCard, Runner, RunnerKey, RunnerProfile, actors},
};
use std::num::NonZeroU64;

const FLOOR: u64 = 10_000 * CBY;
const RUNNERS: u8 = 6;
const CALLBACK: &str = r#"
class Actor:
    def __init__(self):
        pass

    def done(self, job_id, status, result, details):
        return status
"#;

fn runner_key(i: u8) -> cowboy_crypto::PrivateKey {
    key(100 + i)
}

fn profile() -> RunnerProfile {
    let mut ed = [0x66u8; 32];
    ed[0] = 0x58;
    RunnerProfile {
        key: RunnerKey::Ed25519(Hash(ed)),
        capabilities: Capabilities {
            job_types: JobTypes::of(&[JobType::Http, JobType::Llm]),
            models: vec![],
            domains: vec![],
            tee: false,
        },
        rate_card: RateCard {
            per_job: CBY / 100,
            per_1k_tokens: 0,
            per_second: 0,
        },
        max_concurrent_jobs: 4,
        max_job_value: 0,
        endpoint: "https://runner.example/push".into(),
    }
}

/// A chain with `RUNNERS` genesis runners (stakes 1× to 6× the floor) and a funded submitter.
fn node() -> Node {
    let mut g = genesis_with(Parameters::spec(), &[(key(1).address(), 100_000 * CBY)]);
    for i in 0..RUNNERS {
        g.runners.push(GenesisRunner {
            address: runner_key(i).address(),
            stake: Amount(FLOOR * (u64::from(i) + 1)),
            profile: profile(),
        });
    }
    Node::new(&g)
}

fn spec(callback: Address, mode: serde_json::Value, runners: u8) -> JobSpec {
    serde_json::from_value(serde_json::json!({
        "input": {"http": {"method": "GET", "url": "https://api.example.com/price",
                           "extract": ["/usd"]}},
        "bounds": {"max_wall_ms": 2000},
        "schema": {"max_return_bytes": 64, "expected_execution_ms": 200,
                   "data_format": {"json": {}}},
        "verification": {"mode": mode, "runners": runners},
        "max_price": (CBY / 10).to_string(),
        "tip": "5",
        "timeout_blocks": 2,
        "callback": {"actor": callback, "handler": "done"}
    }))
    .expect("spec")
}

fn submit(spec: JobSpec) -> Instruction {
    Instruction::System(SystemInstruction::JobSubmit {
        spec: Box::new(spec),
    })
}

fn world_of<T>(node: &Node, f: impl FnOnce(&World<'_>) -> T) -> T {
    let snap = node.chain.store().snapshot().expect("snapshot");
    f(&World::new(cowboy_state::Overlay::new(&snap)))
}

fn job(node: &Node, id: &Hash) -> JobRecord {
    world_of(node, |w| {
        dispatcher::load(w, id).expect("decodes").expect("stored")
    })
}

fn runner(node: &Node, a: &Address) -> Runner {
    world_of(node, |w| w.runner(a).expect("decodes").expect("registered"))
}

fn audit_holds(node: &Node) {
    let snap = node.chain.store().snapshot().expect("snapshot");
    let a = audit::supply(&snap).expect("audit");
    assert!(a.balanced(), "{a:?}");
}

/// Deploys the callback actor at height 1; returns its address.
fn callback_actor(node: &Node, engine: &mut cowboy_pvm::Engine) -> Address {
    let t = tx(&key(1), 0, deploy(CALLBACK, 1, vec![]));
    let hash = t.digest();
    let executed = node.block(engine, vec![t]);
    assert_success(receipt_of(&executed, &hash));
    actor_at(key(1).address(), CALLBACK, 1)
}

/// The job id a successful submission returned.
fn submitted(executed: &cowboy_execution::Executed, hash: &Hash) -> Hash {
    let r = receipt_of(executed, hash);
    assert_success(r);
    match returned(r) {
        cowboy_pvm::Value::Bytes(b) => Hash::from_slice(&b).expect("32 bytes"),
        other => panic!("a job id, got {other:?}"),
    }
}

/// Re-runs the job's latest draw from what it records.
fn recompute(job: &JobRecord) -> Vec<Address> {
    let snapshot = Snapshot::new(
        job.candidates
            .iter()
            .map(|c| Candidate {
                address: c.address,
                stake: c.stake,
            })
            .collect(),
    )
    .expect("snapshot");
    assert_eq!(snapshot.root(), job.snapshot_root);
    let first = &job.draws[0];
    let seed = selection::seed(
        cowboy_types::Round {
            epoch: first.round_epoch,
            view: first.round_view,
        },
        &first.beacon,
        &job.id,
    );
    assert_eq!(seed, first.seed);
    let last = job.draws.last().expect("a draw");
    let seed = if last.retry == 0 {
        seed
    } else {
        selection::retry_seed(&seed, last.retry)
    };
    let excluded: Vec<Address> = job.excluded.iter().copied().collect();
    selection::select(
        &snapshot.without(&excluded),
        &seed,
        usize::from(job.committee_size),
        NonZeroU64::new(job.min_stake).expect("floor"),
    )
    .expect("enough")
}

#[test]
fn a_single_runner_job_is_drawn_at_once_then_redrawn_after_each_timeout_then_fails_with_a_refund() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let me = key(1).address();
        let balance = node.account(&me).balance;
        let t = tx(
            &key(1),
            1,
            submit(spec(callback, serde_json::json!({"none": {}}), 0)),
        );
        let hash = t.digest();
        let executed = node.block(engine, vec![t]);
        let id = submitted(&executed, &hash);
        let fee = receipt_of(&executed, &hash).fee;
        let escrow = CBY / 10 + 5;
        assert_eq!(node.account(&me).balance, balance - fee - escrow);
        assert_eq!(node.account(&actors::JOB_DISPATCHER).balance, escrow);

        let j = job(&node, &id);
        assert_eq!(
            (j.status, j.committee_size, j.submitted_at),
            (JobStatus::Assigned, 1, 2)
        );
        assert_eq!(j.candidates.len(), usize::from(RUNNERS));
        assert_eq!((j.draws.len(), j.deadline), (1, 4));
        // The parent beacon of the submission block seeded it; anyone can re-run the draw.
        assert_eq!(j.draws[0].round_view, 2);
        assert_eq!(j.draws[0].committee.to_vec(), recompute(&j));
        let first = j.draws[0].committee[0];
        assert_eq!(j.draws[0].aggregator, first);
        assert_eq!(runner(&node, &first).active_jobs, 1);
        audit_holds(&node);

        // Nobody commits: after the deadline (height 4) the next block re-draws without it.
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        assert_eq!(job(&node, &id).draws.len(), 1);
        node.block(engine, vec![]);
        let j = job(&node, &id);
        assert_eq!(
            (j.status, j.draws.len(), j.draws[1].retry),
            (JobStatus::Assigned, 2, 1)
        );
        assert_eq!(j.excluded.to_vec(), vec![first]);
        assert_ne!(j.draws[1].committee[0], first);
        assert_eq!(j.draws[1].committee.to_vec(), recompute(&j));
        let penalised = runner(&node, &first);
        assert_eq!((penalised.reputation, penalised.active_jobs), (70, 0));
        audit_holds(&node);

        // Three retries (four draws) time out: the job fails and the escrow comes back.
        for _ in 0..9 {
            node.block(engine, vec![]);
        }
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Failed, "{j:?}");
        assert_eq!((j.draws.len(), j.excluded.len(), j.escrow), (4, 4, 0));
        assert!(
            j.failure.contains("no committee committed in 4 draws"),
            "{}",
            j.failure
        );
        assert_eq!(node.account(&me).balance, balance - fee);
        assert_eq!(node.account(&actors::JOB_DISPATCHER).balance, 0);
        let busy: u64 = (0..RUNNERS)
            .map(|i| runner(&node, &runner_key(i).address()).active_jobs)
            .sum();
        assert_eq!(busy, 0);
        audit_holds(&node);
    });
}

#[test]
fn a_committee_is_drawn_from_the_beacon_k_rounds_after_its_binding_round() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let mode = serde_json::json!({"majority_vote": {"vote_field": "/usd"}});
        let t = tx(&key(1), 1, submit(spec(callback, mode, 3)));
        let hash = t.digest();
        let id = submitted(&node.block(engine, vec![t]), &hash);
        let j = job(&node, &id);
        assert_eq!(
            (j.status, j.committee_size, j.threshold),
            (JobStatus::Submitted, 3, 2)
        );
        assert_eq!((j.bound_epoch, j.bound_view), (0, 2));
        assert!(j.draws.is_empty());
        // Bound in round 2, K = 2: block 3 (beacon round 3) is too early, block 4 draws.
        node.block(engine, vec![]);
        assert_eq!(job(&node, &id).status, JobStatus::Submitted);
        node.block(engine, vec![]);
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Assigned);
        assert_eq!(j.draws[0].round_view, 4);
        assert_eq!(j.draws[0].committee.len(), 3);
        assert_eq!(j.draws[0].committee.to_vec(), recompute(&j));
        assert!(j.draws[0].committee.contains(&j.draws[0].aggregator));
        assert_eq!(j.deadline, 6);
        audit_holds(&node);
    });
}

#[test]
fn refused_submissions_take_no_escrow_and_say_why() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let me = key(1).address();
        let mut nonce = 1;
        let mut refused = |s: JobSpec, expected: u8, says: &str| {
            let t = tx(&key(1), nonce, submit(s));
            nonce += 1;
            let hash = t.digest();
            let executed = node.block(engine, vec![t]);
            let (k, message) = failure(receipt_of(&executed, &hash));
            assert_eq!(k, expected, "{message}");
            assert!(message.contains(says), "{message:?} should say {says:?}");
            assert_only_fees_changed(&executed, &me);
        };
        let none = || serde_json::json!({"none": {}});
        let mut s = spec(callback, none(), 0);
        s.timeout_blocks = 0;
        refused(s, kind::INVALID_JOB, "timeout_blocks is 0");
        refused(
            spec(Address::system(0x55), none(), 0),
            kind::INVALID_JOB,
            "has no actor",
        );
        let mut s = spec(callback, none(), 0);
        s.max_price = 1;
        refused(s, kind::NO_RUNNERS, "0 of 6 registered runners qualify");
        let s = spec(
            callback,
            serde_json::json!({"semantic_similarity": {"threshold_bps": 9000}}),
            3,
        );
        refused(s, kind::INVALID_JOB, "embedding model");
        audit_holds(&node);
    });
}
