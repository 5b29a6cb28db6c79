//! Test mode: Python tests of actors (`cowboy test`), run by the PVM.
//!
//! Test code runs on an engine of its own (its own thread, its own interpreter), unmetered, in
//! the library's context: full builtins, any embedded module. It drives a chain through the
//! `cowboy_test` module (`python/cowboy_test.py`), whose one native entry point,
//! `_cowboy_test_host.request(op, args)`, hands a canonical value to the [`TestHost`] the
//! runner was given and returns its answer. The host runs the chain (and so every actor call,
//! metered exactly as on chain) on another engine; this thread waits meanwhile, so the two
//! interpreters never run at the same time.
//!
//! `cowboy_test`, `_cowboy_test_host` and the project's helper modules exist only on a thread
//! running tests ([`Engine::run_tests`]); an engine executing blocks never sees them.

use crate::{
    engine::{Engine, describe_exception, traceback},
    identity, pyconv,
    value::Value,
};
use rustpython_vm::{
    AsObject, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyDictRef, PyStrRef},
    function::FuncArgs,
    scope::Scope,
};
use std::{
    cell::RefCell,
    collections::HashMap,
    time::{Duration, Instant},
};

/// The `cowboy_test` module's source.
pub const COWBOY_TEST_SOURCE: &str = include_str!("../python/cowboy_test.py");
/// The file name `cowboy_test`'s frames carry; they are left out of a failure's traceback.
const COWBOY_TEST_FILE: &str = "<cowboy_test>";

/// Runs what tests ask of the chain.
pub trait TestHost {
    /// Starts the next test (or property example) on a fresh chain.
    fn reset(&mut self) -> Result<(), String>;
    /// Answers `cowboy_test`'s request `op` with arguments `args` (a dict of named values).
    /// An `Err` is raised in the test as `cowboy_test.HarnessError`.
    fn request(&mut self, op: &str, args: &Value) -> Result<Value, String>;
}

/// A Python source of a project's tests: a test file or a helper module.
#[derive(Clone, Debug)]
pub struct TestSource {
    /// The name it is imported as (its file's stem).
    pub module: String,
    /// Its path as the project names it (`tests/test_counter.py`), in tracebacks.
    pub file: String,
    pub source: String,
}

/// Which tests to run.
#[derive(Clone, Debug, Default)]
pub struct TestPlan {
    /// Modules test files may import (`tests/*.py` that are not test files).
    pub helpers: Vec<TestSource>,
    /// The test files, in order.
    pub files: Vec<TestSource>,
    /// Only tests whose `file::name` contains this.
    pub pattern: Option<String>,
    /// Stop at the first failure.
    pub fail_fast: bool,
}

/// How a test ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Outcome {
    Passed,
    /// An exception escaped it: `message` is its last line (`AssertionError: …`), `traceback`
    /// the frames of the test's files (and, for a failed actor call, the actor's).
    Failed {
        message: String,
        traceback: String,
    },
}

/// One test's result.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct TestResult {
    pub file: String,
    /// The test function (`<collection>` when the file itself could not be loaded).
    pub name: String,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Milliseconds, to the microsecond.
    #[serde(rename = "duration_ms", serialize_with = "millis")]
    #[schemars(with = "f64")]
    pub duration: Duration,
    /// What the test printed.
    pub output: String,
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((d.as_secs_f64() * 1e6).round() / 1e3)
}

impl TestResult {
    pub fn passed(&self) -> bool {
        self.outcome == Outcome::Passed
    }
}

/// The name test results carry when their file could not be loaded.
pub const COLLECTION: &str = "<collection>";

