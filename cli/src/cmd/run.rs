//! `cowboy run`: deploy an actor on a fresh local chain and call one handler, through the
//! chain's own state transition (`cowboy_project::local_run`), and report its result, effects
//! and metering. No node needed.

use crate::schema::{
    Metered, RefusedError, RunDelivery, RunDiagnostic, RunError, RunEvent, RunMessage, RunPhase,
    RunReport, RunTimer, RunTransaction,
};
use crate::{cmd::read_input, opts::GlobalArgs, output};
use anyhow::{Context as _, Result, anyhow};
use clap::Args;
use cowboy_execution::{CallTrace, local::Budget};
use cowboy_project::local_run::{self, Ran, RunOutcome};
use cowboy_pvm::{
    Value,
    host::{EmittedEvent, OutgoingMessage, TimerRequest},
};
use cowboy_types::{
    Address, FailureKind, Hash, Status, json::Amount, receipt::Outcome as DeliveryOutcome,
};
use serde_json::Value as Json;

/// A handler's budget when only the other limit is given.
const HANDLER_CYCLES: u64 = 10_000_000;
const HANDLER_CELLS: u64 = 1_000_000;

#[derive(Args)]
#[command(
    after_help = "Arguments are JSON values (5, \"text\", [1, 2], {\"k\": 1}); anything \
that is not valid JSON is passed as a string.\n\nExamples:\n  \
cowboy run src/counter.py increment\n  \
cowboy run src/counter.py increment 5 --json\n  \
cowboy run src/counter.py count_of '\"0x2222222222222222222222222222222222222222\"' --init-arg 10"
)]
pub struct RunArgs {
    /// The actor source file (`-` for stdin).
    file: String,
    /// The handler to call after deploying (omit to only deploy).
    method: Option<String>,
    /// Arguments for the handler.
    #[arg(allow_negative_numbers = true)]
    args: Vec<String>,
    /// An argument for `__init__` (repeat for several).
    #[arg(long = "init-arg", value_name = "VALUE", allow_negative_numbers = true)]
    init_args: Vec<String>,
    /// Cycle budget of each of `__init__` and the handler, the transaction's own cost coming
    /// on top (default: the limits `cowboy deploy` and `cowboy call` give a transaction).
    #[arg(long)]
    cycles_limit: Option<u64>,
    /// Cell budget of each of `__init__` and the handler (see --cycles-limit).
    #[arg(long)]
    cells_limit: Option<u64>,
    /// Address of the deployer and caller (funded by the local chain's genesis; no key needed).
    #[arg(long, default_value = "0x1111111111111111111111111111111111111111")]
    caller: String,
    /// Value sent with the call: base units, or CBY with a `cby` suffix (`0.5cby`).
    #[arg(long, default_value_t = 0, value_parser = crate::output::parse_amount)]
    value: u64,
    /// Height of the block the deploy and the call run in (the blocks below it are empty).
    #[arg(long, default_value_t = 1)]
    height: u64,
    /// An entitlement the actor is deployed declaring, e.g. `http.fetch` (repeat for several;
    /// a project's actors declare theirs in cowboy.toml).
    #[arg(long = "entitlement", value_name = "NAME")]
    entitlements: Vec<cowboy_types::entitlement::ActorEntitlement>,
}

fn parse_arg(text: &str) -> Result<Value> {
    match serde_json::from_str::<Json>(text) {
        Ok(json) => Value::from_json(&json).map_err(|e| anyhow!("argument {text}: {e}")),
        Err(_) => Ok(Value::Str(text.to_owned())),
    }
}

fn encode_args(args: &[String]) -> Result<Vec<u8>> {
    let values = args
        .iter()
        .map(|a| parse_arg(a))
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::List(values).encode()?)
}

fn address(s: &str, what: &str) -> Result<[u8; 20]> {
    let a: cowboy_types::Address = s
        .parse()
        .with_context(|| format!("--{what} is not an address"))?;
    Ok(a.0)
}

/// A canonical value as JSON; bytes that are not one, as `0x` hex.
fn decoded(bytes: &[u8]) -> Json {
    Value::decode(bytes)
        .map(|v| v.to_json())
        .unwrap_or_else(|_| Json::String(format!("0x{}", hex::encode(bytes))))
}

fn event(e: &EmittedEvent) -> RunEvent {
    RunEvent {
        topics: e.topics.iter().map(|t| Hash(*t)).collect(),
        data: decoded(&e.data),
    }
}

