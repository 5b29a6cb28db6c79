//! The runner market's records and operands (CIP-2 §2, §4; whitepaper §5 and "Off-Chain
//! Compute"; spec README "Decisions for the runner market"): the system actors' addresses, job
//! types, a runner's signing key, capabilities and rate card, and the Runner Registry's record.
//!
//! Encodings are consensus-critical and follow the rest of this crate: amounts are 8-byte
//! big-endian, counts and heights minimal varints, lists and strings length-prefixed with a
//! bound checked while decoding. The JSON form (used by `cowboy sign`, genesis files and the
//! RPC) is derived here once: amounts as decimal strings, scalars as numbers, bytes as hex.

use crate::{
    codec::{
        bytes_size, field, positioned, read_discriminant, read_list, read_plain, read_string,
        read_tag, read_u64_be, read_varint, varint_size, write_bytes, write_list, write_varint,
    },
    primitives::Hash,
};
use bytes::BufMut;
use commonware_codec::{Buf, EncodeSize, Error as CodecError, Read, Write};
use serde::{Deserialize, Serialize};

/// The market's system actors (spec README "System actors"; whitepaper §9). Their state lives
/// in their own storage in the state tree; their balances hold what the market escrows.
pub mod actors {
    use crate::primitives::Address;

    /// Runner registration, stake, capabilities, health and reputation.
    pub const RUNNER_REGISTRY: Address = Address::system(0x01);
    /// Job submission, selection and lifecycle.
    pub const JOB_DISPATCHER: Address = Address::system(0x02);
    /// Commit-reveal aggregation, verification and callbacks.
    pub const RESULT_VERIFIER: Address = Address::system(0x03);
    /// Remote attestation of TEE runners.
    pub const TEE_VERIFIER: Address = Address::system(0x05);
    /// Runner pools and general permissions (CIP-2 §7).
    pub const ENTITLEMENT_REGISTRY: Address = Address::system(0x07);
    /// Receives the settlement's treasury share and other protocol payments.
    pub const TREASURY: Address = Address::system(0x08);

    /// Every market system actor with its name, in address order.
    pub const ALL: [(Address, &str); 6] = [
        (RUNNER_REGISTRY, "Runner Registry"),
        (JOB_DISPATCHER, "Job Dispatcher"),
        (RESULT_VERIFIER, "Result Verifier"),
        (TEE_VERIFIER, "TEE Verifier"),
        (ENTITLEMENT_REGISTRY, "Entitlement Registry"),
        (TREASURY, "Treasury"),
    ];
}

/// Most model ids a runner may declare.
pub const MAX_MODELS: usize = 32;
/// Most HTTP domains a runner may declare.
pub const MAX_DOMAINS: usize = 64;
/// Longest domain name (RFC 1035: 253 characters).
pub const MAX_DOMAIN_LEN: usize = 253;
/// Longest result-push endpoint URL.
pub const MAX_ENDPOINT_LEN: usize = 256;
/// Most jobs a runner may declare it runs at once.
pub const MAX_CONCURRENT_JOBS: u64 = 1_024;
/// Reputation is an integer score from 0 to this (CIP-2 §4: candidates need at least 50).
pub const MAX_REPUTATION: u64 = 100;

