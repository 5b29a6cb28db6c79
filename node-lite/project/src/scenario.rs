//! `cowboy test`: runs a project's `tests/*.toml` scenarios, each on a fresh local chain
//! ([`cowboy_execution::local::LocalChain`]) through the chain's own state transition. A file
//! deploys its actor in block 1, then each step makes blocks: a call or a deploy is one block
//! with one transaction, `advance = N` makes N blocks (timers fire, deferred messages are
//! delivered). Messages between actors are delivered in the transaction that sends them, value
//! moves, quotas and fees apply, as on a devnet.
//!
//! ```toml
//! actor = "counter"        # the actor under test (default: the only one), deployed first
//! init_args = [0]          # __init__ arguments
//! init_value = 0           # base units sent with the deploy
//! init_timers = 0          # timers __init__ must set (optional)
//! deployer = "0x…"         # who deploys and calls by default (default 0x11…11)
//! height = 1               # the block the actor is deployed in (the blocks below are empty)
//!
//! [[steps]]
//! deploy = "ponger"        # deploy another actor of the manifest (args: its __init__ arguments)
//!
//! [[steps]]
//! call = "increment"       # handler of the actor under test (or of `to`)
//! to = "ponger"            # call another deployed actor instead
//! args = [5, "$ponger"]    # arguments; "$NAME" is the address of deployed actor NAME
//! caller = "0x22…22"       # default: the deployer 0x11…11; "self" or an actor's name sends as
//!                          # that actor (as its timers do)
//! value = 0                # base units sent with the call
//! returns = 5              # expected return value (a table for a dict)
//! returns_none = true      # expect None (TOML has no null)
//! fails = "text"           # expect failure whose message contains this
//! events = ["Incremented"] # names of the events the transaction emitted, in order
//! messages = ["handle"]    # methods of the messages the handler sent, in order
//! timers = 1               # timers the handler set
//!
//! [[steps]]
//! advance = 10             # make 10 empty blocks: due timers fire, mailboxes drain
//! ran = ["timeout"]        # the handlers that ran in them, in order
//! events = ["TimedOut"]    # the events they emitted; a handler that fails fails the step
//!                          # unless `fails` matches it
//! ```

use crate::manifest::Project;
use cowboy_execution::{
    CallTrace,
    local::{LocalChain, LocalError, LocalReceipt},
};
use cowboy_pvm::Value;
use cowboy_rpc::ReceiptView;
use cowboy_types::{ActorInstruction, Address, FailureKind, Hash, Instruction, Status};
use serde::Deserialize;
use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

/// The deployer and default caller: `0x1111…1111`.
pub const DEPLOYER: Address = Address([0x11; 20]);
/// The highest block a scenario may reach (its `height` and every `advance` together).
pub const MAX_HEIGHT: u64 = crate::local_run::MAX_HEIGHT;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    actor: Option<String>,
    /// Who deploys and, by default, calls (default [`DEPLOYER`]).
    deployer: Option<Address>,
    /// The block the actor is deployed in (default 1; the blocks below it are empty).
    height: Option<u64>,
    #[serde(default)]
    init_args: Vec<toml::Value>,
    #[serde(default)]
    init_value: u64,
    init_timers: Option<usize>,
    #[serde(default)]
    steps: Vec<Step>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    call: Option<String>,
    to: Option<String>,
    deploy: Option<String>,
    advance: Option<u64>,
    #[serde(default)]
    args: Vec<toml::Value>,
    caller: Option<String>,
    #[serde(default)]
    value: u64,
    returns: Option<toml::Value>,
    #[serde(default)]
    returns_none: bool,
    fails: Option<String>,
    events: Option<Vec<String>>,
    messages: Option<Vec<String>>,
    timers: Option<usize>,
    ran: Option<Vec<String>>,
}

/// What a step does.
enum Action<'s> {
    Call {
        method: &'s str,
        to: Option<&'s str>,
    },
    Deploy(&'s str),
    Advance(u64),
}

