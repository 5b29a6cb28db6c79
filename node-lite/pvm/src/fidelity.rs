//! CPython's errors where RustPython words them differently, for the builtin methods actors
//! call most.
//!
//! An error message is part of a call's result (an actor catches it and stores `str(e)`), so a
//! different wording is a different result. Each method here is wrapped by a check that runs
//! first: when the arguments are ones CPython 3.11 rejects, it raises CPython's exception with
//! CPython's message (from `Objects/unicodeobject.c`, `Objects/listobject.c`,
//! `Python/bltinmodule.c`); otherwise RustPython's method runs unchanged. Where the error comes
//! from a type slot (`1 // 0`, `"abc"[5]`), or only RustPython can tell it apart (`min([])`), the
//! wrapper runs the original and rewords its error instead. The checks only look
//! at argument types, so a call that succeeds costs what it did. Installed before methods are
//! wrapped to be charged. (`str.join`'s and `bytes.join`'s errors are `sizes.rs`'s, which
//! gathers their items.)

use crate::patches::{guard_method, swap_slot, wrap_classmethod, wrap_method};
use rustpython_vm::{
    AsObject, Py, PyObject, PyObjectRef, PyPayload, PyResult, VirtualMachine,
    builtins::{
        PyBaseExceptionRef, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyStr, PyTuple,
        PyType, PyTypeRef,
    },
    function::FuncArgs,
    protocol::{PyMapping, PyNumber, PyNumberBinaryFunc, PyNumberUnaryFunc, PySequence},
};
use std::sync::OnceLock;

/// The name of `obj`'s type, as CPython's messages print it.
fn type_name(obj: &PyObject) -> String {
    obj.class().name().to_string()
}

fn is_str(obj: &PyObject) -> bool {
    obj.downcast_ref::<PyStr>().is_some()
}

