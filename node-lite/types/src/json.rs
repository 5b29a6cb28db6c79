//! The JSON form of a transaction used by `cowboy sign`, `cowboy tx decode` and the RPC.
//!
//! Scalars (`chain_id`, `nonce`, limits and fees) are JSON numbers; amounts are decimal strings so
//! they survive any JSON parser; byte strings are `0x`-hex; unknown fields are rejected so a typo
//! never silently drops a value. Errors name the field path that was wrong.

use crate::{
    actor::canonicalize_source,
    bounded::List,
    entitlement::{
        Action, ActorEntitlements, Constraints, EntitlementOp, MAX_ROLE_ITEMS, Name, Scope,
    },
    instruction::{ActorInstruction, Instruction, SystemInstruction, TimerBid, TimerSpec},
    job::{JobSpec, Reveal},
    primitives::{Address, Hash, ParseHexError, Signature, decode_hex, encode_hex},
    runner::RunnerProfile,
    tee::Attestation,
    transaction::{AccessListEntry, AdditionalSigner, Origin, Transaction},
};
use serde::{Deserialize, Deserializer, Serialize, Serializer, de};
use std::fmt;

/// A transaction JSON document that failed to parse, with the path of the offending field.
#[derive(Debug, thiserror::Error)]
#[error("{}{message}", if path.is_empty() || path == "." { String::new() } else { format!("field `{path}`: ") })]
pub struct JsonError {
    /// Dotted path of the field, e.g. `instruction.transfer.amount`.
    pub path: String,
    pub message: String,
}

/// A base-unit amount, written in JSON as a decimal string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Amount(pub u64);

impl schemars::JsonSchema for Amount {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Amount".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^(0|[1-9][0-9]*)$",
            "description": "an amount in base units (1 CBY = 10^9), as a decimal string",
        })
    }
}

impl Serialize for Amount {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Amount;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an amount as a decimal string such as \"1000\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Amount, E> {
                if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(E::custom(format!(
                        "invalid amount {s:?}: expected decimal digits only, such as \"1000\""
                    )));
                }
                s.parse::<u64>().map(Amount).map_err(|_| {
                    E::custom(format!(
                        "amount {s} is larger than the maximum {}",
                        u64::MAX
                    ))
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// A `u64` that must be a JSON number (not a string, not a float, not negative).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Uint(pub u64);

impl schemars::JsonSchema for Uint {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Uint".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "integer",
            "minimum": 0,
            "maximum": u64::MAX,
            "description": "an unsigned 64-bit integer, as a JSON number",
        })
    }
}

impl Serialize for Uint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for Uint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Uint;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "an unsigned 64-bit integer written as a JSON number (e.g. 42, not \"42\")",
                )
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Uint, E> {
                Ok(Uint(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Uint, E> {
                u64::try_from(v).map(Uint).map_err(|_| {
                    E::custom(format!("{v} is negative; expected an unsigned integer"))
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// Bytes written as a `0x`-prefixed hex string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HexBytes(pub Vec<u8>);

impl schemars::JsonSchema for HexBytes {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HexBytes".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^0x([0-9a-fA-F]{2})*$",
            "description": "bytes, 0x-prefixed hex",
        })
    }
}

impl Serialize for HexBytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&encode_hex(&self.0))
    }
}

impl<'de> Deserialize<'de> for HexBytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = HexBytes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a 0x-prefixed hex string such as \"0x\" or \"0x01ff\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<HexBytes, E> {
                decode_hex(s)
                    .map(HexBytes)
                    .map_err(|e: ParseHexError| E::custom(e))
            }
        }
        d.deserialize_any(V)
    }
}

/// JSON form of [`TimerSpec`] fields shared by `set_timer` and `set_interval`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimerJson {
    pub actor: Address,
    pub handler: String,
    #[serde(default)]
    pub args: HexBytes,
    pub cycles_per_fire: Uint,
    pub cells_per_fire: Uint,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<Uint>,
    /// §5.1b auction bid per cycle (omit to let the default gas-bidding agent bid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<TimerBidJson>,
}

