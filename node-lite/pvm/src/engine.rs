//! The engine: one long-lived interpreter per thread, and the deploy/call protocol.
//!
//! An [`Engine`] owns a RustPython interpreter configured for determinism (fixed hash seed, no
//! host environment or stdio, patched runtime operations, embedded metered library) and runs
//! actor calls on it. Every call gets a fresh namespace: the actor module is re-executed, the
//! instance rebuilt from storage, the handler run, the changed attributes written back. Nothing
//! Python-level survives a call except what the actor stored, so two nodes with different
//! histories compute the same results.

use crate::{
    call_state::CallGuard,
    cost::{cells, cycles, limits},
    host::{CallContext, Effects, Host},
    identity, library, library_objects, meter, natives, patches, pyconv, pyregex, sandbox,
    validate::{self, ActorShape, Diagnostic},
    value::Value,
};
use rustpython_vm::{
    AsObject, Interpreter, PyObjectRef, PyRef, Settings, VirtualMachine,
    builtins::{PyBaseExceptionRef, PyCode, PyStr},
    scope::Scope,
};
use std::{
    collections::HashMap,
    fmt,
    rc::Rc,
    sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard},
};

/// Storage-key prefix under which instance attributes are persisted. `0xff` can never start a
/// canonical value, so attribute keys never collide with `self.storage` keys.
pub const ATTR_PREFIX: &[u8] = b"\xffattr:";
/// Storage key holding the sorted list of persisted attribute names.
pub const ATTR_INDEX: &[u8] = b"\xffattrs";

/// Why a call failed, in categories that are part of the receipt: the receipt's failure kinds
/// (`cowboy_types::FailureKind`), of which a call produces those with codes 1–13.
pub use cowboy_types::FailureKind as ErrorKind;

/// A failed call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    pub kind: ErrorKind,
    /// Deterministic message (goes into the receipt).
    pub message: String,
    /// Python traceback, for developers (not consensus data).
    pub traceback: Option<String>,
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for CallError {}

/// Budgets for one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub cycles: u64,
    pub cells: u64,
}

/// The result of a deploy or a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOutcome {
    pub result: Result<Value, CallError>,
    pub cycles_used: u64,
    pub cells_used: u64,
    /// Effects of a successful call (empty when it failed: everything is reverted).
    pub effects: Effects,
    /// Peak heap bytes during the call (informational).
    pub peak_memory: usize,
    /// `print` output, kept even when the call failed (for developers).
    pub logs: Vec<String>,
}

impl CallOutcome {
    /// A call that failed before anything ran (nothing charged, no effects).
    fn failed(error: CallError) -> Self {
        Self {
            result: Err(error),
            cycles_used: 0,
            cells_used: 0,
            effects: Effects::default(),
            peak_memory: 0,
            logs: Vec::new(),
        }
    }
}

/// Validated, instrumented actor code, ready to run.
pub struct ActorCode {
    /// Canonical source.
    pub source: String,
    pub shape: Rc<ActorShape>,
    code: PyRef<PyCode>,
    /// The interpreter the code object belongs to (see [`Engine::generation`]).
    generation: u64,
}

impl ActorCode {
    /// The address this code gets when `deployer` deploys it with the zero salt (CREATE2 over
    /// the code hash): where `cowboy run` and `cowboy test` place the actor they run locally.
    pub fn address_deployed_by(&self, deployer: crate::host::Address) -> crate::host::Address {
        cowboy_types::actor_address(
            &cowboy_types::Address(deployer),
            &cowboy_types::Hash::ZERO,
            &cowboy_types::code_hash(&self.source),
        )
        .0
    }
}

impl fmt::Debug for ActorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActorCode")
            .field("shape", &self.shape)
            .finish()
    }
}

/// Settings for the deterministic interpreter.
fn settings() -> Settings {
    let mut s = Settings::default();
    // Fixed string hashing (whitepaper §3: PYTHONHASHSEED = 0).
    s.hash_seed = Some(0);
    s.isolated = true;
    s.ignore_environment = true;
    s.import_site = false;
    s.safe_path = true;
    s.allow_external_library = false;
    s.install_signal_handlers = false;
    s.user_site_directory = false;
    s.int_max_str_digits = 1300;
    s
}

/// Native modules of the VM and of `rustpython-stdlib` the embedded library may import.
/// `_bisect` is not one: its `insort(a, x, key=f)` inserts `f(x)` where CPython inserts `x`, so
/// `bisect` runs its own Python definitions (metered like any code).
const NATIVE_MODULES: &[&str] = &[
    "_struct",
    "binascii",
    "_contextvars",
    "_md5",
    "_sha1",
    "_sha256",
    "_sha512",
    "_sha3",
    "_blake2",
    "_opcode",
];

/// Turns adaptive specialization off in `code` and every code object nested in it.
///
/// A code object specializes its instructions once they have run often enough, and the count
/// lives in the code object, which outlives calls (the library's for as long as the node runs,
/// an actor's until the interpreter is replaced): how a call ran would depend on how many calls
/// ran the same code before it, on this node. Specialized instructions skip type slots
/// (`FOR_ITER_RANGE` advances a range without the charged `__next__`, specialized `BINARY_OP`s,
/// `COMPARE_OP_STR` and `CALL_STR_1`/`CALL_BUILTIN_CLASS` skip the charged slots and
/// constructors), which changed the cycles charged; and the others allocate otherwise than the
/// generic forms (an `OrderedDict.__setitem__` made a 24-byte allocation from its second call on
/// that its first did not), which changed the memory a call was counted at its peak. No
/// instruction specializes: about 5-10% of the plain loop's speed (`cycle_price`, same run).
pub fn freeze_code(code: &rustpython_vm::Py<PyCode>) {
    use rustpython_vm::bytecode::{Instruction, JUMP_BACKWARD_INITIAL_VALUE};
    use std::borrow::Borrow as _;
    /// A counter value that never triggers specialization (every step keeps it ≡ 15 mod 16,
    /// never below 15).
    const NEVER: u16 = 15;
    code.quickened
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let units = &code.code.instructions;
    let mut i = 0;
    while i < units.len() {
        let op = units.read_op(i);
        let caches = op.cache_entries();
        if caches > 0 && i + 1 < units.len() && !op.is_instrumented() {
            // `JUMP_BACKWARD` only becomes `JUMP_BACKWARD_NO_JIT`, the same jump.
            let counter = match op {
                Instruction::JumpBackward { .. } => JUMP_BACKWARD_INITIAL_VALUE,
                _ => NEVER,
            };
            // SAFETY: `i + 1` is the cache slot of instruction `i`, inside the code units.
            unsafe { units.write_adaptive_counter(i + 1, counter) };
        }
        i += 1 + caches;
    }
    for c in code.code.constants.iter() {
        let obj: &rustpython_vm::PyObject = c.borrow();
        if let Some(inner) = obj.downcast_ref::<PyCode>() {
            freeze_code(inner);
        }
    }
}

