//! Running messages: one *session* per transaction, timer firing or deferred delivery.
//!
//! A session owns a budget (cycles and cells, paid for by one payer at one bid) and a FIFO
//! queue of messages. Its first message comes from the transaction (or timer, or mailbox);
//! every message a successful handler sends joins the back of the queue one level deeper, so a
//! transaction's whole tree of sends runs breadth-first within the transaction. Each handler
//! runs inside its own overlay checkpoint: if it fails, its writes, sends, timers and events
//! are reverted and the value its message carried returns to the sender, while the cycles it
//! burned are still paid (single-block atomicity, whitepaper "Asynchronous Execution").
//!
//! A message whose recipient has already used `per_actor_per_block_cycles` in this block waits
//! in the recipient's mailbox; the rest of the session's budget is then held (escrowed) for it
//! and it is delivered in a later block (see [`crate::block`]).

use crate::{
    ExecError,
    fees::{self, Basefees, Bid},
    params::Parameters,
    world::World,
};
use cowboy_pvm::{
    CallContext, Engine, Host,
    host::{CallLimits, HostError, mailbox_bytes},
};
use cowboy_types::{
    Account, ActorRecord, Address, DeferredOrigin, Delivery, Event, Hash, MailboxMessage, Outcome,
    StorageUsage, TimerRecord, receipt::failure,
};
use std::{
    collections::{HashMap, VecDeque},
    rc::Rc,
};

/// What every session in a block shares.
pub(crate) struct Env {
    pub height: u64,
    /// The parent beacon: the verified seed of the round before the block's proposal round.
    pub beacon: cowboy_types::Beacon,
    pub block: cowboy_pvm::BlockInfo,
    pub params: Parameters,
    /// The global basefees of this block.
    pub basefees: Basefees,
}

impl Env {
    /// The bounds of a new timer's per-firing budgets: the firing's intrinsic cost up to the
    /// chain's `max_cycles_per_fire` and `max_cells_per_fire`.
    pub fn fire_bounds(&self) -> cowboy_types::timer::FireBounds {
        let t = &self.params.timer;
        cowboy_types::timer::FireBounds {
            min_cycles: crate::intrinsic::TIMER_FIRE_CYCLES,
            max_cycles: t.max_cycles_per_fire,
            min_cells: crate::intrinsic::TIMER_FIRE_CELLS,
            max_cells: t.max_cells_per_fire,
        }
    }

    /// Basefees of a lane: `global × multiplier` (§6.3).
    pub fn lane(&self, multiplier_bps: u64) -> Basefees {
        Basefees {
            cycle: fees::lane_basefee(self.basefees.cycle, multiplier_bps),
            cell: fees::lane_basefee(self.basefees.cell, multiplier_bps),
        }
    }
}

/// A message waiting in a session's queue.
#[derive(Clone, Debug)]
pub(crate) struct Pending {
    pub id: Hash,
    pub sender: Address,
    pub to: Address,
    pub method: String,
    pub args: Vec<u8>,
    pub value: u64,
    pub depth: u32,
}

impl Pending {
    fn size(&self) -> u64 {
        mailbox_bytes(&self.method, &self.args)
    }

    pub fn from_mailbox(m: MailboxMessage) -> Self {
        Self {
            id: m.id,
            sender: m.sender,
            to: m.to,
            method: m.method,
            args: m.args,
            value: m.value,
            depth: m.depth.min(u32::MAX as u64) as u32,
        }
    }
}

/// How one message ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Handled {
    /// The handler succeeded; its canonical return value.
    Delivered(Vec<u8>),
    Failed {
        kind: u8,
        message: String,
    },
    /// Waiting in the recipient's mailbox for a later block.
    Deferred,
}

impl Handled {
    fn outcome(&self) -> Outcome {
        match self {
            Self::Delivered(_) => Outcome::Delivered,
            Self::Failed { kind, message } => Outcome::Failed {
                kind: *kind,
                message: message.clone(),
            },
            Self::Deferred => Outcome::Deferred,
        }
    }

    pub fn failed(kind: u8, message: impl Into<String>) -> Self {
        Self::Failed {
            kind,
            message: truncate(message.into()),
        }
    }
}

