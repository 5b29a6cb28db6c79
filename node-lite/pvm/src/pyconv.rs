//! Conversion between Python objects and canonical [`Value`]s, with the depth, size and type
//! rules of the canonical encoding, and the `OverflowError`/`TypeError` a Python caller sees.

use crate::{
    cost::limits,
    value::{Value, ValueError},
};
use rustpython_vm::{
    AsObject, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyBaseExceptionRef, PyBytes, PyDict, PyInt, PyList, PyStr, PyTuple},
};

/// Converts a Python object to a canonical value.
pub fn to_value(obj: &PyObjectRef, vm: &VirtualMachine) -> Result<Value, ValueError> {
    convert(obj, vm, 0)
}

fn convert(obj: &PyObjectRef, vm: &VirtualMachine, depth: usize) -> Result<Value, ValueError> {
    if depth > limits::VALUE_DEPTH {
        return Err(ValueError::TooDeep);
    }
    let class = obj.class();
    if vm.is_none(obj) {
        return Ok(Value::None);
    }
    if class.is(vm.ctx.types.bool_type) {
        return Ok(Value::Bool(obj.is(&vm.ctx.true_value)));
    }
    if let Some(i) = obj.downcast_ref_if_exact::<PyInt>(vm) {
        let n = i.as_bigint();
        if n.bits() > limits::INT_BITS {
            return Err(ValueError::IntTooLarge { bits: n.bits() });
        }
        return Ok(Value::Int(n.clone()));
    }
    if let Some(s) = obj.downcast_ref_if_exact::<PyStr>(vm) {
        return s.to_str().map(|s| Value::Str(s.to_owned())).ok_or_else(|| {
            ValueError::Other("str contains lone surrogates; it cannot be encoded".into())
        });
    }
    if let Some(b) = obj.downcast_ref_if_exact::<PyBytes>(vm) {
        return Ok(Value::Bytes(b.as_bytes().to_vec()));
    }
    if let Some(l) = obj.downcast_ref_if_exact::<PyList>(vm) {
        let items: Vec<PyObjectRef> = l.borrow_vec().to_vec();
        return Ok(Value::List(
            items
                .iter()
                .map(|x| convert(x, vm, depth + 1))
                .collect::<Result<_, _>>()?,
        ));
    }
    if let Some(t) = obj.downcast_ref_if_exact::<PyTuple>(vm) {
        return Ok(Value::List(
            t.iter()
                .map(|x| convert(x, vm, depth + 1))
                .collect::<Result<_, _>>()?,
        ));
    }
    if let Some(d) = obj.downcast_ref_if_exact::<PyDict>(vm) {
        let mut entries = Vec::new();
        for (k, v) in d {
            let key = convert(&k, vm, depth + 1)?;
            let key = match key {
                // Tuples are valid keys; they encode as arrays.
                Value::List(items) if k.downcast_ref_if_exact::<PyTuple>(vm).is_some() => {
                    Value::Tuple(items)
                }
                Value::List(_) => return Err(ValueError::UnhashableKey { what: "list" }),
                other => other,
            };
            entries.push((key, convert(&v, vm, depth + 1)?));
        }
        return Value::dict(entries);
    }
    Err(ValueError::Other(format!(
        "a {} cannot be encoded; canonical values are None, bool, int, str, bytes, list, tuple and dict{}",
        class.name(),
        if class.is(vm.ctx.types.float_type) {
            " (floats are not allowed at trust boundaries: use integers, e.g. fixed-point)"
        } else if class.is(vm.ctx.types.set_type) || class.is(vm.ctx.types.frozenset_type) {
            " (convert sets to a sorted list)"
        } else {
            ""
        }
    )))
}

/// Converts a canonical value to a Python object.
pub fn to_object(value: &Value, vm: &VirtualMachine) -> PyObjectRef {
    match value {
        Value::None => vm.ctx.none(),
        Value::Bool(b) => vm.ctx.new_bool(*b).into(),
        Value::Int(i) => vm.ctx.new_bigint(i).into(),
        Value::Str(s) => vm.ctx.new_str(s.as_str()).into(),
        Value::Bytes(b) => vm.ctx.new_bytes(b.clone()).into(),
        Value::List(items) => vm
            .ctx
            .new_list(items.iter().map(|v| to_object(v, vm)).collect())
            .into(),
        Value::Tuple(items) => vm
            .ctx
            .new_tuple(items.iter().map(|v| to_object(v, vm)).collect())
            .into(),
        Value::Dict(entries) => {
            let dict = vm.ctx.new_dict();
            for (k, v) in entries {
                // Keys were validated as hashable when decoded; a failure here is impossible
                // for canonical input, so it is ignored rather than unwrapped.
                let _ = dict.set_item(&*to_object(k, vm), to_object(v, vm), vm);
            }
            dict.into()
        }
    }
}

/// Encodes a Python object canonically, as a Python exception on failure.
pub fn encode(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<u8>> {
    to_value(obj, vm)
        .and_then(|v| v.encode())
        .map_err(|e| value_error_to_py(e, vm))
}

/// Decodes canonical bytes to a Python object, as a Python exception on failure.
pub fn decode(bytes: &[u8], vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    Value::decode(bytes)
        .map(|v| to_object(&v, vm))
        .map_err(|e| value_error_to_py(e, vm))
}

/// The Python exception for a canonical-encoding failure.
pub fn value_error_to_py(e: ValueError, vm: &VirtualMachine) -> PyBaseExceptionRef {
    match e {
        ValueError::IntTooLarge { .. } => vm.new_overflow_error(e.to_string()),
        ValueError::Other(_) | ValueError::UnhashableKey { .. } => vm.new_type_error(e.to_string()),
        _ => vm.new_value_error(e.to_string()),
    }
}
