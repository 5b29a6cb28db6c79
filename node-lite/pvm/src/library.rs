//! The module system: which modules exist, how they are loaded, and what actors see of them.
//!
//! There is no filesystem and no `importlib`. Every Python module the PVM can load is embedded
//! in the binary (standard-library sources from `rustpython-pylib`, Cowboy's own modules from
//! `python/`), compiled with the metering instrumenter once per process (each interpreter gets
//! its own code objects made from that bytecode), and cached in `sys.modules`. A single `__import__` serves two kinds of importer:
//!
//! - **library modules** (the embedded sources) import each other freely, including
//!   internal modules such as `_collections_abc`, and get Cowboy's stand-ins for `os` and `math`;
//! - **actor code** may import only the whitelist. It receives a *facade*: a fresh module
//!   object per call holding only the public names of the real module, so module-private
//!   attributes (`collections._sys`, `json.decoder.re`) are unreachable and nothing an actor
//!   does to a module outlives its call. `re`, `hashlib` and `math` resolve to Cowboy's
//!   deterministic, metered replacements.

use crate::{
    bound_helpers::Bytecode, call_state::with_state, cost::cycles, instrument, meter, natives,
    validate::IMPORT_WHITELIST,
};
use rustpython_vm::{
    AsObject, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine,
    builtins::{PyDict, PyDictRef, PyList, PyModule, PySet, PyStr, PyTuple},
    compiler::{self, core::SourceFileBuilder},
    function::FuncArgs,
    scope::Scope,
};
use std::{
    collections::HashMap,
    sync::{LazyLock, Mutex, PoisonError},
};

/// One embedded Python source module.
pub struct LibrarySource {
    pub name: &'static str,
    pub package: bool,
    pub source: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/stdlib_sources.rs"));

/// Cowboy's own Python modules.
pub static COWBOY_SOURCES: &[LibrarySource] = &[
    LibrarySource {
        name: "cowboy_sdk",
        package: false,
        source: include_str!("../python/cowboy_sdk.py"),
    },
    LibrarySource {
        name: "_cowboy_re",
        package: false,
        source: include_str!("../python/_cowboy_re.py"),
    },
    LibrarySource {
        name: "_cowboy_hashlib",
        package: false,
        source: include_str!("../python/_cowboy_hashlib.py"),
    },
    LibrarySource {
        name: "_cowboy_os",
        package: false,
        source: include_str!("../python/_cowboy_os.py"),
    },
    LibrarySource {
        name: "_cowboy_reset",
        package: false,
        source: include_str!("../python/_cowboy_reset.py"),
    },
    LibrarySource {
        name: "_cowboy_library",
        package: false,
        source: include_str!("../python/_cowboy_library.py"),
    },
    LibrarySource {
        name: "_cowboy_mathlib",
        package: false,
        source: include_str!("../python/_cowboy_mathlib.py"),
    },
];

/// What a library module gets when it imports `name` (Cowboy's stand-ins replace modules
/// that would reach the host or its libm).
fn internal_alias(name: &str) -> &str {
    match name {
        "os" | "posixpath" => "_cowboy_os",
        "math" => "_cowboy_mathlib",
        // `hmac` hashes through hashlib: the same metered digests actors get.
        "hashlib" => "_cowboy_hashlib",
        // The regex parser's `\N{name}` looks names up.
        "unicodedata" => "_cowboy_unicodedata",
        other => other,
    }
}

/// Modules some library modules import at load time but use only in functions the PVM never
/// needs (`inspect` imports `argparse`, `importlib`, `linecache` and `tokenize`): empty
/// modules stand in for them, so nothing reaching the host is ever loaded.
const STUB_MODULES: &[&str] = &[
    "argparse",
    "importlib",
    "importlib.machinery",
    "io",
    "linecache",
    "tokenize",
];

/// What an actor gets when it imports `name` (a whitelisted name).
fn actor_alias(name: &str) -> &str {
    match name {
        "re" => "_cowboy_re",
        "hashlib" => "_cowboy_hashlib",
        "math" => "_cowboy_mathlib",
        other => other,
    }
}

fn find_source(name: &str) -> Option<&'static LibrarySource> {
    COWBOY_SOURCES
        .iter()
        .chain(STDLIB_SOURCES.iter())
        .find(|s| s.name == name)
}

