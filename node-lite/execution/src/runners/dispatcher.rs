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
//!   committed by then loses [`TIMEOUT_PENALTY`] reputation and is excluded, and its seat is
//!   drawn again from the first snapshot with the retry seed (the members that committed keep
//!   theirs), up to [`MAX_RETRIES`] times; when no seat can be re-drawn the reveals start with
//!   at least the threshold committed, or the job fails and its escrow is refunded.
//!
//! Per-block work is bounded: at most [`MAX_DRAWS_PER_BLOCK`] committee draws and
//! [`MAX_DEADLINES_PER_BLOCK`] deadlines, oldest first; the rest wait for the next block, so a
//! block's cost does not grow with the number of open jobs (the deadline index is keyed by
//! height, like the timer queue).

use super::{
    MAX_RETRIES, TIMEOUT_PENALTY, candidates,
    registry::reputation,
    selection::{self, Member, Snapshot},
    verification,
};
use crate::{
    ExecError,
    exec::{Executor, Handled, Session},
    world::World,
};
use cowboy_types::job::{Estimate, EstimatedRunner};
use cowboy_types::{
    Address, Hash,
    bounded::{Bytes, List, Text},
    entitlement::{Action, Scope},
    job::{
        Commitment, Dispute, Draw, DrawCandidate, JobRecord, JobSpec, JobStatus, Payout, Reveal,
        Revealed, VerificationMode,
    },
    keccak256,
    receipt::failure,
    runner::actors,
};
use std::num::NonZeroU64;

// A job's bounded lists hold what the lifecycle can put in them: one draw per retry and one
// for a dispute, and every member of every draw excluded.
const _: () = assert!((MAX_RETRIES as usize) + 2 <= 8);
const _: () =
    assert!((MAX_RETRIES as usize + 2) * cowboy_types::job::MAX_COMMITTEE as usize <= 256);

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
    pub const JOB: &[u8] = cowboy_types::job::STORAGE_PREFIX;
    /// `draw:` ‖ sequence (8 B BE) ‖ id → empty: committees waiting for their round, FIFO.
    pub const AWAITING_DRAW: &[u8] = b"draw:";
    /// `deadline:` ‖ height (8 B BE) ‖ id → empty: commit deadlines, by height.
    pub const DEADLINE: &[u8] = b"deadline:";

    pub fn job(id: &Hash) -> Vec<u8> {
        cowboy_types::job::storage_key(id)
    }
    pub fn awaiting_draw(seq: u64, id: &Hash) -> Vec<u8> {
        [AWAITING_DRAW, &seq.to_be_bytes(), &id.0].concat()
    }
    pub fn deadline(height: u64, id: &Hash) -> Vec<u8> {
        [DEADLINE, &height.to_be_bytes(), &id.0].concat()
    }
    /// `callback:` ‖ height (8 B BE) ‖ id → empty: callbacks to deliver, by height.
    pub const CALLBACK: &[u8] = b"callback:";

    pub fn callback(height: u64, id: &Hash) -> Vec<u8> {
        [CALLBACK, &height.to_be_bytes(), &id.0].concat()
    }
}

