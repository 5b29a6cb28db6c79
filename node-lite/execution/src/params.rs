//! Governance parameters: their genesis defaults (each cites the spec section that fixes it),
//! their JSON form in a genesis file, and their canonical encoding in state.
//!
//! Parameters live in the storage of the Governance system actor (`0x…09`) under the keys of
//! whitepaper §13.1 (`system:basefee_config`, `system:timer_config`, …); groups the registry does
//! not name are stored as generic registered parameters under `system:gov:param:<group>`
//! (CIP-12 row of §13.1). Execution reads them from state at the start of every block, so a
//! governance change takes effect from the next block.

use crate::error::GenesisError;
use bytes::BufMut;
use commonware_codec::{Buf, EncodeSize, Error as CodecError, Read, Write};
use cowboy_types::{
    Address, Hash,
    codec::{decode_strict, encode_to_vec, read_varint, varint_size, write_varint},
};

/// The Governance system actor (whitepaper §9: `0x09`).
pub const GOVERNANCE: Address = Address::system(0x09);
/// The Dual Basefee system actor, which holds the basefees (whitepaper §9: `0x06`).
pub const BASEFEE_ACTOR: Address = Address::system(0x06);
pub use cowboy_types::units::BASE_UNITS_PER_CBY;
/// The runner stake floor of devnets and local runs (Cowboy decision).
pub const DEVNET_RUNNER_STAKE_FLOOR: u64 = 100 * BASE_UNITS_PER_CBY;
/// 100% in basis points.
pub const BPS: u64 = 10_000;

/// The spec's cycle budgets (whitepaper §17.9 lanes, §4.2 target, §5.1a per-fire cap): where the
/// chain grows to as the PVM gets faster. The default genesis scales them down (below).
pub mod spec {
    pub const SYSTEM_CYCLES: u64 = 40_000_000;
    pub const USER_CYCLES: u64 = 22_222_222;
    pub const RUNNER_CYCLES: u64 = 8_888_888;
    pub const TIMER_CYCLES: u64 = 8_888_890;
    /// The block cycle cap: the four lanes together.
    pub const BLOCK_CYCLES: u64 = SYSTEM_CYCLES + USER_CYCLES + RUNNER_CYCLES + TIMER_CYCLES;
    /// `T_c`.
    pub const CYCLES_TARGET: u64 = 20_000_000;
    /// `max_cycles_per_fire`.
    pub const MAX_CYCLES_PER_FIRE: u64 = 550_000;
}

/// The execution-budget factor of the default genesis, in parts per million of the [`spec`]
/// cycle budgets, per second of block time (spec README, "Execution budget": a full block of
/// the slowest operation must execute in at most half the block time on the reference 2-core
/// machine).
///
/// Measured with `cargo bench -p cowboy-pvm --bench cycle_price`: after native operations were
/// priced to be no slower per cycle than the plain loop, the slowest workload (creating class
/// instances, ~86 ns per cycle; the loop ~45–58 ns) lets a 1-second block hold 5.8–7.3% of
/// the spec's 80,000,000 cycles in 500 ms; 5% keeps a margin for a busy machine. The lanes and
/// the basefee target are scaled by it (and the per-fire timer cap follows the timer lane); the
/// performance work raises it back toward 100%.
pub const BUDGET_SCALE_PPM_PER_SECOND: u64 = 50_000;

/// The default block time the default genesis is sized for (whitepaper §6.1: 1 second).
pub const DEFAULT_BLOCK_TIME_MS: u64 = 1_000;

/// `spec × ppm / 1,000,000`.
pub const fn scaled(spec: u64, ppm: u64) -> u64 {
    ((spec as u128 * ppm as u128) / 1_000_000) as u64
}

const fn min(a: u64, b: u64) -> u64 {
    if a < b { a } else { b }
}

