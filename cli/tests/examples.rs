//! Every example in a `cowboy … --help` text runs, as a user would paste it (in bash, with
//! `cowboy` on the PATH), against a running devnet, so a help text cannot teach a command that
//! fails (issue 20: "every documented example runs").
//!
//! Examples name what they need with placeholders: `0xACTOR` (a deployed counter), `0xHASH`,
//! `0xTIMER_ID`, … — the test fills them from the world it sets up, and an unknown placeholder
//! fails the test, so a new example cannot silently go unchecked. An example whose comment says
//! `Ctrl-C` keeps running: it must print a first line, then stop cleanly on SIGINT. The ports
//! the examples show (8545, 18545, …) are moved to free ones, as the book's chapters are.
//!
//! The book's ```sh blocks run the same way, and so do the example projects' README
//! walkthroughs: each in a scratch copy of its project, where `0xACTOR` (and `0xPINGER` for
//! `deploy --actor pinger`) is the address its own `cowboy deploy` printed, and `0xJOB` the
//! job that actor submitted last.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

/// Alice's key (`key.hex` in the work directory; `keys import alice` imports it), and Bob's,
/// imported by the world so the co-signing example has its second signer.
const ALICE_KEY: &str = "0x1111111111111111111111111111111111111111111111111111111111111111";
const BOB_KEY: &str = "0x2222222222222222222222222222222222222222222222222222222222222222";
const PASSWORD: &str = "examples-password";
/// The key `echo $KEY_HEX | cowboy keys import carol` reads, and the one the world puts in a
/// Foundry keystore for `keys import dave --keystore`.
const CAROL_KEY: &str = "0x3333333333333333333333333333333333333333333333333333333333333333";
const DAVE_KEY: &str = "0x4444444444444444444444444444444444444444444444444444444444444444";

/// How long one example may take before it counts as failed.
const EXAMPLE_TIMEOUT: Duration = Duration::from_secs(300);

/// The port blocks the examples show: the devnet defaults (as in `cowboy devnet up --help`) and
/// those they pass by hand.
const SHOWN_PORTS: [(u16, u16); 8] = [
    (cowboy_devnet::DEFAULT_RPC_PORT, 4),
    (cowboy_devnet::DEFAULT_P2P_PORT, 4),
    (cowboy_devnet::DEFAULT_FAUCET_PORT, 1),
    (18545, 1),
    (30400, 1),
    (18645, 1),
    (8646, 1),
    (9100, 1),
];

/// One help text's examples, in the order the text gives them.
#[derive(Debug)]
struct HelpText {
    command: Vec<String>,
    examples: Vec<String>,
}

/// Reads `cowboy [COMMAND…] --help` for every command, depth first in the order `--help` lists
/// them. `COLUMNS` is wide so clap does not wrap an example.
fn help_texts() -> Vec<HelpText> {
    let mut texts = Vec::new();
    let mut stack = vec![Vec::<String>::new()];
    while let Some(command) = stack.pop() {
        let out = Command::new(support::devnet::bin())
            .args(&command)
            .arg("--help")
            .env("COLUMNS", "1000")
            .env("NO_COLOR", "1")
            .output()
            .expect("help");
        assert!(out.status.success(), "cowboy {command:?} --help failed");
        let text = String::from_utf8(out.stdout).expect("utf-8 help");
        let examples = examples_in(&text);
        let subcommands = subcommands_in(&text);
        if !examples.is_empty() {
            texts.push(HelpText {
                command: command.clone(),
                examples,
            });
        }
        for sub in subcommands.into_iter().rev() {
            let mut path = command.clone();
            path.push(sub);
            stack.push(path);
        }
    }
    texts
}