/// A message the call sent, with how its delivery ended when the chain delivered it (in the
/// same transaction, or deferred to a later block).
fn message(m: &OutgoingMessage, receipt: &cowboy_types::Receipt) -> RunMessage {
    let delivery = receipt.deliveries.iter().find(|d| d.id.0 == m.id);
    let (outcome, error) = match delivery.map(|d| &d.outcome) {
        None => (None, None),
        Some(DeliveryOutcome::Delivered) => (Some(RunDelivery::Delivered), None),
        Some(DeliveryOutcome::Deferred) => (Some(RunDelivery::Deferred), None),
        Some(DeliveryOutcome::Failed { kind, message }) => (
            Some(RunDelivery::Failed),
            Some(format!("{}: {message}", FailureKind::name_of(*kind))),
        ),
    };
    RunMessage {
        id: Hash(m.id),
        to: Address(m.to),
        method: m.method.clone(),
        args: decoded(&m.args),
        value: Amount(m.value),
        outcome,
        error,
    }
}

fn timer(t: &TimerRequest) -> RunTimer {
    RunTimer {
        id: Hash(t.id),
        height: t.height,
        every: t.every,
        handler: t.handler.clone(),
        args: decoded(&t.args),
        cycles_per_fire: t.cycles_per_fire,
        cells_per_fire: t.cells_per_fire,
        expires_at: t.expires_at,
    }
}

/// One line of text output: the item's JSON form.
fn json_line(item: &impl serde::Serialize) -> String {
    serde_json::to_string(item).unwrap_or_default()
}

impl RunArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let source = read_input(&self.file, "the actor source")?;
        let shown_source = cowboy_types::canonicalize_source(&source);
        let caller = address(&self.caller, "caller")?;
        let call = match &self.method {
            Some(m) => Some((m.clone(), encode_args(&self.args)?)),
            None => None,
        };
        let outcome = local_run::run(local_run::Run {
            source,
            caller: cowboy_types::Address(caller),
            init_args: encode_args(&self.init_args)?,
            call,
            value: self.value,
            height: self.height,
            entitlements: cowboy_types::entitlement::ActorEntitlements::of(&self.entitlements),
            budget: match (self.cycles_limit, self.cells_limit) {
                (None, None) => None,
                (cycles, cells) => Some(Budget::Call {
                    cycles: cycles.unwrap_or(HANDLER_CYCLES),
                    cells: cells.unwrap_or(HANDLER_CELLS),
                }),
            },
        })?;
        let (actor, deploy, call) = match outcome {
            RunOutcome::Refused(diagnostics) => {
                return report_diagnostics(&self.file, &diagnostics, global.json);
            }
            RunOutcome::Ran {
                actor,
                deploy,
                call,
            } => (actor, deploy, call),
        };
        let file = if self.file == "-" {
            "<stdin>"
        } else {
            &self.file
        };
        let main = call.as_ref().unwrap_or(&deploy);
        let traceback = main
            .main_call()
            .and_then(|c| c.result.as_ref().err())
            .and_then(|f| f.traceback.as_deref())
            .map(|tb| cowboy_pvm::engine::traceback_in_file(tb, file, &shown_source));
        report(
            &Outcome {
                actor: actor.0,
                deploy,
                call,
            },
            traceback.as_deref(),
            global.json,
        )
    }
}

struct Outcome {
    actor: [u8; 20],
    deploy: Box<Ran>,
    call: Option<Box<Ran>>,
}

/// What the output says of one transaction's own call (its `__init__` or handler).
struct Shown<'a> {
    /// The return value, or the failure's kind name and message.
    result: Result<Value, (&'static str, String)>,
    cycles_used: u64,
    cells_used: u64,
    call: Option<&'a CallTrace>,
}

fn shown(ran: &Ran) -> Shown<'_> {
    let call = ran.main_call();
    let failure = |kind: u8, message: &str| (FailureKind::name_of(kind), message.to_owned());
    let result = match (call.map(|c| &c.result), &ran.receipt.receipt.status) {
        (Some(Ok(bytes)), _) => Ok(Value::decode(bytes).unwrap_or(Value::None)),
        (Some(Err(f)), _) => Err(failure(f.kind, &f.message)),
        // The transaction failed before its call ran (its value, say).
        (None, Status::Failed { kind, message }) => Err(failure(*kind, message)),
        (None, Status::Success) => Ok(Value::None),
    };
    Shown {
        result,
        cycles_used: call.map_or(0, |c| c.cycles_used),
        cells_used: call.map_or(0, |c| c.cells_used),
        call,
    }
}

