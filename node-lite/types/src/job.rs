//! A job for the runner market (CIP-2 §1–2, §9; whitepaper "Off-Chain Compute"): what to run
//! ([`JobInput`]: an HTTP request with extraction rules, an LLM request, an MCP tool call, or a
//! custom payload), its resource bounds, the mandatory result schema, how results are
//! verified, what it may cost, when it times out and whom to call back.
//!
//! Every length is bounded by its type ([`crate::bounded`]); [`JobSpec::validate`] applies the
//! rules that need more than one field, each with its own [`JobSpecError`], so a malformed spec
//! is refused at submission with a specific reason and costs only the fee.

use crate::{
    actor::is_handler_name,
    bounded::{Bytes, List, Text},
    codec::{positioned, read_discriminant},
    primitives::{Address, Hash},
    record,
    runner::{JobType, amount, codes},
};
use bytes::BufMut;
use commonware_codec::{Buf, EncodeSize, Error as CodecError, Read, Write};
use serde::{Deserialize, Serialize};

/// Largest on-chain result (whitepaper §5.4: "On-chain return data MUST be ≤ 64 KiB").
pub const MAX_RETURN_BYTES: u32 = 64 * 1024;
/// Longest `timeout_blocks` (Cowboy decision: one day of 1-second blocks).
pub const MAX_TIMEOUT_BLOCKS: u64 = 86_400;
/// Highest LLM temperature, in thousandths (2.0).
pub const MAX_TEMPERATURE_MILLI: u16 = 2_000;
/// Longest `bounds.max_wall_ms` (one hour): bounds prices and keeps rate-card products in range.
pub const MAX_WALL_MS: u64 = 3_600_000;
/// Most `bounds.max_tokens` (ten million).
pub const MAX_TOKENS: u64 = 10_000_000;
/// Largest committee a job may ask for (whitepaper §5.3 clips adaptive committees to 9; a job
/// may ask for more, up to this).
pub const MAX_COMMITTEE: u8 = 32;

codes! {
    /// An HTTP method.
    HttpMethod {
        Get = 0 => "GET",
        Post = 1 => "POST",
        Put = 2 => "PUT",
        Patch = 3 => "PATCH",
        Delete = 4 => "DELETE",
        Head = 5 => "HEAD",
    }
}

codes! {
    /// Who says a message in an LLM conversation.
    ChatRole {
        System = 0 => "system",
        User = 1 => "user",
        Assistant = 2 => "assistant",
    }
}

codes! {
    /// How results from mutable external data are combined (whitepaper "External Data and
    /// Oracle Semantics").
    SnapshotMode {
        FirstValid = 0 => "first_valid",
        Median = 1 => "median",
        Majority = 2 => "majority",
        Latest = 3 => "latest",
    }
}

record! {
    /// One HTTP header.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct HttpHeader {
        pub name: Text<64>,
        pub value: Text<1024>,
    }
}

record! {
    /// An HTTP request and what to extract from its response ([`crate::extract`] rules; none
    /// means the whole body).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct HttpRequest {
        pub method: HttpMethod,
        pub url: Text<2048>,
        #[serde(default)]
        pub headers: List<HttpHeader, 32>,
        #[serde(default)]
        pub body: Bytes<16384>,
        #[serde(default)]
        pub extract: List<Text<256>, 16>,
    }
}

record! {
    /// One message of an LLM conversation.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct ChatMessage {
        pub role: ChatRole,
        pub content: Text<32768>,
    }
}

record! {
    /// An LLM inference: the model (whitepaper §5.1 model id), the conversation, the most
    /// tokens to generate, the temperature in thousandths and an optional sampling seed.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct LlmRequest {
        pub model: Hash,
        pub messages: List<ChatMessage, 64>,
        pub max_tokens: u32,
        #[serde(default)]
        pub temperature_milli: u16,
        #[serde(default)]
        pub seed: Option<u64>,
    }
}

record! {
    /// A tool call on an MCP server; `arguments` is a JSON object.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct McpRequest {
        pub server: Text<2048>,
        pub tool: Text<128>,
        pub arguments: Text<16384>,
    }
}

record! {
    /// An application-defined job: a kind runners recognise and its payload.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct CustomRequest {
        pub kind: Text<128>,
        #[serde(default)]
        pub payload: Bytes<16384>,
    }
}

/// What the job runs; the variant is the job type (so a type and an input cannot disagree).
/// Encoded as the job type's code then the request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobInput {
    Llm(LlmRequest),
    Http(HttpRequest),
    Mcp(McpRequest),
    Custom(CustomRequest),
}

impl JobInput {
    pub fn job_type(&self) -> JobType {
        match self {
            Self::Llm(_) => JobType::Llm,
            Self::Http(_) => JobType::Http,
            Self::Mcp(_) => JobType::Mcp,
            Self::Custom(_) => JobType::Custom,
        }
    }
}

impl Write for JobInput {
    fn write(&self, buf: &mut impl BufMut) {
        self.job_type().write(buf);
        match self {
            Self::Llm(r) => r.write(buf),
            Self::Http(r) => r.write(buf),
            Self::Mcp(r) => r.write(buf),
            Self::Custom(r) => r.write(buf),
        }
    }
}
impl EncodeSize for JobInput {
    fn encode_size(&self) -> usize {
        1 + match self {
            Self::Llm(r) => r.encode_size(),
            Self::Http(r) => r.encode_size(),
            Self::Mcp(r) => r.encode_size(),
            Self::Custom(r) => r.encode_size(),
        }
    }
}
impl Read for JobInput {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(match JobType::read_cfg(buf, &())? {
            JobType::Llm => Self::Llm(LlmRequest::read_cfg(buf, &())?),
            JobType::Http => Self::Http(HttpRequest::read_cfg(buf, &())?),
            JobType::Mcp => Self::Mcp(McpRequest::read_cfg(buf, &())?),
            JobType::Custom => Self::Custom(CustomRequest::read_cfg(buf, &())?),
        })
    }
}

record! {
    /// Resource limits for execution (whitepaper "Runner Resource Accounting").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct ResourceBounds {
        pub max_wall_ms: u64,
        #[serde(default)]
        pub max_tokens: u64,
        #[serde(default)]
        pub max_memory_mb: u64,
    }
}

