//! Real processes on loopback: four `cowboy node` validators; deploy an actor, call it, query
//! it, see a timer fire; `kill -9` one node and the others keep finalizing; restart it and it
//! catches up to the same state root. Also the offline `sign` → `tx send` path. Every wait is
//! a long poll on the node (`cowboy_waitForBlock` / `cowboy_waitForReceipt`), never a sleep.

use cowboy_rpc::CowboyApiClient;
use std::{
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
};

mod support;

use support::free_base;

const KEY: &str = "0x4242424242424242424242424242424242424242424242424242424242424242";

fn cowboy() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cowboy"))
}

fn address_of_key() -> String {
    let k = cowboy_crypto::PrivateKey::from_hex(KEY).expect("key");
    k.address().to_string()
}

struct Net {
    dir: tempfile::TempDir,
    nodes: Vec<Option<Child>>,
    rpc_base: u16,
    runtime: tokio::runtime::Runtime,
}

impl Net {
    fn home(&self, i: usize) -> PathBuf {
        self.dir.path().join(format!("node-{i}"))
    }
    fn url(&self, i: usize) -> String {
        format!("http://127.0.0.1:{}", self.rpc_base + i as u16)
    }
    fn client(&self, i: usize) -> cowboy_rpc::jsonrpsee::http_client::HttpClient {
        cowboy_rpc::client(&self.url(i)).expect("client")
    }
    fn start(&mut self, i: usize) {
        let log =
            std::fs::File::create(self.dir.path().join(format!("node-{i}.log"))).expect("log");
        let child = cowboy()
            .args(["node", "run", "--home"])
            .arg(self.home(i))
            .args(["--log-level", "info"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("spawn node");
        self.nodes[i] = Some(child);
    }
    fn kill(&mut self, i: usize) {
        if let Some(mut c) = self.nodes[i].take() {
            let _ = c.kill(); // SIGKILL
            let _ = c.wait();
        }
    }
    /// Waits (long polls) until node `i` has executed `height`.
    fn wait_height(&self, i: usize, height: u64) {
        let client = self.client(i);
        self.runtime.block_on(async {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
            loop {
                assert!(
                    std::time::Instant::now() < deadline,
                    "node {i} did not reach {height}"
                );
                match client.status().await {
                    Ok(s) if s.height >= height => return,
                    Ok(s) => {
                        let _ = client.wait_for_block(s.height, Some(5_000)).await;
                    }
                    // Not listening yet: the status call fails fast; wait on the next attempt's
                    // connect instead of spinning.
                    Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
                }
            }
        });
    }
    /// Waits until every node has executed the block of `receipt` (each node executes finalized
    /// blocks on its own, so another node may not have applied it yet when the sender's
    /// receipt arrives).
    fn wait_applied_everywhere(&self, receipt: &serde_json::Value) {
        let height = receipt["block_height"]
            .as_u64()
            .unwrap_or_else(|| panic!("receipt without a block height: {receipt}"));
        for i in 0..self.nodes.len() {
            self.wait_height(i, height);
        }
    }
    fn height(&self, i: usize) -> u64 {
        self.runtime
            .block_on(self.client(i).status())
            .expect("status")
            .height
    }
    fn root_at(&self, i: usize, h: u64) -> String {
        self.runtime
            .block_on(self.client(i).block(cowboy_rpc::BlockId::Height(h), None))
            .expect("block")
            .expect("executed")
            .executed_state_root
            .to_string()
    }
    fn cli(&self, i: usize, args: &[&str]) -> serde_json::Value {
        let out = cowboy()
            .args(args)
            .args(["--rpc-url", &self.url(i), "--json"])
            .env("COWBOY_PRIVATE_KEY", KEY)
            .output()
            .expect("run cowboy");
        support::json_output(args, &out)
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        for i in 0..self.nodes.len() {
            self.kill(i);
        }
    }
}

fn net(n: usize) -> Net {
    let dir = tempfile::tempdir().expect("tempdir");
    let p2p = free_base(n as u16);
    let rpc = free_base(n as u16);
    let funded = address_of_key();
    let out = cowboy()
        .args(["node", "init", "--home"])
        .arg(dir.path())
        .args(["--validators", &n.to_string()])
        .args([
            "--p2p-port",
            &p2p.to_string(),
            "--rpc-port",
            &rpc.to_string(),
        ])
        .args([
            "--block-time",
            "200",
            "--chain-id",
            "4242",
            "--cycle-budget",
            "5",
        ])
        .args(["--fund", &format!("{funded}=1000000000000000000")])
        .output()
        .expect("init");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut net = Net {
        dir,
        nodes: (0..n).map(|_| None).collect(),
        rpc_base: rpc,
        runtime: tokio::runtime::Runtime::new().expect("runtime"),
    };
    for i in 0..n {
        net.start(i);
    }
    net
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

const COUNTER: &str = r#"
from cowboy_sdk import actor, emit

@actor
class Counter:
    def __init__(self, start=0):
        self.storage["count"] = start

    def increment(self, by=1):
        self.storage["count"] += by
        emit("Incremented", self.storage["count"])
        return self.storage["count"]

    def get(self):
        return self.storage["count"]
"#;

#[test]
fn four_processes_deploy_call_timer_kill_and_catch_up() {
    let mut net = net(4);
    for i in 0..4 {
        net.wait_height(i, 1);
    }
    let source = write(net.dir.path(), "counter.py", COUNTER);
    let source = source.to_str().expect("path");

    let deployed = net.cli(0, &["deploy", source, "--args", "5"]);
    assert_eq!(deployed["status"], "success", "{deployed}");
    net.wait_applied_everywhere(&deployed);
    let actor = deployed["created"]
        .as_str()
        .expect("actor address")
        .to_string();

    let called = net.cli(1, &["call", &actor, "increment", "2"]);
    assert_eq!(called["status"], "success", "{called}");
    assert_eq!(called["return_value"], 7);
    assert_eq!(called["events"].as_array().map(|e| e.len()), Some(1));
    net.wait_applied_everywhere(&called);

    let queried = net.cli(2, &["query", &actor, "get"]);
    assert_eq!(queried["return_value"], 7);

    // A timer: fires `increment` a few blocks from now.
    let set = net.cli(0, &["timer", "set", &actor, "increment", "10", "--in", "3"]);
    assert_eq!(set["status"], "success", "{set}");
    let listed = net.cli(0, &["timer", "list", &actor]);
    let fire_at = listed[0]["height"].as_u64().expect("a pending timer");
    net.wait_height(0, fire_at);
    let queried = net.cli(0, &["query", &actor, "get"]);
    assert_eq!(queried["return_value"], 17, "the timer fired");

    // Offline signing, then broadcast.
    let to = "0x2222222222222222222222222222222222222222";
    let nonce = net
        .runtime
        .block_on(net.client(0).nonce(address_of_key().parse().expect("addr")))
        .expect("nonce")
        .pending;
    let tx_json = format!(
        r#"{{"chain_id":4242,"nonce":{nonce},"instruction":{{"transfer":{{"to":"{to}","amount":"777"}}}},"cycles_limit":50000,"cells_limit":1000,"max_fee_per_cycle":100000,"max_fee_per_cell":100000,"max_priority_fee_per_cycle":1,"max_priority_fee_per_cell":0,"metadata":"0x"}}"#
    );
    let tx_file = write(net.dir.path(), "transfer.json", &tx_json);
    let signed = cowboy()
        .args(["sign"])
        .arg(&tx_file)
        .env("COWBOY_PRIVATE_KEY", KEY)
        .output()
        .expect("sign");
    assert!(
        signed.status.success(),
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );
    let raw = String::from_utf8_lossy(&signed.stdout).trim().to_string();
    let sent = net.cli(3, &["tx", "send", &raw]);
    assert_eq!(sent["status"], "success", "{sent}");
    net.wait_applied_everywhere(&sent);
    let balance = net.cli(0, &["balance", to]);
    assert_eq!(balance["balance"], "777");

    // kill -9 one node: the others keep finalizing.
    net.kill(3);
    let h = net.height(0);
    for i in 0..3 {
        net.wait_height(i, h + 5);
    }
    // Restart it: it catches up to the same state root.
    net.start(3);
    let target = net.height(0) + 2;
    for i in 0..4 {
        net.wait_height(i, target);
    }
    let root = net.root_at(0, target);
    for i in 1..4 {
        assert_eq!(
            net.root_at(i, target),
            root,
            "node {i} agrees at height {target}"
        );
    }
}
