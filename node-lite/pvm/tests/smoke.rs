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

/// `from m import name` binds what `import m` then `m.name` finds, through every kind of name
/// a module's facade has: a plain object (the library's own, also from the modules the PVM
/// replaces: `re`, `math`), a whitelisted submodule (its facade: one object however often one
/// statement names it, and the one its `__dict__` holds), and the names it does not have (a
/// submodule that is not whitelisted, a whitelisted module that is only an attribute, a missing
/// name), which fail as CPython's do. (No public name of a whitelisted module is a mutable
/// container, which the facade copies: `typing.EXCLUDED_ATTRIBUTES` is a frozenset in the
/// library's `typing`.)
#[test]
fn from_imports_bind_what_the_module_binds() {
    let src = r#"
import collections
import cowboy_sdk
import typing
from collections import abc
from collections.abc import Mapping
from cowboy_sdk import actor, emit
from typing import EXCLUDED_ATTRIBUTES
from collections import abc as abc_a, abc as abc_b
from collections import abc as abc_c, __dict__ as collections_namespace
import re
from re import fullmatch
import math
from math import sqrt

class Actor:
    def same(self):
        return [
            actor is cowboy_sdk.actor and emit is cowboy_sdk.emit,
            Mapping is collections.abc.Mapping and abc.Mapping is Mapping,
            isinstance(abc, type(collections)) and abc.Sequence is collections.abc.Sequence,
            EXCLUDED_ATTRIBUTES is typing.EXCLUDED_ATTRIBUTES,
            abc_a is abc_b and collections_namespace["abc"] is abc_c,
            fullmatch is re.fullmatch and sqrt is math.sqrt,
        ]

    def failures(self):
        out = []
        for statement in ["decoder", "nothing_here", "collections"]:
            try:
                if statement == "decoder":
                    from json import decoder
                elif statement == "nothing_here":
                    from json import nothing_here
                else:
                    from typing import collections
                out.append(None)
            except ImportError as e:
                out.append(str(e))
        return out
"#;
    let (mut engine, code, mut host) = deployed(src);
    let lim = LIMITS;
    let mut call = |method: &str| {
        engine
            .call(&code, &mut host, ctx(2), method, &[], lim)
            .result
    };
    let yes = Value::Bool(true);
    assert_eq!(call("same"), Ok(Value::List(vec![yes; 6])));
    assert_eq!(
        call("failures"),
        Ok(Value::List(vec![
            Value::Str("cannot import name 'decoder' from 'json'".into()),
            Value::Str("cannot import name 'nothing_here' from 'json'".into()),
            // `typing` imports `collections`, which actors may import, but not from `typing`.
            Value::Str("cannot import name 'collections' from 'typing'".into()),
        ]))
    );
}