/// The shape of a result (CIP-2 §1 `data_format`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DataFormat {
    /// A JSON document, optionally checked against a JSON Schema.
    Json {
        #[serde(default)]
        schema: Option<Text<4096>>,
    },
    /// UTF-8 text.
    Text {},
    /// Any bytes.
    Bytes {},
}

impl Write for DataFormat {
    fn write(&self, buf: &mut impl BufMut) {
        match self {
            Self::Json { schema } => {
                buf.put_u8(0);
                schema.write(buf);
            }
            Self::Text {} => buf.put_u8(1),
            Self::Bytes {} => buf.put_u8(2),
        }
    }
}
impl EncodeSize for DataFormat {
    fn encode_size(&self) -> usize {
        1 + match self {
            Self::Json { schema } => schema.encode_size(),
            _ => 0,
        }
    }
}
impl Read for DataFormat {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        let start = buf.remaining();
        match read_discriminant(buf, "data_format")? {
            0 => Ok(Self::Json {
                schema: crate::codec::field(buf, "schema", |b| Option::read_cfg(b, &()))?,
            }),
            1 => Ok(Self::Text {}),
            2 => Ok(Self::Bytes {}),
            other => Err(positioned(
                "data_format",
                start,
                CodecError::InvalidEnum(other),
            )),
        }
    }
}

record! {
    /// The mandatory result schema (CIP-2 §1).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct ResultSchema {
        /// At most 64 KiB on chain.
        pub max_return_bytes: u32,
        /// What the runner should expect to spend (at most `bounds.max_wall_ms`).
        pub expected_execution_ms: u64,
        pub data_format: DataFormat,
    }
}

/// One check of the `StructuredMatch` pipeline (CIP-2 §9). `field` is an RFC 6901 JSON
/// pointer into the result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    /// The result satisfies the result schema's JSON Schema.
    JsonSchema {},
    /// The field is equal across the agreeing results.
    FieldMatch { field: Text<256> },
    /// The field's numbers are within `tolerance_bps` of their median.
    NumericTolerance {
        field: Text<256>,
        tolerance_bps: u32,
    },
    /// The field's number lies in `[min, max]`.
    NumericRange {
        field: Text<256>,
        min: i64,
        max: i64,
    },
    /// Each result's field takes the majority value.
    FieldMajority { field: Text<256> },
}

impl Write for Check {
    fn write(&self, buf: &mut impl BufMut) {
        match self {
            Self::JsonSchema {} => buf.put_u8(0),
            Self::FieldMatch { field } => {
                buf.put_u8(1);
                field.write(buf);
            }
            Self::NumericTolerance {
                field,
                tolerance_bps,
            } => {
                buf.put_u8(2);
                field.write(buf);
                tolerance_bps.write(buf);
            }
            Self::NumericRange { field, min, max } => {
                buf.put_u8(3);
                field.write(buf);
                min.write(buf);
                max.write(buf);
            }
            Self::FieldMajority { field } => {
                buf.put_u8(4);
                field.write(buf);
            }
        }
    }
}
impl EncodeSize for Check {
    fn encode_size(&self) -> usize {
        1 + match self {
            Self::JsonSchema {} => 0,
            Self::FieldMatch { field } | Self::FieldMajority { field } => field.encode_size(),
            Self::NumericTolerance { field, .. } => field.encode_size() + 4,
            Self::NumericRange { field, .. } => field.encode_size() + 16,
        }
    }
}
impl Read for Check {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        use crate::codec::field as f;
        let start = buf.remaining();
        Ok(match read_discriminant(buf, "check")? {
            0 => Self::JsonSchema {},
            1 => Self::FieldMatch {
                field: f(buf, "field", |b| Text::read_cfg(b, &()))?,
            },
            2 => Self::NumericTolerance {
                field: f(buf, "field", |b| Text::read_cfg(b, &()))?,
                tolerance_bps: f(buf, "tolerance_bps", |b| u32::read_cfg(b, &()))?,
            },
            3 => Self::NumericRange {
                field: f(buf, "field", |b| Text::read_cfg(b, &()))?,
                min: f(buf, "min", |b| i64::read_cfg(b, &()))?,
                max: f(buf, "max", |b| i64::read_cfg(b, &()))?,
            },
            4 => Self::FieldMajority {
                field: f(buf, "field", |b| Text::read_cfg(b, &()))?,
            },
            other => return Err(positioned("check", start, CodecError::InvalidEnum(other))),
        })
    }
}

/// How a job's results are verified (CIP-2 §9), with the least committee each needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum VerificationMode {
    /// One runner, no verification (development).
    None {},
    /// One runner backed by its stake.
    EconomicBond {},
    /// The majority value of `vote_field` wins with the threshold.
    MajorityVote { vote_field: Text<256> },
    /// A pipeline of checks.
    StructuredMatch { checks: List<Check, 16> },
    /// Byte-identical results (with a TEE).
    Deterministic {},
    /// The largest cluster of revealed embeddings whose cosine similarity is at least
    /// `threshold_bps`.
    SemanticSimilarity { threshold_bps: u32 },
}

impl VerificationMode {
    /// The mode's stable name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::None {} => "none",
            Self::EconomicBond {} => "economic_bond",
            Self::MajorityVote { .. } => "majority_vote",
            Self::StructuredMatch { .. } => "structured_match",
            Self::Deterministic {} => "deterministic",
            Self::SemanticSimilarity { .. } => "semantic_similarity",
        }
    }

    /// The least and most runners the mode works with (CIP-2 §9 table).
    pub fn committee_bounds(&self) -> (u8, u8) {
        match self {
            Self::None {} | Self::EconomicBond {} => (1, 1),
            Self::StructuredMatch { .. } | Self::Deterministic {} => (2, MAX_COMMITTEE),
            Self::MajorityVote { .. } | Self::SemanticSimilarity { .. } => (3, MAX_COMMITTEE),
        }
    }
}

