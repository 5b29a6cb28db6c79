//! Native operations whose work or result size an argument decides are refused, or charged,
//! before they do the work.
//!
//! The per-call memory limit is counted by the allocator but checked only at the next charge
//! point, and an allocation the system cannot satisfy aborts the process: a single native call
//! that allocates terabytes (`bytes(2**50)`) or loops for hours (`round(1, -2**32)`) would take
//! down every validator at once. So each such operation checks its sizes first:
//!
//! | operation | rule |
//! |---|---|
//! | `bytes(n)`, `bytearray(n)`, `bytearray.resize(n)`, `int.to_bytes(n)` | `n` bytes within the memory limit |
//! | `round(i, n)` for an int `i` | `n <= -1234` gives 0 (every int within 4,096 bits is below 10**1234) without computing 10**-n |
//! | `int.from_bytes(b)`, `int(s, base)` | the result within 4,096 bits (checked once built; the text is charged per character) |
//! | `str.replace(old, new)` | the exact result length within the memory limit, charged before replacing |
//! | `sep.join(items)` | items gathered (charged per element) and the result length checked and charged before joining |
//! | `str.translate(dict)` | `len(s)` × the longest replacement within the memory limit |
//! | `deque * n` | `len(deque) × n` references within the memory limit |
//! | `sum(items, start)` with a non-numeric `start` | each partial result charged per element (concatenating sequences is quadratic) |
//!
//! (`struct` formats and `itertools` sizes are checked in `python/_cowboy_library.py`.)

use crate::{
    cost::{cycles, limits},
    natives,
    patches::{NewFn, guard_method},
};
use malachite_bigint::Sign;
use num_traits::ToPrimitive;
use rustpython_vm::{
    AsObject as _, Py, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyBytes, PyDict, PyInt, PyList, PyStr, PyTuple, PyType},
    function::FuncArgs,
};

fn too_big(what: &str, vm: &VirtualMachine) -> rustpython_vm::builtins::PyBaseExceptionRef {
    vm.new_memory_error(format!(
        "{what} would exceed the per-call memory limit of {} MiB",
        limits::MEMORY_BYTES / (1024 * 1024)
    ))
}

/// A count argument as a size, or `None` when it is not an int (the original reports that).
fn size_of(arg: &PyObjectRef) -> Option<usize> {
    let i = arg.downcast_ref::<PyInt>()?;
    let i = i.as_bigint();
    if i.sign() == Sign::Minus {
        return Some(0);
    }
    Some(i.to_usize().unwrap_or(usize::MAX))
}

fn check_size(n: usize, unit: usize, what: &str, vm: &VirtualMachine) -> PyResult<()> {
    if n.saturating_mul(unit) > limits::MEMORY_BYTES {
        return Err(too_big(what, vm));
    }
    Ok(())
}

type InitFn = fn(PyObjectRef, FuncArgs, &VirtualMachine) -> PyResult<()>;

static BYTES_NEW: std::sync::OnceLock<NewFn> = std::sync::OnceLock::new();
static BYTEARRAY_INIT: std::sync::OnceLock<InitFn> = std::sync::OnceLock::new();
static INT_NEW: std::sync::OnceLock<NewFn> = std::sync::OnceLock::new();

fn first_arg_size(args: &FuncArgs, what: &str, vm: &VirtualMachine) -> PyResult<()> {
    if let Some(n) = args
        .args
        .first()
        .or_else(|| args.kwargs.get("source"))
        .and_then(size_of)
    {
        check_size(n, 1, what, vm)?;
    }
    Ok(())
}

fn bytes_new(
    cls: rustpython_vm::builtins::PyTypeRef,
    args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    first_arg_size(&args, "bytes(n)", vm)?;
    (BYTES_NEW.get().ok_or_else(|| inconsistent(vm))?)(cls, args, vm)
}

fn bytearray_init(zelf: PyObjectRef, args: FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    first_arg_size(&args, "bytearray(n)", vm)?;
    (BYTEARRAY_INIT.get().ok_or_else(|| inconsistent(vm))?)(zelf, args, vm)
}

