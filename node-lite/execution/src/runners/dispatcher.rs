//! The Job Dispatcher (system actor `0x…02`; CIP-2 §2–6, whitepaper §5.3, spec README
//! "Selection seed"): job submission with its escrow, the draw of each job's committee, and
//! the commit deadline with re-selection and failure. Every lifecycle transition of a job lives
//! here.
//!
//! - **Submission** checks the spec ([`JobSpec::validate`] and what needs state: the callback
//!   actor, the committee defaults, the embedding model), moves `max_price + tip` from the
//!   submitter to the dispatcher, and charges [`CANDIDATE_CHECK_CYCLES`] per registered runner
//!   for the candidate filters it pays for now or at its draw.
//! - **Draw.** A single-runner job is drawn in its submission block from the parent beacon. A
//!   committee is bound to its submission round `r` and drawn in the first block whose parent
//!   beacon's round is at least `r + committee.round_delay` (`K`), so nobody who knows the
//!   beacon at submission can grind it. The candidates are the registry's runners passing the
//!   CIP-2 §4 filters at the submission height.
//! - **Deadline.** Each committee has `timeout_blocks` to commit. A member that has not
//!   committed by then loses [`TIMEOUT_PENALTY`] reputation and is excluded; the job is drawn
//!   again from its first snapshot without the excluded runners, with the retry seed, up to
//!   [`MAX_RETRIES`] times; then it fails and its escrow is refunded.
//!
//! Per-block work is bounded: at most [`MAX_DRAWS_PER_BLOCK`] committee draws and
//! [`MAX_DEADLINES_PER_BLOCK`] deadlines, oldest first; the rest wait for the next block, so a
//! block's cost does not grow with the number of open jobs (the deadline index is keyed by
//! height, like the timer queue).

use super::{
    MAX_RETRIES, TIMEOUT_PENALTY, candidates,
    registry::reputation,
    selection::{self, Candidate, Member, Snapshot},
};
use crate::{
    ExecError,
    exec::{Executor, Handled, Session},
};
use cowboy_types::{
    Address, Hash,
    bounded::{Bytes, List, Text},
    job::{Draw, DrawCandidate, JobRecord, JobSpec, JobStatus, VerificationMode},
    keccak256,
    receipt::failure,
    runner::actors,
};
use std::num::NonZeroU64;

/// Cycles per registered runner the candidate filters cost (CIP-2 §7.4: "Entitlement check
/// (per candidate, §4 filter) 500").
pub const CANDIDATE_CHECK_CYCLES: u64 = 500;
/// Committee draws per block (Cowboy decision): each scans the registry.
pub const MAX_DRAWS_PER_BLOCK: usize = 16;
/// Commit deadlines handled per block (Cowboy decision).
pub const MAX_DEADLINES_PER_BLOCK: usize = 256;

/// Storage keys under the Job Dispatcher.
pub mod keys {
    use cowboy_types::Hash;

    /// `job:` ‖ id → [`cowboy_types::job::JobRecord`].
    pub const JOB: &[u8] = b"job:";
    /// `draw:` ‖ sequence (8 B BE) ‖ id → empty: committees waiting for their round, FIFO.
    pub const AWAITING_DRAW: &[u8] = b"draw:";
    /// `deadline:` ‖ height (8 B BE) ‖ id → empty: commit deadlines, by height.
    pub const DEADLINE: &[u8] = b"deadline:";

    pub fn job(id: &Hash) -> Vec<u8> {
        [JOB, &id.0].concat()
    }
    pub fn awaiting_draw(seq: u64, id: &Hash) -> Vec<u8> {
        [AWAITING_DRAW, &seq.to_be_bytes(), &id.0].concat()
    }
    pub fn deadline(height: u64, id: &Hash) -> Vec<u8> {
        [DEADLINE, &height.to_be_bytes(), &id.0].concat()
    }
}

fn invalid(message: impl Into<String>) -> Handled {
    Handled::failed(failure::INVALID_JOB, message)
}

/// The job id: `keccak256("cowboy-job:" ‖ submitter ‖ sequence as 8-byte BE)`, the sequence a
/// chain-wide counter.
pub fn job_id(submitter: &Address, seq: u64) -> Hash {
    keccak256(&[b"cowboy-job:".as_slice(), &submitter.0, &seq.to_be_bytes()].concat())
}

