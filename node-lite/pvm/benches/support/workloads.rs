//! The workloads `pvm` times and `instructions` counts, written once so both measure the same
//! code: a counter actor, and one loop as a metered handler and as plain module code.

use cowboy_pvm::{ActorCode, Engine, Limits, MemoryHost};
use std::rc::Rc;

/// `source` loaded and deployed (at `[0xaa; 20]`) on `host`.
pub fn deployed(engine: &mut Engine, host: &mut MemoryHost, source: &str) -> Rc<ActorCode> {
    let code = engine.load(source).expect("actor loads");
    let d = engine.deploy(&code, host, super::context::ctx(), &[], LIMITS);
    host.apply(&[0xaa; 20], &d.effects);
    code
}

pub const COUNTER: &str = r#"
from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        return self.storage["count"]
"#;

const LOOP_BODY: &str = "total = 0\nfor i in range(10000):\n    total += i * 2\n";

/// What the loop returns.
pub fn loop_total() -> i64 {
    (0..10_000i64).map(|i| i * 2).sum()
}

/// The loop as the `run` handler of an actor (metered).
pub fn metered_loop() -> String {
    format!(
        "class Actor:\n    def run(self):\n{}        return total\n",
        LOOP_BODY
            .lines()
            .map(|l| format!("        {l}\n"))
            .collect::<String>()
    )
}

/// Iterations of [`metered_while`].
pub const WHILE_ITERATIONS: i64 = 10_000;

/// A `while` loop that only counts, as the `run` handler of an actor: the loop the cycle
/// price is calibrated on (`cycle_price`, `loop (baseline)`), one test and one `+=` per
/// iteration.
pub fn metered_while() -> String {
    format!(
        "class Actor:\n    def run(self):\n        i = 0\n        while i < {WHILE_ITERATIONS}:\n            i += 1\n        return i\n"
    )
}

/// [`metered_while`] creating one instance of a class with an `__init__` per iteration: the
/// operation `cycle_price` finds slowest per cycle (`instance creation`), which sets the
/// execution-budget factor of the default genesis.
pub fn metered_instances() -> String {
    format!(
        "class A:\n    def __init__(self, x):\n        self.x = x\n\nclass Actor:\n    def run(self):\n        i = 0\n        while i < {WHILE_ITERATIONS}:\n            A(i)\n            i += 1\n        return i\n"
    )
}

/// The loop as plain module code (`Engine::debug_exec`: not instrumented).
pub fn unmetered_loop() -> String {
    format!("{LOOP_BODY}result = total\n")
}

pub const LIMITS: Limits = Limits {
    cycles: 100_000_000,
    cells: 1_000_000,
};
