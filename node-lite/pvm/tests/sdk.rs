//! The actor SDK end to end: storage, messages, timers, events, randomness, hashing, signature
//! verification, context, persistence of attributes, atomic revert, and the programs the PVM
//! refuses on purpose (each with its expected error).

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_pvm::{
    BlockInfo, CallContext, CallOutcome, Engine, ErrorKind, Limits, MemoryHost, PvmThread, Value,
};
use sha3::Digest as _;

const ACTOR: [u8; 20] = [0xaa; 20];
const CALLER: [u8; 20] = [0x11; 20];
const LIMITS: Limits = Limits {
    cycles: 5_000_000,
    cells: 1_000_000,
};

fn ctx(height: u64) -> CallContext {
    CallContext {
        actor: ACTOR,
        caller: CALLER,
        value: 7,
        block: BlockInfo {
            height,
            epoch: 3,
            view: 99,
            timestamp_ms: 1_700_000_000_000,
            chain_id: 42,
            beacon: vec![5; 48],
        },
        nonce: 0,
        depth: 0,
        limits: Default::default(),
        entitlements: Default::default(),
    }
}

fn args(values: Vec<Value>) -> Vec<u8> {
    Value::List(values).encode().expect("encodable")
}

fn int(i: i64) -> Value {
    Value::Int(i.into())
}

fn s(x: &str) -> Value {
    Value::Str(x.into())
}

fn b(x: &[u8]) -> Value {
    Value::Bytes(x.to_vec())
}

/// Deploys `source` and runs `calls` in order on one host, applying successful effects.
fn session(source: &'static str, calls: Vec<(&'static str, Vec<u8>)>) -> Vec<CallOutcome> {
    let pvm = PvmThread::spawn().expect("PVM");
    pvm.run(move |engine: &mut Engine| {
        let code = engine.load(source).expect("valid actor");
        let mut host = MemoryHost::default();
        host.balances.insert(ACTOR, 1_000);
        let d = engine.deploy(&code, &mut host, ctx(10), &[], LIMITS);
        assert!(d.result.is_ok(), "deploy: {:?}", d.result);
        host.apply(&ACTOR, &d.effects);
        let mut outs = Vec::new();
        for (m, a) in calls {
            let out = engine.call(&code, &mut host, ctx(11), m, &a, LIMITS);
            if out.result.is_ok() {
                host.apply(&ACTOR, &out.effects);
            }
            outs.push(out);
        }
        outs
    })
    .expect("PVM thread")
}

#[test]
fn storage_round_trips_and_reverts_on_failure() {
    const SRC: &str = r#"
from cowboy_sdk import actor

@actor
class Store:
    def put(self, k, v):
        self.storage[k] = v

    def get(self, k):
        return self.storage.get(k, "missing")

    def put_then_fail(self, k, v):
        self.storage[k] = v
        raise ValueError("changed my mind")

    def delete(self, k):
        del self.storage[k]
        return k in self.storage

    def pop(self, k):
        return self.storage.pop(k, None)
"#;
    let outs = session(
        SRC,
        vec![
            ("put", args(vec![s("a"), Value::List(vec![int(1), s("x")])])),
            ("get", args(vec![s("a")])),
            ("put_then_fail", args(vec![s("a"), int(99)])),
            ("get", args(vec![s("a")])),
            ("put", args(vec![int(5), b(b"raw")])),
            ("get", args(vec![int(5)])),
            ("delete", args(vec![s("a")])),
            ("get", args(vec![s("a")])),
            ("pop", args(vec![int(5)])),
            ("pop", args(vec![int(5)])),
        ],
    );
    let results: Vec<_> = outs.iter().map(|o| o.result.clone()).collect();
    assert_eq!(results[1], Ok(Value::List(vec![int(1), s("x")])));
    assert!(
        matches!(&results[2], Err(e) if e.kind == ErrorKind::Exception && e.message.contains("changed my mind"))
    );
    assert!(
        outs[2].effects.storage.is_empty(),
        "a failed call leaves no effects"
    );
    assert_eq!(
        results[3],
        Ok(Value::List(vec![int(1), s("x")])),
        "the failed write was reverted"
    );
    assert_eq!(results[5], Ok(b(b"raw")));
    assert_eq!(results[6], Ok(Value::Bool(false)));
    assert_eq!(results[7], Ok(s("missing")));
    assert_eq!(results[8], Ok(b(b"raw")));
    assert_eq!(results[9], Ok(Value::None));
    // A storage write costs 200 cycles plus one cell per byte of key and value.
    assert!(outs[0].cells_used >= (2 + 4) as u64);
}

