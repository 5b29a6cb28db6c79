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
//! The same code builds a block (a proposer choosing transactions) and checks one (a validator
//! replaying it): both end with the state root, the receipts and their roots.

use crate::{
    BlockError, ExecError,
    exec::{Env, Executor, Handled, Pending, Session, status_of},
    fees::{self, Basefees, Bid},
    intrinsic,
    tx::{self, Room, VerifiedTx},
    world::World,
};
use cowboy_pvm::Engine;
use cowboy_state::{Overlay, Prepared, Snapshot, Store};
use cowboy_types::{
    ActorInstruction, Address, Beacon, Block, Hash, Header, Instruction, MailboxMessage, Receipt,
    Round, SystemInstruction, TimerRecord, block::MAX_BLOCK_TRANSACTIONS, codec::decode_strict,
    keccak256, receipt::failure, state::key,
};

/// Most mailbox entries looked at per block (Cowboy decision): bounds the deferred phase's work
/// when many waiting messages belong to actors still over their per-block budget.
pub const MAX_MAILBOX_SCAN: usize = 4_096;
/// Most due-queue entries looked at per block (Cowboy decision; the timer lane holds at most
/// 1,777 firings).
pub const MAX_TIMER_SCAN: usize = 4_096;
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
    /// Wall time of the timer phases (reservation, expiry GC, firing), for benchmarks; not
    /// consensus data.
    pub timer_time: std::time::Duration,
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
}

enum Txs<'r> {
    /// A block's transactions, already verified, to be checked.
    Given(Vec<VerifiedTx>),
    /// A block's transactions, verified on other threads while earlier ones execute.
    Streamed(&'r [cowboy_types::Transaction], &'r mut tx::Recovering),
    /// Candidates for a new block, to be selected.
    Select(Vec<VerifiedTx>),
}

fn supply_err(what: &str) -> ExecError {
    ExecError::Supply(format!("{what} does not fit in 64 bits"))
}