/// The factor, in ppm, for a block time of `block_time_ms` (at most the spec itself).
pub const fn budget_scale_ppm(block_time_ms: u64) -> u64 {
    min(
        BUDGET_SCALE_PPM_PER_SECOND * block_time_ms / 1_000,
        1_000_000,
    )
}

const DEFAULT_SCALE: u64 = budget_scale_ppm(DEFAULT_BLOCK_TIME_MS);

/// One field of a parameter group: how it is encoded in state.
trait Field: Sized {
    fn put(&self, buf: &mut impl BufMut);
    fn size(&self) -> usize;
    fn get(buf: &mut impl Buf, name: &'static str) -> Result<Self, CodecError>;
}

impl Field for u64 {
    fn put(&self, buf: &mut impl BufMut) {
        write_varint(*self, buf);
    }
    fn size(&self) -> usize {
        varint_size(*self)
    }
    fn get(buf: &mut impl Buf, name: &'static str) -> Result<Self, CodecError> {
        read_varint(buf, name)
    }
}

impl Field for bool {
    fn put(&self, buf: &mut impl BufMut) {
        buf.put_u8(u8::from(*self));
    }
    fn size(&self) -> usize {
        1
    }
    fn get(buf: &mut impl Buf, name: &'static str) -> Result<Self, CodecError> {
        cowboy_types::codec::read_tag(buf, name)
    }
}

impl Field for Option<Hash> {
    fn put(&self, buf: &mut impl BufMut) {
        match self {
            Some(h) => {
                buf.put_u8(1);
                h.write(buf);
            }
            None => buf.put_u8(0),
        }
    }
    fn size(&self) -> usize {
        1 + self.map_or(0, |_| Hash::LEN)
    }
    fn get(buf: &mut impl Buf, name: &'static str) -> Result<Self, CodecError> {
        Ok(if cowboy_types::codec::read_tag(buf, name)? {
            Some(cowboy_types::codec::read_plain(buf, name)?)
        } else {
            None
        })
    }
}

/// Declares a parameter group: the struct, its defaults, its JSON form (every field optional,
/// unknown fields refused) and its canonical encoding (fields in declaration order).
macro_rules! group {
    (
        $(#[$doc:meta])*
        $name:ident {
            $( $(#[$fdoc:meta])* $field:ident : $ty:ty = $default:expr ),* $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            $( $(#[$fdoc])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $( $field: $default, )* }
            }
        }

        impl Write for $name {
            fn write(&self, buf: &mut impl BufMut) {
                $( Field::put(&self.$field, buf); )*
            }
        }

        impl EncodeSize for $name {
            fn encode_size(&self) -> usize {
                0 $( + Field::size(&self.$field) )*
            }
        }

        impl Read for $name {
            type Cfg = ();
            fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
                Ok(Self { $( $field: <$ty as Field>::get(buf, stringify!($field))?, )* })
            }
        }
    };
}

group! {
    /// Runner settlement split (CIP-2; whitepaper §8.4: 89% / 10% / 1%).
    SettlementConfig {
        runner_bps: u64 = 8_900,
        burn_bps: u64 = 1_000,
        treasury_bps: u64 = 100,
    }
}

group! {
    /// Dual basefee (whitepaper §4 and §17.8).
    BasefeeConfig {
        /// `T_c`: cycles per block the basefee steers towards (§4.2: 20,000,000, scaled by
        /// the execution-budget factor).
        cycles_target: u64 = scaled(spec::CYCLES_TARGET, DEFAULT_SCALE),
        /// `T_b`: cells per block (4,000,000).
        cells_target: u64 = 4_000_000,
        /// `alpha` (96, calibrated for 1-second blocks).
        alpha: u64 = 96,
        /// Per-block change is capped at ±1/`max_change_denominator` (96).
        max_change_denominator: u64 = 96,
        /// `MIN_BASEFEE` (10,000).
        min_basefee: u64 = 10_000,
    }
}

group! {
    /// Per-lane fee multipliers in basis points (whitepaper §6.3, §17.9: all 1.0× at genesis).
    LaneFeeMultipliers {
        system_bps: u64 = BPS,
        timer_bps: u64 = BPS,
        runner_bps: u64 = BPS,
        user_bps: u64 = BPS,
    }
}

group! {
    /// Lane cycle budgets (whitepaper §17.9, scaled by the execution-budget factor; the
    /// percentages of §13 are stale) and the block's cell cap (Cowboy decision: 4 × `T_b`,
    /// mirroring the cycle cap of 4 × `T_c`, §4.2).
    LaneBudgets {
        system_cycles: u64 = scaled(spec::SYSTEM_CYCLES, DEFAULT_SCALE),
        user_cycles: u64 = scaled(spec::USER_CYCLES, DEFAULT_SCALE),
        runner_cycles: u64 = scaled(spec::RUNNER_CYCLES, DEFAULT_SCALE),
        timer_cycles: u64 = scaled(spec::TIMER_CYCLES, DEFAULT_SCALE),
        block_cells: u64 = 16_000_000,
    }
}

group! {
    /// Timers (whitepaper §5.1a; §5.1b behind `auction_enabled`).
    TimerConfig {
        /// `max_timers_per_actor` (1,024).
        max_timers_per_actor: u64 = 1_024,
        /// `max_cycles_per_fire` (550,000, or the whole timer lane when that is smaller).
        max_cycles_per_fire: u64 = min(
            spec::MAX_CYCLES_PER_FIRE,
            scaled(spec::TIMER_CYCLES, DEFAULT_SCALE),
        ),
        /// `max_cells_per_fire` (550,000).
        max_cells_per_fire: u64 = 550_000,
        /// Non-refundable scheduling cost per timer (200 cycles).
        scheduling_cost_cycles: u64 = 200,
        /// `TIMER_GC_CYCLES`: the cleanup lane for TTL expiries and self-destructs (Cowboy
        /// decision: 1,000,000 cycles, 1,000 removals per block).
        gc_cycles: u64 = 1_000_000,
        /// Cycles one removal costs against `gc_cycles` (Cowboy decision).
        gc_cycles_per_timer: u64 = 1_000,
        /// §5.1b timer-lane EIP-1559 mode (Tier-3 activation; off at genesis).
        auction_enabled: bool = false,
        /// §5.1b lane utilisation target, in bps of the timer lane (50%).
        auction_target_bps: u64 = 5_000,
        /// §5.1b maximum lane-basefee change per block, in bps (12.5%).
        auction_max_change_bps: u64 = 1_250,
        /// §5.1b per-timer cycle cap during the auction phase (250,000).
        auction_max_cycles_per_fire: u64 = 250_000,
        /// §5.1b fairness window, in blocks (1,000).
        auction_window_blocks: u64 = 1_000,
    }
}

group! {
    /// Execution limits (whitepaper §3, §12.1, §13 "Execution").
    ExecutionConfig {
        /// `max_tx_size` (128 KiB).
        max_tx_size: u64 = 131_072,
        /// `max_message_depth_per_tx` / `reentrancy_depth` (32).
        max_message_depth: u64 = 32,
        /// `fanout_per_tx` (1,024).
        fanout_per_tx: u64 = 1_024,
        /// `mailbox_capacity_bytes` (1,000,000).
        mailbox_capacity_bytes: u64 = 1_000_000,
        /// `per_actor_per_block_cycles` (1,000,000, burstable: a call may start below it and
        /// end above it; once above, further messages wait in the mailbox for a later block).
        per_actor_per_block_cycles: u64 = 1_000_000,
        /// `dedup_window` in blocks (10,000).
        dedup_window: u64 = 10_000,
        /// `storage_quota_per_actor` (1 MiB).
        storage_quota_bytes: u64 = 1_048_576,
        /// Largest quota a storage bond can buy (8 MiB, whitepaper §3).
        max_storage_quota_bytes: u64 = 8_388_608,
        /// Bond per byte above the default quota (Cowboy decision: 10^5 base units, so the
        /// full 7 MiB extension locks about 734 CBY).
        storage_bond_per_byte: u64 = 100_000,
    }
}

group! {
    /// Inflation (whitepaper §8.2): gross yearly rates in bps for years 1–4, then the floor.
    InflationConfig {
        year1_bps: u64 = 800,
        year2_bps: u64 = 600,
        year3_bps: u64 = 400,
        year4_bps: u64 = 300,
        floor_bps: u64 = 200,
        /// Blocks per year at the 1-second block time of §6.1 (365 × 86,400).
        blocks_per_year: u64 = 31_536_000,
    }
}

group! {
    /// Consensus (whitepaper §13 "Consensus"; durations in 1-second blocks).
    ConsensusConfig {
        epoch_length: u64 = 3_600,
        /// `minimum_validator_stake` is governance-tunable with no stated default (Cowboy
        /// decision: 10,000 CBY, the runner stake floor).
        minimum_validator_stake: u64 = 10_000 * BASE_UNITS_PER_CBY,
        unbonding_period_blocks: u64 = 604_800,
        jail_period_blocks: u64 = 86_400,
        double_sign_slash_bps: u64 = 100,
    }
}

group! {
    /// Runner marketplace amounts and windows (whitepaper §5, §13 "Off-chain").
    RunnerConfig {
        runner_stake_floor: u64 = 10_000 * BASE_UNITS_PER_CBY,
        challenge_bond: u64 = 100 * BASE_UNITS_PER_CBY,
        /// 15 minutes of 1-second blocks.
        challenge_window_blocks: u64 = 900,
        dispute_window_blocks: u64 = 75,
        model_deposit: u64 = 1_000 * BASE_UNITS_PER_CBY,
        /// A runner without a heartbeat for longer than this is not healthy and is never
        /// selected (CIP-2 §4 filter 1; the length is a Cowboy decision: 10 minutes).
        heartbeat_timeout_blocks: u64 = 600,
        /// Blocks between a stake withdrawal (or an exit) and its payout, during which the
        /// stake stays slashable (Cowboy decision: the validators' 7 days, §13 "Consensus").
        unbonding_blocks: u64 = 604_800,
    }
}

group! {
    /// State rent (CIP-4; whitepaper §13 "State Rent", §17.5).
    RentConfig {
        /// 0.001 CBY per byte per year, in base units.
        rent_rate_per_byte_year: u64 = BASE_UNITS_PER_CBY / 1_000,
        rent_catchup_bps: u64 = 1_000,
        grace_threshold_bytes: u64 = 10_240,
        grace_period_epochs: u64 = 7,
        warning_period_epochs: u64 = 3,
        eviction_threshold_epochs: u64 = 10,
        rent_epoch_length: u64 = 86_400,
        reserve_multiplier_bps: u64 = 1_000,
    }
}

group! {
    /// Runner reputation (CIP-2).
    ReputationConfig {
        half_life_blocks: u64 = 1_209_600,
        aggregator_eligibility_percentile: u64 = 50,
    }
}

group! {
    /// Aggregator bonus (CIP-2: 150 bps of gross, from the runner share).
    AggregatorConfig {
        aggregator_bonus_bps: u64 = 150,
        /// Blocks after the last commit in which only the aggregator may reveal; members may
        /// reveal their own results for as long again (CIP-2 §8 `aggregator_timeout`; the
        /// length is a Cowboy decision).
        aggregator_timeout_blocks: u64 = 10,
    }
}

group! {
    /// Slashed-stake distribution (CIP-2 / §8.4: 100% burned at genesis).
    SlashDistribution {
        burn_bps: u64 = 10_000,
        submitter_bps: u64 = 0,
        treasury_bps: u64 = 0,
    }
}

group! {
    /// Non-reveal slash (CIP-2: 25% of effective stake).
    NonRevealConfig {
        non_reveal_slash_bps: u64 = 2_500,
    }
}

group! {
    /// Committee sizing (CIP-2: static fallback M = 5, N = 3).
    CommitteeConfig {
        m: u64 = 5,
        n: u64 = 3,
        /// `K`: a committee bound in round `r` is drawn from the beacon of round `r + K` or
        /// later (spec README "Selection seed": default 2).
        round_delay: u64 = 2,
    }
}

group! {
    /// Semantic-similarity embedding model (CIP-2: governance-set, none at genesis).
    EmbeddingModel {
        model_id: Option<Hash> = None,
    }
}

/// Every governance parameter.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Parameters {
    pub settlement: SettlementConfig,
    pub basefee: BasefeeConfig,
    pub lane_fee_multipliers: LaneFeeMultipliers,
    pub lanes: LaneBudgets,
    pub timer: TimerConfig,
    pub execution: ExecutionConfig,
    pub inflation: InflationConfig,
    pub consensus: ConsensusConfig,
    pub runner: RunnerConfig,
    pub rent: RentConfig,
    pub reputation: ReputationConfig,
    pub aggregator: AggregatorConfig,
    pub slash_distribution: SlashDistribution,
    pub non_reveal: NonRevealConfig,
    pub committee: CommitteeConfig,
    pub semantic_similarity_embedding_model: EmbeddingModel,
}

/// The 0x09 storage key of each group (whitepaper §13.1).
pub mod keys {
    pub const SETTLEMENT: &str = "system:settlement_config";
    pub const BASEFEE: &str = "system:basefee_config";
    pub const LANE_FEE_MULTIPLIERS: &str = "system:lane_fee_multipliers";
    pub const TIMER: &str = "system:timer_config";
    pub const RENT: &str = "system:cip4:rent_config";
    pub const REPUTATION: &str = "system:cip2:reputation_config";
    pub const AGGREGATOR: &str = "system:cip2:aggregator_config";
    pub const SLASH_DISTRIBUTION: &str = "system:cip2:slash_distribution";
    pub const NON_REVEAL: &str = "system:cip2:non_reveal_config";
    pub const COMMITTEE: &str = "system:cip2:committee_config";
    pub const EMBEDDING_MODEL: &str = "system:cip2:semantic_similarity_embedding_model";
    // Generic registered parameters (CIP-12 row of §13.1).
    pub const LANES: &str = "system:gov:param:lane_budgets";
    pub const EXECUTION: &str = "system:gov:param:execution";
    pub const INFLATION: &str = "system:gov:param:inflation";
    pub const CONSENSUS: &str = "system:gov:param:consensus";
    pub const RUNNER: &str = "system:gov:param:runner";
}

impl Parameters {
    /// The default genesis parameters for blocks `block_time_ms` apart: the spec's cycle
    /// budgets scaled by [`budget_scale_ppm`] of that block time.
    pub fn for_block_time(block_time_ms: u64) -> Self {
        Self::with_budget_ppm(budget_scale_ppm(block_time_ms))
    }