/// The names under `Commands:` (without clap's own `help`).
fn subcommands_in(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The lines of an `Examples:` (or `Example:`) section: indented lines until a blank or an
/// unindented one; a line ending in `\` continues on the next.
fn examples_in(help: &str) -> Vec<String> {
    let mut examples: Vec<String> = Vec::new();
    let mut inside = false;
    let mut continued = false;
    for line in help.lines() {
        if line == "Examples:" || line == "Example:" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if !line.starts_with("  ") {
            inside = false;
            continue;
        }
        let text = line.trim();
        if continued {
            let last = examples.last_mut().expect("a line to continue");
            last.truncate(last.trim_end_matches('\\').trim_end().len());
            last.push(' ');
            last.push_str(text);
        } else {
            examples.push(text.to_string());
        }
        continued = text.ends_with('\\');
    }
    examples
}

/// A placeholder: `0x` and then a capital letter, capitals and underscores (`0xACTOR`).
fn placeholders_in(example: &str) -> BTreeSet<String> {
    let bytes = example.as_bytes();
    let mut found = BTreeSet::new();
    let mut at = 0;
    while let Some(i) = example[at..].find("0x") {
        let start = at + i;
        let end = start
            + 2
            + bytes[start + 2..]
                .iter()
                .take_while(|b| b.is_ascii_uppercase() || **b == b'_')
                .count();
        if end > start + 2 && bytes[start + 2].is_ascii_uppercase() {
            found.insert(example[start..end].to_string());
        }
        at = end.max(start + 2);
    }
    found
}

/// The world the examples run in: a home (`$HOME`, so `~/.cowboy` is the cowboy home) with a
/// running single-validator devnet and a runner fleet, a counter, a price oracle, a pending
/// timer and a finalized call; a work directory (a copy of the counter project with the files
/// the examples name) every example runs in; and the values of the placeholders.
struct World {
    root: tempfile::TempDir,
    moves: Vec<(u16, u16, u16)>,
    placeholders: Vec<(&'static str, String)>,
}

impl World {
    fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    fn work(&self) -> PathBuf {
        self.root.path().join("work")
    }

    /// The environment of every command: `cowboy` first on the PATH, the ports moved.
    fn command(&self, home: &Path, moves: &[(u16, u16, u16)], program: &str) -> Command {
        let bin = support::devnet::bin();
        let path = format!(
            "{}:{}",
            bin.parent().expect("bin dir").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut command = Command::new(program);
        command
            .env("HOME", home)
            .env("PATH", path)
            .env("NO_COLOR", "1")
            .env("COWBOY_PASSWORD", PASSWORD)
            .env("KEY_HEX", CAROL_KEY)
            .env_remove("COWBOY_HOME")
            .env_remove("COWBOY_RPC_URL")
            .env_remove("COWBOY_ACCOUNT")
            .env_remove("COWBOY_PRIVATE_KEY")
            .env_remove("COWBOY_PROFILE")
            .current_dir(self.work());
        for (var, (_, _, to)) in [
            "COWBOY_DEVNET_RPC_PORT",
            "COWBOY_DEVNET_P2P_PORT",
            "COWBOY_DEVNET_FAUCET_PORT",
        ]
        .iter()
        .zip(moves)
        {
            command.env(var, to.to_string());
        }
        command
    }

    /// `cowboy ARGS --json` in the world's home, for setting it up.
    fn json(&self, args: &[&str]) -> serde_json::Value {
        let out = self
            .command(&self.home(), &self.moves, "cowboy")
            .args(args)
            .arg("--json")
            .output()
            .expect("run cowboy");
        support::json_output(args, &out)
    }

    fn set_up() -> Self {
        let root = tempfile::tempdir().expect("world");
        let moves = moved_ports();
        let mut world = World {
            root,
            moves,
            placeholders: Vec::new(),
        };
        let home = world.home();
        for dir in [
            ".local/share/bash-completion/completions",
            ".zfunc",
            ".config/fish/completions",
        ] {
            std::fs::create_dir_all(home.join(dir)).expect("mkdir");
        }
        let work = world.work();
        support::copy_tree(&repo("examples/counter"), &work);
        support::example("ping-pong", world.root.path());
        std::fs::write(work.join("key.hex"), ALICE_KEY).expect("key.hex");
        std::fs::write(work.join("pw.txt"), PASSWORD).expect("pw.txt");
        // A key as Foundry's `cast wallet import` leaves it: a v3 keystore file.
        let foundry = tempfile::tempdir().expect("foundry");
        let keystore = cowboy_keystore::Keystore::open(foundry.path()).expect("keystore");
        let dave = cowboy_crypto::PrivateKey::from_hex(DAVE_KEY).expect("key");
        keystore
            .insert("dave", &dave, PASSWORD.as_bytes())
            .expect("insert");
        let keystores = home.join(".foundry/keystores");
        std::fs::create_dir_all(&keystores).expect("mkdir");
        std::fs::write(
            keystores.join("dave"),
            keystore.export("dave").expect("export"),
        )
        .expect("write keystore");
        for (file, from) in [
            ("transfer.json", "examples/transactions/transfer.json"),
            ("cosigned.json", "book/src/guide/signing.in/cosigned.json"),
            ("price.toml", "examples/price-oracle/price.toml"),
            ("prices.json", "examples/price-oracle/cassette.json"),
            ("cassette.json", "examples/price-oracle/cassette.json"),
        ] {
            std::fs::copy(repo(from), work.join(file)).expect(from);
        }

        let cassette = repo("examples/price-oracle/cassette.json");
        world.json(&[
            "devnet",
            "up",
            "--detach",
            "--block-time",
            "200",
            // Short blocks with the execution budget of 1-second ones, as the other devnet
            // tests run.
            "--cycle-budget",
            "5",
            "--runners",
            "honest=6",
            "--runners-cassette",
            cassette.to_str().expect("path"),
        ]);
        // `faucet serve --account treasury` signs with a funded key: dev:9's.
        let treasury = cowboy_devnet::dev_key(9).expect("dev:9");
        let treasury = format!("0x{}", hex::encode(*treasury.to_bytes()));
        for (name, key) in [("bob", BOB_KEY), ("treasury", treasury.as_str())] {
            let file = world.root.path().join(format!("{name}.hex"));
            std::fs::write(&file, key).expect("key file");
            let file = file.to_str().expect("path");
            world.json(&["keys", "import", name, "--private-key-file", file]);
        }
        let alice = cowboy_crypto::PrivateKey::from_hex(ALICE_KEY)
            .expect("key")
            .address()
            .to_string();
        // The faucet's most: a challenge bonds 100 CBY (`job challenge --account alice`).
        world.json(&["faucet", &alice, "--amount", "1000000000000"]);
        let deployed = world.json(&[
            "deploy",
            work.join("src/counter.py").to_str().expect("path"),
            "--args",
            "10",
            // Not the profile's dev:0, whose `cowboy deploy --args 10` example would land on
            // the same address.
            "--account",
            "dev:2",
        ]);
        let counter = deployed["created"].as_str().expect("created").to_string();
        let called = world.json(&["call", &counter, "increment", "--account", "dev:0"]);
        world.json(&[
            "timer",
            "set",
            &counter,
            "increment",
            "--in",
            "100000",
            "--account",
            "dev:0",
        ]);
        let timers = world.json(&["timer", "list", &counter]);
        let oracle = world.json(&[
            "deploy",
            "--path",
            support::example("price-oracle", world.root.path())
                .to_str()
                .expect("path"),
            "--args",
            "\"https://api.coingecko.com/api/v3/simple/price?ids=bitcoin&vs_currencies=usd\"",
            "30",
            "3",
            "--account",
            "dev:0",
        ]);
        // `node init --genesis ~/.cowboy/snapshots/staging.json` starts from a saved devnet.
        world.json(&["devnet", "snapshot", "save", "staging"]);
        let dev1 = cowboy_devnet::dev_key(1)
            .expect("dev:1")
            .address()
            .to_string();
        world.placeholders = vec![
            ("0xACTOR", counter),
            (
                "0xORACLE",
                oracle["created"].as_str().expect("created").into(),
            ),
            ("0xHASH", called["tx_hash"].as_str().expect("hash").into()),
            (
                "0xTIMER_ID",
                timers[0]["id"].as_str().expect("a timer").into(),
            ),
            ("0xADDR", alice.clone()),
            ("0xYOURADDRESS", alice),
            ("0xSENDER", dev1),
            ("0xPRIVATE_KEY", ALICE_KEY.into()),
        ];
        world
    }

    /// `0xJOB`: the job `submitter` (by default dev:0, the profile's account) submitted last,
    /// as a reader would copy it from the `job submit` or call they just ran.
    fn newest_job(&self, at: &Place, submitter: Option<&str>) -> Result<String, String> {
        let dev0 = cowboy_devnet::dev_key(0)
            .expect("dev:0")
            .address()
            .to_string();
        let submitter = submitter.unwrap_or(&dev0);
        let out = self
            .command(&at.home, &at.moves, "cowboy")
            .args(["job", "list", "--submitter", submitter, "--json"])
            .output()
            .map_err(|e| format!("cannot run cowboy: {e}"))?;
        let page: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
            format!(
                "0xJOB: `cowboy job list` printed no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
        page["jobs"]
            .as_array()
            .and_then(|jobs| jobs.iter().max_by_key(|j| j["submitted_at"].as_u64()))
            .and_then(|job| job["id"].as_str())
            .map(str::to_string)
            .ok_or_else(|| format!("0xJOB: {submitter} has submitted no job yet ({page})"))
    }

    /// `example` with its placeholders filled (those `at` bound first) and its ports moved.
    fn fill(&self, example: &str, at: &Place) -> Result<String, String> {
        let moves = &at.moves;
        let mut filled = example.to_string();
        for placeholder in placeholders_in(example) {
            if placeholder == "0xJOB" {
                let submitter = at.project.as_ref().and_then(|_| at.bound("0xACTOR"));
                filled = filled.replace(&placeholder, &self.newest_job(at, submitter)?);
                continue;
            }
            let value = at
                .bound(&placeholder)
                .or_else(|| {
                    self.placeholders
                        .iter()
                        .find(|(name, _)| *name == placeholder)
                        .map(|(_, value)| value.as_str())
                })
                .ok_or_else(|| {
                    format!(
                        "unknown placeholder {placeholder}: use 0xJOB or one of {:?}, or give the world one",
                        self.placeholders.iter().map(|(n, _)| n).collect::<Vec<_>>()
                    )
                })?;
            filled = filled.replace(&placeholder, value);
        }
        if filled
            .lines()
            .any(|line| line.split(" #").next().unwrap_or_default().contains('…'))
        {
            return Err("an elided value (…) cannot be run: write it out".into());
        }
        Ok(support::move_ports(&filled, moves))
    }
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Free ports for each block in [`SHOWN_PORTS`].
fn moved_ports() -> Vec<(u16, u16, u16)> {
    SHOWN_PORTS
        .iter()
        .map(|&(base, count)| (base, count, support::free_base(count)))
        .collect()
}

/// The devnets in a cowboy home.
fn devnets(home: &Path) -> BTreeSet<String> {
    std::fs::read_dir(home.join(".cowboy/devnets"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// Where a unit's examples run: its home and ports, and for a project's README its scratch
/// copy of the project, with the addresses its deploys printed.
struct Place {
    home: PathBuf,
    moves: Vec<(u16, u16, u16)>,
    /// The README's project (its scratch copy): the examples run in it, as dev:3 (so that a
    /// deploy lands where no other example's did), and bind what its deploys print.
    project: Option<PathBuf>,
    bound: Vec<(String, String)>,
}

impl Place {
    fn bound(&self, placeholder: &str) -> Option<&str> {
        self.bound
            .iter()
            .rev()
            .find(|(name, _)| name == placeholder)
            .map(|(_, value)| value.as_str())
    }

    /// After a README's `cowboy deploy [--actor NAME]`: `0xACTOR` (and `0xNAME`) is the
    /// address it printed.
    fn bind_deployed(&mut self, line: &str, stdout: &[u8]) -> Result<(), String> {
        if self.project.is_none() || !line.contains("cowboy deploy") {
            return Ok(());
        }
        let text = String::from_utf8_lossy(stdout);
        let address = text
            .lines()
            .find_map(|l| l.strip_prefix("actor:"))
            .map(|a| a.trim().to_string())
            .ok_or_else(|| format!("`{line}` printed no `actor:` line:\n{text}"))?;
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(name) = words
            .iter()
            .position(|w| *w == "--actor")
            .and_then(|i| words.get(i + 1))
        {
            self.bound
                .push((format!("0x{}", name.to_uppercase()), address.clone()));
        }
        self.bound.push(("0xACTOR".into(), address));
        Ok(())
    }
}

/// Runs one filled example; `Err` says how it failed, with its output. Returns what it printed
/// on stdout.
fn run(world: &World, at: &Place, line: &str) -> Result<Vec<u8>, String> {
    let mut command = world.command(&at.home, &at.moves, "bash");
    command.args(["-c", line]);
    if let Some(project) = &at.project {
        command.current_dir(project).env("COWBOY_ACCOUNT", "dev:3");
    }
    if line.contains("Ctrl-C") {
        return run_until_interrupted(command).map(|()| Vec::new());
    }
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start bash: {e}"))?;
    let out = wait_with_timeout(child, EXAMPLE_TIMEOUT)?;
    if out.status.success() {
        check_json(line, &out.stdout).map(|()| out.stdout)
    } else {
        Err(format!(
            "{}\n--- stdout\n{}--- stderr\n{}",
            out.status,
            tail(&out.stdout),
            tail(&out.stderr)
        ))
    }
}

/// What a `cowboy … --json` example printed is one JSON document, valid against the command's
/// published schema when it has one.
fn check_json(line: &str, stdout: &[u8]) -> Result<(), String> {
    let command = line.split(" #").next().unwrap_or_default();
    let words: Vec<&str> = command.split_whitespace().collect();
    if words.first() != Some(&"cowboy") || !words.contains(&"--json") {
        return Ok(());
    }
    let value: serde_json::Value = serde_json::from_slice(stdout).map_err(|e| {
        format!(
            "--json printed something that is not one JSON document ({e}):\n{}",
            tail(stdout)
        )
    })?;
    std::panic::catch_unwind(|| support::check_published_schema(&words[1..], &value)).map_err(
        |panic| {
            panic
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "the schema check failed".into())
        },
    )
}

/// A long-running example: it must print a line (on stdout or stderr: a node logs, a server
/// announces itself), then stop on SIGINT.
fn run_until_interrupted(mut command: Command) -> Result<(), String> {
    use std::os::unix::process::CommandExt as _;
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start bash: {e}"))?;
    let output = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let readers = [
        collect(child.stdout.take().expect("stdout"), &output),
        collect(child.stderr.take().expect("stderr"), &output),
    ];
    let start = Instant::now();
    let printed = || !output.lock().expect("output").is_empty();
    while !printed() && start.elapsed() < EXAMPLE_TIMEOUT {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let started = printed();
    // SIGINT to the whole group, as a terminal's Ctrl-C does.
    unsafe { libc::kill(-(child.id() as i32), libc::SIGINT) };
    let status = wait_with_timeout(child, Duration::from_secs(60))?.status;
    for reader in readers {
        let _ = reader.join();
    }
    let said = tail(output.lock().expect("output").as_bytes());
    if !started {
        Err(format!(
            "printed nothing in {EXAMPLE_TIMEOUT:?} ({status})\n{said}"
        ))
    } else if !(status.success() || interrupted(&status)) {
        Err(format!("{status} after Ctrl-C\n--- output\n{said}"))
    } else {
        Ok(())
    }
}

/// Appends what `pipe` says to `into`, line by line, until it closes.
fn collect(
    pipe: impl std::io::Read + Send + 'static,
    into: &std::sync::Arc<std::sync::Mutex<String>>,
) -> std::thread::JoinHandle<()> {
    use std::io::BufRead as _;
    let into = into.clone();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            let mut all = into.lock().expect("output");
            all.push_str(&line);
            all.push('\n');
        }
    })
}

/// Stopped: it handled the signal (exit 0), or died of it as `tail -f` does.
fn interrupted(status: &std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt as _;
    status.signal() == Some(libc::SIGINT) || status.code() == Some(130)
}

fn wait_with_timeout(
    mut child: std::process::Child,
    timeout: Duration,
) -> Result<std::process::Output, String> {
    let start = Instant::now();
    // Drain the pipes while waiting, so a chatty command cannot block on a full pipe.
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let read = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
                h.map(|h| h.join().unwrap_or_default()).unwrap_or_default()
            };
            return Ok(std::process::Output {
                status,
                stdout: read(stdout),
                stderr: read(stderr),
            });
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            return Err(format!("still running after {timeout:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn drain(mut pipe: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut all = Vec::new();
        let _ = pipe.read_to_end(&mut all);
        all
    })
}

/// The last 30 lines of an output.
fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = lines[lines.len().saturating_sub(30)..].join("\n");
    out.push('\n');
    out
}

/// A line that starts a devnet named `local` (`devnet up` without `--name`): it, and what
/// follows it in its help text or block, run in a home of their own (with their own ports),
/// since the world's devnet already has that name.
fn starts_local_devnet(line: &str) -> bool {
    line.starts_with("cowboy devnet up") && !line.contains(" --name ")
}

/// Stops (and deletes) the devnets a unit started, and puts back the world's config, so one
/// unit's examples (`config use testnet`, `devnet up --name copy`) do not change where the
/// next ones talk to.
fn tidy(world: &World, home: &Path, devnets_before: &BTreeSet<String>, config: Option<&[u8]>) {
    for name in devnets(home).difference(devnets_before) {
        let _ = world
            .command(home, &world.moves, "cowboy")
            .args(["devnet", "reset", "--name", name])
            .output();
    }
    if let Some(config) = config {
        std::fs::write(home.join(".cowboy/config.toml"), config).expect("restore config");
    }
}

/// What runs together: a help text's examples, one command at a time, or a book block, the
/// same way unless it sets shell variables (`RAW=$(cowboy sign …)`): then as one bash script.
struct Unit {
    label: String,
    lines: Vec<String>,
    script: bool,
    /// For a README walkthrough, the project it walks through.
    project: Option<Project>,
}

/// The project a README walks through.
#[derive(Clone)]
enum Project {
    /// `examples/NAME`, copied.
    Example(String),
    /// What `cowboy new --template NAME` makes.
    Template(String),
}

impl Project {
    /// Makes the project under `into`; returns its directory.
    fn make(&self, world: &World, into: &Path) -> PathBuf {
        match self {
            Project::Example(name) => support::example(name, into),
            Project::Template(name) => {
                std::fs::create_dir_all(into).expect("mkdir");
                let project = format!("my-{name}");
                let out = world
                    .command(&world.home(), &world.moves, "cowboy")
                    .current_dir(into)
                    .args(["new", &project, "--template", name])
                    .output()
                    .expect("cowboy new");
                assert!(
                    out.status.success(),
                    "cowboy new --template {name}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                into.join(project)
            }
        }
    }
}

fn units() -> Vec<Unit> {
    let help = help_texts().into_iter().map(|text| Unit {
        label: format!("`cowboy {} --help`", text.command.join(" ")),
        lines: text.examples,
        script: false,
        project: None,
    });
    let sets_variables = |line: &str| {
        line.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        })
    };
    let book = sh_blocks(markdown_files(&repo("book/src")))
        .into_iter()
        .map(|(label, lines)| Unit {
            script: lines.iter().any(|l| sets_variables(l)),
            label,
            lines,
            project: None,
        });
    let mut readmes: Vec<(PathBuf, Project)> = Vec::new();
    for (root, kind) in [
        ("examples", Project::Example as fn(String) -> Project),
        ("templates", Project::Template),
    ] {
        let mut found: Vec<(PathBuf, Project)> = std::fs::read_dir(repo(root))
            .expect("project dir")
            .flatten()
            .map(|e| e.path())
            .filter(|dir| dir.join("README.md").is_file())
            .map(|dir| {
                let name = dir
                    .file_name()
                    .expect("name")
                    .to_string_lossy()
                    .into_owned();
                (dir.join("README.md"), kind(name))
            })
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        readmes.extend(found);
    }
    let readmes = readmes.into_iter().flat_map(|(readme, project)| {
        let project = Some(project);
        sh_blocks(vec![readme])
            .into_iter()
            .map(move |(label, lines)| Unit {
                label,
                lines,
                script: false,
                project: project.clone(),
            })
    });
    help.chain(book).chain(readmes).collect()
}

/// Book lines that are not run, each with why: installing cowboy (CI builds the binary it
/// tests), and what needs the internet (CI has none; such a line says so in its comment).
const NOT_RUN: [(&str, &str); 3] = [
    (
        "cargo build",
        "installs cowboy: CI builds the binary it tests",
    ),
    (
        "export PATH=",
        "installs cowboy: CI builds the binary it tests",
    ),
    (
        "# needs the network",
        "needs the internet, which CI does not have",
    ),
];

/// The markdown files under `root`, sorted.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Every ```sh block of `files`, labelled `FILE:LINE`, with its commands (continuations
/// joined, blank and comment-only lines and [`NOT_RUN`] lines left out).
fn sh_blocks(files: Vec<PathBuf>) -> Vec<(String, Vec<String>)> {
    let mut blocks = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("chapter");
        let shown = file
            .strip_prefix(repo("."))
            .unwrap_or(&file)
            .display()
            .to_string();
        let mut block: Option<(usize, Vec<String>)> = None;
        for (n, line) in text.lines().enumerate() {
            match (&mut block, line.trim_end()) {
                (None, "```sh") => block = Some((n + 1, Vec::new())),
                (Some((at, lines)), "```") => {
                    if !lines.is_empty() {
                        blocks.push((format!("{shown}:{at}"), std::mem::take(lines)));
                    }
                    block = None;
                }
                (Some((_, lines)), line) => {
                    let continues = lines.last().is_some_and(|l| l.ends_with('\\'));
                    if continues {
                        let last = lines.last_mut().expect("a line");
                        last.truncate(last.trim_end_matches('\\').trim_end().len());
                        last.push(' ');
                        last.push_str(line.trim());
                    } else if !line.trim().is_empty() && !line.trim().starts_with('#') {
                        lines.push(line.trim().to_string());
                    }
                }
                (None, _) => {}
            }
        }
    }
    for (_, lines) in &mut blocks {
        lines.retain(|line| {
            match NOT_RUN
                .iter()
                .find(|(marker, _)| line.starts_with(marker) || line.contains(marker))
            {
                Some((_, why)) => {
                    eprintln!("   not run: {line}  ({why})");
                    false
                }
                None => true,
            }
        });
    }
    blocks.retain(|(_, lines)| !lines.is_empty());
    blocks
}

#[test]
fn every_documented_example_runs_against_a_devnet() {
    let units = units();
    let count: usize = units.iter().map(|u| u.lines.len()).sum();
    assert!(
        count >= 80,
        "only {count} examples found: is a parser broken?"
    );
    let world = World::set_up();
    let mut failures = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        let mut at = Place {
            home: world.home(),
            moves: world.moves.clone(),
            project: unit
                .project
                .as_ref()
                .map(|p| p.make(&world, &world.root.path().join(format!("project-{i}")))),
            bound: Vec::new(),
        };
        let mut devnets_before = devnets(&at.home);
        let mut config = std::fs::read(at.home.join(".cowboy/config.toml")).ok();
        let mut own_home = |at: &mut Place| {
            tidy(&world, &at.home, &devnets_before, config.as_deref());
            at.home = world.root.path().join(format!("home-{i}"));
            std::fs::create_dir_all(&at.home).expect("own home");
            at.moves = moved_ports();
            devnets_before = BTreeSet::new();
            config = None;
        };
        let steps: Vec<String> = if unit.script {
            if unit.lines.iter().any(|l| starts_local_devnet(l)) {
                own_home(&mut at);
            }
            vec![format!("set -euo pipefail\n{}", unit.lines.join("\n"))]
        } else {
            unit.lines.clone()
        };
        for step in &steps {
            if !unit.script && starts_local_devnet(step) && at.home == world.home() {
                own_home(&mut at);
            }
            let started = Instant::now();
            let outcome = world
                .fill(step, &at)
                .and_then(|line| run(&world, &at, &line))
                .and_then(|stdout| at.bind_deployed(step, &stdout));
            let took = started.elapsed().as_millis();
            let verdict = if outcome.is_ok() { "ok" } else { "FAILED" };
            let shown = step.replace('\n', "; ");
            eprintln!("{verdict:>6} {took:>6} ms  {shown}");
            if let Err(why) = outcome {
                failures.push(format!("{}: {shown}\n{why}", unit.label));
            }
        }
        tidy(&world, &at.home, &devnets_before, config.as_deref());
    }
    assert!(
        failures.is_empty(),
        "{} of {count} documented examples failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Whatever happens (a failed set-up too), the devnets of every home are stopped at the end.
impl Drop for World {
    fn drop(&mut self) {
        let homes = std::fs::read_dir(self.root.path())
            .into_iter()
            .flatten()
            .flatten();
        for home in homes
            .map(|e| e.path())
            .filter(|p| p.join(".cowboy").is_dir())
        {
            for name in devnets(&home) {
                let _ = self
                    .command(&home, &self.moves, "cowboy")
                    .args(["devnet", "reset", "--name", &name])
                    .output();
            }
        }
    }
}

#[test]
fn examples_are_read_as_a_user_sees_them() {
    let help = "Usage: x\n\nCommands:\n  new   Make one\n  help  Print help\n\nExamples:\n  \
                cowboy new a\n  cowboy job submit --http U \\\n    --runners 3  # note\n\n\
                Trailing text\n  not an example\n";
    assert_eq!(subcommands_in(help), ["new"]);
    assert_eq!(
        examples_in(help),
        [
            "cowboy new a",
            "cowboy job submit --http U --runners 3  # note"
        ]
    );
    assert_eq!(
        placeholders_in("cowboy call 0xACTOR f 0x01 0xabc 0xTIMER_ID"),
        BTreeSet::from(["0xACTOR".to_string(), "0xTIMER_ID".to_string()])
    );
}
