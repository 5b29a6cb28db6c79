//! The faucet service: an axum HTTP server that checks each request against the per-address
//! and per-IP limits, signs a transfer with its key (nonces and fees from the node), sends it
//! through the node's JSON-RPC and answers once the transfer is finalized.

use crate::{
    Drip, DripRequest, ErrorBody, FaucetInfo,
    limits::{Limit, Limiter},
};
use axum::{
    Json, Router,
    extract::{ConnectInfo, State, rejection::JsonRejection},
    http::{HeaderValue, StatusCode, header::RETRY_AFTER},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use cowboy_crypto::PrivateKey;
use cowboy_rpc::{CowboyApiClient, jsonrpsee::http_client::HttpClient};
use cowboy_types::{Address, Instruction, SystemInstruction};
use std::{
    net::{IpAddr, SocketAddr},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

/// How the faucet runs.
#[derive(Clone)]
pub struct Config {
    /// JSON-RPC URL of the node it sends through.
    pub rpc_url: String,
    /// The funded key it pays from.
    pub key: PrivateKey,
    /// Sent when a request names no amount, in base units.
    pub default_amount: u64,
    /// Largest amount one request may ask for.
    pub max_amount: u64,
    pub per_address: Limit,
    pub per_ip: Limit,
    /// How long to wait for a transfer to be finalized before answering 502.
    pub receipt_timeout: Duration,
    /// Requests arrive through a reverse proxy (e.g. one terminating TLS): the per-IP limit
    /// applies to the address the proxy appended last to `X-Forwarded-For`, not to the proxy.
    pub behind_proxy: bool,
}

/// Why the faucet could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot listen on {addr}: {error} (is another program using that port?)")]
    Bind {
        addr: SocketAddr,
        error: std::io::Error,
    },
    #[error("cannot reach the node at {url}: {reason}")]
    Node { url: String, reason: String },
    #[error("the faucet server failed: {0}")]
    Serve(std::io::Error),
    #[error(
        "--default-amount ({default}) is above --max-amount ({max}); lower it or raise the maximum"
    )]
    Amounts { default: u64, max: u64 },
}

struct Shared {
    config: Config,
    address: Address,
    chain_id: u64,
    node: HttpClient,
    limits: Mutex<(Limiter<Address>, Limiter<IpAddr>)>,
    /// One transfer is signed and submitted at a time, so nonces never collide.
    sending: tokio::sync::Mutex<()>,
}

/// A bound, not yet serving, faucet.
pub struct Server {
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
}

impl Server {
    /// Checks the node answers and binds `addr`.
    pub async fn bind(addr: SocketAddr, config: Config) -> Result<Self, ServerError> {
        if config.default_amount > config.max_amount {
            return Err(ServerError::Amounts {
                default: config.default_amount,
                max: config.max_amount,
            });
        }
        let node_error = |reason: String| ServerError::Node {
            url: config.rpc_url.clone(),
            reason,
        };
        let node = cowboy_rpc::client(&config.rpc_url).map_err(|e| node_error(e.to_string()))?;
        let chain_id = node
            .chain_id()
            .await
            .map_err(|e| node_error(e.to_string()))?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|error| ServerError::Bind { addr, error })?;
        let limits = Mutex::new((
            Limiter::new(config.per_address),
            Limiter::new(config.per_ip),
        ));
        Ok(Self {
            listener,
            shared: Arc::new(Shared {
                address: config.key.address(),
                chain_id,
                node,
                limits,
                sending: tokio::sync::Mutex::new(()),
                config,
            }),
        })
    }

    /// Where it listens (useful after binding port 0).
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// The faucet's account.
    pub fn address(&self) -> Address {
        self.shared.address
    }

    /// Serves until `shutdown` completes.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let app = Router::new()
            .route("/info", get(info))
            .route("/drip", post(drip))
            .with_state(self.shared);
        axum::serve(
            self.listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(ServerError::Serve)
    }
}

/// An error response: status, message and, for 429, when to retry.
struct Failure {
    status: StatusCode,
    message: String,
    retry_after: Option<u64>,
}

impl Failure {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
            retry_after: None,
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let body = Json(ErrorBody {
            error: self.message,
            retry_after_s: self.retry_after,
        });
        let mut response = (self.status, body).into_response();
        if let Some(s) = self.retry_after
            && let Ok(v) = HeaderValue::from_str(&s.to_string())
        {
            response.headers_mut().insert(RETRY_AFTER, v);
        }
        response
    }
}

