//! `cowboy test`'s Python tests: `tests/test_*.py` of a project, each `test_*` function run by
//! the PVM's test mode ([`cowboy_pvm::testing`]) against a fresh local chain
//! ([`LocalChain`], the node's own state transition in memory).
//!
//! [`ChainHost`] answers the `cowboy_test` module: it deploys the manifest's actors, sends
//! their calls as transactions in blocks of their own, runs read-only queries, makes blocks,
//! reads balances and storage, keeps snapshots (a snapshot is a height: reverting makes the
//! blocks up to it again on a fresh store), and records what every call used for the gas
//! report. Every chain of a run shares one PVM thread; the test code runs on another.

use crate::manifest::Project;
use cowboy_execution::{
    CallTrace, Genesis,
    local::{LocalChain, LocalError, LocalReceipt},
    query::{MAX_QUERY_CELLS, MAX_QUERY_CYCLES, Query},
};
use cowboy_pvm::{
    PvmThread, Value,
    testing::{TestHost, TestPlan, TestResult, TestSource},
};
use cowboy_types::{ActorInstruction, Address, FailureKind, Hash, Instruction, Status};
use std::{
    collections::BTreeMap,
    path::Path,
    sync::{Arc, Mutex, mpsc},
};

/// How many accounts a test chain funds (`cowboy_test.accounts`).
pub const ACCOUNTS: u8 = 10;
/// How many runners a test chain registers at genesis for `cowboy_test.mock_job` (enough for a
/// committee of the default size twice over; they never run anything themselves).
pub const MOCK_RUNNERS: u8 = 10;
/// The model the mock runners declare: the one `cowboy runner-sim`'s LLM stand-in serves,
/// `keccak256("cowboy-runner-sim-model")`.
pub const MOCK_MODEL_LABEL: &[u8] = b"cowboy-runner-sim-model";

/// The mock runners: `0xf0…f0`, `0xf1…f1`, …
pub fn mock_runners() -> Vec<Address> {
    (0..MOCK_RUNNERS).map(|i| Address([0xf0 + i; 20])).collect()
}

/// The genesis of every test chain: [`LocalChain::genesis`] funding [`accounts`] and the mock
/// runners (for their transactions' fees), with the mock runners registered and staked. Their
/// heartbeats never go stale on a test chain, however many blocks a test makes before it
/// submits a job.
pub fn genesis() -> Genesis {
    use cowboy_types::runner::{
        Capabilities, JobType, JobTypes, RateCard, RunnerKey, RunnerProfile,
    };
    let mut funded = accounts();
    funded.extend(mock_runners());
    let mut genesis = LocalChain::genesis(&funded);
    genesis.parameters.runner.heartbeat_timeout_blocks = 1 << 40;
    let stake = genesis
        .parameters
        .runner
        .runner_stake_floor
        .saturating_mul(4);
    let mut key = [0x66u8; 32];
    key[0] = 0x58;
    for address in mock_runners() {
        genesis
            .runners
            .push(cowboy_execution::genesis::GenesisRunner {
                address,
                stake: cowboy_types::json::Amount(stake),
                profile: RunnerProfile {
                    key: RunnerKey::Ed25519(Hash(key)),
                    capabilities: Capabilities {
                        job_types: JobTypes::of(&[
                            JobType::Llm,
                            JobType::Http,
                            JobType::Mcp,
                            JobType::Custom,
                        ]),
                        models: vec![cowboy_types::keccak256(MOCK_MODEL_LABEL)],
                        domains: vec![],
                        tee: false,
                    },
                    rate_card: RateCard {
                        per_job: 1,
                        per_1k_tokens: 0,
                        per_second: 0,
                    },
                    max_concurrent_jobs: 1_024,
                    max_job_value: 0,
                    endpoint: "https://mock-runner.invalid/push".into(),
                },
            });
    }
    genesis
}

/// The funded accounts of every test chain: `0x1111…11`, `0x2222…22`, … (the first deploys
/// and calls by default, as a TOML scenario's deployer does).
pub fn accounts() -> Vec<Address> {
    (1..=ACCOUNTS).map(|i| Address([i * 0x11; 20])).collect()
}

/// Why Python tests could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum PythonTestError {
    #[error("cannot read {path}: {error}")]
    Read { path: String, error: String },
    #[error(transparent)]
    Local(#[from] LocalError),
    #[error("cannot start the PVM for the tests: {0}")]
    Pvm(String),
}

/// Options of a run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Only tests whose `file::name` contains this.
    pub pattern: Option<String>,
    /// Only test files whose path contains this.
    pub file_filter: Option<String>,
    pub fail_fast: bool,
    /// Examples every property test draws (`None`: what each test says, or 256).
    pub fuzz_runs: Option<u64>,
    pub seed: u64,
}

