//! `cowboy devnet` end to end, with real processes on loopback: the README's main job and the
//! next commands it prints; a 4-validator lifecycle with a fault drill (stop one node, the
//! rest keep finalizing, start it, it catches up, roots agree), "already running" and "port in
//! use"; the faucet's rate limit; every example deployed and exercised. Every wait is a long
//! poll or a process exit, never a sleep. And `cowboy test`'s local chain gives the receipts a
//! devnet gives for the same steps. The tests share the machine's two cores, so they
//! run one at a time.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

use snapbox::str;
use std::{
    io::{BufRead as _, BufReader},
    path::Path,
    process::Stdio,
    sync::Mutex,
};
use support::devnet::{Devnet, bin, cowboy, height, json, json_lines, wait_above};
use support::free_base;

/// One devnet test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

#[test]
fn four_validators_lifecycle_with_fault_drill() {
    let _serial = serial();
    let (devnet, up) = Devnet::up(4, 300, &[]);
    let home = devnet.home();
    assert_eq!(up["nodes"].as_array().map(Vec::len), Some(4));
    assert_eq!(up["resumed"], false);
    let url = |i: usize| up["nodes"][i]["rpc_url"].as_str().expect("url").to_string();
    let rpc_port = url(0).rsplit(':').next().expect("port").to_string();

    // A second `up` of the running devnet says so.
    cowboy(home)
        .args(["devnet", "up", "--detach"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: devnet "local" is already running (node-0 RPC http://127.0.0.1:[..]); see it with `cowboy devnet status --name local` or stop it with `cowboy devnet down --name local`

"#]]);
    // Another devnet on a port in use is refused before anything is written.
    cowboy(home)
        .args(["devnet", "up", "--name", "other", "--detach", "--rpc-port", &rpc_port])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: port [..] (node-0 RPC) is already in use by another program; pick free ports with --rpc-port PORT or stop whatever listens there

"#]]);
    assert!(!home.join("devnets/other").exists());

    // Fault drill: stop one node; the other three keep finalizing.
    cowboy(home)
        .args(["devnet", "stop", "node-3"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
stopped node-3

"#]]);
    let before = height(&url(0));
    let after = wait_above(&url(0), before + 2);
    assert!(after > before + 2);
    let status = json(home, &["devnet", "status"]);
    assert_eq!(status["nodes"][3]["running"], false);
    assert_eq!(status["roots_agree"], true, "{status}");
    // In words: the stopped validator is counted, not silently left out of the agreement.
    let text = cowboy(home)
        .args(["devnet", "status"])
        .output()
        .expect("status");
    let first = String::from_utf8_lossy(&text.stdout)
        .lines()
        .next()
        .map(str::to_string);
    assert!(
        first.as_deref().is_some_and(|l| l.starts_with(
            "devnet local (chain 31337): 1 of 4 validators unreachable; state roots agree at height "
        ) && l.ends_with(" among the 3 that answer")),
        "{first:?}"
    );
    let listed = json(home, &["devnet", "ls"]);
    assert_eq!(listed[0]["running"], 3, "{listed}");

    // Start it again: it returns once caught up, and every root agrees.
    cowboy(home)
        .args(["devnet", "start", "node-3"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
started node-3: caught up at height [..]

"#]]);
    wait_above(&url(3), after);
    let status = json(home, &["devnet", "status"]);
    let nodes = status["nodes"].as_array().expect("nodes");
    assert!(nodes.iter().all(|n| n["running"] == true), "{status}");
    assert!(nodes.iter().all(|n| n["height"].as_u64().is_some()));
    assert!(
        status["common_height"].as_u64().expect("common") >= after,
        "{status}"
    );
    assert_eq!(status["roots_agree"], true, "{status}");

    // Logs of one process, the last N lines.
    let logs = cowboy(home)
        .args(["devnet", "logs", "node-0", "-n", "3"])
        .output()
        .expect("logs");
    assert_eq!(String::from_utf8_lossy(&logs.stdout).lines().count(), 3);
    cowboy(home)
        .args(["devnet", "logs", "node-9"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: devnet "local" has no process "node-9"; it has node-0, node-1, node-2, node-3, faucet

"#]]);

    // Down keeps the chain; up resumes it at or above the old height.
    cowboy(home)
        .args(["devnet", "down"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
stopped faucet, node-0, node-1, node-2, node-3; chain data kept in [..] (`cowboy devnet up --name local` resumes it, `cowboy devnet reset --name local` deletes it)

"#]]);
    cowboy(home)
        .args(["devnet", "up", "--detach", "--validators", "2"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: devnet "local" already exists with 4 validator(s); `cowboy devnet up --name local` resumes it as it is, `cowboy devnet reset --name local` deletes it so it can be made with 2

"#]]);
    let resumed = json(home, &["devnet", "up", "--detach"]);
    assert_eq!(resumed["resumed"], true);
    assert!(height(&url(0)) >= after);
    cowboy(home)
        .args(["devnet", "reset"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
deleted devnet local ([..])

"#]]);
    assert!(!home.join("devnets/local").exists());
    cowboy(home)
        .args(["devnet", "status"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: no devnet named "local" (looked in [..]); create it with `cowboy devnet up --name local`

"#]]);
}

#[test]
fn faucet_funds_once_then_rate_limits() {
    let _serial = serial();
    let (devnet, _) = Devnet::up(1, 200, &[]);
    let home = devnet.home();
    let who = "0x1234567890123456789012345678901234567890";
    cowboy(home)
        .args(["faucet", who])
        .assert()
        .success()
        .stdout_eq(str![[r#"
sent 100000000000 base units (100 CBY) to 0x1234567890123456789012345678901234567890 in block [..] (tx 0x[..])

"#]]);
    cowboy(home)
        .args(["faucet", who])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: the faucet refused: rate limited: 0x1234567890123456789012345678901234567890 was already funded (limit 1 request per 60 s); try again in [..] s

"#]]);
    cowboy(home)
        .args([
            "faucet",
            "0x2222222222222222222222222222222222222222",
            "--amount",
            "0",
        ])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: the faucet refused: amount 0 is out of range: ask for 1 to 1000000000000 base units

"#]]);
    let balance = json(home, &["balance", who]);
    assert_eq!(balance["balance"], "100000000000");

    // `logs --follow` keeps printing as the node logs new blocks.
    let mut follow = std::process::Command::new(bin())
        .args(["devnet", "logs", "node-0", "--follow", "-n", "0"])
        .env("COWBOY_HOME", home)
        .stdout(Stdio::piped())
        .spawn()
        .expect("logs --follow");
    let mut lines = BufReader::new(follow.stdout.take().expect("stdout")).lines();
    let line = lines.next().expect("a followed line").expect("utf-8");
    assert!(line.contains("INFO"), "{line}");
    let _ = follow.kill();
    let _ = follow.wait();
    let info = json(home, &["faucet", "info"]);
    assert_eq!(info["per_address"]["count"], 1);
    assert_eq!(info["per_ip"]["count"], 10);
}

/// The README's main job, run as written in the foreground; then every command it prints
/// under "try:", exactly as printed; then Ctrl-C stops the devnet. Its default ports are
/// moved to free ones with `COWBOY_DEVNET_*_PORT`, so another program holding 8545 on a shared
/// machine cannot fail it.
#[test]
fn readme_main_job_and_its_next_commands() {
    let _serial = serial();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README");
    let main_job = "cargo run --release -p cowboy-cli -- devnet up --example counter";
    assert!(readme.contains(main_job), "the README's main job changed");
    let args: Vec<&str> = main_job
        .split_once(" -- ")
        .expect("cargo run -- ARGS")
        .1
        .split_whitespace()
        .collect();

    let home = tempfile::tempdir().expect("home");
    let mut up = std::process::Command::new(bin())
        .args(&args)
        .env("COWBOY_HOME", home.path())
        .env_remove("COWBOY_RPC_URL")
        .env("COWBOY_DEVNET_RPC_PORT", free_base(1).to_string())
        .env("COWBOY_DEVNET_P2P_PORT", free_base(1).to_string())
        .env("COWBOY_DEVNET_FAUCET_PORT", free_base(1).to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("devnet up");
    let stdout = up.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mut printed = Vec::new();
    for line in lines.by_ref() {
        let line = line.expect("line");
        let done = line.starts_with("press Ctrl-C");
        printed.push(line);
        if done {
            break;
        }
    }
    let text = printed.join("\n");
    assert!(text.contains("example counter deployed:"), "{text}");
    assert!(text.contains("called counter.increment → 11"), "{text}");
    let try_at = printed.iter().position(|l| l == "try:").expect("try:");
    let next: Vec<String> = printed[try_at + 1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .map(|l| l.trim().to_string())
        .collect();
    assert!(next.len() >= 3, "{text}");
    for command in &next {
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "cowboy", "{command}");
        cowboy(home.path()).args(&words[1..]).assert().success();
    }
    // `increment 5` ran once after the demo's increment: 10 + 1 + 5.
    let counter = next[0].split_whitespace().nth(2).expect("address");
    cowboy(home.path())
        .args(["query", counter, "get"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
16

"#]]);

    // Ctrl-C in the terminal: the devnet stops and nothing keeps running.
    // SAFETY: signalling our own child.
    unsafe { libc::kill(up.id() as libc::pid_t, libc::SIGINT) };
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = up.wait().expect("wait");
    assert!(status.success(), "{status:?}");
    assert!(
        rest.iter().any(|l| l.starts_with("stopped faucet, node-0")),
        "{rest:?}"
    );
    let status = json(home.path(), &["devnet", "status"]);
    assert_eq!(status["nodes"][0]["running"], false);
    assert_eq!(status["faucet_running"], false);
}

/// Every example deployed to a devnet and exercised: the counter counts, the heartbeat beats
/// on its own, the ping-pong pair answers with correlation ids and a silent ponger's request
/// expires on its timeout timer.
#[test]
fn examples_deployed_and_exercised() {
    let _serial = serial();
    let (devnet, up) = Devnet::up(1, 200, &[]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let project = |name: &str| scratch_example(home, name);
    let deploy =
        |path: &str, actor: &str, extra: &[&str]| created(&deploy_actor(home, path, actor, extra));
    let returned = |args: &[&str]| -> serde_json::Value {
        let r = json(home, args);
        r.get("return_value").cloned().unwrap_or(r)
    };

    // Counter.
    let path = project("counter");
    let counter = deploy(&path, "counter", &["--args", "10"]);
    assert_eq!(returned(&["call", &counter, "increment", "5"]), 15);
    assert_eq!(
        returned(&[
            "query",
            &counter,
            "count_of",
            "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        ]),
        5
    );

    // Heartbeat: beats every 2 blocks with nobody calling it.
    let path = project("heartbeat");
    let heartbeat = deploy(
        &path,
        "heartbeat",
        &["--args", "2", "--value", "100000000000"],
    );
    let start = height(&url);
    wait_above(&url, start + 6);
    let status = returned(&["query", &heartbeat, "status"]);
    assert!(status["beats"].as_u64().expect("beats") >= 2, "{status}");
    assert_eq!(status["running"], true);
    // Its timer: pending, paid by the actor, with the firings so far and their receipts.
    let timers = json(home, &["timer", "list", &heartbeat]);
    let id = timers[0]["id"]
        .as_str()
        .expect("a pending timer")
        .to_string();
    assert_eq!(timers[0]["fee_payer"].as_str(), Some(heartbeat.as_str()));
    let shown = json(home, &["timer", "show", &id]);
    assert_eq!(
        shown["pending"]["id"].as_str(),
        Some(id.as_str()),
        "{shown}"
    );
    let firings = shown["firings"].as_array().expect("firings");
    assert!(firings.len() >= 2, "{shown}");
    assert!(
        firings
            .windows(2)
            .all(|w| w[0]["height"].as_u64() > w[1]["height"].as_u64()),
        "newest first: {shown}"
    );
    assert!(
        firings.iter().all(|f| f["receipt"]["status"] == "success"
            && f["receipt"]["cycles_used"].as_u64() > Some(0)),
        "{shown}"
    );
    assert_eq!(returned(&["call", &heartbeat, "pause"]), true);
    let timers = json(home, &["timer", "list", &heartbeat]);
    assert_eq!(timers.as_array().map(Vec::len), Some(0), "{timers}");
    // Cancelled, it is no longer pending, and its firings are still listed.
    let out = cowboy(home)
        .args(["timer", "show", &id])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with(&format!("timer {id}: not pending"))
            && text.contains("firings, newest first:\n  height "),
        "{text}"
    );

    // Ping-pong: an answered request, then a silent ponger and an expired one.
    let path = project("ping-pong");
    let ponger = deploy(&path, "ponger", &[]);
    let pinger = deploy(&path, "pinger", &["--args", "3", "--value", "100000000000"]);
    assert_eq!(returned(&["call", &pinger, "ping", &ponger, "\"hi\""]), 1);
    let request = returned(&["query", &pinger, "request", "1"]);
    assert_eq!(request["state"], "answered", "{request}");
    assert_eq!(request["reply"], "hi");
    assert_eq!(returned(&["call", &ponger, "set_silent", "true"]), true);
    assert_eq!(
        returned(&["call", &pinger, "ping", &ponger, "\"anyone?\""]),
        2
    );
    let request = returned(&["query", &pinger, "request", "2"]);
    assert_eq!(request["state"], "pending", "{request}");
    let deadline = request["deadline"].as_u64().expect("deadline");
    wait_above(&url, deadline);
    let request = returned(&["query", &pinger, "request", "2"]);
    assert_eq!(request["state"], "expired", "{request}");
    let stats = returned(&["query", &pinger, "stats"]);
    assert_eq!(
        stats,
        serde_json::json!({"sent": 2, "answered": 1, "expired": 1, "ignored": 0})
    );
}

/// Issue 14's acceptance: the same steps on a 1-validator devnet and on `cowboy test`'s local
/// chain give the same receipts. Two actors are deployed, one messages the other (answered
/// within the transaction), and blocks pass until a timeout timer fires. The devnet runs
/// first; the local scenario then puts each step at the height it had on the devnet (`height`,
/// `advance`), from the same deployer, with the client library's limits and priority fee, so
/// everything but the transactions' signatures (and so hashes) is the same: statuses, return
/// values, events, deliveries, cycles, cells and fees.
#[test]
fn local_chain_gives_a_devnets_receipts() {
    let _serial = serial();
    let (devnet, up) = Devnet::up(1, 200, &[]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let project = support::example("ping-pong", &home.join("projects"));
    let path = project.display().to_string();
    json(home, &["build", "--path", &path]);
    let deploy = |actor: &str, extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["deploy", "--path", &path, "--actor", actor];
        args.extend_from_slice(extra);
        json(home, &args)
    };

    // On the devnet, from dev account 0.
    let mut chain = vec![deploy(
        "pinger",
        &["--args", "5", "--value", "100000000000"],
    )];
    let pinger = created(&chain[0]);
    chain.push(deploy("ponger", &[]));
    let ponger = created(&chain[1]);
    chain.push(json(home, &["call", &pinger, "ping", &ponger, "\"hi\""]));
    chain.push(json(home, &["call", &ponger, "set_silent", "true"]));
    chain.push(json(home, &["call", &pinger, "ping", &ponger, "\"again\""]));
    let timers = json(home, &["timer", "list", &pinger]);
    let timer = &timers.as_array().expect("timers")[0];
    let fires_at = timer["height"].as_u64().expect("height");
    wait_above(&url, fires_at);
    // A firing's receipt is filed under keccak256(timer id ‖ height).
    let mut id = hex::decode(&timer["id"].as_str().expect("id")[2..]).expect("hex");
    id.extend_from_slice(&fires_at.to_be_bytes());
    let firing = cowboy_types::keccak256(&id).to_string();
    let status = json(home, &["tx", "status", &firing]);
    let firing_receipt = status["receipt"].clone();
    chain.push(json(home, &["call", &pinger, "stats"]));
    for r in &chain {
        assert_eq!(r["status"], "success", "{r}");
    }
    assert_eq!(firing_receipt["block_height"], fires_at, "{status}");

    // The same steps locally, each at its devnet height.
    let heights: Vec<u64> = chain
        .iter()
        .map(|r| r["block_height"].as_u64().expect("height"))
        .collect();
    let mut at = heights[0];
    let mut toml = format!(
        "actor = \"pinger\"\ndeployer = \"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\"\n\
         height = {at}\ninit_args = [5]\ninit_value = 100000000000\n"
    );
    let mut step = |toml: &mut String, height: u64, body: &str| {
        if height > at + 1 {
            toml.push_str(&format!("\n[[steps]]\nadvance = {}\n", height - at - 1));
        }
        toml.push_str(&format!("\n[[steps]]\n{body}\n"));
        at = height;
    };
    step(&mut toml, heights[1], "deploy = \"ponger\"");
    step(
        &mut toml,
        heights[2],
        "call = \"ping\"\nargs = [\"$ponger\", \"hi\"]",
    );
    step(
        &mut toml,
        heights[3],
        "call = \"set_silent\"\nto = \"ponger\"\nargs = [true]",
    );
    step(
        &mut toml,
        heights[4],
        "call = \"ping\"\nargs = [\"$ponger\", \"again\"]",
    );
    step(&mut toml, heights[5], "call = \"stats\"");
    std::fs::write(project.join("tests/devnet_heights.toml"), &toml).expect("write");
    let local = json(home, &["test", "devnet_heights", "--path", &path]);
    let file = &local["files"][0];
    assert!(file["failure"].is_null(), "{toml}\n{file}");
    let receipts = file["receipts"].as_array().expect("receipts");

    // Everything a receipt says about execution, which signatures do not change.
    let executed = |r: &serde_json::Value| {
        let mut r = r.clone();
        let o = r.as_object_mut().expect("receipt");
        for key in ["tx_hash", "block_hash", "step", "logs"] {
            o.remove(key);
        }
        r
    };
    for devnet_receipt in &chain {
        let height = &devnet_receipt["block_height"];
        let local_receipt = receipts
            .iter()
            .find(|r| &r["block_height"] == height && r["tx_hash"] != firing)
            .unwrap_or_else(|| panic!("no local receipt at height {height}: {file}"));
        assert_eq!(executed(local_receipt), executed(devnet_receipt));
    }
    let local_firing = receipts
        .iter()
        .find(|r| r["tx_hash"] == firing)
        .unwrap_or_else(|| panic!("the timer did not fire locally: {file}"));
    assert_eq!(executed(local_firing), executed(&firing_receipt));
    assert_eq!(local_firing["events"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        chain[5]["return_value"],
        serde_json::json!({"sent": 2, "answered": 1, "expired": 1, "ignored": 0})
    );
}

/// Metering parity: the cycles and cells of a deploy and of a call under `cowboy test` (a
/// Python test) equal those of the same deploy and call on a 1-validator devnet.
#[test]
fn python_tests_meter_calls_as_a_devnet_does() {
    let _serial = serial();
    let (devnet, _up) = Devnet::up(1, 200, &[]);
    let home = devnet.home();
    let project = support::example("counter", &home.join("projects"));
    let path = project.display().to_string();
    let deployed = json(home, &["deploy", "--path", &path, "--args", "0"]);
    assert_eq!(deployed["status"], "success", "{deployed}");
    let counter = deployed["created"].as_str().expect("created").to_string();
    let called = json(home, &["call", &counter, "increment", "5"]);
    assert_eq!(called["status"], "success", "{called}");
    let costs = |r: &serde_json::Value| {
        (
            r["cycles_used"].as_u64().expect("cycles"),
            r["cells_used"].as_u64().expect("cells"),
        )
    };
    let (deploy_cycles, deploy_cells) = costs(&deployed);
    let (call_cycles, call_cells) = costs(&called);
    std::fs::write(
        project.join("tests/test_parity.py"),
        format!(
            "import cowboy_test as ct\n\n\
             def test_the_devnets_costs():\n    \
             counter = ct.deploy(\"counter\", 0)\n    \
             deploy = ct.receipts()[0]\n    \
             call = counter.transact(\"increment\", 5)\n    \
             assert call.ok and call.return_value == 5\n    \
             assert (deploy.cycles, deploy.cells) == ({deploy_cycles}, {deploy_cells}), deploy\n    \
             assert (call.cycles, call.cells) == ({call_cycles}, {call_cells}), call\n"
        ),
    )
    .expect("write");
    let local = json(home, &["test", "parity", "--path", &path]);
    assert_eq!(local["passed"], 1, "{local}");
    assert_eq!(local["failed"], 0, "{local}");
}

/// `cowboy deploy --watch`: the project's actor is deployed, then deployed again at a new
/// address each time its source is saved; a save that changes no actor deploys nothing. The
/// manifest's `deploy_value` is not sent (every save would send it again).
#[test]
fn deploy_watch_redeploys_a_saved_actor_at_a_new_address() {
    let _serial = serial();
    let (devnet, _up) = Devnet::up(1, 200, &[]);
    let home = devnet.home();
    let project = support::example("counter", &home.join("projects"));
    let manifest = project.join("cowboy.toml");
    let text = std::fs::read_to_string(&manifest).expect("read");
    let text = text.replace(
        "deploy_args = [10]",
        "deploy_args = [10]\ndeploy_value = 5000000000",
    );
    std::fs::write(&manifest, text).expect("write");
    let mut child = std::process::Command::new(bin())
        .args(["deploy", "--watch", "--json", "--args", "0", "--path"])
        .arg(&project)
        .env("COWBOY_HOME", home)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cowboy deploy --watch");
    let stdout = child.stdout.take().expect("stdout");
    let lines = support::lines(stdout);
    // The next deploy's receipt (a bound, not a wait: a deploy takes a few blocks).
    let next = || -> serde_json::Value {
        let line = lines
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("a deploy's receipt");
        let receipt = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
        support::check_published_schema(&["deploy"], &receipt);
        receipt
    };
    let created = |r: &serde_json::Value| {
        assert_eq!(r["status"], "success", "{r}");
        r["created"].as_str().expect("created").to_string()
    };
    let first = created(&next());
    let source = project.join("src/counter.py");
    let append = |text: &str| {
        let mut s = std::fs::read_to_string(&source).expect("read");
        s.push_str(text);
        std::fs::write(&source, s).expect("write");
    };
    append("\n# saved once\n");
    let second = created(&next());
    assert_ne!(first, second);
    // A save that changes no actor's code (a README is not watched; a test is, and deploys
    // nothing), then one that does: the next receipt is the second save's.
    std::fs::write(project.join("tests/notes.toml"), "# not a scenario yet\n").expect("write");
    append("\n# saved twice\n");
    let third = created(&next());
    assert!(third != first && third != second);
    let _ = child.kill();
    let _ = child.wait();
    for actor in [&first, &second, &third] {
        let account = json(home, &["balance", actor]);
        assert_eq!(
            account["balance"], "0",
            "deploy --watch sent a value: {account}"
        );
    }
}

/// `cowboy_getEvents` and `cowboy events` on a devnet with the heartbeat beating: every event
/// is its receipt's, filters by emitter and topics agree, pages of one give the same events as
/// one page, and a range too wide, a bad cursor or a bad limit is refused with the reason.
#[test]
fn events_are_queried_by_actor_topic_and_range_a_page_at_a_time() {
    use cowboy_rpc::{CowboyApiClient as _, EventsRequest};
    let _serial = serial();
    let scratch = tempfile::tempdir().expect("scratch");
    let example = support::example("heartbeat", scratch.path());
    let (devnet, up) = Devnet::up(1, 200, &["--example", example.to_str().expect("path")]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let client = cowboy_rpc::client(&url).expect("client");
    let rt = support::devnet::runtime();
    let get = |r: EventsRequest| rt.block_on(client.events(r));
    let beat = cowboy_types::keccak256(b"Beat");
    // Five beats (every 2 blocks from the block after its deploy), block by block: when the
    // deploy lands depends on the machine's speed.
    let mut to = wait_above(&url, 14);
    for _ in 0..100 {
        let so_far = get(EventsRequest {
            to_height: Some(to),
            topics: vec![Some(beat)],
            ..EventsRequest::default()
        })
        .expect("events");
        if so_far.events.len() >= 5 {
            break;
        }
        to = wait_above(&url, to);
    }
    let request = |limit: usize| EventsRequest {
        from_height: 0,
        to_height: Some(to),
        limit: Some(limit),
        ..EventsRequest::default()
    };
    let all = get(request(1_000)).expect("events");
    assert_eq!(all.next_cursor, None);
    let beats: Vec<_> = all.events.iter().filter(|e| e.topics[0] == beat).collect();
    assert!(beats.len() >= 5, "{all:?}");
    let heartbeat = beats[0].emitter;
    // Each beat is [n, height], n counting up; each event is its receipt's.
    for (n, e) in beats.iter().enumerate() {
        assert_eq!(e.emitter, heartbeat);
        assert_eq!(
            e.value,
            Some(serde_json::json!([n + 1, e.block_height])),
            "{e:?}"
        );
        let receipt = rt
            .block_on(client.receipt(e.tx_hash))
            .expect("receipt")
            .expect("a receipt");
        assert_eq!(receipt.block_height, e.block_height);
        let shown = &receipt.events[e.event_index as usize];
        assert_eq!(
            (shown.emitter, &shown.topics, &shown.data),
            (e.emitter, &e.topics, &e.data)
        );
    }
    // Pages of one event give the same events, in the same order.
    let mut paged = Vec::new();
    let mut cursor = None;
    loop {
        let page = get(EventsRequest {
            cursor: cursor.take(),
            ..request(1)
        })
        .expect("page");
        paged.extend(page.events);
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert_eq!(paged, all.events);
    // By emitter, by first topic, and a second topic no beat has.
    let by = |r: EventsRequest| get(r).expect("events").events;
    assert_eq!(
        by(EventsRequest {
            emitter: Some(heartbeat),
            topics: vec![Some(beat)],
            ..request(1_000)
        }),
        beats.iter().map(|e| (*e).clone()).collect::<Vec<_>>()
    );
    assert!(
        by(EventsRequest {
            topics: vec![Some(beat), Some(cowboy_types::Hash([7; 32]))],
            ..request(1_000)
        })
        .is_empty()
    );
    // Refusals say why.
    let refused = |r: EventsRequest| get(r).expect_err("refused").to_string();
    let wide = refused(EventsRequest {
        from_height: 0,
        to_height: Some(20_000),
        ..EventsRequest::default()
    });
    assert!(
        wide.contains("at most 10000 without an emitter or first topic"),
        "{wide}"
    );
    assert!(
        get(EventsRequest {
            from_height: 0,
            to_height: Some(20_000),
            emitter: Some(heartbeat),
            ..EventsRequest::default()
        })
        .is_ok()
    );
    let cursor = refused(EventsRequest {
        cursor: Some("0x1234".into()),
        ..request(10)
    });
    assert!(cursor.contains("is not one a page returned"), "{cursor}");
    assert!(refused(request(0)).contains("ask for 1 to 1000 events a page"));
    // The CLI: one JSON object per event.
    let lines = json_lines(
        home,
        &[
            "events",
            "--actor",
            &heartbeat.to_string(),
            "--topic",
            "Beat",
            "--to",
            &to.to_string(),
        ],
    );
    assert_eq!(lines.len(), beats.len());
    assert_eq!(
        lines[0]["value"],
        serde_json::json!([1, beats[0].block_height])
    );
    // `--follow`: the range, then live beats from the node's subscription, each once, in
    // order, until `--limit`.
    let want = beats.len() + 3;
    let followed = json_lines(
        home,
        &[
            "events",
            "--actor",
            &heartbeat.to_string(),
            "--topic",
            "Beat",
            "--from",
            "1",
            "--follow",
            "--limit",
            &want.to_string(),
        ],
    );
    assert_eq!(followed.len(), want);
    let counts: Vec<u64> = followed
        .iter()
        .map(|e| e["value"][0].as_u64().expect("beat count"))
        .collect();
    assert_eq!(
        counts,
        (1..=want as u64).collect::<Vec<_>>(),
        "every beat once, in order"
    );
}

/// Sends SIGKILL to `pid` (a node the devnet started, not our child) and returns once it is
/// gone: a pidfd becomes readable when its process exits — a wait, not a sleep.
fn kill_9(pid: u64) {
    let pid = i32::try_from(pid).expect("a pid");
    // SAFETY: plain syscalls on a pid and a file descriptor this function owns.
    unsafe {
        let fd = libc::syscall(libc::SYS_pidfd_open, pid, 0) as i32;
        assert!(fd >= 0, "pidfd_open({pid}) failed");
        assert_eq!(libc::kill(pid, libc::SIGKILL), 0, "kill -9 {pid}");
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        assert_eq!(libc::poll(&mut p, 1, 60_000), 1, "node {pid} did not exit");
        libc::close(fd);
    }
}

/// The event index after a crash: the node is killed (`kill -9`) while the heartbeat beats and
/// transactions emit events, restarted, and then every beat of every block is queryable
/// exactly once — the beats count 1, 2, 3… with no gap and no repeat, as many as the actor
/// counted — and so is every increment the counter emitted.
#[test]
fn events_survive_a_kill_9_exactly_once() {
    use cowboy_rpc::{CowboyApiClient as _, EventsRequest};
    let _serial = serial();
    let scratch = tempfile::tempdir().expect("scratch");
    let example = support::example("heartbeat", scratch.path());
    let (devnet, up) = Devnet::up(1, 200, &["--example", example.to_str().expect("path")]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let pid = up["nodes"][0]["pid"].as_u64().expect("pid");
    let counter = support::example("counter", &home.join("projects"));
    // Counting from 0 (the project's deploy_args would start it at 10).
    let deployed = json(
        home,
        &[
            "deploy",
            "--path",
            counter.to_str().expect("path"),
            "--args",
            "0",
        ],
    );
    let counter = deployed["created"].as_str().expect("created").to_string();
    // Load: increments sent without waiting, then the kill while they are executed.
    for _ in 0..10 {
        let sent = json(home, &["call", &counter, "increment", "--no-wait"]);
        assert!(sent["tx_hash"].is_string(), "{sent}");
    }
    kill_9(pid);
    cowboy(home)
        .args(["devnet", "start", "node-0"])
        .assert()
        .success();
    let to = wait_above(&url, support::devnet::height(&url) + 4);
    let client = cowboy_rpc::client(&url).expect("client");
    let rt = support::devnet::runtime();
    let mut events = Vec::new();
    let mut cursor = None;
    loop {
        let page = rt
            .block_on(client.events(EventsRequest {
                from_height: 0,
                to_height: Some(to),
                limit: Some(1_000),
                cursor: cursor.take(),
                ..EventsRequest::default()
            }))
            .expect("events");
        events.extend(page.events);
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let positions: std::collections::BTreeSet<_> = events
        .iter()
        .map(|e| (e.block_height, e.receipt_index, e.event_index))
        .collect();
    assert_eq!(positions.len(), events.len(), "an event listed twice");
    let named = |name: &str| {
        let topic = cowboy_types::keccak256(name.as_bytes());
        events
            .iter()
            .filter(|e| e.topics.first() == Some(&topic))
            .collect::<Vec<_>>()
    };
    // Beats: [n, height] for n = 1, 2, 3… — none missing, none twice.
    let beats = named("Beat");
    for (n, e) in beats.iter().enumerate() {
        assert_eq!(
            e.value,
            Some(serde_json::json!([n + 1, e.block_height])),
            "{e:?}"
        );
    }
    let heartbeat = beats.first().expect("beats").emitter.to_string();
    let counted = json(home, &["query", &heartbeat, "status"]);
    // The query may read a later state than `to`: at least as many beats as indexed up to it.
    let counted = counted["return_value"]["beats"].as_u64().expect("beats");
    assert!(
        counted >= beats.len() as u64,
        "{counted} beats, {} indexed",
        beats.len()
    );
    // Increments: each value once, counting up.
    let increments: Vec<u64> = named("Incremented")
        .iter()
        .map(|e| e.value.as_ref().and_then(|v| v.as_u64()).expect("a count"))
        .collect();
    assert_eq!(
        increments,
        (1..=increments.len() as u64).collect::<Vec<_>>()
    );
    let count = json(home, &["query", &counter, "get"]);
    assert!(count["return_value"].as_u64().expect("count") >= increments.len() as u64);
}

/// A scratch copy of example `name` under `home`, so builds never write into the checkout.
fn scratch_example(home: &Path, name: &str) -> String {
    support::example(name, &home.join("projects"))
        .display()
        .to_string()
}

/// Builds the project at `path` and deploys its `actor`; returns the (successful) receipt.
fn deploy_actor(home: &Path, path: &str, actor: &str, extra: &[&str]) -> serde_json::Value {
    json(home, &["build", "--path", path]);
    let mut args = vec!["deploy", "--path", path, "--actor", actor];
    args.extend_from_slice(extra);
    let receipt = json(home, &args);
    assert_eq!(receipt["status"], "success", "{receipt}");
    receipt
}

/// The actor a deploy receipt created.
fn created(receipt: &serde_json::Value) -> String {
    receipt["created"].as_str().expect("created").to_string()
}

/// Clicks the first element `css` matches (`what` says what it should be).
async fn click(browser: &fantoccini::Client, css: &str, what: &str) {
    browser
        .find(fantoccini::Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .click()
        .await
        .expect("click");
}

/// A chromedriver on a free port, stopped when dropped.
struct ChromeDriver {
    child: std::process::Child,
    port: u16,
}

impl ChromeDriver {
    fn start() -> Self {
        let port = free_base(1);
        let mut child = std::process::Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian's chromium-driver; .ci/run installs it)");
        // It says so once it listens; its later output is drained by the reader thread.
        let lines = support::lines(child.stdout.take().expect("stdout"));
        loop {
            let line = lines
                .recv_timeout(std::time::Duration::from_secs(30))
                .expect("chromedriver starts within 30 s");
            if line.contains("started successfully") {
                break;
            }
        }
        Self { child, port }
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The text of the first element `css` matches, once the page shows it.
async fn text_of(browser: &fantoccini::Client, css: &str) -> String {
    browser
        .wait()
        .at_most(std::time::Duration::from_secs(30))
        .for_element(fantoccini::Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} never appeared: {e}"))
        .text()
        .await
        .expect("text")
}

/// Waits until the explorer has rendered `route`.
async fn rendered(browser: &fantoccini::Client, route: &str) {
    let css = format!("main[data-route=\"{route}\"][data-loading=\"false\"]");
    text_of(browser, &css).await;
    let error = browser
        .find_all(fantoccini::Locator::Css("[data-testid=error]"))
        .await
        .expect("find");
    if let Some(e) = error.first() {
        panic!("{route}: {}", e.text().await.expect("text"));
    }
}

async fn screenshot(browser: &fantoccini::Client, dir: &Path, name: &str) {
    let png = browser.screenshot().await.expect("screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{name}: a real picture"
    );
    std::fs::write(dir.join(format!("{name}.png")), png).expect("write screenshot");
}

/// Issue 18: the explorer in headless Chromium, on a devnet with the counter, heartbeat and
/// ping-pong examples deployed. It navigates head → block → transaction → actor (source,
/// storage, events), searches an address and checks every value it shows against the RPC;
/// screenshots of each view go to the test's temporary directory.
#[test]
fn explorer_shows_what_the_rpc_returns_in_a_real_browser() {
    let _serial = serial();
    let (devnet, up) = Devnet::up(1, 200, &[]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    assert_eq!(up["explorer_url"], format!("{url}/"));
    let project = |name: &str| scratch_example(home, name);
    let deploy =
        |path: &str, actor: &str, extra: &[&str]| created(&deploy_actor(home, path, actor, extra));
    let counter = deploy(&project("counter"), "counter", &["--args", "10"]);
    let increment = json(home, &["call", &counter, "increment", "5"]);
    let heartbeat = deploy(
        &project("heartbeat"),
        "heartbeat",
        &["--args", "2", "--value", "100000000000"],
    );
    let ping_pong = project("ping-pong");
    let ponger = deploy(&ping_pong, "ponger", &[]);
    deploy(
        &ping_pong,
        "pinger",
        &["--args", "3", "--value", "100000000000"],
    );
    wait_above(&url, height(&url) + 4);

    let shots = tempfile::tempdir().expect("screenshots");
    let driver = ChromeDriver::start();
    let rpc = cowboy_rpc::client(&url).expect("client");
    support::devnet::runtime().block_on(async {
        use cowboy_rpc::{BlockId, CowboyApiClient as _};
        let profile = tempfile::tempdir().expect("profile");
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-quic", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--window-size=1366,900",
                    format!("--user-data-dir={}", profile.path().display()),
                ],
            }),
        );
        let browser = fantoccini::ClientBuilder::new(
            hyper_util::client::legacy::connect::HttpConnector::new(),
        )
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a Chromium session");

        // Head: the live height is the node's, read between two RPC reads (no tolerance, so a
        // slow machine cannot make it flaky: the page loads after the first read and is read
        // before the second).
        let before = rpc.status().await.expect("status").height;
        browser.goto(&format!("{url}/")).await.expect("open");
        rendered(&browser, "#/").await;
        let shown: u64 = text_of(&browser, "[data-testid=status-height]")
            .await
            .parse()
            .expect("a height");
        let after = rpc.status().await.expect("status").height;
        assert!(
            (before..=after).contains(&shown),
            "the page shows height {shown}, the node was at {before} before and {after} after"
        );
        assert_eq!(text_of(&browser, "[data-field=state_root]").await.len(), 66);
        screenshot(&browser, shots.path(), "overview").await;

        // Block: the counter's increment.
        let height = increment["block_height"].as_u64().expect("height");
        let block = rpc
            .block(BlockId::Height(height), None)
            .await
            .expect("call")
            .expect("block");
        browser
            .goto(&format!("{url}/#/block/{height}"))
            .await
            .expect("open");
        rendered(&browser, &format!("#/block/{height}")).await;
        assert_eq!(
            text_of(&browser, "[data-field=hash]").await,
            block.hash.to_string()
        );
        assert_eq!(
            text_of(&browser, "[data-field=executed_state_root]").await,
            block.executed_state_root.to_string()
        );
        assert_eq!(
            text_of(&browser, "[data-field=basefees]").await,
            format!(
                "{} per cycle · {} per cell",
                block.cycle_basefee, block.cell_basefee
            )
        );
        screenshot(&browser, shots.path(), "block").await;

        // → its transaction.
        let tx = increment["tx_hash"].as_str().expect("tx hash").to_string();
        click(
            &browser,
            &format!("a[href=\"#/tx/{tx}\"]"),
            "the block lists the transaction",
        )
        .await;
        rendered(&browser, &format!("#/tx/{tx}")).await;
        let receipt = rpc
            .receipt(tx.parse().expect("hash"))
            .await
            .expect("call")
            .expect("receipt");
        assert_eq!(text_of(&browser, "[data-field=hash]").await, tx);
        assert_eq!(text_of(&browser, "[data-field=outcome]").await, "success");
        assert_eq!(
            text_of(&browser, "[data-field=cycles_used]").await,
            receipt.cycles_used.to_string()
        );
        assert_eq!(
            text_of(&browser, "[data-field=cells_used]").await,
            receipt.cells_used.to_string()
        );
        assert_eq!(text_of(&browser, "[data-field=return_value]").await, "15");
        let events = text_of(&browser, "[data-testid=events]").await;
        assert!(
            events.contains("15"),
            "the Incremented event's value: {events}"
        );
        screenshot(&browser, shots.path(), "transaction").await;

        // → the actor: source, storage and events.
        click(
            &browser,
            &format!("[data-testid=events] a[href=\"#/address/{counter}\"]"),
            "the event links its emitter",
        )
        .await;
        rendered(&browser, &format!("#/address/{counter}")).await;
        let code = rpc
            .code(counter.parse().expect("address"))
            .await
            .expect("call")
            .expect("code");
        assert_eq!(
            text_of(&browser, "[data-field=code_hash]").await,
            code.code_hash.to_string()
        );
        assert_eq!(
            text_of(&browser, "[data-testid=source]").await.trim(),
            code.source.trim()
        );
        let storage = rpc
            .storage(cowboy_rpc::StorageRequest {
                address: counter.parse().expect("address"),
                ..Default::default()
            })
            .await
            .expect("storage");
        let rows = browser
            .find_all(fantoccini::Locator::Css("[data-testid=storage] tbody tr"))
            .await
            .expect("rows");
        assert_eq!(rows.len(), storage.entries.len());
        assert!(!rows.is_empty());
        for (row, entry) in rows.iter().zip(&storage.entries) {
            let text = row.text().await.expect("text");
            let value = entry
                .value_json
                .as_ref()
                .expect("a canonical value")
                .to_string();
            assert!(text.contains(&value), "{text} shows {value}");
        }
        let events = text_of(&browser, "[data-testid=events]").await;
        assert!(
            events.contains(&tx[..10]),
            "recent events name their transaction: {events}"
        );
        screenshot(&browser, shots.path(), "actor").await;

        // The heartbeat's timers and beats.
        browser
            .goto(&format!("{url}/#/address/{heartbeat}"))
            .await
            .expect("open");
        rendered(&browser, &format!("#/address/{heartbeat}")).await;
        assert!(
            text_of(&browser, "[data-testid=timers]")
                .await
                .contains("beat")
        );
        browser
            .goto(&format!("{url}/#/timers"))
            .await
            .expect("open");
        rendered(&browser, "#/timers").await;
        let queue = rpc.timer_queue(None).await.expect("queue");
        let rows = browser
            .find_all(fantoccini::Locator::Css(
                "[data-testid=timer-queue] tbody tr",
            ))
            .await
            .expect("rows");
        assert_eq!(rows.len(), queue.len());
        screenshot(&browser, shots.path(), "timers").await;

        // Search an address.
        browser.goto(&format!("{url}/#/")).await.expect("open");
        rendered(&browser, "#/").await;
        let input = browser
            .find(fantoccini::Locator::Id("search-input"))
            .await
            .expect("search box");
        input.send_keys(&format!("{ponger}\n")).await.expect("type");
        rendered(&browser, &format!("#/address/{}", ponger.to_lowercase())).await;
        let account = rpc
            .account(ponger.parse().expect("address"))
            .await
            .expect("account");
        assert_eq!(
            text_of(&browser, "[data-field=address]").await,
            account.address.to_string()
        );
        assert_eq!(
            text_of(&browser, "[data-field=nonce]").await,
            account.nonce.to_string()
        );
        screenshot(&browser, shots.path(), "search").await;

        // The network: validators and state roots.
        browser
            .goto(&format!("{url}/#/network"))
            .await
            .expect("open");
        rendered(&browser, "#/network").await;
        let validators = rpc.validators().await.expect("validators");
        let shown = text_of(&browser, "[data-testid=validators]").await;
        for v in &validators {
            assert!(shown.contains(&v.address.to_string()), "{shown}");
        }
        assert!(
            text_of(&browser, "[data-testid=nodes]")
                .await
                .contains("agrees")
        );
        screenshot(&browser, shots.path(), "network").await;
        browser.close().await.expect("close");
    });
    for view in [
        "overview",
        "block",
        "transaction",
        "actor",
        "timers",
        "search",
        "network",
    ] {
        assert!(shots.path().join(format!("{view}.png")).exists(), "{view}");
    }
    // Kept for a person to look at when asked to.
    if let Ok(dir) = std::env::var("COWBOY_SCREENSHOTS") {
        support::copy_tree(shots.path(), Path::new(&dir));
    }
}

/// Issue 18's snapshot acceptance: a devnet with the counter and heartbeat is saved while it
/// runs (node-0 stopped for the read and started again), a new devnet starts from the file,
/// and the same queries answer the same there: accounts, code, storage; the heartbeat's timer
/// is carried and keeps beating on the new chain. `node init --genesis` takes the same file.
#[test]
fn a_snapshot_starts_a_devnet_where_the_same_queries_answer_the_same() {
    use cowboy_rpc::{CowboyApiClient as _, StorageRequest};
    let _serial = serial();
    let (source, up) = Devnet::up(1, 200, &[]);
    let home = source.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let counter = created(&deploy_actor(
        home,
        &scratch_example(home, "counter"),
        "counter",
        &["--args", "10"],
    ));
    json(home, &["call", &counter, "increment", "5"]);
    let heartbeat = created(&deploy_actor(
        home,
        &scratch_example(home, "heartbeat"),
        "heartbeat",
        &["--args", "2", "--value", "100000000000"],
    ));
    wait_above(&url, height(&url) + 4);
    let timers = json(home, &["timer", "list", &heartbeat]);
    let timer_id = timers[0]["id"]
        .as_str()
        .expect("a pending timer")
        .to_string();

    let saved = json(home, &["devnet", "snapshot", "save", "seeded"]);
    assert_eq!(saved["name"], "seeded");
    assert_eq!(saved["restarted_node"], true, "{saved}");
    assert!(saved["timers"].as_u64().expect("timers") >= 1, "{saved}");
    assert!(saved["carried"].as_u64().expect("carried") > 10, "{saved}");
    let at = saved["source"]["height"].as_u64().expect("height");
    let file = saved["path"].as_str().expect("path").to_string();
    // node-0 is back and producing blocks.
    assert!(wait_above(&url, at) > at);

    // Refusals name the way out.
    cowboy(home)
        .args(["devnet", "snapshot", "save", "seeded"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: snapshot "seeded" already exists ([..]seeded.json); pick another name or pass --force to replace it

"#]]);
    cowboy(home)
        .args(["devnet", "up", "--from-snapshot", "nope"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: no snapshot "nope" (looked for [..]nope.json); `cowboy devnet snapshot ls` lists them, `cowboy devnet snapshot save NAME` makes one

"#]]);
    cowboy(home)
        .args(["devnet", "up", "--from-snapshot", "seeded"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: devnet "local" already exists, so it cannot start from a snapshot; choose a new --name, or delete it with `cowboy devnet reset --name local` first

"#]]);
    let listed = json(home, &["devnet", "snapshot", "ls"]);
    assert_eq!(listed[0]["name"], "seeded");
    assert_eq!(listed[0]["source"]["height"], at);

    let (copy, copy_up) = Devnet::up(1, 200, &["--from-snapshot", &file]);
    let copy_url = copy_up["nodes"][0]["rpc_url"]
        .as_str()
        .expect("url")
        .to_string();
    assert_eq!(copy_up["chain_id"], up["chain_id"]);
    let rt = support::devnet::runtime();
    let (a, b) = (
        cowboy_rpc::client(&url).expect("client"),
        cowboy_rpc::client(&copy_url).expect("client"),
    );
    let dev0: cowboy_types::Address = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        .parse()
        .expect("address");
    let counter_address: cowboy_types::Address = counter.parse().expect("address");
    for who in [dev0, counter_address] {
        let (x, y) = rt.block_on(async {
            (
                a.account(who).await.expect("account"),
                b.account(who).await.expect("account"),
            )
        });
        assert_eq!(
            (x.balance, x.nonce, x.actor),
            (y.balance, y.nonce, y.actor),
            "account {who}"
        );
    }
    for who in [counter.as_str(), heartbeat.as_str()] {
        let who: cowboy_types::Address = who.parse().expect("address");
        let (x, y) = rt.block_on(async { (a.code(who).await, b.code(who).await) });
        assert_eq!(x.expect("code"), y.expect("code"));
    }
    let request = StorageRequest {
        address: counter_address,
        ..Default::default()
    };
    let (x, y) = rt.block_on(async {
        (
            a.storage(request.clone()).await.expect("storage"),
            b.storage(request).await.expect("storage"),
        )
    });
    assert!(!x.entries.is_empty());
    assert_eq!(x.entries, y.entries);
    let copy_home = copy.home();
    let query = |home: &Path, args: &[&str]| json(home, args)["return_value"].clone();
    assert_eq!(
        query(copy_home, &["query", &counter, "get"]),
        query(home, &["query", &counter, "get"])
    );
    // The heartbeat's timer was carried and beats on the new chain.
    let timers = json(copy_home, &["timer", "list", &heartbeat]);
    assert_eq!(timers[0]["id"], timer_id.as_str(), "{timers}");
    let beats = |h: &Path| query(h, &["query", &heartbeat, "status"])["beats"].as_u64();
    let before = beats(copy_home).expect("beats");
    wait_above(&copy_url, height(&copy_url) + 4);
    assert!(beats(copy_home).expect("beats") > before);
    // The new devnet works as any other: the counter takes calls.
    assert_eq!(
        json(copy_home, &["call", &counter, "increment", "1"])["return_value"],
        16
    );

    // `node init --genesis` starts homes from the same file.
    let nodes = tempfile::tempdir().expect("homes");
    let node_home = nodes.path().join("n");
    let init = json(
        home,
        &[
            "node",
            "init",
            "--home",
            node_home.to_str().expect("path"),
            "--genesis",
            &file,
        ],
    );
    assert_eq!(init["chain_id"], up["chain_id"]);
    let written =
        cowboy_execution::Genesis::load(&node_home.join("genesis.json")).expect("genesis");
    let original = cowboy_execution::Genesis::load(Path::new(&file)).expect("snapshot");
    assert_eq!(written.carried, original.carried);
    assert_ne!(written.validators, original.validators);

    // `node snapshot` reads a stopped node's home, and refuses a running one's.
    let node0 = home.join("devnets/local/node-0");
    let out = nodes.path().join("world.json");
    let node_snapshot = || {
        cowboy(home)
            .args(["node", "snapshot", "--home", node0.to_str().expect("path")])
            .arg(&out)
    };
    node_snapshot().assert().failure().stderr_eq(str![[r#"
error: cannot save the snapshot: [..]/chain.redb: the state database at [..]/chain.redb is open in another process: stop the node that uses it, then try again

"#]]);
    json(home, &["devnet", "down"]);
    node_snapshot().assert().success();
    let later = cowboy_execution::Genesis::load(&out).expect("snapshot");
    assert!(later.carried.expect("carried").source.height > at);
}

/// Issue 20's "simulate, then send": a faucet-funded account (100 CBY) deploys and calls every
/// example project with default flags (each project's own deploy arguments and value), its
/// limits sized by simulations, and the two job examples get verified results from the
/// devnet's runner fleet; a call to a missing handler is refused before it is sent, and the
/// balance and nonce stay as they were; `--force` sends it anyway and it fails on chain,
/// charged.
#[test]
fn a_faucet_funded_account_deploys_and_calls_with_defaults_and_a_doomed_call_is_not_sent() {
    let _serial = serial();
    let cassette =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/price-oracle/cassette.json");
    let (devnet, up) = Devnet::up(
        1,
        200,
        &[
            "--runners",
            "honest=5",
            "--runners-cassette",
            cassette.to_str().expect("path"),
        ],
    );
    let home = devnet.home();
    let key = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    let me = cowboy_crypto::PrivateKey::from_hex(key)
        .expect("key")
        .address()
        .to_string();
    // `balance --watch --changes 1` waits, without a sleep, for the faucet's drip.
    let mut watcher = std::process::Command::new(bin())
        .env("COWBOY_HOME", home)
        .env_remove("COWBOY_RPC_URL")
        .args(["balance", &me, "--watch", "--changes", "1", "--json"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("watch");
    // It has read the balance once it prints the first line.
    let mut watched = std::io::BufReader::new(watcher.stdout.take().expect("stdout"));
    let mut first = String::new();
    std::io::BufRead::read_line(&mut watched, &mut first).expect("first line");
    json(home, &["faucet", &me]);
    let mut second = String::new();
    std::io::BufRead::read_line(&mut watched, &mut second).expect("second line");
    let first: serde_json::Value = serde_json::from_str(&first).expect("json");
    let second: serde_json::Value = serde_json::from_str(&second).expect("json");
    assert_eq!(first["balance"], "0", "{first}");
    assert_eq!(second["balance"], "100000000000", "{second}");
    assert_eq!(second["change"], "100000000000");
    for line in [&first, &second] {
        support::check_published_schema(&["balance", &me, "--watch"], line);
    }
    assert!(
        watcher.wait().expect("exit").success(),
        "it stops after one change"
    );
    let balance = |home: &Path| -> (u64, u64) {
        let a = json(home, &["balance", &me]);
        (
            a["balance"]
                .as_str()
                .expect("balance")
                .parse()
                .expect("amount"),
            a["nonce"].as_u64().expect("nonce"),
        )
    };
    assert_eq!(
        balance(home).0,
        100_000_000_000,
        "the faucet's default drip"
    );
    let signer = ["--private-key", key];
    // Default flags: each project's deploy_args and deploy_value.
    let deploy = |name: &str, actor: &str| -> String {
        let path = scratch_example(home, name);
        created(&deploy_actor(home, &path, actor, &signer))
    };
    let counter = deploy("counter", "counter");
    let heartbeat = deploy("heartbeat", "heartbeat");
    let funded = json(home, &["balance", &heartbeat]);
    let funded: u64 = funded["balance"]
        .as_str()
        .expect("balance")
        .parse()
        .expect("amount");
    // Its 10 CBY, less the firings so far.
    assert!(
        funded > 9_000_000_000 && funded <= 10_000_000_000,
        "{funded}"
    );
    let ponger = deploy("ping-pong", "ponger");
    let pinger = deploy("ping-pong", "pinger");
    let oracle = deploy("price-oracle", "price-oracle");
    let judge = deploy("llm-judge", "llm-judge");
    let call = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["call"];
        all.extend_from_slice(args);
        all.extend_from_slice(&signer);
        json(home, &all)
    };
    let receipt = call(&[&counter, "increment", "5"]);
    assert_eq!(receipt["status"], "success", "{receipt}");
    assert_eq!(receipt["return_value"], 15);
    assert_eq!(
        call(&[&pinger, "ping", &ponger, "\"hi\""])["return_value"],
        1
    );
    assert_eq!(call(&[&heartbeat, "pause"])["return_value"], true);
    // The job examples: each call submits a job, which the fleet serves and verifies.
    for (actor, args) in [
        (&oracle, vec!["refresh"]),
        (&judge, vec!["judge", "\"The sky is blue.\""]),
    ] {
        let mut all = vec![actor.as_str()];
        all.extend(args);
        let asked = call(&all);
        let job = asked["return_value"]
            .as_str()
            .expect("a job id")
            .to_string();
        cowboy(home).args(["job", "watch", &job]).assert().success();
        let shown = json(home, &["job", "show", &job]);
        assert!(
            ["verified", "settled"].contains(&shown["job"]["status"].as_str().unwrap_or_default()),
            "{shown}"
        );
    }
    // Results are delivered to `on_price` in the block after verification.
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url");
    wait_above(url, height(url) + 1);
    let price = json(home, &["query", &oracle, "price"]);
    assert_eq!(
        price["return_value"]["price"], 9_712_345,
        "the cassette's price: {price}"
    );

    // A job anyone submits naming the oracle's callback (their URL, honestly verified) is not
    // taken for a price: the oracle only counts the job it asked for.
    let foreign = json(
        home,
        &[
            "job",
            "submit",
            "--http",
            "https://api.coingecko.com/api/v3/simple/price?ids=bitcoin&vs_currencies=usd",
            "--extract",
            "/bitcoin/usd",
            "--mode",
            "majority_vote",
            "--vote-field",
            "/bitcoin/usd",
            "--runners",
            "3",
            "--callback",
            &format!("{oracle}.on_price"),
            "--private-key",
            key,
            "--wait",
        ],
    );
    let foreign_id = foreign["job"]["id"]
        .as_str()
        .expect("a finished job")
        .to_string();
    wait_above(url, height(url) + 1);
    let ignored = json_lines(home, &["events", "--actor", &oracle, "--topic", "Ignored"]);
    assert_eq!(ignored.len(), 1, "{ignored:?}");
    assert_eq!(ignored[0]["value"][0], foreign_id.as_str(), "{ignored:?}");

    // A ping to an address without an actor: the call succeeds, its message fails, and the
    // text output says so, with the event's data decoded.
    let out = cowboy(home)
        .args([
            "call",
            &pinger,
            "ping",
            "0x000000000000000000000000000000000000dead",
            "\"x\"",
        ])
        .args(signer)
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // The call sent a message, so its output ends with the delivery tree: the ping, and under
    // it the message that could not be delivered, marked.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "trace:")
        .unwrap_or_else(|| panic!("no trace in {text}"));
    assert!(
        lines[at + 1].starts_with(&format!("  {pinger}.ping  [")) && lines[at + 1].ends_with("ok"),
        "{text}"
    );
    assert!(
        lines[at + 1..].iter().any(|l| l.starts_with(
            "    0x000000000000000000000000000000000000dead.ping(2, \"x\")  FAILED: NoActor: no actor at"
        )),
        "{text}"
    );

    // `tx show --trace` of a finalized nested call: a ping the counter has no handler for runs
    // and fails under the call that sent it.
    let pinged = call(&[&pinger, "ping", &counter, "\"y\""]);
    assert_eq!(pinged["status"], "success", "{pinged}");
    let hash = pinged["tx_hash"].as_str().expect("hash").to_string();
    let out = cowboy(home)
        .args(["tx", "show", &hash, "--trace"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let failing = format!("    {counter}.ping(3, \"y\")  [");
    assert!(
        text.lines().any(|l| l.starts_with(&failing)
            && l.contains("FAILED (HandlerNotFound): `ping` is not a handler of Counter")),
        "{text}"
    );
    let shown = json(home, &["tx", "show", &hash, "--trace"]);
    let trace = shown["trace"].as_array().expect("a trace");
    assert_eq!(trace.len(), 2, "{shown}");
    assert_eq!(trace[0]["method"], "ping");
    assert_eq!(trace[0]["sent"][0]["to"].as_str(), Some(counter.as_str()));
    assert_eq!(trace[1]["message"], trace[0]["sent"][0]["id"]);
    assert_eq!(trace[1]["depth"], 1);
    assert_eq!(trace[1]["failure"]["kind"], "HandlerNotFound", "{shown}");
    assert_eq!(shown["receipt"]["deliveries"][1]["outcome"], "failed");

    // What cast users reach for: fees, nonce, a raw RPC call, an estimate. `-v` names the node.
    let out = cowboy(home).args(["-v", "fees"]).output().expect("run");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.starts_with("node: http://127.0.0.1:")
            && said.contains("(profile \"local\", chain 31337)"),
        "{said}"
    );
    let fees = json(home, &["fees"]);
    assert!(
        fees["suggested_max_fee_per_cycle"].as_u64().expect("cap")
            >= fees["user_cycle_basefee"].as_u64().expect("basefee")
    );
    let nonce = json(home, &["nonce", &me]);
    assert_eq!(nonce["latest"].as_u64(), Some(balance(home).1));
    let raw = json(home, &["rpc", "getBalance", &me]);
    assert_eq!(
        raw.as_str().map(str::to_string),
        Some(balance(home).0.to_string())
    );
    let unchanged = balance(home);
    let estimate = json(
        home,
        &["estimate", &counter, "increment", "1", "--from", &me],
    );
    assert_eq!(
        estimate["simulation"]["receipt"]["status"], "success",
        "{estimate}"
    );
    let used = estimate["simulation"]["receipt"]["cycles_used"]
        .as_u64()
        .expect("used");
    assert_eq!(
        estimate["cycles_limit"].as_u64(),
        Some(cowboy_types::limits::simulated(used, 0).0)
    );
    assert_eq!(balance(home), unchanged, "an estimate sends nothing");

    // A handler the counter does not have: refused before sending.
    let before = balance(home);
    cowboy(home)
        .args(["call", &counter, "nope"])
        .args(signer)
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: the transaction would fail: [..]nope[..]; it was not sent and nothing was charged (pass --force to send it anyway)

"#]]);
    assert_eq!(balance(home), before, "nothing sent, nothing charged");

    // A timer for a handler the actor does not have: refused when it would be set (the
    // simulation fails), not at every firing.
    cowboy(home)
        .args(["timer", "set", &counter, "nope", "--in", "5"])
        .args(signer)
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: the transaction would fail: [..]`nope` is not a handler of Counter at [..]; it was not sent and nothing was charged (pass --force to send it anyway)

"#]]);
    assert_eq!(balance(home), before, "nothing sent, nothing charged");

    // Forced, it is sent and fails on chain, charged (and the command exits 1).
    let out = cowboy(home)
        .args(["call", &counter, "nope", "--force", "--json"])
        .args(signer)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let forced: serde_json::Value = serde_json::from_slice(&out.stdout).expect("receipt");
    assert_eq!(forced["status"], "failed", "{forced}");
    assert_eq!(forced["failure"], "HandlerNotFound", "{forced}");
    let after = balance(home);
    assert_eq!(after.1, before.1 + 1);
    assert!(after.0 < before.0);
}
