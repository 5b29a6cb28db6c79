//! `cowboy run`: run an actor locally on the PVM with an in-memory host — deploy (`__init__`),
//! then one handler — and report its result, effects and metering. No node needed.

use crate::{cmd::read_input, opts::GlobalArgs, output};
use anyhow::{Context as _, Result, anyhow};
use clap::Args;
use cowboy_pvm::{
    CallContext, CallOutcome, Limits, MemoryHost, PvmThread, Value,
    host::{EmittedEvent, OutgoingMessage, TimerRequest},
};
use serde_json::{Value as Json, json};

#[derive(Args)]
#[command(
    after_help = "Arguments are JSON values (5, \"text\", [1, 2], {\"k\": 1}); anything \
that is not valid JSON is passed as a string.\n\nExamples:\n  \
cowboy run counter.py increment\n  \
cowboy run counter.py add 5 --json\n  \
cowboy run token.py transfer 0x2222222222222222222222222222222222222222 100 --init-arg 1000000"
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
    /// Cycle budget for each of the deploy and the call.
    #[arg(long, default_value_t = 10_000_000)]
    cycles_limit: u64,
    /// Cell budget for each of the deploy and the call.
    #[arg(long, default_value_t = 1_000_000)]
    cells_limit: u64,
    /// Address of the caller.
    #[arg(long, default_value = "0x1111111111111111111111111111111111111111")]
    caller: String,
    /// Base units sent with the call.
    #[arg(long, default_value_t = 0)]
    value: u64,
    /// Height of the (simulated) block.
    #[arg(long, default_value_t = 1)]
    height: u64,
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

fn hex0x(b: &[u8]) -> String {
    format!("0x{}", hex::encode(b))
}

fn decoded(bytes: &[u8]) -> Json {
    Value::decode(bytes)
        .map(|v| v.to_json())
        .unwrap_or_else(|_| Json::String(hex0x(bytes)))
}

fn event_json(e: &EmittedEvent) -> Json {
    json!({
        "topics": e.topics.iter().map(|t| hex0x(t)).collect::<Vec<_>>(),
        "data": decoded(&e.data),
    })
}

fn message_json(m: &OutgoingMessage) -> Json {
    json!({
        "id": hex0x(&m.id),
        "to": hex0x(&m.to),
        "method": m.method,
        "args": decoded(&m.args),
        "value": m.value.to_string(),
    })
}

fn timer_json(t: &TimerRequest) -> Json {
    json!({
        "id": hex0x(&t.id),
        "height": t.height,
        "every": t.every,
        "handler": t.handler,
        "args": decoded(&t.args),
        "cycles_per_fire": t.cycles_per_fire,
        "cells_per_fire": t.cells_per_fire,
        "expires_at": t.expires_at,
    })
}

impl RunArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let source = read_input(&self.file, "the actor source")?;
        let shown_source = cowboy_types::canonicalize_source(&source);
        let init_args = encode_args(&self.init_args)?;
        let call_args = encode_args(&self.args)?;
        let caller = address(&self.caller, "caller")?;
        let limits = Limits {
            cycles: self.cycles_limit,
            cells: self.cells_limit,
        };
        let pvm = PvmThread::spawn()?;
        let method = self.method.clone();
        let (height, value) = (self.height, self.value);
        let outcome = pvm
            .run(
                move |engine| -> Result<Outcome, Vec<cowboy_pvm::validate::Diagnostic>> {
                    let code = engine.load(&source)?;
                    let actor = code.address_deployed_by(caller);
                    let ctx = |value: u64| CallContext::local(actor, caller, value, height);
                    let mut host = MemoryHost::default();
                    let deploy = engine.deploy(&code, &mut host, ctx(0), &init_args, limits);
                    let call = match (&deploy.result, method) {
                        (Ok(_), Some(m)) => {
                            host.apply(&actor, &deploy.effects);
                            Some(engine.call(&code, &mut host, ctx(value), &m, &call_args, limits))
                        }
                        _ => None,
                    };
                    Ok(Outcome {
                        actor,
                        deploy,
                        call,
                    })
                },
            )
            .map_err(|e| anyhow!("{e}"))?;
        let outcome = match outcome {
            Ok(o) => o,
            Err(diagnostics) => return report_diagnostics(&self.file, &diagnostics, global.json),
        };
        let file = if self.file == "-" {
            "<stdin>"
        } else {
            &self.file
        };
        let main = outcome.call.as_ref().unwrap_or(&outcome.deploy);
        let traceback = main
            .result
            .as_ref()
            .err()
            .and_then(|e| e.traceback.as_deref())
            .map(|tb| cowboy_pvm::engine::traceback_in_file(tb, file, &shown_source));
        report(&outcome, traceback.as_deref(), global.json)
    }
}

struct Outcome {
    actor: [u8; 20],
    deploy: CallOutcome,
    call: Option<CallOutcome>,
}

fn report_diagnostics(
    file: &str,
    diagnostics: &[cowboy_pvm::validate::Diagnostic],
    json: bool,
) -> Result<()> {
    if json {
        output::json(&json!({
            "result": null,
            "error": {
                "kind": "Validation",
                "message": format!("{} problem(s) in {file}", diagnostics.len()),
                "diagnostics": diagnostics.iter().map(|d| d.to_json()).collect::<Vec<_>>(),
            }
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
    let main = o.call.as_ref().unwrap_or(&o.deploy);
    let failed_in_deploy = o.deploy.result.is_err();
    if json_mode {
        let error = main.result.as_ref().err().map(|e| {
            json!({
                "kind": e.kind.name(),
                "message": e.message,
                "phase": if failed_in_deploy { "deploy" } else { "call" },
                "traceback": traceback,
            })
        });
        output::json(&json!({
            "result": main.result.as_ref().ok().map(Value::to_json).unwrap_or(Json::Null),
            "cycles_used": main.cycles_used,
            "cells_used": main.cells_used,
            "events": main.effects.events.iter().map(event_json).collect::<Vec<_>>(),
            "messages": main.effects.messages.iter().map(message_json).collect::<Vec<_>>(),
            "timers": main.effects.timers_set.iter().map(timer_json).collect::<Vec<_>>(),
            "logs": main.logs,
            "actor": hex0x(&o.actor),
            "deploy": {
                "cycles_used": o.deploy.cycles_used,
                "cells_used": o.deploy.cells_used,
            },
            "error": error,
        }));
    } else {
        for line in o
            .deploy
            .logs
            .iter()
            .chain(o.call.iter().flat_map(|c| c.logs.iter()))
        {
            outln!("print: {line}");
        }
        match &main.result {
            Ok(v) => outln!("result: {v}"),
            Err(e) => {
                if let Some(tb) = traceback {
                    eprint!("{tb}");
                }
                eprintln!(
                    "error{}: {}",
                    if failed_in_deploy { " in __init__" } else { "" },
                    e
                );
            }
        }
        outln!("cycles: {}  cells: {}", main.cycles_used, main.cells_used);
        for e in &main.effects.events {
            outln!("event: {}", event_json(e));
        }
        for m in &main.effects.messages {
            outln!("message: {}", message_json(m));
        }
        for t in &main.effects.timers_set {
            outln!("timer: {}", timer_json(t));
        }
    }
    if main.result.is_err() {
        return Err(crate::output::Reported.into());
    }
    Ok(())
}
