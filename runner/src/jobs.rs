//! Jobs from the submitter's side, shared by `cowboy job` and `cowboy runner-sim`: reading a
//! spec file (JSON or TOML) with errors that name the field, waiting for a job to finish with
//! the node's long polls, the vote histogram of a job's reveals, and a job's timeline as the
//! changes between two views of its record.

use cowboy_rpc::{CowboyApiClient, MAX_WAIT_MS};
use cowboy_types::{
    Address, Hash,
    job::{JobRecord, JobSpec, JobStatus},
    keccak256,
};
use serde::Serialize;
use std::{
    path::Path,
    time::{Duration, Instant},
};

/// Why a spec file is refused.
#[derive(Debug, thiserror::Error)]
pub enum SpecFileError {
    #[error("cannot read {path}: {message}")]
    Read { path: String, message: String },
    #[error("{path} is not {format}: {message}")]
    Syntax {
        path: String,
        format: &'static str,
        message: String,
    },
    #[error("{path}: {field}: {message}")]
    Field {
        path: String,
        field: String,
        message: String,
    },
    #[error("{path}: the job spec is invalid: {message}")]
    Invalid { path: String, message: String },
}

/// Reads the job spec in `path` (`.toml`, else JSON), in the chain's JSON form, and checks it
/// as submission will (the spec's rules, the verification's, and that each extraction rule's
/// expression compiles).
pub fn load_spec(path: &Path) -> Result<JobSpec, SpecFileError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| SpecFileError::Read {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    let value: serde_json::Value = if path.extension().is_some_and(|e| e == "toml") {
        toml::from_str(&text).map_err(|e| SpecFileError::Syntax {
            path: shown.clone(),
            format: "TOML",
            message: e.to_string(),
        })?
    } else {
        serde_json::from_str(&text).map_err(|e| SpecFileError::Syntax {
            path: shown.clone(),
            format: "JSON",
            message: e.to_string(),
        })?
    };
    let spec: JobSpec =
        serde_path_to_error::deserialize(value).map_err(|e| SpecFileError::Field {
            path: shown.clone(),
            field: e.path().to_string(),
            message: e.inner().to_string(),
        })?;
    check_spec(&spec).map_err(|message| SpecFileError::Invalid {
        path: shown,
        message,
    })?;
    Ok(spec)
}

/// The checks submission applies, plus compiling extraction expressions (which the chain
/// leaves to runners).
pub fn check_spec(spec: &JobSpec) -> Result<(), String> {
    spec.validate().map_err(|e| e.to_string())?;
    cowboy_execution::runners::verification::check_spec(spec)?;
    if let cowboy_types::job::JobInput::Http(h) = &spec.input {
        for rule in h.extract.iter() {
            crate::extract::compile(rule).map_err(|e| format!("input.http.extract: {e}"))?;
        }
    }
    Ok(())
}

/// Whether `status` is one a submitter waits for: a result delivered, or a failure.
pub fn finished(status: JobStatus) -> bool {
    matches!(
        status,
        JobStatus::Verified | JobStatus::Settled | JobStatus::Failed
    )
}

/// Follows job `id` block by block (long polls) until `done(record)` or `timeout`; calls
/// `each` with every new view of the record. Returns the last view (`None`: no such job).
pub async fn follow<C: CowboyApiClient + Sync>(
    client: &C,
    id: Hash,
    timeout: Duration,
    done: impl Fn(&JobRecord) -> bool,
    mut each: impl FnMut(Option<&JobRecord>, &JobRecord),
) -> Result<Option<JobRecord>, cowboy_rpc::jsonrpsee::core::ClientError> {
    let deadline = Instant::now() + timeout;
    let mut height = client.status().await?.height;
    let mut last: Option<JobRecord> = None;
    loop {
        let Some(job) = client.job(id).await? else {
            return Ok(last);
        };
        if last.as_ref() != Some(&job) {
            each(last.as_ref(), &job);
        }
        if done(&job) {
            return Ok(Some(job));
        }
        last = Some(job);
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(last);
        }
        let wait = (left.as_millis() as u64).clamp(1, MAX_WAIT_MS);
        if let Some(b) = client.wait_for_block(height, Some(wait)).await? {
            height = b.height;
        }
    }
}

/// Runners that revealed the same result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Vote {
    /// keccak256 of the result bytes.
    pub result_hash: Hash,
    /// The result as text when it is UTF-8 (at most 200 characters).
    pub preview: String,
    pub runners: Vec<Address>,
    /// Whether the verifier found it a valid result.
    pub valid: bool,
}

