//! Transaction intrinsic costs (whitepaper §17.2): what every transaction pays before
//! execution begins. Consensus-critical; not governance parameters.
//!
//! Cells: one per byte of the whole encoded transaction (whitepaper §17 "Calldata: 1 cell/byte
//! of transaction data"; CIP-3 "Intrinsic Calldata", charged before the VM starts) — the
//! payload, the access list, signatures, every field. The per-instruction data of the §17.2
//! table (a deploy's code, a message's method and arguments) is part of that encoding, so it
//! is not charged a second time; a timer additionally pays its 64 scheduling cells.

use crate::{ActorInstruction, Instruction, SystemInstruction};

/// Transfer: 21,000 cycles (and its bytes, like every transaction).
pub const TRANSFER_CYCLES: u64 = 21_000;
/// Deploy: 100,000 cycles (its code is charged as transaction bytes).
pub const DEPLOY_CYCLES: u64 = 100_000;
/// Actor message: 21,000 cycles (its method and arguments are charged as transaction bytes).
pub const MESSAGE_CYCLES: u64 = 21_000;
/// Runner operations (register, update, heartbeat, stake, exit, claim; job commit and reveal,
/// whose verification work the dispatcher charges on top): 21,000
/// cycles like a transfer (Cowboy decision: §17.2 does not list them), plus their bytes; the
/// registry charges the record it writes as state-write cells.
pub const RUNNER_OP_CYCLES: u64 = 21_000;
/// Job submission: 10,000 cycles (§17.2 `LlmRequest`, for every job type) plus its bytes (the
/// prompt is among them); the dispatcher adds the candidate filters and the job record.
pub const JOB_SUBMIT_CYCLES: u64 = 10_000;
/// Timer schedule (and cancel): 5,000 cycles, 64 cells.
pub const TIMER_SCHEDULE_CYCLES: u64 = 5_000;
pub const TIMER_SCHEDULE_CELLS: u64 = 64;
/// A timer firing pays the TimerSchedule intrinsic again out of its per-fire budget (Cowboy
/// decision, `book/src/reference/execution.md`): it bounds how many firings one block can hold
/// (8,888,890 / 5,000 = 1,777) whatever the per-fire budgets.
pub const TIMER_FIRE_CYCLES: u64 = TIMER_SCHEDULE_CYCLES;
pub const TIMER_FIRE_CELLS: u64 = TIMER_SCHEDULE_CELLS;

/// `(cycles, cells)` a transaction carrying `instruction`, `encoded_size` bytes long, pays
/// before execution.
pub fn cost(instruction: &Instruction, encoded_size: usize) -> (u64, u64) {
    let data = encoded_size as u64;
    match instruction {
        Instruction::System(SystemInstruction::Transfer { .. }) => (TRANSFER_CYCLES, data),
        Instruction::System(
            SystemInstruction::SetTimer { .. }
            | SystemInstruction::SetInterval { .. }
            | SystemInstruction::CancelTimer { .. },
        ) => (TIMER_SCHEDULE_CYCLES, TIMER_SCHEDULE_CELLS + data),
        Instruction::System(
            SystemInstruction::RunnerRegister { .. }
            | SystemInstruction::RunnerUpdate { .. }
            | SystemInstruction::RunnerHeartbeat
            | SystemInstruction::RunnerAddStake { .. }
            | SystemInstruction::RunnerWithdrawStake { .. }
            | SystemInstruction::RunnerExit
            | SystemInstruction::RunnerClaim
            | SystemInstruction::RunnerAttest { .. }
            | SystemInstruction::JobCommit { .. }
            | SystemInstruction::JobReveal { .. },
        ) => (RUNNER_OP_CYCLES, data),
        Instruction::System(SystemInstruction::JobSubmit { .. }) => (JOB_SUBMIT_CYCLES, data),
        Instruction::System(SystemInstruction::JobChallenge { .. }) => (TRANSFER_CYCLES, data),
        // CIP-2 §7.4's cycles and cells, plus the transaction's bytes.
        Instruction::System(SystemInstruction::Entitlement(op)) => {
            let (cycles, cells) = op.cost();
            (cycles, cells + data)
        }
        Instruction::Actor(ActorInstruction::Deploy { .. }) => (DEPLOY_CYCLES, data),
        Instruction::Actor(ActorInstruction::Message { .. }) => (MESSAGE_CYCLES, data),
    }
}

/// The cells `tx` must at least reserve: its intrinsic cells, which grow with its own encoded
/// size (and so with the varint of `cells_limit` itself). Clients use it to fill a limit the
/// node will accept.
pub fn minimum_cells(tx: &crate::Transaction) -> u64 {
    use commonware_codec::EncodeSize as _;
    let mut probe = tx.clone();
    loop {
        let needed = cost(&probe.instruction, probe.encode_size()).1;
        if probe.cells_limit >= needed {
            return needed;
        }
        probe.cells_limit = needed;
    }
}
