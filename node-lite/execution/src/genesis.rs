//! The genesis file and the state it creates.
//!
//! A genesis file is JSON: the chain id, the genesis time, balances, validators (stake and
//! consensus public key), runners (stake and profile) and every governance parameter (omitted groups or fields take the
//! genesis defaults of [`crate::params`]). Amounts are decimal strings of base units; unknown
//! fields are refused so a misspelt parameter is an error, not a silent default.

use crate::{
    ExecError, GenesisError,
    fees::Basefees,
    params::{BASE_UNITS_PER_CBY, GOVERNANCE, Parameters},
    world::{InflationState, World},
};
use cowboy_state::{ChangeSet, MemoryState, Overlay};
use cowboy_types::{
    Address, Beacon, Block, Hash, Header, Round, Supply, Validator,
    block::BEACON_SIGNATURE_LEN,
    json::{Amount, HexBytes},
    runner::{Runner, RunnerProfile, actors, storage as runner_storage, system_actor_record},
    state::{MAX_VALIDATOR_KEY, key},
};
use serde::{Deserialize, Serialize};
use std::{collections::BTreeSet, path::Path};

/// One genesis balance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Allocation {
    pub address: Address,
    /// Base units (1 CBY = 10^9).
    pub balance: Amount,
}

/// One genesis validator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenesisValidator {
    /// Where its rewards and tips go.
    pub address: Address,
    /// Self-bonded stake, in base units (added to the supply, not to the balance).
    pub stake: Amount,
    /// Consensus public key (ed25519, 32 bytes), hex.
    pub public_key: HexBytes,
}

/// One runner registered at genesis (its stake is added to the supply and held by the
/// Runner Registry, `0x…01`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenesisRunner {
    /// The runner's account (it signs the runner's transactions).
    pub address: Address,
    /// Bonded stake, in base units.
    pub stake: Amount,
    pub profile: RunnerProfile,
}

/// A genesis file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Genesis {
    pub chain_id: u64,
    #[serde(default)]
    pub genesis_time_ms: u64,
    #[serde(default)]
    pub allocations: Vec<Allocation>,
    pub validators: Vec<GenesisValidator>,
    /// Runners registered from the first block (devnets register simulated runners here).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runners: Vec<GenesisRunner>,
    /// The validators' BLS12-381 threshold public polynomial (a commitment to the shares
    /// consensus votes and beacons are signed with), hex. Consensus configuration, not state:
    /// the state root does not cover it, but every node of a chain must use the same one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold_public: Option<HexBytes>,
    /// The ed25519 key the TEE Verifier accepts simulated attestations from (devnets and
    /// local runs only; spec README "TEE"). Without it no attestation is accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tee_simulated_key: Option<Hash>,
    #[serde(default)]
    pub parameters: Parameters,
    /// State carried over from another chain by a snapshot ([`crate::snapshot`]), written
    /// before everything above (allocations add to carried balances).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried: Option<crate::snapshot::CarriedState>,
}

impl Genesis {
    /// Reads and validates a genesis file.
    pub fn load(path: &Path) -> Result<Self, GenesisError> {
        let text = std::fs::read_to_string(path).map_err(|source| GenesisError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text).map_err(|e| match e {
            GenesisError::Json { message, .. } => GenesisError::Json {
                path: path.display().to_string(),
                message,
            },
            other => other,
        })
    }

