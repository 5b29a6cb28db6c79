//! Native modules written in Rust: `pvm_host` (the actor's interface to the chain) and
//! `_cowboy_math` (deterministic `math` on [`crate::real_functions`]); `_cowboy_regex` lives in
//! [`crate::pyregex`]. Every function charges its price from
//! [`crate::cost`] before doing its work.

use crate::{
    call_state::{CallState, with_state},
    cost::{self, cells, cycles, limits},
    host::{EmittedEvent, JobRequest, OutgoingMessage, TimerRequest},
    meter, pyconv, real_functions as rf,
};
use rustpython_vm::{
    PyObjectRef, PyRef, PyResult, VirtualMachine,
    builtins::{
        PyBaseExceptionRef, PyBytesRef, PyDictRef, PyListRef, PyModule, PyTypeRef, PyUtf8StrRef,
    },
    function::{IntoPyNativeFn, OptionalArg},
};
use sha3::{Digest as _, Keccak256};
use std::cell::RefCell;

thread_local! {
    /// `OutOfCycles`, raised when a meter trips (a `BaseException` subclass, so `except
    /// Exception` does not catch it; catching it anyway achieves nothing, see `meter`).
    static OUT_OF_CYCLES: RefCell<Option<PyTypeRef>> = const { RefCell::new(None) };
}

/// Creates the exception type raised by the meters. Called once per interpreter.
pub fn init_exception_types(vm: &VirtualMachine) -> PyTypeRef {
    let ty = vm.ctx.new_exception_type(
        "builtins",
        "OutOfCycles",
        Some(vec![vm.ctx.exceptions.base_exception_type.to_owned()]),
    );
    OUT_OF_CYCLES.with(|t| *t.borrow_mut() = Some(ty.clone()));
    ty
}

/// The Python exception for a tripped meter.
pub fn trip_exception(trip: meter::Trip, vm: &VirtualMachine) -> PyBaseExceptionRef {
    let msg = match trip {
        meter::Trip::OutOfCycles => "out of cycles",
        meter::Trip::OutOfCells => "out of cells",
        meter::Trip::MemoryLimit => "memory limit of 10 MiB exceeded",
    };
    let ty = OUT_OF_CYCLES
        .with(|t| t.borrow().clone())
        .unwrap_or_else(|| vm.ctx.exceptions.base_exception_type.to_owned());
    vm.new_exception_msg(ty, msg.into())
}

/// Charges cycles, raising the meter exception on exhaustion.
#[inline]
pub fn charge(n: u64, vm: &VirtualMachine) -> PyResult<()> {
    if meter::runtime() && crate::library_objects::actor_frame_running(vm) {
        // Between calls (the library reset, collecting garbage) nothing pays for actor code,
        // and what it did would depend on the node's history: it does not run at all.
        return Err(vm.new_runtime_error(
            "actor code cannot run between calls (a finalizer or method reached while the \
             runtime cleans up)",
        ));
    }
    meter::charge_cycles(n).map_err(|t| trip_exception(t, vm))
}

/// Charges cells, raising the meter exception on exhaustion.
#[inline]
pub fn charge_cells(n: u64, vm: &VirtualMachine) -> PyResult<()> {
    meter::charge_cells(n).map_err(|t| trip_exception(t, vm))
}

fn state<R>(vm: &VirtualMachine, f: impl FnOnce(&mut CallState) -> PyResult<R>) -> PyResult<R> {
    with_state(f).map_err(|_| vm.new_runtime_error("no actor call is executing"))?
}

fn hex_address(a: &[u8; 20]) -> String {
    format!("0x{}", hex::encode(a))
}

fn parse_address(s: &str, vm: &VirtualMachine) -> PyResult<[u8; 20]> {
    let digits = s.strip_prefix("0x").unwrap_or(s);
    let bytes = hex::decode(digits)
        .ok()
        .filter(|b| b.len() == 20)
        .ok_or_else(|| {
            vm.new_value_error(format!("{s:?} is not an address (0x + 40 hex digits)"))
        })?;
    let mut out = [0u8; 20];
    out.copy_from_slice(&bytes);
    Ok(out)
}

fn parse_hash(s: &str, vm: &VirtualMachine) -> PyResult<[u8; 32]> {
    let digits = s.strip_prefix("0x").unwrap_or(s);
    let bytes = hex::decode(digits)
        .ok()
        .filter(|b| b.len() == 32)
        .ok_or_else(|| vm.new_value_error(format!("{s:?} is not an id (0x + 64 hex digits)")))?;
    let mut out = [0u8; 32];
    out.copy_from_slice(&bytes);
    Ok(out)
}

fn host_err(e: crate::host::HostError, vm: &VirtualMachine) -> PyBaseExceptionRef {
    vm.new_runtime_error(e.to_string())
}

pub(crate) fn add<F, K>(
    vm: &VirtualMachine,
    dict: &PyDictRef,
    name: &'static str,
    f: F,
) -> PyResult<()>
where
    F: IntoPyNativeFn<K>,
{
    dict.set_item(name, vm.new_function(name, f).into(), vm)
}

pub(crate) fn module(vm: &VirtualMachine, name: &str, dict: PyDictRef) -> PyRef<PyModule> {
    vm.new_module(name, dict, None)
}

// ---------------------------------------------------------------------------------------------
// pvm_host
// ---------------------------------------------------------------------------------------------

fn h_charge(n: i64, vm: &VirtualMachine) -> PyResult<()> {
    let n = u64::try_from(n).map_err(|_| vm.new_value_error("cannot charge a negative amount"))?;
    charge(n, vm)
}

fn storage_read(key: &[u8], vm: &VirtualMachine) -> PyResult<Option<Vec<u8>>> {
    charge(cycles::STORAGE_READ, vm)?;
    let value = state(vm, |s| {
        if let Some(v) = s.effects.storage.get(key) {
            return Ok(v.clone());
        }
        let actor = s.ctx.actor;
        s.host()
            .storage_get(&actor, key)
            .map_err(|e| host_err(e, vm))
    })?;
    // State reads cost 0.01 cells per byte (whitepaper §17.4), rounded up.
    if let Some(v) = &value {
        charge_cells((key.len() + v.len()).div_ceil(100) as u64, vm)?;
    }
    Ok(value)
}

fn h_storage_get(key: PyBytesRef, vm: &VirtualMachine) -> PyResult<Option<PyBytesRef>> {
    Ok(storage_read(key.as_bytes(), vm)?.map(|v| vm.ctx.new_bytes(v)))
}

