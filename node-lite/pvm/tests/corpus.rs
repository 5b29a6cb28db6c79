//! The PVM computes exactly what CPython 3.11 computes: every program in `corpus/` is run by
//! CPython (`oracle.py`, the reference) and by the PVM, and the canonical encodings of their
//! results must be identical, byte for byte.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

#[path = "support/context.rs"]
mod context;

pub use context::ctx;
use cowboy_pvm::{Limits, MemoryHost, PvmThread};
use std::{collections::BTreeMap, path::Path, process::Command};

const WRAPPER: &str = "\n\nclass Actor:\n    def go(self):\n        return run()\n";

/// Runs the oracle under CPython: program name → `{"ok": hex}` or `{"error": ...}`.
fn oracle(dir: &Path) -> BTreeMap<String, serde_json::Value> {
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle.py"))
        .arg(dir)
        .env("PYTHONHASHSEED", "0")
        .output()
        .expect("python3 (CPython 3.11) must be installed: it is the oracle for actor semantics");
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("oracle output is JSON")
}

/// Runs each program on the PVM: name → encoded result hex, or the error.
pub fn run_on_pvm(
    programs: Vec<(String, String)>,
) -> BTreeMap<String, Result<(String, u64, u64), String>> {
    let pvm = PvmThread::spawn().expect("PVM starts");
    pvm.run(move |engine| {
        let mut results = BTreeMap::new();
        for (name, source) in programs {
            let source = format!("{source}{WRAPPER}");
            let outcome = match engine.load(&source) {
                Err(d) => Err(format!(
                    "validation: {}",
                    d.iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                )),
                Ok(code) => {
                    let mut host = MemoryHost::default();
                    let limits = Limits {
                        cycles: 50_000_000,
                        cells: 1_000_000,
                    };
                    let deploy = engine.deploy(&code, &mut host, ctx(), &[], limits);
                    match deploy.result {
                        Err(e) => Err(format!("deploy: {e}")),
                        Ok(_) => {
                            host.apply(&[0xaa; 20], &deploy.effects);
                            let out = engine.call(&code, &mut host, ctx(), "go", &[], limits);
                            match out.result {
                                Ok(v) => Ok((
                                    hex::encode(v.encode().expect("encodable")),
                                    out.cycles_used,
                                    out.cells_used,
                                )),
                                Err(e) => Err(format!(
                                    "{e}{}",
                                    e.traceback
                                        .clone()
                                        .map(|t| format!("\n{t}"))
                                        .unwrap_or_default()
                                )),
                            }
                        }
                    }
                }
            };
            results.insert(name, outcome);
        }
        results
    })
    .expect("PVM thread")
}

pub fn corpus_programs() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut programs: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .map(|p| {
            (
                p.file_stem().expect("name").to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).expect("program"),
            )
        })
        .collect();
    programs.sort();
    programs
}

#[test]
fn corpus_matches_cpython() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let expected = oracle(&dir);
    let programs = corpus_programs();
    assert!(
        programs.len() >= 150,
        "the corpus must hold at least 150 programs"
    );
    let actual = run_on_pvm(programs);
    let mut failures = Vec::new();
    for (name, got) in &actual {
        let want = expected
            .get(name)
            .and_then(|v| v.get("ok"))
            .and_then(|v| v.as_str());
        match (want, got) {
            (Some(w), Ok((g, _, _))) if w == g => {}
            (w, g) => failures.push(format!("{name}: CPython {w:?}, PVM {g:?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} programs differ from CPython:\n{}",
        failures.len(),
        actual.len(),
        failures.join("\n")
    );
}
