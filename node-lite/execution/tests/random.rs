//! Randomized blocks: transfers, deploys, calls, nested sends, failing handlers, value sends,
//! actor and account timers, cancellations, per-actor budget deferrals, and runner-market
//! traffic (job submissions from accounts and actors, some malformed, some refused for a missing
//! entitlement, some for a runner pool; pool memberships granted, expiring and revoked;
//! commits, some reporting external faults; aggregator batches, some forged; own reveals; lies; silences; heartbeats; stake
//! top-ups after slashes), generated from a seed.
//! Each block is built by one replica and replayed by a second replica on its own thread and
//! engine; both must agree on the state root, the receipts and a balanced supply after every
//! block. A second test kills a process between (and during) block commits and checks the store
//! reopens at the last committed block with the same root a fresh replay computes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{Executed, Genesis, audit, params::Parameters, pipeline};
use cowboy_pvm::{Engine, Value};
use cowboy_types::{
    Address, Block, Hash, Instruction, Receipt, SystemInstruction, TimerSpec, Transaction,
    codec::encode_to_vec,
};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::sync::mpsc;

const WORKER: &str = r#"
import cowboy_sdk as sdk
from cowboy_sdk import actor, emit

@actor
class Worker:
    def __init__(self, peer=None):
        self.storage["n"] = 0
        self.peer = peer

    def bump(self, k):
        self.storage["n"] += k
        self.storage["k" + str(k % 7)] = k
        emit("Bump", k)
        return self.storage["n"]

    def fail(self, k):
        self.storage["n"] = -1
        raise ValueError(k)

    def relay(self, k):
        if self.peer:
            sdk.send(self.peer, "bump", k)
            if k % 3 == 0:
                sdk.send(self.peer, "fail", k)
        return k

    def pay(self, to, amount):
        sdk.send(to, "bump", 1, value=amount)
        return amount

    def later(self, k):
        return sdk.set_timer(sdk.block_height() + 1 + k % 5, "bump", k, cycles=60000, cells=2000)

    def every(self, k):
        return sdk.set_interval(1 + k % 4, "bump", k, cycles=60000, cells=2000,
                                expires_at=sdk.block_height() + 12)

    def stop(self, timer_id):
        return sdk.cancel_timer(timer_id)

    def burn(self, k):
        x = 0
        for i in range(k * 500):
            x += i
        self.storage["x"] = x
        return x

    def job(self, k):
        # An HTTP job from the actor (refused unless it declared http.fetch); every fourth one
        # only for the runner pool "p".
        return sdk.http_job("https://api.example.com/v", "bump", 10_000_000,
                            timeout_blocks=1 + k % 3, max_wall_ms=2000, max_return_bytes=64,
                            expected_execution_ms=100, callback_fee=10_000_000,
                            pool=b"p" if k % 4 == 0 else None)

    def spam(self, k):
        for i in range(k):
            sdk.send(sdk.self_address(), "burn", 20)
        return k
"#;

const KEYS: u8 = 6;

fn params() -> Parameters {
    let mut p = Parameters::spec();
    // Small enough that busy actors defer messages to later blocks often.
    p.execution.per_actor_per_block_cycles = 150_000;
    p
}

/// Genesis runners: keys 101..=100+RUNNERS.
const RUNNERS: u8 = 7;

fn runner_key(i: u8) -> cowboy_crypto::PrivateKey {
    key(101 + i)
}

