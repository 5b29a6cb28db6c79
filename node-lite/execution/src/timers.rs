//! Timers, the third phase of a block (whitepaper §5.1a, and §5.1b when the timer auction is
//! active): TTL expiries within their own GC budget, then due timers within the timer lane's
//! reservation — in FIFO order, or by tip × fairness weight in the auction — each pre-charged
//! to its fee payer and refunded what it did not use.

use crate::{
    ExecError,
    block::{BlockStats, session_receipt},
    exec::{Executor, Pending, Session},
    fees::{self, Basefees, Bid},
    intrinsic,
    world::World,
};
use cowboy_types::{Hash, Receipt, TimerRecord, keccak256, state::key};

/// Most due-queue entries looked at per block (Cowboy decision; the timer lane holds at most
/// 1,777 firings).
pub const MAX_TIMER_SCAN: usize = 4_096;

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
pub(crate) fn timer_reservation(x: &Executor<'_, '_>) -> Result<(u64, u64), ExecError> {
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
pub(crate) fn run_timer_gc(
    x: &mut Executor<'_, '_>,
    stats: &mut BlockStats,
) -> Result<u64, ExecError> {
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
pub(crate) fn run_timers(
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
        receipts.push((session_receipt(x, fire_id, &handled, s, fee, None)?, None));
        x.firings.push((id, fire_id));
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
