//! What Python code can touch: the builtins of library and actor code, the metering builtins
//! the instrumenter calls, the checked arithmetic that bounds integers and sequences, and the
//! run-time half of the sandbox (guarded `getattr` & co., guarded `str.format`).
//!
//! Actor code runs with its own builtins dict, built once per interpreter from the real one:
//! forbidden builtins removed (`eval`, `open`, `id`, …), introspection guarded, `print`
//! captured. It is unreachable from actor code (`__builtins__` cannot be named), so it cannot be
//! modified to switch metering off.

use crate::{
    cost::{self, cycles, limits},
    fast_builtin::{self, Fast},
    fidelity,
    instrument::{CHARGE, CHARGE_CHARS, METERED_ITER},
    natives, patches,
    validate::{ALLOWED_DUNDER_ATTRIBUTES, FORBIDDEN_BUILTINS, INTROSPECTION_ATTRIBUTES},
};
use malachite_bigint::{BigInt, Sign};
use num_traits::{Signed, ToPrimitive, Zero};
use rustpython_vm::{
    AsObject, Py, PyObjectRef, PyResult, VirtualMachine,
    builtins::{
        PyBaseExceptionRef, PyByteArray, PyBytes, PyDictRef, PyFloat, PyInt, PyList, PyModule,
        PyStr, PyTuple, PyType, PyUtf8StrRef,
    },
    convert::TryFromObject,
    function::{FuncArgs, OptionalArg},
};
use std::cell::RefCell;

pub use crate::instrument::ops;

/// Longest format width or precision accepted (`'%1000000000d' % 1` would allocate 1 GB).
pub const MAX_FORMAT_WIDTH: usize = 100_000;

thread_local! {
    static ACTOR_BUILTINS: RefCell<Option<PyDictRef>> = const { RefCell::new(None) };
    static STORAGE_OBJECT: RefCell<Option<PyObjectRef>> = const { RefCell::new(None) };
}

// ---- metering builtins ----------------------------------------------------------------------

/// `__m__(n)` (`n` converted as a typed `u64` parameter is).
fn m_charge(n: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    natives::charge(u64::try_from_object(vm, n)?, vm)?;
    Ok(vm.ctx.new_bool(true).into())
}

fn m_charge_chars(s: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let n = s.downcast_ref::<PyStr>().map_or(0, |s| s.char_len());
    natives::charge(n as u64 * cycles::PER_CHAR, vm)?;
    Ok(s)
}

fn m_pass(x: PyObjectRef, n: u64, vm: &VirtualMachine) -> PyResult {
    natives::charge(n, vm)?;
    Ok(x)
}

// ---- checked arithmetic ---------------------------------------------------------------------

fn overflow(vm: &VirtualMachine) -> PyBaseExceptionRef {
    vm.new_overflow_error(format!(
        "integer result exceeds the PVM limit of {} bits",
        limits::INT_BITS
    ))
}

fn too_big(what: &str, vm: &VirtualMachine) -> PyBaseExceptionRef {
    vm.new_memory_error(format!(
        "{what} would exceed the per-call memory limit of {} MiB",
        limits::MEMORY_BYTES / (1024 * 1024)
    ))
}

fn exact_int<'a>(o: &'a PyObjectRef, vm: &VirtualMachine) -> Option<&'a BigInt> {
    o.downcast_ref_if_exact::<PyInt>(vm).map(|i| i.as_bigint())
}

fn check_int(r: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let Some(i) = r.downcast_ref::<PyInt>()
        && i.as_bigint().bits() > limits::INT_BITS
    {
        return Err(overflow(vm));
    }
    Ok(r)
}

/// Cycles for the length of a sequence result (strings per character, containers per element).
fn result_len(r: &PyObjectRef) -> usize {
    if let Some(s) = r.downcast_ref::<PyStr>() {
        s.char_len()
    } else if let Some(b) = r.downcast_ref::<PyBytes>() {
        b.as_bytes().len()
    } else if let Some(b) = r.downcast_ref::<PyByteArray>() {
        b.borrow_buf().len()
    } else if let Some(l) = r.downcast_ref::<PyList>() {
        l.borrow_vec().len()
    } else if let Some(t) = r.downcast_ref::<PyTuple>() {
        t.len()
    } else {
        0
    }
}

fn charge_result(r: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let n = result_len(&r);
    if n > 0 {
        natives::charge(n as u64 * cycles::PER_CHAR, vm)?;
    }
    check_int(r, vm)
}

fn bigint_surcharge(a: &BigInt, b: &BigInt, vm: &VirtualMachine) -> PyResult<()> {
    let bits = a.bits().max(b.bits());
    if bits > 64 {
        natives::charge(cost::bigint_surcharge(bits), vm)?;
    }
    Ok(())
}

fn int_add_sub(a: &BigInt, b: &BigInt, sub: bool, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (a.to_i64(), b.to_i64()) {
        let r = if sub {
            x.checked_sub(y)
        } else {
            x.checked_add(y)
        };
        if let Some(r) = r {
            return Ok(vm.ctx.new_int(r).into());
        }
    }
    bigint_surcharge(a, b, vm)?;
    let r = if sub { a - b } else { a + b };
    if r.bits() > limits::INT_BITS {
        return Err(overflow(vm));
    }
    Ok(vm.ctx.new_bigint(&r).into())
}

/// `a + b` with the PVM's checks (integer limit, sequence sizes checked and charged).
pub fn checked_add(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    op_add(a, b, vm)
}

fn op_add(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm)) {
        return int_add_sub(x, y, false, vm);
    }
    precheck_concat(&a, &b, vm)?;
    charge_result(vm._add(&a, &b)?, vm)
}

