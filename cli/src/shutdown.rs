//! Waiting for the user to stop a foreground command (`cowboy devnet up`, `faucet serve`,
//! `runner run`, `runner-sim`).
//!
//! The handlers are installed when a [`Shutdown`] is made, before the command starts anything,
//! and a signal that arrives early is kept: a Ctrl-C while a devnet is still starting must stop
//! it cleanly, not kill `cowboy` and leave its nodes running.

use anyhow::{Context as _, Result};
use tokio::signal::unix::{Signal, SignalKind, signal};

/// SIGINT, SIGTERM and SIGHUP (a closed terminal), caught from the moment this is made.
pub struct Shutdown {
    interrupt: Signal,
    terminate: Signal,
    hangup: Signal,
}

impl Shutdown {
    /// Installs the handlers. Must run inside a Tokio runtime (in `block_on`, or after
    /// `Runtime::enter`).
    pub fn listen() -> Result<Self> {
        let install = |kind| signal(kind).context("cannot install the Ctrl-C handler");
        Ok(Self {
            interrupt: install(SignalKind::interrupt())?,
            terminate: install(SignalKind::terminate())?,
            hangup: install(SignalKind::hangup())?,
        })
    }

    /// Whether a signal has come, without waiting (a command checks between long steps).
    pub fn requested(&mut self) -> bool {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        [&mut self.interrupt, &mut self.terminate, &mut self.hangup]
            .into_iter()
            .any(|s| s.poll_recv(&mut cx).is_ready())
    }

    /// [`wait`](Self::wait), owning the handlers (for a server's `'static` stop future).
    pub async fn into_wait(mut self) {
        self.wait().await
    }

    /// Completes once a signal came (at once if one already did).
    pub async fn wait(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
            _ = self.hangup.recv() => {}
        }
    }
}
