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
//! cycles between calls, `engine::collect_garbage`). A list that is full stays full. Compiling
//! an actor, outside calls, keeps its constants: [`Reserve`] gives the lists back what it took.

use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyCode, PyComplex, PyFloat, PyInt, PySlice, PyTuple},
};
use std::borrow::Borrow;

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

/// How many objects of each listed kind compiled code keeps alive: its constants (big ints,
/// floats, complex numbers, tuples, slices), which the compiler took from the free lists.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Kept {
    ints: usize,
    floats: usize,
    complexes: usize,
    slices: usize,
    /// By length, 1 to [`LONGEST_LISTED_TUPLE`].
    tuples: [usize; LONGEST_LISTED_TUPLE],
}

impl Kept {
    /// What `code` and the code nested in it keep.
    pub fn by(code: &Py<PyCode>) -> Self {
        let mut kept = Self::default();
        kept.code(code);
        kept
    }

    fn code(&mut self, code: &Py<PyCode>) {
        for constant in code.code.constants.iter() {
            self.object(constant.borrow());
        }
    }

    fn object(&mut self, o: &PyObject) {
        if let Some(code) = o.downcast_ref::<PyCode>() {
            self.code(code);
        } else if let Some(t) = o.downcast_ref::<PyTuple>() {
            if let Some(n) = t.len().checked_sub(1).and_then(|i| self.tuples.get_mut(i)) {
                *n += 1;
            }
            for item in t.iter() {
                self.object(item);
            }
        } else if let Some(s) = o.downcast_ref::<PySlice>() {
            self.slices += 1;
            for part in [s.start.as_deref(), Some(&*s.stop), s.step.as_deref()]
                .into_iter()
                .flatten()
            {
                self.object(part);
            }
        } else if o.downcast_ref::<PyInt>().is_some() {
            // Small ints are cached, never listed: counting them too only gives back more.
            self.ints += 1;
        } else if o.downcast_ref::<PyFloat>().is_some() {
            self.floats += 1;
        } else if o.downcast_ref::<PyComplex>().is_some() {
            self.complexes += 1;
        }
    }
}

/// Objects held alive so that what compiling takes from the free lists can be given back.
///
/// Code is compiled outside calls, when a node first runs an actor (and again after its
/// interpreter is replaced): its constants come from the free lists and stay alive, so the
/// next call found the lists short and allocated more than the same call on a node that had
/// compiled the actor long before (2,000 tuple constants: some 200 KB, within reach of the
/// memory limit). Refilling a list means creating as many objects as it holds (2,000 per tuple
/// length), too slow for every compile; objects held here, made while a list was being
/// refilled, go back to it by simply being dropped. A kind's reserve is made when first
/// needed and made again when it runs short, each time by a refill.
#[derive(Default)]
pub struct Reserve {
    ints: Vec<PyObjectRef>,
    floats: Vec<PyObjectRef>,
    complexes: Vec<PyObjectRef>,
    slices: Vec<PyObjectRef>,
    tuples: [Vec<PyObjectRef>; LONGEST_LISTED_TUPLE],
}

/// Objects a kind's reserve is made with (a quarter of a tuple list: 2,000 per length).
const RESERVED_TUPLES: usize = 500;
const RESERVED_NUMBERS: usize = 100;
const RESERVED_SLICES: usize = 4;

impl Reserve {
    /// Gives the free lists back what compiling took from them (`kept`): every list is full
    /// again, as at every call's start.
    pub fn give_back(&mut self, kept: &Kept, vm: &VirtualMachine) -> PyResult<()> {
        let ctx = &vm.ctx;
        give_back(&mut self.ints, kept.ints, INTS, RESERVED_NUMBERS, |i| {
            Ok(ctx.new_int(1_000 + i).into())
        })?;
        give_back(
            &mut self.floats,
            kept.floats,
            FLOATS,
            RESERVED_NUMBERS,
            |i| Ok(ctx.new_float(i as f64 + 0.5).into()),
        )?;
        give_back(
            &mut self.complexes,
            kept.complexes,
            COMPLEXES,
            RESERVED_NUMBERS,
            |i| ctx.types.complex_type.as_object().call((i as f64, 1.0), vm),
        )?;
        give_back(
            &mut self.slices,
            kept.slices,
            SLICES,
            RESERVED_SLICES,
            |i| ctx.types.slice_type.as_object().call((i,), vm),
        )?;
        for (length, (reserve, &need)) in (1..).zip(self.tuples.iter_mut().zip(&kept.tuples)) {
            give_back(reserve, need, TUPLES_PER_LENGTH, RESERVED_TUPLES, |_| {
                Ok(ctx.new_tuple(vec![ctx.none(); length]).into())
            })?;
        }
        Ok(())
    }
}

/// Puts `need` objects back on a list that holds `capacity`: drops that many from `reserve`
/// (a dropped object goes onto its list while there is room); if it has fewer, refills the
/// list as [`fill`] does and makes a new reserve of `reserved` in the same pass.
fn give_back(
    reserve: &mut Vec<PyObjectRef>,
    need: usize,
    capacity: usize,
    reserved: usize,
    make: impl Fn(usize) -> PyResult<PyObjectRef>,
) -> PyResult<()> {
    if need == 0 {
        return Ok(());
    }
    if need <= reserve.len() {
        reserve.truncate(reserve.len() - need);
        return Ok(());
    }
    // All alive at once: the first `capacity` empty the list and are dropped, filling it.
    let mut made = (0..capacity + reserved)
        .map(&make)
        .collect::<PyResult<Vec<_>>>()?;
    let fresh = made.split_off(capacity);
    drop(made);
    *reserve = fresh;
    Ok(())
}
