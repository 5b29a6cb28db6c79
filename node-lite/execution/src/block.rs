//! One block, start to finish (whitepaper "State Transition Function"):
//!
//! 1. **Deferred deliveries** (system lane): messages waiting in mailboxes, oldest first, each
//!    paid from the budget its origin transaction left in escrow.
//! 2. **User transactions** (user lane, plus whatever the system, runner and timer lanes do not
//!    need): selected by effective fee, executed in the beacon's canonical order.
//! 3. **Timers** (timer lane): TTL expiries first (their own GC budget), then due timers in
//!    FIFO order while the lane's reservation lasts; the rest roll to the next block.
//! 4. **Bookkeeping**: expired dedup entries pruned, block reward minted pro rata to stake, tips
//!    paid to the proposer, basefees burned and adjusted for the next block.
//!
//! The phases are [`PHASES`], run in that order; blocks execute once finalized
//! ([`crate::pipeline`]), and the run ends with the state root, the receipts and their roots,
//! which a later header claims.

use crate::{
    BlockError, ExecError,
    exec::{Env, Executor, Handled, Pending, Session, status_of},
    fees::{self, Basefees},
    tx::{self, VerifiedTx},
    world::World,
};
use cowboy_pvm::Engine;
use cowboy_state::{Overlay, Prepared, Snapshot, Store};
use cowboy_types::{
    ActorInstruction, Address, Beacon, Block, Hash, Header, Instruction, Receipt, Round,
    SystemInstruction, TimerRecord, receipt::failure, state::key,
};

/// Most dedup entries pruned per block (Cowboy decision); leftovers go next block.
pub const MAX_DEDUP_PRUNE: usize = 10_000;

/// What a proposer decides about a new block besides its transactions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proposal {
    pub round: Round,
    pub timestamp_ms: u64,
    /// The proposer's reward address (a validator).
    pub proposer: Address,
    /// The parent beacon: the seed of the round before `round`.
    pub beacon: Beacon,
}

impl Proposal {
    /// What the proposer of the block with header `h` decided.
    pub fn of(h: &Header) -> Self {
        Self {
            round: h.round,
            timestamp_ms: h.timestamp_ms,
            proposer: h.proposer,
            beacon: h.beacon,
        }
    }
}

/// Totals of one block, for benchmarks, RPC and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockStats {
    pub cycles_used: u64,
    pub cells_used: u64,
    pub burned: u64,
    pub minted: u64,
    pub tips: u64,
    pub deferred_delivered: usize,
    pub timers_fired: usize,
    pub timers_expired: usize,
    pub transactions: usize,
    /// Transactions of a finalized block that could not execute (`failure::SKIPPED`).
    pub skipped: usize,
    /// Wall time of the timer phases (reservation, expiry GC, firing), for benchmarks; not
    /// consensus data.
    pub timer_time: std::time::Duration,
    /// Wall time of the jobs phase (draws, deadlines, callbacks), for benchmarks; not
    /// consensus data.
    pub job_time: std::time::Duration,
}

/// What executing one block produced: the commitments a later header may claim for it
/// (`Header::state_height`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub height: u64,
    pub state_root: Hash,
    pub receipts_root: Hash,
    /// The basefees the block executed at.
    pub cycle_basefee: u64,
    pub cell_basefee: u64,
}

impl Outcome {
    /// The stored form (see `cowboy_state::BlockRecord::outcome`).
    pub fn to_bytes(&self) -> Vec<u8> {
        use commonware_codec::Write as _;
        let mut buf = Vec::with_capacity(96);
        cowboy_types::codec::write_varint(self.height, &mut buf);
        self.state_root.write(&mut buf);
        self.receipts_root.write(&mut buf);
        cowboy_types::codec::write_varint(self.cycle_basefee, &mut buf);
        cowboy_types::codec::write_varint(self.cell_basefee, &mut buf);
        buf
    }