/// The job's reveals grouped by result, largest group first.
pub fn votes(job: &JobRecord) -> Vec<Vote> {
    let mut out: Vec<Vote> = Vec::new();
    for r in job.reveals.iter() {
        let hash = keccak256(&r.result);
        match out.iter_mut().find(|v| v.result_hash == hash) {
            Some(v) => v.runners.push(r.runner),
            None => out.push(Vote {
                result_hash: hash,
                preview: String::from_utf8(r.result.to_vec())
                    .map(|t| t.chars().take(200).collect())
                    .unwrap_or_else(|_| format!("{} bytes", r.result.len())),
                runners: vec![r.runner],
                valid: r.agreement.is_some(),
            }),
        }
    }
    out.sort_by_key(|v| std::cmp::Reverse(v.runners.len()));
    out
}

/// What changed from `before` to `after`, one line per event.
pub fn changes(before: Option<&JobRecord>, after: &JobRecord) -> Vec<String> {
    let mut out = Vec::new();
    let Some(b) = before else {
        out.push(format!(
            "{}: submitted by {} at height {}",
            after.status, after.submitter, after.submitted_at
        ));
        for d in after.draws.iter() {
            out.push(draw_line(d));
        }
        return out;
    };
    for d in after.draws.iter().skip(b.draws.len()) {
        out.push(draw_line(d));
    }
    let old: Vec<Address> = b.commitments.iter().map(|c| c.runner).collect();
    for c in after
        .commitments
        .iter()
        .filter(|c| !old.contains(&c.runner))
    {
        out.push(format!("commit  {} ({})", c.runner, c.hash));
    }
    let old: Vec<Address> = b.reveals.iter().map(|r| r.runner).collect();
    for r in after.reveals.iter().filter(|r| !old.contains(&r.runner)) {
        out.push(format!(
            "reveal  {} {} bytes{}",
            r.runner,
            r.result.len(),
            if r.agreement.is_none() {
                " (not a valid result)"
            } else {
                ""
            }
        ));
    }
    for a in after.slashed.iter().filter(|a| !b.slashed.contains(a)) {
        out.push(format!("slashed {a}"));
    }
    for a in after.excluded.iter().filter(|a| !b.excluded.contains(a)) {
        out.push(format!(
            "timeout {a} (did not commit; excluded from the job)"
        ));
    }
    if b.status != after.status {
        let mut line = format!("status  {} → {}", b.status, after.status);
        if !after.failure.is_empty() {
            line.push_str(&format!(": {}", after.failure.as_str()));
        }
        out.push(line);
    }
    if b.result.is_none()
        && let Some(r) = &after.result
    {
        out.push(format!(
            "result  {}",
            String::from_utf8(r.to_vec())
                .unwrap_or_else(|_| format!("0x{}", hex::encode(r.as_slice())))
        ));
    }
    if b.payouts.is_empty() && !after.payouts.is_empty() {
        for p in after.payouts.iter() {
            out.push(format!("payout  {} {} base units", p.runner, p.amount));
        }
    }
    out
}

fn draw_line(d: &cowboy_types::job::Draw) -> String {
    let committee: Vec<String> = d.committee.iter().map(|a| a.to_string()).collect();
    format!(
        "draw {} at round ({}, {}): committee [{}], aggregator {}",
        d.retry,
        d.round_epoch,
        d.round_view,
        committee.join(", "),
        d.aggregator
    )
}

/// A job described by a few flags (`cowboy job submit --http URL …`) instead of a spec file:
/// built into the chain's JSON form, then read and checked exactly as a file is.
#[derive(Clone, Debug, Default)]
pub struct QuickSpec {
    /// An HTTP job: its URL, method, `Name: value` headers, body and extraction rules.
    pub http: Option<String>,
    pub method: Option<String>,
    pub headers: Vec<String>,
    pub body: Option<String>,
    pub extract: Vec<String>,
    /// An LLM job: the model id, the prompt and an optional system message.
    pub llm: Option<Hash>,
    pub prompt: Option<String>,
    pub system: Option<String>,
    pub max_tokens: u32,
    /// An MCP job: the server URL, the tool and its arguments (a JSON object).
    pub mcp: Option<String>,
    pub tool: Option<String>,
    pub arguments: Option<String>,
    /// `none`, `economic_bond`, `majority_vote` (with `vote_field`) or `deterministic`.
    pub mode: String,
    pub vote_field: Option<String>,
    pub runners: u8,
    pub threshold: u8,
    pub max_price: u64,
    pub tip: u64,
    pub timeout_blocks: u64,
    pub max_wall_ms: u64,
    pub max_return_bytes: u32,
    /// `json`, `text` or `bytes`.
    pub format: String,
    /// `ACTOR.HANDLER` receiving the result, and what delivering it may cost.
    pub callback: String,
    pub callback_fee: u64,
}

/// `{"name": {}}`: a unit variant in the chain's JSON form.
fn tagged(name: &str) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert(name.to_string(), serde_json::json!({}));
    serde_json::Value::Object(m)
}

