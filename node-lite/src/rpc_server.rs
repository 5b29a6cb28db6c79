//! The RPC port: who may connect, for how long, and how much of the node one client may use.
//!
//! jsonrpsee answers the requests ([`crate::rpc`]); this module owns the socket in front of it,
//! so that no client — nor thousands of idle or slow ones — can take the node's file
//! descriptors, or every other client's turn:
//!
//! - **connections**: at most [`RpcLimits::max_connections`] in total (the node lowers it to
//!   what its descriptor limit leaves after storage and p2p: [`crate::fd`]) and
//!   [`RpcLimits::max_connections_per_ip`] per client address; a connection over either cap
//!   gets `503` and is closed at once.
//! - **time**: a request's headers must arrive within [`RpcLimits::header_timeout`] and its
//!   body within [`RpcLimits::body_timeout`] (`408` otherwise); a connection with no request in
//!   flight for [`RpcLimits::idle_timeout`] is closed; a request, long polls included, ends by
//!   [`RpcLimits::request_timeout`].
//! - **size**: a body above [`cowboy_rpc::MAX_REQUEST_BYTES`] is refused with `413`, whether
//!   it declares its length or streams it in chunks.
//! - **fairness**: at most [`RpcLimits::max_in_flight_per_ip`] requests of one address run at
//!   once (`429` beyond, with `Retry-After`); a batch holds at most [`RpcLimits::max_batch`]
//!   calls, which run concurrently.
//!
//! - **WebSocket**: a `GET` with `Upgrade: websocket` becomes a WebSocket connection for the
//!   subscriptions ([`crate::subscriptions`]) and calls. It keeps its connection slot until its
//!   socket is closed ([`SlotStream`]), counts its calls against its address's
//!   [`RpcLimits::max_in_flight_per_ip`], holds at most
//!   [`RpcLimits::max_subscriptions_per_connection`] subscriptions and a buffer of
//!   [`RpcLimits::subscription_buffer`] messages, takes messages of at most
//!   [`WS_MAX_MESSAGE_BYTES`], and is pinged so a vanished client is noticed. A slow consumer
//!   ([`WsConnection::close_after`]) gets its error notification, then a close frame; one that
//!   reads nothing at all is dropped after [`RpcLimits::slow_consumer_grace_s`].
//!
//! `GET /health` answers `200` when the node is ready and `503` otherwise, with the
//! `cowboy_health` document; `GET /` the block explorer ([`crate::explorer`]). Answers allow
//! any origin (CORS), as the RPC is public and holds no credentials: a web page can read the
//! chain and send signed transactions, nothing more.
//!
//! The accept loop never stops on an error: when the process runs out of descriptors it
//! backs off and retries, and the rest of the node (storage, p2p) keeps its reserve.

use bytes::Bytes;
use cowboy_rpc::jsonrpsee::{
    core::{
        BoxError,
        middleware::{Batch, BatchEntry, Notification, Request, RpcServiceBuilder, RpcServiceT},
        server::{BatchResponseBuilder, MethodCallback, MethodResponse, Methods},
    },
    server::{
        BatchRequestConfig, ConnectionState, HttpBody, HttpRequest, HttpResponse, PingConfig,
        ServerConfig, ServerHandle, StopHandle, SubscriptionSink, stop_channel, ws,
    },
    types::{ErrorObjectOwned, SubscriptionId},
};
use http_body_util::BodyExt as _;
use hyper::StatusCode;
use serde::{Deserialize, Serialize};
use std::{
    collections::{HashMap, hash_map::Entry},
    future::Future,
    net::{IpAddr, SocketAddr},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering},
    },
    time::Duration,
};
use tokio::sync::watch;
use tokio::{net::TcpListener, sync::Semaphore};
use tokio_util::sync::CancellationToken;

/// The limits of the RPC port (`[rpc]` in `config.toml`; every field optional).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RpcLimits {
    /// Open connections in total (lowered to what the descriptor limit leaves).
    pub max_connections: usize,
    /// Open connections from one IP address.
    pub max_connections_per_ip: usize,
    /// Requests of one IP address running at once (long polls included).
    pub max_in_flight_per_ip: usize,
    /// Calls in one batch.
    pub max_batch: u32,
    /// Read-only queries (`cowboy_query`) running at once, node-wide.
    pub max_queries: usize,
    /// Seconds a client has to send a request's headers.
    pub header_timeout_s: u64,
    /// Seconds a client has to send a request's body.
    pub body_timeout_s: u64,
    /// Seconds a connection may stay open with no request in flight.
    pub idle_timeout_s: u64,
    /// Seconds a request may take, long polls included (they wait at most 60 s).
    pub request_timeout_s: u64,
    /// Subscriptions one WebSocket connection may hold.
    pub max_subscriptions_per_connection: u32,
    /// Subscriptions all the WebSocket connections of one IP address may hold (each reads
    /// the store at every block).
    pub max_subscriptions_per_ip: usize,
    /// Messages waiting to be written to one WebSocket connection; while it is full, that
    /// connection's subscriptions wait.
    pub subscription_buffer: u32,
    /// Blocks a subscription may fall behind the head before its client is a slow consumer
    /// while its connection's buffer is full, and is disconnected (a new subscription may
    /// replay from as far back).
    pub subscription_max_lag_blocks: u64,
    /// Seconds a slow consumer's connection is given to take its error notification before
    /// it is dropped; also the longest a write to any client may make no progress.
    pub slow_consumer_grace_s: u64,
    /// The kernel's send buffer for each connection, in bytes: what a client that stops
    /// reading can leave unsent in the node's memory (the kernel would otherwise grow it to
    /// megabytes), and so how soon a stalled subscriber is noticed.
    pub socket_send_buffer_bytes: u32,
    /// Serve the block explorer at `/` ([`crate::explorer`]).
    pub explorer: bool,
}

