//! Fee arithmetic: the §2.3 fee and refund, the §6.4 ordering fee, the §4 dual basefee update
//! and the §8.2 inflation reward. Pure functions on integers, so every node computes the same
//! base unit; all intermediate products are `u128`.

use crate::params::{BPS, BasefeeConfig, InflationConfig};

/// What a payer offered per cycle and per cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bid {
    pub max_fee_per_cycle: u64,
    pub max_fee_per_cell: u64,
    pub max_priority_fee_per_cycle: u64,
    pub max_priority_fee_per_cell: u64,
}

/// The basefees a lane charges (`lane_basefee = basefee × multiplier`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Basefees {
    pub cycle: u64,
    pub cell: u64,
}

/// A fee, split into what is burned and what the proposer receives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Charge {
    pub burn: u128,
    pub tip: u128,
}

impl Charge {
    pub fn total(&self) -> u128 {
        self.burn + self.tip
    }
}

/// `min(max_priority, max_fee − basefee)`: the tip per unit (0 when the bid is below the
/// basefee, which validity rules out for anything that executes).
pub fn tip_per_unit(max_fee: u64, max_priority: u64, basefee: u64) -> u64 {
    max_priority.min(max_fee.saturating_sub(basefee))
}

/// The §2.3 fee for `cycles` and `cells` used:
/// `cycles × (bc + min(tip_c, max_c − bc)) + cells × (bb + min(tip_b, max_b − bb))`.
pub fn fee(cycles: u64, cells: u64, bid: &Bid, basefees: &Basefees) -> Charge {
    let tip_c = tip_per_unit(
        bid.max_fee_per_cycle,
        bid.max_priority_fee_per_cycle,
        basefees.cycle,
    );
    let tip_b = tip_per_unit(
        bid.max_fee_per_cell,
        bid.max_priority_fee_per_cell,
        basefees.cell,
    );
    Charge {
        burn: cycles as u128 * basefees.cycle as u128 + cells as u128 * basefees.cell as u128,
        tip: cycles as u128 * tip_c as u128 + cells as u128 * tip_b as u128,
    }
}

/// The most a transaction can cost: its limits at its `max_fee_*` rates (what is held at the
/// start; §2.3 refunds the unused part at these rates).
pub fn worst_case(cycles_limit: u64, cells_limit: u64, bid: &Bid) -> u128 {
    cycles_limit as u128 * bid.max_fee_per_cycle as u128
        + cells_limit as u128 * bid.max_fee_per_cell as u128
}

/// A timer firing's pre-charge (§5.1a): `cycles_per_fire × cycle_basefee + cells_per_fire ×
/// cell_basefee` at the timer lane's basefees; the unused part is refunded after the firing.
pub fn timer_max_cost(cycles_per_fire: u64, cells_per_fire: u64, prices: &Basefees) -> u128 {
    cycles_per_fire as u128 * prices.cycle as u128 + cells_per_fire as u128 * prices.cell as u128
}

/// The §6.4 ordering fee, from intrinsic costs only:
/// `intrinsic_cycles × min(max_c, bc + tip_c) + intrinsic_cells × min(max_b, bb + tip_b)`.
pub fn effective_fee(intrinsic: (u64, u64), bid: &Bid, basefees: &Basefees) -> u128 {
    let per_cycle = bid.max_fee_per_cycle.min(
        basefees
            .cycle
            .saturating_add(bid.max_priority_fee_per_cycle),
    );
    let per_cell = bid
        .max_fee_per_cell
        .min(basefees.cell.saturating_add(bid.max_priority_fee_per_cell));
    intrinsic.0 as u128 * per_cycle as u128 + intrinsic.1 as u128 * per_cell as u128
}

/// `basefee × multiplier` (multiplier in bps), rounded down, never below 1.
pub fn lane_basefee(basefee: u64, multiplier_bps: u64) -> u64 {
    let v = basefee as u128 * multiplier_bps as u128 / BPS as u128;
    v.clamp(1, u64::MAX as u128) as u64
}

