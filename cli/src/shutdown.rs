//! Waiting for the user to stop a foreground command (`cowboy devnet up`, `faucet serve`,
//! `runner run`, `runner-sim`).
//!
//! The handlers are installed when a [`Shutdown`] is made, before the command starts anything,
//! and a signal that arrives early is kept: a Ctrl-C while a devnet is still starting must stop
//! it cleanly, not kill `cowboy` and leave its nodes running.

use anyhow::{Context as _, Result};
use tokio::signal::unix::{Signal, SignalKind, signal};

/// SIGINT and SIGTERM, caught from the moment this is made.
pub struct Shutdown {
    interrupt: Signal,
    terminate: Signal,
}

impl Shutdown {
    /// Installs the handlers. Must run inside a Tokio runtime (in `block_on`, or after
    /// `Runtime::enter`).
    pub fn listen() -> Result<Self> {
        let install = |kind| signal(kind).context("cannot install the Ctrl-C handler");
        Ok(Self {
            interrupt: install(SignalKind::interrupt())?,
            terminate: install(SignalKind::terminate())?,
        })
    }

    /// Completes once SIGINT or SIGTERM came (at once if one already did).
    pub async fn wait(mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }
}
