//! Block-level benchmarks of the state transition, each beside a baseline measured in the same
//! run (these machines are shared and noisy: read the ratios, not the absolute numbers).
//!
//! - **Transfers** executed and committed per second at 100 / 1,000 / 3,809 transactions per
//!   block (3,809 = the 80,000,000-cycle block of 21,000-cycle transfers), including recovering
//!   every sender (in parallel, once) and the redb commit with its state root. Baseline: raw
//!   `k256` public-key recovery on one core, times the cores. Goal: ≥ 0.8 of that ceiling at
//!   3,809 and ≥ 0.5 at 100. A validator is measured twice on the same blocks: *synced*, each
//!   block's commit waiting for its fsync, and *pipelined*, as a node applies finalized blocks
//!   (committed deferred, each fsync overlapping the next block's checks and execution).
//! - **Counter calls** per second of block processing: blocks of metered actor calls that read
//!   and write storage, beside the transfer rate.
//! - **Timers**: processing a block that fires 20 due timers while 1,000 or 1,000,000 other
//!   timers are pending. Goals: timer phases ≤ 1.2×, the whole block ≤ 2×, the latter both
//!   synced and pipelined (as for transfers).
//!
//! - **Jobs**: processing a block in which 20 jobs' commit deadlines pass (each penalising its
//!   runner and drawing again) while 100 or 100,000 other jobs are open. Goal: ratio ≤ 1.2.
//!
//! Run: `cargo bench -p cowboy-execution --bench chain` (add `-- --quick` for fewer blocks).
//! Name groups to run only them: `-- jobs timers`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_crypto::PrivateKey;
use cowboy_execution::{
    Chain, Genesis, Outcome, Parameters, Proposal, VerifiedTx,
    genesis::{Allocation, GenesisValidator},
    params::BASE_UNITS_PER_CBY,
    pipeline,
    world::World,
};
use cowboy_pvm::{Engine, Value};
use cowboy_state::{BlockRecord, Durability, Overlay};
use cowboy_types::{
    ActorInstruction, Address, Beacon, Block, Hash, Header, Instruction, Round, SystemInstruction,
    TimerRecord, Transaction,
    block::BEACON_SIGNATURE_LEN,
    json::{Amount, HexBytes},
};
use rayon::prelude::*;
use std::time::{Duration, Instant};

const CHAIN_ID: u64 = 42;
/// A transfer's cell limit: its encoded bytes (every byte is paid for in cells) with room.
const TRANSFER_CELLS: u64 = 200;
const CBY: u64 = BASE_UNITS_PER_CBY;

fn key(i: u32) -> PrivateKey {
    let mut b = [0u8; 32];
    b[0] = 0x51;
    b[28..].copy_from_slice(&(i + 1).to_be_bytes());
    PrivateKey::from_bytes(&b).expect("key")
}

fn validator() -> Address {
    Address([0xee; 20])
}

fn genesis(keys: &[PrivateKey], params: Parameters) -> Genesis {
    Genesis {
        chain_id: CHAIN_ID,
        genesis_time_ms: 0,
        allocations: keys
            .iter()
            .map(|k| Allocation {
                address: k.address(),
                balance: Amount(1_000_000 * CBY),
            })
            .collect(),
        validators: vec![GenesisValidator {
            address: validator(),
            stake: Amount(100_000 * CBY),
            public_key: HexBytes(vec![1; 32]),
        }],
        runners: Vec::new(),
        threshold_public: None,
        tee_simulated_key: None,
        parameters: params,
        carried: None,
    }
}

fn proposal(height: u64) -> Proposal {
    let mut signature = [0u8; BEACON_SIGNATURE_LEN];
    signature[..8].copy_from_slice(&height.to_be_bytes());
    Proposal {
        round: Round {
            epoch: 0,
            view: height,
        },
        timestamp_ms: height * 1_000,
        proposer: validator(),
        beacon: Beacon {
            round: Round {
                epoch: 0,
                view: height,
            },
            signature,
        },
    }
}

