//! The runner market off chain, end to end with real processes on loopback: a 4-validator
//! devnet with an adversarial `cowboy runner-sim` fleet serving the price-oracle example; a
//! `cowboy runner run` daemon killed with SIGKILL between its commit and its reveal; HTTP
//! recorded once and replayed with the upstream gone. Every wait is a long poll, a process
//! exit or a line of output, never a sleep. The tests share the machine's two cores, so they
//! run one at a time.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

use cowboy_rpc::CowboyApiClient as _;
use cowboy_types::{Address, Hash, job::JobStatus};
use std::{
    io::{BufRead as _, BufReader, Read as _},
    path::Path,
    process::{Child, Stdio},
    sync::Mutex,
};
use support::devnet::{Devnet, bin, json, json_lines, runtime};
use support::upstream::Upstream;

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// A `cowboy runner-sim` process; its ready document is read from its first line of output.
struct Sim {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
    ready: serde_json::Value,
}

impl Sim {
    fn start(home: &Path, url: &str, fleet: &str, extra: &[&str]) -> Self {
        let mut child = std::process::Command::new(bin())
            .env("COWBOY_HOME", home)
            .args(["runner-sim", "--json", "--rpc-url", url, "--runners", fleet])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(home.join("runner-sim.log")).expect("log"))
            .spawn()
            .expect("runner-sim");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line).expect("ready line");
        let ready: serde_json::Value = serde_json::from_str(&line).unwrap_or_else(|e| {
            let log = std::fs::read_to_string(home.join("runner-sim.log")).unwrap_or_default();
            panic!("ready line {line:?}: {e}\n{log}")
        });
        support::check_published_schema(&["runner-sim"], &ready);
        Self {
            child,
            out,
            ready: ready["ready"].clone(),
        }
    }

    fn runner(&self, behaviour: &str) -> Address {
        let r = self.ready["runners"]
            .as_array()
            .expect("runners")
            .iter()
            .find(|r| r["behaviour"] == behaviour)
            .expect("behaviour");
        r["address"]
            .as_str()
            .expect("address")
            .parse()
            .expect("address")
    }

    /// Stops the simulation (SIGTERM) and returns its report.
    fn stop(mut self) -> serde_json::Value {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let mut rest = String::new();
        self.out.read_to_string(&mut rest).expect("report");
        let _ = self.child.wait();
        let line = rest.lines().last().expect("a report line");
        let report: serde_json::Value = serde_json::from_str(line).expect("report json");
        support::check_published_schema(&["runner-sim"], &report);
        report["report"].clone()
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What [`follow`] returns: the record when the job turned verified with each watched
/// address's balance then (if it did), and the final record with the balances then.
type Followed = (
    Option<(cowboy_types::job::JobRecord, Vec<u64>)>,
    (cowboy_types::job::JobRecord, Vec<u64>),
);

/// Follows job `id` until it settles or fails.
fn follow(url: &str, id: Hash, watch: &[Address]) -> Followed {
    let client = cowboy_rpc::client(url).expect("client");
    runtime().block_on(async {
        let mut height = client.status().await.expect("status").height;
        let mut verified = None;
        for _ in 0..600 {
            let job = client.job(id).await.expect("job").expect("the job exists");
            if job.status == JobStatus::Verified && verified.is_none() {
                let mut balances = Vec::new();
                for a in watch {
                    balances.push(client.balance(*a).await.expect("balance").0);
                }
                verified = Some((job.clone(), balances));
            }
            if matches!(job.status, JobStatus::Settled | JobStatus::Failed) {
                let mut balances = Vec::new();
                for a in watch {
                    balances.push(client.balance(*a).await.expect("balance").0);
                }
                return (verified, (job, balances));
            }
            if let Some(b) = client
                .wait_for_block(height, Some(10_000))
                .await
                .expect("poll")
            {
                height = b.height;
            }
        }
        panic!("job {id} did not finish in 600 blocks");
    })
}

fn returned(home: &Path, args: &[&str]) -> serde_json::Value {
    let r = json(home, args);
    assert_eq!(r["status"], "success", "{args:?}: {r}");
    r["return_value"].clone()
}

/// Builds a scratch copy of example `name` and deploys it from `funder` with 100 CBY (which
/// pays its jobs' escrow) and `args`; returns the actor's address.
fn deploy_example(home: &Path, name: &str, funder: &str, args: &[&str]) -> String {
    let path = support::example(name, &home.join("projects"));
    let path = path.display().to_string();
    json(home, &["build", "--path", &path]);
    let mut command = vec![
        "deploy",
        "--path",
        &path,
        "--account",
        funder,
        "--value",
        "100000000000",
        "--args",
    ];
    command.extend_from_slice(args);
    let receipt = json(home, &command);
    assert_eq!(receipt["status"], "success", "{receipt}");
    receipt["created"].as_str().expect("created").to_string()
}

fn deploy_oracle(home: &Path, price_url: &str, funder: &str, runners: u8) -> String {
    let url = format!("\"{price_url}\"");
    // A timer far away: the test asks for each refresh itself.
    deploy_example(
        home,
        "price-oracle",
        funder,
        &[&url, "100000", &runners.to_string()],
    )
}

const PRICE_URL: &str =
    "https://api.coingecko.com/api/v3/simple/price?ids=bitcoin&vs_currencies=usd";

#[test]
fn an_adversarial_fleet_serves_the_price_oracle_on_four_validators() {
    let _serial = serial();
    let (devnet, up) = Devnet::up(4, 500, &[]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let cassette =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/price-oracle/cassette.json");
    let sim = Sim::start(
        home,
        &url,
        "honest=4,lazy=1,liar=1",
        &[
            "--funder",
            "dev:1",
            "--http",
            "replay",
            "--cassette",
            cassette.to_str().expect("path"),
        ],
    );
    let (lazy, liar) = (sim.runner("lazy"), sim.runner("liar"));
    let oracle = deploy_oracle(home, PRICE_URL, "dev:0", 5);
    let params = {
        let client = cowboy_rpc::client(&url).expect("client");
        runtime().block_on(client.parameters()).expect("parameters")
    };
    let bps = |p: &str| params.pointer(p).and_then(|v| v.as_u64()).expect(p);
    let honest: Vec<Address> = sim.ready["runners"]
        .as_array()
        .expect("runners")
        .iter()
        .filter(|r| r["behaviour"] == "honest")
        .map(|r| r["address"].as_str().expect("a").parse().expect("a"))
        .collect();

    // Refresh until a settled job had the liar on its committee, and some job had the lazy
    // runner (5 of the 6 runners are drawn each time, so usually the first job has both).
    let mut with_liar = None;
    let mut with_lazy = None;
    for _ in 0..8 {
        let id: Hash = returned(home, &["call", &oracle, "refresh", "--account", "dev:0"])
            .as_str()
            .expect("job id")
            .parse()
            .expect("hash");
        let (verified, (job, settled)) = follow(&url, id, &honest);
        // The lazy runner is in the first draw or not at all (a retry draws only runners no
        // earlier draw named); the liar may come in with the retry.
        let drew_lazy = job.draws[0].committee.contains(&lazy);
        let committee = &job.draws.last().expect("a draw").committee;
        eprintln!(
            "job {id}: {} ({} draws, lazy drawn: {drew_lazy}, liar drawn: {}) {}",
            job.status,
            job.draws.len(),
            committee.contains(&liar),
            job.failure.as_str()
        );
        if drew_lazy && with_lazy.is_none() {
            with_lazy = Some(job.clone());
        }
        if job.status == JobStatus::Settled && committee.contains(&liar) && with_liar.is_none() {
            with_liar = Some((verified.expect("verified before settled"), job, settled));
        }
        if with_liar.is_some() && with_lazy.is_some() {
            break;
        }
    }
    let ((at_verified, balances), job, settled) =
        with_liar.expect("a settled job with the liar drawn");
    let lazy_job = with_lazy.expect("a job with the lazy runner drawn");

    // The oracle got the verified price through its callback.
    let price = returned(home, &["query", &oracle, "price"]);
    assert_eq!(price["price"], 9_712_345, "{price}");
    assert!(price["updated"].as_u64().is_some(), "{price}");

    // The lazy runner never committed: it lost its seat, which was drawn again (the sixth
    // runner took it) while the members that committed kept theirs, and the job went on with
    // a full committee.
    assert!(lazy_job.excluded.contains(&lazy), "{:?}", lazy_job.excluded);
    assert!(!lazy_job.commitments.iter().any(|c| c.runner == lazy));
    assert_eq!(lazy_job.draws.len(), 2, "{:?}", lazy_job.draws);
    let (first, retry) = (&lazy_job.draws[0], &lazy_job.draws[1]);
    assert_eq!(retry.retry, 1);
    let kept: Vec<Address> = first
        .committee
        .iter()
        .copied()
        .filter(|a| *a != lazy)
        .collect();
    assert_eq!(retry.committee[..kept.len()], kept[..]);
    assert_eq!(retry.committee.len(), first.committee.len());
    let newcomer = retry.committee[kept.len()];
    assert!(!first.committee.contains(&newcomer));
    assert!(
        lazy_job.commitments.iter().any(|c| c.runner == newcomer),
        "the re-drawn seat committed"
    );
    assert_eq!(lazy_job.status, JobStatus::Settled, "{}", lazy_job.failure);
    // The liar revealed a different value: paid nothing.
    assert!(job.reveals.iter().any(|r| r.runner == liar));
    assert!(!job.payouts.iter().any(|p| p.runner == liar));

    // The split, to the base unit: gross = the lower median rate card (1,000,000 per job, the
    // simulation's) + tip; 1% treasury, 10% burned, the rest to the agreeing runners in equal
    // shares with the aggregator's bonus carved from it, dust burned.
    let gross = 1_000_000u64;
    let share = |b: u64| gross * b / 10_000;
    assert_eq!(job.treasury, share(bps("/settlement/treasury_bps")));
    let runners_part = gross - job.treasury - share(bps("/settlement/burn_bps"));
    let aggregator = job.draws.last().expect("draw").aggregator;
    // The aggregator's bonus, when it is among the agreeing runners (it may be the liar).
    let bonus = if job.payouts.iter().any(|p| p.runner == aggregator) {
        share(bps("/aggregator/aggregator_bonus_bps"))
    } else {
        0
    };
    let winners = job.payouts.len() as u64;
    let each = (runners_part - bonus) / winners;
    for p in job.payouts.iter() {
        let expected = each + if p.runner == aggregator { bonus } else { 0 };
        assert_eq!(p.amount, expected, "payout of {}", p.runner);
    }
    assert_eq!(
        job.payouts.iter().map(|p| p.amount).sum::<u64>() + job.burn + job.treasury,
        gross
    );
    // Held through the challenge window, then paid: each honest runner's balance rose by its
    // payout exactly between verification and settlement.
    let client = cowboy_rpc::client(&url).expect("client");
    for ((a, before), now) in honest.iter().zip(&balances).zip(&settled) {
        let paid = job
            .payouts
            .iter()
            .find(|p| p.runner == *a)
            .map_or(0, |p| p.amount);
        assert_eq!(now.checked_sub(*before), Some(paid), "balance of {a}");
    }
    assert_eq!(at_verified.payouts, job.payouts);

    // Reputation: the lazy runner lost the timeout penalty, the liar the disagreement's.
    let reputation = |a: Address| {
        runtime()
            .block_on(client.runner(a))
            .expect("runner")
            .expect("registered")
            .reputation
    };
    assert!(reputation(lazy) < 75, "lazy {}", reputation(lazy));
    assert!(reputation(liar) < 75, "liar {}", reputation(liar));

    // Anyone can re-run the selection from the job's record, the retry's included.
    for j in [&job, &lazy_job] {
        let out = std::process::Command::new(bin())
            .env("COWBOY_HOME", home)
            .args([
                "job",
                "show",
                &j.id.to_string(),
                "--verify-selection",
                "--rpc-url",
                &url,
            ])
            .output()
            .expect("job show");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        for k in 0..j.draws.len() {
            assert!(
                text.contains(&format!("draw {k}: seed matches, committee matches")),
                "{text}"
            );
        }
    }

    let report = sim.stop();
    let earned = |a: Address| {
        report["runners"]
            .as_array()
            .expect("runners")
            .iter()
            .find(|r| r["address"] == a.to_string())
            .and_then(|r| {
                r["earned"]
                    .as_str()
                    .map(|s| s.parse::<u64>().expect("amount"))
            })
            .expect("earned")
    };
    assert_eq!(earned(liar), 0);
    assert_eq!(earned(lazy), 0);
    assert!(
        report["outcomes"]["settled"].as_u64().expect("settled") >= 1,
        "{report}"
    );
}

#[test]
fn http_recorded_once_replays_the_same_verified_result_without_the_network() {
    let _serial = serial();
    let (devnet, up) = Devnet::up(1, 300, &[]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let upstream = Upstream::start(r#"{"bitcoin":{"usd":65000.5},"noise":"x"}"#);
    let price_url = upstream.url();
    let oracle = deploy_oracle(home, &price_url, "dev:0", 3);
    let cassette = home.join("cassette.json");
    let cassette = cassette.to_str().expect("path");

    let refresh_and_follow = || {
        let id: Hash = returned(home, &["call", &oracle, "refresh", "--account", "dev:0"])
            .as_str()
            .expect("job id")
            .parse()
            .expect("hash");
        follow(&url, id, &[]).1.0
    };

    let sim = Sim::start(
        home,
        &url,
        "honest=3",
        &[
            "--funder",
            "dev:1",
            "--http",
            "record",
            "--cassette",
            cassette,
        ],
    );
    let recorded = refresh_and_follow();
    assert_eq!(
        recorded.status,
        JobStatus::Settled,
        "{}",
        recorded.failure.as_str()
    );
    let report = sim.stop();
    assert_eq!(report["http_unmatched"], 0, "{report}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cassette).expect("cassette")).expect("json");
    assert_eq!(
        saved["interactions"][0]["request"]["url"],
        price_url.as_str(),
        "{saved}"
    );

    // The upstream is gone: replay answers from the cassette, and the same runners (same
    // seed) verify the same result.
    drop(upstream);
    let sim = Sim::start(
        home,
        &url,
        "honest=3",
        &["--http", "replay", "--cassette", cassette],
    );
    let replayed = refresh_and_follow();
    assert_eq!(
        replayed.status,
        JobStatus::Settled,
        "{}",
        replayed.failure.as_str()
    );
    assert_eq!(replayed.result, recorded.result);
    assert_eq!(
        replayed.result.as_ref().map(|r| r.to_vec()),
        Some(br#"{"bitcoin":{"usd":65000.5}}"#.to_vec())
    );
    let report = sim.stop();
    assert_eq!(report["http_unmatched"], 0, "{report}");
    assert!(
        report["http_served"].as_u64().expect("served") >= 3,
        "{report}"
    );
}

#[test]
fn a_runner_killed_between_commit_and_reveal_reveals_from_its_journal() {
    let _serial = serial();
    let (devnet, up) = Devnet::up(1, 1000, &[]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    let upstream = Upstream::start(r#"{"bitcoin":{"usd":123}}"#);
    let dir = home.join("runner");
    let listen = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("port")
        .local_addr()
        .expect("addr");
    let init = json(
        home,
        &[
            "runner",
            "init",
            "--dir",
            dir.to_str().expect("dir"),
            "--key",
            "dev:3",
            "--listen",
            &listen.to_string(),
            "--stake",
            "100000000000",
            "--rpc-url",
            &url,
        ],
    );
    let config = init["config"].as_str().expect("config").to_string();
    // The job fetches from a loopback server: allow it (a real runner refuses).
    let text = std::fs::read_to_string(&config).expect("config");
    std::fs::write(
        &config,
        text.replace(
            "allow_private_addresses = false",
            "allow_private_addresses = true",
        ),
    )
    .expect("config");
    let runner: Address = init["address"]
        .as_str()
        .expect("address")
        .parse()
        .expect("address");
    let registered = json(home, &["runner", "register", "-c", &config]);
    assert_eq!(registered["status"], "success", "{registered}");

    // A one-runner job (verification none): the runner is its own aggregator.
    let oracle = deploy_oracle(home, &upstream.url(), "dev:0", 3);
    let spec = serde_json::json!({
        "input": {"http": {"method": "GET", "url": upstream.url(), "extract": ["/bitcoin/usd"]}},
        "bounds": {"max_wall_ms": 5000},
        "schema": {"max_return_bytes": 1024, "expected_execution_ms": 1000, "data_format": {"json": {}}},
        "verification": {"mode": {"none": {}}},
        "max_price": "10000000",
        "timeout_blocks": 20,
        "callback": {"actor": oracle, "handler": "on_price", "max_fee": "1000000000"}
    });
    let spec_path = home.join("job.json");
    std::fs::write(&spec_path, spec.to_string()).expect("spec");

    let start = |halt: bool| -> Child {
        let mut cmd = std::process::Command::new(bin());
        cmd.env("COWBOY_HOME", home)
            .args(["runner", "run", "-c", &config, "--log-level", "warn"])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if halt {
            cmd.arg("--halt-after-commit");
        }
        cmd.spawn().expect("runner run")
    };
    let mut daemon = start(true);
    let submitted = json(
        home,
        &[
            "job",
            "submit",
            spec_path.to_str().expect("path"),
            "--account",
            "dev:0",
        ],
    );
    let id: Hash = submitted["job_id"]
        .as_str()
        .expect("job id")
        .parse()
        .expect("hash");

    // Wait (block by block) until its commitment is on chain, then kill it without warning.
    let client = cowboy_rpc::client(&url).expect("client");
    let committed = runtime().block_on(async {
        let mut height = 0;
        for _ in 0..120 {
            let job = client.job(id).await.expect("job").expect("exists");
            if job.commitments.iter().any(|c| c.runner == runner) {
                return job;
            }
            if let Some(b) = client
                .wait_for_block(height, Some(10_000))
                .await
                .expect("poll")
            {
                height = b.height;
            }
        }
        panic!("the runner never committed");
    });
    assert_eq!(committed.status, JobStatus::Committed);
    daemon.kill().expect("SIGKILL");
    daemon.wait().expect("reaped");
    let nonce_after_commit = runtime().block_on(client.nonce(runner)).expect("nonce");

    // Restarted without the drill, it reveals from its journal and is paid.
    let mut daemon = start(false);
    let (_, (job, _)) = follow(&url, id, &[]);
    let _ = daemon.kill();
    let _ = daemon.wait();
    assert_eq!(job.status, JobStatus::Settled, "{}", job.failure.as_str());
    assert_eq!(
        job.commitments
            .iter()
            .filter(|c| c.runner == runner)
            .count(),
        1
    );
    assert_eq!(
        committed.commitments, job.commitments,
        "nothing was committed twice"
    );
    assert!(job.reveals.iter().any(|r| r.runner == runner));
    assert!(
        job.payouts
            .iter()
            .any(|p| p.runner == runner && p.amount > 0)
    );
    // One more transaction after the commit: the reveal.
    let nonce = runtime().block_on(client.nonce(runner)).expect("nonce");
    assert_eq!(nonce.latest, nonce_after_commit.latest + 1, "{nonce:?}");
    // The result was delivered: the oracle heard the callback (and, since it did not ask for
    // this job itself, ignored it for its price).
    let delivered = json_lines(home, &["events", "--actor", &oracle, "--topic", "Ignored"]);
    assert_eq!(delivered.len(), 1, "{delivered:?}");
    assert_eq!(delivered[0]["value"][0], id.to_string(), "{delivered:?}");
    let price = returned(home, &["query", &oracle, "price"]);
    assert_eq!(price["price"], serde_json::Value::Null, "{price}");
    // `runner status` shows the registry's record and the journal's one job (the output is
    // checked against its published schema).
    let status = json(home, &["runner", "status", "-c", &config]);
    assert_eq!(status["address"], runner.to_string(), "{status}");
    assert_eq!(status["runner"]["address"], runner.to_string(), "{status}");
    let journal = &status["journal"];
    let entries: u64 = ["committing", "revealing", "done"]
        .iter()
        .map(|s| journal[s].as_u64().expect("a count"))
        .sum();
    assert_eq!(entries, 1, "{status}");
}

#[test]
fn the_llm_judge_gets_a_structured_verdict_from_varying_runners() {
    let _serial = serial();
    let (devnet, up) = Devnet::up(1, 300, &[]);
    let home = devnet.home();
    let url = up["nodes"][0]["rpc_url"].as_str().expect("url").to_string();
    // Half the runners' answers drift a little from the others'.
    let sim = Sim::start(
        home,
        &url,
        "honest=3",
        &["--funder", "dev:1", "--llm-variation", "50"],
    );
    let model = sim.ready["model"].as_str().expect("model").to_string();
    let judge = deploy_example(home, "llm-judge", "dev:0", &[&format!("\"{model}\""), "3"]);
    let id = returned(
        home,
        &[
            "call",
            &judge,
            "judge",
            "\"The sky is blue.\"",
            "--account",
            "dev:0",
        ],
    );
    let id: Hash = id.as_str().expect("job id").parse().expect("hash");
    let (_, (job, _)) = follow(&url, id, &[]);
    assert_eq!(job.status, JobStatus::Settled, "{}", job.failure.as_str());
    assert!(job.reveals.len() >= 2);
    let verdict = returned(home, &["query", &judge, "verdict", &format!("\"{id}\"")]);
    assert!(
        ["pass", "fail"].contains(&verdict["verdict"].as_str().expect("verdict")),
        "{verdict}"
    );
    let score = verdict["score"].as_i64().expect("score");
    assert!((0..=100).contains(&score), "{verdict}");
    // The verified result is one of the revealed answers, and it parses as the schema says.
    let result: serde_json::Value =
        serde_json::from_slice(job.result.as_ref().expect("result")).expect("json");
    assert_eq!(result["verdict"], verdict["verdict"]);
    sim.stop();
}
