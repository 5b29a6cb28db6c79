//! The inner loop: `cowboy test` on the counter template (10 Python tests, one of them a
//! property test drawing 10 examples), wall time from the command's start to its closing line
//! (`10 passed, 0 failed`), warm (the same run repeated). Goal: under 1 s.
//!
//! Baseline, in the same run on the same machine: CPython's own runner (`python3 -m unittest`)
//! on 10 trivial tests — pytest is not installed here, and Foundry publishes no figure for a
//! comparable 10-test suite — and `cowboy --version` (process start alone). Reported as times
//! and as ratios to the baseline, since shared machines are noisy.
//!
//! `cargo bench -p cowboy-cli --bench test_loop`

#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code: a failure is the run failing.

#[path = "../tests/support/mod.rs"]
mod support;

use std::{
    io::BufRead as _,
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

const RUNS: usize = 7;

const TRIVIAL: &str = "import unittest\n\n\nclass Trivial(unittest.TestCase):\n";

/// The wall time until a line containing `closing` (or the process's exit), and the lines.
fn time_until(mut cmd: Command, closing: &str) -> (Duration, Vec<String>) {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = Vec::new();
    let mut at = None;
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line.expect("line");
        let done = line.contains(closing);
        lines.push(line);
        if done {
            at = Some(start.elapsed());
            break;
        }
    }
    let status = child.wait().expect("wait");
    let elapsed = at.unwrap_or_else(|| start.elapsed());
    assert!(
        status.success() || at.is_some(),
        "{cmd:?} failed: {lines:#?}"
    );
    (elapsed, lines)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn measure(label: &str, make: impl Fn() -> Command, closing: &str) -> Duration {
    // One warm-up run: caches, the page cache, the binary.
    let (_, lines) = time_until(make(), closing);
    let times: Vec<Duration> = (0..RUNS).map(|_| time_until(make(), closing).0).collect();
    let m = median(times.clone());
    println!(
        "{label:<40} median {:>7.1} ms  (min {:.1}, max {:.1}; {} lines of output)",
        m.as_secs_f64() * 1e3,
        times.iter().min().expect("runs").as_secs_f64() * 1e3,
        times.iter().max().expect("runs").as_secs_f64() * 1e3,
        lines.len()
    );
    m
}

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let cowboy = support::devnet::bin();
    let status = Command::new(&cowboy)
        .args(["new", "bench", "--template", "counter", "--yes"])
        .current_dir(dir.path())
        .env("COWBOY_HOME", &home)
        .stdout(Stdio::null())
        .status()
        .expect("cowboy new");
    assert!(status.success());
    let project = dir.path().join("bench");
    let in_project = |args: &[&str]| {
        let mut c = Command::new(&cowboy);
        c.args(args)
            .current_dir(&project)
            .env("COWBOY_HOME", &home)
            .env("NO_COLOR", "1");
        c
    };

    let unittest_dir = dir.path().join("unittest");
    std::fs::create_dir_all(&unittest_dir).expect("dir");
    let mut trivial = TRIVIAL.to_string();
    for i in 0..10 {
        trivial.push_str(&format!(
            "    def test_{i}(self):\n        self.assertTrue(True)\n\n"
        ));
    }
    std::fs::write(unittest_dir.join("test_trivial.py"), trivial).expect("write");
    let python = |dir: &Path| {
        let mut c = Command::new("python3");
        c.args(["-m", "unittest", "-q"]).current_dir(dir);
        c
    };

    println!("cowboy test on the counter template (10 tests), {RUNS} warm runs each:");
    let ours = measure(
        "cowboy test (counter template)",
        || in_project(&["test"]),
        "10 passed, 0 failed",
    );
    let start = measure(
        "cowboy --version (process start)",
        || in_project(&["--version"]),
        "cowboy",
    );
    let baseline = measure(
        "python3 -m unittest (10 trivial tests)",
        || python(&unittest_dir),
        "\u{0}never",
    );
    println!();
    println!(
        "cowboy test: {:.0} ms — {:.1}× python3 -m unittest on 10 trivial tests, {:.0}× the \
         process start; goal under 1,000 ms: {}",
        ours.as_secs_f64() * 1e3,
        ours.as_secs_f64() / baseline.as_secs_f64(),
        ours.as_secs_f64() / start.as_secs_f64().max(1e-6),
        if ours < Duration::from_secs(1) {
            "met"
        } else {
            "NOT met"
        }
    );
}