struct Session {
    host: Box<dyn TestHost>,
    modules: HashMap<String, TestSource>,
    /// What the running test printed.
    output: String,
    /// The builtins test code sees: the library's, with `print` captured.
    builtins: Option<PyDictRef>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Ends the session when the run ends, however it ends.
struct Active;

impl Drop for Active {
    fn drop(&mut self) {
        SESSION.with(|s| s.borrow_mut().take());
    }
}

impl Engine {
    /// Runs `plan`'s tests, each on a fresh chain from `host`, calling `on_result` as each
    /// ends; returns every result.
    pub fn run_tests(
        &mut self,
        plan: &TestPlan,
        host: Box<dyn TestHost>,
        on_result: &mut dyn FnMut(&TestResult),
    ) -> Vec<TestResult> {
        let mut modules = HashMap::new();
        for m in plan.helpers.iter().chain(&plan.files) {
            modules.insert(m.module.clone(), m.clone());
        }
        SESSION.with(|s| {
            *s.borrow_mut() = Some(Session {
                host,
                modules,
                output: String::new(),
                builtins: None,
            })
        });
        let _active = Active;
        let sources: HashMap<String, String> = plan
            .helpers
            .iter()
            .chain(&plan.files)
            .map(|m| (m.file.clone(), m.source.clone()))
            .collect();
        let mut results = Vec::new();
        self.interpreter().enter(|vm| {
            'files: for file in &plan.files {
                identity::start_call();
                let started = Instant::now();
                let collected = reset_host()
                    .and_then(|()| collect(file, vm).map_err(|e| failure(&e, &sources, vm)));
                let tests = match collected {
                    Ok(tests) => tests,
                    Err((message, traceback)) => {
                        let r = TestResult {
                            file: file.file.clone(),
                            name: COLLECTION.into(),
                            outcome: Outcome::Failed { message, traceback },
                            duration: started.elapsed(),
                            output: take_output(),
                        };
                        on_result(&r);
                        results.push(r);
                        if plan.fail_fast {
                            break 'files;
                        }
                        continue;
                    }
                };
                for (name, function) in tests {
                    let id = format!("{}::{name}", file.file);
                    if plan.pattern.as_deref().is_some_and(|p| !id.contains(p)) {
                        continue;
                    }
                    identity::start_call();
                    take_output();
                    let started = Instant::now();
                    let outcome = match reset_host() {
                        Err((message, traceback)) => Outcome::Failed { message, traceback },
                        Ok(()) => match function.call((), vm) {
                            Ok(_) => Outcome::Passed,
                            Err(e) => {
                                let (message, traceback) = failure(&e, &sources, vm);
                                Outcome::Failed { message, traceback }
                            }
                        },
                    };
                    drop(identity::take_ids());
                    let r = TestResult {
                        file: file.file.clone(),
                        name,
                        outcome,
                        duration: started.elapsed(),
                        output: take_output(),
                    };
                    on_result(&r);
                    let failed = !r.passed();
                    results.push(r);
                    if failed && plan.fail_fast {
                        break 'files;
                    }
                }
            }
        });
        results
    }
}

fn reset_host() -> Result<(), (String, String)> {
    SESSION
        .with(|s| match s.borrow_mut().as_mut() {
            Some(session) => session.host.reset(),
            None => Err("no test session".into()),
        })
        .map_err(|e| {
            (
                format!("HarnessError: cannot start a fresh chain: {e}"),
                String::new(),
            )
        })
}

fn take_output() -> String {
    SESSION.with(|s| {
        s.borrow_mut()
            .as_mut()
            .map(|s| std::mem::take(&mut s.output))
            .unwrap_or_default()
    })
}

/// Loads test file `file` as a module; its `test_*` functions, in the order they are defined.
fn collect(
    file: &TestSource,
    vm: &VirtualMachine,
) -> Result<Vec<(String, PyObjectRef)>, rustpython_vm::builtins::PyBaseExceptionRef> {
    let module = load_module(&file.module, vm).ok_or_else(|| {
        vm.new_import_error(
            format!("no test module {}", file.module),
            vm.ctx.new_str(file.module.as_str()),
        )
    })??;
    let dict = module
        .dict()
        .ok_or_else(|| vm.new_type_error("a module without a namespace"))?;
    let mut tests = Vec::new();
    for (key, value) in &dict {
        let Some(name) = key.downcast_ref::<rustpython_vm::builtins::PyStr>() else {
            continue;
        };
        let Some(name) = name.to_str() else {
            continue;
        };
        if name.starts_with("test_") && value.is_callable() {
            tests.push((name.to_owned(), value));
        }
    }
    Ok(tests)
}

