//! Deterministic simulations of validators on Commonware's simulated network: 1 and 4
//! validators finalize; with one of 4 crashed the rest keep finalizing; a partition heals and
//! everyone converges; a restarted validator catches up; transfers and actor calls sent to
//! different validators are gossiped, included and executed with the same receipts
//! everywhere; every node has the same state root at every height; the same seed run twice
//! gives the same result.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use commonware_cryptography::{Signer, ed25519};
use commonware_p2p::simulated::{self, Link, Network};
use commonware_runtime::{Clock, Handle, Quota, Runner, Spawner, Supervisor, deterministic};
use commonware_utils::{NZU32, NZUsize};
use cowboy_execution::{Genesis, GenesisValidator};

use cowboy_node::crypto::PrivateKey;
use cowboy_node::{
    consensus::{self, Channels, Timing, Validator, channel, keys},
    core::{Core, CoreOptions},
};
use cowboy_types::{
    ActorInstruction, Address, Hash, Instruction, SystemInstruction, Transaction,
    json::{Amount, HexBytes},
};
use rand_core_010::SeedableRng;
use std::{collections::HashMap, sync::Arc, time::Duration};

const LINK: Link = Link {
    latency: Duration::from_millis(20),
    jitter: Duration::from_millis(5),
    success_rate: commonware_utils::probability!(1.0),
};

const CHAIN_ID: u64 = 77;
/// Funded accounts of the transaction workload.
const SENDERS: u8 = 4;

fn sender(i: u8) -> PrivateKey {
    PrivateKey::from_bytes(&[i + 1; 32]).expect("key")
}

struct Net {
    identities: Vec<ed25519::PrivateKey>,
    genesis: Genesis,
    shares: Vec<Vec<u8>>,
    dirs: Vec<tempfile::TempDir>,
}

fn net(n: usize, seed: u64) -> Net {
    let identities: Vec<_> = (0..n as u64)
        .map(|i| ed25519::PrivateKey::from_seed(seed * 100 + i))
        .collect();
    let publics: Vec<_> = identities.iter().map(|k| k.public_key()).collect();
    let rng = rand_chacha_010::ChaCha20Rng::seed_from_u64(seed);
    let (polynomial, dealt) = keys::deal_with(rng, &publics).expect("deal");
    let genesis = Genesis {
        chain_id: CHAIN_ID,
        genesis_time_ms: 0,
        allocations: (0..SENDERS)
            .map(|i| cowboy_execution::Allocation {
                address: sender(i).address(),
                balance: Amount(1_000_000_000_000_000_000),
            })
            .collect(),
        validators: publics
            .iter()
            .enumerate()
            .map(|(i, pk)| GenesisValidator {
                address: Address([i as u8 + 1; 20]),
                stake: Amount(1_000_000_000),
                public_key: HexBytes(commonware_codec::Encode::encode(pk).to_vec()),
            })
            .collect(),
        runners: Vec::new(),
        threshold_public: Some(HexBytes(keys::encode_polynomial(&polynomial))),
        tee_simulated_key: None,
        parameters: Default::default(),
        carried: None,
    };
    let shares = publics
        .iter()
        .map(|pk| {
            let (_, s) = dealt.iter().find(|(k, _)| k == pk).expect("share");
            keys::encode_share(s)
        })
        .collect();
    Net {
        identities,
        genesis,
        shares,
        dirs: (0..n)
            .map(|_| tempfile::tempdir().expect("tempdir"))
            .collect(),
    }
}

/// Starts validator `i` in its own supervised task (aborting the task crashes it: every task
/// it started stops); returns the task and the validator's core.
async fn start_validator(
    context: &deterministic::Context,
    oracle: &simulated::Oracle<ed25519::PublicKey, deterministic::Context>,
    net: &Net,
    i: usize,
    generation: u32,
) -> (Handle<()>, Arc<Core>) {
    start_validator_with(context, oracle, net, i, generation, None).await
}