fn truncate(mut s: String) -> String {
    let max = cowboy_types::receipt::MAX_FAILURE_MESSAGE;
    if s.len() > max {
        let mut cut = max;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}

/// What one run of an actor's code did (a deploy's `__init__` or a handler), for developers:
/// `cowboy run` and `cowboy test` print it. Not consensus data: executions record it only when
/// asked ([`crate::Chain::execute_traced`]), and nothing on chain depends on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallTrace {
    /// The message this call handled (`None` for a deploy's `__init__`).
    pub message: Option<Hash>,
    pub actor: Address,
    pub caller: Address,
    /// The handler, or `None` for a deploy's `__init__`.
    pub method: Option<String>,
    /// 0 for the message a transaction (or timer, or mailbox) delivers, +1 per nested send.
    pub depth: u32,
    pub value: u64,
    /// What the call's own code used (the receipt adds the intrinsic cost and nested calls).
    pub cycles_used: u64,
    pub cells_used: u64,
    /// `print` output.
    pub logs: Vec<String>,
    /// What the code emitted, sent and scheduled (nothing if the call failed: its effects
    /// were reverted).
    pub events: Vec<cowboy_pvm::host::EmittedEvent>,
    pub messages: Vec<cowboy_pvm::host::OutgoingMessage>,
    pub timers: Vec<cowboy_pvm::host::TimerRequest>,
    /// The canonical return value, or why the call failed.
    pub result: Result<Vec<u8>, CallFailure>,
}

impl CallTrace {
    /// The form a node records and serves ([`cowboy_types::trace`]).
    pub fn record(&self) -> cowboy_types::trace::TraceCall {
        use cowboy_types::{
            json::{Amount, HexBytes},
            trace::{TraceCall, TraceEvent, TraceFailure, TraceMessage},
        };
        TraceCall {
            message: self.message,
            actor: self.actor,
            caller: self.caller,
            method: self.method.clone(),
            depth: self.depth,
            value: Amount(self.value),
            cycles_used: self.cycles_used,
            cells_used: self.cells_used,
            logs: self.logs.clone(),
            events: self
                .events
                .iter()
                .map(|e| TraceEvent {
                    topics: e.topics.iter().map(|t| Hash(*t)).collect(),
                    data: HexBytes(e.data.clone()),
                })
                .collect(),
            sent: self
                .messages
                .iter()
                .map(|m| TraceMessage {
                    id: Hash(m.id),
                    to: Address(m.to),
                    method: m.method.clone(),
                    args: HexBytes(m.args.clone()),
                    value: Amount(m.value),
                })
                .collect(),
            returned: self.result.as_ref().ok().map(|r| HexBytes(r.clone())),
            failure: self
                .result
                .as_ref()
                .err()
                .map(|f| TraceFailure::new(f.kind, f.message.clone(), f.traceback.clone())),
        }
    }
}

/// What an execution records of each call it runs ([`CallTrace`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tracing {
    /// Nothing: all consensus needs.
    Off,
    /// Everything, whole print output and tracebacks: `cowboy run` and `cowboy test`.
    Full,
    /// What a node keeps beside its receipts: print output and tracebacks bounded per call
    /// and per block (`cowboy_types::trace`), since neither is paid for in cells.
    Kept,
}

/// Why a traced call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallFailure {
    /// The receipt code ([`cowboy_types::FailureKind`]).
    pub kind: u8,
    pub message: String,
    /// The Python traceback of an uncaught exception, in the PVM's `<actor>` file.
    pub traceback: Option<String>,
}