/// One deterministic interpreter. Not `Send`: it lives on the thread that created it.
pub struct Engine {
    interpreter: Interpreter,
    /// Restores history-dependent library state before each call (see `_cowboy_reset`).
    reset: LibraryReset,
    /// Whitelisted modules the previous call imported (what the next reset must cover).
    last_imports: std::collections::BTreeSet<String>,
    actors: HashMap<[u8; 32], Rc<ActorCode>>,
    calls: u64,
    /// Counts interpreter replacements: code compiled by an earlier interpreter is compiled
    /// again before it runs on this one.
    generation: u64,
    /// The library reset failed (a bug): the next call starts on a fresh interpreter rather
    /// than on state no restarted node has.
    reset_failed: bool,
    /// Gives the free lists back what compiling actor code takes from them.
    reserve: crate::free_lists::Reserve,
    /// What the last call created that was still alive when it ended, torn down before the
    /// next call (see [`collect_garbage`]).
    leftovers: Vec<PyObjectRef>,
}

/// Interpreters start one at a time and never while a call runs anywhere in the process.
///
/// RustPython keeps one ABC invalidation counter for the whole process (`_abc`), bumped by
/// every `ABCMeta.register` in any interpreter — hundreds of times while one preloads the
/// library. A bump in the middle of another interpreter's call invalidates that call's negative
/// `isinstance` caches, and the call is charged for re-running (metered) `__subclasshook__`s: a
/// node starting its query engine while it executes a block would charge other cycles than its
/// peers. Calls share this lock (they may run in parallel: actors cannot register, see
/// [`library::seal_abc_registration`]); starting an interpreter takes it alone. Between calls
/// a bump changes nothing, since every call starts with the ABC caches it may consult emptied
/// (`_cowboy_reset`).
static INTERPRETERS: RwLock<()> = RwLock::new(());

/// Held while an interpreter starts (or runs unmetered code that may register ABCs).
fn interpreter_starting() -> RwLockWriteGuard<'static, ()> {
    // The lock guards no data: a thread that panicked while holding it left nothing half-done.
    INTERPRETERS.write().unwrap_or_else(PoisonError::into_inner)
}

/// Held while a call runs.
fn call_running() -> RwLockReadGuard<'static, ()> {
    INTERPRETERS.read().unwrap_or_else(PoisonError::into_inner)
}

/// Calls served by one interpreter before it is replaced: a bound on whatever a long-lived
/// interpreter accumulates that collecting reference cycles (`collect_garbage`) does not free.
/// A replacement costs as much as thousands of small calls (starting an interpreter), and
/// nothing a call can observe depends on when it happens, so it is rare: at 10,000 it was a
/// quarter of a counter call's time. What grows between replacements is bounded on its own:
/// loaded actor code by [`ACTORS_PER_INTERPRETER`]; a call's objects are all freed after it.
const CALLS_PER_INTERPRETER: u64 = 100_000;

/// Distinct actors' compiled code one interpreter keeps ([`Engine::load`]'s cache) before it
/// is replaced. Code is never evicted alone: dropping it would give its constants back to the
/// free lists in the middle of the interpreter's life, and every call must find them as full as
/// a fresh node's (`free_lists`).
const ACTORS_PER_INTERPRETER: usize = 1_000;

/// Why an engine could not start.
#[derive(Debug, thiserror::Error)]
#[error("the PVM failed to initialise: {0}")]
pub struct InitError(pub String);

impl Engine {
    /// Creates an interpreter, patches it for determinism and metering, and preloads the
    /// whitelisted modules.
    pub fn new() -> Result<Self, InitError> {
        let (interpreter, reset) = Self::build()?;
        Self::seal(&interpreter, &reset)?;
        Ok(Self {
            interpreter,
            reset,
            last_imports: Default::default(),
            actors: HashMap::new(),
            calls: 0,
            generation: 0,
            reset_failed: false,
            reserve: Default::default(),
            leftovers: Vec::new(),
        })
    }