/// [`start_validator`], proposing with `fault` if given.
async fn start_validator_with(
    context: &deterministic::Context,
    oracle: &simulated::Oracle<ed25519::PublicKey, deterministic::Context>,
    net: &Net,
    i: usize,
    generation: u32,
    fault: Option<Fault>,
) -> (Handle<()>, Arc<Core>) {
    let identity = net.identities[i].clone();
    let core = Core::open(
        net.dirs[i].path(),
        &net.genesis,
        CoreOptions {
            blocking: true,
            ..Default::default()
        },
    )
    .expect("core");
    let publics: Vec<_> = net.identities.iter().map(|k| k.public_key()).collect();
    let participants = keys::committee(&publics).expect("committee");
    let polynomial = keys::decode_polynomial(
        &net.genesis.threshold_public.as_ref().expect("poly").0,
        publics.len(),
    )
    .expect("polynomial");
    let share = keys::decode_share(&net.shares[i]).expect("share");
    let scheme = keys::signer(&identity, participants, polynomial, share).expect("signer");
    let proposers: HashMap<_, _> = publics
        .iter()
        .zip(&net.genesis.validators)
        .map(|(pk, v)| (pk.clone(), v.address))
        .collect();
    let oracle = oracle.clone();
    let task_core = core.clone();
    let handle = context
        .child("validator")
        .with_attribute("index", i)
        .with_attribute("generation", generation)
        .spawn(move |context| async move {
            let control = oracle.control(identity.public_key());
            let quota = Quota::per_second(NZU32!(100_000));
            let reg = |c| {
                let control = control.clone();
                async move { control.register(c, quota).await.expect("register") }
            };
            let transactions = reg(channel::TRANSACTIONS).await;
            let hello = reg(channel::HELLO).await;
            let channels = Channels {
                votes: reg(channel::VOTES).await,
                certificates: reg(channel::CERTIFICATES).await,
                resolver: reg(channel::RESOLVER).await,
                blocks: reg(channel::BLOCKS).await,
                backfill: reg(channel::BACKFILL).await,
            };
            let genesis_block = task_core
                .chain()
                .store()
                .block(0)
                .expect("read")
                .expect("genesis");
            let _engine = cowboy_node::engine::start(
                context.child("engine"),
                task_core,
                Validator {
                    identity,
                    scheme,
                    proposers,
                    genesis: genesis_block,
                    timing: Timing {
                        block_time: Duration::from_millis(200),
                    },
                    partition: format!("validator-{i}"),
                },
                cowboy_node::engine::EngineChannels {
                    consensus: channels,
                    transactions,
                    hello,
                },
                oracle.manager(),
                control,
                move |app| Byzantine { inner: app, fault },
            )
            .await
            .expect("the engine starts");
            futures::future::pending::<()>().await;
        });
    (handle, core)
}

async fn link_all(
    oracle: &simulated::Oracle<ed25519::PublicKey, deterministic::Context>,
    keys: &[ed25519::PublicKey],
) {
    for a in keys {
        for b in keys {
            if a != b {
                let _ = oracle.add_link(a.clone(), b.clone(), LINK).await;
            }
        }
    }
}

async fn wait_height(context: &deterministic::Context, cores: &[&Arc<Core>], height: u64) {
    while cores.iter().any(|c| c.height() < height) {
        context.sleep(Duration::from_millis(50)).await;
    }
}

/// State roots of every height up to `height`, per node.
fn roots(core: &Core, height: u64) -> Vec<Hash> {
    (0..=height)
        .map(|h| core.outcome(h).expect("read").expect("executed").state_root)
        .collect()
}

async fn network(
    context: &deterministic::Context,
    n: usize,
) -> simulated::Oracle<ed25519::PublicKey, deterministic::Context> {
    let (network, oracle) = Network::new(
        context.child("network"),
        simulated::Config {
            max_size: 32 * 1024 * 1024,
            max_peers_per_set: NZUsize!(n.max(1)),
            disconnect_on_block: true,
            tracked_peer_sets: NZUsize!(1),
        },
    );
    network.start();
    oracle
}

async fn track(
    oracle: &simulated::Oracle<ed25519::PublicKey, deterministic::Context>,
    keys: &[ed25519::PublicKey],
) {
    use commonware_p2p::Manager as _;
    let set = commonware_utils::ordered::Set::try_from(keys.to_vec()).expect("set");
    let _ = oracle.manager().track(0, set);
}

