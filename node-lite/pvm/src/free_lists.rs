//! RustPython's free lists, kept full so that what a call allocates does not depend on earlier
//! calls.
//!
//! RustPython keeps the memory of freed tuples (up to 2,000 of each length from 1 to 20),
//! lists, dicts (80 each), ints, floats, complex numbers (100 each), ranges (6) and slices (1)
//! on per-thread free lists and hands it out again instead of asking the allocator. The memory
//! limit counts what the allocator hands out, so a call that found the lists stocked by earlier
//! calls was charged less than the same call on a node that had just started: a call close to
//! the limit failed on one node and succeeded on another.
//!
//! The lists are therefore filled once, when the thread's first interpreter starts, and every
//! call finds them full: whatever a call takes from a list goes back when the object dies, and
//! every object a call creates dies before the next call starts (the engine collects reference
//! cycles between calls, `engine::collect_garbage`). A list that is full stays full.

use rustpython_vm::{AsObject, PyObjectRef, PyResult, VirtualMachine};

/// RustPython's free-list capacities (`MAX_FREELIST` of each payload in rustpython-vm 0.5.0;
/// tuples: one list per length up to `TupleFreeList::MAX_SAVE_SIZE`).
const TUPLES_PER_LENGTH: usize = 2000;
const LONGEST_LISTED_TUPLE: usize = 20;
const LISTS: usize = 80;
const DICTS: usize = 80;
const INTS: usize = 100;
const FLOATS: usize = 100;
const COMPLEXES: usize = 100;
const RANGES: usize = 6;
const SLICES: usize = 1;

/// Fills every free list: creates as many objects of each kind as its list holds, all alive
/// at once (so none is served from the list twice), then drops them, which puts back as many
/// as fit.
pub fn fill(vm: &VirtualMachine) -> PyResult<()> {
    let ctx = &vm.ctx;
    let mut alive: Vec<PyObjectRef> = Vec::new();
    for length in 1..=LONGEST_LISTED_TUPLE {
        for _ in 0..TUPLES_PER_LENGTH {
            alive.push(ctx.new_tuple(vec![ctx.none(); length]).into());
        }
    }
    alive.extend((0..LISTS).map(|_| ctx.new_list(Vec::new()).into()));
    alive.extend((0..DICTS).map(|_| ctx.new_dict().into()));
    // Past the small-int cache (-5..=256), whose ints are never freed.
    alive.extend((0..INTS).map(|i| ctx.new_int(1_000 + i).into()));
    alive.extend((0..FLOATS).map(|i| ctx.new_float(i as f64 + 0.5).into()));
    for i in 0..COMPLEXES {
        alive.push(
            ctx.types
                .complex_type
                .as_object()
                .call((i as f64, 1.0), vm)?,
        );
    }
    for i in 0..RANGES {
        alive.push(ctx.types.range_type.as_object().call((i,), vm)?);
    }
    for i in 0..SLICES {
        alive.push(ctx.types.slice_type.as_object().call((i,), vm)?);
    }
    drop(alive);
    Ok(())
}