fn random_genesis() -> Genesis {
    let mut funded: Vec<_> = (1..=KEYS)
        .map(|i| (key(i).address(), 1_000_000 * CBY))
        .collect();
    funded.extend((0..RUNNERS).map(|i| (runner_key(i).address(), 200_000 * CBY)));
    let mut p = params();
    p.runner.challenge_window_blocks = 4;
    p.aggregator.aggregator_timeout_blocks = 2;
    // Penalties recover within the run, so runners keep qualifying (and decay is exercised).
    p.reputation.half_life_blocks = 40;
    let mut g = genesis_with(p, &funded);
    let mut ed = [0x66u8; 32];
    ed[0] = 0x58;
    for i in 0..RUNNERS {
        g.runners.push(cowboy_execution::genesis::GenesisRunner {
            address: runner_key(i).address(),
            stake: cowboy_types::json::Amount(10_000 * CBY * (u64::from(i) + 1)),
            profile: cowboy_types::runner::RunnerProfile {
                key: cowboy_types::runner::RunnerKey::Ed25519(Hash(ed)),
                capabilities: cowboy_types::runner::Capabilities {
                    job_types: cowboy_types::runner::JobTypes::of(&[
                        cowboy_types::runner::JobType::Http,
                    ]),
                    ..Default::default()
                },
                rate_card: cowboy_types::runner::RateCard {
                    per_job: CBY / 1_000,
                    per_1k_tokens: 0,
                    per_second: CBY / 10_000,
                },
                max_concurrent_jobs: 3,
                max_job_value: 0,
                endpoint: "https://runner.example/push".into(),
            },
        });
    }
    g
}

/// A random job spec: one runner or a committee of three, a callback to `callback` (an
/// actor, or not), sometimes malformed.
fn random_job(rng: &mut StdRng, callback: Address) -> Instruction {
    let committee = rng.gen_bool(0.5);
    let mode = if committee {
        serde_json::json!({"majority_vote": {"vote_field": "/v"}})
    } else {
        serde_json::json!({"none": {}})
    };
    let mut spec: cowboy_types::job::JobSpec = serde_json::from_value(serde_json::json!({
        "input": {"http": {"method": "GET", "url": "https://api.example.com/v"}},
        "bounds": {"max_wall_ms": 2000},
        "schema": {"max_return_bytes": 64, "expected_execution_ms": 100,
                   "data_format": {"json": {}}},
        "verification": {"mode": mode, "runners": if committee { 3 } else { 0 }},
        "max_price": (CBY / 100).to_string(),
        "tip": rng.gen_range(0..1_000u64).to_string(),
        "timeout_blocks": rng.gen_range(1..4u64),
        "callback": {"actor": callback, "handler": "bump", "max_fee": (CBY / 100).to_string()}
    }))
    .expect("spec");
    if rng.gen_bool(0.1) {
        spec.timeout_blocks = 0; // refused: INVALID_JOB
    }
    if rng.gen_bool(0.3) {
        spec.required_runner_pool = Some(pool());
    }
    Instruction::System(SystemInstruction::JobSubmit {
        spec: Box::new(spec),
    })
}

/// The runner pool jobs name; key 1 owns it and grants its memberships.
fn pool() -> cowboy_types::entitlement::Name {
    cowboy_types::entitlement::Name::new(b"p".to_vec()).expect("fits")
}

/// A pool membership for `runner` granted (until `until`) or revoked by key 1.
fn membership(runner: Address, until: Option<u64>) -> Instruction {
    use cowboy_types::entitlement::{Action, Constraints, EntitlementOp, Scope, entitlement_id};
    let scope = Scope::RunnerPool(pool());
    let action = Action::RunnerJoinPool(pool());
    let op = match until {
        Some(h) => EntitlementOp::Grant {
            grantee: runner,
            scope,
            action,
            constraints: Constraints {
                valid_until: Some(h),
                revocable: true,
                ..Default::default()
            },
        },
        None => EntitlementOp::Revoke {
            entitlement_id: entitlement_id(&runner, &scope, &action, None),
        },
    };
    Instruction::System(SystemInstruction::Entitlement(op))
}