/// Runs `n` validators to `height` and returns every node's roots.
fn run_to(seed: u64, n: usize, height: u64) -> Vec<Vec<Hash>> {
    let runner = deterministic::Runner::new(
        deterministic::Config::new()
            .with_seed(seed)
            .with_timeout(Some(Duration::from_secs(600))),
    );
    runner.start(|context| async move {
        let net = net(n, seed);
        let oracle = network(&context, n).await;
        let keys: Vec<_> = net.identities.iter().map(|k| k.public_key()).collect();
        track(&oracle, &keys).await;
        link_all(&oracle, &keys).await;
        let mut cores = Vec::new();
        let mut tasks = Vec::new();
        for i in 0..n {
            let (task, core) = start_validator(&context, &oracle, &net, i, 0).await;
            tasks.push(task);
            cores.push(core);
        }
        let refs: Vec<_> = cores.iter().collect();
        wait_height(&context, &refs, height).await;
        let out: Vec<_> = cores.iter().map(|c| roots(c, height)).collect();
        drop(net);
        out
    })
}

#[test]
fn one_validator_finalizes() {
    let roots = run_to(1, 1, 5);
    assert_eq!(roots[0].len(), 6);
}

#[test]
fn four_validators_agree_and_a_seed_replays_identically() {
    let first = run_to(2, 4, 5);
    for r in &first[1..] {
        assert_eq!(r, &first[0], "every node has the same root at every height");
    }
    let second = run_to(2, 4, 5);
    assert_eq!(first, second, "the same seed gives the same result");
}

#[test]
fn three_of_four_keep_finalizing_a_partition_heals_and_a_restarted_node_catches_up() {
    let runner = deterministic::Runner::new(
        deterministic::Config::new()
            .with_seed(3)
            .with_timeout(Some(Duration::from_secs(900))),
    );
    runner.start(|context| async move {
        let net = net(4, 3);
        let oracle = network(&context, 4).await;
        let keys: Vec<_> = net.identities.iter().map(|k| k.public_key()).collect();
        track(&oracle, &keys).await;
        link_all(&oracle, &keys).await;
        let mut cores = Vec::new();
        let mut tasks = Vec::new();
        for i in 0..4 {
            let (task, core) = start_validator(&context, &oracle, &net, i, 0).await;
            tasks.push(Some(task));
            cores.push(core);
        }
        wait_height(&context, &cores.iter().collect::<Vec<_>>(), 3).await;

        // Partition validator 3 away: the other three keep finalizing without it.
        for k in &keys[..3] {
            let _ = oracle.remove_link(keys[3].clone(), k.clone()).await;
            let _ = oracle.remove_link(k.clone(), keys[3].clone()).await;
        }
        let stalled = cores[3].height();
        wait_height(
            &context,
            &cores[..3].iter().collect::<Vec<_>>(),
            stalled + 5,
        )
        .await;
        assert!(cores[3].height() <= stalled + 1);

        // Heal: it converges on the same roots.
        link_all(&oracle, &keys).await;
        let target = cores[0].height() + 2;
        wait_height(&context, &cores.iter().collect::<Vec<_>>(), target).await;
        let reference = roots(&cores[0], target);
        for c in &cores[1..] {
            assert_eq!(roots(c, target), reference);
        }

        // Crash validator 2 (every task it started stops), let the others go on, restart it
        // from its store: it catches up.
        if let Some(task) = tasks[2].take() {
            task.abort();
        }
        let crashed = cores.remove(2);
        let crashed_at = crashed.height();
        drop(crashed);
        let others: Vec<_> = cores.iter().collect();
        wait_height(&context, &others, crashed_at + 5).await;
        // The aborted tasks release the store once the runtime drops them.
        context.sleep(Duration::from_millis(100)).await;
        let (task, restarted) = start_validator(&context, &oracle, &net, 2, 1).await;
        assert!(
            restarted.height() >= crashed_at,
            "it resumes from its own store"
        );
        tasks[2] = Some(task);
        cores.insert(2, restarted);
        let target = cores[0].height() + 2;
        wait_height(&context, &cores.iter().collect::<Vec<_>>(), target).await;
        let reference = roots(&cores[0], target);
        for c in &cores[1..] {
            assert_eq!(roots(c, target), reference);
        }
        drop(net);
    });
}

// ---- transactions between validators ----

const COUNTER: &str = "class Actor:\n    def __init__(self):\n        self.n = 0\n    def add(self, k):\n        self.n += k\n        return self.n\n";

