//! Instructions executed by the PVM's benchmark workloads, counted by callgrind: exact and
//! repeatable, so a change of a few percent shows, where wall times (`--bench pvm`) swing by 2×
//! on a shared machine. Each figure is given next to its baseline, counted in the same run:
//!
//! - `loop_metered` vs `loop_unmetered` (`pvm`'s loops: the same 10,000 iterations as a metered
//!   actor handler and as plain code);
//! - `while_metered`, a metered `while` loop that only counts (`cycle_price`'s baseline loop),
//!   given per iteration;
//! - `counter_increment`, a metered call with its storage load and save;
//! - `interpreter_fresh`, one engine built (the library's bytecode already compiled, as for every
//!   engine after a process's first).
//!
//! Run: `cargo bench -p cowboy-pvm --bench instructions` (needs `valgrind`; it runs itself under
//! `valgrind --tool=callgrind`, once per workload, counting only the measured part).

#![allow(clippy::unwrap_used, clippy::expect_used)] // Bench code: a failure is the bench failing.

use context::ctx;
use cowboy_pvm::{ActorCode, Engine, MemoryHost, Value};
use std::{process::Command, rc::Rc};
use workloads::{COUNTER, LIMITS};

#[path = "../tests/support/context.rs"]
mod context;
#[path = "support/workloads.rs"]
mod workloads;

/// Each workload and how many times it runs under the counter.
const WORKLOADS: &[(&str, u64)] = &[
    ("loop_metered", 5),
    ("loop_unmetered", 5),
    ("while_metered", 5),
    ("instances_metered", 3),
    ("counter_increment", 200),
    ("interpreter_fresh", 1),
];

struct Setup {
    engine: Engine,
    looper: Rc<ActorCode>,
    loop_host: MemoryHost,
    while_loop: Rc<ActorCode>,
    instances: Rc<ActorCode>,
    counter: Rc<ActorCode>,
    counter_host: MemoryHost,
    unmetered: String,
}

fn setup() -> Setup {
    let mut engine = Engine::new().expect("engine");
    let mut loop_host = MemoryHost::default();
    let looper = workloads::deployed(&mut engine, &mut loop_host, &workloads::metered_loop());
    let while_loop = workloads::deployed(&mut engine, &mut loop_host, &workloads::metered_while());
    let instances =
        workloads::deployed(&mut engine, &mut loop_host, &workloads::metered_instances());
    let mut counter_host = MemoryHost::default();
    let counter = workloads::deployed(&mut engine, &mut counter_host, COUNTER);
    let unmetered = workloads::unmetered_loop();
    // Once each before counting: what a first run does differently is not counted.
    engine.call(&looper, &mut loop_host, ctx(), "run", &[], LIMITS);
    engine.debug_exec(&unmetered).expect("runs");
    engine.call(&while_loop, &mut loop_host, ctx(), "run", &[], LIMITS);
    engine.call(&instances, &mut loop_host, ctx(), "run", &[], LIMITS);
    let out = engine.call(&counter, &mut counter_host, ctx(), "increment", &[], LIMITS);
    counter_host.apply(&[0xaa; 20], &out.effects);
    Setup {
        engine,
        looper,
        loop_host,
        while_loop,
        instances,
        counter,
        counter_host,
        unmetered,
    }
}

