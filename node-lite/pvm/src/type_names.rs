//! The names of classes as CPython 3.11 gives them, where the PVM's runtime names them otherwise.
//!
//! A class's name is part of results: `type(x).__name__`, `repr(type(x))`, and every error
//! message that names an operand's type (`unsupported operand type(s) for +: 'decimal.Decimal'
//! and 'float'`), which an actor may catch and keep. Two kinds differ:
//!
//! - **`decimal`'s classes.** CPython's `Decimal` and `Context` are C types named
//!   `decimal.Decimal` and `decimal.Context`: messages print that full name, while `__name__` is
//!   the part after the dot. The PVM's are `_pydecimal`'s Python classes, named `Decimal`. They
//!   are renamed `decimal.Decimal` and `decimal.Context` when the library loads, so that the
//!   interpreter's messages name them as CPython does, and `type.__name__` answers the part after
//!   the last dot for a library class whose name has one (as for a C type). An actor's own
//!   classes keep whatever `__name__` they set.
//! - **`int | str`.** Its type is `types.UnionType` in 3.11; RustPython's static type, following
//!   3.14, is `typing.Union`. `type.__name__`, `type.__qualname__`, `__module__` and the class's
//!   `repr` answer 3.11's names (`patches::repr_wrapper` asks [`type_repr`]). RustPython's own
//!   error messages about such an object still say `'Union'` (they read the static name, which
//!   nothing outside RustPython can change).

use crate::{library, library_objects, patches::first_on_this_thread};
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyStr, PyType},
    function::PySetterValue,
    types::PyTypeFlags,
};
use std::cell::RefCell;

/// `decimal`'s classes that are C types in CPython, renamed to their C names.
const DECIMAL_C_TYPES: &[&str] = &["Decimal", "Context"];

/// 3.11's names for RustPython's type of `X | Y`.
const UNION_NAME: &str = "UnionType";
const UNION_MODULE: &str = "types";

thread_local! {
    /// `type`'s own `__name__` and `__qualname__` descriptors, whose setters the replacements
    /// call (`type` is shared by every interpreter of the thread, so they are replaced once).
    static ORIGINAL_SETTERS: RefCell<Vec<(&'static str, PyObjectRef)>> = const { RefCell::new(Vec::new()) };
}

/// Installs the names; run once the library is loaded, before its objects are recorded.
pub fn install(vm: &VirtualMachine) -> PyResult<()> {
    let decimal = library::load_module("decimal", vm)?;
    for name in DECIMAL_C_TYPES {
        let class = decimal.get_attr(*name, vm)?;
        class.set_attr("__name__", vm.ctx.new_str(format!("decimal.{name}")), vm)?;
    }
    if !first_on_this_thread("type_names") {
        return Ok(());
    }
    let union = vm.ctx.types.union_type;
    union.set_attr(
        vm.ctx.intern_str("__module__"),
        vm.ctx.new_str(UNION_MODULE).into(),
    );
    let type_type = vm.ctx.types.type_type;
    let name = vm.ctx.intern_str("__name__");
    let qualname = vm.ctx.intern_str("__qualname__");
    for attribute in [name, qualname] {
        let original = type_type.get_direct_attr(attribute).ok_or_else(|| {
            vm.new_runtime_error(format!("type has no {} descriptor", attribute.as_str()))
        })?;
        ORIGINAL_SETTERS.with(|s| s.borrow_mut().push((attribute.as_str(), original)));
    }
    let name_getset = vm.ctx.new_static_getset(
        "__name__",
        type_type,
        |ty: &Py<PyType>, vm: &VirtualMachine| -> PyResult<PyObjectRef> {
            if ty.is(vm.ctx.types.union_type) {
                return Ok(vm.ctx.new_str(UNION_NAME).into());
            }
            let name = ty.__name__(vm);
            Ok(match c_type_name_tail(ty, &name) {
                Some(tail) => vm.ctx.new_str(tail).into(),
                None => name.into(),
            })
        },
        |ty: PyObjectRef, value: PySetterValue, vm: &VirtualMachine| {
            set_with_original("__name__", ty, value, vm)
        },
    );
    let qualname_getset = vm.ctx.new_static_getset(
        "__qualname__",
        type_type,
        |ty: &Py<PyType>, vm: &VirtualMachine| -> PyResult<PyObjectRef> {
            if ty.is(vm.ctx.types.union_type) {
                return Ok(vm.ctx.new_str(UNION_NAME).into());
            }
            Ok(ty.__qualname__(vm))
        },
        |ty: PyObjectRef, value: PySetterValue, vm: &VirtualMachine| {
            set_with_original("__qualname__", ty, value, vm)
        },
    );
    type_type.set_attr(name, name_getset.into());
    type_type.set_attr(qualname, qualname_getset.into());
    Ok(())
}

/// The part after the last dot of a library class's dotted name (a C type's in CPython).
fn c_type_name_tail<'a>(ty: &Py<PyType>, name: &'a PyStr) -> Option<&'a str> {
    let (_, tail) = name.to_str()?.rsplit_once('.')?;
    let heap = ty.slots.flags.has_feature(PyTypeFlags::HEAPTYPE);
    (heap && library_objects::is_library_object(ty.as_object())).then_some(tail)
}

/// Sets `__name__` or `__qualname__` through `type`'s own descriptor.
fn set_with_original(
    attribute: &'static str,
    ty: PyObjectRef,
    value: PySetterValue,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let original = ORIGINAL_SETTERS.with(|s| {
        s.borrow()
            .iter()
            .find(|(name, _)| *name == attribute)
            .map(|(_, d)| d.clone())
    });
    let original = original
        .ok_or_else(|| vm.new_runtime_error(format!("{attribute} setter not installed")))?;
    let set = original
        .class()
        .slots
        .descr_set
        .load()
        .ok_or_else(|| vm.new_runtime_error(format!("{attribute} descriptor cannot set")))?;
    set(&original, ty, value, vm)
}

/// `ty`'s name as CPython's C code prints it in messages (`tp_name`): a built-in type's plain
/// name, another module's native type with its module (`collections.deque`), and a class defined
/// in Python by its `__name__` (`decimal.Decimal`'s is renamed, see the module comment).
pub fn c_type_name(ty: &Py<PyType>, vm: &VirtualMachine) -> String {
    if ty.is(vm.ctx.types.union_type) {
        format!("{UNION_MODULE}.{UNION_NAME}")
    } else if ty.slots.flags.has_feature(PyTypeFlags::HEAPTYPE) {
        ty.name().to_string()
    } else {
        ty.slot_name().to_string()
    }
}

/// 3.11's `repr` of a class the runtime names otherwise, or `None`.
pub(crate) fn type_repr(zelf: &PyObject, vm: &VirtualMachine) -> Option<String> {
    zelf.is(vm.ctx.types.union_type)
        .then(|| format!("<class '{UNION_MODULE}.{UNION_NAME}'>"))
}
