//! `cowboy schema [COMMAND…]`: the JSON Schema of a command's `--json` output.

use crate::{output, schema};
use anyhow::{Result, bail};
use clap::Args;

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy schema                       # the commands whose --json output has a schema\n  \
cowboy schema timer show\n  \
cowboy schema balance --watch       # the schema of each line of a stream")]
pub struct SchemaArgs {
    /// The command as typed (`call`, `timer show`, `balance --watch`); none lists them.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    command: Vec<String>,
}

impl SchemaArgs {
    pub fn run(self, global: &crate::opts::GlobalArgs) -> Result<()> {
        if self.command.is_empty() {
            if global.json {
                let list: Vec<_> = schema::OUTPUTS
                    .iter()
                    .map(|o| {
                        serde_json::json!({
                            "command": o.command,
                            "what": o.what,
                            "lines": o.lines,
                            "book_file": o.file_name(),
                        })
                    })
                    .collect();
                output::json(&list);
            } else {
                for o in schema::OUTPUTS {
                    let lines = if o.lines { " (one per line)" } else { "" };
                    outln!("{:<18} {}{lines}", o.command, o.what);
                }
            }
            return Ok(());
        }
        let command = self.command.join(" ");
        let Some(described) = schema::output(&command) else {
            bail!(
                "`cowboy {command} --json` has no published schema; `cowboy schema` lists the commands that have one"
            );
        };
        output::json_pretty(&described.schema());
        Ok(())
    }
}
