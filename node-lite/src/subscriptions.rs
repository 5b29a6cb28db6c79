//! The node's WebSocket subscriptions (`cowboy_rpc::CowboyPubSub`): new heads, events,
//! receipts, jobs and runners.
//!
//! Each subscription follows executed blocks with its own cursor (the next height it sends),
//! woken by the node's executed-height channel. It reads what it sends from the store, so a
//! client costs the node a cursor and the connection's bounded buffer, never a queue that
//! grows: while the buffer is full the cursor simply waits. A client whose cursor falls more
//! than [`SubscriptionLimits::max_lag_blocks`] behind the head while its buffer stays full (a
//! burst the network delivers late is not slowness) is a slow consumer: it gets an
//! error notification naming the height to resume from, every subscription of its connection
//! ends, and the connection is closed ([`crate::rpc_server::WsConnection`]).

use crate::rpc::Rpc;
use cowboy_rpc::{
    BlockSummary, CowboyApiServer, EventsRequest, EventsSubscription, MAX_EVENTS_PAGE,
    jsonrpsee::{
        PendingSubscriptionSink, SubscriptionMessage, SubscriptionSink,
        core::{SubscriptionResult, async_trait},
        server::SendTimeoutError,
        types::ErrorObjectOwned,
    },
    pubsub::CowboyPubSubServer,
};
use cowboy_types::{Address, Hash, job::JobStatus};
use serde::Serialize;
use serde_json::value::RawValue;
use std::time::Duration;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// How far behind the head a subscription may fall (`[rpc] subscription_max_lag_blocks`).
#[derive(Clone, Copy, Debug)]
pub struct SubscriptionLimits {
    pub max_lag_blocks: u64,
}

/// How often a send blocked on a full buffer checks how far behind its client has fallen.
const LAG_CHECK: Duration = Duration::from_millis(200);

/// Why a subscription stops sending.
enum Stop {
    /// The client unsubscribed or the connection closed: nothing more to say.
    Gone,
    /// The client is too slow, or the node failed to read what it would send.
    Error(String),
}

impl From<ErrorObjectOwned> for Stop {
    fn from(e: ErrorObjectOwned) -> Self {
        Stop::Error(format!("the node cannot read the chain: {}", e.message()))
    }
}

/// One block's worth of items (encoded), and whether the subscription is complete after them.
struct Step {
    items: Vec<Box<RawValue>>,
    done: bool,
}

fn encode(item: &impl Serialize) -> Result<Box<RawValue>, Stop> {
    serde_json::value::to_raw_value(item)
        .map_err(|e| Stop::Error(format!("cannot encode a notification: {e}")))
}

impl Step {
    fn of<T: Serialize>(items: impl IntoIterator<Item = T>, done: bool) -> Result<Self, Stop> {
        Ok(Self {
            items: items
                .into_iter()
                .map(|i| encode(&i))
                .collect::<Result<_, _>>()?,
            done,
        })
    }
}

/// What a subscription sends for each block.
enum Feed {
    Heads,
    Events(EventsSubscription),
    Receipt(Hash),
    /// A job's record whenever it changes, until it is settled or failed.
    Job {
        id: Hash,
        last: Option<Box<cowboy_types::job::JobRecord>>,
    },
    /// A runner's view whenever its record or health changes (its height changes every block).
    Runner {
        address: Address,
        last: Option<Box<(cowboy_types::runner::Runner, bool)>>,
    },
}

impl Feed {
    async fn step(&mut self, rpc: &Rpc, height: u64) -> Result<Step, Stop> {
        match self {
            Feed::Heads => {
                let summary: Option<BlockSummary> = rpc.summary(height)?;
                Step::of(summary, false)
            }
            Feed::Events(filter) => {
                let mut items = Vec::new();
                let mut cursor = None;
                loop {
                    let page = CowboyApiServer::events(
                        rpc,
                        EventsRequest {
                            from_height: height,
                            to_height: Some(height),
                            emitter: filter.emitter,
                            topics: filter.topics.clone(),
                            limit: Some(MAX_EVENTS_PAGE),
                            cursor,
                        },
                    )
                    .await?;
                    items.extend(page.events);
                    match page.next_cursor {
                        Some(c) => cursor = Some(c),
                        None => break,
                    }
                }
                Step::of(items, false)
            }
            Feed::Receipt(hash) => {
                let receipt = rpc.receipt_view(hash)?;
                let done = receipt.is_some();
                Step::of(receipt, done)
            }
            Feed::Job { id, last } => {
                let record = CowboyApiServer::job(rpc, *id).await?.map(Box::new);
                let done = record
                    .as_ref()
                    .is_some_and(|r| matches!(r.status, JobStatus::Settled | JobStatus::Failed));
                let changed = record.is_some() && record != *last;
                last.clone_from(&record);
                Step::of(record.filter(|_| changed), done)
            }
            Feed::Runner { address, last } => {
                let view = CowboyApiServer::runner(rpc, *address).await?;
                let record = view
                    .as_ref()
                    .map(|v| Box::new((v.record.clone(), v.healthy)));
                let changed = record.is_some() && record != *last;
                *last = record;
                Step::of(view.filter(|_| changed), false)
            }
        }
    }
}