/// Largest message a WebSocket client may send, and largest answer it gets (jsonrpsee uses
/// one limit for both): smaller than HTTP's answers, since a WebSocket connection stays open.
pub const WS_MAX_MESSAGE_BYTES: u32 = 8 * 1024 * 1024;

impl Default for RpcLimits {
    fn default() -> Self {
        Self {
            max_connections: 8_192,
            max_connections_per_ip: 64,
            max_in_flight_per_ip: 32,
            max_batch: 100,
            max_queries: 4,
            header_timeout_s: 10,
            body_timeout_s: 10,
            idle_timeout_s: 30,
            request_timeout_s: cowboy_rpc::MAX_WAIT_MS / 1_000 + 10,
            max_subscriptions_per_connection: 64,
            max_subscriptions_per_ip: 256,
            subscription_buffer: 1_024,
            subscription_max_lag_blocks: 256,
            slow_consumer_grace_s: 10,
            socket_send_buffer_bytes: 256 * 1024,
            explorer: true,
        }
    }
}

impl RpcLimits {
    fn header_timeout(&self) -> Duration {
        Duration::from_secs(self.header_timeout_s)
    }
    fn body_timeout(&self) -> Duration {
        Duration::from_secs(self.body_timeout_s)
    }
    fn idle_timeout(&self) -> Duration {
        Duration::from_secs(self.idle_timeout_s)
    }
    fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout_s)
    }

    /// Checks the limits make a usable server.
    pub fn validate(&self) -> Result<(), String> {
        for (name, value) in [
            ("max_connections", self.max_connections as u64),
            ("max_connections_per_ip", self.max_connections_per_ip as u64),
            ("max_in_flight_per_ip", self.max_in_flight_per_ip as u64),
            ("max_batch", u64::from(self.max_batch)),
            ("max_queries", self.max_queries as u64),
            ("header_timeout_s", self.header_timeout_s),
            ("body_timeout_s", self.body_timeout_s),
            ("idle_timeout_s", self.idle_timeout_s),
            (
                "max_subscriptions_per_connection",
                u64::from(self.max_subscriptions_per_connection),
            ),
            (
                "max_subscriptions_per_ip",
                self.max_subscriptions_per_ip as u64,
            ),
            ("subscription_buffer", u64::from(self.subscription_buffer)),
            (
                "subscription_max_lag_blocks",
                self.subscription_max_lag_blocks,
            ),
            ("slow_consumer_grace_s", self.slow_consumer_grace_s),
            (
                "socket_send_buffer_bytes",
                u64::from(self.socket_send_buffer_bytes),
            ),
        ] {
            if value == 0 {
                return Err(format!("rpc.{name} must be at least 1"));
            }
        }
        if self.request_timeout_s * 1_000 <= cowboy_rpc::MAX_WAIT_MS {
            return Err(format!(
                "rpc.request_timeout_s must be above the longest long poll ({} s)",
                cowboy_rpc::MAX_WAIT_MS / 1_000
            ));
        }
        Ok(())
    }
}

/// Connections and requests per client address.
#[derive(Default)]
struct Clients {
    by_ip: Mutex<HashMap<IpAddr, ClientUse>>,
}

#[derive(Default)]
struct ClientUse {
    connections: usize,
    in_flight: usize,
    subscriptions: usize,
}

/// What one address may hold only so many of at once.
#[derive(Clone, Copy)]
enum Capped {
    Connection,
    InFlight,
    Subscription,
}

impl ClientUse {
    fn count(&mut self, what: Capped) -> &mut usize {
        match what {
            Capped::Connection => &mut self.connections,
            Capped::InFlight => &mut self.in_flight,
            Capped::Subscription => &mut self.subscriptions,
        }
    }
}

/// One place an address holds under a per-address cap, given back when dropped.
struct Held {
    shared: Arc<Shared>,
    ip: IpAddr,
    what: Capped,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.shared
            .clients
            .with(self.ip, |c| *c.count(self.what) -= 1);
    }
}

/// Takes a place of `what` for `ip`, unless it holds `limit` already.
fn hold(shared: &Arc<Shared>, ip: IpAddr, what: Capped, limit: usize) -> Option<Held> {
    let taken = shared.clients.with(ip, |c| {
        let count = c.count(what);
        if *count >= limit {
            return false;
        }
        *count += 1;
        true
    });
    taken.then(|| Held {
        shared: shared.clone(),
        ip,
        what,
    })
}

