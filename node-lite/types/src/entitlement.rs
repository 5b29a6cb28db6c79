//! Entitlements (CIP-2 §7, whitepaper §15): the Entitlement Registry's records and the
//! capabilities an actor declares at deployment.
//!
//! - [`ActorEntitlement`] / [`ActorEntitlements`]: what an actor's artifact declares
//!   (`http.fetch`, `llm.infer`, `mcp.invoke`, …). They are fixed at deployment in the actor's
//!   record; a job submission from an actor needs the one its job type calls for
//!   ([`ActorEntitlements::allows`]), whitepaper §15 "syscalls fail if the corresponding
//!   entitlement is missing".
//! - [`Scope`], [`Action`], [`Constraints`], [`Entitlement`] and [`Role`]: the CIP-2 §7.1 type
//!   system the registry (system actor `0x…07`) stores. Their codes are declared once
//!   ([`ScopeKind`], [`ActionKind`]); the JSON form of a scope or an action is one string,
//!   `kind` or `kind:operand` (`"runner_pool:0x706f6f6c"`, `"all"`).
//!
//! Encodings follow the rest of this crate: a kind byte then its operand (an address, a
//! 32-byte id, or a length-prefixed byte string of at most [`MAX_NAME_LEN`] bytes); records
//! field by field in declaration order.

use crate::{
    Address, Hash,
    bounded::{Bytes, List},
    codec::positioned,
    keccak256,
    primitives::{decode_hex, encode_hex},
    record,
    runner::{JobType, code_set, codes},
};
use bytes::BufMut;
use commonware_codec::{Buf, Encode, EncodeSize, Error as CodecError, Read, Write};
use serde::{Deserialize, Serialize};
use std::{fmt, str::FromStr};

/// Longest pool id, namespace, handler name, custom action or role name (bytes).
pub const MAX_NAME_LEN: usize = 64;
/// Most entitlements one address may hold (CIP-2 §7.5).
pub const MAX_ENTITLEMENTS_PER_ADDRESS: u64 = 256;
/// Most roles one address may be assigned (CIP-2 §7.5).
pub const MAX_ROLES_PER_ADDRESS: u64 = 64;
/// Longest delegation chain (CIP-2 §7.5: `delegation_depth_max` at most 5).
pub const MAX_DELEGATION_DEPTH: u8 = 5;
/// Most scopes, and most actions, one role collects (Cowboy decision: bounds a check's work).
pub const MAX_ROLE_ITEMS: usize = 16;

/// Cycles and cells each registry instruction costs (CIP-2 §7.4), on top of its bytes.
pub mod cost {
    /// `(cycles, cells)` of `EntitlementGrant`.
    pub const GRANT: (u64, u64) = (5_000, 500);
    /// `(cycles, cells)` of `EntitlementRevoke`.
    pub const REVOKE: (u64, u64) = (2_000, 100);
    /// `(cycles, cells)` of `EntitlementDelegate`.
    pub const DELEGATE: (u64, u64) = (3_000, 300);
    /// `(cycles, cells)` of `EntitlementCreateRole`.
    pub const CREATE_ROLE: (u64, u64) = (5_000, 500);
    /// `(cycles, cells)` of `EntitlementAssignRole` and `EntitlementRevokeRole`.
    pub const ASSIGN_ROLE: (u64, u64) = (2_000, 100);
}

// ---------------------------------------------------------------------------------------------
// What an actor declares.
// ---------------------------------------------------------------------------------------------

codes! {
    /// A capability an actor's manifest declares (whitepaper §15; `cowboy.toml`
    /// `entitlements`).
    ActorEntitlement {
        /// Submit HTTP jobs.
        HttpFetch = 0 => "http.fetch",
        /// Submit LLM jobs.
        LlmInfer = 1 => "llm.infer",
        /// Submit MCP tool calls.
        McpInvoke = 2 => "mcp.invoke",
        /// Run containers (reserved: no job type uses it yet).
        ContainerRun = 3 => "container.run",
        /// Mount volumes (reserved).
        VolumeMount = 4 => "volume.mount",
        /// Bridge assets (reserved).
        BridgeAsset = 5 => "bridge.asset",
        /// Subscribe to bridged events (reserved).
        BridgeSubscribeEvent = 6 => "bridge.subscribe_event",
    }
}

impl ActorEntitlement {
    /// The entitlement an actor needs to submit a job of type `t` (`custom` jobs need none:
    /// what they do is agreed between the actor and the runners that declare them).
    pub const fn required_for(t: JobType) -> Option<Self> {
        match t {
            JobType::Http => Some(Self::HttpFetch),
            JobType::Llm => Some(Self::LlmInfer),
            JobType::Mcp => Some(Self::McpInvoke),
            JobType::Custom => None,
        }
    }
}

impl FromStr for ActorEntitlement {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .iter()
            .copied()
            .find(|e| e.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|e| e.name()).collect();
                format!("unknown entitlement {s:?}; use one of {}", names.join(", "))
            })
    }
}

code_set! {
    /// The capabilities an actor declared at deployment. JSON: a list of names.
    ActorEntitlements of ActorEntitlement, "entitlements"
}