/// Declares a consensus-visible code enum once: its explicit discriminants, its stable
/// snake_case name (JSON, CLI, RPC) and its lookups.
macro_rules! codes {
    (
        $(#[$doc:meta])*
        $name:ident { $( $(#[$vdoc:meta])* $variant:ident = $code:literal => $text:literal, )* }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
        #[repr(u8)]
        pub enum $name {
            $( $(#[$vdoc])* #[serde(rename = $text)] $variant = $code, )*
        }

        impl $name {
            /// Every value, in code order.
            pub const ALL: &'static [$name] = &[$( $name::$variant, )*];

            /// The encoded code.
            pub const fn code(self) -> u8 {
                self as u8
            }

            /// The stable name, as JSON and the CLI show it.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )*
                }
            }

            /// The value with this code, if there is one.
            pub const fn from_code(code: u8) -> Option<$name> {
                match code {
                    $( $code => Some($name::$variant), )*
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl commonware_codec::Write for $name {
            fn write(&self, buf: &mut impl bytes::BufMut) {
                buf.put_u8(self.code());
            }
        }

        impl commonware_codec::EncodeSize for $name {
            fn encode_size(&self) -> usize {
                1
            }
        }

        impl commonware_codec::Read for $name {
            type Cfg = ();
            fn read_cfg(buf: &mut impl commonware_codec::Buf, _: &()) -> Result<Self, commonware_codec::Error> {
                let start = buf.remaining();
                let code = $crate::codec::read_discriminant(buf, stringify!($name))?;
                $name::from_code(code).ok_or_else(|| {
                    $crate::codec::positioned(stringify!($name), start, commonware_codec::Error::InvalidEnum(code))
                })
            }
        }
    };
}
pub(crate) use codes;

codes! {
    /// What a job asks a runner to do (CIP-2 §2 `JobType`).
    JobType {
        /// A language-model inference.
        Llm = 0 => "llm",
        /// An HTTP request with extraction rules.
        Http = 1 => "http",
        /// A tool call on an MCP server.
        Mcp = 2 => "mcp",
        /// An application-defined job.
        Custom = 3 => "custom",
    }
}

/// Declares a set of a [`codes!`] enum's values once: encoded as one byte with bit `code` set
/// for each member (unknown bits are refused when decoding); JSON is a list of names, each at
/// most once.
macro_rules! code_set {
    ($(#[$doc:meta])* $set:ident of $member:ident, $field:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $set(u8);

        impl schemars::JsonSchema for $set {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($set).into()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let member = generator.subschema_for::<$member>();
                schemars::json_schema!({
                    "type": "array",
                    "items": member,
                    "uniqueItems": true,
                })
            }
        }

        impl $set {
            const KNOWN: u8 = ((1u16 << $member::ALL.len()) - 1) as u8;

            pub fn of(members: &[$member]) -> Self {
                Self(members.iter().fold(0, |m, t| m | (1 << t.code())))
            }
            pub fn contains(self, t: $member) -> bool {
                self.0 & (1 << t.code()) != 0
            }
            pub fn is_empty(self) -> bool {
                self.0 == 0
            }
            /// The members, in code order.
            pub fn iter(self) -> impl Iterator<Item = $member> {
                $member::ALL.iter().copied().filter(move |t| self.contains(*t))
            }
        }

        impl serde::Serialize for $set {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.iter())
            }
        }

        impl<'de> serde::Deserialize<'de> for $set {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let list = <Vec<$member> as serde::Deserialize>::deserialize(d)?;
                let set = Self::of(&list);
                if set.iter().count() != list.len() {
                    let names: Vec<&str> = $member::ALL.iter().map(|m| m.name()).collect();
                    return Err(serde::de::Error::custom(format!(
                        "{}: a value is listed twice; list each of {} at most once",
                        $field,
                        names.join(", ")
                    )));
                }
                Ok(set)
            }
        }

        impl commonware_codec::Write for $set {
            fn write(&self, buf: &mut impl bytes::BufMut) {
                buf.put_u8(self.0);
            }
        }
        impl commonware_codec::EncodeSize for $set {
            fn encode_size(&self) -> usize {
                1
            }
        }
        impl commonware_codec::Read for $set {
            type Cfg = ();
            fn read_cfg(buf: &mut impl commonware_codec::Buf, _: &()) -> Result<Self, commonware_codec::Error> {
                let start = buf.remaining();
                let bits = $crate::codec::read_discriminant(buf, $field)?;
                if bits & !Self::KNOWN != 0 {
                    return Err($crate::codec::positioned(
                        $field,
                        start,
                        commonware_codec::Error::Invalid($field, "unknown bit set"),
                    ));
                }
                Ok(Self(bits))
            }
        }
    };
}
pub(crate) use code_set;

code_set! {
    /// A set of job types. JSON: a list of names.
    JobTypes of JobType, "job_types"
}

/// The key a runner signs its results and pushes with (CIP-2 §8: ed25519; the market also
/// takes the secp256k1 keys accounts use). JSON: `{"ed25519": "0x…"}` or `{"secp256k1": "0x…"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunnerKey {
    Ed25519(Hash),
    /// A compressed SEC1 point.
    Secp256k1(#[serde(with = "secp_hex")] [u8; 33]),
}

/// Serde for a compressed secp256k1 point as `0x` and 66 hex digits. A type rather than a
/// module, so that schemars reads the field's schema from it (see [`amount`]).
#[allow(non_camel_case_types)]
struct secp_hex;

impl schemars::JsonSchema for secp_hex {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Secp256k1Key".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A compressed secp256k1 point: 0x and 66 hex digits.",
            "type": "string",
            "pattern": "^0x[0-9a-fA-F]{66}$",
        })
    }
}

impl secp_hex {
    fn serialize<S: serde::Serializer>(k: &[u8; 33], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&crate::primitives::encode_hex(k))
    }
    fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u8; 33], D::Error> {
        use serde::de;
        let text = String::deserialize(d)?;
        let bytes = crate::primitives::decode_hex(&text).map_err(de::Error::custom)?;
        <[u8; 33]>::try_from(bytes.as_slice()).map_err(|_| {
            de::Error::custom(format!(
                "a secp256k1 runner key is a 33-byte compressed point, got {} bytes",
                bytes.len()
            ))
        })
    }
}

