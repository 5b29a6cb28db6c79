//! Finalized blocks to execution: marshal reports them in height order, the execution loop
//! applies them one by one, and the sync loop acknowledges each once it is on disk.
//!
//! Applying commits without waiting for the disk ([`Core::apply_finalized`]); the sync loop
//! then makes everything applied so far durable in one fsync, while the next block executes,
//! and only then acknowledges those blocks. Marshal records a block as processed only when it
//! is acknowledged, so after a crash it hands over again every block the disk lost.

use super::block::{ChainBlock, to_hash};
use crate::core::Core;
use commonware_actor::Feedback;
use commonware_consensus::{Reporter, marshal::Update};
use commonware_utils::Acknowledgement;
use cowboy_types::Block;
use std::{sync::Arc, time::Duration};

/// Receives finalized blocks from marshal (in height order) and queues them for execution.
#[derive(Clone)]
pub struct Finalized {
    pub core: Arc<Core>,
    pub queue:
        tokio::sync::mpsc::UnboundedSender<(Block, commonware_utils::acknowledgement::Exact)>,
}

impl Reporter for Finalized {
    type Activity = Update<ChainBlock>;

    fn report(&mut self, activity: Self::Activity) -> Feedback {
        match activity {
            Update::Block(block, ack) => {
                let b = block.inner().0.clone();
                if self.queue.send((b, ack)).is_err() {
                    tracing::warn!("execution queue closed");
                }
            }
            Update::Tip(_, height, digest) => {
                self.core.set_finalized_height(height.get());
                tracing::debug!(height = height.get(), digest = %to_hash(&digest), "finalized tip");
            }
        }
        Feedback::Ok
    }
}

/// Applies queued finalized blocks in order, handing each one's acknowledgement to
/// [`sync_loop`]. While the disk is nearly full it waits (checking again every second) instead
/// of committing.
pub async fn apply_loop(
    core: Arc<Core>,
    mut queue: tokio::sync::mpsc::UnboundedReceiver<(
        Block,
        commonware_utils::acknowledgement::Exact,
    )>,
    applied: tokio::sync::mpsc::UnboundedSender<commonware_utils::acknowledgement::Exact>,
) {
    while let Some((block, ack)) = queue.recv().await {
        while core.disk().paused {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        match core.apply_finalized(block).await {
            Ok(_) => {
                if let Err(unsent) = applied.send(ack) {
                    // The sync loop stopped (the disk failed; the node halted): the block
                    // stays unacknowledged.
                    std::mem::forget(unsent.0);
                    return;
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot apply a finalized block; execution stopped");
                // Keep the acknowledgement alive so marshal does not move past this block.
                std::mem::forget(ack);
                return;
            }
        }
    }
}

/// Makes applied blocks durable and then acknowledges them, in order: one fsync for every block
/// applied since the last one (a block applied meanwhile waits for the next).
pub async fn sync_loop(
    core: Arc<Core>,
    mut applied: tokio::sync::mpsc::UnboundedReceiver<commonware_utils::acknowledgement::Exact>,
) {
    while let Some(first) = applied.recv().await {
        let mut acks = vec![first];
        while let Ok(ack) = applied.try_recv() {
            acks.push(ack);
        }
        if let Err(e) = core.sync().await {
            tracing::error!(error = %e, "cannot write applied blocks to disk; execution stopped");
            // Unacknowledged, these blocks are handed over again after a restart.
            std::mem::forget(acks);
            return;
        }
        for ack in acks {
            ack.acknowledge();
        }
    }
}

/// Consensus asked this node to propose or vote at a height finalization has passed.
#[derive(Debug, thiserror::Error)]
#[error(
    "consensus asked about height {height}, at or below the finalized height {finalized}; if \
     this persists, the vote journal (data/consensus/{vote_journal}) has lost votes this node \
     cast: restore the data directory from a backup, or let the node follow its peers"
)]
pub struct BelowFinalized {
    pub(super) height: u64,
    pub(super) finalized: u64,
    pub(super) vote_journal: String,
}
