//! Consensus: Commonware's threshold-VRF Simplex with the `Random` elector (the leader rotates
//! every view, drawn from the previous view's seed), and `marshal` for block dissemination,
//! backfill and in-order delivery of finalized blocks to execution.
//!
//! [`start_with`] wires one validator over any p2p implementation (authenticated TCP in `cowboy
//! node`, Commonware's simulated network in deterministic tests).

pub mod app;
pub mod beacon;
pub mod block;
pub mod finalized;
pub mod keys;
pub mod peers;

use crate::core::Core;
use app::App;
use beacon::{SeedTap, Seeds};
use block::{ChainBlock, to_digest};
use commonware_broadcast::buffered;
use commonware_consensus::{
    marshal::{
        self, Start,
        core::Actor as Marshal,
        resolver::p2p as resolver,
        standard::{Inline, Standard},
    },
    simplex::{
        self,
        config::{ForwardPolicy, SkipBudget, SkipPolicy},
        elector::{Random, RandomVersion},
    },
    types::{Epoch, FixedEpocher, ViewDelta},
};
use commonware_cryptography::{Digested, certificate::ConstantProvider, ed25519};
use commonware_p2p::{Blocker, Provider, Receiver, Sender};
use commonware_parallel::Sequential;
use commonware_runtime::{
    Clock, Handle, Metrics, Network, Spawner, Storage, Supervisor, buffer::paged::CacheRef,
};
use commonware_storage::archive::immutable;
use commonware_utils::{NZDuration, NZU16, NZU64, NZUsize};
use cowboy_types::Address;
use finalized::Finalized;
use peers::LivePeers;
use std::{collections::HashMap, num::NonZeroU64, sync::Arc, time::Duration};

/// The namespace every consensus signature is domain-separated with.
pub const NAMESPACE: &[u8] = b"cowboy-consensus-v1";
/// Heights per epoch: the validator set is fixed, so one epoch lasts forever.
const EPOCH_LENGTH: NonZeroU64 = NZU64!(u64::MAX);

/// p2p channel numbers.
pub mod channel {
    pub const VOTES: u64 = 0;
    pub const CERTIFICATES: u64 = 1;
    pub const RESOLVER: u64 = 2;
    pub const BLOCKS: u64 = 3;
    pub const BACKFILL: u64 = 4;
    pub const TRANSACTIONS: u64 = 5;
    /// Empty probes a starting validator sends to learn which peers it is connected to.
    pub const HELLO: u64 = 6;
}

/// Timing of one validator.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Target time between blocks.
    pub block_time: Duration,
}

impl Timing {
    /// Leader timeout: room for the block time plus a few network round trips.
    fn leader_timeout(&self) -> Duration {
        self.block_time * 2 + Duration::from_millis(1_000)
    }
}

/// One validator's consensus inputs.
pub struct Validator {
    pub identity: ed25519::PrivateKey,
    pub scheme: app::Scheme,
    /// Consensus identity → reward address, for every validator.
    pub proposers: HashMap<ed25519::PublicKey, Address>,
    /// The genesis block (height 0) of the chain.
    pub genesis: cowboy_types::Block,
    pub timing: Timing,
    /// Prefix of this validator's storage partitions.
    pub partition: String,
}

/// The partition holding a validator's votes, under its storage `prefix`: without it a
/// restarted validator could vote again, differently, in views it already voted in.
pub fn vote_journal(prefix: &str) -> String {
    format!("{prefix}-simplex")
}

/// Two ends of a p2p channel.
pub type Channel<S, R> = (S, R);

/// Everything a validator sends and receives.
pub struct Channels<S, R> {
    pub votes: Channel<S, R>,
    pub certificates: Channel<S, R>,
    pub resolver: Channel<S, R>,
    pub blocks: Channel<S, R>,
    pub backfill: Channel<S, R>,
}