    /// Creates and patches an interpreter and preloads the library; [`Engine::seal`] makes it
    /// ready for calls, once no other interpreter of the thread is left.
    fn build() -> Result<(Interpreter, LibraryReset), InitError> {
        let _starting = interpreter_starting();
        // Handles into the previous interpreter's library patterns die with it.
        pyregex::forget_library_patterns();
        let builder = Interpreter::builder(settings());
        let defs: Vec<_> = rustpython_stdlib::stdlib_module_defs(&builder.ctx)
            .into_iter()
            .filter(|d| NATIVE_MODULES.contains(&d.name.as_str()))
            .collect();
        let interpreter = builder.add_native_modules(&defs).build();
        // No automatic cycle collection: RustPython collects when this thread's count of
        // allocations since it started crosses a threshold, so a collection — and the
        // `__del__`s of an actor's cyclic garbage, charged to whichever call is running, or the
        // memory it frees under a call's limit — would land at points that depend on the node's
        // history (when it last restarted), not on the chain. Cycles are collected between
        // calls instead (`collect_garbage`). The collector's state is per thread.
        rustpython_vm::gc_state::gc_state().disable();
        let reset = interpreter.enter(|vm| -> Result<LibraryReset, InitError> {
            let fail = |e: PyBaseExceptionRef| {
                let described = describe_exception(&e, vm);
                InitError(traceback(&e, &described, vm).unwrap_or(described))
            };
            // 256 frames, the handler included (whitepaper §3).
            vm.recursion_limit.set(limits::RECURSION);
            natives::init_exception_types(vm);
            patches::install(vm).map_err(fail)?;
            sandbox::install_library_builtins(vm).map_err(fail)?;
            crate::bound_helpers::check_installed(vm).map_err(InitError)?;
            // Before the preload too: library modules keep built-in methods they import
            // (`json` keeps `int.__repr__`), and must keep the same ones on every interpreter.
            patches::expose_patched_slots(vm).map_err(fail)?;
            // Before the preload too: `json` binds its regexes' `match` methods when imported.
            crate::prices::install_sre(vm).map_err(fail)?;
            library::preload(vm).map_err(fail)?;
            patches::patch_native_types(vm).map_err(fail)?;
            crate::sizes::guard_struct(vm).map_err(fail)?;
            crate::sizes::guard_itertools(vm).map_err(fail)?;
            crate::prices::install_deque(vm).map_err(fail)?;
            patches::expose_patched_slots(vm).map_err(fail)?;
            library::load_module("_cowboy_library", vm)
                .and_then(|m| m.get_attr("_install_sequence_deque", vm))
                .and_then(|f| f.call((), vm))
                .map_err(fail)?;
            crate::prices::install_binascii(vm).map_err(fail)?;
            crate::fidelity::install_binascii_errors(vm).map_err(fail)?;
            crate::type_names::install(vm).map_err(fail)?;
            crate::string_pool::install(vm).map_err(fail)?;
            crate::fidelity::install_decimal_constructor_errors(vm).map_err(fail)?;
            sandbox::guard_library_attribute_walks(vm).map_err(fail)?;
            library::seal_abc_registration(vm).map_err(fail)?;
            sandbox::install_actor_builtins(vm).map_err(fail)?;
            LibraryReset::load(vm).map_err(fail)
        })?;
        Ok((interpreter, reset))
    }

    /// Records the library of a built interpreter, empties its caches, and freezes it. The
    /// collector and the library record are the thread's: every other interpreter the thread
    /// ran must be dropped by now, or its objects would be recorded, and frozen, as this one's
    /// library, and kept for as long as the thread runs.
    fn seal(interpreter: &Interpreter, reset: &LibraryReset) -> Result<(), InitError> {
        let _starting = interpreter_starting();
        interpreter.enter(|vm| -> Result<(), InitError> {
            let fail = |e: PyBaseExceptionRef| {
                let described = describe_exception(&e, vm);
                InitError(traceback(&e, &described, vm).unwrap_or(described))
            };
            // What earlier interpreters of this thread left (their library, frozen, and what
            // the previous record held) is garbage now: collected, metered, before the record.
            library_objects::forget();
            rustpython_vm::gc_state::gc_state().unfreeze();
            collect_garbage(Vec::new(), vm);
            // Everything alive now is the library's: shared by all calls, read-only in them.
            library_objects::record(vm);
            // And frozen now, so that the collection below walks only what the reset makes. It
            // frees what it freed walking everything: the record holds every frozen object, so
            // each is reachable, and an object made since is reachable through one exactly when
            // a frozen object refers to it, which the collector counts as a reference from
            // outside what it walks. (The whole library walked twice was a third of a start.)
            rustpython_vm::gc_state::gc_state().freeze();
            for class in library_objects::library_types() {
                library_objects::compact_namespace(&class);
            }
            reset.full.call((), vm).map_err(fail)?;
            // Caches the preload filled before `_cowboy_reset` watched the checks (a class it
            // registered is in its ABC's positive cache): every call starts with none.
            for class in library_objects::library_classes() {
                if class
                    .get_direct_attr(vm.ctx.intern_str("_abc_impl"))
                    .is_some()
                {
                    reset.make_caches.call((class.clone(),), vm).map_err(fail)?;
                    reset.reset_caches.call((class,), vm).map_err(fail)?;
                }
            }
            reset.deepen.call((), vm).map_err(fail)?;
            // The checks `make_caches` made recorded the ABCs they consulted, all reset now.
            vm.call_method(&reset.touched_abcs, "clear", ())
                .map_err(fail)?;
            crate::free_lists::fill(vm).map_err(fail)?;
            // The library, which lives as long as the interpreter, is frozen with what the
            // reset left: the collector, which runs between calls, walks only what calls
            // created. (When the reset left nothing tracked, this collection is skipped and the
            // method cache keeps what the seal filled: found results only, the same on every
            // interpreter, so a matter of speed.)
            collect_garbage(Vec::new(), vm);
            rustpython_vm::gc_state::gc_state().freeze();
            Ok(())
        })
    }

    /// Runs library-context Python (full builtins, no metering) and returns `repr` of the
    /// value bound to `result`, or the error. For tests and diagnostics only.
    #[doc(hidden)]
    pub fn debug_exec(&mut self, source: &str) -> Result<String, String> {
        let _starting = interpreter_starting();
        // Numbered like a call, so that `id()` is stable within one `debug_exec`.
        identity::start_call();
        self.interpreter.enter(|vm| {
            let globals = vm.ctx.new_dict();
            let run = || -> rustpython_vm::PyResult<String> {
                globals.set_item("__builtins__", vm.builtins.dict().into(), vm)?;
                let code = vm
                    .compile(
                        source,
                        rustpython_vm::compiler::Mode::Exec,
                        "<debug>".to_owned(),
                    )
                    .map_err(|e| vm.new_value_error(format!("{e}")))?;
                vm.run_code_obj(code, Scope::with_builtins(None, globals.clone(), vm))?;
                let result = globals.get_item("result", vm)?;
                let text = result.repr(vm)?.to_string();
                drop(identity::take_ids());
                Ok(text)
            };
            run().map_err(|e| {
                let described = describe_exception(&e, vm);
                traceback(&e, &described, vm).unwrap_or(described)
            })
        })
    }

    /// The interpreter, for the test mode ([`crate::testing`]), which runs test code on an
    /// engine of its own.
    pub(crate) fn interpreter(&self) -> &Interpreter {
        &self.interpreter
    }

