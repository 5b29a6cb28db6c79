//! Admission, the node's hottest path under load: every transaction a client or a peer hands
//! the node is decoded, checked against the committed state's terms (its governance
//! parameters and lane prices), its sender recovered, its account read, and then pooled and
//! journaled — [`Core::admit`], as the RPC server and gossip call it.
//!
//! The baseline, measured in the same run on the same signatures, is sender recovery alone
//! (`cowboy_crypto::recover`: the curve math and the address hash), the per-transaction
//! ceiling no admission can beat. Their ratio is what admission adds on top of it.
//!
//! Run: `cargo bench -p cowboy-node --bench admission`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_crypto::PrivateKey;
use cowboy_execution::{Genesis, GenesisValidator, genesis::Allocation};
use cowboy_node::core::{Core, CoreOptions};
use cowboy_types::{
    Address, Instruction, SystemInstruction, Transaction,
    json::{Amount, HexBytes},
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::{hint::black_box, time::Instant};

const CHAIN_ID: u64 = 9;
/// Senders, and transactions pooled per sender: together the default pool's capacity.
const SENDERS: usize = 200;
const PER_SENDER: u64 = 250;

fn sender(i: usize) -> PrivateKey {
    let mut seed = [0x5a; 32];
    seed[..8].copy_from_slice(&(i as u64 + 1).to_be_bytes());
    PrivateKey::from_bytes(&seed).expect("key")
}

fn genesis(senders: &[PrivateKey]) -> Genesis {
    Genesis {
        chain_id: CHAIN_ID,
        genesis_time_ms: 0,
        allocations: senders
            .iter()
            .map(|k| Allocation {
                address: k.address(),
                balance: Amount(1_000_000_000_000_000),
            })
            .collect(),
        validators: vec![GenesisValidator {
            address: Address([0xaa; 20]),
            stake: Amount(1_000_000_000),
            public_key: HexBytes(vec![7; 32]),
        }],
        runners: Vec::new(),
        threshold_public: None,
        tee_simulated_key: None,
        parameters: Default::default(),
        carried: None,
    }
}

/// Every sender's transfers with nonces `0..PER_SENDER`, interleaved by nonce (as many
/// clients submit them), signed and encoded.
fn signed_transfers(senders: &[PrivateKey]) -> Vec<(Transaction, Vec<u8>)> {
    let mut out = Vec::with_capacity(senders.len() * PER_SENDER as usize);
    for nonce in 0..PER_SENDER {
        for key in senders {
            let mut tx = Transaction {
                chain_id: CHAIN_ID,
                nonce,
                instruction: Instruction::System(SystemInstruction::Transfer {
                    to: Address([0x22; 20]),
                    amount: 1,
                }),
                cycles_limit: 30_000,
                cells_limit: 1_000,
                max_fee_per_cycle: 20_000,
                max_fee_per_cell: 20_000,
                max_priority_fee_per_cycle: 1,
                max_priority_fee_per_cell: 0,
                from: key.address(),
                access_list: None,
                metadata: vec![],
                origin: None,
                signature: Default::default(),
                additional_signers: vec![],
            };
            cowboy_crypto::sign_transaction(&mut tx, key).expect("sign");
            let raw = tx.to_bytes();
            out.push((tx, raw));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let senders: Vec<PrivateKey> = (0..SENDERS).map(sender).collect();
    let genesis = genesis(&senders);
    let txs = signed_transfers(&senders);

    let mut group = c.benchmark_group("admission");
    group.throughput(Throughput::Elements(1));

    // Baseline: recovering the same signatures' senders, nothing else.
    let mut next = 0;
    group.bench_function("recover_baseline", |b| {
        b.iter(|| {
            let (tx, _) = &txs[next % txs.len()];
            next += 1;
            cowboy_crypto::recover(black_box(&tx.signing_hash()), &tx.signature).expect("recover")
        })
    });

    // Each transaction is admitted once into a fresh node; when every one is pooled, the next
    // ones go to a new node (opening it is not timed).
    // The node before its directory: dropped in that order, it closes its files first.
    let open = || {
        let dir = tempfile::tempdir().expect("tempdir");
        let core = Core::open(dir.path(), &genesis, CoreOptions::default()).expect("core");
        (core, dir)
    };
    let mut node = open();
    let mut next = 0;
    group.bench_function("admit", |b| {
        b.iter_custom(|iters| {
            let mut spent = std::time::Duration::ZERO;
            for _ in 0..iters {
                if next == txs.len() {
                    drop(std::mem::replace(&mut node, open()));
                    next = 0;
                }
                let raw = &txs[next].1;
                next += 1;
                let start = Instant::now();
                node.0.admit(black_box(raw), false).expect("admitted");
                spent += start.elapsed();
            }
            spent
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