fn op_iadd(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm)) {
        return int_add_sub(x, y, false, vm);
    }
    precheck_concat(&a, &b, vm)?;
    charge_result(vm._iadd(&a, &b)?, vm)
}

fn op_sub(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm)) {
        return int_add_sub(x, y, true, vm);
    }
    charge_result(vm._sub(&a, &b)?, vm)
}

fn op_isub(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm)) {
        return int_add_sub(x, y, true, vm);
    }
    charge_result(vm._isub(&a, &b)?, vm)
}

/// Bytes one element of a sequence result occupies, for the up-front size check.
fn unit_size(o: &PyObjectRef) -> Option<(usize, usize)> {
    if let Some(s) = o.downcast_ref::<PyStr>() {
        Some((s.char_len(), 1))
    } else if let Some(b) = o.downcast_ref::<PyBytes>() {
        Some((b.as_bytes().len(), 1))
    } else if let Some(b) = o.downcast_ref::<PyByteArray>() {
        Some((b.borrow_buf().len(), 1))
    } else if let Some(l) = o.downcast_ref::<PyList>() {
        Some((l.borrow_vec().len(), 8))
    } else {
        o.downcast_ref::<PyTuple>().map(|t| (t.len(), 8))
    }
}

/// A `collections.deque`'s length and the bytes per element of a repetition of it.
fn deque_size(o: &PyObjectRef, vm: &VirtualMachine) -> Option<(usize, usize)> {
    let named_deque = |c: &Py<PyType>| &*c.slot_name() == "collections.deque";
    let is_deque = named_deque(o.class()) || o.class().mro.read().iter().any(|c| named_deque(c));
    if !is_deque {
        return None;
    }
    o.length(vm).ok().map(|n| (n.max(1), 8))
}

fn precheck_concat(a: &PyObjectRef, b: &PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
    if let (Some((la, ua)), Some((lb, _))) = (unit_size(a), unit_size(b))
        && (la + lb).saturating_mul(ua) > limits::MEMORY_BYTES
    {
        return Err(too_big("this concatenation", vm));
    }
    Ok(())
}

pub(crate) fn precheck_repeat(
    seq: &PyObjectRef,
    count: &PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<bool> {
    let size = unit_size(seq).or_else(|| deque_size(seq, vm));
    let (Some((len, unit)), Some(n)) = (size, count.downcast_ref::<PyInt>()) else {
        return Ok(false);
    };
    let n = n.as_bigint();
    if n.sign() != Sign::Plus || len == 0 {
        return Ok(true);
    }
    let times = n.to_usize().unwrap_or(usize::MAX);
    if len.saturating_mul(times).saturating_mul(unit) > limits::MEMORY_BYTES {
        return Err(too_big("this repetition", vm));
    }
    Ok(true)
}

fn int_mul(x: &BigInt, y: &BigInt, vm: &VirtualMachine) -> PyResult {
    if let (Some(p), Some(q)) = (x.to_i64(), y.to_i64())
        && let Some(r) = p.checked_mul(q)
    {
        return Ok(vm.ctx.new_int(r).into());
    }
    if !x.is_zero() && !y.is_zero() && x.bits() + y.bits() - 1 > limits::INT_BITS {
        return Err(overflow(vm));
    }
    bigint_surcharge(x, y, vm)?;
    let r = x * y;
    if r.bits() > limits::INT_BITS {
        return Err(overflow(vm));
    }
    Ok(vm.ctx.new_bigint(&r).into())
}

fn op_mul(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm)) {
        return int_mul(x, y, vm);
    }
    if !precheck_repeat(&a, &b, vm)? {
        precheck_repeat(&b, &a, vm)?;
    }
    let product = vm
        ._mul(&a, &b)
        .map_err(|e| fidelity::repeat_error(e, &a, &b, vm))?;
    charge_result(product, vm)
}

fn op_imul(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm)) {
        return int_mul(x, y, vm);
    }
    if !precheck_repeat(&a, &b, vm)? {
        precheck_repeat(&b, &a, vm)?;
    }
    let product = vm
        ._imul(&a, &b)
        .map_err(|e| fidelity::repeat_error(e, &a, &b, vm))?;
    charge_result(product, vm)
}

fn as_f64(o: &PyObjectRef) -> Option<f64> {
    if let Some(f) = o.downcast_ref::<PyFloat>() {
        Some(f.to_f64())
    } else {
        o.downcast_ref::<PyInt>()
            .and_then(|i| i.as_bigint().to_f64())
    }
}