/// The committee size and threshold a spec gets (spec README "Committee size"): its own; when
/// it names neither, the committee parameters' `m` and `n` (the size raised to the mode's
/// minimum); when it names only the size, `ceil(2M/3)` (whitepaper §5.3). A threshold is always
/// more than half the committee and at most all of it.
fn committee_of(spec: &JobSpec, m: u64, n: u64) -> (u8, u8) {
    let v = &spec.verification;
    let (min, max) = v.mode.committee_bounds();
    let size = match v.runners {
        0 => u8::try_from(m).unwrap_or(max).clamp(min, max),
        given => given,
    };
    let threshold = match (v.threshold, v.runners) {
        (0, 0) => u8::try_from(n).unwrap_or(size),
        (0, _) => size.saturating_mul(2).div_ceil(3),
        (given, _) => given,
    };
    (size, threshold.clamp(size / 2 + 1, size))
}

/// Runs a `job_submit` from `sender`.
pub(crate) fn submit(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    sender: Address,
    spec: &JobSpec,
) -> Result<Handled, ExecError> {
    if let Err(e) = spec.validate() {
        return Ok(invalid(e.to_string()));
    }
    let callback = &spec.callback.actor;
    if x.world.account(callback)?.actor.is_none() {
        return Ok(invalid(format!(
            "callback.actor {callback} has no actor to deliver the result to"
        )));
    }
    let params = &x.env.params;
    if matches!(
        spec.verification.mode,
        VerificationMode::SemanticSimilarity { .. }
    ) && params
        .semantic_similarity_embedding_model
        .model_id
        .is_none()
    {
        return Ok(invalid(
            "semantic_similarity needs the governance embedding model, and none is set (semantic_similarity_embedding_model.model_id)",
        ));
    }
    let (size, threshold) = committee_of(spec, params.committee.m, params.committee.n);
    let escrow = spec.max_price.saturating_add(spec.tip);
    if x.world.account(&sender)?.balance < escrow {
        return Ok(Handled::failed(
            failure::INSUFFICIENT_BALANCE,
            format!(
                "escrowing max_price + tip ({escrow} base units) needs that much in {sender}'s balance"
            ),
        ));
    }
    let runners = x.world.runners()?;
    s.spend(
        CANDIDATE_CHECK_CYCLES.saturating_mul(runners.len() as u64),
        0,
    );
    if s.cycles_left == 0 {
        return Ok(Handled::failed(
            cowboy_pvm::ErrorKind::OutOfCycles.code(),
            format!(
                "out of cycles filtering {} registered runners ({CANDIDATE_CHECK_CYCLES} cycles each)",
                runners.len()
            ),
        ));
    }
    let height = x.env.height;
    let snapshot = candidates::snapshot(&runners, spec, height, params, &[], &|_| false);
    if snapshot.len() < usize::from(size) {
        return Ok(Handled::failed(
            failure::NO_RUNNERS,
            format!(
                "{} of {} registered runners qualify for this job, and it needs {size} (raise max_price, relax the filters, or wait for runners)",
                snapshot.len(),
                runners.len()
            ),
        ));
    }
    let candidates = List::new(
        snapshot
            .candidates()
            .iter()
            .map(|c| DrawCandidate {
                address: c.address,
                stake: c.stake,
            })
            .collect(),
    )
    .map_err(|e| too_big("candidates", e))?;
    let min_stake = params.runner.runner_stake_floor;
    let seq = x.world.next_seq("job")?;
    let id = job_id(&sender, seq);
    let mut job = JobRecord {
        id,
        submitter: sender,
        submitted_at: height,
        bound_epoch: x.env.block.epoch,
        bound_view: x.env.block.view,
        spec: spec.clone(),
        escrow,
        committee_size: size,
        threshold,
        snapshot_root: snapshot.root(),
        candidates,
        min_stake,
        status: JobStatus::Submitted,
        deadline: 0,
        draws: List::default(),
        excluded: List::default(),
        failure: Text::default(),
    };
    if size == 1 {
        let beacon = x.env.beacon;
        draw(x, &mut job, beacon.round, &beacon.signature)?;
    } else {
        let key = keys::awaiting_draw(seq, &id);
        x.world
            .set_storage(&actors::JOB_DISPATCHER, &key, Some(&[]));
    }
    let size = commonware_codec::EncodeSize::encode_size(&job) as u64;
    if size > s.cells_left {
        return Ok(Handled::failed(
            cowboy_pvm::ErrorKind::OutOfCells.code(),
            format!("out of cells writing the {size}-byte job record"),
        ));
    }
    s.spend(0, size);
    store(x, &job);
    pay(x, &sender, &actors::JOB_DISPATCHER, escrow)?;
    Ok(Handled::Delivered(
        cowboy_pvm::Value::Bytes(id.0.to_vec())
            .encode()
            .map_err(|e| ExecError::Corrupt {
                what: "job id".into(),
                reason: e.to_string(),
            })?,
    ))
}

