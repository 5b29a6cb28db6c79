//! Runner selection against its checked-in test vectors (issue 15 acceptance): the vectors'
//! outputs were computed by `tests/selection_oracle.py`, an independent Python implementation
//! of CIP-2 §5 and the spec README's selection decisions, and the Rust selection must
//! reproduce every seed, committee, aggregator and retry draw.
#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_execution::runners::selection::{self, Candidate, Member, Snapshot};
use cowboy_types::{Address, Hash, block::Round, decode_hex};
use serde_json::Value;
use std::{num::NonZeroU64, process::Command};

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/vectors/runner_selection.json"
);

fn vectors() -> Value {
    let text = std::fs::read_to_string(VECTORS).expect("the selection vectors are checked in");
    serde_json::from_str(&text).expect("vectors are JSON")
}

fn address(v: &Value) -> Address {
    v.as_str().expect("address").parse().expect("address hex")
}

fn number(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.parse().expect("decimal"),
        other => other.as_u64().expect("number"),
    }
}

fn addresses(v: &Value) -> Vec<Address> {
    v.as_array().expect("list").iter().map(address).collect()
}

#[test]
fn rust_selection_reproduces_the_python_vectors() {
    let doc = vectors();
    let vectors = doc["vectors"].as_array().expect("vectors");
    assert_eq!(vectors.len(), 4);
    for v in vectors {
        let (name, input, output) = (&v["name"], &v["input"], &v["output"]);
        let round = Round {
            epoch: number(&input["round"]["epoch"]),
            view: number(&input["round"]["view"]),
        };
        let beacon = decode_hex(input["beacon"].as_str().expect("beacon")).expect("hex");
        let job_id: Hash = input["job_id"]
            .as_str()
            .expect("job")
            .parse()
            .expect("hash");
        let min_stake = NonZeroU64::new(number(&input["min_stake"])).expect("floor");
        let m = number(&input["m"]) as usize;
        let candidates: Vec<(Candidate, u64)> = input["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .map(|c| {
                (
                    Candidate {
                        address: address(&c["address"]),
                        stake: number(&c["stake"]),
                    },
                    number(&c["reputation"]),
                )
            })
            .collect();
        let snapshot = Snapshot::new(candidates.iter().map(|(c, _)| *c).collect()).expect("unique");

        let seed = selection::seed(round, &beacon, &job_id);
        assert_eq!(
            seed.to_string(),
            output["seed"].as_str().expect("seed"),
            "{name}"
        );
        let selected = selection::select(&snapshot, &seed, m, min_stake).expect("enough");
        assert_eq!(selected, addresses(&output["selected"]), "{name}");

        let committee: Vec<Member> = selected
            .iter()
            .map(|a| Member {
                address: *a,
                reputation: candidates
                    .iter()
                    .find(|(c, _)| c.address == *a)
                    .expect("selected from the candidates")
                    .1,
            })
            .collect();
        assert_eq!(
            selection::aggregator(&committee, &seed, 50),
            Some(address(&output["aggregator"])),
            "{name}"
        );

        let retry = selection::retry_seed(&seed, 1);
        assert_eq!(
            retry.to_string(),
            output["retry_seed"].as_str().expect("retry")
        );
        let rest = snapshot.without(&selected);
        let retried = selection::select(&rest, &retry, m.min(rest.len()), min_stake)
            .expect("enough for the retry");
        assert_eq!(retried, addresses(&output["retry_selected"]), "{name}");
    }
}

/// The checked-in outputs are what the Python implementation computes today, so the vectors
/// cannot drift from the oracle they claim to come from.
#[test]
fn the_vectors_are_the_python_oracles_output() {
    let oracle = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/selection_oracle.py");
    let out = Command::new("python3")
        .args([oracle, VECTORS])
        .output()
        .expect("python3 (CPython 3.11) must be installed: it is the test suite's oracle");
    assert!(
        out.status.success(),
        "the selection oracle failed (install the test requirements: python3 -m pip install \
         -r requirements-test.txt):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recomputed: Value = serde_json::from_slice(&out.stdout).expect("oracle prints JSON");
    assert_eq!(
        recomputed,
        vectors(),
        "the checked-in vectors differ from the oracle's output; regenerate with \
         `python3 node-lite/execution/tests/selection_oracle.py \
         node-lite/execution/tests/vectors/runner_selection.json --write` and review the diff"
    );
}
