//! The runner's HTTP endpoint (axum): `POST /v1/push` where committee members push their
//! signed results when this runner aggregates, `GET /health` and Prometheus `GET /metrics`.
//!
//! A push is checked before it is kept: its signature is its runner's, the job exists, this
//! runner is the aggregator of its current draw, the pusher is on that committee, and the push
//! opens the pusher's commitment on chain within the job's size limit. Bodies are
//! capped, and at most [`MAX_CHECKING`] pushes are checked at once (each asks the node for the
//! job); the rest are told to retry.

use crate::{daemon::Runner, push::Push};
use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, State},
    http::StatusCode,
    response::IntoResponse,
    routing::{get, post},
};
use cowboy_rpc::CowboyApiClient;
use serde_json::json;
use std::sync::{Arc, atomic::Ordering};

/// Largest push body: a 64 KiB result, its embedding and hex encoding.
pub const MAX_PUSH_BYTES: usize = 512 * 1024;
/// Pushes checked at once.
pub const MAX_CHECKING: usize = 32;

#[derive(Clone)]
struct Shared {
    runner: Arc<Runner>,
    checking: Arc<tokio::sync::Semaphore>,
}

/// The router serving `runner`.
pub fn router(runner: Arc<Runner>) -> Router {
    Router::new()
        .route("/v1/push", post(push))
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .layer(DefaultBodyLimit::max(MAX_PUSH_BYTES))
        .with_state(Shared {
            runner,
            checking: Arc::new(tokio::sync::Semaphore::new(MAX_CHECKING)),
        })
}

fn refuse(status: StatusCode, message: impl Into<String>) -> axum::response::Response {
    (status, Json(json!({"error": message.into()}))).into_response()
}

async fn push(State(s): State<Shared>, Json(push): Json<Push>) -> axum::response::Response {
    let Ok(_permit) = s.checking.clone().try_acquire_owned() else {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many pushes being checked; retry",
        );
    };
    if !push.signer_ok() {
        return refuse(
            StatusCode::UNAUTHORIZED,
            format!(
                "the signature is not {}'s over keccak256(\"cowboy-push-v1\" ‖ job_id ‖ commitment)",
                push.reveal.runner
            ),
        );
    }
    let job = match s.runner.client.job(push.job_id).await {
        Ok(Some(job)) => job,
        Ok(None) => return refuse(StatusCode::NOT_FOUND, format!("no job {}", push.job_id)),
        Err(e) => {
            return refuse(
                StatusCode::BAD_GATEWAY,
                format!("cannot ask the node about the job: {e}"),
            );
        }
    };
    let Some(draw) = job.draws.last() else {
        return refuse(StatusCode::CONFLICT, "the job has no committee yet");
    };
    if draw.aggregator != s.runner.address() {
        return refuse(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "{} is job {}'s aggregator, not this runner",
                draw.aggregator, job.id
            ),
        );
    }
    if !draw.committee.contains(&push.reveal.runner) {
        return refuse(
            StatusCode::FORBIDDEN,
            format!(
                "{} is not on job {}'s committee",
                push.reveal.runner, job.id
            ),
        );
    }
    // Only an opening of the member's commitment on chain, and only one the chain would take
    // (a refused entry would sink the whole batch).
    let opens = job
        .commitments
        .iter()
        .any(|c| c.runner == push.reveal.runner && c.hash == push.reveal.commitment());
    if !opens {
        return refuse(
            StatusCode::CONFLICT,
            format!(
                "the push does not open {}'s commitment to job {} on chain (push once the commit phase is over)",
                push.reveal.runner, job.id
            ),
        );
    }
    let max = job.spec.schema.max_return_bytes as usize;
    if push.reveal.result.len() > max {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the result is {} bytes; the job allows {max}",
                push.reveal.result.len()
            ),
        );
    }
    let job_id = push.job_id;
    if let Ok(mut pool) = s.runner.pool.lock() {
        pool.insert(push);
    }
    // The batch goes out as soon as the last result arrives, not at the next block.
    s.runner.clone().reveal_now(job_id);
    (StatusCode::ACCEPTED, Json(json!({"accepted": true}))).into_response()
}

async fn health(State(s): State<Shared>) -> axum::response::Response {
    let r = &s.runner;
    // Not the node's URL: it may carry an API key.
    let body = json!({
        "address": r.address(),
        "height": r.height.load(Ordering::SeqCst),
        "halted": r.halted(),
    });
    let ok = r.healthy.load(Ordering::SeqCst) && !r.halted();
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body)).into_response()
}

async fn metrics(State(s): State<Shared>) -> impl IntoResponse {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        s.runner.metrics.render(),
    )
}
