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

/// Most `print` output a stored trace keeps per receipt, over all its calls. `print` is paid
/// only in cycles (one a character), and a call may keep 64 KiB of it: without a bound, one
/// block could make every node write tens of megabytes of it beside the receipts.
pub const MAX_STORED_LOG_BYTES: usize = 16 * 1024;

/// Most bytes of one call's traceback a stored trace keeps.
pub const MAX_STORED_TRACEBACK_BYTES: usize = 8 * 1024;

/// Most print output and traceback text a node keeps of one block's calls, in all: past it,
/// calls are recorded without either. Neither is paid for in cells, and a block holds
/// thousands of calls: without this bound one block could hold gigabytes in memory until it
/// is committed.
pub const MAX_BLOCK_TRACE_TEXT: usize = 4 * 1024 * 1024;

/// The note that stands for text a node did not keep.
pub const NOT_KEPT: &str = "… (not kept by the node: trace text is bounded)";

/// Keeps of `text` what fits in `limit` bytes and in what is `left` of the block's budget
/// (which it draws down), cut at a character boundary and followed by [`NOT_KEPT`] when cut.
pub fn keep_text(mut text: String, limit: usize, left: &mut usize) -> String {
    let room = limit.min(*left);
    if text.len() <= room {
        *left -= text.len();
        return text;
    }
    let mut cut = room;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    *left -= cut;
    text.push_str(if cut == 0 { "" } else { "\n" });
    text.push_str(NOT_KEPT);
    text
}

/// Keeps of print output `lines` whole lines up to `limit` bytes and what is `left` of the
/// block's budget, then a [`NOT_KEPT`] line if any were dropped.
pub fn keep_lines(lines: &[String], limit: usize, left: &mut usize) -> Vec<String> {
    let mut room = limit.min(*left);
    let mut kept = Vec::new();
    for line in lines {
        if line.len() > room {
            kept.push(NOT_KEPT.to_owned());
            break;
        }
        room -= line.len();
        *left -= line.len();
        kept.push(line.clone());
    }
    kept
}

/// Bounds what a node stores of a receipt's calls: `print` output up to
/// [`MAX_STORED_LOG_BYTES`] in all (then a line saying how much was left out), tracebacks up to
/// [`MAX_STORED_TRACEBACK_BYTES`] each. Everything else a trace holds was paid for in cells.
pub fn bound_for_storage(calls: &mut [TraceCall]) {
    let mut left = MAX_STORED_LOG_BYTES;
    let mut dropped = 0usize;
    for call in calls.iter_mut() {
        let logs = std::mem::take(&mut call.logs);
        for line in logs {
            if dropped == 0 && line.len() <= left {
                left -= line.len();
                call.logs.push(line);
            } else {
                dropped += line.len();
            }
        }
        if let Some(tb) = call.failure.as_mut().and_then(|f| f.traceback.as_mut())
            && tb.len() > MAX_STORED_TRACEBACK_BYTES
        {
            let mut cut = MAX_STORED_TRACEBACK_BYTES;
            while !tb.is_char_boundary(cut) {
                cut -= 1;
            }
            tb.truncate(cut);
            tb.push_str("\n… (the rest of the traceback was not kept by the node)");
        }
    }
    if dropped > 0
        && let Some(last) = calls.last_mut()
    {
        last.logs.push(format!(
            "… {dropped} more bytes of print output were not kept by the node (at most {MAX_STORED_LOG_BYTES} per transaction)"
        ));
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn call(logs: Vec<String>, traceback: Option<String>) -> TraceCall {
        TraceCall {
            message: None,
            actor: Address::ZERO,
            caller: Address::ZERO,
            method: Some("go".into()),
            depth: 0,
            value: Amount(0),
            cycles_used: 0,
            cells_used: 0,
            logs,
            events: Vec::new(),
            sent: Vec::new(),
            returned: None,
            failure: traceback.map(|t| TraceFailure::new(6, "boom".into(), Some(t))),
        }
    }

    #[test]
    fn stored_traces_keep_a_bounded_amount_of_print_output_and_traceback() {
        let line = "x".repeat(1000);
        let mut calls = vec![
            call(vec![line.clone(); 10], None),
            call(
                vec![line.clone(); 10],
                Some("é".repeat(MAX_STORED_TRACEBACK_BYTES)),
            ),
        ];
        bound_for_storage(&mut calls);
        let kept: usize = calls
            .iter()
            .flat_map(|c| &c.logs)
            .filter(|l| *l == &line)
            .map(String::len)
            .sum();
        assert_eq!(kept, 16_000, "whole lines up to 16 KiB");
        assert_eq!(
            calls[1].logs.last().map(String::as_str),
            Some(
                "… 4000 more bytes of print output were not kept by the node (at most 16384 per transaction)"
            )
        );
        let tb = calls[1]
            .failure
            .as_ref()
            .and_then(|f| f.traceback.as_deref())
            .unwrap_or_default();
        assert!(tb.len() < MAX_STORED_TRACEBACK_BYTES + 100, "{}", tb.len());
        assert!(tb.ends_with("(the rest of the traceback was not kept by the node)"));

        // As a call is recorded: what fits the call's and the block's budgets, then a note.
        let mut left = 10;
        assert_eq!(keep_text("short".into(), 8, &mut left), "short");
        assert_eq!(left, 5);
        assert_eq!(
            keep_text("ééé".into(), 8, &mut left),
            format!("éé\n{NOT_KEPT}")
        );
        assert_eq!(left, 1);
        let lines = vec!["a".to_string(), "bb".to_string()];
        assert_eq!(
            keep_lines(&lines, 8, &mut left),
            ["a".to_string(), NOT_KEPT.to_string()]
        );
        assert_eq!(left, 0);
        assert_eq!(keep_text("x".into(), 8, &mut left), NOT_KEPT);

        // Small traces are stored whole.
        let mut small = vec![call(vec!["hello".into()], Some("Traceback".into()))];
        let before = small.clone();
        bound_for_storage(&mut small);
        assert_eq!(small, before);
    }
}
