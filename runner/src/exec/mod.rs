//! Executors: run a job's input within its bounds and produce what the runner commits to — the
//! result bytes, the usage it reports, an embedding for `semantic_similarity` jobs, or a fault
//! when the work could not be done for a reason outside the runner.
//!
//! Bounds are enforced here, not trusted to the backend: the wall time (`max_wall_ms`), the
//! bytes read and returned (`max_return_bytes`), the tokens (`max_tokens`) and, for custom
//! commands, the memory. A result the chain would find invalid (not JSON, failing the job's
//! schema, missing its vote field) is reported as an external fault instead of being revealed
//! and losing reputation.

pub mod custom;
pub mod guard;
pub mod http;
pub mod llm;
pub mod mcp;

use crate::config::RunnerConfig;
use cowboy_types::job::{Fault, FaultKind, JobInput, JobSpec};
use std::time::{Duration, Instant};

/// What running a job produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: Vec<u8>,
    pub tokens: u64,
    pub ms: u64,
    pub embedding: Vec<i16>,
    pub fault: Option<Fault>,
    /// Why there is a fault, for the logs.
    pub note: Option<String>,
}

impl Outcome {
    /// A fault of `kind` with no progress.
    pub fn fault(kind: FaultKind, ms: u64, note: impl Into<String>) -> Self {
        Self {
            result: Vec::new(),
            tokens: 0,
            ms,
            embedding: Vec::new(),
            fault: Some(Fault {
                kind,
                progress_bps: 0,
            }),
            note: Some(note.into()),
        }
    }
}

/// What an executor returns before the common checks.
pub struct Produced {
    pub result: Vec<u8>,
    pub tokens: u64,
}

/// Why an executor failed.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The source failed (down, an error status, a malformed answer).
    #[error("{0}")]
    External(String),
    /// The job's bounds were too tight (the result or the body is larger than allowed).
    #[error("{0}")]
    Bounds(String),
    /// This runner cannot run the job (no backend configured for it).
    #[error("{0}")]
    Unsupported(String),
}

/// The backends every executor shares: the guarded client for URLs jobs and other runners
/// name, and a plain one for the operator's own endpoints (the LLM server, `http.via`).
#[derive(Clone)]
pub struct Backends {
    pub config: RunnerConfig,
    pub http: reqwest::Client,
    pub operator: reqwest::Client,
}

impl Backends {
    pub fn new(config: RunnerConfig) -> Result<Self, reqwest::Error> {
        let http = guard::client(config.http.allow_private_addresses)?;
        let operator = guard::client(true)?;
        Ok(Self {
            config,
            http,
            operator,
        })
    }

    /// Refuses a URL a job names unless it may be fetched (see [`guard`]).
    pub fn check_url(&self, url: &str) -> Result<(), ExecError> {
        let parsed: reqwest::Url = url
            .parse()
            .map_err(|e| ExecError::External(format!("{url} is not a URL: {e}")))?;
        if self.config.http.allow_private_addresses {
            return Ok(());
        }
        guard::check_url(&parsed).map_err(ExecError::External)
    }
}

/// Runs `spec` within its bounds, and within `time_left` when given (the time to the job's
/// commit deadline: work that cannot be committed in time is reported as bounds too tight).
pub async fn execute(spec: &JobSpec, backends: &Backends, time_left: Option<Duration>) -> Outcome {
    let started = Instant::now();
    let bound = Duration::from_millis(spec.bounds.max_wall_ms.max(1));
    let wall = time_left.map_or(bound, |t| t.min(bound));
    let run = async {
        match &spec.input {
            JobInput::Http(h) => http::run(h, spec, backends).await,
            JobInput::Llm(l) => llm::run(l, spec, backends).await,
            JobInput::Mcp(m) => mcp::run(m, spec, backends).await,
            JobInput::Custom(c) => custom::run(c, spec, backends).await,
        }
    };
    let produced = tokio::time::timeout(wall, run).await;
    let ms = (started.elapsed().as_millis() as u64).min(spec.bounds.max_wall_ms);
    let produced = match produced {
        Err(_) if wall < bound => {
            return Outcome::fault(
                FaultKind::BoundsTooTight,
                ms,
                format!(
                    "the job was still running {} ms in, when its commit deadline was near",
                    wall.as_millis()
                ),
            );
        }
        Err(_) => {
            return Outcome::fault(
                FaultKind::BoundsTooTight,
                ms,
                format!(
                    "the job ran past its max_wall_ms ({} ms)",
                    spec.bounds.max_wall_ms
                ),
            );
        }
        Ok(Err(ExecError::External(e))) | Ok(Err(ExecError::Unsupported(e))) => {
            return Outcome::fault(FaultKind::External, ms, e);
        }
        Ok(Err(ExecError::Bounds(e))) => return Outcome::fault(FaultKind::BoundsTooTight, ms, e),
        Ok(Ok(p)) => p,
    };
    let max = spec.schema.max_return_bytes as usize;
    if produced.result.len() > max {
        return Outcome::fault(
            FaultKind::BoundsTooTight,
            ms,
            format!(
                "the result is {} bytes, above the job's max_return_bytes ({max})",
                produced.result.len()
            ),
        );
    }
    let mut outcome = Outcome {
        result: produced.result,
        // The chain believes no more than the bounds.
        tokens: produced.tokens.min(spec.bounds.max_tokens),
        ms,
        embedding: Vec::new(),
        fault: None,
        note: None,
    };
    if matches!(
        spec.verification.mode,
        cowboy_types::job::VerificationMode::SemanticSimilarity { .. }
    ) {
        match llm::embed(&outcome.result, backends).await {
            Ok(e) => outcome.embedding = e,
            Err(e) => return Outcome::fault(FaultKind::External, ms, e.to_string()),
        }
    }
    let checker = cowboy_execution::runners::verification::Checker::new(spec);
    if checker
        .agreement(&outcome.result, &outcome.embedding, None)
        .is_none()
    {
        return Outcome::fault(
            FaultKind::External,
            ms,
            "the source's answer is not a valid result for the job (format, schema or verification field)",
        );
    }
    outcome
}
