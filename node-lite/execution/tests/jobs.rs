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
    runners::{dispatcher, selection},
    world::World,
};
use cowboy_types::{
    Address, Hash, Instruction, SystemInstruction,
    bounded::{Bytes, List},
    job::{JobRecord, JobSpec, JobStatus, Reveal},
    json::Amount,
    receipt::failure as kind,
    runner::{Capabilities, JobType, JobTypes, RateCard, Runner, RunnerKey, RunnerProfile, actors},
};

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

/// A chain with `RUNNERS` genesis runners (stakes 1× to 6× the floor, 100 CBY each for fees),
/// a funded submitter, a 3-block challenge window and 2-block reveal windows.
fn node() -> Node {
    node_with(|_| {})
}

/// [`node`] with `tweak` applied to its parameters.
fn node_with(tweak: impl FnOnce(&mut Parameters)) -> Node {
    let mut params = Parameters::spec();
    params.runner.challenge_window_blocks = 3;
    params.aggregator.aggregator_timeout_blocks = 2;
    tweak(&mut params);
    let mut funded = vec![(key(1).address(), 100_000 * CBY)];
    funded.extend((0..RUNNERS).map(|i| (runner_key(i).address(), 100 * CBY)));
    let mut g = genesis_with(params, &funded);
    g.tee_simulated_key = Some(cowboy_execution::runners::tee::devnet_simulated_key());
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

/// Which genesis runner signs for `a`.
fn signer(a: &Address) -> cowboy_crypto::PrivateKey {
    let i = (0..RUNNERS)
        .find(|i| runner_key(*i).address() == *a)
        .expect("a genesis runner");
    runner_key(i)
}

fn reveal_of(runner: Address, result: &[u8], salt: u8) -> Reveal {
    Reveal {
        runner,
        result: Bytes::new(result.to_vec()).expect("fits"),
        salt: Hash([salt; 32]),
        tokens: 0,
        ms: 1_500,
        embedding: Default::default(),
        fault: None,
    }
}

/// Sends `i` from `from` with its next nonce in its own block; the receipt.
fn send(
    node: &Node,
    engine: &mut cowboy_pvm::Engine,
    from: &cowboy_crypto::PrivateKey,
    i: Instruction,
) -> (cowboy_types::Receipt, cowboy_execution::Executed) {
    let nonce = node.account(&from.address()).nonce;
    let t = tx(from, nonce, i);
    let hash = t.digest();
    let executed = node.block(engine, vec![t]);
    (receipt_of(&executed, &hash).clone(), executed)
}

fn commit_to(job: &Hash, r: &Reveal) -> Instruction {
    Instruction::System(SystemInstruction::JobCommit {
        job_id: *job,
        commitment: r.commitment(),
    })
}

fn reveal_all(job: &Hash, reveals: Vec<Reveal>) -> Instruction {
    Instruction::System(SystemInstruction::JobReveal {
        job_id: *job,
        reveals: List::new(reveals).expect("fits"),
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
    id_of(r)
}

/// Re-runs every draw of the job from what it records (the snapshot's root, each seed, each
/// committee) and returns the latest draw's committee as recomputed.
fn recompute(job: &JobRecord) -> Vec<Address> {
    let (root_matches, draws) = selection::replay(job).expect("replay");
    assert!(root_matches);
    for d in &draws {
        assert!(
            d.seed_matches && d.committee_matches,
            "draw {}: {d:?}",
            d.retry
        );
    }
    draws.last().expect("a draw").committee.clone()
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
            j.failure
                .contains("fewer than 1 of the committee committed in 4 draws"),
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

/// Issue 15's main path: a job is submitted, its runner commits and reveals, the result is
/// verified, the callback fires with it, and after the challenge window the payment splits
/// 89 / 10 / 1 to the base unit, the rest of the escrow going back.
#[test]
fn a_job_is_committed_revealed_verified_called_back_and_settled() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let me = key(1).address();
        let before = node.account(&me).balance;
        let supply_before = world_of(&node, |w| w.supply().expect("supply"));
        let mut s = spec(callback, serde_json::json!({"none": {}}), 0);
        s.callback.max_fee = CBY / 10;
        let (r, _) = send(&node, engine, &key(1), submit(s));
        assert_success(&r);
        let submit_fee = r.fee;
        let id = id_of(&r);
        let runner = job(&node, &id).draws[0].committee[0];
        let k = signer(&runner);
        let runner_before = node.account(&runner).balance;
        let answer = reveal_of(runner, br#"{"usd": 64000}"#, 9);

        // Commit (height 3): every member has committed, so the reveal windows open.
        let (r, _) = send(&node, engine, &k, commit_to(&id, &answer));
        assert_success(&r);
        let mut runner_fees = r.fee;
        let j = job(&node, &id);
        assert_eq!(
            (j.status, j.committed_at, j.deadline),
            (JobStatus::Committed, 3, 7)
        );
        // A second commit, or one from outside the committee, is refused.
        let (r, _) = send(&node, engine, &k, commit_to(&id, &answer));
        assert_eq!(failure(&r).0, kind::WRONG_JOB_STATE);
        runner_fees += r.fee;
        let (r, _) = send(&node, engine, &key(1), commit_to(&id, &answer));
        assert_eq!(failure(&r).0, kind::WRONG_JOB_STATE);
        let refused_fee = r.fee;

        // The aggregator (the only member) reveals at height 6: verified.
        let (r, _) = send(&node, engine, &k, reveal_all(&id, vec![answer.clone()]));
        assert_success(&r);
        runner_fees += r.fee;
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified);
        assert_eq!(
            j.result.as_ref().map(|b| b.to_vec()),
            Some(answer.result.to_vec())
        );
        // Price: the runner's rate card on its reported usage (0.01 CBY a job), plus the tip.
        let gross = CBY / 100 + 5;
        let treasury = gross / 100;
        let burn = gross / 10;
        assert_eq!((j.treasury, j.burn), (treasury, burn));
        assert_eq!(j.payouts.to_vec()[0].amount, gross - treasury - burn);
        assert_eq!(j.deadline, 9);
        audit_holds(&node);

        // The callback runs in the next block, with the verified result.
        let callback_id = dispatcher::callback_id(&id, "verified");
        let executed = node.block(engine, vec![]);
        let cb = receipt_of(&executed, &callback_id);
        assert_success(cb);
        assert_eq!(returned(cb), cowboy_pvm::Value::Str("verified".into()));
        let callback_fee = cb.fee;
        audit_holds(&node);

        // The window ends at 9; block 10 pays out.
        for _ in 0..3 {
            node.block(engine, vec![]);
        }
        let j = job(&node, &id);
        assert_eq!((j.status, j.escrow), (JobStatus::Settled, 0));
        assert_eq!(
            node.account(&runner).balance,
            runner_before - runner_fees + (gross - treasury - burn)
        );
        assert_eq!(node.account(&actors::TREASURY).balance, treasury);
        assert_eq!(node.account(&actors::JOB_DISPATCHER).balance, 0);
        assert_eq!(
            node.account(&me).balance,
            before - submit_fee - refused_fee - gross - callback_fee,
            "the submitter pays the price, the tip and the callback, and gets the rest back"
        );
        let burned = world_of(&node, |w| w.supply().expect("supply")).burned - supply_before.burned;
        assert!(
            burned >= burn,
            "the settlement's 10% is burned with the fees"
        );
        audit_holds(&node);
    });
}

/// A committee of three: two agree, one reveals a different vote (it loses its share and
/// reputation), and a job whose third member committed but never revealed slashes it.
#[test]
fn a_lying_minority_is_unpaid_and_a_silent_member_is_slashed() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let mode = serde_json::json!({"majority_vote": {"vote_field": "/usd"}});
        let mut s = spec(callback, mode, 3);
        s.timeout_blocks = 10;
        let (r, _) = send(&node, engine, &key(1), submit(s));
        let id = id_of(&r);
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Assigned);
        let d = j.draws[0].clone();
        let aggregator = d.aggregator;
        let others: Vec<Address> = d
            .committee
            .iter()
            .copied()
            .filter(|a| *a != aggregator)
            .collect();
        let (honest, liar) = (others[0], others[1]);
        let truth = |a: Address| reveal_of(a, br#"{"usd": 100, "at": 1}"#, a.0[0]);
        let lie = reveal_of(liar, br#"{"usd": 999}"#, 2);
        // The honest member writes the same vote differently: it still agrees.
        let honest_truth = reveal_of(honest, br#"{"at": 1, "usd": 100.0}"#, 77);
        for (a, r) in [
            (aggregator, truth(aggregator)),
            (honest, honest_truth.clone()),
        ] {
            let (receipt, _) = send(&node, engine, &signer(&a), commit_to(&id, &r));
            assert_success(&receipt);
        }
        // Copying another member's commitment is refused.
        let (r, _) = send(
            &node,
            engine,
            &signer(&liar),
            commit_to(&id, &truth(aggregator)),
        );
        assert_eq!(failure(&r).0, kind::WRONG_JOB_STATE);
        let (receipt, _) = send(&node, engine, &signer(&liar), commit_to(&id, &lie));
        assert_success(&receipt);
        assert_eq!(job(&node, &id).status, JobStatus::Committed);
        // Only the aggregator reveals during its window.
        let (r, _) = send(
            &node,
            engine,
            &signer(&honest),
            reveal_all(&id, vec![truth(honest)]),
        );
        assert_eq!(failure(&r).0, kind::NOT_ON_COMMITTEE);
        let liar_reputation = runner(&node, &liar).reputation;
        let (r, _) = send(
            &node,
            engine,
            &signer(&aggregator),
            reveal_all(&id, vec![truth(aggregator), honest_truth, lie]),
        );
        assert_success(&r);
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified);
        let paid: Vec<Address> = j.payouts.iter().map(|p| p.runner).collect();
        assert_eq!(paid, vec![aggregator, honest]);
        let gross = CBY / 100 + 5;
        let runners_part = gross - gross / 100 - gross / 10;
        let bonus = gross * 150 / 10_000;
        let each = (runners_part - bonus) / 2;
        assert_eq!(
            j.payouts[0].amount,
            each + bonus,
            "the aggregator's bonus is carved from the runner share"
        );
        assert_eq!(j.payouts[1].amount, each);
        assert_eq!(j.burn, gross / 10 + (runners_part - bonus - 2 * each));
        assert_eq!(runner(&node, &liar).reputation, liar_reputation - 10);
        assert_eq!(runner(&node, &liar).active_jobs, 0);
        audit_holds(&node);

        // A second job: the third member commits and never reveals; the aggregator reveals
        // the two others; when the windows close the silent one is slashed 25%.
        let mode = serde_json::json!({"majority_vote": {"vote_field": "/usd"}});
        let mut s = spec(callback, mode, 3);
        s.timeout_blocks = 10;
        let (r, _) = send(&node, engine, &key(1), submit(s));
        let id = id_of(&r);
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        let d = job(&node, &id).draws[0].clone();
        let aggregator = d.aggregator;
        let others: Vec<Address> = d
            .committee
            .iter()
            .copied()
            .filter(|a| *a != aggregator)
            .collect();
        let (honest, silent) = (others[0], others[1]);
        for a in [aggregator, honest, silent] {
            let (receipt, _) = send(&node, engine, &signer(&a), commit_to(&id, &truth(a)));
            assert_success(&receipt);
        }
        let stake = runner(&node, &silent).stake;
        // The aggregator also posts the silent member's entry with a wrong salt: skipped, not
        // slashed (an aggregator cannot get members slashed).
        let mut forged = truth(silent);
        forged.salt = Hash([0xee; 32]);
        let (r, _) = send(
            &node,
            engine,
            &signer(&aggregator),
            reveal_all(&id, vec![truth(aggregator), truth(honest), forged]),
        );
        assert_success(&r);
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Committed);
        assert!(j.slashed.is_empty());
        assert_eq!(runner(&node, &silent).stake, stake);
        for _ in 0..4 {
            node.block(engine, vec![]);
        }
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified, "{:?}", j.failure);
        assert_eq!(j.slashed.to_vec(), vec![silent]);
        assert_eq!(runner(&node, &silent).stake, stake - stake / 4);
        audit_holds(&node);
    });
}