/// A job an actor may not submit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a {job_type} job needs the {needed} entitlement, and this actor did not declare it: add \"{needed}\" to its entitlements in cowboy.toml and deploy it again"
)]
pub struct MissingEntitlement {
    pub job_type: JobType,
    pub needed: ActorEntitlement,
}

impl ActorEntitlements {
    /// Whether an actor holding these may submit a job of type `t`.
    pub fn allows(self, t: JobType) -> Result<(), MissingEntitlement> {
        match ActorEntitlement::required_for(t) {
            Some(needed) if !self.contains(needed) => Err(MissingEntitlement {
                job_type: t,
                needed,
            }),
            _ => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The registry's type system (CIP-2 §7.1).
// ---------------------------------------------------------------------------------------------

/// An operand of at most [`MAX_NAME_LEN`] bytes (pool id, namespace, handler, custom name).
pub type Name = Bytes<MAX_NAME_LEN>;

codes! {
    /// The kinds of [`Scope`], with their codes and names.
    ScopeKind {
        Global = 0 => "global",
        Actor = 1 => "actor",
        Token = 2 => "token",
        Runner = 3 => "runner",
        RunnerPool = 4 => "runner_pool",
        Namespace = 5 => "namespace",
    }
}

/// The resource boundary a permission applies to (CIP-2 §7.1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Chain-wide.
    Global,
    Actor(Address),
    Token(Hash),
    Runner(Address),
    /// Runner Pool membership (CIP-2 §7.3).
    RunnerPool(Name),
    Namespace(Name),
}

impl Scope {
    pub fn kind(&self) -> ScopeKind {
        match self {
            Self::Global => ScopeKind::Global,
            Self::Actor(_) => ScopeKind::Actor,
            Self::Token(_) => ScopeKind::Token,
            Self::Runner(_) => ScopeKind::Runner,
            Self::RunnerPool(_) => ScopeKind::RunnerPool,
            Self::Namespace(_) => ScopeKind::Namespace,
        }
    }

    /// `keccak256` of the encoding: the key the registry files a scope under.
    pub fn hash(&self) -> Hash {
        keccak256(&self.encode())
    }
}

codes! {
    /// The kinds of [`Action`], with their codes and names.
    ActionKind {
        All = 0 => "all",
        TokenTransfer = 1 => "token_transfer",
        TokenMint = 2 => "token_mint",
        TokenBurn = 3 => "token_burn",
        TokenFreeze = 4 => "token_freeze",
        TokenSetHook = 5 => "token_set_hook",
        TokenTransferOwnership = 6 => "token_transfer_ownership",
        ActorDeploy = 7 => "actor_deploy",
        ActorSendMessage = 8 => "actor_send_message",
        ActorExecuteHandler = 9 => "actor_execute_handler",
        RunnerRegister = 10 => "runner_register",
        RunnerSubmitJob = 11 => "runner_submit_job",
        RunnerSubmitResult = 12 => "runner_submit_result",
        RunnerJoinPool = 13 => "runner_join_pool",
        SystemTransfer = 14 => "system_transfer",
        SystemCreateAccount = 15 => "system_create_account",
        SystemUpgrade = 16 => "system_upgrade",
        Custom = 17 => "custom",
    }
}

/// The permitted operation (CIP-2 §7.1; one per record).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Every action (wildcard).
    All,
    TokenTransfer,
    TokenMint,
    TokenBurn,
    TokenFreeze,
    TokenSetHook,
    TokenTransferOwnership,
    ActorDeploy,
    ActorSendMessage,
    ActorExecuteHandler(Name),
    /// Register as a runner, optionally below the stake floor (CIP-2 has a `u128`; amounts on
    /// this chain are `u64` base units).
    RunnerRegister {
        min_stake_override: Option<u64>,
    },
    RunnerSubmitJob,
    RunnerSubmitResult,
    /// Pool membership (CIP-2 §7.3).
    RunnerJoinPool(Name),
    SystemTransfer,
    SystemCreateAccount,
    SystemUpgrade,
    Custom(Name),
}

impl Action {
    pub fn kind(&self) -> ActionKind {
        use ActionKind as K;
        match self {
            Self::All => K::All,
            Self::TokenTransfer => K::TokenTransfer,
            Self::TokenMint => K::TokenMint,
            Self::TokenBurn => K::TokenBurn,
            Self::TokenFreeze => K::TokenFreeze,
            Self::TokenSetHook => K::TokenSetHook,
            Self::TokenTransferOwnership => K::TokenTransferOwnership,
            Self::ActorDeploy => K::ActorDeploy,
            Self::ActorSendMessage => K::ActorSendMessage,
            Self::ActorExecuteHandler(_) => K::ActorExecuteHandler,
            Self::RunnerRegister { .. } => K::RunnerRegister,
            Self::RunnerSubmitJob => K::RunnerSubmitJob,
            Self::RunnerSubmitResult => K::RunnerSubmitResult,
            Self::RunnerJoinPool(_) => K::RunnerJoinPool,
            Self::SystemTransfer => K::SystemTransfer,
            Self::SystemCreateAccount => K::SystemCreateAccount,
            Self::SystemUpgrade => K::SystemUpgrade,
            Self::Custom(_) => K::Custom,
        }
    }