/// Why a request over [`RpcLimits::max_in_flight_per_ip`] is refused.
fn too_many_in_flight(limit: usize) -> String {
    format!("more than {limit} requests of your address are running; wait for one to finish")
}

impl Clients {
    fn with<R>(&self, ip: IpAddr, f: impl FnOnce(&mut ClientUse) -> R) -> R {
        let mut map = self.by_ip.lock().unwrap_or_else(|p| p.into_inner());
        let entry = map.entry(ip).or_default();
        let result = f(entry);
        if entry.connections == 0 && entry.in_flight == 0 && entry.subscriptions == 0 {
            map.remove(&ip);
        }
        result
    }
}

/// `GET /health`: whether the node is ready, and its health document (JSON).
pub type HealthProbe = Arc<dyn Fn() -> (bool, String) + Send + Sync>;

/// What the accept loop and every connection share.
struct Shared {
    limits: RpcLimits,
    health: Option<HealthProbe>,
    connections: Arc<Semaphore>,
    clients: Clients,
    open: AtomicUsize,
    /// What a WebSocket connection serves, and with which settings.
    ws_config: ServerConfig,
    methods: Methods,
    ws_ids: AtomicU32,
    stop: StopHandle,
}

/// A connection's place under the caps, given back when the connection closes, or when the
/// WebSocket connection it became closes.
struct Slot {
    shared: Arc<Shared>,
    ip: IpAddr,
    _permit: tokio::sync::OwnedSemaphorePermit,
    /// Its place under [`RpcLimits::max_connections_per_ip`].
    _held: Held,
    /// Set when the connection must end: its socket's reads and writes fail from then on.
    killed: AtomicBool,
}

/// A connection's socket, holding the connection's [`Slot`]: the slot is given back only when
/// the socket is closed, whoever holds it last (hyper, or jsonrpsee's WebSocket tasks).
struct SlotStream {
    io: std::pin::Pin<Box<tokio_io_timeout::TimeoutStream<tokio::net::TcpStream>>>,
    slot: Arc<Slot>,
}

impl SlotStream {
    fn check(&self) -> std::io::Result<()> {
        if self.slot.killed.load(Ordering::Acquire) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::ConnectionAborted,
                "the node closed this connection",
            ));
        }
        Ok(())
    }
}

