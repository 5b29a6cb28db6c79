//! An MCP stub over Streamable HTTP (`POST /mcp`, JSON responses): `initialize`, `tools/list`
//! (one tool, `echo`) and `tools/call`, which answers with the call's arguments as structured
//! content — enough for a runner's MCP executor (the official SDK's client) to run a job end
//! to end without a real server.

use axum::{Json, Router, http::StatusCode, response::IntoResponse, routing::post};
use serde_json::{Value, json};

async fn handle(Json(request): Json<Value>) -> axum::response::Response {
    let id = request.get("id").cloned();
    let method = request.get("method").and_then(Value::as_str).unwrap_or("");
    let Some(id) = id else {
        // A notification (`notifications/initialized`, …): accepted, no answer.
        return StatusCode::ACCEPTED.into_response();
    };
    let result = match method {
        "initialize" => json!({
            "protocolVersion": request.pointer("/params/protocolVersion").cloned().unwrap_or(json!("2025-06-18")),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "cowboy-runner-sim", "version": env!("CARGO_PKG_VERSION")},
        }),
        "tools/list" => json!({"tools": [{
            "name": "echo",
            "description": "Returns its arguments",
            "inputSchema": {"type": "object"},
        }]}),
        "tools/call" => {
            let tool = request
                .pointer("/params/name")
                .cloned()
                .unwrap_or(Value::Null);
            let arguments = request
                .pointer("/params/arguments")
                .cloned()
                .unwrap_or(json!({}));
            json!({
                "content": [{"type": "text", "text": arguments.to_string()}],
                "structuredContent": {"tool": tool, "arguments": arguments},
                "isError": false,
            })
        }
        "ping" => json!({}),
        other => {
            return Json(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("method {other} not found")}}))
                .into_response();
        }
    };
    Json(json!({"jsonrpc": "2.0", "id": id, "result": result})).into_response()
}

pub fn router() -> Router {
    Router::new().route("/mcp", post(handle))
}

#[cfg(test)]
mod tests {
    use crate::mock::{self, http::HttpMock, llm::LlmStandIn};
    use std::sync::Arc;

    /// The runner's MCP executor (the official SDK's client) against the stub.
    #[tokio::test]
    async fn the_runners_mcp_executor_calls_the_stubs_tool() {
        let http = Arc::new(HttpMock::new(mock::http::Mode::Live, None).expect("mock"));
        let llm = Arc::new(LlmStandIn {
            seed: 0,
            variation_pct: 0,
        });
        let (_, backends) = mock::serve(http, llm).await.expect("serve");
        let mut config = cowboy_runner::RunnerConfig::template(
            "http://127.0.0.1:1",
            "runner",
            "127.0.0.1:9".parse().expect("addr"),
            0,
        );
        config.http.allow_private_addresses = true;
        let exec = cowboy_runner::exec::Backends::new(config).expect("backends");
        let spec: cowboy_types::job::JobSpec = serde_json::from_value(serde_json::json!({
            "input": {"mcp": {"server": backends.mcp, "tool": "echo", "arguments": "{\"q\": 1}"}},
            "bounds": {"max_wall_ms": 10_000},
            "schema": {"max_return_bytes": 1024, "expected_execution_ms": 100, "data_format": {"json": {}}},
            "verification": {"mode": {"none": {}}},
            "max_price": "1",
            "timeout_blocks": 20,
            "callback": {"actor": "0x0000000000000000000000000000000000000001", "handler": "h"}
        }))
        .expect("spec");
        let out = cowboy_runner::exec::execute(&spec, &exec, None).await;
        assert_eq!(out.fault, None, "{:?}", out.note);
        let v: serde_json::Value = serde_json::from_slice(&out.result).expect("json");
        assert_eq!(
            v,
            serde_json::json!({"tool": "echo", "arguments": {"q": 1}})
        );
    }
}