fn storage_write(key: &[u8], value: Option<&[u8]>, vm: &VirtualMachine) -> PyResult<()> {
    charge(cycles::STORAGE_WRITE, vm)?;
    let bytes = key.len() + value.map_or(0, |v| v.len());
    charge_cells(bytes as u64 * cells::STORAGE_WRITE_PER_BYTE, vm)?;
    state(vm, |s| {
        s.effects
            .storage
            .insert(key.to_vec(), value.map(|v| v.to_vec()));
        Ok(())
    })
}

fn h_storage_set(key: PyBytesRef, value: PyBytesRef, vm: &VirtualMachine) -> PyResult<()> {
    storage_write(key.as_bytes(), Some(value.as_bytes()), vm)
}

fn h_storage_delete(key: PyBytesRef, vm: &VirtualMachine) -> PyResult<()> {
    storage_write(key.as_bytes(), None, vm)
}

fn h_caller(vm: &VirtualMachine) -> PyResult<String> {
    charge(cycles::CONTEXT_READ, vm)?;
    state(vm, |s| Ok(hex_address(&s.ctx.caller)))
}

fn h_self_address(vm: &VirtualMachine) -> PyResult<String> {
    charge(cycles::CONTEXT_READ, vm)?;
    state(vm, |s| Ok(hex_address(&s.ctx.actor)))
}

fn h_value(vm: &VirtualMachine) -> PyResult<u64> {
    charge(cycles::CONTEXT_READ, vm)?;
    state(vm, |s| Ok(s.ctx.value))
}

fn h_balance(address: OptionalArg<Option<PyUtf8StrRef>>, vm: &VirtualMachine) -> PyResult<u64> {
    charge(cycles::CONTEXT_READ, vm)?;
    let who = match address.flatten() {
        Some(a) => Some(parse_address(a.as_str(), vm)?),
        None => None,
    };
    state(vm, |s| {
        let who = who.unwrap_or(s.ctx.actor);
        s.host().balance(&who).map_err(|e| host_err(e, vm))
    })
}

fn h_block_height(vm: &VirtualMachine) -> PyResult<u64> {
    charge(cycles::BLOCK_INFO, vm)?;
    state(vm, |s| Ok(s.ctx.block.height))
}

fn h_block_round(vm: &VirtualMachine) -> PyResult<(u64, u64)> {
    charge(cycles::BLOCK_INFO, vm)?;
    state(vm, |s| Ok((s.ctx.block.epoch, s.ctx.block.view)))
}

fn h_block_timestamp(vm: &VirtualMachine) -> PyResult<u64> {
    charge(cycles::BLOCK_INFO, vm)?;
    state(vm, |s| Ok(s.ctx.block.timestamp_ms))
}

fn h_chain_id(vm: &VirtualMachine) -> PyResult<u64> {
    charge(cycles::BLOCK_INFO, vm)?;
    state(vm, |s| Ok(s.ctx.block.chain_id))
}

fn h_randomness(label: PyBytesRef, vm: &VirtualMachine) -> PyResult<PyBytesRef> {
    charge(cycles::RANDOMNESS, vm)?;
    let beacon = state(vm, |s| Ok(s.ctx.block.beacon.clone()))?;
    let hk = hkdf::Hkdf::<sha2::Sha256>::new(None, &beacon);
    let mut out = [0u8; 32];
    hk.expand(label.as_bytes(), &mut out)
        .map_err(|_| vm.new_value_error("randomness label too long"))?;
    Ok(vm.ctx.new_bytes(out.to_vec()))
}

fn next_id(s: &mut CallState, instruction: &cowboy_types::Instruction) -> [u8; 32] {
    // id = keccak256(sender ‖ nonce ‖ msg_hash) (whitepaper §3), msg_hash the keccak256 of the
    // canonical instruction the message or timer corresponds to.
    let nonce = s.ctx.nonce + s.effects.nonces_used;
    s.effects.nonces_used += 1;
    cowboy_types::message_id(&cowboy_types::Address(s.ctx.actor), nonce, instruction).0
}

/// Refuses one more message, timer or job once the transaction's fanout is used up.
fn check_fanout(s: &CallState, vm: &VirtualMachine) -> PyResult<()> {
    let enqueued = s.effects.messages.len() + s.effects.timers_set.len() + s.effects.jobs.len();
    if enqueued >= s.ctx.limits.fanout_left as usize {
        return Err(vm.new_runtime_error(format!(
            "fanout limit reached: a transaction may enqueue at most {} messages and timers, nested sends included",
            limits::FANOUT
        )));
    }
    Ok(())
}

fn check_name(name: &str, what: &str, vm: &VirtualMachine) -> PyResult<()> {
    if cowboy_types::is_handler_name(name) {
        Ok(())
    } else {
        Err(vm.new_value_error(format!(
            "{what} {name:?} is not a public handler name (letters, digits and '_', not starting with '_' or a digit, at most {} bytes)",
            cowboy_types::actor::MAX_HANDLER_NAME
        )))
    }
}

fn h_send_message(
    to: PyUtf8StrRef,
    method: PyUtf8StrRef,
    args: PyBytesRef,
    value: u64,
    vm: &VirtualMachine,
) -> PyResult<String> {
    charge(cycles::SEND_MESSAGE, vm)?;
    let to = parse_address(to.as_str(), vm)?;
    check_name(method.as_str(), "method", vm)?;
    // Validate now so a bad payload fails in the sender, not the receiver.
    crate::value::Value::decode(args.as_bytes()).map_err(|e| pyconv::value_error_to_py(e, vm))?;
    charge_cells(
        (method.as_str().len() + args.as_bytes().len()) as u64 * cells::MESSAGE_PER_BYTE,
        vm,
    )?;
    state(vm, |s| {
        if s.ctx.depth >= s.ctx.limits.max_depth {
            return Err(vm.new_runtime_error(format!(
                "message depth limit reached: this handler runs at depth {} and sends may nest at most {} deep",
                s.ctx.depth, s.ctx.limits.max_depth
            )));
        }
        check_fanout(s, vm)?;
        let size = crate::host::mailbox_bytes(method.as_str(), args.as_bytes());
        let queued_here: u64 = s
            .effects
            .messages
            .iter()
            .filter(|m| m.to == to)
            .map(|m| crate::host::mailbox_bytes(&m.method, &m.args))
            .sum();
        let waiting = s.host().mailbox_size(&to).map_err(|e| host_err(e, vm))?;
        let capacity = s.ctx.limits.mailbox_capacity;
        if waiting + queued_here + size > capacity {
            return Err(vm.new_runtime_error(format!(
                "mailbox of {} is full: it holds {} bytes, this message needs {size} more, capacity is {capacity}",
                hex_address(&to),
                waiting + queued_here
            )));
        }
        let instruction =
            cowboy_types::Instruction::Actor(cowboy_types::ActorInstruction::Message {
                to: cowboy_types::Address(to),
                method: method.as_str().to_owned(),
                args: args.as_bytes().to_vec(),
                value,
            });
        let id = next_id(s, &instruction);
        s.effects.messages.push(OutgoingMessage {
            id,
            to,
            method: method.as_str().to_owned(),
            args: args.as_bytes().to_vec(),
            value,
        });
        Ok(format!("0x{}", hex::encode(id)))
    })
}