fn sign(
    key: &PrivateKey,
    nonce: u64,
    instruction: Instruction,
    cycles: u64,
    cells: u64,
) -> Transaction {
    let mut t = Transaction {
        chain_id: CHAIN_ID,
        nonce,
        instruction,
        cycles_limit: cycles,
        cells_limit: cells,
        max_fee_per_cycle: 50_000,
        max_fee_per_cell: 50_000,
        max_priority_fee_per_cycle: 1,
        max_priority_fee_per_cell: 0,
        from: key.address(),
        access_list: None,
        metadata: vec![],
        origin: None,
        signature: Default::default(),
        additional_signers: vec![],
    };
    cowboy_crypto::sign_transaction(&mut t, key).expect("sign");
    t
}

/// The block a proposer on `chain`'s head builds from `verified`, claiming the head's
/// post-state (the pipeline validators run).
fn assemble(chain: &Chain, verified: Vec<VerifiedTx>, height: u64) -> pipeline::Assembled {
    let chosen = chain.select(verified, &Default::default()).expect("select");
    let head = chain.head().expect("head");
    let claim = chain
        .outcome(head.height)
        .expect("outcome")
        .expect("the head is executed");
    pipeline::assemble(&head, &proposal(height), &claim, chosen)
}

/// Times one block: recover senders (parallel), select, execute, commit.
fn timed_block(
    engine: &mut Engine,
    chain: &Chain,
    txs: Vec<Transaction>,
) -> (Duration, usize, Block) {
    let params = chain.params().expect("params");
    let height = chain.head().expect("head").height + 1;
    let start = Instant::now();
    let verified: Vec<VerifiedTx> = cowboy_execution::verify_all(txs, CHAIN_ID, &params)
        .into_iter()
        .map(|r| r.expect("valid"))
        .collect();
    let recovered = start.elapsed();
    let assembled = assemble(chain, verified, height);
    let executed = chain
        .execute(
            engine,
            &assembled.block,
            Some(assembled.verified.into_iter().map(Ok).collect()),
        )
        .expect("block");
    let proposed = start.elapsed();
    chain.commit(&executed).expect("commit");
    if std::env::var_os("COWBOY_BENCH_PHASES").is_some() {
        eprintln!(
            "  phases: recover {:.1} ms, execute+root {:.1} ms, commit {:.1} ms",
            recovered.as_secs_f64() * 1e3,
            (proposed - recovered).as_secs_f64() * 1e3,
            (start.elapsed() - proposed).as_secs_f64() * 1e3
        );
    }
    (start.elapsed(), executed.stats.transactions, executed.block)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Raw k256 recoveries per second on one core (median of five runs of 2,000).
fn recovery_rate() -> f64 {
    use k256::ecdsa::{RecoveryId, Signature, SigningKey, VerifyingKey};
    let sk = SigningKey::from_slice(&[0x11; 32]).expect("key");
    let hash = [0x42u8; 32];
    let (sig, id): (Signature, RecoveryId) = sk.sign_prehash_recoverable(&hash);
    let n = 2_000;
    let mut rates = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..n {
            std::hint::black_box(
                VerifyingKey::recover_from_prehash(std::hint::black_box(&hash), &sig, id)
                    .expect("recover"),
            );
        }
        rates.push(n as f64 / start.elapsed().as_secs_f64());
    }
    median(rates)
}

/// Raw k256 recoveries per second with every core recovering.
fn parallel_recovery_rate() -> f64 {
    use k256::ecdsa::{RecoveryId, Signature, SigningKey, VerifyingKey};
    let sk = SigningKey::from_slice(&[0x11; 32]).expect("key");
    let hash = [0x42u8; 32];
    let (sig, id): (Signature, RecoveryId) = sk.sign_prehash_recoverable(&hash);
    let n = 8_000;
    let mut rates = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        (0..n).into_par_iter().for_each(|_| {
            std::hint::black_box(
                VerifyingKey::recover_from_prehash(std::hint::black_box(&hash), &sig, id)
                    .expect("recover"),
            );
        });
        rates.push(n as f64 / start.elapsed().as_secs_f64());
    }
    median(rates)
}