/// JSON form of a [`TimerBid`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimerBidJson {
    pub max_fee_per_cycle: Uint,
    pub max_priority_fee_per_cycle: Uint,
}

/// JSON form of an [`Instruction`]: an object with exactly one key naming the operation.
/// (In its JSON Schema, the runner, job and entitlement payloads are any JSON value: their
/// rules are checked when the transaction is parsed.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum InstructionJson {
    Transfer {
        to: Address,
        amount: Amount,
    },
    Deploy {
        /// Python source text; canonicalised (NFC, LF, no BOM) when converted.
        code: String,
        #[serde(default)]
        salt: Hash,
        #[serde(default)]
        init_args: HexBytes,
        #[serde(default)]
        value: Amount,
        /// What the actor may do (whitepaper §15), e.g. `["http.fetch"]`.
        #[serde(default)]
        #[schemars(with = "Vec<String>")]
        entitlements: ActorEntitlements,
    },
    Call {
        to: Address,
        method: String,
        #[serde(default)]
        args: HexBytes,
        #[serde(default)]
        value: Amount,
    },
    SetTimer {
        timer: TimerJson,
        height: Uint,
    },
    SetInterval {
        timer: TimerJson,
        start_height: Uint,
        every_blocks: Uint,
    },
    CancelTimer {
        timer_id: Hash,
    },
    RunnerRegister {
        #[schemars(with = "serde_json::Value")]
        profile: Box<RunnerProfile>,
        stake: Amount,
    },
    RunnerUpdate {
        #[schemars(with = "serde_json::Value")]
        profile: Box<RunnerProfile>,
    },
    RunnerHeartbeat {},
    RunnerAddStake {
        amount: Amount,
    },
    RunnerWithdrawStake {
        amount: Amount,
    },
    RunnerExit {},
    RunnerClaim {},
    RunnerAttest {
        #[schemars(with = "serde_json::Value")]
        attestation: Box<Attestation>,
    },
    JobSubmit {
        #[schemars(with = "serde_json::Value")]
        spec: Box<JobSpec>,
    },
    JobCommit {
        job_id: Hash,
        commitment: Hash,
    },
    JobReveal {
        job_id: Hash,
        #[schemars(with = "serde_json::Value")]
        reveals: List<Reveal, 32>,
    },
    JobChallenge {
        job_id: Hash,
        bond: Amount,
    },
    EntitlementGrant {
        grantee: Address,
        /// `kind[:operand]`, e.g. `runner_pool:0x706f6f6c`.
        #[schemars(with = "String")]
        scope: Scope,
        /// `kind[:operand]`, e.g. `runner_join_pool:0x706f6f6c`.
        #[schemars(with = "String")]
        action: Action,
        #[serde(default)]
        #[schemars(with = "serde_json::Value")]
        constraints: Constraints,
    },
    EntitlementRevoke {
        entitlement_id: Hash,
    },
    EntitlementDelegate {
        entitlement_id: Hash,
        delegatee: Address,
        #[serde(default)]
        #[schemars(with = "serde_json::Value")]
        constraints: Constraints,
    },
    EntitlementCreateRole {
        /// The role's name as `0x`-hex bytes.
        #[schemars(with = "HexBytes")]
        name: Name,
        #[schemars(with = "Vec<String>")]
        scopes: List<Scope, MAX_ROLE_ITEMS>,
        #[schemars(with = "Vec<String>")]
        actions: List<Action, MAX_ROLE_ITEMS>,
        #[serde(default)]
        #[schemars(with = "serde_json::Value")]
        constraints: Constraints,
    },
    EntitlementAssignRole {
        role_id: Hash,
        assignee: Address,
    },
    EntitlementRevokeRole {
        role_id: Hash,
        assignee: Address,
    },
}

/// JSON form of one access-list entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccessListEntryJson {
    pub address: Address,
    #[serde(default)]
    pub storage_keys: Vec<Hash>,
}