/// A budget and the messages it pays for.
pub(crate) struct Session {
    pub payer: Address,
    pub bid: Bid,
    pub prices: Basefees,
    pub cycles_left: u64,
    pub cells_left: u64,
    pub cycles_used: u64,
    pub cells_used: u64,
    pub fanout_left: u64,
    /// What deferred messages of this session will name as their origin.
    pub origin: Hash,
    /// Messages this session left in mailboxes.
    pub new_deferrals: u64,
    queue: VecDeque<Pending>,
    pending_bytes: HashMap<Address, u64>,
    pub events: Vec<Event>,
    pub deliveries: Vec<Delivery>,
    /// The calls this session ran, when the block is traced.
    pub traces: Vec<CallTrace>,
}

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        payer: Address,
        bid: Bid,
        prices: Basefees,
        cycles: u64,
        cells: u64,
        fanout: u64,
        origin: Hash,
    ) -> Self {
        Self {
            payer,
            bid,
            prices,
            cycles_left: cycles,
            cells_left: cells,
            cycles_used: 0,
            cells_used: 0,
            fanout_left: fanout,
            origin,
            new_deferrals: 0,
            queue: VecDeque::new(),
            pending_bytes: HashMap::new(),
            events: Vec::new(),
            deliveries: Vec::new(),
            traces: Vec::new(),
        }
    }

    /// Uses budget (capped at what is left: a meter never reports more than its limit).
    pub fn spend(&mut self, cycles: u64, cells: u64) {
        let c = cycles.min(self.cycles_left);
        let b = cells.min(self.cells_left);
        self.cycles_left -= c;
        self.cells_left -= b;
        self.cycles_used += c;
        self.cells_used += b;
    }

    /// Pays `cycles` and `cells` when both fit what is left; otherwise pays nothing and
    /// returns the refusal: `OutOfCycles` ("out of cycles …") or `OutOfCells` ("out of cells
    /// …"), followed by `what`.
    pub(crate) fn pay(
        &mut self,
        cycles: u64,
        cells: u64,
        what: impl FnOnce() -> String,
    ) -> Result<(), Handled> {
        if cycles > self.cycles_left {
            return Err(Handled::failed(
                cowboy_pvm::ErrorKind::OutOfCycles.code(),
                format!("out of cycles {}", what()),
            ));
        }
        if cells > self.cells_left {
            return Err(Handled::failed(
                cowboy_pvm::ErrorKind::OutOfCells.code(),
                format!("out of cells {}", what()),
            ));
        }
        self.spend(cycles, cells);
        Ok(())
    }
}

/// The PVM's view of the chain during one call.
struct ChainHost<'w, 'a> {
    world: &'w World<'a>,
    pending: &'w HashMap<Address, u64>,
}

fn host_err(e: ExecError) -> HostError {
    HostError(e.to_string())
}

impl Host for ChainHost<'_, '_> {
    fn storage_get(&mut self, actor: &[u8; 20], key: &[u8]) -> Result<Option<Vec<u8>>, HostError> {
        self.world.storage(&Address(*actor), key).map_err(host_err)
    }
    fn balance(&mut self, account: &[u8; 20]) -> Result<u64, HostError> {
        Ok(self
            .world
            .account(&Address(*account))
            .map_err(host_err)?
            .balance)
    }
    fn timer_owner(&mut self, id: &[u8; 32]) -> Result<Option<[u8; 20]>, HostError> {
        Ok(self
            .world
            .timer(&Hash(*id))
            .map_err(host_err)?
            .map(|t| t.creator.0))
    }
    fn timer_count(&mut self, actor: &[u8; 20]) -> Result<usize, HostError> {
        Ok(self.world.timer_count(&Address(*actor)).map_err(host_err)? as usize)
    }
    fn mailbox_size(&mut self, actor: &[u8; 20]) -> Result<u64, HostError> {
        let a = Address(*actor);
        Ok(self.world.mailbox_size(&a).map_err(host_err)?
            + self.pending.get(&a).copied().unwrap_or(0))
    }
}

/// Block-wide execution state.
pub(crate) struct Executor<'e, 'a> {
    pub env: Env,
    pub world: World<'a>,
    engine: &'e mut Engine,
    /// Cycles each actor's handlers used in this block (`per_actor_per_block_cycles`).
    actor_cycles: HashMap<Address, u64>,
    /// Basefee burned and tips earned so far in this block.
    pub burned: u128,
    pub tips: u128,
    /// Cycles and cells used by everything executed in this block (the basefee's `U`).
    pub cycles_used: u64,
    pub cells_used: u64,
    /// Per receipt, in order, the calls its session ran — when tracing (else `None`).
    pub traces: Option<Vec<Vec<CallTrace>>>,
    /// `(timer id, firing receipt hash)` of every timer that fired in this block, in order.
    pub firings: Vec<(Hash, Hash)>,
    /// What is recorded of each call, and (when bounded) the trace text the block may still
    /// keep.
    tracing: Tracing,
    trace_text_left: usize,
}

/// The result of running an actor's `__init__` or handler under a checkpoint.
struct CallResult {
    handled: Handled,
}

