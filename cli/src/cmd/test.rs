//! `cowboy test`: run a project's Python tests (`tests/test_*.py`) and TOML scenarios
//! (`tests/*.toml`) on local chains (no node needed), and report them as pytest and
//! `forge test` do.

use crate::{opts::GlobalArgs, output};
use anyhow::Result;
use clap::Args;
use cowboy_project::python_tests;
use cowboy_pvm::testing::Outcome;
use std::path::PathBuf;

#[derive(Args)]
#[command(
    after_help = "Python tests: every test_* function of tests/test_*.py runs on a fresh local \
chain (the node's own state transition in memory, 10 funded accounts). Test code is not \
metered; each actor call it makes is, exactly as on chain. Drive the chain with cowboy_test:\n\n  \
import cowboy_test as ct\n\n  \
def test_increment():\n      \
counter = ct.deploy(\"counter\", 0)      # a manifest actor, __init__(0)\n      \
assert counter.increment(5) == 5      # a transaction in a block of its own\n      \
assert counter.query(\"get\") == 5      # read-only, no block\n      \
with ct.expect_failure(kind=\"Exception\", match=\"negative\"):\n          \
counter.increment(-1)\n\n  \
@ct.given(n=ct.integers(0, 1000))        # a property test: --fuzz-runs examples\n  \
def test_any_amount(n): ...\n\n\
Other tests/*.py files are helper modules the tests import. See the book's \"Testing \
actors\" for every cowboy_test function.\n\n\
TOML scenarios (tests/*.toml) run too: an actor deployed in block 1, then steps \
(call/deploy/advance with expectations); see the book."
)]
pub struct TestArgs {
    /// Only run test files whose path contains this.
    filter: Option<String>,
    /// Only run Python tests whose `file::name` contains this.
    #[arg(short = 'k', value_name = "PATTERN")]
    pattern: Option<String>,
    /// Stop at the first failure.
    #[arg(short = 'x', long = "exitfirst")]
    fail_fast: bool,
    /// Print the cycles and cells each handler's calls used (min, median, max, calls).
    #[arg(long)]
    gas_report: bool,
    /// Examples every property test (`@given`) draws (default: what the test says with
    /// `max_examples`, or 256).
    #[arg(long, value_name = "N")]
    fuzz_runs: Option<u64>,
    /// The seed property tests draw their examples from (the same seed draws the same ones).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Run again whenever a .py or .toml file of the project is saved.
    #[arg(long)]
    watch: bool,
    /// The project directory (default: the current directory or its nearest parent with a
    /// cowboy.toml).
    #[arg(long)]
    path: Option<PathBuf>,
}

