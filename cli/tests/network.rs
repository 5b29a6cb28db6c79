//! Real processes on loopback: four `cowboy node` validators; deploy an actor, call it, query
//! it, see a timer fire; `kill -9` one node and the others keep finalizing; restart it and it
//! catches up to the same state root. Also the offline `sign` → `tx send` path. Every wait is
//! a long poll on the node (`cowboy_waitForBlock` / `cowboy_waitForReceipt`), never a sleep.
//!
//! Faults (issue 12), on one validator: damaged or missing storage stops the node with an error
//! naming the file, and never makes it finalize a block conflicting with one it finalized; a
//! descriptor limit too low for the configuration refuses to start; accepted transactions
//! survive `kill -9`; a log that cannot be written (stderr on a full disk) is dropped, never
//! fatal; a nearly full disk (a small tmpfs), or one a runaway writer fills to the
//! last byte at once, pauses the node, keeping every accepted transaction, and it resumes once
//! space returns.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

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
    /// The nodes' logs (their stderr).
    logs: tempfile::TempDir,
    nodes: Vec<Option<Child>>,
    rpc_base: u16,
    runtime: tokio::runtime::Runtime,
}

impl Net {
    fn home(&self, i: usize) -> PathBuf {
        if self.nodes.len() == 1 {
            // `node init --validators 1` writes the one home in place.
            self.dir.path().to_path_buf()
        } else {
            self.dir.path().join(format!("node-{i}"))
        }
    }
    fn log_path(&self, i: usize) -> PathBuf {
        self.logs.path().join(format!("node-{i}.log"))
    }
    fn log(&self, i: usize) -> String {
        std::fs::read_to_string(self.log_path(i)).unwrap_or_default()
    }
    /// Stops node `i` as an operator would (SIGTERM) and waits for it to exit.
    fn stop(&mut self, i: usize) {
        if let Some(mut c) = self.nodes[i].take() {
            let pid = libc::pid_t::try_from(c.id()).expect("pid");
            // SAFETY: signals a child process this test started and still owns.
            unsafe { libc::kill(pid, libc::SIGTERM) };
            let status = c.wait().expect("wait");
            assert!(status.success(), "a stopped node exits cleanly: {status}");
        }
    }
    /// Runs node `i` expecting it to refuse to start; returns its stderr.
    fn start_refused(&self, i: usize) -> String {
        let out = cowboy()
            .args(["node", "run", "--home"])
            .arg(self.home(i))
            .output()
            .expect("run node");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "the node started: {stderr}");
        stderr
    }
    fn health(&self, i: usize) -> cowboy_rpc::Health {
        self.runtime
            .block_on(self.client(i).health())
            .expect("health")
    }
    /// Whether node `i`'s process has exited (a zombie not yet reaped; read without reaping
    /// it, so `Drop` still waits for it).
    fn exited(&self, i: usize) -> bool {
        let Some(child) = self.nodes[i].as_ref() else {
            return false;
        };
        std::fs::read_to_string(format!("/proc/{}/stat", child.id()))
            .ok()
            .and_then(|stat| {
                let (_, rest) = stat.rsplit_once(')')?;
                rest.split_whitespace().next().map(|state| state == "Z")
            })
            .unwrap_or(true)
    }
    /// Waits (polling the node's health once per long poll) until `done` holds.
    fn wait_health(&self, i: usize, what: &str, done: impl Fn(&cowboy_rpc::Health) -> bool) {
        let client = self.client(i);
        self.runtime.block_on(async {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
            loop {
                if let Ok(h) = client.health().await {
                    if done(&h) {
                        return;
                    }
                    // Wakes at the next block, or after a second without one.
                    let _ = client.wait_for_block(h.height, Some(1_000)).await;
                } else {
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                let exited = self.exited(i);
                assert!(
                    !exited && std::time::Instant::now() < deadline,
                    "node {i} never became {what}: {:?}; its process exited: {exited}\n{}",
                    client.health().await,
                    self.log(i)
                );
            }
        });
    }
    fn send(&self, i: usize, tx: &cowboy_types::Transaction) -> Result<cowboy_types::Hash, String> {
        self.runtime
            .block_on(
                self.client(i)
                    .send_raw_transaction(cowboy_types::json::HexBytes(tx.to_bytes())),
            )
            .map_err(|e| e.to_string())
    }
    fn wait_receipt(&self, i: usize, hash: cowboy_types::Hash) -> cowboy_rpc::ReceiptView {
        self.runtime.block_on(async {
            let client = self.client(i);
            for _ in 0..6 {
                if let Ok(Some(r)) = client.wait_for_receipt(hash, Some(30_000)).await {
                    return r;
                }
            }
            panic!("no receipt for {hash}");
        })
    }
    fn url(&self, i: usize) -> String {
        format!("http://127.0.0.1:{}", self.rpc_base + i as u16)
    }
    fn client(&self, i: usize) -> cowboy_rpc::jsonrpsee::http_client::HttpClient {
        cowboy_rpc::client(&self.url(i)).expect("client")
    }
    fn start(&mut self, i: usize) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path(i))
            .expect("log");
        self.start_logging_to(i, log, "info");
    }
    /// Starts node `i` with its stderr on `log`, at `level`.
    fn start_logging_to(&mut self, i: usize, log: std::fs::File, level: &str) {
        let child = cowboy()
            .args(["node", "run", "--home"])
            .arg(self.home(i))
            .args(["--log-level", level])
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
                    std::time::Instant::now() < deadline && !self.exited(i),
                    "node {i} did not reach {height}; its process exited: {}\n{}",
                    self.exited(i),
                    self.log(i)
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
    let logs = tempfile::tempdir().expect("log directory");
    net_in(tempfile::tempdir().expect("tempdir"), logs, n, |_| {})
}