    /// Reads [`Self::to_bytes`]'s output back.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ExecError> {
        use cowboy_types::codec::{read_plain, read_varint};
        let mut buf = commonware_codec::Copying(bytes);
        let read =
            |buf: &mut commonware_codec::Copying<'_>| -> Result<Self, commonware_codec::Error> {
                Ok(Self {
                    height: read_varint(buf, "height")?,
                    state_root: read_plain(buf, "state_root")?,
                    receipts_root: read_plain(buf, "receipts_root")?,
                    cycle_basefee: read_varint(buf, "cycle_basefee")?,
                    cell_basefee: read_varint(buf, "cell_basefee")?,
                })
            };
        read(&mut buf).map_err(|e| ExecError::Corrupt {
            what: "block outcome".into(),
            reason: e.to_string(),
        })
    }

    /// Whether `header` claims exactly this outcome.
    pub fn matches(&self, header: &Header) -> bool {
        header.state_height == self.height
            && header.state_root == self.state_root
            && header.receipts_root == self.receipts_root
            && header.cycle_basefee == self.cycle_basefee
            && header.cell_basefee == self.cell_basefee
    }
}

/// An executed block, ready to commit.
#[derive(Debug)]
pub struct Executed {
    pub block: Block,
    pub hash: Hash,
    pub prepared: Prepared,
    /// Receipts in execution order with the body index of their transaction.
    pub receipts: Vec<(Receipt, Option<u32>)>,
    pub stats: BlockStats,
    /// The post-state commitments of this execution.
    pub outcome: Outcome,
    /// When traced ([`crate::Chain::execute_traced`]): for each receipt, in order, the calls
    /// its session ran. Empty otherwise.
    pub traces: Vec<Vec<crate::exec::CallTrace>>,
    /// `(timer id, firing receipt hash)` of every timer that fired, in order: what the node
    /// indexes for `cowboy_getTimerFirings`.
    pub firings: Vec<(Hash, Hash)>,
}

impl Executed {
    /// The stored form of the traces: for each receipt whose session ran code, its calls as
    /// JSON, by the receipt's transaction hash.
    pub fn trace_records(&self) -> Result<Vec<(Hash, Vec<u8>)>, ExecError> {
        self.receipts
            .iter()
            .zip(&self.traces)
            .filter(|(_, calls)| !calls.is_empty())
            .map(|((receipt, _), calls)| {
                let mut records: Vec<_> =
                    calls.iter().map(crate::exec::CallTrace::record).collect();
                cowboy_types::trace::bound_for_storage(&mut records);
                serde_json::to_vec(&records)
                    .map(|json| (receipt.tx_hash, json))
                    .map_err(|e| ExecError::Corrupt {
                        what: format!("the trace of {}", receipt.tx_hash),
                        reason: e.to_string(),
                    })
            })
            .collect()
    }
}

pub(crate) fn supply_err(what: &str) -> ExecError {
    ExecError::Supply(format!("{what} does not fit in 64 bits"))
}

