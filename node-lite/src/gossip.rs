//! Transaction gossip over any p2p implementation and runtime (authenticated TCP on tokio in
//! `cowboy node`, Commonware's simulated network in deterministic simulations): every
//! transaction this node admits goes to every peer, and what peers send is admitted here (and
//! not gossiped again: every validator is connected to every other).

use crate::core::Core;
use commonware_p2p::{Receiver, Recipients, Sender};
use commonware_runtime::{Handle, Spawner};
use futures::StreamExt;
use std::sync::Arc;

/// What [`start`] leaves running.
pub struct Gossip {
    pub outbound: Handle<()>,
    pub inbound: Handle<()>,
}

/// Starts gossiping `core`'s transactions over the transactions channel (`sender`,
/// `receiver`).
pub fn start<E, S, R>(context: E, core: Arc<Core>, mut sender: S, mut receiver: R) -> Gossip
where
    E: Spawner,
    S: Sender + 'static,
    R: Receiver + 'static,
{
    let (admitted, mut outgoing) = futures::channel::mpsc::unbounded::<Vec<u8>>();
    core.set_gossip(admitted);
    let outbound = context.child("gossip_out").spawn(move |_| async move {
        while let Some(raw) = outgoing.next().await {
            let _ = sender.send(Recipients::All, commonware_runtime::IoBuf::from(raw), false);
        }
    });
    let inbound = context.child("gossip_in").spawn(move |_| async move {
        while let Ok((peer, msg)) = receiver.recv().await {
            if let Err(e) = core.admit(msg.as_ref(), false) {
                tracing::debug!(%peer, error = %e, "gossiped transaction not admitted");
            }
        }
    });
    Gossip { outbound, inbound }
}