async fn info(State(shared): State<Arc<Shared>>) -> Result<Json<FaucetInfo>, Failure> {
    let balance = shared
        .node
        .balance(shared.address)
        .await
        .map_err(|e| Failure::new(StatusCode::BAD_GATEWAY, format!("the node failed: {e}")))?;
    let limits = lock(&shared.limits);
    Ok(Json(FaucetInfo {
        address: shared.address,
        balance: balance.0,
        chain_id: shared.chain_id,
        default_amount: shared.config.default_amount,
        max_amount: shared.config.max_amount,
        per_address: limits.0.limit(),
        per_ip: limits.1.limit(),
    }))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The limiter is plain data: a panic elsewhere cannot leave it half-updated.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

async fn drip(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    body: Result<Json<DripRequest>, JsonRejection>,
) -> Result<Json<Drip>, Failure> {
    let ip = client_ip(peer, &headers, shared.config.behind_proxy)?;
    let Json(request) = body.map_err(|e| {
        Failure::new(
            StatusCode::BAD_REQUEST,
            format!(
                "{}; send {{\"address\": \"0x…\", \"amount\": BASE_UNITS}}",
                e.body_text()
            ),
        )
    })?;
    let amount = request.amount.unwrap_or(shared.config.default_amount);
    if amount == 0 || amount > shared.config.max_amount {
        return Err(Failure::new(
            StatusCode::BAD_REQUEST,
            format!(
                "amount {amount} is out of range: ask for 1 to {} base units",
                shared.config.max_amount
            ),
        ));
    }
    grant(&shared, request.address, ip)?;
    let result = transfer(&shared, request.address, amount).await;
    if result.is_err() {
        let mut limits = lock(&shared.limits);
        limits.0.undo(&request.address);
        limits.1.undo(&ip);
    }
    result.map(Json)
}

/// The client a request is counted against: the TCP peer, or behind a proxy the last address
/// in `X-Forwarded-For` (the one the proxy itself appended; earlier entries come from the
/// client and prove nothing).
fn client_ip(
    peer: SocketAddr,
    headers: &axum::http::HeaderMap,
    behind_proxy: bool,
) -> Result<IpAddr, Failure> {
    if !behind_proxy {
        return Ok(peer.ip());
    }
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .rfind(|v| !v.is_empty());
    let Some(last) = forwarded else {
        return Err(Failure::new(
            StatusCode::BAD_REQUEST,
            format!(
                "no X-Forwarded-For header from {}: this faucet runs --behind-proxy; \
                 make the proxy set it",
                peer.ip()
            ),
        ));
    };
    last.parse().map_err(|_| {
        Failure::new(
            StatusCode::BAD_REQUEST,
            format!("X-Forwarded-For ends in {last:?}, which is not an IP address"),
        )
    })
}

/// Checks both limits and records the grant, or says who must wait how long.
fn grant(shared: &Shared, address: Address, ip: IpAddr) -> Result<(), Failure> {
    let now = Instant::now();
    let mut limits = lock(&shared.limits);
    let limited = |wait: Duration, what: String, limit: Limit| {
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        Failure {
            status: StatusCode::TOO_MANY_REQUESTS,
            message: format!("rate limited: {what} (limit {limit}); try again in {secs} s"),
            retry_after: Some(secs),
        }
    };
    let per_address = limits.0.limit();
    limits
        .0
        .check(&address, now)
        .map_err(|wait| limited(wait, format!("{address} was already funded"), per_address))?;
    let per_ip = limits.1.limit();
    limits
        .1
        .check(&ip, now)
        .map_err(|wait| limited(wait, format!("too many requests from {ip}"), per_ip))?;
    limits.0.record(address, now);
    limits.1.record(ip, now);
    Ok(())
}

async fn transfer(shared: &Shared, to: Address, amount: u64) -> Result<Drip, Failure> {
    let node_failed = |e: &dyn std::fmt::Display| {
        Failure::new(StatusCode::BAD_GATEWAY, format!("the node failed: {e}"))
    };
    let hash = {
        let _turn = shared.sending.lock().await;
        let balance = shared
            .node
            .balance(shared.address)
            .await
            .map_err(|e| node_failed(&e))?;
        if balance.0 < amount {
            return Err(Failure::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the faucet is dry: {} base units left at {}; fund it or ask for less",
                    balance.0, shared.address
                ),
            ));
        }
        cowboy_rpc::send(
            &shared.node,
            &shared.config.key,
            Instruction::System(SystemInstruction::Transfer { to, amount }),
            &cowboy_rpc::TxOptions::default(),
        )
        .await
        .map_err(|e| node_failed(&e))?
    };
    tracing::info!(%to, amount, %hash, "sent");
    let receipt = cowboy_rpc::receipt_within(&shared.node, hash, shared.config.receipt_timeout)
        .await
        .map_err(|e| node_failed(&e))?;
    match receipt {
        Some(r) if r.status == cowboy_rpc::ReceiptStatus::Success => Ok(Drip {
            address: to,
            amount,
            tx_hash: hash,
            block_height: r.block_height,
        }),
        Some(r) => Err(Failure::new(
            StatusCode::BAD_GATEWAY,
            format!(
                "transfer {hash} failed: {}",
                r.error.or(r.failure).unwrap_or(r.status.to_string())
            ),
        )),
        None => Err(Failure::new(
            StatusCode::GATEWAY_TIMEOUT,
            format!("transfer {hash} was sent but not finalized in time; look it up later"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderMap, HeaderValue};

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append("x-forwarded-for", HeaderValue::from_str(v).expect("header"));
        }
        map
    }

    #[test]
    fn the_peer_counts_unless_behind_a_proxy() {
        let peer: SocketAddr = "10.0.0.9:5000".parse().expect("addr");
        let spoofed = headers(&["1.2.3.4"]);
        assert_eq!(
            client_ip(peer, &spoofed, false).ok(),
            Some("10.0.0.9".parse().expect("ip"))
        );
    }

    #[test]
    fn behind_a_proxy_the_last_forwarded_address_counts() {
        let peer: SocketAddr = "127.0.0.1:5000".parse().expect("addr");
        // The client claimed 1.2.3.4; the proxy appended what it saw, 203.0.113.7.
        for h in [
            headers(&["1.2.3.4, 203.0.113.7"]),
            headers(&["1.2.3.4", "203.0.113.7 "]),
            headers(&["2001:db8::1, 203.0.113.7,"]),
        ] {
            assert_eq!(
                client_ip(peer, &h, true).ok(),
                Some("203.0.113.7".parse().expect("ip"))
            );
        }
        let missing = client_ip(peer, &HeaderMap::new(), true).expect_err("refused");
        assert_eq!(missing.status, StatusCode::BAD_REQUEST);
        assert!(
            missing.message.contains("no X-Forwarded-For"),
            "{}",
            missing.message
        );
        let garbage = client_ip(peer, &headers(&["unknown"]), true).expect_err("refused");
        assert!(
            garbage.message.contains("\"unknown\""),
            "{}",
            garbage.message
        );
    }
}
