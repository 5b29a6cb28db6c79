//! The consensus application: how a validator builds a block for its view and how it checks
//! someone else's, and the reporters that collect beacons and hand finalized blocks to
//! execution.
//!
//! A block of view `v` carries the parent beacon — the threshold-VRF seed of round `v − 1`,
//! which every node holds before entering view `v` — and commits to the post-state of the
//! newest finalized height its proposer has executed (`state_height`). Blocks execute only
//! once finalized; a verifier waits until it has executed `state_height` itself and compares.

use super::block::{ChainBlock, to_digest, to_hash};
use crate::core::Core;
use commonware_actor::Feedback;
use commonware_consensus::{
    Application, Reporter, Viewable,
    marshal::{Update, ancestry::Ancestry},
    simplex::{
        scheme::bls12381_threshold::vrf::{self, Seed, Seedable},
        types::{Activity, Attributable, Context},
    },
};
use commonware_cryptography::{
    Digested, bls12381::primitives::variant::MinSig, ed25519, keccak256::Digest,
};
use commonware_runtime::Clock;
use commonware_utils::Acknowledgement;
use cowboy_execution::{BlockError, pipeline};
use cowboy_types::{Address, Beacon, Block, Round, block::BEACON_SIGNATURE_LEN};
use futures::StreamExt;
use std::{
    collections::{BTreeMap, HashMap},
    sync::{Arc, Mutex},
    time::{Duration, UNIX_EPOCH},
};
use tokio::sync::Notify;

/// The consensus signing scheme: ed25519 identities, BLS12-381 threshold VRF (`MinSig`: 48-byte
/// signatures, the beacon's size).
pub type Scheme = vrf::Scheme<ed25519::PublicKey, MinSig>;
/// What consensus tells the application about a proposal.
pub type Ctx = Context<Digest, ed25519::PublicKey>;

/// The beacon of view 1, which has no predecessor: round (epoch, 0) with an all-zero
/// signature (Cowboy decision; see the book).
pub fn genesis_beacon(epoch: u64) -> Beacon {
    Beacon {
        round: Round { epoch, view: 0 },
        signature: [0; BEACON_SIGNATURE_LEN],
    }
}

/// Seeds kept (by view) for proposals and verification.
const SEEDS_KEPT: usize = 1_024;

/// Verified seeds by view, with a wake-up for those waiting.
#[derive(Default)]
pub struct Seeds {
    by_view: Mutex<BTreeMap<u64, Beacon>>,
    notify: Notify,
}

impl Seeds {
    fn insert(&self, seed: &Seed<MinSig>) {
        use commonware_codec::Encode;
        let bytes = seed.signature.encode();
        let Ok(signature) = <[u8; BEACON_SIGNATURE_LEN]>::try_from(bytes.as_ref()) else {
            return;
        };
        let beacon = Beacon {
            round: Round {
                epoch: seed.round.epoch().get(),
                view: seed.round.view().get(),
            },
            signature,
        };
        if let Ok(mut m) = self.by_view.lock() {
            m.insert(beacon.round.view, beacon);
            while m.len() > SEEDS_KEPT {
                m.pop_first();
            }
        }
        self.notify.notify_waiters();
    }

    fn get(&self, view: u64) -> Option<Beacon> {
        self.by_view.lock().ok()?.get(&view).copied()
    }

