//! `cowboy test`: run a project's `tests/*.toml` scenarios on a local chain (no node needed).

use crate::{opts::GlobalArgs, output};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
#[command(
    after_help = "Each tests/*.toml runs on a fresh local chain (the chain's own state \
transition, no node): its actor is deployed in block 1, then each step makes blocks.\n\n  \
actor = \"counter\"          # which manifest actor (default: the only one)\n  \
init_args = [0]            # __init__ arguments; init_timers = N checks timers it set\n\n  \
[[steps]]\n  \
deploy = \"ponger\"         # deploy another manifest actor (args: its __init__ arguments)\n\n  \
[[steps]]\n  \
call = \"increment\"         # the handler (to = \"ponger\" calls another deployed actor)\n  \
args = [5, \"$ponger\"]      # its arguments; \"$NAME\" is deployed actor NAME's address\n  \
caller = \"0x22…22\"         # default the deployer 0x11…11; \"self\" or an actor name sends as it\n  \
returns = 5                # or returns_none = true, or fails = \"part of the message\"\n  \
events = [\"Incremented\"]   # events of the transaction; messages = [\"method\"]; timers = 1\n\n  \
[[steps]]\n  \
advance = 10               # make 10 blocks: timers fire, deferred messages are delivered\n  \
ran = [\"timeout\"]          # the handlers that ran in them; events = [...] too\n\n\
Messages are delivered in the transaction that sends them; value moves and fees are paid as \
on a devnet. `--json` lists every receipt with the step that made it."
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
        let project = cowboy_project::Project::locate(self.path.as_deref())?;
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
            outln!("\n{} passed, {failed} failed", reports.len() - failed);
        }
        if failed > 0 {
            return Err(output::Reported.into());
        }
        Ok(())
    }
}