/// What one actor call used (a transaction's own call; `__init__` is named `__init__`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GasSample {
    pub actor: String,
    pub method: String,
    pub cycles: u64,
    pub cells: u64,
}

/// The test files and helper modules of `project` (`tests/*.py`, sorted).
pub fn plan(project: &Project, options: &Options) -> Result<TestPlan, PythonTestError> {
    let dir = project.dir.join("tests");
    let mut plan = TestPlan {
        pattern: options.pattern.clone(),
        fail_fast: options.fail_fast,
        ..TestPlan::default()
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(plan);
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    paths.sort();
    for path in paths {
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let file = format!("tests/{stem}.py");
        let source = std::fs::read_to_string(&path).map_err(|e| PythonTestError::Read {
            path: path.display().to_string(),
            error: e.to_string(),
        })?;
        let entry = TestSource {
            module: stem.to_owned(),
            file: file.clone(),
            source,
        };
        if stem.starts_with("test_") {
            if options
                .file_filter
                .as_deref()
                .is_none_or(|f| file.contains(f))
            {
                plan.files.push(entry);
            }
        } else {
            plan.helpers.push(entry);
        }
    }
    Ok(plan)
}

/// Runs `plan` for `project`, calling `on_result` as each test ends (on this thread); every
/// result and what every actor call used.
pub fn run(
    project: &Project,
    plan: TestPlan,
    options: &Options,
    on_result: &mut dyn FnMut(&TestResult),
) -> Result<(Vec<TestResult>, Vec<GasSample>), PythonTestError> {
    let actors = actors(project)?;
    let gas = Arc::new(Mutex::new(Vec::new()));
    let chain_pvm = Arc::new(PvmThread::spawn().map_err(|e| PythonTestError::Pvm(e.to_string()))?);
    let host = ChainHost {
        actors,
        genesis: genesis(),
        pvm: chain_pvm,
        chain: None,
        receipts: Vec::new(),
        snapshots: Vec::new(),
        deploys: BTreeMap::new(),
        names: BTreeMap::new(),
        gas: gas.clone(),
        fuzz_runs: options.fuzz_runs,
        seed: options.seed,
    };
    let test_pvm = PvmThread::spawn().map_err(|e| PythonTestError::Pvm(e.to_string()))?;
    let (tx, rx) = mpsc::channel::<TestResult>();
    let results = std::thread::scope(|scope| {
        let runner = scope.spawn(move || {
            test_pvm.run(move |engine| {
                engine.run_tests(&plan, Box::new(host), &mut |r| {
                    let _ = tx.send(r.clone());
                })
            })
        });
        for r in rx {
            on_result(&r);
        }
        runner.join()
    });
    let results = results
        .map_err(|_| PythonTestError::Pvm("the test thread panicked".into()))?
        .map_err(|e| PythonTestError::Pvm(e.to_string()))?;
    let gas = gas.lock().map(|g| g.clone()).unwrap_or_default();
    Ok((results, gas))
}

/// An actor of the manifest, read.
#[derive(Clone, Debug)]
struct Actor {
    /// Its source file as the project names it (for tracebacks).
    file: String,
    source: String,
    entitlements: cowboy_types::entitlement::ActorEntitlements,
}

fn actors(project: &Project) -> Result<BTreeMap<String, Actor>, PythonTestError> {
    let mut out = BTreeMap::new();
    for entry in &project.manifest.actors {
        let path = project.dir.join(&entry.source);
        let source = std::fs::read_to_string(&path).map_err(|e| PythonTestError::Read {
            path: path.display().to_string(),
            error: e.to_string(),
        })?;
        let entitlements = entry
            .declared_entitlements()
            .map_err(|e| PythonTestError::Read {
                path: crate::MANIFEST.into(),
                error: format!("actor {}: {e}; {}", entry.name, e.hint()),
            })?;
        out.insert(
            entry.name.clone(),
            Actor {
                file: entry.source.display().to_string(),
                source,
                entitlements,
            },
        );
    }
    Ok(out)
}

/// The chain side of `cowboy_test` (see the module documentation).
struct ChainHost {
    actors: BTreeMap<String, Actor>,
    genesis: Genesis,
    pvm: Arc<PvmThread>,
    chain: Option<LocalChain>,
    /// Every receipt of this test's chain, oldest first.
    receipts: Vec<LocalReceipt>,
    /// Snapshot `i`: what `revert(i)` restores.
    snapshots: Vec<Snapshot>,
    /// Deploys so far by (deployer, actor name): the next deploy's salt.
    deploys: BTreeMap<(Address, String), u64>,
    /// Deployed actors' names by address (for receipts and tracebacks).
    names: BTreeMap<Address, String>,
    gas: Arc<Mutex<Vec<GasSample>>>,
    fuzz_runs: Option<u64>,
    seed: u64,
}

/// What a snapshot restores besides the chain's blocks.
struct Snapshot {
    height: u64,
    /// How many receipts there were.
    receipts: usize,
    beacon_seed: Option<Vec<u8>>,
    deploys: BTreeMap<(Address, String), u64>,
    names: BTreeMap<Address, String>,
}

/// A request's named arguments.
struct Args<'a>(&'a [(Value, Value)]);