/// JSON form of the deferred-transaction origin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OriginJson {
    pub tx_hash: Hash,
    pub remaining_cycles: Uint,
    pub remaining_cells: Uint,
}

/// JSON form of a co-signer. As signing input the signature may be omitted: co-signers add it
/// later with `cowboy sign --cosign`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SignerJson {
    pub address: Address,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Signature>,
}

/// The JSON form of a transaction.
///
/// As input to signing, `from` is optional (it is derived from the key; if given it must match)
/// and `signature`/`hash` must be absent. As output of decoding, all are present.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransactionJson {
    pub chain_id: Uint,
    pub nonce: Uint,
    pub instruction: InstructionJson,
    pub cycles_limit: Uint,
    pub cells_limit: Uint,
    pub max_fee_per_cycle: Uint,
    pub max_fee_per_cell: Uint,
    pub max_priority_fee_per_cycle: Uint,
    pub max_priority_fee_per_cell: Uint,
    #[serde(default)]
    pub metadata: HexBytes,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_list: Option<Vec<AccessListEntryJson>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<OriginJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_signers: Vec<SignerJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Address>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Signature>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<Hash>,
}

impl TransactionJson {
    /// Parses a JSON document, naming the offending field on failure.
    pub fn parse(text: &str) -> Result<Self, JsonError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let parsed: Self = serde_path_to_error::deserialize(&mut de).map_err(|e| JsonError {
            path: e.path().to_string(),
            message: e.into_inner().to_string(),
        })?;
        de.end().map_err(|e| JsonError {
            path: String::new(),
            message: e.to_string(),
        })?;
        Ok(parsed)
    }

    /// Builds the unsigned transaction this document describes, sent from `from`. Fails if
    /// the document names a different `from`, or carries a signature or hash (those are outputs).
    pub fn into_unsigned(self, from: Address) -> Result<Transaction, JsonError> {
        if let Some(given) = self.from
            && given != from
        {
            return Err(JsonError {
                path: "from".into(),
                message: format!(
                    "{given} does not match the signing key's address {from}; \
                     remove `from` or sign with the matching key"
                ),
            });
        }
        if self.signature.is_some() || self.hash.is_some() {
            return Err(JsonError {
                path: if self.signature.is_some() {
                    "signature"
                } else {
                    "hash"
                }
                .into(),
                message: "is an output of signing; remove it from the input".into(),
            });
        }
        let mut tx = self.into_transaction_unchecked(from);
        tx.signature = Signature::ZERO;
        if let Some(i) = (1..tx.additional_signers.len())
            .find(|&i| tx.additional_signers[i - 1].address >= tx.additional_signers[i].address)
        {
            return Err(JsonError {
                path: format!("additional_signers[{i}]"),
                message: format!(
                    "{} breaks the order: co-signers must be listed in strictly ascending address order, without duplicates",
                    tx.additional_signers[i].address
                ),
            });
        }
        if tx.additional_signers.iter().any(|s| s.address == from) {
            return Err(JsonError {
                path: "additional_signers".into(),
                message: format!("the sender {from} cannot also be a co-signer"),
            });
        }
        Ok(tx)
    }

    fn into_transaction_unchecked(self, from: Address) -> Transaction {
        Transaction {
            chain_id: self.chain_id.0,
            nonce: self.nonce.0,
            instruction: self.instruction.into(),
            cycles_limit: self.cycles_limit.0,
            cells_limit: self.cells_limit.0,
            max_fee_per_cycle: self.max_fee_per_cycle.0,
            max_fee_per_cell: self.max_fee_per_cell.0,
            max_priority_fee_per_cycle: self.max_priority_fee_per_cycle.0,
            max_priority_fee_per_cell: self.max_priority_fee_per_cell.0,
            from,
            access_list: self.access_list.map(|l| {
                l.into_iter()
                    .map(|e| AccessListEntry {
                        address: e.address,
                        storage_keys: e.storage_keys,
                    })
                    .collect()
            }),
            metadata: self.metadata.0,
            origin: self.origin.map(|o| Origin {
                tx_hash: o.tx_hash,
                remaining_cycles: o.remaining_cycles.0,
                remaining_cells: o.remaining_cells.0,
            }),
            signature: self.signature.unwrap_or(Signature::ZERO),
            additional_signers: self
                .additional_signers
                .into_iter()
                .map(|s| AdditionalSigner {
                    address: s.address,
                    signature: s.signature.unwrap_or(Signature::ZERO),
                })
                .collect(),
        }
    }
}