/// `submit_job(spec)`: `spec` is the canonical encoding of the job spec in its JSON form (a
/// dict; amounts as decimal strings, bytes as `0x`-hex). The spec is checked now (every
/// CIP-2 §2 rule, and the entitlement its job type needs), so a bad one fails in the actor
/// with the rule it broke; the Job Dispatcher takes the job, escrowing `max_price + tip + 2 ×
/// callback.max_fee` from the actor, when the call succeeds, and reverts the call if it
/// cannot (no qualifying runners, too little balance). Returns the job id as hex.
fn h_submit_job(spec: PyBytesRef, vm: &VirtualMachine) -> PyResult<String> {
    charge(cycles::SUBMIT_JOB, vm)?;
    charge_cells(spec.as_bytes().len() as u64 * cells::JOB_SPEC_PER_BYTE, vm)?;
    let value = crate::value::Value::decode(spec.as_bytes())
        .map_err(|e| pyconv::value_error_to_py(e, vm))?;
    let spec: cowboy_types::job::JobSpec = serde_json::from_value(value.to_json())
        .map_err(|e| vm.new_value_error(format!("job spec: {e}")))?;
    spec.validate()
        .map_err(|e| vm.new_value_error(format!("job spec: {e}")))?;
    state(vm, |s| {
        s.ctx.entitlements.allows(spec.job_type()).map_err(|e| {
            vm.new_os_subtype_error(
                vm.ctx.exceptions.permission_error.to_owned(),
                None,
                e.to_string(),
            )
            .upcast()
        })?;
        check_fanout(s, vm)?;
        let instruction =
            cowboy_types::Instruction::System(cowboy_types::SystemInstruction::JobSubmit {
                spec: Box::new(spec.clone()),
            });
        let id = next_id(s, &instruction);
        s.effects.jobs.push(JobRequest { id, spec });
        Ok(format!("0x{}", hex::encode(id)))
    })
}

/// `job_status(job_id)`: the Job Dispatcher's view of a job, as a dict (`status`, `result`,
/// `failure`, `committee`, `retries`, `submitter`, `callback`), or `None` for an unknown id.
/// A job submitted in this call is not there yet.
fn h_job_status(id: PyUtf8StrRef, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    use crate::value::Value;
    use cowboy_types::runner::actors::JOB_DISPATCHER;
    charge(cycles::JOB_STATUS, vm)?;
    let id = parse_hash(id.as_str(), vm)?;
    let key = cowboy_types::job::storage_key(&cowboy_types::Hash(id));
    let raw = state(vm, |s| {
        s.host()
            .storage_get(&JOB_DISPATCHER.0, &key)
            .map_err(|e| host_err(e, vm))
    })?;
    let Some(raw) = raw else {
        return Ok(vm.ctx.none());
    };
    charge_cells((key.len() + raw.len()).div_ceil(100) as u64, vm)?;
    // Decoding the record costs a cycle per byte, like `decode`.
    charge(raw.len() as u64, vm)?;
    let job: cowboy_types::job::JobRecord = cowboy_types::codec::decode_strict(&raw)
        .map_err(|e| vm.new_runtime_error(format!("job record {}: {e}", hex::encode(id))))?;
    let text = |s: &str| Value::Str(s.to_owned());
    let address = |a: &cowboy_types::Address| Value::Str(hex_address(&a.0));
    let committee = job
        .draws
        .last()
        .map(|d| d.committee.iter().map(address).collect())
        .unwrap_or_default();
    let entries = vec![
        (text("status"), text(job.status.name())),
        (
            text("result"),
            job.result
                .as_ref()
                .map_or(Value::None, |r| Value::Bytes(r.to_vec())),
        ),
        (text("failure"), text(&job.failure)),
        (text("committee"), Value::List(committee)),
        (
            text("retries"),
            Value::Int(job.draws.len().saturating_sub(1).into()),
        ),
        (text("submitter"), address(&job.submitter)),
        (
            text("callback"),
            Value::List(vec![
                address(&job.spec.callback.actor),
                text(&job.spec.callback.handler),
            ]),
        ),
    ];
    let dict = Value::dict(entries).map_err(|e| pyconv::value_error_to_py(e, vm))?;
    Ok(pyconv::to_object(&dict, vm))
}

/// `set_timer(height, every, handler, args, cycles_per_fire, cells_per_fire, options)` where
/// `options` is `[expires_at, max_fee_per_cycle, max_priority_fee_per_cycle]`, each `None` or
/// an int (the bid needs both fees or neither).
#[allow(clippy::too_many_arguments)]
fn h_set_timer(
    height: u64,
    every: u64,
    handler: PyUtf8StrRef,
    args: PyBytesRef,
    cycles_per_fire: u64,
    cells_per_fire: u64,
    options: PyListRef,
    vm: &VirtualMachine,
) -> PyResult<String> {
    charge(cycles::TIMER, vm)?;
    let options: Vec<PyObjectRef> = options.borrow_vec().to_vec();
    let opt = |i: usize| -> PyResult<Option<u64>> {
        match options.get(i) {
            None => Ok(None),
            Some(o) if vm.is_none(o) => Ok(None),
            Some(o) => o.clone().try_into_value::<u64>(vm).map(Some),
        }
    };
    let expires_at = opt(0)?;
    let bid = match (opt(1)?, opt(2)?) {
        (Some(f), Some(p)) => Some((f, p)),
        (None, None) => None,
        _ => {
            return Err(vm.new_value_error(
                "a timer bid needs both max_fee_per_cycle and max_priority_fee_per_cycle",
            ));
        }
    };
    state(vm, |s| {
        let l = &s.ctx.limits;
        let timer = cowboy_types::timer::NewTimer {
            height,
            handler: handler.as_str(),
            cycles_per_fire,
            cells_per_fire,
            expires_at,
        };
        let bounds = cowboy_types::timer::FireBounds {
            min_cycles: l.min_cycles_per_fire,
            max_cycles: l.max_cycles_per_fire,
            min_cells: l.min_cells_per_fire,
            max_cells: l.max_cells_per_fire,
        };
        cowboy_types::timer::validate(&timer, s.ctx.block.height, &bounds)
            .map_err(|e| vm.new_value_error(e.to_string()))?;
        // A timer fires on this actor: a name that is not one of its handlers could only
        // fail at every firing, paid each time. Refused here, where the mistake is made.
        if !s.shape.handlers.iter().any(|h| h == handler.as_str()) {
            return Err(vm.new_value_error(format!(
                "`{}` is not a handler of {} (handlers: {}): a timer fires one of the actor's own public methods",
                handler.as_str(),
                s.shape.class_name,
                s.shape.handlers.join(", ")
            )));
        }
        crate::value::Value::decode(args.as_bytes())
            .map_err(|e| pyconv::value_error_to_py(e, vm))?;
        check_fanout(s, vm)?;
        let actor = s.ctx.actor;
        let pending = s.host().timer_count(&actor).map_err(|e| host_err(e, vm))?;
        let live =
            pending + s.effects.timers_set.len() - s.effects.timers_cancelled.len().min(pending);
        cowboy_types::timer::check_count(live as u64, u64::from(s.ctx.limits.max_timers))
            .map_err(|e| vm.new_runtime_error(e.to_string()))?;
        let spec = cowboy_types::TimerSpec {
            actor: cowboy_types::Address(actor),
            handler: handler.as_str().to_owned(),
            args: args.as_bytes().to_vec(),
            cycles_per_fire,
            cells_per_fire,
            expires_at,
            bid: bid.map(|(f, p)| cowboy_types::TimerBid {
                max_fee_per_cycle: f,
                max_priority_fee_per_cycle: p,
            }),
        };
        let instruction = cowboy_types::Instruction::System(if every == 0 {
            cowboy_types::SystemInstruction::SetTimer {
                timer: spec,
                height,
            }
        } else {
            cowboy_types::SystemInstruction::SetInterval {
                timer: spec,
                start_height: height,
                every_blocks: every,
            }
        });
        let id = next_id(s, &instruction);
        s.effects.timers_set.push(TimerRequest {
            id,
            height,
            every,
            handler: handler.as_str().to_owned(),
            args: args.as_bytes().to_vec(),
            cycles_per_fire,
            cells_per_fire,
            expires_at,
            bid,
        });
        Ok(format!("0x{}", hex::encode(id)))
    })
}