fn pow_impl(
    a: PyObjectRef,
    b: PyObjectRef,
    m: Option<PyObjectRef>,
    vm: &VirtualMachine,
) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm)) {
        if m.is_none() && y.sign() != Sign::Minus {
            let mag = x.abs();
            let e = y.to_u64().unwrap_or(u64::MAX);
            if mag.bits() > 1 && (mag.bits() - 1).saturating_mul(e) >= limits::INT_BITS {
                return Err(overflow(vm));
            }
            // Square-and-multiply: ~log2(e) big multiplications of the growing result, each
            // quadratic in its 64-bit words.
            let steps = 64 - e.leading_zeros() as u64;
            let words = mag
                .bits()
                .saturating_mul(e)
                .min(limits::INT_BITS)
                .div_ceil(64);
            natives::charge(
                steps * (cost::bigint_surcharge(words * 64) + words * words / 16),
                vm,
            )?;
            return check_int(vm._pow(&a, &b, vm.ctx.none.as_object())?, vm);
        }
        if let Some(m) = &m
            && let Some(modulus) = exact_int(m, vm)
        {
            bigint_surcharge(x, modulus, vm)?;
            // Square-and-multiply: bits(e) steps, each a product of modulus-sized numbers.
            let words = modulus.bits().div_ceil(64).max(1);
            natives::charge(y.bits().saturating_mul(words * words) / 16, vm)?;
        }
    }
    let float_operands = a.downcast_ref_if_exact::<PyFloat>(vm).is_some()
        || b.downcast_ref_if_exact::<PyFloat>(vm).is_some()
        || exact_int(&b, vm).is_some_and(|y| y.sign() == Sign::Minus);
    if m.is_none()
        && float_operands
        && let (Some(x), Some(y)) = (as_f64(&a), as_f64(&b))
    {
        // Deterministic float power on the pure-Rust libm (never the host's).
        if x == 0.0 && y < 0.0 {
            return Err(vm.new_zero_division_error("0.0 cannot be raised to a negative power"));
        }
        if x < 0.0 && y.fract() != 0.0 {
            // CPython returns a complex number here, which the PVM does not have.
            return Err(vm.new_value_error(
                "negative number cannot be raised to a fractional power: CPython's result is \
                 a complex number, and complex numbers are not available in the PVM \
                 (rule: complex-number)",
            ));
        }
        let r = natives::float_pow(x, y);
        if r.is_infinite() && x.is_finite() && y.is_finite() {
            return Err(vm.new_overflow_error("(34, 'Numerical result out of range')"));
        }
        return Ok(vm.ctx.new_float(r).into());
    }
    let m = m.unwrap_or_else(|| vm.ctx.none());
    check_int(vm._pow(&a, &b, &m)?, vm)
}

fn op_pow(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    pow_impl(a, b, None, vm)
}

fn builtin_pow(
    a: PyObjectRef,
    b: PyObjectRef,
    m: OptionalArg<PyObjectRef>,
    vm: &VirtualMachine,
) -> PyResult {
    pow_impl(a, b, m.into_option().filter(|m| !vm.is_none(m)), vm)
}

fn op_lshift(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm))
        && !x.is_zero()
        && y.sign() == Sign::Plus
        && x.bits().saturating_add(y.to_u64().unwrap_or(u64::MAX)) > limits::INT_BITS
    {
        return Err(overflow(vm));
    }
    check_int(vm._lshift(&a, &b)?, vm)
}

fn op_ilshift(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    op_lshift(a, b, vm)
}

fn op_ipow(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    pow_impl(a, b, None, vm)
}

/// Checks a `%`-format string for widths and precisions that would allocate huge results.
fn check_percent_format(fmt: &str, vm: &VirtualMachine) -> PyResult<()> {
    let b = fmt.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if i < b.len() && b[i] == b'(' {
            while i < b.len() && b[i] != b')' {
                i += 1;
            }
            i += 1;
        }
        while i < b.len() && b"-+ #0".contains(&b[i]) {
            i += 1;
        }
        let number = |i: &mut usize| -> PyResult<()> {
            if *i < b.len() && b[*i] == b'*' {
                return Err(vm.new_value_error(
                    "a '*' width or precision takes its number from an argument tuple; with a \
                     mapping or a single argument, write the width into the format, or use \
                     format(x, f'>{width}') (rule: format-star-width)",
                ));
            }
            let start = *i;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
            if *i - start > 6
                || (start < *i
                    && fmt[start..*i].parse::<usize>().unwrap_or(usize::MAX) > MAX_FORMAT_WIDTH)
            {
                return Err(vm.new_value_error(format!(
                    "format width or precision above {MAX_FORMAT_WIDTH}"
                )));
            }
            Ok(())
        };
        number(&mut i)?;
        if i < b.len() && b[i] == b'.' {
            i += 1;
            number(&mut i)?;
        }
        i += 1;
    }
    Ok(())
}

/// `'%*d' % (6, 42)`: CPython takes a `*` width or precision from the argument tuple, which
/// RustPython does not. Returns the format with those numbers written in (a negative width as
/// the `-` flag, a negative precision as 0) and the arguments without them, or `None` when
/// there is nothing to expand or a conversion names a mapping key (whose `*` CPython takes from
/// the mapping: refused by `check_percent_format`).
fn expand_star_widths(
    fmt: &[u8],
    args: &PyTuple,
    vm: &VirtualMachine,
) -> PyResult<Option<(Vec<u8>, Vec<PyObjectRef>)>> {
    let args = args.as_slice();
    let mut out = Vec::with_capacity(fmt.len());
    let mut rest = Vec::with_capacity(args.len());
    let mut next = 0;
    let mut expanded = false;
    let mut i = 0;
    let take_number = |next: &mut usize| -> PyResult<isize> {
        let Some(value) = args.get(*next) else {
            return Err(vm.new_type_error("not enough arguments for format string"));
        };
        *next += 1;
        let Some(n) = value.downcast_ref::<PyInt>() else {
            return Err(vm.new_type_error("* wants int"));
        };
        n.as_bigint()
            .to_isize()
            .ok_or_else(|| vm.new_overflow_error("Python int too large to convert to C ssize_t"))
    };
    while i < fmt.len() {
        out.push(fmt[i]);
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if fmt.get(i) == Some(&b'(') {
            return Ok(None);
        }
        let flags_start = out.len();
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            out.push(fmt[i]);
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            expanded = true;
            let width = take_number(&mut next)?;
            if width < 0 {
                out.insert(flags_start, b'-');
            }
            out.extend_from_slice(width.unsigned_abs().to_string().as_bytes());
        }
        while i < fmt.len() && fmt[i].is_ascii_digit() {
            out.push(fmt[i]);
            i += 1;
        }
        if fmt.get(i) == Some(&b'.') {
            out.push(b'.');
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                expanded = true;
                let precision = take_number(&mut next)?.max(0);
                out.extend_from_slice(precision.to_string().as_bytes());
            }
        }
        while i < fmt.len() && (fmt[i].is_ascii_digit() || b"hlL".contains(&fmt[i])) {
            out.push(fmt[i]);
            i += 1;
        }
        match fmt.get(i) {
            Some(&b'%') => {
                out.push(b'%');
                i += 1;
            }
            Some(&c) => {
                out.push(c);
                i += 1;
                if let Some(arg) = args.get(next) {
                    rest.push(arg.clone());
                    next += 1;
                }
            }
            None => {}
        }
    }
    if !expanded {
        return Ok(None);
    }
    rest.extend(args.iter().skip(next).cloned());
    Ok(Some((out, rest)))
}

