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
