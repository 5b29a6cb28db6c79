//! The beacon: the threshold-VRF seed of each view, collected from consensus activity, waited
//! for by proposers and checked for verifiers. The block of view `v` carries the seed of view
//! `v − 1` (every node holds it before entering view `v`); execution reads it for transaction
//! order, actor randomness and runner selection.

use super::{app::Scheme, peers::LivePeers};
use commonware_actor::Feedback;
use commonware_consensus::{
    Reporter, Viewable,
    simplex::{
        scheme::bls12381_threshold::vrf::{Seed, Seedable},
        types::{Activity, Attributable},
    },
};
use commonware_cryptography::{bls12381::primitives::variant::MinSig, keccak256::Digest};
use cowboy_types::{Beacon, Round, block::BEACON_SIGNATURE_LEN};
use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
};
use tokio::sync::Notify;

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

    /// The view whose seed is the beacon of `round`'s blocks (`None`: view 0, no predecessor).
    fn parent_view(round: &commonware_consensus::types::Round) -> Option<u64> {
        round.view().get().checked_sub(1)
    }

    /// The beacon of `round`'s blocks: the seed of the view before it (waits until this node
    /// holds it).
    pub async fn for_round(&self, round: &commonware_consensus::types::Round) -> Beacon {
        match Self::parent_view(round) {
            Some(0) | None => genesis_beacon(round.epoch().get()),
            Some(v) => self.wait(v).await,
        }
    }

    /// Whether `beacon` is the verified seed of the view before `round` (a seed this node
    /// holds, or one whose threshold signature verifies under `scheme`).
    pub fn verified(
        &self,
        round: &commonware_consensus::types::Round,
        beacon: &Beacon,
        scheme: &Scheme,
    ) -> bool {
        let epoch = round.epoch().get();
        match Self::parent_view(round) {
            Some(0) | None => *beacon == genesis_beacon(epoch),
            Some(v) => {
                if beacon.round != (Round { epoch, view: v }) {
                    return false;
                }
                if self.get(v).is_some_and(|b| b == *beacon) {
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
                seed.verify(scheme)
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