fn transfers(engine: &mut Engine, quick: bool) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let senders = 3_809u32;
    let keys: Vec<PrivateKey> = (0..senders).into_par_iter().map(key).collect();
    let g = genesis(&keys, Parameters::spec());
    let pdir = tempfile::tempdir().expect("tmp");
    let proposer = Chain::open(&pdir.path().join("s.redb"), &g).expect("genesis");
    let vdir = tempfile::tempdir().expect("tmp");
    let validator = Chain::open(&vdir.path().join("s.redb"), &g).expect("genesis");
    let ddir = tempfile::tempdir().expect("tmp");
    let pipelined = Chain::open(&ddir.path().join("s.redb"), &g).expect("genesis");
    let mut nonces = vec![0u64; keys.len()];
    let recovery = recovery_rate();
    println!(
        "raw k256 recovery: {recovery:.0}/s on one core, {:.0}/s on all {cores} cores at once; ratios below are against one core × {cores}, re-measured before every block",
        parallel_recovery_rate()
    );
    println!(
        "transfers executed and committed, senders recovered once (validator: when it checks the proposal; proposer: before selecting); \
         synced: each block fsynced before the next; pipelined: the same blocks back to back, each synced while the next executes, as a node applies them, until the last is on disk; \
         rates over all of a row's blocks, ratios against the mean of the row's baselines"
    );
    println!(
        "{:>10} {:>14} {:>8} {:>14} {:>8} {:>14} {:>8}",
        "tx/block", "synced tx/s", "ratio", "pipelined tx/s", "ratio", "proposer tx/s", "ratio"
    );
    for (per_block, blocks) in [(100usize, 20usize), (1_000, 6), (3_809, 4)] {
        let blocks = if quick { 2 } else { blocks };
        let (mut synced, mut proposed) = (Duration::ZERO, Duration::ZERO);
        let (mut ceilings, mut made) = (Vec::new(), Vec::new());
        for b in 0..blocks {
            let plan: Vec<(usize, u64, Address)> = (0..per_block)
                .map(|j| {
                    let i = (j + b * per_block) % keys.len();
                    let n = nonces[i];
                    nonces[i] += 1;
                    (i, n, keys[(i + 1) % keys.len()].address())
                })
                .collect();
            let txs: Vec<Transaction> = plan
                .into_par_iter()
                .map(|(i, n, to)| {
                    sign(
                        &keys[i],
                        n,
                        Instruction::System(SystemInstruction::Transfer { to, amount: 1 }),
                        21_000,
                        TRANSFER_CELLS,
                    )
                })
                .collect();
            // The baseline is measured next to every block: the machine's speed drifts.
            ceilings.push(recovery_rate() * cores as f64);
            let (t, included, block) = timed_block(engine, &proposer, txs);
            assert_eq!(included, per_block, "every transfer fits the block");
            proposed += t;
            let start = Instant::now();
            validate(engine, &validator, &block, Durability::Immediate);
            synced += start.elapsed();
            made.push(block);
        }
        // The same blocks again, back to back, as a node applies finalized blocks: no baseline
        // measured in between, which would give the disk time to catch up.
        ceilings.push(recovery_rate() * cores as f64);
        let piped = validate_pipelined(engine, &pipelined, &made);
        ceilings.push(recovery_rate() * cores as f64);
        let ceiling = ceilings.iter().sum::<f64>() / ceilings.len() as f64;
        let rate = |t: Duration| (per_block * made.len()) as f64 / t.as_secs_f64();
        let (v, d, p) = (rate(synced), rate(piped), rate(proposed));
        println!(
            "{per_block:>10} {v:>14.0} {:>8.2} {d:>14.0} {:>8.2} {p:>14.0} {:>8.2}",
            v / ceiling,
            d / ceiling,
            p / ceiling
        );
    }
}