impl From<&Transaction> for TransactionJson {
    fn from(tx: &Transaction) -> Self {
        Self {
            chain_id: Uint(tx.chain_id),
            nonce: Uint(tx.nonce),
            instruction: (&tx.instruction).into(),
            cycles_limit: Uint(tx.cycles_limit),
            cells_limit: Uint(tx.cells_limit),
            max_fee_per_cycle: Uint(tx.max_fee_per_cycle),
            max_fee_per_cell: Uint(tx.max_fee_per_cell),
            max_priority_fee_per_cycle: Uint(tx.max_priority_fee_per_cycle),
            max_priority_fee_per_cell: Uint(tx.max_priority_fee_per_cell),
            metadata: HexBytes(tx.metadata.clone()),
            access_list: tx.access_list.as_ref().map(|l| {
                l.iter()
                    .map(|e| AccessListEntryJson {
                        address: e.address,
                        storage_keys: e.storage_keys.clone(),
                    })
                    .collect()
            }),
            origin: tx.origin.as_ref().map(|o| OriginJson {
                tx_hash: o.tx_hash,
                remaining_cycles: Uint(o.remaining_cycles),
                remaining_cells: Uint(o.remaining_cells),
            }),
            additional_signers: tx
                .additional_signers
                .iter()
                .map(|s| SignerJson {
                    address: s.address,
                    signature: Some(s.signature),
                })
                .collect(),
            from: Some(tx.from),
            signature: Some(tx.signature),
            hash: Some(tx.digest()),
        }
    }
}

fn entitlement(op: EntitlementOp) -> Instruction {
    Instruction::System(SystemInstruction::Entitlement(op))
}

