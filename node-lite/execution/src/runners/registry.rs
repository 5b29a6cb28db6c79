//! The Runner Registry (system actor `0x…01`; CIP-2 §4, whitepaper §5.2): runners register
//! with a profile and a stake, keep themselves healthy with heartbeats, bond and unbond stake,
//! and exit. Every rule about a runner's record lives here.
//!
//! - **Stake.** Bonding moves base units from the runner's balance to the registry's account,
//!   so the supply audit sees them; the stake must stay at least
//!   `max(runner_stake_floor, 1.5 × max_job_value)` (whitepaper §5.2). A withdrawal or an exit
//!   moves stake to *unbonding*, still slashable, paid out by a claim once
//!   `runner.unbonding_blocks` have passed; a second withdrawal adds to it and restarts the
//!   delay.
//! - **Health.** A runner is healthy while its last heartbeat (or registration, or update) is
//!   at most `runner.heartbeat_timeout_blocks` old (CIP-2 §4 filter 1).
//! - **Reputation.** A score from 0 to 100, starting at [`INITIAL_REPUTATION`] (75: a fresh
//!   address cannot outrank runners with a record, nor wipe a penalised one's past). Penalties
//!   lower it; the deficit below 100 halves every `reputation.half_life_blocks` (computed when
//!   read, so no per-block work).
//! - **Exit.** An exited runner is never selected again; its record is deleted by the claim
//!   that pays out the last of its stake once it has no active job.
//!
//! Every operation checks everything first and changes state only when it succeeds; the record
//! it writes is charged as state-write cells (1 per byte, whitepaper §17.4).

use super::INITIAL_REPUTATION;
use crate::{
    ExecError,
    exec::{Executor, Handled, Session},
};
use cowboy_types::{
    Address, SystemInstruction,
    receipt::failure,
    runner::{MAX_REPUTATION, Runner, RunnerKey, RunnerProfile, Unbonding, actors},
};

/// The runner's reputation at `height`: the stored score with its deficit halved once per
/// `half_life` blocks since it was stored.
pub fn reputation(r: &Runner, height: u64, half_life: u64) -> u64 {
    let deficit = MAX_REPUTATION.saturating_sub(r.reputation);
    let halvings = height.saturating_sub(r.reputation_height) / half_life.max(1);
    MAX_REPUTATION - deficit.checked_shr(halvings.min(63) as u32).unwrap_or(0)
}

/// Whether the runner has sent a heartbeat recently enough to be selected.
pub fn healthy(r: &Runner, height: u64, timeout: u64) -> bool {
    height.saturating_sub(r.last_heartbeat) <= timeout
}

/// Whether the key is a usable public key of its scheme.
pub(crate) fn valid_key(key: &RunnerKey) -> bool {
    match key {
        RunnerKey::Ed25519(k) => {
            use commonware_codec::DecodeExt as _;
            commonware_cryptography::ed25519::PublicKey::decode(commonware_codec::Copying(
                k.0.as_slice(),
            ))
            .is_ok()
        }
        RunnerKey::Secp256k1(k) => cowboy_crypto::valid_secp256k1_key(k),
    }
}

/// Checks a profile against its own rules, its key and the stake it would have.
fn check_profile(profile: &RunnerProfile, stake: u64, floor: u64) -> Result<(), Handled> {
    profile
        .validate()
        .map_err(|e| Handled::failed(failure::INVALID_RUNNER, e.to_string()))?;
    if !valid_key(&profile.key) {
        return Err(Handled::failed(
            failure::INVALID_RUNNER,
            "key is not a valid public key of its scheme (ed25519: a 32-byte point; secp256k1: a 33-byte compressed point)",
        ));
    }
    let required = profile.required_stake(floor);
    if stake < required {
        return Err(Handled::failed(
            failure::STAKE_TOO_LOW,
            format!(
                "a stake of {stake} base units is below the {required} this profile requires (max(runner_stake_floor, 1.5 × max_job_value {}))",
                profile.max_job_value
            ),
        ));
    }
    Ok(())
}

