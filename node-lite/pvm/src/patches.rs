//! Runtime patches that make RustPython deterministic and metered where the AST rewrite cannot
//! reach: work done inside native code.
//!
//! All changes go through RustPython's public API: type slots are public atomic cells, type
//! attribute maps are public, so the interpreter is adjusted at start-up without touching its
//! source. Each patch wraps the original function:
//!
//! - **`repr` without addresses**: default reprs (`<Foo object at 0x7f…>`, functions,
//!   generators, bound methods) embed memory addresses that differ between nodes; every
//!   `repr` slot is wrapped to print the object's deterministic `id()` in place of its own
//!   address and to strip any other ` at 0x…`.
//! - **per-element charges in native loops**: every iterator's `__next__` charges one cycle,
//!   so `sum(range(10**12))`, `list(range(10**9))` or `max(...)` run out of cycles instead of
//!   running for hours; `in` and `==` on lists and tuples charge per element.
//! - **sorting** charges `n·⌈log₂ n⌉` comparisons up front.
//! - **library classes are read-only to actors**: setting or deleting an attribute of a class
//!   defined by the embedded library while a call runs raises `TypeError`, so no actor can
//!   change what another actor's code does.

use crate::{cost::cycles, identity, meter, natives};
use rustpython_vm::common::wtf8::Wtf8Buf;
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine,
    builtins::{PyBoundMethod, PyList, PySet, PyStr, PyTuple, PyType, PyTypeRef},
    function::{Either, FuncArgs, PyComparisonValue, PySetterValue},
    protocol::{PyIterReturn, PySequence},
    types::{PyComparisonOp, PyTypeFlags},
};
use std::sync::{Mutex, OnceLock};

/// Puts the wrapper `$wrapper` (a function pointer of the slot's type) in the type slot
/// `$slot`, keeping the function it replaces in `$original` (a `OnceLock`). Built-in types, and
/// their slots, are shared by every interpreter of the process: a slot already wrapped is left
/// as it is, so wrapping never nests.
macro_rules! swap_slot {
    ($slot:expr, $original:expr, $wrapper:expr) => {{
        let slot = &$slot;
        let wrapper = $wrapper;
        if let Some(f) = slot.load()
            && !std::ptr::fn_addr_eq(f, wrapper)
        {
            let _ = $original.set(f);
            slot.store(Some(wrapper));
        }
    }};
}
pub(crate) use swap_slot;

/// Replaces the method `ty.name` by `f`, which is handed the method it replaces. Built-in types
/// are shared by every interpreter a thread runs: their methods are replaced once per thread
/// (after [`first_on_this_thread`]), or calls would go through the wrapper twice.
pub(crate) fn wrap_method<F>(
    ty: &'static Py<PyType>,
    name: &'static str,
    vm: &VirtualMachine,
    f: F,
) -> PyResult<()>
where
    F: Fn(FuncArgs, &PyObjectRef, &VirtualMachine) -> PyResult + 'static,
{
    let interned = vm.ctx.intern_str(name);
    let original = ty
        .get_attr(interned)
        .ok_or_else(|| vm.new_runtime_error(format!("{}.{name} missing", ty.name())))?;
    let method = vm.new_method(name, ty, move |args: FuncArgs, vm: &VirtualMachine| {
        f(args, &original, vm)
    });
    ty.set_attr(interned, method.into());
    Ok(())
}

/// Replaces the classmethod `ty.name` by `f`, which is handed the arguments after the class
/// and the original bound to the class it was called on. Nothing when `ty` has no `name`.
pub(crate) fn wrap_classmethod<F>(
    ty: &'static Py<PyType>,
    name: &'static str,
    vm: &VirtualMachine,
    f: F,
) -> PyResult<()>
where
    F: Fn(FuncArgs, &PyObjectRef, &VirtualMachine) -> PyResult + 'static,
{
    let interned = vm.ctx.intern_str(name);
    let Some(original) = ty.get_attr(interned) else {
        return Ok(());
    };
    let wrapped = vm.new_function(name, move |mut args: FuncArgs, vm: &VirtualMachine| {
        if args.args.is_empty() {
            return Err(vm.new_type_error(format!("{name}() needs its class")));
        }
        let cls = args.args.remove(0);
        let bound = vm.call_method(&original, "__get__", (vm.ctx.none(), cls))?;
        f(args, &bound, vm)
    });
    let classmethod =
        rustpython_vm::builtins::PyClassMethod::from(PyObjectRef::from(wrapped)).into_ref(&vm.ctx);
    ty.set_attr(interned, classmethod.into());
    Ok(())
}

/// Replaces the method `ty.name` by `check` followed by the method: `check` raises, or lets
/// the call through unchanged.
pub(crate) fn guard_method(
    ty: &'static Py<PyType>,
    name: &'static str,
    check: fn(&FuncArgs, &VirtualMachine) -> PyResult<()>,
    vm: &VirtualMachine,
) -> PyResult<()> {
    wrap_method(ty, name, vm, move |args, original, vm| {
        check(&args, vm)?;
        original.call(args, vm)
    })
}

type ReprFn = fn(&PyObject, &VirtualMachine) -> PyResult<PyRef<PyStr>>;
type IterNextFn = fn(&PyObject, &VirtualMachine) -> PyResult<PyIterReturn>;
type RichCompareFn = fn(
    &PyObject,
    &PyObject,
    PyComparisonOp,
    &VirtualMachine,
) -> PyResult<Either<PyObjectRef, PyComparisonValue>>;
type ContainsFn = fn(PySequence<'_>, &PyObject, &VirtualMachine) -> PyResult<bool>;
/// A type's `setattro` slot (RustPython keeps its own alias crate-private).
pub(crate) type SetattroFn =
    fn(&PyObject, &Py<PyStr>, PySetterValue, &VirtualMachine) -> PyResult<()>;
/// A type's constructor (`new`) slot (RustPython keeps its own alias crate-private).
pub(crate) type NewFn =
    fn(PyTypeRef, rustpython_vm::function::FuncArgs, &VirtualMachine) -> PyResult;

/// Wrapper tables: one monomorphised wrapper per distinct original function (function
/// pointers carry no data, so each wrapper finds its original by its const index).
const TABLE: usize = 128;

static REPR_ORIGINALS: [OnceLock<ReprFn>; TABLE] = [const { OnceLock::new() }; TABLE];
static ITERNEXT_ORIGINALS: [OnceLock<IterNextFn>; TABLE] = [const { OnceLock::new() }; TABLE];
static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    repr: Vec::new(),
    iternext: Vec::new(),
});

