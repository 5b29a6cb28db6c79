//! The HTTP executor: the job's request (method, headers, body) with reqwest, the response
//! body read up to the runner's cap, a non-2xx status reported as an external fault, then the
//! extraction rules ([`crate::extract`]).

use super::{Backends, ExecError, Produced};
use cowboy_types::job::{HttpMethod, HttpRequest, JobSpec};

/// The header naming the job's URL when requests go through `http.via`.
pub const VIA_HEADER: &str = "x-cowboy-url";

pub async fn run(
    request: &HttpRequest,
    _spec: &JobSpec,
    backends: &Backends,
) -> Result<Produced, ExecError> {
    let method = match request.method {
        HttpMethod::Get => reqwest::Method::GET,
        HttpMethod::Post => reqwest::Method::POST,
        HttpMethod::Put => reqwest::Method::PUT,
        HttpMethod::Patch => reqwest::Method::PATCH,
        HttpMethod::Delete => reqwest::Method::DELETE,
        HttpMethod::Head => reqwest::Method::HEAD,
    };
    backends.check_url(&request.url)?;
    let mut builder = match &backends.config.http.via {
        Some(via) => backends
            .operator
            .request(method, via.as_str())
            .header(VIA_HEADER, request.url.as_str()),
        None => backends.http.request(method, request.url.as_str()),
    };
    for h in request.headers.iter() {
        builder = builder.header(h.name.as_str(), h.value.as_str());
    }
    if !request.body.is_empty() {
        builder = builder.body(request.body.to_vec());
    }
    let response = builder
        .send()
        .await
        .map_err(|e| ExecError::External(format!("{} {}: {e}", request.method, request.url)))?;
    let status = response.status();
    if !status.is_success() {
        return Err(ExecError::External(format!(
            "{} {} answered {status}",
            request.method, request.url
        )));
    }
    let cap = backends.config.http.max_body_bytes;
    if response.content_length().is_some_and(|n| n > cap) {
        return Err(ExecError::Bounds(format!(
            "the response body is {} bytes, above this runner's http.max_body_bytes ({cap})",
            response.content_length().unwrap_or(0)
        )));
    }
    let mut body = Vec::new();
    let mut response = response;
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| ExecError::External(format!("reading the body: {e}")))?
    {
        if body.len() as u64 + chunk.len() as u64 > cap {
            return Err(ExecError::Bounds(format!(
                "the response body is above this runner's http.max_body_bytes ({cap})"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    // Off the async workers: a regular expression or selector over a large body takes time
    // (the job's wall-time limit still ends the wait).
    let rules: Vec<String> = request.extract.iter().map(|r| r.to_string()).collect();
    let result = tokio::task::spawn_blocking(move || {
        let rules: Vec<&str> = rules.iter().map(String::as_str).collect();
        crate::extract::extract(&rules, &body)
    })
    .await
    .map_err(|e| ExecError::External(format!("extraction stopped: {e}")))?
    .map_err(|e| ExecError::External(e.to_string()))?;
    Ok(Produced { result, tokens: 0 })
}