impl Write for VerificationMode {
    fn write(&self, buf: &mut impl BufMut) {
        match self {
            Self::None {} => buf.put_u8(0),
            Self::EconomicBond {} => buf.put_u8(1),
            Self::MajorityVote { vote_field } => {
                buf.put_u8(2);
                vote_field.write(buf);
            }
            Self::StructuredMatch { checks } => {
                buf.put_u8(3);
                checks.write(buf);
            }
            Self::Deterministic {} => buf.put_u8(4),
            Self::SemanticSimilarity { threshold_bps } => {
                buf.put_u8(5);
                threshold_bps.write(buf);
            }
        }
    }
}
impl EncodeSize for VerificationMode {
    fn encode_size(&self) -> usize {
        1 + match self {
            Self::MajorityVote { vote_field } => vote_field.encode_size(),
            Self::StructuredMatch { checks } => checks.encode_size(),
            Self::SemanticSimilarity { .. } => 4,
            _ => 0,
        }
    }
}
impl Read for VerificationMode {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        use crate::codec::field as f;
        let start = buf.remaining();
        Ok(match read_discriminant(buf, "mode")? {
            0 => Self::None {},
            1 => Self::EconomicBond {},
            2 => Self::MajorityVote {
                vote_field: f(buf, "vote_field", |b| Text::read_cfg(b, &()))?,
            },
            3 => Self::StructuredMatch {
                checks: f(buf, "checks", |b| List::read_cfg(b, &()))?,
            },
            4 => Self::Deterministic {},
            5 => Self::SemanticSimilarity {
                threshold_bps: f(buf, "threshold_bps", |b| u32::read_cfg(b, &()))?,
            },
            other => return Err(positioned("mode", start, CodecError::InvalidEnum(other))),
        })
    }
}

record! {
    /// Verification: the mode, the committee size `runners` (M) and agreement `threshold`
    /// (N) — 0 for the committee parameters' defaults — whether runners must run in a TEE,
    /// and, for mutable external data, how results are combined.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct VerificationConfig {
        pub mode: VerificationMode,
        #[serde(default)]
        pub runners: u8,
        #[serde(default)]
        pub threshold: u8,
        #[serde(default)]
        pub tee_required: bool,
        #[serde(default)]
        pub snapshot: Option<SnapshotMode>,
    }
}

record! {
    /// Where the result is delivered: a handler of an actor, called with
    /// `(job_id, status, result, details)` in the block after the job is verified or fails,
    /// paid from `max_fee` (escrowed with the job; unused fee is refunded; 0 delivers
    /// nothing and the result is read with `job_status`).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Callback {
        pub actor: Address,
        pub handler: Text<128>,
        #[serde(default, with = "amount")]
        pub max_fee: u64,
    }
}

record! {
    /// A job as submitted (CIP-2 §2; `job_id`, `submitter` and `submitted_at` are assigned
    /// by the Job Dispatcher).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct JobSpec {
        pub input: JobInput,
        pub bounds: ResourceBounds,
        pub schema: ResultSchema,
        pub verification: VerificationConfig,
        /// The most the job may cost, in base units (decimal string in JSON).
        #[serde(with = "amount")]
        pub max_price: u64,
        /// Paid on success on top of the price.
        #[serde(default, with = "amount")]
        pub tip: u64,
        /// Blocks the selected runners have to commit.
        pub timeout_blocks: u64,
        pub callback: Callback,
        /// Only runners holding this pool's membership may be selected (CIP-2 §7.3).
        #[serde(default)]
        pub required_runner_pool: Option<Bytes<64>>,
    }
}

/// Why a job spec is refused: one variant per rule, naming the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JobSpecError {
    #[error("bounds.max_wall_ms is 0: a job needs time to run")]
    ZeroWallTime,
    #[error(
        "bounds.max_wall_ms or bounds.max_tokens is above its maximum ({MAX_WALL_MS} ms, {MAX_TOKENS} tokens)"
    )]
    BoundsTooLarge,
    #[error("max_price is 0: runners are paid at most max_price, so a job must offer something")]
    ZeroMaxPrice,
    #[error("timeout_blocks is {0}; it must be between 1 and {MAX_TIMEOUT_BLOCKS}")]
    Timeout(u64),
    #[error(
        "schema.max_return_bytes is {0}; it must be between 1 and {MAX_RETURN_BYTES} (64 KiB on chain)"
    )]
    ReturnBytes(u32),
    #[error(
        "schema.expected_execution_ms is {expected}; it must be between 1 and bounds.max_wall_ms ({max})"
    )]
    ExpectedTime { expected: u64, max: u64 },
    #[error("schema.data_format.json.schema is not a JSON object")]
    JsonSchema,
    #[error(
        "input.http.url \"{0}\" is not an http:// or https:// URL of printable ASCII with a host"
    )]
    HttpUrl(String),
    #[error(
        "input.http.headers has \"{0}\": a header name is letters, digits and '-' and a value is printable ASCII"
    )]
    HttpHeader(String),
    #[error("input.http: a {0} request carries no body")]
    HttpBody(HttpMethod),
    #[error("input.http.extract: {0}")]
    HttpExtract(#[from] crate::extract::ExtractError),
    #[error("input.llm.messages is empty: a conversation needs at least one message")]
    LlmNoMessages,
    #[error("input.llm.max_tokens is 0")]
    LlmZeroTokens,
    #[error("input.llm.max_tokens ({tokens}) is above bounds.max_tokens ({bound})")]
    LlmTokensAboveBound { tokens: u32, bound: u64 },
    #[error("input.llm.temperature_milli is {0}; at most {MAX_TEMPERATURE_MILLI} (2.0)")]
    LlmTemperature(u16),
    #[error(
        "input.mcp.server \"{0}\" is not an http:// or https:// URL of printable ASCII with a host"
    )]
    McpServer(String),
    #[error("input.mcp.tool is empty")]
    McpTool,
    #[error("input.mcp.arguments is not a JSON object")]
    McpArguments,
    #[error("input.custom.kind is empty")]
    CustomKind,
    #[error("verification.runners is {runners}; {mode} needs between {min} and {max}")]
    CommitteeSize {
        mode: &'static str,
        runners: u8,
        min: u8,
        max: u8,
    },
    #[error(
        "verification.threshold is {threshold} for {runners} runners; it must be more than half of them and at most all"
    )]
    Threshold { threshold: u8, runners: u8 },
    #[error(
        "verification.threshold is given without verification.runners; give both, or neither for the chain's defaults"
    )]
    ThresholdWithoutRunners,
    #[error("verification: deterministic needs tee_required = true (CIP-2 §9)")]
    DeterministicWithoutTee,
    #[error(
        "verification.mode has field \"{0}\": a field is a JSON pointer (\"\" or starting with '/')"
    )]
    Field(String),
    #[error("verification.mode.structured_match.checks is empty")]
    NoChecks,
    #[error(
        "verification.mode.structured_match: json_schema needs schema.data_format json with a schema"
    )]
    CheckWithoutSchema,
    #[error(
        "verification.mode.structured_match: numeric_tolerance tolerance_bps is {0}; at most 10000"
    )]
    Tolerance(u32),
    #[error("verification.mode.structured_match: numeric_range min {min} is above max {max}")]
    Range { min: i64, max: i64 },
    #[error(
        "verification.mode.semantic_similarity threshold_bps is {0}; it must be between 1 and 10000"
    )]
    Similarity(u32),
    #[error("verification.snapshot applies to http jobs only (mutable external data)")]
    SnapshotNotHttp,
    #[error("verification.snapshot {0} needs an extraction rule in input.http.extract to combine")]
    SnapshotWithoutExtract(SnapshotMode),
    #[error(
        "callback.handler \"{0}\" is not a handler name (letters, digits, '_'; not starting with '_' or a digit)"
    )]
    CallbackHandler(String),
    #[error("required_runner_pool is empty; omit it to allow any runner")]
    EmptyPool,
}