struct Registry {
    repr: Vec<usize>,
    iternext: Vec<usize>,
}

/// A native repr without memory addresses, or `None` when it has none. The object's own
/// address, which RustPython prints last (`<__actor__.P object at 0x7f…>`, `<function f at
/// 0x7f…>`), becomes its [`identity::id`] in hex — CPython's address *is* its `id()`, so
/// `repr(x)` still shows `hex(id(x))` — and any other address (`<built-in method append of
/// list object at 0x7f…>`) is removed.
///
/// Only a text of the form `<…>` is looked at: the natives that print addresses all print
/// that form, while a list's or a tuple's text is its elements' reprs (already through their
/// own wrappers) and may hold a user's `__repr__` text, which is left as written. Whether the
/// last address is the object's own is a property of the type's repr code, the same on every
/// node, so the output never depends on an address.
fn deterministic_repr(zelf: &PyObject, text: &str, vm: &VirtualMachine) -> Option<String> {
    if !text.starts_with('<') || !text.contains(" at 0x") {
        return None;
    }
    // `<bound method A.f of REPR>` prints no address of its own: REPR is `repr(self)`, already
    // deterministic.
    if zelf.downcast_ref::<PyBoundMethod>().is_some() {
        return None;
    }
    // `<built-in method append of list object at 0x…>` and `<method-wrapper '__add__' of int
    // object at 0x…>` print the address of the object they are bound to.
    let class = zelf.class();
    let shown = if class.is(vm.ctx.types.builtin_function_or_method_type)
        || class.is(vm.ctx.types.method_wrapper_type)
    {
        vm.get_attribute_opt(zelf.to_owned(), "__self__")
            .ok()
            .flatten()
    } else {
        Some(zelf.to_owned())
    };
    let Some(shown) = shown else {
        return strip_addresses(text);
    };
    let address = format!(" at {:#x}>", shown.get_id());
    let Some(prefix) = text.strip_suffix(address.as_str()) else {
        return strip_addresses(text);
    };
    let prefix = strip_addresses(prefix).unwrap_or_else(|| prefix.to_owned());
    Some(format!("{prefix} at {:#x}>", identity::id(shown)))
}

fn strip_addresses(s: &str) -> Option<String> {
    if !s.contains(" at 0x") {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(" at 0x") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 6..];
        let hex_len = after.bytes().take_while(|b| b.is_ascii_hexdigit()).count();
        rest = &after[hex_len..];
    }
    out.push_str(rest);
    Some(out)
}

fn repr_wrapper<const I: usize>(zelf: &PyObject, vm: &VirtualMachine) -> PyResult<PyRef<PyStr>> {
    let original = REPR_ORIGINALS[I]
        .get()
        .ok_or_else(|| vm.new_runtime_error("repr patch table is inconsistent"))?;
    if let Some(i) = zelf.downcast_ref::<rustpython_vm::builtins::PyInt>() {
        natives::charge(crate::prices::int_to_text_cost(i.as_bigint()), vm)?;
    }
    let s = match crate::type_names::type_repr(zelf, vm) {
        Some(renamed) => vm.ctx.new_str(renamed),
        None => original(zelf, vm)?,
    };
    // Native reprs build their whole text (a container's, every element's) for a constant
    // price: charged by the characters made, at every level of nesting — of the text the actor
    // gets, since the original's length depends on how many hex digits an address has.
    let s = match s
        .to_str()
        .and_then(|text| deterministic_repr(zelf, text, vm))
    {
        Some(clean) => vm.ctx.new_str(clean),
        None => s,
    };
    natives::charge(s.char_len() as u64 * cycles::PER_CHAR, vm)?;
    Ok(s)
}

fn iternext_wrapper<const I: usize>(
    zelf: &PyObject,
    vm: &VirtualMachine,
) -> PyResult<PyIterReturn> {
    natives::charge(cycles::PER_ELEMENT, vm)?;
    let original = ITERNEXT_ORIGINALS[I]
        .get()
        .ok_or_else(|| vm.new_runtime_error("iterator patch table is inconsistent"))?;
    original(zelf, vm)
}

macro_rules! table {
    ($f:ident, $ty:ty, $($i:literal)*) => {
        [$($f::<$i> as $ty),*]
    };
}

fn repr_wrappers() -> [ReprFn; TABLE] {
    table!(repr_wrapper, ReprFn,
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95
        96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127)
}

fn iternext_wrappers() -> [IterNextFn; TABLE] {
    table!(iternext_wrapper, IterNextFn,
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95
        96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127)
}

/// Why a native slot could not be wrapped: the wrapper table has no entry left.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the {slot} wrapper table is full ({TABLE} distinct native functions): raise \
     `patches::TABLE` (a native type left with its own {slot} would show addresses or go \
     uncharged)"
)]
struct TableFull {
    slot: &'static str,
}

/// Finds (or assigns) the table index of `original` and records it. A full table is an error:
/// the type would keep its unwrapped slot, whose output shows raw addresses (`repr`) or whose
/// iteration is not charged (`__next__`) — a fork, where a node that refuses to start is not.
fn index_of<F: Copy>(
    list: &mut Vec<usize>,
    originals: &[OnceLock<F>; TABLE],
    original: F,
    addr: usize,
    slot: &'static str,
) -> Result<usize, TableFull> {
    if let Some(i) = list.iter().position(|&a| a == addr) {
        return Ok(i);
    }
    if list.len() >= TABLE {
        return Err(TableFull { slot });
    }
    let i = list.len();
    list.push(addr);
    let _ = originals[i].set(original);
    Ok(i)
}

/// Every type reachable from `object` through `__subclasses__`.
pub fn all_types(vm: &VirtualMachine) -> Vec<PyTypeRef> {
    let mut out: Vec<PyTypeRef> = vec![vm.ctx.types.object_type.to_owned()];
    let mut i = 0;
    while i < out.len() {
        let subs: Vec<PyTypeRef> = out[i]
            .subclasses
            .read()
            .iter()
            .filter_map(|w| w.upgrade())
            .filter_map(|o| o.downcast::<PyType>().ok())
            .collect();
        for s in subs {
            if !out.iter().any(|t| t.is(&s)) {
                out.push(s);
            }
        }
        i += 1;
    }
    out
}

