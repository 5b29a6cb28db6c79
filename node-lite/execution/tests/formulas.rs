//! Every fee formula against values computed by hand from the spec: the §2.3 fee and refund,
//! the §6.4 ordering fee, the §4 basefee update (up, down, capped, floor, minimum step), lane
//! spill (§17.9), the §5.1a timer pre-charge and refund, and the §8.2 block reward.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_execution::{
    fees::{self, Basefees, Bid},
    lanes::{Reserved, user_room},
    params::{InflationConfig, Parameters},
};

const BID: Bid = Bid {
    max_fee_per_cycle: 12_000,
    max_fee_per_cell: 10_500,
    max_priority_fee_per_cycle: 5_000,
    max_priority_fee_per_cell: 100,
};
const BASE: Basefees = Basefees {
    cycle: 10_000,
    cell: 10_000,
};

#[test]
fn fee_is_used_times_basefee_plus_capped_tip() {
    // per cycle: 10,000 + min(5,000, 12,000 − 10,000) = 12,000
    // per cell:  10,000 + min(100, 10,500 − 10,000)   = 10,100
    let c = fees::fee(50_000, 1_000, &BID, &BASE);
    assert_eq!(c.total(), 50_000 * 12_000 + 1_000 * 10_100); // 610,100,000
    assert_eq!(c.burn, 50_000 * 10_000 + 1_000 * 10_000); // 510,000,000
    assert_eq!(c.tip, 50_000 * 2_000 + 1_000 * 100); // 100,100,000
}

#[test]
fn a_bid_at_the_basefee_pays_no_tip() {
    let bid = Bid {
        max_fee_per_cycle: 10_000,
        max_fee_per_cell: 10_000,
        max_priority_fee_per_cycle: 7,
        max_priority_fee_per_cell: 7,
    };
    let c = fees::fee(21_000, 0, &bid, &BASE);
    assert_eq!((c.burn, c.tip), (210_000_000, 0));
}

#[test]
fn refund_returns_unused_limits_at_the_max_fee() {
    // Limits 100,000 cycles / 2,000 cells are held at max fees: 1,200,000,000 + 21,000,000.
    let held = fees::worst_case(100_000, 2_000, &BID);
    assert_eq!(held, 1_221_000_000);
    let fee = fees::fee(50_000, 1_000, &BID, &BASE).total();
    // Unused at max fee: 50,000 × 12,000 + 1,000 × 10,500 = 610,500,000; used cells were
    // charged 400 below their max: 1,000 × 400 = 400,000.
    assert_eq!(held - fee, 610_500_000 + 400_000);
}

#[test]
fn ordering_fee_uses_intrinsic_costs_only() {
    // A transfer: 21,000 × min(12,000, 10,000 + 5,000) = 252,000,000.
    assert_eq!(fees::effective_fee((21_000, 0), &BID, &BASE), 252_000_000);
    // A message with 100 bytes of calldata: + 100 × min(10,500, 10,100).
    assert_eq!(
        fees::effective_fee((21_000, 100), &BID, &BASE),
        252_000_000 + 1_010_000
    );
}

#[test]
fn basefee_moves_by_at_most_one_ninety_sixth() {
    let cfg = Parameters::spec().basefee;
    let t = cfg.cycles_target; // 20,000,000
    let b = 1_000_000;
    // At target: unchanged.
    assert_eq!(fees::next_basefee(b, t, t, &cfg), b);
    // Twice the target: (U − T)/(T·96) = 1/96 → +10,416.
    assert_eq!(fees::next_basefee(b, 2 * t, t, &cfg), 1_010_416);
    // Four times: 3/96, clamped to 1/96.
    assert_eq!(fees::next_basefee(b, 4 * t, t, &cfg), 1_010_416);
    // 1.5×: 1/192 → +5,208.
    assert_eq!(fees::next_basefee(b, 30_000_000, t, &cfg), 1_005_208);
    // Empty block: −1/96 → −10,416.
    assert_eq!(fees::next_basefee(b, 0, t, &cfg), 989_584);
    // Half the target: −1/192 → −5,208.
    assert_eq!(fees::next_basefee(b, 10_000_000, t, &cfg), 994_792);
}

#[test]
fn basefee_never_drops_below_the_floor_and_always_rises_above_target() {
    let cfg = Parameters::spec().basefee;
    let t = cfg.cycles_target;
    assert_eq!(fees::next_basefee(10_000, 0, t, &cfg), 10_000);
    assert_eq!(fees::next_basefee(10_050, 0, t, &cfg), 10_000);
    // One cycle over target rounds to a zero step; EIP-1559 rises by at least one.
    assert_eq!(fees::next_basefee(10_000, t + 1, t, &cfg), 10_001);
    // Cells use their own target.
    assert_eq!(
        fees::next_basefee(1_000_000, 8_000_000, cfg.cells_target, &cfg),
        1_010_416
    );
}