fn report_diagnostics(
    file: &str,
    diagnostics: &[cowboy_pvm::validate::Diagnostic],
    json: bool,
) -> Result<()> {
    if json {
        output::json(&crate::schema::Ran::Refused(crate::schema::Refused {
            result: (),
            error: RefusedError {
                kind: "Validation".into(),
                message: format!("{} problem(s) in {file}", diagnostics.len()),
                diagnostics: diagnostics
                    .iter()
                    .map(|d| RunDiagnostic {
                        line: d.line,
                        column: d.column,
                        rule: d.rule.id().into(),
                        message: d.message.clone(),
                        hint: d.hint.clone(),
                    })
                    .collect(),
            },
        }));
    } else {
        for d in diagnostics {
            eprintln!("{}", d.render(file));
        }
    }
    Err(crate::output::Reported.into())
}

/// Prints the outcome; `traceback` is the failed call's, as the developer reads it.
fn report(o: &Outcome, traceback: Option<&str>, json_mode: bool) -> Result<()> {
    // The call's outcome is the headline; a failed deploy stands in for it.
    let main_ran = o.call.as_ref().unwrap_or(&o.deploy);
    let main = shown(main_ran);
    let deploy = shown(&o.deploy);
    let failed_in_deploy = deploy.result.is_err();
    let receipt = &main_ran.receipt;
    let no_call = Vec::new();
    let (events, messages, timers, logs) = match main.call {
        Some(c) => (&c.events, &c.messages, &c.timers, &c.logs),
        None => (&Vec::new(), &Vec::new(), &Vec::new(), &no_call),
    };
    if json_mode {
        let error = main.result.as_ref().err().map(|(kind, message)| RunError {
            kind: (*kind).into(),
            message: message.clone(),
            phase: if failed_in_deploy {
                RunPhase::Deploy
            } else {
                RunPhase::Call
            },
            traceback: traceback.map(str::to_owned),
        });
        output::json(&crate::schema::Ran::Ran(Box::new(RunReport {
            result: main
                .result
                .as_ref()
                .ok()
                .map(Value::to_json)
                .unwrap_or(Json::Null),
            cycles_used: main.cycles_used,
            cells_used: main.cells_used,
            events: events.iter().map(event).collect(),
            messages: messages
                .iter()
                .map(|m| message(m, &receipt.receipt))
                .collect(),
            timers: timers.iter().map(timer).collect(),
            logs: logs.clone(),
            actor: Address(o.actor),
            deploy: Metered {
                cycles_used: deploy.cycles_used,
                cells_used: deploy.cells_used,
            },
            error,
            transaction: RunTransaction {
                hash: main_ran.hash,
                block_height: receipt.height,
                cycles_used: receipt.receipt.cycles_used,
                cells_used: receipt.receipt.cells_used,
                fee: Amount(receipt.receipt.fee),
            },
        })));
    } else {
        for line in o
            .deploy
            .main_call()
            .into_iter()
            .chain(o.call.as_ref().and_then(|c| c.main_call()))
            .flat_map(|c| c.logs.iter())
        {
            outln!("print: {line}");
        }
        match &main.result {
            Ok(v) => outln!("result: {v}"),
            Err((kind, message)) => {
                if let Some(tb) = traceback {
                    eprint!("{tb}");
                }
                eprintln!(
                    "error{}: {kind}: {message}",
                    if failed_in_deploy { " in __init__" } else { "" },
                );
            }
        }
        outln!("cycles: {}  cells: {}", main.cycles_used, main.cells_used);
        for e in events {
            outln!("event: {}", json_line(&event(e)));
        }
        for m in messages {
            outln!("message: {}", json_line(&message(m, &receipt.receipt)));
        }
        for t in timers {
            outln!("timer: {}", json_line(&timer(t)));
        }
        outln!(
            "transaction: {} cycles, {} cells, fee {} (block {})",
            receipt.receipt.cycles_used,
            receipt.receipt.cells_used,
            receipt.receipt.fee,
            receipt.height
        );
    }
    if main.result.is_err() {
        return Err(crate::output::Reported.into());
    }
    Ok(())
}
