//! The interned-string pool, made invisible to calls: what a call allocates, and which strings
//! are the same object, must not depend on what earlier calls interned.
//!
//! RustPython interns attribute names in a pool that lives as long as the thread and never
//! forgets: a class's attribute names (`type(name, bases, ns)`, `setattr(C, name, v)`,
//! `__slots__`), the keywords of a `functools.partial`, whatever `sys.intern` is given
//! (`namedtuple` interns its field names), and the names and short strings of code compiled
//! during a call (the methods `namedtuple` and `dataclasses` generate). Two things about that
//! depended on history:
//!
//! - **identity**: given a string it had not seen, the pool kept *that object*, and every later
//!   call got it back for an equal string. `namedtuple('P', [s])._fields[0] is s` was `True`
//!   on a node that had never seen the text and `False` on one that had.
//! - **memory**: a string new to the pool was allocated under the call's memory limit, one the
//!   pool already held was not, so a call near the limit failed on a fresh node only.
//!
//! So the library's `sys.intern` returns its argument (as CPython's does for a string it has not
//! seen), and before RustPython interns a call's string the runtime interns a *copy* of it
//! itself, outside the call's memory count, and charges the call the same bytes whether or not
//! the pool already held the text ([`INTERNED_STRING_BYTES`]). The pool only ever holds
//! copies, which no actor can reach except through the pool, so whether two strings are the
//! same object never depends on history.
//!
//! The pool still grows with every new name any call interns, for as long as the thread lives;
//! each call pays for what it adds, as if it allocated it.

use crate::{alloc, meter, patches::NewFn};
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyStr, PyStrRef, PyTuple, PyType, PyTypeRef},
    function::FuncArgs,
};
use std::sync::OnceLock;

/// Bytes charged for each string a call has interned, besides its UTF-8 length: what RustPython
/// allocates for a new `str` object and its pool entry (measured for rustpython-vm 0.5.0).
pub const INTERNED_STRING_BYTES: usize = 96;

/// Interns a copy of `s` unless `s` is itself interned (a name from compiled code), charging
/// the running call as if the pool did not hold the text.
pub fn intern_for_call(s: &Py<PyStr>, vm: &VirtualMachine) {
    if !meter::in_call() {
        return;
    }
    if vm
        .ctx
        .interned_str(s)
        .is_some_and(|found| found.as_object().is(s.as_object()))
    {
        return;
    }
    alloc::untracked(|| {
        vm.ctx.intern_str(s.as_wtf8());
    });
    alloc::charge(INTERNED_STRING_BYTES + s.as_wtf8().len());
}

/// [`intern_for_call`] for a text.
fn intern_text_for_call(text: &str, vm: &VirtualMachine) {
    alloc::untracked(|| {
        vm.ctx.intern_str(text);
    });
    alloc::charge(INTERNED_STRING_BYTES + text.len());
}

/// Interns, as [`intern_for_call`], what turning `code` (compiled during a call: the code
/// `dataclasses` and `namedtuple` generate, an actor's `exec`) into a code object will: every
/// name it uses, its own names and path, and its short string constants, in the code nested in
/// it too.
pub fn intern_code_names(code: &rustpython_vm::bytecode::CodeObject, vm: &VirtualMachine) {
    use rustpython_vm::bytecode::ConstantData;
    fn constant(c: &ConstantData, vm: &VirtualMachine) {
        match c {
            // `PyObjBag::make_constant` interns strings of at most 20 bytes.
            ConstantData::Str { value } if value.len() <= 20 => {
                if let Ok(text) = value.as_str() {
                    intern_text_for_call(text, vm);
                }
            }
            ConstantData::Tuple { elements } | ConstantData::Frozenset { elements } => {
                elements.iter().for_each(|e| constant(e, vm));
            }
            ConstantData::Slice { elements } => elements.iter().for_each(|e| constant(e, vm)),
            ConstantData::Code { code } => intern_code_names(code, vm),
            _ => {}
        }
    }
    if !meter::in_call() {
        return;
    }
    let names = code
        .names
        .iter()
        .chain(code.varnames.iter())
        .chain(code.cellvars.iter())
        .chain(code.freevars.iter())
        .chain([&code.source_path, &code.obj_name, &code.qualname]);
    for name in names {
        intern_text_for_call(name, vm);
    }
    for c in code.constants.iter() {
        constant(c, vm);
    }
}

