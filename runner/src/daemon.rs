//! The runner daemon: follows the node with `cowboy_waitForAssignment` (a long poll, never a
//! sleeping loop), runs each assigned job within its bounds, journals then sends its commit,
//! pushes its result to the job's aggregator, aggregates and reveals the committee's results
//! when it is the aggregator, reveals its own after the aggregator's window, heartbeats, and
//! records what settled jobs paid it.
//!
//! Every transaction is signed and sent under one lock, so nonces follow each other. A commit
//! is written to the journal (with its salt and signed bytes) before it is sent; after a
//! restart the same bytes are sent again, so a runner never commits twice and always has the
//! reveal that opens its commitment.

use crate::{
    conduct::{Conduct, Plan},
    exec::{self, Backends, Outcome},
    journal::{Entry, Journal, Stage},
    metrics::Metrics,
    push::{Pool, Push},
};
use cowboy_crypto::PrivateKey;
use cowboy_rpc::{CowboyApiClient, DutyView, MAX_WAIT_MS, jsonrpsee::http_client::HttpClient};
use cowboy_types::{
    Address, Hash, Instruction, SystemInstruction,
    bounded::{Bytes, List},
    job::{JobRecord, JobStatus, Reveal},
};
use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

/// Why the daemon stopped.
#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error(transparent)]
    Journal(#[from] crate::journal::JournalError),
    #[error("cannot reach the node at {url}: {message}")]
    Node { url: String, message: String },
    #[error("{0} is not a registered runner; run `cowboy runner register` first")]
    NotRegistered(Address),
    #[error("cannot start the HTTP client: {0}")]
    Client(String),
}

/// Blocks after sending a transaction before sending it again if it is still not in.
const RESEND_AFTER_BLOCKS: u64 = 3;
/// Which of a job's transactions a resend throttle is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Sent {
    Commit,
    Reveal,
}

/// Most result bytes one batch reveal carries (a transaction is at most 128 KiB).
const MAX_BATCH_BYTES: usize = 96 * 1024;

/// Limits for a transaction that rewrites `job`'s record with `reveals` added: cells for the
/// whole record (the dispatcher stores it and charges a cell per byte) and cycles for hashing
/// and checking each reveal, with room to spare (unused budget is refunded).
fn limits(job: &JobRecord, reveals: &[Reveal]) -> cowboy_rpc::TxOptions {
    use cowboy_execution::runners::verification as v;
    let record = commonware_codec::EncodeSize::encode_size(job) as u64;
    let added: u64 = reveals
        .iter()
        .map(|r| r.result.len() as u64 + 2 * r.embedding.len() as u64 + 256)
        .sum();
    let checks: u64 = reveals
        .iter()
        .map(|r| {
            let n = r.result.len() + 32;
            (7 * n as u64)
                .saturating_add(v::check_cycles(&job.spec, r.result.len()))
                .saturating_add(v::similarity_cycles(r.embedding.len(), job.committee_size))
        })
        .fold(0, u64::saturating_add);
    cowboy_rpc::TxOptions {
        // The instruction's intrinsic 21,000 and the dispatcher's reads, with room. Runner
        // transactions share the runner lane's reservation by their limits, so a generous
        // limit would let fewer of them into each block.
        cycles_limit: Some(
            30_000u64
                .saturating_add(checks)
                .saturating_add(v::compile_cycles(&job.spec)),
        ),
        // The transaction's own bytes (intrinsic cells), the record rewritten with the reveals,
        // and the verified result copied into it when this reveal completes the job.
        cells_limit: Some(
            record
                .saturating_add(added.saturating_mul(3))
                .saturating_add(8_192),
        ),
        ..Default::default()
    }
}

