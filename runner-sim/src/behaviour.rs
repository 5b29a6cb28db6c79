//! The simulated behaviours as runner conducts ([`cowboy_runner::conduct::Conduct`]): the same
//! daemon as an operator's runner, with one decision changed.

use crate::fleet::Behaviour;
use cowboy_runner::{
    conduct::{Conduct, Plan},
    exec::Outcome,
};
use cowboy_types::{job::JobRecord, keccak256};
use serde_json::Value;

/// A behaviour for runner `index` of a simulation seeded with `seed`.
pub struct Simulated {
    pub behaviour: Behaviour,
    pub index: usize,
    pub seed: u64,
}

impl Simulated {
    /// A per-job coin with `percent` chance of heads, fixed by the seed, runner and job.
    fn coin(&self, job: &JobRecord, percent: u64) -> bool {
        let mut data = b"cowboy-runner-sim-coin:".to_vec();
        data.extend_from_slice(&self.seed.to_be_bytes());
        data.extend_from_slice(&(self.index as u64).to_be_bytes());
        data.extend_from_slice(&job.id.0);
        let h = keccak256(&data);
        u64::from(h.0[0]) * 100 / 256 < percent
    }
}

impl Conduct for Simulated {
    fn runs(&self, job: &JobRecord) -> bool {
        match self.behaviour {
            Behaviour::Lazy => false,
            Behaviour::Flaky => !self.coin(job, 50),
            _ => true,
        }
    }

    fn plan(&self, _job: &JobRecord, outcome: Outcome) -> Plan {
        match self.behaviour {
            Behaviour::Honest | Behaviour::Flaky => Plan::Commit(outcome),
            Behaviour::Lazy => Plan::Skip,
            Behaviour::Slow => Plan::Late(outcome),
            Behaviour::Crash => Plan::CommitThenHalt(outcome),
            // Each liar lies its own way; colluders all lie the same way.
            Behaviour::Liar => Plan::Commit(wrong(outcome, 3 + self.index as u64)),
            Behaviour::Colluding => Plan::Commit(wrong(outcome, 2)),
        }
    }
}

/// A wrong result that still looks right: every number in a JSON result times `factor`, any
/// other result with a marker appended. A fault is replaced by a made-up result.
pub fn wrong(mut outcome: Outcome, factor: u64) -> Outcome {
    outcome.fault = None;
    outcome.note = None;
    outcome.result = match serde_json::from_slice::<Value>(&outcome.result) {
        Ok(mut v) => {
            scale(&mut v, factor);
            serde_json::to_vec(&v).unwrap_or_default()
        }
        Err(_) => {
            let mut r = outcome.result;
            r.extend_from_slice(format!(" (lie {factor})").as_bytes());
            r
        }
    };
    outcome
}

fn scale(v: &mut Value, factor: u64) {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                *v = Value::from(i.saturating_mul(factor as i64));
            } else if let Some(f) = n.as_f64() {
                *v = serde_json::Number::from_f64(f * factor as f64)
                    .map(Value::Number)
                    .unwrap_or(Value::Null);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| scale(x, factor)),
        Value::Object(m) => m.values_mut().for_each(|x| scale(x, factor)),
        Value::String(s) => s.push_str(&format!(" (lie {factor})")),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(result: &str) -> Outcome {
        Outcome {
            result: result.as_bytes().to_vec(),
            tokens: 0,
            ms: 1,
            embedding: vec![],
            fault: None,
            note: None,
        }
    }

    #[test]
    fn liars_differ_and_colluders_agree() {
        let honest = outcome(r#"{"usd": 100}"#);
        assert_eq!(wrong(honest.clone(), 2).result, br#"{"usd":200}"#);
        assert_ne!(
            wrong(honest.clone(), 3).result,
            wrong(honest.clone(), 4).result
        );
        assert_eq!(wrong(outcome("yes"), 2).result, b"yes (lie 2)");
    }
}
