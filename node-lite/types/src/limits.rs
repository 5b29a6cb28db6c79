//! How a client sizes a transaction's `(cycles, cells)` limits when its sender names none: a
//! Cowboy decision (recorded in the book's CLI reference), not consensus. The CLI
//! (`cowboy_rpc::simulate_and_sign`) and local runs (`cowboy test`, scenarios) size limits
//! with these same rules, so a local run's receipts equal a devnet's.
//!
//! - A transaction that can be simulated gets what its simulation used plus a margin
//!   ([`with_margin`]).
//! - A transfer, or a transaction that cannot be simulated first, gets [`default_limits`].

use crate::{ActorInstruction, Instruction, SystemInstruction};

/// The margin above simulated use, in percent: state that changes a little between the
/// simulation and inclusion (a counter one digit longer, a list one item longer) must not run
/// the transaction out. Unused budget is refunded.
pub const MARGIN_PERCENT: u64 = 25;
/// The least margin, in cycles.
pub const CYCLES_MARGIN_FLOOR: u64 = 10_000;
/// The least margin, in cells.
pub const CELLS_MARGIN_FLOOR: u64 = 1_000;

/// `used` plus [`MARGIN_PERCENT`], and at least `floor` more.
pub fn with_margin(used: u64, floor: u64) -> u64 {
    let margin = (used as u128 * MARGIN_PERCENT as u128 / 100) as u64;
    used.saturating_add(margin.max(floor))
}

/// The limits a simulation that used `(cycles, cells)` gives a transaction.
pub fn simulated(cycles: u64, cells: u64) -> (u64, u64) {
    (
        with_margin(cycles, CYCLES_MARGIN_FLOOR),
        with_margin(cells, CELLS_MARGIN_FLOOR),
    )
}

/// Whether a client sizes `instruction` by simulation (a transfer's default limits are exact).
pub fn sized_by_simulation(instruction: &Instruction) -> bool {
    !matches!(
        instruction,
        Instruction::System(SystemInstruction::Transfer { .. })
    )
}

/// The `(cycles, cells)` limits a client gives `instruction` without a simulation: enough for
/// ordinary work, and never more than the sender pays for (unused budget is refunded).
pub fn default_limits(instruction: &Instruction) -> (u64, u64) {
    match instruction {
        // Only its intrinsic cost: a transfer runs no code.
        Instruction::System(SystemInstruction::Transfer { .. }) => {
            (crate::intrinsic::TRANSFER_CYCLES, 0)
        }
        Instruction::System(_) => (100_000, 10_000),
        Instruction::Actor(ActorInstruction::Message { .. }) => (5_000_000, 1_000_000),
        // `__init__` plus room to store twice the code and arguments.
        Instruction::Actor(ActorInstruction::Deploy {
            code, init_args, ..
        }) => (
            20_000_000,
            (code.len() as u64 + init_args.len() as u64) * 2 + 1_000_000,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_is_a_quarter_with_a_floor() {
        assert_eq!(with_margin(1_000_000, CYCLES_MARGIN_FLOOR), 1_250_000);
        assert_eq!(with_margin(100, CYCLES_MARGIN_FLOOR), 10_100);
        assert_eq!(with_margin(u64::MAX, 1), u64::MAX);
        assert_eq!(simulated(40_000, 146), (50_000, 1_146));
    }
}
