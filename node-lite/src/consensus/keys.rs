//! Validator keys: an ed25519 identity (p2p and vote identity), a BLS12-381 threshold share
//! (votes and the beacon), and the committee's public polynomial every node verifies against.
//! [`deal`] is a trusted dealer — fine for devnets and tests, documented as such; production
//! committees run a DKG.

use super::{NAMESPACE, app::Scheme};
use commonware_codec::{Copying, Encode, Read, ReadExt};
use commonware_cryptography::{
    Signer,
    bls12381::{
        dkg::feldman_desmedt,
        primitives::{
            group::Share,
            sharing::{Mode, ModeVersion, Sharing},
            variant::MinSig,
        },
    },
    ed25519,
};
use commonware_utils::{N3f1, ordered::Set};
use rand_core_010::SeedableRng;

/// Why keys could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("{what} is not valid: {reason}")]
    Invalid { what: &'static str, reason: String },
    #[error("the dealer failed: {0}")]
    Deal(String),
    #[error("no randomness available: {0}")]
    Random(String),
    #[error("this node's share does not belong to identity {0} under the genesis polynomial")]
    ShareMismatch(String),
}

/// A dealer's output: the public polynomial and each identity's share.
pub type Dealt = (Sharing<MinSig>, Vec<(ed25519::PublicKey, Share)>);

/// A fresh ed25519 identity from the OS's randomness.
pub fn new_identity() -> Result<ed25519::PrivateKey, KeyError> {
    use commonware_math::algebra::Random as _;
    Ok(ed25519::PrivateKey::random(os_rng()?))
}

fn os_rng() -> Result<rand_chacha_010::ChaCha20Rng, KeyError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| KeyError::Random(e.to_string()))?;
    Ok(rand_chacha_010::ChaCha20Rng::from_seed(seed))
}

/// The committee: identities in canonical (sorted) order.
pub fn committee(identities: &[ed25519::PublicKey]) -> Result<Set<ed25519::PublicKey>, KeyError> {
    Set::try_from(identities.to_vec()).map_err(|e| KeyError::Invalid {
        what: "validator set",
        reason: format!("{e:?}"),
    })
}

/// Deals threshold shares to `identities` (quorum 2f+1 of n) from OS randomness; returns the
/// public polynomial and each identity's share.
pub fn deal(identities: &[ed25519::PublicKey]) -> Result<Dealt, KeyError> {
    deal_with(os_rng()?, identities)
}

/// [`deal`] from the given randomness (deterministic simulations).
pub fn deal_with(
    rng: impl rand_core_010::CryptoRng,
    identities: &[ed25519::PublicKey],
) -> Result<Dealt, KeyError> {
    let players = committee(identities)?;
    let (output, shares) =
        feldman_desmedt::deal::<MinSig, _, N3f1>(rng, Mode::NonZeroCounter, players)
            .map_err(|e| KeyError::Deal(format!("{e:?}")))?;
    let shares = shares
        .iter_pairs()
        .map(|(k, s)| (k.clone(), s.clone()))
        .collect();
    Ok((output.public().clone(), shares))
}

pub fn encode_polynomial(p: &Sharing<MinSig>) -> Vec<u8> {
    p.encode().to_vec()
}

pub fn decode_polynomial(bytes: &[u8], participants: usize) -> Result<Sharing<MinSig>, KeyError> {
    let max = std::num::NonZeroU32::new(participants.max(1) as u32).ok_or(KeyError::Invalid {
        what: "validator set",
        reason: "empty".into(),
    })?;
    let mut buf = Copying(bytes);
    let p = Sharing::<MinSig>::read_cfg(&mut buf, &(max, ModeVersion::v1())).map_err(|e| {
        KeyError::Invalid {
            what: "threshold_public",
            reason: e.to_string(),
        }
    })?;
    if !buf.0.is_empty() {
        return Err(KeyError::Invalid {
            what: "threshold_public",
            reason: "trailing bytes".into(),
        });
    }
    Ok(p)
}

pub fn encode_share(s: &Share) -> Vec<u8> {
    s.encode().to_vec()
}

/// Reads a whole value (no trailing bytes).
fn read_all<T: Read<Cfg = ()>>(bytes: &[u8], what: &'static str) -> Result<T, KeyError> {
    let mut buf = Copying(bytes);
    let value = T::read(&mut buf).map_err(|e| KeyError::Invalid {
        what,
        reason: e.to_string(),
    })?;
    if !buf.0.is_empty() {
        return Err(KeyError::Invalid {
            what,
            reason: "trailing bytes".into(),
        });
    }
    Ok(value)
}

pub fn decode_share(bytes: &[u8]) -> Result<Share, KeyError> {
    read_all(bytes, "threshold share")
}

pub fn encode_identity(k: &ed25519::PrivateKey) -> Vec<u8> {
    k.encode().to_vec()
}

pub fn decode_identity(bytes: &[u8]) -> Result<ed25519::PrivateKey, KeyError> {
    read_all(bytes, "identity key")
}

pub fn decode_public(bytes: &[u8]) -> Result<ed25519::PublicKey, KeyError> {
    read_all(bytes, "validator public key")
}

/// The signing scheme of the validator holding `share`.
pub fn signer(
    identity: &ed25519::PrivateKey,
    participants: Set<ed25519::PublicKey>,
    polynomial: Sharing<MinSig>,
    share: Share,
) -> Result<Scheme, KeyError> {
    Scheme::signer(NAMESPACE, participants, polynomial, share)
        .ok_or_else(|| KeyError::ShareMismatch(identity.public_key().to_string()))
}