impl Step {
    fn action(&self) -> Result<Action<'_>, String> {
        let action = match (&self.call, &self.deploy, self.advance) {
            (Some(method), None, None) => Action::Call {
                method,
                to: self.to.as_deref(),
            },
            (None, Some(actor), None) => Action::Deploy(actor),
            (None, None, Some(n)) if (1..=MAX_HEIGHT).contains(&n) => Action::Advance(n),
            (None, None, Some(n)) => {
                return Err(format!("advance must be 1 to {MAX_HEIGHT} blocks, got {n}"));
            }
            _ => return Err("give exactly one of `call`, `deploy` and `advance`".into()),
        };
        let misplaced =
            |field: &str, allowed: &str| Err(format!("`{field}` applies only to {allowed} steps"));
        match action {
            Action::Call { .. } => {
                if self.ran.is_some() {
                    return misplaced("ran", "`advance`");
                }
            }
            Action::Deploy(_) => {
                if self.to.is_some() {
                    return misplaced("to", "`call`");
                }
                if self.ran.is_some() {
                    return misplaced("ran", "`advance`");
                }
            }
            Action::Advance(_) => {
                for (field, set) in [
                    ("to", self.to.is_some()),
                    ("args", !self.args.is_empty()),
                    ("caller", self.caller.is_some()),
                    ("value", self.value != 0),
                    ("returns", self.returns.is_some()),
                    ("returns_none", self.returns_none),
                    ("messages", self.messages.is_some()),
                    ("timers", self.timers.is_some()),
                ] {
                    if set {
                        return misplaced(field, "`call` and `deploy`");
                    }
                }
            }
        }
        Ok(action)
    }

    fn label(&self) -> String {
        match (&self.call, &self.deploy, self.advance) {
            (Some(m), _, _) => match &self.to {
                Some(to) => format!("{to}.{m}"),
                None => m.clone(),
            },
            (_, Some(a), _) => format!("deploy {a}"),
            (_, _, Some(n)) => format!("advance {n}"),
            _ => "?".into(),
        }
    }
}

/// The outcome of one scenario file.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Report {
    /// Path relative to the project.
    pub file: String,
    pub actor: String,
    pub steps: usize,
    pub passed: usize,
    /// The first failure: which step (0 for the deploy) and why.
    pub failure: Option<Failure>,
    /// Every receipt of the run, in order, with the step that produced it (0: the deploy):
    /// the same JSON as a node's `cowboy_getReceipt` (block hashes are those of the local
    /// chain).
    pub receipts: Vec<StepReceipt>,
}

/// A receipt of a scenario run.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct StepReceipt {
    pub step: usize,
    #[serde(flatten)]
    pub receipt: ReceiptView,
    /// `print` output of its calls, in order.
    pub logs: Vec<String>,
}

#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Failure {
    pub step: usize,
    pub call: String,
    pub message: String,
    /// The Python traceback of an unexpected exception, with the actor's file:line and source
    /// lines.
    pub traceback: Option<String>,
}

/// Why scenarios could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error(
        "no tests: {0} has no test_*.py or *.toml files (`cowboy new` writes examples; see \
         `cowboy test --help`)"
    )]
    NoTests(PathBuf),
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("the local chain failed: {0}")]
    Local(#[from] LocalError),
}

/// The scenario files of a project, sorted.
pub fn files(project: &Project) -> Result<Vec<PathBuf>, ScenarioError> {
    let dir = project.dir.join("tests");
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ScenarioError::NoTests(dir));
        }
        Err(e) => return Err(invalid(&dir, format!("cannot list the tests: {e}"))),
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(ScenarioError::NoTests(dir));
    }
    Ok(files)
}

