//! `reversed()` of dicts and dict views, metered and terminating.
//!
//! RustPython 0.5's reverse dict iterators walk the entry table backwards with a saturating
//! index: when the first entry was deleted (`del d[first]`), the walk stops at index 0 on the
//! deleted slot and loops there forever, inside one native `__next__`, charging nothing. These
//! iterators replace `dict.__reversed__` and the views' `__reversed__` for every interpreter.
//!
//! They take the keys in insertion order when created (charging one cycle per key), then hand
//! them out from the end, reading values when they are reached, so a value changed during the
//! iteration is seen as CPython sees it. As in CPython, a dict whose size changes during the
//! iteration makes the next step raise `RuntimeError`.

use crate::{cost::cycles, natives};
use rustpython_vm::{
    AsObject, Py, PyObjectRef, PyPayload, PyResult, VirtualMachine,
    builtins::{PyDict, PyType},
    class::PyClassImpl,
    common::lock::PyMutex,
    function::FuncArgs,
    protocol::PyIterReturn,
    pyclass,
    types::{IterNext, Iterable, SelfIter},
};

/// What a reverse iterator yields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Yields {
    Keys,
    Values,
    Items,
}

/// The state every reverse iterator shares.
#[derive(Debug)]
struct Walk {
    /// The dict, or the mapping proxy of a view (what `len` and `[key]` are asked of).
    mapping: PyObjectRef,
    /// Keys not yet handed out, in insertion order (taken from the end); `None` once the
    /// iterator is exhausted or failed.
    keys: PyMutex<Option<Vec<PyObjectRef>>>,
    /// The mapping's size when the iterator was made.
    len: usize,
    yields: Yields,
}

impl Walk {
    fn new(mapping: PyObjectRef, yields: Yields, vm: &VirtualMachine) -> PyResult<Self> {
        let keys: Vec<PyObjectRef> = match mapping.downcast_ref::<PyDict>() {
            Some(d) => d.keys_vec(),
            // A view's mapping proxy: forward iteration (charged per element by the patched
            // `__next__`).
            None => mapping
                .get_iter(vm)?
                .into_iter::<PyObjectRef>(vm)?
                .collect::<PyResult<_>>()?,
        };
        natives::charge(keys.len() as u64 * cycles::PER_ELEMENT, vm)?;
        Ok(Self {
            len: keys.len(),
            mapping,
            keys: PyMutex::new(Some(keys)),
            yields,
        })
    }

    fn next(&self, vm: &VirtualMachine) -> PyResult<PyIterReturn> {
        natives::charge(cycles::PER_ELEMENT, vm)?;
        let mut keys = self.keys.lock();
        let Some(pending) = keys.as_mut() else {
            return Ok(PyIterReturn::StopIteration(None));
        };
        if self.mapping.length(vm)? != self.len {
            *keys = None;
            return Err(vm.new_runtime_error("dictionary changed size during iteration"));
        }
        let Some(key) = pending.pop() else {
            *keys = None;
            return Ok(PyIterReturn::StopIteration(None));
        };
        drop(keys);
        let value = |key: &PyObjectRef| -> PyResult {
            self.mapping.get_item(key.as_object(), vm).map_err(|e| {
                if e.fast_isinstance(vm.ctx.exceptions.key_error) {
                    *self.keys.lock() = None;
                    vm.new_runtime_error("dictionary keys changed during iteration")
                } else {
                    e
                }
            })
        };
        let item = match self.yields {
            Yields::Keys => key,
            Yields::Values => value(&key)?,
            Yields::Items => {
                let v = value(&key)?;
                vm.ctx.new_tuple(vec![key, v]).into()
            }
        };
        Ok(PyIterReturn::Return(item))
    }

    fn length_hint(&self) -> usize {
        self.keys.lock().as_ref().map_or(0, Vec::len)
    }
}

macro_rules! reverse_iterator {
    ($name:ident, $class_name:literal) => {
        #[pyclass(module = false, name = $class_name)]
        #[derive(Debug, PyPayload)]
        struct $name(Walk);

        #[pyclass(with(IterNext, Iterable))]
        impl $name {
            #[pymethod]
            fn __length_hint__(&self) -> usize {
                self.0.length_hint()
            }
        }

        impl SelfIter for $name {}

        impl IterNext for $name {
            fn next(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<PyIterReturn> {
                zelf.0.next(vm)
            }
        }
    };
}

reverse_iterator!(ReverseKeys, "dict_reversekeyiterator");
reverse_iterator!(ReverseValues, "dict_reversevalueiterator");
reverse_iterator!(ReverseItems, "dict_reverseitemiterator");

fn reversed_iterator(mapping: PyObjectRef, yields: Yields, vm: &VirtualMachine) -> PyResult {
    let walk = Walk::new(mapping, yields, vm)?;
    Ok(match yields {
        Yields::Keys => ReverseKeys(walk).into_ref(&vm.ctx).into(),
        Yields::Values => ReverseValues(walk).into_ref(&vm.ctx).into(),
        Yields::Items => ReverseItems(walk).into_ref(&vm.ctx).into(),
    })
}

/// Replaces `__reversed__` of `dict`, `dict_keys`, `dict_values` and `dict_items`.
pub fn install(vm: &VirtualMachine) -> PyResult<()> {
    ReverseKeys::make_static_type();
    ReverseValues::make_static_type();
    ReverseItems::make_static_type();
    let types = &vm.ctx.types;
    install_on(types.dict_type, Yields::Keys, false, vm);
    install_on(types.dict_keys_type, Yields::Keys, true, vm);
    install_on(types.dict_values_type, Yields::Values, true, vm);
    install_on(types.dict_items_type, Yields::Items, true, vm);
    Ok(())
}

fn install_on(ty: &'static Py<PyType>, yields: Yields, view: bool, vm: &VirtualMachine) {
    let method = vm.new_method(
        "__reversed__",
        ty,
        move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
            let zelf = args
                .args
                .first()
                .cloned()
                .ok_or_else(|| vm.new_type_error("__reversed__() needs its object"))?;
            let mapping = if view {
                zelf.get_attr("mapping", vm)?
            } else {
                zelf
            };
            reversed_iterator(mapping, yields, vm)
        },
    );
    ty.set_attr(vm.ctx.intern_str("__reversed__"), method.into());
}