impl tokio::io::AsyncRead for SlotStream {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        self.check()?;
        self.io.as_mut().poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for SlotStream {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        self.check()?;
        self.io.as_mut().poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        self.check()?;
        self.io.as_mut().poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        self.io.as_mut().poll_shutdown(cx)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.shared.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One WebSocket connection, in the extensions of every call it makes: a subscription that
/// finds its client too slow asks for the connection to be closed.
#[derive(Clone)]
pub struct WsConnection {
    inner: Arc<WsState>,
}

struct WsState {
    /// Whose connection it is, for the per-address subscription cap.
    shared: Arc<Shared>,
    ip: IpAddr,
    closing: AtomicBool,
    changed: tokio::sync::Notify,
    /// A subscription of the connection, to see when its buffer has drained.
    drain: Mutex<Option<SubscriptionSink>>,
    /// The places its live subscriptions hold under the per-address cap, by subscription.
    places: Mutex<HashMap<SubscriptionId<'static>, Place>>,
}

/// A live subscription's place under the per-address cap, how to end it, and whether
/// jsonrpsee has registered it yet.
struct Place {
    _held: Held,
    end: CancellationToken,
    accepted: watch::Receiver<bool>,
}

/// A subscription's place under [`RpcLimits::max_subscriptions_per_ip`]. The place is given
/// back when the subscription's follower ends (this is dropped), or before the node answers
/// the client's unsubscribe ([`ConnectionCalls`]): a client that has its answer may subscribe
/// again at once, however late the follower's task runs.
pub struct SubscriptionSlot {
    connection: WsConnection,
    id: SubscriptionId<'static>,
    end: CancellationToken,
    accepted: watch::Sender<bool>,
}

impl SubscriptionSlot {
    /// Cancelled once the client has unsubscribed: the follower sends nothing more.
    pub fn unsubscribed(&self) -> CancellationToken {
        self.end.clone()
    }

    /// Records that jsonrpsee has accepted (registered) the subscription, so that an
    /// unsubscribe that raced its answer may ask jsonrpsee again.
    pub fn accepted(&self) {
        self.accepted.send_replace(true);
    }
}

impl Drop for SubscriptionSlot {
    fn drop(&mut self) {
        self.connection.end_subscription(&self.id);
    }
}

impl WsConnection {
    fn new(shared: Arc<Shared>, ip: IpAddr) -> Self {
        Self {
            inner: Arc::new(WsState {
                shared,
                ip,
                closing: AtomicBool::new(false),
                changed: tokio::sync::Notify::new(),
                drain: Mutex::new(None),
                places: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// A place for subscription `id` (before it is accepted, so an unsubscribe that follows
    /// its acceptance at once finds it) of this connection's address, or why there is none.
    pub fn admit_subscription(
        &self,
        id: SubscriptionId<'static>,
    ) -> Result<SubscriptionSlot, String> {
        let shared = &self.inner.shared;
        let limit = shared.limits.max_subscriptions_per_ip;
        let Some(held) = hold(shared, self.inner.ip, Capped::Subscription, limit) else {
            return Err(format!(
                "your address holds {limit} subscriptions, the most a node allows one \
                 address; unsubscribe from some first"
            ));
        };
        let end = CancellationToken::new();
        let (accepted, accepting) = watch::channel(false);
        let place = Place {
            _held: held,
            end: end.clone(),
            accepted: accepting,
        };
        match self.places().entry(id.clone()) {
            // Ids are random: a second live subscription with one would share its place.
            Entry::Occupied(_) => {
                return Err(format!(
                    "the node drew subscription id {id:?} twice on this connection; subscribe \
                     again"
                ));
            }
            Entry::Vacant(vacant) => vacant.insert(place),
        };
        Ok(SubscriptionSlot {
            connection: self.clone(),
            id,
            end,
            accepted,
        })
    }

    /// Whether jsonrpsee has accepted subscription `id` of this connection, once it has
    /// (`Err` if the subscription ended first, or is not this connection's).
    async fn accepted(&self, id: &SubscriptionId<'static>) -> Result<(), ()> {
        let accepting = self.places().get(id).map(|p| p.accepted.clone());
        match accepting {
            Some(mut accepting) => accepting.wait_for(|a| *a).await.map(drop).map_err(drop),
            None => Err(()),
        }
    }

    /// Ends subscription `id` of this connection and gives its place back; whether it was
    /// live.
    fn end_subscription(&self, id: &SubscriptionId<'static>) -> bool {
        // Dropped outside the lock: giving the place back takes the clients' lock.
        let place = self.places().remove(id);
        place.map(|p| p.end.cancel()).is_some()
    }

    fn places(&self) -> std::sync::MutexGuard<'_, HashMap<SubscriptionId<'static>, Place>> {
        self.inner.places.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the connection is being closed (its subscriptions stop sending).
    pub fn is_closing(&self) -> bool {
        self.inner.closing.load(Ordering::Acquire)
    }

    /// Resolves once the connection is being closed.
    pub async fn closing(&self) {
        loop {
            let changed = self.inner.changed.notified();
            if self.is_closing() {
                return;
            }
            changed.await;
        }
    }

    /// Closes the connection once what its buffer holds (`sink` is one of its subscriptions;
    /// the slow consumer's error notification goes in last) is written, or after
    /// [`RpcLimits::slow_consumer_grace_s`].
    pub fn close_after(&self, sink: SubscriptionSink) {
        *self.inner.drain.lock().unwrap_or_else(|p| p.into_inner()) = Some(sink);
        self.inner.closing.store(true, Ordering::Release);
        self.inner.changed.notify_waiters();
    }

    fn drained(&self) -> bool {
        self.inner
            .drain
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .is_none_or(|s| s.capacity() == s.max_capacity())
    }
}

/// A JSON-RPC error body for an HTTP-level refusal.
fn refusal(status: StatusCode, message: &str, retry_after: Option<u64>) -> HttpResponse {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32000 - i64::from(status.as_u16()), "message": message},
    })
    .to_string();
    let mut response = HttpResponse::new(HttpBody::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    if let Some(seconds) = retry_after {
        headers.insert(hyper::header::RETRY_AFTER, seconds.into());
    }
    response
}

/// Runs one calls of a batch concurrently (jsonrpsee runs them one after another, so a batch
/// of long polls would wait for each in turn).
#[derive(Clone)]
struct ConcurrentBatch<S> {
    inner: S,
}

impl<S> RpcServiceT for ConcurrentBatch<S>
where
    S: RpcServiceT<
            MethodResponse = MethodResponse,
            BatchResponse = MethodResponse,
            NotificationResponse = MethodResponse,
        > + Send
        + Sync
        + Clone
        + 'static,
{
    type MethodResponse = MethodResponse;
    type BatchResponse = MethodResponse;
    type NotificationResponse = MethodResponse;

    fn call<'a>(
        &self,
        request: Request<'a>,
    ) -> impl Future<Output = Self::MethodResponse> + Send + 'a {
        self.inner.call(request)
    }

    fn batch<'a>(&self, batch: Batch<'a>) -> impl Future<Output = Self::BatchResponse> + Send + 'a {
        let service = self.inner.clone();
        async move {
            let mut got_notification = false;
            let mut pending = Vec::new();
            for entry in batch.into_iter() {
                match entry {
                    Ok(BatchEntry::Call(request)) => {
                        let service = service.clone();
                        pending.push(futures::future::Either::Left(async move {
                            Some(service.call(request).await)
                        }));
                    }
                    Ok(BatchEntry::Notification(n)) => {
                        got_notification = true;
                        let service = service.clone();
                        pending.push(futures::future::Either::Right(
                            futures::future::Either::Left(async move {
                                service.notification(n).await;
                                None
                            }),
                        ));
                    }
                    Err(error) => {
                        let (error, id) = error.into_parts();
                        pending.push(futures::future::Either::Right(
                            futures::future::Either::Right(futures::future::ready(Some(
                                MethodResponse::error(id, error),
                            ))),
                        ));
                    }
                }
            }
            let mut responses = BatchResponseBuilder::new_with_limit(usize::MAX);
            for response in futures::future::join_all(pending)
                .await
                .into_iter()
                .flatten()
            {
                if let Err(too_big) = responses.append(response) {
                    return too_big;
                }
            }
            if responses.is_empty() && got_notification {
                MethodResponse::notification()
            } else {
                MethodResponse::from_batch(responses.finish())
            }
        }
    }

    fn notification<'a>(
        &self,
        n: Notification<'a>,
    ) -> impl Future<Output = Self::NotificationResponse> + Send + 'a {
        self.inner.notification(n)
    }
}

