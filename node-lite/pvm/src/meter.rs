//! The per-call meters: cycles, cells and the memory limit, as sticky thread-local state.
//!
//! One PVM call runs at a time on a thread, so the meter is a set of thread-local cells that
//! the instrumented code, the patched runtime operations and the host functions all charge.
//! Exhaustion is *sticky*: once a budget is spent every later charge fails again, so an actor
//! that catches the out-of-cycles exception cannot do more than reach its next charge point,
//! and the host reports the failure whatever the Python code did with the exception.

use crate::alloc;
use std::cell::Cell;

/// Why a call was stopped by a meter or limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trip {
    OutOfCycles,
    OutOfCells,
    MemoryLimit,
}

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static CYCLES_LEFT: Cell<u64> = const { Cell::new(0) };
    static CYCLES_LIMIT: Cell<u64> = const { Cell::new(0) };
    static CELLS_LEFT: Cell<u64> = const { Cell::new(0) };
    static CELLS_LIMIT: Cell<u64> = const { Cell::new(0) };
    static TRIPPED: Cell<Option<Trip>> = const { Cell::new(None) };
    /// The runtime's own work between calls (library reset, collecting garbage) is metered
    /// under a private budget, and actor code may not run in it.
    static RUNTIME: Cell<bool> = const { Cell::new(false) };
}

/// Cycles and cells consumed by a finished call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    pub cycles: u64,
    pub cells: u64,
    /// Peak heap bytes in use during the call (informational; not consensus data).
    pub peak_memory: usize,
}

/// Starts metering a call with the given budgets.
pub fn start(cycles_limit: u64, cells_limit: u64, memory_limit: usize) {
    CYCLES_LEFT.with(|c| c.set(cycles_limit));
    CYCLES_LIMIT.with(|c| c.set(cycles_limit));
    CELLS_LEFT.with(|c| c.set(cells_limit));
    CELLS_LIMIT.with(|c| c.set(cells_limit));
    TRIPPED.with(|t| t.set(None));
    ACTIVE.with(|a| a.set(true));
    alloc::start(memory_limit);
}

/// Starts metering the runtime's own work between calls under a private budget (see
/// [`runtime`]); ended by [`finish`].
pub fn start_runtime(cycles_limit: u64, memory_limit: usize) {
    start(cycles_limit, 0, memory_limit);
    RUNTIME.with(|r| r.set(true));
}

/// Whether the runtime's own work between calls is running (actor code may not run).
#[inline]
pub fn runtime() -> bool {
    RUNTIME.with(|r| r.get())
}

/// Whether an actor call is running (the rules that guard shared library state apply).
#[inline]
pub fn in_call() -> bool {
    active() && !runtime()
}

/// Stops metering; returns what was used and why the call was stopped, if it was.
pub fn finish() -> (Usage, Option<Trip>) {
    let peak_memory = alloc::stop();
    ACTIVE.with(|a| a.set(false));
    RUNTIME.with(|r| r.set(false));
    let cycles = CYCLES_LIMIT.with(|c| c.get()) - CYCLES_LEFT.with(|c| c.get());
    let cells = CELLS_LIMIT.with(|c| c.get()) - CELLS_LEFT.with(|c| c.get());
    let trip = TRIPPED.with(|t| t.get());
    (
        Usage {
            cycles,
            cells,
            peak_memory,
        },
        trip,
    )
}

/// Whether a call is being metered on this thread.
#[inline]
pub fn active() -> bool {
    ACTIVE.with(|a| a.get())
}

/// The trip recorded so far, if any.
#[inline]
pub fn tripped() -> Option<Trip> {
    TRIPPED.with(|t| t.get())
}

fn trip(t: Trip) -> Trip {
    TRIPPED.with(|c| {
        if c.get().is_none() {
            c.set(Some(t));
        }
        c.get().unwrap_or(t)
    })
}

/// Charges `n` cycles. Fails (stickily) when the budget is spent or the memory limit crossed.
#[inline]
pub fn charge_cycles(n: u64) -> Result<(), Trip> {
    if !active() {
        return Ok(());
    }
    if let Some(t) = tripped() {
        return Err(t);
    }
    if alloc::exceeded() {
        return Err(trip(Trip::MemoryLimit));
    }
    CYCLES_LEFT.with(|c| {
        let left = c.get();
        if left >= n {
            c.set(left - n);
            Ok(())
        } else {
            c.set(0);
            Err(trip(Trip::OutOfCycles))
        }
    })
}

/// Charges `n` cells.
#[inline]
pub fn charge_cells(n: u64) -> Result<(), Trip> {
    if !active() {
        return Ok(());
    }
    if let Some(t) = tripped() {
        return Err(t);
    }
    CELLS_LEFT.with(|c| {
        let left = c.get();
        if left >= n {
            c.set(left - n);
            Ok(())
        } else {
            c.set(0);
            Err(trip(Trip::OutOfCells))
        }
    })
}

/// Cycles left in the current call.
pub fn cycles_left() -> u64 {
    CYCLES_LEFT.with(|c| c.get())
}