impl<'a> Args<'a> {
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.0
            .iter()
            .find(|(k, _)| matches!(k, Value::Str(s) if s == name))
            .map(|(_, v)| v)
            .filter(|v| !matches!(v, Value::None))
    }

    fn text(&self, name: &str) -> Result<&'a str, String> {
        match self.get(name) {
            Some(Value::Str(s)) => Ok(s),
            Some(other) => Err(format!("{name} must be text, got {other}")),
            None => Err(format!("{name} is missing")),
        }
    }

    fn uint(&self, name: &str, default: u64) -> Result<u64, String> {
        match self.get(name) {
            None => Ok(default),
            Some(Value::Int(i)) => u64::try_from(i)
                .map_err(|_| format!("{name} must be a whole number from 0 to 2**64-1, got {i}")),
            Some(Value::Bool(b)) => Ok(u64::from(*b)),
            Some(other) => Err(format!("{name} must be an integer, got {other}")),
        }
    }

    fn address(&self, name: &str) -> Result<Option<Address>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Str(s)) => s
                .parse()
                .map(Some)
                .map_err(|e| format!("{name} {s:?} is not an address: {e}")),
            Some(other) => Err(format!("{name} must be a 0x… address, got {other}")),
        }
    }

    fn list(&self, name: &str) -> Vec<Value> {
        match self.get(name) {
            Some(Value::List(items)) | Some(Value::Tuple(items)) => items.clone(),
            _ => Vec::new(),
        }
    }

    fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Bool(true)))
    }
}

fn int(n: u64) -> Value {
    Value::from(n)
}

fn text(s: impl Into<String>) -> Value {
    Value::Str(s.into())
}

/// A dict of named fields, in canonical order ([`Value::dict`]).
fn dict(fields: Vec<(&str, Value)>) -> Result<Value, String> {
    Value::dict(fields.into_iter().map(|(k, v)| (text(k), v)).collect())
        .map_err(|e| format!("cannot answer: {e}"))
}

/// Sets field `name` of `fields` to `value`.
fn set_field(fields: &mut [(&str, Value)], name: &str, value: Value) {
    if let Some((_, v)) = fields.iter_mut().find(|(k, _)| *k == name) {
        *v = value;
    }
}

impl ChainHost {
    fn chain(&mut self) -> Result<&mut LocalChain, String> {
        self.chain
            .as_mut()
            .ok_or_else(|| "no chain: the test has not started".to_string())
    }

    fn sender(&self, args: &Args<'_>) -> Result<Address, String> {
        Ok(args.address("sender")?.unwrap_or_else(|| accounts()[0]))
    }

    /// Sends `instruction` as `sender` in a block of its own; its receipt (the block's others
    /// are kept too).
    fn transact(&mut self, sender: Address, instruction: Instruction) -> Result<Value, String> {
        let own = self.transact_own(sender, instruction)?;
        self.receipt(&own)
    }

    /// [`ChainHost::transact`]'s receipt, before it is shown to the test.
    fn transact_own(
        &mut self,
        sender: Address,
        instruction: Instruction,
    ) -> Result<LocalReceipt, String> {
        let budget = cowboy_execution::local::Budget::Client;
        let made = self
            .chain()?
            .transact(sender, instruction, budget)
            .map_err(|e| match e {
                // What a node would refuse to admit (too large, limits out of range…).
                LocalError::Tx(_) => format!("the transaction is refused: {e}"),
                other => other.to_string(),
            })?;
        let (own, block) = made.into_own();
        for r in block {
            self.keep(r);
        }
        Ok(own)
    }