/// As a validator: the proposal's checks (recovering every sender), then the finalized
/// block's execution and commit.
fn validate(engine: &mut Engine, chain: &Chain, block: &Block, durability: Durability) {
    let head = chain.head().expect("head");
    let checked = chain
        .check_transactions(&block.transactions)
        .expect("checks");
    let view = pipeline::View {
        round: block.header.round,
        leader: Some(self::validator()),
        now_ms: block.header.timestamp_ms,
        beacon_verified: &|_| true,
    };
    let params = chain.params().expect("params");
    let verified =
        pipeline::check_proposal(&head, block, &view, &params, checked).expect("valid proposal");
    let executed = chain
        .execute(engine, block, Some(verified.into_iter().map(Ok).collect()))
        .expect("executes");
    chain.commit_with(&executed, durability).expect("commit");
}

/// `blocks` validated back to back as a node applies finalized blocks: each committed deferred,
/// the disk synced on another thread (every block committed meanwhile in one sync) while the
/// next block is checked and executed; a commit waits for the sync in progress. Timed until the
/// last block is on disk.
fn validate_pipelined(engine: &mut Engine, chain: &Chain, blocks: &[Block]) -> Duration {
    let start = Instant::now();
    with_syncer(chain, |sync| {
        for block in blocks {
            validate(engine, chain, block, Durability::Deferred);
            sync();
        }
    });
    start.elapsed()
}

/// Runs `f` with a thread that syncs `chain` each time `f` calls the function it is given (every
/// block committed meanwhile in one sync), as a node's state sync thread does; returns once the
/// last sync asked for is done.
fn with_syncer<R>(chain: &Chain, f: impl FnOnce(&dyn Fn()) -> R) -> R {
    std::thread::scope(|s| {
        let (ask, asked) = std::sync::mpsc::channel::<()>();
        let syncer = s.spawn(move || {
            while asked.recv().is_ok() {
                while asked.try_recv().is_ok() {}
                chain.sync().expect("sync");
            }
        });
        let out = f(&|| ask.send(()).expect("the syncer runs"));
        drop(ask);
        syncer.join().expect("syncer");
        out
    })
}

const COUNTER: &str = r#"
from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        return self.storage["count"]
"#;

const EMITTER: &str = r#"
from cowboy_sdk import actor, emit

@actor
class Emitter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        emit("Counted", self.storage["count"])
        return self.storage["count"]
"#;

/// Block processing with the event index on and off (`event_index` in a node's config): the
/// same blocks of calls that each emit one event, applied to two stores.
fn event_index(engine: &mut Engine, quick: bool) {
    let on = calls(engine, EMITTER, true, quick);
    let off = calls(engine, EMITTER, false, quick);
    println!(
        "event index: {on:.0} calls per second with it, {off:.0} without ({:.3}x the time with it; 500 events per block)",
        off / on
    );
}

fn counters(engine: &mut Engine, quick: bool) {
    let rate = calls(engine, COUNTER, true, quick);
    println!(
        "counter calls: {rate:.0} per second of block processing (500 calls per block over 10 actors)"
    );
}

