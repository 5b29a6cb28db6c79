//! secp256k1 keys, Ethereum-equal addresses, transaction signing and sender recovery.
//!
//! Signatures are `r‖s‖v` (65 bytes): RFC 6979 deterministic nonces, low-S, and `v` the recovery
//! id 0 or 1 (not 27/28), as `../shared/spec/README.md` decides. An address is the last 20 bytes
//! of keccak256 of the uncompressed public key, so one key has the same address on Cowboy and on
//! Ethereum. Recovery rejects high-S and out-of-range `v`, so each signed message has exactly one
//! valid signature per key.
//!
//! Keys and signing use `k256`; sender recovery, which every validator runs on every
//! transaction, uses libsecp256k1 (Bitcoin Core's), which does the same curve math in less than
//! half the time (`cargo bench -p cowboy-crypto --bench tx`: `recover` against
//! `k256_recover_baseline`). Both give the same answer for every input (`tests/signing.rs` compares
//! them on valid, malformed and arbitrary signatures).

use cowboy_types::{Address, Hash, Signature, Transaction, keccak256};
use k256::{
    ecdsa::{Signature as EcdsaSignature, SigningKey, VerifyingKey},
    elliptic_curve::scalar::IsHigh as _,
};
use zeroize::Zeroizing;

/// Why a key, signature or signed transaction was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CryptoError {
    #[error("private key must be 32 bytes (64 hex digits), got {0} bytes")]
    KeyLength(usize),
    #[error("private key is not valid hex: {0}")]
    KeyHex(String),
    #[error("private key is zero or not below the secp256k1 group order")]
    KeyOutOfRange,
    #[error("signature recovery id v must be 0 or 1, found {0}")]
    BadRecoveryId(u8),
    #[error(
        "signature s value is in the upper half of the curve order (high-S); only low-S signatures are canonical"
    )]
    HighS,
    #[error("signature r or s is zero or not below the curve order")]
    MalformedSignature,
    #[error("no public key can be recovered from this signature")]
    RecoveryFailed,
    #[error("the operating system's random number generator failed: {0}")]
    Rng(String),
}

/// Why a signed transaction fails its signature checks (whitepaper §2.2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("signature: {0}")]
    Signature(CryptoError),
    #[error("signature recovers to {recovered}, but `from` is {from}")]
    WrongSender { from: Address, recovered: Address },
    #[error("additional_signers[{index}]: {source}")]
    AdditionalSignature { index: usize, source: CryptoError },
    #[error(
        "additional_signers[{index}] signature recovers to {recovered}, but the entry names {claimed}"
    )]
    WrongAdditionalSigner {
        index: usize,
        claimed: Address,
        recovered: Address,
    },
    #[error(
        "additional_signers must be strictly ascending by address with no duplicates; entry {index} ({address}) breaks the order"
    )]
    SignersNotAscending { index: usize, address: Address },
    #[error(
        "deferred system transactions (with origin_* fields) are not signed and cannot be verified as user transactions"
    )]
    DeferredTransaction,
}

/// Why a transaction could not be signed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    #[error("transaction `from` is {from}, but the key's address is {key}")]
    FromMismatch { from: Address, key: Address },
    #[error(
        "{0} is neither the sender nor listed in additional_signers; the signer set is part of the signing hash, so list every co-signer's address before anyone signs"
    )]
    NotASigner(Address),
}

/// A secp256k1 private key. The secret scalar is zeroised when dropped.
#[derive(Clone)]
pub struct PrivateKey(SigningKey);

impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PrivateKey({})", self.address())
    }
}

impl PrivateKey {
    /// A fresh key from the operating system's random number generator.
    pub fn random() -> Result<Self, CryptoError> {
        loop {
            let mut bytes = Zeroizing::new([0u8; 32]);
            getrandom::fill(bytes.as_mut()).map_err(|e| CryptoError::Rng(e.to_string()))?;
            // A random 256-bit value is out of range with probability ~2^-128; draw again.
            if let Ok(key) = Self::from_bytes(bytes.as_ref()) {
                return Ok(key);
            }
        }
    }

    /// A key from its 32 big-endian bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, CryptoError> {
        if bytes.len() != 32 {
            return Err(CryptoError::KeyLength(bytes.len()));
        }
        SigningKey::from_slice(bytes)
            .map(Self)
            .map_err(|_| CryptoError::KeyOutOfRange)
    }

    /// A key from hex (64 digits, optional `0x`, surrounding whitespace ignored).
    pub fn from_hex(text: &str) -> Result<Self, CryptoError> {
        let trimmed = text.trim();
        let digits = trimmed.strip_prefix("0x").unwrap_or(trimmed);
        let bytes =
            Zeroizing::new(hex::decode(digits).map_err(|e| CryptoError::KeyHex(e.to_string()))?);
        Self::from_bytes(&bytes)
    }

    /// The 32 secret bytes (zeroised when the returned value is dropped).
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.0.to_bytes().into())
    }

    /// The Ethereum-equal address of this key.
    pub fn address(&self) -> Address {
        address_of(self.0.verifying_key())
    }

    /// The compressed public key (33 bytes, SEC1): what a runner profile names as its key.
    pub fn compressed_public_key(&self) -> [u8; 33] {
        let point = self.0.verifying_key().to_sec1_point(true);
        let mut out = [0u8; 33];
        out.copy_from_slice(point.as_bytes());
        out
    }

    /// Signs a 32-byte hash: RFC 6979, low-S, `r‖s‖v`.
    pub fn sign_hash(&self, hash: &Hash) -> Signature {
        let (sig, recid) = self.0.sign_prehash_recoverable(hash.as_bytes());
        let mut out = [0u8; 65];
        out[..64].copy_from_slice(&sig.to_bytes());
        out[64] = recid.to_byte();
        Signature(out)
    }
}