/// Runs every scenario of `project` whose file name contains `filter`.
pub fn run(project: &Project, filter: Option<&str>) -> Result<Vec<Report>, ScenarioError> {
    let mut reports = Vec::new();
    for path in files(project)? {
        let rel = path
            .strip_prefix(&project.dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        if filter.is_some_and(|f| !rel.contains(f)) {
            continue;
        }
        let report = match run_file(project, &path, rel.clone()) {
            Ok(report) => report,
            // A file that cannot run fails on its own; the other files still run.
            Err(e) => Report {
                file: rel,
                actor: String::new(),
                steps: 0,
                passed: 0,
                failure: Some(Failure {
                    step: 0,
                    call: FILE_PROBLEM.into(),
                    message: match e {
                        ScenarioError::Invalid { message, .. } => message,
                        other => other.to_string(),
                    },
                    traceback: None,
                }),
                receipts: Vec::new(),
            },
        };
        reports.push(report);
    }
    Ok(reports)
}

/// [`Failure::call`] of a file that could not run at all (it is malformed, or names what the
/// project does not have): [`Failure::message`] says why.
pub const FILE_PROBLEM: &str = "scenario";

fn invalid(path: &Path, message: String) -> ScenarioError {
    ScenarioError::Invalid {
        path: path.to_path_buf(),
        message,
    }
}

/// An actor of the manifest, read.
struct Actor {
    name: String,
    /// Its source file as the project names it (for tracebacks).
    file: String,
    source: String,
    address: Address,
    /// What its manifest entry declares.
    entitlements: cowboy_types::entitlement::ActorEntitlements,
}

/// Who sends a transaction.
enum Sender {
    Account(Address),
    /// An actor of the scenario, by name (`self`: the called actor).
    Actor(String),
}

/// One scenario file being run.
struct Run<'p> {
    path: &'p Path,
    deployer: Address,
    chain: LocalChain,
    /// Every actor the scenario deploys, by name.
    actors: BTreeMap<String, Actor>,
    /// Those deployed so far: only they can be named in arguments (`"$NAME"`) and `to`.
    deployed: BTreeSet<String>,
    main: String,
    report: Report,
}

