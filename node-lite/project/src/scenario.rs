//! `cowboy test`: runs a project's `tests/*.toml` scenarios on a local PVM. Each file deploys
//! one actor (fresh state) and runs its steps in order; state carries over between steps.
//! Messages and timers are recorded and checked, not delivered (that needs a chain: deploy to
//! a devnet).
//!
//! ```toml
//! actor = "counter"        # which manifest actor (default: the only one)
//! init_args = [0]          # __init__ arguments
//! init_timers = 0          # timers __init__ must set (optional)
//!
//! [[steps]]
//! call = "increment"       # handler
//! args = [5]               # arguments
//! caller = "0x22…22"       # default: the deployer 0x11…11; "self" for the actor itself
//! value = 0                # base units sent with the call
//! returns = 5              # expected return value (a table for a dict)
//! returns_none = true      # expect None (TOML has no null)
//! fails = "text"           # expect failure whose message contains this
//! events = ["Incremented"] # names of the events emitted, in order
//! messages = ["handle"]    # methods of the messages sent, in order
//! timers = 1               # timers set
//! ```

use crate::manifest::Project;
use cowboy_pvm::{CallContext, CallOutcome, Limits, MemoryHost, PvmThread, Value};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The deployer and default caller: `0x1111…1111`.
pub const DEPLOYER: [u8; 20] = [0x11; 20];
/// Cycle and cell budget of each deploy and call.
const LIMITS: Limits = Limits {
    cycles: 10_000_000,
    cells: 1_000_000,
};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    actor: Option<String>,
    #[serde(default)]
    init_args: Vec<toml::Value>,
    #[serde(default)]
    init_value: u64,
    init_timers: Option<usize>,
    #[serde(default)]
    steps: Vec<Step>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    call: String,
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
}

/// The outcome of one scenario file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// Path relative to the project.
    pub file: String,
    pub actor: String,
    pub steps: usize,
    pub passed: usize,
    /// The first failure: which step (0 for the deploy) and why.
    pub failure: Option<Failure>,
}

#[derive(Clone, Debug, serde::Serialize)]
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
    #[error("no tests: {0} has no *.toml files (see `cowboy test --help` for the format)")]
    NoTests(PathBuf),
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("cannot start the PVM: {0}")]
    Pvm(String),
}

