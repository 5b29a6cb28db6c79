//! Conversions from chain types to the JSON shapes of the RPC (`cowboy_rpc`).

use cowboy_execution::{Outcome, QueryResult};
use cowboy_pvm::Value;
use cowboy_rpc::{BlockView, EventView, QueryView, ReceiptStatus, ReceiptView};
use cowboy_types::{
    Block, Hash, Receipt, Status,
    json::{HexBytes, TransactionJson},
};

/// The name of a receipt failure kind (`Unknown` for a code this version does not know).
pub fn failure_name(kind: u8) -> &'static str {
    cowboy_types::FailureKind::name_of(kind)
}

/// A return value as JSON, when it is a canonical value.
pub fn value_json(bytes: &[u8]) -> Option<serde_json::Value> {
    if bytes.is_empty() {
        return None;
    }
    Value::decode(bytes).ok().map(|v| v.to_json())
}

pub fn receipt(r: &Receipt, block_height: u64, block_hash: Hash) -> ReceiptView {
    ReceiptView::of(r, block_height, block_hash, value_json(&r.return_data))
}

pub fn block(b: &Block, outcome: &Outcome, full: bool) -> BlockView {
    let h = &b.header;
    BlockView {
        hash: h.digest(),
        height: h.height,
        parent: h.parent,
        epoch: h.round.epoch,
        view: h.round.view,
        timestamp_ms: h.timestamp_ms,
        proposer: h.proposer,
        beacon_round: h.beacon.round.view,
        beacon: HexBytes(h.beacon.signature.to_vec()),
        tx_root: h.tx_root,
        state_height: h.state_height,
        state_root: h.state_root,
        receipts_root: h.receipts_root,
        executed_state_root: outcome.state_root,
        executed_receipts_root: outcome.receipts_root,
        cycle_basefee: outcome.cycle_basefee,
        cell_basefee: outcome.cell_basefee,
        transactions: b.transactions.iter().map(|t| t.digest()).collect(),
        full_transactions: full.then(|| {
            b.transactions
                .iter()
                .map(|t| serde_json::to_value(TransactionJson::from(t)).unwrap_or_default())
                .collect()
        }),
    }
}

pub fn query(q: &QueryResult) -> QueryView {
    let (status, error) = match &q.status {
        Status::Success => (ReceiptStatus::Success, None),
        Status::Failed { kind, message } => (
            ReceiptStatus::Failed,
            Some(format!("{}: {message}", failure_name(*kind))),
        ),
    };
    QueryView {
        height: q.height,
        status,
        error,
        return_data: HexBytes(q.return_data.clone()),
        return_value: value_json(&q.return_data),
        events: q.events.iter().map(EventView::of).collect(),
        cycles_used: q.cycles_used,
        cells_used: q.cells_used,
    }
}

/// A halt as the RPC shows it.
pub fn halt(h: crate::health::Halt) -> cowboy_rpc::HaltView {
    cowboy_rpc::HaltView {
        kind: h.kind.name().into(),
        message: h.message,
    }
}

/// The disk as the RPC shows it.
pub fn disk(d: &crate::disk::DiskState) -> cowboy_rpc::DiskView {
    cowboy_rpc::DiskView {
        free_bytes: d.free_bytes,
        min_free_bytes: d.min_free_bytes,
        paused: d.paused,
    }
}

/// What `cowboy_health` and `GET /health` report.
pub fn health(core: &crate::core::Core) -> cowboy_rpc::Health {
    let height = core.height();
    let halt = core.halt_reason();
    let disk = core.disk();
    let stalled = core.stalled();
    let catching_up = core.catching_up();
    let reason = if let Some(h) = &halt {
        Some(format!("halted ({}): {}", h.kind.name(), h.message))
    } else if disk.paused {
        Some(format!(
            "paused: {} bytes free on the data directory, below the floor of {}; free space to resume",
            disk.free_bytes, disk.min_free_bytes
        ))
    } else if height == 0 {
        Some("no block finalized yet".into())
    } else if stalled {
        Some(format!(
            "stalled: nothing finalized for {} s",
            core.since_finalized().as_secs()
        ))
    } else if catching_up {
        Some(format!(
            "catching up: {} finalized blocks not executed yet",
            core.execution_lag()
        ))
    } else {
        None
    };
    cowboy_rpc::Health {
        ready: reason.is_none(),
        height,
        finalized_height: core.finalized_height(),
        execution_lag: core.execution_lag(),
        halted: halt.is_some(),
        halt: halt.map(self::halt),
        stalled,
        catching_up,
        disk_paused: disk.paused,
        reason,
    }
}