    fn keep(&mut self, r: LocalReceipt) {
        if let Some(call) = r.calls.iter().find(|c| c.depth == 0)
            && let Ok(mut gas) = self.gas.lock()
        {
            gas.push(GasSample {
                actor: self
                    .names
                    .get(&call.actor)
                    .cloned()
                    .unwrap_or_else(|| call.actor.to_string()),
                method: call.method.clone().unwrap_or_else(|| "__init__".into()),
                cycles: r.receipt.cycles_used,
                cells: r.receipt.cells_used,
            });
        }
        self.receipts.push(r);
    }

    /// A receipt as `cowboy_test.Receipt` reads it.
    fn receipt(&self, r: &LocalReceipt) -> Result<Value, String> {
        dict(self.receipt_fields(r)?)
    }

    /// [`ChainHost::receipt`]'s fields, for answers that add to them or change them.
    fn receipt_fields(&self, r: &LocalReceipt) -> Result<Vec<(&'static str, Value)>, String> {
        let own = r.calls.iter().find(|c| c.depth == 0);
        let (ok, kind, message) = match &r.receipt.status {
            Status::Success => (true, Value::None, String::new()),
            Status::Failed { kind, message } => {
                (false, text(FailureKind::name_of(*kind)), message.clone())
            }
        };
        let return_value = Value::decode(&r.receipt.return_data).unwrap_or(Value::None);
        let events = r
            .receipt
            .events
            .iter()
            .map(|e| {
                dict(vec![
                    (
                        "topics",
                        Value::List(
                            e.topics
                                .iter()
                                .map(|t| Value::Bytes(t.0.to_vec()))
                                .collect(),
                        ),
                    ),
                    (
                        "data",
                        Value::decode(&e.data).unwrap_or(Value::Bytes(e.data.clone())),
                    ),
                    ("actor", text(e.emitter.to_string())),
                ])
            })
            .collect::<Result<_, _>>()?;
        let logs = r
            .calls
            .iter()
            .flat_map(|c| c.logs.iter().cloned().map(Value::Str))
            .collect();
        let traceback = self.traceback(own).map_or(Value::None, Value::Str);
        let calls = r
            .calls
            .iter()
            .map(|c| {
                dict(vec![
                    ("actor", text(c.actor.to_string())),
                    (
                        "name",
                        self.names.get(&c.actor).cloned().map_or(Value::None, text),
                    ),
                    ("method", c.method.clone().map_or(Value::None, text)),
                    ("depth", int(u64::from(c.depth))),
                    ("ok", Value::Bool(c.result.is_ok())),
                    ("cycles", int(c.cycles_used)),
                    ("cells", int(c.cells_used)),
                ])
            })
            .collect::<Result<_, _>>()?;
        let sent = own.map_or(Vec::new(), |c| {
            c.messages.iter().map(|m| text(m.method.clone())).collect()
        });
        let timers = own.map_or(0, |c| c.timers.len() as u64);
        let address = own.map(|c| c.actor).or(r.receipt.created);
        let actor = address.map_or(Value::None, |a| text(a.to_string()));
        let name = address
            .and_then(|a| self.names.get(&a).cloned())
            .map_or(Value::None, text);
        Ok(vec![
            ("tx_hash", text(r.receipt.tx_hash.to_string())),
            ("height", int(r.height)),
            ("ok", Value::Bool(ok)),
            ("kind", kind),
            ("message", text(message)),
            ("return_value", return_value),
            ("cycles", int(r.receipt.cycles_used)),
            ("cells", int(r.receipt.cells_used)),
            ("fee", int(r.receipt.fee)),
            ("events", Value::List(events)),
            ("logs", Value::List(logs)),
            ("traceback", traceback),
            ("actor", actor),
            ("name", name),
            ("calls", Value::List(calls)),
            ("messages", Value::List(sent)),
            ("timers", int(timers)),
            (
                "method",
                own.and_then(|c| c.method.clone()).map_or(Value::None, text),
            ),
            (
                "sender",
                own.map_or(Value::None, |c| text(c.caller.to_string())),
            ),
        ])
    }

    /// The traceback of a failed call, in its actor's source file.
    fn traceback(&self, call: Option<&CallTrace>) -> Option<String> {
        let call = call?;
        let tb = call.result.as_ref().err()?.traceback.as_deref()?;
        let actor = self
            .names
            .get(&call.actor)
            .and_then(|n| self.actors.get(n))?;
        let shown = cowboy_types::canonicalize_source(&actor.source);
        Some(cowboy_pvm::engine::traceback_in_file(
            tb,
            &actor.file,
            &shown,
        ))
    }

