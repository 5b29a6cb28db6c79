//! The rules a new timer must satisfy (whitepaper §5.1a), written once: the `SetTimer` and
//! `SetInterval` system instructions (the state transition), an actor's `set_timer` (the PVM's
//! host function) and the state transition applying an actor's timers all call [`validate`] and
//! [`check_count`]. Whether the target is an actor, and the arguments' canonical encoding,
//! need the state and the value codec: the callers check those.

use crate::actor::is_handler_name;

/// The bounds of a timer's per-firing budgets: the firing's intrinsic cost
/// ([`crate::intrinsic::TIMER_FIRE_CYCLES`] and cells) up to the chain's
/// `max_cycles_per_fire` and `max_cells_per_fire`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireBounds {
    pub min_cycles: u64,
    pub max_cycles: u64,
    pub min_cells: u64,
    pub max_cells: u64,
}

/// A timer being created, as every creator describes it.
#[derive(Clone, Copy, Debug)]
pub struct NewTimer<'a> {
    /// The height of the first firing.
    pub height: u64,
    pub handler: &'a str,
    pub cycles_per_fire: u64,
    pub cells_per_fire: u64,
    pub expires_at: Option<u64>,
}

/// Why a timer cannot be created.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimerError {
    #[error(
        "timer height {height} is not after the current block {current} (a timer cannot fire in the block that creates it)"
    )]
    NotAfterCurrent { height: u64, current: u64 },
    #[error(
        "handler {0:?} is not a public handler name (letters, digits and '_', not starting with '_' or a digit, at most 128 bytes)"
    )]
    Handler(String),
    #[error(
        "cycles per firing must be between {min} (the firing's intrinsic cost) and {max} (max_cycles_per_fire), got {got}"
    )]
    CyclesPerFire { min: u64, max: u64, got: u64 },
    #[error(
        "cells per firing must be between {min} (the firing's intrinsic cost) and {max} (max_cells_per_fire), got {got}"
    )]
    CellsPerFire { min: u64, max: u64, got: u64 },
    #[error("expires_at {expires_at} is before the first firing at {height}")]
    ExpiresBeforeFirst { expires_at: u64, height: u64 },
    #[error("timer limit reached: an actor may have at most {max} pending timers")]
    Limit { max: u64 },
}

/// Checks `timer`, created while block `current` executes.
pub fn validate(timer: &NewTimer<'_>, current: u64, bounds: &FireBounds) -> Result<(), TimerError> {
    if timer.height <= current {
        return Err(TimerError::NotAfterCurrent {
            height: timer.height,
            current,
        });
    }
    if !is_handler_name(timer.handler) {
        return Err(TimerError::Handler(timer.handler.to_owned()));
    }
    if timer.cycles_per_fire < bounds.min_cycles || timer.cycles_per_fire > bounds.max_cycles {
        return Err(TimerError::CyclesPerFire {
            min: bounds.min_cycles,
            max: bounds.max_cycles,
            got: timer.cycles_per_fire,
        });
    }
    if timer.cells_per_fire < bounds.min_cells || timer.cells_per_fire > bounds.max_cells {
        return Err(TimerError::CellsPerFire {
            min: bounds.min_cells,
            max: bounds.max_cells,
            got: timer.cells_per_fire,
        });
    }
    if let Some(expires_at) = timer.expires_at
        && expires_at < timer.height
    {
        return Err(TimerError::ExpiresBeforeFirst {
            expires_at,
            height: timer.height,
        });
    }
    Ok(())
}

/// Checks that a creator with `pending` timers may create one more (`max_timers_per_actor`).
pub fn check_count(pending: u64, max: u64) -> Result<(), TimerError> {
    if pending >= max {
        return Err(TimerError::Limit { max });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: FireBounds = FireBounds {
        min_cycles: 1_000,
        max_cycles: 1_000_000,
        min_cells: 10,
        max_cells: 10_000,
    };

    fn timer(handler: &str) -> NewTimer<'_> {
        NewTimer {
            height: 10,
            handler,
            cycles_per_fire: 5_000,
            cells_per_fire: 100,
            expires_at: None,
        }
    }

    #[test]
    fn each_rule_has_its_error() {
        assert_eq!(validate(&timer("tick"), 9, &BOUNDS), Ok(()));
        assert!(matches!(
            validate(&timer("tick"), 10, &BOUNDS),
            Err(TimerError::NotAfterCurrent { .. })
        ));
        for bad in ["", "_private", "1st", "tick-tock", &"h".repeat(129)] {
            assert!(
                matches!(
                    validate(&timer(bad), 9, &BOUNDS),
                    Err(TimerError::Handler(_))
                ),
                "{bad:?}"
            );
        }
        assert_eq!(validate(&timer(&"h".repeat(128)), 9, &BOUNDS), Ok(()));
        let cheap = NewTimer {
            cycles_per_fire: 999,
            ..timer("tick")
        };
        assert!(matches!(
            validate(&cheap, 9, &BOUNDS),
            Err(TimerError::CyclesPerFire { .. })
        ));
        let big = NewTimer {
            cells_per_fire: 10_001,
            ..timer("tick")
        };
        assert!(matches!(
            validate(&big, 9, &BOUNDS),
            Err(TimerError::CellsPerFire { .. })
        ));
        let expired = NewTimer {
            expires_at: Some(9),
            ..timer("tick")
        };
        assert!(matches!(
            validate(&expired, 9, &BOUNDS),
            Err(TimerError::ExpiresBeforeFirst { .. })
        ));
        assert_eq!(check_count(63, 64), Ok(()));
        assert_eq!(check_count(64, 64), Err(TimerError::Limit { max: 64 }));
    }
}
