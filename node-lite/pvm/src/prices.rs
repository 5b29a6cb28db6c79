//! Charges for native work the cost table leaves open, so that none is slower per cycle than
//! the plain bytecode loop (the "Execution budget" decision of `../shared/spec/README.md`).
//!
//! The `cycle_price` benchmark measures the wall time one cycle buys for every class of
//! operation; each charge below exists because it found an operation that did work in native
//! code for a constant charge (`repr` of a 10,000-element list for 21 cycles: 317× the loop).
//! Every charge is made before or as the work is done, and depends only on the operands:
//!
//! | operation | charge |
//! |---|---|
//! | `list(x)`, `tuple(x)`, `set(x)`, `frozenset(x)`, `dict(x)`, `bytes(x)`, `bytearray(x)` of a sized `x` | 1 per element |
//! | `max`, `min`, `sum`, `any`, `all` of a sized argument | 1 per element |
//! | slicing a str, bytes, list or tuple | 1 per character or element of the result |
//! | indexing a non-ASCII str | 1 per 32 characters before the index (the index is found by decoding) |
//! | `==`, `<`, … on dicts, sets, deques | 1 per element of the smaller operand |
//! | `==`, `<`, … on str and bytes | 1 per 1,024 bytes of the smaller operand |
//! | `x in deque`, `deque.index/count/remove` | 1 per element |
//! | hashing a tuple | 1 per element (each nested tuple again) |
//! | `repr()`/`str()` of anything native | 1 per character of the result, at each level |
//! | `str(i)`, `repr(i)` of an int over 64 bits | + (bits/64)² / 16 |
//! | `pow(b, e, m)` | + bits(e) × (64-bit words of m)² / 16 (square-and-multiply) |
//! | `//`, `divmod`, `>>`, `&`, `|`, `^`, `/` of ints over 64 bits | + max(bit length)/64 |
//! | `bytes.fromhex(s)` | 1 per character |
//! | `binascii` conversions and checksums (behind `base64`, `hmac`) | 1 per byte or character of the input |
//! | the library's own regexes (`json`, `decimal`, `fractions` parsing the actor's text): `match`, `fullmatch`, `search` | 1 per character from `pos` to the match's end (to `endpos` when none) |
//! | … `findall`, `finditer`, `split`, `sub`, `subn`, `scanner` | 1 per character from `pos` to `endpos`, and `sub`/`subn` 1 per character of the result |

use crate::{
    cost::{self, cycles},
    natives,
    patches::NewFn,
};
use malachite_bigint::BigInt;
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyByteArray, PyBytes, PyDict, PyInt, PyList, PySlice, PyStr, PyTuple, PyType},
    function::{Either, FuncArgs, PyComparisonValue},
    protocol::PyMapping,
    types::PyComparisonOp,
};
use std::sync::OnceLock;

/// Elements or characters of a sized built-in value (`None` for anything else, whose size
/// cannot be known without running its code).
pub fn size_of_value(o: &PyObject, vm: &VirtualMachine) -> Option<usize> {
    if let Some(s) = o.downcast_ref::<PyStr>() {
        Some(s.char_len())
    } else if let Some(b) = o.downcast_ref::<PyBytes>() {
        Some(b.as_bytes().len())
    } else if let Some(b) = o.downcast_ref::<PyByteArray>() {
        Some(b.borrow_buf().len())
    } else if let Some(l) = o.downcast_ref::<PyList>() {
        Some(l.borrow_vec().len())
    } else if let Some(t) = o.downcast_ref::<PyTuple>() {
        Some(t.len())
    } else if let Some(d) = o.downcast_ref::<PyDict>() {
        Some(d.__len__())
    } else if o.class().is(vm.ctx.types.set_type) || o.class().is(vm.ctx.types.frozenset_type) {
        // The built-in set's own length (no code of a subclass runs).
        o.length(vm).ok()
    } else {
        None
    }
}

fn charge_elements(n: usize, vm: &VirtualMachine) -> PyResult<()> {
    if n > 0 {
        natives::charge(n as u64 * cycles::PER_ELEMENT, vm)?;
    }
    Ok(())
}

