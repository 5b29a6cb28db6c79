//! The call context the corpus, the differential suite and the hostile actors run in (chain 42,
//! height 1, a zero beacon).

use cowboy_pvm::{BlockInfo, CallContext};

pub fn ctx() -> CallContext {
    CallContext {
        actor: [0xaa; 20],
        caller: [0x11; 20],
        value: 0,
        block: BlockInfo {
            height: 1,
            epoch: 0,
            view: 1,
            timestamp_ms: 0,
            chain_id: 42,
            beacon: vec![0; 48],
        },
        nonce: 0,
        depth: 0,
        limits: Default::default(),
        entitlements: Default::default(),
    }
}
