//! The LLM executor: the OpenAI-compatible chat-completions API (llama.cpp's server, vLLM,
//! Ollama) at the configured base URL, with the job's model (mapped from its on-chain id to the
//! server's name), messages, temperature, seed and max tokens; and embeddings through the same
//! API for `semantic_similarity` jobs, quantised to the chain's Q1.15 components.

use super::{Backends, ExecError, Produced};
use cowboy_types::job::{JobSpec, LlmRequest, MAX_EMBEDDING_DIM};
use serde_json::{Value, json};

fn post(
    backends: &Backends,
    path: &str,
    body: &Value,
) -> Result<reqwest::RequestBuilder, ExecError> {
    let llm = backends.config.llm.as_ref().ok_or_else(|| {
        ExecError::Unsupported("this runner has no [llm] backend configured".into())
    })?;
    let url = format!("{}/{path}", llm.base_url.trim_end_matches('/'));
    let mut builder = backends.operator.post(url).json(body);
    if let Some(var) = &llm.api_key_env
        && let Ok(key) = std::env::var(var)
    {
        builder = builder.bearer_auth(key);
    }
    Ok(builder)
}

async fn answer(builder: reqwest::RequestBuilder, what: &str) -> Result<Value, ExecError> {
    let response = builder
        .send()
        .await
        .map_err(|e| ExecError::External(format!("{what}: {e}")))?;
    let status = response.status();
    if !status.is_success() {
        let text = response.text().await.unwrap_or_default();
        return Err(ExecError::External(format!(
            "{what} answered {status}: {}",
            text.chars().take(200).collect::<String>()
        )));
    }
    response
        .json()
        .await
        .map_err(|e| ExecError::External(format!("{what} answered something other than JSON: {e}")))
}

pub async fn run(
    request: &LlmRequest,
    spec: &JobSpec,
    backends: &Backends,
) -> Result<Produced, ExecError> {
    let model = backends
        .config
        .llm
        .as_ref()
        .and_then(|l| l.models.get(&request.model))
        .ok_or_else(|| {
            ExecError::Unsupported(format!(
                "model {} is not in this runner's [llm.models]",
                request.model
            ))
        })?;
    let max_tokens = match spec.bounds.max_tokens {
        0 => u64::from(request.max_tokens),
        bound => u64::from(request.max_tokens).min(bound),
    };
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| json!({"role": m.role.name(), "content": m.content.as_str()}))
        .collect();
    let mut body = json!({
        "model": model,
        "messages": messages,
        "max_tokens": max_tokens,
        "temperature": f64::from(request.temperature_milli) / 1000.0,
    });
    if let Some(seed) = request.seed {
        body["seed"] = json!(seed);
    }
    let reply = answer(
        post(backends, "chat/completions", &body)?,
        "chat/completions",
    )
    .await?;
    let content = reply
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            ExecError::External(
                "chat/completions answered without choices[0].message.content".into(),
            )
        })?;
    let tokens = reply
        .pointer("/usage/total_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    Ok(Produced {
        result: content.as_bytes().to_vec(),
        tokens,
    })
}

/// The embedding of `text` by the configured embedding model, as Q1.15 components of the
/// unit vector (each `round(x / |x| × 32,767)`).
pub async fn embed(text: &[u8], backends: &Backends) -> Result<Vec<i16>, ExecError> {
    let model = backends
        .config
        .llm
        .as_ref()
        .and_then(|l| l.embedding_model.as_ref())
        .ok_or_else(|| {
            ExecError::Unsupported(
                "semantic_similarity jobs need [llm] embedding_model in the runner's configuration"
                    .into(),
            )
        })?;
    let body = json!({"model": model, "input": String::from_utf8_lossy(text)});
    let reply = answer(post(backends, "embeddings", &body)?, "embeddings").await?;
    let vector: Vec<f64> = reply
        .pointer("/data/0/embedding")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    quantise(&vector).ok_or_else(|| {
        ExecError::External(format!(
            "embeddings answered no usable vector (1 to {MAX_EMBEDDING_DIM} finite numbers, not all zero)"
        ))
    })
}

/// Q1.15 components of `v`'s unit vector, or `None` when it is empty, too long, zero or not
/// finite.
pub fn quantise(v: &[f64]) -> Option<Vec<i16>> {
    if v.is_empty() || v.len() > MAX_EMBEDDING_DIM || v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm == 0.0 {
        return None;
    }
    Some(
        v.iter()
            .map(|x| (x / norm * 32_767.0).round().clamp(-32_767.0, 32_767.0) as i16)
            .collect(),
    )
}