/// `int(s, base)` and `int(b)`: the text is charged per character (parsing is native work),
/// and the result must fit the integer limit (power-of-two bases skip CPython's digit limit).
fn int_new(
    cls: rustpython_vm::builtins::PyTypeRef,
    args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    let text_len = args.args.first().map_or(0, |a| {
        a.downcast_ref::<PyStr>()
            .map(|s| s.char_len())
            .or_else(|| a.downcast_ref::<PyBytes>().map(|b| b.as_bytes().len()))
            .unwrap_or(0)
    });
    if text_len > 0 {
        natives::charge(text_len as u64 * cycles::PER_CHAR, vm)?;
    }
    // CPython parses any script's decimal digits and any whitespace (`int('١٢٣')`): the text
    // is made ASCII first, and a failure still quotes what the actor passed.
    let mut args = args;
    let mut original_text = None;
    if let Some(s) = args.args.first().and_then(|a| a.downcast_ref::<PyStr>())
        && let Some(ascii) = s.to_str().and_then(crate::text::decimal_and_space_to_ascii)
    {
        original_text = Some(args.args[0].clone());
        args.args[0] = vm.ctx.new_str(ascii).into();
    }
    let new = INT_NEW.get().ok_or_else(|| inconsistent(vm))?;
    let made = match (new(cls, args, vm), original_text) {
        (Err(e), Some(text)) if e.fast_isinstance(vm.ctx.exceptions.value_error) => {
            let message = e.as_object().str(vm)?.to_string();
            match message.rsplit_once(": ") {
                Some((head, _)) if message.starts_with("invalid literal") => {
                    return Err(vm.new_value_error(format!("{head}: {}", text.repr(vm)?)));
                }
                _ => return Err(e),
            }
        }
        (made, _) => made?,
    };
    check_int_bits(&made, vm)?;
    Ok(made)
}

fn check_int_bits(value: &PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
    if let Some(i) = value.downcast_ref::<PyInt>()
        && i.as_bigint().bits() > limits::INT_BITS
    {
        return Err(vm.new_overflow_error(format!(
            "integer result exceeds the PVM limit of {} bits",
            limits::INT_BITS
        )));
    }
    Ok(())
}

fn inconsistent(vm: &VirtualMachine) -> rustpython_vm::builtins::PyBaseExceptionRef {
    vm.new_runtime_error("size-check patch is inconsistent")
}

/// The longest replacement in a `str.translate` dict (str values by length, ints are one
/// character, None deletes); `None` when the table is not a dict or holds anything else.
fn longest_translation(table: &PyObjectRef, vm: &VirtualMachine) -> Option<usize> {
    let d = table.downcast_ref::<PyDict>()?;
    let mut longest = 1;
    for (_, v) in d {
        if let Some(s) = v.downcast_ref::<PyStr>() {
            longest = longest.max(s.char_len());
        } else if v.downcast_ref::<PyInt>().is_none() && !vm.is_none(&v) {
            return None;
        }
    }
    Some(longest)
}

/// `s.replace(old, new[, count])` on str: the exact result length, checked and charged.
fn replace_size(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let (Some(s), Some(old), Some(new)) = (
        args.args.first().and_then(|a| a.downcast_ref::<PyStr>()),
        args.args.get(1).and_then(|a| a.downcast_ref::<PyStr>()),
        args.args.get(2).and_then(|a| a.downcast_ref::<PyStr>()),
    ) else {
        return Ok(());
    };
    let (Some(s_text), Some(old_text)) = (s.to_str(), old.to_str()) else {
        return Ok(());
    };
    let occurrences = if old_text.is_empty() {
        s.char_len() + 1
    } else {
        s_text.matches(old_text).count()
    };
    let limit = args
        .args
        .get(3)
        .or_else(|| args.kwargs.get("count"))
        .and_then(|c| {
            c.downcast_ref::<PyInt>()
                .and_then(|i| i.as_bigint().to_i64())
        })
        .filter(|c| *c >= 0)
        .map_or(occurrences, |c| occurrences.min(c as usize));
    let result = s
        .char_len()
        .saturating_add(limit.saturating_mul(new.char_len()));
    check_size(result, 1, "this replace()", vm)?;
    natives::charge(result as u64 * cycles::PER_CHAR, vm)
}

