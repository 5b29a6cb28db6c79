//! The consensus application: Commonware's `Application` over the block pipeline of
//! `cowboy_execution::pipeline` — how a validator builds a block for its view and how it checks
//! someone else's. The beacon lives in [`super::beacon`], finalized blocks go to execution
//! through [`super::finalized`].
//!
//! A block of view `v` carries the parent beacon — the threshold-VRF seed of round `v − 1`,
//! which every node holds before entering view `v` — and commits to the post-state of the
//! newest finalized height its proposer has executed (`state_height`). Blocks execute only
//! once finalized; a verifier waits until it has executed `state_height` itself and compares.

use super::{
    beacon::Seeds,
    block::{ChainBlock, to_digest},
    finalized::BelowFinalized,
};
use crate::core::Core;
use commonware_consensus::{
    Application,
    marshal::ancestry::Ancestry,
    simplex::{scheme::bls12381_threshold::vrf, types::Context},
};
use commonware_cryptography::{
    Digested, bls12381::primitives::variant::MinSig, ed25519, keccak256::Digest,
};
use commonware_runtime::Clock;
use cowboy_execution::{BlockError, pipeline};
use cowboy_types::{Address, Block, Round};
use futures::StreamExt;
use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, UNIX_EPOCH},
};

/// The consensus signing scheme: ed25519 identities, BLS12-381 threshold VRF (`MinSig`: 48-byte
/// signatures, the beacon's size).
pub type Scheme = vrf::Scheme<ed25519::PublicKey, MinSig>;
/// What consensus tells the application about a proposal.
pub type Ctx = Context<Digest, ed25519::PublicKey>;

/// The application.
#[derive(Clone)]
pub struct App {
    core: Arc<Core>,
    seeds: Arc<Seeds>,
    scheme: Scheme,
    /// Consensus identity → reward address.
    proposers: Arc<HashMap<ed25519::PublicKey, Address>>,
    block_time: Duration,
    /// The vote journal's partition (named when consensus asks about finalized heights).
    vote_journal: String,
}

impl App {
    pub fn new(
        core: Arc<Core>,
        seeds: Arc<Seeds>,
        scheme: Scheme,
        proposers: HashMap<ed25519::PublicKey, Address>,
        block_time: Duration,
        vote_journal: String,
    ) -> Self {
        Self {
            core,
            seeds,
            scheme,
            proposers: Arc::new(proposers),
            block_time,
            vote_journal,
        }
    }

    /// Nonces used by the blocks in `ancestry` that are not executed yet (finalized or not).
    async fn unexecuted_nonces(
        &self,
        mut ancestry: impl Ancestry<ChainBlock>,
    ) -> HashMap<Address, u64> {
        let executed = self.core.height();
        let mut unexecuted = Vec::new();
        while let Some(b) = ancestry.next().await {
            if b.inner().0.header.height <= executed {
                break;
            }
            unexecuted.push(b);
        }
        pipeline::nonces_used(unexecuted.iter().map(|b| &b.inner().0))
    }

    fn now_ms(clock: &impl Clock) -> u64 {
        clock
            .current()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }

    /// A block at `height` can only extend the finalized chain if it is above its tip: one at
    /// or below it conflicts with a finalized block (or repeats it), and no vote for it can help
    /// anyone. Consensus asks for one only when its vote journal has forgotten votes this node
    /// cast — a damaged vote journal — or, briefly, while it catches up. Proposing
    /// or voting then would sign a block conflicting with one this node already finalized.
    fn extends_finalized(&self, height: u64) -> Result<(), BelowFinalized> {
        let finalized = self.core.finalized_height();
        if height <= finalized {
            return Err(BelowFinalized {
                height,
                finalized,
                vote_journal: self.vote_journal.clone(),
            });
        }
        Ok(())
    }

    /// Checks everything about `block` that does not need its parent's execution.
    fn check_block(
        &self,
        ctx: &Ctx,
        block: &Block,
        parent: &Block,
        now_ms: u64,
    ) -> Result<(), BlockError> {
        let view = pipeline::View {
            round: round(ctx),
            leader: self.proposers.get(&ctx.leader).copied(),
            now_ms,
            beacon_verified: &|beacon| self.seeds.verified(&ctx.round, beacon, &self.scheme),
        };
        let params = self.core.chain().params()?;
        let checked = self.core.check_transactions(&block.transactions)?;
        pipeline::check_proposal(&parent.header, block, &view, &params, checked).map(|_| ())
    }
}