    /// Waits for the seed of `view`.
    async fn wait(&self, view: u64) -> Beacon {
        loop {
            let notified = self.notify.notified();
            if let Some(b) = self.get(view) {
                return b;
            }
            notified.await;
        }
    }
}

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

    fn parent_beacon(&self, round: &commonware_consensus::types::Round) -> Option<u64> {
        round.view().get().checked_sub(1)
    }

    async fn beacon_for(&self, round: &commonware_consensus::types::Round) -> Beacon {
        match self.parent_beacon(round) {
            Some(0) | None => genesis_beacon(round.epoch().get()),
            Some(v) => self.seeds.wait(v).await,
        }
    }

    fn check_beacon(&self, round: &commonware_consensus::types::Round, beacon: &Beacon) -> bool {
        let epoch = round.epoch().get();
        match self.parent_beacon(round) {
            Some(0) | None => *beacon == genesis_beacon(epoch),
            Some(v) => {
                if beacon.round != (Round { epoch, view: v }) {
                    return false;
                }
                if self.seeds.get(v).is_some_and(|b| b == *beacon) {
                    return true;
                }
                use commonware_codec::ReadExt;
                let mut buf = commonware_codec::Copying(beacon.signature.as_slice());
                let Ok(signature) =
                    <MinSig as commonware_cryptography::bls12381::primitives::variant::Variant>::Signature::read(
                        &mut buf,
                    )
                else {
                    return false;
                };
                let seed = Seed::new(
                    commonware_consensus::types::Round::new(
                        commonware_consensus::types::Epoch::new(epoch),
                        commonware_consensus::types::View::new(v),
                    ),
                    signature,
                );
                seed.verify(&self.scheme)
            }
        }
    }

    /// Nonces used by blocks that are not executed yet (finalized or not), newest first in
    /// `ancestry` down to the executed height.
    async fn unexecuted_nonces(
        &self,
        mut ancestry: impl Ancestry<ChainBlock>,
    ) -> HashMap<Address, u64> {
        let executed = self.core.height();
        let mut used: HashMap<Address, u64> = HashMap::new();
        while let Some(b) = ancestry.next().await {
            let b = &b.inner().0;
            if b.header.height <= executed {
                break;
            }
            for t in &b.transactions {
                let e = used.entry(t.from).or_insert(t.nonce);
                *e = (*e).max(t.nonce);
            }
        }
        used
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
    fn extends_finalized(&self, height: u64) -> Result<(), String> {
        let finalized = self.core.finalized_height();
        if height <= finalized {
            return Err(format!(
                "consensus asked about height {height}, at or below the finalized height \
                 {finalized}; if this persists, the vote journal (data/consensus/{}) has lost \
                 votes this node cast: restore the data directory from a backup, or let the \
                 node follow its peers",
                self.vote_journal
            ));
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
            round: Round {
                epoch: ctx.round.epoch().get(),
                view: ctx.round.view().get(),
            },
            leader: self.proposers.get(&ctx.leader).copied(),
            now_ms,
            beacon_verified: &|beacon| self.check_beacon(&ctx.round, beacon),
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
        let beacon = self.beacon_for(&ctx.round).await;
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
            round: Round {
                epoch: ctx.round.epoch().get(),
                view: ctx.round.view().get(),
            },
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

/// Takes the seeds out of consensus activity, counts the validators heard from recently (the
/// node's live peers), then passes it on.
#[derive(Clone)]
pub struct SeedTap<R> {
    pub seeds: Arc<Seeds>,
    pub peers: Arc<LivePeers>,
    pub inner: R,
}

/// Validators whose votes this node verified within the last [`LivePeers::WINDOW`] views:
/// what `status.peers` reports. A peer that is connected but silent does not count — for a
/// validator, being heard is what matters.
pub struct LivePeers {
    core: Arc<Core>,
    me: Option<commonware_utils::Participant>,
    last_vote: std::sync::Mutex<std::collections::BTreeMap<commonware_utils::Participant, u64>>,
}

impl LivePeers {
    /// How many views back a vote still counts.
    const WINDOW: u64 = 10;

    pub fn new(core: Arc<Core>, me: Option<commonware_utils::Participant>) -> Self {
        Self {
            core,
            me,
            last_vote: Default::default(),
        }
    }

    fn heard(&self, signer: commonware_utils::Participant, view: u64) {
        if Some(signer) == self.me {
            return;
        }
        let mut last = self.last_vote.lock().unwrap_or_else(|p| p.into_inner());
        let entry = last.entry(signer).or_insert(view);
        *entry = (*entry).max(view);
        let newest = last.values().copied().max().unwrap_or(view);
        let live = last
            .values()
            .filter(|v| **v + Self::WINDOW >= newest)
            .count();
        self.core.set_peers(live);
    }
}

impl<R: Reporter<Activity = Activity<Scheme, Digest>>> Reporter for SeedTap<R> {
    type Activity = Activity<Scheme, Digest>;

    fn report(&mut self, activity: Self::Activity) -> Feedback {
        match &activity {
            Activity::Notarization(n) | Activity::Certification(n) => self.seeds.insert(&n.seed()),
            Activity::Finalization(f) => self.seeds.insert(&f.seed()),
            Activity::Nullification(n) => {
                if let Some(sig) = n.certificate.get() {
                    self.seeds.insert(&Seed::new(n.round, sig.seed_signature));
                }
            }
            Activity::Notarize(v) => self.peers.heard(v.signer(), v.view().get()),
            Activity::Finalize(v) => self.peers.heard(v.signer(), v.view().get()),
            Activity::Nullify(v) => self.peers.heard(v.signer(), v.view().get()),
            _ => {}
        }
        self.inner.report(activity)
    }
}

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

/// Applies queued finalized blocks in order, acknowledging each once it is committed. While
/// the disk is nearly full it waits (checking again every second) instead of committing.
pub async fn apply_loop(
    core: Arc<Core>,
    mut queue: tokio::sync::mpsc::UnboundedReceiver<(
        Block,
        commonware_utils::acknowledgement::Exact,
    )>,
) {
    while let Some((block, ack)) = queue.recv().await {
        while core.disk().paused {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        match core.apply_finalized(block).await {
            Ok(_) => ack.acknowledge(),
            Err(e) => {
                tracing::error!(error = %e, "cannot apply a finalized block; execution stopped");
                // Keep the acknowledgement alive so marshal does not move past this block.
                std::mem::forget(ack);
                return;
            }
        }
    }
}