/// One runner.
pub struct Runner {
    pub(crate) key: PrivateKey,
    pub(crate) address: Address,
    pub(crate) client: HttpClient,
    pub(crate) url: String,
    pub(crate) journal: Journal,
    pub(crate) backends: Backends,
    pub(crate) pool: Mutex<Pool>,
    pub metrics: Metrics,
    conduct: Arc<dyn Conduct>,
    /// Signing and sending, one at a time (nonces).
    send_lock: tokio::sync::Mutex<()>,
    /// Jobs whose batch reveal was refused (reveal this runner's own result alone), jobs whose
    /// result was pushed to the aggregator, and whether an `advance` pass is running.
    own_only: Mutex<std::collections::HashSet<Hash>>,
    pushed: Mutex<std::collections::HashSet<Hash>>,
    advancing: AtomicBool,
    /// Jobs being executed now, and jobs its conduct declined (not looked at again).
    running: Mutex<HashMap<Hash, ()>>,
    declined: Mutex<std::collections::HashSet<Hash>>,
    /// The last transaction sent per job and the height it was sent at.
    sent: Mutex<HashMap<(Hash, Sent), u64>>,
    /// Reveal tasks running now (one per job at a time).
    revealing: Mutex<std::collections::HashSet<Hash>>,
    /// Jobs not worth asking the node about before a height (verified, waiting to settle).
    quiet_until: Mutex<HashMap<Hash, u64>>,
    /// The last height seen, when it was seen, and the block time measured from the long
    /// polls (milliseconds, a moving average; 0 until measured).
    pub(crate) height: AtomicU64,
    seen_at: Mutex<Option<(u64, Instant)>>,
    block_ms: AtomicU64,
    /// Whether the last poll reached the node.
    pub(crate) healthy: AtomicBool,
    /// Set by a [`Plan::CommitThenHalt`]: the runner stops acting.
    halted: AtomicBool,
    last_heartbeat_check: AtomicU64,
}

impl Runner {
    /// A runner with `key`, following the node in `backends.config.rpc_url`.
    pub fn new(
        key: PrivateKey,
        backends: Backends,
        journal: Journal,
        conduct: Arc<dyn Conduct>,
    ) -> Result<Arc<Self>, DaemonError> {
        let url = backends.config.rpc_url.clone();
        let client = cowboy_rpc::client(&url).map_err(|e| DaemonError::Client(e.to_string()))?;
        Ok(Arc::new(Self {
            address: key.address(),
            key,
            client,
            url,
            journal,
            backends,
            pool: Mutex::new(Pool::default()),
            metrics: Metrics::default(),
            conduct,
            send_lock: tokio::sync::Mutex::new(()),
            running: Mutex::new(HashMap::new()),
            declined: Mutex::new(Default::default()),
            own_only: Mutex::new(Default::default()),
            pushed: Mutex::new(Default::default()),
            advancing: AtomicBool::new(false),
            sent: Mutex::new(HashMap::new()),
            revealing: Mutex::new(Default::default()),
            quiet_until: Mutex::new(HashMap::new()),
            height: AtomicU64::new(0),
            seen_at: Mutex::new(None),
            block_ms: AtomicU64::new(0),
            healthy: AtomicBool::new(false),
            halted: AtomicBool::new(false),
            last_heartbeat_check: AtomicU64::new(0),
        }))
    }

    pub fn address(&self) -> Address {
        self.address
    }