    /// Replaces the interpreter now, as after a panic. For tests only.
    #[doc(hidden)]
    pub fn debug_replace_interpreter(&mut self) {
        self.replace_interpreter();
    }

    /// How many objects this thread's cycle collector tracks. For tests only.
    #[doc(hidden)]
    pub fn debug_tracked_objects() -> usize {
        rustpython_vm::gc_state::gc_state().get_objects(None).len()
    }

    /// Code already loaded under `code_hash` (keccak256 of the canonical source), if cached.
    pub fn cached(&self, code_hash: &[u8; 32]) -> Option<Rc<ActorCode>> {
        self.actors.get(code_hash).cloned()
    }

    /// Validates, canonicalises and compiles actor source (cached by code hash).
    pub fn load(&mut self, source: &str) -> Result<Rc<ActorCode>, Vec<Diagnostic>> {
        // Before the cache: source that canonicalises to a loaded actor may still be refused.
        validate::check_normalization(source)?;
        let canonical = cowboy_types::canonicalize_source(source);
        let hash = cowboy_types::code_hash(&canonical).0;
        if let Some(a) = self.actors.get(&hash) {
            return Ok(a.clone());
        }
        let (_, shape) = validate::validate(&canonical)?;
        if self.actors.len() >= ACTORS_PER_INTERPRETER {
            // Between calls (a call holds the engine): code handed out before is recompiled
            // on the fresh interpreter when it runs (`generation`).
            self.replace_interpreter();
        }
        let reserve = &mut self.reserve;
        let code = self.interpreter.enter(|vm| {
            let code = library::compile_instrumented(&canonical, ACTOR_FILE, true, vm)?;
            // The code's constants came from the free lists, which every call must find full.
            reserve.give_back(&crate::free_lists::Kept::by(&code), vm)?;
            Ok(code)
        });
        let code = code.map_err(|e| self.interpreter.enter(|vm| describe_exception(&e, vm)));
        let code = code.map_err(|message| {
            vec![Diagnostic {
                line: 1,
                column: 1,
                rule: validate::Rule::Syntax,
                message,
                hint: "the source could not be compiled".into(),
            }]
        })?;
        let actor = Rc::new(ActorCode {
            source: canonical,
            shape: Rc::new(shape),
            code,
            generation: self.generation,
        });
        self.actors.insert(hash, actor.clone());
        Ok(actor)
    }

    /// Runs `__init__(*args)` and persists the new instance's attributes.
    pub fn deploy(
        &mut self,
        actor: &ActorCode,
        host: &mut dyn Host,
        ctx: CallContext,
        args: &[u8],
        limits: Limits,
    ) -> CallOutcome {
        self.run(actor, host, ctx, None, args, limits)
    }

    /// Runs handler `method(*args)`.
    pub fn call(
        &mut self,
        actor: &ActorCode,
        host: &mut dyn Host,
        ctx: CallContext,
        method: &str,
        args: &[u8],
        limits: Limits,
    ) -> CallOutcome {
        self.run(actor, host, ctx, Some(method), args, limits)
    }

    /// Starts over with a fresh interpreter. If none can start, the retired one stays and every
    /// call fails (`Host`: the node cannot execute) until one can. Loaded actor code belongs to
    /// the old interpreter and is dropped with it.
    fn replace_interpreter(&mut self) {
        // The previous call's garbage goes first, on the old interpreter, metered: it may hold
        // objects whose `__del__` is the actor's.
        let leftovers = std::mem::take(&mut self.leftovers);
        self.interpreter.enter(|vm| collect_garbage(leftovers, vm));
        self.reserve = Default::default();
        // The old interpreter is taken apart before the new one starts: the new one's start
        // replaces the thread's references to the old one's objects (which would keep them).
        retire(&self.interpreter);
        self.actors.clear();
        self.last_imports.clear();
        self.generation += 1;
        // A start that fails (it succeeded on this thread once: only a lack of memory stops
        // it) leaves the retired interpreter, on which every call fails its library reset, and
        // the next call tries again.
        self.reset_failed = true;
        let Ok((fresh, reset)) = Self::build() else {
            return;
        };
        self.reset = reset;
        self.interpreter = fresh;
        self.reset_failed = Self::seal(&self.interpreter, &self.reset).is_err();
    }