/// The SDK's storage is the class's `storage` only when the class (or a base) has none of its
/// own; a class that has one keeps it, and a plain class gets the SDK's.
#[test]
fn a_class_with_its_own_storage_keeps_it() {
    const SRC: &str = r#"
class Base:
    storage = "the base's"

class Actor(Base):
    def which(self):
        return self.storage
"#;
    let outs = session(SRC, vec![("which", args(vec![]))]);
    assert_eq!(outs[0].result, Ok(s("the base's")));
    const OWN: &str = r#"
class Actor:
    storage = "its own"

    def which(self):
        return self.storage
"#;
    let outs = session(OWN, vec![("which", args(vec![]))]);
    assert_eq!(outs[0].result, Ok(s("its own")));
    const PLAIN: &str = r#"
class Actor:
    def which(self):
        return repr(self.storage)
"#;
    let outs = session(PLAIN, vec![("which", args(vec![]))]);
    assert_eq!(outs[0].result, Ok(s("<Storage>")));
}

#[test]
fn plain_attributes_persist() {
    const SRC: &str = r#"
class Actor:
    def __init__(self):
        self.count = 0
        self.names = []

    def add(self, name):
        self.count += 1
        self.names.append(name)
        return [self.count, self.names]

    def forget(self):
        del self.names
        return self.count

    def keep_a_set(self):
        self.bad = {1, 2}
"#;
    let outs = session(
        SRC,
        vec![
            ("add", args(vec![s("a")])),
            ("add", args(vec![s("b")])),
            ("forget", args(vec![])),
            ("keep_a_set", args(vec![])),
            ("add", args(vec![s("c")])),
        ],
    );
    assert_eq!(
        outs[1].result,
        Ok(Value::List(vec![int(2), Value::List(vec![s("a"), s("b")])]))
    );
    assert_eq!(outs[2].result, Ok(int(2)));
    assert!(
        matches!(&outs[3].result, Err(e) if e.kind == ErrorKind::InvalidValue && e.message.contains("self.bad"))
    );
    // `names` was deleted, so the next add fails with an AttributeError, not stale data.
    assert!(matches!(&outs[4].result, Err(e) if e.message.contains("names")));
}

#[test]
fn messages_timers_events_and_context() {
    const SRC: &str = r#"
import cowboy_sdk as sdk

class Actor:
    def go(self):
        mid = sdk.send("0x2222222222222222222222222222222222222222", "ping", 1, "two", value=5)
        t1 = sdk.set_timer(sdk.block_height() + 5, "tick", "later", cycles=50000, cells=1000)
        t2 = sdk.set_interval(10, "tick")
        cancelled = sdk.cancel_timer(t1)
        sdk.emit("Went", {"n": 1}, topics=["extra"])
        print("hello", 42)
        return [mid, t2, cancelled, sdk.caller(), sdk.self_address(), sdk.value(),
                sdk.block_height(), list(sdk.block_round()), sdk.chain_id(), sdk.block_timestamp(),
                sdk.balance()]

    def tick(self, *a):
        return a

    def past_timer(self):
        sdk.set_timer(sdk.block_height(), "tick")

    def misspelled_timer(self):
        try:
            sdk.set_interval(10, "tik")
        except ValueError as e:
            return str(e)
"#;
    let outs = session(
        SRC,
        vec![
            ("go", args(vec![])),
            ("past_timer", args(vec![])),
            ("misspelled_timer", args(vec![])),
        ],
    );
    let out = &outs[0];
    let Ok(Value::List(r)) = &out.result else {
        panic!("{:?}", out.result)
    };
    assert_eq!(
        r[2],
        Value::Bool(true),
        "cancelling a timer created in the same call works"
    );
    assert_eq!(r[3], s(&format!("0x{}", hex::encode(CALLER))));
    assert_eq!(r[4], s(&format!("0x{}", hex::encode(ACTOR))));
    assert_eq!(r[5], int(7));
    assert_eq!(r[6], int(11));
    assert_eq!(r[7], Value::List(vec![int(3), int(99)]));
    assert_eq!(r[8], int(42));
    assert_eq!(r[9], int(1_700_000_000_000));
    assert_eq!(r[10], int(1_000));
    let e = &out.effects;
    assert_eq!(e.messages.len(), 1);
    assert_eq!(e.messages[0].method, "ping");
    assert_eq!(e.messages[0].value, 5);
    assert_eq!(
        Value::decode(&e.messages[0].args).unwrap(),
        Value::List(vec![int(1), s("two")])
    );
    assert_eq!(r[0], s(&format!("0x{}", hex::encode(e.messages[0].id))));
    assert_eq!(e.timers_set.len(), 1, "t1 was cancelled in the same call");
    assert_eq!(e.timers_set[0].every, 10);
    assert_eq!(e.timers_set[0].height, 21);
    assert_eq!(r[1], s(&format!("0x{}", hex::encode(e.timers_set[0].id))));
    assert_eq!(e.events.len(), 1);
    assert_eq!(
        e.events[0].topics[0].to_vec(),
        sha3::Keccak256::digest(b"Went").to_vec()
    );
    assert_eq!(
        e.events[0].topics[1].to_vec(),
        sha3::Keccak256::digest(b"extra").to_vec()
    );
    assert_eq!(
        Value::decode(&e.events[0].data).unwrap(),
        Value::dict(vec![(s("n"), int(1))]).unwrap()
    );
    assert_eq!(out.logs, vec!["hello 42".to_string()]);
    assert!(matches!(&outs[1].result, Err(e) if e.message.contains("not after the current block")));
    // A timer fires one of the actor's own handlers: any other name is refused when it is set.
    assert_eq!(
        outs[2].result.as_ref().ok(),
        Some(&s(
            "`tik` is not a handler of Actor (handlers: go, tick, past_timer, misspelled_timer): \
             a timer fires one of the actor's own public methods"
        )),
        "{:?}",
        outs[2].result
    );
    assert!(outs[2].effects.timers_set.is_empty());
}