    /// Whether a [`Plan::CommitThenHalt`] stopped the runner.
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::SeqCst)
    }

    fn node_error(&self, e: impl std::fmt::Display) -> DaemonError {
        DaemonError::Node {
            url: self.url.clone(),
            message: e.to_string(),
        }
    }

    /// Follows the chain until `shutdown` resolves (or the runner halts).
    pub async fn run(
        self: Arc<Self>,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> Result<(), DaemonError> {
        tokio::pin!(shutdown);
        if self
            .client
            .runner(self.address)
            .await
            .map_err(|e| self.node_error(e))?
            .is_none()
        {
            return Err(DaemonError::NotRegistered(self.address));
        }
        self.recover().await?;
        let mut after = 0u64;
        let mut backoff = Duration::from_millis(100);
        loop {
            if self.halted() {
                tracing::warn!(runner = %self.address, "halted after its commit (fault drill); kill and restart it");
                shutdown.await;
                return Ok(());
            }
            let poll = self
                .client
                .wait_for_assignment(self.address, after, Some(MAX_WAIT_MS));
            let answer = tokio::select! {
                _ = &mut shutdown => return Ok(()),
                a = poll => a,
            };
            let assignments = match answer {
                Ok(Some(a)) => a,
                Ok(None) => continue,
                Err(e) => {
                    // The node is down or restarting: back off (at most 5 s) rather than spin.
                    self.healthy.store(false, Ordering::SeqCst);
                    tracing::warn!(error = %e, url = %self.url, "the node did not answer the long poll");
                    tokio::select! {
                        _ = &mut shutdown => return Ok(()),
                        _ = tokio::time::sleep(backoff) => {}
                    }
                    backoff = (backoff * 2).min(Duration::from_secs(5));
                    continue;
                }
            };
            backoff = Duration::from_millis(100);
            self.healthy.store(true, Ordering::SeqCst);
            self.observe_block(after, assignments.height);
            after = assignments.height;
            self.height.store(after, Ordering::SeqCst);
            self.metrics.height.set(after as i64);
            for duty in assignments.duties {
                self.clone().dispatch(duty, after);
            }
            let me = self.clone();
            tokio::spawn(async move {
                me.heartbeat(after).await;
                me.advance().await;
            });
        }
    }

    /// Sends again the commits the journal holds (the node may have lost them); results are
    /// pushed by [`Self::advance`] once the commit phase is over.
    async fn recover(self: &Arc<Self>) -> Result<(), DaemonError> {
        for entry in self.journal.open_entries()? {
            if entry.stage == Stage::Committing {
                tracing::info!(job = %entry.job_id, "resending the journalled commit");
                self.send_raw(&entry.commit_tx.0).await;
            }
        }
        Ok(())
    }

    /// As the aggregator of `job_id`: tries the batch reveal now (a push just arrived) rather
    /// than at the next block; it is sent once every result is held.
    pub(crate) fn reveal_now(self: Arc<Self>, job_id: Hash) {
        let height = self.height.load(Ordering::SeqCst);
        self.dispatch(
            DutyView {
                job_id,
                duty: "reveal".into(),
                deadline: 0,
            },
            height,
        );
    }

    fn dispatch(self: Arc<Self>, duty: DutyView, height: u64) {
        let job_id = duty.job_id;
        match duty.duty.as_str() {
            "commit" => {
                if self.declined.lock().is_ok_and(|d| d.contains(&job_id)) {
                    return;
                }
                {
                    let Ok(mut running) = self.running.lock() else {
                        return;
                    };
                    if running.insert(job_id, ()).is_some() {
                        return;
                    }
                }
                tokio::spawn(async move {
                    let me = self.clone();
                    if let Err(e) = me.commit(job_id, duty.deadline, height).await {
                        tracing::error!(job = %job_id, error = %e, "commit failed");
                    }
                    if let Ok(mut running) = self.running.lock() {
                        running.remove(&job_id);
                    }
                });
            }
            "reveal" => {
                if !self.due(job_id, Sent::Reveal, height)
                    || !self.revealing.lock().is_ok_and(|mut r| r.insert(job_id))
                {
                    return;
                }
                tokio::spawn(async move {
                    if let Err(e) = self.reveal(job_id, height).await {
                        tracing::error!(job = %job_id, error = %e, "reveal failed");
                    }
                    if let Ok(mut r) = self.revealing.lock() {
                        r.remove(&job_id);
                    }
                });
            }
            other => tracing::warn!(duty = other, job = %job_id, "unknown duty from the node"),
        }
    }

    /// Updates the measured block time when the chain moved from `before` to `now`.
    fn observe_block(&self, before: u64, now: u64) {
        let Ok(mut seen) = self.seen_at.lock() else {
            return;
        };
        if let Some((h, at)) = *seen
            && now > h
            && before == h
        {
            let sample = at.elapsed().as_millis() as u64 / (now - h);
            let old = self.block_ms.load(Ordering::SeqCst);
            let next = if old == 0 {
                sample
            } else {
                (old * 3 + sample) / 4
            };
            self.block_ms.store(next, Ordering::SeqCst);
        }
        *seen = Some((now, Instant::now()));
    }

    /// Whether a `kind` transaction for `job_id` may be sent at `height` (none sent in the last
    /// [`RESEND_AFTER_BLOCKS`] blocks).
    fn due(&self, job_id: Hash, kind: Sent, height: u64) -> bool {
        let Ok(sent) = self.sent.lock() else {
            return false;
        };
        sent.get(&(job_id, kind))
            .is_none_or(|at| height >= at.saturating_add(RESEND_AFTER_BLOCKS))
    }

    fn mark_sent(&self, job_id: Hash, kind: Sent) {
        if let Ok(mut sent) = self.sent.lock() {
            sent.insert((job_id, kind), self.height.load(Ordering::SeqCst));
        }
    }

    /// Forgets everything held in memory about `job_id`.
    fn forget(&self, job_id: &Hash) {
        for set in [
            &self.pushed,
            &self.own_only,
            &self.declined,
            &self.revealing,
        ] {
            if let Ok(mut s) = set.lock() {
                s.remove(job_id);
            }
        }
        if let Ok(mut sent) = self.sent.lock() {
            sent.retain(|(j, _), _| j != job_id);
        }
        if let Ok(mut q) = self.quiet_until.lock() {
            q.remove(job_id);
        }
        if let Ok(mut pool) = self.pool.lock() {
            pool.remove(job_id);
        }
    }

    /// Runs the job, then commits as the conduct plans.
    async fn commit(
        self: &Arc<Self>,
        job_id: Hash,
        deadline: u64,
        height: u64,
    ) -> Result<(), DaemonError> {
        let Some(job) = self
            .client
            .job(job_id)
            .await
            .map_err(|e| self.node_error(e))?
        else {
            return Ok(());
        };
        let draws = job.draws.len() as u32;
        if let Some(entry) = self.journal.get(&job_id)?
            && entry.draws == draws
        {
            // Committed to this draw (before a restart, perhaps) and not in a block yet: the
            // same signed bytes again, never a second commitment.
            if self.due(job_id, Sent::Commit, height) {
                self.mark_sent(job_id, Sent::Commit);
                self.send_raw(&entry.commit_tx.0).await;
            }
            return Ok(());
        }
        if !self.conduct.runs(&job) {
            if let Ok(mut d) = self.declined.lock() {
                // Bounded: a declined job that comes back is only declined again.
                if d.len() >= 4_096 {
                    d.clear();
                }
                d.insert(job_id);
            }
            self.metrics.job("skipped");
            tracing::info!(job = %job_id, "not running the job (conduct)");
            return Ok(());
        }
        self.metrics.active.inc();
        let started = Instant::now();
        // Leave a block for the commit to be included before the deadline.
        let block_ms = self.block_ms.load(Ordering::SeqCst);
        let time_left = (block_ms > 0).then(|| {
            let blocks = deadline.saturating_sub(height).saturating_sub(1).max(1);
            Duration::from_millis(blocks.saturating_mul(block_ms))
        });
        let outcome = exec::execute(&job.spec, &self.backends, time_left).await;
        self.metrics.active.dec();
        self.metrics
            .execution_seconds
            .observe(started.elapsed().as_secs_f64());
        if let Some(note) = &outcome.note {
            self.metrics.job("faulted");
            tracing::warn!(job = %job_id, fault = %note, "reporting a fault");
        }
        let (outcome, halt) = match self.conduct.plan(&job, outcome) {
            Plan::Commit(o) => (o, false),
            Plan::CommitThenHalt(o) => (o, true),
            Plan::Skip => {
                self.metrics.job("skipped");
                return Ok(());
            }
            Plan::Late(o) => {
                // Wait for the block after the deadline, then commit (the chain refuses it).
                let mut after = self.height.load(Ordering::SeqCst);
                while after <= deadline {
                    match self.client.wait_for_block(after, Some(MAX_WAIT_MS)).await {
                        Ok(Some(b)) => after = b.height,
                        Ok(None) => {}
                        Err(e) => return Err(self.node_error(e)),
                    }
                }
                (o, false)
            }
        };
        let reveal = self.reveal_of(outcome);
        self.send_commit(&job, reveal).await?;
        if halt {
            self.halted.store(true, Ordering::SeqCst);
        }
        // The result is pushed to the aggregator only once every commitment is in
        // (`advance`): before that, a member that saw it could commit to it as its own.
        Ok(())
    }

    /// Signs a commit to `reveal` for the job's current draw, journals it (durably), then
    /// sends it.
    async fn send_commit(&self, job: &JobRecord, reveal: Reveal) -> Result<(), DaemonError> {
        let job_id = job.id;
        let draws = job.draws.len() as u32;
        let commitment = reveal.commitment();
        let instruction = Instruction::System(SystemInstruction::JobCommit { job_id, commitment });
        {
            let _lock = self.send_lock.lock().await;
            let tx = cowboy_rpc::signed_transaction(
                &self.client,
                &self.key,
                instruction,
                &limits(job, &[]),
            )
            .await
            .map_err(|e| self.node_error(e))?;
            let raw = tx.to_bytes();
            self.journal.put(&Entry {
                job_id,
                stage: Stage::Committing,
                reveal: reveal.clone(),
                commit_tx: cowboy_types::json::HexBytes(raw.clone()),
                commit_hash: tx.digest(),
                draws,
                reveal_hash: None,
                earned: 0,
            })?;
            self.mark_sent(job_id, Sent::Commit);
            self.send_raw_locked(&raw).await;
        }
        self.metrics.job("committed");
        tracing::info!(job = %job_id, %commitment, "committed");
        Ok(())
    }

    /// What this runner reveals for `outcome`: a fresh 32-byte salt.
    fn reveal_of(&self, outcome: Outcome) -> Reveal {
        let salt: [u8; 32] = rand::random();
        Reveal {
            runner: self.address,
            result: Bytes::new(outcome.result).unwrap_or_default(),
            salt: Hash(salt),
            tokens: outcome.tokens,
            ms: outcome.ms,
            embedding: List::new(outcome.embedding).unwrap_or_default(),
            fault: outcome.fault,
        }
    }

    /// Sends `reveal` to the job's aggregator (or keeps it, when this runner aggregates);
    /// whether it got through.
    async fn push(&self, job: &JobRecord, reveal: &Reveal) -> bool {
        let Some(draw) = job.draws.last() else {
            return false;
        };
        let push = Push::sign(job.id, reveal.clone(), &self.key);
        if draw.aggregator == self.address {
            if let Ok(mut pool) = self.pool.lock() {
                pool.insert(push);
            }
            return true;
        }
        let endpoint = match self.client.runner(draw.aggregator).await {
            Ok(Some(r)) => r.record.profile.endpoint,
            _ => {
                tracing::warn!(job = %job.id, aggregator = %draw.aggregator, "cannot find the aggregator's endpoint; will reveal after its window");
                return false;
            }
        };
        let url = format!("{}/v1/push", endpoint.trim_end_matches('/'));
        if let Ok(parsed) = url.parse::<reqwest::Url>()
            && !self.backends.config.http.allow_private_addresses
            && let Err(e) = crate::exec::guard::check_url(&parsed)
        {
            tracing::warn!(job = %job.id, %url, error = %e, "not pushing to the aggregator's endpoint; will reveal after its window");
            return false;
        }
        match self
            .backends
            .http
            .post(&url)
            .timeout(Duration::from_secs(5))
            .json(&push)
            .send()
            .await
        {
            Ok(r) if r.status().is_success() => {
                tracing::info!(job = %job.id, aggregator = %draw.aggregator, "pushed the result to the aggregator");
                true
            }
            Ok(r) => {
                let status = r.status();
                tracing::warn!(job = %job.id, %url, %status, "the aggregator refused the push; trying again next block");
                false
            }
            Err(e) => {
                tracing::warn!(job = %job.id, %url, error = %e, "cannot reach the aggregator; trying again next block");
                false
            }
        }
    }

    /// A reveal duty: as the aggregator, the batch of every result that opens its commitment
    /// (sent once all are in, or when its window is about to close); otherwise its own.
    async fn reveal(self: &Arc<Self>, job_id: Hash, height: u64) -> Result<(), DaemonError> {
        let Some(job) = self
            .client
            .job(job_id)
            .await
            .map_err(|e| self.node_error(e))?
        else {
            return Ok(());
        };
        let Some(draw) = job.draws.last() else {
            return Ok(());
        };
        let revealing = job.status == JobStatus::Committed
            || (job.status == JobStatus::Disputed
                && job.dispute.as_ref().is_some_and(|d| d.revealing));
        if !revealing || height > job.deadline {
            return Ok(());
        }
        let own = self.journal.get(&job_id)?;
        let done =
            |r: &Address| job.reveals.iter().any(|x| x.runner == *r) || job.slashed.contains(r);
        let opens = |r: &Reveal| {
            job.commitments
                .iter()
                .any(|c| c.runner == r.runner && c.hash == r.commitment())
        };
        let reveals: Vec<Reveal> = if draw.aggregator == self.address {
            let mut held = self
                .pool
                .lock()
                .map(|p| p.reveals(&job_id))
                .unwrap_or_default();
            held.retain(|r| r.runner != self.address);
            if self.own_only.lock().is_ok_and(|o| o.contains(&job_id)) {
                // A batch was refused: reveal this runner's own result alone.
                held.clear();
            }
            if let Some(e) = &own {
                held.insert(0, e.reveal.clone());
            }
            held.retain(|r| !done(&r.runner) && opens(r));
            // Within one transaction's size, own result first.
            let mut bytes = 0usize;
            held.retain(|r| {
                bytes += r.result.len() + 2 * r.embedding.len() + 128;
                bytes <= MAX_BATCH_BYTES
            });
            let missing = job.commitments.iter().filter(|c| !done(&c.runner)).count();
            // Reveals end at committed_at + 2 × window (`start_reveals`).
            let window = job.deadline.saturating_sub(job.committed_at) / 2;
            let closing = height + 2 >= job.committed_at.saturating_add(window);
            if held.is_empty() || (held.len() < missing && !closing) {
                return Ok(());
            }
            held
        } else {
            match own {
                Some(e) if !done(&self.address) && opens(&e.reveal) => vec![e.reveal.clone()],
                Some(e) if !done(&self.address) => {
                    tracing::error!(job = %job_id, "the journal's reveal does not open this runner's commitment on chain; not revealing (it would be slashed)");
                    let _ = e;
                    return Ok(());
                }
                _ => return Ok(()),
            }
        };
        let count = reveals.len();
        let options = limits(&job, &reveals);
        let reveals = List::new(reveals).unwrap_or_default();
        let instruction = Instruction::System(SystemInstruction::JobReveal { job_id, reveals });
        let hash = {
            let _lock = self.send_lock.lock().await;
            self.mark_sent(job_id, Sent::Reveal);
            cowboy_rpc::send(&self.client, &self.key, instruction, &options)
                .await
                .map_err(|e| self.node_error(e))?
        };
        // Follow the receipt: a refused batch is retried with this runner's result alone.
        let me = self.clone();
        tokio::spawn(async move {
            match cowboy_rpc::receipt_within(&me.client, hash, Duration::from_secs(30)).await {
                Ok(Some(r)) if r.status != cowboy_rpc::ReceiptStatus::Success => {
                    me.metrics.job("reveal_refused");
                    tracing::error!(job = %job_id, tx = %hash, error = ?r.error, "the reveal was refused");
                    if let Ok(mut o) = me.own_only.lock() {
                        o.insert(job_id);
                    }
                    if let Ok(mut sent) = me.sent.lock() {
                        sent.remove(&(job_id, Sent::Reveal));
                    }
                }
                _ => {}
            }
        });
        if let Some(mut e) = self.journal.get(&job_id)? {
            e.stage = Stage::Revealing;
            e.reveal_hash = Some(hash);
            self.journal.put(&e)?;
        }
        self.metrics
            .job(if count > 1 { "aggregated" } else { "revealed" });
        tracing::info!(job = %job_id, reveals = count, tx = %hash, "revealed");
        Ok(())
    }

    /// Sends a heartbeat when the last one is `heartbeat_every_blocks` old.
    async fn heartbeat(&self, height: u64) {
        let every = self.backends.config.heartbeat_every_blocks.max(1);
        let last_check = self.last_heartbeat_check.load(Ordering::SeqCst);
        if height < last_check.saturating_add(every / 4 + 1) {
            return;
        }
        self.last_heartbeat_check.store(height, Ordering::SeqCst);
        let Ok(Some(r)) = self.client.runner(self.address).await else {
            return;
        };
        if height.saturating_sub(r.record.last_heartbeat) < every {
            return;
        }
        let _lock = self.send_lock.lock().await;
        match cowboy_rpc::send(
            &self.client,
            &self.key,
            Instruction::System(SystemInstruction::RunnerHeartbeat),
            &Default::default(),
        )
        .await
        {
            Ok(hash) => tracing::info!(tx = %hash, "heartbeat"),
            Err(e) => tracing::warn!(error = %e, "heartbeat not sent"),
        }
    }

    /// Once per block (one pass at a time), up to 32 open journal entries: a job whose
    /// commit phase is over gets this runner's result pushed to its aggregator; a commit the
    /// chain refused as a copy of another member's is made again with a fresh salt; a settled
    /// or failed job is closed with what it paid this runner.
    async fn advance(self: &Arc<Self>) {
        if self.advancing.swap(true, Ordering::SeqCst) {
            return;
        }
        let height = self.height.load(Ordering::SeqCst);
        // Jobs waiting out their challenge window are not asked about until it ends, so the
        // ones in their commit and reveal phases are never crowded out.
        let open: Vec<Entry> = self
            .journal
            .open_entries()
            .unwrap_or_default()
            .into_iter()
            .filter(|e| {
                self.quiet_until
                    .lock()
                    .map_or(true, |q| q.get(&e.job_id).is_none_or(|h| height >= *h))
            })
            .take(64)
            .collect();
        for entry in open {
            let Ok(Some(job)) = self.client.job(entry.job_id).await else {
                continue;
            };
            if job.status == JobStatus::Verified
                && let Ok(mut q) = self.quiet_until.lock()
            {
                q.insert(job.id, job.deadline.saturating_add(1));
            }
            if let Err(e) = self.advance_one(entry, &job).await {
                tracing::warn!(job = %job.id, error = %e, "cannot follow the job");
            }
        }
        self.advancing.store(false, Ordering::SeqCst);
    }

    async fn advance_one(
        self: &Arc<Self>,
        mut entry: Entry,
        job: &JobRecord,
    ) -> Result<(), DaemonError> {
        let same_draw = job.draws.len() as u32 == entry.draws;
        let mine = job.commitments.iter().find(|c| c.runner == self.address);
        let revealing = job.status == JobStatus::Committed
            || (job.status == JobStatus::Disputed
                && job.dispute.as_ref().is_some_and(|d| d.revealing));
        let committing = job.status == JobStatus::Assigned
            || (job.status == JobStatus::Disputed
                && job.dispute.as_ref().is_some_and(|d| !d.revealing));
        // A retry that refilled other seats keeps this runner's commitment: what it committed
        // to is what counts, whichever draw it was made in.
        if revealing
            && mine.is_some_and(|c| c.hash == entry.reveal.commitment())
            && self.pushed.lock().is_ok_and(|mut p| p.insert(job.id))
        {
            // In its own task, so an unreachable aggregator delays nothing else; a push that
            // did not get through is tried again at the next block.
            let (me, job, reveal) = (self.clone(), job.clone(), entry.reveal.clone());
            tokio::spawn(async move {
                if !me.push(&job, &reveal).await
                    && let Ok(mut p) = me.pushed.lock()
                {
                    p.remove(&job.id);
                }
            });
        }
        if committing && same_draw && mine.is_none() {
            let receipt = self
                .client
                .receipt(entry.commit_hash)
                .await
                .map_err(|e| self.node_error(e))?;
            if receipt.is_none() {
                // Never included, and its nonce taken by a later transaction (the node dropped
                // it): the same commitment again under a fresh nonce. The chain takes one
                // commit per member, so this cannot commit twice.
                let nonce = cowboy_types::Transaction::decode_strict(&entry.commit_tx.0)
                    .map(|t| t.nonce)
                    .unwrap_or(u64::MAX);
                let latest = self
                    .client
                    .nonce(self.address)
                    .await
                    .map_err(|e| self.node_error(e))?
                    .latest;
                if latest > nonce {
                    tracing::warn!(job = %job.id, "the journalled commit was dropped; signing it again");
                    return self.send_commit(job, entry.reveal.clone()).await;
                }
                return Ok(());
            }
            let refused = receipt.filter(|r| r.status != cowboy_rpc::ReceiptStatus::Success);
            if let Some(r) = refused {
                let error = r.error.unwrap_or_default();
                if error.contains("already another member's") {
                    tracing::warn!(job = %job.id, "another member committed our commitment first; committing again with a fresh salt");
                    let mut fresh = entry.reveal.clone();
                    fresh.salt = Hash(rand::random());
                    return self.send_commit(job, fresh).await;
                }
                tracing::error!(job = %job.id, %error, "the commit was refused");
                entry.stage = Stage::Done;
                self.journal.put(&entry)?;
                self.forget(&job.id);
                return Ok(());
            }
        }
        let finished = matches!(job.status, JobStatus::Settled | JobStatus::Failed);
        if !finished {
            return Ok(());
        }
        {
            entry.earned = job
                .payouts
                .iter()
                .filter(|p| p.runner == self.address)
                .map(|p| p.amount)
                .sum();
            entry.stage = Stage::Done;
            self.journal.put(&entry)?;
            self.metrics.earnings.inc_by(entry.earned);
            self.metrics.job(if job.status == JobStatus::Settled {
                "settled"
            } else {
                "failed"
            });
            self.forget(&entry.job_id);
        }
        Ok(())
    }

    async fn send_raw(&self, raw: &[u8]) {
        let _lock = self.send_lock.lock().await;
        self.send_raw_locked(raw).await;
    }

    async fn send_raw_locked(&self, raw: &[u8]) {
        let hex = cowboy_types::json::HexBytes(raw.to_vec());
        if let Err(e) = self.client.send_raw_transaction(hex).await {
            // Already in a block or in the pool: the nonce is used or the hash known.
            tracing::debug!(error = %e, "the node did not take the transaction again");
        }
    }
}
