//! Lane budgets (whitepaper §6.3, §17.9): how much of a block user transactions may take.
//!
//! Each lane has a reserved cycle budget. Deferred deliveries run in the system lane (no
//! validator, governance or slashing transactions exist yet), timers in the timer lane, the
//! runner market's transactions ([`Lane::Runner`]) in the runner lane. Whatever a reserved lane
//! does not use spills to the user lane; the user lane never borrows a reservation that is in
//! use. Cells have one block-wide cap shared the same way.
//!
//! Runner transactions reserve, before the block's transactions run, as much of the runner
//! lane as their cycle limits add up to, and run only in that reservation: together they never
//! take more than the runner lane, so runner traffic (which anyone can send) cannot crowd out
//! user transactions. They pay the runner lane's fee multiplier.

use crate::{
    fees::{Basefees, lane_basefee},
    params::{LaneBudgets, LaneFeeMultipliers},
};
use cowboy_types::{Instruction, SystemInstruction};

/// The lane a transaction executes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    User,
    /// The runner market's transactions (whitepaper §17.9: "Runner job results,
    /// attestations, callbacks").
    Runner,
}

/// The lane of a transaction carrying `instruction`.
pub fn lane_of(instruction: &Instruction) -> Lane {
    match instruction {
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
        ) => Lane::Runner,
        Instruction::System(
            SystemInstruction::Transfer { .. }
            | SystemInstruction::JobSubmit { .. }
            | SystemInstruction::JobChallenge { .. }
            | SystemInstruction::SetTimer { .. }
            | SystemInstruction::SetInterval { .. }
            | SystemInstruction::CancelTimer { .. }
            | SystemInstruction::Entitlement(_),
        )
        | Instruction::Actor(_) => Lane::User,
    }
}

/// The basefees of the lanes transactions execute in: the global basefees scaled by each
/// lane's multiplier (§6.3). The pool, the proposer and execution all price a transaction by
/// its own lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanePrices {
    pub user: Basefees,
    pub runner: Basefees,
}

impl LanePrices {
    pub fn of(global: Basefees, m: &LaneFeeMultipliers) -> Self {
        let scale = |bps| Basefees {
            cycle: lane_basefee(global.cycle, bps),
            cell: lane_basefee(global.cell, bps),
        };
        Self {
            user: scale(m.user_bps),
            runner: scale(m.runner_bps),
        }
    }

    pub fn lane(&self, lane: Lane) -> &Basefees {
        match lane {
            Lane::User => &self.user,
            Lane::Runner => &self.runner,
        }
    }

    /// The basefees a transaction carrying `instruction` pays.
    pub fn of_instruction(&self, instruction: &Instruction) -> &Basefees {
        self.lane(lane_of(instruction))
    }
}

/// The fee multiplier of `lane`, in basis points.
pub fn multiplier(lane: Lane, m: &LaneFeeMultipliers) -> u64 {
    match lane {
        Lane::User => m.user_bps,
        Lane::Runner => m.runner_bps,
    }
}

/// What the reserved lanes use or reserve in a block, measured before user transactions run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reserved {
    /// Cycles and cells the deferred deliveries used (they run first, so this is exact).
    pub deferred_cycles: u64,
    pub deferred_cells: u64,
    /// Per-fire budgets of the due timers that fit the timer lane (fired after the
    /// transactions).
    pub timer_cycles: u64,
    pub timer_cells: u64,
    /// The runner lane's reservation: the block's runner transactions' cycle limits, up to the
    /// lane's budget.
    pub runner_cycles: u64,
}

/// `(cycles, cells)` the user transactions of a block may ask for in total: the user lane plus
/// the unused part of every reserved lane.
pub fn user_room(lanes: &LaneBudgets, r: &Reserved) -> (u64, u64) {
    let cycles = lanes
        .user_cycles
        .saturating_add(lanes.system_cycles.saturating_sub(r.deferred_cycles))
        .saturating_add(lanes.runner_cycles.saturating_sub(r.runner_cycles))
        .saturating_add(lanes.timer_cycles.saturating_sub(r.timer_cycles));
    let cells = lanes
        .block_cells
        .saturating_sub(r.deferred_cells)
        .saturating_sub(r.timer_cells);
    (cycles, cells)
}
