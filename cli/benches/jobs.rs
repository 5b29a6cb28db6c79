//! Off-chain jobs end to end on loopback: a 1-validator devnet at 1 s blocks with a fleet of 10
//! simulated runners (`cowboy devnet up --runners honest=10`), a burst of HTTP jobs
//! (`majority_vote`, committees of 3, threshold 2) submitted by an account with a callback
//! actor, each followed until its callback ran.
//!
//! Reported: jobs with their callback delivered per minute, and submit → callback latency p50
//! and p99, in seconds and in blocks, beside the block time measured in the same run and the
//! protocol's minimum: the submission block, the draw `committee.round_delay` (2) rounds
//! later, one block for the commits, one for the aggregator's batch reveal (verification), and
//! the callback in the block after — 5 blocks after the submission's.
//!
//! `cargo bench -p cowboy-cli --bench jobs [-- --quick]`

#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code: a failure is the run failing.

#[path = "../tests/support/mod.rs"]
mod support;

use cowboy_rpc::CowboyApiClient as _;
use cowboy_types::{Hash, Instruction, SystemInstruction, job::JobStatus};
use std::time::{Duration, Instant};
use support::{
    devnet::{Devnet, json},
    upstream::Upstream,
};

const SINK: &str = r#"from cowboy_sdk import actor


@actor
class Sink:
    def __init__(self):
        self.storage["results"] = 0

    def on_result(self, job_id, status, result, details):
        self.storage["results"] += 1
"#;

fn percentile(sorted: &[f64], p: usize) -> f64 {
    sorted[(sorted.len() - 1) * p / 100]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let jobs = if quick { 10 } else { 40 };
    let block_ms = 1_000u64;
    let (devnet, up) = Devnet::up(1, block_ms, &["--runners", "honest=10"]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let upstream = Upstream::start(r#"{"usd":65000}"#);
    let sink_path = home.join("sink.py");
    std::fs::write(&sink_path, SINK).expect("sink");
    let deployed = json(
        home,
        &[
            "deploy",
            sink_path.to_str().expect("path"),
            "--account",
            "dev:0",
        ],
    );
    let sink = deployed["created"].as_str().expect("created").to_string();
    let spec: cowboy_types::job::JobSpec = serde_json::from_value(serde_json::json!({
        "input": {"http": {"method": "GET", "url": upstream.url(), "extract": ["/usd"]}},
        "bounds": {"max_wall_ms": 5000},
        "schema": {"max_return_bytes": 1024, "expected_execution_ms": 100, "data_format": {"json": {}}},
        "verification": {"mode": {"majority_vote": {"vote_field": "/usd"}}, "runners": 3, "threshold": 2},
        "max_price": "10000000",
        "timeout_blocks": 20,
        "callback": {"actor": sink, "handler": "on_result", "max_fee": "1000000000"}
    }))
    .expect("spec");
    let key = cowboy_devnet::dev_key(2).expect("key");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let client = cowboy_rpc::client(&url).expect("client");
    rt.block_on(async {
        // The block time as this run sees it: 10 blocks.
        let h0 = client.status().await.expect("status").height;
        let t0 = Instant::now();
        let mut h = h0;
        while h < h0 + 10 {
            if let Some(b) = client.wait_for_block(h, Some(5_000)).await.expect("poll") {
                h = b.height;
            }
        }
        let measured_block = t0.elapsed().as_secs_f64() / (h - h0) as f64;

        // The burst: every job signed with its own nonce, then sent.
        let first = client.nonce(key.address()).await.expect("nonce").pending;
        let mut pending: Vec<(Hash, Instant, u64)> = Vec::new();
        let start = Instant::now();
        let submit_height = client.status().await.expect("status").height;
        for i in 0..jobs {
            let instruction = Instruction::System(SystemInstruction::JobSubmit {
                spec: Box::new(spec.clone()),
            });
            let id = cowboy_types::message_id(&key.address(), first + i, &instruction);
            let options = cowboy_rpc::TxOptions {
                nonce: Some(first + i),
                ..Default::default()
            };
            cowboy_rpc::send(&client, &key, instruction, &options).await.expect("submit");
            pending.push((id, Instant::now(), submit_height));
        }
        let mut latencies = Vec::new();
        let mut blocks = Vec::new();
        let mut failed = 0;
        let mut height = submit_height;
        let deadline = Instant::now() + Duration::from_secs(600);
        while !pending.is_empty() && Instant::now() < deadline {
            if let Some(b) = client.wait_for_block(height, Some(5_000)).await.expect("poll") {
                height = b.height;
            }
            let mut still = Vec::new();
            for (id, sent, at) in pending {
                let Some(job) = client.job(id).await.expect("job") else {
                    still.push((id, sent, at));
                    continue;
                };
                let delivered = matches!(job.status, JobStatus::Verified | JobStatus::Settled)
                    && job.callbacks_pending == 0;
                if delivered {
                    latencies.push(sent.elapsed().as_secs_f64());
                    blocks.push((height - job.submitted_at) as f64);
                } else if job.status == JobStatus::Failed {
                    failed += 1;
                } else {
                    still.push((id, sent, at));
                }
            }
            pending = still;
        }
        let elapsed = start.elapsed().as_secs_f64();
        latencies.sort_by(f64::total_cmp);
        blocks.sort_by(f64::total_cmp);
        assert!(!latencies.is_empty(), "no job was delivered");
        let done = latencies.len();
        println!(
            "jobs: {done} of {jobs} delivered ({failed} failed, {} unfinished) in {elapsed:.1} s with 10 runners, committees of 3",
            pending.len()
        );
        println!(
            "block time: configured {} ms, measured {:.3} s",
            block_ms, measured_block
        );
        println!(
            "throughput: {:.1} jobs/min ({:.2} per block)",
            done as f64 / elapsed * 60.0,
            done as f64 / (elapsed / measured_block)
        );
        for (name, p) in [("p50", 50), ("p99", 99)] {
            let s = percentile(&latencies, p);
            println!(
                "submit → callback {name}: {s:.2} s = {:.2} × block time; {} blocks after the submission block (minimum 5)",
                s / measured_block,
                percentile(&blocks, p)
            );
        }
    });
}
