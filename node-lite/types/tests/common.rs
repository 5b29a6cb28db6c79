//! Shared test helpers: the whitepaper Appendix A transfer.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.
#![allow(dead_code)]

use cowboy_types::*;

pub fn appendix_a_transfer() -> Transaction {
    Transaction {
        chain_id: 42,
        nonce: 0,
        instruction: Instruction::System(SystemInstruction::Transfer {
            to: Address([0x22; 20]),
            amount: 1,
        }),
        cycles_limit: 50_000,
        cells_limit: 50_000,
        max_fee_per_cycle: 1,
        max_fee_per_cell: 1,
        max_priority_fee_per_cycle: 0,
        max_priority_fee_per_cell: 0,
        from: "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
            .parse()
            .unwrap(),
        access_list: None,
        metadata: vec![],
        origin: None,
        signature: Signature::ZERO,
        additional_signers: vec![],
    }
}

/// Appendix A Vector 1, assembled piece by piece exactly as the whitepaper annotates it.
pub fn vector_1_hex() -> String {
    [
        "2a",                                       // chain_id 42
        "00",                                       // nonce
        "0001",                                     // System / Transfer
        &"22".repeat(20),                           // to
        "0000000000000001",                         // amount, 8-byte BE
        "d08603",                                   // cycles_limit 50000
        "d08603",                                   // cells_limit 50000
        "0101",                                     // max fees
        "0000",                                     // priority fees
        "19e7e376e7c213b7e7e7e46cc70a5dd086daff2a", // from
        "00",                                       // access_list None
        "00",                                       // metadata len 0
        "000000",                                   // origin_* None
        &"00".repeat(65),                           // signature (zeroed)
        "00",                                       // additional_signers len 0
    ]
    .concat()
}