/// Why a validator's consensus could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(
        "cannot open the consensus archive of {what} (under data/consensus): {source}; if the disk \
         is damaged, restore the data directory from a backup or start from an empty one and \
         let the node catch up from its peers"
    )]
    Archive {
        what: &'static str,
        #[source]
        source: commonware_storage::archive::Error,
    },
}

/// What [`start_with`] leaves running.
pub struct Running {
    pub consensus: Handle<()>,
    pub marshal: Handle<()>,
}

/// Starts a validator: marshal, its backfill resolver, block broadcast, the Simplex engine
/// and the execution loop, with the application consensus runs made from this node's by
/// `application` (the identity for a node; the deterministic simulations make misbehaving
/// proposers this way).
pub async fn start_with<E, S, R, P, B, A>(
    context: E,
    core: Arc<Core>,
    validator: Validator,
    channels: Channels<S, R>,
    peers: P,
    blocker: B,
    application: impl FnOnce(App) -> A,
) -> Result<Running, StartError>
where
    A: commonware_consensus::Application<
            E,
            SigningScheme = app::Scheme,
            Context = app::Ctx,
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
    use commonware_cryptography::Signer;
    let me = validator.identity.public_key();
    let page_cache = CacheRef::new(NZU16!(4_096), NZUsize!(1_024));
    let genesis_digest = to_digest(&validator.genesis.header.digest());
    let genesis = Digested::precomputed(ChainBlock(validator.genesis.clone()), genesis_digest);
    let prefix = validator.partition.clone();

    // Backfill of missing blocks.
    let resolver = resolver::init(
        context.child("resolver"),
        resolver::Config {
            public_key: me.clone(),
            peer_provider: peers.clone(),
            blocker: blocker.clone(),
            mailbox_size: NZUsize!(1_024),
            fetch_timeout: NZDuration!(Duration::from_secs(2)),
            fetch_retry_delay: Duration::from_millis(100),
            priority_requests: false,
            priority_responses: false,
        },
        channels.backfill,
    );

    // Block broadcast.
    let (broadcast, buffer) = buffered::Engine::new(
        context.child("broadcast"),
        buffered::Config {
            public_key: me.clone(),
            mailbox_size: NZUsize!(1_024),
            deque_size: 16,
            priority: false,
            codec_config: (),
            peer_provider: peers.clone(),
            strategy: Sequential,
        },
    );
    broadcast.start(channels.blocks);

    let archive = |name: &str, codec| immutable::Config {
        metadata_partition: format!("{prefix}-{name}-metadata"),
        freezer_table_partition: format!("{prefix}-{name}-freezer-table"),
        freezer_table_initial_size: 1_024,
        freezer_table_resize_frequency: 10,
        freezer_table_resize_chunk_size: 1_024,
        freezer_key_partition: format!("{prefix}-{name}-freezer-key"),
        freezer_key_page_cache: page_cache.clone(),
        freezer_value_partition: format!("{prefix}-{name}-freezer-value"),
        freezer_value_target_size: 64 * 1024 * 1024,
        freezer_value_compression: None,
        ordinal_partition: format!("{prefix}-{name}-ordinal"),
        items_per_section: NZU64!(4_096),
        codec_config: codec,
        replay_buffer: NZUsize!(64 * 1024),
        freezer_key_write_buffer: NZUsize!(64 * 1024),
        freezer_value_write_buffer: NZUsize!(64 * 1024),
        ordinal_write_buffer: NZUsize!(64 * 1024),
    };
    // The threshold certificate's codec takes no configuration.
    let certificate_cfg: () =
        <app::Scheme as commonware_cryptography::certificate::Verifier>::certificate_codec_config_unbounded();
    let finalizations = immutable::Archive::init(
        context.child("finalizations_by_height"),
        archive("finalizations", certificate_cfg),
    )
    .await
    .map_err(|source| StartError::Archive {
        what: "finalizations",
        source,
    })?;
    let blocks = immutable::Archive::init(context.child("finalized_blocks"), archive("blocks", ()))
        .await
        .map_err(|source| StartError::Archive {
            what: "finalized blocks",
            source,
        })?;

    let epocher = FixedEpocher::new(EPOCH_LENGTH);
    let (marshal_actor, marshal_mailbox, _floor) =
        Marshal::<_, Standard<ChainBlock>, _, _, _, _, _>::init(
            context.child("marshal"),
            finalizations,
            blocks,
            marshal::Config {
                provider: ConstantProvider::new(validator.scheme.clone()),
                epocher: epocher.clone(),
                start: Start::Genesis(genesis),
                partition_prefix: format!("{prefix}-marshal"),
                mailbox_size: NZUsize!(1_024),
                view_retention: ViewDelta::new(64),
                prunable_items_per_section: NZU64!(4_096),
                page_cache: page_cache.clone(),
                replay_buffer: NZUsize!(64 * 1024),
                key_write_buffer: NZUsize!(64 * 1024),
                value_write_buffer: NZUsize!(64 * 1024),
                block_codec_config: (),
                max_repair: NZUsize!(16),
                max_pending_acks: NZUsize!(4),
                strategy: Sequential,
            },
        )
        .await;

    // Finalized blocks → execution, in order, acknowledged once on disk.
    let (queue_tx, queue_rx) = tokio::sync::mpsc::unbounded_channel();
    let (applied_tx, applied_rx) = tokio::sync::mpsc::unbounded_channel();
    let finalized = Finalized {
        core: core.clone(),
        queue: queue_tx,
    };
    let exec_core = core.clone();
    context
        .child("execution")
        .spawn(move |_| finalized::apply_loop(exec_core, queue_rx, applied_tx));
    let sync_core = core.clone();
    context
        .child("state_sync")
        .spawn(move |_| finalized::sync_loop(sync_core, applied_rx));
    let marshal_handle = marshal_actor.start(finalized, buffer, resolver);

    let seeds = Arc::new(Seeds::default());
    let live_peers = Arc::new(LivePeers::new(
        core.clone(),
        commonware_cryptography::certificate::Scheme::me(&validator.scheme).map(|m| m.index()),
    ));
    let app = App::new(
        core,
        seeds.clone(),
        validator.scheme.clone(),
        validator.proposers.clone(),
        validator.timing.block_time,
        vote_journal(&prefix),
    );
    let inline = Inline::new(
        context.child("application"),
        application(app),
        marshal_mailbox,
        epocher,
    );
    let leader_timeout = validator.timing.leader_timeout();
    let engine = simplex::Engine::new(
        context.child("simplex"),
        simplex::config::Config {
            scheme: validator.scheme.clone(),
            elector: Random::<commonware_cryptography::Sha256>::new(RandomVersion::V1),
            blocker,
            automaton: inline.clone(),
            relay: inline.clone(),
            reporter: SeedTap {
                seeds,
                peers: live_peers,
                inner: inline,
            },
            strategy: Sequential,
            partition: vote_journal(&prefix),
            mailbox_size: NZUsize!(1_024),
            epoch: Epoch::zero(),
            floor: simplex::config::Floor::Genesis(genesis_digest),
            replay_buffer: NZUsize!(64 * 1024),
            write_buffer: NZUsize!(64 * 1024),
            page_cache,
            leader_timeout,
            certification_timeout: leader_timeout * 2,
            timeout_retry: leader_timeout,
            view_retention: ViewDelta::new(64),
            skip: SkipPolicy::Enabled {
                timeout: leader_timeout * 3,
                budget: SkipBudget::Participants,
            },
            fetch_timeout: NZDuration!(Duration::from_secs(1)),
            fetch_retry_delay: Duration::from_millis(100),
            forward: ForwardPolicy::Disabled,
            track_historical_votes: false,
        },
    );
    let consensus = engine.start(channels.votes, channels.certificates, channels.resolver);
    Ok(Running {
        consensus,
        marshal: marshal_handle,
    })
}
