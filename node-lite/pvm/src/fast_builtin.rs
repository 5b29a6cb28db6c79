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
    function::FuncArgs,
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
    /// Calls the function with `args` if there are exactly as many as it takes.
    ///
    /// The arguments are passed as new references and `args` is dropped after the call, first
    /// to last: the temporaries an expression made (`A() + B()` is `__ad__(A(), B())`) are
    /// released in CPython's order, so their finalizers run in it (moving them into the
    /// function would drop the last first).
    fn call(
        self,
        args: Vec<PyObjectRef>,
        vm: &VirtualMachine,
    ) -> Result<PyResult, Vec<PyObjectRef>> {
        let result = match (self, args.as_slice()) {
            (Fast::One(f), [a]) => f(a.clone(), vm),
            (Fast::Two(f), [a, b]) => f(a.clone(), b.clone(), vm),
            _ => return Err(args),
        };
        drop(args);
        Ok(result)
    }
}

/// A builtin with a fast positional call and its native function for every other call.
#[pyclass(module = false, name = "builtin_function_or_method")]
#[derive(PyPayload)]
pub struct FastBuiltin {
    name: &'static str,
    fast: Fast,
    /// The native function of the same Rust function, for calls of another shape (its
    /// arity check raises what it raised before).
    general: PyObjectRef,
}

impl std::fmt::Debug for FastBuiltin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "fast builtin {}", self.name)
    }
}

#[pyclass(flags(DISALLOW_INSTANTIATION), with(Callable, Representable))]
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

/// Sets `dict[name]` to a fast builtin calling `fast`, with a native function of the same Rust
/// function for calls of another shape.
pub fn set(dict: &PyDictRef, name: &'static str, fast: Fast, vm: &VirtualMachine) -> PyResult<()> {
    let general = match fast {
        Fast::One(f) => vm.new_function(name, f),
        Fast::Two(f) => vm.new_function(name, f),
    }
    .into();
    let builtin = FastBuiltin {
        name,
        fast,
        general,
    };
    dict.set_item(name, builtin.into_ref(&vm.ctx).into(), vm)
}

#[cfg(test)]
mod tests {
    use crate::Engine;

    /// What `expr` evaluates to in library code, or its exception's type and message.
    fn eval(engine: &mut Engine, expr: &str) -> String {
        let source = format!(
            "try:\n    result = {expr}\nexcept BaseException as e:\n    result = (type(e).__name__, str(e))\n"
        );
        engine.debug_exec(&source).unwrap_or_else(|e| e)
    }

    #[test]
    fn calls_the_instrumenter_writes_take_the_fast_path_and_others_the_native_function() {
        let mut engine = Engine::new().expect("engine");
        // The shapes the instrumenter writes.
        assert_eq!(eval(&mut engine, "__ad__(2, 3)"), "5");
        assert_eq!(eval(&mut engine, "__iad__([1], [2])"), "[1, 2]");
        assert_eq!(eval(&mut engine, "__mu__('ab', 2)"), "'abab'");
        assert_eq!(eval(&mut engine, "__m__(5)"), "True");
        assert_eq!(eval(&mut engine, "__mc__('abc')"), "'abc'");
        assert_eq!(eval(&mut engine, "list(__mi__(range(3), 1))"), "[0, 1, 2]");
        assert_eq!(
            eval(&mut engine, "__pw__(2, 5000)"),
            eval(&mut engine, "__ipw__(2, 5000)")
        );
        // Conversion errors are the typed parameter's.
        assert!(eval(&mut engine, "__m__(-1)").starts_with("('OverflowError'"));
        assert!(eval(&mut engine, "__m__('x')").starts_with("('TypeError'"));
        // Any other shape is the native function's call: refused, never a crash.
        for odd in [
            "__ad__(1)",
            "__ad__(1, 2, 3)",
            "__ad__(1, b=2)",
            "__m__()",
            "__mi__([])",
        ] {
            assert!(
                eval(&mut engine, odd).starts_with("('TypeError'"),
                "{odd}: {}",
                eval(&mut engine, odd)
            );
        }
        // Not a constructor of empty builtins.
        assert!(eval(&mut engine, "type(__ad__)()").starts_with("('TypeError'"));
        assert_eq!(
            eval(&mut engine, "repr(__ad__)"),
            "'<built-in function __ad__>'"
        );
    }

    /// Temporaries passed to an operator are released first to last, as in CPython, so
    /// their finalizers run in that order.
    #[test]
    fn operands_are_released_in_cpython_s_order() {
        let mut engine = Engine::new().expect("engine");
        let source = "order = []\nclass T:\n    def __init__(self, n):\n        self.n = n\n    def __add__(self, other):\n        return 0\n    def __del__(self):\n        order.append(self.n)\n__ad__(T(1), T(2))\nresult = order\n";
        assert_eq!(engine.debug_exec(source), Ok("[1, 2]".into()));
    }
}
