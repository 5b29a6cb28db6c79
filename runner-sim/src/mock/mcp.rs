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