/// Executes a finalized `block` on top of `snapshot` (whose last block is `parent`), given its
/// transactions' stateless checks in body order: each of [`PHASES`] in turn, then the state
/// root and the receipts root. Consensus has already accepted the block, so it cannot be
/// rejected for its transactions: one that failed its stateless checks, is no longer valid
/// against the state it meets (nonce, balance, fee) or no longer fits its lane gets a `SKIPPED`
/// receipt and changes nothing.
pub(crate) fn run(
    engine: &mut Engine,
    snapshot: &Snapshot,
    store: &Store,
    parent: &Header,
    block: &Block,
    checked: Vec<Result<VerifiedTx, crate::TxError>>,
    tracing: crate::exec::Tracing,
) -> Result<Executed, BlockError> {
    let proposal = Proposal::of(&block.header);
    let world = World::new(Overlay::new(snapshot));
    let params = world.params()?;
    let basefees = world.basefees()?;
    let chain_id = chain_id(&world)?;
    let height = parent.height + 1;
    let env = Env {
        height,
        beacon: proposal.beacon,
        block: cowboy_pvm::BlockInfo {
            height,
            epoch: proposal.round.epoch,
            view: proposal.round.view,
            timestamp_ms: proposal.timestamp_ms,
            chain_id,
            beacon: proposal.beacon.signature.to_vec(),
        },
        params,
        basefees,
    };
    let mut run = BlockRun {
        x: Executor::new(env, world, engine, tracing),
        block,
        checked,
        receipts: Vec::new(),
        stats: BlockStats::default(),
        reserved: crate::lanes::Reserved::default(),
    };
    if run.x.world.validator(&proposal.proposer)?.is_none() {
        return Err(BlockError::Proposer(proposal.proposer));
    }
    for (_, phase) in PHASES {
        phase(&mut run)?;
    }
    let BlockRun {
        x, receipts, stats, ..
    } = run;
    let traces = x.traces.unwrap_or_default();
    let firings = x.firings;
    let changes = x.world.overlay.into_changes()?;
    let plain: Vec<Receipt> = receipts.iter().map(|(r, _)| r.clone()).collect();
    let prepared = store.prepare(snapshot, changes)?;
    let receipts_root = crate::roots::receipts_root(&plain);
    let outcome = Outcome {
        height,
        state_root: prepared.root,
        receipts_root,
        cycle_basefee: basefees.cycle,
        cell_basefee: basefees.cell,
    };
    Ok(Executed {
        block: block.clone(),
        hash: block.header.digest(),
        prepared,
        receipts,
        stats,
        outcome,
        traces,
        firings,
    })
}

/// One block being executed: what its phases share.
pub(crate) struct BlockRun<'b, 'e, 'w> {
    pub x: Executor<'e, 'w>,
    pub block: &'b Block,
    /// The transactions' stateless checks, in body order (the transactions phase takes them).
    pub checked: Vec<Result<VerifiedTx, crate::TxError>>,
    /// Receipts in execution order, with the body index of their transaction.
    pub receipts: Vec<(Receipt, Option<u32>)>,
    pub stats: BlockStats,
    /// What the reserved lanes use or reserve, known before the transactions run.
    pub reserved: crate::lanes::Reserved,
}

