//! The builtins the instrumenter calls on every block and operator of metered code (`__m__`,
//! `__mc__`, `__mi__`, the checked operators `__ad__` & co.) as objects of a callable type of
//! their own, whose vectorcall slot hands the interpreter's argument vector to the Rust function
//! as it is.
//!
//! Why: a metered loop makes two or three of these calls per iteration. As plain native
//! functions, each call copied its argument vector into a `FuncArgs` and bound it parameter by
//! parameter; `perf` on `cargo bench -p cowboy-pvm --bench pvm` (`loop_metered`) put that copy
//! and binding at about a sixth of the loop's time, more than the arithmetic itself.
//!
//! Nothing else changes: the Rust function is the one the native function calls, so results,
//! errors and charges are the same. A call of any other shape (keywords, another number of
//! arguments: never one the instrumenter writes) goes to the native function of the same name,
//! so what it raises is unchanged too.

use rustpython_vm::{
    Py, PyObject, PyObjectRef, PyPayload, PyResult, VirtualMachine,
    builtins::PyDictRef,
    class::PyClassImpl,
    function::{FuncArgs, IntoPyNativeFn},
    pyclass,
    types::{Callable, Representable},
};

/// The Rust function a fast builtin calls, by arity.
#[derive(Clone, Copy)]
pub enum Fast {
    One(fn(PyObjectRef, &VirtualMachine) -> PyResult),
    Two(fn(PyObjectRef, PyObjectRef, &VirtualMachine) -> PyResult),
}

impl Fast {
    fn arity(self) -> usize {
        match self {
            Fast::One(_) => 1,
            Fast::Two(_) => 2,
        }
    }

    /// Calls the function with `args` if there are exactly as many as it takes.
    fn call(
        self,
        mut args: Vec<PyObjectRef>,
        vm: &VirtualMachine,
    ) -> Result<PyResult, Vec<PyObjectRef>> {
        if args.len() != self.arity() {
            return Err(args);
        }
        match self {
            Fast::One(f) => match args.pop() {
                Some(a) => Ok(f(a, vm)),
                None => Err(args),
            },
            Fast::Two(f) => {
                let b = args.pop();
                let a = args.pop();
                match (a, b) {
                    (Some(a), Some(b)) => Ok(f(a, b, vm)),
                    (a, b) => Err(a.into_iter().chain(b).collect()),
                }
            }
        }
    }
}

/// A builtin with a fast positional call and its native function for every other call.
#[pyclass(module = false, name = "builtin_function_or_method")]
#[derive(PyPayload)]
pub struct FastBuiltin {
    name: &'static str,
    fast: Fast,
    /// The native function of the same Rust function, for calls of another shape.
    general: PyObjectRef,
}

impl std::fmt::Debug for FastBuiltin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "fast builtin {}", self.name)
    }
}

#[pyclass(with(Callable, Representable))]
impl FastBuiltin {}

impl Callable for FastBuiltin {
    type Args = FuncArgs;

    fn call(zelf: &Py<Self>, args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        if !args.kwargs.is_empty() {
            return zelf.general.call(args, vm);
        }
        match zelf.fast.call(args.args, vm) {
            Ok(result) => result,
            Err(args) => zelf.general.call(args, vm),
        }
    }
}

impl Representable for FastBuiltin {
    fn repr_str(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<String> {
        Ok(format!("<built-in function {}>", zelf.name))
    }
}

/// The type's vectorcall slot: the interpreter's own argument vector, moved.
fn vectorcall(
    zelf: &PyObject,
    args: Vec<PyObjectRef>,
    nargs: usize,
    kwnames: Option<&[PyObjectRef]>,
    vm: &VirtualMachine,
) -> PyResult {
    let Some(zelf) = zelf.downcast_ref::<FastBuiltin>() else {
        return Err(vm.new_type_error("fast builtin slot called on another object"));
    };
    if kwnames.is_some_and(|k| !k.is_empty()) || nargs != args.len() {
        return zelf.general.vectorcall(args, nargs, kwnames, vm);
    }
    match zelf.fast.call(args, vm) {
        Ok(result) => result,
        Err(args) => zelf.general.vectorcall(args, nargs, None, vm),
    }
}

/// Registers the type and its vectorcall slot (types are the thread's: once is enough, and
/// again changes nothing).
pub fn init() {
    let ty = FastBuiltin::make_static_type();
    ty.slots.vectorcall.store(Some(vectorcall));
}

/// Sets `dict[name]` to a fast builtin calling `fast`, with the native function of `general`
/// (the same Rust function, typed parameters) for calls of another shape.
pub fn set<F, K>(
    dict: &PyDictRef,
    name: &'static str,
    fast: Fast,
    general: F,
    vm: &VirtualMachine,
) -> PyResult<()>
where
    F: IntoPyNativeFn<K>,
{
    let general = vm.new_function(name, general).into();
    let builtin = FastBuiltin {
        name,
        fast,
        general,
    };
    dict.set_item(name, builtin.into_ref(&vm.ctx).into(), vm)
}
