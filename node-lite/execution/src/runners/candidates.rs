//! Candidate filters (CIP-2 §4): which registered runners may be selected for a job, as a pure
//! function of the registry's records, the job and the chain's height and parameters. The
//! survivors, in address order, are the job's candidate [`Snapshot`].
//!
//! A runner is a candidate when it has not exited, its bonded stake still covers what its
//! profile requires (a slash can take it below), and:
//! 1. **health** — its last heartbeat is at most `runner.heartbeat_timeout_blocks` old;
//! 2. **reputation** — at least [`MIN_REPUTATION`] (50) at this height;
//! 3. **capability** — it serves the job type; for an LLM job, the model; for an HTTP job, the
//!    URL's host (an empty domain list serves any host, `*.example.com` its subdomains);
//! 4. **TEE** — it declares a TEE when the job requires one (and the dispatcher then keeps
//!    only runners whose attestation the TEE Verifier holds valid: [`super::tee`]);
//! 5. **price** — its rate card prices the job's bounds (its tokens and wall time) within
//!    `max_price`, and the job's value (`max_price + tip`) is within what its stake covers
//!    (`max_job_value`, or two thirds of the stake floor when it declared none: whitepaper
//!    §5.2's `stake ≥ 1.5 × max_job_value` read backwards);
//! 6. **concurrency** — fewer active jobs than `max_concurrent_jobs`;
//! 7. **pool** — when the job names a pool, it holds the pool's membership (the Entitlement
//!    Registry's check, passed in).
//!
//! Runners the job already timed out (`excluded`, CIP-2 §6) are left out too.

use super::{
    MIN_REPUTATION,
    registry::{healthy, reputation},
    selection::{Candidate, Snapshot},
};
use crate::Parameters;
use cowboy_types::{
    Address,
    job::{JobInput, JobSpec},
    runner::Runner,
};

/// Why a runner is not a candidate (the first filter it fails), for explorers and runner
/// operators asking "why was I not selected".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    Exited,
    Excluded,
    /// Slashed below the stake its profile requires.
    Stake,
    Unhealthy,
    Reputation,
    JobType,
    Model,
    Domain,
    Tee,
    Price,
    JobValue,
    Busy,
    Pool,
}

impl Refusal {
    /// The filter's name as views show it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Exited => "exited",
            Self::Excluded => "excluded",
            Self::Stake => "stake_below_required",
            Self::Unhealthy => "no_recent_heartbeat",
            Self::Reputation => "reputation_below_50",
            Self::JobType => "job_type_not_served",
            Self::Model => "model_not_served",
            Self::Domain => "domain_not_served",
            Self::Tee => "no_tee",
            Self::Price => "rate_card_above_max_price",
            Self::JobValue => "stake_does_not_cover_job_value",
            Self::Busy => "at_concurrency_limit",
            Self::Pool => "not_in_required_pool",
        }
    }
}

/// The job's value a runner's stake must cover.
fn job_value(spec: &JobSpec) -> u64 {
    spec.max_price.saturating_add(spec.tip)
}

/// The most a runner's declared profile lets it take on.
fn covered_value(r: &Runner, floor: u64) -> u64 {
    if r.profile.max_job_value == 0 {
        floor / 3 * 2
    } else {
        r.profile.max_job_value
    }
}

/// The host of an `http(s)://` URL, lowercased (the spec's URL was validated at submission).
fn host(url: &str) -> String {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .unwrap_or(url);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let without_user = authority.rsplit('@').next().unwrap_or("");
    let host = without_user.split(':').next().unwrap_or("");
    host.to_ascii_lowercase()
}

fn serves_domain(domains: &[String], host: &str) -> bool {
    domains.is_empty()
        || domains.iter().any(|d| match d.strip_prefix("*.") {
            Some(parent) => host
                .strip_suffix(parent)
                .is_some_and(|sub| sub.ends_with('.') && sub.len() > 1),
            None => d == host,
        })
}

