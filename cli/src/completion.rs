//! Shell completion that knows the user's world: key names from the keystore (and the devnet
//! accounts `dev:0`…`dev:9`) for `--account`, the project's actor names for `--actor`. The shell
//! asks the `cowboy` binary itself (clap_complete's `COMPLETE=SHELL cowboy` protocol), so
//! candidates are read when Tab is pressed, never baked into a script.

use clap_complete::engine::CompletionCandidate;
use std::path::PathBuf;

/// Devnet dev accounts offered for `--account` (the devnet's default ten).
const DEV_ACCOUNTS: usize = 10;

/// The home a completion reads: `$COWBOY_HOME`, else `~/.cowboy` (flags are not parsed yet).
fn home() -> Option<PathBuf> {
    std::env::var_os("COWBOY_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::home_dir().map(|h| h.join(".cowboy")))
}

/// `--account`: the keystore's key names, then `dev:N`.
pub fn accounts() -> Vec<CompletionCandidate> {
    let keys = home()
        .map(|h| cowboy_keystore::Keystore::names_at(&h))
        .unwrap_or_default();
    keys.into_iter()
        .map(|name| CompletionCandidate::new(name).help(Some("keystore key".into())))
        .chain((0..DEV_ACCOUNTS).map(|i| {
            CompletionCandidate::new(format!("dev:{i}")).help(Some("devnet dev account".into()))
        }))
        .collect()
}

/// A stored key's name (`keys show`, `keys export`, `keys delete`).
pub fn key_names() -> Vec<CompletionCandidate> {
    home()
        .map(|h| cowboy_keystore::Keystore::names_at(&h))
        .unwrap_or_default()
        .into_iter()
        .map(CompletionCandidate::new)
        .collect()
}

/// `--actor`: the actors of the project around the current directory.
pub fn project_actors() -> Vec<CompletionCandidate> {
    cowboy_project::manifest::Project::locate(None)
        .map(|p| {
            p.manifest
                .actors
                .iter()
                .map(|a| {
                    CompletionCandidate::new(&a.name)
                        .help(Some(a.source.display().to_string().into()))
                })
                .collect()
        })
        .unwrap_or_default()
}