/// The scenario files of a project, sorted.
pub fn files(project: &Project) -> Result<Vec<PathBuf>, ScenarioError> {
    let dir = project.dir.join("tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
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
    let files = files(project)?;
    let pvm = PvmThread::spawn().map_err(|e| ScenarioError::Pvm(e.to_string()))?;
    let mut reports = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(&project.dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        if filter.is_some_and(|f| !rel.contains(f)) {
            continue;
        }
        reports.push(run_file(project, &pvm, &path, rel)?);
    }
    Ok(reports)
}

fn invalid(path: &Path, message: String) -> ScenarioError {
    ScenarioError::Invalid {
        path: path.to_path_buf(),
        message,
    }
}

fn to_value(v: &toml::Value, path: &Path) -> Result<Value, ScenarioError> {
    let json = serde_json::to_value(v).map_err(|e| invalid(path, e.to_string()))?;
    Value::from_json(&json).map_err(|e| invalid(path, format!("{json}: {e}")))
}

fn encode(args: &[toml::Value], path: &Path) -> Result<Vec<u8>, ScenarioError> {
    let values = args
        .iter()
        .map(|a| to_value(a, path))
        .collect::<Result<Vec<_>, _>>()?;
    Value::List(values)
        .encode()
        .map_err(|e| invalid(path, e.to_string()))
}

/// Who sends a call: an account, or the actor itself (as a timer firing does).
#[derive(Clone, Copy)]
enum Caller {
    Account([u8; 20]),
    Actor,
}

fn caller(text: &str, path: &Path) -> Result<Caller, ScenarioError> {
    if text == "self" {
        return Ok(Caller::Actor);
    }
    let a: cowboy_types::Address = text
        .parse()
        .map_err(|e| invalid(path, format!("caller {text:?}: {e}")))?;
    Ok(Caller::Account(a.0))
}

/// A step's inputs, prepared before entering the PVM thread.
struct Call {
    method: String,
    args: Vec<u8>,
    caller: Caller,
    value: u64,
}

fn run_file(
    project: &Project,
    pvm: &PvmThread,
    path: &Path,
    rel: String,
) -> Result<Report, ScenarioError> {
    let text = std::fs::read_to_string(path).map_err(|e| invalid(path, e.to_string()))?;
    let scenario: Scenario =
        toml::from_str(&text).map_err(|e| invalid(path, e.to_string().trim_end().to_string()))?;
    let entry = project
        .actor(scenario.actor.as_deref())
        .map_err(|e| invalid(path, e.to_string()))?
        .clone();
    let source_path = project.dir.join(&entry.source);
    let source =
        std::fs::read_to_string(&source_path).map_err(|e| invalid(&source_path, e.to_string()))?;
    let shown_file = entry.source.display().to_string();
    let shown_source = cowboy_types::canonicalize_source(&source);
    let traceback_of = |outcome: &CallOutcome| {
        outcome
            .result
            .as_ref()
            .err()
            .and_then(|e| e.traceback.as_deref())
            .map(|tb| cowboy_pvm::engine::traceback_in_file(tb, &shown_file, &shown_source))
    };
    let init_args = encode(&scenario.init_args, path)?;
    let deployer = DEPLOYER;
    let calls = scenario
        .steps
        .iter()
        .map(|s| {
            Ok(Call {
                method: s.call.clone(),
                args: encode(&s.args, path)?,
                caller: match &s.caller {
                    Some(text) => caller(text, path)?,
                    None => Caller::Account(deployer),
                },
                value: s.value,
            })
        })
        .collect::<Result<Vec<_>, ScenarioError>>()?;
    let init_value = scenario.init_value;
    let outcomes = pvm
        .run(move |engine| {
            let code = engine.load(&source).map_err(|diagnostics| {
                diagnostics
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            })?;
            let actor = code.address_deployed_by(deployer);
            let ctx = |caller: [u8; 20], value: u64| CallContext::local(actor, caller, value, 1);
            let mut host = MemoryHost::default();
            host.balances.insert(actor, u64::MAX / 4);
            let deploy = engine.deploy(
                &code,
                &mut host,
                ctx(deployer, init_value),
                &init_args,
                LIMITS,
            );
            if deploy.result.is_ok() {
                host.apply(&actor, &deploy.effects);
            }
            let mut outcomes = vec![deploy];
            for c in calls {
                if outcomes[0].result.is_err() {
                    break; // nothing to call
                }
                let caller = match c.caller {
                    Caller::Account(a) => a,
                    Caller::Actor => actor,
                };
                let o = engine.call(
                    &code,
                    &mut host,
                    ctx(caller, c.value),
                    &c.method,
                    &c.args,
                    LIMITS,
                );
                if o.result.is_ok() {
                    host.apply(&actor, &o.effects);
                }
                outcomes.push(o);
            }
            Ok::<_, String>(outcomes)
        })
        .map_err(|e| ScenarioError::Pvm(e.to_string()))?;
    let mut report = Report {
        file: rel,
        actor: entry.name.clone(),
        steps: scenario.steps.len(),
        passed: 0,
        failure: None,
    };
    let outcomes = match outcomes {
        Ok(o) => o,
        Err(diagnostics) => {
            report.failure = Some(Failure {
                step: 0,
                call: "deploy".into(),
                message: format!(
                    "{} does not validate:\n{diagnostics}",
                    entry.source.display()
                ),
                traceback: None,
            });
            return Ok(report);
        }
    };
    let deploy = &outcomes[0];
    let deploy_check = match &deploy.result {
        Err(e) => Err(format!("__init__ failed: {e}")),
        Ok(_) => match scenario.init_timers {
            Some(n) if deploy.effects.timers_set.len() != n => Err(format!(
                "__init__ set {} timers, expected {n}",
                deploy.effects.timers_set.len()
            )),
            _ => Ok(()),
        },
    };
    if let Err(message) = deploy_check {
        report.failure = Some(Failure {
            step: 0,
            call: "deploy".into(),
            message,
            traceback: traceback_of(deploy),
        });
        return Ok(report);
    }
    for (i, (step, outcome)) in scenario.steps.iter().zip(&outcomes[1..]).enumerate() {
        if let Err(message) = check_step(step, outcome, path) {
            report.failure = Some(Failure {
                step: i + 1,
                call: step.call.clone(),
                message,
                // An expected failure that failed differently still shows where it came from.
                traceback: traceback_of(outcome),
            });
            return Ok(report);
        }
        report.passed += 1;
    }
    Ok(report)
}

fn check_step(step: &Step, outcome: &CallOutcome, path: &Path) -> Result<(), String> {
    match (&outcome.result, &step.fails) {
        (Ok(v), Some(text)) => {
            return Err(format!(
                "expected a failure containing {text:?}, but it returned {v}"
            ));
        }
        (Err(e), Some(text)) => {
            let message = e.to_string();
            if !message.contains(text.as_str()) {
                return Err(format!(
                    "failed with {message:?}, expected a message containing {text:?}"
                ));
            }
            return Ok(());
        }
        (Err(e), None) => return Err(format!("failed: {e}")),
        (Ok(_), None) => {}
    }
    let Ok(value) = &outcome.result else {
        return Ok(());
    };
    if let Some(expected) = &step.returns {
        let expected = to_value(expected, path).map_err(|e| e.to_string())?;
        if expected.to_json() != value.to_json() {
            return Err(format!("returned {value}, expected {expected}"));
        }
    }
    if step.returns_none && !matches!(value, Value::None) {
        return Err(format!("returned {value}, expected None"));
    }
    if let Some(names) = &step.events {
        let want: Vec<[u8; 32]> = names
            .iter()
            .map(|n| cowboy_types::keccak256(n.as_bytes()).0)
            .collect();
        let got: Vec<[u8; 32]> = outcome
            .effects
            .events
            .iter()
            .filter_map(|e| e.topics.first().copied())
            .collect();
        if want != got {
            return Err(format!(
                "emitted {} event(s) {}, expected {names:?}",
                got.len(),
                describe_events(&got, names)
            ));
        }
    }
    if let Some(methods) = &step.messages {
        let got: Vec<&str> = outcome
            .effects
            .messages
            .iter()
            .map(|m| m.method.as_str())
            .collect();
        if &got != methods {
            return Err(format!("sent messages {got:?}, expected {methods:?}"));
        }
    }
    if let Some(n) = step.timers
        && outcome.effects.timers_set.len() != n
    {
        return Err(format!(
            "set {} timer(s), expected {n}",
            outcome.effects.timers_set.len()
        ));
    }
    Ok(())
}

/// Names the emitted events that match an expected name; others as their topic hash.
fn describe_events(got: &[[u8; 32]], names: &[String]) -> String {
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
    format!("{named:?}")
}