/// A phase of a block: a step of the state transition over the block's run.
pub(crate) type Phase = fn(&mut BlockRun<'_, '_, '_>) -> Result<(), BlockError>;

/// The phases of every block, in the order they run (see the module documentation). A new
/// kind of per-block work (the runner market's job timeouts, selection and settlement) is a
/// new entry here.
pub(crate) const PHASES: &[(&str, Phase)] = &[
    ("deferred deliveries", deferred_deliveries),
    ("timer reservation", timer_reservation),
    ("user transactions", user_transactions),
    ("jobs", jobs),
    ("timers", timers),
    ("bookkeeping", bookkeeping),
];

/// Phase 1: messages waiting in mailboxes, oldest first, in the system lane.
fn deferred_deliveries(run: &mut BlockRun<'_, '_, '_>) -> Result<(), BlockError> {
    let (cycles, cells) =
        crate::deferred::run_deferred(&mut run.x, &mut run.receipts, &mut run.stats)?;
    run.reserved.deferred_cycles = cycles;
    run.reserved.deferred_cells = cells;
    Ok(())
}

/// The timer lane's reservation for the due timers that will fire (after the transactions,
/// which cannot add due timers: a timer never fires in the block that creates it).
fn timer_reservation(run: &mut BlockRun<'_, '_, '_>) -> Result<(), BlockError> {
    let reserving = std::time::Instant::now();
    let (cycles, cells) = crate::timers::timer_reservation(&run.x)?;
    run.reserved.timer_cycles = cycles;
    run.reserved.timer_cells = cells;
    run.stats.timer_time += reserving.elapsed();
    Ok(())
}

/// Phase 2: the block's transactions, in body order, in the room the other lanes leave.
fn user_transactions(run: &mut BlockRun<'_, '_, '_>) -> Result<(), BlockError> {
    use crate::lanes::{Lane, lane_of};
    let x = &mut run.x;
    let runner_demand = run
        .checked
        .iter()
        .filter_map(|c| c.as_ref().ok())
        .filter(|v| lane_of(&v.tx.instruction) == Lane::Runner)
        .fold(0u64, |sum, v| sum.saturating_add(v.tx.cycles_limit));
    run.reserved.runner_cycles = runner_demand.min(x.env.params.lanes.runner_cycles);
    let (mut cycles_left, mut cells_left) =
        crate::lanes::user_room(&x.env.params.lanes, &run.reserved);
    let mut runner_left = run.reserved.runner_cycles;
    let multipliers = x.env.params.lane_fee_multipliers.clone();
    let mut executed_txs = 0;
    for (i, checked) in std::mem::take(&mut run.checked).into_iter().enumerate() {
        let lane = checked
            .as_ref()
            .map_or(Lane::User, |v| lane_of(&v.tx.instruction));
        // Runner transactions run in their lane's reservation only; user transactions in the
        // shared room.
        let room = if lane == Lane::Runner {
            runner_left
        } else {
            cycles_left
        };
        let prices = x.env.lane(crate::lanes::multiplier(lane, &multipliers));
        let admitted = match checked {
            Err(error) => Err(error),
            Ok(vtx) if vtx.tx.cycles_limit > room || vtx.tx.cells_limit > cells_left => {
                Err(crate::TxError::LaneFull {
                    cycles: vtx.tx.cycles_limit,
                    cells: vtx.tx.cells_limit,
                    cycles_left: room,
                    cells_left,
                })
            }
            Ok(vtx) => {
                let account = x.world.account(&vtx.sender)?;
                tx::check_stateful(&vtx, &account, &prices).map(|()| vtx)
            }
        };
        match admitted {
            Ok(vtx) => {
                if lane == Lane::Runner {
                    runner_left -= vtx.tx.cycles_limit;
                } else {
                    cycles_left -= vtx.tx.cycles_limit;
                }
                cells_left -= vtx.tx.cells_limit;
                let receipt = execute_tx(x, &vtx, &prices)?;
                run.receipts.push((receipt, Some(i as u32)));
                executed_txs += 1;
            }
            Err(error) => {
                // Hashed only here: an admitted transaction's hash came with its check.
                let hash = run
                    .block
                    .transactions
                    .get(i)
                    .map(|t| t.digest())
                    .unwrap_or(Hash::ZERO);
                x.file_traces(Vec::new());
                run.receipts
                    .push((skipped_receipt(hash, &error), Some(i as u32)));
                run.stats.skipped += 1;
            }
        }
    }
    run.stats.transactions = executed_txs;
    Ok(())
}

/// The runner market's per-block work: committee draws whose round has come and commit
/// deadlines that passed, each bounded per block.
fn jobs(run: &mut BlockRun<'_, '_, '_>) -> Result<(), BlockError> {
    let start = std::time::Instant::now();
    crate::runners::dispatcher::phase(&mut run.x, &mut run.receipts)?;
    run.stats.job_time += start.elapsed();
    Ok(())
}

/// Phase 3: TTL expiries, then due timers within the reservation.
fn timers(run: &mut BlockRun<'_, '_, '_>) -> Result<(), BlockError> {
    let firing = std::time::Instant::now();
    let gc_left = crate::timers::run_timer_gc(&mut run.x, &mut run.stats)?;
    crate::timers::run_timers(
        &mut run.x,
        run.reserved.timer_cycles,
        run.reserved.timer_cells,
        gc_left,
        &mut run.receipts,
        &mut run.stats,
    )?;
    run.stats.timer_time += firing.elapsed();
    Ok(())
}

/// Phase 4: expired dedup entries pruned, the block reward minted, tips paid to the proposer,
/// the supply counters updated and the basefees adjusted for the next block.
fn bookkeeping(run: &mut BlockRun<'_, '_, '_>) -> Result<(), BlockError> {
    let x = &mut run.x;
    let basefees = x.env.basefees;
    prune_dedup(x)?;
    let minted = mint_rewards(x)?;
    let tips = u64::try_from(x.tips).map_err(|_| supply_err("tips"))?;
    let burned = u64::try_from(x.burned).map_err(|_| supply_err("burn"))?;
    x.world.credit(&run.block.header.proposer, tips)?;
    let mut supply = x.world.supply()?;
    supply.minted = supply
        .minted
        .checked_add(minted)
        .ok_or_else(|| supply_err("minted"))?;
    supply.burned = supply
        .burned
        .checked_add(burned)
        .ok_or_else(|| supply_err("burned"))?;
    x.world.set_supply(&supply);
    let cfg = x.env.params.basefee.clone();
    x.world.set_basefees(Basefees {
        cycle: fees::next_basefee(basefees.cycle, x.cycles_used, cfg.cycles_target, &cfg),
        cell: fees::next_basefee(basefees.cell, x.cells_used, cfg.cells_target, &cfg),
    });
    let stats = &mut run.stats;
    stats.cycles_used = x.cycles_used;
    stats.cells_used = x.cells_used;
    stats.burned = burned;
    stats.minted = minted;
    stats.tips = tips;
    Ok(())
}

/// The receipt of a finalized block's transaction that could not execute: nothing changed and
/// no fee was charged.
fn skipped_receipt(tx_hash: Hash, error: &crate::TxError) -> Receipt {
    let mut message = error.to_string();
    message.truncate(cowboy_types::receipt::MAX_FAILURE_MESSAGE);
    Receipt {
        tx_hash,
        status: cowboy_types::receipt::Status::Failed {
            kind: failure::SKIPPED,
            message,
        },
        cycles_used: 0,
        cells_used: 0,
        fee: 0,
        return_data: Vec::new(),
        events: Vec::new(),
        created: None,
        deliveries: Vec::new(),
    }
}

pub(crate) fn chain_id(world: &World<'_>) -> Result<u64, ExecError> {
    let bytes = world
        .overlay
        .get(&key::chain("chain_id"))?
        .ok_or_else(|| ExecError::Corrupt {
            what: "chain id".into(),
            reason: "missing".into(),
        })?;
    let mut buf = commonware_codec::Copying(bytes.as_slice());
    cowboy_types::codec::read_varint(&mut buf, "chain_id").map_err(|e| ExecError::Corrupt {
        what: "chain id".into(),
        reason: e.to_string(),
    })
}

/// Runs one user transaction: holds the worst case, runs the instruction, settles the fee.
pub(crate) fn execute_tx(
    x: &mut Executor<'_, '_>,
    vtx: &VerifiedTx,
    prices: &Basefees,
) -> Result<Receipt, ExecError> {
    let tx = &vtx.tx;
    let bid = vtx.bid();
    let held = fees::worst_case(tx.cycles_limit, tx.cells_limit, &bid);
    let mut account = x.world.account(&vtx.sender)?;
    // Validity guaranteed the balance covers `held` plus the value.
    account.balance -= held as u64;
    account.nonce += 1;
    x.world.set_account(&vtx.sender, &account);
    let mut s = Session::new(
        vtx.sender,
        bid,
        *prices,
        tx.cycles_limit,
        tx.cells_limit,
        x.env.params.execution.fanout_per_tx,
        vtx.hash,
    );
    s.spend(vtx.intrinsic.0, vtx.intrinsic.1);
    let mut created = None;
    let handled = match &tx.instruction {
        Instruction::System(SystemInstruction::Transfer { to, amount }) => {
            x.world.debit(&vtx.sender, *amount)?;
            x.world.credit(to, *amount)?;
            Handled::Delivered(Vec::new())
        }
        Instruction::Actor(ActorInstruction::Deploy {
            code,
            salt,
            init_args,
            value,
            entitlements,
        }) => {
            x.world.debit(&vtx.sender, *value)?;
            let (h, addr) = x.deploy(
                &mut s,
                vtx.sender,
                code,
                salt,
                init_args,
                *value,
                *entitlements,
            )?;
            created = addr;
            if matches!(h, Handled::Delivered(_)) {
                x.drain(&mut s)?;
            }
            h
        }
        Instruction::Actor(ActorInstruction::Message {
            to,
            method,
            args,
            value,
        }) => {
            x.world.debit(&vtx.sender, *value)?;
            let m = Pending {
                id: cowboy_types::message_id(&vtx.sender, tx.nonce, &tx.instruction),
                sender: vtx.sender,
                to: *to,
                method: method.clone(),
                args: args.clone(),
                value: *value,
                depth: 0,
            };
            let h = x.process(&mut s, m)?;
            x.drain(&mut s)?;
            h
        }
        Instruction::System(SystemInstruction::SetTimer { timer, height }) => {
            schedule(x, &mut s, vtx, timer, *height, 0)?
        }
        Instruction::System(SystemInstruction::SetInterval {
            timer,
            start_height,
            every_blocks,
        }) => {
            if *every_blocks == 0 {
                Handled::failed(failure::INVALID_TIMER, "every_blocks must be at least 1")
            } else {
                schedule(x, &mut s, vtx, timer, *start_height, *every_blocks)?
            }
        }
        Instruction::System(
            op @ (SystemInstruction::RunnerRegister { .. }
            | SystemInstruction::RunnerUpdate { .. }
            | SystemInstruction::RunnerHeartbeat
            | SystemInstruction::RunnerAddStake { .. }
            | SystemInstruction::RunnerWithdrawStake { .. }
            | SystemInstruction::RunnerExit
            | SystemInstruction::RunnerClaim),
        ) => atomic(x, |x| {
            crate::runners::registry::execute(x, &mut s, vtx.sender, op)
        })?,
        Instruction::System(SystemInstruction::JobSubmit { spec }) => atomic(x, |x| {
            // The job id is the id of the transaction's message (sender, nonce, instruction),
            // the same rule an actor's `submit_job` follows.
            let id = cowboy_types::message_id(&vtx.sender, tx.nonce, &tx.instruction);
            crate::runners::dispatcher::submit(x, &mut s, vtx.sender, id, spec)
        })?,
        Instruction::System(SystemInstruction::JobCommit { job_id, commitment }) => {
            atomic(x, |x| {
                crate::runners::dispatcher::commit(x, &mut s, vtx.sender, job_id, commitment)
            })?
        }
        Instruction::System(SystemInstruction::JobReveal { job_id, reveals }) => atomic(x, |x| {
            crate::runners::dispatcher::reveal(x, &mut s, vtx.sender, job_id, reveals)
        })?,
        Instruction::System(SystemInstruction::JobChallenge { job_id, bond }) => atomic(x, |x| {
            crate::runners::dispatcher::challenge(x, &mut s, vtx.sender, job_id, *bond)
        })?,
        Instruction::System(SystemInstruction::RunnerAttest { attestation }) => atomic(x, |x| {
            crate::runners::tee::attest(x, &mut s, vtx.sender, attestation)
        })?,
        Instruction::System(SystemInstruction::Entitlement(op)) => {
            atomic(x, |x| crate::entitlements::execute(x, vtx.sender, op))?
        }
        Instruction::System(SystemInstruction::CancelTimer { timer_id }) => {
            match x.world.timer(timer_id)? {
                Some(t) if t.creator == vtx.sender => {
                    x.world.remove_timer(timer_id, &t)?;
                    Handled::Delivered(Vec::new())
                }
                _ => Handled::failed(
                    failure::TIMER_NOT_FOUND,
                    format!(
                        "no pending timer {timer_id} created by {} (it fired, expired, was cancelled, or belongs to someone else)",
                        vtx.sender
                    ),
                ),
            }
        }
    };
    let fee = x.settle(&s, held, None)?;
    session_receipt(x, vtx.hash, &handled, s, fee, created)
}

/// Runs a system operation so that it changes state only when it succeeds: a refusal found
/// after a write (out of cells for a record, a limit reached midway) leaves nothing behind but
/// the fee.
fn atomic(
    x: &mut Executor<'_, '_>,
    op: impl FnOnce(&mut Executor<'_, '_>) -> Result<Handled, ExecError>,
) -> Result<Handled, ExecError> {
    x.world.overlay.checkpoint();
    // Burns (a slash) are counted outside the overlay: undone with it.
    let burned = x.burned;
    let handled = match op(x) {
        Ok(h) => h,
        Err(e) => {
            x.world.overlay.revert_checkpoint();
            x.burned = burned;
            return Err(e);
        }
    };
    if matches!(handled, Handled::Delivered(_)) {
        x.world.overlay.commit_checkpoint();
    } else {
        x.world.overlay.revert_checkpoint();
        x.burned = burned;
    }
    Ok(handled)
}

/// The receipt of a session that handled one message (a transaction, a timer firing, a
/// deferred delivery): its status, meters, fee, return value and what it emitted.
pub(crate) fn session_receipt(
    x: &mut Executor<'_, '_>,
    tx_hash: Hash,
    handled: &Handled,
    mut s: Session,
    fee: u128,
    created: Option<Address>,
) -> Result<Receipt, ExecError> {
    x.file_traces(std::mem::take(&mut s.traces));
    Ok(Receipt {
        tx_hash,
        status: status_of(handled),
        cycles_used: s.cycles_used,
        cells_used: s.cells_used,
        fee: u64::try_from(fee).map_err(|_| supply_err("fee"))?,
        return_data: match handled {
            Handled::Delivered(r) => r.clone(),
            _ => Vec::new(),
        },
        events: s.events,
        created,
        deliveries: s.deliveries,
    })
}

/// A timer scheduled by an external account (`System::SetTimer` / `SetInterval`).
fn schedule(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    vtx: &VerifiedTx,
    spec: &cowboy_types::TimerSpec,
    height: u64,
    every: u64,
) -> Result<Handled, ExecError> {
    let cfg = x.env.params.timer.clone();
    s.spend(cfg.scheduling_cost_cycles, 0);
    if s.cycles_left == 0 {
        return Ok(Handled::failed(
            cowboy_pvm::ErrorKind::OutOfCycles.code(),
            "out of cycles paying the 200-cycle scheduling cost",
        ));
    }
    let invalid = |m: String| Ok(Handled::failed(failure::INVALID_TIMER, m));
    let timer = cowboy_types::timer::NewTimer {
        height,
        handler: &spec.handler,
        cycles_per_fire: spec.cycles_per_fire,
        cells_per_fire: spec.cells_per_fire,
        expires_at: spec.expires_at,
    };
    if let Err(e) = cowboy_types::timer::validate(&timer, x.env.height, &x.env.fire_bounds()) {
        return invalid(e.to_string());
    }
    match cowboy_pvm::Value::decode(&spec.args) {
        Ok(cowboy_pvm::Value::List(_)) => {}
        Ok(_) => return invalid("timer args must encode a list of positional arguments".into()),
        Err(e) => return invalid(format!("timer args are not a canonical value: {e}")),
    }
    let Some(record) = x.world.account(&spec.actor)?.actor else {
        return Ok(Handled::failed(
            failure::NO_ACTOR,
            format!("no actor at {}: timers call actor handlers", spec.actor),
        ));
    };
    // A timer for a method the actor does not have would fail at every firing, each paid
    // for: refused when it is set (a Cowboy decision; the spec is silent).
    let code = x.code_of(&record)?;
    let shape = &code.shape;
    if !shape.handlers.contains(&spec.handler) {
        return Ok(Handled::failed(
            cowboy_pvm::ErrorKind::HandlerNotFound.code(),
            format!(
                "`{}` is not a handler of {} at {} (handlers: {})",
                spec.handler,
                shape.class_name,
                spec.actor,
                shape.handlers.join(", ")
            ),
        ));
    }
    if let Err(e) = cowboy_types::timer::check_count(
        x.world.timer_count(&vtx.sender)?,
        cfg.max_timers_per_actor,
    ) {
        return Ok(Handled::failed(failure::TIMER_LIMIT, e.to_string()));
    }
    let id = cowboy_types::message_id(&vtx.sender, vtx.tx.nonce, &vtx.tx.instruction);
    x.world.insert_timer(
        &id,
        TimerRecord {
            creator: vtx.sender,
            fee_payer: vtx.sender,
            actor: spec.actor,
            handler: spec.handler.clone(),
            args: spec.args.clone(),
            next_height: height,
            every,
            cycles_per_fire: spec.cycles_per_fire,
            cells_per_fire: spec.cells_per_fire,
            expires_at: spec.expires_at,
            seq: 0,
            bid: spec.bid,
        },
    )?;
    // The receipt returns the timer id as a canonical bytes value.
    let returned = cowboy_pvm::Value::Bytes(id.0.to_vec())
        .encode()
        .map_err(|e| ExecError::Pvm(e.to_string()))?;
    Ok(Handled::Delivered(returned))
}

/// Drops dedup entries older than `dedup_window` blocks.
fn prune_dedup(x: &mut Executor<'_, '_>) -> Result<(), ExecError> {
    let window = x.env.params.execution.dedup_window;
    let Some(cutoff) = x.env.height.checked_sub(window) else {
        return Ok(());
    };
    let mut pruned = 0usize;
    loop {
        let page = x.world.overlay.scan(&[key::DEDUP_EXPIRY], None, 256)?;
        if page.is_empty() {
            return Ok(());
        }
        for (k, _) in page {
            if pruned >= MAX_DEDUP_PRUNE || key::be_u64(&k, 1).is_none_or(|h| h >= cutoff) {
                return Ok(());
            }
            // DEDUP_EXPIRY ‖ height ‖ recipient ‖ id
            if let (Some(to), Some(id)) = (
                k.get(9..29).and_then(Address::from_slice),
                k.get(29..61).and_then(Hash::from_slice),
            ) {
                x.world.overlay.delete(key::dedup(&to, &id));
            }
            x.world.overlay.delete(k);
            pruned += 1;
        }
    }
}

/// Mints the block reward (§8.2) pro rata to validator stake. Returns the amount minted.
fn mint_rewards(x: &mut Executor<'_, '_>) -> Result<u64, ExecError> {
    let cfg = x.env.params.inflation.clone();
    let height = x.env.height;
    let mut infl = x.world.inflation()?;
    let year = fees::inflation_year(height, &cfg);
    if year != infl.year {
        infl.year = year;
        infl.year_start_supply = x.world.supply()?.total();
        x.world.set_inflation(infl);
    }
    let reward = fees::block_reward(height, infl.year_start_supply, &cfg);
    let validators = x.world.validators()?;
    let stakes: Vec<u64> = validators.iter().map(|(_, v)| v.stake).collect();
    let shares = fees::split_pro_rata(reward, &stakes);
    let mut minted = 0u64;
    for ((addr, _), share) in validators.iter().zip(shares) {
        x.world.credit(addr, share)?;
        minted = minted
            .checked_add(share)
            .ok_or_else(|| supply_err("reward"))?;
    }
    Ok(minted)
}