fn inconsistent(vm: &VirtualMachine) -> rustpython_vm::builtins::PyBaseExceptionRef {
    vm.new_runtime_error("price patch table is inconsistent")
}

// ---- constructors of a sized argument -------------------------------------------------------

type InitFn = fn(PyObjectRef, FuncArgs, &VirtualMachine) -> PyResult<()>;

macro_rules! charged_new {
    ($name:ident, $cell:ident) => {
        static $cell: OnceLock<NewFn> = OnceLock::new();
        fn $name(
            cls: rustpython_vm::builtins::PyTypeRef,
            args: FuncArgs,
            vm: &VirtualMachine,
        ) -> PyResult {
            if let Some(n) = args.args.first().and_then(|a| size_of_value(a, vm)) {
                charge_elements(n, vm)?;
            }
            ($cell.get().ok_or_else(|| inconsistent(vm))?)(cls, args, vm)
        }
    };
}

macro_rules! charged_init {
    ($name:ident, $cell:ident) => {
        static $cell: OnceLock<InitFn> = OnceLock::new();
        fn $name(zelf: PyObjectRef, args: FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
            if let Some(n) = args.args.first().and_then(|a| size_of_value(a, vm)) {
                charge_elements(n, vm)?;
            }
            charge_elements(args.kwargs.len(), vm)?;
            ($cell.get().ok_or_else(|| inconsistent(vm))?)(zelf, args, vm)
        }
    };
}

charged_new!(tuple_new, TUPLE_NEW);
charged_new!(frozenset_new, FROZENSET_NEW);
charged_init!(list_init, LIST_INIT);
charged_init!(set_init, SET_INIT);
charged_init!(dict_init, DICT_INIT);

fn install_new(ty: &Py<PyType>, cell: &OnceLock<NewFn>, wrapper: NewFn) {
    crate::patches::swap_slot!(ty.slots.new, cell, wrapper);
}

fn install_init(ty: &Py<PyType>, cell: &OnceLock<InitFn>, wrapper: InitFn) {
    crate::patches::swap_slot!(ty.slots.init, cell, wrapper);
}

// ---- subscripts: slices and non-ASCII str indexes -------------------------------------------