    fn of_kind(kind: ActionKind, operand: Operand) -> Result<Self, String> {
        use ActionKind as K;
        let none = |a: Action, operand: Operand| match operand {
            Operand::None => Ok(a),
            _ => Err(format!("action {} takes no operand", kind.name())),
        };
        match kind {
            K::All => none(Self::All, operand),
            K::TokenTransfer => none(Self::TokenTransfer, operand),
            K::TokenMint => none(Self::TokenMint, operand),
            K::TokenBurn => none(Self::TokenBurn, operand),
            K::TokenFreeze => none(Self::TokenFreeze, operand),
            K::TokenSetHook => none(Self::TokenSetHook, operand),
            K::TokenTransferOwnership => none(Self::TokenTransferOwnership, operand),
            K::ActorDeploy => none(Self::ActorDeploy, operand),
            K::ActorSendMessage => none(Self::ActorSendMessage, operand),
            K::ActorExecuteHandler => operand.name(kind.name()).map(Self::ActorExecuteHandler),
            K::RunnerRegister => Ok(Self::RunnerRegister {
                min_stake_override: operand.amount(kind.name())?,
            }),
            K::RunnerSubmitJob => none(Self::RunnerSubmitJob, operand),
            K::RunnerSubmitResult => none(Self::RunnerSubmitResult, operand),
            K::RunnerJoinPool => operand.name(kind.name()).map(Self::RunnerJoinPool),
            K::SystemTransfer => none(Self::SystemTransfer, operand),
            K::SystemCreateAccount => none(Self::SystemCreateAccount, operand),
            K::SystemUpgrade => none(Self::SystemUpgrade, operand),
            K::Custom => operand.name(kind.name()).map(Self::Custom),
        }
    }

    /// Whether a record for `self` permits `wanted` (`All` permits everything).
    pub fn permits(&self, wanted: &Action) -> bool {
        self == &Action::All || self == wanted
    }
}

/// The text after `kind:` in a scope's or an action's string form.
enum Operand {
    None,
    Text(String),
}

impl Operand {
    fn name(self, kind: &str) -> Result<Name, String> {
        let Operand::Text(t) = self else {
            return Err(format!("{kind} needs an operand: {kind}:0x<hex bytes>"));
        };
        let bytes = decode_hex(&t).map_err(|e| format!("{kind}: {e}"))?;
        let len = bytes.len();
        Name::new(bytes).map_err(|_| format!("{kind}: {len} bytes; at most {MAX_NAME_LEN}"))
    }
    fn address(self, kind: &str) -> Result<Address, String> {
        let Operand::Text(t) = self else {
            return Err(format!("{kind} needs an address: {kind}:0x<40 hex digits>"));
        };
        t.parse().map_err(|e| format!("{kind}: {e}"))
    }
    fn hash(self, kind: &str) -> Result<Hash, String> {
        let Operand::Text(t) = self else {
            return Err(format!("{kind} needs an id: {kind}:0x<64 hex digits>"));
        };
        t.parse().map_err(|e| format!("{kind}: {e}"))
    }
    fn amount(self, kind: &str) -> Result<Option<u64>, String> {
        match self {
            Operand::None => Ok(None),
            Operand::Text(t) => t.parse().map(Some).map_err(|_| {
                format!("{kind}: the stake override {t:?} is not an amount in base units")
            }),
        }
    }
}

/// Splits `kind[:operand]` and finds the kind among `all`.
fn split<K: Copy + 'static>(
    s: &str,
    all: &'static [K],
    name: fn(K) -> &'static str,
    what: &str,
) -> Result<(K, Operand), String> {
    let (head, operand) = match s.split_once(':') {
        Some((h, o)) => (h, Operand::Text(o.to_owned())),
        None => (s, Operand::None),
    };
    let kind = all
        .iter()
        .copied()
        .find(|k| name(*k) == head)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|k| name(*k)).collect();
            format!("unknown {what} {head:?}; use one of {}", names.join(", "))
        })?;
    Ok((kind, operand))
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind().name();
        match self {
            Self::Global => f.write_str(kind),
            Self::Actor(a) | Self::Runner(a) => write!(f, "{kind}:{a}"),
            Self::Token(h) => write!(f, "{kind}:{h}"),
            Self::RunnerPool(n) | Self::Namespace(n) => write!(f, "{kind}:{}", encode_hex(n)),
        }
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (kind, operand) = split(s, ScopeKind::ALL, ScopeKind::name, "scope")?;
        let name = kind.name();
        Ok(match kind {
            ScopeKind::Global => match operand {
                Operand::None => Self::Global,
                Operand::Text(_) => return Err("scope global takes no operand".into()),
            },
            ScopeKind::Actor => Self::Actor(operand.address(name)?),
            ScopeKind::Token => Self::Token(operand.hash(name)?),
            ScopeKind::Runner => Self::Runner(operand.address(name)?),
            ScopeKind::RunnerPool => Self::RunnerPool(operand.name(name)?),
            ScopeKind::Namespace => Self::Namespace(operand.name(name)?),
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind().name();
        match self {
            Self::ActorExecuteHandler(n) | Self::RunnerJoinPool(n) | Self::Custom(n) => {
                write!(f, "{kind}:{}", encode_hex(n))
            }
            Self::RunnerRegister {
                min_stake_override: Some(v),
            } => write!(f, "{kind}:{v}"),
            _ => f.write_str(kind),
        }
    }
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (kind, operand) = split(s, ActionKind::ALL, ActionKind::name, "action")?;
        Self::of_kind(kind, operand)
    }
}