/// What callgrind counts (`--toggle-collect`): `runs` runs of `workload`.
#[inline(never)]
fn measured_workload(workload: &str, runs: u64, s: &mut Setup) {
    for _ in 0..runs {
        match workload {
            "loop_metered" => {
                let out = s
                    .engine
                    .call(&s.looper, &mut s.loop_host, ctx(), "run", &[], LIMITS);
                assert_eq!(out.result, Ok(Value::Int(workloads::loop_total().into())));
            }
            "loop_unmetered" => {
                s.engine.debug_exec(&s.unmetered).expect("runs");
            }
            "while_metered" | "instances_metered" => {
                let code = if workload == "while_metered" {
                    &s.while_loop
                } else {
                    &s.instances
                };
                let out = s
                    .engine
                    .call(code, &mut s.loop_host, ctx(), "run", &[], LIMITS);
                assert_eq!(
                    out.result,
                    Ok(Value::Int(workloads::WHILE_ITERATIONS.into()))
                );
            }
            "counter_increment" => {
                let out = s.engine.call(
                    &s.counter,
                    &mut s.counter_host,
                    ctx(),
                    "increment",
                    &[],
                    LIMITS,
                );
                s.counter_host.apply(&[0xaa; 20], &out.effects);
            }
            "interpreter_fresh" => drop(Engine::new().expect("engine")),
            other => panic!("no workload {other}"),
        }
    }
}

/// The cycles one run of `while_metered` and of `instances_metered` is charged.
fn cycles_charged() -> (u64, u64) {
    let mut s = setup();
    let mut cycles = |code: &Rc<ActorCode>| {
        let out = s
            .engine
            .call(code, &mut s.loop_host, ctx(), "run", &[], LIMITS);
        assert!(out.result.is_ok(), "{:?}", out.result);
        out.cycles_used
    };
    let while_loop = s.while_loop.clone();
    let instances = s.instances.clone();
    (cycles(&while_loop), cycles(&instances))
}

/// Runs this binary on `workload` under callgrind; instructions per run.
fn count(workload: &str, runs: u64) -> Option<f64> {
    let exe = std::env::current_exe().expect("own path");
    let out_file = std::env::temp_dir().join(format!("cowboy-callgrind-{workload}.out"));
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg("--collect-atstart=no")
        .arg("--toggle-collect=*measured_workload*")
        .arg(&exe)
        .args(["--workload", workload, &runs.to_string()])
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&out_file);
    let log = String::from_utf8_lossy(&output.stderr);
    let collected = log
        .lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().parse::<u64>().ok());
    if !output.status.success() || collected.is_none() {
        eprintln!("{workload}: callgrind failed:\n{log}");
        return None;
    }
    collected.map(|n| n as f64 / runs as f64)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--workload") {
        let workload = &args[at + 1];
        let runs = args[at + 2].parse().expect("runs");
        let mut s = setup();
        measured_workload(workload, runs, &mut s);
        return;
    }
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("instructions: valgrind is not installed (apt install valgrind); skipped");
        return;
    }
    let mut counts = std::collections::BTreeMap::new();
    for (workload, runs) in WORKLOADS {
        let Some(n) = count(workload, *runs) else {
            std::process::exit(1);
        };
        println!("pvm/{workload:<22} {:>14.0} instructions per run", n);
        counts.insert(*workload, n);
    }
    println!(
        "loop_metered / loop_unmetered = {:.3} (goal ≤ 1.25)",
        counts["loop_metered"] / counts["loop_unmetered"]
    );
    println!(
        "while_metered: {:.0} instructions per iteration",
        counts["while_metered"] / workloads::WHILE_ITERATIONS as f64
    );
    // Per cycle charged: what `cycle_price` compares in wall time, exactly.
    let (while_cycles, instance_cycles) = cycles_charged();
    let while_per_cycle = counts["while_metered"] / while_cycles as f64;
    let instance_per_cycle = counts["instances_metered"] / instance_cycles as f64;
    println!(
        "instances_metered: {:.0} instructions per iteration; {:.0} per cycle charged against \
         while_metered's {:.0} = {:.2}× (cycle_price's `instance creation` vs its baseline)",
        counts["instances_metered"] / workloads::WHILE_ITERATIONS as f64,
        instance_per_cycle,
        while_per_cycle,
        instance_per_cycle / while_per_cycle
    );
    println!(
        "interpreter_fresh / counter_increment = {:.0} calls' worth",
        counts["interpreter_fresh"] / counts["counter_increment"]
    );
}