type SubscriptFn = fn(PyMapping<'_>, &PyObject, &VirtualMachine) -> PyResult;

macro_rules! charged_subscript {
    ($name:ident, $cell:ident) => {
        static $cell: OnceLock<SubscriptFn> = OnceLock::new();
        fn $name(mapping: PyMapping<'_>, key: &PyObject, vm: &VirtualMachine) -> PyResult {
            if let Some(s) = mapping.obj.downcast_ref::<PyStr>()
                && s.byte_len() != s.char_len()
                && key.downcast_ref::<PyInt>().is_some()
            {
                // The index is found by decoding the string from its start.
                natives::charge(1 + s.char_len() as u64 / 32, vm)?;
            }
            let result = ($cell.get().ok_or_else(|| inconsistent(vm))?)(mapping, key, vm)?;
            if key.downcast_ref::<PySlice>().is_some()
                && let Some(n) = size_of_value(&result, vm)
            {
                charge_elements(n, vm)?;
            }
            Ok(result)
        }
    };
}

charged_subscript!(str_subscript, STR_SUBSCRIPT);
charged_subscript!(bytes_subscript, BYTES_SUBSCRIPT);
charged_subscript!(list_subscript, LIST_SUBSCRIPT);
charged_subscript!(tuple_subscript, TUPLE_SUBSCRIPT);

fn install_subscript(ty: &Py<PyType>, cell: &OnceLock<SubscriptFn>, wrapper: SubscriptFn) {
    let slot = &ty.slots.as_mapping.subscript;
    crate::patches::swap_slot!(slot, cell, wrapper);
}

// ---- comparisons of containers and strings -------------------------------------------------

type RichCompareFn = fn(
    &PyObject,
    &PyObject,
    PyComparisonOp,
    &VirtualMachine,
) -> PyResult<Either<PyObjectRef, PyComparisonValue>>;

macro_rules! charged_compare {
    ($name:ident, $cell:ident, $divisor:expr) => {
        static $cell: OnceLock<RichCompareFn> = OnceLock::new();
        fn $name(
            a: &PyObject,
            b: &PyObject,
            op: PyComparisonOp,
            vm: &VirtualMachine,
        ) -> PyResult<Either<PyObjectRef, PyComparisonValue>> {
            let n = size_of_value(a, vm)
                .unwrap_or(0)
                .min(size_of_value(b, vm).unwrap_or(0));
            natives::charge((n / $divisor) as u64, vm)?;
            ($cell.get().ok_or_else(|| inconsistent(vm))?)(a, b, op, vm)
        }
    };
}

charged_compare!(dict_compare, DICT_COMPARE, 1);
charged_compare!(set_compare, SET_COMPARE, 1);
charged_compare!(frozenset_compare, FROZENSET_COMPARE, 1);
charged_compare!(str_compare, STR_COMPARE, 1024);
charged_compare!(bytes_compare, BYTES_COMPARE, 1024);

fn install_compare(ty: &Py<PyType>, cell: &OnceLock<RichCompareFn>, wrapper: RichCompareFn) {
    crate::patches::swap_slot!(ty.slots.richcompare, cell, wrapper);
}

// ---- tuple hash -----------------------------------------------------------------------------

type HashFn = fn(&PyObject, &VirtualMachine) -> PyResult<rustpython_vm::common::hash::PyHash>;
static TUPLE_HASH: OnceLock<HashFn> = OnceLock::new();

fn tuple_hash(
    zelf: &PyObject,
    vm: &VirtualMachine,
) -> PyResult<rustpython_vm::common::hash::PyHash> {
    // Not cached: every hash of a tuple hashes every element again.
    charge_elements(zelf.downcast_ref::<PyTuple>().map_or(0, |t| t.len()), vm)?;
    (TUPLE_HASH.get().ok_or_else(|| inconsistent(vm))?)(zelf, vm)
}

// ---- big integers ---------------------------------------------------------------------------

type BinaryFn = fn(&PyObject, &PyObject, &VirtualMachine) -> PyResult;

fn int_bits(o: &PyObject) -> u64 {
    o.downcast_ref::<PyInt>()
        .map_or(0, |i| i.as_bigint().bits())
}

macro_rules! surcharged {
    ($name:ident, $cell:ident) => {
        static $cell: OnceLock<BinaryFn> = OnceLock::new();
        fn $name(a: &PyObject, b: &PyObject, vm: &VirtualMachine) -> PyResult {
            let bits = int_bits(a).max(int_bits(b));
            if bits > 64 {
                natives::charge(cost::bigint_surcharge(bits), vm)?;
            }
            ($cell.get().ok_or_else(|| inconsistent(vm))?)(a, b, vm)
        }
    };
}

surcharged!(int_floor_divide, INT_FLOOR_DIVIDE);
surcharged!(int_true_divide, INT_TRUE_DIVIDE);
surcharged!(int_divmod, INT_DIVMOD);
surcharged!(int_rshift, INT_RSHIFT);
surcharged!(int_and, INT_AND);
surcharged!(int_or, INT_OR);
surcharged!(int_xor, INT_XOR);

/// Converting an int of `bits` bits to decimal is quadratic in its size.
pub fn int_to_text_cost(i: &BigInt) -> u64 {
    let limbs = i.bits() / 64;
    limbs * limbs / 16
}

type StrFn = fn(&PyObject, &VirtualMachine) -> PyResult<rustpython_vm::PyRef<PyStr>>;
static INT_STR: OnceLock<StrFn> = OnceLock::new();

fn int_str(zelf: &PyObject, vm: &VirtualMachine) -> PyResult<rustpython_vm::PyRef<PyStr>> {
    if let Some(i) = zelf.downcast_ref::<PyInt>() {
        natives::charge(int_to_text_cost(i.as_bigint()), vm)?;
    }
    (INT_STR.get().ok_or_else(|| inconsistent(vm))?)(zelf, vm)
}

// ---- builtins over a sized argument ---------------------------------------------------------

/// Wraps builtin `name` so a single sized argument is charged per element first.
fn charge_builtin(name: &'static str, vm: &VirtualMachine) -> PyResult<()> {
    let builtins = vm.builtins.dict();
    let original = builtins.get_item(name, vm)?;
    let wrapped = vm.new_function(
        name,
        move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
            if let Some(n) = args.args.first().and_then(|a| size_of_value(a, vm)) {
                charge_elements(n, vm)?;
            }
            original.call(args, vm)
        },
    );
    builtins.set_item(name, wrapped.into(), vm)
}

