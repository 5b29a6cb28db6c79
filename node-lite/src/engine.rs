//! The validator engine over any Commonware runtime and p2p: given its registered channels, it
//! waits (briefly) for a quorum of peers, then starts transaction gossip ([`crate::gossip`])
//! and consensus ([`crate::consensus`]). `cowboy node` ([`crate::node::run`]) binds it to tokio
//! and authenticated TCP; the deterministic simulations bind it to the simulated runtime and
//! network, so both run the same start-up.

use crate::{
    consensus::{self, Channels, Running, StartError, Validator, app::App, block::ChainBlock},
    core::Core,
    gossip::{self, Gossip},
};
use commonware_consensus::Application;
use commonware_cryptography::ed25519;
use commonware_p2p::{Blocker, Provider, Receiver, Recipients, Sender};
use commonware_runtime::{Clock, Handle, Metrics, Network, Spawner, Storage, Supervisor};
use std::{sync::Arc, time::Duration};

/// The longest a starting validator waits to reach a quorum of peers before starting consensus
/// anyway (peers may be down; consensus copes, only more slowly).
pub const PEER_WAIT: Duration = Duration::from_secs(5);

/// The channels the engine runs on, registered on the p2p network.
pub struct EngineChannels<S, R> {
    pub consensus: Channels<S, R>,
    /// Transactions between validators ([`consensus::channel::TRANSACTIONS`]).
    pub transactions: (S, R),
    /// Empty probes that count connected peers ([`consensus::channel::HELLO`]).
    pub hello: (S, R),
}

/// What [`start`] leaves running.
pub struct Engine {
    pub consensus: Running,
    pub gossip: Gossip,
    pub hello: Handle<()>,
}

/// Starts a validator on `core`: waits for a quorum of peers (at most [`PEER_WAIT`]), then
/// gossip and consensus, whose application is `application` applied to the node's own (a
/// simulation may wrap it; `cowboy node` passes it through).
#[allow(clippy::too_many_arguments)]
pub async fn start<E, S, R, P, B, A>(
    context: E,
    core: Arc<Core>,
    validator: Validator,
    channels: EngineChannels<S, R>,
    peers: P,
    blocker: B,
    application: impl FnOnce(App) -> A,
) -> Result<Engine, StartError>
where
    A: Application<
            E,
            SigningScheme = consensus::app::Scheme,
            Context = consensus::app::Ctx,
            Block = ChainBlock,
            Input = (),
        >,
    E: Spawner
        + Supervisor
        + Clock
        + Metrics
        + Storage
        + rand_core_010::CryptoRng
        + Network
        + Send
        + 'static,
    S: Sender<PublicKey = ed25519::PublicKey>,
    R: Receiver<PublicKey = ed25519::PublicKey>,
    P: Provider<PublicKey = ed25519::PublicKey> + Clone,
    B: Blocker<PublicKey = ed25519::PublicKey> + Clone,
{
    let (hello_sender, mut hello_receiver) = channels.hello;
    let hello = context.child("hello").spawn(move |_| async move {
        // Probes carry nothing: drain them.
        while hello_receiver.recv().await.is_ok() {}
    });
    wait_for_peers(
        &context,
        hello_sender,
        quorum_peers(validator.proposers.len()),
    )
    .await;
    let (tx_sender, tx_receiver) = channels.transactions;
    let gossip = gossip::start(
        context.child("gossip"),
        core.clone(),
        tx_sender,
        tx_receiver,
    );
    let consensus = consensus::start_with(
        context.child("consensus"),
        core,
        validator,
        channels.consensus,
        peers,
        blocker,
        application,
    )
    .await?;
    Ok(Engine {
        consensus,
        gossip,
        hello,
    })
}

/// How many other validators a quorum needs besides this one.
fn quorum_peers(validators: usize) -> usize {
    use commonware_utils::Faults as _;
    if validators == 0 {
        return 0;
    }
    (commonware_utils::N3f1::quorum(validators) as usize).saturating_sub(1)
}

/// Waits until `needed` peers are connected (probing on the hello channel), or [`PEER_WAIT`].
/// Starting consensus before its first proposal can reach a quorum would only waste a leader
/// timeout on view 1 — seconds, against the fraction of a second connections take.
async fn wait_for_peers<E: Clock, S: Sender<PublicKey = ed25519::PublicKey>>(
    context: &E,
    mut hello: S,
    needed: usize,
) {
    if needed == 0 {
        return;
    }
    let deadline = context.current() + PEER_WAIT;
    loop {
        let reached = hello
            .send(
                Recipients::All,
                commonware_runtime::IoBuf::from(Vec::new()),
                false,
            )
            .len();
        if reached >= needed {
            tracing::info!(peers = reached, "quorum of peers connected");
            return;
        }
        if context.current() >= deadline {
            tracing::warn!(
                peers = reached,
                needed,
                "starting consensus without a quorum of connected peers"
            );
            return;
        }
        context.sleep(Duration::from_millis(20)).await;
    }
}