/// Serde through the string form, declared once for both.
macro_rules! string_serde {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                String::deserialize(d)?
                    .parse()
                    .map_err(serde::de::Error::custom)
            }
        }
    };
}
string_serde!(Scope);
string_serde!(Action);

impl Write for Scope {
    fn write(&self, buf: &mut impl BufMut) {
        self.kind().write(buf);
        match self {
            Self::Global => {}
            Self::Actor(a) | Self::Runner(a) => a.write(buf),
            Self::Token(h) => h.write(buf),
            Self::RunnerPool(n) | Self::Namespace(n) => n.write(buf),
        }
    }
}
impl EncodeSize for Scope {
    fn encode_size(&self) -> usize {
        1 + match self {
            Self::Global => 0,
            Self::Actor(a) | Self::Runner(a) => a.encode_size(),
            Self::Token(h) => h.encode_size(),
            Self::RunnerPool(n) | Self::Namespace(n) => n.encode_size(),
        }
    }
}
impl Read for Scope {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(match ScopeKind::read_cfg(buf, &())? {
            ScopeKind::Global => Self::Global,
            ScopeKind::Actor => Self::Actor(Address::read_cfg(buf, &())?),
            ScopeKind::Token => Self::Token(Hash::read_cfg(buf, &())?),
            ScopeKind::Runner => Self::Runner(Address::read_cfg(buf, &())?),
            ScopeKind::RunnerPool => Self::RunnerPool(Name::read_cfg(buf, &())?),
            ScopeKind::Namespace => Self::Namespace(Name::read_cfg(buf, &())?),
        })
    }
}

impl Write for Action {
    fn write(&self, buf: &mut impl BufMut) {
        self.kind().write(buf);
        match self {
            Self::ActorExecuteHandler(n) | Self::RunnerJoinPool(n) | Self::Custom(n) => {
                n.write(buf)
            }
            Self::RunnerRegister { min_stake_override } => min_stake_override.write(buf),
            _ => {}
        }
    }
}
impl EncodeSize for Action {
    fn encode_size(&self) -> usize {
        1 + match self {
            Self::ActorExecuteHandler(n) | Self::RunnerJoinPool(n) | Self::Custom(n) => {
                n.encode_size()
            }
            Self::RunnerRegister { min_stake_override } => min_stake_override.encode_size(),
            _ => 0,
        }
    }
}
impl Read for Action {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        use ActionKind as K;
        let start = buf.remaining();
        let kind = K::read_cfg(buf, &())?;
        Ok(match kind {
            K::ActorExecuteHandler => Self::ActorExecuteHandler(Name::read_cfg(buf, &())?),
            K::RunnerJoinPool => Self::RunnerJoinPool(Name::read_cfg(buf, &())?),
            K::Custom => Self::Custom(Name::read_cfg(buf, &())?),
            K::RunnerRegister => Self::RunnerRegister {
                min_stake_override: Option::<u64>::read_cfg(buf, &())?,
            },
            other => Self::of_kind(other, Operand::None)
                .map_err(|_| positioned("action", start, CodecError::InvalidEnum(other.code())))?,
        })
    }
}

record! {
    /// At most `max_uses` uses in any `window_blocks` consecutive blocks.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct RateLimit {
        pub max_uses: u64,
        pub window_blocks: u64,
    }
}

record! {
    /// Conditions on an entitlement's use (CIP-2 §7.1). Heights are inclusive: a record is
    /// valid from `valid_from` through `valid_until`. The default (and an omitted field in
    /// JSON) is open-ended, unlimited, not delegatable and **revocable**, so a grant made
    /// without constraints can be undone.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Constraints {
        #[serde(default)]
        pub valid_from: Option<u64>,
        #[serde(default)]
        pub valid_until: Option<u64>,
        /// 0: unlimited.
        #[serde(default)]
        pub max_uses: u64,
        #[serde(default)]
        pub used_count: u64,
        #[serde(default)]
        pub max_amount_per_use: Option<u64>,
        #[serde(default)]
        pub max_total_amount: Option<u64>,
        #[serde(default)]
        pub total_amount_used: u64,
        #[serde(default)]
        pub rate_limit: Option<RateLimit>,
        #[serde(default)]
        pub delegatable: bool,
        /// Longest delegation chain below this record (0: not delegatable).
        #[serde(default)]
        pub delegation_depth_max: u8,
        #[serde(default = "revocable_by_default")]
        pub revocable: bool,
    }
}