static STR_NEW: OnceLock<NewFn> = OnceLock::new();

/// `str(i)` of an exact int converts without any slot (RustPython's fast path): charged here.
fn str_new(
    cls: rustpython_vm::builtins::PyTypeRef,
    args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    if let Some(i) = args.args.first().and_then(|a| a.downcast_ref::<PyInt>()) {
        natives::charge(int_to_text_cost(i.as_bigint()), vm)?;
    }
    (STR_NEW.get().ok_or_else(|| inconsistent(vm))?)(cls, args, vm)
}

/// Installs the charges (before the library loads; built-in types are this thread's statics,
/// and slot patches check for their own wrappers).
pub fn install(vm: &VirtualMachine) -> PyResult<()> {
    let t = &vm.ctx.types;
    // Constructors' fast paths build without their `__new__`/`__init__` slots: every call of
    // these types goes through the (charged) slots instead.
    for ty in [
        t.list_type,
        t.tuple_type,
        t.dict_type,
        t.set_type,
        t.frozenset_type,
        t.str_type,
        t.bytes_type,
        t.bytearray_type,
        t.int_type,
    ] {
        ty.slots.vectorcall.store(None);
    }
    install_new(t.str_type, &STR_NEW, str_new);
    install_new(t.tuple_type, &TUPLE_NEW, tuple_new);
    install_new(t.frozenset_type, &FROZENSET_NEW, frozenset_new);
    install_init(t.list_type, &LIST_INIT, list_init);
    install_init(t.set_type, &SET_INIT, set_init);
    install_init(t.dict_type, &DICT_INIT, dict_init);
    install_subscript(t.str_type, &STR_SUBSCRIPT, str_subscript);
    install_subscript(t.bytes_type, &BYTES_SUBSCRIPT, bytes_subscript);
    install_subscript(t.list_type, &LIST_SUBSCRIPT, list_subscript);
    install_subscript(t.tuple_type, &TUPLE_SUBSCRIPT, tuple_subscript);
    install_compare(t.dict_type, &DICT_COMPARE, dict_compare);
    install_compare(t.set_type, &SET_COMPARE, set_compare);
    install_compare(t.frozenset_type, &FROZENSET_COMPARE, frozenset_compare);
    install_compare(t.str_type, &STR_COMPARE, str_compare);
    install_compare(t.bytes_type, &BYTES_COMPARE, bytes_compare);
    crate::patches::swap_slot!(t.tuple_type.slots.hash, TUPLE_HASH, tuple_hash as HashFn);
    let n = &t.int_type.slots.as_number;
    crate::patches::swap_slot!(
        n.floor_divide,
        INT_FLOOR_DIVIDE,
        int_floor_divide as BinaryFn
    );
    crate::patches::swap_slot!(n.true_divide, INT_TRUE_DIVIDE, int_true_divide as BinaryFn);
    crate::patches::swap_slot!(n.divmod, INT_DIVMOD, int_divmod as BinaryFn);
    crate::patches::swap_slot!(n.rshift, INT_RSHIFT, int_rshift as BinaryFn);
    crate::patches::swap_slot!(n.and, INT_AND, int_and as BinaryFn);
    crate::patches::swap_slot!(n.or, INT_OR, int_or as BinaryFn);
    crate::patches::swap_slot!(n.xor, INT_XOR, int_xor as BinaryFn);
    crate::patches::swap_slot!(t.int_type.slots.str, INT_STR, int_str as StrFn);
    for name in ["max", "min", "any", "all"] {
        charge_builtin(name, vm)?;
    }
    if crate::patches::first_on_this_thread("prices::fromhex") {
        for ty in [t.bytes_type, t.bytearray_type] {
            charge_fromhex(ty, vm)?;
        }
    }
    Ok(())
}