fn signed(key: &PrivateKey, nonce: u64, instruction: Instruction, cycles: u64) -> Transaction {
    let mut t = Transaction {
        chain_id: CHAIN_ID,
        nonce,
        instruction,
        cycles_limit: cycles,
        cells_limit: 20_000,
        max_fee_per_cycle: 1_000_000,
        max_fee_per_cell: 1_000_000,
        max_priority_fee_per_cycle: 1,
        max_priority_fee_per_cell: 0,
        from: key.address(),
        access_list: None,
        metadata: vec![],
        origin: None,
        signature: Default::default(),
        additional_signers: vec![],
    };
    cowboy_node::crypto::sign_transaction(&mut t, key).expect("sign");
    t
}

fn args(values: Vec<cowboy_pvm::Value>) -> Vec<u8> {
    cowboy_pvm::Value::List(values).encode().expect("args")
}

/// The workload: a counter deployed by sender 0, then transfers between the senders and calls
/// of the counter, each sent to a different validator.
fn workload() -> Vec<Transaction> {
    let deploy = signed(
        &sender(0),
        0,
        Instruction::Actor(ActorInstruction::Deploy {
            code: COUNTER.into(),
            salt: Hash::ZERO,
            init_args: args(vec![]),
            value: 0,
            entitlements: Default::default(),
        }),
        1_000_000,
    );
    let code_hash = cowboy_types::code_hash(&cowboy_types::canonicalize_source(COUNTER));
    let counter = cowboy_types::actor_address(&sender(0).address(), &Hash::ZERO, &code_hash);
    let mut txs = vec![deploy];
    let mut nonces = [1u64, 0, 0, 0];
    for round in 0..3u64 {
        for i in 0..SENDERS {
            let nonce = nonces[i as usize];
            nonces[i as usize] += 1;
            let instruction = if (round + u64::from(i)) % 2 == 0 {
                Instruction::System(SystemInstruction::Transfer {
                    to: sender((i + 1) % SENDERS).address(),
                    amount: 1_000 + round,
                })
            } else {
                Instruction::Actor(ActorInstruction::Message {
                    to: counter,
                    method: "add".into(),
                    args: args(vec![cowboy_pvm::Value::Int((round + 1).into())]),
                    value: 0,
                })
            };
            txs.push(signed(&sender(i), nonce, instruction, 500_000));
        }
    }
    txs
}

/// What a node ended with: the roots of every height, and every workload transaction's receipt
/// (canonically encoded).
type Ledger = (Vec<Hash>, Vec<Vec<u8>>);