/// What every call of a WebSocket connection passes (`ConcurrentBatch`, above this layer,
/// hands each call of a batch to `call`):
///
/// - **the in-flight cap**: the calls it runs at once (jsonrpsee starts a task for every
///   message it reads, so nothing else would) count against the client address's
///   [`RpcLimits::max_in_flight_per_ip`], which its HTTP requests share. An unsubscribe is
///   never refused (as jsonrpsee never refuses one): a client at the cap must be able to give
///   back what it holds.
/// - **unsubscribes**: one ends the subscription and gives its place under
///   [`RpcLimits::max_subscriptions_per_ip`] back before the answer leaves; otherwise the
///   place would wait for the subscription's task to notice, and a client that subscribes
///   again on the answer could be refused. It also closes a race of jsonrpsee's: its subscribe
///   answer leaves before the subscription is registered, so an unsubscribe sent on that
///   answer can find nothing, be answered `false`, and leave the subscription running for
///   good. Here the subscription is known from before its answer leaves: an unsubscribe that
///   jsonrpsee answers `false` while the connection has a subscription of that id waits until
///   jsonrpsee has registered it and asks jsonrpsee again, whose answer (per method, once per
///   subscription) is the answer.
#[derive(Clone)]
struct ConnectionCalls<S> {
    inner: S,
    connection: WsConnection,
}

impl<S> RpcServiceT for ConnectionCalls<S>
where
    S: RpcServiceT<
            MethodResponse = MethodResponse,
            BatchResponse = MethodResponse,
            NotificationResponse = MethodResponse,
        > + Send
        + Sync
        + Clone
        + 'static,
{
    type MethodResponse = MethodResponse;
    type BatchResponse = MethodResponse;
    type NotificationResponse = MethodResponse;

    fn call<'a>(
        &self,
        request: Request<'a>,
    ) -> impl Future<Output = Self::MethodResponse> + Send + 'a {
        let inner = self.inner.clone();
        let connection = self.connection.clone();
        let shared = &connection.inner.shared;
        let limit = shared.limits.max_in_flight_per_ip;
        let unsubscribe = matches!(
            shared.methods.method(request.method_name()),
            Some(MethodCallback::Unsubscription(_))
        );
        // `Err` when the address is at the cap; `Ok(None)` for an unsubscribe, which holds none.
        let held = if unsubscribe {
            Ok(None)
        } else {
            hold(shared, connection.inner.ip, Capped::InFlight, limit)
                .map(Some)
                .ok_or(())
        };
        let unsubscribing = unsubscribe
            .then(|| {
                request
                    .params()
                    .one::<SubscriptionId>()
                    .ok()
                    .map(SubscriptionId::into_owned)
            })
            .flatten();
        async move {
            let Ok(_held) = held else {
                return MethodResponse::error(
                    request.id,
                    ErrorObjectOwned::owned(-32429, too_many_in_flight(limit), None::<()>),
                );
            };
            let Some(id) = unsubscribing else {
                return inner.call(request).await;
            };
            let again = request.clone();
            let mut response = inner.call(request).await;
            if !unsubscribed(&response) && connection.accepted(&id).await.is_ok() {
                response = inner.call(again).await;
            }
            if unsubscribed(&response) {
                connection.end_subscription(&id);
            }
            response
        }
    }

    fn batch<'a>(&self, batch: Batch<'a>) -> impl Future<Output = Self::BatchResponse> + Send + 'a {
        self.inner.batch(batch)
    }

    fn notification<'a>(
        &self,
        n: Notification<'a>,
    ) -> impl Future<Output = Self::NotificationResponse> + Send + 'a {
        self.inner.notification(n)
    }
}

/// Whether jsonrpsee answered an unsubscribe `true`: it found the subscription.
fn unsubscribed(response: &MethodResponse) -> bool {
    #[derive(Deserialize)]
    struct Answer {
        result: Option<bool>,
    }
    response.is_success()
        && serde_json::from_str::<Answer>(response.as_json().get())
            .is_ok_and(|a| a.result == Some(true))
}

/// A listening RPC port.
pub struct RpcServer {
    pub local_addr: SocketAddr,
    pub handle: ServerHandle,
}

