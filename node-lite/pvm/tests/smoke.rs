#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.
use cowboy_pvm::*;

fn ctx(height: u64) -> CallContext {
    CallContext {
        actor: [0xaa; 20],
        caller: [0x11; 20],
        value: 0,
        block: BlockInfo {
            height,
            epoch: 0,
            view: height,
            timestamp_ms: 1_700_000_000_000,
            chain_id: 42,
            beacon: vec![7; 48],
        },
        nonce: 0,
        depth: 0,
        limits: Default::default(),
        entitlements: Default::default(),
    }
}

#[test]
fn counter() {
    let src = "class Actor:\n    def __init__(self):\n        self.n = 0\n    def inc(self, by=1):\n        self.n += by\n        return self.n\n";
    let mut engine = Engine::new().expect("engine");
    let code = engine.load(src).expect("load");
    let mut host = MemoryHost::default();
    let lim = Limits {
        cycles: 1_000_000,
        cells: 100_000,
    };
    let out = engine.deploy(&code, &mut host, ctx(1), &[], lim);
    println!("deploy: {:?}", out);
    host.apply(&[0xaa; 20], &out.effects);
    let args = Value::List(vec![Value::Int(5.into())]).encode().unwrap();
    let out = engine.call(&code, &mut host, ctx(2), "inc", &args, lim);
    println!("call: {:?}", out);
    assert_eq!(out.result, Ok(Value::Int(5.into())));
}