/// Whether `sec1` is a valid secp256k1 public key (a point on the curve, compressed or not).
pub fn valid_secp256k1_key(sec1: &[u8]) -> bool {
    VerifyingKey::from_sec1_bytes(sec1).is_ok()
}

/// The address of a public key: last 20 bytes of keccak256 of the uncompressed point (without
/// its 0x04 prefix).
pub fn address_of(key: &VerifyingKey) -> Address {
    let point = key.to_sec1_point(false);
    let mut uncompressed = [0u8; 65];
    uncompressed.copy_from_slice(point.as_bytes());
    address_of_point(&uncompressed)
}

/// The address of an uncompressed SEC1 point (`0x04 ‖ x ‖ y`).
fn address_of_point(uncompressed: &[u8; 65]) -> Address {
    let digest = keccak256(&uncompressed[1..]);
    let mut out = [0u8; 20];
    out.copy_from_slice(&digest.as_bytes()[12..]);
    Address(out)
}

/// Recovers the signer's address from a signature over `hash`, accepting only canonical
/// (low-S, `v` ∈ {0, 1}) signatures.
pub fn recover(hash: &Hash, signature: &Signature) -> Result<Address, CryptoError> {
    let v = signature.v();
    if v > 1 {
        return Err(CryptoError::BadRecoveryId(v));
    }
    let sig = EcdsaSignature::from_slice(&signature.0[..64])
        .map_err(|_| CryptoError::MalformedSignature)?;
    if bool::from(sig.s().is_high()) {
        return Err(CryptoError::HighS);
    }
    // r and s are in range (nonzero, below the order: `from_slice`) and s is low, which
    // libsecp256k1's recovery does not check itself (it takes high-S): these checks stay in
    // front of it. What is left is the curve math, where libsecp256k1 fails exactly where
    // `k256` does (no point with x = r, or the point at infinity).
    let recid = secp256k1::ecdsa::RecoveryId::try_from(i32::from(v))
        .map_err(|_| CryptoError::BadRecoveryId(v))?;
    let key = secp256k1::ecdsa::RecoverableSignature::from_compact(&signature.0[..64], recid)
        .and_then(|s| s.recover_ecdsa(secp256k1::Message::from_digest(*hash.as_bytes())))
        .map_err(|_| CryptoError::RecoveryFailed)?;
    Ok(address_of_point(&key.serialize_uncompressed()))
}

/// Signs `tx` as its sender. `tx.from` must be the key's address.
pub fn sign_transaction(tx: &mut Transaction, key: &PrivateKey) -> Result<(), SignError> {
    let address = key.address();
    if tx.from != address {
        return Err(SignError::FromMismatch {
            from: tx.from,
            key: address,
        });
    }
    tx.signature = key.sign_hash(&tx.signing_hash());
    Ok(())
}

/// Adds `key`'s signature to `tx` where the key belongs: as the sender if it is `from`, else in
/// its slot of `additional_signers`. The signer set is part of the signing hash (addresses are
/// kept when signatures are zeroed), so every co-signer must be listed before anyone signs.
pub fn cosign_transaction(tx: &mut Transaction, key: &PrivateKey) -> Result<(), SignError> {
    let address = key.address();
    if address == tx.from {
        return sign_transaction(tx, key);
    }
    let hash = tx.signing_hash();
    let slot = tx
        .additional_signers
        .iter_mut()
        .find(|s| s.address == address)
        .ok_or(SignError::NotASigner(address))?;
    slot.signature = key.sign_hash(&hash);
    Ok(())
}

/// Checks every signature of a user transaction and returns the sender: the primary signature
/// must recover to `from`, each co-signer's to its own address, and co-signers must be strictly
/// ascending (§2.2).
pub fn verify_transaction(tx: &Transaction) -> Result<Address, VerifyError> {
    verify_transaction_hashed(tx, &tx.signing_hash())
}

/// [`verify_transaction`] when the caller already computed the signing hash (it is also the
/// transaction's digest, so block verification needs it anyway).
pub fn verify_transaction_hashed(tx: &Transaction, hash: &Hash) -> Result<Address, VerifyError> {
    if tx.origin.is_some() {
        return Err(VerifyError::DeferredTransaction);
    }
    for (index, pair) in tx.additional_signers.windows(2).enumerate() {
        if pair[0].address >= pair[1].address {
            return Err(VerifyError::SignersNotAscending {
                index: index + 1,
                address: pair[1].address,
            });
        }
    }
    let recovered = recover(hash, &tx.signature).map_err(VerifyError::Signature)?;
    if recovered != tx.from {
        return Err(VerifyError::WrongSender {
            from: tx.from,
            recovered,
        });
    }
    for (index, signer) in tx.additional_signers.iter().enumerate() {
        let got = recover(hash, &signer.signature)
            .map_err(|source| VerifyError::AdditionalSignature { index, source })?;
        if got != signer.address {
            return Err(VerifyError::WrongAdditionalSigner {
                index,
                claimed: signer.address,
                recovered: got,
            });
        }
    }
    Ok(recovered)
}