/// Parses, instruments and compiles Python source to a code object with specialization
/// disabled (see `engine::freeze_code`).
pub fn compile_instrumented(
    source: &str,
    path: &str,
    actor: bool,
    vm: &VirtualMachine,
) -> PyResult<PyRef<rustpython_vm::builtins::PyCode>> {
    let code =
        instrumented_bytecode(source, path, actor).map_err(|e| vm.new_syntax_error_msg(e))?;
    Ok(code_object(code, vm))
}

/// The bytecode of instrumented module source: what compiling depends on is the source, the
/// path and the rules, never an interpreter.
pub(crate) fn instrumented_bytecode(
    source: &str,
    path: &str,
    actor: bool,
) -> Result<Bytecode, String> {
    let parsed =
        compiler::parser::parse_module(source).map_err(|e| format!("{path}: {}", e.error))?;
    let mut module = parsed.into_syntax();
    instrument::instrument_module(&mut module.body, actor);
    let bound = crate::bound_helpers::bind_module(&mut module.body, source);
    let file = SourceFileBuilder::new(path, source).finish();
    compiler::codegen::compile::compile_program(&module, file, Default::default())
        .map(|code| Bytecode::new(code, bound))
        .map_err(|e| format!("{path}: {e}"))
}

/// An interpreter's code object for compiled bytecode.
fn code_object(code: Bytecode, vm: &VirtualMachine) -> PyRef<rustpython_vm::builtins::PyCode> {
    crate::string_pool::intern_code_names(code.code(), vm);
    let code = code.into_code_object(vm);
    crate::engine::freeze_code(&code);
    code
}

/// The library's modules as compiled by the first interpreter of the process that loaded them.
/// Compiling is a third of starting an interpreter, and an engine starts a new one every
/// [`crate::engine`]`::CALLS_PER_INTERPRETER` calls. Only the embedded sources are kept (a
/// fixed set): code an actor builds at run time is never cached here.
static LIBRARY_BYTECODE: LazyLock<Mutex<HashMap<&'static str, Bytecode>>> =
    LazyLock::new(Default::default);

/// [`compile_instrumented`] for an embedded library module, compiled once per process.
fn compile_library(
    src: &'static LibrarySource,
    vm: &VirtualMachine,
) -> PyResult<PyRef<rustpython_vm::builtins::PyCode>> {
    let cache = || {
        LIBRARY_BYTECODE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    };
    let cached = cache().get(src.name).cloned();
    let code = match cached {
        Some(code) => code,
        None => {
            let code = instrumented_bytecode(src.source, &format!("<{}>", src.name), false)
                .map_err(|e| vm.new_syntax_error_msg(e))?;
            cache().insert(src.name, code.clone());
            code
        }
    };
    Ok(code_object(code, vm))
}

/// [`compile_instrumented`] for one expression (`eval` mode).
pub fn compile_instrumented_expression(
    source: &str,
    path: &str,
    actor: bool,
    vm: &VirtualMachine,
) -> PyResult<PyRef<rustpython_vm::builtins::PyCode>> {
    let parsed = compiler::parser::parse_expression(source)
        .map_err(|e| vm.new_syntax_error_msg(format!("{path}: {}", e.error)))?;
    let mut expression = parsed.into_syntax();
    instrument::instrument_expression(&mut expression.body, actor);
    let bound = crate::bound_helpers::bind_expression(&mut expression.body, source);
    let file = SourceFileBuilder::new(path, source).finish();
    let code =
        compiler::codegen::compile::compile_expression(&expression, file, Default::default())
            .map_err(|e| vm.new_syntax_error_msg(format!("{path}: {e}")))?;
    Ok(code_object(Bytecode::new(code, bound), vm))
}

trait SyntaxErrorMsg {
    fn new_syntax_error_msg(&self, msg: String) -> rustpython_vm::builtins::PyBaseExceptionRef;
}

impl SyntaxErrorMsg for VirtualMachine {
    fn new_syntax_error_msg(&self, msg: String) -> rustpython_vm::builtins::PyBaseExceptionRef {
        self.new_exception_msg(self.ctx.exceptions.syntax_error.to_owned(), msg.into())
    }
}

fn sys_modules(vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    vm.sys_module.get_attr("modules", vm)
}