fn op_mod(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    if let (Some(x), Some(y)) = (exact_int(&a, vm), exact_int(&b, vm)) {
        bigint_surcharge(x, y, vm)?;
        return vm._mod(&a, &b);
    }
    if let Some(args) = b.downcast_ref::<PyTuple>() {
        let text = a.downcast_ref::<PyStr>();
        let format = match text {
            Some(s) => s.to_str().map(str::as_bytes),
            None => a.downcast_ref::<PyBytes>().map(|s| s.as_bytes()),
        };
        if let Some(format) = format.filter(|f| f.contains(&b'*'))
            && let Some((format, rest)) = expand_star_widths(format, args, vm)?
        {
            let format: PyObjectRef = if text.is_some() {
                let format = String::from_utf8(format)
                    .map_err(|_| vm.new_runtime_error("format rewrite broke UTF-8"))?;
                vm.ctx.new_str(format).into()
            } else {
                vm.ctx.new_bytes(format).into()
            };
            return op_mod(format, vm.ctx.new_tuple(rest).into(), vm);
        }
    }
    if let Some(s) = a.downcast_ref::<PyStr>() {
        check_percent_format(s.to_str().unwrap_or(""), vm)?;
    } else if let Some(s) = a.downcast_ref::<PyBytes>() {
        check_percent_format(&String::from_utf8_lossy(s.as_bytes()), vm)?;
    }
    let formatted = vm
        ._mod(&a, &b)
        .map_err(|e| fidelity::percent_format_error(e, &a, &b, vm))?;
    charge_result(formatted, vm)
}

fn op_imod(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    op_mod(a, b, vm)
}

/// The checked in-place operator named `op` (one of `ops::ALL`'s in-place names).
fn checked_inplace(op: &str, a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    match op {
        ops::IADD => op_iadd(a, b, vm),
        ops::ISUB => op_isub(a, b, vm),
        ops::IMUL => op_imul(a, b, vm),
        ops::IPOW => op_ipow(a, b, vm),
        ops::ILSHIFT => op_ilshift(a, b, vm),
        ops::IMOD => op_imod(a, b, vm),
        other => Err(vm.new_runtime_error(format!("unknown in-place operator {other}"))),
    }
}

/// `__augi__(container, key, op, value)`: `container[key] op= value`, target evaluated once.
fn augmented_item(
    container: PyObjectRef,
    key: PyObjectRef,
    op: PyUtf8StrRef,
    value: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let current = container.get_item(&*key, vm)?;
    let result = checked_inplace(op.as_str(), current, value, vm)?;
    container.set_item(&*key, result, vm)
}

/// `__auga__(obj, name, op, value)`: `obj.name op= value`, target evaluated once.
fn augmented_attribute(
    obj: PyObjectRef,
    name: PyUtf8StrRef,
    op: PyUtf8StrRef,
    value: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    check_attribute(&obj, &name, vm)?;
    let current = obj.get_attr(&name, vm)?;
    crate::library_objects::check_private_read(&obj, name.as_str(), &current, vm)?;
    let result = checked_inplace(op.as_str(), current, value, vm)?;
    obj.set_attr(&name, result, vm)
}