/// `s.translate(table)` with a dict: `len(s)` × the longest replacement.
fn translate_size(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let (Some(s), Some(table)) = (
        args.args.first().and_then(|a| a.downcast_ref::<PyStr>()),
        args.args.get(1),
    ) else {
        return Ok(());
    };
    if let Some(longest) = longest_translation(table, vm) {
        check_size(s.char_len(), longest, "this translate()", vm)?;
    }
    Ok(())
}

/// `sep.join(items)`: gathers the items (a list or tuple is used as it is), then checks and
/// charges the result length before joining. The errors are CPython's (`PySequence_Fast`'s
/// "can only join an iterable", and the first item of the wrong type).
fn join(sep: PyObjectRef, items: PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<PyObjectRef>> {
    let items: Vec<PyObjectRef> = if let Some(l) = items.downcast_ref::<PyList>() {
        l.borrow_vec().to_vec()
    } else if let Some(t) = items.downcast_ref::<PyTuple>() {
        t.as_slice().to_vec()
    } else {
        items
            .get_iter(vm)
            .map_err(|e| {
                if e.class().fast_issubclass(vm.ctx.exceptions.type_error) {
                    vm.new_type_error("can only join an iterable")
                } else {
                    e
                }
            })?
            .into_iter::<PyObjectRef>(vm)?
            .collect::<PyResult<_>>()?
    };
    if sep.downcast_ref::<PyStr>().is_some()
        && let Some((i, item)) = items
            .iter()
            .enumerate()
            .find(|(_, item)| item.downcast_ref::<PyStr>().is_none())
    {
        return Err(vm.new_type_error(format!(
            "sequence item {i}: expected str instance, {} found",
            item.class().name()
        )));
    }
    let unit_len = |o: &PyObjectRef| -> usize {
        o.downcast_ref::<PyStr>()
            .map(|s| s.char_len())
            .or_else(|| o.downcast_ref::<PyBytes>().map(|b| b.as_bytes().len()))
            .unwrap_or(0)
    };
    let sep_len = unit_len(&sep);
    let total = items
        .iter()
        .map(unit_len)
        .fold(0usize, |acc, n| acc.saturating_add(n))
        .saturating_add(sep_len.saturating_mul(items.len().saturating_sub(1)));
    // A str holds up to 4 bytes per character.
    let unit = if sep.downcast_ref::<PyStr>().is_some() {
        4
    } else {
        1
    };
    check_size(total, unit, "this join()", vm)?;
    natives::charge(
        (items.len() as u64 + total as u64) * cycles::PER_ELEMENT,
        vm,
    )?;
    Ok(items)
}

fn guard_join(ty: &'static Py<PyType>, vm: &VirtualMachine) -> PyResult<()> {
    crate::patches::wrap_method(ty, "join", vm, |args, original, vm| {
        let (Some(sep), Some(items)) = (args.args.first(), args.args.get(1)) else {
            return original.call(args, vm);
        };
        let items = join(sep.clone(), items.clone(), vm)?;
        original.call((sep.clone(), vm.ctx.new_list(items)), vm)
    })
}

fn to_bytes_size(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    if let Some(n) = args
        .args
        .get(1)
        .or_else(|| args.kwargs.get("length"))
        .and_then(size_of)
    {
        check_size(n, 1, "int.to_bytes(n)", vm)?;
    }
    Ok(())
}

fn resize_size(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    if let Some(n) = args.args.get(1).and_then(size_of) {
        check_size(n, 1, "bytearray.resize(n)", vm)?;
    }
    Ok(())
}

/// `int.from_bytes(data, …)`: the data is charged per byte and may not hold more bits than the
/// integer limit allows (the native conversion makes integers of any size).
fn from_bytes_size(data: &PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
    let n = data
        .downcast_ref::<PyBytes>()
        .map(|b| b.as_bytes().len())
        .or_else(|| {
            data.downcast_ref::<rustpython_vm::builtins::PyByteArray>()
                .map(|b| b.borrow_buf().len())
        });
    if let Some(n) = n {
        natives::charge(n as u64 * cycles::PER_ELEMENT, vm)?;
        if (n as u64).saturating_mul(8) > limits::INT_BITS + 8 {
            return Err(vm.new_overflow_error(format!(
                "integer result exceeds the PVM limit of {} bits",
                limits::INT_BITS
            )));
        }
    }
    Ok(())
}

/// `int.from_bytes` is a classmethod: replaced by a classmethod that checks, then calls the
/// original bound to the same class.
fn guard_from_bytes(vm: &VirtualMachine) -> PyResult<()> {
    let int_type = vm.ctx.types.int_type;
    let name = vm.ctx.intern_str("from_bytes");
    let Some(original) = int_type.get_attr(name) else {
        return Ok(());
    };
    let checked = vm.new_function(
        "from_bytes",
        move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
            let mut positional = args.args.iter();
            let cls = positional
                .next()
                .cloned()
                .ok_or_else(|| vm.new_type_error("from_bytes() needs its class"))?;
            if let Some(data) = positional.next().or_else(|| args.kwargs.get("bytes")) {
                from_bytes_size(data, vm)?;
            }
            let bound = vm.call_method(&original, "__get__", (vm.ctx.none(), cls))?;
            let mut rest = args;
            rest.args.remove(0);
            bound.call(rest, vm)
        },
    );
    let classmethod = rustpython_vm::PyPayload::into_ref(
        rustpython_vm::builtins::PyClassMethod::from(rustpython_vm::PyObjectRef::from(checked)),
        &vm.ctx,
    );
    int_type.set_attr(name, classmethod.into());
    Ok(())
}