fn patch_type_slots(ty: &Py<PyType>, registry: &mut Registry) -> Result<(), TableFull> {
    crate::fidelity::fill_contains_slot(ty);
    let reprs = repr_wrappers();
    let nexts = iternext_wrappers();
    if let Some(f) = ty.slots.repr.load() {
        let addr = f as usize;
        if !reprs.iter().any(|w| *w as usize == addr) {
            let i = index_of(&mut registry.repr, &REPR_ORIGINALS, f, addr, "repr")?;
            ty.slots.repr.store(Some(reprs[i]));
        }
    }
    if let Some(f) = ty.slots.iternext.load() {
        let addr = f as usize;
        if !nexts.iter().any(|w| *w as usize == addr) {
            let i = index_of(
                &mut registry.iternext,
                &ITERNEXT_ORIGINALS,
                f,
                addr,
                "__next__",
            )?;
            ty.slots.iternext.store(Some(nexts[i]));
        }
    }
    Ok(())
}

/// The wrapper tables' registry. It only grows, one whole entry at a time, so a thread that
/// panicked while holding it left it consistent.
fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The class in `ty`'s MRO (itself first) whose own namespace defines `name`.
pub fn defining_class(
    ty: &Py<PyType>,
    name: &'static str,
    vm: &VirtualMachine,
) -> Option<PyTypeRef> {
    let name = vm.ctx.intern_str(name);
    if ty.get_direct_attr(name).is_some() {
        return Some(ty.to_owned());
    }
    ty.mro
        .read()
        .iter()
        .find(|c| c.get_direct_attr(name).is_some())
        .cloned()
}

/// Whether the `name` that `ty`'s instances find is `object`'s own: no class of its MRO but
/// `object` has it in its namespace.
pub(crate) fn inherits_object_method(
    ty: &Py<PyType>,
    name: &'static str,
    vm: &VirtualMachine,
) -> bool {
    defining_class(ty, name, vm).is_some_and(|c| c.is(vm.ctx.types.object_type))
}

/// Gives a class created after start-up the patched slots.
///
/// A class resolves the slots it inherits through the method descriptors in its MRO, which
/// hold the interpreter's original functions, so the patches made to the built-in types' slots
/// do not reach it by themselves. Every class goes through `type.__new__`
/// (`library_objects::install_class_guard`), which calls this on what it made.
pub fn patch_new_type(ty: &Py<PyType>, vm: &VirtualMachine) {
    {
        let registry = registry();
        if let Some(f) = ty.slots.repr.load()
            && let Some(i) = registry.repr.iter().position(|a| *a == f as usize)
        {
            ty.slots.repr.store(Some(repr_wrappers()[i]));
        } else if defining_class(ty, "__repr__", vm).is_some_and(|c| c.is(vm.ctx.types.object_type))
            && let Some(object_repr) = OBJECT_REPR.get()
            && let Some(i) = registry
                .repr
                .iter()
                .position(|a| *a == *object_repr as usize)
        {
            // `object.__repr__` itself is a wrapper method (for direct calls): use the native
            // wrapper of its original.
            ty.slots.repr.store(Some(repr_wrappers()[i]));
        }
        if let Some(f) = ty.slots.iternext.load()
            && let Some(i) = registry.iternext.iter().position(|a| *a == f as usize)
        {
            ty.slots.iternext.store(Some(iternext_wrappers()[i]));
        }
    }
    crate::fidelity::fill_contains_slot(ty);
    crate::identity::patch_new_type(ty, vm);
    crate::library_objects::patch_new_type(ty, vm);
    inherit_object_new(ty, vm);
}

/// Gives a class whose instances are made by `object.__new__` `object`'s own constructor slot.
///
/// RustPython 0.5 gives every class a generic constructor slot as soon as `__new__` is anywhere
/// in its MRO, which it always is (`object` has it): each `A()` looked `__new__` up, bound it,
/// copied the arguments with the class in front and called it, which checked the class and
/// then called `object`'s slot (about 3,500 of an instance's 14,000 instructions;
/// `instances_metered` in `cargo bench -p cowboy-pvm --bench instructions`). When no class of
/// the MRO but `object` defines `__new__`, and the class's nearest built-in base constructs
/// with `object`'s slot, those checks pass for every call, so calling the slot directly
/// makes the same object and raises the same errors. Assigning `__new__` to the class later
/// makes RustPython give it the generic slot again.
fn inherit_object_new(ty: &Py<PyType>, vm: &VirtualMachine) {
    let object_new = vm.ctx.types.object_type.slots.new.load();
    if ty
        .slots
        .flags
        .has_feature(PyTypeFlags::DISALLOW_INSTANTIATION)
        || !inherits_object_method(ty, "__new__", vm)
    {
        return;
    }
    // The check `object.__new__(cls)` makes: `cls`'s nearest built-in base constructs as
    // `object` does.
    let mut built_in = ty.to_owned();
    while built_in.slots.flags.has_feature(PyTypeFlags::HEAPTYPE) {
        let Some(base) = built_in.base.clone() else {
            return;
        };
        built_in = base;
    }
    let same = |a: Option<NewFn>, b: Option<NewFn>| a.map(|f| f as usize) == b.map(|f| f as usize);
    if object_new.is_some() && same(built_in.slots.new.load(), object_new) {
        ty.slots.new.store(Some(inherited_object_new));
    }
}

/// `object`'s constructor slot, called for a class that inherits it ([`inherit_object_new`]).
///
/// A function of its own rather than `object`'s slot itself: RustPython specializes a call of
/// a class whose slot *is* `object`'s (`CALL_ALLOC_AND_ENTER_INIT`, which skips `object.__new__`
/// and allocates differently) once the call has run often enough. The PVM freezes
/// specialization in the code it compiles (`engine::freeze_code`) but not in RustPython's own
/// bundled modules; no class created after start-up ever matched before, and none matches now.
fn inherited_object_new(
    cls: PyTypeRef,
    args: rustpython_vm::function::FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    let new = vm
        .ctx
        .types
        .object_type
        .slots
        .new
        .load()
        .ok_or_else(|| vm.new_runtime_error("object has no constructor slot"))?;
    new(cls, args, vm)
}

/// `object`'s original repr slot (its wrapper handles direct `object.__repr__(x)` calls).
static OBJECT_REPR: OnceLock<ReprFn> = OnceLock::new();

