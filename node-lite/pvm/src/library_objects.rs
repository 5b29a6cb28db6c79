//! The library's objects, shared by every call: what an actor may not change, name or impersonate.
//!
//! An interpreter preloads the standard library once and then serves every call of every actor.
//! Everything alive when the preload ends — modules, classes, functions, singletons such as
//! `dataclasses.MISSING` or `typing.Optional`, their dicts — is *shared*: a change one call made
//! to it would be seen by later calls of other actors, and by no node that restarted in between
//! (a fork), or would run one actor's code inside another's call. So, while a call runs:
//!
//! - **they are read-only**: setting or deleting an attribute of one of them raises `TypeError`,
//!   whoever asks — the actor, or library code working on its behalf (`functools.update_wrapper`
//!   on a library function, `copy` rebuilding an object from an actor's `__reduce__`). Library
//!   classes were already read-only (`patches::guarded_type_setattro`); this covers the rest.
//!   `dict.update` on their dicts is refused the same way.
//! - **their private names are not the actor's**: actor code reading an attribute whose name
//!   starts with one underscore (`Enum._convert_`, `Decimal._pick_rounding_function`,
//!   `typing.Optional._getitem`) of a library object, or whose value is a library function, gets
//!   `AttributeError`. Names the standard library documents as public API despite the
//!   underscore (`_asdict`, `_replace`, `_value_`, …) stay available, as do the actor's own
//!   private attributes.
//! - **no class may claim a library module**: a class created during a call whose `__module__`
//!   names a loaded module (`class C: __module__ = 'builtins'`, `namedtuple(..., module='sys')`)
//!   is refused, since library functions look such classes' module up in `sys.modules` and act
//!   on it (`enum.global_enum` writes into it, `typing.get_type_hints` evaluates in it). So are
//!   class namespaces that set the metadata the runtime trusts (`__text_signature__`,
//!   `__annotations__`, …).
//! - **their subclass lists are the library's**: a class created during a call is dropped from
//!   its library bases' `__subclasses__()` before the next call starts
//!   ([`forget_earlier_calls_subclasses`]). An ABC's `issubclass`/`isinstance` walks that list
//!   (running each subclass's metered `__subclasscheck__`), and RustPython drops a dead class from
//!   it only once the class is freed: a class left in a reference cycle stays listed until the
//!   collector runs, whose timing depends on the node's history (and a `__del__` can resurrect
//!   it past that). A cold `isinstance(5, Mapping)` check cost 1,136 cycles on a fresh node and 12,604
//!   after three calls that had each defined 40 `Mapping` subclasses.
//!
//! The registry holds a strong reference to every object it records, so no recorded address can
//! be reused by another object while the interpreter lives.

use crate::{
    meter,
    patches::{NewFn, SetattroFn},
};
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyRef, PyResult, VirtualMachine,
    builtins::{PyBoundMethod, PyDict, PyFunction, PySet, PyStr, PyType, PyTypeRef, PyWeak},
    function::{FuncArgs, PySetterValue},
    types::PyTypeFlags,
};
use std::{
    cell::RefCell,
    collections::HashSet,
    sync::{Mutex, OnceLock},
};

/// File names of code objects that belong to the actor (its module, and code built at run time
/// under its rules); every other code object is the library's.
const ACTOR_CODE_PATHS: &[&str] = &[crate::engine::ACTOR_FILE, crate::dynamic::DYNAMIC_PATH];

/// Underscore names the standard library documents as public API.
pub const PUBLIC_UNDERSCORE_NAMES: &[&str] = &[
    // collections.namedtuple
    "_asdict",
    "_replace",
    "_make",
    "_fields",
    "_field_defaults",
    // enum
    "_value_",
    "_name_",
    "_missing_",
    "_generate_next_value_",
    "_ignore_",
    "_order_",
    "_numeric_repr_",
    "_add_alias_",
    "_add_value_alias_",
];