fn h_set_storage_quota(bytes: u64, vm: &VirtualMachine) -> PyResult<()> {
    charge(cycles::STORAGE_WRITE, vm)?;
    state(vm, |s| {
        s.effects.quota_request = Some(bytes);
        Ok(())
    })
}

fn h_cancel_timer(id: PyUtf8StrRef, vm: &VirtualMachine) -> PyResult<bool> {
    charge(cycles::TIMER, vm)?;
    let id = parse_hash(id.as_str(), vm)?;
    state(vm, |s| {
        if let Some(pos) = s.effects.timers_set.iter().position(|t| t.id == id) {
            s.effects.timers_set.remove(pos);
            return Ok(true);
        }
        if s.effects.timers_cancelled.contains(&id) {
            return Ok(false);
        }
        let actor = s.ctx.actor;
        match s.host().timer_owner(&id).map_err(|e| host_err(e, vm))? {
            Some(owner) if owner == actor => {
                s.effects.timers_cancelled.push(id);
                Ok(true)
            }
            _ => Ok(false),
        }
    })
}

fn h_emit_event(topics: PyListRef, data: PyBytesRef, vm: &VirtualMachine) -> PyResult<()> {
    let topics: Vec<PyObjectRef> = topics.borrow_vec().to_vec();
    if topics.len() > limits::EVENT_TOPICS {
        return Err(vm.new_value_error(format!(
            "an event has at most {} topics",
            limits::EVENT_TOPICS
        )));
    }
    let mut parsed = Vec::with_capacity(topics.len());
    for t in &topics {
        let b = t
            .downcast_ref::<rustpython_vm::builtins::PyBytes>()
            .filter(|b| b.as_bytes().len() == 32)
            .ok_or_else(|| vm.new_type_error("event topics must be 32-byte bytes values"))?;
        let mut out = [0u8; 32];
        out.copy_from_slice(b.as_bytes());
        parsed.push(out);
    }
    let bytes = parsed.len() * 32 + data.as_bytes().len();
    charge(
        cycles::EMIT_EVENT + cycles::EMIT_EVENT_PER_BYTE * bytes as u64,
        vm,
    )?;
    charge_cells(cost::event_cells(bytes), vm)?;
    state(vm, |s| {
        s.effects.events.push(EmittedEvent {
            topics: parsed,
            data: data.as_bytes().to_vec(),
        });
        Ok(())
    })
}

fn h_keccak256(data: PyBytesRef, vm: &VirtualMachine) -> PyResult<PyBytesRef> {
    charge(cost::keccak_cycles(data.as_bytes().len()), vm)?;
    Ok(vm
        .ctx
        .new_bytes(Keccak256::digest(data.as_bytes()).to_vec()))
}

fn h_sha256(data: PyBytesRef, vm: &VirtualMachine) -> PyResult<PyBytesRef> {
    charge(cost::sha256_cycles(data.as_bytes().len()), vm)?;
    Ok(vm
        .ctx
        .new_bytes(sha2::Sha256::digest(data.as_bytes()).to_vec()))
}

fn h_blake3(data: PyBytesRef, vm: &VirtualMachine) -> PyResult<PyBytesRef> {
    charge(cost::blake3_cycles(data.as_bytes().len()), vm)?;
    Ok(vm
        .ctx
        .new_bytes(blake3::hash(data.as_bytes()).as_bytes().to_vec()))
}

fn h_digest(name: PyUtf8StrRef, data: PyBytesRef, vm: &VirtualMachine) -> PyResult<PyBytesRef> {
    let bytes = data.as_bytes();
    // Every algorithm is priced like SHA-256: base plus a per-64-byte-block rate.
    charge(cost::sha256_cycles(bytes.len()), vm)?;
    let out: Vec<u8> = match name.as_str() {
        "md5" => md5::Md5::digest(bytes).to_vec(),
        "sha1" => sha1::Sha1::digest(bytes).to_vec(),
        "sha224" => sha2::Sha224::digest(bytes).to_vec(),
        "sha256" => sha2::Sha256::digest(bytes).to_vec(),
        "sha384" => sha2::Sha384::digest(bytes).to_vec(),
        "sha512" => sha2::Sha512::digest(bytes).to_vec(),
        "sha3_224" => sha3::Sha3_224::digest(bytes).to_vec(),
        "sha3_256" => sha3::Sha3_256::digest(bytes).to_vec(),
        "sha3_384" => sha3::Sha3_384::digest(bytes).to_vec(),
        "sha3_512" => sha3::Sha3_512::digest(bytes).to_vec(),
        "blake2b" => blake2::Blake2b512::digest(bytes).to_vec(),
        "blake2s" => blake2::Blake2s256::digest(bytes).to_vec(),
        other => return Err(vm.new_value_error(format!("unsupported hash type {other}"))),
    };
    Ok(vm.ctx.new_bytes(out))
}