/// Stores `record` for `runner` if the session can pay its bytes as cells.
fn write(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    runner: &Address,
    record: Option<&Runner>,
) -> Handled {
    let size = record.map_or(0, |r| commonware_codec::EncodeSize::encode_size(r) as u64);
    if let Err(refused) = s.pay(0, size, || format!("writing the {size}-byte runner record")) {
        return refused;
    }
    x.world.set_runner(runner, record);
    Handled::Delivered(Vec::new())
}

/// The sender's record, or the failure to report.
fn registered(
    x: &Executor<'_, '_>,
    sender: &Address,
) -> Result<Result<Runner, Handled>, ExecError> {
    Ok(x.world.runner(sender)?.ok_or_else(|| {
        Handled::failed(
            failure::NOT_A_RUNNER,
            format!("{sender} is not a registered runner (send runner_register first)"),
        )
    }))
}

/// The sender's record if it has not exited.
fn active(x: &Executor<'_, '_>, sender: &Address) -> Result<Result<Runner, Handled>, ExecError> {
    Ok(registered(x, sender)?.and_then(|r| match r.exited_at {
        Some(h) => Err(Handled::failed(
            failure::RUNNER_EXITED,
            format!("runner {sender} exited at height {h}; register again once its record is gone (claim its stake)"),
        )),
        None => Ok(r),
    }))
}

/// Runs one Runner Registry instruction sent by `sender`.
pub(crate) fn execute(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    sender: Address,
    op: &SystemInstruction,
) -> Result<Handled, ExecError> {
    let height = x.env.height;
    let cfg = x.env.params.runner.clone();
    macro_rules! ok_or_fail {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(handled) => return Ok(handled),
            }
        };
    }
    match op {
        SystemInstruction::RunnerRegister { profile, stake } => {
            if let Some(existing) = x.world.runner(&sender)? {
                return Ok(Handled::failed(
                    failure::RUNNER_EXISTS,
                    match existing.exited_at {
                        Some(h) => format!(
                            "{sender} exited at height {h} and its record remains until its stake is claimed and its jobs end"
                        ),
                        None => {
                            format!("{sender} is already a registered runner (use runner_update)")
                        }
                    },
                ));
            }
            ok_or_fail!(check_profile(profile, *stake, cfg.runner_stake_floor));
            let record = Runner {
                profile: (**profile).clone(),
                stake: *stake,
                unbonding: Unbonding::default(),
                reputation: INITIAL_REPUTATION,
                reputation_height: height,
                registered_at: height,
                last_heartbeat: height,
                active_jobs: 0,
                exited_at: None,
            };
            bond(x, s, sender, record, *stake)
        }
        SystemInstruction::RunnerUpdate { profile } => {
            let mut r = ok_or_fail!(active(x, &sender)?);
            ok_or_fail!(check_profile(profile, r.stake, cfg.runner_stake_floor));
            if r.active_jobs > 0 && r.profile.rate_card != profile.rate_card {
                // Jobs are priced with the rate card their runners had when drawn.
                return Ok(Handled::failed(
                    failure::INVALID_RUNNER,
                    format!(
                        "runner {sender} has {} active jobs; change its rate card once they end",
                        r.active_jobs
                    ),
                ));
            }
            r.profile = (**profile).clone();
            r.last_heartbeat = height;
            Ok(write(x, s, &sender, Some(&r)))
        }
        SystemInstruction::RunnerHeartbeat => {
            let mut r = ok_or_fail!(active(x, &sender)?);
            r.last_heartbeat = height;
            Ok(write(x, s, &sender, Some(&r)))
        }
        SystemInstruction::RunnerAddStake { amount } => {
            let mut r = ok_or_fail!(active(x, &sender)?);
            let Some(total) = r.stake.checked_add(*amount) else {
                return Ok(Handled::failed(
                    failure::INVALID_RUNNER,
                    "the stake would overflow 2^64 - 1 base units",
                ));
            };
            r.stake = total;
            bond(x, s, sender, r, *amount)
        }
        SystemInstruction::RunnerWithdrawStake { amount } => {
            let mut r = ok_or_fail!(active(x, &sender)?);
            let required = r.profile.required_stake(cfg.runner_stake_floor);
            let left = r.stake.checked_sub(*amount);
            match left {
                Some(left) if left >= required => {
                    r.stake = left;
                    unbond(&mut r, *amount, height, cfg.unbonding_blocks)?;
                    Ok(write(x, s, &sender, Some(&r)))
                }
                _ => Ok(Handled::failed(
                    failure::STAKE_TOO_LOW,
                    format!(
                        "withdrawing {amount} of a {} stake would leave less than the {required} this profile requires; lower max_job_value with runner_update, or exit",
                        r.stake
                    ),
                )),
            }
        }
        SystemInstruction::RunnerExit => {
            let mut r = ok_or_fail!(active(x, &sender)?);
            let stake = std::mem::take(&mut r.stake);
            unbond(&mut r, stake, height, cfg.unbonding_blocks)?;
            r.exited_at = Some(height);
            Ok(write(x, s, &sender, Some(&r)))
        }
        SystemInstruction::RunnerClaim => {
            let mut r = ok_or_fail!(registered(x, &sender)?);
            let due = r.unbonding;
            let drained = r.exited_at.is_some() && r.stake == 0 && r.active_jobs == 0;
            if drained && due.amount == 0 {
                // An exit whose stake was paid out while jobs were still active: the record
                // goes now that they are done.
                return Ok(write(x, s, &sender, None));
            }
            if due.amount == 0 || height < due.release_height {
                return Ok(Handled::failed(
                    failure::NOTHING_TO_CLAIM,
                    if due.amount == 0 {
                        format!("runner {sender} has no stake unbonding")
                    } else {
                        format!(
                            "{} base units unbond at height {}; this is height {height}",
                            due.amount, due.release_height
                        )
                    },
                ));
            }
            r.unbonding = Unbonding::default();
            let handled = write(x, s, &sender, if drained { None } else { Some(&r) });
            if matches!(handled, Handled::Delivered(_)) {
                x.world
                    .transfer_held(&actors::RUNNER_REGISTRY, &sender, due.amount)?;
            }
            Ok(handled)
        }
        _ => Err(ExecError::Corrupt {
            what: "runner registry".into(),
            reason: format!("{op:?} is not a Runner Registry instruction"),
        }),
    }
}

