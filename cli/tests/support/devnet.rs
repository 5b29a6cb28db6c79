//! A devnet for process-level tests: `cowboy` invocations with a scratch home, `devnet up
//! --detach` on free ports torn down on drop, and long polls for heights.

use cowboy_rpc::CowboyApiClient as _;
use snapbox::cmd::Command;
use std::{
    path::{Path, PathBuf},
    time::Duration,
};

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cowboy"))
}

pub fn cowboy(home: &Path) -> Command {
    Command::new(bin())
        .env("COWBOY_HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("COWBOY_RPC_URL")
        .env_remove("COWBOY_ACCOUNT")
        .env_remove("COWBOY_PRIVATE_KEY")
        .env_remove("COWBOY_PROFILE")
        .timeout(Duration::from_secs(180))
}

/// Runs `cowboy ARGS --json` and parses its output.
pub fn json(home: &Path, args: &[&str]) -> serde_json::Value {
    let out = cowboy(home).args(args).arg("--json").output().expect("run");
    super::json_output(args, &out)
}

/// Runs `cowboy ARGS --json` for a command that prints one JSON document per line (`events`,
/// `job watch`); returns the lines parsed, each checked against the published schema.
pub fn json_lines(home: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    let out = cowboy(home).args(args).arg("--json").output().expect("run");
    assert!(
        out.status.success(),
        "cowboy {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("cowboy {args:?}: not a JSON line ({e}): {line}"));
            super::check_published_schema(args, &value);
            value
        })
        .collect()
}

/// A devnet that is torn down (processes stopped, directory deleted) when dropped.
pub struct Devnet {
    pub home: tempfile::TempDir,
    pub name: String,
}

impl Devnet {
    /// `devnet up --detach` on free ports; returns its `--json` answer.
    pub fn up(validators: usize, block_time: u64, extra: &[&str]) -> (Self, serde_json::Value) {
        let home = tempfile::tempdir().expect("home");
        let n = validators as u16;
        let (rpc, p2p, faucet) = (
            super::free_base(n),
            super::free_base(n),
            super::free_base(1),
        );
        let mut args: Vec<String> = [
            "devnet",
            "up",
            "--detach",
            "--validators",
            &validators.to_string(),
            "--block-time",
            &block_time.to_string(),
            // Short blocks for speed, with the execution budget of 1-second blocks so the
            // examples' timers fit.
            "--cycle-budget",
            "5",
            "--rpc-port",
            &rpc.to_string(),
            "--p2p-port",
            &p2p.to_string(),
            "--faucet-port",
            &faucet.to_string(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let up = json(home.path(), &refs);
        (
            Self {
                home,
                name: "local".into(),
            },
            up,
        )
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }
}

impl Drop for Devnet {
    fn drop(&mut self) {
        let _ = std::process::Command::new(bin())
            .args(["devnet", "reset", "--name", &self.name])
            .env("COWBOY_HOME", self.home.path())
            .output();
    }
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// Long-polls `url` until it has executed a block above `after`; returns that height.
pub fn wait_above(url: &str, after: u64) -> u64 {
    let client = cowboy_rpc::client(url).expect("client");
    runtime().block_on(async {
        for _ in 0..12 {
            if let Ok(Some(b)) = client.wait_for_block(after, Some(10_000)).await {
                return b.height;
            }
        }
        panic!("{url} executed nothing above {after} in 120 s");
    })
}

pub fn height(url: &str) -> u64 {
    runtime()
        .block_on(cowboy_rpc::client(url).expect("client").status())
        .expect("status")
        .height
}
