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

/// A Rust function of two arguments a fast builtin calls.
pub type Binary = fn(PyObjectRef, PyObjectRef, &VirtualMachine) -> PyResult;

/// The Rust function a fast builtin calls, by arity.
#[derive(Clone, Copy)]
pub enum Fast {
    One(fn(PyObjectRef, &VirtualMachine) -> PyResult),
    Two(Binary),
    /// `(a, b, c)`: `outer(a, inner(b, c))`, what two calls of builtins made of `outer` and
    /// `inner` compute (`instrument::Fuse`).
    Fused {
        outer: Binary,
        inner: Binary,
    },
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
        if let Fast::Fused { outer, inner } = self {
            let [a, b, c] = <[PyObjectRef; 3]>::try_from(args)?;
            return Ok(apply_fused(outer, inner, a, b, c, vm));
        }
        let result = match (self, args.as_slice()) {
            (Fast::One(f), [a]) => f(a.clone(), vm),
            (Fast::Two(f), [a, b]) => f(a.clone(), b.clone(), vm),
            _ => return Err(args),
        };
        drop(args);
        Ok(result)
    }
}

/// `outer(a, inner(b, c))`, releasing the operands in the order the two calls did: `b` and
/// `c` when `inner` returns; then `a` and `inner`'s result when `outer` returns. When `inner`
/// raises, `a` is released as it returns (the two calls left it on the frame's stack, which
/// the exception's unwinding released next: no Python code runs in between either way).
fn apply_fused(
    outer: Binary,
    inner: Binary,
    a: PyObjectRef,
    b: PyObjectRef,
    c: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult {
    let right = inner(b.clone(), c.clone(), vm);
    drop(b);
    drop(c);
    let right = right?;
    let result = outer(a.clone(), right.clone(), vm);
    drop(a);
    drop(right);
    result
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
    /// The fused builtins with this one as their outer operator, by name: held here, not in
    /// any builtins dict (`instrument::Fuse`).
    fused: Vec<(&'static str, PyObjectRef)>,
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
    set_with_fused(dict, name, fast, &[], vm)
}

/// [`set`], for a builtin that is the outer operator of the fused builtins `fused` (names and
/// functions), which it holds: [`fused`] finds them.
pub fn set_with_fused(
    dict: &PyDictRef,
    name: &'static str,
    fast: Fast,
    fused: &[(&'static str, Fast)],
    vm: &VirtualMachine,
) -> PyResult<()> {
    let fused = fused
        .iter()
        .map(|&(name, fast)| (name, new(name, fast, Vec::new(), vm)))
        .collect();
    dict.set_item(name, new(name, fast, fused, vm), vm)
}

/// The fused builtins `outer` holds, by name (none if it is not a fast builtin).
pub fn fused(outer: &PyObject) -> &[(&'static str, PyObjectRef)] {
    outer
        .downcast_ref::<FastBuiltin>()
        .map_or(&[], |outer| outer.fused.as_slice())
}

fn new(
    name: &'static str,
    fast: Fast,
    fused: Vec<(&'static str, PyObjectRef)>,
    vm: &VirtualMachine,
) -> PyObjectRef {
    let general = match fast {
        Fast::One(f) => vm.new_function(name, f),
        Fast::Two(f) => vm.new_function(name, f),
        Fast::Fused { outer, inner } => vm.new_function(
            name,
            move |a: PyObjectRef, b: PyObjectRef, c: PyObjectRef, vm: &VirtualMachine| {
                apply_fused(outer, inner, a, b, c, vm)
            },
        ),
    }
    .into();
    let builtin = FastBuiltin {
        name,
        fast,
        general,
        fused,
    };
    builtin.into_ref(&vm.ctx).into()
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

    /// An engine whose library code can name the fused builtins, which no builtins dict holds
    /// otherwise.
    fn engine_naming_fused_builtins() -> Engine {
        let engine = Engine::new().expect("engine");
        engine.interpreter().enter(|vm| {
            let builtins = vm.builtins.dict();
            for f in crate::instrument::ops::fused() {
                let outer = builtins.get_item(f.outer, vm).expect("outer operator");
                let (_, fused) = super::fused(&outer)
                    .iter()
                    .find(|(name, _)| *name == f.name)
                    .expect("fused builtin");
                builtins.set_item(f.name, fused.clone(), vm).expect("set");
            }
        });
        engine
    }

    #[test]
    fn a_fused_operator_computes_what_its_two_operators_compute() {
        let mut engine = engine_naming_fused_builtins();
        let both = |engine: &mut Engine, fused: &str, outer: &str, inner: &str, args: &str| {
            let (a, rest) = args.split_once(", ").expect("three arguments");
            (
                eval(engine, &format!("{fused}({args})")),
                eval(engine, &format!("{outer}({a}, {inner}({rest}))")),
            )
        };
        for (fused, outer, inner, args) in [
            ("__ad_mu__", "__ad__", "__mu__", "1, 2, 3"),
            ("__iad_mu__", "__iad__", "__mu__", "[1], [2], 2"),
            ("__sb_pw__", "__sb__", "__pw__", "10, 2, 3"),
            ("__md_ad__", "__md__", "__ad__", "'%s-%s', 'a', 'b'"),
            // Errors of either operator, and the integer limit.
            ("__ad_mu__", "__ad__", "__mu__", "'a', 2, 3"),
            ("__ad_mu__", "__ad__", "__mu__", "1, 'a', 'b'"),
            ("__mu_pw__", "__mu__", "__pw__", "2, 2, 4096"),
            ("__imd_md__", "__imd__", "__md__", "7, 5, 0"),
        ] {
            let (fused_result, two_calls) = both(&mut engine, fused, outer, inner, args);
            assert_eq!(fused_result, two_calls, "{fused}({args})");
        }
        assert!(eval(&mut engine, "__mu_pw__(2, 2, 4096)").starts_with("('OverflowError'"));
        // Any other shape is the native function's call: refused, never a crash.
        for odd in [
            "__ad_mu__(1, b=2, c=3)",
            "__ad_mu__(1, 2)",
            "__ad_mu__(1, 2, 3, 4)",
        ] {
            assert!(eval(&mut engine, odd).starts_with("('TypeError'"), "{odd}");
        }
    }

    /// `outer(a, inner(b, c))` releases `b` and `c` after `inner`, then `a` and `inner`'s
    /// result after `outer`: the fused builtin in the same order, also when `inner` raises.
    #[test]
    fn a_fused_operator_releases_operands_as_its_two_calls_do() {
        let mut engine = engine_naming_fused_builtins();
        let program = |call: &str| {
            format!(
                "order = []\nclass T:\n    def __init__(self, n):\n        self.n = n\n    def __add__(self, other):\n        order.append('add')\n        return T(9)\n    def __mul__(self, other):\n        order.append('mul')\n        if self.n == 0:\n            raise ValueError('no')\n        return T(8)\n    def __del__(self):\n        order.append(self.n)\ntry:\n    {call}\nexcept ValueError:\n    order.append('caught')\nresult = order\n"
            )
        };
        for (fused, two_calls) in [
            (
                "__ad_mu__(T(1), T(2), T(3))",
                "__ad__(T(1), __mu__(T(2), T(3)))",
            ),
            (
                "__ad_mu__(T(1), T(0), T(3))",
                "__ad__(T(1), __mu__(T(0), T(3)))",
            ),
        ] {
            let expected = engine.debug_exec(&program(two_calls));
            assert_eq!(engine.debug_exec(&program(fused)), expected, "{fused}");
        }
        assert_eq!(
            engine.debug_exec(&program("__ad_mu__(T(1), T(2), T(3))")),
            Ok("['mul', 2, 3, 'add', 1, 8, 9]".into())
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