/// Class-namespace entries that set metadata library code trusts rather than behaviour (where
/// `inspect` reads a signature from, what `typing` unwraps to, which globals a function has):
/// a class an actor creates may not set them. The compiler's own entries (`__qualname__`,
/// `__firstlineno__`, `__static_attributes__`, `__classcell__`, `__annotate__`,
/// `__type_params__`, and `__orig_bases__` from `types.resolve_bases`) are not among them.
pub const METADATA_DUNDERS: &[&str] = &[
    "__builtins__",
    "__code__",
    "__dict__",
    "__file__",
    "__globals__",
    "__loader__",
    "__package__",
    "__path__",
    "__signature__",
    "__spec__",
    "__text_signature__",
    "__weakref__",
    "__wrapped__",
];

struct Registry {
    addresses: HashSet<usize>,
    /// Keeps every recorded object alive, so its address stays its own.
    _alive: Vec<PyObjectRef>,
    /// Every type, with the entries of its subclass list when the preload ended (held, so that
    /// no later weak reference can reuse an entry's address).
    subclass_lists: Vec<(PyTypeRef, Vec<PyRef<PyWeak>>)>,
    /// Sets that library functions keep in their closures, empty when the preload ended.
    scratch_sets: Vec<PyObjectRef>,
}

thread_local! {
    static REGISTRY: RefCell<Option<Registry>> = const { RefCell::new(None) };
}

fn address(obj: &PyObject) -> usize {
    obj as *const PyObject as usize
}

/// Forgets the recorded library (and lets go of its objects): before another interpreter of
/// the thread records its own, so that the old one's objects can be collected rather than
/// recorded, and kept, as the new one's.
pub fn forget() {
    REGISTRY.with(|r| drop(r.borrow_mut().take()));
}

/// Records every object alive now (the preloaded library) as the library's.
pub fn record(vm: &VirtualMachine) {
    let mut alive = rustpython_vm::gc_state::gc_state().get_objects(None);
    // Static types are not tracked by the collector; they are protected as types anyway, and
    // recording them costs nothing.
    alive.extend(crate::patches::all_types(vm).into_iter().map(Into::into));
    let scratch_sets = closure_scratch_sets(&alive, vm);
    let addresses = alive.iter().map(|o| address(o)).collect();
    // Every type's list, static types' included: a class a call creates is listed by each of
    // its bases, `object` too, and RustPython never drops a dead class's entry unless someone
    // asks for `__subclasses__()`. Static types are shared by every interpreter of the thread,
    // so their lists may also hold an earlier interpreter's dead classes, dropped here.
    let subclass_lists = crate::patches::all_types(vm)
        .into_iter()
        .map(|t| {
            let mut list = t.subclasses.write();
            list.retain(|entry| entry.upgrade().is_some());
            list.shrink_to_fit();
            let entries = list.clone();
            drop(list);
            (t, entries)
        })
        .collect();
    REGISTRY.with(|r| {
        *r.borrow_mut() = Some(Registry {
            addresses,
            _alive: alive,
            subclass_lists,
            scratch_sets,
        })
    });
}

/// The library's classes defined in Python.
pub fn library_classes() -> Vec<PyTypeRef> {
    REGISTRY.with(|r| {
        r.borrow().as_ref().map_or_else(Vec::new, |r| {
            r.subclass_lists
                .iter()
                .filter(|(t, _)| t.slots.flags.has_feature(PyTypeFlags::HEAPTYPE))
                .map(|(t, _)| t.clone())
                .collect()
        })
    })
}

/// Every type alive when the library was recorded: built-in and library classes.
pub fn library_types() -> Vec<PyTypeRef> {
    REGISTRY.with(|r| {
        r.borrow().as_ref().map_or_else(Vec::new, |r| {
            r.subclass_lists.iter().map(|(t, _)| t.clone()).collect()
        })
    })
}

/// Rebuilds a class's namespace table without the marks its removed names left.
///
/// RustPython keeps a class's namespace in a hash table seeded at random for each process: a
/// removed name leaves a mark where its hash put it, and whether the table must grow on a later
/// insertion, and how much room a copy of it gets (`C.__dict__.get(k)` copies it), depend on
/// where the marks are, so on the seed, not on the chain (the same call was counted 29,062
/// bytes in one process and 29,350 in another). Compacted after every removal (a class
/// statement removes `__classcell__`, `delattr(C, name)`) and, for every class the library
/// has, when the interpreter starts: then only the number of names decides either.
pub fn compact_namespace(ty: &rustpython_vm::Py<PyType>) {
    let mut attributes = ty.attributes.write();
    let compacted = attributes.drain(..).collect();
    *attributes = compacted;
}

