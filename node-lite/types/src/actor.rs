//! Actor source canonicalisation and CREATE2-style actor addresses (whitepaper §1.2).
//!
//! `code_hash = keccak256(source)` over the canonical bytes: UTF-8, NFC-normalised, LF line
//! endings, no byte-order mark. The canonical bytes are what is hashed, stored and deployed, so
//! two editors saving the same program differently still deploy the same actor.

use crate::primitives::{Address, Hash, keccak256};
use unicode_normalization::UnicodeNormalization;

const BOM: char = '\u{feff}';

/// Canonicalises Python source: drops a leading BOM, turns CRLF and lone CR into LF, and
/// NFC-normalises.
pub fn canonicalize_source(source: &str) -> String {
    let body = source.strip_prefix(BOM).unwrap_or(source);
    let lf = body.replace("\r\n", "\n").replace('\r', "\n");
    lf.nfc().collect()
}

/// Whether `source` is already in canonical form.
pub fn is_canonical_source(source: &str) -> bool {
    !source.starts_with(BOM) && !source.contains('\r') && unicode_normalization::is_nfc(source)
}

/// `keccak256` of canonical source bytes. Callers must pass canonical source.
pub fn code_hash(canonical_source: &str) -> Hash {
    keccak256(canonical_source.as_bytes())
}

/// `last_20_bytes(keccak256(creator ‖ salt ‖ code_hash))`.
pub fn actor_address(creator: &Address, salt: &Hash, code_hash: &Hash) -> Address {
    let mut preimage = [0u8; 20 + 32 + 32];
    preimage[..20].copy_from_slice(creator.as_bytes());
    preimage[20..52].copy_from_slice(salt.as_bytes());
    preimage[52..].copy_from_slice(code_hash.as_bytes());
    let digest = keccak256(&preimage);
    let mut out = [0u8; 20];
    out.copy_from_slice(&digest.as_bytes()[12..]);
    Address(out)
}

/// A message's identity: `keccak256(sender ‖ nonce ‖ msg_hash)` (whitepaper §3), where the nonce
/// is 8 bytes big-endian and `msg_hash` is the keccak256 of the canonical encoding of the
/// instruction the message carries out (a transaction's own instruction, or the
/// `Actor::Message` / timer instruction an actor's send or schedule corresponds to).
pub fn message_id(sender: &Address, nonce: u64, instruction: &crate::Instruction) -> Hash {
    let msg_hash = keccak256(&crate::codec::encode_to_vec(instruction));
    let mut preimage = Vec::with_capacity(20 + 8 + 32);
    preimage.extend_from_slice(&sender.0);
    preimage.extend_from_slice(&nonce.to_be_bytes());
    preimage.extend_from_slice(&msg_hash.0);
    keccak256(&preimage)
}

/// Longest handler (method) name a message or timer may name (Cowboy decision).
pub const MAX_HANDLER_NAME: usize = 128;

/// Whether `name` can name a public handler: ASCII letters, digits and `_`, not starting with
/// `_` (private) or a digit, at most [`MAX_HANDLER_NAME`] bytes. Messages and timers call only
/// such names.
pub fn is_handler_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_HANDLER_NAME
        && !name.starts_with('_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.as_bytes()[0].is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonicalisation_removes_bom_crlf_and_composes() {
        let raw = "\u{feff}x = 'e\u{301}'\r\ny = 1\rz = 2\n";
        let canonical = canonicalize_source(raw);
        assert_eq!(canonical, "x = '\u{e9}'\ny = 1\nz = 2\n");
        assert!(is_canonical_source(&canonical));
        assert!(!is_canonical_source(raw));
        assert_eq!(canonicalize_source(&canonical), canonical);
    }

    #[test]
    fn actor_address_is_last_20_bytes_of_the_keccak() {
        let creator = Address([0x11; 20]);
        let salt = Hash([0x22; 32]);
        let code = code_hash("class Counter: pass\n");
        let mut pre = Vec::new();
        pre.extend_from_slice(&creator.0);
        pre.extend_from_slice(&salt.0);
        pre.extend_from_slice(&code.0);
        let full = keccak256(&pre);
        assert_eq!(actor_address(&creator, &salt, &code).0, full.0[12..]);
    }
}