#[test]
fn randomness_hashes_and_signatures() {
    const SRC: &str = r#"
import cowboy_sdk as sdk
import hashlib

class Actor:
    def rand(self, label):
        return [sdk.randomness(label), sdk.randomness(label), sdk.randomness(label + "!")]

    def hashes(self, data):
        return [sdk.keccak256(data), sdk.sha256(data), sdk.blake3(data), hashlib.sha256(data).digest()]

    def verify(self, scheme, msg, sig, key):
        return sdk.verify_signature(scheme, msg, sig, key)
"#;
    // secp256k1: the key's address signs a 32-byte hash.
    let key = cowboy_crypto::PrivateKey::from_hex(&"11".repeat(32)).unwrap();
    let hash = cowboy_types::keccak256(b"cowboy");
    let sig = key.sign_hash(&hash);
    // ed25519.
    let ed = ed25519_dalek::SigningKey::from_bytes(&[3u8; 32]);
    let ed_sig = ed25519_dalek::Signer::sign(&ed, b"hello");
    // BLS12-381 (min-pk).
    let bls = blst::min_pk::SecretKey::key_gen(&[4u8; 32], &[]).unwrap();
    let dst = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_";
    let bls_sig = bls.sign(b"block", dst, &[]);
    let v = |scheme: &str, msg: &[u8], sig: &[u8], key: &[u8]| {
        ("verify", args(vec![s(scheme), b(msg), b(sig), b(key)]))
    };
    let mut bad_sig = sig.0;
    bad_sig[10] ^= 1;
    let outs = session(
        SRC,
        vec![
            ("rand", args(vec![s("lottery")])),
            ("hashes", args(vec![b(b"abc")])),
            v("secp256k1", &hash.0, &sig.0, &key.address().0),
            v("secp256k1", &hash.0, &bad_sig, &key.address().0),
            v(
                "ed25519",
                b"hello",
                &ed_sig.to_bytes(),
                &ed.verifying_key().to_bytes(),
            ),
            v(
                "ed25519",
                b"hellO",
                &ed_sig.to_bytes(),
                &ed.verifying_key().to_bytes(),
            ),
            v(
                "bls12381",
                b"block",
                &bls_sig.to_bytes(),
                &bls.sk_to_pk().to_bytes(),
            ),
            v(
                "bls12381",
                b"blocK",
                &bls_sig.to_bytes(),
                &bls.sk_to_pk().to_bytes(),
            ),
            ("verify", args(vec![s("rsa"), b(b""), b(b""), b(b"")])),
        ],
    );
    let Ok(Value::List(r)) = &outs[0].result else {
        panic!("{:?}", outs[0].result)
    };
    let hk = hkdf::Hkdf::<sha2::Sha256>::new(None, &[5u8; 48]);
    let mut expected = [0u8; 32];
    hk.expand(b"lottery", &mut expected).unwrap();
    assert_eq!(
        r[0],
        b(&expected),
        "randomness is HKDF-SHA256(beacon, label)"
    );
    assert_eq!(r[0], r[1]);
    assert_ne!(r[0], r[2]);
    let Ok(Value::List(h)) = &outs[1].result else {
        panic!()
    };
    assert_eq!(h[0], b(&sha3::Keccak256::digest(b"abc")));
    assert_eq!(h[1], b(&sha2::Sha256::digest(b"abc")));
    assert_eq!(h[2], b(blake3::hash(b"abc").as_bytes()));
    assert_eq!(h[3], h[1]);
    let verdicts: Vec<_> = outs[2..8].iter().map(|o| o.result.clone()).collect();
    assert_eq!(
        verdicts,
        vec![
            Ok(Value::Bool(true)),
            Ok(Value::Bool(false)),
            Ok(Value::Bool(true)),
            Ok(Value::Bool(false)),
            Ok(Value::Bool(true)),
            Ok(Value::Bool(false)),
        ]
    );
    assert!(matches!(&outs[8].result, Err(e) if e.message.contains("unknown signature scheme")));
    // Verification is priced per scheme (whitepaper §3).
    assert!(
        outs[2].cycles_used > 10_000 && outs[4].cycles_used > 5_000 && outs[6].cycles_used > 8_000
    );
}

