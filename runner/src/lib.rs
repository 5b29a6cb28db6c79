//! A Cowboy runner (CIP-2; the book's "Running a runner"): the off-chain half of the runner
//! market. `cowboy runner run` and every runner `cowboy runner-sim` starts are this library.
//!
//! - [`config`]: the `runner.toml` an operator edits, and the on-chain profile it yields;
//! - [`exec`]: the HTTP, LLM, MCP and custom executors, each within the job's bounds;
//! - [`extract`]: HTTP extraction rules (JSON pointer, JSONPath, regex, CSS);
//! - [`journal`]: the crash-safe job journal (redb);
//! - [`jobs`]: the submitter's side: spec files, following a job, votes, timelines;
//! - [`push`]: signed result pushes and the aggregator's pool;
//! - [`daemon`]: the loop following the node's long poll: commit, push, aggregate, reveal,
//!   heartbeat, settle;
//! - [`server`]: `/v1/push`, `/health`, `/metrics`;
//! - [`conduct`]: the behaviour hook (honest for operators; adversarial in the simulator).

pub mod conduct;
pub mod config;
pub mod daemon;
pub mod exec;
pub mod extract;
pub mod jobs;
pub mod journal;
pub mod metrics;
pub mod push;
pub mod server;

pub use config::RunnerConfig;
pub use daemon::Runner;

/// Serves `runner`'s endpoint on `listener` and runs the daemon until `shutdown` resolves.
pub async fn serve(
    runner: std::sync::Arc<Runner>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), daemon::DaemonError> {
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let app = server::router(runner.clone());
    let mut server_stop = stop_rx.clone();
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = server_stop.wait_for(|s| *s).await;
            })
            .await;
    });
    let result = runner
        .run(async move {
            shutdown.await;
        })
        .await;
    let _ = stop_tx.send(true);
    let _ = server.await;
    result
}