    /// These parameters with the runner market's windows shortened for devnets and local runs
    /// (Cowboy decision, `book/src/guide/devnet.md`): a 20-block challenge window (instead of
    /// 15 minutes), 5-block aggregator windows, a 100-block unbonding delay and a 10-block
    /// dispute window, so a job's whole lifecycle plays out in a minute on a laptop; and a
    /// 100 CBY runner stake floor ([`DEVNET_RUNNER_STAKE_FLOOR`]), so a dev account can stake
    /// simulated runners.
    pub fn with_devnet_windows(mut self) -> Self {
        self.runner.challenge_window_blocks = 20;
        self.runner.dispute_window_blocks = 10;
        self.runner.unbonding_blocks = 100;
        self.aggregator.aggregator_timeout_blocks = 5;
        // A dev account (10,000 CBY) can stake a few simulated runners.
        self.runner.runner_stake_floor = DEVNET_RUNNER_STAKE_FLOOR;
        self
    }

    /// The spec's own cycle budgets, unscaled (what the chain grows to; the formula tests).
    pub fn spec() -> Self {
        Self::with_budget_ppm(1_000_000)
    }

    /// The default parameters with the spec's cycle budgets scaled by `ppm` parts per million.
    pub fn with_budget_ppm(ppm: u64) -> Self {
        Self::default().rescaled(ppm)
    }

