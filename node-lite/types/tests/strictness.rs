//! Each strictness rule of the canonical codec (§2.5), with a hand-made bad encoding: the decoder
//! must reject it and say which field broke which rule.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::vector_1_hex;
use cowboy_types::{constants::MAX_TX_SIZE, *};

/// Offsets in Vector 1 (see `common::vector_1_hex`).
const NONCE: usize = 1;
const CATEGORY: usize = 2;
const SUB_TYPE: usize = 3;
const CYCLES_LIMIT: usize = 4 + 20 + 8;
const ACCESS_LIST: usize = CYCLES_LIMIT + 3 + 3 + 4 + 20;
const METADATA: usize = ACCESS_LIST + 1;
const ORIGIN: usize = METADATA + 1;
const SIGNATURE: usize = ORIGIN + 3;

fn v1() -> Vec<u8> {
    hex::decode(vector_1_hex()).unwrap()
}

fn reject(bytes: &[u8]) -> DecodeError {
    Transaction::decode_strict(bytes).expect_err("must be rejected")
}

#[test]
fn non_minimal_varint_is_rejected() {
    // nonce 0 written as 0x80 0x00 instead of 0x00.
    let mut b = v1();
    b.splice(NONCE..NONCE + 1, [0x80, 0x00]);
    let e = reject(&b);
    assert_eq!(
        (e.field.as_str(), e.offset, &e.rule),
        ("nonce", NONCE, &Rule::NonMinimalVarint)
    );

    // cycles_limit 50000 padded to four bytes: d0 86 83 00.
    let mut b = v1();
    b.splice(CYCLES_LIMIT..CYCLES_LIMIT + 3, [0xd0, 0x86, 0x83, 0x00]);
    let e = reject(&b);
    assert_eq!(e.field, "cycles_limit");
    assert_eq!(e.rule, Rule::NonMinimalVarint);
}

#[test]
fn varint_overflow_is_rejected() {
    let mut b = v1();
    b.splice(NONCE..NONCE + 1, [0xff; 10].iter().copied().chain([0x7f]));
    let e = reject(&b);
    assert_eq!(e.field, "nonce");
    assert_eq!(e.rule, Rule::VarintOverflow);
}

#[test]
fn option_tags_other_than_0_and_1_are_rejected() {
    for (offset, field) in [
        (ACCESS_LIST, "access_list"),
        (ORIGIN, "origin_tx_hash"),
        (ORIGIN + 1, "origin_remaining_cycles"),
        (ORIGIN + 2, "origin_remaining_cells"),
    ] {
        let mut b = v1();
        b[offset] = 0x02;
        let e = reject(&b);
        assert_eq!(
            (e.field.as_str(), e.offset, &e.rule),
            (field, offset, &Rule::InvalidOptionTag(2))
        );
    }
}

#[test]
fn unknown_discriminants_are_rejected() {
    let mut b = v1();
    b[CATEGORY] = 9;
    let e = reject(&b);
    assert_eq!(
        (e.field.as_str(), e.offset),
        ("instruction.category", CATEGORY)
    );
    assert_eq!(e.rule, Rule::UnknownDiscriminant(9));

    let mut b = v1();
    b[SUB_TYPE] = 7;
    let e = reject(&b);
    assert_eq!(
        (e.field.as_str(), e.offset),
        ("instruction.sub_type", SUB_TYPE)
    );
    assert_eq!(e.rule, Rule::UnknownDiscriminant(7));

    // Custom (2) and Library (3) are reserved categories with no sub-types in v1.
    for category in [2, 3] {
        let mut b = v1();
        b[CATEGORY] = category;
        assert_eq!(reject(&b).rule, Rule::UnknownDiscriminant(1));
    }
}

#[test]
fn trailing_bytes_are_rejected() {
    let mut b = v1();
    b.push(0);
    let e = reject(&b);
    assert_eq!(e.rule, Rule::TrailingBytes(1));
    assert_eq!(e.offset, b.len() - 1);
}

#[test]
fn truncation_is_rejected_at_every_length() {
    let b = v1();
    for len in 0..b.len() {
        let e = reject(&b[..len]);
        assert_eq!(e.rule, Rule::Truncated, "prefix of {len} bytes: {e}");
    }
}

#[test]
fn oversize_length_prefix_is_rejected() {
    // metadata length 128 KiB + 1, above its maximum (the bytes need not even be present).
    let mut b = v1();
    let mut prefix = Vec::new();
    let mut n = (MAX_TX_SIZE + 1) as u32;
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            prefix.push(byte);
            break;
        }
        prefix.push(byte | 0x80);
    }
    b.splice(METADATA..METADATA + 1, prefix);
    let e = reject(&b);
    assert_eq!(e.field, "metadata");
    assert_eq!(
        e.rule,
        Rule::LengthTooLarge {
            len: MAX_TX_SIZE + 1,
            max: MAX_TX_SIZE
        }
    );
}

#[test]
fn encodings_above_max_tx_size_are_rejected() {
    let b = vec![0u8; MAX_TX_SIZE + 1];
    let e = reject(&b);
    assert!(
        matches!(e.rule, Rule::TooLarge { size, max } if size == MAX_TX_SIZE + 1 && max == MAX_TX_SIZE)
    );
}

#[test]
fn too_many_additional_signers_are_rejected() {
    let mut b = v1();
    let last = b.len() - 1;
    b[last] = 17; // 17 signers, above the maximum of 16
    let e = reject(&b);
    assert_eq!(e.field, "additional_signers");
    assert_eq!(e.rule, Rule::LengthTooLarge { len: 17, max: 16 });
}

#[test]
fn partial_origin_is_rejected() {
    // origin_remaining_cycles present, the other two absent.
    let mut b = v1();
    b.splice(ORIGIN..ORIGIN + 3, [0x00, 0x01, 0x05, 0x00]);
    let e = reject(&b);
    assert_eq!(e.field, "origin");
    assert_eq!(e.offset, ORIGIN);
    assert!(matches!(e.rule, Rule::Invalid(m) if m.contains("all present")));
}

#[test]
fn method_names_must_be_utf8() {
    let tx = Transaction {
        instruction: Instruction::Actor(ActorInstruction::Message {
            to: Address([1; 20]),
            method: "inc".into(),
            args: vec![],
            value: 0,
        }),
        ..common::appendix_a_transfer()
    };
    let mut b = tx.to_bytes();
    let at = b.windows(3).position(|w| w == b"inc").unwrap();
    b[at] = 0xff;
    let e = reject(&b);
    assert_eq!(e.field, "instruction.call.method");
    assert!(matches!(e.rule, Rule::Invalid(m) if m.contains("UTF-8")));
}

#[test]
fn errors_read_well() {
    let mut b = v1();
    b[SIGNATURE - 3] = 0x07;
    assert_eq!(
        reject(&b).to_string(),
        format!(
            "field `origin_tx_hash` at byte {}: option tag must be 0x00 (absent) or 0x01 (present), found 0x07",
            SIGNATURE - 3
        )
    );
}