    fn run(
        &mut self,
        actor: &ActorCode,
        host: &mut dyn Host,
        ctx: CallContext,
        method: Option<&str>,
        args: &[u8],
        limits: Limits,
    ) -> CallOutcome {
        self.calls += 1;
        if self.calls.is_multiple_of(CALLS_PER_INTERPRETER) || self.reset_failed {
            self.replace_interpreter();
        }
        // Code compiled by a replaced interpreter: compile it again on this one (the source
        // validated once already; compiling is not metered).
        let recompiled;
        let actor = if actor.generation == self.generation {
            actor
        } else {
            match self.load(&actor.source) {
                Ok(fresh) => {
                    recompiled = fresh;
                    &*recompiled
                }
                Err(diagnostics) => {
                    return CallOutcome::failed(fail(
                        ErrorKind::Validation,
                        diagnostics
                            .first()
                            .map_or_else(String::new, |d| d.to_string()),
                    ));
                }
            }
        };
        let running = call_running();
        // Every call starts from the same library state (unmetered).
        let reset = &self.reset;
        let previous = std::mem::take(&mut self.last_imports);
        let reset_result = self.interpreter.enter(|vm| {
            meter::start_runtime(RUNTIME_CYCLES, limits::MEMORY_BYTES);
            let result = reset.run(&previous, vm);
            let _ = meter::finish();
            result
        });
        if let Err(e) = reset_result {
            self.reset_failed = true;
            let message = self.interpreter.enter(|vm| describe_exception(&e, vm));
            return CallOutcome::failed(fail(
                ErrorKind::Host,
                format!("library reset failed: {message}"),
            ));
        }
        // After the reset, which drops what the library's caches held of the previous call.
        let leftovers = std::mem::take(&mut self.leftovers);
        self.interpreter.enter(|vm| {
            collect_garbage(leftovers, vm);
            library_objects::forget_earlier_calls_subclasses();
            // What is alive now outlives calls (what the reset or a compile made): whatever the
            // collector tracks from here on is this call's.
            rustpython_vm::gc_state::gc_state().freeze();
        });
        // `repr`'s guard against recursion keeps the room it grew: every call starts with none.
        self.interpreter
            .enter(|vm| drop(std::mem::take(&mut *vm.repr_guards.borrow_mut())));
        let guard = CallGuard::install(host, ctx, actor.shape.clone());
        // Whatever the runtime compiled between calls is not this call's.
        pyregex::clear_patterns();
        meter::start(limits.cycles, limits.cells, limits::MEMORY_BYTES);
        // The panic boundary: a Rust panic anywhere in the interpreter (a RustPython bug an
        // actor found) ends this call, deterministically, instead of the thread that executes
        // blocks. The interpreter it happened in may hold half-updated state, so it is replaced
        // before the next call.
        let executed = self.interpreter.enter(|vm| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                identity::start_call();
                let result = execute(actor, method, args, vm);
                // Objects kept alive for their ids are released inside the call, which pays
                // for any finalizer that runs.
                drop(identity::take_ids());
                result
            }))
        });
        pyregex::clear_patterns();
        let (mut usage, trip) = meter::finish();
        self.leftovers = self.interpreter.enter(|_vm| call_objects());
        let (mut effects, imported) = guard.finish();
        self.last_imports = imported;
        let logs = std::mem::take(&mut effects.logs);
        let mut panicked = false;
        let result = match executed {
            Ok(result) => match trip {
                // A tripped meter wins over whatever the Python code did with the exception.
                Some(t) => Err(trip_error(t)),
                None => result,
            },
            Err(payload) => {
                // Every node panics at the same point of the same call, but how far the call
                // got is not part of the outcome: it is charged its whole cycle budget.
                usage.cycles = limits.cycles;
                panicked = true;
                Err(CallError {
                    kind: ErrorKind::VmPanic,
                    message: PANIC_MESSAGE.into(),
                    traceback: Some(panic_text(payload.as_ref())),
                })
            }
        };
        if result.is_err() {
            effects = Effects::default();
        }
        // Starting an interpreter waits for every running call, this one included.
        drop(running);
        if panicked {
            self.replace_interpreter();
        }
        CallOutcome {
            result,
            cycles_used: usage.cycles,
            cells_used: usage.cells,
            effects,
            peak_memory: usage.peak_memory,
            logs,
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let leftovers = std::mem::take(&mut self.leftovers);
        self.interpreter.enter(|vm| collect_garbage(leftovers, vm));
        self.reserve = Default::default();
        retire(&self.interpreter);
    }
}

/// Takes an interpreter's library apart so that the collector can free it once the
/// interpreter is dropped: modules hold their functions, which hold their modules, through
/// references RustPython's collector does not see (native functions are not traversed), so
/// without this every interpreter a thread replaced stayed in memory (about 10,000 objects
/// each). The library is unfrozen first; its finalizers run metered, as between calls.
fn retire(interpreter: &Interpreter) {
    let _starting = interpreter_starting();
    interpreter.enter(|vm| {
        rustpython_vm::gc_state::gc_state().unfreeze();
        meter::start_runtime(RUNTIME_CYCLES, limits::MEMORY_BYTES);
        // The interpreter may be one a panic left half-updated: a panic while it is taken
        // apart leaves it to be dropped as it is (what it keeps is then not collected).
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| vm.finalize_modules()));
        // Functions hold their builtins through references the collector does not see: a
        // builtins dict counts as referenced from outside for as long as one of them lives,
        // and so would keep whatever it holds.
        vm.builtins.dict().clear();
        crate::sandbox::forget();
        library_objects::forget();
        let _ = meter::finish();
    });
}

/// The receipt message of a [`ErrorKind::VmPanic`] failure: the same on every node, whatever
/// the panic said (its text goes to the developer-only traceback).
pub const PANIC_MESSAGE: &str = "the Python VM hit an internal error (a bug in the node, not in \
     the actor) and stopped this call; it is charged its whole cycle budget";

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    format!("internal error in the Python VM: {what}\n")
}

/// Cycles the runtime's own work between calls (the library reset, collecting garbage) may use,
/// metered on a private budget no call pays for. Actor code cannot run in it at all
/// (`natives::charge`), so only library code counts against it.
const RUNTIME_CYCLES: u64 = 10_000_000;

/// Every object the collector tracks that is not frozen: after a call, what the call created
/// and still alive (the runtime freezes everything else before each call), newest first.
fn call_objects() -> Vec<PyObjectRef> {
    let gc = rustpython_vm::gc_state::gc_state();
    (0..=2).flat_map(|g| gc.get_objects(Some(g))).collect()
}

