//! Fuzzes the transaction JSON parser used by `cowboy sign`: arbitrary text must yield a value or
//! an error naming a field, never a panic; parsed transactions must encode canonically.

#![no_main]

use cowboy_types::{Address, Transaction, TransactionJson};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(parsed) = TransactionJson::parse(text)
        && let Ok(tx) = parsed.into_unsigned(Address([0x19; 20]))
    {
        let bytes = tx.to_bytes();
        if let Ok(back) = Transaction::decode_strict(&bytes) {
            assert_eq!(back, tx);
        }
    }
});