    fn deploy(&mut self, args: &Args<'_>) -> Result<Value, String> {
        let name = args.text("name")?;
        let actor = self.actors.get(name).cloned().ok_or_else(|| {
            let names: Vec<&str> = self.actors.keys().map(String::as_str).collect();
            format!(
                "the manifest has no actor {name:?} (it has {})",
                names.join(", ")
            )
        })?;
        let sender = self.sender(args)?;
        if let Err(diagnostics) = self
            .chain()?
            .validate(&actor.source)
            .map_err(|e| e.to_string())?
        {
            let text: Vec<String> = diagnostics
                .iter()
                .map(|d| format!("{}:{d}", actor.file))
                .collect();
            return Err(format!(
                "{} does not validate:\n{}",
                actor.file,
                text.join("\n")
            ));
        }
        let salt = match args.get("salt") {
            Some(Value::Bytes(b)) if b.len() == 32 => Hash::from_slice(b).unwrap_or(Hash::ZERO),
            Some(other) => return Err(format!("salt must be 32 bytes, got {other}")),
            None => {
                // The same deployer deploying the same actor again gets a new address.
                let n = self.deploys.entry((sender, name.to_owned())).or_insert(0);
                let salt = if *n == 0 {
                    Hash::ZERO
                } else {
                    cowboy_types::keccak256(&n.to_be_bytes())
                };
                *n += 1;
                salt
            }
        };
        let code_hash = cowboy_types::code_hash(&cowboy_types::canonicalize_source(&actor.source));
        let address = cowboy_types::actor_address(&sender, &salt, &code_hash);
        self.names.insert(address, name.to_owned());
        let init_args = Value::List(args.list("args"))
            .encode()
            .map_err(|e| format!("the arguments have no canonical encoding: {e}"))?;
        let own = self.transact_own(
            sender,
            Instruction::Actor(ActorInstruction::Deploy {
                code: actor.source.clone(),
                salt,
                init_args,
                value: args.uint("value", 0)?,
                entitlements: actor.entitlements,
            }),
        )?;
        let mut fields = self.receipt_fields(&own)?;
        fields.push(("address", text(address.to_string())));
        dict(fields)
    }

    fn call(&mut self, args: &Args<'_>) -> Result<Value, String> {
        let to = args.address("to")?.ok_or("to is missing")?;
        let sender = self.sender(args)?;
        let method = args.text("method")?.to_owned();
        let encoded = Value::List(args.list("args"))
            .encode()
            .map_err(|e| format!("the arguments have no canonical encoding: {e}"))?;
        let instruction = Instruction::Actor(ActorInstruction::Message {
            to,
            method,
            args: encoded,
            value: args.uint("value", 0)?,
        });
        if args.flag("block") {
            return self.transact(sender, instruction);
        }
        let budget = cowboy_execution::local::Budget::Client;
        let hash = self
            .chain()?
            .send_as(sender, instruction, budget)
            .map_err(|e| format!("the transaction is refused: {e}"))?;
        Ok(text(hash.to_string()))
    }

    fn query(&mut self, args: &Args<'_>) -> Result<Value, String> {
        let to = args.address("to")?.ok_or("to is missing")?;
        let from = self.sender(args)?;
        let encoded = Value::List(args.list("args"))
            .encode()
            .map_err(|e| format!("the arguments have no canonical encoding: {e}"))?;
        let method = args.text("method")?.to_owned();
        let result = self
            .chain()?
            .query(Query {
                from,
                to,
                method: method.clone(),
                args: encoded,
                cycles_limit: MAX_QUERY_CYCLES,
                cells_limit: MAX_QUERY_CELLS,
            })
            .map_err(|e| e.to_string())?;
        let receipt = LocalReceipt {
            height: result.height,
            receipt: cowboy_types::Receipt {
                tx_hash: Hash::ZERO,
                status: result.status,
                cycles_used: result.cycles_used,
                cells_used: result.cells_used,
                fee: 0,
                return_data: result.return_data,
                events: result.events,
                created: None,
                deliveries: Vec::new(),
            },
            tx_index: None,
            calls: Vec::new(),
        };
        let mut fields = self.receipt_fields(&receipt)?;
        set_field(&mut fields, "actor", text(to.to_string()));
        let name = self.names.get(&to).cloned().map_or(Value::None, text);
        set_field(&mut fields, "name", name);
        set_field(&mut fields, "method", text(method));
        dict(fields)
    }

    /// Makes `blocks` blocks; the receipts of everything they ran.
    fn advance(&mut self, blocks: u64) -> Result<Vec<Value>, String> {
        let mut out = Vec::new();
        for _ in 0..blocks {
            let produced = self.chain()?.produce_block().map_err(|e| e.to_string())?;
            for r in produced {
                out.push(self.receipt(&r)?);
                self.keep(r);
            }
        }
        Ok(out)
    }