fn revocable_by_default() -> bool {
    true
}

impl Default for Constraints {
    fn default() -> Self {
        Self {
            valid_from: None,
            valid_until: None,
            max_uses: 0,
            used_count: 0,
            max_amount_per_use: None,
            max_total_amount: None,
            total_amount_used: 0,
            rate_limit: None,
            delegatable: false,
            delegation_depth_max: 0,
            revocable: true,
        }
    }
}

/// Constraints the registry refuses, one variant per rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConstraintsError {
    #[error("constraints.valid_from ({from}) is after constraints.valid_until ({until})")]
    EmptyWindow { from: u64, until: u64 },
    #[error(
        "constraints.used_count and constraints.total_amount_used start at 0; the registry counts uses"
    )]
    PresetUsage,
    #[error(
        "constraints.delegation_depth_max is {0}; it is at most {MAX_DELEGATION_DEPTH} (CIP-2 §7.5)"
    )]
    DepthTooLarge(u8),
    #[error(
        "constraints.delegatable and constraints.delegation_depth_max disagree: a delegatable record allows a depth of at least 1, a non-delegatable one 0"
    )]
    DelegationMismatch,
    #[error("constraints.rate_limit needs max_uses and window_blocks above 0")]
    RateLimit,
    #[error(
        "constraints.max_amount_per_use ({per_use}) is above constraints.max_total_amount ({total})"
    )]
    AmountPerUse { per_use: u64, total: u64 },
    #[error("a delegated record's constraints must be within its parent's: {0}")]
    NotSubset(&'static str),
}

impl Constraints {
    /// The rules a fresh record's constraints follow.
    pub fn validate(&self) -> Result<(), ConstraintsError> {
        if let (Some(from), Some(until)) = (self.valid_from, self.valid_until)
            && from > until
        {
            return Err(ConstraintsError::EmptyWindow { from, until });
        }
        if self.used_count != 0 || self.total_amount_used != 0 {
            return Err(ConstraintsError::PresetUsage);
        }
        if self.delegation_depth_max > MAX_DELEGATION_DEPTH {
            return Err(ConstraintsError::DepthTooLarge(self.delegation_depth_max));
        }
        if self.delegatable != (self.delegation_depth_max > 0) {
            return Err(ConstraintsError::DelegationMismatch);
        }
        if let Some(r) = self.rate_limit
            && (r.max_uses == 0 || r.window_blocks == 0)
        {
            return Err(ConstraintsError::RateLimit);
        }
        if let (Some(per_use), Some(total)) = (self.max_amount_per_use, self.max_total_amount)
            && per_use > total
        {
            return Err(ConstraintsError::AmountPerUse { per_use, total });
        }
        Ok(())
    }

    /// Whether a delegate's constraints `self` stay within `parent`'s (CIP-2 §7.2: "a strict
    /// subset of parent constraints"): a window inside the parent's, no more uses than the
    /// parent has left, amounts and rate no larger, and a shorter delegation chain.
    pub fn within(&self, parent: &Constraints) -> Result<(), ConstraintsError> {
        use ConstraintsError::NotSubset;
        self.validate()?;
        if parent.valid_from.unwrap_or(0) > self.valid_from.unwrap_or(0) {
            return Err(NotSubset("valid_from is before the parent's"));
        }
        if let Some(until) = parent.valid_until
            && self.valid_until.is_none_or(|u| u > until)
        {
            return Err(NotSubset("valid_until is after the parent's"));
        }
        if parent.max_uses > 0 {
            let left = parent.max_uses.saturating_sub(parent.used_count);
            if self.max_uses == 0 || self.max_uses > left {
                return Err(NotSubset("max_uses is above the parent's uses left"));
            }
        }
        let within = |child: Option<u64>, parent: Option<u64>| match parent {
            None => true,
            Some(p) => child.is_some_and(|c| c <= p),
        };
        if !within(self.max_amount_per_use, parent.max_amount_per_use)
            || !within(
                self.max_total_amount,
                parent
                    .max_total_amount
                    .map(|t| t.saturating_sub(parent.total_amount_used)),
            )
        {
            return Err(NotSubset("an amount limit is above the parent's"));
        }
        if let Some(p) = parent.rate_limit
            && self
                .rate_limit
                .is_none_or(|c| c.max_uses > p.max_uses || c.window_blocks < p.window_blocks)
        {
            return Err(NotSubset("rate_limit is looser than the parent's"));
        }
        if parent.revocable && !self.revocable {
            return Err(NotSubset(
                "a revocable record's delegates are revocable too",
            ));
        }
        if self.delegation_depth_max >= parent.delegation_depth_max {
            return Err(NotSubset("delegation_depth_max must be below the parent's"));
        }
        Ok(())
    }

    /// Whether a record with these constraints may be used at `height` (window and uses; a
    /// rate limit is checked by whoever counts uses).
    pub fn live_at(&self, height: u64) -> bool {
        self.valid_from.is_none_or(|f| height >= f)
            && self.valid_until.is_none_or(|u| height <= u)
            && (self.max_uses == 0 || self.used_count < self.max_uses)
    }