/// Drops from every type's subclass list the classes that calls created, dead or kept alive by
/// garbage, and gives the list back the capacity it had when the preload ended. Run between
/// calls. Two reasons: what a call's ABC checks walk — and are charged for — must be the
/// library's subclasses and the call's own; and the entries of dead classes, which RustPython
/// keeps until someone asks for `__subclasses__()`, piled up (a weak reference for every class
/// any call defined, in `object`'s list too: memory that grew for as long as the node ran), so
/// how much a call's own `class` statement allocated depended on how many had piled up.
pub fn forget_earlier_calls_subclasses() {
    REGISTRY.with(|r| {
        let registry = r.borrow();
        let Some(registry) = registry.as_ref() else {
            return;
        };
        for (ty, recorded) in &registry.subclass_lists {
            let mut list = ty.subclasses.write();
            // RustPython appends to a subclass list, and removes only dead entries, never a
            // library class's (the registry keeps them alive): a list as long as the recorded
            // one, with no more room, is the recorded one, and a longer one starts with it.
            if list.len() != recorded.len() || list.capacity() != recorded.len() {
                let starts_with_recorded = list.len() >= recorded.len()
                    && list.iter().zip(recorded).all(|(entry, r)| r.is(entry));
                if starts_with_recorded {
                    list.truncate(recorded.len());
                } else {
                    list.retain(|entry| recorded.iter().any(|r| r.is(entry)));
                }
                list.shrink_to_fit();
            }
        }
    });
}

/// The empty sets library functions hold in their closures: `reprlib.recursive_repr`'s (the
/// `__repr__` of `OrderedDict`, `ChainMap`, `defaultdict`, `partial`, `dataclasses.Field`) marks
/// the object being printed there and unmarks it in a `finally`, which cannot run once the
/// meter has tripped (every instruction after the trip raises again). Ids start over in every
/// call, so a mark left behind made the next call's first `OrderedDict` print as `...`.
fn closure_scratch_sets(alive: &[PyObjectRef], vm: &VirtualMachine) -> Vec<PyObjectRef> {
    let mut sets = Vec::new();
    for function in alive
        .iter()
        .filter(|o| o.downcast_ref::<PyFunction>().is_some())
    {
        let Ok(closure) = function.get_attr("__closure__", vm) else {
            continue;
        };
        let Some(cells) = closure.downcast_ref::<rustpython_vm::builtins::PyTuple>() else {
            continue;
        };
        for cell in cells.iter() {
            if let Ok(value) = cell.get_attr("cell_contents", vm)
                && value.downcast_ref::<PySet>().is_some()
                && value.length(vm).is_ok_and(|n| n == 0)
                && !sets.iter().any(|s: &PyObjectRef| s.is(&value))
            {
                sets.push(value);
            }
        }
    }
    sets
}

/// Empties the sets of [`closure_scratch_sets`]. Run between calls.
pub fn empty_scratch_sets(vm: &VirtualMachine) -> PyResult<()> {
    let sets = REGISTRY.with(|r| {
        r.borrow()
            .as_ref()
            .map(|r| r.scratch_sets.clone())
            .unwrap_or_default()
    });
    // Emptied even when empty: a set that a call added to and removed from keeps the room it
    // grew (which a later call would not have to allocate); `clear` gives it back.
    for set in sets {
        vm.call_method(&set, "clear", ())?;
    }
    Ok(())
}

/// Whether `obj` is one of the library's objects.
pub fn is_library_object(obj: &PyObject) -> bool {
    REGISTRY.with(|r| {
        r.borrow()
            .as_ref()
            .is_some_and(|r| r.addresses.contains(&address(obj)))
    })
}

/// Refuses a change to a library object while a call runs.
pub fn check_mutation(obj: &PyObject, what: &str, vm: &VirtualMachine) -> PyResult<()> {
    check_mutation_with(obj, || what.to_owned(), vm)
}

/// The write barrier's check of storing (`assign`) or deleting attribute `name` of `obj`: the
/// message is made only when it refuses (this runs on every attribute store).
fn check_attribute_change(
    obj: &PyObject,
    name: &Py<PyStr>,
    assign: bool,
    vm: &VirtualMachine,
) -> PyResult<()> {
    check_mutation_with(
        obj,
        || {
            let verb = if assign { "set" } else { "delete" };
            format!("{verb} attribute '{name}' of")
        },
        vm,
    )
}

