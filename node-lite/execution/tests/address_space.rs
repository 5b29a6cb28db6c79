//! Two validators in processes with different address-space layouts agree at every height
//! (issue 12). A generated corpus of actors, many built to leak what differs between the
//! processes — object addresses through `id()`, `hash()`, default `repr`s, error messages,
//! the iteration order of sets and dicts of identity-hashed objects, float corner cases — is
//! deployed and called block by block through the real state transition. One child runs with
//! the kernel's address randomisation, the other without it (`setarch -R`), with its heap
//! shifted and its engine warmed up by unrelated calls first. Every state root, and every
//! receipt, must be identical: each leak is either deterministic or refused by a named rule.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::params::Parameters;
use std::process::Command;

/// Helper classes every generated actor defines.
const PRELUDE: &str = r#"
class Plain:
    pass

class Keyed:
    def __init__(self, k):
        self.k = k
    def __eq__(self, other):
        return self is other
    def __hash__(self):
        return id(self)
"#;

/// Expressions that would reveal host state if the PVM let them: each is one attempt.
const LEAKS: &[&str] = &[
    "id(object())",
    "id(self)",
    "id(Plain()) - id(Plain())",
    "hash(object())",
    "hash(Plain())",
    "hash(self)",
    "repr(object())",
    "repr(Plain())",
    "str(Plain)",
    "repr(self.leak)",
    "repr(lambda: 0)",
    "repr((i for i in range(3)))",
    "repr(iter([1]))",
    "repr(enumerate([]))",
    "repr(map(str, []))",
    "repr(zip())",
    "repr(property())",
    "repr(type(self))",
    "[id(x) % 1000 for x in {Plain(), Plain(), Plain()}]",
    "[x.k for x in {Keyed(1), Keyed(2), Keyed(3), Keyed(4)}]",
    "list({Keyed(5): 1, Keyed(6): 2}.values())",
    "sorted([Plain(), Plain()], key=id) and 'sorted'",
    "hex(id([]))",
    "'%x' % id(self)",
    "format(Plain())",
    "'{}'.format(object())",
    "'%s' % Plain()",
    "f'{Plain()!r}'",
    "str(Exception(Plain()))",
    "repr(slice(Plain()))",
    "repr(dict.fromkeys([Plain()]))",
    "hash(float('nan'))",
    "hash(1.5) + hash(-0.0)",
    "repr(0.1 + 0.2)",
    "(1e308 * 10, -1e308 * 10)",
    "float('nan') == float('nan')",
    "id(object()) == id(object())",
    "hash(frozenset([Plain(), Plain()]))",
    "hash((Plain(), 1))",
    "Plain() < Plain()",
    "max([Plain(), Plain()], key=hash) and 'max'",
    "__import__('time').time()",
    "__import__('random').random()",
    "getattr(self, '__dict__')",
    "type(self).__dict__",
    "vars(Plain())",
    "[k for k in globals()]",
];

/// A small deterministic generator (the corpus is the same in every process).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize
    }
}

/// Actor `i`: three leak attempts, each result (or the exception it raised) stored.
fn actor(i: usize) -> String {
    let mut rng = Lcg(i as u64 + 1);
    let mut body = String::new();
    for _ in 0..3 {
        let leak = LEAKS[rng.next() % LEAKS.len()];
        body.push_str(&format!(
            "        try:\n            out.append(str({leak}))\n        except Exception as e:\n            out.append(type(e).__name__ + ': ' + str(e))\n"
        ));
    }
    format!(
        "{PRELUDE}\nclass Actor:\n    def __init__(self):\n        self.storage['n'] = {i}\n\n    def leak(self):\n        out = []\n{body}        self.storage['leaks'] = out\n        return out\n"
    )
}

/// How many generated actors each process runs (each in two blocks: deploy, then call).
const ACTORS: usize = 48;

#[test]
fn print_roots() {
    if std::env::var_os("COWBOY_PRINT_ROOTS").is_none() {
        return;
    }
    // Shift this process's heap, and warm its engine up with unrelated calls, as a long-running
    // validator's would be.
    let shift: usize = std::env::var("COWBOY_HEAP_SHIFT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let ballast = vec![1u8; shift];
    let warm = std::env::var_os("COWBOY_WARM_ENGINE").is_some();
    let lines = with_engine(move |engine| {
        if warm {
            let code = engine
                .load("class Actor:\n    def f(self):\n        return [repr(object()) for _ in range(500)]\n")
                .expect("valid");
            for _ in 0..20 {
                let _ = engine.call(
                    &code,
                    &mut cowboy_pvm::MemoryHost::default(),
                    cowboy_pvm::CallContext::local([9; 20], [8; 20], 0, 1),
                    "f",
                    &[],
                    cowboy_pvm::Limits {
                        cycles: 10_000_000,
                        cells: 1_000_000,
                    },
                );
            }
        }
        let a = key(1);
        let node = Node::new(&genesis_with(
            Parameters::spec(),
            &[(a.address(), 1_000_000 * CBY)],
        ));
        let mut lines = Vec::new();
        let mut nonce = 0;
        for i in 0..ACTORS {
            let code = actor(i);
            let salt = (i % 256) as u8;
            for instruction in [
                deploy(&code, salt, vec![]),
                call(actor_at(a.address(), &code, salt), "leak", vec![], 0),
            ] {
                let t = tx_with(&a, nonce, instruction, 5_000_000, 500_000);
                nonce += 1;
                let executed = node.block(engine, vec![t.clone()]);
                let r = receipt_of(&executed, &t.digest());
                lines.push(format!(
                    "{} {} {:?} {} {}",
                    executed.block.header.height,
                    node.chain.store().snapshot().expect("snapshot").root,
                    r.status,
                    r.cycles_used,
                    hex::encode(&r.return_data)
                ));
            }
        }
        lines
    });
    drop(ballast);
    for line in lines {
        println!("ROOT {line}");
    }
}

/// Runs [`print_roots`] in a child process; `no_aslr` runs it without address randomisation.
fn child(no_aslr: bool, heap_shift: usize, warm: bool) -> Vec<String> {
    let exe = std::env::current_exe().expect("test binary");
    let mut cmd = if no_aslr {
        let mut c = Command::new("setarch");
        c.arg(std::env::consts::ARCH).arg("-R").arg(exe);
        c
    } else {
        Command::new(exe)
    };
    cmd.args([
        "--exact",
        "print_roots",
        "--nocapture",
        "--test-threads",
        "1",
    ])
    .env("COWBOY_PRINT_ROOTS", "1")
    .env("COWBOY_HEAP_SHIFT", heap_shift.to_string());
    if warm {
        cmd.env("COWBOY_WARM_ENGINE", "1");
    }
    let out = cmd.output().expect("run the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<String> = stdout
        .lines()
        .filter_map(|l| l.find("ROOT ").map(|i| l[i + 5..].to_string()))
        .collect();
    assert_eq!(
        lines.len(),
        2 * ACTORS,
        "the child ran every block: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lines
}

#[test]
fn processes_with_different_address_layouts_agree_at_every_height() {
    let randomised = child(false, 0, false);
    let fixed = child(true, 37 * 1024 * 1024 + 4_097, true);
    for (a, b) in randomised.iter().zip(&fixed) {
        assert_eq!(a, b, "the two processes disagree");
    }
    // The corpus exercises both outcomes: handlers that ran, and refusals.
    let ran = randomised.iter().filter(|l| l.contains("Success")).count();
    let refused = randomised.iter().filter(|l| l.contains("Failed")).count();
    assert!(
        ran > ACTORS / 2 && refused > 0,
        "{ran} ran, {refused} refused"
    );
}
