//! `cowboy test`: run a project's `tests/*.toml` scenarios on a local PVM (no node needed).

use crate::{cmd::build::project, opts::GlobalArgs, output};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
#[command(
    after_help = "Each tests/*.toml deploys one actor on a fresh local PVM and runs its \
steps in order:\n\n  \
actor = \"counter\"          # which manifest actor (default: the only one)\n  \
init_args = [0]            # __init__ arguments; init_timers = N checks timers it set\n\n  \
[[steps]]\n  \
call = \"increment\"         # the handler\n  \
args = [5]                 # its arguments\n  \
caller = \"0x22…22\"         # default the deployer 0x11…11; \"self\" is the actor itself\n  \
returns = 5                # or returns_none = true, or fails = \"part of the message\"\n  \
events = [\"Incremented\"]   # event names emitted; messages = [\"method\"]; timers = 1\n\n\
Messages and timers are checked, not delivered: deploy to a devnet to see them run."
)]
pub struct TestArgs {
    /// Only run test files whose path contains this.
    filter: Option<String>,
    /// The project directory (default: the current directory or its nearest parent with a
    /// cowboy.toml).
    #[arg(long)]
    path: Option<PathBuf>,
}

impl TestArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let project = project(self.path.as_ref())?;
        let reports = cowboy_project::scenario::run(&project, self.filter.as_deref())?;
        let failed = reports.iter().filter(|r| r.failure.is_some()).count();
        if global.json {
            output::json(&serde_json::json!({
                "passed": reports.len() - failed,
                "failed": failed,
                "files": reports,
            }));
        } else {
            for r in &reports {
                match &r.failure {
                    None => outln!(
                        "ok    {} ({} step{})",
                        r.file,
                        r.steps,
                        if r.steps == 1 { "" } else { "s" }
                    ),
                    Some(f) => {
                        if f.step == 0 {
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
            outln!("\n{} passed, {failed} failed", reports.len() - failed);
        }
        if failed > 0 {
            return Err(output::Reported.into());
        }
        Ok(())
    }
}