/// `n` validators with their homes in `dir` and their logs in `logs`; `configure` edits each
/// `config.toml` before its node starts.
fn net_in(
    dir: tempfile::TempDir,
    logs: tempfile::TempDir,
    n: usize,
    configure: impl Fn(&Path),
) -> Net {
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
        logs,
        nodes: (0..n).map(|_| None).collect(),
        rpc_base: rpc,
        runtime: tokio::runtime::Runtime::new().expect("runtime"),
    };
    for i in 0..n {
        configure(&net.home(i).join("config.toml"));
        net.start(i);
    }
    net
}

/// A signed transfer of 1 base unit from the funded key, on the test chain.
fn transfer(nonce: u64) -> cowboy_types::Transaction {
    let k = cowboy_crypto::PrivateKey::from_hex(KEY).expect("key");
    support::signed_transfer(&k, 4242, nonce, cowboy_types::Address([7; 20]), 30_000)
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

/// The vote journal's section files, newest last.
fn vote_sections(home: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(home.join("data/consensus/cowboy-simplex"))
        .expect("vote journal")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

#[test]
fn damaged_or_missing_storage_stops_the_node_and_never_forks_it() {
    let mut net = net(1);
    net.wait_height(0, 4);
    net.stop(0);
    let home = net.home(0);
    let pristine = net.dir.path().join("pristine");
    support::copy_tree(&home.join("data"), &pristine);
    let restore = || {
        let _ = std::fs::remove_dir_all(home.join("data"));
        support::copy_tree(&pristine, &home.join("data"));
    };

    // A byte flipped inside the vote journal: refused, naming the file.
    let newest = vote_sections(&home).pop().expect("a vote section");
    let mut bytes = std::fs::read(&newest).expect("read");
    bytes[100..104].copy_from_slice(&[0xff; 4]);
    std::fs::write(&newest, bytes).expect("write");
    let err = net.start_refused(0);
    assert!(err.contains("consensus storage is damaged"), "{err}");
    assert!(err.contains(&newest.display().to_string()), "{err}");
    restore();

    // An emptied chain.redb, a deleted consensus directory, a deleted vote journal.
    std::fs::write(home.join("data/chain.redb"), b"").expect("empty");
    let err = net.start_refused(0);
    assert!(err.contains("chain.redb is empty"), "{err}");
    assert!(
        err.contains("restore the missing part from a backup"),
        "{err}"
    );
    restore();
    std::fs::remove_dir_all(home.join("data/consensus")).expect("rm");
    let err = net.start_refused(0);
    assert!(err.contains("consensus storage"), "{err}");
    restore();
    std::fs::remove_dir_all(home.join("data/consensus/cowboy-simplex")).expect("rm");
    let err = net.start_refused(0);
    assert!(err.contains("vote journal"), "{err}");
    restore();

    // The journal's tail lost (a torn or cut file): commonware truncates it to its last valid
    // entry. The node forgot its votes for the newest views; it must not sign a block that
    // conflicts with what it finalized. Alone, it cannot go on: it says it is stalled.
    net.start(0);
    net.wait_height(0, 4);
    let height = net.height(0);
    let roots: Vec<String> = (1..=height).map(|h| net.root_at(0, h)).collect();
    net.stop(0);
    for section in vote_sections(&home).iter().rev().take(3) {
        let len = std::fs::metadata(section).expect("meta").len();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(section)
            .expect("open");
        file.set_len(len / 3).expect("truncate");
    }
    let before_restart = net.log(0).len();
    net.start(0);
    net.wait_health(0, "stalled", |h| h.stalled);
    let health = net.health(0);
    assert!(!health.halted && !health.ready, "{health:?}");
    assert!(
        health.reason.unwrap_or_default().contains("stalled"),
        "{:?}",
        net.health(0)
    );
    let log = net.log(0)[before_restart..].to_string();
    assert!(log.contains("not proposing"), "{log}");
    assert!(log.contains("cowboy-simplex"), "{log}");
    assert!(
        !log.contains("DIVERGED") && !log.contains("FAILED"),
        "{log}"
    );
    for (h, root) in (1..).zip(&roots) {
        assert_eq!(&net.root_at(0, h), root, "block {h} changed");
    }
}

#[test]
fn a_descriptor_limit_too_low_for_the_configuration_refuses_to_start() {
    let mut net = net(1);
    net.wait_height(0, 1);
    net.stop(0);
    let out = Command::new("prlimit")
        .arg("--nofile=64:64")
        .arg(env!("CARGO_BIN_EXE_cowboy"))
        .args(["node", "run", "--home"])
        .arg(net.home(0))
        .output()
        .expect("prlimit (util-linux)");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("the open-file limit is 64"), "{err}");
    assert!(err.contains("ulimit -n"), "{err}");
}

#[test]
fn accepted_transactions_survive_kill_9() {
    let mut net = net(1);
    net.wait_height(0, 1);
    // Waits behind a nonce gap, so it is still pending when the node dies.
    let gapped = net.send(0, &transfer(1)).expect("accepted");
    net.kill(0);
    net.start(0);
    net.wait_height(0, 1);
    let first = net.send(0, &transfer(0)).expect("accepted");
    assert_eq!(
        net.wait_receipt(0, first).status,
        cowboy_rpc::ReceiptStatus::Success
    );
    assert_eq!(
        net.wait_receipt(0, gapped).status,
        cowboy_rpc::ReceiptStatus::Success
    );
}

#[test]
fn a_stopped_node_closes_its_store_cleanly_with_every_block_it_executed() {
    // Blocks are committed without waiting for the disk and synced on a thread of their own;
    // stopping must still close the store cleanly (a read-only open refuses one that needs
    // repair) and keep every block the node said it executed.
    let mut net = net(1);
    net.wait_height(0, 1);
    let sent = net.send(0, &transfer(0)).expect("accepted");
    net.wait_receipt(0, sent);
    let executed = net.height(0);
    net.stop(0);
    let store = cowboy_node::node::Home(net.home(0))
        .data()
        .join("chain.redb");
    let db = redb::ReadOnlyDatabase::open(&store).expect("the store was closed cleanly");
    drop(db);
    let snapshot = cowboy_state::Store::read_latest(&store).expect("the store");
    assert!(
        snapshot.height >= Some(executed),
        "the store is at {:?}, the node had executed {executed}",
        snapshot.height
    );
}

/// A small tmpfs, unmounted when dropped.
struct Tmpfs(tempfile::TempDir);

impl Tmpfs {
    fn mount(megabytes: u64) -> Option<Self> {
        let dir = tempfile::tempdir().expect("tempdir");
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(dir.path())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        ok.then_some(Self(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.0.path()).status();
    }
}

#[test]
fn a_log_that_cannot_be_written_never_stops_the_node() {
    // Every write to /dev/full fails with ENOSPC, as a log on a full disk does.
    let mut net = net(1);
    net.wait_height(0, 1);
    let from = net.height(0);
    net.stop(0);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    net.start_logging_to(0, full, "debug");
    net.wait_height(0, from + 3);
    let sent = net.send(0, &transfer(0)).expect("accepted");
    assert_eq!(
        net.wait_receipt(0, sent).status,
        cowboy_rpc::ReceiptStatus::Success
    );
    net.stop(0);
}

#[test]
fn a_nearly_full_or_suddenly_full_disk_pauses_the_node_keeps_its_transactions_and_resumes() {
    let Some(disk) = Tmpfs::mount(64) else {
        // `.ci/run` runs as root; elsewhere this test needs `sudo` to mount a tmpfs.
        eprintln!("SKIPPED: cannot mount a tmpfs (needs root)");
        return;
    };
    let home = tempfile::Builder::new()
        .prefix("home")
        .tempdir_in(disk.0.path())
        .expect("home on the tmpfs");
    // The node's stderr goes to the same disk, as an operator's `2>> node.log` would: a log
    // write that fails must not take the node down.
    let logs = tempfile::Builder::new()
        .prefix("logs")
        .tempdir_in(disk.0.path())
        .expect("logs on the tmpfs");
    let floor = 8 * 1024 * 1024;
    let mut net = net_in(home, logs, 1, |config| {
        let text = std::fs::read_to_string(config).expect("config");
        let text = text
            .lines()
            .map(|l| {
                if l.starts_with("min_free_bytes") {
                    format!("min_free_bytes = {floor}")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(config, text).expect("config");
    });
    net.wait_height(0, 2);
    // Accepted before the disk fills: waits behind a nonce gap.
    let gapped = net.send(0, &transfer(1)).expect("accepted");

    // Fill the disk to 4 MiB above empty, below the floor.
    let free = |path: &Path| {
        let out = Command::new("df")
            .args(["--output=avail", "-B1"])
            .arg(path)
            .output()
            .expect("df");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .nth(1)
            .and_then(|l| l.trim().parse::<u64>().ok())
            .expect("free bytes")
    };
    let filler = disk.0.path().join("filler");
    let size = free(disk.0.path()) - 4 * 1024 * 1024;
    std::fs::write(&filler, vec![0u8; size as usize]).expect("fill");
    net.wait_health(0, "paused", |h| h.disk_paused);
    let health = net.health(0);
    assert!(!health.ready, "{health:?}");
    assert!(
        health
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("free space to resume"),
        "{health:?}"
    );
    let refused = net.send(0, &transfer(0)).expect_err("no new transactions");
    assert!(refused.contains("disk is nearly full"), "{refused}");
    let paused_at = net.height(0);

    // Space returns: it resumes, and the transaction accepted before the pause executes.
    std::fs::remove_file(&filler).expect("free the space");
    net.wait_health(0, "resumed", |h| !h.disk_paused && h.height > paused_at);
    let first = net.send(0, &transfer(0)).expect("accepted");
    assert_eq!(
        net.wait_receipt(0, first).status,
        cowboy_rpc::ReceiptStatus::Success
    );
    assert_eq!(
        net.wait_receipt(0, gapped).status,
        cowboy_rpc::ReceiptStatus::Success
    );

    // A runaway writer fills the disk to the last byte at once, faster than the node's
    // once-a-second check. The first store write that finds no space releases the node's
    // reserve and is retried; the node pauses instead of exiting, and resumes when space
    // returns, with what it accepted before.
    let reserve = net.home(0).join("data/disk.reserve");
    assert!(reserve.exists(), "the reserve is taken at start");
    let gapped = net.send(0, &transfer(3)).expect("accepted");
    let mut runaway = std::fs::File::create(&filler).expect("filler");
    let chunk = vec![0u8; 256 * 1024];
    let full = loop {
        if let Err(e) = std::io::Write::write_all(&mut runaway, &chunk) {
            break e;
        }
    };
    assert_eq!(full.raw_os_error(), Some(libc::ENOSPC), "{full}");
    drop(runaway);
    net.wait_health(0, "paused by a full disk", |h| h.disk_paused);
    // Consensus keeps journaling its (empty) views; the first that finds no space spends the
    // reserve. The node is still up and says why it stopped.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while reserve.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "no write found the disk full: {}",
            net.log(0)
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let health = net.health(0);
    assert!(health.disk_paused && !health.ready, "{health:?}");
    assert!(!health.halted, "{health:?}");
    let paused_at = net.height(0);
    std::fs::remove_file(&filler).expect("free the space");
    net.wait_health(0, "resumed after a full disk", |h| {
        !h.disk_paused && h.height > paused_at
    });
    assert!(reserve.exists(), "the reserve is taken again on resuming");
    let next = net.send(0, &transfer(2)).expect("accepted");
    assert_eq!(
        net.wait_receipt(0, next).status,
        cowboy_rpc::ReceiptStatus::Success
    );
    assert_eq!(
        net.wait_receipt(0, gapped).status,
        cowboy_rpc::ReceiptStatus::Success
    );
    let log = net.log(0);
    assert!(!log.contains("panicked"), "{log}");
    net.kill(0);
    drop(net);
}