/// `round(x, ndigits)` for floats, correctly rounded (half to even on the exact binary
/// value, as CPython does): format the exact decimal expansion and round the digits.
fn round_float(x: f64, ndigits: i64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    if ndigits > 400 {
        return x;
    }
    if ndigits < -400 {
        return 0.0f64.copysign(x);
    }
    // The exact expansion: every finite double has at most 1074 fractional digits.
    let exact = format!("{:.1074}", x.abs());
    let (int_part, frac_part) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut digits: Vec<u8> = int_part
        .bytes()
        .chain(frac_part.bytes())
        .map(|b| b - b'0')
        .collect();
    let point = int_part.len() as i64; // digits before the decimal point
    let keep = point + ndigits; // number of leading digits kept
    if keep < 0 {
        return 0.0f64.copysign(x);
    }
    let keep = keep as usize;
    if keep >= digits.len() {
        return x;
    }
    let first_dropped = digits[keep];
    let rest_nonzero = digits[keep + 1..].iter().any(|&d| d != 0);
    let last_kept_odd = keep > 0 && digits[keep - 1] % 2 == 1;
    let round_up = first_dropped > 5 || (first_dropped == 5 && (rest_nonzero || last_kept_odd));
    digits.truncate(keep);
    if round_up {
        let mut i = keep;
        loop {
            if i == 0 {
                digits.insert(0, 1);
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let grew = digits.len() > keep;
    let int_len = (point + if grew { 1 } else { 0 }) as usize;
    let mut text = String::new();
    for (i, d) in digits.iter().enumerate() {
        if i == int_len {
            text.push('.');
        }
        text.push((b'0' + d) as char);
    }
    // Digits dropped before the point become zeros.
    while text.len() < int_len {
        text.push('0');
    }
    if text.is_empty() {
        text.push('0');
    }
    let v: f64 = text.parse().unwrap_or(0.0);
    v.copysign(x)
}

fn builtin_round(
    x: PyObjectRef,
    ndigits: OptionalArg<PyObjectRef>,
    vm: &VirtualMachine,
) -> PyResult {
    let ndigits = ndigits.into_option().filter(|n| !vm.is_none(n));
    if exact_int(&x, vm).is_some()
        && ndigits
            .as_ref()
            .is_some_and(crate::sizes::round_int_far_left)
    {
        return Ok(vm.ctx.new_int(0).into());
    }
    if let (Some(f), Some(n)) = (x.downcast_ref_if_exact::<PyFloat>(vm), &ndigits) {
        let n = n.try_index(vm)?;
        let n = n
            .as_bigint()
            .to_i64()
            .unwrap_or(if n.as_bigint().sign() == Sign::Minus {
                i64::MIN
            } else {
                i64::MAX
            });
        return Ok(vm.ctx.new_float(round_float(f.to_f64(), n)).into());
    }
    let args: Vec<PyObjectRef> = match ndigits {
        Some(n) => vec![n],
        None => vec![],
    };
    vm.call_method(&x, "__round__", args)
}

// ---- library builtins -----------------------------------------------------------------------

fn set_builtin<F, K>(
    dict: &PyDictRef,
    name: &'static str,
    f: F,
    vm: &VirtualMachine,
) -> PyResult<()>
where
    F: rustpython_vm::function::IntoPyNativeFn<K>,
{
    dict.set_item(name, vm.new_function(name, f).into(), vm)
}

fn sorted_metered(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let original = vm.builtins.get_attr("__cowboy_sorted", vm)?;
    let result = original.call(args, vm)?;
    if let Some(l) = result.downcast_ref::<PyList>() {
        patches::charge_sort(l.borrow_vec().len(), vm)?;
    }
    Ok(result)
}

/// Installs the metering and checked-arithmetic builtins into the interpreter's builtins
/// (what library code sees), and the import hook.
pub fn install_library_builtins(vm: &VirtualMachine) -> PyResult<()> {
    let b = vm.builtins.dict();
    set_builtin(&b, "__import__", crate::library::import_hook, vm)?;
    // The builtins the instrumenter calls on every block and operator (`fast_builtin`).
    fast_builtin::init();
    crate::charge_constant::init();
    fast_builtin::set(&b, CHARGE, Fast::One(m_charge), vm)?;
    fast_builtin::set(&b, CHARGE_CHARS, Fast::One(m_charge_chars), vm)?;
    set_builtin(&b, crate::instrument::REWORD, fidelity::reword_builtin, vm)?;
    set_builtin(
        &b,
        crate::instrument::MATCH_POSITIONAL,
        fidelity::match_class_positional,
        vm,
    )?;
    set_builtin(&b, "__cowboy_pass", m_pass, vm)?;
    type Op = fn(PyObjectRef, PyObjectRef, &VirtualMachine) -> PyResult;
    let checked: [(&'static str, Op); 12] = [
        (ops::ADD, op_add),
        (ops::SUB, op_sub),
        (ops::MUL, op_mul),
        (ops::POW, op_pow),
        (ops::LSHIFT, op_lshift),
        (ops::MOD, op_mod),
        (ops::IADD, op_iadd),
        (ops::ISUB, op_isub),
        (ops::IMUL, op_imul),
        (ops::IPOW, op_ipow),
        (ops::ILSHIFT, op_ilshift),
        (ops::IMOD, op_imod),
    ];
    let op = |name: &str| {
        checked
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, op)| *op)
            .ok_or_else(|| vm.new_runtime_error(format!("no checked operator {name}")))
    };
    // Each operator holds the fused builtins it is the outer operator of: they are bound into
    // code (`bound_helpers`), never in a builtins dict, whose size code can see.
    for (name, outer) in checked {
        let fused = ops::fused()
            .filter(|f| f.outer == name)
            .map(|f| {
                let inner = op(f.inner)?;
                Ok((f.name, Fast::Fused { outer, inner }))
            })
            .collect::<PyResult<Vec<_>>>()?;
        fast_builtin::set_with_fused(&b, name, Fast::Two(outer), &fused, vm)?;
    }
    set_builtin(&b, crate::instrument::AUGMENTED_ITEM, augmented_item, vm)?;
    set_builtin(
        &b,
        crate::instrument::AUGMENTED_ATTRIBUTE,
        augmented_attribute,
        vm,
    )?;
    set_builtin(&b, "pow", builtin_pow, vm)?;
    crate::sizes::install(vm)?;
    // Identities are serial numbers, never addresses (`identity`).
    set_builtin(&b, "id", crate::identity::id, vm)?;
    set_builtin(
        &b,
        crate::instrument::PRIVATE_ATTRIBUTE,
        crate::library_objects::private_attribute,
        vm,
    )?;
    set_builtin(&b, "round", builtin_round, vm)?;
    set_builtin(
        &b,
        crate::instrument::imports::IMPORT,
        crate::library::actor_import_builtin,
        vm,
    )?;
    set_builtin(
        &b,
        crate::instrument::imports::IMPORT_FROM,
        crate::library::actor_import_from,
        vm,
    )?;
    set_builtin(
        &b,
        crate::instrument::imports::IMPORT_STAR,
        crate::library::actor_import_star,
        vm,
    )?;
    let sorted = b.get_item("sorted", vm)?;
    b.set_item("__cowboy_sorted", sorted, vm)?;
    set_builtin(&b, "sorted", sorted_metered, vm)?;
    // `__mi__(iterable, n)`: per-element charges for comprehensions and loops.
    crate::metered_iter::init(vm);
    fast_builtin::set(
        &b,
        METERED_ITER,
        Fast::Two(crate::metered_iter::metered_iter),
        vm,
    )?;
    // Library code builds code at run time (dataclasses, namedtuple, string annotations):
    // compiled with the metering instrumenter, and under the actor's rules while a call runs.
    let compile = b.get_item("compile", vm)?;
    b.set_item(crate::dynamic::ORIGINAL_COMPILE, compile, vm)?;
    set_builtin(&b, "compile", crate::dynamic::compile, vm)?;
    set_builtin(&b, "eval", crate::dynamic::eval, vm)?;
    set_builtin(&b, "exec", crate::dynamic::exec, vm)?;
    crate::dynamic::guard_function_constructor(vm);
    Ok(())
}

// ---- actor builtins -------------------------------------------------------------------------

fn attribute_refused(name: &str) -> Option<String> {
    let dunder = name.len() > 4 && name.starts_with("__") && name.ends_with("__");
    if dunder && !ALLOWED_DUNDER_ATTRIBUTES.contains(&name) {
        Some(format!("attribute '{name}' is not accessible to actors"))
    } else if INTROSPECTION_ATTRIBUTES.contains(&name) {
        Some(format!("attribute '{name}' exposes frames or code objects"))
    } else {
        None
    }
}

fn check_attribute(obj: &PyObjectRef, name: &PyUtf8StrRef, vm: &VirtualMachine) -> PyResult<()> {
    let n = name.as_str();
    if let Some(msg) = attribute_refused(n) {
        return Err(vm.new_attribute_error(msg));
    }
    if n.starts_with('_') && obj.downcast_ref::<PyModule>().is_some() {
        return Err(
            vm.new_attribute_error(format!("module-private attribute '{n}' is not accessible"))
        );
    }
    Ok(())
}

fn guarded_getattr(
    obj: PyObjectRef,
    name: PyUtf8StrRef,
    default: OptionalArg<PyObjectRef>,
    vm: &VirtualMachine,
) -> PyResult {
    check_attribute(&obj, &name, vm)?;
    match obj.get_attr(&name, vm) {
        Ok(v) => {
            crate::library_objects::check_private_read(&obj, name.as_str(), &v, vm)?;
            Ok(v)
        }
        Err(e) if e.fast_isinstance(vm.ctx.exceptions.attribute_error) => match default {
            OptionalArg::Present(d) => Ok(d),
            OptionalArg::Missing => Err(e),
        },
        Err(e) => Err(e),
    }
}

fn guarded_hasattr(obj: PyObjectRef, name: PyUtf8StrRef, vm: &VirtualMachine) -> PyResult<bool> {
    if attribute_refused(name.as_str()).is_some() {
        return Ok(false);
    }
    Ok(guarded_getattr(obj, name, OptionalArg::Missing, vm).is_ok())
}

fn guarded_setattr(
    obj: PyObjectRef,
    name: PyUtf8StrRef,
    value: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    check_attribute(&obj, &name, vm)?;
    obj.set_attr(&name, value, vm)
}

fn guarded_delattr(obj: PyObjectRef, name: PyUtf8StrRef, vm: &VirtualMachine) -> PyResult<()> {
    check_attribute(&obj, &name, vm)?;
    obj.del_attr(&name, vm)
}

fn actor_print(args: FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let sep = args
        .kwargs
        .get("sep")
        .and_then(|s| {
            s.downcast_ref::<PyStr>()
                .and_then(|s| s.to_str().map(str::to_owned))
        })
        .unwrap_or_else(|| " ".into());
    let mut parts = Vec::with_capacity(args.args.len());
    for a in &args.args {
        parts.push(a.str(vm)?.to_string());
    }
    let text = parts.join(&sep);
    natives::log(&text, vm)
}

/// Checks `str.format` field names: no attribute access to names starting with `_`
/// (`"{0.__class__}".format(x)` would otherwise walk the object graph past the sandbox).
fn check_format_fields(fmt: &str, vm: &VirtualMachine) -> PyResult<()> {
    let mut rest = fmt;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if rest.starts_with('{') {
            rest = &rest[1..];
            continue;
        }
        let end = rest.find(['}', '!', ':']).unwrap_or(rest.len());
        let field = &rest[..end];
        for part in field.split(['.', '[']).skip(1) {
            if part.starts_with('_') {
                return Err(
                    vm.new_value_error("format fields may not access attributes starting with '_'")
                );
            }
        }
        let spec_end = rest.find('}').unwrap_or(rest.len());
        if let Some(colon) = rest[..spec_end].find(':') {
            check_format_spec(&rest[colon + 1..spec_end], vm)?;
        }
        rest = &rest[spec_end.min(rest.len())..];
    }
    Ok(())
}

/// Rejects format specs whose width or precision would allocate huge strings.
pub fn check_format_spec(spec: &str, vm: &VirtualMachine) -> PyResult<()> {
    for run in spec.split(|c: char| !c.is_ascii_digit()) {
        if run.is_empty() {
            continue;
        }
        // CPython's own limit (a width must fit a Py_ssize_t) comes first, with its message.
        if run.trim_start_matches('0').len() > 18 && run.parse::<i64>().is_err() {
            return Err(vm.new_value_error("Too many decimal digits in format string"));
        }
        if run.parse::<usize>().unwrap_or(usize::MAX) > MAX_FORMAT_WIDTH {
            return Err(vm.new_value_error(format!(
                "format width or precision above {MAX_FORMAT_WIDTH}"
            )));
        }
    }
    Ok(())
}

fn guarded_format(
    value: PyObjectRef,
    spec: OptionalArg<PyUtf8StrRef>,
    vm: &VirtualMachine,
) -> PyResult {
    let spec = spec.into_option();
    if let Some(s) = &spec {
        check_format_spec(s.as_str(), vm)?;
    }
    let spec: PyObjectRef = spec
        .map(Into::into)
        .unwrap_or_else(|| vm.ctx.new_str("").into());
    let r = vm.call_method(&value, "__format__", (spec,))?;
    charge_result(r, vm)
}

/// Builds the actor builtins dict: the library builtins minus everything forbidden, with
/// introspection guarded and `print` captured. Also guards `str.format`.
pub fn install_actor_builtins(vm: &VirtualMachine) -> PyResult<()> {
    let real = vm.builtins.dict();
    let dict = vm.ctx.new_dict();
    for (k, v) in &real {
        let Some(name) = k
            .downcast_ref::<PyStr>()
            .and_then(|s| s.to_str().map(str::to_owned))
        else {
            continue;
        };
        let dunder = name.starts_with("__") && name.ends_with("__");
        let keep = !FORBIDDEN_BUILTINS.iter().any(|(f, _)| *f == name)
            && !name.starts_with("__cowboy")
            && (!dunder
                || name == "__build_class__"
                || name == CHARGE
                || name == CHARGE_CHARS
                || name == METERED_ITER
                || crate::instrument::is_reserved(&name));
        if keep {
            dict.set_item(name.as_str(), v, vm)?;
        }
    }
    set_builtin(&dict, "getattr", guarded_getattr, vm)?;
    set_builtin(&dict, "hasattr", guarded_hasattr, vm)?;
    set_builtin(&dict, "setattr", guarded_setattr, vm)?;
    set_builtin(&dict, "delattr", guarded_delattr, vm)?;
    set_builtin(&dict, "hash", crate::identity::hash, vm)?;
    set_builtin(&dict, "print", actor_print, vm)?;
    set_builtin(&dict, "format", guarded_format, vm)?;
    dict.set_item("__name__", vm.ctx.new_str("builtins").into(), vm)?;

    // str.format / format_map: guard field names and widths (once per thread: see
    // `patches::first_on_this_thread`).
    let str_type = vm.ctx.types.str_type;
    let methods: &[&str] = if patches::first_on_this_thread("sandbox::str_format") {
        &["format", "format_map"]
    } else {
        &[]
    };
    for &method in methods {
        let name = vm.ctx.intern_str(method);
        let original = str_type
            .get_attr(name)
            .ok_or_else(|| vm.new_runtime_error("str.format missing"))?;
        let wrapped = vm.new_method(
            if method == "format" {
                "format"
            } else {
                "format_map"
            },
            str_type,
            move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
                if let Some(s) = args.args.first().and_then(|s| s.downcast_ref::<PyStr>()) {
                    let format = s.to_str().unwrap_or_default();
                    check_format_fields(format, vm)?;
                    let positional = (method == "format").then(|| args.args.len() - 1);
                    if let Some(e) = crate::format_string::first_error(format, positional) {
                        // CPython renders the fields before the error first: their errors,
                        // and their `__format__` calls, come first.
                        if e.at > 0 {
                            let mut prefix = args.clone();
                            prefix.args[0] = vm.ctx.new_str(&format[..e.at]).into();
                            original.call(prefix, vm)?;
                        }
                        return Err(match e.kind {
                            crate::format_string::ErrorKind::Value => vm.new_value_error(e.message),
                            crate::format_string::ErrorKind::Index => vm.new_index_error(e.message),
                        });
                    }
                }
                let r = original.call(args, vm)?;
                charge_result(r, vm)
            },
        );
        str_type.set_attr(name, wrapped.into());
    }

    // `self.storage` for actor classes that do not define their own.
    let sdk = crate::library::load_module("cowboy_sdk", vm)?;
    let storage = sdk.get_attr("storage", vm)?;
    STORAGE_OBJECT.with(|s| *s.borrow_mut() = Some(storage));
    // `annotationlib` resolves a forward reference's bare name in `builtins` when globals lack
    // it: give it the actor's builtins, never the library's.
    let actor_builtins_module = vm.new_module("builtins", dict.clone(), None);
    crate::library::load_module("annotationlib", vm)?.set_attr(
        "builtins",
        actor_builtins_module,
        vm,
    )?;
    ACTOR_BUILTINS.with(|b| *b.borrow_mut() = Some(dict));
    patches::protect_existing_types(vm)?;
    Ok(())
}

