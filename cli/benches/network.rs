//! Network benchmarks on loopback with real `cowboy node` processes (the release binary):
//!
//! - `startup`: time from `cowboy node run` to the first finalized block (one validator),
//!   beside the configured block time.
//! - `latency`: finality latency (submit → finalized receipt) p50/p99 on a 4-validator
//!   network at 1 s and at 200 ms block time, as a ratio of the block time.
//! - `throughput`: sustained transfers per second through RPC at the protocol cap (3,809 per
//!   1 s block) on a 4-validator network, with the node processes' CPU use, beside the node's
//!   own sender recovery (`cowboy_crypto::verify_transaction`) measured in the same run.
//!
//! - `devnet`: `cowboy devnet up --validators 4 --detach` until it returns ready (every node
//!   executed a block, faucet answering), beside `--validators 1` in the same run (goal: 4
//!   validators ready in under 5 s).
//!
//! `cargo bench -p cowboy-cli --bench network -- [startup|latency|throughput|devnet] [--quick]`

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

#[path = "../tests/support/mod.rs"]
mod support;

use cowboy_crypto::PrivateKey;
use cowboy_rpc::{CowboyApiClient, jsonrpsee::http_client::HttpClient};
use cowboy_types::{Address, Transaction, json::HexBytes};
use std::{
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};
use support::free_base;

const CHAIN_ID: u64 = 31_337;
const SENDERS: usize = 96;

fn bin() -> PathBuf {
    // Benches build the release binary next to themselves.
    let exe = std::env::current_exe().expect("exe");
    let dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
    let release = dir.join("cowboy");
    if release.exists() {
        return release;
    }
    PathBuf::from(env!("CARGO_BIN_EXE_cowboy"))
}

fn sender(i: usize) -> PrivateKey {
    let mut b = [0x11u8; 32];
    b[0] = 0x50;
    b[30] = (i >> 8) as u8;
    b[31] = i as u8 + 1;
    PrivateKey::from_bytes(&b).expect("key")
}

struct Net {
    _dir: tempfile::TempDir,
    children: Vec<Child>,
    clients: Vec<HttpClient>,
}