fn invalid(message: impl Into<String>) -> Handled {
    Handled::failed(failure::INVALID_JOB, message)
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

/// The [`Estimate`] of `spec` against `world` at `height` (read-only use: pool checks may note
/// expired records in the overlay, which the caller drops).
pub fn estimate(
    world: &mut World<'_>,
    spec: &JobSpec,
    height: u64,
    params: &crate::Parameters,
) -> Result<Estimate, ExecError> {
    let (committee_size, threshold) = committee_of(spec, params.committee.m, params.committee.n);
    let mut candidates = Vec::new();
    let mut refused = std::collections::BTreeMap::<String, u64>::new();
    let pool = spec.required_runner_pool.as_ref().map(|p| {
        (
            Scope::RunnerPool(p.clone()),
            Action::RunnerJoinPool(p.clone()),
        )
    });
    for (address, r) in world.runners()? {
        let mut why = candidates::refusal(&address, &r, spec, height, params, &[], &|_| true);
        if why.is_none()
            && let Some((scope, action)) = &pool
            && !crate::entitlements::holds(world, &address, scope, action, height)?.held
        {
            why = Some(candidates::Refusal::Pool);
        }
        match why {
            Some(w) => *refused.entry(w.name().to_string()).or_default() += 1,
            None => candidates.push(EstimatedRunner {
                address,
                price: r
                    .profile
                    .rate_card
                    .price(spec.bounds.max_tokens, spec.schema.expected_execution_ms),
            }),
        }
    }
    candidates.sort_by_key(|c| (c.price, c.address.0));
    let committee: Vec<u64> = candidates
        .iter()
        .take(usize::from(committee_size))
        .map(|c| c.price)
        .collect();
    let price = committee
        .get(committee.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0)
        .min(spec.max_price)
        .saturating_add(spec.tip);
    Ok(Estimate {
        committee_size,
        threshold,
        candidates,
        refused,
        price,
        escrow: spec.escrow(),
    })
}

/// Runs a job submission from `sender` (an account's `job_submit` transaction or an actor's
/// `submit_job`), the job taking the id `id`: the id of the submitting message,
/// `keccak256(sender ‖ nonce ‖ keccak256(job_submit instruction))`, unique per sender and
/// nonce.
pub(crate) fn submit(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    sender: Address,
    id: Hash,
    spec: &JobSpec,
) -> Result<Handled, ExecError> {
    if let Err(e) = spec.validate() {
        return Ok(invalid(e.to_string()));
    }
    // An actor submits only the job types its manifest declared (whitepaper §15).
    if let Some(actor) = x.world.account(&sender)?.actor
        && let Err(e) = actor.entitlements.allows(spec.job_type())
    {
        return Ok(Handled::failed(failure::MISSING_ENTITLEMENT, e.to_string()));
    }
    if x.world
        .storage(&actors::JOB_DISPATCHER, &keys::job(&id))?
        .is_some()
    {
        return Ok(invalid(format!("job {id} already exists")));
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
    if let Err(refused) = s.pay(verification::compile_cycles(spec), 0, || {
        "compiling the result schema".into()
    }) {
        return Ok(refused);
    }
    if let Err(e) = verification::check_spec(spec) {
        return Ok(invalid(e));
    }
    let (size, threshold) = committee_of(spec, params.committee.m, params.committee.n);
    let escrow = spec.escrow();
    if x.world.account(&sender)?.balance < escrow {
        return Ok(Handled::failed(
            failure::INSUFFICIENT_BALANCE,
            format!(
                "escrowing max_price + tip + 2 × callback.max_fee ({escrow} base units) needs that much in {sender}'s balance"
            ),
        ));
    }
    let runners = x.world.runners()?;
    let filter_cost = CANDIDATE_CHECK_CYCLES.saturating_mul(runners.len() as u64);
    if let Err(refused) = s.pay(filter_cost, 0, || {
        format!(
            "filtering {} registered runners ({CANDIDATE_CHECK_CYCLES} cycles each)",
            runners.len()
        )
    }) {
        return Ok(refused);
    }
    let height = x.env.height;
    let params = &x.env.params;
    let mut snapshot = candidates::snapshot(&runners, spec, height, params, &[], &|_| true);
    // CIP-2 §4 filter 7: pool membership from the Entitlement Registry at the submission
    // height, asked only of the runners passing every other filter; each storage read the
    // checks make is paid at the storage-read rate.
    if let Some(pool) = &spec.required_runner_pool {
        let scope = Scope::RunnerPool(pool.clone());
        let action = Action::RunnerJoinPool(pool.clone());
        let mut outside = Vec::new();
        for c in snapshot.candidates() {
            let h = crate::entitlements::holds(&mut x.world, &c.address, &scope, &action, height)?;
            let cost = h
                .reads
                .saturating_mul(cowboy_pvm::cost::cycles::STORAGE_READ);
            if let Err(refused) = s.pay(cost, 0, || {
                format!(
                    "checking the pool memberships of {} candidates",
                    snapshot.len()
                )
            }) {
                return Ok(refused);
            }
            if !h.held {
                outside.push(c.address);
            }
        }
        snapshot = snapshot.without(&outside);
    }
    // CIP-2 §4 filter 4, with the TEE Verifier: a `tee_required` job needs an attestation valid
    // at the submission height (one storage read per remaining candidate).
    if spec.verification.tee_required {
        let cost = (snapshot.len() as u64).saturating_mul(cowboy_pvm::cost::cycles::STORAGE_READ);
        if let Err(refused) = s.pay(cost, 0, || {
            format!("checking the attestations of {} candidates", snapshot.len())
        }) {
            return Ok(refused);
        }
        let mut unattested = Vec::new();
        for c in snapshot.candidates() {
            if !super::tee::attested_at(&x.world, &c.address, height)? {
                unattested.push(c.address);
            }
        }
        snapshot = snapshot.without(&unattested);
    }
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
    .ok();
    let Some(candidates) = candidates else {
        return Ok(invalid(format!(
            "{} runners qualify, more than a job's snapshot holds (4,096): narrow it with a model, domains or tee_required",
            snapshot.len()
        )));
    };
    let min_stake = params.runner.runner_stake_floor;
    let seq = x.world.next_seq("job")?;
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
        commitments: List::default(),
        committed_at: 0,
        reveals: List::default(),
        slashed: List::default(),
        result: None,
        payouts: List::default(),
        burn: 0,
        treasury: 0,
        failure: Text::default(),
        dispute: None,
        callbacks_pending: 0,
    };
    if size == 1 {
        let beacon = x.env.beacon;
        if !draw(x, &mut job, beacon.round, &beacon.signature, &[])? {
            return Ok(Handled::failed(
                failure::NO_RUNNERS,
                "no qualifying runner is free to take the job now (all at max_concurrent_jobs)",
            ));
        }
    } else {
        let key = keys::awaiting_draw(seq, &id);
        x.world
            .set_storage(&actors::JOB_DISPATCHER, &key, Some(&[]));
    }
    if let Some(refused) = store_paid(x, s, &job) {
        return Ok(refused);
    }
    x.world
        .transfer_held(&sender, &actors::JOB_DISPATCHER, escrow)?;
    Ok(Handled::Delivered(
        cowboy_pvm::Value::Bytes(id.0.to_vec())
            .encode()
            .map_err(|e| ExecError::Corrupt {
                what: "job id".into(),
                reason: e.to_string(),
            })?,
    ))
}

/// Draws `job`'s committee with the beacon of `round` (or, for a retry, the job's first
/// seed), records the draw, assigns the runners and sets the deadline; returns whether a seat
/// was drawn.
///
/// `kept` are the previous draw's members that committed in time: a retry keeps their seats
/// and commitments and draws only the seats of the members that timed out (book "Timeouts and
/// re-selection"), as many as the candidates left allow. Every draw is made from the snapshot
/// without every runner an earlier draw named (timed out, kept, or, for a dispute's fresh
/// committee, the original one), so a retry's drawn seats can be re-run from the record by
/// [`selection::replay`]: the recorded committee is `kept` in the previous draw's order, then
/// the drawn seats in draw order.
fn draw(
    x: &mut Executor<'_, '_>,
    job: &mut JobRecord,
    round: cowboy_types::Round,
    beacon: &[u8],
    kept: &[Address],
) -> Result<bool, ExecError> {
    let retry = job.draws.len() as u32;
    let seed = selection::draw_seed(
        &job.id,
        job.draws.first().map(|d| d.seed),
        job.dispute.is_some(),
        round,
        beacon,
        retry,
    );
    let Some(min_stake) = NonZeroU64::new(job.min_stake) else {
        return Err(ExecError::Corrupt {
            what: format!("job {} min_stake", job.id),
            reason: "0 (genesis validation refuses a zero stake floor)".into(),
        });
    };
    let earlier: Vec<Address> = job
        .draws
        .iter()
        .flat_map(|d| d.committee.iter().copied())
        .collect();
    // Runners of the snapshot that exited, left the registry, are at their concurrency limit
    // or (for a `tee_required` job) no longer hold a valid attestation when the draw happens
    // are skipped (and recorded, so the draw can be re-run).
    let mut unavailable = Vec::new();
    let height = x.env.height;
    for c in job.candidates.iter() {
        if earlier.contains(&c.address) {
            continue;
        }
        let mut usable = x.world.runner(&c.address)?.is_some_and(|r| {
            r.exited_at.is_none() && r.active_jobs < r.profile.max_concurrent_jobs
        });
        if usable && job.spec.verification.tee_required {
            usable = super::tee::attested_at(&x.world, &c.address, height)?;
        }
        if !usable && !job.excluded.contains(&c.address) {
            unavailable.push(c.address);
        }
    }
    let snapshot = snapshot_of(job)?
        .without(&job.excluded)
        .without(&earlier)
        .without(&unavailable);
    let seats = usize::from(job.committee_size).saturating_sub(kept.len());
    // A first draw (or a dispute's) needs the whole committee; a retry fills what it can.
    let wanted = if kept.is_empty() {
        seats
    } else {
        seats.min(snapshot.len())
    };
    // A committee that could never reach the threshold is not drawn: its members would work
    // for a verification that must fail.
    if wanted == 0 || kept.len() + wanted < usize::from(job.threshold) {
        return Ok(false);
    }
    let Ok(drawn) = selection::select(&snapshot, &seed, wanted, min_stake) else {
        return Ok(false);
    };
    let committee: Vec<Address> = kept.iter().copied().chain(drawn).collect();
    let height = x.env.height;
    let half_life = x.env.params.reputation.half_life_blocks;
    let mut members = Vec::with_capacity(committee.len());
    for (i, a) in committee.iter().enumerate() {
        let mut r = x.world.runner(a)?.ok_or_else(|| ExecError::Corrupt {
            what: format!("runner {a}"),
            reason: "drawn from a snapshot but not registered".into(),
        })?;
        members.push(Member {
            address: *a,
            reputation: reputation(&r, height, half_life),
        });
        // Kept members already hold the job.
        if i >= kept.len() {
            r.active_jobs = r.active_jobs.saturating_add(1);
            x.world.set_runner(a, Some(&r));
        }
    }
    // An aggregator that committed keeps its role; otherwise the whole committee is eligible.
    let previous_aggregator = job.draws.last().map(|d| d.aggregator);
    let percentile = x.env.params.reputation.aggregator_eligibility_percentile;
    let aggregator = match previous_aggregator {
        Some(a) if kept.contains(&a) => a,
        _ => selection::aggregator(&members, &seed, percentile).unwrap_or_default(),
    };
    let record = Draw {
        unavailable: List::new(unavailable).map_err(|e| too_big("unavailable", e))?,
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
    // A dispute's re-execution stays `Disputed` through its own commits and reveals.
    if job.dispute.is_none() {
        job.status = JobStatus::Assigned;
    }
    if kept.is_empty() {
        job.commitments = List::default();
    }
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
    Snapshot::of_job(job).map_err(|e| ExecError::Corrupt {
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

/// Ends `job` as failed (its runners already released): the escrow is refunded but for the
/// callback's fee, and the callback is queued.
fn fail(x: &mut Executor<'_, '_>, job: &mut JobRecord, why: &str) -> Result<(), ExecError> {
    job.status = JobStatus::Failed;
    let mut text = why.to_owned();
    while text.len() > 256 {
        text.pop();
    }
    job.failure = Text::new(text).unwrap_or_default();
    let keep = job.spec.callback.max_fee.min(job.escrow);
    let refund = job.escrow - keep;
    x.world
        .transfer_held(&actors::JOB_DISPATCHER, &job.submitter, refund)?;
    job.escrow = keep;
    schedule_callback(x, job, "failed")?;
    store(x, job);
    Ok(())
}

/// Entries under `prefix` of the dispatcher's storage, oldest key first, at most `limit`.
fn entries(x: &Executor<'_, '_>, prefix: &[u8], limit: usize) -> Result<Vec<Vec<u8>>, ExecError> {
    let full = cowboy_types::state::key::storage(&actors::JOB_DISPATCHER, prefix);
    range(
        x,
        &full,
        cowboy_state::prefix_end(&full),
        prefix.len(),
        limit,
    )
}

/// Entries of a height-keyed index (`prefix ‖ height (8 B BE) ‖ id`) with a height below
/// `below`, oldest first, at most `limit`: one range read that stops at `below`, so the work
/// does not depend on how many later entries wait.
fn entries_below(
    x: &Executor<'_, '_>,
    prefix: &[u8],
    below: u64,
    limit: usize,
) -> Result<Vec<Vec<u8>>, ExecError> {
    let full = cowboy_types::state::key::storage(&actors::JOB_DISPATCHER, prefix);
    let end = [full.as_slice(), &below.to_be_bytes()].concat();
    range(x, &full, Some(end), prefix.len(), limit)
}

/// Dispatcher-storage keys in `[from, to)` (full state keys), at most `limit`, returned
/// without the storage header (so they start with the index prefix, `prefix_len` bytes long).
fn range(
    x: &Executor<'_, '_>,
    from: &[u8],
    to: Option<Vec<u8>>,
    prefix_len: usize,
    limit: usize,
) -> Result<Vec<Vec<u8>>, ExecError> {
    let header = from.len() - prefix_len;
    let page = x.world.overlay.range(from, to.as_deref(), limit)?;
    Ok(page
        .into_iter()
        .map(|(k, _)| k[header..].to_vec())
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

/// The per-block phase: committee draws whose round has come, then deadlines that passed
/// (commit deadlines, reveal deadlines, ends of challenge windows), then due callbacks, each
/// bounded per block and oldest first.
pub(crate) fn phase(
    x: &mut Executor<'_, '_>,
    receipts: &mut Vec<(cowboy_types::Receipt, Option<u32>)>,
) -> Result<(), ExecError> {
    let beacon = x.env.beacon;
    let delay = x.env.params.committee.round_delay;
    for key in entries(x, keys::AWAITING_DRAW, MAX_DRAWS_PER_BLOCK)? {
        let id = id_at_end(&key)?;
        // An index entry never outlives its job (submissions are atomic); if one did, it is
        // dropped rather than halting the chain.
        let Some(mut job) = load(&x.world, &id)? else {
            x.world.set_storage(&actors::JOB_DISPATCHER, &key, None);
            continue;
        };
        let bound = job
            .dispute
            .as_ref()
            .map_or((job.bound_epoch, job.bound_view), |d| {
                (d.bound_epoch, d.bound_view)
            });
        let due = (bound.0, bound.1.saturating_add(delay));
        if (beacon.round.epoch, beacon.round.view) < due {
            // FIFO by submission: later jobs are bound to later rounds.
            break;
        }
        x.world.set_storage(&actors::JOB_DISPATCHER, &key, None);
        if draw(x, &mut job, beacon.round, &beacon.signature, &[])? {
            store(x, &job);
        } else if job.dispute.is_some() {
            resolve(x, &mut job, None)?;
        } else {
            fail(x, &mut job, "too few candidates left to draw the committee")?;
        }
    }
    let height = x.env.height;
    for key in entries_below(x, keys::DEADLINE, height, MAX_DEADLINES_PER_BLOCK)? {
        let at = height_in(&key, keys::DEADLINE)?;
        if at >= height {
            break;
        }
        x.world.set_storage(&actors::JOB_DISPATCHER, &key, None);
        let id = id_at_end(&key)?;
        let Some(mut job) = load(&x.world, &id)? else {
            continue;
        };
        if job.deadline != at {
            continue;
        }
        match (job.status, job.dispute.as_ref().map(|d| d.revealing)) {
            (JobStatus::Assigned, _) | (JobStatus::Disputed, Some(false)) => {
                commit_deadline(x, &mut job)?
            }
            (JobStatus::Committed, _) | (JobStatus::Disputed, Some(true)) => {
                reveal_deadline(x, &mut job)?
            }
            (JobStatus::Verified, _) => settle(x, &mut job)?,
            _ => {}
        }
    }
    for key in entries_below(
        x,
        keys::CALLBACK,
        height.saturating_add(1),
        MAX_CALLBACKS_PER_BLOCK,
    )? {
        if height_in(&key, keys::CALLBACK)? > height {
            break;
        }
        let status = x
            .world
            .storage(&actors::JOB_DISPATCHER, &key)?
            .and_then(|v| String::from_utf8(v).ok())
            .unwrap_or_default();
        x.world.set_storage(&actors::JOB_DISPATCHER, &key, None);
        let id = id_at_end(&key)?;
        let Some(mut job) = load(&x.world, &id)? else {
            continue;
        };
        run_callback(x, &mut job, &status, receipts)?;
    }
    Ok(())
}

/// The height in an index key `prefix ‖ height (8 B BE) ‖ id`.
fn height_in(key: &[u8], prefix: &[u8]) -> Result<u64, ExecError> {
    key.get(prefix.len()..prefix.len() + 8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_be_bytes)
        .ok_or_else(|| ExecError::Corrupt {
            what: "job index key".into(),
            reason: "no height".into(),
        })
}

/// The commit deadline passed. Members that did not commit lose [`TIMEOUT_PENALTY`]
/// reputation and their seat, and are excluded from the job (CIP-2 §6). Their seats are drawn
/// again with the retry seed (members that committed keep their seats and commitments, and
/// the committee gets another `timeout_blocks`), up to [`MAX_RETRIES`] times while candidates
/// are left. When no seat can be drawn again, the reveals start if at least the threshold
/// committed; otherwise the job fails. A dispute's committee is not re-drawn: it goes on with
/// what committed, or the dispute is resolved without a result.
fn commit_deadline(x: &mut Executor<'_, '_>, job: &mut JobRecord) -> Result<(), ExecError> {
    let height = x.env.height;
    let half_life = x.env.params.reputation.half_life_blocks;
    let Some(last) = job.draws.last().cloned() else {
        return Err(ExecError::Corrupt {
            what: format!("job {}", job.id),
            reason: "assigned without a draw".into(),
        });
    };
    let (committed, missing): (Vec<Address>, Vec<Address>) = last
        .committee
        .iter()
        .partition(|a| job.commitments.iter().any(|c| c.runner == **a));
    let mut excluded = std::mem::take(&mut job.excluded).into_inner();
    for a in &missing {
        release(x, a, Some((height, half_life)))?;
        excluded.push(*a);
    }
    job.excluded = List::new(excluded).map_err(|e| too_big("excluded", e))?;
    let retry = job.dispute.is_none() && job.draws.len() <= MAX_RETRIES as usize;
    if retry && !missing.is_empty() {
        let first = job.draws.first().cloned().unwrap_or(last);
        let round = cowboy_types::Round {
            epoch: first.round_epoch,
            view: first.round_view,
        };
        if draw(x, job, round, &first.beacon, &committed)? {
            store(x, job);
            return Ok(());
        }
    }
    if !committed.is_empty() && committed.len() >= usize::from(job.threshold) {
        start_reveals(x, job);
        store(x, job);
        return Ok(());
    }
    // Too few committed and no seat can be drawn again: the members that did commit are
    // released without a penalty.
    for a in &committed {
        release(x, a, None)?;
    }
    job.commitments = List::default();
    if job.dispute.is_some() {
        return resolve(x, job, None);
    }
    let why = if job.draws.len() > MAX_RETRIES as usize {
        format!(
            "fewer than {} of the committee committed in {} draws",
            job.threshold,
            job.draws.len()
        )
    } else {
        let left = job
            .candidates
            .iter()
            .filter(|c| !job.draws.iter().any(|d| d.committee.contains(&c.address)))
            .count();
        format!(
            "fewer than {} of the committee committed and {left} candidates are left to draw from",
            job.threshold
        )
    };
    fail(x, job, &why)
}

/// Frees `runner`'s seat on a job; with `Some((height, half_life))` it also loses
/// [`TIMEOUT_PENALTY`] reputation for not committing.
fn release(
    x: &mut Executor<'_, '_>,
    runner: &Address,
    penalty: Option<(u64, u64)>,
) -> Result<(), ExecError> {
    if let Some(mut r) = x.world.runner(runner)? {
        if let Some((height, half_life)) = penalty {
            r.reputation = reputation(&r, height, half_life).saturating_sub(TIMEOUT_PENALTY);
            r.reputation_height = height;
        }
        r.active_jobs = r.active_jobs.saturating_sub(1);
        x.world.set_runner(runner, Some(&r));
    }
    Ok(())
}

/// The reveal windows closed: a member that committed and never revealed is slashed
/// (`non_reveal_slash_bps`), and the job is verified with what was revealed.
fn reveal_deadline(x: &mut Executor<'_, '_>, job: &mut JobRecord) -> Result<(), ExecError> {
    let silent: Vec<Address> = job
        .commitments
        .iter()
        .map(|c| c.runner)
        .filter(|a| !job.reveals.iter().any(|r| r.runner == *a) && !job.slashed.contains(a))
        .collect();
    let mut slashed = std::mem::take(&mut job.slashed).into_inner();
    for a in silent {
        slash(x, job, &a)?;
        slashed.push(a);
    }
    job.slashed = List::new(slashed).map_err(|e| too_big("slashed", e))?;
    verify(x, job)?;
    store(x, job);
    Ok(())
}

/// Delivers the job's callback, `handler(job_id, status, result, details)` on the callback
/// actor, from the Job Dispatcher, paid from the `callback.max_fee` the job escrowed at this
/// block's user-lane basefees (half the fee buys cycles, half cells, each capped by the timer
/// per-fire caps); what it does not use goes back to the submitter.
fn run_callback(
    x: &mut Executor<'_, '_>,
    job: &mut JobRecord,
    status: &str,
    receipts: &mut Vec<(cowboy_types::Receipt, Option<u32>)>,
) -> Result<(), ExecError> {
    let max_fee = job.spec.callback.max_fee.min(job.escrow);
    job.escrow -= max_fee;
    job.callbacks_pending = job.callbacks_pending.saturating_sub(1);
    let prices = x.env.lane(x.env.params.lane_fee_multipliers.user_bps);
    let caps = &x.env.params.timer;
    let cycles = (max_fee / 2 / prices.cycle.max(1)).min(caps.max_cycles_per_fire);
    let cells = (max_fee / 2 / prices.cell.max(1)).min(caps.max_cells_per_fire);
    let held =
        u128::from(cycles) * u128::from(prices.cycle) + u128::from(cells) * u128::from(prices.cell);
    // held <= max_fee by construction.
    let held_u64 = u64::try_from(held).unwrap_or(max_fee).min(max_fee);
    x.world
        .transfer_held(&actors::JOB_DISPATCHER, &job.submitter, max_fee - held_u64)?;
    // The budget leaves the dispatcher; settling pays the fee out of it and refunds the rest
    // to the submitter.
    x.world.withdraw_held(&actors::JOB_DISPATCHER, held_u64)?;
    let id = callback_id(&job.id, status);
    let bid = crate::fees::Bid {
        max_fee_per_cycle: prices.cycle,
        max_fee_per_cell: prices.cell,
        max_priority_fee_per_cycle: 0,
        max_priority_fee_per_cell: 0,
    };
    let mut s = Session::new(
        job.submitter,
        bid,
        prices,
        cycles,
        cells,
        x.env.params.execution.fanout_per_tx,
        id,
    );
    let args = callback_args(job, status).map_err(|e| ExecError::Corrupt {
        what: format!("job {} callback arguments", job.id),
        reason: e.to_string(),
    })?;
    let handled = x.process(
        &mut s,
        crate::exec::Pending {
            id,
            sender: actors::JOB_DISPATCHER,
            to: job.spec.callback.actor,
            method: job.spec.callback.handler.to_string(),
            args,
            value: 0,
            depth: 0,
        },
    )?;
    x.drain(&mut s)?;
    let fee = x.settle(&s, u128::from(held_u64), None)?;
    store(x, job);
    receipts.push((
        crate::block::session_receipt(x, id, &handled, s, fee, None)?,
        None,
    ));
    Ok(())
}

/// A callback's message id (and its receipt's hash): `keccak256("cowboy-callback:" ‖ job_id ‖
/// status)`, one per outcome a job can report.
pub fn callback_id(job: &Hash, status: &str) -> Hash {
    keccak256(&[b"cowboy-callback:".as_slice(), &job.0, status.as_bytes()].concat())
}

/// `(job_id, status, result, details)`: the id as `0x`-hex (as `submit_job` returned it), the
/// status name, the verified result
/// (bytes, or `None`), and a dict with the committee, the runners paid and the failure.
fn callback_args(job: &JobRecord, status: &str) -> Result<Vec<u8>, cowboy_pvm::value::ValueError> {
    use cowboy_pvm::Value;
    let addresses = |list: Vec<Address>| {
        Value::List(
            list.into_iter()
                .map(|a| Value::Str(a.to_string()))
                .collect(),
        )
    };
    let committee = job
        .draws
        .last()
        .map(|d| d.committee.to_vec())
        .unwrap_or_default();
    let paid: Vec<Address> = job.payouts.iter().map(|p| p.runner).collect();
    let details = Value::dict(vec![
        (Value::Str("committee".into()), addresses(committee)),
        (
            Value::Str("failure".into()),
            Value::Str(job.failure.to_string()),
        ),
        (Value::Str("paid".into()), addresses(paid)),
    ])?;
    Value::List(vec![
        Value::Str(job.id.to_string()),
        Value::Str(status.into()),
        job.result
            .as_ref()
            .map_or(Value::None, |r| Value::Bytes(r.to_vec())),
        details,
    ])
    .encode()
}

/// Callbacks delivered per block (Cowboy decision).
pub const MAX_CALLBACKS_PER_BLOCK: usize = 16;

/// Reputation a runner loses when its revealed result is outside the verified group, or not
/// a valid result at all (Cowboy decision: twice the timeout penalty; the spec says "reputation
/// penalty").
pub const MINORITY_PENALTY: u64 = 10;

fn not_found(id: &Hash) -> Handled {
    Handled::failed(
        failure::JOB_NOT_FOUND,
        format!("no job {id} (check the id cowboy_getJob returns)"),
    )
}

fn wrong_state(message: String) -> Handled {
    Handled::failed(failure::WRONG_JOB_STATE, message)
}

/// Charges the job record's bytes as cells and stores it, or fails when the session cannot
/// pay them.
fn store_paid(x: &mut Executor<'_, '_>, s: &mut Session, job: &JobRecord) -> Option<Handled> {
    let size = commonware_codec::EncodeSize::encode_size(job) as u64;
    if let Err(refused) = s.pay(0, size, || format!("writing the {size}-byte job record")) {
        return Some(refused);
    }
    store(x, job);
    None
}

/// Runs a `job_commit` from `sender`.
pub(crate) fn commit(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    sender: Address,
    id: &Hash,
    commitment: &Hash,
) -> Result<Handled, ExecError> {
    let Some(mut job) = load(&x.world, id)? else {
        return Ok(not_found(id));
    };
    let height = x.env.height;
    let committing = job.status == JobStatus::Assigned
        || (job.status == JobStatus::Disputed
            && job.dispute.as_ref().is_some_and(|d| !d.revealing));
    if !committing || height > job.deadline {
        return Ok(wrong_state(format!(
            "job {id} is {} (commit deadline {}, this is height {height}); commits are taken while it is assigned",
            job.status, job.deadline
        )));
    }
    let on_committee = job
        .draws
        .last()
        .is_some_and(|d| d.committee.contains(&sender));
    if !on_committee {
        return Ok(Handled::failed(
            failure::NOT_ON_COMMITTEE,
            format!("{sender} is not on job {id}'s current committee"),
        ));
    }
    if job.commitments.iter().any(|c| c.runner == sender) {
        return Ok(wrong_state(format!(
            "{sender} already committed to job {id}"
        )));
    }
    if job.commitments.iter().any(|c| c.hash == *commitment) {
        // Copying another member's commitment would let a runner reveal its result without
        // running the job; the first is kept, and an honest runner beaten to it commits
        // again with a fresh salt.
        return Ok(wrong_state(format!(
            "commitment {commitment} is already another member's for job {id}; commit with a fresh salt"
        )));
    }
    let mut commitments = std::mem::take(&mut job.commitments).into_inner();
    commitments.push(Commitment {
        runner: sender,
        hash: *commitment,
    });
    job.commitments = List::new(commitments).map_err(|e| too_big("commitments", e))?;
    // Every seat committed (a retry that found too few candidates has fewer than M, never
    // fewer than the threshold).
    let seats = job.draws.last().map_or(0, |d| d.committee.len());
    if job.commitments.len() >= seats.max(usize::from(job.threshold)) {
        start_reveals(x, &mut job);
    }
    Ok(store_paid(x, s, &job).unwrap_or(Handled::Delivered(Vec::new())))
}

/// Every member (or, at the deadline, at least the threshold) committed: the reveal windows
/// open.
fn start_reveals(x: &mut Executor<'_, '_>, job: &mut JobRecord) {
    let height = x.env.height;
    let window = x.env.params.aggregator.aggregator_timeout_blocks;
    match job.dispute.as_mut() {
        Some(d) => d.revealing = true,
        None => job.status = JobStatus::Committed,
    }
    job.committed_at = height;
    job.deadline = height.saturating_add(window.saturating_mul(2));
    x.world.set_storage(
        &actors::JOB_DISPATCHER,
        &keys::deadline(job.deadline, &job.id),
        Some(&[]),
    );
}

/// Runs a `job_reveal` from `sender`: the aggregator (if it committed) may reveal any
/// member's result while the job is committed; after `aggregator_timeout_blocks`, a member
/// may reveal its own. An entry that does not open its member's commitment is slashed when the
/// member sent it itself, and skipped (the member can still reveal) when the aggregator did —
/// an aggregator cannot get others slashed.
pub(crate) fn reveal(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    sender: Address,
    id: &Hash,
    reveals: &[Reveal],
) -> Result<Handled, ExecError> {
    if reveals.is_empty() {
        return Ok(invalid("job_reveal carries no reveals"));
    }
    let Some(mut job) = load(&x.world, id)? else {
        return Ok(not_found(id));
    };
    let height = x.env.height;
    let revealing = job.status == JobStatus::Committed
        || (job.status == JobStatus::Disputed && job.dispute.as_ref().is_some_and(|d| d.revealing));
    if !revealing || height > job.deadline {
        return Ok(wrong_state(format!(
            "job {id} is {} (reveals end at {}, this is height {height}); reveals are taken once the commits are in",
            job.status, job.deadline
        )));
    }
    let committed = |a: &Address| job.commitments.iter().any(|c| c.runner == *a);
    if !committed(&sender) {
        return Ok(Handled::failed(
            failure::NOT_ON_COMMITTEE,
            format!("{sender} did not commit to job {id}"),
        ));
    }
    let is_aggregator = job.draws.last().map(|d| d.aggregator) == Some(sender);
    let own_window = job
        .committed_at
        .saturating_add(x.env.params.aggregator.aggregator_timeout_blocks);
    if !is_aggregator {
        if height <= own_window {
            return Ok(Handled::failed(
                failure::NOT_ON_COMMITTEE,
                format!(
                    "until height {own_window} only job {id}'s aggregator reveals; a member reveals its own result after that"
                ),
            ));
        }
        if reveals.iter().any(|r| r.runner != sender) {
            return Ok(Handled::failed(
                failure::NOT_ON_COMMITTEE,
                "a member reveals only its own result; the aggregator reveals the others",
            ));
        }
    }
    let max_bytes = job.spec.schema.max_return_bytes as usize;
    for (i, r) in reveals.iter().enumerate() {
        if !committed(&r.runner) {
            return Ok(wrong_state(format!(
                "reveal {i}: {} did not commit to job {id}",
                r.runner
            )));
        }
        if job.reveals.iter().any(|x| x.runner == r.runner)
            || job.slashed.contains(&r.runner)
            || reveals[..i].iter().any(|x| x.runner == r.runner)
        {
            return Ok(wrong_state(format!(
                "reveal {i}: {} already revealed",
                r.runner
            )));
        }
        if r.result.len() > max_bytes {
            return Ok(wrong_state(format!(
                "reveal {i}: the result is {} bytes, above the job's max_return_bytes ({max_bytes})",
                r.result.len()
            )));
        }
    }
    // Hashing the reveals (§17.3 keccak256: 6 cycles per 32 bytes) and reading each result
    // for its agreement key (1 cycle per byte, Cowboy decision) are paid here, once.
    // A JSON Schema check adds its own price (`verification::check_cycles`).
    let bytes: u64 = reveals.iter().map(|r| r.result.len() as u64 + 32).sum();
    // An embedding is compared with every committee member's (paid here, once).
    let checks: u64 = reveals
        .iter()
        .map(|r| {
            verification::check_cycles(&job.spec, r.result.len()).saturating_add(
                verification::similarity_cycles(r.embedding.len(), job.committee_size),
            )
        })
        .fold(0, u64::saturating_add);
    // Compiling the job's JSON Schema once for this transaction: a cycle per schema byte.
    let compile = verification::compile_cycles(&job.spec);
    let work = (6 * bytes.div_ceil(32) + bytes)
        .saturating_add(checks)
        .saturating_add(compile);
    if let Err(refused) = s.pay(work, 0, || {
        format!("checking {bytes} bytes of reveals ({work} cycles)")
    }) {
        return Ok(refused);
    }
    let bounds = job.spec.bounds;
    let checker = verification::Checker::new(&job.spec);
    let mut kept = std::mem::take(&mut job.reveals).into_inner();
    let mut slashed = std::mem::take(&mut job.slashed).into_inner();
    for r in reveals {
        let opens = job
            .commitments
            .iter()
            .any(|c| c.runner == r.runner && c.hash == r.commitment());
        if opens {
            kept.push(Revealed {
                runner: r.runner,
                agreement: checker.agreement(&r.result, &r.embedding, r.fault.as_ref()),
                result: r.result.clone(),
                // Usage beyond the job's bounds is not believed.
                tokens: r.tokens.min(bounds.max_tokens),
                ms: r.ms.min(bounds.max_wall_ms),
                embedding: r.embedding.clone(),
                fault: r.fault,
            });
        } else if r.runner == sender {
            // The member's own reveal does not open its commitment: provable dishonesty.
            slash(x, &job, &r.runner)?;
            slashed.push(r.runner);
        }
    }
    job.reveals = List::new(kept).map_err(|e| too_big("reveals", e))?;
    job.slashed = List::new(slashed).map_err(|e| too_big("slashed", e))?;
    if job.reveals.len() + job.slashed.len() == job.commitments.len() {
        verify(x, &mut job)?;
    }
    Ok(store_paid(x, s, &job).unwrap_or(Handled::Delivered(Vec::new())))
}

/// Slashes `runner`'s stake by `non_reveal_slash_bps` (from its bonded stake, then its
/// unbonding stake), distributed per `slash_distribution`; it loses the job.
fn slash(x: &mut Executor<'_, '_>, job: &JobRecord, runner: &Address) -> Result<(), ExecError> {
    slash_stake(x, job, runner, true)
}

/// Slashes `runner` (see [`slash`]); `release` also ends its part in the job (it is still on
/// it), which a runner slashed after its job ended (an overturned result) no longer is.
fn slash_stake(
    x: &mut Executor<'_, '_>,
    job: &JobRecord,
    runner: &Address,
    release: bool,
) -> Result<(), ExecError> {
    let Some(mut r) = x.world.runner(runner)? else {
        return Ok(());
    };
    let bps = x.env.params.non_reveal.non_reveal_slash_bps;
    let base = r.stake.saturating_add(r.unbonding.amount);
    let amount = (u128::from(base) * u128::from(bps) / u128::from(crate::params::BPS)) as u64;
    let from_stake = amount.min(r.stake);
    r.stake -= from_stake;
    r.unbonding.amount = r.unbonding.amount.saturating_sub(amount - from_stake);
    if release {
        r.active_jobs = r.active_jobs.saturating_sub(1);
    }
    x.world.set_runner(runner, Some(&r));
    let d = x.env.params.slash_distribution.clone();
    let part =
        |bps: u64| (u128::from(amount) * u128::from(bps) / u128::from(crate::params::BPS)) as u64;
    let to_submitter = part(d.submitter_bps);
    let to_treasury = part(d.treasury_bps);
    let burned = amount - to_submitter - to_treasury;
    x.world
        .transfer_held(&actors::RUNNER_REGISTRY, &job.submitter, to_submitter)?;
    x.world
        .transfer_held(&actors::RUNNER_REGISTRY, &actors::TREASURY, to_treasury)?;
    burn(x, &actors::RUNNER_REGISTRY, burned)
}

/// Takes `amount` from `from` out of the supply.
fn burn(x: &mut Executor<'_, '_>, from: &Address, amount: u64) -> Result<(), ExecError> {
    x.world.withdraw_held(from, amount)?;
    x.burned += u128::from(amount);
    Ok(())
}

/// Every committed member revealed (or the reveal windows closed): find the verified group,
/// pay or fail.
fn verify(x: &mut Executor<'_, '_>, job: &mut JobRecord) -> Result<(), ExecError> {
    let height = x.env.height;
    let half_life = x.env.params.reputation.half_life_blocks;
    let group = verification::group(job);
    let invalid = group.invalid;
    let fault = group.fault;
    let kept = group.kept;
    let (winners, chosen): (Vec<Revealed>, Option<Revealed>) =
        if kept.len() >= usize::from(job.threshold) {
            (
                kept.iter().map(|r| (*r).clone()).collect(),
                group.chosen.cloned(),
            )
        } else {
            (Vec::new(), None)
        };
    // Release every member still on the job; penalise those outside the verified group.
    for r in job.reveals.iter() {
        if let Some(mut rec) = x.world.runner(&r.runner)? {
            rec.active_jobs = rec.active_jobs.saturating_sub(1);
            if !winners.iter().any(|w| w.runner == r.runner) {
                rec.reputation =
                    reputation(&rec, height, half_life).saturating_sub(MINORITY_PENALTY);
                rec.reputation_height = height;
            }
            x.world.set_runner(&r.runner, Some(&rec));
        }
    }
    if job.dispute.is_some() {
        let fresh = chosen.as_ref().map(|w| {
            (
                w.agreement,
                w.result.clone(),
                winners.iter().map(|w| w.runner).collect(),
            )
        });
        return resolve(x, job, fresh);
    }
    // External fault or bounds too tight (whitepaper "Payment and Failure Handling"): the
    // reporters are paid the reported share of the price (no tip), the job fails, and the
    // rest of the escrow goes back.
    if let (Some((kind, progress)), false) = (fault, winners.is_empty()) {
        let gross = split(x, job, &winners, u64::from(progress), false)?;
        for p in job.payouts.iter() {
            x.world
                .transfer_held(&actors::JOB_DISPATCHER, &p.runner, p.amount)?;
        }
        x.world
            .transfer_held(&actors::JOB_DISPATCHER, &actors::TREASURY, job.treasury)?;
        burn(x, &actors::JOB_DISPATCHER, job.burn)?;
        job.escrow -= gross;
        return fail(
            x,
            job,
            &format!(
                "{} of {} runners reported a fault ({kind}) after {progress} bps of the work; they are paid that share of the price",
                winners.len(),
                job.committee_size
            ),
        );
    }
    let Some(first) = chosen.as_ref() else {
        let largest = kept.len();
        return fail(
            x,
            job,
            &format!(
                "no consensus: the largest agreeing group has {largest} of the {} results needed ({} invalid)",
                job.threshold, invalid
            ),
        );
    };
    let gross = split(x, job, &winners, crate::params::BPS, true)?;
    job.result = Some(first.result.clone());
    // The rest of the price escrow goes back now; the payouts wait out the challenge window.
    // What the price escrow does not pay goes back; the callback budgets stay.
    let refund = job.spec.max_price.saturating_add(job.spec.tip) - gross;
    x.world
        .transfer_held(&actors::JOB_DISPATCHER, &job.submitter, refund)?;
    job.escrow -= refund;
    job.status = JobStatus::Verified;
    job.deadline = height.saturating_add(x.env.params.runner.challenge_window_blocks);
    x.world.set_storage(
        &actors::JOB_DISPATCHER,
        &keys::deadline(job.deadline, &job.id),
        Some(&[]),
    );
    schedule_callback(x, job, "verified")?;
    Ok(())
}

/// What `winners` are paid, written to `job` (payouts, treasury and burn shares) and returned
/// as the gross: each one's rate card on the usage it reported (clamped to the job's bounds),
/// the lower median of them, capped by `max_price` (so one runner inflating its report cannot
/// set it), times `progress_bps` / 10,000, plus the tip when `with_tip`; split per the
/// settlement parameters, the aggregator's bonus carved from the runner share, the dust burned.
fn split(
    x: &mut Executor<'_, '_>,
    job: &mut JobRecord,
    winners: &[Revealed],
    progress_bps: u64,
    with_tip: bool,
) -> Result<u64, ExecError> {
    let mut prices = Vec::with_capacity(winners.len());
    for w in winners {
        if let Some(rec) = x.world.runner(&w.runner)? {
            prices.push(rec.profile.rate_card.price(w.tokens, w.ms));
        }
    }
    prices.sort_unstable();
    let price = prices
        .get(prices.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0)
        .min(job.spec.max_price);
    let price = (u128::from(price) * u128::from(progress_bps.min(crate::params::BPS))
        / u128::from(crate::params::BPS)) as u64;
    let gross = if with_tip {
        price.saturating_add(job.spec.tip)
    } else {
        price
    };
    let params = &x.env.params;
    let share =
        |bps: u64| (u128::from(gross) * u128::from(bps) / u128::from(crate::params::BPS)) as u64;
    let treasury = share(params.settlement.treasury_bps);
    let burn_part = share(params.settlement.burn_bps);
    let runners_part = gross - treasury - burn_part;
    let aggregator = job.draws.last().map(|d| d.aggregator);
    let bonus = if winners.iter().any(|w| Some(w.runner) == aggregator) {
        share(params.aggregator.aggregator_bonus_bps).min(runners_part)
    } else {
        0
    };
    let each = (runners_part - bonus) / winners.len() as u64;
    let dust = runners_part - bonus - each * winners.len() as u64;
    let payouts: Vec<Payout> = winners
        .iter()
        .map(|w| Payout {
            runner: w.runner,
            amount: each
                + if Some(w.runner) == aggregator {
                    bonus
                } else {
                    0
                },
        })
        .collect();
    job.payouts = List::new(payouts).map_err(|e| too_big("payouts", e))?;
    job.treasury = treasury;
    job.burn = burn_part + dust;
    Ok(gross)
}

/// Pays out a verified job whose challenge window ended.
fn settle(x: &mut Executor<'_, '_>, job: &mut JobRecord) -> Result<(), ExecError> {
    for p in job.payouts.iter() {
        x.world
            .transfer_held(&actors::JOB_DISPATCHER, &p.runner, p.amount)?;
    }
    x.world
        .transfer_held(&actors::JOB_DISPATCHER, &actors::TREASURY, job.treasury)?;
    burn(x, &actors::JOB_DISPATCHER, job.burn)?;
    let paid: u64 = job.payouts.iter().map(|p| p.amount).sum::<u64>() + job.treasury + job.burn;
    job.escrow -= paid;
    // The dispute callback's reserve goes back; the fees of callbacks still queued stay.
    let keep = job
        .spec
        .callback
        .max_fee
        .saturating_mul(u64::from(job.callbacks_pending))
        .min(job.escrow);
    let rest = job.escrow - keep;
    x.world
        .transfer_held(&actors::JOB_DISPATCHER, &job.submitter, rest)?;
    job.escrow = keep;
    job.status = JobStatus::Settled;
    store(x, job);
    Ok(())
}

/// Queues a callback reporting `status` for the next free height from the next block on (so
/// a result and a dispute reported in one block are both delivered), keeping its fee.
fn schedule_callback(
    x: &mut Executor<'_, '_>,
    job: &mut JobRecord,
    status: &str,
) -> Result<(), ExecError> {
    if job.spec.callback.max_fee == 0 {
        return Ok(());
    }
    let mut at = x.env.height.saturating_add(1);
    while x
        .world
        .storage(&actors::JOB_DISPATCHER, &keys::callback(at, &job.id))?
        .is_some()
    {
        at = at.saturating_add(1);
    }
    x.world.set_storage(
        &actors::JOB_DISPATCHER,
        &keys::callback(at, &job.id),
        Some(status.as_bytes()),
    );
    job.callbacks_pending = job.callbacks_pending.saturating_add(1);
    Ok(())
}

/// Runs a `job_challenge` from `sender` (spec README "Challenges"): within a verified job's
/// challenge window anyone may post `runner.challenge_bond`; the payouts stay held and a fresh
/// committee — nobody who ran the job before — re-executes it, drawn from the beacon of a round
/// `committee.round_delay` after the challenge (nobody can see it when challenging). Only
/// results that a fresh committee can reproduce are challengeable: `majority_vote` and
/// `deterministic` (a single runner's `none` / `economic_bond` result awaits the objective
/// checks).
pub(crate) fn challenge(
    x: &mut Executor<'_, '_>,
    s: &mut Session,
    sender: Address,
    id: &Hash,
    bond: u64,
) -> Result<Handled, ExecError> {
    let Some(mut job) = load(&x.world, id)? else {
        return Ok(not_found(id));
    };
    let height = x.env.height;
    if job.status != JobStatus::Verified || job.dispute.is_some() || height > job.deadline {
        return Ok(wrong_state(format!(
            "job {id} is {} (challenges are taken while it is verified and not yet challenged, until height {})",
            job.status, job.deadline
        )));
    }
    // Only results a fresh committee can reproduce and compare objectively: not mutable data
    // (a snapshot mode), not a single runner's result, not structured_match (its key leaves
    // out the tolerance fields) and not semantic similarity.
    if !matches!(
        job.spec.verification.mode,
        VerificationMode::MajorityVote { .. } | VerificationMode::Deterministic {}
    ) || job.spec.verification.snapshot.is_some()
    {
        return Ok(invalid(format!(
            "job {id} ({}) cannot be challenged: only majority_vote and deterministic results without a snapshot mode can be re-executed and compared",
            job.spec.verification.mode.name()
        )));
    }
    let required = x.env.params.runner.challenge_bond;
    if bond != required {
        return Ok(invalid(format!(
            "the challenge bond is {required} base units (runner.challenge_bond); this one is {bond}"
        )));
    }
    // The deferred draw's filtering is paid now, as a committee submission pays for its own.
    let cost = CANDIDATE_CHECK_CYCLES.saturating_mul(job.candidates.len() as u64);
    if let Err(refused) = s.pay(cost, 0, || {
        format!("paying the fresh committee's draw ({cost} cycles)")
    }) {
        return Ok(refused);
    }
    let previous: Vec<Address> = job
        .draws
        .iter()
        .flat_map(|d| d.committee.iter().copied())
        .collect();
    let left = job
        .candidates
        .iter()
        .filter(|c| !previous.contains(&c.address) && !job.excluded.contains(&c.address))
        .count();
    if left < usize::from(job.committee_size) {
        return Ok(Handled::failed(
            failure::NO_RUNNERS,
            format!(
                "{left} runners who have not run job {id} are left; re-executing it needs {}",
                job.committee_size
            ),
        ));
    }
    let paid: Vec<Address> = job.payouts.iter().map(|p| p.runner).collect();
    let Some(original) = job
        .reveals
        .iter()
        .find(|r| paid.first() == Some(&r.runner))
        .and_then(|r| r.agreement)
    else {
        return Ok(wrong_state(format!(
            "job {id} has no verified result to challenge"
        )));
    };
    job.dispute = Some(Dispute {
        challenger: sender,
        bond,
        original,
        paid: List::new(paid).map_err(|e| too_big("paid", e))?,
        bound_epoch: x.env.block.epoch,
        bound_view: x.env.block.view,
        revealing: false,
        outcome: Text::default(),
    });
    job.status = JobStatus::Disputed;
    job.commitments = List::default();
    job.reveals = List::default();
    job.slashed = List::default();
    // No step is due until the fresh committee is drawn (the window's index entry no longer
    // matches).
    job.deadline = 0;
    let seq = x.world.next_seq("job")?;
    x.world.set_storage(
        &actors::JOB_DISPATCHER,
        &keys::awaiting_draw(seq, id),
        Some(&[]),
    );
    if let Some(refused) = store_paid(x, s, &job) {
        return Ok(refused);
    }
    x.world
        .transfer_held(&sender, &actors::JOB_DISPATCHER, bond)?;
    Ok(Handled::Delivered(Vec::new()))
}

/// Ends a dispute with the fresh committee's verified result (`None`: none was reached).
fn resolve(
    x: &mut Executor<'_, '_>,
    job: &mut JobRecord,
    fresh: Option<(Option<Hash>, Bytes<65536>, Vec<Address>)>,
) -> Result<(), ExecError> {
    let Some(mut dispute) = job.dispute.take() else {
        return Err(ExecError::Corrupt {
            what: format!("job {}", job.id),
            reason: "resolving a dispute it does not have".into(),
        });
    };
    let height = x.env.height;
    let outcome = match &fresh {
        None => "inconclusive",
        Some((agreement, _, _)) if *agreement == Some(dispute.original) => "upheld",
        Some(_) => "overturned",
    };
    dispute.outcome = Text::new(outcome.to_owned()).unwrap_or_default();
    match outcome {
        "overturned" => {
            // The runners who agreed on a result a fresh committee contradicts are slashed;
            // the challenger's bond and the price escrow go back; the callback hears of it.
            for a in dispute.paid.iter() {
                slash_stake(x, job, a, false)?;
            }
            x.world
                .transfer_held(&actors::JOB_DISPATCHER, &dispute.challenger, dispute.bond)?;
            let held: u64 =
                job.payouts.iter().map(|p| p.amount).sum::<u64>() + job.treasury + job.burn;
            x.world
                .transfer_held(&actors::JOB_DISPATCHER, &job.submitter, held)?;
            job.escrow -= held;
            job.payouts = List::default();
            job.treasury = 0;
            job.burn = 0;
            job.result = fresh.map(|(_, result, _)| result);
            job.status = JobStatus::Failed;
            job.failure =
                Text::new("overturned: a fresh committee agreed on a different result".to_owned())
                    .unwrap_or_default();
            job.dispute = Some(dispute);
            schedule_callback(x, job, "disputed")?;
        }
        _ => {
            // The result stands and the bond is forfeited (spec README "Challenges"): to the
            // fresh committee that confirmed the result, equally (dust to the Treasury), or to
            // the Treasury when the re-execution reached no result.
            let confirmers = fresh.map(|(_, _, winners)| winners).unwrap_or_default();
            let each = if confirmers.is_empty() {
                0
            } else {
                dispute.bond / confirmers.len() as u64
            };
            for a in &confirmers {
                x.world.transfer_held(&actors::JOB_DISPATCHER, a, each)?;
            }
            let rest = dispute.bond - each * confirmers.len() as u64;
            x.world
                .transfer_held(&actors::JOB_DISPATCHER, &actors::TREASURY, rest)?;
            job.status = JobStatus::Verified;
            job.deadline = height;
            x.world.set_storage(
                &actors::JOB_DISPATCHER,
                &keys::deadline(height, &job.id),
                Some(&[]),
            );
            job.dispute = Some(dispute);
        }
    }
    store(x, job);
    Ok(())
}

/// Up to `limit` jobs with ids above `after`, in id order (for explorers and runners; the
/// node's RPC pages through them).
pub fn jobs_after(
    world: &crate::world::World<'_>,
    after: Option<&Hash>,
    limit: usize,
) -> Result<Vec<JobRecord>, ExecError> {
    let prefix = cowboy_types::state::key::storage(&actors::JOB_DISPATCHER, keys::JOB);
    let start =
        after.map(|id| cowboy_types::state::key::storage(&actors::JOB_DISPATCHER, &keys::job(id)));
    let page = world.overlay.scan(&prefix, start.as_deref(), limit)?;
    page.into_iter()
        .map(|(k, v)| {
            cowboy_types::codec::decode_strict(&v).map_err(|e| ExecError::Corrupt {
                what: format!("job record {}", cowboy_types::encode_hex(&k)),
                reason: e.to_string(),
            })
        })
        .collect()
}

/// The jobs a runner may have a duty on — those with a pending deadline (assigned, committed,
/// disputed, or in their challenge window) — found through the deadline index rather than
/// among every job ever submitted; at most `limit` index entries are looked at.
pub fn live_jobs(
    world: &crate::world::World<'_>,
    limit: usize,
) -> Result<Vec<JobRecord>, ExecError> {
    let prefix = cowboy_types::state::key::storage(&actors::JOB_DISPATCHER, keys::DEADLINE);
    let header = prefix.len() - keys::DEADLINE.len();
    let mut out = Vec::new();
    for (k, _) in world.overlay.scan(&prefix, None, limit)? {
        let key = k[header..].to_vec();
        let at = height_in(&key, keys::DEADLINE)?;
        let id = id_at_end(&key)?;
        // An entry left behind by a deadline that moved is skipped, as the jobs phase does.
        if let Some(job) = load(world, &id)?
            && job.deadline == at
        {
            out.push(job);
        }
    }
    Ok(out)
}

/// What a runner must do for a job now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duty {
    /// It is on the committee drawn last and has not committed.
    Commit,
    /// It aggregates and the reveals are open, or its own reveal is due after the
    /// aggregator's window.
    Reveal,
}

/// `runner`'s duty on `job` at `height`, if any.
pub fn duty(
    job: &JobRecord,
    runner: &Address,
    height: u64,
    aggregator_window: u64,
) -> Option<Duty> {
    let draw = job.draws.last()?;
    let stage = match (job.status, job.dispute.as_ref().map(|d| d.revealing)) {
        (JobStatus::Assigned, _) | (JobStatus::Disputed, Some(false)) => JobStatus::Assigned,
        (JobStatus::Committed, _) | (JobStatus::Disputed, Some(true)) => JobStatus::Committed,
        _ => return None,
    };
    if height > job.deadline {
        return None;
    }
    let committed = job.commitments.iter().any(|c| c.runner == *runner);
    match stage {
        JobStatus::Assigned if draw.committee.contains(runner) && !committed => Some(Duty::Commit),
        JobStatus::Committed if committed => {
            let revealed =
                job.reveals.iter().any(|r| r.runner == *runner) || job.slashed.contains(runner);
            let own_turn = height > job.committed_at.saturating_add(aggregator_window);
            let aggregating = draw.aggregator == *runner
                && job.reveals.len() + job.slashed.len() < job.commitments.len();
            (aggregating || (own_turn && !revealed)).then_some(Duty::Reveal)
        }
        _ => None,
    }
}