impl<'e, 'a> Executor<'e, 'a> {
    pub fn new(env: Env, world: World<'a>, engine: &'e mut Engine, tracing: Tracing) -> Self {
        Self {
            env,
            world,
            engine,
            actor_cycles: HashMap::new(),
            burned: 0,
            tips: 0,
            cycles_used: 0,
            cells_used: 0,
            traces: (tracing != Tracing::Off).then(Vec::new),
            firings: Vec::new(),
            tracing,
            trace_text_left: cowboy_types::trace::MAX_BLOCK_TRACE_TEXT,
        }
    }

    /// Files the calls of the session whose receipt is built next (see [`Self::traces`]).
    pub fn file_traces(&mut self, calls: Vec<CallTrace>) {
        if let Some(t) = self.traces.as_mut() {
            t.push(calls);
        }
    }

    fn limits(&self, fanout_left: u64) -> CallLimits {
        let e = &self.env.params.execution;
        let t = &self.env.params.timer;
        CallLimits {
            max_depth: e.max_message_depth.min(u32::MAX as u64) as u32,
            fanout_left: fanout_left.min(u32::MAX as u64) as u32,
            max_timers: t.max_timers_per_actor.min(u32::MAX as u64) as u32,
            mailbox_capacity: e.mailbox_capacity_bytes,
            max_cycles_per_fire: self.env.fire_bounds().max_cycles,
            max_cells_per_fire: self.env.fire_bounds().max_cells,
            min_cycles_per_fire: self.env.fire_bounds().min_cycles,
            min_cells_per_fire: self.env.fire_bounds().min_cells,
        }
    }

    /// True once `actor` has used its per-block cycle budget.
    pub fn over_budget(&self, actor: &Address) -> bool {
        self.actor_cycles.get(actor).copied().unwrap_or(0)
            >= self.env.params.execution.per_actor_per_block_cycles
    }

    /// Loads the compiled code of an actor.
    pub(crate) fn code_of(
        &mut self,
        actor: &ActorRecord,
    ) -> Result<Rc<cowboy_pvm::ActorCode>, ExecError> {
        // Versions only add names (`cowboy_pvm::stdlib`): code validated under an earlier
        // version runs under this one. Code from a later version means this node is outdated.
        if cowboy_pvm::stdlib::PvmVersion::new(actor.pvm_version).is_none() {
            return Err(ExecError::Corrupt {
                what: format!("code {}", actor.code_hash),
                reason: format!(
                    "deployed under PVM version {}, but this node implements versions 1 to {}: \
                     upgrade the node",
                    actor.pvm_version,
                    cowboy_pvm::stdlib::PvmVersion::CURRENT
                ),
            });
        }
        if let Some(c) = self.engine.cached(&actor.code_hash.0) {
            return Ok(c);
        }
        let source = self
            .world
            .code(&actor.code_hash)?
            .ok_or_else(|| ExecError::Corrupt {
                what: format!("code {}", actor.code_hash),
                reason: "missing".into(),
            })?;
        self.engine.load(&source).map_err(|d| ExecError::Corrupt {
            what: format!("code {}", actor.code_hash),
            reason: format!("stored code no longer validates: {d:?}"),
        })
    }

