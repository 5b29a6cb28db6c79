//! A fleet description (`honest=5,lazy=1,liar=1`): how many runners of each behaviour, and the
//! keys they get from the simulation's seed (so a rerun with the same seed reuses the same
//! registered runners).

use cowboy_crypto::PrivateKey;
use cowboy_types::keccak256;
use serde::Serialize;
use std::{fmt, str::FromStr};

/// What a simulated runner does with its jobs.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Behaviour {
    /// Runs every job and commits to what it computed.
    Honest,
    /// Never commits: its slot times out and is re-selected.
    Lazy,
    /// Commits after the commit deadline (the chain refuses it; it times out).
    Slow,
    /// Returns a wrong result of its own.
    Liar,
    /// Returns the wrong result every colluder returns.
    Colluding,
    /// Commits, then dies before revealing.
    Crash,
    /// Sometimes lazy, sometimes honest (decided per job from the seed).
    Flaky,
}

impl Behaviour {
    pub const ALL: [Behaviour; 7] = [
        Self::Honest,
        Self::Lazy,
        Self::Slow,
        Self::Liar,
        Self::Colluding,
        Self::Crash,
        Self::Flaky,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Honest => "honest",
            Self::Lazy => "lazy",
            Self::Slow => "slow",
            Self::Liar => "liar",
            Self::Colluding => "colluding",
            Self::Crash => "crash",
            Self::Flaky => "flaky",
        }
    }
}

impl fmt::Display for Behaviour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a fleet description is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FleetError {
    #[error(
        "runner kind {0:?} is unknown; use honest, lazy, slow, liar, colluding, crash or flaky"
    )]
    Kind(String),
    #[error("{0:?} is not KIND=COUNT (e.g. honest=5,lazy=1)")]
    Form(String),
    #[error("the fleet is empty; give at least one runner (e.g. honest=3)")]
    Empty,
    #[error("a fleet has at most {MAX_RUNNERS} runners; {0} were asked for")]
    TooMany(usize),
}

/// Most runners one simulation runs.
pub const MAX_RUNNERS: usize = 256;

/// The runners to start, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fleet(pub Vec<Behaviour>);

impl FromStr for Fleet {
    type Err = FleetError;
    fn from_str(s: &str) -> Result<Self, FleetError> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (kind, count) = part
                .split_once('=')
                .ok_or_else(|| FleetError::Form(part.into()))?;
            let behaviour = Behaviour::ALL
                .into_iter()
                .find(|b| b.name() == kind.trim())
                .ok_or_else(|| FleetError::Kind(kind.trim().into()))?;
            let count: usize = count
                .trim()
                .parse()
                .map_err(|_| FleetError::Form(part.into()))?;
            if out.len() + count > MAX_RUNNERS {
                return Err(FleetError::TooMany(out.len() + count));
            }
            out.extend(std::iter::repeat_n(behaviour, count));
        }
        if out.is_empty() {
            return Err(FleetError::Empty);
        }
        Ok(Self(out))
    }
}

impl fmt::Display for Fleet {
    /// `KIND=COUNT,…`, runs of one behaviour counted together (what `from_str` reads back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<(Behaviour, usize)> = Vec::new();
        for b in &self.0 {
            match parts.last_mut() {
                Some((last, n)) if last == b => *n += 1,
                _ => parts.push((*b, 1)),
            }
        }
        let text: Vec<String> = parts.iter().map(|(b, n)| format!("{b}={n}")).collect();
        f.write_str(&text.join(","))
    }
}

/// The key of runner `index` of a simulation seeded with `seed`.
pub fn key(seed: u64, index: usize) -> PrivateKey {
    let mut counter = 0u32;
    loop {
        let mut data = b"cowboy-runner-sim:".to_vec();
        data.extend_from_slice(&seed.to_be_bytes());
        data.extend_from_slice(&(index as u64).to_be_bytes());
        data.extend_from_slice(&counter.to_be_bytes());
        // A hash is a valid secp256k1 scalar but with negligible probability.
        if let Ok(k) = PrivateKey::from_bytes(&keccak256(&data).0) {
            return k;
        }
        counter += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleets_parse_in_order_and_refuse_what_they_cannot_run() {
        let f: Fleet = "honest=2, lazy=1,liar=1".parse().expect("fleet");
        assert_eq!(
            f.0,
            vec![
                Behaviour::Honest,
                Behaviour::Honest,
                Behaviour::Lazy,
                Behaviour::Liar
            ]
        );
        assert_eq!(
            "bogus=1".parse::<Fleet>(),
            Err(FleetError::Kind("bogus".into()))
        );
        assert_eq!(
            "honest".parse::<Fleet>(),
            Err(FleetError::Form("honest".into()))
        );
        assert_eq!("honest=0".parse::<Fleet>(), Err(FleetError::Empty));
        assert!(matches!(
            "honest=300".parse::<Fleet>(),
            Err(FleetError::TooMany(300))
        ));
        assert_eq!(f.to_string(), "honest=2,lazy=1,liar=1");
        assert_ne!(key(1, 0).address(), key(1, 1).address());
        assert_eq!(key(1, 0).address(), key(1, 0).address());
    }
}