/// The test builtins: the library's, with `print` writing to the running test's output.
fn builtins(vm: &VirtualMachine) -> PyResult<PyDictRef> {
    if let Some(b) = SESSION.with(|s| s.borrow().as_ref().and_then(|s| s.builtins.clone())) {
        return Ok(b);
    }
    let dict = vm.ctx.new_dict();
    for (k, v) in &vm.builtins.dict() {
        dict.set_item(&*k, v, vm)?;
    }
    dict.set_item("print", vm.new_function("print", print).into(), vm)?;
    SESSION.with(|s| {
        if let Some(s) = s.borrow_mut().as_mut() {
            s.builtins = Some(dict.clone());
        }
    });
    Ok(dict)
}

fn print(args: FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let text_of = |key: &str, default: &str| -> PyResult<String> {
        match args.kwargs.get(key) {
            Some(v) if !vm.is_none(v) => Ok(v.str(vm)?.to_string()),
            _ => Ok(default.to_owned()),
        }
    };
    let sep = text_of("sep", " ")?;
    let end = text_of("end", "\n")?;
    let mut line = String::new();
    for (i, a) in args.args.iter().enumerate() {
        if i > 0 {
            line.push_str(&sep);
        }
        line.push_str(a.str(vm)?.as_ref());
    }
    line.push_str(&end);
    SESSION.with(|s| {
        if let Some(s) = s.borrow_mut().as_mut() {
            s.output.push_str(&line);
        }
    });
    Ok(())
}

/// `_cowboy_test_host.request(op, args)`: `[True, answer]` or `[False, why]`.
fn request(op: PyStrRef, args: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let op = op.to_string();
    let args = pyconv::to_value(&args, vm).map_err(|e| {
        vm.new_value_error(format!(
            "cowboy_test.{}: an argument has no canonical encoding: {e}",
            op
        ))
    })?;
    let answer = SESSION.with(|s| match s.borrow_mut().as_mut() {
        Some(session) if op == "reset" => session.host.reset().map(|()| Value::None),
        Some(session) => session.host.request(&op, &args),
        None => Err("cowboy_test is only available while `cowboy test` runs".into()),
    });
    let reply = match answer {
        Ok(v) => Value::List(vec![Value::Bool(true), v]),
        Err(why) => Value::List(vec![Value::Bool(false), Value::Str(why)]),
    };
    Ok(pyconv::to_object(&reply, vm))
}

/// Test mode's modules, when this thread runs tests: `None` for any other name (and on any
/// other thread).
pub(crate) fn load_module(name: &str, vm: &VirtualMachine) -> Option<PyResult> {
    let source = SESSION.with(|s| {
        let s = s.borrow();
        let s = s.as_ref()?;
        match name {
            "_cowboy_test_host" | "cowboy_test" => Some(None),
            _ => s.modules.get(name).map(|m| Some(m.clone())),
        }
    })?;
    let modules = match vm.sys_module.get_attr("modules", vm) {
        Ok(m) => m,
        Err(e) => return Some(Err(e)),
    };
    if let Some(m) = modules.get_item(name, vm).ok().filter(|m| !vm.is_none(m)) {
        return Some(Ok(m));
    }
    let loaded = (|| -> PyResult {
        if name == "_cowboy_test_host" {
            let dict = vm.ctx.new_dict();
            dict.set_item("request", vm.new_function("request", request).into(), vm)?;
            let module: PyObjectRef = vm.new_module(name, dict, None).into();
            modules.set_item(name, module.clone(), vm)?;
            return Ok(module);
        }
        let (file, text) = match &source {
            Some(m) => (m.file.as_str(), m.source.as_str()),
            None => (COWBOY_TEST_FILE, COWBOY_TEST_SOURCE),
        };
        let code = vm
            .compile(text, rustpython_vm::compiler::Mode::Exec, file.to_owned())
            .map_err(|e| {
                // `file:line:col: message`, as editors read it, with the line.
                let (line, column) = e.python_location();
                let shown = text
                    .lines()
                    .nth(line.saturating_sub(1))
                    .unwrap_or("")
                    .trim_end();
                vm.new_syntax_error_msg(format!("{file}:{line}:{column}: {e}\n    {shown}"))
            })?;
        let dict = vm.ctx.new_dict();
        dict.set_item("__name__", vm.ctx.new_str(name).into(), vm)?;
        dict.set_item("__file__", vm.ctx.new_str(file).into(), vm)?;
        dict.set_item("__builtins__", builtins(vm)?.into(), vm)?;
        let module: PyObjectRef = vm.new_module(name, dict.clone(), None).into();
        modules.set_item(name, module.clone(), vm)?;
        if let Err(e) = vm.run_code_obj(code, Scope::with_builtins(None, dict, vm)) {
            let _ = modules.del_item(name, vm);
            return Err(e);
        }
        Ok(module)
    })();
    Some(loaded)
}