/// Serves `methods` on `addr` within `limits`.
pub async fn serve(
    addr: SocketAddr,
    methods: impl Into<Methods>,
    limits: RpcLimits,
    health: Option<HealthProbe>,
) -> std::io::Result<RpcServer> {
    let listener = TcpListener::bind(addr).await?;
    let local_addr = listener.local_addr()?;
    let (stop, handle) = stop_channel();
    let config = ServerConfig::builder()
        .max_request_body_size(cowboy_rpc::MAX_REQUEST_BYTES)
        .max_response_body_size(64 * 1024 * 1024)
        .set_batch_request_config(BatchRequestConfig::Limit(limits.max_batch))
        .max_connections(u32::try_from(limits.max_connections).unwrap_or(u32::MAX))
        .http_only()
        .build();
    let service_builder = cowboy_rpc::jsonrpsee::server::Server::builder()
        .set_config(config)
        .set_rpc_middleware(RpcServiceBuilder::new().layer_fn(|inner| ConcurrentBatch { inner }))
        .to_service_builder();
    let methods: Methods = methods.into();
    let ws_config = ServerConfig::builder()
        .max_request_body_size(cowboy_rpc::MAX_REQUEST_BYTES)
        .max_response_body_size(WS_MAX_MESSAGE_BYTES)
        .set_batch_request_config(BatchRequestConfig::Limit(limits.max_batch))
        .max_subscriptions_per_connection(limits.max_subscriptions_per_connection)
        .set_message_buffer_capacity(limits.subscription_buffer.max(1))
        .enable_ws_ping(PingConfig::new())
        .build();
    let shared = Arc::new(Shared {
        connections: Arc::new(Semaphore::new(limits.max_connections)),
        limits,
        health,
        clients: Clients::default(),
        open: AtomicUsize::new(0),
        ws_config,
        methods: methods.clone(),
        ws_ids: AtomicU32::new(0),
        stop: stop.clone(),
    });
    let factory_stop = stop.clone();
    let make_service = move || {
        service_builder
            .clone()
            .build(methods.clone(), factory_stop.clone())
    };
    tokio::spawn(accept_loop(listener, shared, make_service, stop));
    Ok(RpcServer { local_addr, handle })
}

async fn accept_loop<F, S>(
    listener: TcpListener,
    shared: Arc<Shared>,
    make_service: F,
    stop: StopHandle,
) where
    F: Fn() -> S + Send + 'static,
    S: tower::Service<
            HttpRequest<http_body_util::Full<Bytes>>,
            Response = HttpResponse,
            Error = BoxError,
        > + Clone
        + Send
        + 'static,
    S::Future: Send,
{
    loop {
        let accepted = tokio::select! {
            _ = stop.clone().shutdown() => return,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors (EMFILE/ENFILE) or a connection reset before it was
                // accepted: keep serving the connections that exist; try again shortly.
                tracing::warn!(error = %e, "cannot accept an RPC connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let ip = peer.ip();
        if let Err(e) = socket2::SockRef::from(&stream)
            .set_send_buffer_size(shared.limits.socket_send_buffer_bytes as usize)
        {
            tracing::debug!(%ip, error = %e, "cannot bound an RPC connection's send buffer");
        }
        // An answer leaves at once: a WebSocket frame is written in more than one piece, and
        // Nagle's algorithm would hold the last one for the client's delayed ACK (~40 ms).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(%ip, error = %e, "cannot turn off Nagle's algorithm on an RPC connection");
        }
        let held = hold(
            &shared,
            ip,
            Capped::Connection,
            shared.limits.max_connections_per_ip,
        );
        let admitted = held.is_some();
        let taken = held.and_then(|held| {
            let permit = shared.connections.clone().try_acquire_owned().ok()?;
            Some((held, permit))
        });
        let Some((held, permit)) = taken else {
            tokio::spawn(refuse_connection(stream, admitted));
            continue;
        };
        let service = make_service();
        shared.open.fetch_add(1, Ordering::Relaxed);
        let slot = Arc::new(Slot {
            shared: shared.clone(),
            ip,
            _permit: permit,
            _held: held,
            killed: AtomicBool::new(false),
        });
        let stop = stop.clone();
        tokio::spawn(async move {
            serve_connection(stream, slot, service, stop).await;
        });
    }
}

/// Answers a connection over a cap with `503` and closes it.
async fn refuse_connection(mut stream: tokio::net::TcpStream, total_cap: bool) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let message = if total_cap {
        "the node serves its maximum number of RPC connections; retry later"
    } else {
        "too many RPC connections from your address; close some and retry"
    };
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": null,
        "error": {"code": -32503, "message": message},
    })
    .to_string();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    // A lingering close: closing a socket whose request is still unread makes the kernel send
    // a reset, which can destroy the answer before the client reads it. So the answer goes
    // first, then what the client sent is read and dropped (at most 64 KiB, 1 s) until it
    // closes too.
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
        let mut sink = [0u8; 4096];
        let mut drained = 0usize;
        while drained < 64 * 1024 {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    })
    .await;
}