fn run_file(project: &Project, path: &Path, rel: String) -> Result<Report, ScenarioError> {
    let text = std::fs::read_to_string(path).map_err(|e| invalid(path, e.to_string()))?;
    let scenario: Scenario =
        toml::from_str(&text).map_err(|e| invalid(path, e.to_string().trim_end().to_string()))?;
    let read = |name: Option<&str>, deployer: Address| -> Result<Actor, ScenarioError> {
        if name.is_none() && project.manifest.actors.len() > 1 {
            let names: Vec<&str> = project
                .manifest
                .actors
                .iter()
                .map(|a| a.name.as_str())
                .collect();
            return Err(invalid(
                path,
                format!(
                    "the project has several actors ({}); name the one this file tests with \
                     `actor = \"NAME\"`",
                    names.join(", ")
                ),
            ));
        }
        let entry = project
            .actor(name)
            .map_err(|e| invalid(path, e.to_string()))?;
        let source_path = project.dir.join(&entry.source);
        let source = std::fs::read_to_string(&source_path)
            .map_err(|e| invalid(&source_path, e.to_string()))?;
        let code_hash = cowboy_types::code_hash(&cowboy_types::canonicalize_source(&source));
        let entitlements = entry
            .declared_entitlements()
            .map_err(|e| invalid(path, format!("actor {}: {e}; {}", entry.name, e.hint())))?;
        Ok(Actor {
            entitlements,
            name: entry.name.clone(),
            file: entry.source.display().to_string(),
            source,
            address: cowboy_types::actor_address(&deployer, &Hash::ZERO, &code_hash),
        })
    };
    // Every actor and sender is known before the chain starts: its genesis funds the senders.
    let deployer = scenario.deployer.unwrap_or(DEPLOYER);
    let main = read(scenario.actor.as_deref(), deployer)?;
    let main_name = main.name.clone();
    let mut actors = BTreeMap::new();
    let mut funded = BTreeSet::from([deployer]);
    let mut actor_senders = BTreeSet::new();
    actors.insert(main.name.clone(), main);
    for (i, step) in scenario.steps.iter().enumerate() {
        let at = |m: String| invalid(path, format!("step {} ({}): {m}", i + 1, step.label()));
        let action = step.action().map_err(at)?;
        let sender = sender(step, &action, &main_name, deployer).map_err(at)?;
        // An actor is named (`to`, `caller`) only once a step before has deployed it.
        let named = match (&action, &sender) {
            (Action::Call { to: Some(to), .. }, _) => Some(*to),
            (_, Sender::Actor(name)) => Some(name.as_str()),
            _ => None,
        };
        if let Some(name) = named
            && !actors.contains_key(name)
        {
            return Err(at(format!(
                "{name:?} is not an actor deployed before this step (deploy it with \
                 `deploy = \"{name}\"` first)"
            )));
        }
        let step_deployer = match &sender {
            Sender::Account(a) => {
                funded.insert(*a);
                *a
            }
            Sender::Actor(name) => {
                actor_senders.insert(name.clone());
                deployer
            }
        };
        if let Action::Deploy(name) = action {
            if actors.contains_key(name) {
                return Err(at(format!("{name} is already deployed in this scenario")));
            }
            if matches!(sender, Sender::Actor(_)) {
                return Err(at(
                    "an actor cannot send a deploy here; leave `caller` out".into()
                ));
            }
            let actor = read(Some(name), step_deployer).map_err(|e| match e {
                ScenarioError::Invalid { message, .. } => at(message),
                other => other,
            })?;
            actors.insert(name.to_string(), actor);
        }
    }
    for name in &actor_senders {
        // An actor sending a transaction pays its fee: the genesis funds it (the balance it
        // starts with, before any deploy value) — something no real chain does, as no real
        // chain takes a transaction from an actor.
        if let Some(a) = actors.get(name) {
            funded.insert(a.address);
        }
    }
    let funded: Vec<Address> = funded.into_iter().collect();
    let mut run = Run {
        path,
        deployer,
        chain: LocalChain::new(&funded)?,
        actors,
        deployed: BTreeSet::new(),
        main: main_name.clone(),
        report: Report {
            file: rel,
            actor: main_name.clone(),
            steps: scenario.steps.len(),
            passed: 0,
            failure: None,
            receipts: Vec::new(),
        },
    };
    let init = Step {
        args: scenario.init_args.clone(),
        value: scenario.init_value,
        timers: scenario.init_timers,
        ..Step::default()
    };
    match scenario.height {
        None | Some(1) => {}
        Some(h) if (2..=MAX_HEIGHT).contains(&h) => {
            run.chain.advance(h - 1)?;
        }
        Some(h) => {
            return Err(invalid(
                path,
                format!("height must be 1 to {MAX_HEIGHT}, got {h}"),
            ));
        }
    }
    if let Err(failure) = run.deploy(0, &main_name, deployer, &init)? {
        run.report.failure = Some(failure);
        return Ok(run.report);
    }
    for (i, step) in scenario.steps.iter().enumerate() {
        let number = i + 1;
        let action = step
            .action()
            .map_err(|m| invalid(path, format!("step {number}: {m}")))?;
        let outcome = match action {
            Action::Call { method, to } => run.call(number, step, method, to)?,
            Action::Deploy(name) => {
                let step_deployer = match sender(step, &action, &main_name, deployer) {
                    Ok(Sender::Account(a)) => a,
                    _ => deployer,
                };
                run.deploy(number, name, step_deployer, step)?
            }
            Action::Advance(blocks) => run.advance(number, step, blocks)?,
        };
        if let Err(failure) = outcome {
            run.report.failure = Some(failure);
            return Ok(run.report);
        }
        run.report.passed += 1;
    }
    Ok(run.report)
}

/// Who sends `step`'s transaction.
fn sender(
    step: &Step,
    action: &Action<'_>,
    main: &str,
    deployer: Address,
) -> Result<Sender, String> {
    match step.caller.as_deref() {
        None => Ok(Sender::Account(deployer)),
        Some("self") => match action {
            Action::Call { to, .. } => Ok(Sender::Actor(to.unwrap_or(main).to_string())),
            _ => Err("caller \"self\" applies only to `call` steps".into()),
        },
        Some(text) if text.starts_with("0x") => text
            .parse()
            .map(Sender::Account)
            .map_err(|e| format!("caller {text:?}: {e}")),
        Some(name) => Ok(Sender::Actor(name.to_string())),
    }
}