/// [`check_mutation`], saying what was refused only when it is.
fn check_mutation_with(
    obj: &PyObject,
    what: impl FnOnce() -> String,
    vm: &VirtualMachine,
) -> PyResult<()> {
    if meter::in_call() && is_library_object(obj) {
        return Err(vm.new_type_error(format!(
            "cannot {} {}: objects of the standard library are shared by all actors and \
             read-only (rule: library-read-only)",
            what(),
            describe(obj)
        )));
    }
    Ok(())
}

fn describe(obj: &PyObject) -> String {
    if let Some(t) = obj.downcast_ref::<PyType>() {
        format!("library class '{}'", t.name())
    } else if let Some(m) = obj.downcast_ref::<rustpython_vm::builtins::PyModule>() {
        let name = m
            .name
            .map(|n| n.as_str().to_owned())
            .unwrap_or_else(|| "?".into());
        format!("library module '{name}'")
    } else {
        format!("a library '{}' object", obj.class().name())
    }
}

/// Whether `code_path` (a code object's file name) is the actor's.
pub fn is_actor_code_path(code_path: &str) -> bool {
    ACTOR_CODE_PATHS.contains(&code_path)
}

/// Whether the Python frame running now is the actor's code.
pub fn actor_frame_running(vm: &VirtualMachine) -> bool {
    vm.current_frame()
        .is_some_and(|f| is_actor_code_path(f.code.source_path().as_str()))
}

/// Whether `value` is a function (or a method of one) defined by the library.
fn is_library_function(value: &PyObject, vm: &VirtualMachine) -> bool {
    let function: PyObjectRef = if value.downcast_ref::<PyBoundMethod>().is_some() {
        match value.get_attr("__func__", vm) {
            Ok(f) => f,
            Err(_) => return true,
        }
    } else {
        value.to_owned()
    };
    if let Some(f) = function.downcast_ref::<PyFunction>() {
        let code = f.as_object().get_attr("__code__", vm).ok();
        let path = code
            .as_ref()
            .and_then(|c| c.downcast_ref::<rustpython_vm::builtins::PyCode>())
            .map(|c| c.source_path().as_str().to_owned());
        return !path.is_some_and(|p| is_actor_code_path(&p));
    }
    // Native functions and methods are the runtime's.
    function
        .class()
        .is(vm.ctx.types.builtin_function_or_method_type)
        || function.class().is(vm.ctx.types.method_descriptor_type)
}

/// Whether `value` is a function the actor's own code defines.
fn is_actor_function(value: &PyObject, vm: &VirtualMachine) -> bool {
    value.downcast_ref::<PyFunction>().is_some()
        && value
            .get_attr("__code__", vm)
            .ok()
            .and_then(|c| {
                c.downcast_ref::<rustpython_vm::builtins::PyCode>()
                    .map(|c| is_actor_code_path(c.source_path().as_str()))
            })
            .unwrap_or(false)
}

/// Refuses a `__del__` other than a function the actor defines, for a class created (or
/// changed) during a call.
///
/// Finalizers of a call's cyclic garbage run between calls (`engine::collect_garbage`), where
/// the actor's code is refused at its first instruction and no call's write barrier applies: a
/// native callable there (`functools.partial(setattr, decimal.DefaultContext, 'prec')`) would
/// change library state after the library reset, for every later call on that node only.
pub fn check_finalizer(value: &PyObject, vm: &VirtualMachine) -> PyResult<()> {
    if is_actor_function(value, vm) {
        return Ok(());
    }
    Err(vm.new_type_error(format!(
        "a class's __del__ must be a function the actor defines, not a '{}' (rule: \
         finalizer): finalizers may run between calls, where only the actor's own code is \
         stopped safely",
        value.class().name()
    )))
}

/// Whether `name` is a private (single-underscore, not dunder) name the rule applies to.
fn is_private_name(name: &str) -> bool {
    name.starts_with('_')
        && !(name.len() > 4 && name.starts_with("__") && name.ends_with("__"))
        && !PUBLIC_UNDERSCORE_NAMES.contains(&name)
}