/// Longest key BLAKE2b (`b`) and BLAKE2s accept, which is also their longest digest; salt and
/// person are a quarter of their block.
fn blake2_limits(name: &str) -> Option<(usize, usize)> {
    match name {
        "blake2b" => Some((64, 16)),
        "blake2s" => Some((32, 8)),
        _ => None,
    }
}

/// BLAKE2 with its parameters (`hashlib.blake2b(data, digest_size=…, key=…, salt=…,
/// person=…)`): the keyed, salted, personalised and truncated forms of RFC 7693. The library
/// has checked the sizes (with CPython's messages); they are checked again here because
/// `pvm_host` is reachable from actor code.
fn h_blake2(
    name: PyUtf8StrRef,
    data: PyBytesRef,
    digest_size: usize,
    key: PyBytesRef,
    salt: PyBytesRef,
    person: PyBytesRef,
    vm: &VirtualMachine,
) -> PyResult<PyBytesRef> {
    use blake2::digest::{
        block_buffer::{BlockBuffer, Lazy},
        core_api::{BlockSizeUser, UpdateCore, VariableOutputCore},
    };
    let (key, salt, person) = (key.as_bytes(), salt.as_bytes(), person.as_bytes());
    let Some((max_key, max_salt)) = blake2_limits(name.as_str()) else {
        return Err(vm.new_value_error(format!("unsupported hash type {}", name.as_str())));
    };
    if !(1..=max_key).contains(&digest_size)
        || key.len() > max_key
        || salt.len() > max_salt
        || person.len() > max_salt
    {
        return Err(vm.new_value_error(format!("invalid {} parameters", name.as_str())));
    }
    // A key is hashed as one more block in front of the data.
    let key_block = if key.is_empty() { 0 } else { 2 * max_key };
    charge(cost::sha256_cycles(key_block + data.as_bytes().len()), vm)?;
    // One body for both widths (the cores' block sizes are different types).
    macro_rules! blake2 {
        ($core:ty, $block:literal) => {{
            let mut core = <$core>::new_with_params(salt, person, key.len(), digest_size);
            let mut buffer = BlockBuffer::<<$core as BlockSizeUser>::BlockSize, Lazy>::default();
            if !key.is_empty() {
                let mut padded = [0u8; $block];
                padded[..key.len()].copy_from_slice(key);
                buffer.digest_blocks(&padded, |blocks| core.update_blocks(blocks));
            }
            buffer.digest_blocks(data.as_bytes(), |blocks| core.update_blocks(blocks));
            let mut out = Default::default();
            core.finalize_variable_core(&mut buffer, &mut out);
            out.to_vec()
        }};
    }
    let mut out = if max_key == 64 {
        blake2!(blake2::Blake2bVarCore, 128)
    } else {
        blake2!(blake2::Blake2sVarCore, 64)
    };
    out.truncate(digest_size);
    Ok(vm.ctx.new_bytes(out))
}

/// SHAKE128/SHAKE256 (`hashlib.shake_128(data).digest(length)`): `length` bytes of output,
/// priced as hashing the data and then the output.
fn h_shake(
    name: PyUtf8StrRef,
    data: PyBytesRef,
    length: usize,
    vm: &VirtualMachine,
) -> PyResult<PyBytesRef> {
    use sha3::digest::{ExtendableOutput, Update};
    fn squeeze<H: Default + Update + ExtendableOutput>(data: &[u8], out: &mut [u8]) {
        let mut h = H::default();
        h.update(data);
        h.finalize_xof_into(out);
    }
    let squeeze = match name.as_str() {
        "shake_128" => squeeze::<sha3::Shake128>,
        "shake_256" => squeeze::<sha3::Shake256>,
        other => return Err(vm.new_value_error(format!("unsupported hash type {other}"))),
    };
    let bytes = data.as_bytes();
    charge(
        cost::sha256_cycles(bytes.len()).saturating_add(cost::sha256_cycles(length)),
        vm,
    )?;
    charge_cells(length as u64, vm)?;
    let mut out = vec![0u8; length];
    squeeze(bytes, &mut out);
    Ok(vm.ctx.new_bytes(out))
}

/// PBKDF2-HMAC (`hashlib.pbkdf2_hmac`), charged before it runs for every HMAC it computes
/// ([`cost::pbkdf2_cycles`]): the iteration count is the caller's, so the price must bound the
/// work.
fn h_pbkdf2_hmac(
    name: PyUtf8StrRef,
    password: PyBytesRef,
    salt: PyBytesRef,
    iterations: u32,
    dklen: usize,
    vm: &VirtualMachine,
) -> PyResult<PyBytesRef> {
    use hmac::{
        Hmac, SimpleHmac,
        digest::{FixedOutput, KeyInit, Update},
    };
    /// One derivation with the pseudo-random function `P` (an HMAC), charged by its output
    /// size before it runs.
    fn derive<P: KeyInit + Update + FixedOutput + Clone + Sync>(
        password: &[u8],
        salt: &[u8],
        iterations: u32,
        dklen: usize,
        vm: &VirtualMachine,
    ) -> PyResult<Vec<u8>> {
        let blocks = dklen.div_ceil(P::output_size());
        charge(
            cost::pbkdf2_cycles(password.len(), salt.len(), iterations, blocks),
            vm,
        )?;
        charge_cells(dklen as u64, vm)?;
        let mut out = vec![0u8; dklen];
        pbkdf2::pbkdf2::<P>(password, salt, iterations, &mut out)
            .map_err(|_| vm.new_value_error("invalid key length"))?;
        Ok(out)
    }
    let derive = match name.as_str() {
        "md5" => derive::<Hmac<md5::Md5>>,
        "sha1" => derive::<Hmac<sha1::Sha1>>,
        "sha224" => derive::<Hmac<sha2::Sha224>>,
        "sha256" => derive::<Hmac<sha2::Sha256>>,
        "sha384" => derive::<Hmac<sha2::Sha384>>,
        "sha512" => derive::<Hmac<sha2::Sha512>>,
        "sha3_224" => derive::<Hmac<sha3::Sha3_224>>,
        "sha3_256" => derive::<Hmac<sha3::Sha3_256>>,
        "sha3_384" => derive::<Hmac<sha3::Sha3_384>>,
        "sha3_512" => derive::<Hmac<sha3::Sha3_512>>,
        // BLAKE2 buffers its last block, which `Hmac` cannot: `SimpleHmac`.
        "blake2b" => derive::<SimpleHmac<blake2::Blake2b512>>,
        "blake2s" => derive::<SimpleHmac<blake2::Blake2s256>>,
        other => return Err(vm.new_value_error(format!("unsupported hash type {other}"))),
    };
    let out = derive(password.as_bytes(), salt.as_bytes(), iterations, dklen, vm)?;
    Ok(vm.ctx.new_bytes(out))
}

