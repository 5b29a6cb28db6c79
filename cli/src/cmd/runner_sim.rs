//! `cowboy runner-sim`: run a fleet of simulated runners (`cowboy-runner-sim` does the work;
//! this file parses, starts it, waits and prints the report).

use crate::{
    client::RpcArgs,
    opts::{GlobalArgs, PasswordArgs, SignerArgs},
    output,
};
use anyhow::{Context as _, Result, anyhow};
use clap::Args;
use cowboy_rpc::{CowboyApiClient, MAX_WAIT_MS};
use cowboy_runner_sim::{Fleet, Options, Simulation, mock::http::Mode, sim::Limits};
use cowboy_types::runner::RateCard;
use std::{path::PathBuf, time::Duration};

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy runner-sim --runners honest=3 --funder dev:1 --http replay --cassette prices.json --until-jobs 2\n  \
cowboy runner-sim --runners honest=3 --http record --cassette prices.json   # Ctrl-C stops\n  \
cowboy runner-sim --runners honest=4,lazy=1,liar=1 --funder dev:1 --seed 7   # until Ctrl-C")]
pub struct RunnerSimArgs {
    /// The fleet: KIND=COUNT,… with KIND honest, lazy, slow, liar, colluding, crash, flaky.
    #[arg(long, required_unless_present = "diff_live")]
    runners: Option<Fleet>,
    /// Instead of a fleet: fetch --spec's HTTP request N times from the live endpoint and
    /// show which response fields differ (to pick a verification mode).
    #[arg(long, value_name = "N", requires = "spec")]
    diff_live: Option<usize>,
    /// The job spec --diff-live fetches.
    #[arg(long, value_name = "FILE")]
    spec: Option<PathBuf>,
    /// Seed for runner keys, flaky coins and the LLM stand-in (same seed, same runners).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Account paying the runners' stakes and fee budgets (a keystore name or dev:N).
    #[arg(long, value_name = "ACCOUNT")]
    funder: Option<String>,
    /// Where journals go [default: $COWBOY_HOME/runner-sim/seed-SEED].
    #[arg(long)]
    dir: Option<PathBuf>,
    /// HTTP jobs: replay from --cassette, record into it, or go live.
    #[arg(long, default_value = "live")]
    http: Mode,
    /// The HTTP cassette (JSON) for --http replay or record.
    #[arg(long)]
    cassette: Option<PathBuf>,
    /// Percent chance that a runner's LLM reply varies from the others'.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=100))]
    llm_variation: u64,
    /// Production limits runners enforce: default, none, or a TOML file.
    #[arg(long, default_value = "default")]
    limits: String,
    /// Each runner's rate card: base units per job.
    #[arg(long, default_value_t = 1_000_000)]
    per_job: u64,
    /// Balance each runner gets for fees beyond its stake (base units).
    #[arg(long, default_value_t = 10_000_000_000)]
    fee_budget: u64,
    /// Stop once this many of the fleet's jobs finished, and print the report.
    #[arg(long)]
    until_jobs: Option<usize>,
    /// Stop after this many seconds, and print the report.
    #[arg(long)]
    duration: Option<u64>,
    /// Write the ready document (runners, backends) to this file once every runner runs.
    #[arg(long)]
    ready_file: Option<PathBuf>,
    /// Log filter.
    #[arg(long, default_value = "info")]
    log_level: String,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    password: PasswordArgs,
}

