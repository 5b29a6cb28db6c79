//! `__mi__`: a native iterator that charges a fixed number of cycles per element before
//! yielding it. The instrumenter wraps comprehension iterables and `for` loop iterables in it,
//! so the per-iteration charge costs no extra Python call.

use crate::natives;
use rustpython_vm::{
    AsObject, Py, PyObjectRef, PyPayload, PyResult, VirtualMachine,
    builtins::PyType,
    class::{PyClassImpl, StaticType},
    convert::TryFromObject,
    protocol::{PyIter, PyIterReturn},
    pyclass,
    types::{IterNext, Iterable, SelfIter},
};

/// An iterator charging `cost` cycles per element.
#[pyclass(module = false, name = "metered_iterator")]
#[derive(Debug, PyPayload)]
pub struct MeteredIter {
    inner: PyIter,
    cost: u64,
}

#[pyclass(with(IterNext, Iterable))]
impl MeteredIter {}

impl SelfIter for MeteredIter {}

impl IterNext for MeteredIter {
    fn next(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<PyIterReturn> {
        natives::charge(zelf.cost, vm)?;
        zelf.inner.next(vm)
    }
}

/// `__mi__(iterable, n)` (`n` converted as a typed `u64` parameter is).
pub fn metered_iter(iterable: PyObjectRef, cost: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let inner = iterable.get_iter(vm)?;
    let cost = u64::try_from_object(vm, cost)?;
    Ok(MeteredIter { inner, cost }.into_ref(&vm.ctx).into())
}

/// Whether `ty` is this iterator's type. The per-element charge that `patches` adds to native
/// iterators' `__next__` must not be added to it: it charges its own price, and the type
/// exists only from the first interpreter of a thread on, so wrapping it would make a loop
/// cost more on a thread's later interpreters than on its first.
pub fn is_metered_iter_type(ty: &Py<PyType>) -> bool {
    MeteredIter::static_cell().get().is_some_and(|t| ty.is(t))
}

/// Registers the type (once per interpreter context).
pub fn init(vm: &VirtualMachine) {
    let _ = vm;
    MeteredIter::make_static_type();
}