/// Blocks until `job`'s `draws` reaches `n` (at most `limit` blocks).
fn until_draws(node: &Node, engine: &mut cowboy_pvm::Engine, id: &Hash, n: usize, limit: u32) {
    for _ in 0..limit {
        if job(node, id).draws.len() >= n {
            return;
        }
        node.block(engine, vec![]);
    }
    panic!("job {id} never had {n} draws: {:?}", job(node, id));
}

/// A member that never commits loses its seat, which is drawn again (CIP-2 §6) while the
/// members that committed keep theirs and their commitments; when the new member commits
/// the reveals start, and the job verifies with a full committee.
#[test]
fn a_silent_members_seat_is_drawn_again_and_the_commitments_made_are_kept() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let mode = serde_json::json!({"majority_vote": {"vote_field": "/usd"}});
        let (r, _) = send(&node, engine, &key(1), submit(spec(callback, mode, 3)));
        let id = id_of(&r);
        until_draws(&node, engine, &id, 1, 4);
        let first = job(&node, &id).draws[0].clone();
        let aggregator = first.aggregator;
        let others: Vec<Address> = first
            .committee
            .iter()
            .copied()
            .filter(|a| *a != aggregator)
            .collect();
        let (working, silent) = (others[0], others[1]);
        let truth = |a: Address| reveal_of(a, br#"{"usd": 100}"#, a.0[0]);
        for a in [aggregator, working] {
            let (receipt, _) = send(&node, engine, &signer(&a), commit_to(&id, &truth(a)));
            assert_success(&receipt);
        }
        let reputation = runner(&node, &silent).reputation;

        until_draws(&node, engine, &id, 2, 4);
        let j = job(&node, &id);
        assert_eq!((j.status, j.draws[1].retry), (JobStatus::Assigned, 1));
        let retry = &j.draws[1];
        let kept: Vec<Address> = first
            .committee
            .iter()
            .copied()
            .filter(|a| *a != silent)
            .collect();
        assert_eq!(retry.committee[..2], kept[..]);
        let fresh = retry.committee[2];
        assert!(!first.committee.contains(&fresh));
        assert_eq!(
            retry.aggregator, aggregator,
            "a committed aggregator keeps its role"
        );
        assert_eq!(j.excluded.to_vec(), vec![silent]);
        let committed: Vec<Address> = j.commitments.iter().map(|c| c.runner).collect();
        assert_eq!(committed, vec![aggregator, working]);
        assert_eq!(retry.committee.to_vec(), recompute(&j));
        let penalised = runner(&node, &silent);
        assert_eq!(
            (penalised.reputation, penalised.active_jobs),
            (reputation - 5, 0)
        );
        for a in [aggregator, working, fresh] {
            assert_eq!(runner(&node, &a).active_jobs, 1, "{a}");
        }
        audit_holds(&node);

        // The new member commits: every seat has, so the reveals start at once.
        let (receipt, _) = send(
            &node,
            engine,
            &signer(&fresh),
            commit_to(&id, &truth(fresh)),
        );
        assert_success(&receipt);
        assert_eq!(job(&node, &id).status, JobStatus::Committed);
        let (receipt, _) = send(
            &node,
            engine,
            &signer(&aggregator),
            reveal_all(&id, vec![truth(aggregator), truth(working), truth(fresh)]),
        );
        assert_success(&receipt);
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified, "{:?}", j.failure);
        let paid: Vec<Address> = j.payouts.iter().map(|p| p.runner).collect();
        for a in [aggregator, working, fresh] {
            assert!(paid.contains(&a), "{a} unpaid: {paid:?}");
        }
        assert!(!paid.contains(&silent));
        audit_holds(&node);
    });
}

