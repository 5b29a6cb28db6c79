//! A block's cycle charge as a constant of the code that pays it: an object whose truth test
//! charges its cycles and is true.
//!
//! Why: every block of metered code starts with `__m__(n)`, and every loop or `elif` test is
//! `(__m__(n) and test)`. As a call, each charge pushed the builtin and its argument, built an
//! argument vector and converted the argument, about 700 instructions (`callgrind` on
//! `cargo bench -p cowboy-pvm --bench cycle_price`, `loop (baseline)`: two such calls per
//! iteration of a `while` loop, which is what the execution budget is calibrated on). A truth
//! test is a slot call with nothing to allocate.
//!
//! How: `bound_helpers` rewrites, in code it binds, the charge statement `__m__(n)` into
//! `not C` and the charged test `(__m__(n) and test)` into `(C and test)`, where `C` is a marker
//! constant that becomes a [`ChargeConstant`] of `n` cycles when the code object is made. The
//! truth test happens where the call was (`TO_BOOL`), charges the same cycles through the same
//! meter, and raises what the call raised when the meter trips; `(C and test)` is `test`, as
//! `(True and test)` was. Unbound code (a NUL in a literal) keeps the calls.

use crate::natives;
use rustpython_vm::{
    Py, PyObjectRef, PyPayload, PyResult, VirtualMachine,
    class::PyClassImpl,
    protocol::{PyNumber, PyNumberMethods},
    pyclass,
    types::{AsNumber, Representable},
    vm::Context,
};

/// Charges `cycles` when tested for truth, and is true.
#[pyclass(module = false, name = "cycle_charge")]
#[derive(Debug, PyPayload)]
pub struct ChargeConstant {
    cycles: u64,
}

impl ChargeConstant {
    /// The constant charging `cycles`.
    pub fn object(cycles: u64, ctx: &Context) -> PyObjectRef {
        init();
        Self { cycles }.into_ref(ctx).into()
    }
}

#[pyclass(flags(DISALLOW_INSTANTIATION), with(AsNumber, Representable))]
impl ChargeConstant {}

impl AsNumber for ChargeConstant {
    fn as_number() -> &'static PyNumberMethods {
        static AS_NUMBER: PyNumberMethods = PyNumberMethods {
            boolean: Some(charge),
            ..PyNumberMethods::NOT_IMPLEMENTED
        };
        &AS_NUMBER
    }
}

fn charge(number: PyNumber<'_>, vm: &VirtualMachine) -> PyResult<bool> {
    let Some(constant) = number.obj.downcast_ref::<ChargeConstant>() else {
        return Err(vm.new_type_error("cycle charge slot called on another object"));
    };
    natives::charge(constant.cycles, vm)?;
    Ok(true)
}

impl Representable for ChargeConstant {
    fn repr_str(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<String> {
        Ok(format!("<cycle charge {}>", zelf.cycles))
    }
}

/// Registers the type (types are the thread's: once is enough, and again changes nothing).
pub fn init() {
    ChargeConstant::make_static_type();
}