/// Moves `amount` of unbonding stake in, restarting the delay. Stake and unbonding together
/// never exceed the supply, so an overflow is a broken invariant.
fn unbond(r: &mut Runner, amount: u64, height: u64, delay: u64) -> Result<(), ExecError> {
    r.unbonding.amount = r
        .unbonding
        .amount
        .checked_add(amount)
        .ok_or_else(|| ExecError::Supply("a runner's unbonding stake overflows".into()))?;
    r.unbonding.release_height = height.saturating_add(delay);
    Ok(())
}

/// Stores `record` and moves `amount` from the sender's balance into the registry's.
fn bond(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    sender: Address,
    record: Runner,
    amount: u64,
) -> Result<Handled, ExecError> {
    if x.world.account(&sender)?.balance < amount {
        return Ok(Handled::failed(
            failure::INSUFFICIENT_BALANCE,
            format!("bonding {amount} base units needs that much in {sender}'s balance"),
        ));
    }
    let handled = write(x, s, &sender, Some(&record));
    if matches!(handled, Handled::Delivered(_)) {
        x.world
            .transfer_held(&sender, &actors::RUNNER_REGISTRY, amount)?;
    }
    Ok(handled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reputation_deficits_halve_every_half_life() {
        let r = Runner {
            profile: RunnerProfile {
                key: RunnerKey::Ed25519(cowboy_types::Hash::ZERO),
                capabilities: Default::default(),
                rate_card: Default::default(),
                max_concurrent_jobs: 1,
                max_job_value: 0,
                endpoint: String::new(),
            },
            stake: 0,
            unbonding: Unbonding::default(),
            reputation: 36,
            reputation_height: 100,
            registered_at: 0,
            last_heartbeat: 100,
            active_jobs: 0,
            exited_at: None,
        };
        assert_eq!(reputation(&r, 100, 10), 36);
        assert_eq!(reputation(&r, 109, 10), 36);
        assert_eq!(reputation(&r, 110, 10), 68);
        assert_eq!(reputation(&r, 120, 10), 84);
        assert_eq!(reputation(&r, u64::MAX, 1), 100);
        assert!(healthy(&r, 110, 10));
        assert!(!healthy(&r, 111, 10));
    }
}