/// The first filter `r` fails for `spec` at `height`, or `None` when it is a candidate.
pub fn refusal(
    address: &Address,
    r: &Runner,
    spec: &JobSpec,
    height: u64,
    params: &Parameters,
    excluded: &[Address],
    in_pool: &dyn Fn(&Address) -> bool,
) -> Option<Refusal> {
    let caps = &r.profile.capabilities;
    let checks = [
        (r.exited_at.is_some(), Refusal::Exited),
        (excluded.contains(address), Refusal::Excluded),
        (
            r.stake < r.profile.required_stake(params.runner.runner_stake_floor),
            Refusal::Stake,
        ),
        (
            !healthy(r, height, params.runner.heartbeat_timeout_blocks),
            Refusal::Unhealthy,
        ),
        (
            reputation(r, height, params.reputation.half_life_blocks) < MIN_REPUTATION,
            Refusal::Reputation,
        ),
        (!caps.job_types.contains(spec.job_type()), Refusal::JobType),
        (
            matches!(&spec.input, JobInput::Llm(l) if !caps.models.contains(&l.model)),
            Refusal::Model,
        ),
        (
            matches!(&spec.input, JobInput::Http(h) if !serves_domain(&caps.domains, &host(&h.url))),
            Refusal::Domain,
        ),
        (spec.verification.tee_required && !caps.tee, Refusal::Tee),
        (
            r.profile
                .rate_card
                .price(spec.bounds.max_tokens, spec.bounds.max_wall_ms)
                > spec.max_price,
            Refusal::Price,
        ),
        (
            job_value(spec) > covered_value(r, params.runner.runner_stake_floor),
            Refusal::JobValue,
        ),
        (
            r.active_jobs >= r.profile.max_concurrent_jobs,
            Refusal::Busy,
        ),
        (
            spec.required_runner_pool.is_some() && !in_pool(address),
            Refusal::Pool,
        ),
    ];
    checks
        .into_iter()
        .find_map(|(fails, why)| fails.then_some(why))
}