/// The private-name rule for an actor reading `obj.name` (whose value is `value`).
pub fn check_private_read(
    obj: &PyObject,
    name: &str,
    value: &PyObject,
    vm: &VirtualMachine,
) -> PyResult<()> {
    if !is_private_name(name) {
        return Ok(());
    }
    if is_library_object(obj) || is_library_function(value, vm) {
        return Err(vm.new_attribute_error(format!(
            "'{name}' is a private name of the standard library and not accessible to actors \
             (rule: library-private-name); use the module's public API"
        )));
    }
    Ok(())
}

/// `__pa__(obj, name)`: an actor's `obj._name` (the instrumenter rewrites reads of
/// underscore attributes into this).
pub fn private_attribute(obj: PyObjectRef, name: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let name = name
        .downcast::<PyStr>()
        .map_err(|_| vm.new_type_error("attribute name must be str"))?;
    // The check is a native call the cost table's one cycle for an attribute does not cover.
    crate::natives::charge(crate::cost::cycles::CALL, vm)?;
    let value = obj.get_attr(&name, vm)?;
    check_private_read(&obj, name.to_str().unwrap_or_default(), &value, vm)?;
    Ok(value)
}

// ---- the write barrier ----------------------------------------------------------------------

/// One wrapper per distinct original `setattro` (function pointers carry no data).
const TABLE: usize = 32;
static SETATTRO_ORIGINALS: [OnceLock<SetattroFn>; TABLE] = [const { OnceLock::new() }; TABLE];
static SETATTRO_REGISTRY: Mutex<Vec<usize>> = Mutex::new(Vec::new());

fn setattro_wrapper<const I: usize>(
    zelf: &PyObject,
    name: &Py<PyStr>,
    value: PySetterValue,
    vm: &VirtualMachine,
) -> PyResult<()> {
    check_attribute_change(zelf, name, matches!(value, PySetterValue::Assign(_)), vm)?;
    let original = SETATTRO_ORIGINALS[I]
        .get()
        .ok_or_else(|| vm.new_runtime_error("setattr patch table is inconsistent"))?;
    original(zelf, name, value, vm)
}

macro_rules! table {
    ($($i:literal)*) => {
        [$(setattro_wrapper::<$i> as SetattroFn),*]
    };
}

/// The wrapper table's registry. It only grows, one whole entry at a time, so a thread that
/// panicked while holding it left it consistent: refusing it would leave classes unguarded, or
/// stop every later interpreter of this node (and of no other) from starting.
fn setattro_registry() -> std::sync::MutexGuard<'static, Vec<usize>> {
    SETATTRO_REGISTRY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn wrappers() -> [SetattroFn; TABLE] {
    table!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
}

/// Wraps the `setattro` slot of every built-in type (classes get it when they are created,
/// `patch_new_type`), and `object.__setattr__` / `object.__delattr__`, which set attributes
/// without the slot. Type objects keep their own guard (`patches`).
pub fn install_write_barrier(vm: &VirtualMachine) -> PyResult<()> {
    let wrappers = wrappers();
    let type_setattro = vm.ctx.types.type_type.slots.setattro.load();
    let mut registry = setattro_registry();
    for ty in crate::patches::all_types(vm) {
        if ty.slots.flags.has_feature(PyTypeFlags::HEAPTYPE) {
            continue;
        }
        let Some(f) = ty.slots.setattro.load() else {
            continue;
        };
        let addr = f as usize;
        if wrappers.iter().any(|w| *w as usize == addr)
            || type_setattro.is_some_and(|t| t as usize == addr)
        {
            continue;
        }
        let index = match registry.iter().position(|a| *a == addr) {
            Some(i) => i,
            None if registry.len() < TABLE => {
                registry.push(addr);
                let _ = SETATTRO_ORIGINALS[registry.len() - 1].set(f);
                registry.len() - 1
            }
            None => {
                return Err(vm.new_runtime_error("too many distinct setattr slots to guard"));
            }
        };
        ty.slots.setattro.store(Some(wrappers[index]));
    }
    drop(registry);
    if !crate::patches::first_on_this_thread("library_objects::object_setattr") {
        return Ok(());
    }
    let object_type = vm.ctx.types.object_type;
    for (method, assign) in [("__setattr__", true), ("__delattr__", false)] {
        let name = vm.ctx.intern_str(method);
        let original = object_type
            .get_attr(name)
            .ok_or_else(|| vm.new_runtime_error("object.__setattr__ missing"))?;
        let wrapped = vm.new_method(
            method,
            object_type,
            move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
                // The name's own text, as the class slot's guard says it: a `str` subclass's
                // `__str__` does not run (nor does it in CPython). A name that is not a `str`
                // is refused by the original before anything is set.
                if let (Some(target), Some(attr)) = (
                    args.args.first(),
                    args.args.get(1).and_then(|a| a.downcast_ref::<PyStr>()),
                ) {
                    check_attribute_change(target, attr, assign, vm)?;
                }
                original.call(args, vm)
            },
        );
        object_type.set_attr(name, wrapped.into());
    }
    Ok(())
}

