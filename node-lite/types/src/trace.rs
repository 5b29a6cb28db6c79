//! What each call of a transaction's execution did — the developer's view a node records beside
//! the receipt, served by `cowboy_trace` and printed by `cowboy tx show --trace`.
//!
//! Not consensus data: receipts say how every message ended; a trace adds who sent it, the
//! handler, the value, what each call used, emitted, logged and sent, and the traceback of a
//! failure. The node writes it when it executes a block, and nothing on chain depends on it.
//! Its JSON form (this module's serde types) is the stored form and the RPC form.

use crate::{
    Address, Hash,
    json::{Amount, HexBytes},
};
use serde::{Deserialize, Serialize};

/// One run of an actor's code: a handler, or a deploy's `__init__`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TraceCall {
    /// The message this call handled (its id in the receipt's deliveries); `None` for a
    /// deploy's `__init__`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Hash>,
    pub actor: Address,
    pub caller: Address,
    /// The handler; `None` for a deploy's `__init__`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// 0 for the message a transaction (timer firing, mailbox delivery) delivers, +1 per
    /// nested send.
    pub depth: u32,
    pub value: Amount,
    /// What the call's own code used (the receipt adds the intrinsic cost and nested calls).
    pub cycles_used: u64,
    pub cells_used: u64,
    /// `print` output, line by line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<String>,
    /// What it emitted (nothing if the call failed: its effects were reverted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<TraceEvent>,
    /// The messages it sent, in order (nothing if the call failed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sent: Vec<TraceMessage>,
    /// The canonical return value when the call succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returned: Option<HexBytes>,
    /// Why the call failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<TraceFailure>,
}

/// An event a call emitted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TraceEvent {
    pub topics: Vec<Hash>,
    pub data: HexBytes,
}

/// A message a call sent: its delivery's outcome is in the receipt under `id`, and the call
/// that handled it (if it ran) names `id` as its `message`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TraceMessage {
    pub id: Hash,
    pub to: Address,
    pub method: String,
    /// The canonically encoded argument list.
    pub args: HexBytes,
    pub value: Amount,
}

/// Why a traced call failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TraceFailure {
    /// The receipt code and its name ([`crate::FailureKind`]).
    pub code: u8,
    pub kind: String,
    pub message: String,
    /// The Python traceback of an uncaught exception.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceback: Option<String>,
}

impl TraceFailure {
    /// The failure with receipt code `code`.
    pub fn new(code: u8, message: String, traceback: Option<String>) -> Self {
        Self {
            code,
            kind: crate::FailureKind::name_of(code).to_owned(),
            message,
            traceback,
        }
    }
}