/// Draws `job`'s committee from `snapshot` with the beacon of `round` (or, for a retry, the
/// job's first seed), records the draw, assigns the runners and sets the deadline.
fn draw(
    x: &mut Executor<'_, '_>,
    job: &mut JobRecord,
    round: cowboy_types::Round,
    beacon: &[u8],
) -> Result<bool, ExecError> {
    let retry = job.draws.len() as u32;
    let seed = match job.draws.first() {
        Some(first) => selection::retry_seed(&first.seed, retry),
        None => selection::seed(round, beacon, &job.id),
    };
    let Some(min_stake) = NonZeroU64::new(job.min_stake) else {
        return Err(ExecError::Corrupt {
            what: format!("job {} min_stake", job.id),
            reason: "0 (genesis validation refuses a zero stake floor)".into(),
        });
    };
    let snapshot = snapshot_of(job)?.without(&job.excluded);
    let Ok(committee) =
        selection::select(&snapshot, &seed, usize::from(job.committee_size), min_stake)
    else {
        return Ok(false);
    };
    let height = x.env.height;
    let half_life = x.env.params.reputation.half_life_blocks;
    let mut members = Vec::with_capacity(committee.len());
    for a in &committee {
        let mut r = x.world.runner(a)?.ok_or_else(|| ExecError::Corrupt {
            what: format!("runner {a}"),
            reason: "drawn from a snapshot but not registered".into(),
        })?;
        members.push(Member {
            address: *a,
            reputation: reputation(&r, height, half_life),
        });
        r.active_jobs = r.active_jobs.saturating_add(1);
        x.world.set_runner(a, Some(&r));
    }
    let percentile = x.env.params.reputation.aggregator_eligibility_percentile;
    let aggregator = selection::aggregator(&members, &seed, percentile).unwrap_or_default();
    let record = Draw {
        round_epoch: round.epoch,
        round_view: round.view,
        beacon: Bytes::new(beacon.to_vec()).map_err(|e| ExecError::Corrupt {
            what: "beacon".into(),
            reason: e.to_string(),
        })?,
        seed,
        retry,
        committee: List::new(committee).map_err(|e| too_big("committee", e))?,
        aggregator,
    };
    let mut draws = std::mem::take(&mut job.draws).into_inner();
    draws.push(record);
    job.draws = List::new(draws).map_err(|e| too_big("draws", e))?;
    job.status = JobStatus::Assigned;
    job.deadline = height.saturating_add(job.spec.timeout_blocks);
    x.world.set_storage(
        &actors::JOB_DISPATCHER,
        &keys::deadline(job.deadline, &job.id),
        Some(&[]),
    );
    Ok(true)
}

/// The job's candidate snapshot, as fixed at submission.
fn snapshot_of(job: &JobRecord) -> Result<Snapshot, ExecError> {
    Snapshot::new(
        job.candidates
            .iter()
            .map(|c| Candidate {
                address: c.address,
                stake: c.stake,
            })
            .collect(),
    )
    .map_err(|e| ExecError::Corrupt {
        what: format!("job {} snapshot", job.id),
        reason: e.to_string(),
    })
}

fn too_big(what: &str, e: cowboy_types::bounded::TooLong) -> ExecError {
    ExecError::Corrupt {
        what: format!("job {what}"),
        reason: e.to_string(),
    }
}

fn store(x: &mut Executor<'_, '_>, job: &JobRecord) {
    x.world.set_storage(
        &actors::JOB_DISPATCHER,
        &keys::job(&job.id),
        Some(&crate::world::encode_record(job)),
    );
}

/// The job `id`.
pub fn load(world: &crate::world::World<'_>, id: &Hash) -> Result<Option<JobRecord>, ExecError> {
    match world.storage(&actors::JOB_DISPATCHER, &keys::job(id))? {
        Some(b) => cowboy_types::codec::decode_strict(&b)
            .map(Some)
            .map_err(|e| ExecError::Corrupt {
                what: format!("job {id}"),
                reason: e.to_string(),
            }),
        None => Ok(None),
    }
}

fn pay(
    x: &mut Executor<'_, '_>,
    from: &Address,
    to: &Address,
    amount: u64,
) -> Result<(), ExecError> {
    if !x.world.debit(from, amount)? {
        return Err(ExecError::Supply(format!(
            "{from} cannot pay {amount} base units it should hold"
        )));
    }
    x.world.credit(to, amount)
}

/// Ends `job` as failed: the assigned runners are released, the escrow refunded.
fn fail(x: &mut Executor<'_, '_>, job: &mut JobRecord, why: &str) -> Result<(), ExecError> {
    job.status = JobStatus::Failed;
    job.failure = Text::new(why.chars().take(256).collect::<String>()).unwrap_or_default();
    let escrow = std::mem::take(&mut job.escrow);
    pay(x, &actors::JOB_DISPATCHER, &job.submitter.clone(), escrow)?;
    store(x, job);
    Ok(())
}