/// Empties and lets go of the actor builtins and the storage object, when their interpreter is
/// retired: every function of the actor holds its builtins through a reference the collector
/// does not see, so a builtins dict that still held the runtime's functions would keep them,
/// and everything they reach, alive.
pub fn forget() {
    if let Some(dict) = ACTOR_BUILTINS.with(|b| b.borrow_mut().take()) {
        dict.clear();
    }
    STORAGE_OBJECT.with(|s| drop(s.borrow_mut().take()));
}

/// The module name of actor code (`__name__`, and the `__module__` of its classes).
pub const ACTOR_MODULE: &str = "__actor__";

/// The actor builtins dict (installed once the library is preloaded).
pub fn actor_builtins(vm: &VirtualMachine) -> PyResult<PyDictRef> {
    ACTOR_BUILTINS
        .with(|b| b.borrow().clone())
        .ok_or_else(|| vm.new_runtime_error("actor builtins not installed"))
}

/// A fresh globals dict for one execution of an actor module.
pub fn actor_globals(vm: &VirtualMachine) -> PyResult<PyDictRef> {
    let builtins = actor_builtins(vm)?;
    let globals = vm.ctx.new_dict();
    globals.set_item("__builtins__", builtins.into(), vm)?;
    globals.set_item("__name__", vm.ctx.new_str(ACTOR_MODULE).into(), vm)?;
    Ok(globals)
}

