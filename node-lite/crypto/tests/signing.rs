//! Signing and recovery: Appendix A Vector 2, Ethereum-equal addresses, canonical (low-S, v∈{0,1})
//! signatures only, and multi-signer rules.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_crypto::*;
use cowboy_types::*;
use k256::elliptic_curve::{PrimeField as _, ops::Reduce as _};

fn key11() -> PrivateKey {
    PrivateKey::from_hex(&"11".repeat(32)).unwrap()
}

fn appendix_a() -> Transaction {
    let text = r#"{"chain_id":42,"nonce":0,"instruction":{"transfer":{"to":"0x2222222222222222222222222222222222222222","amount":"1"}},"cycles_limit":50000,"cells_limit":50000,"max_fee_per_cycle":1,"max_fee_per_cell":1,"max_priority_fee_per_cycle":0,"max_priority_fee_per_cell":0,"metadata":"0x"}"#;
    TransactionJson::parse(text)
        .unwrap()
        .into_unsigned(key11().address())
        .unwrap()
}

/// Vector 2 signature, cross-checked against Python `eth_keys` (RFC 6979) signing the same hash.
const VECTOR_2_SIGNATURE: &str = "f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b01";

#[test]
fn key_11_has_the_whitepaper_address() {
    assert_eq!(
        key11().address().to_string(),
        "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
    );
}