/// Seats are re-drawn only as far as candidates are left, and never into a committee smaller
/// than the threshold; when no seat can be re-drawn, the job goes on with the threshold that
/// committed, and with fewer it fails.
#[test]
fn with_no_candidate_left_a_job_goes_on_with_the_threshold_or_fails() {
    with_engine(|engine| {
        // (threshold, members that commit, draws made, outcome)
        for (threshold, committing, draws, outcome) in [
            (3, 3, 2, JobStatus::Committed),
            (3, 2, 2, JobStatus::Failed),
            // One committed, one candidate left: two seats could never reach four.
            (4, 1, 1, JobStatus::Failed),
        ] {
            let node = node();
            let callback = callback_actor(&node, engine);
            let mode = serde_json::json!({"majority_vote": {"vote_field": "/usd"}});
            let mut s = spec(callback, mode, 5);
            s.verification.threshold = threshold;
            s.timeout_blocks = 6;
            let (r, _) = send(&node, engine, &key(1), submit(s));
            let id = id_of(&r);
            until_draws(&node, engine, &id, 1, 4);
            let first = job(&node, &id).draws[0].clone();
            let truth = |a: Address| reveal_of(a, br#"{"usd": 100}"#, a.0[0]);
            for a in first.committee.iter().take(committing) {
                let (receipt, _) = send(&node, engine, &signer(a), commit_to(&id, &truth(*a)));
                assert_success(&receipt);
            }
            if draws == 2 {
                // Six runners, five drawn: the retry fills one of the silent seats.
                until_draws(&node, engine, &id, 2, 8);
                let j = job(&node, &id);
                assert_eq!(
                    j.draws[1].committee.len(),
                    committing + 1,
                    "{:?}",
                    j.draws[1]
                );
                assert_eq!(j.draws[1].committee.to_vec(), recompute(&j));
                assert_eq!(j.excluded.len(), 5 - committing);
            }
            // Nobody is left for the next retry (and the reveal windows are still open).
            for _ in 0..8 {
                node.block(engine, vec![]);
            }
            let j = job(&node, &id);
            assert_eq!(
                (j.status, j.draws.len()),
                (outcome, draws),
                "{:?}",
                j.failure
            );
            if outcome == JobStatus::Failed {
                let left = 6 - 5 - (draws - 1);
                assert!(
                    j.failure.contains(&format!(
                        "fewer than {threshold} of the committee committed and {left} candidates"
                    )),
                    "{}",
                    j.failure
                );
                let busy: u64 = (0..RUNNERS)
                    .map(|i| runner(&node, &runner_key(i).address()).active_jobs)
                    .sum();
                assert_eq!(busy, 0);
            } else {
                assert_eq!(j.commitments.len(), 3);
            }
            audit_holds(&node);
        }
    });
}

fn challenge(job: &Hash, bond: u64) -> Instruction {
    Instruction::System(SystemInstruction::JobChallenge { job_id: *job, bond })
}

fn id_of(r: &cowboy_types::Receipt) -> Hash {
    match returned(r) {
        cowboy_pvm::Value::Bytes(b) => Hash::from_slice(&b).expect("id"),
        other => panic!("{other:?}"),
    }
}

/// Every member of `job`'s latest draw commits to what `answer` gives it, then the
/// aggregator reveals them all.
fn run_committee(
    node: &Node,
    engine: &mut cowboy_pvm::Engine,
    id: &Hash,
    answer: impl Fn(Address) -> Reveal,
) {
    let d = job(node, id).draws.last().cloned().expect("a draw");
    let reveals: Vec<Reveal> = d.committee.iter().map(|a| answer(*a)).collect();
    for r in &reveals {
        let (receipt, _) = send(node, engine, &signer(&r.runner), commit_to(id, r));
        assert_success(&receipt);
    }
    let (receipt, _) = send(
        node,
        engine,
        &signer(&d.aggregator),
        reveal_all(id, reveals),
    );
    assert_success(&receipt);
}

/// A colluding majority's result is challenged; a fresh committee (nobody who ran the job)
/// agrees on a different result: the colluders are slashed, the challenger's bond and the
/// submitter's price come back, and the callback hears "disputed".
#[test]
fn a_successful_challenge_overturns_a_colluding_majority() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let me = key(1).address();
        let mut s = spec(
            callback,
            serde_json::json!({"majority_vote": {"vote_field": "/usd"}}),
            3,
        );
        s.timeout_blocks = 10;
        s.callback.max_fee = CBY / 10;
        let (r, _) = send(&node, engine, &key(1), submit(s));
        let id = id_of(&r);
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        let first = job(&node, &id).draws[0].clone();
        let honest = first.committee[2];
        // Two members (the aggregator among them) collude on a wrong price.
        run_committee(&node, engine, &id, |a| {
            let body: &[u8] = if a == honest {
                br#"{"usd": 100}"#
            } else {
                br#"{"usd": 1}"#
            };
            reveal_of(a, body, a.0[0])
        });
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified);
        let colluders: Vec<Address> = j.payouts.iter().map(|p| p.runner).collect();
        assert_eq!(colluders.len(), 2);
        let stakes: Vec<u64> = colluders.iter().map(|a| runner(&node, a).stake).collect();
        let gross = CBY / 100 + 5;
        // The result's callback runs first.
        node.block(engine, vec![]);
        let balance = node.account(&me).balance;

        // A wrong bond is refused; the right one opens the dispute.
        let bond = Parameters::spec().runner.challenge_bond;
        let (r, _) = send(&node, engine, &key(1), challenge(&id, bond - 1));
        assert_eq!(failure(&r).0, kind::INVALID_JOB);
        let mut fees = r.fee;
        let (r, _) = send(&node, engine, &key(1), challenge(&id, bond));
        assert_success(&r);
        fees += r.fee;
        assert_eq!(job(&node, &id).status, JobStatus::Disputed);
        // A second challenge is refused.
        let (r, _) = send(&node, engine, &key(1), challenge(&id, bond));
        assert_eq!(failure(&r).0, kind::WRONG_JOB_STATE);
        fees += r.fee;
        // The fresh committee is drawn K = 2 rounds after the challenge, from nobody who ran
        // the job before.
        assert_eq!(job(&node, &id).draws.len(), 1);
        node.block(engine, vec![]);
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Disputed);
        assert_eq!(j.draws.len(), 2);
        let fresh = j.draws.last().cloned().expect("fresh draw");
        assert!(fresh.committee.iter().all(|a| !first.committee.contains(a)));

        run_committee(&node, engine, &id, |a| {
            reveal_of(a, br#"{"usd": 100}"#, a.0[0])
        });
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Failed, "{}", j.failure);
        let d = j.dispute.as_ref().expect("dispute");
        assert_eq!(d.outcome.as_str(), "overturned");
        for (a, before) in colluders.iter().zip(stakes) {
            assert_eq!(
                runner(&node, a).stake,
                before - before / 4,
                "{a} is slashed"
            );
        }
        // The bond and the price come back (the callback's fees are the submitter's).
        assert_eq!(node.account(&me).balance, balance - fees + gross);
        let callback_id = dispatcher::callback_id(&id, "disputed");
        let executed = node.block(engine, vec![]);
        let cb = receipt_of(&executed, &callback_id);
        assert_success(cb);
        assert_eq!(returned(cb), cowboy_pvm::Value::Str("disputed".into()));
        audit_holds(&node);
    });
}