impl Write for RunnerKey {
    fn write(&self, buf: &mut impl BufMut) {
        match self {
            Self::Ed25519(k) => {
                buf.put_u8(0);
                k.write(buf);
            }
            Self::Secp256k1(k) => {
                buf.put_u8(1);
                buf.put_slice(k);
            }
        }
    }
}
impl EncodeSize for RunnerKey {
    fn encode_size(&self) -> usize {
        1 + match self {
            Self::Ed25519(_) => 32,
            Self::Secp256k1(_) => 33,
        }
    }
}
impl Read for RunnerKey {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        let start = buf.remaining();
        match read_discriminant(buf, "key")? {
            0 => Ok(Self::Ed25519(read_plain(buf, "key")?)),
            1 => Ok(Self::Secp256k1(read_plain(buf, "key")?)),
            other => Err(positioned("key", start, CodecError::InvalidEnum(other))),
        }
    }
}

/// What a runner can run (CIP-2 §4 capability and TEE filters).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Capabilities {
    pub job_types: JobTypes,
    /// Model ids it serves (whitepaper §5.1: `keccak256(weights‖arch‖tokenizer‖license)`).
    #[serde(default)]
    pub models: Vec<Hash>,
    /// HTTP domains it fetches from (lowercase host names; `*.example.com` covers
    /// subdomains); empty means any.
    #[serde(default)]
    pub domains: Vec<String>,
    /// Whether it runs jobs inside a TEE (attestation checked by the TEE Verifier).
    #[serde(default)]
    pub tee: bool,
}

/// What a runner charges (whitepaper §5 "Runner Resource Accounting": `min(reported_usage ×
/// rates, max_price)`), in base units. Every field is a decimal string in JSON.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct RateCard {
    /// Per job, whatever it used.
    #[serde(default, with = "amount")]
    pub per_job: u64,
    /// Per 1,000 model tokens (prompt and completion).
    #[serde(default, with = "amount")]
    pub per_1k_tokens: u64,
    /// Per second of execution (wall time).
    #[serde(default, with = "amount")]
    pub per_second: u64,
}

impl RateCard {
    /// `per_job + tokens × per_1k_tokens / 1,000 + ms × per_second / 1,000`, each product
    /// rounded down, saturating at `u64::MAX` (a price above any escrow is refused anyway).
    pub fn price(&self, tokens: u64, ms: u64) -> u64 {
        let part =
            |n: u64, rate: u64| u64::try_from(n as u128 * rate as u128 / 1_000).unwrap_or(u64::MAX);
        self.per_job
            .saturating_add(part(tokens, self.per_1k_tokens))
            .saturating_add(part(ms, self.per_second))
    }
}

/// Serde for `u64` amounts as decimal strings (the `json::Amount` form), for
/// `#[serde(with = "amount")]`.
///
/// A type rather than a module: schemars reads the same attribute as "this field's schema is
/// `amount`'s", so the JSON Schema says what serde writes (a decimal string).
#[allow(non_camel_case_types)]
pub struct amount;

impl amount {
    pub fn serialize<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&crate::json::Amount(*v), s)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        <crate::json::Amount as serde::Deserialize>::deserialize(d).map(|a| a.0)
    }
}

impl schemars::JsonSchema for amount {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <crate::json::Amount as schemars::JsonSchema>::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <crate::json::Amount as schemars::JsonSchema>::json_schema(generator)
    }
}

/// What a runner declares when it registers or updates (CIP-2 §4; whitepaper §5.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunnerProfile {
    pub key: RunnerKey,
    pub capabilities: Capabilities,
    #[serde(default)]
    pub rate_card: RateCard,
    /// Jobs it runs at once; it is not selected while this many are active (1 to 1,024).
    pub max_concurrent_jobs: u64,
    /// The largest job value it accepts: its stake must be at least
    /// `max(runner_stake_floor, 1.5 × max_job_value)` (whitepaper §5.2).
    #[serde(default, with = "amount")]
    pub max_job_value: u64,
    /// Where committee members push results to it when it aggregates (`https://…` or
    /// `http://…`, at most 256 bytes).
    pub endpoint: String,
}