impl Run<'_> {
    fn address_of(&self, name: &str) -> Option<Address> {
        if !self.deployed.contains(name) {
            return None;
        }
        self.actors.get(name).map(|a| a.address)
    }

    /// Encodes arguments, `"$NAME"` standing for the address of actor NAME.
    fn encode(&self, step: usize, args: &[toml::Value]) -> Result<Vec<u8>, ScenarioError> {
        let at = |m: String| invalid(self.path, format!("step {step}: {m}"));
        let values =
            crate::manifest::resolve_args(args, |name| self.address_of(name)).map_err(at)?;
        Value::List(values).encode().map_err(|e| at(e.to_string()))
    }

    /// Sends `instruction` as `sender` in a block of its own; returns its receipt and the
    /// block's others (timer firings, deferred deliveries).
    fn transact(
        &mut self,
        step: usize,
        sender: Address,
        instruction: Instruction,
    ) -> Result<Result<LocalReceipt, String>, ScenarioError> {
        let budget = cowboy_execution::local::Budget::Client;
        let made = match self.chain.transact(sender, instruction, budget) {
            Ok(made) => made,
            // What a node would refuse to admit (too large, limits out of range…).
            Err(LocalError::Tx(e)) => return Ok(Err(format!("the transaction is refused: {e}"))),
            Err(other) => return Err(other.into()),
        };
        let (own, block) = made.into_own();
        for r in &block {
            self.record(step, r)?;
        }
        Ok(Ok(own))
    }

    fn record(&mut self, step: usize, r: &LocalReceipt) -> Result<(), ScenarioError> {
        let return_value = if r.receipt.return_data.is_empty() {
            None
        } else {
            Value::decode(&r.receipt.return_data)
                .ok()
                .map(|v| v.to_json())
        };
        let block = self
            .chain
            .chain()
            .store()
            .block(r.height)
            .map_err(|e| LocalError::Exec(e.into()))?
            .ok_or_else(|| {
                LocalError::Exec(cowboy_execution::ExecError::Corrupt {
                    what: format!("block {}", r.height),
                    reason: "committed but missing".into(),
                })
            })?;
        self.report.receipts.push(StepReceipt {
            step,
            receipt: ReceiptView::of(&r.receipt, r.height, block.header.digest(), return_value),
            logs: r.calls.iter().flat_map(|c| c.logs.clone()).collect(),
        });
        Ok(())
    }

    /// The traceback of a failed call, in its actor's file.
    fn traceback(&self, call: Option<&CallTrace>) -> Option<String> {
        let call = call?;
        let tb = call.result.as_ref().err()?.traceback.as_deref()?;
        let actor = self.actors.values().find(|a| a.address == call.actor)?;
        let shown = cowboy_types::canonicalize_source(&actor.source);
        Some(cowboy_pvm::engine::traceback_in_file(
            tb,
            &actor.file,
            &shown,
        ))
    }

    fn deploy(
        &mut self,
        step: usize,
        name: &str,
        deployer: Address,
        spec: &Step,
    ) -> Result<Result<(), Failure>, ScenarioError> {
        let (file, source, entitlements) = match self.actors.get(name) {
            Some(a) => (a.file.clone(), a.source.clone(), a.entitlements),
            None => {
                return Err(invalid(
                    self.path,
                    format!("step {step}: no actor {name:?} in the manifest"),
                ));
            }
        };
        let failure = |message: String, traceback: Option<String>| Failure {
            step,
            call: format!("deploy {name}"),
            message,
            traceback,
        };
        if let Err(diagnostics) = self.chain.validate(&source)? {
            let text = diagnostics
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n");
            return Ok(Err(failure(
                format!("{file} does not validate:\n{text}"),
                None,
            )));
        }
        let args = self.encode(step, &spec.args)?;
        let r = self.transact(
            step,
            deployer,
            Instruction::Actor(ActorInstruction::Deploy {
                code: source,
                salt: Hash::ZERO,
                init_args: args,
                value: spec.value,
                entitlements,
            }),
        )?;
        let r = match r {
            Ok(r) => r,
            Err(refused) => return Ok(Err(failure(refused, None))),
        };
        if r.receipt.status == Status::Success {
            self.deployed.insert(name.to_string());
        }
        let init = r.calls.iter().find(|c| c.depth == 0);
        Ok(self
            .check(spec, &r, init)
            .map_err(|m| failure(m, self.traceback(init))))
    }

    fn call(
        &mut self,
        step: usize,
        spec: &Step,
        method: &str,
        to: Option<&str>,
    ) -> Result<Result<(), Failure>, ScenarioError> {
        let target = to.unwrap_or(&self.main).to_string();
        let Some(to_address) = self.address_of(&target) else {
            return Err(invalid(
                self.path,
                format!("step {step}: `to = {target:?}` is not an actor this scenario deploys"),
            ));
        };
        let sender = match sender(
            spec,
            &Action::Call { method, to },
            &self.main,
            self.deployer,
        ) {
            Ok(Sender::Account(a)) => a,
            Ok(Sender::Actor(name)) => self.address_of(&name).unwrap_or(self.deployer),
            Err(m) => return Err(invalid(self.path, format!("step {step}: {m}"))),
        };
        let args = self.encode(step, &spec.args)?;
        let r = self.transact(
            step,
            sender,
            Instruction::Actor(ActorInstruction::Message {
                to: to_address,
                method: method.to_string(),
                args,
                value: spec.value,
            }),
        )?;
        let r = match r {
            Ok(r) => r,
            Err(refused) => {
                return Ok(Err(Failure {
                    step,
                    call: spec.label(),
                    message: refused,
                    traceback: None,
                }));
            }
        };
        let handler = r.calls.iter().find(|c| c.depth == 0);
        Ok(self.check(spec, &r, handler).map_err(|message| Failure {
            step,
            call: spec.label(),
            message,
            // An expected failure that failed differently still shows where it came from.
            traceback: self.traceback(handler),
        }))
    }

    fn advance(
        &mut self,
        step: usize,
        spec: &Step,
        blocks: u64,
    ) -> Result<Result<(), Failure>, ScenarioError> {
        let reaches = self.chain.height()?.saturating_add(blocks);
        if reaches > MAX_HEIGHT {
            return Err(invalid(
                self.path,
                format!(
                    "step {step}: advancing {blocks} blocks reaches block {reaches}, beyond the \
                     {MAX_HEIGHT} a scenario may run"
                ),
            ));
        }
        let receipts = self.chain.advance(blocks)?;
        for r in &receipts {
            self.record(step, r)?;
        }
        let failure = |message: String, traceback: Option<String>| Failure {
            step,
            call: spec.label(),
            message,
            traceback,
        };
        let failed = receipts.iter().find_map(|r| match &r.receipt.status {
            Status::Failed { kind, message } => Some((r, failure_text(*kind, message))),
            Status::Success => None,
        });
        match (&spec.fails, failed) {
            (None, Some((r, text))) => {
                let call = r.calls.iter().find(|c| c.depth == 0);
                let what = call
                    .and_then(|c| c.method.clone())
                    .unwrap_or_else(|| "a message".into());
                return Ok(Err(failure(
                    format!("{what} failed in block {}: {text}", r.height),
                    self.traceback(call),
                )));
            }
            (Some(want), None) => {
                return Ok(Err(failure(
                    format!("expected a failure containing {want:?}, but everything succeeded"),
                    None,
                )));
            }
            (Some(want), Some((_, text))) if !text.contains(want.as_str()) => {
                return Ok(Err(failure(
                    format!("failed with {text:?}, expected a message containing {want:?}"),
                    None,
                )));
            }
            _ => {}
        }
        if let Some(want) = &spec.ran {
            let got: Vec<String> = receipts
                .iter()
                .flat_map(|r| r.calls.iter().filter(|c| c.depth == 0))
                .filter_map(|c| c.method.clone())
                .collect();
            if &got != want {
                return Ok(Err(failure(
                    format!("ran {got:?}, expected {want:?}"),
                    None,
                )));
            }
        }
        if let Some(names) = &spec.events {
            let got: Vec<[u8; 32]> = receipts
                .iter()
                .flat_map(|r| &r.receipt.events)
                .filter_map(|e| e.topics.first().map(|t| t.0))
                .collect();
            if let Err(m) = check_events(&got, names) {
                return Ok(Err(failure(m, None)));
            }
        }
        Ok(Ok(()))
    }

    /// Checks a call's or deploy's expectations against its receipt and its own call.
    fn check(&self, spec: &Step, r: &LocalReceipt, own: Option<&CallTrace>) -> Result<(), String> {
        match (&r.receipt.status, &spec.fails) {
            (Status::Success, Some(text)) => {
                let shown = Value::decode(&r.receipt.return_data)
                    .map_or_else(|_| "nothing".to_string(), |v| v.to_string());
                return Err(format!(
                    "expected a failure containing {text:?}, but it returned {shown}"
                ));
            }
            (Status::Failed { kind, message }, Some(text)) => {
                let message = failure_text(*kind, message);
                if !message.contains(text.as_str()) {
                    return Err(format!(
                        "failed with {message:?}, expected a message containing {text:?}"
                    ));
                }
                return Ok(());
            }
            (Status::Failed { kind, message }, None) => {
                return Err(format!("failed: {}", failure_text(*kind, message)));
            }
            (Status::Success, None) => {}
        }
        if spec.returns.is_some() || spec.returns_none {
            let value = Value::decode(&r.receipt.return_data)
                .map_err(|e| format!("the return value does not decode: {e}"))?;
            if let Some(expected) = &spec.returns {
                let json = serde_json::to_value(expected).map_err(|e| e.to_string())?;
                let expected = Value::from_json(&json).map_err(|e| format!("{json}: {e}"))?;
                if expected.to_json() != value.to_json() {
                    return Err(format!("returned {value}, expected {expected}"));
                }
            }
            if spec.returns_none && !matches!(value, Value::None) {
                return Err(format!("returned {value}, expected None"));
            }
        }
        if let Some(names) = &spec.events {
            let got: Vec<[u8; 32]> = r
                .receipt
                .events
                .iter()
                .filter_map(|e| e.topics.first().map(|t| t.0))
                .collect();
            check_events(&got, names)?;
        }
        let (messages, timers) = own.map_or((&[][..], &[][..]), |c| {
            (c.messages.as_slice(), c.timers.as_slice())
        });
        if let Some(methods) = &spec.messages {
            let got: Vec<&str> = messages.iter().map(|m| m.method.as_str()).collect();
            if &got != methods {
                return Err(format!("sent messages {got:?}, expected {methods:?}"));
            }
        }
        if let Some(n) = spec.timers
            && timers.len() != n
        {
            return Err(format!("set {} timer(s), expected {n}", timers.len()));
        }
        Ok(())
    }
}

/// A receipt failure as the developer reads it: `Kind: message`.
fn failure_text(kind: u8, message: &str) -> String {
    format!("{}: {message}", FailureKind::name_of(kind))
}

/// Compares the first topics of emitted events with the expected event names.
fn check_events(got: &[[u8; 32]], names: &[String]) -> Result<(), String> {
    let want: Vec<[u8; 32]> = names
        .iter()
        .map(|n| cowboy_types::keccak256(n.as_bytes()).0)
        .collect();
    if want == got {
        return Ok(());
    }
    // Names the emitted events that match an expected name; others as their topic hash.
    let named: Vec<String> = got
        .iter()
        .map(|t| {
            names
                .iter()
                .find(|n| cowboy_types::keccak256(n.as_bytes()).0 == *t)
                .cloned()
                .unwrap_or_else(|| format!("0x{}", hex::encode(t)))
        })
        .collect();
    Err(format!(
        "emitted {} event(s) {named:?}, expected {names:?}",
        got.len()
    ))
}