    /// Whether the record can never be used again after `height` (window over or uses spent):
    /// the registry deletes it on its next check (CIP-2 §7.5 "lazy expiry cleanup").
    pub fn spent_at(&self, height: u64) -> bool {
        self.valid_until.is_some_and(|u| height > u)
            || (self.max_uses > 0 && self.used_count >= self.max_uses)
    }
}

record! {
    /// One entitlement: one scope and one action (CIP-2 §7.1), with who granted it, when,
    /// and how deep in a delegation chain it is (0: granted directly). Storage key `ent:` ‖ id
    /// under `0x…07`. `nonce` is the registry's count when the record was created (a renewal
    /// keeps it); a delegate holds its parent's in `parent_nonce`, so a parent revoked and
    /// granted again under the same id does not bring its old delegates back.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Entitlement {
        pub grantee: Address,
        pub scope: Scope,
        pub action: Action,
        pub constraints: Constraints,
        pub parent_id: Option<Hash>,
        pub granter: Address,
        pub granted_at: u64,
        pub depth: u8,
        pub nonce: u64,
        pub parent_nonce: u64,
    }
}

/// `keccak256(grantee ‖ scope ‖ action ‖ parent_id?)` (CIP-2 §7.1), the scope and action in
/// their encodings, the parent id's 32 bytes only when there is one.
pub fn entitlement_id(
    grantee: &Address,
    scope: &Scope,
    action: &Action,
    parent: Option<&Hash>,
) -> Hash {
    let mut data = grantee.0.to_vec();
    data.extend_from_slice(&scope.encode());
    data.extend_from_slice(&action.encode());
    if let Some(p) = parent {
        data.extend_from_slice(&p.0);
    }
    keccak256(&data)
}

record! {
    /// A named permission set (CIP-2 §7.1): whoever is assigned it holds every (scope, action)
    /// pair of it under its constraints. Storage key `role:` ‖ id under `0x…07`.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Role {
        pub name: Name,
        pub creator: Address,
        pub scopes: List<Scope, MAX_ROLE_ITEMS>,
        pub actions: List<Action, MAX_ROLE_ITEMS>,
        pub constraints: Constraints,
        pub created_at: u64,
    }
}

/// `keccak256("cowboy-role:" ‖ creator ‖ name)` (Cowboy decision: CIP-2 leaves role ids
/// open; binding the creator means nobody can take another's role name).
pub fn role_id(creator: &Address, name: &[u8]) -> Hash {
    keccak256(&[b"cowboy-role:".as_slice(), &creator.0, name].concat())
}

// ---------------------------------------------------------------------------------------------
// The registry's instructions (CIP-2 §7.2, sub-types 30–35 of `System`).
// ---------------------------------------------------------------------------------------------

/// Longest codec-encoded operand an entitlement instruction carries (a scope, an action, a
/// constraints record, or a role's scope or action list).
pub const MAX_OPERAND_BYTES: usize = 4_096;

/// The Entitlement Registry's instructions, exactly as CIP-2 §7.2 numbers and shapes them:
/// scopes, actions and constraints travel as length-prefixed codec-encoded bytes (decoded
/// strictly, so each has one encoding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntitlementOp {
    /// Grant `grantee` one (scope, action) under `constraints` (30).
    Grant {
        grantee: Address,
        scope: Scope,
        action: Action,
        constraints: Constraints,
    },
    /// Revoke a record the sender granted, or one in a scope it owns (31).
    Revoke { entitlement_id: Hash },
    /// Pass a delegatable record the sender holds on to `delegatee` (32).
    Delegate {
        entitlement_id: Hash,
        delegatee: Address,
        constraints: Constraints,
    },
    /// Create a role collecting scopes and actions (33).
    CreateRole {
        name: Name,
        scopes: List<Scope, MAX_ROLE_ITEMS>,
        actions: List<Action, MAX_ROLE_ITEMS>,
        constraints: Constraints,
    },
    /// Assign a role the sender created (34).
    AssignRole { role_id: Hash, assignee: Address },
    /// Take a role back (35).
    RevokeRole { role_id: Hash, assignee: Address },
}

impl EntitlementOp {
    /// The `System` sub-type (CIP-2 §7.2).
    pub fn sub_type(&self) -> u8 {
        use crate::instruction::system_op as op;
        match self {
            Self::Grant { .. } => op::ENTITLEMENT_GRANT,
            Self::Revoke { .. } => op::ENTITLEMENT_REVOKE,
            Self::Delegate { .. } => op::ENTITLEMENT_DELEGATE,
            Self::CreateRole { .. } => op::ENTITLEMENT_CREATE_ROLE,
            Self::AssignRole { .. } => op::ENTITLEMENT_ASSIGN_ROLE,
            Self::RevokeRole { .. } => op::ENTITLEMENT_REVOKE_ROLE,
        }
    }