    /// These parameters with the cycle budgets (lanes, basefee target, per-fire cap) set to
    /// the spec's scaled by `ppm` parts per million, and everything else kept.
    pub fn rescaled(mut self, ppm: u64) -> Self {
        self.basefee.cycles_target = scaled(spec::CYCLES_TARGET, ppm);
        self.lanes.system_cycles = scaled(spec::SYSTEM_CYCLES, ppm);
        self.lanes.user_cycles = scaled(spec::USER_CYCLES, ppm);
        self.lanes.runner_cycles = scaled(spec::RUNNER_CYCLES, ppm);
        self.lanes.timer_cycles = scaled(spec::TIMER_CYCLES, ppm);
        self.timer.max_cycles_per_fire = min(spec::MAX_CYCLES_PER_FIRE, self.lanes.timer_cycles);
        self
    }

    /// The block cycle cap: the four lanes together.
    pub fn block_cycles(&self) -> u64 {
        let l = &self.lanes;
        l.system_cycles
            .saturating_add(l.user_cycles)
            .saturating_add(l.runner_cycles)
            .saturating_add(l.timer_cycles)
    }

    /// The block cycle cap as a share of the spec's, in parts per million.
    pub fn budget_ppm(&self) -> u64 {
        ((self.block_cycles() as u128 * 1_000_000) / spec::BLOCK_CYCLES as u128) as u64
    }