/// Runs 4 validators, sends the workload (each transaction to another validator, the deploy
/// first and alone), waits until every node has executed every transaction, and returns every
/// node's ledger.
fn run_workload(seed: u64, crash: bool) -> Vec<Ledger> {
    let runner = deterministic::Runner::new(
        deterministic::Config::new()
            .with_seed(seed)
            .with_timeout(Some(Duration::from_secs(900))),
    );
    runner.start(|context| async move {
        let net = net(4, seed);
        let oracle = network(&context, 4).await;
        let keys: Vec<_> = net.identities.iter().map(|k| k.public_key()).collect();
        track(&oracle, &keys).await;
        link_all(&oracle, &keys).await;
        let mut cores = Vec::new();
        let mut tasks = Vec::new();
        for i in 0..4 {
            let (task, core) = start_validator(&context, &oracle, &net, i, 0).await;
            tasks.push(Some(task));
            cores.push(core);
        }
        let refs: Vec<_> = cores.iter().collect();
        wait_height(&context, &refs, 2).await;
        let txs = workload();
        let hashes: Vec<Hash> = txs.iter().map(|t| t.digest()).collect();
        let receipt = |core: &Core, h: &Hash| core.chain().store().receipt(h).expect("read");
        for (k, t) in txs.iter().enumerate() {
            if crash && k == txs.len() / 2 {
                // Validator 2 crashes under load (every task it started stops) and restarts
                // from its store while the others go on.
                if let Some(task) = tasks[2].take() {
                    task.abort();
                }
                drop(cores.remove(2));
                // The aborted tasks release the store once the runtime drops them.
                context.sleep(Duration::from_millis(600)).await;
                let (task, restarted) = start_validator(&context, &oracle, &net, 2, 1).await;
                tasks[2] = Some(task);
                cores.insert(2, restarted);
            }
            let raw = commonware_codec::Encode::encode(t).to_vec();
            cores[k % 4].admit(&raw, true).expect("admitted");
            if k == 0 {
                // The calls need the counter: wait until it is deployed everywhere.
                while cores.iter().any(|c| receipt(c, &hashes[0]).is_none()) {
                    context.sleep(Duration::from_millis(50)).await;
                }
            }
        }
        while cores
            .iter()
            .any(|c| hashes.iter().any(|h| receipt(c, h).is_none()))
        {
            context.sleep(Duration::from_millis(50)).await;
        }
        // Gossip: each transaction went to one validator, and at least some were included by
        // blocks other validators proposed (without gossip, only its own validator could).
        let proposers: Vec<Address> = net.genesis.validators.iter().map(|v| v.address).collect();
        let store = cores[0].chain().store();
        let by_others = hashes
            .iter()
            .enumerate()
            .filter(|(k, h)| {
                let at = store.locate(h).expect("read").expect("included");
                let block = store.block(at.height).expect("read").expect("block");
                block.header.proposer != proposers[k % 4]
            })
            .count();
        assert!(by_others > 0, "no transaction reached another validator");
        let height = cores.iter().map(|c| c.height()).min().expect("nodes");
        let ledgers = cores
            .iter()
            .map(|c| {
                let receipts = hashes
                    .iter()
                    .map(|h| {
                        let r = receipt(c, h).expect("executed");
                        assert_eq!(r.status, cowboy_types::Status::Success, "{r:?}");
                        commonware_codec::Encode::encode(&r).to_vec()
                    })
                    .collect();
                (roots(c, height), receipts)
            })
            .collect();
        drop(net);
        ledgers
    })
}

#[test]
fn transactions_sent_to_different_validators_execute_identically_everywhere() {
    let first = run_workload(5, false);
    for ledger in &first[1..] {
        assert_eq!(
            ledger, &first[0],
            "every node has the same roots and receipts"
        );
    }
    assert_eq!(first[0].1.len(), workload().len());
    let second = run_workload(5, false);
    assert_eq!(first, second, "the same seed gives the same result");
}

#[test]
fn a_validator_that_crashes_under_load_restarts_and_ends_with_the_same_ledger() {
    let ledgers = run_workload(8, true);
    for ledger in &ledgers[1..] {
        assert_eq!(
            ledger, &ledgers[0],
            "the restarted node has the same roots and receipts"
        );
    }
    assert_eq!(ledgers, run_workload(8, true), "the seed replays");
}

// ---- misbehaving proposers ----

/// How a misbehaving validator corrupts every block it proposes (everything else it does
/// honestly: it votes, executes and gossips as the others do).
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// A beacon that is not the verified seed of the previous view.
    WrongBeacon,
    /// A post-state claim no validator computed.
    WrongClaim,
    /// Transactions whose limits sum beyond the user room.
    LaneOverflow,
    /// A transaction with a broken signature.
    InvalidTransaction,
    /// The same transaction twice.
    DuplicateTransaction,
}

/// The application of a validator that proposes with `fault` (honest when `None`).
#[derive(Clone)]
struct Byzantine {
    inner: consensus::app::App,
    fault: Option<Fault>,
}

impl Byzantine {
    fn corrupt(fault: Fault, block: &mut cowboy_types::Block) {
        let transfer = |nonce: u64, cycles: u64| {
            signed(
                &sender(1),
                nonce,
                Instruction::System(SystemInstruction::Transfer {
                    to: sender(2).address(),
                    amount: 1,
                }),
                cycles,
            )
        };
        match fault {
            Fault::WrongBeacon => block.header.beacon.signature[0] ^= 0xff,
            Fault::WrongClaim => block.header.state_root = Hash([0xee; 32]),
            Fault::LaneOverflow => {
                // Valid transactions, each within the per-transaction maximum, together far
                // beyond the block's room.
                block.transactions = (0..400).map(|n| transfer(n, 1_000_000)).collect();
            }
            Fault::InvalidTransaction => {
                let mut t = transfer(0, 30_000);
                t.signature = Default::default();
                block.transactions.push(t);
            }
            Fault::DuplicateTransaction => {
                let t = transfer(0, 30_000);
                block.transactions = vec![t.clone(), t];
            }
        }
        let hashes: Vec<Hash> = block.transactions.iter().map(|t| t.digest()).collect();
        if !matches!(fault, Fault::WrongBeacon | Fault::WrongClaim) {
            block.header.tx_root = cowboy_execution::roots::tx_root_of(&hashes);
        }
    }
}

