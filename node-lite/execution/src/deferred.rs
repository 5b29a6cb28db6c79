//! Deferred deliveries, the first phase of a block: messages that waited in mailboxes because
//! their recipient had used its per-block cycle budget, delivered oldest first within the
//! system lane, each paid from the budget its origin left in escrow (`origin_remaining_*`,
//! whitepaper §2.1).

use crate::{
    ExecError,
    block::{BlockStats, session_receipt},
    exec::{Executor, Handled, Pending, Session},
    fees::Bid,
};
use cowboy_types::{MailboxMessage, Receipt, codec::decode_strict, receipt::failure, state::key};

/// Most mailbox entries looked at per block (Cowboy decision): bounds the deferred phase's work
/// when many waiting messages belong to actors still over their per-block budget.
pub const MAX_MAILBOX_SCAN: usize = 4_096;

/// Phase 1: messages waiting in mailboxes, oldest first, within the system lane.
pub(crate) fn run_deferred(
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
            receipts.push((session_receipt(x, id, &handled, s, fee, None)?, None));
        }
    }
    Ok((cycles, cells))
}