/// Entries under `prefix` of the dispatcher's storage, oldest key first, at most `limit`.
fn entries(x: &Executor<'_, '_>, prefix: &[u8], limit: usize) -> Result<Vec<Vec<u8>>, ExecError> {
    let full = cowboy_types::state::key::storage(&actors::JOB_DISPATCHER, prefix);
    let page = x
        .world
        .overlay
        .range(&full, cowboy_state::prefix_end(&full).as_deref(), limit)?;
    Ok(page
        .into_iter()
        .map(|(k, _)| k[full.len() - prefix.len()..].to_vec())
        .collect())
}

fn id_at_end(key: &[u8]) -> Result<Hash, ExecError> {
    key.len()
        .checked_sub(Hash::LEN)
        .and_then(|start| Hash::from_slice(&key[start..]))
        .ok_or_else(|| ExecError::Corrupt {
            what: "job index key".into(),
            reason: "shorter than a job id".into(),
        })
}

/// The per-block phase: committee draws whose round has come, then commit deadlines that
/// passed, each bounded.
pub(crate) fn phase(x: &mut Executor<'_, '_>) -> Result<(), ExecError> {
    let beacon = x.env.beacon;
    let delay = x.env.params.committee.round_delay;
    for key in entries(x, keys::AWAITING_DRAW, MAX_DRAWS_PER_BLOCK)? {
        let id = id_at_end(&key)?;
        let mut job = load(&x.world, &id)?.ok_or_else(|| ExecError::Corrupt {
            what: format!("job {id}"),
            reason: "awaiting a draw but missing".into(),
        })?;
        let due = (job.bound_epoch, job.bound_view.saturating_add(delay));
        if (beacon.round.epoch, beacon.round.view) < due {
            // FIFO by submission: later jobs are bound to later rounds.
            break;
        }
        x.world.set_storage(&actors::JOB_DISPATCHER, &key, None);
        if draw(x, &mut job, beacon.round, &beacon.signature)? {
            store(x, &job);
        } else {
            fail(x, &mut job, "too few candidates left to draw the committee")?;
        }
    }
    let height = x.env.height;
    for key in entries(x, keys::DEADLINE, MAX_DEADLINES_PER_BLOCK)? {
        let at = key
            .get(keys::DEADLINE.len()..keys::DEADLINE.len() + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map(u64::from_be_bytes)
            .ok_or_else(|| ExecError::Corrupt {
                what: "job deadline key".into(),
                reason: "no height".into(),
            })?;
        if at >= height {
            break;
        }
        x.world.set_storage(&actors::JOB_DISPATCHER, &key, None);
        let id = id_at_end(&key)?;
        let mut job = load(&x.world, &id)?.ok_or_else(|| ExecError::Corrupt {
            what: format!("job {id}"),
            reason: "has a deadline but is missing".into(),
        })?;
        if job.status != JobStatus::Assigned || job.deadline != at {
            continue;
        }
        time_out(x, &mut job)?;
    }
    Ok(())
}

/// The committee of `job` missed its commit deadline: penalise and release its members, then
/// draw again without them or fail.
fn time_out(x: &mut Executor<'_, '_>, job: &mut JobRecord) -> Result<(), ExecError> {
    let height = x.env.height;
    let half_life = x.env.params.reputation.half_life_blocks;
    let Some(last) = job.draws.last().cloned() else {
        return Err(ExecError::Corrupt {
            what: format!("job {}", job.id),
            reason: "assigned without a draw".into(),
        });
    };
    let mut excluded = std::mem::take(&mut job.excluded).into_inner();
    for a in last.committee.iter() {
        if let Some(mut r) = x.world.runner(a)? {
            r.reputation = reputation(&r, height, half_life).saturating_sub(TIMEOUT_PENALTY);
            r.reputation_height = height;
            r.active_jobs = r.active_jobs.saturating_sub(1);
            x.world.set_runner(a, Some(&r));
        }
        excluded.push(*a);
    }
    job.excluded = List::new(excluded).map_err(|e| too_big("excluded", e))?;
    if job.draws.len() > MAX_RETRIES as usize {
        return fail(
            x,
            job,
            &format!("no committee committed in {} draws", job.draws.len()),
        );
    }
    let first = job.draws.first().cloned().unwrap_or(last);
    let round = cowboy_types::Round {
        epoch: first.round_epoch,
        view: first.round_view,
    };
    if draw(x, job, round, &first.beacon)? {
        store(x, job);
        Ok(())
    } else {
        let left = job.candidates.len() - job.excluded.len().min(job.candidates.len());
        fail(
            x,
            job,
            &format!(
                "the committee timed out and {left} candidates are left to draw {} from",
                job.committee_size
            ),
        )
    }
}