impl From<InstructionJson> for Instruction {
    fn from(j: InstructionJson) -> Self {
        let timer = |t: TimerJson| TimerSpec {
            actor: t.actor,
            handler: t.handler,
            args: t.args.0,
            cycles_per_fire: t.cycles_per_fire.0,
            cells_per_fire: t.cells_per_fire.0,
            expires_at: t.expires_at.map(|h| h.0),
            bid: t.bid.map(|b| TimerBid {
                max_fee_per_cycle: b.max_fee_per_cycle.0,
                max_priority_fee_per_cycle: b.max_priority_fee_per_cycle.0,
            }),
        };
        match j {
            InstructionJson::Transfer { to, amount } => {
                Instruction::System(SystemInstruction::Transfer {
                    to,
                    amount: amount.0,
                })
            }
            InstructionJson::Deploy {
                code,
                salt,
                init_args,
                value,
                entitlements,
            } => Instruction::Actor(ActorInstruction::Deploy {
                code: canonicalize_source(&code),
                salt,
                init_args: init_args.0,
                value: value.0,
                entitlements,
            }),
            InstructionJson::Call {
                to,
                method,
                args,
                value,
            } => Instruction::Actor(ActorInstruction::Message {
                to,
                method,
                args: args.0,
                value: value.0,
            }),
            InstructionJson::SetTimer { timer: t, height } => {
                Instruction::System(SystemInstruction::SetTimer {
                    timer: timer(t),
                    height: height.0,
                })
            }
            InstructionJson::SetInterval {
                timer: t,
                start_height,
                every_blocks,
            } => Instruction::System(SystemInstruction::SetInterval {
                timer: timer(t),
                start_height: start_height.0,
                every_blocks: every_blocks.0,
            }),
            InstructionJson::CancelTimer { timer_id } => {
                Instruction::System(SystemInstruction::CancelTimer { timer_id })
            }
            InstructionJson::RunnerRegister { profile, stake } => {
                Instruction::System(SystemInstruction::RunnerRegister {
                    profile,
                    stake: stake.0,
                })
            }
            InstructionJson::RunnerUpdate { profile } => {
                Instruction::System(SystemInstruction::RunnerUpdate { profile })
            }
            InstructionJson::RunnerHeartbeat {} => {
                Instruction::System(SystemInstruction::RunnerHeartbeat)
            }
            InstructionJson::RunnerAddStake { amount } => {
                Instruction::System(SystemInstruction::RunnerAddStake { amount: amount.0 })
            }
            InstructionJson::RunnerWithdrawStake { amount } => {
                Instruction::System(SystemInstruction::RunnerWithdrawStake { amount: amount.0 })
            }
            InstructionJson::RunnerExit {} => Instruction::System(SystemInstruction::RunnerExit),
            InstructionJson::RunnerClaim {} => Instruction::System(SystemInstruction::RunnerClaim),
            InstructionJson::RunnerAttest { attestation } => {
                Instruction::System(SystemInstruction::RunnerAttest { attestation })
            }
            InstructionJson::JobSubmit { spec } => {
                Instruction::System(SystemInstruction::JobSubmit { spec })
            }
            InstructionJson::JobCommit { job_id, commitment } => {
                Instruction::System(SystemInstruction::JobCommit { job_id, commitment })
            }
            InstructionJson::JobReveal { job_id, reveals } => {
                Instruction::System(SystemInstruction::JobReveal { job_id, reveals })
            }
            InstructionJson::JobChallenge { job_id, bond } => {
                Instruction::System(SystemInstruction::JobChallenge {
                    job_id,
                    bond: bond.0,
                })
            }
            InstructionJson::EntitlementGrant {
                grantee,
                scope,
                action,
                constraints,
            } => entitlement(EntitlementOp::Grant {
                grantee,
                scope,
                action,
                constraints,
            }),
            InstructionJson::EntitlementRevoke { entitlement_id } => {
                entitlement(EntitlementOp::Revoke { entitlement_id })
            }
            InstructionJson::EntitlementDelegate {
                entitlement_id,
                delegatee,
                constraints,
            } => entitlement(EntitlementOp::Delegate {
                entitlement_id,
                delegatee,
                constraints,
            }),
            InstructionJson::EntitlementCreateRole {
                name,
                scopes,
                actions,
                constraints,
            } => entitlement(EntitlementOp::CreateRole {
                name,
                scopes,
                actions,
                constraints,
            }),
            InstructionJson::EntitlementAssignRole { role_id, assignee } => {
                entitlement(EntitlementOp::AssignRole { role_id, assignee })
            }
            InstructionJson::EntitlementRevokeRole { role_id, assignee } => {
                entitlement(EntitlementOp::RevokeRole { role_id, assignee })
            }
        }
    }
}