/// `sum(items, start)`: a non-numeric start (lists, tuples: `sum(lists, [])`) concatenates,
/// so each step is charged by the checked `+`; numbers keep the native loop.
fn sum(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let start = args
        .args
        .get(1)
        .or_else(|| args.kwargs.get("start"))
        .cloned();
    let numeric = start.as_ref().is_none_or(|s| {
        s.downcast_ref::<PyInt>().is_some()
            || s.downcast_ref::<rustpython_vm::builtins::PyFloat>()
                .is_some()
    });
    if numeric {
        if let Some(n) = args
            .args
            .first()
            .and_then(|a| crate::prices::size_of_value(a, vm))
        {
            natives::charge(n as u64 * cycles::PER_ELEMENT, vm)?;
        }
        let original = vm.builtins.get_attr(ORIGINAL_SUM, vm)?;
        return original.call(args, vm);
    }
    let items = args
        .args
        .first()
        .cloned()
        .ok_or_else(|| vm.new_type_error("sum() takes at least 1 positional argument"))?;
    let mut acc = start.unwrap_or_else(|| vm.ctx.new_int(0).into());
    if acc.downcast_ref::<PyStr>().is_some() {
        return Err(vm.new_type_error("sum() can't sum strings [use ''.join(seq) instead]"));
    }
    for item in items.get_iter(vm)?.into_iter::<PyObjectRef>(vm)? {
        acc = crate::sandbox::checked_add(acc, item?, vm)?;
    }
    Ok(acc)
}

/// Where the interpreter's own `sum` stays reachable (library builtins; actors never see
/// names starting with `__cowboy`).
pub const ORIGINAL_SUM: &str = "__cowboy_sum";

