//! A deterministic stand-in for an OpenAI-compatible server (`/llm/{runner}/v1/chat/completions`
//! and `/embeddings`): the reply is a function of the seed and the conversation, so honest
//! runners agree, except that with `variation_pct` percent chance per runner and conversation
//! a runner gets a nearby variant — to exercise `structured_match` tolerances and
//! `semantic_similarity` clusters.
//!
//! A conversation that mentions JSON gets `{"verdict": "pass"|"fail", "score": 0..100}`; any
//! other gets a sentence. Embeddings are 64 components from the text's hash, with small noise
//! for a varying runner.

use axum::{
    Json, Router,
    extract::{Path, State},
    routing::post,
};
use cowboy_types::keccak256;
use serde_json::{Value, json};
use std::sync::Arc;

pub struct LlmStandIn {
    pub seed: u64,
    pub variation_pct: u64,
}

impl LlmStandIn {
    fn hash(&self, parts: &[&[u8]]) -> [u8; 32] {
        let mut data = b"cowboy-sim-llm:".to_vec();
        data.extend_from_slice(&self.seed.to_be_bytes());
        for p in parts {
            data.extend_from_slice(&(p.len() as u64).to_be_bytes());
            data.extend_from_slice(p);
        }
        keccak256(&data).0
    }

    /// Whether `runner` gets a variant for `text`.
    fn varies(&self, runner: u64, text: &[u8]) -> bool {
        let h = self.hash(&[b"vary", &runner.to_be_bytes(), text]);
        u64::from(u16::from_be_bytes([h[0], h[1]])) * 100 / 65_536 < self.variation_pct
    }

    /// The reply to `conversation` for `runner`.
    pub fn reply(&self, runner: u64, conversation: &str) -> String {
        let h = self.hash(&[b"reply", conversation.as_bytes()]);
        let vary = self.varies(runner, conversation.as_bytes());
        if conversation.to_ascii_lowercase().contains("json") {
            let verdict = if h[0].is_multiple_of(2) {
                "pass"
            } else {
                "fail"
            };
            let mut score = i64::from(h[1] % 90) + 5;
            if vary {
                score += i64::from(h[2] % 5) + 1;
            }
            json!({"verdict": verdict, "score": score}).to_string()
        } else {
            const WORDS: [&str; 8] = [
                "the", "answer", "is", "clearly", "forty", "two", "indeed", "probably",
            ];
            let n = 6 + usize::from(h[3] % 6);
            let mut words: Vec<&str> = (0..n).map(|i| WORDS[usize::from(h[4 + i]) % 8]).collect();
            if vary {
                words.push("perhaps");
            }
            words.join(" ")
        }
    }

    /// A 64-component embedding of `text` (noisy when the runner varies).
    pub fn embedding(&self, runner: u64, text: &str) -> Vec<f64> {
        let vary = self.varies(runner, text.as_bytes());
        (0..64u64)
            .map(|i| {
                let h = self.hash(&[b"embed", text.as_bytes(), &i.to_be_bytes()]);
                let mut x = f64::from(h[0]) - 127.5;
                if vary {
                    let n = self.hash(&[b"noise", &runner.to_be_bytes(), &i.to_be_bytes()]);
                    x += (f64::from(n[0]) - 127.5) / 16.0;
                }
                x
            })
            .collect()
    }
}

fn conversation(body: &Value) -> String {
    body.get("messages")
        .and_then(Value::as_array)
        .map(|m| {
            m.iter()
                .filter_map(|x| x.get("content").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

async fn chat(
    State(s): State<Arc<LlmStandIn>>,
    Path(runner): Path<u64>,
    Json(body): Json<Value>,
) -> Json<Value> {
    let text = s.reply(runner, &conversation(&body));
    let max = body
        .get("max_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(256);
    let completion = (text.split_whitespace().count() as u64).min(max);
    let prompt = conversation(&body).split_whitespace().count() as u64;
    Json(json!({
        "id": "chatcmpl-sim",
        "object": "chat.completion",
        "model": body.get("model").cloned().unwrap_or(Value::Null),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    }))
}

async fn embeddings(
    State(s): State<Arc<LlmStandIn>>,
    Path(runner): Path<u64>,
    Json(body): Json<Value>,
) -> Json<Value> {
    let input = body
        .get("input")
        .and_then(Value::as_str)
        .unwrap_or_default();
    Json(json!({
        "object": "list",
        "data": [{"object": "embedding", "index": 0, "embedding": s.embedding(runner, input)}],
        "model": body.get("model").cloned().unwrap_or(Value::Null),
    }))
}

pub fn router(s: Arc<LlmStandIn>) -> Router {
    Router::new()
        .route("/llm/{runner}/v1/chat/completions", post(chat))
        .route("/llm/{runner}/v1/embeddings", post(embeddings))
        .with_state(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_deterministic_and_vary_only_with_the_knob() {
        let steady = LlmStandIn {
            seed: 1,
            variation_pct: 0,
        };
        assert_eq!(
            steady.reply(0, "judge as JSON"),
            steady.reply(5, "judge as JSON")
        );
        let v: Value = serde_json::from_str(&steady.reply(0, "judge as JSON")).expect("json");
        assert!(v["score"].is_i64());
        let wild = LlmStandIn {
            seed: 1,
            variation_pct: 100,
        };
        assert_ne!(wild.reply(0, "hello"), steady.reply(0, "hello"));
    }
}