/// An `http://` or `https://` URL of printable ASCII with a host, without user info or
/// backslashes (which URL parsers disagree on, so runners and filters could see different
/// hosts).
fn http_url(u: &str) -> bool {
    let rest = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"));
    rest.is_some_and(|r| {
        let host = r.split(['/', '?', '#']).next().unwrap_or("");
        !host.is_empty() && !host.contains('@')
    }) && u.bytes().all(|b| b.is_ascii_graphic() && b != b'\\')
}

fn pointer(p: &str) -> bool {
    p.is_empty() || p.starts_with('/')
}

fn json_object(text: &str) -> bool {
    matches!(
        serde_json::from_str::<serde_json::Value>(text),
        Ok(serde_json::Value::Object(_))
    )
}

impl JobSpec {
    /// What submitting the job escrows: `max_price + tip` and twice `callback.max_fee` (one
    /// for the result's callback, one held for a dispute's until the job settles).
    pub fn escrow(&self) -> u64 {
        self.max_price
            .saturating_add(self.tip)
            .saturating_add(self.callback.max_fee.saturating_mul(2))
    }

    /// The job's type.
    pub fn job_type(&self) -> JobType {
        self.input.job_type()
    }

    /// Every rule a spec must meet before the dispatcher takes it (the chain adds what needs
    /// state: the callback actor, the committee defaults, the embedding model, the escrow).
    pub fn validate(&self) -> Result<(), JobSpecError> {
        use JobSpecError as E;
        let b = &self.bounds;
        if b.max_wall_ms == 0 {
            return Err(E::ZeroWallTime);
        }
        if b.max_wall_ms > MAX_WALL_MS || b.max_tokens > MAX_TOKENS {
            return Err(E::BoundsTooLarge);
        }
        if self.max_price == 0 {
            return Err(E::ZeroMaxPrice);
        }
        if self.timeout_blocks == 0 || self.timeout_blocks > MAX_TIMEOUT_BLOCKS {
            return Err(E::Timeout(self.timeout_blocks));
        }
        let s = &self.schema;
        if s.max_return_bytes == 0 || s.max_return_bytes > MAX_RETURN_BYTES {
            return Err(E::ReturnBytes(s.max_return_bytes));
        }
        if s.expected_execution_ms == 0 || s.expected_execution_ms > b.max_wall_ms {
            return Err(E::ExpectedTime {
                expected: s.expected_execution_ms,
                max: b.max_wall_ms,
            });
        }
        let schema = match &s.data_format {
            DataFormat::Json {
                schema: Some(schema),
            } => {
                if !json_object(schema) {
                    return Err(E::JsonSchema);
                }
                true
            }
            _ => false,
        };
        match &self.input {
            JobInput::Http(h) => {
                if !http_url(&h.url) {
                    return Err(E::HttpUrl(h.url.to_string()));
                }
                if let Some(bad) = h.headers.iter().find(|x| {
                    x.name.is_empty()
                        || !x
                            .name
                            .bytes()
                            .all(|c| c.is_ascii_alphanumeric() || c == b'-')
                        || !x.value.bytes().all(|c| c.is_ascii_graphic() || c == b' ')
                }) {
                    return Err(E::HttpHeader(bad.name.to_string()));
                }
                if matches!(h.method, HttpMethod::Get | HttpMethod::Head) && !h.body.is_empty() {
                    return Err(E::HttpBody(h.method));
                }
                for rule in h.extract.iter() {
                    crate::extract::ExtractRule::parse(rule)?;
                }
            }
            JobInput::Llm(l) => {
                if l.messages.is_empty() {
                    return Err(E::LlmNoMessages);
                }
                if l.max_tokens == 0 {
                    return Err(E::LlmZeroTokens);
                }
                if u64::from(l.max_tokens) > b.max_tokens {
                    return Err(E::LlmTokensAboveBound {
                        tokens: l.max_tokens,
                        bound: b.max_tokens,
                    });
                }
                if l.temperature_milli > MAX_TEMPERATURE_MILLI {
                    return Err(E::LlmTemperature(l.temperature_milli));
                }
            }
            JobInput::Mcp(m) => {
                if !http_url(&m.server) {
                    return Err(E::McpServer(m.server.to_string()));
                }
                if m.tool.is_empty() {
                    return Err(E::McpTool);
                }
                if !json_object(&m.arguments) {
                    return Err(E::McpArguments);
                }
            }
            JobInput::Custom(c) => {
                if c.kind.is_empty() {
                    return Err(E::CustomKind);
                }
            }
        }
        let v = &self.verification;
        let (min, max) = v.mode.committee_bounds();
        if v.runners != 0 && (v.runners < min || v.runners > max) {
            return Err(E::CommitteeSize {
                mode: v.mode.name(),
                runners: v.runners,
                min,
                max,
            });
        }
        if v.threshold != 0 && v.runners == 0 {
            return Err(E::ThresholdWithoutRunners);
        }
        if v.threshold != 0 {
            let runners = v.runners;
            if u16::from(v.threshold) * 2 <= u16::from(runners) || v.threshold > runners {
                return Err(E::Threshold {
                    threshold: v.threshold,
                    runners,
                });
            }
        }
        match &v.mode {
            VerificationMode::Deterministic {} if !v.tee_required => {
                return Err(E::DeterministicWithoutTee);
            }
            VerificationMode::MajorityVote { vote_field } if !pointer(vote_field) => {
                return Err(E::Field(vote_field.to_string()));
            }
            VerificationMode::StructuredMatch { checks } => {
                if checks.is_empty() {
                    return Err(E::NoChecks);
                }
                for c in checks.iter() {
                    match c {
                        Check::JsonSchema {} if !schema => return Err(E::CheckWithoutSchema),
                        Check::FieldMatch { field }
                        | Check::FieldMajority { field }
                        | Check::NumericTolerance { field, .. }
                        | Check::NumericRange { field, .. }
                            if !pointer(field) =>
                        {
                            return Err(E::Field(field.to_string()));
                        }
                        Check::NumericTolerance { tolerance_bps, .. }
                            if *tolerance_bps > 10_000 =>
                        {
                            return Err(E::Tolerance(*tolerance_bps));
                        }
                        Check::NumericRange { min, max, .. } if min > max => {
                            return Err(E::Range {
                                min: *min,
                                max: *max,
                            });
                        }
                        _ => {}
                    }
                }
            }
            VerificationMode::SemanticSimilarity { threshold_bps }
                if *threshold_bps == 0 || *threshold_bps > 10_000 =>
            {
                return Err(E::Similarity(*threshold_bps));
            }
            _ => {}
        }
        if let Some(mode) = v.snapshot {
            match &self.input {
                JobInput::Http(h) => {
                    if matches!(mode, SnapshotMode::Median | SnapshotMode::Majority)
                        && h.extract.is_empty()
                    {
                        return Err(E::SnapshotWithoutExtract(mode));
                    }
                }
                _ => return Err(E::SnapshotNotHttp),
            }
        }
        if !is_handler_name(&self.callback.handler) {
            return Err(E::CallbackHandler(self.callback.handler.to_string()));
        }
        if self
            .required_runner_pool
            .as_ref()
            .is_some_and(|p| p.is_empty())
        {
            return Err(E::EmptyPool);
        }
        Ok(())
    }
}

