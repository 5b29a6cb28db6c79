//! Object identity without memory addresses: a deterministic `id()`, and identity hashes that
//! are never shown.
//!
//! A memory address differs between nodes (and between runs of one node), so nothing an actor
//! can observe may depend on one:
//!
//! - **`id(x)`** is a serial number: the first object a call asks the id of gets 1, the next 2,
//!   and the same object always gets the same number within the call. Ids are unique among the
//!   objects a call asked about, because the call keeps every such object alive until it ends
//!   (so no other object can take its place). `copy.deepcopy`'s memo, `json`'s cycle check and
//!   `reprlib` use these ids, so what they compute is the same on every node, and a default
//!   repr shows the id where CPython shows the address (`<P object at 0x1>`). The objects are
//!   released in id order, so their finalizers run in the same order on every node.
//! - **identity hashes** (`object.__hash__`, a NaN float's hash, a bound method's hash, all
//!   derived from addresses) keep working inside dicts and sets, whose iteration order is the
//!   insertion order and so never shows a hash. But `hash()` refuses to return a number that
//!   any identity hash went into — `hash(A())`, `hash((A(),))`, `hash(float('nan'))` — with
//!   `TypeError` (rule: identity-hash).

use rustpython_vm::{
    AsObject, PyObject, PyObjectRef, PyResult, VirtualMachine, builtins::PyFloat,
    common::hash::PyHash,
};
use std::{
    cell::{Cell, RefCell},
    collections::HashMap,
    sync::OnceLock,
};

struct Ids {
    next: u64,
    /// Set outside calls (before the first, and once a call has released its objects): ids
    /// asked for then — a finalizer's `repr(self)`, a repr while the library loads — are
    /// fresh numbers that keep nothing alive, which would carry into the next call.
    released: bool,
    /// Address → (serial, the object, kept alive so its address stays its own).
    by_address: HashMap<usize, (u64, PyObjectRef)>,
}

thread_local! {
    static IDS: RefCell<Ids> = RefCell::new(Ids {
        next: 1,
        released: true,
        by_address: HashMap::new(),
    });
    /// Set whenever an identity hash is computed; `hash()` clears it before and checks after.
    static IDENTITY_HASHED: Cell<bool> = const { Cell::new(false) };
    /// How many `hash()` computations are running.
    static HASHING: Cell<usize> = const { Cell::new(0) };
}

/// `id(obj)`.
pub fn id(obj: PyObjectRef) -> u64 {
    let address = obj.as_object() as *const PyObject as usize;
    IDS.with(|ids| {
        let mut ids = ids.borrow_mut();
        if let Some((serial, _)) = ids.by_address.get(&address) {
            return *serial;
        }
        let serial = ids.next;
        ids.next += 1;
        if !ids.released {
            ids.by_address.insert(address, (serial, obj));
        }
        serial
    })
}

/// Forgets every id (at the end of each call, inside it: releasing the objects may run their
/// finalizers, which the call pays for). Returns the objects, to be dropped by the caller.
///
/// The objects come in the order their ids were given, never in the map's (address) order:
/// dropping them runs their finalizers, whose effects (events, messages, storage) must come
/// in the same order on every node.
pub fn take_ids() -> Vec<PyObjectRef> {
    IDS.with(|ids| {
        let mut ids = ids.borrow_mut();
        ids.released = true;
        let mut kept: Vec<(u64, PyObjectRef)> =
            std::mem::take(&mut ids.by_address).into_values().collect();
        kept.sort_unstable_by_key(|(serial, _)| *serial);
        kept.into_iter().map(|(_, o)| o).collect()
    })
}

/// Starts a call's numbering at 1. Finalizers that ran after the previous call released its
/// objects (`repr(self)` in `__del__` asks for an id) numbered on from where it stopped, so
/// the count must restart here: a node that restarted in between would start at 1.
///
/// Objects still kept here were left by a call that panicked before releasing them (or by a
/// failed `debug_exec`): they belong to an interpreter that has been replaced, and dropping them
/// now would run their finalizers inside this call, charged to it, with its effects. They are
/// leaked instead — rare, and the same on every node — so this call starts from nothing.
pub fn start_call() {
    IDS.with(|ids| {
        let mut ids = ids.borrow_mut();
        ids.next = 1;
        ids.released = false;
        for (_, (_, object)) in ids.by_address.drain() {
            std::mem::forget(object);
        }
    });
}

/// The `hash()` actors and library code call: the object's hash, unless an identity hash went
/// into it.
pub fn hash(obj: PyObjectRef, vm: &VirtualMachine) -> PyResult<PyHash> {
    let before = IDENTITY_HASHED.with(|f| f.replace(false));
    HASHING.with(|h| h.set(h.get() + 1));
    let result = obj.hash(vm);
    HASHING.with(|h| h.set(h.get() - 1));
    let tainted = IDENTITY_HASHED.with(|f| f.replace(before));
    let value = result?;
    if tainted {
        return Err(vm.new_type_error(format!(
            "hash() of this '{}' would be derived from a memory address, which differs between \
             nodes (rule: identity-hash); give the class a __hash__ over its values, or use the \
             object itself as a dict key",
            obj.class().name()
        )));
    }
    Ok(value)
}

type HashFn = fn(&PyObject, &VirtualMachine) -> PyResult<PyHash>;

static OBJECT_HASH: OnceLock<HashFn> = OnceLock::new();
static FLOAT_HASH: OnceLock<HashFn> = OnceLock::new();
static METHOD_HASH: OnceLock<HashFn> = OnceLock::new();
static METHOD_WRAPPER_HASH: OnceLock<HashFn> = OnceLock::new();