/// Executes a block on top of `snapshot` (whose last block is `parent`).
fn run(
    engine: &mut Engine,
    snapshot: &Snapshot,
    store: &Store,
    parent: &Header,
    proposal: &Proposal,
    txs: Txs,
) -> Result<Executed, BlockError> {
    let world = World::new(Overlay::new(snapshot));
    let params = world.params()?;
    let basefees = world.basefees()?;
    let chain_id = chain_id(&world)?;
    let height = parent.height + 1;
    let env = Env {
        height,
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
    let mut x = Executor::new(env, world, engine);
    let mut receipts = Vec::new();
    let mut stats = BlockStats::default();

    if x.world.validator(&proposal.proposer)?.is_none() {
        return Err(BlockError::Proposer(proposal.proposer));
    }

    // 1. Deferred deliveries.
    let (deferred_cycles, deferred_cells) = run_deferred(&mut x, &mut receipts, &mut stats)?;

    // 2. User transactions, in the room the other lanes leave.
    let lanes = x.env.params.lanes.clone();
    let reserving = std::time::Instant::now();
    let (timer_cycles, timer_cells) = timer_reservation(&x)?;
    stats.timer_time += reserving.elapsed();
    let (cycles, cells) = crate::lanes::user_room(
        &lanes,
        &crate::lanes::Reserved {
            deferred_cycles,
            deferred_cells,
            timer_cycles,
            timer_cells,
            runner_cycles: 0,
        },
    );
    let room = Room {
        cycles,
        cells,
        count: MAX_BLOCK_TRANSACTIONS,
    };
    let user_prices = x.env.lane(x.env.params.lane_fee_multipliers.user_bps);
    // A given block must fit its lanes (limits are known before any sender is recovered).
    let given_limits = match &txs {
        Txs::Given(v) => Some(
            v.iter()
                .map(|t| (t.tx.cycles_limit, t.tx.cells_limit))
                .collect::<Vec<_>>(),
        ),
        Txs::Streamed(raw, _) => Some(
            raw.iter()
                .map(|t| (t.cycles_limit, t.cells_limit))
                .collect::<Vec<_>>(),
        ),
        Txs::Select(_) => None,
    };
    if let Some(limits) = &given_limits {
        if limits.len() > MAX_BLOCK_TRANSACTIONS {
            return Err(BlockError::TooManyTransactions {
                count: limits.len(),
                max: MAX_BLOCK_TRANSACTIONS,
            });
        }
        let cycles: u128 = limits.iter().map(|l| l.0 as u128).sum();
        if cycles > room.cycles as u128 {
            return Err(BlockError::LaneFull {
                what: "cycles",
                asked: cycles,
                budget: room.cycles,
            });
        }
        let cells: u128 = limits.iter().map(|l| l.1 as u128).sum();
        if cells > room.cells as u128 {
            return Err(BlockError::LaneFull {
                what: "cells",
                asked: cells,
                budget: room.cells,
            });
        }
    }
    let (count, mut given, mut streamed, check_order) = match txs {
        Txs::Given(v) => (v.len(), Some(v.into_iter()), None, true),
        Txs::Streamed(raw, rec) => (raw.len(), None, Some((raw, rec)), true),
        Txs::Select(candidates) => {
            let world = &x.world;
            let mut chosen = tx::select(candidates, |a| world.account(a), &user_prices, room)?;
            tx::canonical_order(&mut chosen, &proposal.beacon);
            (chosen.len(), Some(chosen.into_iter()), None, false)
        }
    };
    let mut txs = Vec::with_capacity(count);
    for i in 0..count {
        let vtx = if let Some(it) = given.as_mut() {
            it.next().ok_or(ExecError::Corrupt {
                what: "transaction list".into(),
                reason: "shorter than its length".into(),
            })?
        } else if let Some((raw, rec)) = streamed.as_mut() {
            rec.get(i).map_err(|error| BlockError::InvalidTransaction {
                index: i,
                hash: raw[i].digest(),
                error,
            })?
        } else {
            break;
        };
        let account = x.world.account(&vtx.sender)?;
        tx::check_stateful(&vtx, &account, &user_prices).map_err(|error| {
            BlockError::InvalidTransaction {
                index: i,
                hash: vtx.hash,
                error,
            }
        })?;
        let receipt = execute_tx(&mut x, &vtx, &user_prices)?;
        receipts.push((receipt, Some(i as u32)));
        txs.push(vtx);
    }
    // The order depends on the senders, so it is checked once all are known; a block out of
    // order is rejected whole, so executing it first changes nothing.
    if check_order {
        tx::check_order(&txs, &proposal.beacon).map_err(BlockError::Order)?;
    }
    stats.transactions = txs.len();

    // 3. Timers.
    let firing = std::time::Instant::now();
    let gc_left = run_timer_gc(&mut x, &mut stats)?;
    run_timers(
        &mut x,
        timer_cycles,
        timer_cells,
        gc_left,
        &mut receipts,
        &mut stats,
    )?;
    stats.timer_time += firing.elapsed();

    // 4. Bookkeeping.
    prune_dedup(&mut x)?;
    let minted = mint_rewards(&mut x)?;
    let tips = u64::try_from(x.tips).map_err(|_| supply_err("tips"))?;
    let burned = u64::try_from(x.burned).map_err(|_| supply_err("burn"))?;
    x.world.credit(&proposal.proposer, tips)?;
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
    stats.cycles_used = x.cycles_used;
    stats.cells_used = x.cells_used;
    stats.burned = burned;
    stats.minted = minted;
    stats.tips = tips;

    let changes = x.world.overlay.into_changes()?;
    let digests: Vec<Hash> = txs.iter().map(|t| t.hash).collect();
    let transactions: Vec<_> = txs.into_iter().map(|t| t.tx).collect();
    let plain: Vec<Receipt> = receipts.iter().map(|(r, _)| r.clone()).collect();
    let prepared = store.prepare(snapshot, changes)?;
    let tx_root = crate::roots::tx_root_of(&digests);
    let receipts_root = crate::roots::receipts_root(&plain);
    let header = Header {
        parent: parent.digest(),
        height,
        round: proposal.round,
        timestamp_ms: proposal.timestamp_ms,
        proposer: proposal.proposer,
        beacon: proposal.beacon,
        tx_root,
        state_root: prepared.root,
        receipts_root,
        cycle_basefee: basefees.cycle,
        cell_basefee: basefees.cell,
    };
    let hash = header.digest();
    Ok(Executed {
        block: Block {
            header,
            transactions,
        },
        hash,
        prepared,
        receipts,
        stats,
    })
}

fn chain_id(world: &World<'_>) -> Result<u64, ExecError> {
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
fn execute_tx(
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
        }) => {
            x.world.debit(&vtx.sender, *value)?;
            let (h, addr) = x.deploy(&mut s, vtx.sender, code, salt, init_args, *value)?;
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
    let return_data = match &handled {
        Handled::Delivered(r) => r.clone(),
        _ => Vec::new(),
    };
    Ok(Receipt {
        tx_hash: vtx.hash,
        status: status_of(&handled),
        cycles_used: s.cycles_used,
        cells_used: s.cells_used,
        fee: u64::try_from(fee).map_err(|_| supply_err("fee"))?,
        return_data,
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
    if height <= x.env.height {
        return invalid(format!(
            "timer height {height} is not after the current block {} (a timer cannot fire in the block that creates it)",
            x.env.height
        ));
    }
    if x.world.account(&spec.actor)?.actor.is_none() {
        return Ok(Handled::failed(
            failure::NO_ACTOR,
            format!("no actor at {}: timers call actor handlers", spec.actor),
        ));
    }
    let valid_name = !spec.handler.is_empty()
        && !spec.handler.starts_with('_')
        && spec
            .handler
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !spec.handler.as_bytes()[0].is_ascii_digit();
    if !valid_name {
        return invalid(format!(
            "handler {:?} is not a public handler name (letters, digits and '_', not starting with '_' or a digit)",
            spec.handler
        ));
    }
    match cowboy_pvm::Value::decode(&spec.args) {
        Ok(cowboy_pvm::Value::List(_)) => {}
        Ok(_) => return invalid("timer args must encode a list of positional arguments".into()),
        Err(e) => return invalid(format!("timer args are not a canonical value: {e}")),
    }
    if spec.cycles_per_fire < intrinsic::TIMER_FIRE_CYCLES
        || spec.cycles_per_fire > cfg.max_cycles_per_fire
    {
        return invalid(format!(
            "cycles_per_fire must be between {} and {} (max_cycles_per_fire), got {}",
            intrinsic::TIMER_FIRE_CYCLES,
            cfg.max_cycles_per_fire,
            spec.cycles_per_fire
        ));
    }
    if spec.cells_per_fire < intrinsic::TIMER_FIRE_CELLS
        || spec.cells_per_fire > cfg.max_cells_per_fire
    {
        return invalid(format!(
            "cells_per_fire must be between {} and {} (max_cells_per_fire), got {}",
            intrinsic::TIMER_FIRE_CELLS,
            cfg.max_cells_per_fire,
            spec.cells_per_fire
        ));
    }
    if let Some(e) = spec.expires_at
        && e < height
    {
        return invalid(format!(
            "expires_at {e} is before the first firing at {height}"
        ));
    }
    if x.world.timer_count(&vtx.sender)? >= cfg.max_timers_per_actor {
        return Ok(Handled::failed(
            failure::TIMER_LIMIT,
            format!(
                "timer limit reached: {} already has {} pending timers",
                vtx.sender, cfg.max_timers_per_actor
            ),
        ));
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

/// Phase 1: messages waiting in mailboxes, oldest first, within the system lane.
fn run_deferred(
    x: &mut Executor<'_, '_>,
    receipts: &mut Vec<(Receipt, Option<u32>)>,
    stats: &mut BlockStats,
) -> Result<(u64, u64), ExecError> {
    let budget = x.env.params.lanes.system_cycles;
    let (mut cycles, mut cells) = (0u64, 0u64);
    let mut after: Option<Vec<u8>> = None;
    let mut scanned = 0usize;
    let prices = x.env.lane(x.env.params.lane_fee_multipliers.user_bps);
    'scan: loop {
        let page = x
            .world
            .overlay
            .scan(&[key::MAILBOX], after.as_deref(), 64)?;
        if page.is_empty() {
            break;
        }
        after = page.last().map(|(k, _)| k.clone());
        for (k, v) in page {
            scanned += 1;
            if scanned > MAX_MAILBOX_SCAN {
                break 'scan;
            }
            let m: MailboxMessage = decode_strict(&v).map_err(|e| ExecError::Corrupt {
                what: "mailbox message".into(),
                reason: e.to_string(),
            })?;
            if x.over_budget(&m.to) {
                continue;
            }
            let origin = x
                .world
                .origin(&m.origin)?
                .ok_or_else(|| ExecError::Corrupt {
                    what: format!("deferred origin {}", m.origin),
                    reason: "missing for a waiting message".into(),
                })?;
            if cycles.saturating_add(origin.remaining_cycles) > budget {
                break 'scan;
            }
            x.world.pop_mailbox(&k, &m)?;
            let bid = Bid {
                max_fee_per_cycle: origin.max_fee_per_cycle,
                max_fee_per_cell: origin.max_fee_per_cell,
                max_priority_fee_per_cycle: origin.max_priority_fee_per_cycle,
                max_priority_fee_per_cell: origin.max_priority_fee_per_cell,
            };
            let mut s = Session::new(
                origin.payer,
                bid,
                prices,
                origin.remaining_cycles,
                origin.remaining_cells,
                origin.fanout_left,
                m.origin,
            );
            let id = m.id;
            let handled = if bid.max_fee_per_cycle < prices.cycle
                || bid.max_fee_per_cell < prices.cell
            {
                x.world.credit(&m.sender, m.value)?;
                let h = Handled::failed(
                    failure::FEE_TOO_LOW,
                    format!(
                        "the origin's max fees ({}, {}) are below this block's basefees ({}, {})",
                        bid.max_fee_per_cycle, bid.max_fee_per_cell, prices.cycle, prices.cell
                    ),
                );
                s.deliveries.push(cowboy_types::Delivery {
                    id,
                    to: m.to,
                    outcome: cowboy_types::Outcome::Failed {
                        kind: failure::FEE_TOO_LOW,
                        message: match &h {
                            Handled::Failed { message, .. } => message.clone(),
                            _ => String::new(),
                        },
                    },
                });
                h
            } else {
                let h = x.process(&mut s, Pending::from_mailbox(m))?;
                x.drain(&mut s)?;
                h
            };
            let fee = x.settle(&s, origin.escrow(), Some(&origin))?;
            cycles = cycles.saturating_add(s.cycles_used);
            cells = cells.saturating_add(s.cells_used);
            stats.deferred_delivered += 1;
            receipts.push((
                Receipt {
                    tx_hash: id,
                    status: status_of(&handled),
                    cycles_used: s.cycles_used,
                    cells_used: s.cells_used,
                    fee: u64::try_from(fee).map_err(|_| supply_err("fee"))?,
                    return_data: match &handled {
                        Handled::Delivered(r) => r.clone(),
                        _ => Vec::new(),
                    },
                    events: s.events,
                    created: None,
                    deliveries: s.deliveries,
                },
                None,
            ));
        }
    }
    Ok((cycles, cells))
}

fn expired(t: &TimerRecord, height: u64) -> bool {
    t.expires_at.is_some_and(|e| e < height)
}

/// Walks the due queue (height ≤ current) in FIFO order, calling `f` on each live timer until
/// it returns `false`; expired timers are passed to `on_expired`. At most [`MAX_TIMER_SCAN`]
/// entries are looked at.
fn walk_due(
    world: &World<'_>,
    height: u64,
    mut f: impl FnMut(&Hash, &TimerRecord) -> Result<bool, ExecError>,
) -> Result<(), ExecError> {
    let mut after: Option<Vec<u8>> = None;
    let mut scanned = 0usize;
    loop {
        let page = world
            .overlay
            .scan(&[key::TIMER_DUE], after.as_deref(), 32)?;
        if page.is_empty() {
            return Ok(());
        }
        after = page.last().map(|(k, _)| k.clone());
        for (k, v) in page {
            scanned += 1;
            if scanned > MAX_TIMER_SCAN || key::be_u64(&k, 1).is_none_or(|h| h > height) {
                return Ok(());
            }
            let (id, t) = crate::world::decode_due(&v)?;
            if !f(&id, &t)? {
                return Ok(());
            }
        }
    }
}

/// A due timer chosen to fire, with the budget and bid its firing uses.
struct Planned {
    id: Hash,
    t: TimerRecord,
    /// Cycles the firing may use (the per-fire budget, capped in the auction phase).
    cycles: u64,
    bid: Bid,
    /// Tip per cycle the bid offers at the lane basefee (auction phase; 0 in FIFO).
    priority: u64,
}

/// How due timers are chosen this block.
enum TimerMode {
    /// §5.1a: FIFO by height and insertion; the first timer that does not fit stops the walk.
    Fifo,
    /// §5.1b: by `priority × W(actor)`; timers that do not fit are skipped for smaller ones.
    Auction {
        /// The default bidding agent's priority (the previous block's median tip).
        default_tip: u64,
        /// Median firings per actor in the fairness window.
        median_fires: u64,
        cap: u64,
    },
}

/// The timers to fire, in order, and the expired timers passed on the way.
type Plan = (Vec<Planned>, Vec<(Hash, TimerRecord)>);

/// Most actors looked at to find the median firing rate (Cowboy decision: bounds the work).
pub const MAX_FAIRNESS_ACTORS: usize = 4_096;

fn timer_mode(x: &Executor<'_, '_>) -> Result<TimerMode, ExecError> {
    let cfg = &x.env.params.timer;
    if !cfg.auction_enabled {
        return Ok(TimerMode::Fifo);
    }
    Ok(TimerMode::Auction {
        default_tip: x.world.timer_tip()?,
        median_fires: x.world.median_fires(MAX_FAIRNESS_ACTORS)?,
        cap: cfg.auction_max_cycles_per_fire,
    })
}

/// The timer lane's basefees this block: the global basefee (FIFO) or the lane's own (§5.1b),
/// times the lane multiplier.
fn timer_prices(x: &Executor<'_, '_>) -> Result<Basefees, ExecError> {
    let mult = x.env.params.lane_fee_multipliers.timer_bps;
    let cycle = if x.env.params.timer.auction_enabled {
        x.world.timer_basefee(x.env.basefees.cycle)?
    } else {
        x.env.basefees.cycle
    };
    Ok(Basefees {
        cycle: fees::lane_basefee(cycle, mult),
        cell: fees::lane_basefee(x.env.basefees.cell, mult),
    })
}

/// The due timers that fire this block within `budget` (cycles, cells), in firing order, plus
/// the expired timers the walk passed (left for the expiry GC).
fn plan_timers(
    x: &Executor<'_, '_>,
    budget: (u64, u64),
    prices: &Basefees,
    mode: &TimerMode,
) -> Result<Plan, ExecError> {
    let height = x.env.height;
    let mut expired_seen = Vec::new();
    let mut due = Vec::new();
    let fifo = matches!(mode, TimerMode::Fifo);
    let (mut c, mut b) = (0u64, 0u64);
    walk_due(&x.world, height, |id, t| {
        if expired(t, height) {
            expired_seen.push((*id, t.clone()));
            return Ok(true);
        }
        if fifo {
            if c.saturating_add(t.cycles_per_fire) > budget.0
                || b.saturating_add(t.cells_per_fire) > budget.1
            {
                return Ok(false);
            }
            c += t.cycles_per_fire;
            b += t.cells_per_fire;
            due.push(Planned {
                id: *id,
                t: t.clone(),
                cycles: t.cycles_per_fire,
                bid: Bid {
                    max_fee_per_cycle: prices.cycle,
                    max_fee_per_cell: prices.cell,
                    max_priority_fee_per_cycle: 0,
                    max_priority_fee_per_cell: 0,
                },
                priority: 0,
            });
        } else {
            due.push(Planned {
                id: *id,
                t: t.clone(),
                cycles: 0,
                bid: Bid {
                    max_fee_per_cycle: 0,
                    max_fee_per_cell: prices.cell,
                    max_priority_fee_per_cycle: 0,
                    max_priority_fee_per_cell: 0,
                },
                priority: 0,
            });
        }
        Ok(true)
    })?;
    let TimerMode::Auction {
        default_tip,
        median_fires,
        cap,
    } = *mode
    else {
        return Ok((due, expired_seen));
    };
    // §5.1b: bid (or the default agent's: twice the lane basefee, the last median tip), the
    // effective priority, and the fairness weight.
    let mut ranked = Vec::with_capacity(due.len());
    for mut p in due {
        let (max_fee, max_tip) = match p.t.bid {
            Some(bid) => (bid.max_fee_per_cycle, bid.max_priority_fee_per_cycle),
            None => (prices.cycle.saturating_mul(2), default_tip),
        };
        if max_fee < prices.cycle {
            continue; // priced out this block; it waits
        }
        p.priority = fees::tip_per_unit(max_fee, max_tip, prices.cycle);
        p.bid.max_fee_per_cycle = max_fee;
        p.bid.max_priority_fee_per_cycle = max_tip;
        p.cycles = p.t.cycles_per_fire.min(cap);
        let weight = fees::fairness_weight_bps(x.world.fires(&p.t.actor)?, median_fires);
        ranked.push((p.priority as u128 * weight as u128, p));
    }
    ranked.sort_by(|(ka, a), (kb, b)| {
        kb.cmp(ka)
            .then(a.t.next_height.cmp(&b.t.next_height))
            .then(a.t.seq.cmp(&b.t.seq))
    });
    let mut chosen = Vec::new();
    for (_, p) in ranked {
        if c.saturating_add(p.cycles) > budget.0 || b.saturating_add(p.t.cells_per_fire) > budget.1
        {
            continue;
        }
        c += p.cycles;
        b += p.t.cells_per_fire;
        chosen.push(p);
    }
    Ok((chosen, expired_seen))
}

/// The timer lane's reservation: per-fire budgets of the due timers that will fire, computed
/// from the state before the block's transactions (they cannot add due timers: the same-block
/// prohibition).
fn timer_reservation(x: &Executor<'_, '_>) -> Result<(u64, u64), ExecError> {
    let prices = timer_prices(x)?;
    let mode = timer_mode(x)?;
    let lane = (
        x.env.params.lanes.timer_cycles,
        x.env.params.lanes.block_cells,
    );
    let (plan, _) = plan_timers(x, lane, &prices, &mode)?;
    Ok(plan.iter().fold((0u64, 0u64), |(c, b), p| {
        (c + p.cycles, b + p.t.cells_per_fire)
    }))
}

/// TTL expiries, oldest first, within `gc_cycles`. Returns the GC budget left.
fn run_timer_gc(x: &mut Executor<'_, '_>, stats: &mut BlockStats) -> Result<u64, ExecError> {
    let cost = x.env.params.timer.gc_cycles_per_timer.max(1);
    let mut left = x.env.params.timer.gc_cycles;
    while left >= cost {
        let page = x.world.overlay.scan(&[key::TIMER_EXPIRY], None, 64)?;
        let mut progressed = false;
        for (k, v) in page {
            if left < cost || key::be_u64(&k, 1).is_none_or(|e| e >= x.env.height) {
                return Ok(left);
            }
            let id = Hash::from_slice(&v).ok_or_else(|| ExecError::Corrupt {
                what: "timer expiry entry".into(),
                reason: "not a 32-byte id".into(),
            })?;
            match x.world.timer(&id)? {
                Some(t) => x.world.remove_timer(&id, &t)?,
                None => x.world.overlay.delete(k),
            }
            left -= cost;
            stats.timers_expired += 1;
            progressed = true;
        }
        if !progressed {
            break;
        }
    }
    Ok(left)
}

/// Phase 3: due timers within the reservation, in FIFO (§5.1a) or auction (§5.1b) order.
fn run_timers(
    x: &mut Executor<'_, '_>,
    budget_cycles: u64,
    budget_cells: u64,
    mut gc_left: u64,
    receipts: &mut Vec<(Receipt, Option<u32>)>,
    stats: &mut BlockStats,
) -> Result<(), ExecError> {
    let height = x.env.height;
    let gc_cost = x.env.params.timer.gc_cycles_per_timer.max(1);
    let prices = timer_prices(x)?;
    let mode = timer_mode(x)?;
    let (plan, expired_seen) = plan_timers(x, (budget_cycles, budget_cells), &prices, &mode)?;
    for (id, t) in expired_seen {
        if gc_left < gc_cost {
            break;
        }
        x.world.remove_timer(&id, &t)?;
        gc_left -= gc_cost;
        stats.timers_expired += 1;
    }
    let mut tips = Vec::new();
    let mut lane_used = 0u64;
    for Planned {
        id,
        t,
        cycles,
        bid,
        priority,
    } in plan
    {
        // Pre-charge at the bid: the priority tip extends the maximum (§5.1b keeps §5.1a's
        // mechanics).
        let max_cost = fees::timer_max_cost(
            cycles,
            t.cells_per_fire,
            &Basefees {
                cycle: bid.max_fee_per_cycle,
                cell: prices.cell,
            },
        );
        let payer = x.world.account(&t.fee_payer)?;
        if (payer.balance as u128) < max_cost {
            // Insufficient funds: the timer self-destructs without firing (§5.1a).
            if gc_left < gc_cost {
                break;
            }
            x.world.remove_timer(&id, &t)?;
            gc_left -= gc_cost;
            stats.timers_expired += 1;
            continue;
        }
        x.world.debit(&t.fee_payer, max_cost as u64)?;
        // The timer leaves the queue (or moves to its next firing) before it runs, so the
        // handler sees it as it will be after the block.
        let next = height.saturating_add(t.every);
        if t.every > 0 && t.expires_at.is_none_or(|e| next <= e) {
            x.world.reschedule_timer(&id, &t, next)?;
        } else {
            x.world.remove_timer(&id, &t)?;
        }
        let mut pre = id.0.to_vec();
        pre.extend_from_slice(&height.to_be_bytes());
        let fire_id = keccak256(&pre);
        let mut s = Session::new(
            t.fee_payer,
            bid,
            prices,
            cycles,
            t.cells_per_fire,
            x.env.params.execution.fanout_per_tx,
            fire_id,
        );
        s.spend(intrinsic::TIMER_FIRE_CYCLES, intrinsic::TIMER_FIRE_CELLS);
        let handled = x.process(
            &mut s,
            Pending {
                id: fire_id,
                sender: t.creator,
                to: t.actor,
                method: t.handler.clone(),
                args: t.args.clone(),
                value: 0,
                depth: 0,
            },
        )?;
        x.drain(&mut s)?;
        let fee = x.settle(&s, max_cost, None)?;
        stats.timers_fired += 1;
        lane_used = lane_used.saturating_add(s.cycles_used);
        if matches!(mode, TimerMode::Auction { .. }) {
            x.world.record_fire(&t.actor, height)?;
            tips.push(priority);
        }
        receipts.push((
            Receipt {
                tx_hash: fire_id,
                status: status_of(&handled),
                cycles_used: s.cycles_used,
                cells_used: s.cells_used,
                fee: u64::try_from(fee).map_err(|_| supply_err("fee"))?,
                return_data: match &handled {
                    Handled::Delivered(r) => r.clone(),
                    _ => Vec::new(),
                },
                events: s.events,
                created: None,
                deliveries: s.deliveries,
            },
            None,
        ));
    }
    if let TimerMode::Auction { .. } = mode {
        let cfg = x.env.params.timer.clone();
        let window = cfg.auction_window_blocks;
        if let Some(old) = height.checked_sub(window) {
            x.world.expire_fires(old)?;
        }
        if !tips.is_empty() {
            tips.sort_unstable();
            x.world.set_timer_tip(tips[(tips.len() - 1) / 2]);
        }
        let lane_bf = x.world.timer_basefee(x.env.basefees.cycle)?;
        x.world.set_timer_basefee(fees::next_timer_basefee(
            lane_bf,
            lane_used,
            x.env.params.lanes.timer_cycles,
            &cfg,
            x.env.params.basefee.min_basefee,
        ));
    }
    Ok(())
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

/// A chain: the store plus the rules above.
pub struct Chain {
    store: Store,
    chain_id: u64,
    genesis_hash: Hash,
}

impl Chain {
    /// Opens the store at `path`, writing `genesis` if the store is empty, or checking that
    /// the store belongs to `genesis` if not.
    pub fn open(
        path: &std::path::Path,
        genesis: &crate::Genesis,
    ) -> Result<Self, crate::GenesisError> {
        let store = Store::open(path).map_err(ExecError::from)?;
        let changes = genesis.state()?;
        let block = genesis.block(cowboy_state::tree::root_of(&changes).map_err(ExecError::from)?);
        let expected = block.header.digest();
        let snapshot = store.snapshot().map_err(ExecError::from)?;
        if snapshot.height.is_none() {
            let prepared = store.prepare(&snapshot, changes).map_err(ExecError::from)?;
            drop(snapshot);
            store
                .commit(
                    &prepared,
                    &cowboy_state::BlockRecord {
                        block: &block,
                        hash: expected,
                        receipts: &[],
                    },
                )
                .map_err(ExecError::from)?;
        } else {
            let stored = store
                .block(0)
                .map_err(ExecError::from)?
                .map(|b| b.header.digest())
                .unwrap_or(Hash::ZERO);
            if stored != expected {
                return Err(crate::GenesisError::WrongChain { stored, expected });
            }
        }
        Ok(Self {
            store,
            chain_id: genesis.chain_id,
            genesis_hash: expected,
        })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    pub fn genesis_hash(&self) -> Hash {
        self.genesis_hash
    }

    /// The last committed block's header.
    pub fn head(&self) -> Result<Header, ExecError> {
        let snap = self.store.snapshot()?;
        let height = snap.height.ok_or_else(|| ExecError::Corrupt {
            what: "chain".into(),
            reason: "no genesis".into(),
        })?;
        self.store
            .block(height)?
            .map(|b| b.header)
            .ok_or_else(|| ExecError::Corrupt {
                what: format!("block {height}"),
                reason: "missing".into(),
            })
    }

    /// The governance parameters in force for the next block.
    pub fn params(&self) -> Result<crate::Parameters, ExecError> {
        let snap = self.store.snapshot()?;
        World::new(Overlay::new(&snap)).params()
    }

    /// Builds the next block from `candidates` (already verified).
    pub fn propose(
        &self,
        engine: &mut Engine,
        candidates: Vec<VerifiedTx>,
        proposal: &Proposal,
    ) -> Result<Executed, BlockError> {
        let snapshot = self.store.snapshot()?;
        let parent = self.head()?;
        if proposal.timestamp_ms < parent.timestamp_ms {
            return Err(BlockError::Timestamp {
                parent: parent.timestamp_ms,
                got: proposal.timestamp_ms,
            });
        }
        run(
            engine,
            &snapshot,
            &self.store,
            &parent,
            proposal,
            Txs::Select(candidates),
        )
    }

    /// Replays `block` on the last committed state and checks everything its header claims.
    /// Senders are recovered in parallel; pass `verified` when they already were (a mempool).
    pub fn verify(
        &self,
        engine: &mut Engine,
        block: &Block,
        verified: Option<Vec<VerifiedTx>>,
    ) -> Result<Executed, BlockError> {
        let snapshot = self.store.snapshot()?;
        let parent = self.head()?;
        let h = &block.header;
        if h.height != parent.height + 1 {
            return Err(BlockError::Height {
                expected: parent.height + 1,
                got: h.height,
            });
        }
        if h.parent != parent.digest() {
            return Err(BlockError::Parent {
                expected: parent.digest(),
                got: h.parent,
            });
        }
        if h.timestamp_ms < parent.timestamp_ms {
            return Err(BlockError::Timestamp {
                parent: parent.timestamp_ms,
                got: h.timestamp_ms,
            });
        }
        let world = World::new(Overlay::new(&snapshot));
        let basefees = world.basefees()?;
        if (h.cycle_basefee, h.cell_basefee) != (basefees.cycle, basefees.cell) {
            return Err(BlockError::Basefees {
                cycle: basefees.cycle,
                cell: basefees.cell,
                got_cycle: h.cycle_basefee,
                got_cell: h.cell_basefee,
            });
        }
        if block.transactions.len() > MAX_BLOCK_TRANSACTIONS {
            return Err(BlockError::TooManyTransactions {
                count: block.transactions.len(),
                max: MAX_BLOCK_TRANSACTIONS,
            });
        }
        let params = world.params()?;
        drop(world);
        let proposal = Proposal {
            round: h.round,
            timestamp_ms: h.timestamp_ms,
            proposer: h.proposer,
            beacon: h.beacon,
        };
        let executed = match verified {
            Some(v)
                if v.len() == block.transactions.len()
                    && v.iter().zip(&block.transactions).all(|(a, b)| &a.tx == b) =>
            {
                run(
                    engine,
                    &snapshot,
                    &self.store,
                    &parent,
                    &proposal,
                    Txs::Given(v),
                )?
            }
            _ => tx::verify_streaming(&block.transactions, self.chain_id, &params, |rec| {
                run(
                    engine,
                    &snapshot,
                    &self.store,
                    &parent,
                    &proposal,
                    Txs::Streamed(&block.transactions, rec),
                )
            })?,
        };
        let got = &executed.block.header;
        for (field, expected, claimed) in [
            ("state_root", got.state_root, h.state_root),
            ("tx_root", got.tx_root, h.tx_root),
            ("receipts_root", got.receipts_root, h.receipts_root),
        ] {
            if expected != claimed {
                return Err(BlockError::Root {
                    field,
                    expected,
                    got: claimed,
                });
            }
        }
        Ok(executed)
    }

    /// Makes an executed block durable (one write transaction).
    pub fn commit(&self, executed: &Executed) -> Result<(), ExecError> {
        self.store.commit(
            &executed.prepared,
            &cowboy_state::BlockRecord {
                block: &executed.block,
                hash: executed.hash,
                receipts: &executed.receipts,
            },
        )?;
        Ok(())
    }
}
