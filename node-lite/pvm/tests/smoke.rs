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

const LIMITS: Limits = Limits {
    cycles: 1_000_000,
    cells: 100_000,
};

/// An engine with `src` loaded and deployed (at height 1) into a fresh host.
fn deployed(src: &str) -> (Engine, std::rc::Rc<ActorCode>, MemoryHost) {
    let mut engine = Engine::new().expect("engine");
    let code = engine.load(src).expect("load");
    let mut host = MemoryHost::default();
    let out = engine.deploy(&code, &mut host, ctx(1), &[], LIMITS);
    println!("deploy: {:?}", out);
    host.apply(&[0xaa; 20], &out.effects);
    (engine, code, host)
}

#[test]
fn counter() {
    let src = "class Actor:\n    def __init__(self):\n        self.n = 0\n    def inc(self, by=1):\n        self.n += by\n        return self.n\n";
    let (mut engine, code, mut host) = deployed(src);
    let lim = LIMITS;
    let args = Value::List(vec![Value::Int(5.into())]).encode().unwrap();
    let out = engine.call(&code, &mut host, ctx(2), "inc", &args, lim);
    println!("call: {:?}", out);
    assert_eq!(out.result, Ok(Value::Int(5.into())));
}

/// An error in a nested operator names the line the operator starts on, whether the two
/// operators start on one line (and make one call, `instrument::Fuse`) or not.
#[test]
fn an_error_in_a_nested_operator_names_its_line() {
    let src = "class Actor:\n    def same(self, a, b):\n        return a + b * 2\n    def split(self, a, b):\n        return (a +\n            b * 2)\n    def outer(self, a, b):\n        return (a +\n            b * 2)\n";
    let (mut engine, code, mut host) = deployed(src);
    let lim = LIMITS;
    let mut failing_line = |method: &str, a: Value, b: Value| {
        let out = engine.call(
            &code,
            &mut host,
            ctx(2),
            method,
            &Value::List(vec![a, b]).encode().unwrap(),
            lim,
        );
        let error = out.result.expect_err("the call fails");
        let traceback = error.traceback.expect("a traceback");
        let line = traceback
            .lines()
            .filter_map(|l| l.split(", line ").nth(1))
            .next_back()
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.parse::<u32>().ok());
        (error.message, line)
    };
    let text = |x: &str| Value::Str(x.into());
    // `b * 2` fails (the inner operator).
    let (message, line) = failing_line("same", Value::Int(1.into()), Value::None);
    assert!(
        message.contains("unsupported operand type(s) for *"),
        "{message}"
    );
    assert_eq!(line, Some(3));
    let (_, line) = failing_line("split", Value::Int(1.into()), Value::None);
    assert_eq!(line, Some(6));
    // `a + …` fails (the outer operator).
    let (message, line) = failing_line("same", Value::Int(1.into()), text("x"));
    assert!(
        message.contains("unsupported operand type(s) for +"),
        "{message}"
    );
    assert_eq!(line, Some(3));
    let (_, line) = failing_line("outer", Value::Int(1.into()), text("x"));
    assert_eq!(line, Some(8));
}
