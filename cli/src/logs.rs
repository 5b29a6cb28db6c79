//! Logging for the long-running commands (`node run`, `faucet`): tracing to stderr.
//!
//! A log that cannot be written is dropped, never fatal. Operators often send stderr to a file
//! on the node's own data disk; when that disk fills, tracing-subscriber's default reports the
//! failed write with `eprintln!`, which panics on the same full disk and takes the node down
//! exactly when it should pause and wait for space.

use anyhow::{Context as _, Result};

/// Installs the global subscriber: `filter` is an `EnvFilter` directive, `json` one JSON
/// object per line.
pub fn init(filter: &str, json: bool) -> Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .with_context(|| format!("--log-level {filter:?} is not a log filter"))?;
    use std::io::IsTerminal;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .log_internal_errors(false);
    let result = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    result.map_err(|e| anyhow::anyhow!("cannot start logging: {e}"))
}
