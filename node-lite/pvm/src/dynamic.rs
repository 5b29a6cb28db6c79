//! Code built at run time: the `eval`, `exec` and `compile` that library code calls, and the
//! builtins of functions made with `types.FunctionType`.
//!
//! Library modules run with the full builtins, and some of them turn data into code: `typing`
//! and `annotationlib` evaluate string annotations, `dataclasses` generates its methods as
//! source, `annotationlib` rebuilds an annotation function with fake globals. When that data
//! comes from an actor, the code it becomes must obey the actor's rules, or an annotation such as
//! `"__import__('sys')"` reaches everything the actor may not. So, while a call runs:
//!
//! - **source is checked like actor source** (`validate::validate_dynamic`: imports, dunder
//!   names and attributes, frame attributes, forbidden builtins) and compiled as actor code
//!   (metered, imports through the whitelist). The one exception is `dataclasses`' own method
//!   generator, whose source is built from field names that `_cowboy_library` has checked to
//!   be identifiers; it is compiled as library code.
//! - **it runs with the actor builtins** (guarded `getattr`, no `eval`, deterministic `id`):
//!   globals without `__builtins__` get them, and globals that carry the full builtins (a
//!   library module's) are copied with the actor builtins instead. A function made by
//!   `types.FunctionType` from globals without `__builtins__` gets them too, rather than the
//!   builtins of whoever called the constructor.
//! - **compiling a syntax tree** (`compile(ast_node, …)`) is refused; producing one
//!   (`ast.parse`, flag `PyCF_ONLY_AST`) is allowed.
//!
//! Outside calls (while the library is preloaded) everything is library code, as before.

use crate::{library, meter, patches::NewFn, validate};
use rustpython_vm::{
    AsObject, PyObjectRef, PyRef, PyResult, VirtualMachine,
    builtins::{PyBytes, PyCode, PyDict, PyDictRef, PyStr},
    function::{ArgMapping, FuncArgs},
    scope::Scope,
    types::PyTypeFlags,
};

/// `compile()`'s flag asking for a syntax tree instead of code.
const PY_CF_ONLY_AST: i64 = 0x400;

/// Where generated source is compiled from: the file name of code objects made at run time.
pub const DYNAMIC_PATH: &str = "<dynamic>";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Exec,
    Eval,
}

impl Mode {
    fn parse(mode: &str, vm: &VirtualMachine) -> PyResult<Self> {
        match mode {
            "exec" | "single" => Ok(Self::Exec),
            "eval" => Ok(Self::Eval),
            other => Err(vm.new_value_error(format!(
                "compile() mode must be 'exec', 'eval' or 'single', not '{other}'"
            ))),
        }
    }
}

/// Whether the Python frame calling the builtin is `dataclasses`' method generator.
fn called_by_dataclass_generator(vm: &VirtualMachine) -> bool {
    vm.current_frame().is_some_and(|f| {
        f.code.source_path().as_str() == "<dataclasses>"
            && f.code.obj_name.as_str() == "add_fns_to_class"
    })
}

fn source_text(source: &PyObjectRef, vm: &VirtualMachine) -> PyResult<String> {
    if let Some(s) = source.downcast_ref::<PyStr>() {
        return s
            .to_str()
            .map(str::to_owned)
            .ok_or_else(|| vm.new_value_error("source contains lone surrogates"));
    }
    if let Some(b) = source.downcast_ref::<PyBytes>() {
        return std::str::from_utf8(b.as_bytes())
            .map(str::to_owned)
            .map_err(|_| vm.new_value_error("source is not UTF-8"));
    }
    Err(vm.new_type_error(
        "the PVM compiles only source strings (str or bytes) and code objects at run time",
    ))
}

/// The identifier-like words of `text` (`dataclasses` builds its methods' source from field
/// names: a field named like a builtin of the metering rewrite would be bound as that builtin,
/// `bound_helpers`, and the method would store or call the builtin where it means the field).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Compiles run-time source under the rules above.
fn compile_source(text: &str, mode: Mode, vm: &VirtualMachine) -> PyResult<PyRef<PyCode>> {
    // Leading whitespace is allowed in eval input, as CPython's eval strips it.
    let text = if mode == Mode::Eval {
        text.trim_start()
    } else {
        text
    };
    let dataclass_methods = meter::in_call() && called_by_dataclass_generator(vm);
    if dataclass_methods
        && let Some(name) = identifiers(text).find(|w| crate::instrument::is_reserved(w))
    {
        return Err(vm.new_type_error(format!(
            "dataclass field names may not be names of the metering rewrite's builtins, \
             not {name:?} (rule: dataclass-field-name)"
        )));
    }
    let actor_rules = meter::in_call() && !dataclass_methods;
    if actor_rules && let Err(problems) = validate::validate_dynamic(text, mode == Mode::Eval) {
        let first = problems
            .first()
            .map(|d| format!("{}: {}", d.rule.id(), d.message))
            .unwrap_or_default();
        return Err(vm.new_exception_msg(
            vm.ctx.exceptions.syntax_error.to_owned(),
            format!(
                "code built at run time is checked like actor source and breaks a rule: \
                     {first} (in {text:?})"
            )
            .into(),
        ));
    }
    let path = if actor_rules {
        DYNAMIC_PATH
    } else {
        "<generated>"
    };
    match mode {
        Mode::Eval => library::compile_instrumented_expression(text, path, actor_rules, vm),
        Mode::Exec => library::compile_instrumented(text, path, actor_rules, vm),
    }
}