/// One subscription's view of its connection and of the chain.
struct Follower<'a> {
    rpc: &'a Rpc,
    sink: SubscriptionSink,
    connection: Option<crate::rpc_server::WsConnection>,
    /// Its place under the per-address subscription cap (WebSocket only); dropping it gives
    /// the place back.
    _slot: Option<crate::rpc_server::SubscriptionSlot>,
    /// Cancelled when the client unsubscribes, before jsonrpsee's sink notices.
    unsubscribed: CancellationToken,
    heights: watch::Receiver<u64>,
    limits: SubscriptionLimits,
    kind: &'static str,
}

impl Follower<'_> {
    fn head(&self) -> u64 {
        *self.heights.borrow()
    }

    /// `Err(Slow)` when the client's cursor at `height` is too far behind the head.
    fn check_lag(&self, height: u64) -> Result<(), Stop> {
        let head = self.head();
        let lag = head.saturating_sub(height);
        if lag > self.limits.max_lag_blocks {
            return Err(Stop::Error(format!(
                "slow consumer: this {} subscription fell {lag} blocks behind the head (at \
                 most {} allowed) because its messages were not read fast enough; the node \
                 closed the connection. Resume with from = {height} (block {height}'s items \
                 may come again), and read faster or subscribe to less",
                self.kind, self.limits.max_lag_blocks
            )));
        }
        Ok(())
    }

    /// Sends `item` (part of block `height`), waiting while the connection's buffer is full
    /// unless the client falls too far behind meanwhile.
    async fn send(&self, item: &RawValue, height: u64) -> Result<(), Stop> {
        let mut message = SubscriptionMessage::from(item.to_owned());
        loop {
            if self.closing() {
                return Err(Stop::Gone);
            }
            match self.sink.send_timeout(message, LAG_CHECK).await {
                Ok(()) => return Ok(()),
                Err(SendTimeoutError::Closed(_)) => return Err(Stop::Gone),
                Err(SendTimeoutError::Timeout(m)) => {
                    self.check_lag(height)?;
                    message = m;
                }
            }
        }
    }

    /// Whether it must send nothing more: the client unsubscribed or the connection closes.
    fn closing(&self) -> bool {
        self.unsubscribed.is_cancelled() || self.connection.as_ref().is_some_and(|c| c.is_closing())
    }

    /// Sends, block by block from `next`, what `step` makes of each executed block, until
    /// the subscription is done, the client leaves, or it is too slow.
    async fn follow(mut self, mut next: u64, mut feed: Feed) -> SubscriptionResult {
        let unsubscribed = self.unsubscribed.clone();
        let outcome = async {
            loop {
                let head = *self.heights.borrow_and_update();
                while next <= head {
                    let Step { items, done } = feed.step(self.rpc, next).await?;
                    for item in &items {
                        self.send(item, next).await?;
                    }
                    if done {
                        return Ok(());
                    }
                    next += 1;
                }
                let closing = async {
                    match &self.connection {
                        Some(c) => c.closing().await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    changed = self.heights.changed() => if changed.is_err() {
                        return Err(Stop::Error("the node is shutting down".into()));
                    },
                    _ = self.sink.closed() => return Err(Stop::Gone),
                    _ = closing => return Err(Stop::Gone),
                }
            }
        };
        // The client's unsubscribe ends it wherever it is, before jsonrpsee's sink notices.
        let outcome = tokio::select! {
            biased;
            () = unsubscribed.cancelled() => Err(Stop::Gone),
            outcome = outcome => outcome,
        };
        match outcome {
            Ok(()) | Err(Stop::Gone) => Ok(()),
            Err(Stop::Error(message)) => {
                if message.starts_with("slow consumer")
                    && let Some(connection) = &self.connection
                {
                    connection.close_after(self.sink.clone());
                }
                Err(message.into())
            }
        }
    }
}