/// `bytes.fromhex(s)` (a classmethod): 1 cycle per character of `s`, then the original bound to
/// the same class.
fn charge_fromhex(ty: &'static Py<PyType>, vm: &VirtualMachine) -> PyResult<()> {
    crate::patches::wrap_classmethod(ty, "fromhex", vm, |args, original, vm| {
        if let Some(n) = args.args.first().and_then(|a| size_of_value(a, vm)) {
            natives::charge(n as u64 * cycles::PER_CHAR, vm)?;
        }
        original.call(args, vm)
    })
}

/// The `binascii` functions that convert or checksum their whole first argument in native code.
const BINASCII_LINEAR: &[&str] = &[
    "a2b_base64",
    "b2a_base64",
    "a2b_hex",
    "b2a_hex",
    "hexlify",
    "unhexlify",
    "a2b_qp",
    "b2a_qp",
    "a2b_uu",
    "b2a_uu",
    "crc32",
    "crc_hqx",
];

/// `binascii` (the native half of `base64` and `binascii` itself): each conversion or checksum
/// is charged 1 cycle per byte or character of its input before it runs (installed once the
/// library is loaded; the module object is this interpreter's).
pub fn install_binascii(vm: &VirtualMachine) -> PyResult<()> {
    let module = crate::library::load_module("binascii", vm)?;
    for &name in BINASCII_LINEAR {
        let Ok(original) = module.get_attr(name, vm) else {
            continue;
        };
        let charged = vm.new_function(
            name,
            move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
                if let Some(n) = args.args.first().and_then(|a| size_of_value(a, vm)) {
                    natives::charge(n as u64 * cycles::PER_CHAR, vm)?;
                }
                original.call(args, vm)
            },
        );
        module.set_attr(name, charged, vm)?;
    }
    Ok(())
}

/// The library's regex methods whose work is bounded by where the match ends.
const SRE_ANCHORED: &[&str] = &["match", "fullmatch", "search"];
/// The library's regex methods that read their whole text (from `pos` to `endpos` where they
/// take them), where the text is among the arguments, and whether `pos` and `endpos` follow.
const SRE_SCANNING: &[(&str, usize, bool)] = &[
    ("findall", 1, true),
    ("finditer", 1, true),
    ("scanner", 1, true),
    ("split", 1, false),
    ("sub", 2, false),
    ("subn", 2, false),
];

/// The native regexes the embedded library compiles with its own `re` (`_sre`, a backtracking
/// engine that charges nothing): `json`'s scanner and encoder, `decimal`'s and `fractions`'
/// string parsers run them over the actor's text, which a call can hand them again and again
/// for a constant charge. Each search is charged 1 cycle per character it reads, as the PVM's
/// own `re` is: from `pos` to the match's end (`match`, `fullmatch` and `search` after they
/// ran; to `endpos` when nothing matched), or to `endpos` before a scan of the whole span.
/// Actors never hold such a pattern (`string.Template`'s is the PVM's `re`); the library's
/// patterns are fixed, and none of them backtracks beyond linear time on any text.
pub fn install_sre(vm: &VirtualMachine) -> PyResult<()> {
    if !crate::patches::first_on_this_thread("prices::sre") {
        return Ok(());
    }
    let ty = crate::library::load_module("re", vm)?
        .get_attr("Pattern", vm)?
        .downcast::<PyType>()
        .map_err(|_| vm.new_runtime_error("re.Pattern is not a type"))?;
    // Built-in classes of this thread live as long as the thread.
    let ty: &'static Py<PyType> = Box::leak(Box::new(ty));
    let methods = SRE_ANCHORED.iter().map(|&name| (name, None)).chain(
        SRE_SCANNING
            .iter()
            .map(|&(name, at, bounded)| (name, Some((at, bounded)))),
    );
    for (name, scanning) in methods {
        let interned = vm.ctx.intern_str(name);
        let Some(original) = ty.get_attr(interned) else {
            return Err(inconsistent(vm));
        };
        let wrapped = vm.new_method(
            name,
            ty,
            move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
                let Some((at, bounded)) = scanning else {
                    let span = searched_span(&args, 1, true, vm);
                    let found = original.call(args, vm)?;
                    if let Some((pos, len)) = span {
                        let read = if vm.is_none(&found) {
                            len
                        } else {
                            let end: usize =
                                vm.call_method(&found, "end", ())?.try_into_value(vm)?;
                            end.saturating_sub(pos).min(len)
                        };
                        charge_chars(read, vm)?;
                    }
                    return Ok(found);
                };
                if let Some((_, len)) = searched_span(&args, at, bounded, vm) {
                    charge_chars(len, vm)?;
                }
                let substituting = matches!(name, "sub" | "subn");
                let result = original.call(args, vm)?;
                if substituting {
                    let text = match result.downcast_ref::<PyTuple>() {
                        Some(pair) => pair.first().cloned(),
                        None => Some(result.clone()),
                    };
                    if let Some(n) = text.and_then(|t| size_of_value(&t, vm)) {
                        charge_chars(n, vm)?;
                    }
                }
                Ok(result)
            },
        );
        ty.set_attr(interned, wrapped.into());
    }
    Ok(())
}