fn mark() {
    IDENTITY_HASHED.with(|f| f.set(true));
}

fn object_hash(zelf: &PyObject, vm: &VirtualMachine) -> PyResult<PyHash> {
    mark();
    (OBJECT_HASH.get().ok_or_else(|| inconsistent(vm))?)(zelf, vm)
}

fn float_hash(zelf: &PyObject, vm: &VirtualMachine) -> PyResult<PyHash> {
    if zelf
        .downcast_ref::<PyFloat>()
        .is_some_and(|f| f.to_f64().is_nan())
    {
        mark();
    }
    (FLOAT_HASH.get().ok_or_else(|| inconsistent(vm))?)(zelf, vm)
}

fn method_hash(zelf: &PyObject, vm: &VirtualMachine) -> PyResult<PyHash> {
    // A bound method's hash mixes the address of the object it is bound to.
    mark();
    (METHOD_HASH.get().ok_or_else(|| inconsistent(vm))?)(zelf, vm)
}

fn method_wrapper_hash(zelf: &PyObject, vm: &VirtualMachine) -> PyResult<PyHash> {
    // `x.__eq__`'s hash mixes the address of the slot wrapper.
    mark();
    (METHOD_WRAPPER_HASH.get().ok_or_else(|| inconsistent(vm))?)(zelf, vm)
}

fn inconsistent(vm: &VirtualMachine) -> rustpython_vm::builtins::PyBaseExceptionRef {
    vm.new_runtime_error("identity-hash patch is inconsistent")
}

/// Gives a class created after start-up the marking hash when it inherits `object`'s (see
/// `patches::patch_new_type`).
pub fn patch_new_type(
    ty: &rustpython_vm::Py<rustpython_vm::builtins::PyType>,
    vm: &VirtualMachine,
) {
    let Some(original) = OBJECT_HASH.get() else {
        return;
    };
    let inherits_object_hash = ty
        .slots
        .hash
        .load()
        .is_some_and(|h| h as usize == *original as usize)
        || crate::patches::defining_class(ty, "__hash__", vm)
            .is_some_and(|c| c.is(vm.ctx.types.object_type));
    if inherits_object_hash {
        ty.slots.hash.store(Some(object_hash));
    }
}

/// `object.__hash__(x)` called directly (`_pydecimal` does for NaNs): the descriptor holds the
/// original function, so it is replaced by a method that marks.
pub fn wrap_object_hash_method(vm: &VirtualMachine) {
    let object_type = vm.ctx.types.object_type;
    let wrapped = vm.new_method(
        "__hash__",
        object_type,
        |zelf: PyObjectRef, vm: &VirtualMachine| -> PyResult<PyHash> {
            // Called outside any `hash()` (`super().__hash__()` in a method), the address-derived
            // value would reach the caller unchecked.
            if HASHING.with(Cell::get) == 0 && crate::meter::in_call() {
                return Err(vm.new_type_error(format!(
                    "object.__hash__() of this '{}' is derived from a memory address, which \
                     differs between nodes (rule: identity-hash); hash the object's values",
                    zelf.class().name()
                )));
            }
            object_hash(&zelf, vm)
        },
    );
    object_type.set_attr(vm.ctx.intern_str("__hash__"), wrapped.into());
    // `float.__hash__` likewise, for a NaN (`super().__hash__()` in a `float` subclass).
    let float_type = vm.ctx.types.float_type;
    let wrapped = vm.new_method(
        "__hash__",
        float_type,
        |zelf: PyObjectRef, vm: &VirtualMachine| -> PyResult<PyHash> {
            let nan = zelf
                .downcast_ref::<PyFloat>()
                .is_some_and(|f| f.to_f64().is_nan());
            if nan && HASHING.with(Cell::get) == 0 && crate::meter::in_call() {
                return Err(vm.new_type_error(
                    "float.__hash__() of a NaN is derived from a memory address, which differs \
                     between nodes (rule: identity-hash)",
                ));
            }
            float_hash(&zelf, vm)
        },
    );
    float_type.set_attr(vm.ctx.intern_str("__hash__"), wrapped.into());
}

/// Wraps the hash slots that derive from addresses: `object`'s (and every type that inherited
/// it), `float`'s (NaN), bound methods' and method wrappers'.
pub fn install(vm: &VirtualMachine) {
    let types = &vm.ctx.types;
    let Some(original) = types.object_type.slots.hash.load() else {
        return;
    };
    if original as usize != object_hash as HashFn as usize {
        let _ = OBJECT_HASH.set(original);
        for ty in crate::patches::all_types(vm) {
            if !ty
                .slots
                .flags
                .has_feature(rustpython_vm::types::PyTypeFlags::HEAPTYPE)
                && ty
                    .slots
                    .hash
                    .load()
                    .is_some_and(|h| h as usize == original as usize)
            {
                ty.slots.hash.store(Some(object_hash));
            }
        }
    }
    for (ty, cell, wrapper) in [
        (types.float_type, &FLOAT_HASH, float_hash as HashFn),
        (types.bound_method_type, &METHOD_HASH, method_hash as HashFn),
        (
            types.method_wrapper_type,
            &METHOD_WRAPPER_HASH,
            method_wrapper_hash as HashFn,
        ),
    ] {
        if let Some(f) = ty.slots.hash.load()
            && f as usize != wrapper as usize
        {
            let _ = cell.set(f);
            ty.slots.hash.store(Some(wrapper));
        }
    }
}