/// Frees what a call left (`leftovers`, see [`call_objects`]) and every reference cycle
/// still alive, between calls, never during one.
///
/// Nothing a call creates outlives it, and what is left when it ends is freed here, by the
/// runtime, in an order fixed by the call itself, not by RustPython's collector:
///
/// - the collector finds unreachable objects in a hash set ordered by address, and empties
///   every one of them; an emptied tuple is too short for RustPython's free lists, so each
///   tuple in a cycle was lost to them, and the next call allocated that much more than the
///   same call on a node that had restarted in between (after 3,000 cycles through pairs: 128
///   KB, a fork at the memory limit);
/// - it never freed what it cannot see is unreachable: a class whose methods use `super()`
///   (the cell holding the class counts as referenced from outside), and with it the call's
///   module namespace, every call, without bound, each object kept also missing from a free
///   list.
///
/// So every container the call left, but tuples, is emptied (`tp_clear`, as the collector
/// would), newest first, and then everything is dropped: no cycle is left, and each tuple is
/// freed whole, onto its free list. Classes are marked modified first (the method cache
/// borrows the values). The collection that follows frees any cycle through objects the
/// collector does not track. Finalizers that run here affect no call: they see no call (host
/// functions refuse), their cycles are charged to no one, actor code cannot run at all, and the
/// next call's library reset follows. After every call, so that the next finds nothing of
/// earlier calls alive: what RustPython's free lists hold, and so what a call allocates,
/// depends on that (`free_lists`).
fn collect_garbage(leftovers: Vec<PyObjectRef>, vm: &VirtualMachine) {
    meter::start_runtime(RUNTIME_CYCLES, limits::MEMORY_BYTES);
    // As the collector does with what it found unreachable: weak references cleared (their
    // callbacks called), then finalizers, each once, then the objects emptied.
    let mut callbacks = Vec::new();
    for o in &leftovers {
        callbacks.extend(o.gc_clear_weakrefs_collect_callbacks());
    }
    for (weak, callback) in callbacks {
        let _ = callback.call((weak,), vm);
    }
    for o in &leftovers {
        o.try_call_finalizer();
    }
    for o in &leftovers {
        if let Some(class) = o.downcast_ref::<rustpython_vm::builtins::PyType>() {
            // Only its namespace: an instance freed after it still looks its methods up
            // through its bases.
            crate::method_cache::invalidate(class);
            let namespace = std::mem::take(&mut *class.attributes.write());
            drop(namespace);
            // A class is its own first MRO entry: a cycle only the collector breaks, so one
            // class left by every call made every call run it. Its namespace is empty now, so
            // without that entry lookups find what they found, and the class is freed with the
            // rest (its method cache entries were invalidated above).
            class
                .mro
                .write()
                .retain(|entry| !std::ptr::eq(entry.as_object(), o.as_ref()));
        } else if o
            .downcast_ref::<rustpython_vm::builtins::PyTuple>()
            .is_none()
        {
            if let Some(exception) = o.downcast_ref::<rustpython_vm::builtins::PyBaseException>() {
                // The collector has nothing to empty in an exception: the cycle it is usually
                // in (its traceback's frame holds it as a local) was never freed.
                let _ = exception.set___traceback__(vm.ctx.none(), vm);
                exception.set___cause__(None);
                exception.set___context__(None);
            }
            if o.gc_has_clear() {
                // SAFETY: between calls no code holds a borrow of these objects' insides; each
                // is emptied once, as the collector empties unreachable objects, and stays
                // valid.
                let edges = unsafe { o.gc_clear() };
                drop(edges);
            }
        }
    }
    drop(leftovers);
    let survivors = call_objects();
    for o in &survivors {
        // A class that outlived its call (something the reset does not clear still holds it)
        // gets its own MRO entry back: RustPython relies on it (subclass checks skip the first
        // entry), and whether a class survives must not change what later calls see.
        if let Ok(class) = o.clone().downcast::<rustpython_vm::builtins::PyType>() {
            let own = class
                .mro
                .read()
                .first()
                .is_some_and(|first| first.is(&class));
            if !own {
                class.mro.write().insert(0, class.clone());
                crate::method_cache::invalidate(&class);
            }
        }
    }
    // RustPython's collection first empties its global method cache (4,096 entries, two locked
    // writes each: a third of a small call's time, and every lookup after it misses), and only
    // then looks for candidates. With no tracked object left unfrozen it has none, frees
    // nothing and changes nothing a call can observe: it is not run.
    if !survivors.is_empty() {
        drop(survivors);
        rustpython_vm::gc_state::gc_state().collect_force(2);
    }
    let _ = meter::finish();
}

/// Handles on `_cowboy_reset` and the state it resets.
struct LibraryReset {
    touched_abcs: PyObjectRef,
    /// `_abc._reset_caches`: empties one ABC's `isinstance` caches.
    reset_caches: PyObjectRef,
    /// `_cowboy_reset.make_caches`: makes one ABC's `isinstance` caches exist.
    make_caches: PyObjectRef,
    /// `_cowboy_reset.deepen`: grows the frame stacks to the recursion limit.
    deepen: PyObjectRef,
    typing: PyObjectRef,
    decimal: PyObjectRef,
    regex_caches: Vec<PyObjectRef>,
    /// `json`'s default decoder's key memo, which its scanner empties in a `finally` that a
    /// tripped meter skips: left full, it keeps an earlier call's keys alive, and later calls
    /// reuse them instead of allocating their own (memory use that depends on history).
    json_memo: PyObjectRef,
    regex_purge: PyObjectRef,
    full: PyObjectRef,
}

impl LibraryReset {
    fn load(vm: &VirtualMachine) -> rustpython_vm::PyResult<Self> {
        let m = library::load_module("_cowboy_reset", vm)?;
        let re = library::load_module("re", vm)?;
        Ok(Self {
            touched_abcs: m.get_attr("touched", vm)?,
            reset_caches: library::load_module("_abc", vm)?.get_attr("_reset_caches", vm)?,
            make_caches: m.get_attr("make_caches", vm)?,
            deepen: m.get_attr("deepen", vm)?,
            typing: m.get_attr("reset_typing", vm)?,
            decimal: m.get_attr("reset_decimal", vm)?,
            regex_caches: vec![re.get_attr("_cache", vm)?, re.get_attr("_cache2", vm)?],
            json_memo: library::load_module("json", vm)?
                .get_attr("_default_decoder", vm)?
                .get_attr("memo", vm)?,
            regex_purge: re.get_attr("purge", vm)?,
            full: m.get_attr("reset", vm)?,
        })
    }

    /// Resets what a call that imported `imported` may have touched.
    fn run(
        &self,
        imported: &std::collections::BTreeSet<String>,
        vm: &VirtualMachine,
    ) -> rustpython_vm::PyResult<()> {
        if self.touched_abcs.length(vm)? > 0 {
            // Only the library's ABCs outlive a call. An actor's ABC is in the set too, and
            // `_reset_caches` reads `cls._abc_impl`, which an actor's metaclass can make a
            // property: actor code, between calls, where it is refused — the reset failed, and
            // so did every later call of every actor on the node until it restarted.
            let classes = self
                .touched_abcs
                .downcast_ref::<rustpython_vm::builtins::PySet>()
                .map(|s| s.elements())
                .unwrap_or_default();
            for class in classes {
                if library_objects::is_library_object(&class) {
                    self.reset_caches.call((class,), vm)?;
                }
            }
            vm.call_method(&self.touched_abcs, "clear", ())?;
        }
        library_objects::empty_scratch_sets(vm)?;
        if self.json_memo.length(vm)? > 0 {
            vm.call_method(&self.json_memo, "clear", ())?;
        }
        for cache in &self.regex_caches {
            if cache.length(vm)? > 0 {
                self.regex_purge.call((), vm)?;
                break;
            }
        }
        if imported.contains("typing") || imported.contains("functools") {
            self.typing.call((), vm)?;
        }
        if imported.contains("decimal") {
            self.decimal.call((), vm)?;
        }
        Ok(())
    }
}

