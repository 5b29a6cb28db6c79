//! The MCP executor: one tool call over Streamable HTTP with the official Rust MCP SDK
//! (`rmcp`). The result is the tool's structured content (JSON) when it gives one, else its
//! text content joined; a tool reporting an error is an external fault.

use super::{Backends, ExecError, Produced};
use cowboy_types::job::{JobSpec, McpRequest};
use rmcp::{
    ServiceExt as _, model::CallToolRequestParams, transport::StreamableHttpClientTransport,
};

pub async fn run(
    request: &McpRequest,
    _spec: &JobSpec,
    backends: &Backends,
) -> Result<Produced, ExecError> {
    let arguments: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&request.arguments)
            .map_err(|e| ExecError::External(format!("arguments are not a JSON object: {e}")))?;
    backends.check_url(&request.server)?;
    // The runner's guarded client (no private addresses, checked redirects).
    let transport = StreamableHttpClientTransport::with_client(
        backends.http.clone(),
        rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
            request.server.as_str(),
        ),
    );
    let client = ()
        .serve(transport)
        .await
        .map_err(|e| ExecError::External(format!("MCP server {}: {e}", request.server)))?;
    let call = client
        .call_tool(CallToolRequestParams::new(request.tool.to_string()).with_arguments(arguments))
        .await;
    // The session ends whatever the call did.
    let _ = client.cancel().await;
    let result = call.map_err(|e| {
        ExecError::External(format!(
            "MCP tool {} on {}: {e}",
            request.tool, request.server
        ))
    })?;
    if result.is_error == Some(true) {
        return Err(ExecError::External(format!(
            "MCP tool {} reported an error: {}",
            request.tool,
            texts(&result.content)
        )));
    }
    let bytes = match &result.structured_content {
        Some(v) => serde_json::to_vec(v).map_err(|e| ExecError::External(e.to_string()))?,
        None => texts(&result.content).into_bytes(),
    };
    Ok(Produced {
        result: bytes,
        tokens: 0,
    })
}

/// The text blocks of a tool's content, joined.
fn texts<T: serde::Serialize>(content: &T) -> String {
    let value = serde_json::to_value(content).unwrap_or_default();
    value
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(|t| t.as_str()))
                .collect::<Vec<_>>()
                .join("")
        })
        .unwrap_or_default()
}