/// `object.__repr__(x)` called directly (library code does, e.g. `super().__repr__()`): the
/// descriptor holds the original function, so it is replaced by a method applying the patch.
fn wrap_object_repr_method(vm: &VirtualMachine) -> PyResult<()> {
    let object_type = vm.ctx.types.object_type;
    let Some(original) = OBJECT_REPR.get().copied() else {
        return Ok(());
    };
    let wrapped = vm.new_method(
        "__repr__",
        object_type,
        move |zelf: rustpython_vm::PyObjectRef, vm: &VirtualMachine| -> PyResult {
            let s = original(&zelf, vm)?;
            Ok(
                match s
                    .to_str()
                    .and_then(|text| deterministic_repr(&zelf, text, vm))
                {
                    Some(clean) => vm.ctx.new_str(clean).into(),
                    None => s.into(),
                },
            )
        },
    );
    object_type.set_attr(vm.ctx.intern_str("__repr__"), wrapped.into());
    Ok(())
}

// ---- list/tuple: `in` and comparisons charge per element ------------------------------------

static LIST_CONTAINS: OnceLock<ContainsFn> = OnceLock::new();
static STR_CONTAINS: OnceLock<ContainsFn> = OnceLock::new();
static BYTES_CONTAINS: OnceLock<ContainsFn> = OnceLock::new();
static TUPLE_CONTAINS: OnceLock<ContainsFn> = OnceLock::new();
static LIST_RICHCMP: OnceLock<RichCompareFn> = OnceLock::new();
static TUPLE_RICHCMP: OnceLock<RichCompareFn> = OnceLock::new();
static TYPE_SETATTRO: OnceLock<SetattroFn> = OnceLock::new();

fn seq_len(obj: &PyObject) -> usize {
    if let Some(l) = obj.downcast_ref::<PyList>() {
        l.borrow_vec().len()
    } else if let Some(t) = obj.downcast_ref::<PyTuple>() {
        t.len()
    } else {
        0
    }
}

fn list_contains(seq: PySequence<'_>, needle: &PyObject, vm: &VirtualMachine) -> PyResult<bool> {
    natives::charge(seq_len(seq.obj) as u64 * cycles::PER_ELEMENT, vm)?;
    let f = LIST_CONTAINS
        .get()
        .ok_or_else(|| vm.new_runtime_error("patch missing"))?;
    f(seq, needle, vm)
}

fn tuple_contains(seq: PySequence<'_>, needle: &PyObject, vm: &VirtualMachine) -> PyResult<bool> {
    natives::charge(seq_len(seq.obj) as u64 * cycles::PER_ELEMENT, vm)?;
    let f = TUPLE_CONTAINS
        .get()
        .ok_or_else(|| vm.new_runtime_error("patch missing"))?;
    f(seq, needle, vm)
}

fn str_contains(seq: PySequence<'_>, needle: &PyObject, vm: &VirtualMachine) -> PyResult<bool> {
    natives::charge(operand_len(seq.obj) as u64 * cycles::PER_ELEMENT, vm)?;
    let f = STR_CONTAINS
        .get()
        .ok_or_else(|| vm.new_runtime_error("patch missing"))?;
    f(seq, needle, vm)
}

fn bytes_contains(seq: PySequence<'_>, needle: &PyObject, vm: &VirtualMachine) -> PyResult<bool> {
    natives::charge(operand_len(seq.obj) as u64 * cycles::PER_ELEMENT, vm)?;
    let f = BYTES_CONTAINS
        .get()
        .ok_or_else(|| vm.new_runtime_error("patch missing"))?;
    f(seq, needle, vm)
}

fn list_richcmp(
    a: &PyObject,
    b: &PyObject,
    op: PyComparisonOp,
    vm: &VirtualMachine,
) -> PyResult<Either<PyObjectRef, PyComparisonValue>> {
    natives::charge(seq_len(a).min(seq_len(b)) as u64 * cycles::PER_ELEMENT, vm)?;
    let f = LIST_RICHCMP
        .get()
        .ok_or_else(|| vm.new_runtime_error("patch missing"))?;
    f(a, b, op, vm)
}

fn tuple_richcmp(
    a: &PyObject,
    b: &PyObject,
    op: PyComparisonOp,
    vm: &VirtualMachine,
) -> PyResult<Either<PyObjectRef, PyComparisonValue>> {
    natives::charge(seq_len(a).min(seq_len(b)) as u64 * cycles::PER_ELEMENT, vm)?;
    let f = TUPLE_RICHCMP
        .get()
        .ok_or_else(|| vm.new_runtime_error("patch missing"))?;
    f(a, b, op, vm)
}

// ---- library classes are read-only while an actor runs --------------------------------------

/// Name, in the interpreter's `sys` namespace (unreachable to actors), of the set of weak
/// references to the preloaded library's classes. Weak references compare by the identity of
/// live referents: a collected library class can neither be kept alive by the set nor confused
/// with an actor's class that later takes its address.
const LIBRARY_CLASSES: &str = "_cowboy_library_classes";

/// Records every class that exists now (the preloaded library) as protected; built-in classes
/// are always protected.
pub fn protect_existing_types(vm: &VirtualMachine) -> PyResult<()> {
    let set = PySet::default().into_ref(&vm.ctx);
    for ty in all_types(vm) {
        if ty.slots.flags.has_feature(PyTypeFlags::HEAPTYPE) {
            set.add(ty.as_object().downgrade(None, vm)?.into(), vm)?;
        }
    }
    vm.sys_module.set_attr(LIBRARY_CLASSES, set, vm)
}

fn is_library_type(ty: &Py<PyType>, vm: &VirtualMachine) -> PyResult<bool> {
    if !ty.slots.flags.has_feature(PyTypeFlags::HEAPTYPE) {
        return Ok(true);
    }
    let classes = vm.sys_module.get_attr(LIBRARY_CLASSES, vm)?;
    let probe = ty.as_object().downgrade(None, vm)?;
    vm._contains(&classes, probe.as_object())
}