/// Loads (or returns the cached) library module `name`, resolving Cowboy's aliases.
pub fn load_module(name: &str, vm: &VirtualMachine) -> PyResult {
    let name = internal_alias(name);
    let modules = sys_modules(vm)?;
    if let Some(m) = modules.get_item(name, vm).ok().filter(|m| !vm.is_none(m)) {
        return Ok(m);
    }
    if STUB_MODULES.contains(&name) {
        let dict = vm.ctx.new_dict();
        if STUB_MODULES
            .iter()
            .any(|s| s.starts_with(&format!("{name}.")))
        {
            dict.set_item("__path__", vm.ctx.new_list(vec![]).into(), vm)?;
        }
        let module: PyObjectRef = vm.new_module(name, dict, None).into();
        modules.set_item(name, module.clone(), vm)?;
        if let Some((parent, child)) = name.rsplit_once('.') {
            load_module(parent, vm)?.set_attr(vm.ctx.intern_str(child), module.clone(), vm)?;
        }
        return Ok(module);
    }
    if let Some(src) = find_source(name) {
        // Make sure the parent package is loaded first (its __init__ may import the child).
        if let Some((parent, _)) = name.rsplit_once('.') {
            load_module(parent, vm)?;
            if let Some(m) = modules.get_item(name, vm).ok().filter(|m| !vm.is_none(m)) {
                return Ok(m);
            }
        }
        let code = compile_library(src, vm)?;
        let dict = vm.ctx.new_dict();
        let module = vm.new_module(name, dict.clone(), None);
        let package = if src.package {
            name.to_owned()
        } else {
            name.rsplit_once('.')
                .map(|(p, _)| p.to_owned())
                .unwrap_or_default()
        };
        dict.set_item("__package__", vm.ctx.new_str(package).into(), vm)?;
        if src.package {
            dict.set_item("__path__", vm.ctx.new_list(vec![]).into(), vm)?;
        }
        dict.set_item("__file__", vm.ctx.new_str(format!("<{name}>")).into(), vm)?;
        dict.set_item("__builtins__", vm.builtins.dict().into(), vm)?;
        modules.set_item(name, module.clone().into(), vm)?;
        if let Err(e) = vm.run_code_obj(code, Scope::with_builtins(None, dict, vm)) {
            let _ = modules.del_item(name, vm);
            return Err(e);
        }
        // A module may replace itself in sys.modules while initialising.
        let loaded = modules.get_item(name, vm).unwrap_or_else(|_| module.into());
        if let Some((parent, child)) = name.rsplit_once('.')
            && let Ok(p) = modules.get_item(parent, vm)
        {
            p.set_attr(vm.ctx.intern_str(child), loaded.clone(), vm)?;
        }
        return Ok(loaded);
    }
    // Test mode's modules (`cowboy_test`, a project's test helpers) exist only on the thread
    // running tests, never on one executing blocks.
    if let Some(loaded) = crate::testing::load_module(name, vm) {
        return loaded;
    }
    if meter::in_call() {
        // Everything the library needs was loaded when it was preloaded; a module that is not
        // loaded by now (a native module of the host) is never loaded during a call.
        return Err(vm.new_import_error(
            format!("module '{name}' is not available while an actor call runs"),
            vm.ctx.new_str(name),
        ));
    }
    match name {
        "pvm_host" => register(name, natives::pvm_host_module(vm)?, vm),
        "_cowboy_math" => register(name, natives::math_module(vm)?, vm),
        "_cowboy_regex" => register(name, crate::pyregex::regex_module(vm)?, vm),
        "_cowboy_unicodedata" => register(name, natives::unicodedata_module(vm)?, vm),
        _ => rustpython_vm::import::import_builtin(vm, name),
    }
}

fn register(name: &str, module: PyRef<PyModule>, vm: &VirtualMachine) -> PyResult {
    sys_modules(vm)?.set_item(name, module.clone().into(), vm)?;
    Ok(module.into())
}

/// Resolves a relative import against the importer's `__package__`.
fn absolute_name(
    name: &str,
    globals: &Option<PyDictRef>,
    level: usize,
    vm: &VirtualMachine,
) -> PyResult<String> {
    if level == 0 {
        return Ok(name.to_owned());
    }
    let package = globals
        .as_ref()
        .and_then(|g| g.get_item_opt("__package__", vm).ok().flatten())
        .and_then(|p| {
            p.downcast_ref::<PyStr>()
                .and_then(|s| s.to_str().map(str::to_owned))
        })
        .ok_or_else(|| {
            vm.new_import_error("relative import without a package", vm.ctx.new_str(name))
        })?;
    let mut base: Vec<&str> = package.split('.').collect();
    for _ in 1..level {
        base.pop();
    }
    let base = base.join(".");
    Ok(if name.is_empty() {
        base
    } else {
        format!("{base}.{name}")
    })
}

