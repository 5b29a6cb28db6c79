//! CLI transcripts against a running node: `tests/node/*.trycmd` run the real `cowboy` binary
//! (deploy → call → query → timer, offline `sign` → `tx send` → `tx status`) against a
//! single-validator chain this test starts and waits for (a long poll, not a sleep); the node
//! survives SIGPIPE; a closed stdout ends a command quietly; a taken p2p port is one clear error.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

use cowboy_rpc::CowboyApiClient;
use std::process::{Command, Stdio};

const KEY: &str = "0x4242424242424242424242424242424242424242424242424242424242424242";
const RUNNER: &str = "0xfa17c5b66a985f44bc249c8e8fabd64767f414b1";

struct Killed(std::process::Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn node_transcripts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = env!("CARGO_BIN_EXE_cowboy");
    let funded = cowboy_crypto::PrivateKey::from_hex(KEY)
        .expect("key")
        .address();
    let (p2p, rpc) = (support::free_base(1), support::free_base(1));
    let init = Command::new(bin)
        .args(["node", "init", "--home"])
        .arg(dir.path().join("node"))
        .args([
            "--p2p-port",
            &p2p.to_string(),
            "--rpc-port",
            &rpc.to_string(),
        ])
        // 100 ms blocks for speed, with the execution budget of 1-second blocks so timers and
        // calls get the limits the transcripts show.
        .args(["--block-time", "100", "--cycle-budget", "5"])
        .args(["--fund", &format!("{funded}=1000000000000000000")])
        // The runner of tests/jobs (its key is tests/jobs/market.in/runner.hex): its stake
        // (10,000 CBY) and fees.
        .args(["--fund", &format!("{RUNNER}=20000000000000")])
        .output()
        .expect("init");
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
    let log = std::fs::File::create(dir.path().join("node.log")).expect("log");
    let mut node = Killed(
        Command::new(bin)
            .args(["node", "run", "--home"])
            .arg(dir.path().join("node"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("node"),
    );
    let url = format!("http://127.0.0.1:{rpc}");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let client = cowboy_rpc::client(&url).expect("client");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            assert!(
                std::time::Instant::now() < deadline,
                "the node never became ready"
            );
            match client.wait_for_block(0, Some(5_000)).await {
                Ok(Some(_)) => break,
                Ok(None) => {}
                // Not listening yet.
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
            }
        }
        // A peer or client that closes its socket while the node writes raises SIGPIPE in the
        // node: it must get EPIPE and carry on, not be killed (the CLI once reset the signal
        // to its default for `cowboy … | head`, and devnet nodes died of it).
        // SAFETY: signalling our own child.
        unsafe { libc::kill(node.0.id() as libc::pid_t, libc::SIGPIPE) };
        let height = client.status().await.expect("status after SIGPIPE").height;
        let next = client.wait_for_block(height, Some(10_000)).await;
        assert!(
            matches!(next, Ok(Some(_))),
            "no block after SIGPIPE: {next:?}"
        );
    });
    assert!(
        node.0.try_wait().expect("try_wait").is_none(),
        "the node died of SIGPIPE"
    );
    let home = dir.path().join("home");
    let cases = |glob: &str| {
        trycmd::TestCases::new()
            .register_bin("cowboy", trycmd::cargo::cargo_bin("cowboy"))
            .env("COWBOY_HOME", home.display().to_string())
            .env("COWBOY_RPC_URL", &url)
            .env("COWBOY_PRIVATE_KEY", KEY)
            .env("COWBOY_PASSWORD", "transcript password")
            .env("NO_COLOR", "1")
            .case(glob)
            .run();
    };
    cases("tests/node/*.trycmd");
    // After the node transcripts (they share the submitter's nonces): jobs and a runner.
    cases("tests/jobs/*.trycmd");
}

/// A reader that goes away (`cowboy … | head`) ends a command quietly: no panic, no error.
#[test]
fn closed_stdout_ends_a_command_quietly() {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    for args in [&["completions", "bash"][..], &["keys", "list"]] {
        let home = tempfile::tempdir().expect("home");
        let out = Command::new(env!("CARGO_BIN_EXE_cowboy"))
            .args(args)
            .env("COWBOY_HOME", home.path())
            .stdout(writer.try_clone().expect("writer"))
            .stderr(Stdio::piped())
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

/// A p2p port another program holds is a one-line error naming it, not a panic in the p2p
/// listener with a backtrace.
#[test]
fn node_run_refuses_a_taken_p2p_port() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = env!("CARGO_BIN_EXE_cowboy");
    let (p2p, rpc) = (support::free_base(1), support::free_base(1));
    let init = Command::new(bin)
        .args(["node", "init", "--home"])
        .arg(dir.path().join("node"))
        .args(["--p2p-port", &p2p.to_string()])
        .args(["--rpc-port", &rpc.to_string()])
        .output()
        .expect("init");
    assert!(init.status.success());
    let _holder = std::net::TcpListener::bind(("127.0.0.1", p2p)).expect("hold the p2p port");
    let run = Command::new(bin)
        .args(["node", "run", "--home"])
        .arg(dir.path().join("node"))
        .output()
        .expect("node run");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: cannot listen for p2p on 127.0.0.1:{p2p}: Address already in use"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
