//! `cowboy completions SHELL`: print the shell code that completes `cowboy` commands.
//!
//! The code asks the `cowboy` binary for candidates at each Tab (`COMPLETE=SHELL cowboy …`), so
//! completions know the keystore's key names and the project's actors, not only the commands
//! and flags (see `crate::completion`).

use anyhow::{Result, anyhow};
use clap::Args;

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy completions bash > ~/.local/share/bash-completion/completions/cowboy\n  \
cowboy completions zsh > ~/.zfunc/_cowboy        # with fpath+=(~/.zfunc) in ~/.zshrc\n  \
cowboy completions fish > ~/.config/fish/completions/cowboy.fish\n  \
source <(cowboy completions bash)      # this shell only\n\n\
Regenerate after upgrading cowboy: the code and the binary speak a protocol that may change.")]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell.
    shell: clap_complete::Shell,
}

impl CompletionsArgs {
    pub fn run(self) -> Result<()> {
        let name = self.shell.to_string();
        let shells = clap_complete::env::Shells::builtins();
        let shell = shells
            .completer(&name)
            .ok_or_else(|| anyhow!("no completion support for {name}"))?;
        // The binary the shell calls back: as invoked when that is a bare name found on PATH,
        // else its absolute path.
        let invoked = std::env::args_os()
            .next()
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| "cowboy".into());
        let completer = if invoked.components().count() > 1 {
            std::env::current_exe().unwrap_or(invoked)
        } else {
            invoked
        };
        let mut script = Vec::new();
        shell.write_registration(
            "COMPLETE",
            "cowboy",
            "cowboy",
            &completer.to_string_lossy(),
            &mut script,
        )?;
        crate::output::raw(&script);
        Ok(())
    }
}