fn guarded_type_setattro(
    zelf: &PyObject,
    name: &Py<PyStr>,
    value: PySetterValue,
    vm: &VirtualMachine,
) -> PyResult<()> {
    if meter::in_call()
        && let Some(ty) = zelf.downcast_ref::<PyType>()
        && is_library_type(ty, vm)?
    {
        return Err(vm.new_type_error(format!(
            "cannot modify attribute '{name}' of library class '{}': library classes are shared by all actors and read-only",
            ty.name()
        )));
    }
    if meter::in_call()
        && name.to_str() == Some("__del__")
        && let PySetterValue::Assign(value) = &value
    {
        crate::library_objects::check_finalizer(value, vm)?;
    }
    crate::string_pool::intern_for_call(name, vm);
    let f = TYPE_SETATTRO
        .get()
        .ok_or_else(|| vm.new_runtime_error("patch missing"))?;
    let removes = matches!(value, PySetterValue::Delete);
    // The method cache holds borrowed pointers to namespace values. RustPython invalidates it
    // for plain attributes, but `type`'s own descriptors (`__doc__`, `__module__`,
    // `__annotations__`) write the namespace without doing so: a value an instance lookup had
    // cached would be freed under the cache (a use after free an actor could steer). So the
    // class's entries go before any write, and again after.
    let ty = zelf.downcast_ref::<PyType>();
    if let Some(ty) = ty {
        crate::method_cache::invalidate(ty);
    }
    let result = f(zelf, name, value, vm);
    if let Some(ty) = ty {
        crate::method_cache::invalidate(ty);
        if removes && result.is_ok() {
            crate::library_objects::compact_namespace(ty);
        }
    }
    result
}

/// Makes `type.__setattr__` and `type.__delattr__` (what a metaclass's
/// `super().__setattr__(name, value)` calls) go through [`guarded_type_setattro`]: RustPython
/// made them from `type`'s setattr slot before it was guarded, so they set class attributes
/// past every check on it.
fn guard_type_setattr_methods(vm: &VirtualMachine) {
    let type_type = vm.ctx.types.type_type;
    for (method, assign) in [("__setattr__", true), ("__delattr__", false)] {
        let wrapped = vm.new_method(
            method,
            type_type,
            move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
                let arity = if assign { 3 } else { 2 };
                if args.args.len() != arity || !args.kwargs.is_empty() {
                    return Err(vm.new_type_error(format!(
                        "type.{method}() takes exactly {arity} positional arguments ({} given)",
                        args.args.len() + args.kwargs.len()
                    )));
                }
                let target = &args.args[0];
                if target.downcast_ref::<PyType>().is_none() {
                    return Err(vm.new_type_error(format!(
                        "descriptor '{method}' requires a 'type' object but received a '{}'",
                        target.class().name()
                    )));
                }
                let Some(name) = args.args[1].downcast_ref::<PyStr>() else {
                    return Err(vm.new_type_error(format!(
                        "attribute name must be string, not '{}'",
                        args.args[1].class().name()
                    )));
                };
                let value = if assign {
                    PySetterValue::Assign(args.args[2].clone())
                } else {
                    PySetterValue::Delete
                };
                guarded_type_setattro(target, name, value, vm)?;
                Ok(vm.ctx.none())
            },
        );
        type_type.set_attr(vm.ctx.intern_str(method), wrapped.into());
    }
}

/// Remakes the slot wrappers in built-in types' dicts (`list.__dict__['__contains__']`,
/// `['__eq__']`, `['__init__']`, `['__next__']`, …) from the slots as the PVM patched them.
///
/// RustPython made each wrapper from its type's slot when the type was created, before the PVM
/// charged or guarded the slot, and a class statement's subclass runs the wrapper it finds in
/// its base's dict (as `super().__x__()` does): `x in L(range(50_000))` with `class L(list)`
/// scanned for free (20 scans, 1,000,000 comparisons, charged nothing), as did a subclass's
/// comparisons, `__init__`, subscripts and `tuple` hashing. Only wrappers a type already had
/// are remade: a wrapper for a slot the type inherits would shadow its base's methods (and
/// `object.__hash__`, a method that refuses outside `hash()`, must stay the only way to
/// `object`'s identity hash, so `__hash__` is remade for `tuple` alone). Then `*` on a
/// subclass goes through the same size check as the `*` operator (`guard_repeat_methods`).
/// Run when an interpreter starts, before the library is preloaded and again once every
/// native type is patched (`Engine::build`).
pub fn expose_patched_slots(vm: &VirtualMachine) -> PyResult<()> {
    let wrapper_type = vm.ctx.types.wrapper_descriptor_type;
    for ty in all_types(vm) {
        if ty.slots.flags.has_feature(PyTypeFlags::HEAPTYPE) {
            continue;
        }
        let ty = static_type(ty);
        let own: Vec<_> = ty.attributes.read().keys().copied().collect();
        let mut remade = Vec::new();
        {
            let mut attributes = ty.attributes.write();
            for def in rustpython_vm::types::SLOT_DEFS {
                if def.name == "__new__"
                    || (def.name == "__hash__" && !ty.is(vm.ctx.types.tuple_type))
                {
                    continue;
                }
                let name = vm.ctx.intern_str(def.name);
                if attributes
                    .get(name)
                    .is_some_and(|v| v.class().is(wrapper_type))
                {
                    attributes.shift_remove(name);
                    remade.push(name);
                }
            }
        }
        if remade.is_empty() {
            continue;
        }
        rustpython_vm::class::add_operators(ty, &vm.ctx);
        // `add_operators` also adds wrappers for inherited slots: only remade ones stay.
        ty.attributes.write().retain(|name, _| own.contains(name));
        // The method cache holds borrowed pointers to namespace values, and the wrappers just
        // replaced are freed: their entries go (nothing else clears the whole cache now that
        // the runtime no longer runs the collector after every call).
        ty.modified();
    }
    if first_on_this_thread("patches::guard_repeat_methods") {
        guard_repeat_methods(vm)?;
    }
    Ok(())
}