/// Why a runner profile is refused: the field and the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    #[error(
        "capabilities.job_types is empty: a runner serves at least one of llm, http, mcp, custom"
    )]
    NoJobTypes,
    #[error("capabilities.models lists {0} models; at most {MAX_MODELS}")]
    TooManyModels(usize),
    #[error("capabilities.models lists {0} twice")]
    DuplicateModel(Hash),
    #[error("capabilities.domains lists {0} domains; at most {MAX_DOMAINS}")]
    TooManyDomains(usize),
    #[error("capabilities.domains lists \"{0}\" twice")]
    DuplicateDomain(String),
    #[error(
        "capabilities.domains has \"{0}\": a domain is a lowercase host name (letters, digits, '-', '.'; optionally starting with \"*.\"), at most {MAX_DOMAIN_LEN} characters"
    )]
    InvalidDomain(String),
    #[error("max_concurrent_jobs is {0}; it must be between 1 and {MAX_CONCURRENT_JOBS}")]
    Concurrency(u64),
    #[error(
        "endpoint \"{0}\" is not an http:// or https:// URL of at most {MAX_ENDPOINT_LEN} printable ASCII characters"
    )]
    InvalidEndpoint(String),
}

fn valid_domain(d: &str) -> bool {
    let host = d.strip_prefix("*.").unwrap_or(d);
    !host.is_empty()
        && d.len() <= MAX_DOMAIN_LEN
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
}

fn valid_endpoint(e: &str) -> bool {
    let rest = e
        .strip_prefix("https://")
        .or_else(|| e.strip_prefix("http://"));
    e.len() <= MAX_ENDPOINT_LEN
        && rest.is_some_and(|r| !r.is_empty() && !r.starts_with('/'))
        && e.bytes().all(|b| b.is_ascii_graphic())
}

impl RunnerProfile {
    /// The profile's own rules (what needs no chain state); the Runner Registry adds the stake
    /// requirement and the key's validity.
    pub fn validate(&self) -> Result<(), ProfileError> {
        let c = &self.capabilities;
        if c.job_types.is_empty() {
            return Err(ProfileError::NoJobTypes);
        }
        if c.models.len() > MAX_MODELS {
            return Err(ProfileError::TooManyModels(c.models.len()));
        }
        for (i, m) in c.models.iter().enumerate() {
            if c.models[..i].contains(m) {
                return Err(ProfileError::DuplicateModel(*m));
            }
        }
        if c.domains.len() > MAX_DOMAINS {
            return Err(ProfileError::TooManyDomains(c.domains.len()));
        }
        if let Some(d) = c.domains.iter().find(|d| !valid_domain(d)) {
            return Err(ProfileError::InvalidDomain(d.clone()));
        }
        for (i, d) in c.domains.iter().enumerate() {
            if c.domains[..i].contains(d) {
                return Err(ProfileError::DuplicateDomain(d.clone()));
            }
        }
        if self.max_concurrent_jobs == 0 || self.max_concurrent_jobs > MAX_CONCURRENT_JOBS {
            return Err(ProfileError::Concurrency(self.max_concurrent_jobs));
        }
        if !valid_endpoint(&self.endpoint) {
            return Err(ProfileError::InvalidEndpoint(self.endpoint.clone()));
        }
        Ok(())
    }

    /// The stake this profile requires: `max(floor, 1.5 × max_job_value)`, rounded up.
    pub fn required_stake(&self, floor: u64) -> u64 {
        let scaled = (self.max_job_value as u128 * 3).div_ceil(2);
        floor.max(u64::try_from(scaled).unwrap_or(u64::MAX))
    }
}

impl Write for RunnerProfile {
    fn write(&self, buf: &mut impl BufMut) {
        self.key.write(buf);
        let c = &self.capabilities;
        c.job_types.write(buf);
        write_list(&c.models, buf, |m, b| m.write(b));
        write_list(&c.domains, buf, |d, b| write_bytes(d.as_bytes(), b));
        c.tee.write(buf);
        self.rate_card.per_job.write(buf);
        self.rate_card.per_1k_tokens.write(buf);
        self.rate_card.per_second.write(buf);
        write_varint(self.max_concurrent_jobs, buf);
        self.max_job_value.write(buf);
        write_bytes(self.endpoint.as_bytes(), buf);
    }
}

