//! Whitepaper Appendix A (normative): the canonical encoding and signing hash of the reference
//! transfer, byte for byte.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::{appendix_a_transfer, vector_1_hex};
use cowboy_types::*;

#[test]
fn vector_1_encoding_is_byte_exact() {
    let tx = appendix_a_transfer();
    assert_eq!(hex::encode(tx.to_bytes()), vector_1_hex());
    assert_eq!(hex::encode(tx.signing_preimage()), vector_1_hex());
}

#[test]
fn vector_1_signing_hash_and_digest() {
    let tx = appendix_a_transfer();
    let expected = "0x203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a";
    assert_eq!(tx.signing_hash().to_string(), expected);
    assert_eq!(tx.digest().to_string(), expected);
    assert_eq!(
        keccak256(&hex::decode(vector_1_hex()).unwrap()).to_string(),
        expected
    );
}

#[test]
fn vector_1_decodes_to_the_transfer() {
    let bytes = hex::decode(vector_1_hex()).unwrap();
    assert_eq!(
        Transaction::decode_strict(&bytes).unwrap(),
        appendix_a_transfer()
    );
}

#[test]
fn digest_does_not_depend_on_signatures() {
    let mut tx = appendix_a_transfer();
    let before = tx.digest();
    tx.signature = Signature([7; 65]);
    tx.additional_signers.push(AdditionalSigner {
        address: Address([9; 20]),
        signature: Signature([8; 65]),
    });
    let mut zeroed = tx.clone();
    zeroed.signature = Signature::ZERO;
    zeroed.additional_signers[0].signature = Signature::ZERO;
    assert_eq!(tx.digest(), zeroed.digest());
    assert_ne!(
        tx.digest(),
        before,
        "signer addresses are bound into the hash"
    );
}

#[test]
fn json_form_matches_the_documented_transfer() {
    let text = r#"{"chain_id":42,"nonce":0,"instruction":{"transfer":{"to":"0x2222222222222222222222222222222222222222","amount":"1"}},"cycles_limit":50000,"cells_limit":50000,"max_fee_per_cycle":1,"max_fee_per_cell":1,"max_priority_fee_per_cycle":0,"max_priority_fee_per_cell":0,"metadata":"0x"}"#;
    let from = appendix_a_transfer().from;
    let tx = TransactionJson::parse(text)
        .unwrap()
        .into_unsigned(from)
        .unwrap();
    assert_eq!(tx, appendix_a_transfer());
}
