//! Transaction intrinsic costs (whitepaper §17.2): what every transaction pays before
//! execution begins. Consensus-critical; not governance parameters.

use cowboy_types::{ActorInstruction, Instruction, SystemInstruction};

/// Transfer: 21,000 cycles, 0 cells.
pub const TRANSFER_CYCLES: u64 = 21_000;
/// Deploy: 100,000 cycles plus one cell per byte of code.
pub const DEPLOY_CYCLES: u64 = 100_000;
/// Actor message: 21,000 cycles plus one cell per byte of calldata (method name and arguments).
pub const MESSAGE_CYCLES: u64 = 21_000;
/// Timer schedule (and cancel): 5,000 cycles, 64 cells.
pub const TIMER_SCHEDULE_CYCLES: u64 = 5_000;
pub const TIMER_SCHEDULE_CELLS: u64 = 64;
/// A timer firing pays the TimerSchedule intrinsic again out of its per-fire budget (Cowboy
/// decision, `book/src/reference/execution.md`): it bounds how many firings one block can hold
/// (8,888,890 / 5,000 = 1,777) whatever the per-fire budgets.
pub const TIMER_FIRE_CYCLES: u64 = TIMER_SCHEDULE_CYCLES;
pub const TIMER_FIRE_CELLS: u64 = TIMER_SCHEDULE_CELLS;

/// `(cycles, cells)` a transaction carrying `instruction` pays before execution.
pub fn cost(instruction: &Instruction) -> (u64, u64) {
    match instruction {
        Instruction::System(SystemInstruction::Transfer { .. }) => (TRANSFER_CYCLES, 0),
        Instruction::System(
            SystemInstruction::SetTimer { .. }
            | SystemInstruction::SetInterval { .. }
            | SystemInstruction::CancelTimer { .. },
        ) => (TIMER_SCHEDULE_CYCLES, TIMER_SCHEDULE_CELLS),
        Instruction::Actor(ActorInstruction::Deploy { code, .. }) => {
            (DEPLOY_CYCLES, code.len() as u64)
        }
        Instruction::Actor(ActorInstruction::Message { method, args, .. }) => {
            (MESSAGE_CYCLES, (method.len() + args.len()) as u64)
        }
    }
}