impl EncodeSize for RunnerProfile {
    fn encode_size(&self) -> usize {
        let c = &self.capabilities;
        self.key.encode_size()
            + 1
            + c.models.len().encode_size()
            + c.models.len() * Hash::LEN
            + c.domains.len().encode_size()
            + c.domains
                .iter()
                .map(|d| bytes_size(d.as_bytes()))
                .sum::<usize>()
            + 1
            + 3 * 8
            + varint_size(self.max_concurrent_jobs)
            + 8
            + bytes_size(self.endpoint.as_bytes())
    }
}

impl Read for RunnerProfile {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            key: read_plain(buf, "key")?,
            capabilities: Capabilities {
                job_types: read_plain(buf, "job_types")?,
                models: read_list(buf, "models", MAX_MODELS, |b| read_plain(b, "model"))?,
                domains: read_list(buf, "domains", MAX_DOMAINS, |b| {
                    read_string(b, "domain", MAX_DOMAIN_LEN)
                })?,
                tee: read_tag(buf, "tee")?,
            },
            rate_card: RateCard {
                per_job: read_u64_be(buf, "per_job")?,
                per_1k_tokens: read_u64_be(buf, "per_1k_tokens")?,
                per_second: read_u64_be(buf, "per_second")?,
            },
            max_concurrent_jobs: read_varint(buf, "max_concurrent_jobs")?,
            max_job_value: read_u64_be(buf, "max_job_value")?,
            endpoint: read_string(buf, "endpoint", MAX_ENDPOINT_LEN)?,
        })
    }
}

/// Stake on its way out: paid to the runner by a claim once the chain reaches `release_height`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Unbonding {
    #[serde(with = "amount")]
    pub amount: u64,
    pub release_height: u64,
}

/// The Runner Registry's record of one runner (storage key `runner:` ‖ address under
/// `0x…01`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Runner {
    pub profile: RunnerProfile,
    /// Bonded stake, slashable and counted for selection weight.
    #[serde(with = "amount")]
    pub stake: u64,
    /// Stake withdrawn or released by an exit, still slashable until paid out.
    pub unbonding: Unbonding,
    /// Reputation (0 to 100) as of `reputation_height`; penalties recover lazily (halving the
    /// deficit every `reputation.half_life_blocks`).
    pub reputation: u64,
    pub reputation_height: u64,
    pub registered_at: u64,
    pub last_heartbeat: u64,
    /// Jobs it is assigned to and has not finished.
    pub active_jobs: u64,
    /// The height it exited at: it is never selected again, and its record goes once its
    /// stake is paid out and its jobs are done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exited_at: Option<u64>,
}

impl Write for Runner {
    fn write(&self, buf: &mut impl BufMut) {
        self.profile.write(buf);
        self.stake.write(buf);
        self.unbonding.amount.write(buf);
        write_varint(self.unbonding.release_height, buf);
        write_varint(self.reputation, buf);
        write_varint(self.reputation_height, buf);
        write_varint(self.registered_at, buf);
        write_varint(self.last_heartbeat, buf);
        write_varint(self.active_jobs, buf);
        self.exited_at.is_some().write(buf);
        if let Some(h) = self.exited_at {
            write_varint(h, buf);
        }
    }
}

impl EncodeSize for Runner {
    fn encode_size(&self) -> usize {
        self.profile.encode_size()
            + 8
            + 8
            + varint_size(self.unbonding.release_height)
            + varint_size(self.reputation)
            + varint_size(self.reputation_height)
            + varint_size(self.registered_at)
            + varint_size(self.last_heartbeat)
            + varint_size(self.active_jobs)
            + 1
            + self.exited_at.map_or(0, varint_size)
    }
}

impl Read for Runner {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            profile: field(buf, "profile", |b| RunnerProfile::read_cfg(b, &()))?,
            stake: read_u64_be(buf, "stake")?,
            unbonding: Unbonding {
                amount: read_u64_be(buf, "unbonding")?,
                release_height: read_varint(buf, "release_height")?,
            },
            reputation: read_varint(buf, "reputation")?,
            reputation_height: read_varint(buf, "reputation_height")?,
            registered_at: read_varint(buf, "registered_at")?,
            last_heartbeat: read_varint(buf, "last_heartbeat")?,
            active_jobs: read_varint(buf, "active_jobs")?,
            exited_at: if read_tag(buf, "exited_at")? {
                Some(read_varint(buf, "exited_at")?)
            } else {
                None
            },
        })
    }
}