    /// Runs a deploy's `__init__` or a handler of `actor`, and applies its effects if it
    /// succeeds. The caller has opened the checkpoint and keeps or reverts it by the result.
    #[allow(clippy::too_many_arguments)]
    fn run_call(
        &mut self,
        s: &mut Session,
        code: &cowboy_pvm::ActorCode,
        actor: Address,
        caller: Address,
        value: u64,
        depth: u32,
        method: Option<&str>,
        args: &[u8],
    ) -> Result<CallResult, ExecError> {
        let account = self.world.account(&actor)?;
        let ctx = CallContext {
            actor: actor.0,
            caller: caller.0,
            value,
            block: self.env.block.clone(),
            nonce: account.nonce,
            depth,
            limits: self.limits(s.fanout_left),
            entitlements: account
                .actor
                .as_ref()
                .map(|a| a.entitlements)
                .unwrap_or_default(),
        };
        let limits = cowboy_pvm::Limits {
            cycles: s.cycles_left,
            cells: s.cells_left,
        };
        let outcome = {
            let mut host = ChainHost {
                world: &self.world,
                pending: &s.pending_bytes,
            };
            match method {
                Some(m) => self.engine.call(code, &mut host, ctx, m, args, limits),
                None => self.engine.deploy(code, &mut host, ctx, args, limits),
            }
        };
        s.spend(outcome.cycles_used, outcome.cells_used);
        *self.actor_cycles.entry(actor).or_insert(0) += outcome.cycles_used;
        let mut trace = self.traces.is_some().then(|| CallTrace {
            message: None,
            actor,
            caller,
            method: method.map(str::to_owned),
            depth,
            value,
            cycles_used: outcome.cycles_used,
            cells_used: outcome.cells_used,
            logs: match self.tracing {
                Tracing::Kept => cowboy_types::trace::keep_lines(
                    &outcome.logs,
                    cowboy_types::trace::MAX_STORED_LOG_BYTES,
                    &mut self.trace_text_left,
                ),
                _ => outcome.logs.clone(),
            },
            events: outcome.effects.events.clone(),
            messages: outcome.effects.messages.clone(),
            timers: outcome.effects.timers_set.clone(),
            result: Ok(Vec::new()),
        });
        let (handled, traceback) = match outcome.result {
            Err(e) => (Handled::failed(e.kind.code(), e.message), e.traceback),
            Ok(value_out) => match value_out.encode() {
                Err(e) => (
                    Handled::failed(
                        cowboy_pvm::ErrorKind::InvalidValue.code(),
                        format!("the return value cannot be encoded: {e}"),
                    ),
                    None,
                ),
                Ok(returned) => match self.apply_effects(s, actor, outcome.effects, depth)? {
                    Ok(()) => (Handled::Delivered(returned), None),
                    Err((kind, message)) => (Handled::failed(kind, message), None),
                },
            },
        };
        if let Some(mut t) = trace.take() {
            t.result = match &handled {
                Handled::Delivered(returned) => Ok(returned.clone()),
                Handled::Failed { kind, message } => {
                    // Nothing it emitted, sent or scheduled happened.
                    t.events.clear();
                    t.messages.clear();
                    t.timers.clear();
                    Err(CallFailure {
                        kind: *kind,
                        message: message.clone(),
                        traceback: match self.tracing {
                            Tracing::Kept => traceback.map(|tb| {
                                cowboy_types::trace::keep_text(
                                    tb,
                                    cowboy_types::trace::MAX_STORED_TRACEBACK_BYTES,
                                    &mut self.trace_text_left,
                                )
                            }),
                            _ => traceback,
                        },
                    })
                }
                Handled::Deferred => Ok(Vec::new()),
            };
            s.traces.push(t);
        }
        Ok(CallResult { handled })
    }