    /// `(storage key, encoded value)` of every group, for writing into 0x09's storage.
    pub fn entries(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            (keys::SETTLEMENT, encode_to_vec(&self.settlement)),
            (keys::BASEFEE, encode_to_vec(&self.basefee)),
            (
                keys::LANE_FEE_MULTIPLIERS,
                encode_to_vec(&self.lane_fee_multipliers),
            ),
            (keys::LANES, encode_to_vec(&self.lanes)),
            (keys::TIMER, encode_to_vec(&self.timer)),
            (keys::EXECUTION, encode_to_vec(&self.execution)),
            (keys::INFLATION, encode_to_vec(&self.inflation)),
            (keys::CONSENSUS, encode_to_vec(&self.consensus)),
            (keys::RUNNER, encode_to_vec(&self.runner)),
            (keys::RENT, encode_to_vec(&self.rent)),
            (keys::REPUTATION, encode_to_vec(&self.reputation)),
            (keys::AGGREGATOR, encode_to_vec(&self.aggregator)),
            (
                keys::SLASH_DISTRIBUTION,
                encode_to_vec(&self.slash_distribution),
            ),
            (keys::NON_REVEAL, encode_to_vec(&self.non_reveal)),
            (keys::COMMITTEE, encode_to_vec(&self.committee)),
            (
                keys::EMBEDDING_MODEL,
                encode_to_vec(&self.semantic_similarity_embedding_model),
            ),
        ]
    }

