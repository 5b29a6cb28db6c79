//! `cowboy build`: check a project's actors against the PVM rules and its manifest, and write
//! the deployable artifacts (`build/NAME.json`). Problems show file:line:col, the rule and
//! the fix; nothing is written unless every actor passes.

use crate::{opts::GlobalArgs, output};
use anyhow::Result;
use clap::Args;
use cowboy_project::Project;
use std::path::PathBuf;

#[derive(Args)]
#[command(
    after_help = "Run inside a project (a directory with cowboy.toml, or below one).\n\n\
Examples:\n  cowboy build\n  cowboy build --path ./my-counter --json"
)]
pub struct BuildArgs {
    /// Build again whenever a .py or .toml file of the project is saved.
    #[arg(long)]
    watch: bool,
    /// The project directory (default: the current directory or its nearest parent with a
    /// cowboy.toml).
    #[arg(long)]
    path: Option<PathBuf>,
}

impl BuildArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        if self.watch {
            let dir = Project::locate(self.path.as_deref())?.dir;
            return crate::watching::run(&dir, global.json, |_| self.once(global));
        }
        self.once(global)
    }

    fn once(&self, global: &GlobalArgs) -> Result<()> {
        let project = Project::locate(self.path.as_deref())?;
        let built =
            cowboy_project::build(&project).map_err(|e| output::build_problems(e, global.json))?;
        let warnings: Vec<_> = built
            .iter()
            .flat_map(|(a, _)| cowboy_project::build::version_warnings(a))
            .collect();
        if global.json {
            let artifacts: Vec<_> = built
                .iter()
                .map(|(a, path)| crate::schema::BuiltArtifact {
                    name: a.name.clone(),
                    path: path.clone(),
                    class: a.class.clone(),
                    code_hash: a.code_hash,
                    handlers: a.handlers.clone(),
                    entitlements: a.entitlements,
                    size: a.code.len(),
                    pvm_version: a.pvm_version,
                })
                .collect();
            output::json(&crate::schema::Built {
                artifacts: Some(artifacts),
                problems: Vec::new(),
                warnings: Some(warnings.clone()),
            });
        } else {
            for w in &warnings {
                eprintln!(
                    "{}:{}:{}: warning: {}: {}\n  hint: {}",
                    w.file, w.line, w.column, w.rule, w.message, w.hint
                );
            }
            for (a, path) in &built {
                let rel = path.strip_prefix(&project.dir).unwrap_or(path);
                outln!(
                    "built {} → {} (class {}, handlers {}, {} bytes, code hash {}, PVM version {}+)",
                    a.name,
                    rel.display(),
                    a.class,
                    a.handlers.join(", "),
                    a.code.len(),
                    a.code_hash,
                    a.pvm_version
                );
            }
        }
        Ok(())
    }
}