    /// Commits a successful call's effects, or says why they cannot be (the caller reverts).
    fn apply_effects(
        &mut self,
        s: &mut Session,
        actor: Address,
        effects: cowboy_pvm::Effects,
        depth: u32,
    ) -> Result<Result<(), (u8, String)>, ExecError> {
        let params = &self.env.params.execution;
        let mut account = self.world.account(&actor)?;
        let Some(mut record) = account.actor.clone() else {
            return Err(ExecError::Corrupt {
                what: format!("actor {actor}"),
                reason: "ran without an actor record".into(),
            });
        };
        // Quota first, so a handler can grow its quota and use it in the same call.
        if let Some(q) = effects.quota_request {
            let min = params.storage_quota_bytes;
            let max = params.max_storage_quota_bytes;
            if q < min || q > max {
                return Ok(Err((
                    failure::INVALID_QUOTA,
                    format!("storage quota must be between {min} and {max} bytes, asked for {q}"),
                )));
            }
            let bond = (q - min) as u128 * params.storage_bond_per_byte as u128;
            let bond = u64::try_from(bond).unwrap_or(u64::MAX);
            let held = record.storage.bond;
            if bond > held {
                let more = bond - held;
                if account.balance < more {
                    return Ok(Err((
                        failure::INSUFFICIENT_BALANCE,
                        format!(
                            "a {q}-byte quota needs a bond of {bond} base units; the actor holds {held} and has {} more, needs {more}",
                            account.balance
                        ),
                    )));
                }
                account.balance -= more;
            } else {
                account.balance += held - bond;
            }
            record.storage.quota = q;
            record.storage.bond = bond;
        }
        // Storage, with the quota check on the final size.
        let mut used = record.storage.used as i128;
        for (k, v) in &effects.storage {
            let old = self.world.storage(&actor, k)?;
            let old_size = old.as_ref().map_or(0, |o| (k.len() + o.len()) as i128);
            let new_size = v.as_ref().map_or(0, |n| (k.len() + n.len()) as i128);
            used += new_size - old_size;
        }
        let used = used.max(0) as u64;
        if used > record.storage.quota {
            return Ok(Err((
                failure::QUOTA_EXCEEDED,
                format!(
                    "storage quota exceeded: the actor would hold {used} bytes, its quota is {} (raise it with set_storage_quota, up to {} bytes)",
                    record.storage.quota, params.max_storage_quota_bytes
                ),
            )));
        }
        for (k, v) in &effects.storage {
            self.world.set_storage(&actor, k, v.as_deref());
        }
        record.storage.used = used;
        // Values carried by outgoing messages leave the actor now.
        let out_value: u128 = effects.messages.iter().map(|m| m.value as u128).sum();
        if out_value > account.balance as u128 {
            return Ok(Err((
                failure::INSUFFICIENT_BALANCE,
                format!(
                    "the handler sent {out_value} base units with its messages, the actor holds {}",
                    account.balance
                ),
            )));
        }
        account.balance -= out_value as u64;
        account.nonce = account.nonce.saturating_add(effects.nonces_used);
        account.actor = Some(record);
        self.world.set_account(&actor, &account);
        // Timers.
        for id in &effects.timers_cancelled {
            let id = Hash(*id);
            if let Some(t) = self.world.timer(&id)?
                && t.creator == actor
            {
                self.world.remove_timer(&id, &t)?;
            }
        }
        let max_timers = self.env.params.timer.max_timers_per_actor;
        for t in &effects.timers_set {
            if let Err(e) =
                cowboy_types::timer::check_count(self.world.timer_count(&actor)?, max_timers)
            {
                return Ok(Err((failure::TIMER_LIMIT, e.to_string())));
            }
            self.world.insert_timer(
                &Hash(t.id),
                TimerRecord {
                    creator: actor,
                    fee_payer: actor,
                    actor,
                    handler: t.handler.clone(),
                    args: t.args.clone(),
                    next_height: t.height,
                    every: t.every,
                    cycles_per_fire: t.cycles_per_fire,
                    cells_per_fire: t.cells_per_fire,
                    expires_at: t.expires_at,
                    seq: 0,
                    bid: t.bid.map(|(f, p)| cowboy_types::TimerBid {
                        max_fee_per_cycle: f,
                        max_priority_fee_per_cycle: p,
                    }),
                },
            )?;
        }
        // Jobs: the dispatcher takes each with its escrow from the actor, or the call reverts.
        for job in &effects.jobs {
            let before = s.cycles_left;
            let handled =
                crate::runners::dispatcher::submit(self, s, actor, Hash(job.id), &job.spec)?;
            // The dispatcher's work counts against the actor's per-block cycle budget too.
            *self.actor_cycles.entry(actor).or_insert(0) += before.saturating_sub(s.cycles_left);
            if let Handled::Failed { kind, message } = handled {
                return Ok(Err((kind, format!("submit_job: {message}"))));
            }
        }
        // Events and sends: nothing below can fail.
        s.events.extend(effects.events.into_iter().map(|e| Event {
            emitter: actor,
            topics: e.topics.into_iter().map(Hash).collect(),
            data: e.data,
        }));
        let enqueued =
            (effects.messages.len() + effects.timers_set.len() + effects.jobs.len()) as u64;
        s.fanout_left = s.fanout_left.saturating_sub(enqueued);
        for m in effects.messages {
            let p = Pending {
                id: Hash(m.id),
                sender: actor,
                to: Address(m.to),
                method: m.method,
                args: m.args,
                value: m.value,
                depth: depth + 1,
            };
            *s.pending_bytes.entry(p.to).or_insert(0) += p.size();
            s.queue.push_back(p);
        }
        Ok(Ok(()))
    }