fn h_verify_signature(
    scheme: PyUtf8StrRef,
    message: PyBytesRef,
    signature: PyBytesRef,
    key: PyBytesRef,
    vm: &VirtualMachine,
) -> PyResult<bool> {
    let msg = message.as_bytes();
    let sig = signature.as_bytes();
    let key = key.as_bytes();
    match scheme.as_str() {
        "secp256k1" => {
            charge(cycles::VERIFY_SECP256K1, vm)?;
            let (Ok(hash), Some(sig), true) = (
                <[u8; 32]>::try_from(msg),
                cowboy_types::Signature::from_slice(sig),
                key.len() == 20,
            ) else {
                return Ok(false);
            };
            Ok(cowboy_crypto::recover(&cowboy_types::Hash(hash), &sig)
                .map(|a| a.0 == key)
                .unwrap_or(false))
        }
        "ed25519" => {
            charge(cycles::VERIFY_ED25519, vm)?;
            let (Ok(key), Ok(sig)) = (<[u8; 32]>::try_from(key), <[u8; 64]>::try_from(sig)) else {
                return Ok(false);
            };
            let Ok(vk) = ed25519_dalek::VerifyingKey::from_bytes(&key) else {
                return Ok(false);
            };
            Ok(vk
                .verify_strict(msg, &ed25519_dalek::Signature::from_bytes(&sig))
                .is_ok())
        }
        "bls12381" => {
            charge(cycles::VERIFY_BLS, vm)?;
            use blst::min_pk::{PublicKey, Signature};
            const DST: &[u8] = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_";
            let (Ok(pk), Ok(sig)) = (
                PublicKey::key_validate(key),
                Signature::sig_validate(sig, true),
            ) else {
                return Ok(false);
            };
            Ok(sig.verify(true, msg, DST, &[], &pk, false) == blst::BLST_ERROR::BLST_SUCCESS)
        }
        other => Err(vm.new_value_error(format!(
            "unknown signature scheme {other:?}; use \"secp256k1\", \"ed25519\" or \"bls12381\""
        ))),
    }
}

fn h_encode(value: PyObjectRef, vm: &VirtualMachine) -> PyResult<PyBytesRef> {
    let bytes = pyconv::encode(&value, vm)?;
    charge(cycles::SERIALIZE_BASE + bytes.len() as u64, vm)?;
    Ok(vm.ctx.new_bytes(bytes))
}

fn h_decode(data: PyBytesRef, vm: &VirtualMachine) -> PyResult {
    charge(cycles::SERIALIZE_BASE + data.as_bytes().len() as u64, vm)?;
    pyconv::decode(data.as_bytes(), vm)
}

/// Reads a storage key of the executing actor (charged like `storage_get`).
pub fn storage_get_raw(key: &[u8], vm: &VirtualMachine) -> PyResult<Option<Vec<u8>>> {
    storage_read(key, vm)
}

/// Writes (or, with `None`, deletes) a storage key (charged like `storage_set`).
pub fn storage_put_raw(key: Vec<u8>, value: Option<Vec<u8>>, vm: &VirtualMachine) -> PyResult<()> {
    storage_write(&key, value.as_deref(), vm)
}

/// Appends `print` output to the call's logs (charged per character).
pub fn log(text: &str, vm: &VirtualMachine) -> PyResult<()> {
    charge(
        cycles::CALL + text.chars().count() as u64 * cycles::PER_CHAR,
        vm,
    )?;
    state(vm, |st| {
        if st.log_bytes < MAX_LOG_BYTES {
            st.log_bytes += text.len();
            st.effects.logs.push(text.to_owned());
        }
        Ok(())
    })
}

/// Most `print` output kept per call.
const MAX_LOG_BYTES: usize = 64 * 1024;

fn h_log(text: PyUtf8StrRef, vm: &VirtualMachine) -> PyResult<()> {
    log(text.as_str(), vm)
}

/// Builds the `pvm_host` module.
pub fn pvm_host_module(vm: &VirtualMachine) -> PyResult<PyRef<PyModule>> {
    let d = vm.ctx.new_dict();
    add(vm, &d, "charge", h_charge)?;
    add(vm, &d, "storage_get", h_storage_get)?;
    add(vm, &d, "storage_set", h_storage_set)?;
    add(vm, &d, "storage_delete", h_storage_delete)?;
    add(vm, &d, "caller", h_caller)?;
    add(vm, &d, "self_address", h_self_address)?;
    add(vm, &d, "value", h_value)?;
    add(vm, &d, "balance", h_balance)?;
    add(vm, &d, "block_height", h_block_height)?;
    add(vm, &d, "block_round", h_block_round)?;
    add(vm, &d, "block_timestamp", h_block_timestamp)?;
    add(vm, &d, "chain_id", h_chain_id)?;
    add(vm, &d, "randomness", h_randomness)?;
    add(vm, &d, "send_message", h_send_message)?;
    add(vm, &d, "set_timer", h_set_timer)?;
    add(vm, &d, "cancel_timer", h_cancel_timer)?;
    add(vm, &d, "submit_job", h_submit_job)?;
    add(vm, &d, "job_status", h_job_status)?;
    add(vm, &d, "set_storage_quota", h_set_storage_quota)?;
    add(vm, &d, "emit_event", h_emit_event)?;
    add(vm, &d, "keccak256", h_keccak256)?;
    add(vm, &d, "sha256", h_sha256)?;
    add(vm, &d, "blake3", h_blake3)?;
    add(vm, &d, "digest", h_digest)?;
    add(vm, &d, "blake2", h_blake2)?;
    add(vm, &d, "shake", h_shake)?;
    add(vm, &d, "pbkdf2_hmac", h_pbkdf2_hmac)?;
    add(vm, &d, "verify_signature", h_verify_signature)?;
    add(vm, &d, "encode", h_encode)?;
    add(vm, &d, "decode", h_decode)?;
    add(vm, &d, "log", h_log)?;
    d.set_item(
        "MEMORY_LIMIT_BYTES",
        vm.ctx.new_int(crate::cost::limits::MEMORY_BYTES).into(),
        vm,
    )?;
    Ok(module(vm, "pvm_host", d))
}

// ---------------------------------------------------------------------------------------------
// _cowboy_math: math on `real_functions`, identical on every platform.
// ---------------------------------------------------------------------------------------------