#[test]
fn lane_basefee_applies_the_multiplier() {
    assert_eq!(fees::lane_basefee(10_000, 10_000), 10_000);
    assert_eq!(fees::lane_basefee(10_000, 15_000), 15_000);
    assert_eq!(fees::lane_basefee(10_001, 5_000), 5_000);
}

#[test]
fn unused_reserved_lanes_spill_to_the_user_lane() {
    let lanes = Parameters::spec().lanes;
    // Nothing reserved: the whole 80,000,000-cycle block.
    assert_eq!(
        user_room(&lanes, &Reserved::default()),
        (80_000_000, 16_000_000)
    );
    // Deferred deliveries used 3,000,000 of the system lane; due timers reserve 1,000,000 of
    // the timer lane: 22,222,222 + 37,000,000 + 8,888,888 + 7,888,890.
    let r = Reserved {
        deferred_cycles: 3_000_000,
        deferred_cells: 10_000,
        timer_cycles: 1_000_000,
        timer_cells: 20_000,
        runner_cycles: 0,
    };
    assert_eq!(user_room(&lanes, &r), (76_000_000, 15_970_000));
    // A full timer lane spills nothing, and the user lane cannot borrow it.
    let full = Reserved {
        timer_cycles: 8_888_890,
        ..Reserved::default()
    };
    assert_eq!(user_room(&lanes, &full).0, 80_000_000 - 8_888_890);
}

#[test]
fn a_timer_precharges_its_budget_and_gets_back_the_unused_part() {
    let prices = Basefees {
        cycle: 10_000,
        cell: 12_000,
    };
    // 100,000 cycles and 1,000 cells per fire: 1,000,000,000 + 12,000,000 held.
    let held = fees::timer_max_cost(100_000, 1_000, &prices);
    assert_eq!(held, 1_012_000_000);
    // The firing used 30,000 cycles and 200 cells, at the basefee (no tip in §5.1a).
    let bid = Bid {
        max_fee_per_cycle: prices.cycle,
        max_fee_per_cell: prices.cell,
        max_priority_fee_per_cycle: 0,
        max_priority_fee_per_cell: 0,
    };
    let fee = fees::fee(30_000, 200, &bid, &prices);
    assert_eq!((fee.burn, fee.tip), (300_000_000 + 2_400_000, 0));
    assert_eq!(held - fee.total(), 709_600_000);
}

#[test]
fn rewards_follow_the_inflation_schedule() {
    let cfg = InflationConfig::default();
    let supply: u64 = 1_000_000_000 * 1_000_000_000; // 10^9 CBY in base units
    // Year 1: 8% / 31,536,000 blocks = 2,536,783,358.7… base units per block.
    assert_eq!(fees::block_reward(1, supply, &cfg), 2_536_783_358);
    assert_eq!(fees::block_reward(31_536_000, supply, &cfg), 2_536_783_358);
    // Year 2 starts at height 31,536,001: 6%.
    assert_eq!(fees::block_reward(31_536_001, supply, &cfg), 1_902_587_519);
    // Year 3: 4%; year 4: 3%; year 5 and later: the 2% floor.
    assert_eq!(
        fees::block_reward(2 * 31_536_000 + 1, supply, &cfg),
        1_268_391_679
    );
    assert_eq!(
        fees::block_reward(3 * 31_536_000 + 1, supply, &cfg),
        951_293_759
    );
    assert_eq!(
        fees::block_reward(4 * 31_536_000 + 1, supply, &cfg),
        634_195_839
    );
    assert_eq!(
        fees::block_reward(40 * 31_536_000, supply, &cfg),
        634_195_839
    );
    // Genesis mints nothing.
    assert_eq!(fees::block_reward(0, supply, &cfg), 0);
}

#[test]
fn rewards_split_pro_rata_to_stake() {
    assert_eq!(fees::split_pro_rata(100, &[3, 1]), vec![75, 25]);
    // Remainders are not minted.
    assert_eq!(fees::split_pro_rata(1_000, &[1, 1, 1]), vec![333, 333, 333]);
    assert_eq!(fees::split_pro_rata(1_000, &[]), Vec::<u64>::new());
    assert_eq!(fees::split_pro_rata(1_000, &[0, 0]), vec![0, 0]);
}