/// A single runner's result cannot be challenged; a committee's that a fresh committee
/// confirms is upheld: the bond is forfeited to the confirming runners, and the job settles.
#[test]
fn a_failed_challenge_forfeits_the_bond_to_the_confirming_runners() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let bond = Parameters::spec().runner.challenge_bond;
        let (r, _) = send(
            &node,
            engine,
            &key(1),
            submit(spec(callback, serde_json::json!({"none": {}}), 0)),
        );
        let single = id_of(&r);
        run_committee(&node, engine, &single, |a| {
            reveal_of(a, br#"{"usd": 7}"#, 3)
        });
        assert_eq!(job(&node, &single).status, JobStatus::Verified);
        let (r, _) = send(&node, engine, &key(1), challenge(&single, bond));
        let (k, message) = failure(&r);
        assert_eq!(k, kind::INVALID_JOB);
        assert!(message.contains("cannot be challenged"), "{message}");

        let mut s = spec(
            callback,
            serde_json::json!({"majority_vote": {"vote_field": "/usd"}}),
            3,
        );
        s.timeout_blocks = 10;
        let (r, _) = send(&node, engine, &key(1), submit(s));
        let id = id_of(&r);
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        run_committee(&node, engine, &id, |a| {
            reveal_of(a, br#"{"usd": 7}"#, a.0[0])
        });
        assert_eq!(job(&node, &id).status, JobStatus::Verified);
        let (r, _) = send(&node, engine, &key(1), challenge(&id, bond));
        assert_success(&r);
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        let treasury = node.account(&actors::TREASURY).balance;
        run_committee(&node, engine, &id, |a| {
            reveal_of(a, br#"{"usd": 7.0}"#, a.0[1])
        });
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified);
        assert_eq!(
            j.dispute.as_ref().map(|d| d.outcome.to_string()),
            Some("upheld".into())
        );
        // Three confirming runners share the bond; the base unit left over goes to the Treasury.
        assert_eq!(node.account(&actors::TREASURY).balance, treasury + bond % 3);
        node.block(engine, vec![]);
        assert_eq!(job(&node, &id).status, JobStatus::Settled);
        audit_holds(&node);
    });
}

const FETCHER: &str = r#"
from cowboy_sdk import http_job, job_status


class Actor:
    def __init__(self):
        self.job = None
        self.delivered = None

    def fetch(self, max_price):
        self.job = http_job("https://api.example.com/price", "done", max_price,
                            extract=["/usd"], timeout_blocks=2, max_wall_ms=2000,
                            max_return_bytes=64, expected_execution_ms=200, tip=5,
                            callback_fee=100_000_000)
        return self.job

    def done(self, job_id, status, result, details):
        assert job_id == self.job, "the callback names the job submit_job returned"
        self.delivered = [status, result, details["paid"], job_status(job_id)["status"]]
        return status

    def bad(self):
        return http_job("ftp://api.example.com/price", "done", 1)

    def seen(self):
        return self.delivered
"#;