fn trip_error(t: meter::Trip) -> CallError {
    let (kind, message) = match t {
        meter::Trip::OutOfCycles => (ErrorKind::OutOfCycles, "out of cycles"),
        meter::Trip::OutOfCells => (ErrorKind::OutOfCells, "out of cells"),
        meter::Trip::MemoryLimit => (ErrorKind::MemoryLimit, "memory limit of 10 MiB exceeded"),
    };
    CallError {
        kind,
        message: message.into(),
        traceback: None,
    }
}

pub(crate) fn describe_exception(e: &PyBaseExceptionRef, vm: &VirtualMachine) -> String {
    // An error escaping the call reads as CPython's, as one caught inside it does.
    let _ = crate::fidelity::reword_interpreter_error(e, vm);
    let name = e.class().name().to_string();
    let msg = e
        .as_object()
        .str(vm)
        .map(|s| s.to_string())
        .unwrap_or_default();
    if msg.is_empty() {
        name
    } else {
        format!("{name}: {msg}")
    }
}

/// The file name actor code is compiled under: the same on every node (tracebacks and the
/// library's test for "actor code" see this, never a local path).
pub const ACTOR_FILE: &str = "<actor>";

/// The traceback of `e`, whose `describe_exception` is `described` (computed once: it may run
/// the actor's `__str__`, which is metered).
pub(crate) fn traceback(
    e: &PyBaseExceptionRef,
    described: &str,
    vm: &VirtualMachine,
) -> Option<String> {
    let mut out = String::new();
    vm.write_exception(&mut out, e).ok()?;
    // The exception itself as CPython writes it (`KeyError: 'b'`, where RustPython writes the
    // key unquoted): it starts at the last line naming the exception's class.
    let name = e.class().name().to_string();
    let start = out
        .rmatch_indices(&*name)
        .map(|(i, _)| i)
        .find(|&i| {
            let line_start = out[..i].rfind('\n').map_or(0, |n| n + 1);
            out[line_start..i]
                .chars()
                .all(|c| c.is_alphanumeric() || c == '.' || c == '_')
                && matches!(
                    out[i + name.len()..].chars().next(),
                    Some(':' | '\n') | None
                )
        })
        .map(|i| out[..i].rfind('\n').map_or(0, |n| n + 1));
    if let Some(start) = start {
        out.truncate(start);
        out.push_str(described);
        out.push('\n');
    }
    Some(out)
}