// ---- classes created during a call ----------------------------------------------------------

static TYPE_NEW: OnceLock<NewFn> = OnceLock::new();

/// Checks the namespace of a class being created during a call.
fn check_class_namespace(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let Some(namespace) = args.args.get(2).and_then(|n| n.downcast_ref::<PyDict>()) else {
        return Ok(());
    };
    for (key, value) in namespace {
        let Some(key) = key.downcast_ref::<PyStr>().and_then(|k| k.to_str()) else {
            continue;
        };
        if METADATA_DUNDERS.contains(&key) {
            return Err(vm.new_type_error(format!(
                "a class created by an actor cannot set '{key}' (rule: class-metadata): the \
                 runtime sets it"
            )));
        }
        if key == "__del__" {
            check_finalizer(&value, vm)?;
        }
        if key == "__slots__" {
            check_slots(&value, vm)?;
        }
        if key == "__annotations__" && !annotation_names_are_identifiers(&value) {
            return Err(vm.new_type_error(
                "a class's annotations must be a dict whose keys are identifiers \
                 (rule: class-metadata)",
            ));
        }
        if key == "__module__"
            && let Some(module) = value.downcast_ref::<PyStr>().and_then(|m| m.to_str())
            && module != crate::sandbox::ACTOR_MODULE
            && vm
                .sys_module
                .get_attr("modules", vm)
                .and_then(|m| m.get_item(module, vm))
                .is_ok()
        {
            return Err(vm.new_type_error(format!(
                "a class created by an actor cannot belong to the library module '{module}' \
                 (rule: class-module)"
            )));
        }
    }
    Ok(())
}

/// Refuses `__slots__` other than a `str`, or a `tuple`, `list` or `dict` of `str`s.
///
/// RustPython interns slot names into the process's string pool, which allocates only for a
/// name the node has not seen: the names are interned, and charged, for the call beforehand
/// (`string_pool::intern_class_names`), which needs to read them without running the actor's
/// code (another iterable would run its `__iter__` twice).
fn check_slots(slots: &PyObject, vm: &VirtualMachine) -> PyResult<()> {
    let str_type = vm.ctx.types.str_type;
    let refuse = |what: String| {
        Err(vm.new_type_error(format!(
            "{what} (rule: class-slots): a class created during a call takes __slots__ as a str, \
             or a tuple, list or dict of str"
        )))
    };
    let names: Vec<PyObjectRef> = if slots.class().is(str_type) {
        return Ok(());
    } else if let Some(t) = slots.downcast_ref_if_exact::<rustpython_vm::builtins::PyTuple>(vm) {
        t.as_slice().to_vec()
    } else if let Some(l) = slots.downcast_ref_if_exact::<rustpython_vm::builtins::PyList>(vm) {
        l.borrow_vec().to_vec()
    } else if let Some(d) = slots.downcast_ref_if_exact::<PyDict>(vm) {
        d.into_iter().map(|(k, _)| k).collect()
    } else {
        return refuse(format!("__slots__ is a '{}'", slots.class().name()));
    };
    match names.iter().find(|n| !n.class().is(str_type)) {
        Some(name) => refuse(format!("a slot name is a '{}'", name.class().name())),
        None => Ok(()),
    }
}

fn annotation_names_are_identifiers(annotations: &PyObject) -> bool {
    let Some(dict) = annotations.downcast_ref::<PyDict>() else {
        return false;
    };
    dict.into_iter().all(|(k, _)| {
        k.downcast_ref::<PyStr>()
            .and_then(|k| k.to_str())
            .is_some_and(crate::validate::is_identifier)
    })
}