/// What runners do in the next block: members of assigned jobs commit (mostly), aggregators
/// reveal what they were told (mostly, sometimes with a forged entry), members reveal their
/// own after the aggregator's window, some lie, some stay silent.
fn runner_txs(rng: &mut StdRng, node: &Node, known: &mut Known) -> Vec<Transaction> {
    use cowboy_execution::runners::dispatcher;
    use cowboy_types::job::{JobStatus, Reveal};
    let mut out = Vec::new();
    let mut nonces: Vec<u64> = (0..RUNNERS)
        .map(|i| node.account(&runner_key(i).address()).nonce)
        .collect();
    let height = node.height() + 1;
    let snap = node.chain.store().snapshot().expect("snapshot");
    let world = cowboy_execution::world::World::new(cowboy_state::Overlay::new(&snap));
    let index = |a: &Address| (0..RUNNERS).find(|i| runner_key(*i).address() == *a);
    let mut send =
        |rng: &mut StdRng, i: u8, instruction: Instruction, out: &mut Vec<Transaction>| {
            let _ = rng;
            let t = tx_with(
                &runner_key(i),
                nonces[i as usize],
                instruction,
                400_000,
                400_000,
            );
            nonces[i as usize] += 1;
            out.push(t);
        };
    // Heartbeats keep the runners healthy (they are candidates for 600 blocks after each).
    for i in 0..RUNNERS {
        if rng.gen_bool(0.02) {
            send(
                rng,
                i,
                Instruction::System(SystemInstruction::RunnerHeartbeat),
                &mut out,
            );
        }
        // A runner slashed below the floor bonds more (sometimes).
        let slashed_out = world
            .runner(&runner_key(i).address())
            .expect("runner decodes")
            .is_some_and(|r| r.stake < 10_000 * CBY);
        if slashed_out && rng.gen_bool(0.2) {
            send(
                rng,
                i,
                Instruction::System(SystemInstruction::RunnerAddStake {
                    amount: 5_000 * CBY,
                }),
                &mut out,
            );
        }
    }
    for id in known.jobs.clone() {
        let Some(job) = dispatcher::load(&world, &id).expect("job decodes") else {
            continue;
        };
        // A dispute's re-execution commits and reveals like a first run.
        let stage = match (job.status, job.dispute.as_ref().map(|d| d.revealing)) {
            (JobStatus::Disputed, Some(false)) => JobStatus::Assigned,
            (JobStatus::Disputed, Some(true)) => JobStatus::Committed,
            (status, _) => status,
        };
        match stage {
            JobStatus::Assigned => {
                let Some(draw) = job.draws.last() else {
                    continue;
                };
                for member in draw.committee.iter() {
                    let Some(i) = index(member) else { continue };
                    if job.commitments.iter().any(|c| c.runner == *member) || !rng.gen_bool(0.6) {
                        continue;
                    }
                    let vote = if rng.gen_bool(0.85) { 1 } else { 2 };
                    let reveal = Reveal {
                        runner: *member,
                        result: cowboy_types::bounded::Bytes::new(
                            format!("{{\"v\": {vote}}}").into_bytes(),
                        )
                        .expect("fits"),
                        salt: Hash(rng.r#gen()),
                        tokens: 0,
                        ms: rng.gen_range(0..3_000),
                        embedding: Default::default(),
                        // Now and then a member reports an external fault instead.
                        fault: rng.gen_bool(0.05).then(|| cowboy_types::job::Fault {
                            kind: cowboy_types::job::FaultKind::External,
                            progress_bps: rng.gen_range(0..=10_000),
                        }),
                    };
                    send(
                        rng,
                        i,
                        Instruction::System(SystemInstruction::JobCommit {
                            job_id: id,
                            commitment: reveal.commitment(),
                        }),
                        &mut out,
                    );
                    known.reveals.push((id, reveal));
                }
            }
            JobStatus::Committed => {
                let mine: Vec<Reveal> = known
                    .reveals
                    .iter()
                    .filter(|(j, r)| {
                        *j == id
                            && job.commitments.iter().any(|c| c.runner == r.runner)
                            && !job.reveals.iter().any(|x| x.runner == r.runner)
                            && !job.slashed.contains(&r.runner)
                    })
                    .map(|(_, r)| r.clone())
                    .collect();
                let Some(aggregator) = job.draws.last().map(|d| d.aggregator) else {
                    continue;
                };
                let own_window = job.committed_at + 2;
                if height <= own_window {
                    if let (Some(i), true) = (index(&aggregator), rng.gen_bool(0.5)) {
                        let mut batch: Vec<Reveal> =
                            mine.iter().filter(|_| rng.gen_bool(0.8)).cloned().collect();
                        if let Some(first) = batch.first_mut().filter(|_| rng.gen_bool(0.1)) {
                            first.salt = Hash([0xee; 32]); // forged or mistaken
                        }
                        if !batch.is_empty() {
                            send(
                                rng,
                                i,
                                Instruction::System(SystemInstruction::JobReveal {
                                    job_id: id,
                                    reveals: cowboy_types::bounded::List::new(batch).expect("fits"),
                                }),
                                &mut out,
                            );
                        }
                    }
                } else {
                    for r in mine {
                        let Some(i) = index(&r.runner) else { continue };
                        if rng.gen_bool(0.4) {
                            send(
                                rng,
                                i,
                                Instruction::System(SystemInstruction::JobReveal {
                                    job_id: id,
                                    reveals: cowboy_types::bounded::List::new(vec![r])
                                        .expect("fits"),
                                }),
                                &mut out,
                            );
                        }
                    }
                }
            }
            // Now and then someone challenges a verified result.
            JobStatus::Verified if job.dispute.is_none() && rng.gen_bool(0.2) => {
                known.challenges.push(id);
            }
            _ => {}
        }
    }
    out
}

/// What the generator knows about the chain.
#[derive(Default)]
struct Known {
    actors: Vec<Address>,
    account_timers: Vec<(u8, Hash)>,
    actor_timers: Vec<(Address, String)>,
    /// Submission transactions, then the jobs they created.
    job_submissions: Vec<Hash>,
    /// Calls of actors' `job` handler (each returns its job's hex id).
    actor_job_calls: Vec<Hash>,
    jobs: Vec<Hash>,
    /// What each committed runner will reveal.
    reveals: Vec<(Hash, cowboy_types::job::Reveal)>,
    /// Verified jobs the next block challenges.
    challenges: Vec<Hash>,
}

impl Known {
    fn learn(&mut self, executed: &Executed, senders: &[(Hash, u8)]) {
        for (r, _) in &executed.receipts {
            if let Some(a) = r.created {
                self.actors.push(a);
            }
            if self.job_submissions.contains(&r.tx_hash) {
                if let Ok(Value::Bytes(b)) = Value::decode(&r.return_data) {
                    self.jobs.push(Hash::from_slice(&b).unwrap());
                }
                continue;
            }
            if self.actor_job_calls.contains(&r.tx_hash) {
                if let Ok(Value::Str(s)) = Value::decode(&r.return_data) {
                    self.jobs.push(s.parse().expect("a job id"));
                }
                continue;
            }
            if r.status != cowboy_types::Status::Success {
                continue;
            }
            if let Ok(v) = Value::decode(&r.return_data) {
                match v {
                    Value::Bytes(b) if b.len() == 32 => {
                        if let Some((_, k)) = senders.iter().find(|(h, _)| *h == r.tx_hash) {
                            self.account_timers
                                .push((*k, Hash::from_slice(&b).unwrap()));
                        }
                    }
                    Value::Str(s) if s.len() == 66 => {
                        if let Some(e) = r.events.first() {
                            self.actor_timers.push((e.emitter, s));
                        } else if let Some(d) = r.deliveries.first() {
                            self.actor_timers.push((d.to, s));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

fn pick<T: Clone>(rng: &mut StdRng, v: &[T]) -> Option<T> {
    if v.is_empty() {
        None
    } else {
        Some(v[rng.gen_range(0..v.len())].clone())
    }
}

/// Random transactions for the next block, with nonces from the committed state.
fn random_txs(
    rng: &mut StdRng,
    node: &Node,
    known: &mut Known,
) -> (Vec<Transaction>, Vec<(Hash, u8)>) {
    let n = rng.gen_range(0..10);
    let mut nonces: Vec<u64> = (1..=KEYS)
        .map(|i| node.account(&key(i).address()).nonce)
        .collect();
    let mut out = Vec::new();
    let mut senders = Vec::new();
    for _ in 0..n {
        let k = rng.gen_range(1..=KEYS);
        let sender = key(k);
        let nonce = nonces[(k - 1) as usize];
        let actor = pick(rng, &known.actors);
        let arg = rng.gen_range(0..40i64);
        let roll = rng.gen_range(0..100u32);
        let new_worker = |rng: &mut StdRng| {
            let peer = pick(rng, &known.actors)
                .map(|a| Value::Str(a.to_string()))
                .unwrap_or(Value::None);
            // Half declare http.fetch; the others' `job` calls are refused.
            let declared: &[cowboy_types::entitlement::ActorEntitlement] = if rng.gen_bool(0.5) {
                &[cowboy_types::entitlement::ActorEntitlement::HttpFetch]
            } else {
                &[]
            };
            deploy_declaring(WORKER, rng.r#gen(), vec![peer], declared, 0)
        };
        let instruction: Instruction = match actor {
            None if roll < 50 => new_worker(rng),
            None => transfer(
                key(rng.gen_range(1..=KEYS)).address(),
                rng.gen_range(1..1_000),
            ),
            Some(a) => match roll {
                0..=9 if known.actors.len() < 8 => new_worker(rng),
                0..=24 => transfer(
                    key(rng.gen_range(1..=KEYS)).address(),
                    rng.gen_range(1..1_000_000),
                ),
                25..=44 => call(a, "bump", vec![int(arg)], rng.gen_range(0..3)),
                45..=54 => call(a, "relay", vec![int(arg)], 0),
                55..=61 => call(a, "fail", vec![int(arg)], 5),
                62..=67 => call(
                    a,
                    if arg % 2 == 0 { "later" } else { "every" },
                    vec![int(arg)],
                    0,
                ),
                68..=72 => call(a, "spam", vec![int(arg % 9)], 0),
                73..=76 => call(a, "burn", vec![int(arg % 30)], 0),
                77..=80 => {
                    let to = pick(rng, &known.actors).unwrap_or(a);
                    // The worker pays out of what the call brings.
                    call(a, "pay", vec![Value::Str(to.to_string()), int(arg)], 100)
                }
                81..=86 => Instruction::System(SystemInstruction::SetTimer {
                    timer: TimerSpec {
                        actor: a,
                        handler: "bump".into(),
                        args: encode_args(vec![int(arg)]),
                        cycles_per_fire: 80_000,
                        cells_per_fire: 3_000,
                        expires_at: if arg % 2 == 0 {
                            Some(node.height() + 8)
                        } else {
                            None
                        },
                        bid: None,
                    },
                    height: node.height() + 1 + (arg as u64 % 6),
                }),
                // Cancels pick any account's timer: someone else's must fail cleanly.
                87..=89 => match pick(rng, &known.account_timers) {
                    Some((_, id)) => {
                        Instruction::System(SystemInstruction::CancelTimer { timer_id: id })
                    }
                    None => transfer(key(1).address(), 1),
                },
                90..=93 => match pick(rng, &known.actor_timers) {
                    Some((owner, id)) => call(owner, "stop", vec![Value::Str(id)], 0),
                    None => transfer(key(2).address(), 1),
                },
                94..=96 => call(a, "no_such_handler", vec![], 0),
                _ => Instruction::System(SystemInstruction::SetInterval {
                    timer: TimerSpec {
                        actor: a,
                        handler: "bump".into(),
                        args: encode_args(vec![int(1)]),
                        cycles_per_fire: 70_000,
                        cells_per_fire: 2_000,
                        expires_at: Some(node.height() + 15),
                        bid: None,
                    },
                    start_height: node.height() + 2,
                    every_blocks: 1 + arg as u64 % 3,
                }),
            },
        };
        let (cycles, cells) = if rng.gen_bool(0.1) {
            // Tight limits: some of these run out of cycles mid-way.
            (rng.gen_range(100_000..200_000), 5_000)
        } else {
            (1_500_000, 150_000)
        };
        let t = tx_with(&sender, nonce, instruction, cycles, cells);
        nonces[(k - 1) as usize] += 1;
        senders.push((t.digest(), k));
        out.push(t);
    }
    for id in std::mem::take(&mut known.challenges) {
        let k = rng.gen_range(1..=KEYS);
        let bond = Parameters::spec().runner.challenge_bond;
        let t = tx_with(
            &key(k),
            nonces[(k - 1) as usize],
            Instruction::System(SystemInstruction::JobChallenge { job_id: id, bond }),
            200_000,
            200_000,
        );
        nonces[(k - 1) as usize] += 1;
        out.push(t);
    }
    // Now and then an actor's job, paid from what the call brings.
    if let (true, Some(a)) = (rng.gen_bool(0.15), pick(rng, &known.actors)) {
        let k = rng.gen_range(1..=KEYS);
        let t = tx_with(
            &key(k),
            nonces[(k - 1) as usize],
            call(a, "job", vec![int(rng.gen_range(0..40i64))], CBY / 20),
            1_500_000,
            150_000,
        );
        nonces[(k - 1) as usize] += 1;
        known.actor_job_calls.push(t.digest());
        out.push(t);
    }
    // Pool memberships: key 1 grants them for a while, and revokes some.
    if rng.gen_bool(0.1) {
        let runner = runner_key(rng.gen_range(0..RUNNERS)).address();
        let until = rng
            .gen_bool(0.8)
            .then(|| node.height() + rng.gen_range(5..80));
        let t = tx_with(
            &key(1),
            nonces[0],
            membership(runner, until),
            200_000,
            20_000,
        );
        nonces[0] += 1;
        out.push(t);
    }
    // Now and then a job, its callback on a known actor (or on an address without one).
    if rng.gen_bool(0.25) {
        let k = rng.gen_range(1..=KEYS);
        let callback = pick(rng, &known.actors).unwrap_or(key(k).address());
        let t = tx_with(
            &key(k),
            nonces[(k - 1) as usize],
            random_job(rng, callback),
            1_500_000,
            150_000,
        );
        known.job_submissions.push(t.digest());
        out.push(t);
    }
    (out, senders)
}

/// How many jobs the Job Dispatcher holds in each status.
fn job_statuses(node: &Node) -> std::collections::BTreeMap<String, usize> {
    use cowboy_state::StateRead;
    let snap = node.chain.store().snapshot().expect("snapshot");
    let prefix = cowboy_types::state::key::storage(
        &cowboy_types::runner::actors::JOB_DISPATCHER,
        cowboy_execution::runners::dispatcher::keys::JOB,
    );
    let mut out = std::collections::BTreeMap::new();
    let mut after: Option<Vec<u8>> = None;
    loop {
        let page = snap.scan(&prefix, after.as_deref(), 256).expect("scan");
        for (_, v) in &page {
            let job: cowboy_types::job::JobRecord =
                cowboy_types::codec::decode_strict(v).expect("job decodes");
            *out.entry(job.status.name().to_owned()).or_insert(0) += 1;
            if job.spec.required_runner_pool.is_some() {
                *out.entry("for the pool".into()).or_insert(0) += 1;
            }
            if !(1..=KEYS).any(|i| key(i).address() == job.submitter) {
                *out.entry("from actors".into()).or_insert(0) += 1;
            }
            if let Some(d) = &job.dispute {
                *out.entry(format!("dispute {}", d.outcome)).or_insert(0) += 1;
            }
        }
        if page.len() < 256 {
            return out;
        }
        after = page.last().map(|(k, _)| k.clone());
    }
}

fn check_state(node: &Node) -> audit::SupplyAudit {
    let snap = node.chain.store().snapshot().expect("snapshot");
    let a = audit::supply(&snap).expect("audit");
    assert!(a.balanced(), "supply out of balance: {a:#?}");
    audit::timers(&snap).expect("timer indexes consistent");
    a
}

/// What a replica reports about a block it replayed.
type Report = (Hash, Vec<Receipt>, audit::SupplyAudit);

fn replica(genesis: Genesis, blocks: mpsc::Receiver<Block>, reports: mpsc::Sender<Report>) {
    with_engine(move |engine: &mut Engine| {
        let node = Node::new(&genesis);
        for block in blocks {
            // As a validator: the proposal and its claim, voted on, then executed once
            // finalized.
            let height = block.header.height;
            let verified = node
                .check(&block)
                .unwrap_or_else(|e| panic!("replica rejects block {height}: {e}"));
            let claimed = node
                .chain
                .outcome(block.header.state_height)
                .expect("outcome");
            pipeline::check_claim(&block.header, claimed.as_ref())
                .unwrap_or_else(|e| panic!("replica rejects the claim of block {height}: {e}"));
            let executed = node
                .chain
                .execute(engine, &block, Some(verified.into_iter().map(Ok).collect()))
                .unwrap_or_else(|e| panic!("replica cannot execute block {height}: {e}"));
            node.chain.commit(&executed).expect("commit");
            let audit = check_state(&node);
            let receipts = executed.receipts.into_iter().map(|(r, _)| r).collect();
            if reports
                .send((executed.outcome.state_root, receipts, audit))
                .is_err()
            {
                return;
            }
        }
    })
}

/// Builds `blocks` random blocks; returns the state root after each.
fn drive(
    engine: &mut Engine,
    node: &Node,
    seed: u64,
    blocks: u64,
    mut after_block: impl FnMut(&Executed),
) -> Vec<Hash> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut known = Known::default();
    let mut roots = Vec::new();
    for _ in 0..blocks {
        let (mut txs, senders) = random_txs(&mut rng, node, &mut known);
        txs.extend(runner_txs(&mut rng, node, &mut known));
        let executed = node.block(engine, txs);
        known.learn(&executed, &senders);
        roots.push(executed.outcome.state_root);
        after_block(&executed);
    }
    roots
}

fn block_count() -> u64 {
    std::env::var("COWBOY_RANDOM_BLOCKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

#[test]
fn two_replicas_agree_on_every_block_of_a_random_run() {
    let genesis = random_genesis();
    let (block_tx, block_rx) = mpsc::channel();
    let (report_tx, report_rx) = mpsc::channel();
    let g = genesis.clone();
    let verifier = std::thread::spawn(move || replica(g, block_rx, report_tx));
    let totals = with_engine(move |engine| {
        let node = Node::new(&genesis);
        let mut totals = (0usize, 0usize, 0usize, 0usize);
        drive(engine, &node, 7, block_count(), |executed| {
            let mine = check_state(&node);
            block_tx
                .send(executed.block.clone())
                .expect("replica alive");
            let (root, receipts, theirs) = report_rx.recv().expect("replica report");
            assert_eq!(root, executed.outcome.state_root, "state roots differ");
            let ours: Vec<Receipt> = executed.receipts.iter().map(|(r, _)| r.clone()).collect();
            assert_eq!(
                receipts.iter().map(encode_to_vec).collect::<Vec<_>>(),
                ours.iter().map(encode_to_vec).collect::<Vec<_>>(),
                "receipts differ at height {}",
                executed.block.header.height
            );
            assert_eq!(mine, theirs);
            totals.0 += executed.stats.transactions;
            totals.1 += executed.stats.deferred_delivered;
            totals.2 += executed.stats.timers_fired;
            totals.3 += ours
                .iter()
                .filter(|r| r.status != cowboy_types::Status::Success)
                .count();
        });
        drop(block_tx);
        let jobs = job_statuses(&node);
        eprintln!("jobs by status: {jobs:?}");
        let snap = node.chain.store().snapshot().expect("snapshot");
        let world = cowboy_execution::world::World::new(cowboy_state::Overlay::new(&snap));
        let busy: u64 = world
            .runners()
            .expect("runners")
            .iter()
            .map(|(_, r)| r.active_jobs)
            .sum();
        let open: usize = ["submitted", "assigned", "committed"]
            .iter()
            .map(|s| jobs.get(*s).copied().unwrap_or(0))
            .sum();
        if open == 0 {
            assert_eq!(busy, 0, "every job ended, so no runner is still busy");
        }
        let ended = |s: &str| jobs.get(s).copied().unwrap_or(0);
        assert!(
            block_count() < 500
                || (ended("settled") > 0 && ended("failed") > 0 && ended("dispute upheld") > 0),
            "the run must settle and fail jobs: {jobs:?}"
        );
        assert!(
            block_count() < 500 || (ended("for the pool") > 0 && ended("from actors") > 0),
            "the run must draw pool jobs and take jobs from actors: {jobs:?}"
        );
        totals
    });
    verifier.join().expect("replica thread");
    let (txs, deferred, fired, failed) = totals;
    eprintln!(
        "random run: {} blocks, {txs} transactions, {deferred} deferred deliveries, {fired} timer firings, {failed} failed receipts",
        block_count()
    );
    // The run must have exercised what it claims to.
    assert!(
        txs > 1_000 || block_count() < 500,
        "too few transactions: {txs}"
    );
    assert!(deferred > 0, "no message was ever deferred");
    assert!(fired > 0, "no timer ever fired");
    assert!(failed > 0, "no transaction ever failed");
}

// ---- crash and reopen ----

const CRASH_ENV: &str = "COWBOY_CRASH_CHILD_DIR";

/// In the child process: build blocks forever, logging each committed height.
fn crash_child(dir: &std::path::Path) {
    let genesis = random_genesis();
    with_engine({
        let dir = dir.to_owned();
        move |engine| {
            let chain =
                cowboy_execution::Chain::open(&dir.join("state.redb"), &genesis).expect("open");
            let node = Node {
                chain,
                dir: tempfile::tempdir().expect("tmp"),
                genesis: genesis.clone(),
            };
            let progress = dir.join("progress");
            drive(engine, &node, 11, u64::MAX, |executed| {
                // Written after the commit: the store may be one block ahead of this file.
                let _ = std::fs::write(&progress, executed.block.header.height.to_string());
            });
        }
    });
}

#[test]
fn a_killed_process_resumes_at_its_last_committed_block() {
    if let Ok(dir) = std::env::var(CRASH_ENV) {
        crash_child(std::path::Path::new(&dir));
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = std::env::current_exe().expect("test binary");
    for round in 0..3u64 {
        let mut child = std::process::Command::new(&exe)
            .args([
                "--exact",
                "a_killed_process_resumes_at_its_last_committed_block",
                "--nocapture",
            ])
            .env(CRASH_ENV, dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn child");
        let progress = dir.path().join("progress");
        let target = 15 + round * 10;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        loop {
            let h: u64 = std::fs::read_to_string(&progress)
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0);
            if h >= target {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "child made no progress"
            );
            if let Some(status) = child.try_wait().expect("wait") {
                panic!("child exited early: {status}");
            }
            std::thread::yield_now();
        }
        // SIGKILL, wherever it is: between blocks or in the middle of a commit.
        child.kill().expect("kill");
        child.wait().expect("reap");
    }
    // Reopen: the store is at some committed height with that height's root.
    let genesis = random_genesis();
    let reopened = cowboy_execution::Chain::open(&dir.path().join("state.redb"), &genesis)
        .expect("reopen after kill");
    let head = reopened.head().expect("head");
    let snap_root = reopened.store().snapshot().expect("snapshot").root;
    let head_outcome = reopened
        .outcome(head.height)
        .expect("outcome")
        .expect("the head is executed");
    assert_eq!(
        head_outcome.state_root, snap_root,
        "head block and state disagree"
    );
    assert!(head.height >= 35, "only reached {}", head.height);
    let h = head.height;
    drop(reopened);
    let store = cowboy_state::Store::open(&dir.path().join("state.redb")).expect("store");
    let blocks: Vec<Block> = (1..=h)
        .map(|i| store.block(i).expect("read").expect("block present"))
        .collect();
    drop(store);
    // Replaying the stored blocks on a fresh chain reproduces every header's claim and ends
    // at the reopened root.
    let reopened_root = head_outcome.state_root;
    with_engine(move |engine| {
        let node = Node::new(&random_genesis());
        let mut last = Hash::ZERO;
        for b in &blocks {
            let claimed = node.chain.outcome(b.header.state_height).expect("outcome");
            pipeline::check_claim(&b.header, claimed.as_ref()).expect("the claim replays");
            let executed = node
                .chain
                .execute(engine, b, None)
                .expect("stored block replays");
            node.chain.commit(&executed).expect("commit");
            last = executed.outcome.state_root;
        }
        assert_eq!(last, reopened_root);
    });
    // And the reopened chain keeps going.
    let chain =
        cowboy_execution::Chain::open(&dir.path().join("state.redb"), &genesis).expect("reopen");
    let node = Node {
        chain,
        dir,
        genesis,
    };
    with_engine(move |engine| {
        let before = node.height();
        node.block(engine, vec![]);
        assert_eq!(node.height(), before + 1);
        check_state(&node);
    });
}