impl From<&Instruction> for InstructionJson {
    fn from(i: &Instruction) -> Self {
        let timer = |t: &TimerSpec| TimerJson {
            actor: t.actor,
            handler: t.handler.clone(),
            args: HexBytes(t.args.clone()),
            cycles_per_fire: Uint(t.cycles_per_fire),
            cells_per_fire: Uint(t.cells_per_fire),
            expires_at: t.expires_at.map(Uint),
            bid: t.bid.map(|b| TimerBidJson {
                max_fee_per_cycle: Uint(b.max_fee_per_cycle),
                max_priority_fee_per_cycle: Uint(b.max_priority_fee_per_cycle),
            }),
        };
        match i {
            Instruction::System(SystemInstruction::Transfer { to, amount }) => Self::Transfer {
                to: *to,
                amount: Amount(*amount),
            },
            Instruction::System(SystemInstruction::SetTimer { timer: t, height }) => {
                Self::SetTimer {
                    timer: timer(t),
                    height: Uint(*height),
                }
            }
            Instruction::System(SystemInstruction::SetInterval {
                timer: t,
                start_height,
                every_blocks,
            }) => Self::SetInterval {
                timer: timer(t),
                start_height: Uint(*start_height),
                every_blocks: Uint(*every_blocks),
            },
            Instruction::System(SystemInstruction::CancelTimer { timer_id }) => Self::CancelTimer {
                timer_id: *timer_id,
            },
            Instruction::System(SystemInstruction::RunnerRegister { profile, stake }) => {
                Self::RunnerRegister {
                    profile: profile.clone(),
                    stake: Amount(*stake),
                }
            }
            Instruction::System(SystemInstruction::RunnerUpdate { profile }) => {
                Self::RunnerUpdate {
                    profile: profile.clone(),
                }
            }
            Instruction::System(SystemInstruction::RunnerHeartbeat) => Self::RunnerHeartbeat {},
            Instruction::System(SystemInstruction::RunnerAddStake { amount }) => {
                Self::RunnerAddStake {
                    amount: Amount(*amount),
                }
            }
            Instruction::System(SystemInstruction::RunnerWithdrawStake { amount }) => {
                Self::RunnerWithdrawStake {
                    amount: Amount(*amount),
                }
            }
            Instruction::System(SystemInstruction::RunnerExit) => Self::RunnerExit {},
            Instruction::System(SystemInstruction::RunnerClaim) => Self::RunnerClaim {},
            Instruction::System(SystemInstruction::RunnerAttest { attestation }) => {
                Self::RunnerAttest {
                    attestation: attestation.clone(),
                }
            }
            Instruction::System(SystemInstruction::JobSubmit { spec }) => {
                Self::JobSubmit { spec: spec.clone() }
            }
            Instruction::System(SystemInstruction::JobCommit { job_id, commitment }) => {
                Self::JobCommit {
                    job_id: *job_id,
                    commitment: *commitment,
                }
            }
            Instruction::System(SystemInstruction::JobReveal { job_id, reveals }) => {
                Self::JobReveal {
                    job_id: *job_id,
                    reveals: reveals.clone(),
                }
            }
            Instruction::System(SystemInstruction::JobChallenge { job_id, bond }) => {
                Self::JobChallenge {
                    job_id: *job_id,
                    bond: Amount(*bond),
                }
            }
            Instruction::System(SystemInstruction::Entitlement(op)) => match op.clone() {
                EntitlementOp::Grant {
                    grantee,
                    scope,
                    action,
                    constraints,
                } => Self::EntitlementGrant {
                    grantee,
                    scope,
                    action,
                    constraints,
                },
                EntitlementOp::Revoke { entitlement_id } => {
                    Self::EntitlementRevoke { entitlement_id }
                }
                EntitlementOp::Delegate {
                    entitlement_id,
                    delegatee,
                    constraints,
                } => Self::EntitlementDelegate {
                    entitlement_id,
                    delegatee,
                    constraints,
                },
                EntitlementOp::CreateRole {
                    name,
                    scopes,
                    actions,
                    constraints,
                } => Self::EntitlementCreateRole {
                    name,
                    scopes,
                    actions,
                    constraints,
                },
                EntitlementOp::AssignRole { role_id, assignee } => {
                    Self::EntitlementAssignRole { role_id, assignee }
                }
                EntitlementOp::RevokeRole { role_id, assignee } => {
                    Self::EntitlementRevokeRole { role_id, assignee }
                }
            },
            Instruction::Actor(ActorInstruction::Deploy {
                code,
                salt,
                init_args,
                value,
                entitlements,
            }) => Self::Deploy {
                code: code.clone(),
                salt: *salt,
                init_args: HexBytes(init_args.clone()),
                value: Amount(*value),
                entitlements: *entitlements,
            },
            Instruction::Actor(ActorInstruction::Message {
                to,
                method,
                args,
                value,
            }) => Self::Call {
                to: *to,
                method: method.clone(),
                args: HexBytes(args.clone()),
                value: Amount(*value),
            },
        }
    }
}
