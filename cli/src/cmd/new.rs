//! `cowboy new`: scaffold an actor project from a template. Asks for the template in a
//! terminal; every choice is also a flag, and `--yes` takes the defaults, for scripts.

use crate::{opts::GlobalArgs, output};
use anyhow::{Context as _, Result};
use clap::Args;
use cowboy_project::templates;
use std::{io::IsTerminal as _, path::PathBuf};

#[derive(Args)]
#[command(after_help = "Templates:\n  \
counter    a counter: storage, a handler that changes it, events (default)\n  \
interval   a scheduled job: a chain-native interval timer calls a handler every N blocks\n  \
pair       two actors exchanging messages with correlation ids and a timeout timer\n\n\
Examples:\n  \
cowboy new my-counter\n  \
cowboy new ticker --template interval --yes\n  \
cowboy new chat --template pair --path ./projects/chat")]
pub struct NewArgs {
    /// Project name: a letter, then letters, digits, '-' or '_'.
    name: String,
    /// Template to start from (asked in a terminal when not given).
    #[arg(long, short = 't')]
    template: Option<String>,
    /// Directory to create (default: ./NAME). It must not exist or be empty.
    #[arg(long)]
    path: Option<PathBuf>,
    /// Never prompt: take the default for anything not given.
    #[arg(long, short = 'y')]
    yes: bool,
}

impl NewArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        templates::check_name(&self.name)?;
        let interactive = !self.yes
            && !global.json
            && std::io::stdin().is_terminal()
            && std::io::stderr().is_terminal();
        let template = match (&self.template, interactive) {
            (Some(t), _) => templates::template(t)?,
            (None, true) => {
                let all = templates::templates();
                let items: Vec<String> = all
                    .iter()
                    .map(|t| format!("{:<9} {}", t.name, t.description))
                    .collect();
                let choice = dialoguer::Select::new()
                    .with_prompt("Template")
                    .items(&items)
                    .default(0)
                    .interact()
                    .context("no template chosen")?;
                all[choice]
            }
            (None, false) => templates::template("counter")?,
        };
        let dest = self
            .path
            .clone()
            .unwrap_or_else(|| PathBuf::from(&self.name));
        let files = template.write(&dest, &self.name)?;
        if global.json {
            output::json(&crate::schema::Created {
                project: self.name.clone(),
                template: template.name.to_string(),
                path: dest.clone(),
                files: files.clone(),
            });
        } else {
            outln!(
                "created {} from template {} ({} files):",
                dest.display(),
                template.name,
                files.len()
            );
            for f in &files {
                outln!("  {}", f.display());
            }
            outln!(
                "\nnext:\n  cd {}\n  cowboy test\n  cowboy build",
                dest.display()
            );
        }
        Ok(())
    }
}