impl RunnerSimArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        crate::logs::init(&self.log_level, false)?;
        if let (Some(times), Some(spec)) = (self.diff_live, &self.spec) {
            return diff(spec, times, global.json);
        }
        let Some(fleet) = self.runners.clone() else {
            return Err(anyhow!("give the fleet with --runners KIND=COUNT,…"));
        };
        if self.http != Mode::Live && self.cassette.is_none() {
            return Err(anyhow!("--http {:?} needs --cassette FILE", self.http));
        }
        let funder = self
            .funder
            .as_ref()
            .map(|name| {
                SignerArgs {
                    account: Some(name.clone()),
                    private_key: None,
                    password: self.password.clone(),
                }
                .key(global)
            })
            .transpose()?;
        let (url, _) = self.rpc.resolve(global)?;
        let dir = match &self.dir {
            Some(d) => d.clone(),
            None => global
                .home()?
                .join("runner-sim")
                .join(format!("seed-{}", self.seed)),
        };
        let options = Options {
            rpc_url: url.clone(),
            fleet,
            seed: self.seed,
            funder,
            dir,
            http_mode: self.http,
            cassette: self.cassette.clone(),
            llm_variation_pct: self.llm_variation,
            limits: Limits::parse(&self.limits)?,
            rate_card: RateCard {
                per_job: self.per_job,
                per_1k_tokens: 0,
                per_second: 0,
            },
            fee_budget: self.fee_budget,
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        runtime.block_on(async move {
            let mut shutdown = crate::shutdown::Shutdown::listen()?;
            // Registering a fleet takes a transaction per runner: Ctrl-C stops it midway.
            let sim = tokio::select! {
                sim = Simulation::start(options) => sim?,
                _ = shutdown.wait() => {
                    eprintln!("stopped before the fleet was ready");
                    return Ok(());
                }
            };
            let ready = sim.ready();
            if let Some(path) = &self.ready_file {
                let text = serde_json::to_string_pretty(&ready)?;
                let tmp = path.with_extension("tmp");
                std::fs::write(&tmp, text)
                    .and_then(|_| std::fs::rename(&tmp, path))
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            if global.json {
                output::json(&crate::schema::RunnerSimLine::Ready { ready });
            } else {
                outln!("{} runners running against {url}:", ready.runners.len());
                for r in &ready.runners {
                    outln!("  {}  {:9}  {}", r.address, r.behaviour.name(), r.endpoint);
                }
                outln!(
                    "http mock {} ({:?}), llm {}, mcp {}",
                    ready.backends.http_via,
                    self.http,
                    ready.backends.llm_base,
                    ready.backends.mcp
                );
            }
            let client = cowboy_rpc::client(&url)?;
            let stop_after = self.duration.map(Duration::from_secs);
            let started = std::time::Instant::now();
            let json = global.json;
            let wait = async {
                let mut height = 0;
                let mut shown = std::collections::BTreeMap::new();
                loop {
                    // The live line: the fleet's jobs by status, when it changes.
                    let counts = sim.status_counts();
                    if !json && counts != shown {
                        let parts: Vec<String> =
                            counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
                        eprintln!("height {height}: jobs {}", parts.join(", "));
                        shown = counts;
                    }
                    if self.until_jobs.is_some_and(|n| sim.finished_jobs() >= n)
                        || stop_after.is_some_and(|d| started.elapsed() >= d)
                    {
                        return;
                    }
                    if let Ok(Some(b)) = client
                        .wait_for_block(height, Some(MAX_WAIT_MS.min(1_000)))
                        .await
                    {
                        height = b.height;
                    }
                }
            };
            tokio::select! {
                _ = wait => {}
                _ = shutdown.wait() => {}
            }
            let report = sim.report().await?;
            if global.json {
                output::json(&crate::schema::RunnerSimLine::Report { report });
            } else {
                print_report(&report);
            }
            sim.stop();
            Ok(())
        })
    }
}

fn diff(spec: &std::path::Path, times: usize, json: bool) -> Result<()> {
    let spec = cowboy_runner::jobs::load_spec(spec)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let report = runtime.block_on(cowboy_runner_sim::diff::diff_live(&spec, times))?;
    if json {
        output::json(&crate::schema::RunnerSimLine::DiffLive(report));
        return Ok(());
    }
    outln!(
        "{} fetches; the result was {}",
        report.fetches,
        if report.result_identical {
            "identical every time"
        } else {
            "NOT identical"
        }
    );
    for d in &report.differing {
        outln!(
            "  {}: {} value{}{}: {}",
            if d.pointer.is_empty() {
                "(body)"
            } else {
                &d.pointer
            },
            d.values.len(),
            if d.values.len() == 1 { "" } else { "s" },
            if d.missing > 0 {
                format!(", missing in {}", d.missing)
            } else {
                String::new()
            },
            d.values.join(" | ")
        );
    }
    outln!("suggestion: {}", report.suggestion);
    Ok(())
}

fn print_report(r: &cowboy_runner_sim::Report) {
    outln!("jobs: {}", r.jobs);
    for (status, n) in &r.outcomes {
        outln!("  {status:9} {n}");
    }
    let secs = |x: Option<f64>| x.map(|v| format!("{v:.1} s")).unwrap_or_else(|| "-".into());
    outln!(
        "time to result: p50 {}, p99 {}",
        secs(r.time_to_result_p50_s),
        secs(r.time_to_result_p99_s)
    );
    outln!(
        "http mock: {} served, {} unmatched",
        r.http_served,
        r.http_unmatched
    );
    outln!(
        "runner                                      behaviour  earned        reputation  slashed"
    );
    for x in &r.runners {
        outln!(
            "{}  {:9}  {:12}  {:10}  {}{}",
            x.address,
            x.behaviour.name(),
            x.earned,
            x.reputation,
            x.slashed_in,
            if x.halted { "  (halted)" } else { "" }
        );
    }
}