/// The `__import__` builtin: `__import__(name, globals=None, locals=None, fromlist=(),
/// level=0)`, arguments by position or keyword.
pub fn import_hook(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let arg = |i: usize, key: &str| -> Option<PyObjectRef> {
        args.args
            .get(i)
            .cloned()
            .or_else(|| args.kwargs.get(key).cloned())
    };
    let name = arg(0, "name")
        .and_then(|n| n.downcast::<PyStr>().ok())
        .and_then(|n| n.to_str().map(str::to_owned))
        .ok_or_else(|| vm.new_type_error("__import__() argument 'name' must be str"))?;
    let globals: Option<PyDictRef> =
        arg(1, "globals").and_then(|g| g.downcast::<rustpython_vm::builtins::PyDict>().ok());
    let fromlist: Vec<String> = arg(3, "fromlist")
        .map(|f| {
            let items: Vec<PyObjectRef> = if let Some(t) = f.downcast_ref::<PyTuple>() {
                t.iter().cloned().collect()
            } else if let Some(l) = f.downcast_ref::<rustpython_vm::builtins::PyList>() {
                l.borrow_vec().to_vec()
            } else {
                Vec::new()
            };
            items
                .iter()
                .filter_map(|x| {
                    x.downcast_ref::<PyStr>()
                        .and_then(|s| s.to_str().map(str::to_owned))
                })
                .collect()
        })
        .unwrap_or_default();
    let level = match arg(4, "level") {
        Some(l) => l.try_index(vm)?.as_bigint().try_into().unwrap_or(0usize),
        None => 0,
    };
    // Actor import statements are rewritten into `__ai__` & co., so every `__import__` call
    // comes from library code or from native code working on an actor's behalf: both get real
    // modules.
    library_import(&name, &globals, &fromlist, level, vm)
}

/// `__ai__(name, leaf)`: an actor's `import name` (`leaf`: `import name as x`).
pub fn actor_import_builtin(name: PyObjectRef, leaf: bool, vm: &VirtualMachine) -> PyResult {
    let name = module_name(&name, vm)?;
    actor_import(&name, leaf, vm)
}