impl Rpc {
    /// Accepts `pending` and sets up its follower from height `first`, or rejects it: when
    /// `first` is an error, or the connection's address holds its most subscriptions.
    async fn accept(
        &self,
        pending: PendingSubscriptionSink,
        ext: &cowboy_rpc::jsonrpsee::Extensions,
        kind: &'static str,
        first: Result<u64, ErrorObjectOwned>,
    ) -> Option<(Follower<'_>, u64)> {
        let connection = ext.get::<crate::rpc_server::WsConnection>().cloned();
        let admitted = first.and_then(|first| {
            let slot = connection
                .as_ref()
                .map(|c| c.admit_subscription(pending.subscription_id()))
                .transpose()
                .map_err(|message| ErrorObjectOwned::owned(-32429, message, None::<()>))?;
            Ok((first, slot))
        });
        let (first, slot) = match admitted {
            Ok(admitted) => admitted,
            Err(e) => {
                pending.reject(e).await;
                return None;
            }
        };
        let sink = pending.accept().await.ok()?;
        if let Some(slot) = &slot {
            slot.accepted();
        }
        let unsubscribed = slot
            .as_ref()
            .map_or_else(CancellationToken::new, |s| s.unsubscribed());
        let follower = Follower {
            rpc: self,
            sink,
            connection,
            _slot: slot,
            unsubscribed,
            heights: self.core().subscribe(),
            limits: self.subscription_limits(),
            kind,
        };
        Some((follower, first))
    }

    /// The newest executed height.
    fn head(&self) -> u64 {
        *self.core().subscribe().borrow()
    }

    /// The first height a subscription sends: `from`, if it is recent enough to replay, or
    /// the next block.
    fn start(&self, from: Option<u64>) -> Result<u64, ErrorObjectOwned> {
        let head = self.head();
        let Some(from) = from else {
            return Ok(head + 1);
        };
        let window = self.subscription_limits().max_lag_blocks;
        if from.saturating_add(window) < head {
            return Err(ErrorObjectOwned::owned(
                -32602,
                format!(
                    "from = {from} is more than {window} blocks behind the head ({head}): read \
                     older blocks with cowboy_getBlock or cowboy_getEvents, then subscribe \
                     from a recent height"
                ),
                None::<()>,
            ));
        }
        Ok(from.max(1))
    }
}

#[async_trait]
impl CowboyPubSubServer for Rpc {
    async fn subscribe_new_heads(
        &self,
        pending: PendingSubscriptionSink,
        ext: &cowboy_rpc::jsonrpsee::Extensions,
        from: Option<u64>,
    ) -> SubscriptionResult {
        let first = self.start(from);
        let Some((follower, next)) = self.accept(pending, ext, "newHeads", first).await else {
            return Ok(());
        };
        follower.follow(next, Feed::Heads).await
    }

    async fn subscribe_events(
        &self,
        pending: PendingSubscriptionSink,
        ext: &cowboy_rpc::jsonrpsee::Extensions,
        filter: EventsSubscription,
    ) -> SubscriptionResult {
        let first =
            crate::rpc::check_topics(&filter.topics).and_then(|()| self.start(filter.from_height));
        let Some((follower, next)) = self.accept(pending, ext, "events", first).await else {
            return Ok(());
        };
        follower.follow(next, Feed::Events(filter)).await
    }

    async fn subscribe_receipt(
        &self,
        pending: PendingSubscriptionSink,
        ext: &cowboy_rpc::jsonrpsee::Extensions,
        hash: Hash,
    ) -> SubscriptionResult {
        // Look at the current head first: the receipt may exist already.
        let first = Ok(self.head());
        let Some((follower, next)) = self.accept(pending, ext, "receipt", first).await else {
            return Ok(());
        };
        follower.follow(next, Feed::Receipt(hash)).await
    }

    async fn subscribe_job(
        &self,
        pending: PendingSubscriptionSink,
        ext: &cowboy_rpc::jsonrpsee::Extensions,
        id: Hash,
    ) -> SubscriptionResult {
        let first = Ok(self.head());
        let Some((follower, next)) = self.accept(pending, ext, "job", first).await else {
            return Ok(());
        };
        follower.follow(next, Feed::Job { id, last: None }).await
    }

    async fn subscribe_runner(
        &self,
        pending: PendingSubscriptionSink,
        ext: &cowboy_rpc::jsonrpsee::Extensions,
        address: Address,
    ) -> SubscriptionResult {
        let first = Ok(self.head());
        let Some((follower, next)) = self.accept(pending, ext, "runner", first).await else {
            return Ok(());
        };
        let feed = Feed::Runner {
            address,
            last: None,
        };
        follower.follow(next, feed).await
    }
}
