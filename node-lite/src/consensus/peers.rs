//! The node's live peers: the validators whose votes it verified recently (what `status.peers`
//! reports).

use crate::core::Core;
use std::sync::Arc;

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

    pub(super) fn heard(&self, signer: commonware_utils::Participant, view: u64) {
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