    /// A short human name.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Grant { .. } => "entitlement_grant",
            Self::Revoke { .. } => "entitlement_revoke",
            Self::Delegate { .. } => "entitlement_delegate",
            Self::CreateRole { .. } => "entitlement_create_role",
            Self::AssignRole { .. } => "entitlement_assign_role",
            Self::RevokeRole { .. } => "entitlement_revoke_role",
        }
    }

    /// `(cycles, cells)` CIP-2 §7.4 prices it at.
    pub fn cost(&self) -> (u64, u64) {
        match self {
            Self::Grant { .. } => cost::GRANT,
            Self::Revoke { .. } => cost::REVOKE,
            Self::Delegate { .. } => cost::DELEGATE,
            Self::CreateRole { .. } => cost::CREATE_ROLE,
            Self::AssignRole { .. } | Self::RevokeRole { .. } => cost::ASSIGN_ROLE,
        }
    }

    /// Writes the body (after the category and sub-type bytes).
    pub fn write_body(&self, buf: &mut impl BufMut) {
        match self {
            Self::Grant {
                grantee,
                scope,
                action,
                constraints,
            } => {
                grantee.write(buf);
                write_nested(scope, buf);
                write_nested(action, buf);
                write_nested(constraints, buf);
            }
            Self::Revoke { entitlement_id } => entitlement_id.write(buf),
            Self::Delegate {
                entitlement_id,
                delegatee,
                constraints,
            } => {
                entitlement_id.write(buf);
                delegatee.write(buf);
                write_nested(constraints, buf);
            }
            Self::CreateRole {
                name,
                scopes,
                actions,
                constraints,
            } => {
                name.write(buf);
                write_nested(scopes, buf);
                write_nested(actions, buf);
                write_nested(constraints, buf);
            }
            Self::AssignRole { role_id, assignee } | Self::RevokeRole { role_id, assignee } => {
                role_id.write(buf);
                assignee.write(buf);
            }
        }
    }

    /// The body's encoded width.
    pub fn body_size(&self) -> usize {
        match self {
            Self::Grant {
                scope,
                action,
                constraints,
                ..
            } => Address::LEN + nested_size(scope) + nested_size(action) + nested_size(constraints),
            Self::Revoke { .. } => Hash::LEN,
            Self::Delegate { constraints, .. } => {
                Hash::LEN + Address::LEN + nested_size(constraints)
            }
            Self::CreateRole {
                name,
                scopes,
                actions,
                constraints,
            } => {
                name.encode_size()
                    + nested_size(scopes)
                    + nested_size(actions)
                    + nested_size(constraints)
            }
            Self::AssignRole { .. } | Self::RevokeRole { .. } => Hash::LEN + Address::LEN,
        }
    }

    /// Reads the body of sub-type `sub` (30–35), or `None` for another sub-type.
    pub fn read_body(sub: u8, buf: &mut impl Buf) -> Option<Result<Self, CodecError>> {
        use crate::codec::{field, read_plain};
        use crate::instruction::system_op as op;
        Some(match sub {
            op::ENTITLEMENT_GRANT => field(buf, "entitlement_grant", |b| {
                Ok(Self::Grant {
                    grantee: read_plain(b, "grantee")?,
                    scope: read_nested(b, "scope")?,
                    action: read_nested(b, "action")?,
                    constraints: read_nested(b, "constraints")?,
                })
            }),
            op::ENTITLEMENT_REVOKE => field(buf, "entitlement_revoke", |b| {
                Ok(Self::Revoke {
                    entitlement_id: read_plain(b, "entitlement_id")?,
                })
            }),
            op::ENTITLEMENT_DELEGATE => field(buf, "entitlement_delegate", |b| {
                Ok(Self::Delegate {
                    entitlement_id: read_plain(b, "entitlement_id")?,
                    delegatee: read_plain(b, "delegatee")?,
                    constraints: read_nested(b, "constraints")?,
                })
            }),
            op::ENTITLEMENT_CREATE_ROLE => field(buf, "entitlement_create_role", |b| {
                Ok(Self::CreateRole {
                    name: read_plain(b, "name")?,
                    scopes: read_nested(b, "scopes")?,
                    actions: read_nested(b, "actions")?,
                    constraints: read_nested(b, "constraints")?,
                })
            }),
            op::ENTITLEMENT_ASSIGN_ROLE => field(buf, "entitlement_assign_role", |b| {
                Ok(Self::AssignRole {
                    role_id: read_plain(b, "role_id")?,
                    assignee: read_plain(b, "assignee")?,
                })
            }),
            op::ENTITLEMENT_REVOKE_ROLE => field(buf, "entitlement_revoke_role", |b| {
                Ok(Self::RevokeRole {
                    role_id: read_plain(b, "role_id")?,
                    assignee: read_plain(b, "assignee")?,
                })
            }),
            _ => return None,
        })
    }
}

/// A value as CIP-2 §7.2 carries it: its encoding, length-prefixed.
fn write_nested<T: Encode>(v: &T, buf: &mut impl BufMut) {
    crate::codec::write_bytes(&v.encode(), buf);
}

fn nested_size<T: Encode>(v: &T) -> usize {
    crate::codec::bytes_size(&v.encode())
}