impl<E: Clock + Send + 'static> commonware_consensus::Application<E> for Byzantine {
    type SigningScheme = consensus::app::Scheme;
    type Context = consensus::app::Ctx;
    type Block = consensus::block::ChainBlock;
    type Input = ();

    async fn propose(
        &mut self,
        context: (E, Self::Context),
        ancestry: impl commonware_consensus::marshal::ancestry::Ancestry<Self::Block>,
        input: (),
    ) -> Option<commonware_cryptography::Digested<Self::Block>> {
        let proposed = self.inner.propose(context, ancestry, input).await?;
        let Some(fault) = self.fault else {
            return Some(proposed);
        };
        let mut block = proposed.inner().0.clone();
        Self::corrupt(fault, &mut block);
        let digest = consensus::block::to_digest(&block.header.digest());
        Some(commonware_cryptography::Digested::precomputed(
            consensus::block::ChainBlock(block),
            digest,
        ))
    }

    async fn verify(
        &mut self,
        context: (E, Self::Context),
        ancestry: impl commonware_consensus::marshal::ancestry::Ancestry<Self::Block>,
    ) -> bool {
        self.inner.verify(context, ancestry).await
    }
}

/// Runs 4 validators, validator 3 proposing with `fault`, until the honest ones reach
/// `height`; returns the honest nodes' roots and how many finalized blocks validator 3
/// proposed.
fn run_with_fault(seed: u64, fault: Option<Fault>, height: u64) -> (Vec<Vec<Hash>>, usize) {
    let runner = deterministic::Runner::new(
        deterministic::Config::new()
            .with_seed(seed)
            .with_timeout(Some(Duration::from_secs(900))),
    );
    runner.start(|context| async move {
        let net = net(4, seed);
        let oracle = network(&context, 4).await;
        let keys: Vec<_> = net.identities.iter().map(|k| k.public_key()).collect();
        track(&oracle, &keys).await;
        link_all(&oracle, &keys).await;
        let mut cores = Vec::new();
        let mut tasks = Vec::new();
        for i in 0..4 {
            let fault = if i == 3 { fault } else { None };
            let (task, core) = start_validator_with(&context, &oracle, &net, i, 0, fault).await;
            tasks.push(task);
            cores.push(core);
        }
        let honest: Vec<_> = cores[..3].iter().collect();
        wait_height(&context, &honest, height).await;
        let roots: Vec<_> = honest.iter().map(|c| roots(c, height)).collect();
        let byzantine = net.genesis.validators[3].address;
        let store = cores[0].chain().store();
        let by_byzantine = (1..=height)
            .filter(|h| {
                store
                    .block(*h)
                    .expect("read")
                    .expect("block")
                    .header
                    .proposer
                    == byzantine
            })
            .count();
        drop(net);
        (roots, by_byzantine)
    })
}

#[test]
fn blocks_from_a_misbehaving_proposer_are_never_finalized_and_the_chain_goes_on() {
    // The control: honest, validator 3 leads some of these views and its blocks are finalized.
    let (_, honest) = run_with_fault(6, None, 12);
    assert!(honest > 0, "validator 3 never proposed a finalized block");
    for fault in [
        Fault::WrongBeacon,
        Fault::WrongClaim,
        Fault::LaneOverflow,
        Fault::InvalidTransaction,
        Fault::DuplicateTransaction,
    ] {
        let (roots, by_byzantine) = run_with_fault(6, Some(fault), 12);
        for r in &roots[1..] {
            assert_eq!(r, &roots[0], "{fault:?}: honest nodes agree");
        }
        assert_eq!(by_byzantine, 0, "{fault:?}: a corrupt block was finalized");
        let again = run_with_fault(6, Some(fault), 12);
        assert_eq!((roots, by_byzantine), again, "{fault:?}: the seed replays");
    }
}