    /// Delivers `m` now: dedup, recipient check, value, handler.
    fn deliver(&mut self, s: &mut Session, m: &Pending) -> Result<Handled, ExecError> {
        if self.world.seen(&m.to, &m.id)? {
            self.world.credit(&m.sender, m.value)?;
            return Ok(Handled::failed(
                failure::DUPLICATE_MESSAGE,
                format!("message {} was already delivered to {}", m.id, m.to),
            ));
        }
        let target = self.world.account(&m.to)?;
        let Some(record) = target.actor else {
            self.world.credit(&m.sender, m.value)?;
            return Ok(Handled::failed(
                failure::NO_ACTOR,
                format!(
                    "no actor at {}: messages call actor handlers (send value to an account with a transfer)",
                    m.to
                ),
            ));
        };
        let code = self.code_of(&record)?;
        self.world.overlay.checkpoint();
        self.world.credit(&m.to, m.value)?;
        let traced = s.traces.len();
        let r = self.run_call(
            s,
            &code,
            m.to,
            m.sender,
            m.value,
            m.depth,
            Some(&m.method),
            &m.args,
        )?;
        // The call just traced (if tracing) handled this message.
        if let Some(t) = s.traces.get_mut(traced) {
            t.message = Some(m.id);
        }
        if matches!(r.handled, Handled::Delivered(_)) {
            self.world.overlay.commit_checkpoint();
            // Only a delivered message enters the dedup set: a failed one changed nothing.
            self.world.record_delivery(&m.to, &m.id, self.env.height);
        } else {
            self.world.overlay.revert_checkpoint();
            self.world.credit(&m.sender, m.value)?;
        }
        Ok(r.handled)
    }

    /// Puts `m` in its recipient's mailbox for a later block.
    fn defer(&mut self, s: &mut Session, m: &Pending) -> Result<Handled, ExecError> {
        let capacity = self.env.params.execution.mailbox_capacity_bytes;
        let waiting = self.world.mailbox_size(&m.to)?;
        if waiting + m.size() > capacity {
            self.world.credit(&m.sender, m.value)?;
            return Ok(Handled::failed(
                failure::MAILBOX_FULL,
                format!(
                    "mailbox of {} is full: it holds {waiting} bytes, this message needs {} more, capacity is {capacity}",
                    m.to,
                    m.size()
                ),
            ));
        }
        self.world.push_mailbox(&MailboxMessage {
            id: m.id,
            sender: m.sender,
            to: m.to,
            method: m.method.clone(),
            args: m.args.clone(),
            value: m.value,
            depth: m.depth as u64,
            origin: s.origin,
        })?;
        s.new_deferrals += 1;
        Ok(Handled::Deferred)
    }

    /// Handles one message of a session: deliver it, defer it, or fail it when the budget is
    /// gone. The result is recorded in the session's deliveries.
    pub fn process(&mut self, s: &mut Session, m: Pending) -> Result<Handled, ExecError> {
        let handled = if s.cycles_left == 0 {
            self.world.credit(&m.sender, m.value)?;
            Handled::failed(
                failure::OUT_OF_BUDGET,
                "the budget paying for this message ran out before it could be delivered",
            )
        } else if self.over_budget(&m.to) {
            self.defer(s, &m)?
        } else {
            self.deliver(s, &m)?
        };
        s.deliveries.push(Delivery {
            id: m.id,
            to: m.to,
            outcome: handled.outcome(),
        });
        Ok(handled)
    }

    /// Runs the session's queue until it is empty.
    pub fn drain(&mut self, s: &mut Session) -> Result<(), ExecError> {
        while let Some(m) = s.queue.pop_front() {
            if let Some(b) = s.pending_bytes.get_mut(&m.to) {
                *b = b.saturating_sub(m.size());
            }
            self.process(s, m)?;
        }
        Ok(())
    }

