//! The TEE Verifier (system actor `0x…05`; spec README "TEE"): which attestations the chain
//! accepts, the runners' accepted attestations, and the check `tee_required` jobs ask.
//!
//! The policy is pluggable by attestation kind. The only kind is `simulated`, accepted when the
//! genesis names a simulation key (`tee_simulated_key`: devnets and local runs use
//! [`devnet_simulated_key`]); its evidence is that key's ed25519 signature of
//! [`cowboy_types::tee::simulated_statement`]. A chain without the key accepts no attestation,
//! so no runner qualifies for `tee_required` jobs there until a real attestation kind is
//! specified.
//!
//! `runner_attest` (System 17, runner lane) is sent by a registered runner that declares a TEE;
//! the attestation must expire after the current height and within
//! [`MAX_ATTESTATION_BLOCKS`] of it. A runner qualifies for `tee_required` jobs while its
//! attestation has not expired.

use crate::{
    ExecError,
    exec::{Executor, Handled, Session},
    world::{World, decode, encode_record},
};
use cowboy_types::{
    Address, Hash, keccak256,
    receipt::failure,
    runner::actors::TEE_VERIFIER,
    tee::{Attestation, AttestationKind, Attested, MAX_ATTESTATION_BLOCKS, simulated_statement},
};

/// Storage keys under the TEE Verifier.
pub mod keys {
    use cowboy_types::Address;

    /// `simulated_key` → the ed25519 key simulated attestations are signed with (32 B), when
    /// the genesis names one.
    pub const SIMULATED_KEY: &[u8] = b"simulated_key";
    /// `attested:` ‖ runner → [`cowboy_types::tee::Attested`].
    pub const ATTESTED: &[u8] = b"attested:";

    pub fn attested(runner: &Address) -> Vec<u8> {
        [ATTESTED, &runner.0].concat()
    }
}

/// Cycles verifying a simulated attestation's signature costs (§3's ed25519 price).
pub const VERIFY_CYCLES: u64 = cowboy_pvm::cost::cycles::VERIFY_ED25519;

/// The devnet-only simulation secret: public on purpose — anyone can make simulated
/// attestations for a chain that accepts them, which is why they prove nothing and are labelled
/// `simulated`.
pub fn devnet_simulated_secret() -> [u8; 32] {
    keccak256(b"cowboy devnet simulated TEE attestation key v1").0
}

/// The ed25519 public key of [`devnet_simulated_secret`].
pub fn devnet_simulated_key() -> Hash {
    let signing = ed25519_dalek::SigningKey::from_bytes(&devnet_simulated_secret());
    Hash(signing.verifying_key().to_bytes())
}

/// A simulated attestation for `runner` on chain `chain_id`, signed with `secret` (the devnet
/// simulation secret, for runner simulators and tests).
pub fn simulated_attestation(
    secret: &[u8; 32],
    chain_id: u64,
    runner: &Address,
    measurement: Hash,
    expires_at: u64,
) -> Attestation {
    use ed25519_dalek::Signer as _;
    let signing = ed25519_dalek::SigningKey::from_bytes(secret);
    let statement = simulated_statement(chain_id, runner, &measurement, expires_at);
    let signature = signing.sign(&statement.0).to_bytes().to_vec();
    Attestation {
        kind: AttestationKind::Simulated,
        measurement,
        expires_at,
        // 64 bytes always fit the evidence bound.
        evidence: cowboy_types::bounded::Bytes::new(signature).unwrap_or_default(),
    }
}

/// Whether `key` is an ed25519 point of large order (the genesis checks the simulation key
/// with it).
pub fn valid_key(key: &Hash) -> bool {
    ed25519_dalek::VerifyingKey::from_bytes(&key.0).is_ok_and(|k| !k.is_weak())
}

/// The runner's accepted attestation, if any (expired or not).
pub fn attested(world: &World<'_>, runner: &Address) -> Result<Option<Attested>, ExecError> {
    world
        .storage(&TEE_VERIFIER, &keys::attested(runner))?
        .map(|v| decode(|| format!("attestation of {runner}"), &v))
        .transpose()
}