    /// Reads every group through `get` (a storage read of 0x09), failing on a missing or
    /// undecodable group: parameters are written at genesis and never deleted.
    pub fn load(
        mut get: impl FnMut(&str) -> Result<Option<Vec<u8>>, crate::ExecError>,
    ) -> Result<Self, crate::ExecError> {
        fn one<T: Read<Cfg = ()>>(
            key: &str,
            get: &mut impl FnMut(&str) -> Result<Option<Vec<u8>>, crate::ExecError>,
        ) -> Result<T, crate::ExecError> {
            let bytes = get(key)?.ok_or_else(|| crate::ExecError::Corrupt {
                what: format!("governance parameter {key}"),
                reason: "missing".into(),
            })?;
            decode_strict(&bytes).map_err(|e| crate::ExecError::Corrupt {
                what: format!("governance parameter {key}"),
                reason: e.to_string(),
            })
        }
        Ok(Self {
            settlement: one(keys::SETTLEMENT, &mut get)?,
            basefee: one(keys::BASEFEE, &mut get)?,
            lane_fee_multipliers: one(keys::LANE_FEE_MULTIPLIERS, &mut get)?,
            lanes: one(keys::LANES, &mut get)?,
            timer: one(keys::TIMER, &mut get)?,
            execution: one(keys::EXECUTION, &mut get)?,
            inflation: one(keys::INFLATION, &mut get)?,
            consensus: one(keys::CONSENSUS, &mut get)?,
            runner: one(keys::RUNNER, &mut get)?,
            rent: one(keys::RENT, &mut get)?,
            reputation: one(keys::REPUTATION, &mut get)?,
            aggregator: one(keys::AGGREGATOR, &mut get)?,
            slash_distribution: one(keys::SLASH_DISTRIBUTION, &mut get)?,
            non_reveal: one(keys::NON_REVEAL, &mut get)?,
            committee: one(keys::COMMITTEE, &mut get)?,
            semantic_similarity_embedding_model: one(keys::EMBEDDING_MODEL, &mut get)?,
        })
    }