    /// Deploys an actor: CREATE2 address, code stored once by hash, `__init__` run.
    #[allow(clippy::too_many_arguments)]
    pub fn deploy(
        &mut self,
        s: &mut Session,
        creator: Address,
        code: &str,
        salt: &Hash,
        init_args: &[u8],
        value: u64,
        entitlements: cowboy_types::entitlement::ActorEntitlements,
    ) -> Result<(Handled, Option<Address>), ExecError> {
        let canonical = cowboy_types::canonicalize_source(code);
        let code_hash = cowboy_types::code_hash(&canonical);
        let address = cowboy_types::actor_address(&creator, salt, &code_hash);
        let existing = self.world.account(&address)?;
        if existing.actor.is_some() || existing.nonce > 0 {
            self.world.credit(&creator, value)?;
            return Ok((
                Handled::failed(
                    failure::ACTOR_EXISTS,
                    format!(
                        "an actor already exists at {address} (same creator, salt and code); change the salt"
                    ),
                ),
                None,
            ));
        }
        // The source as sent: the engine refuses string literals its canonicalisation changes.
        let compiled = match self.engine.load(code) {
            Ok(c) => c,
            Err(diags) => {
                self.world.credit(&creator, value)?;
                let text = diags
                    .iter()
                    .map(|d| {
                        format!(
                            "line {}:{}: {} ({})",
                            d.line,
                            d.column,
                            d.message,
                            d.rule.id()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                return Ok((
                    Handled::failed(
                        cowboy_pvm::ErrorKind::Validation.code(),
                        format!("the actor source is refused: {text}"),
                    ),
                    None,
                ));
            }
        };
        self.world.overlay.checkpoint();
        if self.world.code(&code_hash)?.is_none() {
            self.world.set_code(&code_hash, &canonical);
        }
        let account = Account {
            balance: existing.balance.saturating_add(value),
            nonce: 0,
            actor: Some(ActorRecord {
                code_hash,
                pvm_version: cowboy_pvm::stdlib::PvmVersion::CURRENT.get(),
                storage: StorageUsage {
                    used: 0,
                    quota: self.env.params.execution.storage_quota_bytes,
                    bond: 0,
                },
                entitlements,
            }),
            metadata: existing.metadata,
        };
        self.world.set_account(&address, &account);
        let r = self.run_call(s, &compiled, address, creator, value, 0, None, init_args)?;
        if matches!(r.handled, Handled::Delivered(_)) {
            self.world.overlay.commit_checkpoint();
            Ok((r.handled, Some(address)))
        } else {
            self.world.overlay.revert_checkpoint();
            self.world.credit(&creator, value)?;
            Ok((r.handled, None))
        }
    }

    /// Settles a session: the fee (basefee burned, tip to the proposer), the part of `held`
    /// still needed by deferred messages (escrowed in their origin record), and the refund.
    /// `previous` is the origin record a deferred delivery drew from. Returns the fee.
    pub fn settle(
        &mut self,
        s: &Session,
        held: u128,
        previous: Option<&DeferredOrigin>,
    ) -> Result<u128, ExecError> {
        let charge = fees::fee(s.cycles_used, s.cells_used, &s.bid, &s.prices);
        let pending = match previous {
            Some(p) => p.pending.saturating_sub(1) + s.new_deferrals,
            None => s.new_deferrals,
        };
        let still_held = if pending > 0 {
            let record = DeferredOrigin {
                payer: s.payer,
                remaining_cycles: s.cycles_left,
                remaining_cells: s.cells_left,
                max_fee_per_cycle: s.bid.max_fee_per_cycle,
                max_fee_per_cell: s.bid.max_fee_per_cell,
                max_priority_fee_per_cycle: s.bid.max_priority_fee_per_cycle,
                max_priority_fee_per_cell: s.bid.max_priority_fee_per_cell,
                pending,
                fanout_left: s.fanout_left,
            };
            let escrow = record.escrow();
            self.world.set_origin(&s.origin, Some(&record));
            escrow
        } else {
            if previous.is_some() {
                self.world.set_origin(&s.origin, None);
            }
            0
        };
        let refund = held
            .checked_sub(charge.total())
            .and_then(|r| r.checked_sub(still_held))
            .ok_or_else(|| {
                ExecError::Supply(format!(
                    "session {} owes {} and holds back {still_held}, more than the {held} held",
                    s.origin,
                    charge.total()
                ))
            })?;
        let refund = u64::try_from(refund)
            .map_err(|_| ExecError::Supply("refund does not fit in 64 bits".into()))?;
        self.world.credit(&s.payer, refund)?;
        self.burned += charge.burn;
        self.tips += charge.tip;
        self.cycles_used = self.cycles_used.saturating_add(s.cycles_used);
        self.cells_used = self.cells_used.saturating_add(s.cells_used);
        Ok(charge.total())
    }
}

/// The receipt kind and message of a failure, for building receipts.
pub(crate) fn status_of(h: &Handled) -> cowboy_types::Status {
    match h {
        Handled::Failed { kind, message } => cowboy_types::Status::Failed {
            kind: *kind,
            message: message.clone(),
        },
        _ => cowboy_types::Status::Success,
    }
}
