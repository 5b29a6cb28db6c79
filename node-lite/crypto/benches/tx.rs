//! Transaction hot paths: encode, strict decode, signing hash, sign and sender recovery, next to
//! raw `k256` public-key recovery measured in the same run as the baseline (recovery is the
//! per-transaction ceiling, ~11.8 k/s on one core of the reference machine).
//!
//! Run: `cargo bench -p cowboy-crypto --bench tx`. Compare `verify_transaction` with
//! `k256_recover_baseline`: their ratio is the overhead Cowboy adds on top of the curve math.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_crypto::{PrivateKey, recover, sign_transaction, verify_transaction};
use cowboy_types::{Transaction, TransactionJson, keccak256};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use k256::ecdsa::{RecoveryId, Signature as EcdsaSignature, SigningKey, VerifyingKey};
use std::hint::black_box;

fn signed_transfer() -> (Transaction, PrivateKey) {
    let key = PrivateKey::from_hex(&"11".repeat(32)).expect("key");
    let json = r#"{"chain_id":42,"nonce":0,"instruction":{"transfer":{"to":"0x2222222222222222222222222222222222222222","amount":"1"}},"cycles_limit":50000,"cells_limit":50000,"max_fee_per_cycle":1,"max_fee_per_cell":1,"max_priority_fee_per_cycle":0,"max_priority_fee_per_cell":0,"metadata":"0x"}"#;
    let mut tx = TransactionJson::parse(json)
        .expect("json")
        .into_unsigned(key.address())
        .expect("tx");
    sign_transaction(&mut tx, &key).expect("sign");
    (tx, key)
}

fn bench(c: &mut Criterion) {
    let (tx, key) = signed_transfer();
    let bytes = tx.to_bytes();
    let hash = tx.signing_hash();

    let mut group = c.benchmark_group("tx");
    group.throughput(Throughput::Elements(1));

    // Baseline: raw k256 recovery of the same signature, no Cowboy code involved.
    let raw_sig = EcdsaSignature::from_slice(&tx.signature.0[..64]).expect("sig");
    let raw_id = RecoveryId::from_byte(tx.signature.0[64]).expect("recid");
    group.bench_function("k256_recover_baseline", |b| {
        b.iter(|| {
            VerifyingKey::recover_from_prehash(black_box(hash.as_bytes()), &raw_sig, raw_id)
                .expect("recover")
        })
    });
    let raw_key = SigningKey::from_slice(&[0x11; 32]).expect("key");
    group.bench_function("k256_sign_baseline", |b| {
        b.iter(|| raw_key.sign_prehash_recoverable(black_box(hash.as_bytes())))
    });

    group.bench_function("encode", |b| b.iter(|| black_box(&tx).to_bytes()));
    group.bench_function("decode_strict", |b| {
        b.iter(|| Transaction::decode_strict(black_box(&bytes)).expect("decode"))
    });
    group.bench_function("signing_hash", |b| b.iter(|| black_box(&tx).signing_hash()));
    group.bench_function("sign_transaction", |b| {
        b.iter(|| {
            let mut t = tx.clone();
            sign_transaction(&mut t, &key).expect("sign");
            t
        })
    });
    group.bench_function("recover", |b| {
        b.iter(|| recover(black_box(&hash), &tx.signature).expect("recover"))
    });
    group.bench_function("verify_transaction", |b| {
        b.iter(|| verify_transaction(black_box(&tx)).expect("verify"))
    });
    group.bench_function("decode_and_verify", |b| {
        b.iter(|| {
            let t = Transaction::decode_strict(black_box(&bytes)).expect("decode");
            verify_transaction(&t).expect("verify")
        })
    });
    group.bench_function("keccak256_200B", |b| {
        let data = [7u8; 200];
        b.iter(|| keccak256(black_box(&data)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