fn charge_chars(n: usize, vm: &VirtualMachine) -> PyResult<()> {
    if n > 0 {
        natives::charge(n as u64 * cycles::PER_CHAR, vm)?;
    }
    Ok(())
}

/// `(pos, endpos - pos)` of a regex method's text (positional argument `at`, counting the
/// pattern, or `string=`), clamped as `_sre` clamps them (the whole text unless `bounded`);
/// `None` when the text is not a sized built-in value (the method raises its own error).
fn searched_span(
    args: &FuncArgs,
    at: usize,
    bounded: bool,
    vm: &VirtualMachine,
) -> Option<(usize, usize)> {
    let text = args.args.get(at).or_else(|| args.kwargs.get("string"))?;
    let len = size_of_value(text, vm)?;
    if !bounded {
        return Some((0, len));
    }
    let bound = |index: usize, name: &str, default: usize| -> usize {
        args.args
            .get(index)
            .or_else(|| args.kwargs.get(name))
            .and_then(|o| o.downcast_ref::<PyInt>())
            .map_or(default, |i| {
                let v = i.as_bigint();
                if v.sign() == malachite_bigint::Sign::Minus {
                    0
                } else {
                    usize::try_from(v).unwrap_or(usize::MAX).min(len)
                }
            })
    };
    let pos = bound(at + 1, "pos", 0);
    let endpos = bound(at + 2, "endpos", len);
    Some((pos, endpos.saturating_sub(pos)))
}

/// `collections.deque`: membership, `index`, `count` and `remove` scan the deque, 1 cycle per
/// element (installed once the library is loaded, when the type exists).
pub fn install_deque(vm: &VirtualMachine) -> PyResult<()> {
    let module = crate::library::load_module("collections", vm)?;
    let ty = module
        .get_attr("deque", vm)?
        .downcast::<PyType>()
        .map_err(|_| vm.new_runtime_error("collections.deque is not a type"))?;
    crate::patches::swap_slot!(
        ty.slots.as_sequence.contains,
        DEQUE_CONTAINS,
        deque_contains as ContainsFn
    );
    if !crate::patches::first_on_this_thread("prices::deque") {
        return Ok(());
    }
    // Built-in classes of this thread live as long as the thread.
    let ty: &'static Py<PyType> = Box::leak(Box::new(ty));
    for name in ["index", "count", "remove"] {
        let interned = vm.ctx.intern_str(name);
        let Some(original) = ty.get_attr(interned) else {
            continue;
        };
        let wrapped = vm.new_method(
            name,
            ty,
            move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
                if let Some(q) = args.args.first() {
                    charge_elements(q.length(vm).unwrap_or(0), vm)?;
                }
                original.call(args, vm)
            },
        );
        ty.set_attr(interned, wrapped.into());
    }
    Ok(())
}

type ContainsFn =
    fn(rustpython_vm::protocol::PySequence<'_>, &PyObject, &VirtualMachine) -> PyResult<bool>;
static DEQUE_CONTAINS: OnceLock<ContainsFn> = OnceLock::new();

fn deque_contains(
    seq: rustpython_vm::protocol::PySequence<'_>,
    needle: &PyObject,
    vm: &VirtualMachine,
) -> PyResult<bool> {
    charge_elements(seq.obj.length(vm).unwrap_or(0), vm)?;
    (DEQUE_CONTAINS.get().ok_or_else(|| inconsistent(vm))?)(seq, needle, vm)
}