/// Serves one connection until the client closes it, it idles out, or the server stops.
async fn serve_connection<S>(
    stream: tokio::net::TcpStream,
    slot: Arc<Slot>,
    service: S,
    stop: StopHandle,
) where
    S: tower::Service<
            HttpRequest<http_body_util::Full<Bytes>>,
            Response = HttpResponse,
            Error = BoxError,
        > + Clone
        + Send
        + 'static,
    S::Future: Send,
{
    let ip = slot.ip;
    let io_slot = slot.clone();
    let activity = Arc::new(Activity::default());
    let limits = slot.shared.limits.clone();
    let gate_activity = activity.clone();
    let handler = hyper::service::service_fn(move |request: HttpRequest<hyper::body::Incoming>| {
        let service = service.clone();
        let slot = slot.clone();
        let activity = gate_activity.clone();
        async move {
            let _busy = activity.start();
            Ok::<_, std::convert::Infallible>(gate(request, &slot, service).await)
        }
    });
    // A client that stops reading cannot hold a connection (or the WebSocket it became) with a
    // write that never finishes.
    let mut stream = tokio_io_timeout::TimeoutStream::new(stream);
    stream.set_write_timeout(Some(Duration::from_secs(limits.slow_consumer_grace_s)));
    let builder = {
        let mut b = hyper::server::conn::http1::Builder::new();
        b.timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(limits.header_timeout())
            .keep_alive(true);
        b
    };
    let stream = SlotStream {
        io: Box::pin(stream),
        slot: io_slot,
    };
    let connection = builder
        .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
        .with_upgrades();
    tokio::pin!(connection);
    let idle = limits.idle_timeout();
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(%ip, error = %e, "RPC connection ended");
                }
                return;
            }
            _ = stop.clone().shutdown() => {
                connection.as_mut().graceful_shutdown();
            }
            _ = activity.idle_for(idle) => {
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Whether a connection has a request in flight, and since when it has had none.
#[derive(Default)]
struct Activity {
    in_flight: AtomicUsize,
    last: Mutex<Option<tokio::time::Instant>>,
    changed: tokio::sync::Notify,
}

struct Busy<'a>(&'a Activity);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
        *self.0.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(tokio::time::Instant::now());
        self.0.changed.notify_waiters();
    }
}

impl Activity {
    fn start(&self) -> Busy<'_> {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.changed.notify_waiters();
        Busy(self)
    }

    /// Resolves once no request has been in flight for `idle`.
    async fn idle_for(&self, idle: Duration) {
        loop {
            let changed = self.changed.notified();
            if self.in_flight.load(Ordering::Acquire) > 0 {
                changed.await;
                continue;
            }
            let since = {
                let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
                *last.get_or_insert_with(tokio::time::Instant::now)
            };
            tokio::select! {
                _ = tokio::time::sleep_until(since + idle) => {
                    if self.in_flight.load(Ordering::Acquire) == 0 {
                        return;
                    }
                }
                _ = changed => {}
            }
        }
    }
}

/// Applies the per-request limits, then hands the request to jsonrpsee.
async fn gate<S>(
    request: HttpRequest<hyper::body::Incoming>,
    slot: &Arc<Slot>,
    mut service: S,
) -> HttpResponse
where
    S: tower::Service<
            HttpRequest<http_body_util::Full<Bytes>>,
            Response = HttpResponse,
            Error = BoxError,
        >,
{
    let (shared, ip) = (&slot.shared, slot.ip);
    let limits = &shared.limits;
    let Some(_in_flight) = hold(shared, ip, Capped::InFlight, limits.max_in_flight_per_ip) else {
        return refusal(
            StatusCode::TOO_MANY_REQUESTS,
            &too_many_in_flight(limits.max_in_flight_per_ip),
            Some(1),
        );
    };

    if ws::is_upgrade_request(&request) {
        return upgrade(request, slot).await;
    }
    if request.method() == hyper::Method::OPTIONS {
        return cors(preflight());
    }
    if request.method() == hyper::Method::GET
        && limits.explorer
        && let Some(asset) = crate::explorer::asset(request.uri().path())
    {
        return explorer_response(asset);
    }

    if request.method() == hyper::Method::GET
        && request.uri().path() == "/health"
        && let Some(probe) = &shared.health
    {
        // For load balancers and orchestrators: 200 when ready, 503 otherwise, the
        // `cowboy_health` document either way.
        let (ready, document) = probe();
        let mut response = HttpResponse::new(HttpBody::from(document));
        *response.status_mut() = if ready {
            StatusCode::OK
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        };
        response.headers_mut().insert(
            hyper::header::CONTENT_TYPE,
            hyper::header::HeaderValue::from_static("application/json"),
        );
        return response;
    }

    let (parts, body) = request.into_parts();
    let limited = http_body_util::Limited::new(body, cowboy_rpc::MAX_REQUEST_BYTES as usize);
    let body = match tokio::time::timeout(limits.body_timeout(), limited.collect()).await {
        Err(_) => {
            return refusal(
                StatusCode::REQUEST_TIMEOUT,
                &format!(
                    "the request body did not arrive within {} s",
                    limits.body_timeout_s
                ),
                None,
            );
        }
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            return refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!(
                    "the request body is larger than {} bytes",
                    cowboy_rpc::MAX_REQUEST_BYTES
                ),
                None,
            );
        }
        Ok(Err(e)) => {
            return refusal(
                StatusCode::BAD_REQUEST,
                &format!("cannot read the body: {e}"),
                None,
            );
        }
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    let request = HttpRequest::from_parts(parts, http_body_util::Full::new(body));
    cors(
        match tokio::time::timeout(limits.request_timeout(), service.call(request)).await {
            Ok(Ok(response)) => response,
            Ok(Err(e)) => refusal(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("internal error: {e}"),
                None,
            ),
            Err(_) => refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the request took longer than {} s",
                    limits.request_timeout_s
                ),
                None,
            ),
        },
    )
}

