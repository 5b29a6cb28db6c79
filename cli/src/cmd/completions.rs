//! `cowboy completions SHELL`: print a shell completion script.

use anyhow::Result;
use clap::{Args, CommandFactory as _};

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy completions bash > ~/.local/share/bash-completion/completions/cowboy\n  \
cowboy completions zsh > \"${fpath[1]}/_cowboy\"\n  \
cowboy completions fish > ~/.config/fish/completions/cowboy.fish")]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell.
    shell: clap_complete::Shell,
}

impl CompletionsArgs {
    pub fn run(self) -> Result<()> {
        let mut command = crate::Cli::command();
        // Generated in memory: clap_complete panics when its writer fails (a closed pipe).
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut command, "cowboy", &mut script);
        crate::output::raw(&script);
        Ok(())
    }
}
