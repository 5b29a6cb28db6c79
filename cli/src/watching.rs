//! The watch loop of `cowboy test --watch`, `cowboy build --watch` and `cowboy deploy --watch`
//! (the waiting is `cowboy_project::watch`): run, wait for a save, clear the screen, say what
//! changed and which run this is, run again. A failing run is reported and the loop goes on;
//! Ctrl-C stops it.

use crate::output;
use anyhow::Result;
use std::{io::IsTerminal as _, path::Path};

/// Runs `action` now and after every change under `dir`. `action` gets the changed files
/// (relative to `dir`; empty on the first run).
pub fn run(
    dir: &Path,
    json: bool,
    mut action: impl FnMut(&[std::path::PathBuf]) -> Result<()>,
) -> Result<()> {
    // Watching starts before the first run: a save during it is not missed.
    let mut watch = cowboy_project::watch::Watch::new(dir)?;
    eprintln!(
        "watching {} for changes to .py and .toml files (Ctrl-C to stop)",
        dir.display()
    );
    let clear = std::io::stdout().is_terminal() && !json;
    let mut changed = Vec::new();
    for run in 1u64.. {
        if run > 1 {
            if clear {
                // Clear the screen and move to its top, as `cargo watch -c` does.
                print!("\x1b[2J\x1b[H");
            }
            let names: Vec<String> = changed
                .iter()
                .map(|p: &std::path::PathBuf| p.display().to_string())
                .collect();
            let header = format!("── run {run}: {} changed ──", names.join(", "));
            // With --json, stdout carries one document per run and nothing else.
            if json {
                eprintln!("{header}");
            } else {
                outln!("{header}");
            }
        } else if json {
            eprintln!("── run 1 ──");
        } else {
            outln!("── run 1 ──");
        }
        if let Err(e) = action(&changed) {
            output::print_error(&e, json);
        }
        changed = watch.changes()?;
    }
    Ok(())
}