/// The §4 basefee update for one meter:
/// `max(MIN_BASEFEE, basefee × (1 + clamp((U − T)/(T·α), −1/d, +1/d)))`, with integer
/// arithmetic rounded towards zero, and (as EIP-1559) an increase of at least 1 whenever usage
/// is above target.
pub fn next_basefee(basefee: u64, used: u64, target: u64, cfg: &BasefeeConfig) -> u64 {
    let b = basefee as u128;
    let t = target.max(1) as u128;
    let alpha = cfg.alpha.max(1) as u128;
    let cap = b / cfg.max_change_denominator.max(1) as u128;
    let next = if used as u128 > t {
        let delta = (b * (used as u128 - t) / (t * alpha)).min(cap).max(1);
        b.saturating_add(delta)
    } else {
        let delta = (b * (t - used as u128) / (t * alpha)).min(cap);
        b - delta
    };
    next.clamp(cfg.min_basefee as u128, u64::MAX as u128) as u64
}

/// The gross inflation rate (bps) in force at `height` (§8.2: 8% / 6% / 4% / 3%, then 2%).
/// Year 1 is heights `1..=blocks_per_year`.
pub fn inflation_bps(height: u64, cfg: &InflationConfig) -> u64 {
    match inflation_year(height, cfg) {
        0 => cfg.year1_bps,
        1 => cfg.year2_bps,
        2 => cfg.year3_bps,
        3 => cfg.year4_bps,
        _ => cfg.floor_bps,
    }
}

/// Zero-based inflation year of `height` (genesis, height 0, counts as year 0).
pub fn inflation_year(height: u64, cfg: &InflationConfig) -> u64 {
    height.saturating_sub(1) / cfg.blocks_per_year.max(1)
}

/// Base units minted at `height`: the year's rate applied to the supply at the start of the
/// year, spread evenly over the year's blocks (rounded down).
pub fn block_reward(height: u64, year_start_supply: u64, cfg: &InflationConfig) -> u64 {
    if height == 0 {
        return 0;
    }
    let r = year_start_supply as u128 * inflation_bps(height, cfg) as u128
        / BPS as u128
        / cfg.blocks_per_year.max(1) as u128;
    r.min(u64::MAX as u128) as u64
}

/// Splits `reward` pro rata to `stakes` (rounded down; the remainder is not minted).
pub fn split_pro_rata(reward: u64, stakes: &[u64]) -> Vec<u64> {
    let total: u128 = stakes.iter().map(|s| *s as u128).sum();
    if total == 0 {
        return vec![0; stakes.len()];
    }
    stakes
        .iter()
        .map(|s| (reward as u128 * *s as u128 / total) as u64)
        .collect()
}

/// The §5.1b fairness weight `W(actor) ∈ [1, 2]`, in bps (10,000 = 1): 2 at or below the
/// median firing count of the window, 1 at twice the median or above, linear in between.
pub fn fairness_weight_bps(fires: u64, median: u64) -> u64 {
    if median == 0 || fires <= median {
        return 2 * BPS;
    }
    if fires >= median.saturating_mul(2) {
        return BPS;
    }
    2 * BPS - (BPS as u128 * (fires - median) as u128 / median as u128) as u64
}

/// The §5.1b timer-lane basefee update: EIP-1559 against a utilisation target of
/// `auction_target_bps` of the lane, changing by at most `auction_max_change_bps` per block
/// (12.5%), never below `MIN_BASEFEE`.
pub fn next_timer_basefee(
    basefee: u64,
    used: u64,
    lane: u64,
    cfg: &crate::params::TimerConfig,
    min_basefee: u64,
) -> u64 {
    let b = basefee as u128;
    let target = (lane as u128 * cfg.auction_target_bps as u128 / BPS as u128).max(1);
    let max_change = cfg.auction_max_change_bps as u128;
    let used = used as u128;
    let next = if used > target {
        let delta = (b * (used - target) * max_change / (target * BPS as u128))
            .min(b * max_change / BPS as u128)
            .max(1);
        b.saturating_add(delta)
    } else {
        let delta = (b * (target - used) * max_change / (target * BPS as u128))
            .min(b * max_change / BPS as u128);
        b - delta
    };
    next.clamp(min_basefee as u128, u64::MAX as u128) as u64
}