/// What a job with `spec` would get if submitted now: the committee size and threshold, the
/// runners passing every candidate filter with what each one's rate card charges for the
/// job's expected usage (its `max_tokens` and `expected_execution_ms`), and how many runners
/// each filter turned away. The filters are the submission's own (`cowboy_execution::runners::candidates::refusal`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Estimate {
    pub committee_size: u8,
    pub threshold: u8,
    /// Candidates with their price, cheapest first.
    pub candidates: Vec<EstimatedRunner>,
    /// Runners refused, by the first filter they fail.
    pub refused: std::collections::BTreeMap<String, u64>,
    /// What a verified job would pay at the expected usage: the lower median of the
    /// committee's prices (taking the cheapest `committee_size` candidates), capped by
    /// `max_price`, plus the tip.
    #[serde(with = "amount")]
    pub price: u64,
    /// What submission escrows (`max_price + tip + 2 × callback.max_fee`).
    #[serde(with = "amount")]
    pub escrow: u64,
}

/// A candidate and its price for the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EstimatedRunner {
    pub address: Address,
    #[serde(with = "amount")]
    pub price: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{decode_strict, encode_to_vec};

    fn text<const N: usize>(s: &str) -> Text<N> {
        Text::new(s.to_owned()).expect("fits")
    }

    fn http_spec() -> JobSpec {
        JobSpec {
            input: JobInput::Http(HttpRequest {
                method: HttpMethod::Get,
                url: text("https://api.coingecko.com/api/v3/simple/price?ids=bitcoin"),
                headers: List::new(vec![HttpHeader {
                    name: text("Accept"),
                    value: text("application/json"),
                }])
                .expect("fits"),
                body: Bytes::default(),
                extract: List::new(vec![text("/bitcoin/usd")]).expect("fits"),
            }),
            bounds: ResourceBounds {
                max_wall_ms: 5_000,
                max_tokens: 0,
                max_memory_mb: 0,
            },
            schema: ResultSchema {
                max_return_bytes: 1_024,
                expected_execution_ms: 500,
                data_format: DataFormat::Json {
                    schema: Some(text(r#"{"type":"number"}"#)),
                },
            },
            verification: VerificationConfig {
                mode: VerificationMode::StructuredMatch {
                    checks: List::new(vec![
                        Check::JsonSchema {},
                        Check::NumericTolerance {
                            field: text(""),
                            tolerance_bps: 50,
                        },
                    ])
                    .expect("fits"),
                },
                runners: 3,
                threshold: 2,
                tee_required: false,
                snapshot: Some(SnapshotMode::Median),
            },
            max_price: 1_000_000,
            tip: 10,
            timeout_blocks: 20,
            callback: Callback {
                actor: Address::system(0x42),
                handler: text("on_price"),
                max_fee: 0,
            },
            required_runner_pool: None,
        }
    }

    fn llm_spec() -> JobSpec {
        let mut s = http_spec();
        s.input = JobInput::Llm(LlmRequest {
            model: Hash([9; 32]),
            messages: List::new(vec![ChatMessage {
                role: ChatRole::User,
                content: text("Summarise the news"),
            }])
            .expect("fits"),
            max_tokens: 256,
            temperature_milli: 700,
            seed: Some(7),
        });
        s.bounds.max_tokens = 512;
        s.verification = VerificationConfig {
            mode: VerificationMode::SemanticSimilarity {
                threshold_bps: 8_500,
            },
            runners: 0,
            threshold: 0,
            tee_required: false,
            snapshot: None,
        };
        s
    }

    #[test]
    fn specs_round_trip_in_binary_and_json() {
        for spec in [http_spec(), llm_spec()] {
            assert_eq!(spec.validate(), Ok(()));
            let bytes = encode_to_vec(&spec);
            assert_eq!(bytes.len(), spec.encode_size());
            assert_eq!(decode_strict::<JobSpec>(&bytes).expect("decodes"), spec);
            let json = serde_json::to_string(&spec).expect("json");
            assert_eq!(
                serde_json::from_str::<JobSpec>(&json).expect("parses"),
                spec
            );
        }
        let json = serde_json::to_value(http_spec()).expect("json");
        assert_eq!(json["input"]["http"]["method"], "GET");
        assert_eq!(json["max_price"], "1000000");
        assert_eq!(json["verification"]["snapshot"], "median");
    }

    #[test]
    fn over_long_fields_are_refused_by_binary_and_json() {
        let mut spec = http_spec();
        let JobInput::Http(h) = &mut spec.input else {
            unreachable!()
        };
        assert!(Text::<2048>::new("x".repeat(2049)).is_err());
        h.url = text("https://a.b/");
        let json = serde_json::to_string(&spec)
            .expect("json")
            .replace("https://a.b/", &format!("https://a.b/{}", "x".repeat(2048)));
        let e = serde_json::from_str::<JobSpec>(&json).expect_err("too long");
        assert!(e.to_string().contains("at most 2048"), "{e}");
        let mut bytes = encode_to_vec(&http_spec());
        bytes[0] = 9; // no job type 9
        assert!(decode_strict::<JobSpec>(&bytes).is_err());
    }

    #[test]
    fn each_malformed_field_has_its_own_error() {
        use JobSpecError as E;
        type Edit = fn(&mut JobSpec);
        type Expect = fn(&E) -> bool;
        let cases: Vec<(JobSpec, Edit, Expect)> = vec![
            (
                http_spec(),
                |s| s.bounds.max_wall_ms = 0,
                |e| *e == E::ZeroWallTime,
            ),
            (http_spec(), |s| s.max_price = 0, |e| *e == E::ZeroMaxPrice),
            (
                http_spec(),
                |s| s.timeout_blocks = 0,
                |e| *e == E::Timeout(0),
            ),
            (
                http_spec(),
                |s| s.timeout_blocks = MAX_TIMEOUT_BLOCKS + 1,
                |e| matches!(e, E::Timeout(_)),
            ),
            (
                http_spec(),
                |s| s.schema.max_return_bytes = MAX_RETURN_BYTES + 1,
                |e| matches!(e, E::ReturnBytes(_)),
            ),
            (
                http_spec(),
                |s| s.schema.max_return_bytes = 0,
                |e| *e == E::ReturnBytes(0),
            ),
            (
                http_spec(),
                |s| s.schema.expected_execution_ms = 6_000,
                |e| matches!(e, E::ExpectedTime { .. }),
            ),
            (
                http_spec(),
                |s| {
                    s.schema.data_format = DataFormat::Json {
                        schema: Some(text("[1]")),
                    }
                },
                |e| *e == E::JsonSchema,
            ),
            (
                http_spec(),
                |s| {
                    if let JobInput::Http(h) = &mut s.input {
                        h.url = text("ftp://x")
                    }
                },
                |e| matches!(e, E::HttpUrl(_)),
            ),
            (
                http_spec(),
                |s| {
                    if let JobInput::Http(h) = &mut s.input {
                        h.headers = List::new(vec![HttpHeader {
                            name: text("Bad Name"),
                            value: text("v"),
                        }])
                        .expect("fits")
                    }
                },
                |e| matches!(e, E::HttpHeader(_)),
            ),
            (
                http_spec(),
                |s| {
                    if let JobInput::Http(h) = &mut s.input {
                        h.body = Bytes::new(vec![1]).expect("fits")
                    }
                },
                |e| *e == E::HttpBody(HttpMethod::Get),
            ),
            (
                http_spec(),
                |s| {
                    if let JobInput::Http(h) = &mut s.input {
                        h.extract = List::new(vec![text("bitcoin.usd")]).expect("fits")
                    }
                },
                |e| matches!(e, E::HttpExtract(_)),
            ),
            (
                llm_spec(),
                |s| {
                    if let JobInput::Llm(l) = &mut s.input {
                        l.messages = List::default()
                    }
                },
                |e| *e == E::LlmNoMessages,
            ),
            (
                llm_spec(),
                |s| {
                    if let JobInput::Llm(l) = &mut s.input {
                        l.max_tokens = 0
                    }
                },
                |e| *e == E::LlmZeroTokens,
            ),
            (
                llm_spec(),
                |s| s.bounds.max_tokens = 10,
                |e| matches!(e, E::LlmTokensAboveBound { .. }),
            ),
            (
                llm_spec(),
                |s| {
                    if let JobInput::Llm(l) = &mut s.input {
                        l.temperature_milli = 2_001
                    }
                },
                |e| *e == E::LlmTemperature(2_001),
            ),
            (
                http_spec(),
                |s| {
                    s.input = JobInput::Mcp(McpRequest {
                        server: text("nope"),
                        tool: text("t"),
                        arguments: text("{}"),
                    })
                },
                |e| matches!(e, E::McpServer(_)),
            ),
            (
                http_spec(),
                |s| {
                    s.input = JobInput::Mcp(McpRequest {
                        server: text("http://mcp.local"),
                        tool: text(""),
                        arguments: text("{}"),
                    })
                },
                |e| *e == E::McpTool,
            ),
            (
                http_spec(),
                |s| {
                    s.input = JobInput::Mcp(McpRequest {
                        server: text("http://mcp.local"),
                        tool: text("t"),
                        arguments: text("["),
                    })
                },
                |e| *e == E::McpArguments,
            ),
            (
                http_spec(),
                |s| {
                    s.input = JobInput::Custom(CustomRequest {
                        kind: text(""),
                        payload: Bytes::default(),
                    })
                },
                |e| *e == E::CustomKind,
            ),
            (
                http_spec(),
                |s| s.verification.runners = 1,
                |e| {
                    matches!(
                        e,
                        E::CommitteeSize {
                            runners: 1,
                            min: 2,
                            ..
                        }
                    )
                },
            ),
            (
                http_spec(),
                |s| s.verification.threshold = 1,
                |e| {
                    matches!(
                        e,
                        E::Threshold {
                            threshold: 1,
                            runners: 3
                        }
                    )
                },
            ),
            (
                http_spec(),
                |s| s.verification.threshold = 4,
                |e| matches!(e, E::Threshold { .. }),
            ),
            (
                http_spec(),
                |s| s.verification.mode = VerificationMode::Deterministic {},
                |e| *e == E::DeterministicWithoutTee,
            ),
            (
                http_spec(),
                |s| {
                    s.verification.mode = VerificationMode::MajorityVote {
                        vote_field: text("label"),
                    }
                },
                |e| matches!(e, E::Field(_)),
            ),
            (
                http_spec(),
                |s| {
                    s.verification.mode = VerificationMode::StructuredMatch {
                        checks: List::default(),
                    }
                },
                |e| *e == E::NoChecks,
            ),
            (
                http_spec(),
                |s| s.schema.data_format = DataFormat::Text {},
                |e| *e == E::CheckWithoutSchema,
            ),
            (
                http_spec(),
                |s| {
                    s.verification.mode = VerificationMode::StructuredMatch {
                        checks: List::new(vec![Check::NumericTolerance {
                            field: text(""),
                            tolerance_bps: 10_001,
                        }])
                        .expect("fits"),
                    }
                },
                |e| *e == E::Tolerance(10_001),
            ),
            (
                http_spec(),
                |s| {
                    s.verification.mode = VerificationMode::StructuredMatch {
                        checks: List::new(vec![Check::NumericRange {
                            field: text(""),
                            min: 2,
                            max: 1,
                        }])
                        .expect("fits"),
                    }
                },
                |e| matches!(e, E::Range { .. }),
            ),
            (
                llm_spec(),
                |s| s.verification.mode = VerificationMode::SemanticSimilarity { threshold_bps: 0 },
                |e| *e == E::Similarity(0),
            ),
            (
                llm_spec(),
                |s| s.verification.snapshot = Some(SnapshotMode::Latest),
                |e| *e == E::SnapshotNotHttp,
            ),
            (
                http_spec(),
                |s| {
                    if let JobInput::Http(h) = &mut s.input {
                        h.extract = List::default()
                    }
                },
                |e| *e == E::SnapshotWithoutExtract(SnapshotMode::Median),
            ),
            (
                http_spec(),
                |s| s.callback.handler = text("_private"),
                |e| matches!(e, E::CallbackHandler(_)),
            ),
            (
                http_spec(),
                |s| s.required_runner_pool = Some(Bytes::default()),
                |e| *e == E::EmptyPool,
            ),
        ];
        let mut cases = cases;
        cases.push((
            http_spec(),
            |s| s.bounds.max_wall_ms = MAX_WALL_MS + 1,
            |e| *e == E::BoundsTooLarge,
        ));
        cases.push((
            http_spec(),
            |s| s.verification.runners = 0,
            |e| *e == E::ThresholdWithoutRunners,
        ));
        cases.push((
            http_spec(),
            |s| {
                if let JobInput::Http(h) = &mut s.input {
                    h.url = text("https://good.com\\@evil.com/")
                }
            },
            |e| matches!(e, E::HttpUrl(_)),
        ));
        let mut kinds = std::collections::HashSet::new();
        for (i, (mut spec, edit, expected)) in cases.into_iter().enumerate() {
            edit(&mut spec);
            let e = spec.validate().expect_err("refused");
            assert!(expected(&e), "case {i}: {e:?}");
            assert!(!e.to_string().is_empty());
            kinds.insert(std::mem::discriminant(&e));
        }
        // Every rule of JobSpecError is exercised.
        assert_eq!(kinds.len(), 33, "JobSpecError has 33 rules");
    }
}

codes! {
    /// Where a job is in its lifecycle (issue 15 scope 5; book `reference/runners.md`).
    JobStatus {
        /// Bound in its submission block; a committee waits for the beacon of the round
        /// `committee.round_delay` rounds later to be selected.
        Submitted = 0 => "submitted",
        /// A committee is selected and has until `deadline` to commit.
        Assigned = 1 => "assigned",
        /// Every member committed; waiting for the reveal.
        Committed = 2 => "committed",
        /// A verified result was delivered; payouts are held for the challenge window.
        Verified = 3 => "verified",
        /// Paid out.
        Settled = 4 => "settled",
        /// No committee could be drawn, or it timed out `MAX_RETRIES` times: escrow refunded.
        Failed = 5 => "failed",
        /// A challenge is being re-executed.
        Disputed = 6 => "disputed",
    }
}

record! {
    /// The inputs and outcome of one draw (spec README "Selection seed"), kept so anyone can
    /// re-run it and a governance change after the draw never changes it.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    pub struct Draw {
        /// The named absolute round whose beacon seeded the job.
        pub round_epoch: u64,
        pub round_view: u64,
        pub beacon: Bytes<48>,
        /// The job's seed (retries derive theirs from it).
        pub seed: Hash,
        /// The retry this draw is (0 for the first).
        pub retry: u32,
        /// Snapshot runners skipped because, at the draw, they had exited, left the registry
        /// or were at their concurrency limit.
        pub unavailable: List<Address, 4096>,
        /// The committee, in draw order, and its aggregator.
        pub committee: List<Address, 32>,
        pub aggregator: Address,
    }
}