impl<E: Clock + Send + 'static> Application<E> for App {
    type SigningScheme = Scheme;
    type Context = Ctx;
    type Block = ChainBlock;
    type Input = ();

    async fn propose(
        &mut self,
        (clock, ctx): (E, Ctx),
        ancestry: impl Ancestry<ChainBlock>,
        _input: (),
    ) -> Option<Digested<ChainBlock>> {
        let parent = ancestry.peek()?.clone();
        let parent = &parent.inner().0;
        if let Err(why) = self.extends_finalized(parent.header.height + 1) {
            tracing::warn!(view = ctx.round.view().get(), "not proposing: {why}");
            return None;
        }
        // Pace blocks: not before the parent's time plus the block time.
        let earliest = parent.header.timestamp_ms + self.block_time.as_millis() as u64;
        let now = Self::now_ms(&clock);
        if now < earliest {
            clock.sleep(Duration::from_millis(earliest - now)).await;
        }
        let beacon = self.seeds.for_round(&ctx.round).await;
        // Claims may not go backwards: a lagging proposer first executes up to its parent's
        // claim.
        let mut executed = self.core.subscribe();
        if executed
            .wait_for(|h| *h >= parent.header.state_height)
            .await
            .is_err()
        {
            return None;
        }
        if self.core.disk_paused() || self.core.halted() {
            // No room to store what it proposes, or nothing trustworthy to build on.
            return None;
        }
        let used = self.unexecuted_nonces(ancestry.clone()).await;
        let claim = pipeline::claim_height(&parent.header, self.core.height())?;
        let claim = self.core.outcome(claim).ok()??;
        let chosen = if self.core.catching_up() {
            // Execution trails finalization: add no work until it catches up.
            tracing::debug!(
                lag = self.core.execution_lag(),
                "proposing an empty block while execution catches up"
            );
            Vec::new()
        } else {
            self.core.select_for_block(&used).ok()?
        };
        let proposal = pipeline::Proposal {
            round: round(&ctx),
            timestamp_ms: Self::now_ms(&clock).max(earliest),
            proposer: *self.proposers.get(&ctx.leader)?,
            beacon,
        };
        let block = pipeline::assemble(&parent.header, &proposal, &claim, chosen).block;
        let digest = to_digest(&block.header.digest());
        tracing::debug!(
            height = block.header.height,
            txs = block.transactions.len(),
            "proposing"
        );
        Some(Digested::precomputed(ChainBlock(block), digest))
    }

    async fn verify(
        &mut self,
        (clock, ctx): (E, Ctx),
        mut ancestry: impl Ancestry<ChainBlock>,
    ) -> bool {
        let Some(block) = ancestry.next().await else {
            return false;
        };
        let Some(parent) = ancestry.next().await else {
            return false;
        };
        let (block, parent) = (&block.inner().0, &parent.inner().0);
        if self.core.disk_paused() {
            tracing::warn!(
                height = block.header.height,
                "not voting: the disk is nearly full"
            );
            return false;
        }
        if let Err(why) = self.extends_finalized(block.header.height) {
            tracing::warn!(view = ctx.round.view().get(), "not voting: {why}");
            return false;
        }
        if let Err(why) = self.check_block(&ctx, block, parent, Self::now_ms(&clock)) {
            tracing::warn!(height = block.header.height, reason = %why, "rejecting block");
            return false;
        }
        // The post-state claim: wait until this node has executed that height.
        let want = block.header.state_height;
        let mut rx = self.core.subscribe();
        if rx.wait_for(|h| *h >= want).await.is_err() {
            return false;
        }
        let executed = match self.core.outcome(want) {
            Ok(o) => o,
            Err(_) => return false,
        };
        match pipeline::check_claim(&block.header, executed.as_ref()) {
            Ok(()) => true,
            Err(why) => {
                tracing::warn!(height = block.header.height, reason = %why, "rejecting block");
                false
            }
        }
    }
}

/// The chain's round of a consensus context.
fn round(ctx: &Ctx) -> Round {
    Round {
        epoch: ctx.round.epoch().get(),
        view: ctx.round.view().get(),
    }
}