/// [`intern_for_call`] for `obj` if it is a `str`.
fn intern_if_str(obj: &PyObject, vm: &VirtualMachine) {
    if let Some(s) = obj.downcast_ref::<PyStr>() {
        intern_for_call(s, vm);
    }
}

/// Interns, as [`intern_for_call`], what `type.__new__(metatype, name, bases, namespace)` will:
/// the namespace's keys, its `__slots__` names and their mangled forms.
pub fn intern_class_names(args: &FuncArgs, vm: &VirtualMachine) {
    let Some(namespace) = args
        .args
        .get(2)
        .and_then(|n| n.downcast_ref::<rustpython_vm::builtins::PyDict>())
    else {
        return;
    };
    for (key, _) in namespace {
        intern_if_str(&key, vm);
    }
    let Ok(Some(slots)) = namespace.get_item_opt("__slots__", vm) else {
        return;
    };
    // The shapes `library_objects::check_slots` lets through (it runs first).
    let names: Vec<PyObjectRef> = if slots.class().is(vm.ctx.types.str_type) {
        vec![slots]
    } else if let Some(t) = slots.downcast_ref::<PyTuple>() {
        t.as_slice().to_vec()
    } else if let Some(l) = slots.downcast_ref::<rustpython_vm::builtins::PyList>() {
        l.borrow_vec().to_vec()
    } else if let Some(d) = slots.downcast_ref::<rustpython_vm::builtins::PyDict>() {
        d.into_iter().map(|(k, _)| k).collect()
    } else {
        Vec::new()
    };
    let class_name = args
        .args
        .first()
        .and_then(|n| n.downcast_ref::<PyStr>())
        .and_then(|n| n.to_str())
        .unwrap_or("");
    for name in names {
        intern_if_str(&name, vm);
        if let Some(text) = name.downcast_ref::<PyStr>().and_then(|n| n.to_str())
            && text.starts_with("__")
            && !text.ends_with("__")
        {
            let mangled = format!("_{}{}", class_name.trim_start_matches('_'), text);
            intern_for_call(&vm.ctx.new_str(mangled), vm);
        }
    }
}

static PARTIAL_NEW: OnceLock<NewFn> = OnceLock::new();

fn partial_new(cls: PyTypeRef, args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    for name in args.kwargs.keys() {
        intern_for_call(&vm.ctx.new_str(name.as_str()), vm);
    }
    let original = PARTIAL_NEW
        .get()
        .ok_or_else(|| vm.new_runtime_error("partial patch is inconsistent"))?;
    original(cls, args, vm)
}

/// The library's `sys.intern`: its argument, as CPython returns a string it has not seen.
fn intern_nothing(s: PyStrRef, vm: &VirtualMachine) -> PyResult<PyStrRef> {
    if !s.class().is(vm.ctx.types.str_type) {
        return Err(vm.new_type_error(format!("can't intern {}", s.class().name())));
    }
    Ok(s)
}

/// Replaces `sys.intern` and wraps `functools.partial`'s constructor (once per thread: both are
/// shared by the thread's interpreters).
pub fn install(vm: &VirtualMachine) -> PyResult<()> {
    vm.sys_module
        .set_attr("intern", vm.new_function("intern", intern_nothing), vm)?;
    let partial = vm.import("_functools", 0)?.get_attr("partial", vm)?;
    let partial: PyTypeRef = partial
        .downcast::<PyType>()
        .map_err(|_| vm.new_runtime_error("_functools.partial is not a type"))?;
    if let Some(original) = partial.slots.new.load()
        && original as usize != partial_new as NewFn as usize
    {
        let _ = PARTIAL_NEW.set(original);
        partial.slots.new.store(Some(partial_new));
    }
    Ok(())
}