/// Whether `runner` holds an attestation valid at `height`, made since it registered (an
/// attestation does not outlive an exit and a new registration).
pub fn attested_at(world: &World<'_>, runner: &Address, height: u64) -> Result<bool, ExecError> {
    let Some(a) = attested(world, runner)? else {
        return Ok(false);
    };
    let registered = world.runner(runner)?.map(|r| r.registered_at);
    Ok(a.attestation.expires_at >= height && registered.is_some_and(|h| a.attested_at >= h))
}

fn refused(message: impl Into<String>) -> Handled {
    Handled::failed(failure::INVALID_RUNNER, message)
}

/// Runs `runner_attest` from `sender`.
pub(crate) fn attest(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    sender: Address,
    attestation: &Attestation,
) -> Result<Handled, ExecError> {
    let height = x.env.height;
    let Some(runner) = x.world.runner(&sender)? else {
        return Ok(Handled::failed(
            failure::NOT_A_RUNNER,
            format!("{sender} is not a registered runner; register before attesting"),
        ));
    };
    if runner.exited_at.is_some() {
        return Ok(Handled::failed(
            failure::RUNNER_EXITED,
            format!("{sender} has exited the market"),
        ));
    }
    if !runner.profile.capabilities.tee {
        return Ok(refused(
            "the runner's profile does not declare a TEE (capabilities.tee); update it first",
        ));
    }
    let a = attestation;
    if a.expires_at <= height || a.expires_at > height.saturating_add(MAX_ATTESTATION_BLOCKS) {
        return Ok(refused(format!(
            "expires_at is {}; it must be after this block ({height}) and at most {MAX_ATTESTATION_BLOCKS} blocks later",
            a.expires_at
        )));
    }
    match a.kind {
        AttestationKind::Simulated => {
            let Some(key) = x.world.storage(&TEE_VERIFIER, keys::SIMULATED_KEY)? else {
                return Ok(refused(
                    "this chain accepts no simulated attestations (only devnets and local runs do)",
                ));
            };
            if let Err(refused) = s.pay(VERIFY_CYCLES, 0, || "verifying the attestation".into()) {
                return Ok(refused);
            }
            let statement =
                simulated_statement(x.env.block.chain_id, &sender, &a.measurement, a.expires_at);
            let verified = <[u8; 32]>::try_from(key.as_slice())
                .ok()
                .and_then(|k| ed25519_dalek::VerifyingKey::from_bytes(&k).ok())
                .zip(<[u8; 64]>::try_from(a.evidence.as_slice()).ok())
                .is_some_and(|(k, sig)| {
                    k.verify_strict(&statement.0, &ed25519_dalek::Signature::from_bytes(&sig))
                        .is_ok()
                });
            if !verified {
                return Ok(refused(
                    "the simulated attestation's evidence is not the simulation key's signature of its statement (chain id, runner, measurement, expires_at)",
                ));
            }
        }
    }
    let record = Attested {
        attestation: a.clone(),
        attested_at: height,
    };
    let bytes = encode_record(&record);
    if let Err(refused) = s.pay(0, bytes.len() as u64, || {
        format!("storing the {}-byte attestation", bytes.len())
    }) {
        return Ok(refused);
    }
    x.world
        .set_storage(&TEE_VERIFIER, &keys::attested(&sender), Some(&bytes));
    Ok(Handled::Delivered(Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulation_key_must_be_a_point_of_large_order() {
        assert!(valid_key(&devnet_simulated_key()));
        // The identity (y = 1) is a valid encoding of a small-order point.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        assert!(!valid_key(&Hash(identity)));
    }

    #[test]
    fn a_simulated_attestation_binds_chain_runner_and_expiry() {
        let secret = devnet_simulated_secret();
        let runner = Address([7; 20]);
        let a = simulated_attestation(&secret, 42, &runner, Hash([1; 32]), 100);
        let key = ed25519_dalek::VerifyingKey::from_bytes(&devnet_simulated_key().0).unwrap();
        let sig = ed25519_dalek::Signature::from_bytes(&a.evidence.as_slice().try_into().unwrap());
        let ok = |chain, who: &Address, until| {
            key.verify_strict(
                &simulated_statement(chain, who, &a.measurement, until).0,
                &sig,
            )
            .is_ok()
        };
        assert!(ok(42, &runner, 100));
        assert!(!ok(43, &runner, 100) && !ok(42, &Address([8; 20]), 100) && !ok(42, &runner, 101));
    }
}