    fn until_idle(&mut self, max_blocks: u64) -> Result<Value, String> {
        let mut out = Vec::new();
        let mut made = 0;
        let pending = loop {
            let pending = self.chain()?.pending().map_err(|e| e.to_string())?;
            if pending.transactions == 0 && !pending.mailbox && pending.next_timer.is_none() {
                return Ok(Value::List(out));
            }
            if made == max_blocks {
                break pending;
            }
            out.extend(self.advance(1)?);
            made += 1;
        };
        Err(format!(
            "the chain is not idle after {max_blocks} blocks ({}); a timer that sets itself \
             again keeps a chain busy for ever: use advance(n)",
            match pending.next_timer {
                Some(h) => format!("a timer is due at block {h}"),
                None => "messages still wait in a mailbox".into(),
            }
        ))
    }

    /// Settles job `job` through the real market with the mock runners: waits for its draw,
    /// has every member commit to the same result (or fault), the aggregator reveal them all,
    /// and makes blocks until its callback ran. Every receipt of those blocks.
    fn mock_job(&mut self, args: &Args<'_>) -> Result<Value, String> {
        use cowboy_types::{
            SystemInstruction,
            bounded::{Bytes, List},
            job::{Fault, FaultKind, JobStatus, Reveal, VerificationMode},
        };
        let id = match args.get("job") {
            Some(Value::Str(s)) => s
                .parse::<Hash>()
                .map_err(|e| format!("job {s:?} is not a job id: {e}"))?,
            Some(Value::Bytes(b)) => Hash::from_slice(b)
                .ok_or_else(|| format!("a job id is 32 bytes, got {}", b.len()))?,
            _ => return Err("job (the id submit_job returned) is missing".into()),
        };
        let fault = match args.get("fault") {
            None => None,
            Some(Value::Str(s)) => Some(match s.as_str() {
                "external" => FaultKind::External,
                "bounds_too_tight" => FaultKind::BoundsTooTight,
                other => {
                    return Err(format!(
                        "fault {other:?}: use \"external\" or \"bounds_too_tight\""
                    ));
                }
            }),
            Some(other) => return Err(format!("fault must be text, got {other}")),
        };
        let result = match (args.get("result"), fault) {
            (Some(Value::Bytes(b)), _) => b.clone(),
            (Some(Value::Str(s)), _) => s.as_bytes().to_vec(),
            (Some(v), _) => serde_json::to_vec(&v.to_json()).map_err(|e| e.to_string())?,
            (None, Some(_)) => Vec::new(),
            (None, None) => return Err("give the job's result= (or a fault=)".into()),
        };
        let result = Bytes::new(result).map_err(|e| format!("the result is too large: {e}"))?;
        let mut out = Vec::new();
        // A committee is drawn a couple of rounds after its submission.
        let mut waited = 0;
        let job = loop {
            let job = self
                .chain()?
                .job(&id)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no job {id} on this chain"))?;
            if job.status != JobStatus::Submitted || waited >= 64 {
                break job;
            }
            waited += 1;
            out.extend(self.advance(1)?);
        };
        if job.status != JobStatus::Assigned {
            return Err(format!(
                "job {id} is {}; mock_job settles a job waiting for its runners",
                job.status
            ));
        }
        let draw = job
            .draws
            .last()
            .cloned()
            .ok_or_else(|| format!("job {id} has no committee"))?;
        let embedding = match job.spec.verification.mode {
            VerificationMode::SemanticSimilarity { .. } => {
                List::new(vec![16_384i16]).map_err(|e| e.to_string())?
            }
            _ => List::default(),
        };
        let reveals: Vec<Reveal> = draw
            .committee
            .iter()
            .enumerate()
            .map(|(i, runner)| Reveal {
                runner: *runner,
                result: result.clone(),
                salt: cowboy_types::keccak256(&[&id.0[..], &(i as u64).to_be_bytes()].concat()),
                tokens: 0,
                ms: 0,
                embedding: embedding.clone(),
                fault: fault.map(|kind| Fault {
                    kind,
                    progress_bps: 0,
                }),
            })
            .collect();
        let mut pending: Vec<(Address, Instruction)> = reveals
            .iter()
            .map(|r| {
                (
                    r.runner,
                    Instruction::System(SystemInstruction::JobCommit {
                        job_id: id,
                        commitment: r.commitment(),
                    }),
                )
            })
            .collect();
        let reveal = Instruction::System(SystemInstruction::JobReveal {
            job_id: id,
            reveals: List::new(reveals).map_err(|e| e.to_string())?,
        });
        // The commits, then the reveal, each in the first block with room in the runner
        // lane (a test chain's lane takes a few runner transactions per block).
        for phase in [None, Some(reveal)] {
            if let Some(reveal) = phase {
                pending.push((draw.aggregator, reveal));
            }
            for _ in 0..64 {
                if pending.is_empty() {
                    break;
                }
                let mut sent = Vec::new();
                for (runner, instruction) in &pending {
                    let budget = cowboy_execution::local::Budget::Client;
                    let hash = self
                        .chain()?
                        .send_as(*runner, instruction.clone(), budget)
                        .map_err(|e| format!("a mock runner's transaction is refused: {e}"))?;
                    sent.push(hash);
                }
                let produced = self.chain()?.produce_block().map_err(|e| e.to_string())?;
                let mut left = Vec::new();
                let mut failed = None;
                for r in produced {
                    if let Some(i) = sent.iter().position(|h| *h == r.receipt.tx_hash)
                        && let Status::Failed { kind, message } = &r.receipt.status
                    {
                        if *kind == FailureKind::Skipped.code() {
                            // The lane was full: the next block.
                            left.push(pending[i].clone());
                            continue;
                        }
                        failed.get_or_insert_with(|| message.clone());
                    }
                    out.push(self.receipt(&r)?);
                    self.keep(r);
                }
                if let Some(message) = failed {
                    return Err(format!("a mock runner's transaction failed: {message}"));
                }
                pending = left;
            }
        }
        // The callback runs in a block of its own after the verification.
        for _ in 0..16 {
            let job = self.chain()?.job(&id).map_err(|e| e.to_string())?;
            if job.is_none_or(|j| j.callbacks_pending == 0) {
                return Ok(Value::List(out));
            }
            out.extend(self.advance(1)?);
        }
        Err(format!("job {id}'s callback did not run"))
    }