#[test]
fn refused_on_purpose() {
    const SRC: &str = r#"
class Actor:
    def a_float(self):
        return 0.5

    def a_set(self):
        return {1, 2}

    def big(self):
        return "x" * 70000

    def echo(self, *a):
        return list(a)

    def _private(self):
        return "secret"
"#;
    let outs = session(
        SRC,
        vec![
            ("a_float", args(vec![])),
            ("a_set", args(vec![])),
            ("big", args(vec![])),
            ("nope", args(vec![])),
            ("_private", args(vec![])),
            ("echo", Value::Int(5.into()).encode().unwrap()),
            ("echo", vec![0xfb, 0, 0, 0, 0, 0, 0, 0, 0]),
            ("echo", args(vec![int(1)])),
        ],
    );
    let kinds: Vec<_> = outs
        .iter()
        .map(|o| o.result.as_ref().err().map(|e| (e.kind, e.message.clone())))
        .collect();
    assert!(
        matches!(&kinds[0], Some((ErrorKind::InvalidValue, m)) if m.contains("floats are not allowed"))
    );
    assert!(matches!(&kinds[1], Some((ErrorKind::InvalidValue, m)) if m.contains("sorted list")));
    assert!(matches!(&kinds[2], Some((ErrorKind::ReturnTooLarge, _))));
    assert!(matches!(&kinds[3], Some((ErrorKind::HandlerNotFound, _))));
    assert!(matches!(&kinds[4], Some((ErrorKind::HandlerNotFound, _))));
    assert!(matches!(&kinds[5], Some((ErrorKind::InvalidArguments, m)) if m.contains("list")));
    assert!(matches!(&kinds[6], Some((ErrorKind::InvalidArguments, m)) if m.contains("float")));
    assert_eq!(outs[7].result, Ok(Value::List(vec![int(1)])));

    // Refused before running: each rule with a program that breaks it.
    let mut engine = Engine::new().expect("engine");
    for (src, rule) in [
        (
            "class Actor:\n    async def f(self):\n        pass\n",
            "async-not-supported",
        ),
        (
            "class Actor:\n    def f(self):\n        return 'a' is 'a'\n",
            "identity-comparison",
        ),
        (
            "class Actor:\n    def f(self):\n        return complex(1, 2)\n",
            "forbidden-builtin",
        ),
        (
            "class Actor:\n    def f(self):\n        return 1 + 2j\n",
            "complex-number",
        ),
        (
            "class Actor:\n    __module__ = 'builtins'\n",
            "class-metadata",
        ),
        (
            "class Actor:\n    def f(self):\n        return globals()\n",
            "forbidden-builtin",
        ),
        (
            "from . import x\nclass Actor:\n    pass\n",
            "relative-import",
        ),
        (
            "import socket\nclass Actor:\n    pass\n",
            "import-not-allowed",
        ),
        (
            "class Actor:\n    def f():\n        pass\n",
            "handler-signature",
        ),
        ("class Helper:\n    pass\n", "actor-class"),
        (
            "class Actor:\n    def f(self):\n        __m__ = 1\n",
            "dunder-name",
        ),
        ("class Actor:\n    def f(self)\n        pass\n", "syntax"),
    ] {
        let diags = engine.load(src).expect_err(src);
        assert!(
            diags.iter().any(|d| d.rule.id() == rule),
            "{src}: expected {rule}, got {diags:?}"
        );
    }
}

/// `type`'s own `__doc__` setter writes the class namespace without invalidating the method
/// cache; an instance lookup that cached the old value must not read it after it is freed (the
/// runtime invalidates the class's entries around every class attribute write).
#[test]
fn a_class_docstring_replaced_many_times_reads_back_each_value() {
    const SRC: &str = r#"
class Doc:
    pass

class Actor:
    def go(self):
        d = Doc()
        seen = []
        for i in range(300):
            Doc.__doc__ = "doc " * (i % 7 + 1) + str(i)
            seen.append(d.__doc__)
            seen.append(d.__doc__)
        return seen == [("doc " * (i % 7 + 1) + str(i)) for i in range(300) for _ in range(2)]
"#;
    let outs = session(SRC, vec![("go", args(vec![]))]);
    assert_eq!(
        outs[0].result.as_ref().ok(),
        Some(&Value::Bool(true)),
        "{:?}",
        outs[0].result
    );
}