/// Installs the checks (once per thread: the built-in types are this thread's statics).
pub fn install(vm: &VirtualMachine) -> PyResult<()> {
    let types = &vm.ctx.types;
    for (ty, cell, wrapper) in [
        (types.bytes_type, &BYTES_NEW, bytes_new as NewFn),
        (types.int_type, &INT_NEW, int_new as NewFn),
    ] {
        crate::patches::swap_slot!(ty.slots.new, cell, wrapper);
    }
    crate::patches::swap_slot!(
        types.bytearray_type.slots.init,
        BYTEARRAY_INIT,
        bytearray_init as InitFn
    );
    let builtins = vm.builtins.dict();
    let original_sum = builtins.get_item("sum", vm)?;
    if !builtins.contains_key(ORIGINAL_SUM, vm) {
        builtins.set_item(ORIGINAL_SUM, original_sum, vm)?;
    }
    builtins.set_item("sum", vm.new_function("sum", sum).into(), vm)?;
    if !crate::patches::first_on_this_thread("sizes::methods") {
        return Ok(());
    }
    guard_method(types.str_type, "replace", replace_size, vm)?;
    guard_method(types.str_type, "translate", translate_size, vm)?;
    guard_method(types.int_type, "to_bytes", to_bytes_size, vm)?;
    guard_from_bytes(vm)?;
    guard_method(types.bytearray_type, "resize", resize_size, vm)?;
    for ty in [types.str_type, types.bytes_type, types.bytearray_type] {
        guard_join(ty, vm)?;
    }
    Ok(())
}

/// `struct.Struct(fmt).pack(…)` allocates the format's whole size first: refused beyond the
/// memory limit (the module-level functions are checked in `_cowboy_library`).
pub fn guard_struct(vm: &VirtualMachine) -> PyResult<()> {
    if !crate::patches::first_on_this_thread("sizes::struct") {
        return Ok(());
    }
    let module = crate::library::load_module("_struct", vm)?;
    let ty = module
        .get_attr("Struct", vm)?
        .downcast::<PyType>()
        .map_err(|_| vm.new_runtime_error("_struct.Struct is not a type"))?;
    // Built-in classes of this thread live as long as the thread.
    let ty: &'static Py<PyType> = Box::leak(Box::new(ty));
    for name in ["pack", "pack_into"] {
        guard_method(ty, name, struct_size, vm)?;
    }
    Ok(())
}

fn struct_size(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    if let Some(zelf) = args.args.first()
        && let Some(size) = zelf.get_attr("size", vm).ok().as_ref().and_then(size_of)
    {
        check_size(size, 1, "Struct.pack()", vm)?;
    }
    Ok(())
}

static COMBINATIONS_NEW: std::sync::OnceLock<NewFn> = std::sync::OnceLock::new();
static PERMUTATIONS_NEW: std::sync::OnceLock<NewFn> = std::sync::OnceLock::new();
static CWR_NEW: std::sync::OnceLock<NewFn> = std::sync::OnceLock::new();
static PRODUCT_NEW: std::sync::OnceLock<NewFn> = std::sync::OnceLock::new();

/// The iterable argument gathered into a tuple (charged per element by the patched
/// `__next__`), so its length is known before the native constructor sizes anything by it.
fn pool(args: &mut FuncArgs, vm: &VirtualMachine) -> PyResult<usize> {
    let Some(iterable) = args.args.first().cloned() else {
        return Ok(0);
    };
    let items: Vec<PyObjectRef> = match iterable.downcast_ref::<PyTuple>() {
        Some(t) => t.as_slice().to_vec(),
        None => iterable
            .get_iter(vm)?
            .into_iter::<PyObjectRef>(vm)?
            .collect::<PyResult<_>>()?,
    };
    let n = items.len();
    args.args[0] = vm.ctx.new_tuple(items).into();
    Ok(n)
}

/// `r` beyond `len(pool)` yields nothing whatever its value: clamped to `len(pool) + 1`, so
/// the native code never sizes anything by it (RustPython panics on an `r` beyond 2**64).
fn clamp_r(args: &mut FuncArgs, n: usize, vm: &VirtualMachine) {
    let slot = if args.args.len() > 1 {
        args.args.get_mut(1)
    } else {
        args.kwargs.get_mut("r")
    };
    if let Some(r) = slot
        && r.downcast_ref::<PyInt>().is_some_and(|i| {
            i.as_bigint().sign() != Sign::Minus && i.as_bigint().to_usize().is_none_or(|r| r > n)
        })
    {
        *r = vm.ctx.new_int(n + 1).into();
    }
}