fn code_of(source: PyObjectRef, mode: Mode, vm: &VirtualMachine) -> PyResult<PyRef<PyCode>> {
    match source.downcast::<PyCode>() {
        Ok(code) => Ok(code),
        Err(source) => compile_source(&source_text(&source, vm)?, mode, vm),
    }
}

/// The builtins code built during a call runs with.
fn actor_builtins(vm: &VirtualMachine) -> PyResult<PyDictRef> {
    crate::sandbox::actor_builtins(vm)
}

/// Whether `builtins` is the library's full builtins (the dict or the module).
fn is_full_builtins(builtins: &PyObjectRef, vm: &VirtualMachine) -> bool {
    builtins.is(vm.builtins.as_object()) || builtins.is(vm.builtins.dict().as_object())
}

fn is_actor_builtins(builtins: &PyObjectRef, vm: &VirtualMachine) -> bool {
    actor_builtins(vm).is_ok_and(|a| builtins.is(a.as_object()))
}

/// The globals to run with: during a call, never the full builtins; always the metering
/// builtins the instrumented code calls.
fn globals_for_run(globals: PyDictRef, vm: &VirtualMachine) -> PyResult<PyDictRef> {
    let present = globals.get_item_opt("__builtins__", vm)?;
    let with_builtins = |builtins: PyDictRef| -> PyResult<PyDictRef> {
        let copy = rustpython_vm::PyPayload::into_ref(globals.copy(), &vm.ctx);
        copy.set_item("__builtins__", builtins.into(), vm)?;
        Ok(copy)
    };
    match present {
        None => {
            let builtins = if meter::in_call() {
                actor_builtins(vm)?
            } else {
                vm.builtins.dict()
            };
            globals.set_item("__builtins__", builtins.into(), vm)?;
            Ok(globals)
        }
        Some(b) if is_full_builtins(&b, vm) => {
            if meter::in_call() {
                with_builtins(actor_builtins(vm)?)
            } else {
                Ok(globals)
            }
        }
        Some(b) if is_actor_builtins(&b, vm) => Ok(globals),
        Some(b) => {
            // A restricted namespace of the caller's (`namedtuple` runs its generated
            // `__new__` with `{}`): that, plus the metering builtins.
            let own = b
                .downcast::<PyDict>()
                .map_err(|_| vm.new_type_error("__builtins__ must be a dict"))?;
            let merged = rustpython_vm::PyPayload::into_ref(own.copy(), &vm.ctx);
            for (k, v) in &vm.builtins.dict() {
                if k.downcast_ref::<PyStr>()
                    .and_then(|s| s.to_str())
                    .is_some_and(crate::instrument::is_reserved)
                {
                    merged.set_item(&*k, v, vm)?;
                }
            }
            with_builtins(merged)
        }
    }
}

fn run(
    code: PyRef<PyCode>,
    globals: Option<PyObjectRef>,
    locals: Option<PyObjectRef>,
    vm: &VirtualMachine,
) -> PyResult {
    let (globals, locals) = match globals.filter(|g| !vm.is_none(g)) {
        Some(g) => {
            let g = g
                .downcast::<PyDict>()
                .map_err(|_| vm.new_type_error("globals must be a dict"))?;
            (g, locals.filter(|l| !vm.is_none(l)))
        }
        None => {
            // As CPython: the calling frame's namespaces.
            let frame = vm
                .current_frame()
                .ok_or_else(|| vm.new_runtime_error("eval/exec without a calling frame"))?;
            let locals = locals
                .filter(|l| !vm.is_none(l))
                .or_else(|| Some(frame.locals.into_object(vm)));
            (frame.globals.clone(), locals)
        }
    };
    let globals = globals_for_run(globals, vm)?;
    let locals = locals
        .map(|l| ArgMapping::try_from_object(vm, l))
        .transpose()?;
    vm.run_code_obj(code, Scope::with_builtins(locals, globals, vm))
}