record! {
    /// A candidate of a job's snapshot with the stake its weight comes from.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    pub struct DrawCandidate {
        pub address: Address,
        #[serde(with = "amount")]
        pub stake: u64,
    }
}

/// The storage key of a job's record under the Job Dispatcher (`0x…02`): `job:` ‖ id. Actors
/// read it through `job_status`; the dispatcher writes it.
pub fn storage_key(id: &Hash) -> Vec<u8> {
    [STORAGE_PREFIX, &id.0].concat()
}

/// The prefix of every job record's storage key.
pub const STORAGE_PREFIX: &[u8] = b"job:";

record! {
    /// The Job Dispatcher's record of a job (storage key `job:` ‖ id under `0x…02`).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    pub struct JobRecord {
        pub id: Hash,
        pub submitter: Address,
        pub submitted_at: u64,
        /// The round of the submission block, which a committee's draw is bound to.
        pub bound_epoch: u64,
        pub bound_view: u64,
        pub spec: JobSpec,
        /// What the submitter escrowed (`max_price + tip`), held by the dispatcher.
        #[serde(with = "amount")]
        pub escrow: u64,
        /// The committee size (M) and agreement threshold (N) in force for this job.
        pub committee_size: u8,
        pub threshold: u8,
        /// The candidate snapshot fixed at submission (CIP-2 §4): its Merkle root, the
        /// candidates with their stakes, and the stake floor their weights divide by.
        pub snapshot_root: Hash,
        pub candidates: List<DrawCandidate, 4096>,
        #[serde(with = "amount")]
        pub min_stake: u64,
        pub status: JobStatus,
        /// The height the current step ends at: the commit deadline (assigned), the last
        /// reveal height (committed), the end of the challenge window (verified).
        pub deadline: u64,
        /// Every draw, the latest last.
        pub draws: List<Draw, 8>,
        /// Runners that timed out on this job (never drawn again for it).
        pub excluded: List<Address, 256>,
        /// The current committee's commitments, in the order they arrived.
        pub commitments: List<Commitment, 32>,
        /// The height every committed member had committed by (the reveal windows start).
        pub committed_at: u64,
        /// Reveals that matched their commitments.
        pub reveals: List<Revealed, 32>,
        /// Runners whose reveal did not match their commitment, or who never revealed.
        pub slashed: List<Address, 32>,
        /// The verified result.
        pub result: Option<Bytes<65536>>,
        /// What verification pays, held until the challenge window ends.
        pub payouts: List<Payout, 32>,
        #[serde(with = "amount")]
        pub burn: u64,
        #[serde(with = "amount")]
        pub treasury: u64,
        /// Why the job failed, when it did.
        pub failure: Text<256>,
        /// A challenge of the verified result, once one is made.
        pub dispute: Option<Dispute>,
        /// Callbacks queued and not yet delivered (each keeps a `callback.max_fee` escrowed).
        pub callbacks_pending: u8,
    }
}

