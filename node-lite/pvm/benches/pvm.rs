//! PVM benchmarks, each next to a baseline measured in the same run:
//!
//! - `counter_increment`: a metered `increment` call including storage load and save (goal
//!   ≤ 30 µs);
//! - `loop_metered` vs `loop_unmetered`: the same loop as a metered actor handler and as plain
//!   uninstrumented code on the same interpreter (goal ≤ 1.25×);
//! - `while_metered`: a metered `while` loop that only counts (`cycle_price`'s baseline);
//! - `instances_metered`: the same loop creating an instance per iteration (`cycle_price`'s
//!   `instance creation`);
//! - `interpreter_reuse` vs `interpreter_fresh`: a call on a live engine vs building one.
//!
//! Run: `cargo bench -p cowboy-pvm --bench pvm`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use context::ctx;
use cowboy_pvm::{Engine, MemoryHost, Value};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use workloads::{COUNTER, LIMITS};

#[path = "../tests/support/context.rs"]
mod context;
#[path = "support/workloads.rs"]
mod workloads;

fn bench(c: &mut Criterion) {
    let mut engine = Engine::new().expect("engine");
    let mut host = MemoryHost::default();
    let counter = workloads::deployed(&mut engine, &mut host, COUNTER);

    let mut group = c.benchmark_group("pvm");
    group.bench_function("counter_increment", |b| {
        b.iter(|| {
            let out = engine.call(&counter, &mut host, ctx(), "increment", &[], LIMITS);
            host.apply(&[0xaa; 20], &out.effects);
            black_box(out.result)
        })
    });

    let mut loop_host = MemoryHost::default();
    let looper = workloads::deployed(&mut engine, &mut loop_host, &workloads::metered_loop());
    let expected = Value::Int(workloads::loop_total().into());
    group.bench_function("loop_metered", |b| {
        b.iter(|| {
            let out = engine.call(&looper, &mut loop_host, ctx(), "run", &[], LIMITS);
            assert_eq!(out.result.as_ref().ok(), Some(&expected));
        })
    });
    let while_loop = workloads::deployed(&mut engine, &mut loop_host, &workloads::metered_while());
    let counted = Value::Int(workloads::WHILE_ITERATIONS.into());
    group.bench_function("while_metered", |b| {
        b.iter(|| {
            let out = engine.call(&while_loop, &mut loop_host, ctx(), "run", &[], LIMITS);
            assert_eq!(out.result.as_ref().ok(), Some(&counted));
        })
    });
    let instances =
        workloads::deployed(&mut engine, &mut loop_host, &workloads::metered_instances());
    group.bench_function("instances_metered", |b| {
        b.iter(|| {
            let out = engine.call(&instances, &mut loop_host, ctx(), "run", &[], LIMITS);
            assert_eq!(out.result.as_ref().ok(), Some(&counted));
        })
    });
    let unmetered = workloads::unmetered_loop();
    group.bench_function("loop_unmetered", |b| {
        b.iter(|| black_box(engine.debug_exec(&unmetered).expect("runs")))
    });

    group.bench_function("interpreter_reuse", |b| {
        b.iter(|| engine.call(&counter, &mut host, ctx(), "increment", &[], LIMITS))
    });
    group.sample_size(10);
    group.bench_function("interpreter_fresh", |b| {
        b.iter(|| {
            let mut fresh = Engine::new().expect("engine");
            let code = fresh.load(COUNTER).expect("counter");
            let mut h = MemoryHost::default();
            let d = fresh.deploy(&code, &mut h, ctx(), &[], LIMITS);
            h.apply(&[0xaa; 20], &d.effects);
            black_box(fresh.call(&code, &mut h, ctx(), "increment", &[], LIMITS))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