trait SyntaxErrorMsg {
    fn new_syntax_error_msg(&self, msg: String) -> rustpython_vm::builtins::PyBaseExceptionRef;
}

impl SyntaxErrorMsg for VirtualMachine {
    fn new_syntax_error_msg(&self, msg: String) -> rustpython_vm::builtins::PyBaseExceptionRef {
        self.new_exception_msg(self.ctx.exceptions.syntax_error.to_owned(), msg.into())
    }
}

/// A failed test's message (the exception's last line) and traceback: the harness's own frames
/// left out, each frame of a project file followed by its source line.
fn failure(
    e: &rustpython_vm::builtins::PyBaseExceptionRef,
    sources: &HashMap<String, String>,
    vm: &VirtualMachine,
) -> (String, String) {
    if e.class().is(vm.ctx.exceptions.syntax_error)
        && let Ok(msg) = e.as_object().get_attr("msg", vm)
        && let Ok(msg) = msg.str(vm)
    {
        // Its message says where; a traceback would only show the import machinery.
        return (format!("SyntaxError: {msg}"), String::new());
    }
    let described = describe_exception(e, vm);
    let raw = traceback(e, &described, vm).unwrap_or_else(|| described.clone());
    (described, with_sources(&raw, sources))
}

/// Rewrites a traceback: frames in `cowboy_test` are dropped, and a frame of a known file gets
/// its source line if the traceback does not show it already.
pub fn with_sources(traceback: &str, sources: &HashMap<String, String>) -> String {
    let harness = format!("  File \"{COWBOY_TEST_FILE}\"");
    let lines: Vec<&str> = traceback.lines().collect();
    let mut out = String::with_capacity(traceback.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let source_follows = lines
            .get(i + 1)
            .is_some_and(|next| next.starts_with("    ") && !next.starts_with("    File"));
        if line.starts_with(&harness) {
            i += if source_follows { 2 } else { 1 };
            continue;
        }
        // A traceback header whose frames were all the harness's.
        if line == "Traceback (most recent call last):"
            && !lines
                .get(i + 1)
                .is_some_and(|next| next.starts_with("  File ") && !next.starts_with(&harness))
            && !lines[i + 1..]
                .iter()
                .take_while(|l| l.starts_with("  "))
                .any(|l| l.starts_with("  File ") && !l.starts_with(&harness))
        {
            i += 1;
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if let Some(rest) = line.strip_prefix("  File \"")
            && !source_follows
            && let Some((file, rest)) = rest.split_once('"')
            && let Some(text) = sources.get(file)
            && let Some(number) = rest
                .strip_prefix(", line ")
                .and_then(|r| r.split(',').next())
                .and_then(|n| n.trim().parse::<usize>().ok())
            && let Some(source_line) = number
                .checked_sub(1)
                .and_then(|n| text.lines().nth(n))
                .map(str::trim)
                .filter(|l| !l.is_empty())
        {
            out.push_str("    ");
            out.push_str(source_line);
            out.push('\n');
        }
        i += 1;
    }
    out
}