/// Replaces the built-in function `name` of this interpreter by `f`, which is handed the
/// function it replaces.
fn wrap_builtin<F>(name: &'static str, vm: &VirtualMachine, f: F) -> PyResult<()>
where
    F: Fn(FuncArgs, &PyObjectRef, &VirtualMachine) -> PyResult + 'static,
{
    let original = vm.builtins.get_attr(name, vm)?;
    let wrapped = vm.new_function(name, move |args: FuncArgs, vm: &VirtualMachine| {
        f(args, &original, vm)
    });
    vm.builtins.set_attr(name, wrapped, vm)
}

/// `str.index(3)` and the other methods whose first argument must be a `str`.
fn substring_must_be_str(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    match args.args.get(1) {
        Some(sub) if !is_str(sub) => {
            Err(vm.new_type_error(format!("must be str, not {}", type_name(sub))))
        }
        _ => Ok(()),
    }
}

/// `str.startswith`/`endswith`: a `str` or a tuple of them.
fn affix_check(name: &str, args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let Some(affix) = args.args.get(1).filter(|a| !is_str(a)) else {
        return Ok(());
    };
    match affix.downcast_ref::<PyTuple>() {
        Some(items) => match items.iter().find(|i| !is_str(i)) {
            Some(bad) => Err(vm.new_type_error(format!(
                "tuple for {name} must only contain str, not {}",
                type_name(bad)
            ))),
            None => Ok(()),
        },
        None => Err(vm.new_type_error(format!(
            "{name} first arg must be str or a tuple of str, not {}",
            type_name(affix)
        ))),
    }
}

/// `chr(x)` of something that is not an integer.
fn install_chr(vm: &VirtualMachine) -> PyResult<()> {
    wrap_builtin("chr", vm, |mut args, original, vm| {
        if let [arg] = args.args.as_mut_slice() {
            *arg = arg.try_index(vm)?.into();
        }
        original.call(args, vm)
    })
}

/// `str.maketrans(x)` with one argument that is not a dict.
fn maketrans_one_argument(args: &FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    // A static method: the arguments are exactly the caller's.
    match args.args.as_slice() {
        [only] if args.kwargs.is_empty() && only.downcast_ref::<PyDict>().is_none() => {
            Err(vm.new_type_error("if you give only one argument to maketrans it must be a dict"))
        }
        _ => Ok(()),
    }
}

/// The checks on built-in types' methods: once per thread, with the other method patches.
pub fn install_type_methods(vm: &VirtualMachine) -> PyResult<()> {
    let str_type: &'static Py<PyType> = vm.ctx.types.str_type;
    for name in [
        "index",
        "rindex",
        "find",
        "rfind",
        "count",
        "partition",
        "rpartition",
    ] {
        guard_method(str_type, name, substring_must_be_str, vm)?;
    }
    guard_method(
        str_type,
        "startswith",
        |a, vm| affix_check("startswith", a, vm),
        vm,
    )?;
    guard_method(
        str_type,
        "endswith",
        |a, vm| affix_check("endswith", a, vm),
        vm,
    )?;
    install_maketrans(vm)?;
    install_list_errors(vm)?;
    install_float_to_int_methods(vm)?;
    install_float_hex(vm)?;
    install_islice_new(vm)?;
    install_bytearray_pop(vm)?;
    install_add_note(vm)?;
    wrap_method(
        vm.ctx.types.dict_type,
        "update",
        vm,
        |args, original, vm| {
            let source = args.args.get(1).cloned();
            original
                .call(args, vm)
                .map_err(|e| dict_sequence_error(e, source.as_ref(), vm))
        },
    )?;
    for (ty, name) in [
        (vm.ctx.types.str_type, "encode"),
        (vm.ctx.types.bytes_type, "decode"),
        (vm.ctx.types.bytearray_type, "decode"),
    ] {
        install_unknown_encoding(ty, name, vm)?;
    }
    for ty in [vm.ctx.types.bytes_type, vm.ctx.types.bytearray_type] {
        install_fromhex(ty, vm)?;
    }
    install_deque_errors(vm)
}

/// `Decimal(value)` for the values libmpdec refuses with other words than `_pydecimal`, or where
/// `_pydecimal` accepts: a `(sign, digits, exponent)` tuple or list is checked as
/// `dectuple_as_str` (`Modules/_decimal/_decimal.c`) checks it, and a value of a type `Decimal`
/// does not convert is named by its type (`_pydecimal` prints its repr, running its
/// `__repr__`). Checked natively before `_pydecimal`'s constructor runs, so a valid construction
/// costs what it did (plus 1 cycle per digit of a tuple). Installed once the library is loaded.
pub fn install_decimal_constructor_errors(vm: &VirtualMachine) -> PyResult<()> {
    let module = crate::library::load_module("_pydecimal", vm)?;
    let decimal = module.get_attr("Decimal", vm)?;
    let work_rep = module.get_attr("_WorkRep", vm)?;
    let original = decimal.get_attr("__new__", vm)?;
    let converts = decimal.clone();
    let wrapped = vm.new_function("__new__", move |args: FuncArgs, vm: &VirtualMachine| {
        let value = args
            .args
            .get(1)
            .or_else(|| args.kwargs.get("value"))
            .cloned();
        if let Some(value) = value {
            decimal_value_check(&value, &converts, &work_rep, vm)?;
        }
        original.call(args, vm)
    });
    let new =
        rustpython_vm::builtins::PyStaticMethod::from(PyObjectRef::from(wrapped)).into_ref(&vm.ctx);
    decimal.set_attr("__new__", new, vm)
}

fn decimal_value_check(
    value: &PyObjectRef,
    decimal: &PyObjectRef,
    work_rep: &PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    if is_str(value)
        || value.downcast_ref::<PyInt>().is_some()
        || value.downcast_ref::<PyFloat>().is_some()
    {
        return Ok(());
    }
    if let Some(items) = tuple_or_list_items(value) {
        return decimal_tuple_check(&items, vm);
    }
    if value.is_instance(decimal, vm)? || value.is_instance(work_rep, vm)? {
        return Ok(());
    }
    Err(vm.new_type_error(format!(
        "conversion from {} to Decimal is not supported",
        crate::type_names::c_type_name(value.class(), vm)
    )))
}

/// `dectuple_as_str`'s checks, in its order: length, sign, exponent, coefficient.
fn decimal_tuple_check(items: &[PyObjectRef], vm: &VirtualMachine) -> PyResult<()> {
    let invalid = |message: &str| Err(vm.new_value_error(message.to_owned()));
    let [sign, digits, exponent] = items else {
        return invalid("argument must be a sequence of length 3");
    };
    let Some(sign) = sign.downcast_ref::<PyInt>() else {
        return invalid("sign must be an integer with the value 0 or 1");
    };
    let sign = c_long(sign, vm)?;
    if sign != 0 && sign != 1 {
        return invalid("sign must be an integer with the value 0 or 1");
    }
    if let Some(marker) = exponent.downcast_ref::<PyStr>() {
        if !matches!(marker.to_str(), Some("F" | "n" | "N")) {
            return invalid("string argument in the third position must be 'F', 'n' or 'N'");
        }
    } else if let Some(exponent) = exponent.downcast_ref::<PyInt>() {
        if isize::try_from(exponent.as_bigint()).is_err() {
            return Err(vm.new_overflow_error("Python int too large to convert to C ssize_t"));
        }
    } else {
        return invalid("exponent must be an integer");
    }
    let Some(digits) = tuple_or_list_items(digits) else {
        return invalid("coefficient must be a tuple of digits");
    };
    crate::natives::charge(digits.len() as u64, vm)?;
    for digit in &digits {
        let Some(digit) = digit.downcast_ref::<PyInt>() else {
            return invalid("coefficient must be a tuple of digits");
        };
        if !(0..=9).contains(&c_long(digit, vm)?) {
            return invalid("coefficient must be a tuple of digits");
        }
    }
    Ok(())
}

/// The items of a tuple or list (of a subclass too), as `sequence_as_tuple` in `_decimal.c`
/// takes them; `None` for anything else.
fn tuple_or_list_items(obj: &PyObject) -> Option<Vec<PyObjectRef>> {
    if let Some(t) = obj.downcast_ref::<PyTuple>() {
        Some(t.as_slice().to_vec())
    } else {
        obj.downcast_ref::<PyList>()
            .map(|l| l.borrow_vec().to_vec())
    }
}

/// `PyLong_AsLong`: the value, or its `OverflowError`.
fn c_long(i: &PyInt, vm: &VirtualMachine) -> PyResult<i64> {
    i64::try_from(i.as_bigint())
        .map_err(|_| vm.new_overflow_error("Python int too large to convert to C long"))
}

/// `binascii.a2b_base64` (and so `base64.b64decode`): RustPython prefixes its errors with
/// `error decoding base64: ` and writes the count without CPython's parentheses
/// (`Modules/binascii.c`). Installed once the library is loaded (the module is this
/// interpreter's).
pub fn install_binascii_errors(vm: &VirtualMachine) -> PyResult<()> {
    const PREFIX: &str = "error decoding base64: ";
    const COUNT: &str = "number of data characters ";
    let module = crate::library::load_module("binascii", vm)?;
    let original = module.get_attr("a2b_base64", vm)?;
    let checked = vm.new_function("a2b_base64", move |args: FuncArgs, vm: &VirtualMachine| {
        original.call(args, vm).map_err(|e| {
            let Ok(message) = e.as_object().str(vm) else {
                return e;
            };
            let Some(rest) = message.to_str().and_then(|m| m.strip_prefix(PREFIX)) else {
                return e;
            };
            let reworded = match rest.split_once(COUNT) {
                Some((head, tail)) => match tail.split_once(' ') {
                    Some((n, after)) if n.bytes().all(|b| b.is_ascii_digit()) => {
                        format!("{head}{COUNT}({n}) {after}")
                    }
                    _ => rest.to_owned(),
                },
                None => rest.to_owned(),
            };
            vm.new_exception_msg(e.class().to_owned(), reworded.into())
        })
    });
    module.set_attr("a2b_base64", checked, vm)
}

/// `float.hex()` of a subnormal: CPython writes it with the minimum normal exponent
/// (`0x0.0000000000001p-1022`, `Objects/floatobject.c`), RustPython normalizes it.
fn install_float_hex(vm: &VirtualMachine) -> PyResult<()> {
    wrap_method(vm.ctx.types.float_type, "hex", vm, |args, original, vm| {
        let subnormal = args
            .args
            .first()
            .and_then(|x| x.downcast_ref::<PyFloat>())
            .map(|x| x.to_f64())
            .filter(|x| x.is_subnormal());
        match subnormal {
            Some(x) => {
                let sign = if x.is_sign_negative() { "-" } else { "" };
                let mantissa = x.to_bits() & ((1 << 52) - 1);
                Ok(vm
                    .ctx
                    .new_str(format!("{sign}0x0.{mantissa:013x}p-1022"))
                    .into())
            }
            None => original.call(args, vm),
        }
    })
}

/// `bytearray.pop()`: CPython tells an empty bytearray from an index out of range
/// (`Objects/bytearrayobject.c`).
fn install_bytearray_pop(vm: &VirtualMachine) -> PyResult<()> {
    wrap_method(
        vm.ctx.types.bytearray_type,
        "pop",
        vm,
        |args, original, vm| {
            let empty = args
                .args
                .first()
                .and_then(|b| b.downcast_ref::<PyByteArray>())
                .map(|b| b.borrow_buf().is_empty());
            original.call(args, vm).map_err(|e| {
                if !e.class().is(vm.ctx.exceptions.index_error) {
                    return e;
                }
                match empty {
                    Some(true) => vm.new_index_error("pop from empty bytearray"),
                    Some(false) => vm.new_index_error("pop index out of range"),
                    None => e,
                }
            })
        },
    )
}

/// `str.encode`, `bytes.decode`, `bytearray.decode` with an unknown encoding: CPython names
/// it as it was written (`unknown encoding: no-such-codec`), RustPython as it normalized it;
/// and with an encoding or error handler that is not a `str`.
fn install_unknown_encoding(
    ty: &'static Py<PyType>,
    name: &'static str,
    vm: &VirtualMachine,
) -> PyResult<()> {
    wrap_method(ty, name, vm, move |args, original, vm| {
        let given = args.args.get(1).or_else(|| args.kwargs.get("encoding"));
        let errors = args.args.get(2).or_else(|| args.kwargs.get("errors"));
        for (argument, value) in [("encoding", given), ("errors", errors)] {
            if let Some(bad) = value.filter(|e| !is_str(e)) {
                // Argument Clinic's `_PyArg_BadArgument` names None as `None`.
                let named = if vm.is_none(bad) {
                    "None".to_owned()
                } else {
                    type_name(bad)
                };
                return Err(vm.new_type_error(format!(
                    "{name}() argument '{argument}' must be str, not {named}"
                )));
            }
        }
        let encoding =
            given.and_then(|e| e.downcast_ref::<PyStr>().map(|e| e.as_wtf8().to_string()));
        original.call(args, vm).map_err(|e| match encoding {
            Some(encoding)
                if e.class().is(vm.ctx.exceptions.lookup_error)
                    && e.as_object().str(vm).is_ok_and(|m| {
                        m.to_str()
                            .is_some_and(|m| m.starts_with("unknown encoding: "))
                    }) =>
            {
                vm.new_lookup_error(format!("unknown encoding: {encoding}"))
            }
            _ => e,
        })
    })
}

/// `BaseException.add_note(note)` of something that is not a `str`.
fn install_add_note(vm: &VirtualMachine) -> PyResult<()> {
    guard_method(
        vm.ctx.exceptions.base_exception_type,
        "add_note",
        |args, vm| match args.args.get(1) {
            Some(note) if !is_str(note) => {
                Err(vm.new_type_error(format!("note must be a str, not '{}'", type_name(note))))
            }
            _ => Ok(()),
        },
        vm,
    )
}

/// Where CPython 3.11's `_PyBytes_FromHex` (`Objects/bytesobject.c`) stops on `hex`: the
/// position of its first non-ASCII character, or of the first character that is not a hex
/// digit where one is expected (the end of the text when a pair is left half done);
/// `None` when the text is valid. Whitespace is skipped between pairs only.
fn fromhex_error_position(hex: &str) -> Option<usize> {
    if let Some(at) = hex.chars().position(|c| !c.is_ascii()) {
        return Some(at);
    }
    let b = hex.as_bytes();
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let mut at = 0;
    while at < b.len() {
        if is_space(b[at]) {
            while at < b.len() && is_space(b[at]) {
                at += 1;
            }
            if at == b.len() {
                break;
            }
        }
        for _ in 0..2 {
            if !b.get(at).is_some_and(u8::is_ascii_hexdigit) {
                return Some(at);
            }
            at += 1;
        }
    }
    None
}

/// `bytes.fromhex(s)` and `bytearray.fromhex(s)` (classmethods): CPython 3.11 takes only a
/// `str`, and for an invalid one names the position of the first bad character, even for an
/// odd number of digits. (Both accept the same texts, so the position is found only once the
/// original, already charged, has failed.)
fn install_fromhex(ty: &'static Py<PyType>, vm: &VirtualMachine) -> PyResult<()> {
    wrap_classmethod(ty, "fromhex", vm, |args, original, vm| {
        let text = match args.args.first() {
            Some(s) if !is_str(s) => {
                return Err(vm.new_type_error(format!(
                    "fromhex() argument must be str, not {}",
                    type_name(s)
                )));
            }
            Some(s) => Some(s.clone()),
            None => None,
        };
        original.call(args, vm).map_err(|e| {
            let at = text
                .as_ref()
                .and_then(|s| s.downcast_ref::<PyStr>())
                .and_then(|s| s.to_str())
                .and_then(fromhex_error_position);
            match at {
                Some(at) if e.class().is(vm.ctx.exceptions.value_error) => vm.new_value_error(
                    format!("non-hexadecimal number found in fromhex() arg at position {at}"),
                ),
                _ => e,
            }
        })
    })
}

/// The number and subscript slots (shared by every interpreter, wrapped once) and the built-in
/// functions (each interpreter's own): for every interpreter.
pub fn install(vm: &VirtualMachine) -> PyResult<()> {
    install_zero_division(vm);
    install_subscripts(vm);
    install_immutable_items(vm);
    install_concatenation(vm);
    install_float_to_int_slot(vm);
    install_constructors(vm);
    install_chr(vm)?;
    install_reversed(vm)?;
    install_isinstance_issubclass(vm)?;
    install_ord(vm)?;
    install_dict_sequence_errors(vm);
    install_min_max(vm)
}

/// `str.maketrans` is a static method: it is replaced by one.
fn install_maketrans(vm: &VirtualMachine) -> PyResult<()> {
    let str_type: &'static Py<PyType> = vm.ctx.types.str_type;
    let interned = vm.ctx.intern_str("maketrans");
    let original = str_type.as_object().get_attr(interned, vm)?;
    let checked = vm.new_function("maketrans", move |args: FuncArgs, vm: &VirtualMachine| {
        maketrans_one_argument(&args, vm)?;
        original.call(args, vm)
    });
    let method = vm
        .ctx
        .types
        .staticmethod_type
        .as_object()
        .call((checked,), vm)?;
    str_type.set_attr(interned, method);
    Ok(())
}

/// Whether `e` is RustPython's "'x' is not in list" (not a ValueError an `__eq__` raised).
fn not_in_list(e: &PyBaseExceptionRef, vm: &VirtualMachine) -> bool {
    e.class().is(vm.ctx.exceptions.value_error)
        && e.as_object()
            .str(vm)
            .is_ok_and(|s| s.to_string().ends_with("' is not in list"))
}

/// CPython's `ValueError` for a missing `needle`, named by its repr: `3 is not in list`.
fn not_in(needle: &PyObject, container: &str, vm: &VirtualMachine) -> PyBaseExceptionRef {
    match needle.repr(vm) {
        Ok(r) => vm.new_value_error(format!("{r} is not in {container}")),
        Err(repr_failed) => repr_failed,
    }
}

/// `list.index(x)` of a missing `x`: CPython names it by its repr (`3 is not in list`);
/// `list.remove(x)` does not name it.
fn install_list_errors(vm: &VirtualMachine) -> PyResult<()> {
    let list_type: &'static Py<PyType> = vm.ctx.types.list_type;
    wrap_method(list_type, "index", vm, |args, original, vm| {
        let needle = args.args.get(1).cloned();
        original.call(args, vm).map_err(|e| match needle {
            Some(needle) if not_in_list(&e, vm) => not_in(&needle, "list", vm),
            _ => e,
        })
    })?;
    wrap_method(list_type, "remove", vm, |args, original, vm| {
        original.call(args, vm).map_err(|e| {
            if not_in_list(&e, vm) {
                vm.new_value_error("list.remove(x): x not in list")
            } else {
                e
            }
        })
    })
}

/// `ord(x)` of something that is not a one-character `str`, `bytes` or `bytearray`.
fn install_ord(vm: &VirtualMachine) -> PyResult<()> {
    wrap_builtin("ord", vm, |args, original, vm| {
        if let [arg] = args.args.as_slice()
            && !is_str(arg)
            && arg.downcast_ref::<PyBytes>().is_none()
            && arg.downcast_ref::<PyByteArray>().is_none()
        {
            return Err(vm.new_type_error(format!(
                "ord() expected string of length 1, but {} found",
                type_name(arg)
            )));
        }
        original.call(args, vm)
    })
}

/// A number slot wrapper: runs the type's original slot and words its `ZeroDivisionError` as
/// CPython does for that type and operator.
macro_rules! zero_division_slots {
    ($($wrapper:ident, $cell:ident, $message:literal;)*) => {
        $(
            static $cell: OnceLock<PyNumberBinaryFunc> = OnceLock::new();
            fn $wrapper(a: &PyObject, b: &PyObject, vm: &VirtualMachine) -> PyResult {
                let Some(original) = $cell.get() else {
                    return Err(vm.new_runtime_error("number slot not installed"));
                };
                original(a, b, vm).map_err(|e| {
                    if e.class().is(vm.ctx.exceptions.zero_division_error) {
                        vm.new_zero_division_error($message)
                    } else {
                        e
                    }
                })
            }
        )*
    };
}

zero_division_slots! {
    int_floor_divide, INT_FLOOR_DIVIDE, "integer division or modulo by zero";
    int_right_floor_divide, INT_RIGHT_FLOOR_DIVIDE, "integer division or modulo by zero";
    int_remainder, INT_REMAINDER, "integer modulo by zero";
    int_right_remainder, INT_RIGHT_REMAINDER, "integer modulo by zero";
    int_divmod, INT_DIVMOD, "integer division or modulo by zero";
    int_right_divmod, INT_RIGHT_DIVMOD, "integer division or modulo by zero";
    float_true_divide, FLOAT_TRUE_DIVIDE, "float division by zero";
    float_right_true_divide, FLOAT_RIGHT_TRUE_DIVIDE, "float division by zero";
    float_floor_divide, FLOAT_FLOOR_DIVIDE, "float floor division by zero";
    float_right_floor_divide, FLOAT_RIGHT_FLOOR_DIVIDE, "float floor division by zero";
    float_remainder, FLOAT_REMAINDER, "float modulo";
    float_right_remainder, FLOAT_RIGHT_REMAINDER, "float modulo";
    float_divmod, FLOAT_DIVMOD, "float divmod()";
    float_right_divmod, FLOAT_RIGHT_DIVMOD, "float divmod()";
}

/// `1 // 0`, `5 % 0.0`, …: CPython's ZeroDivisionError messages, per type and operator.
fn install_zero_division(vm: &VirtualMachine) {
    let types = &vm.ctx.types;
    // bool's slots are int's (copied when the type was made): both get the same wrappers.
    for ty in [types.int_type, types.bool_type] {
        let n = &ty.slots.as_number;
        swap_slot!(
            n.floor_divide,
            INT_FLOOR_DIVIDE,
            int_floor_divide as PyNumberBinaryFunc
        );
        swap_slot!(
            n.right_floor_divide,
            INT_RIGHT_FLOOR_DIVIDE,
            int_right_floor_divide as PyNumberBinaryFunc
        );
        swap_slot!(
            n.remainder,
            INT_REMAINDER,
            int_remainder as PyNumberBinaryFunc
        );
        swap_slot!(
            n.right_remainder,
            INT_RIGHT_REMAINDER,
            int_right_remainder as PyNumberBinaryFunc
        );
        swap_slot!(n.divmod, INT_DIVMOD, int_divmod as PyNumberBinaryFunc);
        swap_slot!(
            n.right_divmod,
            INT_RIGHT_DIVMOD,
            int_right_divmod as PyNumberBinaryFunc
        );
    }
    let n = &types.float_type.slots.as_number;
    swap_slot!(
        n.true_divide,
        FLOAT_TRUE_DIVIDE,
        float_true_divide as PyNumberBinaryFunc
    );
    swap_slot!(
        n.right_true_divide,
        FLOAT_RIGHT_TRUE_DIVIDE,
        float_right_true_divide as PyNumberBinaryFunc
    );
    swap_slot!(
        n.floor_divide,
        FLOAT_FLOOR_DIVIDE,
        float_floor_divide as PyNumberBinaryFunc
    );
    swap_slot!(
        n.right_floor_divide,
        FLOAT_RIGHT_FLOOR_DIVIDE,
        float_right_floor_divide as PyNumberBinaryFunc
    );
    swap_slot!(
        n.remainder,
        FLOAT_REMAINDER,
        float_remainder as PyNumberBinaryFunc
    );
    swap_slot!(
        n.right_remainder,
        FLOAT_RIGHT_REMAINDER,
        float_right_remainder as PyNumberBinaryFunc
    );
    swap_slot!(n.divmod, FLOAT_DIVMOD, float_divmod as PyNumberBinaryFunc);
    swap_slot!(
        n.right_divmod,
        FLOAT_RIGHT_DIVMOD,
        float_right_divmod as PyNumberBinaryFunc
    );
}

type SubscriptFn = fn(PyMapping<'_>, &PyObject, &VirtualMachine) -> PyResult;

/// A subscript slot wrapper: runs the type's original and words its index errors as CPython
/// does for that type (`string index out of range`, `list indices must be integers or slices,
/// not str`).
macro_rules! subscript_slots {
    ($($wrapper:ident, $cell:ident, $noun:literal, $indices:literal;)*) => {
        $(
            static $cell: OnceLock<SubscriptFn> = OnceLock::new();
            fn $wrapper(
                mapping: PyMapping<'_>,
                needle: &PyObject,
                vm: &VirtualMachine,
            ) -> PyResult {
                let Some(original) = $cell.get() else {
                    return Err(vm.new_runtime_error("subscript slot not installed"));
                };
                original(mapping, needle, vm).map_err(|e| {
                    if e.class().is(vm.ctx.exceptions.index_error) {
                        vm.new_index_error(concat!($noun, " index out of range"))
                    } else if e.class().is(vm.ctx.exceptions.type_error)
                        // By type alone: calling the needle's `__index__` again could run
                        // the actor's code a second time.
                        && needle
                            .class()
                            .get_attr(vm.ctx.intern_str("__index__"))
                            .is_none()
                        && !needle.class().is(vm.ctx.types.slice_type)
                    {
                        vm.new_type_error(format!($indices, needle.class().name()))
                    } else {
                        e
                    }
                })
            }
        )*
    };
}

subscript_slots! {
    str_subscript, STR_SUBSCRIPT, "string", "string indices must be integers, not '{}'";
    list_subscript, LIST_SUBSCRIPT, "list", "list indices must be integers or slices, not {}";
    tuple_subscript, TUPLE_SUBSCRIPT, "tuple", "tuple indices must be integers or slices, not {}";
}

/// `"abc"[5]`, `[1][0.5]`, …: CPython's IndexError and TypeError messages for subscripts.
fn install_subscripts(vm: &VirtualMachine) {
    let types = &vm.ctx.types;
    for (ty, original, wrapper) in [
        (types.str_type, &STR_SUBSCRIPT, str_subscript as SubscriptFn),
        (types.list_type, &LIST_SUBSCRIPT, list_subscript),
        (types.tuple_type, &TUPLE_SUBSCRIPT, tuple_subscript),
    ] {
        swap_slot!(ty.slots.as_mapping.subscript, original, wrapper);
    }
}

/// `min([])`, `max([])`: CPython's "min() arg is an empty sequence".
fn install_min_max(vm: &VirtualMachine) -> PyResult<()> {
    for (name, rustpython, cpython) in [
        (
            "min",
            "min() iterable argument is empty",
            "min() arg is an empty sequence",
        ),
        (
            "max",
            "max() iterable argument is empty",
            "max() arg is an empty sequence",
        ),
    ] {
        wrap_builtin(name, vm, move |args, original, vm| {
            original
                .call(args, vm)
                .map_err(|e| reword(e, vm.ctx.exceptions.value_error, rustpython, cpython, vm))
        })?;
    }
    Ok(())
}

/// Whether `e` is exactly `ty` (not a subclass an actor raised) with the message `text`. The
/// class is checked first: `str()` of an actor's exception could run its `__str__`.
pub(crate) fn is_error(
    e: &PyBaseExceptionRef,
    ty: &Py<PyType>,
    text: &str,
    vm: &VirtualMachine,
) -> bool {
    e.class().is(ty) && e.as_object().str(vm).is_ok_and(|m| m.as_wtf8() == text)
}

/// `e` reworded as CPython words it, when it is exactly RustPython's `ty` with the message
/// `rustpython`; any other error unchanged.
fn reword(
    e: PyBaseExceptionRef,
    ty: &'static Py<PyType>,
    rustpython: &str,
    cpython: &str,
    vm: &VirtualMachine,
) -> PyBaseExceptionRef {
    if is_error(&e, ty, rustpython, vm) {
        vm.new_exception_msg(ty.to_owned(), cpython.to_owned().into())
    } else {
        e
    }
}

/// RustPython prefixes these with their type's name ("OverflowError: cannot convert …").
fn float_to_int_error(e: PyBaseExceptionRef, vm: &VirtualMachine) -> PyBaseExceptionRef {
    let errors = &vm.ctx.exceptions;
    let e = reword(
        e,
        errors.overflow_error,
        "OverflowError: cannot convert float infinity to integer",
        "cannot convert float infinity to integer",
        vm,
    );
    reword(
        e,
        errors.value_error,
        "ValueError: cannot convert float NaN to integer",
        "cannot convert float NaN to integer",
        vm,
    )
}

static FLOAT_INT: OnceLock<PyNumberUnaryFunc> = OnceLock::new();

fn float_int(number: PyNumber<'_>, vm: &VirtualMachine) -> PyResult {
    let Some(original) = FLOAT_INT.get() else {
        return Err(vm.new_runtime_error("number slot not installed"));
    };
    original(number, vm).map_err(|e| float_to_int_error(e, vm))
}

/// `int(float("inf"))`: the number slot every float-to-int conversion goes through.
fn install_float_to_int_slot(vm: &VirtualMachine) {
    let n = &vm.ctx.types.float_type.slots.as_number;
    swap_slot!(n.int, FLOAT_INT, float_int as PyNumberUnaryFunc);
}

/// `math.floor(float("inf"))`, `round(float("nan"))`, …: the methods.
fn install_float_to_int_methods(vm: &VirtualMachine) -> PyResult<()> {
    for name in ["__trunc__", "__floor__", "__ceil__", "__round__"] {
        wrap_method(vm.ctx.types.float_type, name, vm, |args, original, vm| {
            original
                .call(args, vm)
                .map_err(|e| float_to_int_error(e, vm))
        })?;
    }
    Ok(())
}

/// `reversed({1})`: CPython names the type.
fn install_reversed(vm: &VirtualMachine) -> PyResult<()> {
    wrap_builtin("reversed", vm, |args, original, vm| {
        let arg = args.args.first().cloned();
        original.call(args, vm).map_err(|e| match arg {
            Some(arg)
                if is_error(
                    &e,
                    vm.ctx.exceptions.type_error,
                    "argument to reversed() must be a sequence",
                    vm,
                ) =>
            {
                vm.new_type_error(format!("'{}' object is not reversible", type_name(&arg)))
            }
            _ => e,
        })
    })
}

/// `isinstance(1, "x")`, `issubclass(a, b)` of a non-class: CPython's message does not name
/// the type; RustPython's appends ", not <type>".
fn install_isinstance_issubclass(vm: &VirtualMachine) -> PyResult<()> {
    const MESSAGES: [&str; 3] = [
        "issubclass() arg 1 must be a class",
        "issubclass() arg 2 must be a class, a tuple of classes, or a union",
        "isinstance() arg 2 must be a type, a tuple of types, or a union",
    ];
    for name in ["isinstance", "issubclass"] {
        wrap_builtin(name, vm, |args, original, vm| {
            original.call(args, vm).map_err(|e| {
                if !e.class().is(vm.ctx.exceptions.type_error) {
                    return e;
                }
                let Ok(text) = e.as_object().str(vm) else {
                    return e;
                };
                let text = text.to_string();
                match MESSAGES.iter().find(|m| {
                    text.strip_prefix(**m)
                        .is_some_and(|r| r.starts_with(", not "))
                }) {
                    Some(cpython) => vm.new_type_error(*cpython),
                    None => e,
                }
            })
        })?;
    }
    Ok(())
}

/// A type's `__init__` slot.
type InitFunc = fn(PyObjectRef, FuncArgs, &VirtualMachine) -> PyResult<()>;

static DEQUE_INIT: OnceLock<InitFunc> = OnceLock::new();

fn deque_init(zelf: PyObjectRef, args: FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let Some(original) = DEQUE_INIT.get() else {
        return Err(vm.new_runtime_error("deque initializer not installed"));
    };
    original(zelf, args, vm).map_err(|e| {
        reword(
            e,
            vm.ctx.exceptions.value_error,
            "maxlen must be non-negative.",
            "maxlen must be non-negative",
            vm,
        )
    })
}

/// `deque.remove(x)` of a missing `x`: CPython names it by its repr, as `deque.index` does;
/// `deque(maxlen=-1)`'s message has no full stop.
fn install_deque_errors(vm: &VirtualMachine) -> PyResult<()> {
    let deque = vm.import("_collections", 0)?.get_attr("deque", vm)?;
    let Ok(deque) = deque.downcast::<PyType>() else {
        return Err(vm.new_runtime_error("_collections.deque is not a type"));
    };
    // The type outlives every interpreter of the thread, as the built-in types do.
    let deque: &'static Py<PyType> = Box::leak(Box::new(deque));
    swap_slot!(deque.slots.init, DEQUE_INIT, deque_init as InitFunc);
    wrap_method(deque, "remove", vm, |args, original, vm| {
        let needle = args.args.get(1).cloned();
        original.call(args, vm).map_err(|e| match needle {
            Some(needle)
                if is_error(
                    &e,
                    vm.ctx.exceptions.value_error,
                    "deque.remove(x): x not in deque",
                    vm,
                ) =>
            {
                not_in(&needle, "deque", vm)
            }
            _ => e,
        })
    })
}

type ConcatFn = fn(PySequence<'_>, &PyObject, &VirtualMachine) -> PyResult;

/// A sequence-concatenation slot wrapper: `"a" + 1`, `[1] + (2,)`, `b"a" + "b"` with CPython's
/// messages. The slot is tried after both operands' `__add__`/`__radd__`, as in CPython, so a
/// type that adds itself to a `str` still can.
macro_rules! concat_slots {
    ($($wrapper:ident, $cell:ident, $message:expr;)*) => {
        $(
            static $cell: OnceLock<ConcatFn> = OnceLock::new();
            fn $wrapper(seq: PySequence<'_>, other: &PyObject, vm: &VirtualMachine) -> PyResult {
                let Some(original) = $cell.get() else {
                    return Err(vm.new_runtime_error("concat slot not installed"));
                };
                let message: fn(&str) -> String = $message;
                match original(seq, other, vm) {
                    Ok(result) if result.is(&vm.ctx.not_implemented) => {
                        Err(vm.new_type_error(message(&type_name(other))))
                    }
                    Err(e) if e.class().is(vm.ctx.exceptions.type_error) => {
                        Err(vm.new_type_error(message(&type_name(other))))
                    }
                    other => other,
                }
            }
        )*
    };
}

concat_slots! {
    str_concat, STR_CONCAT, |t| format!("can only concatenate str (not \"{t}\") to str");
    list_concat, LIST_CONCAT, |t| format!("can only concatenate list (not \"{t}\") to list");
    tuple_concat, TUPLE_CONCAT, |t| format!("can only concatenate tuple (not \"{t}\") to tuple");
    bytes_concat, BYTES_CONCAT, |t| format!("can't concat {t} to bytes");
}

fn install_concatenation(vm: &VirtualMachine) {
    let types = &vm.ctx.types;
    for (ty, original, wrapper) in [
        (types.str_type, &STR_CONCAT, str_concat as ConcatFn),
        (types.list_type, &LIST_CONCAT, list_concat),
        (types.tuple_type, &TUPLE_CONCAT, tuple_concat),
        (types.bytes_type, &BYTES_CONCAT, bytes_concat),
    ] {
        swap_slot!(ty.slots.as_sequence.concat, original, wrapper);
    }
}

/// `s[0] = "x"`, `del t[0]`: CPython's "'str' object does not support item assignment" and
/// "'str' object doesn't support item deletion" for the subscriptable immutable types
/// (RustPython's generic error leaves out "object"). Installed in their empty assignment slot,
/// which their subclasses inherit unless they define `__setitem__` or `__delitem__`.
fn immutable_item(
    mapping: PyMapping<'_>,
    _: &PyObject,
    value: Option<PyObjectRef>,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let name = type_name(mapping.obj);
    Err(vm.new_type_error(match value {
        Some(_) => format!("'{name}' object does not support item assignment"),
        None => format!("'{name}' object doesn't support item deletion"),
    }))
}

fn install_immutable_items(vm: &VirtualMachine) {
    let types = &vm.ctx.types;
    for ty in [types.str_type, types.tuple_type, types.bytes_type] {
        let slot = &ty.slots.as_mapping.ass_subscript;
        if slot.load().is_none() {
            slot.store(Some(immutable_item));
        }
    }
}

/// `"ab" * 2.5`: CPython's "can't multiply sequence by non-int of type 'float'", where
/// RustPython's repetition reports the failed `__index__` ("'float' object cannot be
/// interpreted as an integer"). Only that error, for an operand whose type has no `__index__`
/// (an `__index__` that raises keeps its own error), repeating a sequence, as CPython's
/// `PyNumber_Multiply` tries the left operand first.
pub(crate) fn repeat_error(
    e: PyBaseExceptionRef,
    a: &PyObject,
    b: &PyObject,
    vm: &VirtualMachine,
) -> PyBaseExceptionRef {
    let count = if a.try_sequence(vm).is_ok() {
        b
    } else if b.try_sequence(vm).is_ok() {
        a
    } else {
        return e;
    };
    let name = type_name(count);
    let has_index = count
        .class()
        .get_attr(vm.ctx.intern_str("__index__"))
        .is_some();
    let rustpython = format!("'{name}' object cannot be interpreted as an integer");
    if !has_index && is_error(&e, vm.ctx.exceptions.type_error, &rustpython, vm) {
        vm.new_type_error(format!(
            "can't multiply sequence by non-int of type '{name}'"
        ))
    } else {
        e
    }
}

/// CPython 3.11's words for an error RustPython's bytecode raises with other words (no slot or
/// method to wrap): `None` when `e` is not one of them. Matched on the exact class and the
/// whole message, so an actor's own exceptions and subclasses keep theirs.
fn interpreter_error_in_cpython_words(
    e: &PyBaseExceptionRef,
    vm: &VirtualMachine,
) -> Option<String> {
    let errors = &vm.ctx.exceptions;
    let class = e.class();
    let args = e.args();
    let [message] = args.as_slice() else {
        return None;
    };
    let message = message.downcast_ref::<PyStr>()?.to_str()?;
    if class.is(errors.unbound_local_error) {
        // `x` read before its assignment: 3.11 rewrote the message.
        let name = message
            .strip_prefix("local variable '")?
            .strip_suffix("' referenced before assignment")?;
        return Some(format!(
            "cannot access local variable '{name}' where it is not associated with a value"
        ));
    }
    if class.is(errors.value_error) {
        // `a, b = [1, 2, 3]`: the count found came with 3.12.
        let (expected, got) = message
            .strip_prefix("too many values to unpack (expected ")?
            .strip_suffix(')')?
            .split_once(", got ")?;
        if expected.parse::<usize>().is_ok() && got.parse::<usize>().is_ok() {
            return Some(format!("too many values to unpack (expected {expected})"));
        }
        return None;
    }
    if class.is(errors.type_error) {
        // `raise 3`, `raise int`.
        if message
            .strip_prefix(
                "exceptions must be classes or instances deriving from BaseException, not ",
            )
            .is_some()
        {
            return Some("exceptions must derive from BaseException".to_owned());
        }
        // `class C(A, B)` whose bases' orders conflict: CPython's message breaks its line.
        if let Some(bases) =
            message.strip_prefix("Cannot create a consistent method resolution order (MRO) ")
        {
            return Some(format!(
                "Cannot create a consistent method resolution\norder (MRO) {bases}"
            ));
        }
        // `Shape()` with abstract methods left: CPython names them sorted, unquoted.
        let (name, methods) = message
            .strip_prefix("class ")?
            .split_once(" without an implementation for abstract method")?;
        let methods = methods.strip_prefix('s').unwrap_or(methods);
        let mut methods: Vec<&str> = methods
            .strip_prefix(" '")?
            .strip_suffix('\'')?
            .split("', '")
            .collect();
        methods.sort_unstable();
        let plural = if methods.len() > 1 { "s" } else { "" };
        return Some(format!(
            "Can't instantiate abstract class {name} with abstract method{plural} {}",
            methods.join(", ")
        ));
    }
    None
}

/// Rewords `e` in place when it is one of the interpreter's errors CPython words otherwise
/// (see [`interpreter_error_in_cpython_words`]). Called where actor code can see an exception:
/// first thing in every `except … as name:` handler (the instrumenter's `__rw__`), and when
/// one escapes a call.
pub(crate) fn reword_interpreter_error(
    e: &PyBaseExceptionRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    if let Some(message) = interpreter_error_in_cpython_words(e, vm) {
        e.as_object()
            .set_attr("args", vm.new_tuple((message,)), vm)?;
    }
    Ok(())
}

/// `__rw__(e)`: [`reword_interpreter_error`] for the exception an `except` clause bound.
pub(crate) fn reword_builtin(e: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
    match e.downcast::<rustpython_vm::builtins::PyBaseException>() {
        Ok(e) => reword_interpreter_error(&e, vm),
        Err(_) => Ok(()),
    }
}

/// `"%d" % "x"` and `"%(k)s %s" % {"k": 1}`: CPython's words for two `%`-format errors.
/// RustPython says "a number is required" where CPython 3.11 says "a real number is
/// required" (`%d`, `%i`, `%u`), and "format requires a mapping" for a positional conversion
/// after a mapping one, where CPython, whose arguments are then the mapping's value, has run
/// out of them.
pub(crate) fn percent_format_error(
    e: PyBaseExceptionRef,
    format: &PyObject,
    args: &PyObject,
    vm: &VirtualMachine,
) -> PyBaseExceptionRef {
    let is_text =
        |o: &PyObject| o.downcast_ref::<PyStr>().is_some() || o.downcast_ref::<PyBytes>().is_some();
    if !is_text(format) || !e.class().is(vm.ctx.exceptions.type_error) {
        return e;
    }
    let message = e
        .as_object()
        .str(vm)
        .map(|m| m.to_string())
        .unwrap_or_default();
    if let Some((spec, rest)) = message.split_once(" format: a number is required, not ")
        && matches!(spec, "%d" | "%i" | "%u")
    {
        return vm.new_type_error(format!(
            "{spec} format: a real number is required, not {rest}"
        ));
    }
    let mapping = args.downcast_ref::<PyTuple>().is_none()
        && !is_text(args)
        && args.mapping_unchecked().check();
    if message == "format requires a mapping" && mapping {
        return vm.new_type_error("not enough arguments for format string");
    }
    e
}

/// A type's `__new__` slot (RustPython's own alias is private).
type NewFunc = fn(PyTypeRef, FuncArgs, &VirtualMachine) -> PyResult;

static BYTES_NEW: OnceLock<NewFunc> = OnceLock::new();

/// `bytes([300])`: CPython's constructor says "bytes" (`bytearray`'s says "byte").
fn bytes_new(cls: PyTypeRef, args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let Some(original) = BYTES_NEW.get() else {
        return Err(vm.new_runtime_error("bytes constructor not installed"));
    };
    original(cls, args, vm).map_err(|e| {
        reword(
            e,
            vm.ctx.exceptions.value_error,
            "byte must be in range(0, 256)",
            "bytes must be in range(0, 256)",
            vm,
        )
    })
}

static INT_NEW: OnceLock<NewFunc> = OnceLock::new();

/// `int(s, 0)` of an invalid `s`: CPython names the base asked for (0), RustPython the base it
/// guessed.
fn int_new(cls: PyTypeRef, args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let Some(original) = INT_NEW.get() else {
        return Err(vm.new_runtime_error("int constructor not installed"));
    };
    let base_zero = args
        .args
        .get(1)
        .or_else(|| args.kwargs.get("base"))
        .and_then(|b| b.downcast_ref::<PyInt>())
        .is_some_and(|b| b.as_bigint().sign() == malachite_bigint::Sign::NoSign);
    original(cls, args, vm).map_err(|e| {
        if !base_zero || !e.class().is(vm.ctx.exceptions.value_error) {
            return e;
        }
        let Ok(message) = e.as_object().str(vm) else {
            return e;
        };
        match message.to_str().and_then(|m| {
            m.strip_prefix("invalid literal for int() with base ")
                .and_then(|rest| rest.split_once(": "))
        }) {
            Some((_, literal)) => {
                vm.new_value_error(format!("invalid literal for int() with base 0: {literal}"))
            }
            None => e,
        }
    })
}

/// The `int` and `bytes` constructors' errors.
fn install_constructors(vm: &VirtualMachine) {
    swap_slot!(vm.ctx.types.int_type.slots.new, INT_NEW, int_new as NewFunc);
    swap_slot!(
        vm.ctx.types.bytes_type.slots.new,
        BYTES_NEW,
        bytes_new as NewFunc
    );
}

static ISLICE_NEW: OnceLock<NewFunc> = OnceLock::new();

fn islice_new(cls: PyTypeRef, args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let Some(original) = ISLICE_NEW.get() else {
        return Err(vm.new_runtime_error("islice constructor not installed"));
    };
    // `islice(it, start, stop, step)`: CPython refuses a step below 1 (RustPython takes 0).
    if let Some(step) = args.args.get(3).and_then(|s| s.downcast_ref::<PyInt>())
        && step.as_bigint() < &1.into()
    {
        return Err(vm.new_value_error("Step for islice() must be a positive integer or None."));
    }
    original(cls, args, vm)
}

/// `itertools.islice(it, 0, 5, 0)`: CPython's ValueError, where RustPython iterated.
fn install_islice_new(vm: &VirtualMachine) -> PyResult<()> {
    let islice = vm.import("itertools", 0)?.get_attr("islice", vm)?;
    let Ok(islice) = islice.downcast::<PyType>() else {
        return Err(vm.new_runtime_error("itertools.islice is not a type"));
    };
    swap_slot!(islice.slots.new, ISLICE_NEW, islice_new as NewFunc);
    Ok(())
}

/// `dict(seq)`, `d.update(seq)` and `d |= seq` with an element that is not a pair: CPython
/// names the element (`dictionary update sequence element #0 has length 3; 2 is required`,
/// `cannot convert dictionary update sequence element #1 to a sequence`), RustPython does not
/// (`Iterator must have exactly two elements`, `'int' object is not iterable`). The pairs
/// before it are inserted in both. When `seq` is a list or tuple, its elements are looked at
/// again to find the one at fault, only as far as they can be without running actor code
/// (lists, tuples, strings, bytes, dicts, sets, and objects that cannot be iterated);
/// otherwise RustPython's words stay.
fn dict_sequence_error(
    e: PyBaseExceptionRef,
    source: Option<&PyObjectRef>,
    vm: &VirtualMachine,
) -> PyBaseExceptionRef {
    let errors = &vm.ctx.exceptions;
    let pair_error = is_error(
        &e,
        errors.value_error,
        "Iterator must have exactly two elements",
        vm,
    );
    let iter_error = e.class().is(errors.type_error)
        && e.as_object().str(vm).is_ok_and(|m| {
            m.to_str()
                .is_some_and(|m| m.ends_with(" object is not iterable"))
        });
    if !pair_error && !iter_error {
        return e;
    }
    let Some(source) = source else {
        return e;
    };
    let items: Vec<PyObjectRef> = if let Some(list) = source.downcast_ref::<PyList>() {
        list.borrow_vec().to_vec()
    } else if let Some(tuple) = source.downcast_ref::<PyTuple>() {
        tuple.as_slice().to_vec()
    } else {
        return e;
    };
    let types = &vm.ctx.types;
    for (i, item) in items.iter().enumerate() {
        // Exact types only: a subclass may iterate as it likes.
        let class = item.class();
        let len = if class.is(types.list_type) {
            item.downcast_ref::<PyList>().map(|l| l.borrow_vec().len())
        } else if class.is(types.tuple_type) {
            item.downcast_ref::<PyTuple>().map(|t| t.as_slice().len())
        } else if class.is(types.str_type) {
            item.downcast_ref::<PyStr>().map(|s| s.char_len())
        } else if class.is(types.bytes_type) {
            item.downcast_ref::<PyBytes>().map(|b| b.as_bytes().len())
        } else if class.is(types.dict_type) {
            item.downcast_ref::<PyDict>().map(|d| d.__len__())
        } else if class.is(types.set_type) || class.is(types.frozenset_type) {
            item.length(vm).ok()
        } else {
            if can_iterate(class, vm) {
                return e;
            }
            return vm.new_type_error(format!(
                "cannot convert dictionary update sequence element #{i} to a sequence"
            ));
        };
        let Some(len) = len else {
            return e;
        };
        if len != 2 {
            return vm.new_value_error(format!(
                "dictionary update sequence element #{i} has length {len}; 2 is required"
            ));
        }
    }
    e
}

static DICT_INIT: OnceLock<InitFunc> = OnceLock::new();
static DICT_INPLACE_OR: OnceLock<PyNumberBinaryFunc> = OnceLock::new();

fn dict_init(zelf: PyObjectRef, args: FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let Some(original) = DICT_INIT.get() else {
        return Err(vm.new_runtime_error("dict initialiser not installed"));
    };
    let source = args.args.first().cloned();
    original(zelf, args, vm).map_err(|e| dict_sequence_error(e, source.as_ref(), vm))
}

fn dict_inplace_or(a: &PyObject, b: &PyObject, vm: &VirtualMachine) -> PyResult {
    let Some(original) = DICT_INPLACE_OR.get() else {
        return Err(vm.new_runtime_error("dict |= not installed"));
    };
    original(a, b, vm).map_err(|e| dict_sequence_error(e, Some(&b.to_owned()), vm))
}

/// See [`dict_sequence_error`].
fn install_dict_sequence_errors(vm: &VirtualMachine) {
    let dict = vm.ctx.types.dict_type;
    swap_slot!(dict.slots.init, DICT_INIT, dict_init as InitFunc);
    swap_slot!(
        dict.slots.as_number.inplace_or,
        DICT_INPLACE_OR,
        dict_inplace_or as PyNumberBinaryFunc
    );
}

/// Whether instances of `class` can be iterated (`iter()` finds `__iter__`, or falls back to
/// `__getitem__`), decided from the class alone, without running its code.
fn can_iterate(class: &Py<PyType>, vm: &VirtualMachine) -> bool {
    class.has_attr(vm.ctx.intern_str("__iter__"))
        || class.has_attr(vm.ctx.intern_str("__getitem__"))
}

/// `x in obj` for a class without `__contains__`: CPython iterates `obj`, comparing each item
/// by identity, then equality (`PyObject_RichCompareBool`), and when `obj` cannot be iterated
/// says `argument of type 'Nothing' is not iterable`. RustPython's fallback compares by
/// equality only and words the error as `iter()` does. Filled into every type whose slot is
/// empty (see [`fill_contains_slot`]).
fn contains_by_iteration(
    seq: PySequence<'_>,
    target: &PyObject,
    vm: &VirtualMachine,
) -> PyResult<bool> {
    let obj = seq.obj;
    let class = obj.class();
    if !can_iterate(class, vm) {
        return Err(vm.new_type_error(format!(
            "argument of type '{}' is not iterable",
            class.name()
        )));
    }
    let iter = obj.to_owned().get_iter(vm)?;
    for item in iter.iter::<PyObjectRef>(vm)? {
        let item = item?;
        if vm.identical_or_equal(&item, target)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Gives `ty` [`contains_by_iteration`] when it has no `__contains__` of its own (built-in types
/// at start-up, classes as they are created).
pub(crate) fn fill_contains_slot(ty: &Py<PyType>) {
    let slot = &ty.slots.as_sequence.contains;
    if slot.load().is_none() {
        slot.store(Some(contains_by_iteration));
    }
}

/// `__mp__(subject, cls, n)` (see `instrument::MATCH_POSITIONAL`): CPython's check of a class
/// pattern's positional sub-patterns (`match_class` in `Python/ceval.c`), which names the class.
/// Returns False, for the real case to run, unless the check fails.
pub(crate) fn match_class_positional(
    subject: PyObjectRef,
    cls: PyObjectRef,
    n: usize,
    vm: &VirtualMachine,
) -> PyResult<bool> {
    let Some(ty) = cls.downcast_ref::<PyType>() else {
        return Ok(false);
    };
    if !subject.is_instance(&cls, vm)? {
        return Ok(false);
    }
    let allowed = match cls.get_attr("__match_args__", vm) {
        Ok(args) => {
            if !args.class().is(vm.ctx.types.tuple_type) {
                return Err(vm.new_type_error(format!(
                    "{}.__match_args__ must be a tuple (got {})",
                    ty.name(),
                    args.class().name()
                )));
            }
            args.length(vm)?
        }
        Err(e) if e.fast_isinstance(vm.ctx.exceptions.attribute_error) => {
            // The types that match themselves (`_Py_TPFLAGS_MATCH_SELF`), and their subclasses.
            let types = &vm.ctx.types;
            let match_self = [
                types.bool_type,
                types.bytearray_type,
                types.bytes_type,
                types.dict_type,
                types.float_type,
                types.frozenset_type,
                types.int_type,
                types.list_type,
                types.set_type,
                types.str_type,
                types.tuple_type,
            ]
            .iter()
            .any(|t| ty.fast_issubclass(*t));
            usize::from(match_self)
        }
        Err(e) => return Err(e),
    };
    if n > allowed {
        let plural = if allowed == 1 { "" } else { "s" };
        return Err(vm.new_type_error(format!(
            "{}() accepts {allowed} positional sub-pattern{plural} ({n} given)",
            ty.name()
        )));
    }
    Ok(false)
}