/// `__aif__(name, names)`: an actor's `from name import a, b` — the attributes, as a tuple.
///
/// Each public name (no leading `_`) is what the module's facade would bind ([`public_value`]),
/// read from the library module itself: building the whole facade to take one name from it
/// and dropping it was an eighth of a counter call (`from cowboy_sdk import actor`; `cargo
/// bench -p cowboy-pvm --bench instructions`). A name the statement repeats gets the value it
/// got the first time (one facade gave both). A statement that names anything private
/// (`__dict__`, `_x`) reads every name from one facade, built for it, as before.
pub fn actor_import_from(name: PyObjectRef, names: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let module_name = module_name(&name, vm)?;
    admit_import(&module_name, vm)?;
    let real = load_module(actor_alias(&module_name), vm)?;
    let names = names
        .downcast::<PyTuple>()
        .map_err(|_| vm.new_type_error("names must be a tuple"))?;
    let not_found = |attr: &str| {
        vm.new_import_error(
            format!("cannot import name '{attr}' from '{module_name}'"),
            vm.ctx.new_str(module_name.as_str()),
        )
    };
    let attrs = names
        .iter()
        .map(|n| {
            let text = n.downcast_ref::<PyStr>();
            text.and_then(|s| s.to_str().map(|a| (s, a)))
                .ok_or_else(|| vm.new_type_error("names must be str"))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let mut values = Vec::with_capacity(attrs.len());
    if attrs.iter().any(|(_, a)| a.starts_with('_')) {
        let module = facade(&module_name, &real, vm)?;
        for (text, attr) in attrs {
            // The actor's own string: interning it would add to the process-wide string pool,
            // counted against the call's memory only by the first call that names it.
            let value = module.get_attr(text, vm).map_err(|_| not_found(attr))?;
            values.push(value);
        }
        return Ok(vm.ctx.new_tuple(values).into());
    }
    let namespace = real.dict().ok_or_else(|| {
        vm.new_import_error(
            "module has no namespace",
            vm.ctx.new_str(module_name.as_str()),
        )
    })?;
    let mut bound: Vec<(&str, PyObjectRef)> = Vec::with_capacity(attrs.len());
    for (_, attr) in attrs {
        let value = match bound.iter().find(|(a, _)| *a == attr) {
            Some((_, earlier)) => earlier.clone(),
            None => {
                let found = namespace
                    .get_item_opt(attr, vm)
                    .map_err(|_| not_found(attr))?;
                let value = match found {
                    Some(v) => public_value(&module_name, attr, v, vm)?,
                    None => None,
                }
                .ok_or_else(|| not_found(attr))?;
                bound.push((attr, value.clone()));
                value
            }
        };
        values.push(value);
    }
    Ok(vm.ctx.new_tuple(values).into())
}

/// `__ais__(name)`: an actor's `from name import *` into the current module namespace.
pub fn actor_import_star(name: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
    let module_name = module_name(&name, vm)?;
    let module = actor_import(&module_name, true, vm)?;
    let frame = vm
        .current_frame()
        .ok_or_else(|| vm.new_runtime_error("no frame for import *"))?;
    let globals = frame.globals.clone();
    let source = module
        .dict()
        .ok_or_else(|| vm.new_runtime_error("module has no namespace"))?;
    for (k, v) in &source {
        if k.downcast_ref::<PyStr>()
            .and_then(|s| s.to_str())
            .is_some_and(|s| !s.starts_with('_'))
        {
            globals.set_item(&*k, v, vm)?;
        }
    }
    Ok(())
}

fn module_name(name: &PyObjectRef, vm: &VirtualMachine) -> PyResult<String> {
    name.downcast_ref::<PyStr>()
        .and_then(|s| s.to_str())
        .map(str::to_owned)
        .ok_or_else(|| vm.new_type_error("module name must be str"))
}

fn library_import(
    name: &str,
    globals: &Option<PyDictRef>,
    fromlist: &[String],
    level: usize,
    vm: &VirtualMachine,
) -> PyResult {
    let full = absolute_name(name, globals, level, vm)?;
    let module = load_module(&full, vm)?;
    if !fromlist.is_empty() {
        // `from pkg import sub` loads submodules that are not attributes yet.
        for item in fromlist {
            if item != "*"
                && module
                    .get_attr(vm.ctx.intern_str(item.as_str()), vm)
                    .is_err()
                && find_source(&format!("{full}.{item}")).is_some()
            {
                load_module(&format!("{full}.{item}"), vm)?;
            }
        }
        return Ok(module);
    }
    if level == 0
        && let Some((top, _)) = full.split_once('.')
    {
        return load_module(top, vm);
    }
    Ok(module)
}

/// Refuses a module actors may not import, and charges an import of one they may (the first
/// import of a module in a call costs more than a repeated one).
fn admit_import(name: &str, vm: &VirtualMachine) -> PyResult<()> {
    if !IMPORT_WHITELIST.contains(&name) {
        natives::charge(cycles::IMPORT_REFUSED, vm)?;
        return Err(vm.new_import_error(
            format!(
                "module '{name}' is not available in the PVM (import only: {})",
                IMPORT_WHITELIST.join(", ")
            ),
            vm.ctx.new_str(name),
        ));
    }
    let first = with_state(|s| s.imported.insert(name.to_owned())).unwrap_or(true);
    natives::charge(
        if first {
            cycles::IMPORT_FIRST
        } else {
            cycles::IMPORT_CACHED
        },
        vm,
    )
}

fn actor_import(name: &str, leaf: bool, vm: &VirtualMachine) -> PyResult {
    admit_import(name, vm)?;
    let facade_of = |n: &str| -> PyResult {
        let real = load_module(actor_alias(n), vm)?;
        facade(n, &real, vm)
    };
    // `import collections.abc` binds `collections` (with `.abc`); `from collections.abc
    // import X` wants the submodule itself.
    if let Some((top, _)) = name.split_once('.') {
        let sub = facade_of(name)?;
        if leaf {
            return Ok(sub);
        }
        let top_facade = facade_of(top)?;
        let child = name.rsplit_once('.').map(|(_, c)| c).unwrap_or(name);
        top_facade.set_attr(vm.ctx.intern_str(child), sub, vm)?;
        return Ok(top_facade);
    }
    facade_of(name)
}

/// Public library names actors do not get: `get_cache_token` (`abc`, re-exported by
/// `functools`) returns RustPython's process-wide ABC counter, which counts every registration
/// since the process started and so differs between nodes; `copy.dispatch_table` is
/// `copyreg`'s registry of reducers, which the library's `copy` consults for every call of every
/// actor: an entry one call wrote ran in later calls of other actors (with their storage).
const HIDDEN_NAMES: &[&str] = &["get_cache_token", "dispatch_table"];

/// What the facade of module `module` binds to its public name `key` (no leading `_`), whose
/// value in the library module is `value`; `None` when actors do not get the name.
fn public_value(
    module: &str,
    key: &str,
    value: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<Option<PyObjectRef>> {
    if HIDDEN_NAMES.contains(&key) {
        return Ok(None);
    }
    // Submodules are reachable only when they are themselves whitelisted.
    if value.downcast_ref::<PyModule>().is_some() {
        let full = format!("{module}.{key}");
        if IMPORT_WHITELIST.contains(&full.as_str()) {
            return facade(&full, &value, vm).map(Some);
        }
        return Ok(None);
    }
    // A mutable container (`hashlib.algorithms_available`, `typing.EXCLUDED_ATTRIBUTES`) is
    // the library's, shared by every call: the actor gets its own copy, so what one call adds
    // is not there for the next (nor for a node that restarted in between).
    let value = if value.downcast_ref_if_exact::<PySet>(vm).is_some() {
        vm.ctx.types.set_type.as_object().call((value,), vm)?
    } else if let Some(list) = value.downcast_ref_if_exact::<PyList>(vm) {
        vm.ctx.new_list(list.borrow_vec().to_vec()).into()
    } else if let Some(d) = value.downcast_ref_if_exact::<PyDict>(vm) {
        d.copy().into_ref(&vm.ctx).into()
    } else {
        value
    };
    Ok(Some(value))
}

/// A fresh module exposing only the public names of `real`.
fn facade(name: &str, real: &PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let dict = vm.ctx.new_dict();
    let source = real
        .dict()
        .ok_or_else(|| vm.new_import_error("module has no namespace", vm.ctx.new_str(name)))?;
    for (k, v) in &source {
        let Some(key) = k.downcast_ref::<PyStr>().and_then(|s| s.to_str()) else {
            continue;
        };
        if key.starts_with('_') {
            continue;
        }
        if let Some(v) = public_value(name, key, v, vm)? {
            // The library's own key object (its hash is cached), as CPython's module dicts
            // share their keys; a new string per name per import made half the facade's cost.
            dict.set_item(&*k, v, vm)?;
        }
    }
    if let Some(doc) = source.get_item_opt("__doc__", vm)? {
        dict.set_item("__doc__", doc, vm)?;
    }
    Ok(vm.new_module(name, dict, None).into())
}

/// Makes `ABCMeta.register` refuse from now on (the library registered its classes while it
/// was preloaded). A registration bumps RustPython's process-wide ABC counter, which would
/// change the ABC caches — and so the cycles charged — of calls running at that moment in the
/// node's other interpreters (see `engine::INTERPRETERS`).
pub fn seal_abc_registration(vm: &VirtualMachine) -> PyResult<()> {
    let abc = load_module("abc", vm)?;
    let globals = abc
        .dict()
        .ok_or_else(|| vm.new_runtime_error("module abc has no namespace"))?;
    globals.set_item(
        "_abc_register",
        vm.new_function("_abc_register", abc_register_refused)
            .into(),
        vm,
    )
}

fn abc_register_refused(
    _cls: PyObjectRef,
    _subclass: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult {
    Err(vm.new_type_error(format!(
        "ABCMeta.register() is not available in the PVM: a registration changes ABC state \
         every interpreter on the node shares; make the class inherit from the ABC instead {}",
        crate::rules::Rule::AbcRegister.tag()
    )))
}

/// Imports every whitelisted module once, so their initialisation never runs (or is charged)
/// inside an actor call: what a call pays for an import is the same on a fresh node and on one
/// that has run for months.
pub fn preload(vm: &VirtualMachine) -> PyResult<()> {
    debug_assert!(!meter::active());
    // The codec registry (str.encode('latin-1'), used by the regex parser) registers itself
    // when the encodings package is imported.
    load_module("encodings", vm)?;
    load_module("_cowboy_unicodedata", vm)?;
    crate::pyregex::warm_tables();
    for name in IMPORT_WHITELIST {
        load_module(actor_alias(name), vm)?;
    }
    // Every other embedded module too: a library function that imports lazily must find its
    // module already initialised, or its first call would cost more than later ones.
    for src in COWBOY_SOURCES.iter().chain(STDLIB_SOURCES.iter()) {
        load_module(src.name, vm)?;
    }
    // `string.Template` compiles its pattern on first use and stores it on the class, which is
    // read-only once the library is sealed: compile it now.
    let template = load_module("string", vm)?.get_attr("Template", vm)?;
    vm.call_method(&template, "_compile_pattern", ())?;
    Ok(())
}