    fn stored(&mut self, actor: Address, key: Vec<u8>) -> Result<Value, String> {
        match self
            .chain()?
            .storage(&actor, &key)
            .map_err(|e| e.to_string())?
        {
            None => Ok(Value::None),
            Some(bytes) => {
                Value::decode(&bytes).map_err(|e| format!("the stored value does not decode: {e}"))
            }
        }
    }
}

impl TestHost for ChainHost {
    fn reset(&mut self) -> Result<(), String> {
        self.chain = Some(
            LocalChain::on_thread(&self.genesis, self.pvm.clone()).map_err(|e| e.to_string())?,
        );
        self.receipts.clear();
        self.snapshots.clear();
        self.deploys.clear();
        self.names.clear();
        Ok(())
    }

    fn request(&mut self, op: &str, args: &Value) -> Result<Value, String> {
        let entries: &[(Value, Value)] = match args {
            Value::Dict(e) => e,
            _ => &[],
        };
        let args = Args(entries);
        match op {
            "accounts" => Ok(Value::List(
                accounts().iter().map(|a| text(a.to_string())).collect(),
            )),
            "mock_runners" => Ok(Value::List(
                mock_runners().iter().map(|a| text(a.to_string())).collect(),
            )),
            "settings" => dict(vec![
                ("fuzz_runs", self.fuzz_runs.map_or(Value::None, int)),
                ("seed", int(self.seed)),
            ]),
            "deploy" => self.deploy(&args),
            "call" => self.call(&args),
            "query" => self.query(&args),
            "transfer" => {
                let to = args.address("to")?.ok_or("to is missing")?;
                let sender = self.sender(&args)?;
                let amount = args.uint("amount", 0)?;
                self.transact(
                    sender,
                    Instruction::System(cowboy_types::SystemInstruction::Transfer { to, amount }),
                )
            }
            "advance" => {
                let blocks = args.uint("blocks", 1)?;
                if blocks > crate::local_run::MAX_HEIGHT {
                    return Err(format!(
                        "advance({blocks}): at most {} blocks at once",
                        crate::local_run::MAX_HEIGHT
                    ));
                }
                self.advance(blocks).map(Value::List)
            }
            "until_idle" => {
                let max = args.uint("max_blocks", 1000)?;
                self.until_idle(max)
            }
            "receipts" => Ok(Value::List(
                self.receipts
                    .iter()
                    .map(|r| self.receipt(r))
                    .collect::<Result<_, _>>()?,
            )),
            "height" => Ok(int(self.chain()?.height().map_err(|e| e.to_string())?)),
            "timestamp" => {
                let h = self.chain()?.height().map_err(|e| e.to_string())?;
                Ok(int(cowboy_execution::local::GENESIS_TIME_MS
                    + h * cowboy_execution::local::BLOCK_TIME_MS))
            }
            "balance" => {
                let a = args.address("address")?.ok_or("address is missing")?;
                let account = self.chain()?.account(&a).map_err(|e| e.to_string())?;
                Ok(int(account.balance))
            }
            "attribute" => {
                let actor = args.address("actor")?.ok_or("actor is missing")?;
                let name = args.text("name")?;
                let mut key = cowboy_pvm::engine::ATTR_PREFIX.to_vec();
                key.extend_from_slice(name.as_bytes());
                self.stored(actor, key)
            }
            "storage" => {
                let actor = args.address("actor")?.ok_or("actor is missing")?;
                let key = args
                    .get("key")
                    .cloned()
                    .unwrap_or(Value::None)
                    .encode()
                    .map_err(|e| format!("the key has no canonical encoding: {e}"))?;
                self.stored(actor, key)
            }
            "topic" => Ok(Value::Bytes(
                cowboy_types::keccak256(args.text("name")?.as_bytes())
                    .0
                    .to_vec(),
            )),
            "snapshot" => {
                let chain = self.chain()?;
                let height = chain.height().map_err(|e| e.to_string())?;
                let beacon_seed = chain.beacon_seed().map(<[u8]>::to_vec);
                self.snapshots.push(Snapshot {
                    height,
                    receipts: self.receipts.len(),
                    beacon_seed,
                    deploys: self.deploys.clone(),
                    names: self.names.clone(),
                });
                Ok(int(self.snapshots.len() as u64 - 1))
            }
            "revert" => {
                let id = args.uint("id", u64::MAX)?;
                let index = usize::try_from(id).unwrap_or(usize::MAX);
                if index >= self.snapshots.len() {
                    return Err(format!(
                        "no snapshot {id} in this test (a revert drops the snapshots taken \
                         after the one it goes back to)"
                    ));
                }
                // Snapshots after this one describe a history that is being undone.
                self.snapshots.truncate(index + 1);
                let snap = &self.snapshots[index];
                let (height, receipts, seed) =
                    (snap.height, snap.receipts, snap.beacon_seed.clone());
                let (deploys, names) = (snap.deploys.clone(), snap.names.clone());
                let chain = self.chain()?;
                chain.revert_to(height).map_err(|e| e.to_string())?;
                chain.set_beacon_seed(seed);
                self.receipts.truncate(receipts);
                self.deploys = deploys;
                self.names = names;
                Ok(Value::None)
            }
            "mock_job" => self.mock_job(&args),
            "set_beacon" => {
                let seed = match args.get("seed") {
                    None => None,
                    Some(Value::Bytes(b)) => Some(b.clone()),
                    Some(Value::Str(s)) => Some(s.as_bytes().to_vec()),
                    Some(other) => return Err(format!("the seed must be bytes, got {other}")),
                };
                self.chain()?.set_beacon_seed(seed);
                Ok(Value::None)
            }
            other => Err(format!("cowboy_test has no request {other:?}")),
        }
    }
}