    /// Parses and validates a genesis document.
    pub fn parse(text: &str) -> Result<Self, GenesisError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let g: Self = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner().to_string();
            GenesisError::Json {
                path: "<genesis>".into(),
                message: if path.is_empty() || path == "." {
                    inner
                } else {
                    format!("field `{path}`: {inner}")
                },
            }
        })?;
        de.end().map_err(|e| GenesisError::Json {
            path: "<genesis>".into(),
            message: e.to_string(),
        })?;
        g.validate()?;
        Ok(g)
    }

    /// Checks the document describes a working chain.
    pub fn validate(&self) -> Result<(), GenesisError> {
        let invalid =
            |field: String, message: String| Err(GenesisError::Invalid { field, message });
        if self.chain_id == 0 {
            return invalid("chain_id".into(), "must be above 0".into());
        }
        self.parameters.validate()?;
        if let Some(c) = &self.carried {
            c.validate(&self.parameters)?;
        }
        if let Some(k) = &self.tee_simulated_key
            && !crate::runners::tee::valid_key(k)
        {
            return invalid(
                "tee_simulated_key".into(),
                format!("{k} is not an ed25519 public key"),
            );
        }
        let mut seen = BTreeSet::new();
        for (i, a) in self.allocations.iter().enumerate() {
            if !seen.insert(a.address) {
                return invalid(
                    format!("allocations[{i}].address"),
                    format!("{} is allocated twice", a.address),
                );
            }
        }
        if self.validators.is_empty() {
            return invalid(
                "validators".into(),
                "at least one validator is needed to produce blocks".into(),
            );
        }
        let mut vseen = BTreeSet::new();
        let min = self.parameters.consensus.minimum_validator_stake;
        for (i, v) in self.validators.iter().enumerate() {
            if !vseen.insert(v.address) {
                return invalid(
                    format!("validators[{i}].address"),
                    format!("{} is listed twice", v.address),
                );
            }
            if v.stake.0 < min {
                return invalid(
                    format!("validators[{i}].stake"),
                    format!(
                        "{} base units is below minimum_validator_stake ({min} = {} CBY)",
                        v.stake.0,
                        min / BASE_UNITS_PER_CBY
                    ),
                );
            }
            if v.public_key.0.is_empty() || v.public_key.0.len() > MAX_VALIDATOR_KEY {
                return invalid(
                    format!("validators[{i}].public_key"),
                    format!(
                        "must be 1 to {MAX_VALIDATOR_KEY} bytes, got {}",
                        v.public_key.0.len()
                    ),
                );
            }
        }
        let mut rseen = BTreeSet::new();
        let floor = self.parameters.runner.runner_stake_floor;
        for (i, r) in self.runners.iter().enumerate() {
            if !rseen.insert(r.address) {
                return invalid(
                    format!("runners[{i}].address"),
                    format!("{} is listed twice", r.address),
                );
            }
            if let Err(e) = r.profile.validate() {
                return invalid(format!("runners[{i}].profile"), e.to_string());
            }
            if !crate::runners::registry::valid_key(&r.profile.key) {
                return invalid(
                    format!("runners[{i}].profile.key"),
                    "not a valid public key of its scheme".into(),
                );
            }
            let required = r.profile.required_stake(floor);
            if r.stake.0 < required {
                return invalid(
                    format!("runners[{i}].stake"),
                    format!(
                        "{} base units is below the {required} its profile requires (max(runner.runner_stake_floor, 1.5 × max_job_value))",
                        r.stake.0
                    ),
                );
            }
        }
        if self.supply().is_none() {
            return invalid(
                "allocations".into(),
                "balances and stakes add up to more than 2^64 - 1 base units".into(),
            );
        }
        Ok(())
    }

    /// Balances plus validator and runner stakes, plus what carried state holds (`None` on
    /// overflow).
    pub fn supply(&self) -> Option<u64> {
        let carried = match &self.carried {
            Some(c) => c.value()?,
            None => 0,
        };
        let balances = self
            .allocations
            .iter()
            .try_fold(carried, |acc, a| acc.checked_add(a.balance.0))?;
        let validators = self
            .validators
            .iter()
            .try_fold(balances, |acc, v| acc.checked_add(v.stake.0))?;
        self.runners
            .iter()
            .try_fold(validators, |acc, r| acc.checked_add(r.stake.0))
    }

    /// The genesis state as a change set on an empty store.
    pub fn state(&self) -> Result<ChangeSet, ExecError> {
        let empty = MemoryState::default();
        let mut world = World::new(Overlay::new(&empty));
        if let Some(c) = &self.carried {
            c.apply(&mut world)?;
        }
        for a in &self.allocations {
            world.credit(&a.address, a.balance.0)?;
        }
        for v in &self.validators {
            world.set_validator(
                &v.address,
                &Validator {
                    stake: v.stake.0,
                    public_key: v.public_key.0.clone(),
                },
            );
        }
        for (address, name) in actors::ALL {
            world.set_storage(
                &address,
                runner_storage::SYSTEM_ACTOR,
                Some(&system_actor_record(name, 1)),
            );
        }
        if let Some(k) = &self.tee_simulated_key {
            world.set_storage(
                &actors::TEE_VERIFIER,
                crate::runners::tee::keys::SIMULATED_KEY,
                Some(&k.0),
            );
        }
        for r in &self.runners {
            world.credit(&actors::RUNNER_REGISTRY, r.stake.0)?;
            world.set_runner(
                &r.address,
                Some(&Runner {
                    profile: r.profile.clone(),
                    stake: r.stake.0,
                    unbonding: Default::default(),
                    reputation: crate::runners::INITIAL_REPUTATION,
                    reputation_height: 0,
                    registered_at: 0,
                    last_heartbeat: 0,
                    active_jobs: 0,
                    exited_at: None,
                }),
            );
        }
        for (k, v) in self.parameters.entries() {
            world.set_storage(&GOVERNANCE, k.as_bytes(), Some(&v));
        }
        let min = self.parameters.basefee.min_basefee;
        world.set_basefees(Basefees {
            cycle: min,
            cell: min,
        });
        let supply = self
            .supply()
            .ok_or_else(|| ExecError::Supply("genesis supply overflows".into()))?;
        world.set_supply(&Supply {
            genesis: supply,
            minted: 0,
            burned: 0,
        });
        world.set_inflation(InflationState {
            year: 0,
            year_start_supply: supply,
        });
        let mut id = Vec::new();
        cowboy_types::codec::write_varint(self.chain_id, &mut id);
        world.overlay.put(key::chain("chain_id"), id);
        Ok(world.overlay.into_changes()?)
    }

    /// The genesis block (height 0) for a genesis state with root `state_root`.
    pub fn block(&self, state_root: Hash) -> Block {
        let min = self.parameters.basefee.min_basefee;
        Block {
            header: Header {
                parent: Hash::ZERO,
                height: 0,
                round: Round::default(),
                timestamp_ms: self.genesis_time_ms,
                proposer: Address::ZERO,
                beacon: Beacon {
                    round: Round::default(),
                    signature: [0u8; BEACON_SIGNATURE_LEN],
                },
                tx_root: crate::roots::tx_root(&[]),
                state_height: 0,
                state_root,
                receipts_root: crate::roots::receipts_root(&[]),
                cycle_basefee: min,
                cell_basefee: min,
            },
            transactions: Vec::new(),
        }
    }
}