/// `combinations` and `permutations`: the pool materialised and `r` clamped, then `original`.
fn clamped_r_new(
    original: &std::sync::OnceLock<NewFn>,
    cls: rustpython_vm::builtins::PyTypeRef,
    mut args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    let n = pool(&mut args, vm)?;
    clamp_r(&mut args, n, vm);
    (original.get().ok_or_else(|| inconsistent(vm))?)(cls, args, vm)
}

fn combinations_new(
    cls: rustpython_vm::builtins::PyTypeRef,
    args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    clamped_r_new(&COMBINATIONS_NEW, cls, args, vm)
}

fn permutations_new(
    cls: rustpython_vm::builtins::PyTypeRef,
    args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    clamped_r_new(&PERMUTATIONS_NEW, cls, args, vm)
}

fn cwr_new(
    cls: rustpython_vm::builtins::PyTypeRef,
    mut args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    let n = pool(&mut args, vm)?;
    if n > 0
        && let Some(r) = args
            .args
            .get(1)
            .or_else(|| args.kwargs.get("r"))
            .and_then(size_of)
    {
        // Every element of the pool can repeat r times: r indices are kept.
        check_size(r, 8, "combinations_with_replacement(r)", vm)?;
    }
    (CWR_NEW.get().ok_or_else(|| inconsistent(vm))?)(cls, args, vm)
}

fn product_new(
    cls: rustpython_vm::builtins::PyTypeRef,
    mut args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    let mut width = 1usize;
    for i in 0..args.args.len() {
        let item = args.args[i].clone();
        let gathered: Vec<PyObjectRef> = match item.downcast_ref::<PyTuple>() {
            Some(t) => t.as_slice().to_vec(),
            None => item
                .get_iter(vm)?
                .into_iter::<PyObjectRef>(vm)?
                .collect::<PyResult<_>>()?,
        };
        width = width.saturating_add(gathered.len());
        args.args[i] = vm.ctx.new_tuple(gathered).into();
    }
    if let Some(repeat) = args.kwargs.get("repeat").and_then(size_of) {
        // The pools are copied `repeat` times.
        check_size(repeat.saturating_mul(width), 8, "product(repeat=…)", vm)?;
    }
    (PRODUCT_NEW.get().ok_or_else(|| inconsistent(vm))?)(cls, args, vm)
}

/// `itertools`' combinatoric constructors and `tee`: sizes checked first (see above).
pub fn guard_itertools(vm: &VirtualMachine) -> PyResult<()> {
    let module = crate::library::load_module("itertools", vm)?;
    for (name, cell, wrapper) in [
        ("combinations", &COMBINATIONS_NEW, combinations_new as NewFn),
        ("permutations", &PERMUTATIONS_NEW, permutations_new as NewFn),
        ("combinations_with_replacement", &CWR_NEW, cwr_new as NewFn),
        ("product", &PRODUCT_NEW, product_new as NewFn),
    ] {
        let ty = module
            .get_attr(name, vm)?
            .downcast::<PyType>()
            .map_err(|_| vm.new_runtime_error(format!("itertools.{name} is not a type")))?;
        crate::patches::swap_slot!(ty.slots.new, cell, wrapper);
    }
    if crate::patches::first_on_this_thread("sizes::tee") {
        let tee = module.get_attr("tee", vm)?;
        let checked = vm.new_function(
            "tee",
            move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
                if let Some(n) = args.args.get(1).and_then(size_of) {
                    check_size(n, 64, "tee(n)", vm)?;
                }
                tee.call(args, vm)
            },
        );
        module.set_attr("tee", checked, vm)?;
    }
    Ok(())
}

/// `round(i, n)` for an int `i` and `n <= -1234`: every int within the 4,096-bit limit is
/// below 10**1234, so the result is 0 (CPython computes 10**-n first).
pub fn round_int_far_left(n: &PyObjectRef) -> bool {
    n.downcast_ref::<PyInt>()
        .is_some_and(|n| n.as_bigint().to_i64().is_none_or(|n| n <= -1234))
}
