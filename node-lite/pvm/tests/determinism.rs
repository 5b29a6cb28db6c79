//! Exact, reproducible metering: the cycles and cells of every corpus program are checked in
//! (`golden/metering.json`) and asserted exactly, and two separate processes compute identical
//! results and counts.
//!
//! After an intentional cost-table change, regenerate with
//! `COWBOY_UPDATE_GOLDEN=1 cargo test -p cowboy-pvm --test determinism` and bump
//! `COST_TABLE_VERSION`.

#[path = "corpus.rs"]
#[allow(dead_code)]
mod corpus;

use std::{collections::BTreeMap, path::Path, process::Command};

type Results = BTreeMap<String, serde_json::Value>;

fn measure() -> Results {
    corpus::run_on_pvm(corpus::corpus_programs())
        .into_iter()
        .map(|(name, r)| {
            let v = match r {
                Ok((hex, cycles, cells)) => {
                    serde_json::json!({"result": hex, "cycles": cycles, "cells": cells})
                }
                Err(e) => serde_json::json!({"error": e}),
            };
            (name, v)
        })
        .collect()
}

/// Helper run in a child process by `two_processes_agree`.
#[test]
fn print_measurements() {
    if std::env::var_os("COWBOY_PRINT_MEASUREMENTS").is_none() {
        return;
    }
    println!(
        "MEASUREMENTS {}",
        serde_json::to_string(&measure()).expect("json")
    );
}

fn child_measurements() -> Results {
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "print_measurements",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("COWBOY_PRINT_MEASUREMENTS", "1")
        .output()
        .expect("run the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| {
            l.find("MEASUREMENTS ")
                .map(|i| &l[i + "MEASUREMENTS ".len()..])
        })
        .unwrap_or_else(|| panic!("child printed no measurements: {stdout}"));
    serde_json::from_str(line).expect("measurements json")
}

#[test]
fn two_processes_agree() {
    let a = child_measurements();
    let b = child_measurements();
    assert_eq!(a.len(), b.len());
    for (name, va) in &a {
        assert_eq!(
            Some(va),
            b.get(name),
            "{name} differs between two processes"
        );
    }
}

#[test]
fn metering_matches_golden_counts() {
    let golden_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/metering.json");
    let actual = measure();
    if std::env::var_os("COWBOY_UPDATE_GOLDEN").is_some() {
        std::fs::write(
            &golden_path,
            serde_json::to_string_pretty(&actual).expect("json") + "\n",
        )
        .expect("write golden");
        return;
    }
    let golden: Results = serde_json::from_str(
        &std::fs::read_to_string(&golden_path).expect("golden/metering.json exists"),
    )
    .expect("golden json");
    let mut diffs = Vec::new();
    for (name, want) in &golden {
        match actual.get(name) {
            Some(got) if got == want => {}
            got => diffs.push(format!("{name}: golden {want}, now {got:?}")),
        }
    }
    for name in actual.keys() {
        if !golden.contains_key(name) {
            diffs.push(format!("{name}: not in the golden file"));
        }
    }
    assert!(diffs.is_empty(), "metering changed:\n{}", diffs.join("\n"));
}

#[test]
fn warm_and_cold_runs_agree() {
    // The same engine runs the corpus twice: code objects, caches and interned strings are
    // warm the second time, and nothing observable may change (consensus on a node that has
    // run for months must equal a node that just started).
    let programs = corpus::corpus_programs();
    let second: Vec<(String, String)> = programs
        .iter()
        .rev()
        .map(|(n, s)| (format!("{n}#2"), s.clone()))
        .collect();
    let twice: Vec<(String, String)> = programs
        .into_iter()
        .map(|(n, s)| (format!("{n}#1"), s))
        .chain(second)
        .collect();
    let results = corpus::run_on_pvm(twice);
    for (name, first) in &results {
        if let Some(base) = name.strip_suffix("#1") {
            assert_eq!(
                Some(first),
                results.get(&format!("{base}#2")),
                "{base}: warm run differs from cold run"
            );
        }
    }
}