impl QuickSpec {
    /// The spec, or what is wrong with the flags.
    pub fn build(&self) -> Result<JobSpec, String> {
        use serde_json::{Value, json};
        let input = match (&self.http, &self.llm, &self.mcp) {
            (Some(url), None, None) => {
                let headers = self
                    .headers
                    .iter()
                    .map(|h| {
                        h.split_once(':')
                            .map(|(n, v)| json!({"name": n.trim(), "value": v.trim()}))
                            .ok_or_else(|| format!("--header {h:?} is not \"Name: value\""))
                    })
                    .collect::<Result<Vec<Value>, String>>()?;
                let body = self.body.as_deref().unwrap_or("");
                json!({"http": {
                    "method": self.method.as_deref().unwrap_or("GET"),
                    "url": url,
                    "headers": headers,
                    "body": format!("0x{}", hex::encode(body.as_bytes())),
                    "extract": self.extract,
                }})
            }
            (None, Some(model), None) => {
                let prompt = self
                    .prompt
                    .as_ref()
                    .ok_or("an LLM job needs --prompt TEXT")?;
                let mut messages = Vec::new();
                if let Some(s) = &self.system {
                    messages.push(json!({"role": "system", "content": s}));
                }
                messages.push(json!({"role": "user", "content": prompt}));
                json!({"llm": {"model": model, "messages": messages, "max_tokens": self.max_tokens}})
            }
            (None, None, Some(server)) => json!({"mcp": {
                "server": server,
                "tool": self.tool.as_deref().ok_or("an MCP job needs --tool NAME")?,
                "arguments": self.arguments.as_deref().unwrap_or("{}"),
            }}),
            (None, None, None) => {
                return Err(
                    "say what to run: a spec file, or --http URL, --llm MODEL_ID or --mcp SERVER"
                        .into(),
                );
            }
            _ => return Err("give only one of --http, --llm and --mcp".into()),
        };
        let mode = match self.mode.as_str() {
            "majority_vote" => json!({"majority_vote": {
                "vote_field": self.vote_field.as_deref().ok_or("--mode majority_vote needs --vote-field POINTER")?,
            }}),
            m @ ("none" | "economic_bond" | "deterministic") => tagged(m),
            other => {
                return Err(format!(
                    "--mode {other:?}: use none, economic_bond, majority_vote or deterministic (other modes need a spec file)"
                ));
            }
        };
        let (actor, handler) = self
            .callback
            .rsplit_once('.')
            .ok_or_else(|| format!("--callback {:?} is not ACTOR.HANDLER", self.callback))?;
        let spec = json!({
            "input": input,
            "bounds": {"max_wall_ms": self.max_wall_ms, "max_tokens": if self.llm.is_some() { u64::from(self.max_tokens) } else { 0 }},
            "schema": {
                "max_return_bytes": self.max_return_bytes,
                "expected_execution_ms": (self.max_wall_ms / 2).max(1),
                "data_format": tagged(&self.format),
            },
            "verification": {"mode": mode, "runners": self.runners, "threshold": self.threshold},
            "max_price": self.max_price.to_string(),
            "tip": self.tip.to_string(),
            "timeout_blocks": self.timeout_blocks,
            "callback": {"actor": actor, "handler": handler, "max_fee": self.callback_fee.to_string()},
        });
        let spec: JobSpec = serde_path_to_error::deserialize(spec)
            .map_err(|e| format!("{}: {}", e.path(), e.inner()))?;
        check_spec(&spec)?;
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> QuickSpec {
        QuickSpec {
            http: Some("https://api.example.com/price".into()),
            extract: vec!["/usd".into()],
            mode: "majority_vote".into(),
            vote_field: Some("/usd".into()),
            runners: 3,
            max_price: 10_000_000,
            timeout_blocks: 20,
            max_wall_ms: 5_000,
            max_return_bytes: 1_024,
            format: "json".into(),
            callback: "0x0000000000000000000000000000000000000001.on_result".into(),
            callback_fee: 1_000_000_000,
            ..Default::default()
        }
    }

    #[test]
    fn flags_build_a_checked_spec_or_say_what_is_missing() {
        let spec = quick().build().expect("spec");
        assert_eq!(spec.verification.runners, 3);
        assert_eq!(spec.callback.handler.as_str(), "on_result");
        let mut q = quick();
        q.vote_field = None;
        assert!(q.build().unwrap_err().contains("--vote-field"));
        let mut q = quick();
        q.http = None;
        assert!(q.build().unwrap_err().contains("say what to run"));
        let mut q = quick();
        q.extract = vec!["x=re:(".into()];
        assert!(q.build().unwrap_err().contains("extraction rule"));
        let mut q = quick();
        q.callback = "nohandler".into();
        assert!(q.build().unwrap_err().contains("ACTOR.HANDLER"));
    }
}