record! {
    /// A challenge (spec README "Challenges"): the challenger's bond, what the verified result
    /// agreed on and who was to be paid for it, where the fresh committee's re-execution is,
    /// and how it ended.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    pub struct Dispute {
        pub challenger: Address,
        #[serde(with = "amount")]
        pub bond: u64,
        /// The challenged result's agreement hash and the runners it was to pay.
        pub original: Hash,
        pub paid: List<Address, 32>,
        /// The round of the challenge's block: the fresh committee is drawn from the beacon of
        /// a round `committee.round_delay` later, so nobody can see it when challenging.
        pub bound_epoch: u64,
        pub bound_view: u64,
        /// The fresh committee has committed and is revealing.
        pub revealing: bool,
        /// The outcome: `upheld` (the bond is forfeited), `overturned` (the runners who agreed
        /// are slashed, the bond and the escrow go back), `inconclusive` (no fresh result; the
        /// bond goes back), or empty while it runs.
        pub outcome: Text<16>,
    }
}

record! {
    /// A committee member's commitment to its result: `keccak256(result ‖ salt)` with a
    /// 32-byte salt (spec README "Commitments").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    pub struct Commitment {
        pub runner: Address,
        pub hash: Hash,
    }
}

record! {
    /// A revealed result with its salt and the usage its runner reports (model tokens and
    /// wall time, priced with its rate card).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Reveal {
        pub runner: Address,
        pub result: Bytes<65536>,
        pub salt: Hash,
        #[serde(default)]
        pub tokens: u64,
        #[serde(default)]
        pub ms: u64,
        /// `semantic_similarity` jobs: the result's embedding by the governance model, as
        /// Q1.15 fixed-point components (value / 32,768), 1 to [`MAX_EMBEDDING_DIM`] of them;
        /// empty for every other mode.
        #[serde(default)]
        pub embedding: Embedding,
        /// The job could not be completed for a reason outside the runner (whitepaper "Payment
        /// and Failure Handling"): what kind, and how much of the work was done.
        #[serde(default)]
        pub fault: Option<Fault>,
    }
}