thread_local! {
    static STATIC_TYPES: std::cell::RefCell<std::collections::HashMap<usize, &'static Py<PyType>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// A built-in type as `'static` (what `add_operators` takes): built-in types live as long as
/// the thread, so each is leaked once per thread, however many interpreters it starts.
fn static_type(ty: PyTypeRef) -> &'static Py<PyType> {
    let address = &*ty as *const Py<PyType> as usize;
    STATIC_TYPES.with(|types| {
        *types
            .borrow_mut()
            .entry(address)
            .or_insert_with(|| Box::leak(Box::new(ty)))
    })
}

/// `__mul__`, `__rmul__` and `__imul__` of `list`, `tuple`, `str`, `bytes` and `bytearray`
/// (what `super().__mul__(n)` in a subclass calls) refuse a result beyond the memory limit
/// before RustPython reserves it, as the `*` operator does: RustPython reserves `len · n`
/// elements at once, and an allocation that large aborts the process.
fn guard_repeat_methods(vm: &VirtualMachine) -> PyResult<()> {
    let types = &vm.ctx.types;
    for ty in [
        types.list_type,
        types.tuple_type,
        types.str_type,
        types.bytes_type,
        types.bytearray_type,
    ] {
        for name in ["__mul__", "__rmul__", "__imul__"] {
            if ty.get_attr(vm.ctx.intern_str(name)).is_none() {
                continue;
            }
            wrap_method(ty, name, vm, |args, original, vm| {
                if let (Some(seq), Some(count)) = (args.args.first(), args.args.get(1)) {
                    crate::sandbox::precheck_repeat(seq, count, vm)?;
                }
                original.call(args, vm)
            })?;
        }
    }
    Ok(())
}

// ---- sorting --------------------------------------------------------------------------------

fn sort_cost(n: usize) -> u64 {
    let n = n as u64;
    if n < 2 {
        return n;
    }
    n * (64 - (n - 1).leading_zeros() as u64)
}

thread_local! {
    static INSTALLED: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether `what` is installed on this thread for the first time (and records that it is).
///
/// Without the `threading` feature RustPython's built-in types are thread-local statics: every
/// interpreter a thread starts (a replacement after `CALLS_PER_INTERPRETER` calls or after a
/// panic) shares them. Slot patches check for their own wrappers and are idempotent; a method
/// replaced by a wrapper that calls the previous method is not, and must be installed once.
pub fn first_on_this_thread(what: &'static str) -> bool {
    INSTALLED.with(|i| {
        let mut installed = i.borrow_mut();
        if installed.contains(&what) {
            false
        } else {
            installed.push(what);
            true
        }
    })
}

/// Gives every native type that exists now the patched `repr` and `__next__` slots; run at
/// start-up and again once the library is preloaded (`Engine`), when the native types of the
/// modules it imported (`itertools`, `_collections`, …) exist too.
///
/// Native types are the thread's, shared by every interpreter it starts, and a module's types
/// are made when it is first imported: on a thread's first interpreter, during the preload; on
/// a later one, before it starts. Patching them only at start-up charged `deque` and
/// `itertools` iteration on a thread's later interpreters and not on its first. Slots already
/// patched are left alone, so the result is the same whichever interpreter runs this.
pub fn patch_native_types(vm: &VirtualMachine) -> PyResult<()> {
    let mut registry = registry();
    // Built-in types only: classes get their patched slots when they are created
    // (`patch_new_type`), so what is patched never depends on which classes earlier
    // interpreters of this process happened to leave behind.
    for ty in all_types(vm) {
        if !ty.slots.flags.has_feature(PyTypeFlags::HEAPTYPE)
            && !crate::metered_iter::is_metered_iter_type(&ty)
        {
            patch_type_slots(&ty, &mut registry).map_err(|full| {
                vm.new_runtime_error(format!("native type '{}': {full}", ty.name()))
            })?;
        }
    }
    Ok(())
}

/// Installs every patch. Must run before any library or actor code.
pub fn install(vm: &VirtualMachine) -> PyResult<()> {
    crate::reversed_dict::install(vm)?;
    crate::prices::install(vm)?;
    crate::identity::install(vm);
    crate::library_objects::install_class_guard(vm);
    if let Some(f) = vm.ctx.types.object_type.slots.repr.load()
        && !repr_wrappers().iter().any(|w| *w as usize == f as usize)
    {
        let _ = OBJECT_REPR.set(f);
    }
    patch_native_types(vm)?;
    crate::library_objects::install_write_barrier(vm)?;

    let types = &vm.ctx.types;
    for (ty, original, wrapper) in [
        (types.list_type, &LIST_CONTAINS, list_contains as ContainsFn),
        (types.tuple_type, &TUPLE_CONTAINS, tuple_contains),
        (types.str_type, &STR_CONTAINS, str_contains),
        (types.bytes_type, &BYTES_CONTAINS, bytes_contains),
    ] {
        swap_slot!(ty.slots.as_sequence.contains, original, wrapper);
    }
    for (ty, original, wrapper) in [
        (
            types.list_type,
            &LIST_RICHCMP,
            list_richcmp as RichCompareFn,
        ),
        (types.tuple_type, &TUPLE_RICHCMP, tuple_richcmp),
    ] {
        swap_slot!(ty.slots.richcompare, original, wrapper);
    }
    swap_slot!(
        types.type_type.slots.setattro,
        TYPE_SETATTRO,
        guarded_type_setattro as SetattroFn
    );

    // CPython's errors from the number and subscript slots (idempotent) and from the built-in
    // functions (which belong to each interpreter).
    crate::fidelity::install(vm)?;

    // Built-in types are this thread's statics, shared by every interpreter the thread ever
    // runs: their methods are wrapped once per thread (wrapping them again for a second
    // interpreter would charge twice).
    if !first_on_this_thread("patches::methods") {
        return Ok(());
    }
    wrap_object_repr_method(vm)?;
    crate::identity::wrap_object_hash_method(vm);
    guard_type_setattr_methods(vm);

    // list.sort charges n·⌈log₂ n⌉ before sorting.
    let list_type: &'static Py<PyType> = types.list_type;
    wrap_method(list_type, "sort", vm, |args, original, vm| {
        if let Some(l) = args.args.first().and_then(|a| a.downcast_ref::<PyList>()) {
            natives::charge(sort_cost(l.borrow_vec().len()), vm)?;
        }
        original.call(args, vm)
    })?;

    // CPython's case mappings, character classes and whitespace, and CPython's errors (before
    // they are charged).
    crate::text::install(vm)?;
    crate::fidelity::install_type_methods(vm)?;

    // Methods whose work grows with their operands charge per character or element.
    let str_methods: &[&'static str] = &[
        "join",
        "replace",
        "split",
        "rsplit",
        "splitlines",
        "strip",
        "lstrip",
        "rstrip",
        "upper",
        "lower",
        "casefold",
        "title",
        "capitalize",
        "swapcase",
        "center",
        "ljust",
        "rjust",
        "zfill",
        "expandtabs",
        "find",
        "rfind",
        "index",
        "rindex",
        "count",
        "startswith",
        "endswith",
        "partition",
        "rpartition",
        "translate",
        "encode",
        "removeprefix",
        "removesuffix",
        "isalpha",
        "isdigit",
        "isalnum",
        "isspace",
        "islower",
        "isupper",
        "istitle",
        "isdecimal",
        "isnumeric",
        "isidentifier",
        "isprintable",
        "isascii",
    ];
    let bytes_methods: &[&'static str] = &[
        "join",
        "replace",
        "split",
        "rsplit",
        "splitlines",
        "strip",
        "lstrip",
        "rstrip",
        "upper",
        "lower",
        "title",
        "capitalize",
        "swapcase",
        "center",
        "ljust",
        "rjust",
        "zfill",
        "expandtabs",
        "find",
        "rfind",
        "index",
        "rindex",
        "count",
        "startswith",
        "endswith",
        "partition",
        "rpartition",
        "translate",
        "decode",
        "hex",
        "removeprefix",
        "removesuffix",
    ];
    let list_methods: &[&'static str] = &[
        "index", "count", "remove", "copy", "extend", "insert", "reverse",
    ];
    let tuple_methods: &[&'static str] = &["index", "count"];
    let dict_methods: &[&'static str] = &["copy", "update"];
    for (ty, names) in [
        (types.str_type, str_methods),
        (types.bytes_type, bytes_methods),
        (types.bytearray_type, bytes_methods),
        (types.list_type, list_methods),
        (types.tuple_type, tuple_methods),
        (types.dict_type, dict_methods),
    ] {
        for name in names {
            meter_method(ty, name, vm)?;
        }
    }

    // `format(x, spec)`, f-strings and `str.format` reach `__format__`: refuse widths that
    // would allocate enormous strings before anything is allocated.
    for ty in [types.int_type, types.float_type, types.str_type] {
        let is_str = ty.is(types.str_type);
        wrap_method(ty, "__format__", vm, move |mut args, original, vm| {
            if let Some(spec) = args.args.get(1).and_then(|s| s.downcast_ref::<PyStr>()) {
                let spec = spec.to_str().unwrap_or_default().to_owned();
                let given = spec.clone();
                crate::sandbox::check_format_spec(&spec, vm)?;
                if is_str {
                    // `format('ab', '05')` is `'ab000'`: for strings the `0` flag is a
                    // fill, left-aligned (RustPython right-aligns it).
                    let spec = match spec.strip_prefix('0') {
                        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
                            let spec = format!("0<{rest}");
                            args.args[1] = vm.ctx.new_str(spec.as_str()).into();
                            spec
                        }
                        _ => spec,
                    };
                    match crate::format_spec::string_spec_error(&spec) {
                        Some(crate::format_spec::SpecError::Message(message)) => {
                            return Err(vm.new_value_error(message));
                        }
                        Some(crate::format_spec::SpecError::Invalid) => {
                            return Err(vm.new_value_error(
                                crate::format_spec::malformed_spec_message(&given, "str"),
                            ));
                        }
                        None => {}
                    }
                    truncate_for_precision(&mut args, &spec, vm);
                }
                if !is_str
                    && let Some(result) =
                        crate::format_spec::numeric_fixup(&args, &given, original, vm)
                {
                    return result;
                }
                let value_type = args.args.first().map(|v| v.class().name().to_string());
                return original.call(args, vm).map_err(|e| {
                    let reworded = crate::fidelity::is_error(
                        &e,
                        vm.ctx.exceptions.value_error,
                        "Invalid format specifier",
                        vm,
                    ) || value_type.as_deref().is_some_and(|t| {
                        // RustPython reads a `.` without digits as the type.
                        crate::fidelity::is_error(
                            &e,
                            vm.ctx.exceptions.value_error,
                            &format!("Unknown format code '.' for object of type '{t}'"),
                            vm,
                        )
                    });
                    if reworded {
                        vm.new_value_error(crate::format_spec::malformed_spec_message(
                            &given,
                            value_type.as_deref().unwrap_or("object"),
                        ))
                    } else {
                        e
                    }
                });
            }
            original.call(args, vm)
        })?;
    }

    // `format(True, '5')` formats the integer 1, as CPython's bool inherits `int.__format__`
    // (RustPython's bool prints `True` whatever the spec); only the empty spec gives `str()`.
    let bool_type: &'static Py<PyType> = types.bool_type;
    let int_format = types
        .int_type
        .get_attr(vm.ctx.intern_str("__format__"))
        .ok_or_else(|| vm.new_runtime_error("int.__format__ missing"))?;
    let bool_format = vm.new_method(
        "__format__",
        bool_type,
        move |value: PyObjectRef,
              spec: rustpython_vm::builtins::PyStrRef,
              vm: &VirtualMachine|
              -> PyResult {
            if spec.as_wtf8().is_empty() {
                return Ok(value.str(vm)?.into());
            }
            let truth = value.try_to_bool(vm)?;
            match int_format.call((vm.ctx.new_int(u8::from(truth)), spec), vm) {
                Err(e) if e.fast_isinstance(vm.ctx.exceptions.value_error) => {
                    let message = e.as_object().str(vm)?.to_string();
                    Err(vm.new_value_error(
                        message.replace("for object of type 'int'", "for object of type 'bool'"),
                    ))
                }
                other => other,
            }
        },
    );
    bool_type.set_attr(vm.ctx.intern_str("__format__"), bool_format.into());
    Ok(())
}

/// A string format spec split around its precision: `(spec without ".N", N)`, when the spec
/// has a precision and formats as a string (type `s` or none).
///
/// Grammar (format-spec mini-language): `[[fill]align][sign][z][#][0][width][grouping]
/// [.precision][type]`. After the optional fill and align no field may contain `.`, so the
/// first `.` after them starts the precision.
fn split_string_precision(spec: &str) -> Option<(String, usize)> {
    let chars: Vec<char> = spec.chars().collect();
    let is_align = |c: char| matches!(c, '<' | '>' | '=' | '^');
    let start = if chars.len() >= 2 && is_align(chars[1]) {
        2
    } else if chars.first().is_some_and(|c| is_align(*c)) {
        1
    } else {
        0
    };
    let dot = start + chars[start..].iter().position(|c| *c == '.')?;
    let digits = chars[dot + 1..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let rest: String = chars[dot + 1 + digits..].iter().collect();
    if digits == 0 || !(rest.is_empty() || rest == "s") {
        return None;
    }
    let precision: String = chars[dot + 1..dot + 1 + digits].iter().collect();
    let precision = precision.parse().ok()?;
    let mut without: String = chars[..dot].iter().collect();
    without.push_str(&rest);
    Some((without, precision))
}

/// `format(s, '>10.3')` keeps the first 3 *characters* of `s` and then pads, as CPython does.
/// RustPython pads first and then cuts the result at a byte offset, which gives other results
/// and panics when the cut falls inside a multi-byte character (`format('éa', '.1')`); so the
/// string is truncated here and formatted without the precision.
fn truncate_for_precision(args: &mut FuncArgs, spec: &str, vm: &VirtualMachine) {
    let Some((without, precision)) = split_string_precision(spec) else {
        return;
    };
    let Some(value) = args.args.first().and_then(|v| v.downcast_ref::<PyStr>()) else {
        return;
    };
    let kept = value
        .as_wtf8()
        .code_points()
        .take(precision)
        .collect::<Wtf8Buf>();
    args.args[0] = vm.ctx.new_str(kept).into();
    args.args[1] = vm.ctx.new_str(without).into();
}

/// Length, in characters or elements, of a sized builtin value (0 for anything else).
fn operand_len(o: &PyObject) -> usize {
    use rustpython_vm::builtins::{PyByteArray, PyBytes, PyDict};
    if let Some(s) = o.downcast_ref::<PyStr>() {
        s.char_len()
    } else if let Some(b) = o.downcast_ref::<PyBytes>() {
        b.as_bytes().len()
    } else if let Some(b) = o.downcast_ref::<PyByteArray>() {
        b.borrow_buf().len()
    } else if let Some(l) = o.downcast_ref::<PyList>() {
        l.borrow_vec().len()
    } else if let Some(t) = o.downcast_ref::<PyTuple>() {
        t.len()
    } else if let Some(d) = o.downcast_ref::<PyDict>() {
        d.__len__()
    } else {
        0
    }
}

/// Wraps `ty.name` so it charges one cycle per character or element of its receiver and
/// sized arguments before running, and per element of its result after. Padding methods
/// (`center`, `ljust`, `zfill`, …) refuse widths beyond the memory limit before allocating.
fn meter_method(ty: &'static Py<PyType>, name: &'static str, vm: &VirtualMachine) -> PyResult<()> {
    let interned = vm.ctx.intern_str(name);
    let Some(original) = ty.get_attr(interned) else {
        return Ok(());
    };
    let pads = matches!(name, "center" | "ljust" | "rjust" | "zfill" | "expandtabs");
    // Methods that change their receiver: refused on the library's shared objects.
    let mutates = ty.is(vm.ctx.types.dict_type) && name == "update";
    let wrapped = vm.new_method(
        name,
        ty,
        move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
            let mut n: u64 = 0;
            for a in &args.args {
                n += operand_len(a) as u64;
            }
            if pads
                && let Some(width) = args
                    .args
                    .get(1)
                    .and_then(|w| w.downcast_ref::<rustpython_vm::builtins::PyInt>())
            {
                // A negative width pads nothing.
                let w = usize::try_from(width.as_bigint()).unwrap_or_else(|_| {
                    if width.as_bigint().sign() == malachite_bigint::Sign::Minus {
                        0
                    } else {
                        usize::MAX
                    }
                });
                let base = args.args.first().map_or(0, |s| operand_len(s));
                let limit = crate::cost::limits::MEMORY_BYTES;
                // expandtabs multiplies: every tab may become `width` characters.
                let result = if name == "expandtabs" {
                    w.saturating_mul(base.max(1))
                } else {
                    w
                };
                if result > limit {
                    return Err(vm.new_memory_error(format!(
                        "{name}() result would exceed the per-call memory limit"
                    )));
                }
            }
            if mutates && let Some(receiver) = args.args.first() {
                crate::library_objects::check_mutation(receiver, &format!("call {name}() on"), vm)?;
            }
            natives::charge(cycles::CALL + n * cycles::PER_ELEMENT, vm)?;
            let result = original.call(args, vm)?;
            let out = operand_len(&result) as u64;
            if out > 0 {
                natives::charge(out * cycles::PER_ELEMENT, vm)?;
            }
            Ok(result)
        },
    );
    ty.set_attr(interned, wrapped.into());
    Ok(())
}

/// Charges for `sorted(iterable)` after it materialised the list.
pub fn charge_sort(n: usize, vm: &VirtualMachine) -> PyResult<()> {
    natives::charge(sort_cost(n), vm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_wrapper_table_is_an_error_not_an_unwrapped_slot() {
        fn original(_: &PyObject, _: &VirtualMachine) -> PyResult<PyIterReturn> {
            Ok(PyIterReturn::StopIteration(None))
        }
        let originals: [OnceLock<IterNextFn>; TABLE] = [const { OnceLock::new() }; TABLE];
        let mut list: Vec<usize> = (1..=TABLE).collect();
        // A function already in the table keeps its entry.
        assert_eq!(
            index_of(&mut list, &originals, original as IterNextFn, 5, "__next__"),
            Ok(4)
        );
        let full = index_of(&mut list, &originals, original as IterNextFn, 0, "__next__");
        assert_eq!(full, Err(TableFull { slot: "__next__" }));
        assert_eq!(list.len(), TABLE);
        assert!(
            full.unwrap_err()
                .to_string()
                .contains("raise `patches::TABLE`"),
            "the error says what to do"
        );
        // The interpreter's own tables have room: a RustPython upgrade that adds native types
        // fails here before it fails a node's start.
        let engine = crate::Engine::new();
        assert!(engine.is_ok(), "{:?}", engine.err());
        let registry = registry();
        assert!(registry.repr.len() < TABLE && registry.iternext.len() < TABLE);
    }

    #[test]
    fn addresses_are_stripped() {
        assert_eq!(
            strip_addresses("<function f at 0x7f3a2b1c>").as_deref(),
            Some("<function f>")
        );
        assert_eq!(
            strip_addresses("<bound method A.f of <A object at 0xdeadbeef>>").as_deref(),
            Some("<bound method A.f of <A object>>")
        );
        assert_eq!(strip_addresses("plain"), None);
    }

    #[test]
    fn string_precision_is_split_from_the_spec() {
        assert_eq!(split_string_precision(".1"), Some(("".into(), 1)));
        assert_eq!(split_string_precision(">10.3"), Some((">10".into(), 3)));
        assert_eq!(split_string_precision(".<10.3s"), Some((".<10s".into(), 3)));
        assert_eq!(split_string_precision("0=5.2"), Some(("0=5".into(), 2)));
        assert_eq!(split_string_precision("10"), None);
        assert_eq!(split_string_precision(".2f"), None);
        assert_eq!(split_string_precision("."), None);
        assert_eq!(split_string_precision(".<"), None);
    }

    #[test]
    fn sort_cost_is_n_log_n() {
        assert_eq!(sort_cost(0), 0);
        assert_eq!(sort_cost(1), 1);
        assert_eq!(sort_cost(2), 2);
        assert_eq!(sort_cost(1024), 1024 * 10);
        assert_eq!(sort_cost(1025), 1025 * 11);
    }
}