/// Storage keys of the market's system actors (documented in `book/src/reference/runners.md`).
pub mod storage {
    use crate::primitives::Address;

    /// Under every market system actor: its genesis record (name and version).
    pub const SYSTEM_ACTOR: &[u8] = b"system:actor";
    /// Under the Runner Registry: `runner:` ‖ address → [`super::Runner`].
    pub const RUNNER_PREFIX: &[u8] = b"runner:";

    pub fn runner(address: &Address) -> Vec<u8> {
        [RUNNER_PREFIX, &address.0].concat()
    }
}

/// The encoded genesis record of a system actor (`name`, `version`).
pub fn system_actor_record(name: &str, version: u64) -> Vec<u8> {
    let mut out = Vec::new();
    write_bytes(name.as_bytes(), &mut out);
    write_varint(version, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{decode_strict, encode_to_vec};

    pub(crate) fn profile() -> RunnerProfile {
        RunnerProfile {
            key: RunnerKey::Ed25519(Hash([7; 32])),
            capabilities: Capabilities {
                job_types: JobTypes::of(&[JobType::Http, JobType::Llm]),
                models: vec![Hash([1; 32])],
                domains: vec!["api.example.com".into(), "*.coingecko.com".into()],
                tee: false,
            },
            rate_card: RateCard {
                per_job: 1_000,
                per_1k_tokens: 20,
                per_second: 5,
            },
            max_concurrent_jobs: 4,
            max_job_value: 2_000,
            endpoint: "https://runner.example.com/push".into(),
        }
    }

    #[test]
    fn a_runner_round_trips_in_binary_and_json() {
        let r = Runner {
            profile: profile(),
            stake: 10_000,
            unbonding: Unbonding {
                amount: 5,
                release_height: 90,
            },
            reputation: 95,
            reputation_height: 12,
            registered_at: 3,
            last_heartbeat: 11,
            active_jobs: 2,
            exited_at: Some(40),
        };
        let bytes = encode_to_vec(&r);
        assert_eq!(bytes.len(), r.encode_size());
        assert_eq!(decode_strict::<Runner>(&bytes).expect("decodes"), r);
        let json = serde_json::to_string(&r).expect("json");
        assert_eq!(serde_json::from_str::<Runner>(&json).expect("parses"), r);
        assert!(json.contains(r#""job_types":["llm","http"]"#), "{json}");
    }

    #[test]
    fn unknown_job_type_bits_and_keys_are_refused() {
        let mut bytes = encode_to_vec(&profile());
        bytes[33] = 0x30; // job_types byte after the 33-byte key
        let e = decode_strict::<RunnerProfile>(&bytes).expect_err("refused");
        assert!(e.to_string().contains("job_types"), "{e}");
        let mut bytes = encode_to_vec(&profile());
        bytes[0] = 2;
        assert!(decode_strict::<RunnerProfile>(&bytes).is_err());
    }

    #[test]
    fn profiles_are_validated_field_by_field() {
        assert_eq!(profile().validate(), Ok(()));
        let mut p = profile();
        p.capabilities.job_types = JobTypes::default();
        assert_eq!(p.validate(), Err(ProfileError::NoJobTypes));
        let mut p = profile();
        p.capabilities.domains.push("Bad_Domain.com".into());
        assert!(matches!(p.validate(), Err(ProfileError::InvalidDomain(_))));
        let mut p = profile();
        p.max_concurrent_jobs = 0;
        assert_eq!(p.validate(), Err(ProfileError::Concurrency(0)));
        let mut p = profile();
        p.endpoint = "ftp://x".into();
        assert!(matches!(
            p.validate(),
            Err(ProfileError::InvalidEndpoint(_))
        ));
        p.endpoint = "https://".into();
        assert!(matches!(
            p.validate(),
            Err(ProfileError::InvalidEndpoint(_))
        ));
        let mut p = profile();
        p.capabilities.models.push(Hash([1; 32]));
        assert!(matches!(p.validate(), Err(ProfileError::DuplicateModel(_))));
    }

    #[test]
    fn stake_requirement_and_prices() {
        let mut p = profile();
        assert_eq!(p.required_stake(10_000), 10_000);
        p.max_job_value = 10_001;
        assert_eq!(p.required_stake(10_000), 15_002);
        p.max_job_value = u64::MAX;
        assert_eq!(p.required_stake(1), u64::MAX);
        let card = profile().rate_card;
        assert_eq!(card.price(0, 0), 1_000);
        assert_eq!(card.price(1_500, 2_000), 1_000 + 30 + 10);
    }
}