/// A traceback as a developer reads it: frames of the actor name `file` (its path on the
/// developer's machine) and show their source line, as CPython prints them.
pub fn traceback_in_file(traceback: &str, file: &str, source: &str) -> String {
    let actor_frame = format!("  File \"{ACTOR_FILE}\", line ");
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::with_capacity(traceback.len());
    for line in traceback.lines() {
        match line.strip_prefix(&actor_frame) {
            Some(rest) => {
                out.push_str(&format!("  File \"{file}\", line {rest}\n"));
                let number = rest.split(',').next().and_then(|n| n.parse::<usize>().ok());
                if let Some(text) = number
                    .and_then(|n| n.checked_sub(1))
                    .and_then(|i| lines.get(i))
                    .map(|l| l.trim())
                    .filter(|l| !l.is_empty())
                {
                    out.push_str(&format!("    {text}\n"));
                }
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

fn py_error(e: PyBaseExceptionRef, vm: &VirtualMachine) -> CallError {
    // Once: `str(e)` may run the actor's `__str__`, metered.
    let message = describe_exception(&e, vm);
    let class = e.class();
    let kind = if class.fast_issubclass(vm.ctx.exceptions.recursion_error) {
        ErrorKind::RecursionLimit
    } else if class.fast_issubclass(vm.ctx.exceptions.memory_error) {
        ErrorKind::MemoryLimit
    } else if class.fast_issubclass(vm.ctx.exceptions.overflow_error) && message.contains("4096") {
        ErrorKind::IntegerOverflow
    } else {
        ErrorKind::Exception
    };
    CallError {
        kind,
        traceback: traceback(&e, &message, vm),
        message,
    }
}

fn fail(kind: ErrorKind, message: impl Into<String>) -> CallError {
    CallError {
        kind,
        message: message.into(),
        traceback: None,
    }
}

fn charge(n: u64, vm: &VirtualMachine) -> Result<(), CallError> {
    natives::charge(n, vm).map_err(|e| py_error(e, vm))
}

/// Executes the actor module, rebuilds the instance and runs the deploy or the handler.
fn execute(
    actor: &ActorCode,
    method: Option<&str>,
    args: &[u8],
    vm: &VirtualMachine,
) -> Result<Value, CallError> {
    // Calldata: one cell per byte, and decoding like any canonical value.
    natives::charge_cells(args.len() as u64 * cells::CALLDATA_PER_BYTE, vm)
        .map_err(|e| py_error(e, vm))?;
    charge(cycles::SERIALIZE_BASE + args.len() as u64, vm)?;
    let args = if args.is_empty() {
        Vec::new()
    } else {
        match Value::decode(args) {
            Ok(Value::List(items)) => items,
            Ok(other) => {
                return Err(fail(
                    ErrorKind::InvalidArguments,
                    format!(
                        "arguments must be a list of values, got {}",
                        other.type_name()
                    ),
                ));
            }
            Err(e) => return Err(fail(ErrorKind::InvalidArguments, e.to_string())),
        }
    };
    if let Some(m) = method
        && !actor.shape.handlers.iter().any(|h| h == m)
    {
        return Err(fail(
            ErrorKind::HandlerNotFound,
            format!(
                "`{m}` is not a handler of {} (handlers: {})",
                actor.shape.class_name,
                actor.shape.handlers.join(", ")
            ),
        ));
    }

    let globals = sandbox::actor_globals(vm).map_err(|e| py_error(e, vm))?;
    vm.run_code_obj(
        actor.code.clone(),
        Scope::with_builtins(None, globals.clone(), vm),
    )
    .map_err(|e| py_error(e, vm))?;
    let class = globals
        .get_item_opt(actor.shape.class_name.as_str(), vm)
        .ok()
        .flatten()
        .ok_or_else(|| fail(ErrorKind::Exception, "the actor class disappeared"))?;
    sandbox::attach_storage(&class, vm).map_err(|e| py_error(e, vm))?;

    let py_args: Vec<PyObjectRef> = args.iter().map(|v| pyconv::to_object(v, vm)).collect();
    let (instance, loaded) = match method {
        None => {
            let instance = class
                .call(py_args.clone(), vm)
                .map_err(|e| py_error(e, vm))?;
            (instance, Vec::new())
        }
        Some(_) => {
            let instance = sandbox::new_instance(&class, vm).map_err(|e| py_error(e, vm))?;
            let loaded = load_attributes(&instance, vm)?;
            (instance, loaded)
        }
    };
    let value = match method {
        None => Value::None,
        Some(m) => {
            let handler = instance
                .get_attr(vm.ctx.intern_str(m), vm)
                .map_err(|e| py_error(e, vm))?;
            let ret = handler.call(py_args, vm).map_err(|e| py_error(e, vm))?;
            pyconv::to_value(&ret, vm).map_err(|e| {
                fail(
                    ErrorKind::InvalidValue,
                    format!("return value of `{m}`: {e}"),
                )
            })?
        }
    };
    save_attributes(&instance, &loaded, vm)?;
    let encoded = value
        .encode()
        .map_err(|e| fail(ErrorKind::InvalidValue, e.to_string()))?;
    if encoded.len() > limits::RETURN_BYTES {
        return Err(fail(
            ErrorKind::ReturnTooLarge,
            format!(
                "return value is {} bytes encoded; the limit is {} (store large data and return a key)",
                encoded.len(),
                limits::RETURN_BYTES
            ),
        ));
    }
    charge(cycles::SERIALIZE_BASE + encoded.len() as u64, vm)?;
    natives::charge_cells(encoded.len() as u64 * cells::RETURN_PER_BYTE, vm)
        .map_err(|e| py_error(e, vm))?;
    Ok(value)
}

fn attr_key(name: &str) -> Vec<u8> {
    let mut k = ATTR_PREFIX.to_vec();
    k.extend_from_slice(name.as_bytes());
    k
}

/// Reads the persisted attribute index and every attribute into the instance. Returns
/// `(name, encoded bytes)` as loaded, to detect changes when saving.
fn load_attributes(
    instance: &PyObjectRef,
    vm: &VirtualMachine,
) -> Result<Vec<(String, Vec<u8>)>, CallError> {
    let read = |key: &[u8]| -> Result<Option<Vec<u8>>, CallError> {
        natives::storage_get_raw(key, vm).map_err(|e| py_error(e, vm))
    };
    let Some(index) = read(ATTR_INDEX)? else {
        return Ok(Vec::new());
    };
    let names = match Value::decode(&index) {
        Ok(Value::List(items)) => items,
        _ => return Err(fail(ErrorKind::InvalidValue, "corrupt attribute index")),
    };
    let dict = instance
        .dict()
        .ok_or_else(|| fail(ErrorKind::Exception, "actor instances must have a __dict__"))?;
    let mut loaded = Vec::with_capacity(names.len());
    for n in names {
        let Value::Str(name) = n else {
            return Err(fail(ErrorKind::InvalidValue, "corrupt attribute index"));
        };
        let bytes = read(&attr_key(&name))?.unwrap_or_default();
        charge(cycles::SERIALIZE_BASE + bytes.len() as u64, vm)?;
        let obj = pyconv::decode(&bytes, vm).map_err(|e| py_error(e, vm))?;
        dict.set_item(name.as_str(), obj, vm)
            .map_err(|e| py_error(e, vm))?;
        loaded.push((name, bytes));
    }
    Ok(loaded)
}

/// Writes back changed attributes, deletes removed ones and updates the index.
fn save_attributes(
    instance: &PyObjectRef,
    loaded: &[(String, Vec<u8>)],
    vm: &VirtualMachine,
) -> Result<(), CallError> {
    let Some(dict) = instance.dict() else {
        return Ok(());
    };
    let mut current: Vec<(String, Vec<u8>)> = Vec::new();
    for (k, v) in &dict {
        let Some(name) = k
            .downcast_ref::<PyStr>()
            .and_then(|s| s.to_str().map(str::to_owned))
        else {
            continue;
        };
        let encoded = pyconv::to_value(&v, vm)
            .and_then(|value| value.encode())
            .map_err(|e| {
                fail(
                    ErrorKind::InvalidValue,
                    format!("attribute `self.{name}` cannot be stored: {e}"),
                )
            })?;
        charge(cycles::SERIALIZE_BASE + encoded.len() as u64, vm)?;
        current.push((name, encoded));
    }
    current.sort_by(|a, b| a.0.cmp(&b.0));
    let write = |key: Vec<u8>, value: Option<Vec<u8>>| -> Result<(), CallError> {
        natives::storage_put_raw(key, value, vm).map_err(|e| py_error(e, vm))
    };
    for (name, bytes) in &current {
        if loaded.iter().find(|(n, _)| n == name).map(|(_, b)| b) != Some(bytes) {
            write(attr_key(name), Some(bytes.clone()))?;
        }
    }
    for (name, _) in loaded {
        if !current.iter().any(|(n, _)| n == name) {
            write(attr_key(name), None)?;
        }
    }
    let old_names: Vec<&String> = loaded.iter().map(|(n, _)| n).collect();
    let new_names: Vec<&String> = current.iter().map(|(n, _)| n).collect();
    if old_names != new_names {
        let index = Value::List(new_names.iter().map(|n| Value::Str((*n).clone())).collect())
            .encode()
            .map_err(|e| fail(ErrorKind::InvalidValue, e.to_string()))?;
        write(ATTR_INDEX.to_vec(), Some(index))?;
    }
    Ok(())
}