/// Deploys `FETCHER` from key 1 with `value` base units, declaring `entitlements`.
fn fetcher(
    node: &Node,
    engine: &mut cowboy_pvm::Engine,
    entitlements: &[cowboy_types::entitlement::ActorEntitlement],
    salt: u8,
    value: u64,
) -> Address {
    let d = deploy_declaring(FETCHER, salt, vec![], entitlements, value);
    let (r, _) = send(node, engine, &key(1), d);
    assert_success(&r);
    actor_at(key(1).address(), FETCHER, salt)
}

/// Calls the fetcher's `fetch` from key 1, offering 0.1 CBY for the job.
fn fetch_job(
    node: &Node,
    engine: &mut cowboy_pvm::Engine,
    actor: Address,
) -> (cowboy_types::Receipt, cowboy_execution::Executed) {
    send(
        node,
        engine,
        &key(1),
        call(
            actor,
            "fetch",
            vec![cowboy_pvm::Value::Int((CBY / 10).into())],
            0,
        ),
    )
}

/// Issue 15's acceptance: an actor (declaring `http.fetch`) submits an HTTP job with the SDK's
/// `http_job`; the runner the draw picks commits and reveals; the actor's callback receives
/// the verified result (and reads the job's status on chain); after the challenge window the
/// price splits 89 / 10 / 1 to the base unit, and the actor gets the rest of its escrow back.
#[test]
fn an_actor_submits_an_http_job_and_its_callback_gets_the_verified_result() {
    with_engine(|engine| {
        let node = node();
        let actor = fetcher(
            &node,
            engine,
            &[cowboy_types::entitlement::ActorEntitlement::HttpFetch],
            7,
            10 * CBY,
        );
        let held_before = node.account(&actor).balance;
        let (r, _) = fetch_job(&node, engine, actor);
        assert_success(&r);
        let cowboy_pvm::Value::Str(hex) = returned(&r) else {
            panic!("submit_job returns the job id as hex")
        };
        let id: Hash = hex.parse().expect("a job id");
        let j = job(&node, &id);
        assert_eq!((j.submitter, j.status), (actor, JobStatus::Assigned));
        let escrow = CBY / 10 + 5 + 2 * 100_000_000;
        assert_eq!(j.escrow, escrow);
        assert_eq!(node.account(&actor).balance, held_before - escrow);

        let runner = j.draws[0].committee[0];
        let k = signer(&runner);
        let runner_before = node.account(&runner).balance;
        let answer = reveal_of(runner, br#"{"usd": 64000}"#, 3);
        let (r, _) = send(&node, engine, &k, commit_to(&id, &answer));
        assert_success(&r);
        let mut runner_fees = r.fee;
        let (r, _) = send(&node, engine, &k, reveal_all(&id, vec![answer.clone()]));
        assert_success(&r);
        runner_fees += r.fee;
        assert_eq!(job(&node, &id).status, JobStatus::Verified);

        // The callback runs in the next block with the verified result.
        let executed = node.block(engine, vec![]);
        let cb = receipt_of(&executed, &dispatcher::callback_id(&id, "verified"));
        assert_success(cb);
        let callback_fee = cb.fee;
        let (r, _) = send(&node, engine, &key(1), call(actor, "seen", vec![], 0));
        use cowboy_pvm::Value as V;
        assert_eq!(
            returned(&r),
            V::List(vec![
                V::Str("verified".into()),
                V::Bytes(br#"{"usd": 64000}"#.to_vec()),
                V::List(vec![V::Str(runner.to_string())]),
                V::Str("verified".into()),
            ])
        );

        // The window (3 blocks) ends; the next block pays 89 / 10 / 1.
        for _ in 0..3 {
            node.block(engine, vec![]);
        }
        let j = job(&node, &id);
        assert_eq!((j.status, j.escrow), (JobStatus::Settled, 0));
        let gross = CBY / 100 + 5;
        let (treasury, burn) = (gross / 100, gross / 10);
        assert_eq!(
            node.account(&runner).balance,
            runner_before - runner_fees + (gross - treasury - burn)
        );
        assert_eq!(node.account(&actors::TREASURY).balance, treasury);
        assert_eq!(node.account(&actors::JOB_DISPATCHER).balance, 0);
        assert_eq!(
            node.account(&actor).balance,
            held_before - gross - callback_fee,
            "the actor pays the price, the tip and its callback, and gets the rest back"
        );
        audit_holds(&node);
    });
}

/// An actor that did not declare `http.fetch` cannot submit an HTTP job, and a bad spec fails
/// in the actor with the rule it broke: nothing is escrowed either way.
#[test]
fn an_actor_without_the_entitlement_or_with_a_bad_spec_submits_nothing() {
    with_engine(|engine| {
        let node = node();
        let actor = fetcher(
            &node,
            engine,
            &[cowboy_types::entitlement::ActorEntitlement::LlmInfer],
            8,
            10 * CBY,
        );
        let held = node.account(&actor).balance;
        let (r, _) = fetch_job(&node, engine, actor);
        let (k, message) = failure(&r);
        assert_eq!(k, cowboy_pvm::ErrorKind::Exception.code(), "{message}");
        assert!(
            message.contains("PermissionError") && message.contains("http.fetch"),
            "{message}"
        );
        let allowed = fetcher(
            &node,
            engine,
            &[cowboy_types::entitlement::ActorEntitlement::HttpFetch],
            9,
            10 * CBY,
        );
        let (r, _) = send(&node, engine, &key(1), call(allowed, "bad", vec![], 0));
        let (_, message) = failure(&r);
        assert!(
            message.contains("ValueError") && message.contains("input.http.url"),
            "{message}"
        );
        // Too little balance to escrow: the whole call reverts with the dispatcher's reason.
        let poor = fetcher(
            &node,
            engine,
            &[cowboy_types::entitlement::ActorEntitlement::HttpFetch],
            10,
            CBY / 100,
        );
        let (r, _) = fetch_job(&node, engine, poor);
        let (k, message) = failure(&r);
        assert_eq!(k, kind::INSUFFICIENT_BALANCE, "{message}");
        assert!(message.starts_with("submit_job: "), "{message}");
        assert_eq!(node.account(&actor).balance, held);
        assert_eq!(node.account(&poor).balance, CBY / 100);
        assert_eq!(node.account(&actors::JOB_DISPATCHER).balance, 0);
        audit_holds(&node);
    });
}

fn grant(
    grantee: Address,
    scope: cowboy_types::entitlement::Scope,
    action: cowboy_types::entitlement::Action,
    constraints: cowboy_types::entitlement::Constraints,
) -> Instruction {
    Instruction::System(SystemInstruction::Entitlement(
        cowboy_types::entitlement::EntitlementOp::Grant {
            grantee,
            scope,
            action,
            constraints,
        },
    ))
}

/// CIP-2 §7.3: a job naming a pool draws only from runners holding its membership; a
/// membership whose `valid_until` has passed no longer counts (and is cleaned up), and a
/// revoked one neither.
#[test]
fn a_pool_job_selects_only_members_and_an_expired_membership_excludes_its_runner() {
    use cowboy_types::entitlement::{Action, Constraints, Name, Scope};
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let owner = key(1);
        let pool = Name::new(b"eu-tee".to_vec()).unwrap();
        let scope = Scope::RunnerPool(pool.clone());
        let join = Action::RunnerJoinPool(pool.clone());
        let members = [0u8, 2, 4].map(|i| runner_key(i).address());
        // Runner 4's membership ends at height 6.
        for (n, m) in members.iter().enumerate() {
            let constraints = Constraints {
                valid_until: (n == 2).then_some(6),
                revocable: true,
                ..Default::default()
            };
            let (r, _) = send(
                &node,
                engine,
                &owner,
                grant(*m, scope.clone(), join.clone(), constraints),
            );
            assert_success(&r);
        }
        // Nobody else may grant in the pool its first granter claimed.
        let (r, _) = send(
            &node,
            engine,
            &runner_key(1),
            grant(
                runner_key(1).address(),
                scope.clone(),
                join.clone(),
                Constraints::default(),
            ),
        );
        let (k, message) = failure(&r);
        assert_eq!(k, kind::MISSING_ENTITLEMENT, "{message}");
        assert!(message.contains("belongs to"), "{message}");

        let pooled = |mut s: JobSpec| {
            s.required_runner_pool = Some(pool.clone());
            s
        };
        let mode = serde_json::json!({"majority_vote": {"vote_field": "/usd"}});
        let (r, _) = send(
            &node,
            engine,
            &owner,
            submit(pooled(spec(callback, mode.clone(), 3))),
        );
        assert_success(&r);
        let j = job(&node, &id_of(&r));
        let mut candidates: Vec<Address> = j.candidates.iter().map(|c| c.address).collect();
        candidates.sort();
        let mut expected = members.to_vec();
        expected.sort();
        assert_eq!(
            candidates, expected,
            "only the pool's members are candidates"
        );

        // Past height 6 runner 4's membership is over: a 3-runner pool job finds 2.
        while node.height() <= 6 {
            node.block(engine, vec![]);
        }
        let (r, _) = send(
            &node,
            engine,
            &owner,
            submit(pooled(spec(callback, mode, 3))),
        );
        let (k, message) = failure(&r);
        assert_eq!(k, kind::NO_RUNNERS, "{message}");
        assert!(
            message.contains("2 of 6 registered runners qualify"),
            "{message}"
        );
        // A single-runner pool job is drawn from the two left.
        let (r, _) = send(
            &node,
            engine,
            &owner,
            submit(pooled(spec(callback, serde_json::json!({"none": {}}), 0))),
        );
        assert_success(&r);
        let j = job(&node, &id_of(&r));
        assert_eq!(j.candidates.len(), 2);
        assert!(members[..2].contains(&j.draws[0].committee[0]));
        // The expired record was deleted when the check met it.
        let expired = cowboy_types::entitlement::entitlement_id(&members[2], &scope, &join, None);
        assert!(
            world_of(&node, |w| cowboy_execution::entitlements::entitlement(
                w, &expired
            )
            .expect("decodes"))
            .is_none()
        );
        audit_holds(&node);
    });
}