/// Allows any origin to read an answer.
fn cors(mut response: HttpResponse) -> HttpResponse {
    response.headers_mut().insert(
        hyper::header::ACCESS_CONTROL_ALLOW_ORIGIN,
        hyper::header::HeaderValue::from_static("*"),
    );
    response
}

/// The answer to a CORS preflight: JSON POSTs from any origin.
fn preflight() -> HttpResponse {
    let mut response = HttpResponse::new(HttpBody::default());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    for (name, value) in [
        (hyper::header::ACCESS_CONTROL_ALLOW_METHODS, "POST, GET"),
        (hyper::header::ACCESS_CONTROL_ALLOW_HEADERS, "content-type"),
        (hyper::header::ACCESS_CONTROL_MAX_AGE, "600"),
    ] {
        headers.insert(name, hyper::header::HeaderValue::from_static(value));
    }
    response
}

/// An embedded explorer file.
fn explorer_response(asset: &crate::explorer::Asset) -> HttpResponse {
    let mut response = HttpResponse::new(HttpBody::from(asset.body));
    let headers = response.headers_mut();
    for (name, value) in [
        (hyper::header::CONTENT_TYPE, asset.content_type),
        (hyper::header::CACHE_CONTROL, "no-cache"),
        (hyper::header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (
            hyper::header::CONTENT_SECURITY_POLICY,
            crate::explorer::CONTENT_SECURITY_POLICY,
        ),
    ] {
        headers.insert(name, hyper::header::HeaderValue::from_static(value));
    }
    response
}

/// Turns an upgrade request into a WebSocket connection that keeps `slot` until it closes.
async fn upgrade(
    mut request: HttpRequest<hyper::body::Incoming>,
    slot: &Arc<Slot>,
) -> HttpResponse {
    let shared = &slot.shared;
    let connection = WsConnection::new(shared.clone(), slot.ip);
    request.extensions_mut().insert(connection.clone());
    let (connection_stop, connection_handle) = stop_channel();
    let id = shared.ws_ids.fetch_add(1, Ordering::Relaxed);
    // jsonrpsee wants a permit of its own; the connection's real place is `slot`.
    let Ok(permit) = Arc::new(Semaphore::new(1)).try_acquire_owned() else {
        return refusal(
            StatusCode::INTERNAL_SERVER_ERROR,
            "cannot set up the WebSocket connection",
            None,
        );
    };
    let calls = connection.clone();
    // The batch layer outermost, so that each call of a batch passes the connection's layer.
    let middleware = RpcServiceBuilder::new()
        .layer_fn(|inner| ConcurrentBatch { inner })
        .layer_fn(move |inner| ConnectionCalls {
            inner,
            connection: calls.clone(),
        });
    let state = ConnectionState::new(connection_stop, id, permit);
    match ws::connect(
        request,
        shared.ws_config.clone(),
        shared.methods.clone(),
        state,
        middleware,
    )
    .await
    {
        Ok((response, run)) => {
            let slot = slot.clone();
            tokio::spawn(async move {
                let grace = Duration::from_secs(slot.shared.limits.slow_consumer_grace_s);
                let stop = slot.shared.stop.clone();
                tokio::pin!(run);
                tokio::select! {
                    () = &mut run => return,
                    () = stop.shutdown() => {}
                    () = connection.closing() => {
                        // Let the slow consumer's error notification reach the socket first.
                        let drained = async {
                            let started = tokio::time::Instant::now();
                            loop {
                                tokio::time::sleep(Duration::from_millis(50)).await;
                                if started.elapsed() >= Duration::from_millis(100)
                                    && connection.drained()
                                {
                                    return;
                                }
                            }
                        };
                        tokio::select! {
                            () = &mut run => return,
                            _ = tokio::time::timeout(grace, drained) => {}
                        }
                    }
                }
                // A close frame, then the connection ends; a client that reads nothing does
                // not hold it past the grace period: its socket fails from then on, and the
                // slot is given back once jsonrpsee's tasks let go of the socket.
                let _ = connection_handle.stop();
                if tokio::time::timeout(grace, &mut run).await.is_err() {
                    slot.killed.store(true, Ordering::Release);
                }
            });
            response
        }
        Err(response) => response,
    }
}