/// The gas report: per actor and handler, the cycles and cells its calls used (min, median,
/// max) and how many calls.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct GasLine {
    pub actor: String,
    pub method: String,
    pub calls: usize,
    pub cycles: Spread,
    pub cells: Spread,
}

#[derive(Clone, Copy, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Spread {
    pub min: u64,
    pub median: u64,
    pub max: u64,
}

impl Spread {
    fn of(mut values: Vec<u64>) -> Self {
        values.sort_unstable();
        Self {
            min: values.first().copied().unwrap_or(0),
            // The lower median for an even count.
            median: values
                .get(values.len().saturating_sub(1) / 2)
                .copied()
                .unwrap_or(0),
            max: values.last().copied().unwrap_or(0),
        }
    }
}

/// Groups `samples` into the gas report, sorted by actor and handler.
pub fn gas_report(samples: &[GasSample]) -> Vec<GasLine> {
    let mut groups: BTreeMap<(String, String), Vec<&GasSample>> = BTreeMap::new();
    for s in samples {
        groups
            .entry((s.actor.clone(), s.method.clone()))
            .or_default()
            .push(s);
    }
    groups
        .into_iter()
        .map(|((actor, method), s)| GasLine {
            actor,
            method,
            calls: s.len(),
            cycles: Spread::of(s.iter().map(|x| x.cycles).collect()),
            cells: Spread::of(s.iter().map(|x| x.cells).collect()),
        })
        .collect()
}

/// Whether `project` has Python tests (`tests/test_*.py`).
pub fn has_tests(dir: &Path) -> bool {
    std::fs::read_dir(dir.join("tests")).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("test_") && name.ends_with(".py")
        })
    })
}