/// `structured_match` on the pipeline: the result must satisfy the JSON Schema, the source must
/// match, the price must be in range and within 1% of the group's median. An honest pair
/// writing the same data differently agrees; a member outside the tolerance and one breaking
/// the schema lose their share and reputation; the job's result is the kept group's median.
#[test]
fn structured_match_keeps_the_results_that_pass_every_check() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let mode = serde_json::json!({"structured_match": {"checks": [
            {"json_schema": {}},
            {"field_match": {"field": "/src"}},
            {"numeric_range": {"field": "/usd", "min": 1, "max": 1000000}},
            {"numeric_tolerance": {"field": "/usd", "tolerance_bps": 100}}
        ]}});
        let mut s = spec(callback, mode, 5);
        s.verification.threshold = 3;
        s.schema.data_format = cowboy_types::job::DataFormat::Json {
            schema: Some(
                r#"{"type": "object", "required": ["usd", "src"], "properties": {"usd": {"type": "number"}, "src": {"type": "string"}}}"#
                    .try_into()
                    .unwrap(),
            ),
        };
        s.schema.max_return_bytes = 128;
        s.timeout_blocks = 10;
        let (r, _) = send(&node, engine, &key(1), submit(s.clone()));
        assert_success(&r);
        let id = id_of(&r);
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        let d = job(&node, &id).draws[0].clone();
        let members: Vec<Address> = d.committee.to_vec();
        let answers: std::collections::BTreeMap<Address, &[u8]> = [
            (members[0], br#"{"usd": 64000, "src": "cex"}"#.as_slice()),
            (members[1], br#"{"src": "cex", "usd": 64200.5}"#.as_slice()),
            (members[2], br#"{"usd": 63900, "src": "cex"}"#.as_slice()),
            (members[3], br#"{"usd": 70000, "src": "cex"}"#.as_slice()),
            (members[4], br#"{"usd": "64000", "src": "cex"}"#.as_slice()),
        ]
        .into_iter()
        .collect();
        let before: Vec<u64> = members
            .iter()
            .map(|m| runner(&node, m).reputation)
            .collect();
        run_committee(&node, engine, &id, |a| reveal_of(a, answers[&a], a.0[0]));
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified, "{}", j.failure);
        let paid: Vec<Address> = j.payouts.iter().map(|p| p.runner).collect();
        let kept = [members[0], members[1], members[2]];
        assert_eq!(paid.len(), 3);
        assert!(paid.iter().all(|p| kept.contains(p)), "{paid:?}");
        assert_eq!(
            j.result.as_ref().map(|b| b.to_vec()),
            Some(br#"{"usd": 64000, "src": "cex"}"#.to_vec()),
            "the lower median of 63,900, 64,000 and 64,200.5"
        );
        // Its key leaves the tolerance fields out, so it cannot be challenged.
        let bond = Parameters::spec().runner.challenge_bond;
        let (r, _) = send(&node, engine, &key(1), challenge(&id, bond));
        let (k, message) = failure(&r);
        assert_eq!(k, kind::INVALID_JOB);
        assert!(message.contains("cannot be challenged"), "{message}");
        // A reveal transaction must carry a reveal.
        let (r, _) = send(&node, engine, &signer(&members[0]), reveal_all(&id, vec![]));
        let (k, message) = failure(&r);
        assert_eq!(k, kind::INVALID_JOB);
        assert!(message.contains("carries no reveals"), "{message}");
        for (i, m) in members.iter().enumerate().skip(3) {
            assert_eq!(
                runner(&node, m).reputation,
                before[i] - 10,
                "{m} loses reputation"
            );
        }
        audit_holds(&node);

        // References (exponential to check), patterns and uniqueItems are refused at
        // submission; a property named like a keyword is not.
        for (schema, refused) in [
            (
                r#"{"$ref": "https://example.com/price.json"}"#,
                Some("`$ref` (at /$ref)"),
            ),
            (
                r##"{"$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {}}}"##,
                Some("`$ref` (at /$defs/a/allOf/0/$ref)"),
            ),
            (
                r#"{"properties": {"src": {"pattern": "^[a-z]+$"}}}"#,
                Some("`pattern`"),
            ),
            (
                r#"{"type": "array", "uniqueItems": true}"#,
                Some("`uniqueItems`"),
            ),
            (r#"{"properties": {"pattern": {"type": "string"}}}"#, None),
        ] {
            let mut t = s.clone();
            t.schema.data_format = cowboy_types::job::DataFormat::Json {
                schema: Some(schema.try_into().unwrap()),
            };
            let (r, _) = send(&node, engine, &key(1), submit(t));
            match refused {
                Some(says) => {
                    let (k, message) = failure(&r);
                    assert_eq!(k, kind::INVALID_JOB);
                    assert!(message.contains(says), "{message}");
                }
                None => assert_success(&r),
            }
        }
    });
}

/// Snapshot mode `median` (mutable external data): every valid result is paid and the job's
/// result is the lower median at the extraction rule; a result without a number there is not
/// valid.
#[test]
fn a_median_snapshot_takes_the_middle_value_and_pays_every_valid_result() {
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let mut s = spec(
            callback,
            serde_json::json!({"majority_vote": {"vote_field": "/usd"}}),
            4,
        );
        s.verification.threshold = 3;
        s.verification.snapshot = Some(cowboy_types::job::SnapshotMode::Median);
        s.timeout_blocks = 10;
        let (r, _) = send(&node, engine, &key(1), submit(s));
        let id = id_of(&r);
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        let members = job(&node, &id).draws[0].committee.to_vec();
        let answers: std::collections::BTreeMap<Address, &[u8]> = [
            (members[0], br#"{"usd": 64010}"#.as_slice()),
            (members[1], br#"{"usd": 63990}"#.as_slice()),
            (members[2], br#"{"usd": 64000}"#.as_slice()),
            (members[3], br#"{"eur": 59000}"#.as_slice()),
        ]
        .into_iter()
        .collect();
        run_committee(&node, engine, &id, |a| reveal_of(a, answers[&a], a.0[0]));
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified, "{}", j.failure);
        assert_eq!(
            j.result.as_ref().map(|b| b.to_vec()),
            Some(br#"{"usd": 64000}"#.to_vec())
        );
        let mut paid: Vec<Address> = j.payouts.iter().map(|p| p.runner).collect();
        paid.sort();
        let mut valid = members[..3].to_vec();
        valid.sort();
        assert_eq!(paid, valid);
        audit_holds(&node);
    });
}

/// `semantic_similarity` (LLM results that say the same thing differently): each reveal carries
/// its result's embedding, bound by the commitment; the largest cluster whose cosine similarity
/// meets the threshold is verified and its center's text is the result. A reveal without an
/// embedding is not a valid result, and a reveal whose embedding differs from the committed one
/// does not open its commitment.
#[test]
fn semantic_similarity_verifies_the_largest_similar_cluster() {
    with_engine(|engine| {
        let node = node_with(|p| {
            p.semantic_similarity_embedding_model.model_id = Some(Hash([0xe5; 32]));
        });
        let callback = callback_actor(&node, engine);
        let mut s = spec(
            callback,
            serde_json::json!({"semantic_similarity": {"threshold_bps": 9500}}),
            4,
        );
        s.schema.data_format = cowboy_types::job::DataFormat::Text {};
        s.timeout_blocks = 10;
        let (r, _) = send(&node, engine, &key(1), submit(s));
        assert_success(&r);
        let id = id_of(&r);
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        let members = job(&node, &id).draws[0].committee.to_vec();
        let q = |v: &[f64]| -> Vec<i16> { v.iter().map(|x| (x * 32767.0) as i16).collect() };
        let answers: std::collections::BTreeMap<Address, (&[u8], Vec<i16>)> = [
            (members[0], (b"Paris".as_slice(), q(&[0.6, 0.8, 0.0]))),
            (
                members[1],
                (b"It is Paris.".as_slice(), q(&[0.58, 0.81, 0.05])),
            ),
            (members[2], (b"paris".as_slice(), q(&[0.61, 0.79, 0.02]))),
            (members[3], (b"Lyon".as_slice(), q(&[0.1, 0.2, 0.97]))),
        ]
        .into_iter()
        .collect();
        let with_embedding = |a: Address| {
            let (text, e) = &answers[&a];
            let mut r = reveal_of(a, text, a.0[0]);
            r.embedding = e.clone().try_into().expect("fits");
            r
        };
        run_committee(&node, engine, &id, with_embedding);
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Verified, "{}", j.failure);
        let mut paid: Vec<Address> = j.payouts.iter().map(|p| p.runner).collect();
        paid.sort();
        let mut similar = members[..3].to_vec();
        similar.sort();
        assert_eq!(paid, similar);
        let center = j.result.as_ref().map(|b| b.to_vec()).expect("a result");
        assert!(
            [
                b"Paris".to_vec(),
                b"It is Paris.".to_vec(),
                b"paris".to_vec()
            ]
            .contains(&center),
            "{center:?}"
        );
        // The embedding is part of the commitment.
        let mut plain = reveal_of(members[0], b"Paris", 1);
        let committed = plain.commitment();
        plain.embedding = q(&[1.0]).try_into().expect("fits");
        assert_ne!(plain.commitment(), committed);
        audit_holds(&node);
    });
}

/// TEE (spec README "TEE"): a `tee_required` job (here `deterministic`) selects only runners
/// that declare a TEE *and* hold a valid attestation from the TEE Verifier — simulated on this
/// chain, signed with the devnet key. A forged attestation and one from a runner declaring no
/// TEE are refused; an expired one no longer qualifies its runner.
#[test]
fn tee_jobs_select_only_attested_runners() {
    use cowboy_execution::runners::tee;
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let mut s = spec(callback, serde_json::json!({"deterministic": {}}), 2);
        s.verification.tee_required = true;
        s.timeout_blocks = 10;
        let (r, _) = send(&node, engine, &key(1), submit(s.clone()));
        let (k, message) = failure(&r);
        assert_eq!(k, kind::NO_RUNNERS, "{message}");

        let attest = |a: &cowboy_types::tee::Attestation| {
            Instruction::System(SystemInstruction::RunnerAttest {
                attestation: Box::new(a.clone()),
            })
        };
        let secret = tee::devnet_simulated_secret();
        let measurement = Hash([0x3e; 32]);
        let [r0, r1, r2, r3] = [0u8, 1, 2, 3].map(|i| runner_key(i).address());
        // Runners 0 to 2 declare a TEE.
        for i in 0..3u8 {
            let mut p = profile();
            p.capabilities.tee = true;
            let (r, _) = send(
                &node,
                engine,
                &runner_key(i),
                Instruction::System(SystemInstruction::RunnerUpdate {
                    profile: Box::new(p),
                }),
            );
            assert_success(&r);
        }
        let h = node.height();
        for (runner, until) in [(r0, h + 1_000), (r1, h + 8)] {
            let a = tee::simulated_attestation(&secret, CHAIN_ID, &runner, measurement, until);
            let (r, _) = send(&node, engine, &signer(&runner), attest(&a));
            assert_success(&r);
        }
        // A statement for runner 0 replayed by runner 2, and one signed by another key.
        let stolen = tee::simulated_attestation(&secret, CHAIN_ID, &r0, measurement, h + 1_000);
        let (r, _) = send(&node, engine, &signer(&r2), attest(&stolen));
        assert_eq!(failure(&r).0, kind::INVALID_RUNNER, "{:?}", failure(&r).1);
        let forged = tee::simulated_attestation(&[9; 32], CHAIN_ID, &r2, measurement, h + 1_000);
        let (r, _) = send(&node, engine, &signer(&r2), attest(&forged));
        assert!(failure(&r).1.contains("not the simulation key's signature"));
        // Runner 3 declares no TEE.
        let own = tee::simulated_attestation(&secret, CHAIN_ID, &r3, measurement, h + 1_000);
        let (r, _) = send(&node, engine, &signer(&r3), attest(&own));
        assert!(failure(&r).1.contains("does not declare a TEE"));

        let (r, _) = send(&node, engine, &key(1), submit(s.clone()));
        assert_success(&r);
        let id = id_of(&r);
        let j = job(&node, &id);
        let mut candidates: Vec<Address> = j.candidates.iter().map(|c| c.address).collect();
        candidates.sort();
        let mut attested = vec![r0, r1];
        attested.sort();
        assert_eq!(candidates, attested, "only the attested runners");
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        run_committee(&node, engine, &id, |a| {
            reveal_of(a, br#"{"usd": 1}"#, a.0[0])
        });
        assert_eq!(job(&node, &id).status, JobStatus::Verified);

        // Runner 1's attestation has expired: a two-runner TEE job finds one.
        while node.height() <= h + 8 {
            node.block(engine, vec![]);
        }
        let (r, _) = send(&node, engine, &key(1), submit(s));
        let (k, message) = failure(&r);
        assert_eq!(k, kind::NO_RUNNERS, "{message}");
        assert!(
            message.contains("1 of 6 registered runners qualify"),
            "{message}"
        );
        audit_holds(&node);
    });
}

/// External faults (whitepaper "Payment and Failure Handling"): when at least the threshold of
/// the committee reports the same kind of fault, they are paid the lower median of the progress
/// they report as a share of the price (no tip), split 89 / 10 / 1; the job fails, the rest of
/// the escrow goes back, and the callback hears "failed".
#[test]
fn a_committee_reporting_an_external_fault_is_paid_its_progress() {
    use cowboy_types::job::{Fault, FaultKind};
    with_engine(|engine| {
        let node = node();
        let callback = callback_actor(&node, engine);
        let me = key(1).address();
        let mut s = spec(
            callback,
            serde_json::json!({"majority_vote": {"vote_field": "/usd"}}),
            3,
        );
        s.timeout_blocks = 10;
        s.callback.max_fee = CBY / 10;
        let (r, _) = send(&node, engine, &key(1), submit(s));
        assert_success(&r);
        let id = id_of(&r);
        let before = node.account(&me).balance;
        node.block(engine, vec![]);
        node.block(engine, vec![]);
        let d = job(&node, &id).draws[0].clone();
        let aggregator = d.aggregator;
        let answering = d
            .committee
            .iter()
            .copied()
            .find(|a| *a != aggregator)
            .unwrap();
        let progress = |a: Address| if a == aggregator { 4_000 } else { 6_000 };
        run_committee(&node, engine, &id, |a| {
            let mut r = reveal_of(a, br#"{"error": "503"}"#, a.0[0]);
            if a != answering {
                r.fault = Some(Fault {
                    kind: FaultKind::External,
                    progress_bps: progress(a),
                });
            } else {
                r.result = Bytes::new(br#"{"usd": 1}"#.to_vec()).unwrap();
            }
            r
        });
        let j = job(&node, &id);
        assert_eq!(j.status, JobStatus::Failed, "{}", j.failure);
        assert!(
            j.failure
                .contains("reported a fault (external) after 4000 bps"),
            "{}",
            j.failure
        );
        // The price (0.01 CBY per job) at 40%, no tip: treasury 1%, burn 10%, the rest to the
        // two reporters with the aggregator's 1.5% bonus.
        let gross = CBY / 100 * 4_000 / 10_000;
        let (treasury, burned) = (gross / 100, gross / 10);
        assert_eq!(j.treasury, treasury);
        assert!(
            j.burn >= burned,
            "10% burned, plus the dust of the equal shares"
        );
        let paid: u64 = j.payouts.iter().map(|p| p.amount).sum();
        assert_eq!(paid + j.treasury + j.burn, gross);
        assert_eq!(j.payouts.len(), 2);
        assert_eq!(node.account(&actors::TREASURY).balance, treasury);
        // The callback runs in the next block; afterwards the submitter has paid the share and
        // its callback, nothing else.
        let executed = node.block(engine, vec![]);
        let cb = receipt_of(&executed, &dispatcher::callback_id(&id, "failed"));
        assert_success(cb);
        let escrow = CBY / 10 + 5 + 2 * (CBY / 10);
        assert_eq!(
            node.account(&me).balance,
            before + escrow - gross - cb.fee,
            "the escrow comes back but for the share and the callback"
        );
        assert_eq!(node.account(&actors::JOB_DISPATCHER).balance, 0);
        audit_holds(&node);
    });
}