/// Reads a length-prefixed encoding and decodes it strictly (no trailing bytes).
fn read_nested<T: Read<Cfg = ()>>(buf: &mut impl Buf, name: &'static str) -> Result<T, CodecError> {
    let start = buf.remaining();
    let bytes = crate::codec::read_bytes(buf, name, MAX_OPERAND_BYTES)?;
    crate::codec::decode_strict::<T>(&bytes)
        .map_err(|e| positioned(name, start, CodecError::Invalid(name, rule_text(&e.rule))))
}

/// The static text of a nested decoding failure (the codec's error carries `&'static str`).
fn rule_text(rule: &crate::codec::Rule) -> &'static str {
    use crate::codec::Rule;
    match rule {
        Rule::Truncated => "the encoded operand ends early",
        Rule::TrailingBytes(_) => "the encoded operand has bytes after its end",
        Rule::UnknownDiscriminant(_) => "the encoded operand has an unknown kind",
        Rule::LengthTooLarge { .. } => "the encoded operand has a list or name that is too long",
        _ => "the encoded operand is not canonical",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::decode_strict;

    #[test]
    fn scopes_and_actions_round_trip_through_bytes_and_text() {
        let scopes = [
            Scope::Global,
            Scope::Actor(Address([7; 20])),
            Scope::Token(Hash([9; 32])),
            Scope::Runner(Address([1; 20])),
            Scope::RunnerPool(Name::new(b"pool".to_vec()).unwrap()),
            Scope::Namespace(Name::new(Vec::new()).unwrap()),
        ];
        for s in scopes {
            assert_eq!(decode_strict::<Scope>(&s.encode()).unwrap(), s);
            assert_eq!(s.to_string().parse::<Scope>().unwrap(), s);
        }
        let actions = [
            Action::All,
            Action::RunnerJoinPool(Name::new(b"pool".to_vec()).unwrap()),
            Action::RunnerRegister {
                min_stake_override: Some(5),
            },
            Action::RunnerRegister {
                min_stake_override: None,
            },
            Action::SystemUpgrade,
            Action::Custom(Name::new(vec![0xff]).unwrap()),
        ];
        for a in actions {
            assert_eq!(decode_strict::<Action>(&a.encode()).unwrap(), a);
            assert_eq!(a.to_string().parse::<Action>().unwrap(), a);
        }
        assert_eq!(
            "runner_pool:0x706f6f6c"
                .parse::<Scope>()
                .unwrap()
                .to_string(),
            "runner_pool:0x706f6f6c"
        );
        assert!(
            "pool:0x00"
                .parse::<Scope>()
                .unwrap_err()
                .contains("unknown scope \"pool\"")
        );
        assert!("global:0x00".parse::<Scope>().is_err());
        assert!("all:1".parse::<Action>().is_err());
        assert!(decode_strict::<Scope>(&[6]).is_err());
        assert!(decode_strict::<Action>(&[18]).is_err());
    }

    #[test]
    fn constraints_rules() {
        let ok = Constraints {
            valid_until: Some(10),
            delegatable: true,
            delegation_depth_max: 2,
            revocable: true,
            ..Default::default()
        };
        assert_eq!(ok.validate(), Ok(()));
        let mut c = ok;
        c.valid_from = Some(11);
        assert!(matches!(
            c.validate(),
            Err(ConstraintsError::EmptyWindow { .. })
        ));
        let mut c = ok;
        c.delegation_depth_max = 6;
        assert_eq!(c.validate(), Err(ConstraintsError::DepthTooLarge(6)));
        let mut c = ok;
        c.delegatable = false;
        assert_eq!(c.validate(), Err(ConstraintsError::DelegationMismatch));
        let mut c = ok;
        c.used_count = 1;
        assert_eq!(c.validate(), Err(ConstraintsError::PresetUsage));
        // A delegate: inside the window, a shorter chain.
        let child = Constraints {
            valid_until: Some(9),
            delegatable: true,
            delegation_depth_max: 1,
            ..Default::default()
        };
        assert_eq!(child.within(&ok), Ok(()));
        let mut loose = child;
        loose.valid_until = None;
        assert!(loose.within(&ok).is_err());
        let mut deep = child;
        deep.delegation_depth_max = 2;
        assert!(deep.within(&ok).is_err());
        assert!(ok.live_at(10) && !ok.live_at(11) && ok.spent_at(11) && !ok.spent_at(10));
    }

    #[test]
    fn actor_entitlements_gate_job_types() {
        let set = ActorEntitlements::of(&[ActorEntitlement::HttpFetch]);
        assert!(set.allows(JobType::Http).is_ok());
        assert!(set.allows(JobType::Custom).is_ok());
        let e = set.allows(JobType::Llm).unwrap_err();
        assert!(e.to_string().contains("llm.infer"), "{e}");
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(json, r#"["http.fetch"]"#);
        assert!(
            serde_json::from_str::<ActorEntitlements>(r#"["http.fetch","http.fetch"]"#).is_err()
        );
        assert!(decode_strict::<ActorEntitlements>(&[0x80]).is_err());
    }
}