/// Calls per second of block processing: 500 calls a block to ten actors of `code`.
fn calls(engine: &mut Engine, code: &str, event_index: bool, quick: bool) -> f64 {
    let callers = 1_000u32;
    let actors = 10usize;
    let keys: Vec<PrivateKey> = (0..callers).into_par_iter().map(key).collect();
    let dir = tempfile::tempdir().expect("tmp");
    let chain = Chain::open_with(
        &dir.path().join("s.redb"),
        &genesis(&keys, Parameters::spec()),
        std::sync::Arc::new(NeverFull),
        cowboy_state::StoreOptions { event_index },
    )
    .expect("genesis");
    let deploys: Vec<Transaction> = (0..actors)
        .map(|i| {
            sign(
                &keys[i],
                0,
                Instruction::Actor(ActorInstruction::Deploy {
                    code: code.into(),
                    salt: Hash([i as u8; 32]),
                    init_args: Value::List(vec![]).encode().expect("args"),
                    value: 0,
                    entitlements: Default::default(),
                }),
                1_000_000,
                10_000,
            )
        })
        .collect();
    timed_block(engine, &chain, deploys);
    let code_hash = cowboy_types::code_hash(&cowboy_types::canonicalize_source(code));
    let targets: Vec<Address> = (0..actors)
        .map(|i| cowboy_types::actor_address(&keys[i].address(), &Hash([i as u8; 32]), &code_hash))
        .collect();
    let mut nonces: Vec<u64> = (0..callers as usize)
        .map(|i| u64::from(i < actors))
        .collect();
    let args = Value::List(vec![]).encode().expect("args");
    let per_block = 500usize;
    let blocks = if quick { 2 } else { 6 };
    let mut rates = Vec::new();
    for b in 0..blocks {
        let plan: Vec<(usize, u64, Address)> = (0..per_block)
            .map(|j| {
                let i = (j + b * per_block) % callers as usize;
                let n = nonces[i];
                nonces[i] += 1;
                (i, n, targets[j % actors])
            })
            .collect();
        let txs: Vec<Transaction> = plan
            .into_par_iter()
            .map(|(i, n, to)| {
                sign(
                    &keys[i],
                    n,
                    Instruction::Actor(ActorInstruction::Message {
                        to,
                        method: "increment".into(),
                        args: args.clone(),
                        value: 0,
                    }),
                    60_000,
                    1_000,
                )
            })
            .collect();
        let (t, included, _) = timed_block(engine, &chain, txs);
        assert_eq!(included, per_block);
        rates.push(per_block as f64 / t.as_secs_f64());
    }
    median(rates)
}

/// A disk that never fills (the benchmark's stores are small).
struct NeverFull;

impl cowboy_state::FullDisk for NeverFull {
    fn wait_for_space(&self, _file: &std::path::Path) -> bool {
        false
    }
}

const TICK: &str = r#"
class Actor:
    def __init__(self):
        pass

    def tick(self):
        return 1
"#;

/// A chain whose state holds `pending` timers far in the future plus 20 due at each of the next
/// `blocks` heights, written directly into state (scheduling a million timers through
/// transactions would take 1,000 creators and hours).
fn timer_chain(engine: &mut Engine, pending: usize, blocks: u64) -> (tempfile::TempDir, Chain) {
    let keys: Vec<PrivateKey> = (0..2).map(key).collect();
    let dir = tempfile::tempdir().expect("tmp");
    let chain = Chain::open(
        &dir.path().join("s.redb"),
        &genesis(&keys, Parameters::spec()),
    )
    .expect("genesis");
    let deploy = sign(
        &keys[0],
        0,
        Instruction::Actor(ActorInstruction::Deploy {
            code: TICK.into(),
            salt: Hash::ZERO,
            init_args: Value::List(vec![]).encode().expect("args"),
            value: 0,
            entitlements: Default::default(),
        }),
        1_000_000,
        10_000,
    );
    let fund_actor = |actor: Address| {
        sign(
            &keys[1],
            0,
            Instruction::System(SystemInstruction::Transfer {
                to: actor,
                amount: 100_000 * CBY,
            }),
            21_000,
            TRANSFER_CELLS,
        )
    };
    let code_hash = cowboy_types::code_hash(&cowboy_types::canonicalize_source(TICK));
    let actor = cowboy_types::actor_address(&keys[0].address(), &Hash::ZERO, &code_hash);
    timed_block(engine, &chain, vec![deploy, fund_actor(actor)]);
    // Write the timers as a block of their own.
    commit_written(&chain, |world, head| {
        let args = Value::List(vec![]).encode().expect("args");
        let timer = |next_height: u64| TimerRecord {
            creator: actor,
            fee_payer: actor,
            actor,
            handler: "tick".into(),
            args: args.clone(),
            next_height,
            every: 0,
            cycles_per_fire: 20_000,
            cells_per_fire: 200,
            expires_at: None,
            seq: 0,
            bid: None,
        };
        for i in 0..pending {
            let mut id = [0u8; 32];
            id[..8].copy_from_slice(&(i as u64).to_be_bytes());
            id[8] = 0xf0;
            world
                .insert_timer(&Hash(id), timer(1_000_000_000 + i as u64 % 1_000))
                .expect("timer");
        }
        for h in 0..blocks {
            for j in 0..20u64 {
                let mut id = [0u8; 32];
                id[..8].copy_from_slice(&h.to_be_bytes());
                id[8..16].copy_from_slice(&j.to_be_bytes());
                id[16] = 0xd0;
                world
                    .insert_timer(&Hash(id), timer(head.height + 2 + h))
                    .expect("timer");
            }
        }
    });
    (dir, chain)
}