#[test]
fn addresses_equal_ethereum_for_the_same_key() {
    // The key and address from the web3.js / eth-account documentation.
    let key =
        PrivateKey::from_hex("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
            .unwrap();
    assert_eq!(
        key.address().to_checksum(),
        "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
    );
}

#[test]
fn vector_2_signature_is_deterministic_and_recovers_the_sender() {
    let mut tx = appendix_a();
    sign_transaction(&mut tx, &key11()).unwrap();
    assert_eq!(hex::encode(tx.signature.0), VECTOR_2_SIGNATURE);
    assert_eq!(
        verify_transaction(&tx).unwrap().to_string(),
        "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
    );
    // The signed encoding is Vector 1 with the signature in place.
    let bytes = tx.to_bytes();
    assert_eq!(&bytes[bytes.len() - 66..bytes.len() - 1], &tx.signature.0);
    assert_eq!(Transaction::decode_strict(&bytes).unwrap(), tx);
    assert_eq!(
        tx.digest().to_string(),
        "0x203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a"
    );
}

fn high_s_twin(sig: &Signature) -> Signature {
    // (r, n - s, v ^ 1) is the other valid ECDSA signature for the same key and message.
    let s = k256::Scalar::reduce(&k256::U256::from_be_slice(&sig.0[32..64]));
    let high = -s;
    let mut out = sig.0;
    out[32..64].copy_from_slice(&high.to_repr());
    out[64] ^= 1;
    Signature(out)
}

#[test]
fn high_s_signatures_are_rejected() {
    let hash = keccak256(b"cowboy");
    let sig = key11().sign_hash(&hash);
    let twin = high_s_twin(&sig);
    assert_eq!(recover(&hash, &twin), Err(CryptoError::HighS));
    assert_eq!(recover(&hash, &sig).unwrap(), key11().address());
}

#[test]
fn recovery_ids_other_than_0_and_1_are_rejected() {
    let hash = keccak256(b"cowboy");
    let mut sig = key11().sign_hash(&hash);
    for v in [2u8, 3, 27, 28] {
        sig.0[64] = v;
        assert_eq!(recover(&hash, &sig), Err(CryptoError::BadRecoveryId(v)));
    }
}

#[test]
fn zero_signature_is_rejected() {
    assert_eq!(
        recover(&keccak256(b"x"), &Signature::ZERO),
        Err(CryptoError::MalformedSignature)
    );
}

#[test]
fn tampering_changes_the_recovered_sender() {
    let mut tx = appendix_a();
    sign_transaction(&mut tx, &key11()).unwrap();
    tx.nonce = 1;
    assert!(matches!(
        verify_transaction(&tx),
        Err(VerifyError::WrongSender { .. })
    ));
}

#[test]
fn signing_with_the_wrong_key_is_refused() {
    let mut tx = appendix_a();
    let other = PrivateKey::from_hex(&"22".repeat(32)).unwrap();
    assert!(matches!(
        sign_transaction(&mut tx, &other),
        Err(SignError::FromMismatch { .. })
    ));
}

#[test]
fn every_listed_signer_signs_the_same_hash_in_any_order() {
    let keys: Vec<PrivateKey> = (0x22..0x27u8)
        .map(|b| PrivateKey::from_hex(&format!("{b:02x}").repeat(32)).unwrap())
        .collect();
    let mut addresses: Vec<Address> = keys.iter().map(|k| k.address()).collect();
    addresses.sort();
    let mut tx = appendix_a();
    tx.additional_signers = addresses
        .iter()
        .map(|&address| AdditionalSigner {
            address,
            signature: Signature::ZERO,
        })
        .collect();
    let hash = tx.signing_hash();
    // Co-signers first, sender last: signatures never change the hash.
    for k in keys.iter().rev() {
        cosign_transaction(&mut tx, k).unwrap();
    }
    assert!(matches!(
        verify_transaction(&tx),
        Err(VerifyError::Signature(_))
    ));
    cosign_transaction(&mut tx, &key11()).unwrap();
    assert_eq!(tx.signing_hash(), hash);
    assert_eq!(verify_transaction(&tx).unwrap(), key11().address());

    let stranger = PrivateKey::from_hex(&"33".repeat(32)).unwrap();
    assert_eq!(
        cosign_transaction(&mut tx, &stranger),
        Err(SignError::NotASigner(stranger.address()))
    );

    let mut swapped = tx.clone();
    swapped.additional_signers.swap(0, 1);
    assert!(matches!(
        verify_transaction(&swapped),
        Err(VerifyError::SignersNotAscending { index: 1, .. })
    ));

    let mut dup = tx.clone();
    dup.additional_signers[1] = dup.additional_signers[0];
    assert!(matches!(
        verify_transaction(&dup),
        Err(VerifyError::SignersNotAscending { .. })
    ));

    let mut forged = tx.clone();
    forged.additional_signers[2].signature = forged.additional_signers[3].signature;
    assert!(matches!(
        verify_transaction(&forged),
        Err(VerifyError::WrongAdditionalSigner { index: 2, .. })
    ));

    // Adding a signer after signing invalidates every signature: the set is in the hash.
    let mut grown = tx.clone();
    grown.additional_signers.push(AdditionalSigner {
        address: Address([0xff; 20]),
        signature: Signature::ZERO,
    });
    assert!(matches!(
        verify_transaction(&grown),
        Err(VerifyError::WrongSender { .. })
    ));
}

#[test]
fn private_keys_out_of_range_are_rejected() {
    assert_eq!(
        PrivateKey::from_hex(&"00".repeat(32)).unwrap_err(),
        CryptoError::KeyOutOfRange
    );
    assert_eq!(
        PrivateKey::from_hex(&"ff".repeat(32)).unwrap_err(),
        CryptoError::KeyOutOfRange
    );
    assert_eq!(
        PrivateKey::from_hex("0x1234").unwrap_err(),
        CryptoError::KeyLength(2)
    );
    assert!(matches!(
        PrivateKey::from_hex("0xzz"),
        Err(CryptoError::KeyHex(_))
    ));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn sign_then_recover_round_trips(seed in proptest::prelude::any::<[u8; 32]>(), msg in proptest::prelude::any::<[u8; 32]>()) {
        if let Ok(key) = PrivateKey::from_bytes(&seed) {
            let hash = Hash(msg);
            let sig = key.sign_hash(&hash);
            proptest::prop_assert!(sig.v() <= 1);
            proptest::prop_assert_eq!(recover(&hash, &sig).unwrap(), key.address());
            proptest::prop_assert_eq!(recover(&hash, &high_s_twin(&sig)), Err(CryptoError::HighS));
        }
    }
}

/// Recovery as `k256` alone does it (what `recover` did before it used libsecp256k1): the
/// oracle `recover` must agree with on every input.
fn k256_recover(hash: &Hash, signature: &Signature) -> Result<Address, CryptoError> {
    use k256::{
        ecdsa::{RecoveryId, Signature as EcdsaSignature, VerifyingKey},
        elliptic_curve::scalar::IsHigh as _,
    };
    let v = signature.v();
    if v > 1 {
        return Err(CryptoError::BadRecoveryId(v));
    }
    let sig = EcdsaSignature::from_slice(&signature.0[..64])
        .map_err(|_| CryptoError::MalformedSignature)?;
    if bool::from(sig.s().is_high()) {
        return Err(CryptoError::HighS);
    }
    let recid = RecoveryId::from_byte(v).ok_or(CryptoError::BadRecoveryId(v))?;
    let key = VerifyingKey::recover_from_prehash(hash.as_bytes(), &sig, recid)
        .map_err(|_| CryptoError::RecoveryFailed)?;
    Ok(address_of(&key))
}

/// The secp256k1 group order n, big-endian.
const ORDER: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
];

/// `n - k` for a small `k` (no borrow past the last byte for the k used here).
fn order_minus(k: u8) -> [u8; 32] {
    let mut out = ORDER;
    out[31] -= k;
    out
}

/// ⌊n / 2⌋, the largest low-S value.
fn half_order() -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut carry = 0u8;
    for (o, b) in out.iter_mut().zip(ORDER) {
        *o = (carry << 7) | (b >> 1);
        carry = b & 1;
    }
    out
}