impl Drop for Net {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Net {
    /// Inits and starts `n` validators; returns when they are spawned (not yet ready).
    fn start(n: usize, block_ms: u64) -> (Self, Instant) {
        let dir = tempfile::tempdir().expect("tempdir");
        let (p2p, rpc) = (free_base(n as u16), free_base(n as u16));
        let mut init = Command::new(bin());
        init.args(["node", "init", "--home"])
            .arg(dir.path().join("net"))
            .args(["--validators", &n.to_string()])
            .args([
                "--p2p-port",
                &p2p.to_string(),
                "--rpc-port",
                &rpc.to_string(),
            ])
            .args(["--block-time", &block_ms.to_string()])
            // The spec's block cycle cap, whose 3,809 transfers a block are the protocol cap
            // `throughput` measures against: the default scales it to the PVM's speed (5% per
            // second of block time), which would cap a block at 190 transfers, none of which
            // runs Python.
            .args(["--cycle-budget", "100"]);
        for i in 0..SENDERS {
            init.args([
                "--fund",
                &format!("{}=10000000000000000", sender(i).address()),
            ]);
        }
        let out = init.output().expect("init");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let home = |i: usize| {
            if n == 1 {
                dir.path().join("net")
            } else {
                dir.path().join("net").join(format!("node-{i}"))
            }
        };
        let started = Instant::now();
        let children = (0..n)
            .map(|i| {
                Command::new(bin())
                    .args(["node", "run", "--home"])
                    .arg(home(i))
                    .args(["--log-level", "warn"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("spawn")
            })
            .collect();
        let clients = (0..n)
            .map(|i| {
                cowboy_rpc::client(&format!("http://127.0.0.1:{}", rpc + i as u16)).expect("client")
            })
            .collect();
        (
            Self {
                _dir: dir,
                children,
                clients,
            },
            started,
        )
    }

    /// Waits until every node has executed a block.
    async fn ready(&self) {
        for c in &self.clients {
            loop {
                match c.wait_for_block(0, Some(10_000)).await {
                    Ok(Some(_)) => break,
                    Ok(None) => {}
                    Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                }
            }
        }
    }

    /// CPU seconds (user + system) the node processes used so far.
    fn cpu_seconds(&self) -> f64 {
        let tick = 100.0; // USER_HZ on Linux
        self.children
            .iter()
            .filter_map(|c| std::fs::read_to_string(format!("/proc/{}/stat", c.id())).ok())
            .map(|s| {
                let fields: Vec<&str> = s
                    .rsplit(')')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect();
                let utime: f64 = fields.get(11).and_then(|v| v.parse().ok()).unwrap_or(0.0);
                let stime: f64 = fields.get(12).and_then(|v| v.parse().ok()).unwrap_or(0.0);
                (utime + stime) / tick
            })
            .sum()
    }
}

/// A transfer at a transfer's intrinsic cycles (21,000): the 3,809 a block that are the
/// protocol cap are counted at that limit.
fn transfer(key: &PrivateKey, nonce: u64) -> Transaction {
    support::signed_transfer(key, CHAIN_ID, nonce, Address([0x33; 20]), 21_000)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn startup(rt: &tokio::runtime::Runtime) {
    let (net, started) = Net::start(1, 1_000);
    rt.block_on(net.ready());
    let took = started.elapsed();
    println!(
        "startup: cowboy node run → first finalized block executed: {:.2} s ({:.2}× the 1 s block time)",
        took.as_secs_f64(),
        took.as_secs_f64() / 1.0
    );
}

/// One `devnet up --detach` of `validators` nodes in a fresh home; its wall time.
fn devnet_up(validators: usize, block_ms: u64) -> Duration {
    let home = tempfile::tempdir().expect("home");
    let n = validators as u16;
    let (rpc, p2p, faucet) = (free_base(n), free_base(n), free_base(1));
    let started = Instant::now();
    let out = std::process::Command::new(bin())
        .args(["devnet", "up", "--detach", "--json", "--validators"])
        .arg(validators.to_string())
        .args(["--block-time", &block_ms.to_string()])
        .args([
            "--rpc-port",
            &rpc.to_string(),
            "--p2p-port",
            &p2p.to_string(),
        ])
        .args(["--faucet-port", &faucet.to_string()])
        .env("COWBOY_HOME", home.path())
        .output()
        .expect("devnet up");
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "devnet up failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::process::Command::new(bin())
        .args(["devnet", "reset"])
        .env("COWBOY_HOME", home.path())
        .output();
    took
}

fn devnet(quick: bool) {
    let runs = if quick { 2 } else { 5 };
    for block_ms in [500u64, 1_000] {
        let mut one = Vec::new();
        let mut four = Vec::new();
        for _ in 0..runs {
            one.push(devnet_up(1, block_ms));
            four.push(devnet_up(4, block_ms));
        }
        one.sort();
        four.sort();
        let median = |v: &[Duration]| v[v.len() / 2];
        println!(
            "devnet up ({block_ms} ms blocks, {runs} runs): 4 validators ready in median {:.2} s (min {:.2}, max {:.2}); 1 validator {:.2} s; ratio 4/1 = {:.2}×",
            median(&four).as_secs_f64(),
            four[0].as_secs_f64(),
            four[four.len() - 1].as_secs_f64(),
            median(&one).as_secs_f64(),
            median(&four).as_secs_f64() / median(&one).as_secs_f64()
        );
    }
}

fn latency(rt: &tokio::runtime::Runtime, quick: bool) {
    for (block_ms, samples) in [
        (1_000u64, if quick { 8 } else { 30 }),
        (200, if quick { 15 } else { 60 }),
    ] {
        let (net, _) = Net::start(4, block_ms);
        rt.block_on(net.ready());
        let key = sender(0);
        let mut latencies = Vec::new();
        rt.block_on(async {
            for nonce in 0..samples {
                let t = transfer(&key, nonce);
                let c = &net.clients[nonce as usize % 4];
                let start = Instant::now();
                let hash = c
                    .send_raw_transaction(HexBytes(t.to_bytes()))
                    .await
                    .expect("admitted");
                let r = c
                    .wait_for_receipt(hash, Some(30_000))
                    .await
                    .expect("call")
                    .expect("finalized");
                assert_eq!(r.status, cowboy_rpc::ReceiptStatus::Success);
                latencies.push(start.elapsed());
            }
        });
        latencies.sort();
        let (p50, p99) = (percentile(&latencies, 0.5), percentile(&latencies, 0.99));
        println!(
            "latency @ {block_ms} ms blocks, 4 validators, {samples} transfers: p50 {:.0} ms ({:.2}× block time), p99 {:.0} ms ({:.2}×)",
            p50.as_secs_f64() * 1e3,
            p50.as_secs_f64() * 1e3 / block_ms as f64,
            p99.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3 / block_ms as f64,
        );
    }
}

/// Transactions whose sender the node's own code recovers per second on one core
/// (`cowboy_crypto::verify_transaction`: the curve math every validator runs on every
/// transaction, the per-transaction ceiling).
fn recovery_rate() -> f64 {
    let key = sender(0);
    let txs: Vec<_> = (0..2_000).map(|n| transfer(&key, n)).collect();
    let start = Instant::now();
    for t in &txs {
        cowboy_crypto::verify_transaction(t).expect("valid");
    }
    txs.len() as f64 / start.elapsed().as_secs_f64()
}

fn throughput(rt: &tokio::runtime::Runtime, quick: bool) {
    let per_sender: u64 = if quick { 40 } else { 200 };
    let (net, _) = Net::start(4, 1_000);
    rt.block_on(net.ready());
    // Sign everything first (not part of the measurement).
    let txs: Vec<Vec<u8>> = (0..per_sender)
        .flat_map(|n| (0..SENDERS).map(move |s| (s, n)))
        .map(|(s, n)| transfer(&sender(s), n).to_bytes())
        .collect();
    let total = txs.len();
    let cpu_before = net.cpu_seconds();
    let start_height = rt.block_on(net.clients[0].status()).expect("status").height;
    let started = Instant::now();
    let mut first_refusal: Option<String> = None;
    let admitted = rt.block_on(async {
        // Submit from 16 concurrent clients spread over the four nodes, each sender's
        // transactions in nonce order (the pool holds at most 256 ahead per sender).
        let chunks: Vec<Vec<Vec<u8>>> = {
            let mut c = vec![Vec::new(); 16];
            for (i, t) in txs.into_iter().enumerate() {
                c[(i % SENDERS) % 16].push(t);
            }
            c
        };
        let mut tasks = Vec::new();
        for (i, chunk) in chunks.into_iter().enumerate() {
            let client = net.clients[i % 4].clone();
            tasks.push(tokio::spawn(async move {
                // (admitted, the first refusal): a refused transaction is never included, so
                // the wait below counts only what the pool took.
                let (mut admitted, mut refused) = (0usize, None);
                for raw in chunk {
                    match client.send_raw_transaction(HexBytes(raw)).await {
                        Ok(_) => admitted += 1,
                        Err(e) => {
                            refused.get_or_insert(e.to_string());
                        }
                    }
                }
                (admitted, refused)
            }));
        }
        let mut admitted = 0;
        for t in tasks {
            let (n, refused) = t.await.expect("submitter");
            admitted += n;
            if let Some(e) = refused {
                first_refusal.get_or_insert(e);
            }
        }
        admitted
    });
    assert!(
        admitted > 0,
        "every transfer was refused; the first: {}",
        first_refusal.unwrap_or_default()
    );
    if admitted < total {
        println!(
            "  {} of {total} transfers refused at submission; the first: {}",
            total - admitted,
            first_refusal.unwrap_or_default()
        );
    }
    let submitted = started.elapsed();
    // Wait until the pool drains (every transaction included) by following blocks.
    let client = &net.clients[0];
    let mut included = 0usize;
    let mut height = start_height;
    let mut first_block_at = None;
    let mut last_block_at = started;
    rt.block_on(async {
        // Blocks in a row that included nothing: an admitted transfer that a node dropped is
        // never included, and the wait must end.
        let mut idle = 0;
        while included < admitted && idle < 10 {
            match client
                .wait_for_block(height, Some(30_000))
                .await
                .expect("call")
            {
                Some(b) => {
                    height = b.height;
                    if b.transactions > 0 {
                        first_block_at.get_or_insert(Instant::now());
                        last_block_at = Instant::now();
                        idle = 0;
                    } else {
                        idle += 1;
                    }
                    included += b.transactions;
                }
                None => break,
            }
        }
    });
    let cpu = net.cpu_seconds() - cpu_before;
    let window = last_block_at
        .duration_since(started)
        .as_secs_f64()
        .max(1e-9);
    let rate = included as f64 / window;
    let ceiling = recovery_rate();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    println!(
        "throughput: {included}/{total} transfers finalized in {window:.1} s = {rate:.0} tx/s (protocol cap 3,809/s at 1 s blocks: {:.2}×); submission took {:.1} s",
        rate / 3_809.0,
        submitted.as_secs_f64()
    );
    println!(
        "  sender recovery in this run: {ceiling:.0}/s per core; 4 validators each recover every transaction on {cores} cores: ceiling ≈ {:.0} tx/s → {:.2}× of it",
        ceiling * cores / 4.0,
        rate / (ceiling * cores / 4.0)
    );
    println!(
        "  node CPU: {cpu:.1} s over {window:.1} s = {:.0}% of one core (all four nodes), {:.2} ms per transaction",
        cpu / window * 100.0,
        cpu / included.max(1) as f64 * 1e3
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let which: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(|s| s.as_str())
        .collect();
    let all = which.is_empty();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    if all || which.contains(&"startup") {
        startup(&rt);
    }
    if all || which.contains(&"latency") {
        latency(&rt, quick);
    }
    if all || which.contains(&"throughput") {
        throughput(&rt, quick);
    }
    if all || which.contains(&"devnet") {
        devnet(quick);
    }
}