fn timers(engine: &mut Engine, quick: bool) {
    let blocks = if quick { 3 } else { 8 };
    let big = if quick { 100_000 } else { 1_000_000 };
    let (mut phase, mut whole, mut piped) = (Vec::new(), Vec::new(), Vec::new());
    for pending in [1_000usize, big] {
        let setup = Instant::now();
        let (_dir, chain) = timer_chain(engine, pending, 2 * blocks);
        let setup = setup.elapsed();
        let (mut p, mut w, mut d) = (Vec::new(), Vec::new(), Vec::new());
        // A block: assemble, execute (with the state root) and commit; its time, and the time
        // of its timer phases.
        let block = |engine: &mut Engine, durability: Durability| {
            let height = chain.head().expect("head").height + 1;
            let start = Instant::now();
            let assembled = assemble(&chain, vec![], height);
            let executed = chain
                .execute(engine, &assembled.block, Some(vec![]))
                .expect("block");
            let executed_at = start.elapsed();
            chain.commit_with(&executed, durability).expect("commit");
            if std::env::var_os("COWBOY_BENCH_PHASES").is_some() {
                eprintln!(
                    "  phases ({durability:?}): assemble+execute+root {:.1} ms (timers {:.1} ms), commit {:.1} ms",
                    executed_at.as_secs_f64() * 1e3,
                    executed.stats.timer_time.as_secs_f64() * 1e3,
                    (start.elapsed() - executed_at).as_secs_f64() * 1e3
                );
            }
            assert_eq!(executed.stats.timers_fired, 20, "20 timers due per block");
            (
                start.elapsed().as_secs_f64() * 1e3,
                executed.stats.timer_time.as_secs_f64() * 1e3,
            )
        };
        // Synced, each block's commit waiting for its fsync.
        for _ in 0..blocks {
            let (whole, timers) = block(engine, Durability::Immediate);
            w.push(whole);
            p.push(timers);
        }
        // Pipelined, as a node applies finalized blocks: each block's time includes waiting
        // for the previous block's sync.
        with_syncer(&chain, |sync| {
            for _ in 0..blocks {
                d.push(block(engine, Durability::Deferred).0);
                sync();
            }
        });
        let (p, w, d) = (median(p), median(w), median(d));
        println!(
            "timers: {pending:>9} pending, 20 firing: timer phases {p:.2} ms, whole block with state root and commit {w:.2} ms synced, {d:.2} ms pipelined (state written in {:.1} s)",
            setup.as_secs_f64()
        );
        phase.push(p);
        whole.push(w);
        piped.push(d);
    }
    println!(
        "timers: {big} vs 1,000 pending: timer processing {:.2}× (goal ≤ 1.2); whole block {:.2}× synced, {:.2}× pipelined (goal ≤ 2; the state root's O(log n) tree depth)",
        phase[1] / phase[0],
        whole[1] / whole[0],
        piped[1] / piped[0]
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let run = move |name: &str| only.is_empty() || only.iter().any(|o| name.contains(o.as_str()));
    std::thread::Builder::new()
        .name("exec".into())
        .stack_size(cowboy_pvm::thread::STACK_BYTES)
        .spawn(move || {
            let mut engine = Engine::new().expect("PVM");
            if run("transfers") {
                transfers(&mut engine, quick);
            }
            if run("counters") {
                counters(&mut engine, quick);
            }
            if run("event_index") {
                event_index(&mut engine, quick);
            }
            if run("timers") {
                timers(&mut engine, quick);
            }
            if run("jobs") {
                jobs(&mut engine, quick);
            }
        })
        .expect("thread")
        .join()
        .expect("bench");
}

/// A chain with five runners, `open` jobs whose commit deadlines are far away, and 20 jobs
/// whose deadlines pass in each of the next `blocks` blocks, written as one block of its own.
fn job_chain(open: usize, blocks: u64) -> (tempfile::TempDir, Chain) {
    use cowboy_execution::runners::dispatcher::keys as job_keys;
    use cowboy_types::{
        bounded::List,
        job::{Draw, DrawCandidate, JobRecord, JobSpec, JobStatus},
        runner::{Capabilities, JobType, JobTypes, RunnerKey, RunnerProfile, actors},
    };
    let keys: Vec<PrivateKey> = (0..2).map(key).collect();
    let runners: Vec<PrivateKey> = (100..105).map(key).collect();
    let mut g = genesis(&keys, Parameters::spec());
    let mut ed = [0x66u8; 32];
    ed[0] = 0x58;
    for r in &runners {
        g.runners.push(cowboy_execution::genesis::GenesisRunner {
            address: r.address(),
            stake: Amount(10_000 * CBY),
            profile: RunnerProfile {
                key: RunnerKey::Ed25519(Hash(ed)),
                capabilities: Capabilities {
                    job_types: JobTypes::of(&[JobType::Http]),
                    ..Default::default()
                },
                rate_card: Default::default(),
                max_concurrent_jobs: 1_024,
                max_job_value: 0,
                endpoint: "https://runner.example".into(),
            },
        });
    }
    let dir = tempfile::tempdir().expect("tmp");
    let chain = Chain::open(&dir.path().join("s.redb"), &g).expect("genesis");
    let spec: JobSpec = serde_json::from_value(serde_json::json!({
        "input": {"http": {"method": "GET", "url": "https://api.example.com/v"}},
        "bounds": {"max_wall_ms": 1000},
        "schema": {"max_return_bytes": 64, "expected_execution_ms": 100, "data_format": {"bytes": {}}},
        "verification": {"mode": {"none": {}}},
        "max_price": "1000",
        "timeout_blocks": 5,
        "callback": {"actor": "0x0000000000000000000000000000000000000042", "handler": "done"}
    }))
    .expect("spec");
    let candidates: Vec<DrawCandidate> = {
        let mut c: Vec<DrawCandidate> = runners
            .iter()
            .map(|r| DrawCandidate {
                address: r.address(),
                stake: 10_000 * CBY,
            })
            .collect();
        c.sort_by_key(|c| c.address.0);
        c
    };
    commit_written(&chain, |world, head| {
        let job = |i: u64, deadline: u64| {
            let mut id = [0u8; 32];
            id[..8].copy_from_slice(&i.to_be_bytes());
            id[8] = 0x10;
            JobRecord {
                id: Hash(id),
                submitter: keys[0].address(),
                submitted_at: head.height,
                bound_epoch: 0,
                bound_view: head.height,
                spec: spec.clone(),
                escrow: 0,
                committee_size: 1,
                threshold: 1,
                snapshot_root: Hash::ZERO,
                candidates: List::new(candidates.clone()).expect("fits"),
                min_stake: 10_000 * CBY,
                status: JobStatus::Assigned,
                deadline,
                draws: List::new(vec![Draw {
                    round_epoch: 0,
                    round_view: head.height,
                    beacon: cowboy_types::bounded::Bytes::new(vec![7; 48]).expect("fits"),
                    seed: Hash(id),
                    retry: 0,
                    unavailable: List::default(),
                    committee: List::new(vec![candidates[(i % 5) as usize].address]).expect("fits"),
                    aggregator: candidates[(i % 5) as usize].address,
                }])
                .expect("fits"),
                excluded: List::default(),
                commitments: List::default(),
                committed_at: 0,
                reveals: List::default(),
                slashed: List::default(),
                result: None,
                payouts: List::default(),
                burn: 0,
                treasury: 0,
                failure: Default::default(),
                dispute: None,
                callbacks_pending: 0,
            }
        };
        let mut put = |j: &JobRecord| {
            world.set_storage(
                &actors::JOB_DISPATCHER,
                &job_keys::job(&j.id),
                Some(&cowboy_execution::world::encode_record(j)),
            );
            world.set_storage(
                &actors::JOB_DISPATCHER,
                &job_keys::deadline(j.deadline, &j.id),
                Some(&[]),
            );
        };
        for i in 0..open as u64 {
            put(&job(i, 1_000_000_000 + i % 1_000));
        }
        for h in 0..blocks {
            for k in 0..20u64 {
                // Due at head + 1 + h, handled in the block after it.
                put(&job(10_000_000 + h * 100 + k, head.height + 1 + h));
            }
        }
    });
    (dir, chain)
}

fn jobs(engine: &mut Engine, quick: bool) {
    let blocks = if quick { 3 } else { 8 };
    let mut phase = Vec::new();
    let mut whole = Vec::new();
    for open in [100usize, 100_000] {
        let setup = Instant::now();
        let (_dir, chain) = job_chain(open, blocks + 1);
        let setup = setup.elapsed();
        let (mut p, mut w) = (Vec::new(), Vec::new());
        // The first block after the write has no deadline due yet.
        let height = chain.head().expect("head").height + 1;
        let assembled = assemble(&chain, vec![], height);
        let executed = chain
            .execute(engine, &assembled.block, Some(vec![]))
            .expect("block");
        chain.commit(&executed).expect("commit");
        for _ in 0..blocks {
            let height = chain.head().expect("head").height + 1;
            let start = Instant::now();
            let assembled = assemble(&chain, vec![], height);
            let executed = chain
                .execute(engine, &assembled.block, Some(vec![]))
                .expect("block");
            chain.commit(&executed).expect("commit");
            w.push(start.elapsed().as_secs_f64() * 1e3);
            p.push(executed.stats.job_time.as_secs_f64() * 1e3);
        }
        let (p, w) = (median(p), median(w));
        println!(
            "jobs: {open:>7} open, 20 deadlines per block: jobs phase {p:.2} ms, whole block with state root and commit {w:.2} ms (state written in {:.1} s)",
            setup.as_secs_f64()
        );
        phase.push(p);
        whole.push(w);
    }
    println!(
        "jobs: 100,000 vs 100 open: jobs phase {:.2}× (goal ≤ 1.2); whole block {:.2}×",
        phase[1] / phase[0],
        whole[1] / whole[0]
    );
}

/// Commits what `write` writes over the chain's head as a block of its own: the benches write
/// large states directly rather than through transactions.
fn commit_written(chain: &Chain, write: impl FnOnce(&mut World<'_>, &Header)) {
    let head = chain.head().expect("head");
    let snapshot = chain.store().snapshot().expect("snapshot");
    let mut world = World::new(Overlay::new(&snapshot));
    write(&mut world, &head);
    let basefees = world.basefees().expect("basefees");
    let changes = world.overlay.into_changes().expect("changes");
    let prepared = chain.store().prepare(&snapshot, changes).expect("prepare");
    drop(snapshot);
    let claim = chain
        .outcome(head.height)
        .expect("outcome")
        .expect("the head is executed");
    let block = Block {
        header: Header {
            parent: head.digest(),
            height: head.height + 1,
            round: head.round,
            timestamp_ms: head.timestamp_ms,
            proposer: validator(),
            beacon: head.beacon,
            tx_root: cowboy_execution::roots::tx_root(&[]),
            state_height: claim.height,
            state_root: claim.state_root,
            receipts_root: claim.receipts_root,
            cycle_basefee: claim.cycle_basefee,
            cell_basefee: claim.cell_basefee,
        },
        transactions: vec![],
    };
    let outcome = Outcome {
        height: head.height + 1,
        state_root: prepared.root,
        receipts_root: cowboy_execution::roots::receipts_root(&[]),
        cycle_basefee: basefees.cycle,
        cell_basefee: basefees.cell,
    }
    .to_bytes();
    chain
        .store()
        .commit(
            &prepared,
            &BlockRecord {
                block: &block,
                hash: block.header.digest(),
                receipts: &[],
                outcome: &outcome,
                traces: &[],
                timer_firings: &[],
            },
            Durability::Immediate,
        )
        .expect("commit the written state");
}