fn signature_of(r: [u8; 32], s: [u8; 32], v: u8) -> Signature {
    let mut out = [0u8; 65];
    out[..32].copy_from_slice(&r);
    out[32..64].copy_from_slice(&s);
    out[64] = v;
    Signature(out)
}

#[test]
fn recovery_agrees_with_k256_at_the_edges_of_r_and_s() {
    let hash = keccak256(b"edges");
    let valid = key11().sign_hash(&hash);
    let r: [u8; 32] = valid.0[..32].try_into().unwrap();
    let s: [u8; 32] = valid.0[32..64].try_into().unwrap();
    let mut one = [0u8; 32];
    one[31] = 1;
    let mut half_plus_one = half_order();
    half_plus_one[31] += 1;
    // r: zero, one (the x of a point), a real signature's, n - 1 (the x of no point), n and
    // 2^256 - 1 (out of range); s: every boundary (zero, one, the largest low value, the
    // smallest high one, n - 1, n, 2^256 - 1); hashes below and above the order.
    let rs = [[0u8; 32], one, r, order_minus(1), ORDER, [0xff; 32]];
    let ss = [
        [0u8; 32],
        one,
        s,
        half_order(),
        half_plus_one,
        order_minus(1),
        ORDER,
        [0xff; 32],
    ];
    let mut recovered = 0;
    for r in rs {
        for s in ss {
            for v in [0, 1, 2] {
                let sig = signature_of(r, s, v);
                for h in [hash, Hash([0u8; 32]), Hash(ORDER), Hash([0xff; 32])] {
                    let ours = recover(&h, &sig);
                    assert_eq!(ours, k256_recover(&h, &sig), "r {r:02x?} s {s:02x?} v {v}");
                    recovered += usize::from(ours.is_ok());
                }
            }
        }
    }
    // The table reaches the curve math, not only the range checks in front of it: 72 of its
    // cases pass them (r ∈ {1, r, n - 1}, s ∈ {1, s, ⌊n/2⌋}, v ∈ {0, 1}, four hashes), and
    // those with r = n - 1 recover nothing.
    assert_eq!(recovered, 48);
}

/// Signatures an attacker builds so that recovery lands on the generator or on the point at
/// infinity (no key): R = G (r = Gx, v = 0 as Gy is even) with hash 1 gives
/// Q = r⁻¹(s·G − G), which is infinity for s = 1 and a key for s = 2.
#[test]
fn recovery_agrees_with_k256_at_the_point_at_infinity() {
    let gx: [u8; 32] = [
        0x79, 0xbe, 0x66, 0x7e, 0xf9, 0xdc, 0xbb, 0xac, 0x55, 0xa0, 0x62, 0x95, 0xce, 0x87, 0x0b,
        0x07, 0x02, 0x9b, 0xfc, 0xdb, 0x2d, 0xce, 0x28, 0xd9, 0x59, 0xf2, 0x81, 0x5b, 0x16, 0xf8,
        0x17, 0x98,
    ];
    let mut one = [0u8; 32];
    one[31] = 1;
    let mut two = [0u8; 32];
    two[31] = 2;
    let hash = Hash(one);
    let infinity = signature_of(gx, one, 0);
    assert_eq!(recover(&hash, &infinity), Err(CryptoError::RecoveryFailed));
    assert_eq!(
        k256_recover(&hash, &infinity),
        Err(CryptoError::RecoveryFailed)
    );
    for sig in [
        signature_of(gx, two, 0),
        signature_of(gx, two, 1),
        signature_of(gx, one, 1),
    ] {
        let ours = recover(&hash, &sig);
        assert!(ours.is_ok(), "{sig:?}");
        assert_eq!(ours, k256_recover(&hash, &sig));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    /// Arbitrary 65-byte signatures (about half recover some key: r is the x of a point half of
    /// the time) and signatures made by a key give the same address, or the same error, as
    /// `k256` does.
    #[test]
    fn recovery_agrees_with_k256(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 64),
        v in 0u8..3,
        msg in proptest::prelude::any::<[u8; 32]>(),
        seed in proptest::prelude::any::<[u8; 32]>(),
    ) {
        let hash = Hash(msg);
        let mut raw = [0u8; 65];
        raw[..64].copy_from_slice(&bytes);
        raw[64] = v;
        let arbitrary = Signature(raw);
        proptest::prop_assert_eq!(recover(&hash, &arbitrary), k256_recover(&hash, &arbitrary));
        if let Ok(key) = PrivateKey::from_bytes(&seed) {
            let signed = key.sign_hash(&hash);
            proptest::prop_assert_eq!(recover(&hash, &signed), k256_recover(&hash, &signed));
        }
    }
}