fn to_f64(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    charge(cycles::CALL, vm)?;
    if let Some(f) = x.downcast_ref::<rustpython_vm::builtins::PyFloat>() {
        return Ok(f.to_f64());
    }
    Ok(x.try_float(vm)?.to_f64())
}

fn domain(vm: &VirtualMachine) -> PyBaseExceptionRef {
    vm.new_value_error("math domain error")
}

fn checked(v: f64, vm: &VirtualMachine) -> PyResult<f64> {
    if v.is_nan() {
        Err(domain(vm))
    } else if v.is_infinite() {
        Err(vm.new_overflow_error("math range error"))
    } else {
        Ok(v)
    }
}

/// `math_1` of CPython's mathmodule.c: a NaN from a number is a domain error; an infinity from
/// a finite number is a range error (`OverflowError`) for the functions that can overflow and
/// a domain error (`ValueError`) for the others (`log1p(-1)`, `atanh(1)`).
macro_rules! unary {
    ($name:ident, $f:expr) => {
        unary!($name, $f, false);
    };
    ($name:ident, $f:expr, $can_overflow:expr) => {
        fn $name(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
            let x = to_f64(x, vm)?;
            if x.is_nan() {
                return Ok(x);
            }
            let r: f64 = $f(x);
            if r.is_nan() {
                return Err(domain(vm));
            }
            if r.is_infinite() && x.is_finite() {
                return Err(if $can_overflow {
                    vm.new_overflow_error("math range error")
                } else {
                    domain(vm)
                });
            }
            Ok(r)
        }
    };
}

unary!(m_sin, rf::sin);
unary!(m_cos, rf::cos);
unary!(m_tan, rf::tan);
unary!(m_asin, rf::asin);
unary!(m_acos, rf::acos);
unary!(m_atan, rf::atan);
unary!(m_sinh, rf::sinh, true);
unary!(m_cosh, rf::cosh, true);
unary!(m_tanh, rf::tanh);
unary!(m_asinh, rf::asinh);
unary!(m_acosh, rf::acosh);
unary!(m_atanh, rf::atanh);
unary!(m_exp, rf::exp, true);
unary!(m_exp2, rf::exp2, true);
unary!(m_expm1, rf::expm1, true);
unary!(m_log1p, rf::log1p);
unary!(m_sqrt, libm::sqrt);
unary!(m_cbrt, rf::cbrt);
unary!(m_fabs, libm::fabs);
unary!(m_erf, rf::erf);
unary!(m_erfc, rf::erfc);
unary!(m_gamma, rf::gamma, true);
unary!(m_lgamma, rf::lgamma, true);
/// `degrees` and `radians` only multiply: no error, even when the product overflows.
fn m_degrees(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    Ok(to_f64(x, vm)? * (180.0 / std::f64::consts::PI))
}

fn m_radians(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    Ok(to_f64(x, vm)? * (std::f64::consts::PI / 180.0))
}

