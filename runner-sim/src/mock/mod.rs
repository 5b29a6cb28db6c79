//! Hermetic backends for simulated runners, served on one loopback port:
//! - [`http`]: a recording / replaying HTTP mock (every runner's `http.via`);
//! - [`llm`]: a deterministic stand-in for an OpenAI-compatible server;
//! - [`mcp`]: an MCP stub over Streamable HTTP.

pub mod http;
pub mod llm;
pub mod mcp;

use axum::Router;
use std::{net::SocketAddr, sync::Arc};

/// The backends' addresses once serving.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Backends {
    pub http_via: String,
    pub llm_base: String,
    pub mcp: String,
}

/// Serves every backend on 127.0.0.1 (an ephemeral port) until the runtime stops.
pub async fn serve(
    http: Arc<http::HttpMock>,
    llm: Arc<llm::LlmStandIn>,
) -> std::io::Result<(SocketAddr, Backends)> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let app = Router::new()
        .merge(http::router(http))
        .merge(llm::router(llm))
        .merge(mcp::router());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok((
        addr,
        Backends {
            http_via: format!("http://{addr}/http"),
            llm_base: format!("http://{addr}/llm"),
            mcp: format!("http://{addr}/mcp"),
        },
    ))
}