codes! {
    /// Why a runner could not complete a job through no fault of its own.
    FaultKind {
        /// The external source failed (the site is down, the model provider errored).
        External = 0 => "external",
        /// The job's bounds (time, tokens, memory, return bytes) were too tight for the work.
        BoundsTooTight = 1 => "bounds_too_tight",
    }
}

record! {
    /// A reported fault: its kind and the share of the work done, in basis points (0 to
    /// 10,000).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Fault {
        pub kind: FaultKind,
        pub progress_bps: u16,
    }
}

/// Most components an embedding may have (Cowboy decision: 1,024 covers common embedding
/// models and bounds a committee's comparisons at 32 × 32 × 1,024 multiply-adds).
pub const MAX_EMBEDDING_DIM: usize = 1_024;

/// An embedding: Q1.15 fixed-point components.
pub type Embedding = List<i16, MAX_EMBEDDING_DIM>;

record! {
    /// A reveal the Result Verifier accepted: the result, the usage (clamped to the job's
    /// bounds) and what it agrees on under the job's mode (`None`: not a valid result).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    pub struct Revealed {
        pub runner: Address,
        pub result: Bytes<65536>,
        pub tokens: u64,
        pub ms: u64,
        pub agreement: Option<Hash>,
        pub embedding: Embedding,
        pub fault: Option<Fault>,
    }
}

impl Reveal {
    /// What the runner committed to: `keccak256(result ‖ salt)` (spec README
    /// "Commitments"), and for a reveal with an embedding `keccak256(result ‖ salt ‖
    /// "embedding" ‖ count (2 B BE) ‖ components)` with each component as 2 bytes big-endian,
    /// so the embedding that decides agreement is bound before anyone's is seen; a reported
    /// fault appends `"fault" ‖ kind ‖ progress_bps (2 B BE)`.
    pub fn commitment(&self) -> Hash {
        let mut data = [self.result.as_slice(), &self.salt.0].concat();
        if !self.embedding.is_empty() {
            data.extend_from_slice(b"embedding");
            data.extend_from_slice(&(self.embedding.len() as u16).to_be_bytes());
            for c in self.embedding.iter() {
                data.extend_from_slice(&c.to_be_bytes());
            }
        }
        if let Some(f) = &self.fault {
            data.extend_from_slice(b"fault");
            data.push(f.kind.code());
            data.extend_from_slice(&f.progress_bps.to_be_bytes());
        }
        crate::keccak256(&data)
    }
}

record! {
    /// A runner's payment, held until the challenge window ends.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    pub struct Payout {
        pub runner: Address,
        #[serde(with = "amount")]
        pub amount: u64,
    }
}