/// Gives the actor class a `storage` attribute (the SDK's storage) unless it has one.
pub fn attach_storage(class: &PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
    // Usually the class is a plain one (its metaclass `type`, which has no `storage`) without
    // `storage` anywhere in its MRO: then the lookup below fails for sure, and saying so
    // without it saves making and dropping an `AttributeError` (a tenth of a small call).
    let surely_absent = class.class().is(vm.ctx.types.type_type)
        && class
            .downcast_ref::<rustpython_vm::builtins::PyType>()
            .is_some_and(|ty| ty.get_attr(vm.ctx.intern_str("storage")).is_none());
    if !surely_absent && class.get_attr("storage", vm).is_ok() {
        return Ok(());
    }
    let storage = STORAGE_OBJECT
        .with(|s| s.borrow().clone())
        .ok_or_else(|| vm.new_runtime_error("storage not installed"))?;
    class.set_attr("storage", storage, vm)
}

/// An instance of `class` without running `__init__` (its state is loaded from storage).
pub fn new_instance(class: &PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let object = vm.ctx.types.object_type.as_object();
    vm.call_method(object, "__new__", (class.clone(),))
}

// ---- library code that looks attributes up by an actor's string --------------------------------

/// Library functions that look up attributes named by a string the actor supplies would walk
/// past the actor rules (library code may use dunders): `string.Formatter` resolves
/// `"{0.__class__}"` fields with `getattr`, and `operator.attrgetter` / `methodcaller` take
/// attribute names. They get the actor's guarded lookup instead (installed once the library is
/// loaded; the module objects are this interpreter's).
pub fn guard_library_attribute_walks(vm: &VirtualMachine) -> PyResult<()> {
    let string = crate::library::load_module("string", vm)?;
    let globals = string
        .dict()
        .ok_or_else(|| vm.new_runtime_error("module string has no namespace"))?;
    set_builtin(&globals, "getattr", guarded_getattr, vm)?;

    let operator = crate::library::load_module("operator", vm)?;
    operator.set_attr("attrgetter", vm.new_function("attrgetter", attrgetter), vm)?;
    operator.set_attr(
        "methodcaller",
        vm.new_function("methodcaller", methodcaller),
        vm,
    )?;
    Ok(())
}