/// `math.log(x[, base])`: CPython's `math_log`, `log(x) / log(base)` with each side through
/// `loghelper`.
fn m_log(x: PyObjectRef, base: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult<f64> {
    let lx = log_helper(&x, rf::log, vm)?;
    match base {
        OptionalArg::Present(b) => {
            let lb = log_helper(&b, rf::log, vm)?;
            if lb == 0.0 {
                return Err(vm.new_zero_division_error("float division by zero"));
            }
            Ok(lx / lb)
        }
        OptionalArg::Missing => Ok(lx),
    }
}

fn m_log2(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    log_helper(&x, rf::log2, vm)
}

fn m_log10(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    log_helper(&x, rf::log10, vm)
}

/// CPython's `loghelper`: an int (or bool) is converted with correct rounding; one too large
/// for a float is taken as `m·2^e` and its log is `f(m) + f(2)·e`. Anything else is a float,
/// whose log is a domain error at zero and below.
fn log_helper(x: &PyObjectRef, f: fn(f64) -> f64, vm: &VirtualMachine) -> PyResult<f64> {
    if let Some(i) = x.downcast_ref::<rustpython_vm::builtins::PyInt>() {
        let n = i.as_bigint();
        charge(cycles::CALL + n.bits() / cycles::BIGINT_BITS_PER_CYCLE, vm)?;
        if n.sign() != malachite_bigint::Sign::Plus {
            return Err(domain(vm));
        }
        let (m, e) = int_frexp(n);
        return Ok(if e <= f64::MAX_EXP as u64 {
            f(libm::ldexp(m, e as i32))
        } else {
            f(m) + f(2.0) * e as f64
        });
    }
    let v = to_f64(x.clone(), vm)?;
    if v.is_nan() || v == f64::INFINITY {
        return Ok(v);
    }
    if v <= 0.0 {
        return Err(domain(vm));
    }
    Ok(f(v))
}

/// A positive int as `m·2^e` with `m` in `[0.5, 1)` rounded half-to-even to 53 bits, as
/// CPython's `_PyLong_Frexp` (and, when `e <= 1024`, exactly the float `PyLong_AsDouble` gives).
fn int_frexp(n: &malachite_bigint::BigInt) -> (f64, u64) {
    use num_traits::ToPrimitive as _;
    const KEEP: u64 = f64::MANTISSA_DIGITS as u64;
    let bits = n.bits();
    if bits <= KEEP {
        let v = n.to_u64().unwrap_or(0) as f64;
        return (v / (1u64 << bits) as f64, bits);
    }
    // The top bits with two more than the mantissa, and whether anything below them is set.
    let (top, sticky) = if bits >= KEEP + 2 {
        let shift = bits - KEEP - 2;
        let top = (n >> shift).to_u64().unwrap_or(0);
        (top, n.trailing_zeros().is_some_and(|zeros| zeros < shift))
    } else {
        (n.to_u64().unwrap_or(0) << (KEEP + 2 - bits), false)
    };
    let (mut mantissa, guard) = (top >> 2, top & 3);
    if guard > 2 || (guard == 2 && (sticky || mantissa & 1 == 1)) {
        mantissa += 1;
    }
    let mut e = bits;
    if mantissa == 1 << KEEP {
        mantissa >>= 1;
        e += 1;
    }
    (mantissa as f64 / (1u64 << KEEP) as f64, e)
}

/// `math.pow`, as CPython's `math_pow`: IEEE special values first, then libm; `0.0 ** -y`
/// is a domain error, any other infinity from finite operands a range error.
fn m_pow(x: PyObjectRef, y: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    let (x, y) = (to_f64(x, vm)?, to_f64(y, vm)?);
    if !x.is_finite() || !y.is_finite() {
        return Ok(if x.is_nan() {
            if y == 0.0 { 1.0 } else { x }
        } else if y.is_nan() {
            if x == 1.0 { 1.0 } else { y }
        } else if x.is_infinite() {
            let odd_y = y.is_finite() && libm::fmod(y.abs(), 2.0) == 1.0;
            if y > 0.0 {
                if odd_y { x } else { x.abs() }
            } else if y == 0.0 {
                1.0
            } else if odd_y {
                libm::copysign(0.0, x)
            } else {
                0.0
            }
        } else if x.abs() == 1.0 {
            1.0
        } else if y > 0.0 && x.abs() > 1.0 {
            y
        } else if y < 0.0 && x.abs() < 1.0 {
            -y
        } else {
            0.0
        });
    }
    let r = rf::pow(x, y);
    if r.is_nan() || (r.is_infinite() && x == 0.0) {
        Err(domain(vm))
    } else if r.is_infinite() {
        Err(vm.new_overflow_error("math range error"))
    } else {
        Ok(r)
    }
}

fn m_atan2(y: PyObjectRef, x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    Ok(rf::atan2(to_f64(y, vm)?, to_f64(x, vm)?))
}

fn m_fmod(x: PyObjectRef, y: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    let (x, y) = (to_f64(x, vm)?, to_f64(y, vm)?);
    if y == 0.0 || x.is_infinite() {
        return Err(domain(vm));
    }
    Ok(libm::fmod(x, y))
}

fn m_copysign(x: PyObjectRef, y: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    Ok(libm::copysign(to_f64(x, vm)?, to_f64(y, vm)?))
}

fn m_ldexp(x: PyObjectRef, i: i32, vm: &VirtualMachine) -> PyResult<f64> {
    checked(libm::ldexp(to_f64(x, vm)?, i), vm)
}

fn m_frexp(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<(f64, i32)> {
    Ok(libm::frexp(to_f64(x, vm)?))
}

fn m_modf(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<(f64, f64)> {
    let (frac, int) = libm::modf(to_f64(x, vm)?);
    Ok((frac, int))
}

fn m_isnan(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<bool> {
    Ok(to_f64(x, vm)?.is_nan())
}

fn m_isinf(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<bool> {
    Ok(to_f64(x, vm)?.is_infinite())
}

fn m_isfinite(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<bool> {
    Ok(to_f64(x, vm)?.is_finite())
}

/// Builds the deterministic `math` module: libm functions in Rust, integer helpers (floor,
/// ceil, gcd, comb, factorial, …) from the Python side in `_cowboy_math_py`.
pub fn math_module(vm: &VirtualMachine) -> PyResult<PyRef<PyModule>> {
    let d = vm.ctx.new_dict();
    add(vm, &d, "sin", m_sin)?;
    add(vm, &d, "cos", m_cos)?;
    add(vm, &d, "tan", m_tan)?;
    add(vm, &d, "asin", m_asin)?;
    add(vm, &d, "acos", m_acos)?;
    add(vm, &d, "atan", m_atan)?;
    add(vm, &d, "sinh", m_sinh)?;
    add(vm, &d, "cosh", m_cosh)?;
    add(vm, &d, "tanh", m_tanh)?;
    add(vm, &d, "asinh", m_asinh)?;
    add(vm, &d, "acosh", m_acosh)?;
    add(vm, &d, "atanh", m_atanh)?;
    add(vm, &d, "exp", m_exp)?;
    add(vm, &d, "exp2", m_exp2)?;
    add(vm, &d, "expm1", m_expm1)?;
    add(vm, &d, "log", m_log)?;
    add(vm, &d, "log1p", m_log1p)?;
    add(vm, &d, "log2", m_log2)?;
    add(vm, &d, "log10", m_log10)?;
    add(vm, &d, "sqrt", m_sqrt)?;
    add(vm, &d, "cbrt", m_cbrt)?;
    add(vm, &d, "fabs", m_fabs)?;
    add(vm, &d, "erf", m_erf)?;
    add(vm, &d, "erfc", m_erfc)?;
    add(vm, &d, "gamma", m_gamma)?;
    add(vm, &d, "lgamma", m_lgamma)?;
    add(vm, &d, "degrees", m_degrees)?;
    add(vm, &d, "radians", m_radians)?;
    add(vm, &d, "pow", m_pow)?;
    add(vm, &d, "atan2", m_atan2)?;
    add(vm, &d, "fmod", m_fmod)?;
    add(vm, &d, "copysign", m_copysign)?;
    add(vm, &d, "ldexp", m_ldexp)?;
    add(vm, &d, "frexp", m_frexp)?;
    add(vm, &d, "modf", m_modf)?;
    add(vm, &d, "isnan", m_isnan)?;
    add(vm, &d, "isinf", m_isinf)?;
    add(vm, &d, "isfinite", m_isfinite)?;
    d.set_item("pi", vm.ctx.new_float(std::f64::consts::PI).into(), vm)?;
    d.set_item("e", vm.ctx.new_float(std::f64::consts::E).into(), vm)?;
    d.set_item("tau", vm.ctx.new_float(std::f64::consts::TAU).into(), vm)?;
    d.set_item("inf", vm.ctx.new_float(f64::INFINITY).into(), vm)?;
    d.set_item("nan", vm.ctx.new_float(f64::NAN).into(), vm)?;
    Ok(module(vm, "_cowboy_math", d))
}

/// `float ** float` on the correctly rounded `pow`, so float powers are identical on every
/// platform.
pub fn float_pow(x: f64, y: f64) -> f64 {
    rf::pow(x, y)
}

// ---------------------------------------------------------------------------------------------
// _cowboy_unicodedata
// ---------------------------------------------------------------------------------------------

/// Longest character name `unicodedata.lookup` searches (CPython's `NAME_MAXLEN`).
const NAME_MAXLEN: usize = 256;

/// `unicodedata.lookup`: the character a Unicode name (or alias) names, case-insensitively.
fn u_lookup(name: PyUtf8StrRef, vm: &VirtualMachine) -> PyResult<String> {
    let name = name.as_str();
    charge(cycles::CALL + name.len() as u64 * cycles::PER_CHAR, vm)?;
    if name.len() > NAME_MAXLEN {
        return Err(vm.new_key_error(vm.ctx.new_str("name too long").into()));
    }
    unicode_names2::character(name)
        .map(String::from)
        .ok_or_else(|| {
            vm.new_key_error(
                vm.ctx
                    .new_str(format!("undefined character name '{name}'"))
                    .into(),
            )
        })
}

/// Builds the part of `unicodedata` the library needs (the regex parser's `\N{name}`): names
/// are fixed by Unicode, so looking one up is pure.
pub fn unicodedata_module(vm: &VirtualMachine) -> PyResult<PyRef<PyModule>> {
    let d = vm.ctx.new_dict();
    add(vm, &d, "lookup", u_lookup)?;
    Ok(module(vm, "unicodedata", d))
}
