//! Diagnostic: which library module globals does running the corpus change? (Run with
//! `--nocapture`; the assertion guards against new history-dependent state.)

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

#[path = "corpus.rs"]
#[allow(dead_code)]
mod corpus;

use cowboy_pvm::{BlockInfo, CallContext, Limits, MemoryHost, PvmThread};

const SNAPSHOT: &str = r#"
import sys
snap = {}
for name, mod in list(sys.modules.items()):
    d = getattr(mod, '__dict__', None)
    if d is None:
        continue
    snap[name] = {k: (id(v), len(v) if isinstance(v, (dict, list, set)) else -1) for k, v in list(d.items()) if k != '__builtins__' and not k.startswith('__cowboy')}
result = snap
"#;

#[test]
fn corpus_leaves_library_globals_unchanged() {
    let pvm = PvmThread::spawn().expect("PVM");
    let programs = corpus::corpus_programs();
    let changes = pvm
        .run(move |engine| {
            engine.debug_exec(&SNAPSHOT.replace("result = snap", "import builtins\nbuiltins.__cowboy_snapshot = snap\nresult = len(snap)")).expect("snapshot");
            for (_, source) in programs {
                let source = format!("{source}\n\nclass Actor:\n    def go(self):\n        return run()\n");
                let Ok(code) = engine.load(&source) else { continue };
                let ctx = CallContext {
                    actor: [0xaa; 20],
                    caller: [0x11; 20],
                    value: 0,
                    block: BlockInfo { height: 1, epoch: 0, view: 1, timestamp_ms: 0, chain_id: 1, beacon: vec![0; 48] },
                    nonce: 0,
depth: 0,
limits: Default::default(),
entitlements: Default::default(),
                };
                let mut host = MemoryHost::default();
                let limits = Limits { cycles: 50_000_000, cells: 1_000_000 };
                let d = engine.deploy(&code, &mut host, ctx.clone(), &[], limits);
                host.apply(&[0xaa; 20], &d.effects);
                let _ = engine.call(&code, &mut host, ctx, "go", &[], limits);
            }
            engine
                .debug_exec(&format!(
                    "{}\nimport builtins\nold = builtins.__cowboy_snapshot\nchanged = []\nfor m, names in snap.items():\n    before = old.get(m)\n    if before is None:\n        changed.append(m + ' (new module)')\n        continue\n    for k, v in names.items():\n        if before.get(k) != v:\n            changed.append(m + '.' + k)\nresult = sorted(changed)",
                    SNAPSHOT.replace("result = snap", "")
                ))
                .expect("diff")
        })
        .expect("PVM thread");
    println!("changed library state: {changes}");
    // What may change is exactly what `_cowboy_reset` restores before every call: the regex
    // module's pattern caches and the fresh decimal context.
    let allowed = ["re._cache", "re._cache2", "_cowboy_reset._fresh_context"];
    let listed: Vec<&str> = changes
        .trim_matches(|c| c == '[' || c == ']')
        .split(", ")
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_matches('\''))
        .collect();
    for name in &listed {
        assert!(
            allowed.contains(name),
            "library state changed across calls: {name}"
        );
    }
}
