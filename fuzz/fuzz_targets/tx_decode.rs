//! Fuzzes the strict transaction decoder: it must never panic, and every byte string it accepts
//! must re-encode to exactly the same bytes (the encoding is canonical). Accepted transactions
//! also go through JSON conversion and signature verification, which must not panic either.

#![no_main]

use cowboy_types::{Transaction, TransactionJson};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(tx) = Transaction::decode_strict(data) {
        assert_eq!(tx.to_bytes(), data, "accepted bytes must be canonical");
        let _ = TransactionJson::from(&tx);
        let _ = cowboy_crypto::verify_transaction(&tx);
    }
});