    /// Checks the values make a working chain; the error names the parameter and the rule.
    pub fn validate(&self) -> Result<(), GenesisError> {
        let bad = |name: &str, rule: &str| {
            Err(GenesisError::Parameter {
                name: name.to_owned(),
                rule: rule.to_owned(),
            })
        };
        let b = &self.basefee;
        if b.cycles_target == 0 || b.cells_target == 0 {
            return bad("basefee.cycles_target / cells_target", "must be above 0");
        }
        if b.alpha == 0 || b.max_change_denominator == 0 {
            return bad("basefee.alpha / max_change_denominator", "must be above 0");
        }
        if b.min_basefee == 0 {
            return bad("basefee.min_basefee", "must be above 0");
        }
        for (name, v) in [
            ("system_bps", self.lane_fee_multipliers.system_bps),
            ("timer_bps", self.lane_fee_multipliers.timer_bps),
            ("runner_bps", self.lane_fee_multipliers.runner_bps),
            ("user_bps", self.lane_fee_multipliers.user_bps),
        ] {
            if v == 0 || v > 100 * BPS {
                return bad(
                    &format!("lane_fee_multipliers.{name}"),
                    "must be between 1 and 1,000,000 bps (0.0001× to 100×)",
                );
            }
        }
        let l = &self.lanes;
        if l.user_cycles == 0 || l.block_cells == 0 {
            return bad("lanes.user_cycles / block_cells", "must be above 0");
        }
        let total = [
            l.system_cycles,
            l.user_cycles,
            l.runner_cycles,
            l.timer_cycles,
        ]
        .iter()
        .try_fold(0u64, |a, b| a.checked_add(*b));
        if total.is_none() {
            return bad("lanes", "the lane budgets overflow when added up");
        }
        let t = &self.timer;
        if t.max_cycles_per_fire > l.timer_cycles {
            return bad(
                "timer.max_cycles_per_fire",
                "must fit in the timer lane (lanes.timer_cycles)",
            );
        }
        if t.max_cycles_per_fire < crate::intrinsic::TIMER_FIRE_CYCLES
            || t.max_cells_per_fire < crate::intrinsic::TIMER_FIRE_CELLS
        {
            return bad(
                "timer.max_cycles_per_fire / max_cells_per_fire",
                "must cover a firing's intrinsic cost (5,000 cycles, 64 cells)",
            );
        }
        if t.gc_cycles_per_timer == 0 {
            return bad("timer.gc_cycles_per_timer", "must be above 0");
        }
        if t.auction_target_bps == 0 || t.auction_target_bps > BPS {
            return bad("timer.auction_target_bps", "must be between 1 and 10,000");
        }
        if t.auction_max_change_bps > BPS {
            return bad("timer.auction_max_change_bps", "must be at most 10,000");
        }
        let e = &self.execution;
        if e.max_tx_size == 0 || e.max_tx_size > cowboy_types::constants::MAX_TX_SIZE as u64 {
            return bad(
                "execution.max_tx_size",
                "must be between 1 and 131,072 (the encoding's own bound)",
            );
        }
        if e.fanout_per_tx == 0 || e.fanout_per_tx > u32::MAX as u64 {
            return bad("execution.fanout_per_tx", "must be between 1 and 2^32 - 1");
        }
        if e.max_message_depth > u32::MAX as u64 {
            return bad("execution.max_message_depth", "must fit in 32 bits");
        }
        if e.storage_quota_bytes > e.max_storage_quota_bytes {
            return bad(
                "execution.storage_quota_bytes",
                "must not exceed execution.max_storage_quota_bytes",
            );
        }
        if e.per_actor_per_block_cycles == 0 {
            return bad("execution.per_actor_per_block_cycles", "must be above 0");
        }
        let i = &self.inflation;
        if i.blocks_per_year == 0 {
            return bad("inflation.blocks_per_year", "must be above 0");
        }
        for (name, v) in [
            ("year1_bps", i.year1_bps),
            ("year2_bps", i.year2_bps),
            ("year3_bps", i.year3_bps),
            ("year4_bps", i.year4_bps),
            ("floor_bps", i.floor_bps),
        ] {
            if v > BPS {
                return bad(&format!("inflation.{name}"), "must be at most 10,000 bps");
            }
        }
        let s = &self.settlement;
        if s.runner_bps + s.burn_bps + s.treasury_bps != BPS {
            return bad(
                "settlement",
                "runner_bps + burn_bps + treasury_bps must be 10,000",
            );
        }
        let d = &self.slash_distribution;
        if d.burn_bps + d.submitter_bps + d.treasury_bps != BPS {
            return bad(
                "slash_distribution",
                "burn_bps + submitter_bps + treasury_bps must be 10,000",
            );
        }
        if self.non_reveal.non_reveal_slash_bps > BPS {
            return bad("non_reveal.non_reveal_slash_bps", "must be at most 10,000");
        }
        if self.aggregator.aggregator_timeout_blocks == 0 {
            return bad(
                "aggregator.aggregator_timeout_blocks",
                "must be above 0 (members need a window to reveal)",
            );
        }
        if self.runner.challenge_window_blocks == 0 {
            return bad(
                "runner.challenge_window_blocks",
                "must be above 0 (a verified result must be challengeable)",
            );
        }
        if self.aggregator.aggregator_bonus_bps > BPS {
            return bad("aggregator.aggregator_bonus_bps", "must be at most 10,000");
        }
        let r = &self.runner;
        if r.runner_stake_floor == 0 {
            return bad(
                "runner.runner_stake_floor",
                "must be above 0 (selection weights divide by it)",
            );
        }
        if r.heartbeat_timeout_blocks == 0 {
            return bad("runner.heartbeat_timeout_blocks", "must be above 0");
        }
        if self.reputation.half_life_blocks == 0 {
            return bad("reputation.half_life_blocks", "must be above 0");
        }
        if self.committee.n == 0 || self.committee.n > self.committee.m {
            return bad("committee", "need 1 <= n <= m");
        }
        Ok(())
    }
}