impl TestArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        if self.watch {
            let dir = cowboy_project::Project::locate(self.path.as_deref())?.dir;
            return crate::watching::run(&dir, global.json, |_| self.once(global));
        }
        self.once(global)
    }

    fn once(&self, global: &GlobalArgs) -> Result<()> {
        // Read afresh each run: watch mode re-runs after the manifest or a test changed.
        let project = cowboy_project::Project::locate(self.path.as_deref())?;
        let options = python_tests::Options {
            pattern: self.pattern.clone(),
            file_filter: self.filter.clone(),
            fail_fast: self.fail_fast,
            fuzz_runs: self.fuzz_runs,
            seed: self.seed,
        };
        let plan = python_tests::plan(&project, &options)?;
        let mut current_file = String::new();
        let json = global.json;
        let (results, gas) = if plan.files.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            python_tests::run(&project, plan, &options, &mut |r| {
                if json {
                    return;
                }
                if r.file != current_file {
                    current_file = r.file.clone();
                    outln!("{}", r.file);
                }
                outln!(
                    "  {}  {} ({})",
                    if r.passed() { "ok  " } else { "FAIL" },
                    r.name,
                    duration(r.duration)
                );
            })?
        };
        let python_failed = results.iter().filter(|r| !r.passed()).count();
        // A TOML scenario run stops nothing: -x applies to the Python tests, which run first.
        let with_python = python_tests::has_tests(&project.dir);
        let reports = if self.fail_fast && python_failed > 0 || self.pattern.is_some() {
            Vec::new()
        } else {
            match cowboy_project::scenario::run(&project, self.filter.as_deref()) {
                // Python tests alone are a project's tests too.
                Err(cowboy_project::scenario::ScenarioError::NoTests(_)) if with_python => {
                    Vec::new()
                }
                other => other?,
            }
        };
        let scenario_failed = reports.iter().filter(|r| r.failure.is_some()).count();
        let passed = results.len() - python_failed + reports.len() - scenario_failed;
        let failed = python_failed + scenario_failed;
        if passed + failed == 0 {
            // As pytest does: a selection that matched nothing is an error, not a pass.
            anyhow::bail!(
                "no tests ran: {} (tests are test_* functions in tests/test_*.py, and \
                 tests/*.toml scenarios)",
                match (&self.pattern, &self.filter) {
                    (Some(k), _) => format!("no test's file::name contains {k:?}"),
                    (None, Some(f)) => format!("no test file's path contains {f:?}"),
                    (None, None) => "the project has no tests".into(),
                }
            );
        }
        let report = self.gas_report.then(|| python_tests::gas_report(&gas));
        if global.json {
            output::json(&crate::schema::TestRun {
                passed,
                failed,
                tests: results.clone(),
                files: reports.clone(),
                gas: report,
            });
        } else {
            for r in &reports {
                print_scenario(r);
            }
            let failures: Vec<_> = results.iter().filter(|r| !r.passed()).collect();
            if !failures.is_empty() {
                outln!();
                outln!("failures:");
            }
            for r in failures {
                if let Outcome::Failed { message, traceback } = &r.outcome {
                    outln!();
                    outln!("―― {}::{} ――", r.file, r.name);
                    let shown = if traceback.trim().is_empty() {
                        message
                    } else {
                        traceback
                    };
                    for line in shown.trim_end().lines() {
                        outln!("{line}");
                    }
                    if !r.output.is_empty() {
                        outln!("captured output:");
                        for line in r.output.trim_end().lines() {
                            outln!("  {line}");
                        }
                    }
                }
            }
            if let Some(lines) = &report {
                print_gas(lines);
            }
            outln!("\n{passed} passed, {failed} failed");
        }
        if failed > 0 {
            return Err(output::Reported.into());
        }
        Ok(())
    }
}

fn duration(d: std::time::Duration) -> String {
    if d.as_secs() >= 1 {
        format!("{:.2} s", d.as_secs_f64())
    } else {
        format!("{} ms", d.as_millis())
    }
}

fn print_scenario(r: &cowboy_project::scenario::Report) {
    match &r.failure {
        None => outln!(
            "ok    {} ({} step{})",
            r.file,
            r.steps,
            if r.steps == 1 { "" } else { "s" }
        ),
        Some(f) => {
            if f.call == cowboy_project::scenario::FILE_PROBLEM {
                outln!("FAIL  {}: {}", r.file, f.message)
            } else if f.step == 0 {
                outln!("FAIL  {}: deploy of {}: {}", r.file, r.actor, f.message)
            } else {
                outln!(
                    "FAIL  {}: step {} ({}): {}",
                    r.file,
                    f.step,
                    f.call,
                    f.message
                )
            }
            for line in f.traceback.iter().flat_map(|tb| tb.lines()) {
                outln!("      {line}");
            }
        }
    }
}

fn print_gas(lines: &[python_tests::GasLine]) {
    outln!();
    outln!(
        "{:<24} {:>6} {:>12} {:>12} {:>12} {:>10} {:>10} {:>10}",
        "handler",
        "calls",
        "cycles min",
        "median",
        "max",
        "cells min",
        "median",
        "max"
    );
    for l in lines {
        outln!(
            "{:<24} {:>6} {:>12} {:>12} {:>12} {:>10} {:>10} {:>10}",
            format!("{}.{}", l.actor, l.method),
            l.calls,
            l.cycles.min,
            l.cycles.median,
            l.cycles.max,
            l.cells.min,
            l.cells.median,
            l.cells.max
        );
    }
}