/// The name arguments of `attrgetter`/`methodcaller`, as strings.
fn attribute_name(arg: &PyObjectRef, vm: &VirtualMachine) -> PyResult<PyUtf8StrRef> {
    arg.clone()
        .try_into_value::<PyUtf8StrRef>(vm)
        .map_err(|_| vm.new_type_error("attribute name must be a string"))
}

/// `operator.attrgetter(*names)`, each dotted name walked with the guarded `getattr`.
fn attrgetter(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    if !args.kwargs.is_empty() {
        return Err(vm.new_type_error("attrgetter() takes no keyword arguments"));
    }
    if args.args.is_empty() {
        return Err(vm.new_type_error("attrgetter expected 1 argument, got 0"));
    }
    let paths: Vec<Vec<PyUtf8StrRef>> = args
        .args
        .iter()
        .map(|a| {
            let name = attribute_name(a, vm)?;
            name.as_str()
                .split('.')
                .map(|part| attribute_name(&vm.ctx.new_str(part).into(), vm))
                .collect()
        })
        .collect::<PyResult<_>>()?;
    let getter = move |obj: PyObjectRef, vm: &VirtualMachine| -> PyResult {
        let mut found = Vec::with_capacity(paths.len());
        for path in &paths {
            let mut value = obj.clone();
            for part in path {
                value = guarded_getattr(value, part.clone(), OptionalArg::Missing, vm)?;
            }
            found.push(value);
        }
        Ok(match <[PyObjectRef; 1]>::try_from(found) {
            Ok([one]) => one,
            Err(many) => vm.ctx.new_tuple(many).into(),
        })
    };
    Ok(vm.new_function("attrgetter", getter).into())
}

/// `operator.methodcaller(name, /, *args, **kwargs)`, the method found with the guarded
/// `getattr`.
fn methodcaller(mut args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    if args.args.is_empty() {
        return Err(vm.new_type_error("methodcaller needs at least one argument, the method name"));
    }
    let name = attribute_name(&args.args.remove(0), vm)?;
    let caller = move |obj: PyObjectRef, vm: &VirtualMachine| -> PyResult {
        let method = guarded_getattr(obj, name.clone(), OptionalArg::Missing, vm)?;
        method.call(args.clone(), vm)
    };
    Ok(vm.new_function("methodcaller", caller).into())
}

#[cfg(test)]
mod tests {
    use super::round_float;

    #[test]
    fn float_rounding_is_exact() {
        assert_eq!(round_float(2.675, 2), 2.67);
        assert_eq!(round_float(0.125, 2), 0.12);
        assert_eq!(round_float(0.375, 2), 0.38);
        assert_eq!(round_float(1.23456, 3), 1.235);
        assert_eq!(round_float(1234.5678, -2), 1200.0);
        assert_eq!(round_float(1250.0, -2), 1200.0);
        assert_eq!(round_float(1350.0, -2), 1400.0);
        assert_eq!(round_float(-2.5, 0), -2.0);
        assert_eq!(round_float(9.99, 1), 10.0);
        assert_eq!(round_float(0.0004, 2), 0.0);
    }
}