fn type_new(metatype: PyTypeRef, mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let creates_class = args.args.len() == 3;
    if meter::in_call() && creates_class {
        plain_namespace(&mut args, vm)?;
        check_class_namespace(&args, vm)?;
        crate::string_pool::intern_class_names(&args, vm);
    }
    let original = TYPE_NEW
        .get()
        .ok_or_else(|| vm.new_runtime_error("type patch is inconsistent"))?;
    let made = original(metatype, args, vm)?;
    if creates_class && let Some(class) = made.downcast_ref::<PyType>() {
        crate::patches::patch_new_type(class, vm);
        compact_namespace(class);
    }
    Ok(made)
}

/// Replaces the namespace of a class being created during a call by a plain `dict` copy of it,
/// and refuses keys that are not `str`.
///
/// The checks read the namespace, and RustPython then looks names up in it (`__qualname__`,
/// `__slots__`, …) and copies it: a `dict` subclass's `__missing__` or `__getitem__` ran the
/// actor's code in between and could add what the checks had refused (a native `__del__`).
/// CPython's `type.__new__` copies the namespace too, so the class is the same. RustPython
/// panics on a key that is not a `str`, where CPython keeps it.
fn plain_namespace(args: &mut FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let Some(namespace) = args.args.get(2).and_then(|n| n.downcast_ref::<PyDict>()) else {
        return Ok(());
    };
    let copy = vm.ctx.new_dict();
    // Iterating the storage runs none of the namespace's methods.
    for (key, value) in namespace {
        if !key.class().is(vm.ctx.types.str_type) {
            return Err(vm.new_type_error(format!(
                "a class's namespace may only have str keys, not '{}' (rule: class-metadata)",
                key.class().name()
            )));
        }
        copy.set_item(&*key, value, vm)?;
    }
    args.args[2] = copy.into();
    Ok(())
}

/// The write barrier for a class created after start-up (see `patches::patch_new_type`).
///
/// A class that defines neither `__setattr__` nor `__delattr__` anywhere in its MRO but on
/// `object` gets `object`'s guarded slot. RustPython gave it a generic slot that looks
/// `__setattr__` up and calls it as a method, because `object.__setattr__` is the method of
/// [`install_write_barrier`], not a slot wrapper: every `self.x = v` then built an argument
/// vector and a bound method to reach the same check and the same original slot (about 3,400
/// instructions where the slot takes 400; `cargo bench -p cowboy-pvm --bench instructions`,
/// `instances_metered`). Both run [`check_mutation`] on the target, then `object`'s original
/// `setattro`, so what a call does, raises and is charged is the same.
pub fn patch_new_type(ty: &Py<PyType>, vm: &VirtualMachine) {
    let object_setattro = vm.ctx.types.object_type.slots.setattro.load();
    // Only once `object`'s slot is guarded ([`install_write_barrier`] runs before any class is
    // made, but a class must never inherit an unguarded slot).
    let guarded =
        object_setattro.is_some_and(|f| wrappers().iter().any(|w| *w as usize == f as usize));
    if guarded
        && crate::patches::inherits_object_method(ty, "__setattr__", vm)
        && crate::patches::inherits_object_method(ty, "__delattr__", vm)
    {
        ty.slots.setattro.store(object_setattro);
        return;
    }
    let registry = setattro_registry();
    if let Some(f) = ty.slots.setattro.load()
        && let Some(i) = registry.iter().position(|a| *a == f as usize)
    {
        ty.slots.setattro.store(Some(wrappers()[i]));
    }
}

/// Guards `type.__new__` (class statements, `type(name, bases, ns)`, metaclasses).
pub fn install_class_guard(vm: &VirtualMachine) {
    let type_type = vm.ctx.types.type_type;
    let Some(original) = type_type.slots.new.load() else {
        return;
    };
    if original as usize == type_new as NewFn as usize {
        return;
    }
    let _ = TYPE_NEW.set(original);
    type_type.slots.new.store(Some(type_new));
    debug_assert!(!type_type.slots.flags.has_feature(PyTypeFlags::HEAPTYPE));
}