/// The job's candidate snapshot: every runner of `runners` (address order, as the registry
/// stores them) that passes every filter, with its bonded stake.
pub fn snapshot(
    runners: &[(Address, Runner)],
    spec: &JobSpec,
    height: u64,
    params: &Parameters,
    excluded: &[Address],
    in_pool: &dyn Fn(&Address) -> bool,
) -> Snapshot {
    Snapshot::sorted(
        runners
            .iter()
            .filter(|(a, r)| refusal(a, r, spec, height, params, excluded, in_pool).is_none())
            .map(|(address, r)| Candidate {
                address: *address,
                stake: r.stake,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowboy_types::{
        Hash,
        bounded::Bytes,
        runner::{Capabilities, JobType, JobTypes, RateCard, RunnerKey, RunnerProfile, Unbonding},
    };

    const CBY: u64 = crate::params::BASE_UNITS_PER_CBY;

    fn spec() -> JobSpec {
        serde_json::from_value(serde_json::json!({
            "input": {"http": {"method": "GET", "url": "https://api.example.com/price"}},
            "bounds": {"max_wall_ms": 2000},
            "schema": {"max_return_bytes": 100, "expected_execution_ms": 100,
                       "data_format": {"json": {}}},
            "verification": {"mode": {"none": {}}},
            "max_price": (CBY).to_string(),
            "timeout_blocks": 10,
            "callback": {"actor": "0x0000000000000000000000000000000000000042", "handler": "done"}
        }))
        .expect("spec")
    }

    fn runner() -> Runner {
        Runner {
            profile: RunnerProfile {
                key: RunnerKey::Ed25519(Hash::ZERO),
                capabilities: Capabilities {
                    job_types: JobTypes::of(&[JobType::Http]),
                    models: vec![],
                    domains: vec!["*.example.com".into()],
                    tee: false,
                },
                rate_card: RateCard {
                    per_job: CBY / 10,
                    per_1k_tokens: 0,
                    per_second: CBY / 10,
                },
                max_concurrent_jobs: 1,
                max_job_value: 0,
                endpoint: "https://r".into(),
            },
            stake: 10_000 * CBY,
            unbonding: Unbonding::default(),
            reputation: 100,
            reputation_height: 0,
            registered_at: 0,
            last_heartbeat: 990,
            active_jobs: 0,
            exited_at: None,
        }
    }

    #[test]
    fn each_filter_refuses_for_its_reason() {
        let params = Parameters::default();
        let me = Address::system(0x77);
        let nobody = |_: &Address| false;
        let why = |r: &Runner, s: &JobSpec, excluded: &[Address]| {
            refusal(&me, r, s, 1_000, &params, excluded, &nobody)
        };
        assert_eq!(why(&runner(), &spec(), &[]), None);
        type Edit = fn(&mut Runner, &mut JobSpec);
        let cases: Vec<(Edit, Refusal)> = vec![
            (|r, _| r.exited_at = Some(1), Refusal::Exited),
            (|r, _| r.stake -= 1, Refusal::Stake),
            (|r, _| r.last_heartbeat = 0, Refusal::Unhealthy),
            (
                |r, _| {
                    r.reputation = 49;
                    r.reputation_height = 1_000
                },
                Refusal::Reputation,
            ),
            (
                |r, _| r.profile.capabilities.job_types = JobTypes::of(&[JobType::Llm]),
                Refusal::JobType,
            ),
            (
                |_, s| {
                    s.input = serde_json::from_value(serde_json::json!({"http": {"method": "GET", "url": "https://example.org/"}})).expect("input")
                },
                Refusal::Domain,
            ),
            (|_, s| s.verification.tee_required = true, Refusal::Tee),
            // 0.1 CBY per job + 2 s at 0.1 CBY per second = 0.3 CBY > 0.25 CBY.
            (|_, s| s.max_price = CBY / 4, Refusal::Price),
            (|_, s| s.tip = 10_000 * CBY, Refusal::JobValue),
            (|r, _| r.active_jobs = 1, Refusal::Busy),
            (
                |_, s| s.required_runner_pool = Some(Bytes::new(b"eu".to_vec()).expect("fits")),
                Refusal::Pool,
            ),
        ];
        for (edit, expected) in cases {
            let (mut r, mut s) = (runner(), spec());
            edit(&mut r, &mut s);
            assert_eq!(why(&r, &s, &[]), Some(expected));
        }
        assert_eq!(why(&runner(), &spec(), &[me]), Some(Refusal::Excluded));
        // The pool check passes for a member.
        let mut s = spec();
        s.required_runner_pool = Some(Bytes::new(b"eu".to_vec()).expect("fits"));
        assert_eq!(
            refusal(&me, &runner(), &s, 1_000, &params, &[], &|a| *a == me),
            None
        );
        // An LLM job needs the model.
        let mut s: JobSpec = spec();
        s.input = serde_json::from_value(serde_json::json!({"llm": {
            "model": Hash([5; 32]), "messages": [{"role": "user", "content": "hi"}], "max_tokens": 1
        }}))
        .expect("llm");
        let mut r = runner();
        r.profile.capabilities.job_types = JobTypes::of(&[JobType::Llm]);
        assert_eq!(why(&r, &s, &[]), Some(Refusal::Model));
        r.profile.capabilities.models.push(Hash([5; 32]));
        assert_eq!(why(&r, &s, &[]), None);
        // The snapshot keeps the survivors in address order.
        let runners = vec![
            (Address::system(1), runner()),
            (Address::system(2), {
                let mut r = runner();
                r.active_jobs = 1;
                r
            }),
            (Address::system(3), runner()),
        ];
        let snap = snapshot(&runners, &spec(), 1_000, &params, &[], &nobody);
        let kept: Vec<Address> = snap.candidates().iter().map(|c| c.address).collect();
        assert_eq!(kept, vec![Address::system(1), Address::system(3)]);
    }

    #[test]
    fn hosts_and_domain_patterns() {
        assert_eq!(
            host("https://User@API.Example.com:8443/x?y"),
            "api.example.com"
        );
        assert_eq!(host("http://a.b"), "a.b");
        let d = vec!["api.example.com".to_owned(), "*.coingecko.com".to_owned()];
        assert!(serves_domain(&d, "api.example.com"));
        assert!(serves_domain(&d, "pro.coingecko.com"));
        assert!(!serves_domain(&d, "coingecko.com"));
        assert!(!serves_domain(&d, "evilcoingecko.com"));
        assert!(!serves_domain(&d, "example.com"));
        assert!(serves_domain(&[], "anything.org"));
    }
}