/// The library's `eval(source, globals=None, locals=None)`.
pub fn eval(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let (source, globals, locals) = three(args, "eval", vm)?;
    let code = code_of(source, Mode::Eval, vm)?;
    run(code, globals, locals, vm)
}

/// The library's `exec(source, globals=None, locals=None)`.
pub fn exec(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let (source, globals, locals) = three(args, "exec", vm)?;
    let code = code_of(source, Mode::Exec, vm)?;
    run(code, globals, locals, vm)?;
    Ok(vm.ctx.none())
}

fn three(
    args: FuncArgs,
    name: &str,
    vm: &VirtualMachine,
) -> PyResult<(PyObjectRef, Option<PyObjectRef>, Option<PyObjectRef>)> {
    let arg = |i: usize, key: &str| -> Option<PyObjectRef> {
        args.args
            .get(i)
            .cloned()
            .or_else(|| args.kwargs.get(key).cloned())
    };
    let source = arg(0, "source")
        .ok_or_else(|| vm.new_type_error(format!("{name}() missing required argument 'source'")))?;
    if args.kwargs.contains_key("closure") {
        return Err(vm.new_type_error(format!("{name}(closure=…) is not available in the PVM")));
    }
    Ok((source, arg(1, "globals"), arg(2, "locals")))
}

/// The library's `compile(source, filename, mode, flags=0, …)`.
pub fn compile(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let arg = |i: usize, key: &str| -> Option<PyObjectRef> {
        args.args
            .get(i)
            .cloned()
            .or_else(|| args.kwargs.get(key).cloned())
    };
    let flags = match arg(3, "flags") {
        Some(f) => f.try_index(vm)?.as_bigint().try_into().unwrap_or(0i64),
        None => 0,
    };
    if flags & PY_CF_ONLY_AST != 0 {
        // A syntax tree is data, not code: the original compile builds it.
        let original = vm.builtins.get_attr(ORIGINAL_COMPILE, vm)?;
        return original.call(args, vm);
    }
    let source = arg(0, "source").ok_or_else(|| vm.new_type_error("compile() missing 'source'"))?;
    let mode = arg(2, "mode").ok_or_else(|| vm.new_type_error("compile() missing 'mode'"))?;
    let mode = mode
        .downcast_ref::<PyStr>()
        .and_then(|m| m.to_str())
        .ok_or_else(|| vm.new_type_error("compile() mode must be str"))?;
    let mode = Mode::parse(mode, vm)?;
    Ok(compile_source(&source_text(&source, vm)?, mode, vm)?.into())
}

/// Where the interpreter's own `compile` stays reachable to [`compile`] (library builtins only;
/// actors never see names starting with `__cowboy`).
pub const ORIGINAL_COMPILE: &str = "__cowboy_compile";

/// `types.FunctionType(code, globals, …)`: during a call, globals without `__builtins__` get
/// the actor builtins before the function is made (RustPython would otherwise give the new
/// function the builtins of the frame calling the constructor — the library's full ones).
pub fn guard_function_constructor(vm: &VirtualMachine) {
    let function_type = vm.ctx.types.function_type;
    let Some(original) = function_type.slots.new.load() else {
        return;
    };
    if original as usize == function_new as NewFn as usize {
        // Already installed by an earlier interpreter of this thread.
        return;
    }
    // Every thread's built-in types share the same original function.
    let _ = ORIGINAL_FUNCTION_NEW.set(original);
    function_type.slots.new.store(Some(function_new));
    debug_assert!(!function_type.slots.flags.has_feature(PyTypeFlags::HEAPTYPE));
}

static ORIGINAL_FUNCTION_NEW: std::sync::OnceLock<NewFn> = std::sync::OnceLock::new();

fn function_new(
    cls: rustpython_vm::builtins::PyTypeRef,
    args: FuncArgs,
    vm: &VirtualMachine,
) -> PyResult {
    if meter::in_call() {
        let globals = args
            .args
            .get(1)
            .cloned()
            .or_else(|| args.kwargs.get("globals").cloned());
        if let Some(g) = globals.and_then(|g| g.downcast::<PyDict>().ok())
            && !g.contains_key("__builtins__", vm)
        {
            g.set_item("__builtins__", actor_builtins(vm)?.into(), vm)?;
        }
    }
    let original = ORIGINAL_FUNCTION_NEW
        .get()
        .ok_or_else(|| vm.new_runtime_error("function constructor patch is inconsistent"))?;
    original(cls, args, vm)
}

use rustpython_vm::TryFromObject as _;
