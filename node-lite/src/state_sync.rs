//! The thread that makes applied blocks durable. Finalized blocks are committed without
//! waiting for the disk ([`cowboy_execution::Chain::commit_deferred`]); this thread runs the
//! `fsync` that follows ([`cowboy_execution::Chain::sync`]), so the next block executes while
//! the disk writes. One thread for the node's life: a sync never waits for a thread to start.

use cowboy_execution::{Chain, ExecError};
use std::sync::{Arc, Weak, mpsc};

type Reply = tokio::sync::oneshot::Sender<Result<(), ExecError>>;

/// A handle to the sync thread. Dropping it ends the thread once its sync in progress ends.
pub struct StateSync {
    requests: mpsc::Sender<Reply>,
}

/// The sync thread is gone (it panicked).
#[derive(Debug, thiserror::Error)]
#[error("the state sync thread is not running")]
pub struct SyncGone;

impl StateSync {
    /// Starts the thread, which syncs `chain` when asked. It holds the chain only while it
    /// syncs: the store closes (cleanly, writing what is deferred) when its owner drops it,
    /// not whenever this thread happens to notice, which may be after the process has exited.
    pub fn spawn(chain: &Arc<Chain>) -> std::io::Result<Self> {
        let chain: Weak<Chain> = Arc::downgrade(chain);
        let (requests, rx) = mpsc::channel::<Reply>();
        std::thread::Builder::new()
            .name("state-sync".into())
            .spawn(move || {
                while let Ok(reply) = rx.recv() {
                    let Some(chain) = chain.upgrade() else {
                        return;
                    };
                    // Everything committed before this request was received is covered.
                    let _ = reply.send(chain.sync());
                }
            })?;
        Ok(Self { requests })
    }

    /// Makes every block committed so far durable, waiting without blocking the runtime.
    pub async fn sync(&self) -> Result<Result<(), ExecError>, SyncGone> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.requests.send(tx).map_err(|_| SyncGone)?;
        rx.await.map_err(|_| SyncGone)
    }
}
