//! Live updates over WebSocket: the node's subscriptions, and a client for them.
//!
//! A client opens `ws://` on the RPC port and calls a `cowboy_subscribe…` method; the node then
//! sends one notification per item, in chain order, until the client unsubscribes or closes.
//! [`CowboyPubSub`] generates both the node's server trait and a typed client
//! (`CowboyPubSubClient`, over [`ws_client`]).
//!
//! Every subscription follows executed (finalized) blocks with a cursor, so none skips or
//! repeats a block, and one that asks `from` a recent height first replays what it missed.
//! The node never holds more than the connection's bounded buffer for a client: one that
//! falls more than the node's `rpc.subscription_max_lag_blocks` behind the head is a slow
//! consumer, gets an error notification (`params.error`, naming the height to resume from)
//! and its connection is closed. The limits are in the book (`reference/node.md`).

use crate::{BlockSummary, EventRecord, ReceiptView, RunnerView};
use cowboy_types::{Address, Hash};
use jsonrpsee::{core::SubscriptionResult, proc_macros::rpc};
use serde::{Deserialize, Serialize};

/// Which events `cowboy_subscribeEvents` sends: from block `from_height` (default: the next
/// block), emitted by `emitter`, whose topic `i` is `topics[i]` where that is not `null`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsSubscription {
    #[serde(default)]
    pub from_height: Option<u64>,
    #[serde(default)]
    pub emitter: Option<Address>,
    #[serde(default)]
    pub topics: Vec<Option<Hash>>,
}

/// The node's subscriptions (WebSocket only; over HTTP they answer an error).
#[rpc(server, client, namespace = "cowboy")]
pub trait CowboyPubSub {
    /// Every executed block from `from` (default: the next one), in order, as
    /// `cowboy_newHead` notifications.
    #[subscription(
        name = "subscribeNewHeads" => "newHead",
        unsubscribe = "unsubscribeNewHeads",
        item = BlockSummary,
        with_extensions
    )]
    async fn subscribe_new_heads(&self, from: Option<u64>) -> SubscriptionResult;

    /// Every event matching `filter`, in chain order, as `cowboy_event` notifications.
    #[subscription(
        name = "subscribeEvents" => "event",
        unsubscribe = "unsubscribeEvents",
        item = EventRecord,
        with_extensions
    )]
    async fn subscribe_events(&self, filter: EventsSubscription) -> SubscriptionResult;

    /// The receipt of transaction `hash` once its block is executed (at once if it already
    /// is), as one `cowboy_receipt` notification; the subscription then ends.
    #[subscription(
        name = "subscribeReceipt" => "receipt",
        unsubscribe = "unsubscribeReceipt",
        item = ReceiptView,
        with_extensions
    )]
    async fn subscribe_receipt(&self, hash: Hash) -> SubscriptionResult;

    /// Job `id`'s record now and after every block that changes it, as `cowboy_job`
    /// notifications; the subscription ends once the job is settled or failed.
    #[subscription(
        name = "subscribeJob" => "job",
        unsubscribe = "unsubscribeJob",
        item = cowboy_types::job::JobRecord,
        with_extensions
    )]
    async fn subscribe_job(&self, id: Hash) -> SubscriptionResult;

    /// Runner `address`'s record now (if registered) and after every block that changes it,
    /// as `cowboy_runner` notifications.
    #[subscription(
        name = "subscribeRunner" => "runner",
        unsubscribe = "unsubscribeRunner",
        item = RunnerView,
        with_extensions
    )]
    async fn subscribe_runner(&self, address: Address) -> SubscriptionResult;
}

/// The WebSocket address of the RPC port an `http://` (or `https://`) URL names.
pub fn ws_url(url: &str) -> String {
    if let Some(rest) = url.strip_prefix("http://") {
        format!("ws://{rest}")
    } else if let Some(rest) = url.strip_prefix("https://") {
        format!("wss://{rest}")
    } else {
        url.to_string()
    }
}

/// A WebSocket client for the RPC port `url` names (`http://…` or `ws://…`).
pub async fn ws_client(
    url: &str,
) -> Result<jsonrpsee::ws_client::WsClient, jsonrpsee::core::ClientError> {
    jsonrpsee::ws_client::WsClientBuilder::default()
        .request_timeout(std::time::Duration::from_millis(
            crate::MAX_WAIT_MS + 10_000,
        ))
        .max_request_size(crate::MAX_REQUEST_BYTES)
        .build(ws_url(url))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ws_urls_follow_the_http_scheme() {
        assert_eq!(ws_url("http://127.0.0.1:8545"), "ws://127.0.0.1:8545");
        assert_eq!(ws_url("https://rpc.example/x"), "wss://rpc.example/x");
        assert_eq!(ws_url("ws://h:1"), "ws://h:1");
    }
}
