//! The node's core: the chain (store + state transition), the transaction pool, the engine
//! threads, and the progress every other part watches. Consensus hands it finalized blocks;
//! the RPC server and p2p gossip hand it transactions.

use crate::worker::{Worker, WorkerGone, WorkerPool};
use cowboy_execution::{
    BlockError, Chain, ExecError, Executed, Genesis, Outcome, Tracing, TxError, VerifiedTx,
    fees::Basefees, pipeline, world::World,
};
use cowboy_mempool::{Admitted, Pool, PoolConfig, PoolError};
use cowboy_state::Overlay;
use cowboy_types::{
    Address, Block, Hash, Transaction, block::MAX_BLOCK_TRANSACTIONS, state::Account,
};
use std::{
    path::Path,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
};
use tokio::sync::watch;

/// Why the node could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Genesis(#[from] cowboy_execution::GenesisError),
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Engine(#[from] cowboy_pvm::engine::InitError),
    #[error("cannot start the state sync thread: {0}")]
    Thread(std::io::Error),
}

/// Why a transaction was not admitted.
#[derive(Debug, thiserror::Error)]
pub enum AdmitError {
    #[error("not a canonical transaction: {0}")]
    Decode(#[from] cowboy_types::codec::DecodeError),
    #[error("invalid transaction: {0}")]
    Invalid(#[from] TxError),
    #[error("the pool refused the transaction: {0}")]
    Pool(#[from] PoolError),
    #[error("state unavailable: {0}")]
    State(#[from] ExecError),
    #[error("{0}")]
    Unavailable(String),
}

/// Why a finalized block could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    #[error(transparent)]
    Block(#[from] BlockError),
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Worker(#[from] WorkerGone),
    #[error(transparent)]
    Sync(#[from] crate::state_sync::SyncGone),
    #[error("finalized block {height}: {claim}: this node's execution diverged from the network")]
    Diverged { height: u64, claim: BlockError },
    #[error("the node halted earlier; restart it after investigating (see `cowboy status`)")]
    Halted,
}

impl ApplyError {
    /// What kind of halt this error causes.
    pub fn halt_kind(&self) -> crate::health::HaltKind {
        use crate::health::HaltKind;
        match self {
            Self::Diverged { .. } | Self::Halted => HaltKind::Divergence,
            Self::Worker(_) | Self::Sync(_) => HaltKind::Panic,
            Self::Block(_) | Self::Exec(_) => HaltKind::Storage,
        }
    }
}

/// How a node's core is set up.
#[derive(Clone, Debug)]
pub struct CoreOptions {
    pub pool: PoolConfig,
    /// Engines for read-only queries (queries running at once; more wait, then get "busy").
    pub query_workers: usize,
    /// Execute on the calling thread's schedule (deterministic simulations, whose
    /// single-threaded runtime cannot be woken from another thread).
    pub blocking: bool,
    /// The chain's block time (a node is stalled after `health::STALL_BLOCKS` of them).
    pub block_time: std::time::Duration,
    /// Free bytes below which the node pauses (resuming at twice as many).
    pub min_free_bytes: u64,
    /// Index events for `cowboy_getEvents` and event subscriptions.
    pub event_index: bool,
    /// Keep each executed block's call traces (`cowboy_getTrace`).
    pub traces: bool,
}

impl Default for CoreOptions {
    fn default() -> Self {
        Self {
            pool: PoolConfig::default(),
            query_workers: 2,
            blocking: false,
            block_time: std::time::Duration::from_millis(1_000),
            min_free_bytes: DEFAULT_MIN_FREE_BYTES,
            event_index: true,
            traces: true,
        }
    }
}

/// Default free-space floor of the data directory (a node pauses below it).
pub const DEFAULT_MIN_FREE_BYTES: u64 = 256 * 1024 * 1024;

/// How long a query waits for a free engine before it is told the node is busy.
const QUERY_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Shared node state.
pub struct Core {
    chain: Arc<Chain>,
    /// Makes applied blocks durable ([`Core::sync`]).
    state_sync: crate::state_sync::StateSync,
    pool: Mutex<Pool>,
    executor: Worker,
    queries: WorkerPool,
    executed: watch::Sender<u64>,
    finalized: AtomicU64,
    peers: AtomicUsize,
    halt: crate::health::HaltState,
    progress: crate::health::Progress,
    disk: Arc<crate::disk::Disk>,
    started_at: u64,
    /// Execute on the calling thread's schedule (deterministic simulations).
    blocking: bool,
    /// Whether blocks are executed recording their traces ([`CoreOptions::traces`]).
    traces: bool,
    gossip: Mutex<Option<futures::channel::mpsc::UnboundedSender<Vec<u8>>>>,
    /// Every admitted transaction, on disk (`pool_journal`).
    journal: Mutex<crate::pool_journal::PoolJournal>,
}

impl Core {
    /// Opens (or creates from `genesis`) the store in `dir` and starts the engine threads.
    pub fn open(
        dir: &Path,
        genesis: &Genesis,
        options: CoreOptions,
    ) -> Result<Arc<Self>, StartError> {
        std::fs::create_dir_all(dir).map_err(|e| ExecError::Corrupt {
            what: dir.display().to_string(),
            reason: e.to_string(),
        })?;
        let disk = Arc::new(crate::disk::Disk::new(dir, options.min_free_bytes));
        let chain = Arc::new(Chain::open_with(
            &dir.join("chain.redb"),
            genesis,
            disk.clone(),
            cowboy_state::StoreOptions {
                event_index: options.event_index,
            },
        )?);
        let height = chain.head()?.height;
        let (executed, _) = watch::channel(height);
        let (journal, recovered) =
            crate::pool_journal::PoolJournal::open(dir).map_err(|e| ExecError::Corrupt {
                what: dir.join(crate::pool_journal::FILE).display().to_string(),
                reason: e.to_string(),
            })?;
        let state_sync = crate::state_sync::StateSync::spawn(&chain).map_err(StartError::Thread)?;
        let core = Arc::new(Self {
            chain,
            state_sync,
            pool: Mutex::new(Pool::new(options.pool)),
            executor: Worker::spawn("cowboy-exec")?,
            queries: WorkerPool::spawn_lazy("cowboy-query", options.query_workers)?,
            executed,
            finalized: AtomicU64::new(height),
            peers: AtomicUsize::new(0),
            halt: Default::default(),
            progress: crate::health::Progress::new(options.block_time),
            disk,
            started_at: height,
            blocking: options.blocking,
            traces: options.traces,
            gossip: Mutex::new(None),
            journal: Mutex::new(journal),
        });
        core.recover_pool(recovered.transactions);
        Ok(core)
    }

    /// Admits again what the journal held (transactions the chain has meanwhile used, or that
    /// no longer pass admission, are dropped), then rewrites the journal to exactly the pool.
    fn recover_pool(&self, transactions: Vec<Vec<u8>>) {
        let total = transactions.len();
        let mut kept = 0;
        for raw in &transactions {
            if self.admit_with(raw, false, false).is_ok() {
                kept += 1;
            }
        }
        if total > 0 {
            tracing::info!(kept, dropped = total - kept, "transaction pool restored");
        }
        self.compact_journal(true);
    }

    /// Rewrites the journal from the pool when it holds more than twice what the pool does
    /// (or always, when `force`).
    fn compact_journal(&self, force: bool) {
        let Ok(pool) = self.pool.lock() else { return };
        let Ok(mut journal) = self.journal.lock() else {
            return;
        };
        let live = pool.bytes() as u64;
        if !force && journal.bytes() <= 2 * live + (1 << 20) {
            return;
        }
        let raws: Vec<Vec<u8>> = pool.all().map(|t| t.tx.to_bytes()).collect();
        if let Err(e) = journal.rewrite(raws.iter().map(Vec::as_slice)) {
            tracing::warn!(error = %e, "cannot rewrite the pool journal");
        }
    }

    /// Flushes the pool journal and the applied blocks to the device (at shutdown).
    pub fn flush(&self) {
        if let Ok(journal) = self.journal.lock()
            && let Err(e) = journal.sync()
        {
            tracing::warn!(error = %e, "cannot flush the pool journal");
        }
        // Blocks applied since the last sync, so a clean stop never steps the height back.
        // Blocking is fine here: the node is stopping, and a commit in progress ends first.
        // Not on a full disk, where the write would wait for space and hold up the stop: the
        // blocks are unacknowledged, so they are applied again after the restart.
        if !self.halted()
            && !self.disk_paused()
            && let Err(e) = self.chain.sync()
        {
            tracing::warn!(error = %e, "cannot write the last applied blocks to disk");
        }
    }

    pub fn chain(&self) -> &Arc<Chain> {
        &self.chain
    }

    /// Newest executed height.
    pub fn height(&self) -> u64 {
        *self.executed.borrow()
    }

    /// Watches the executed height.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.executed.subscribe()
    }

    pub fn finalized_height(&self) -> u64 {
        self.finalized.load(Ordering::Acquire).max(self.height())
    }

    pub fn set_finalized_height(&self, h: u64) {
        if self.finalized.fetch_max(h, Ordering::AcqRel) < h {
            self.progress.finalized();
        }
    }

    /// Finalized blocks not executed yet.
    pub fn execution_lag(&self) -> u64 {
        self.finalized_height().saturating_sub(self.height())
    }

    /// Whether execution trails finalization by more than the proposer rule allows.
    pub fn catching_up(&self) -> bool {
        self.execution_lag() > cowboy_execution::MAX_EXECUTION_LAG
    }

    /// Nothing was finalized for `health::STALL_BLOCKS` block times.
    pub fn stalled(&self) -> bool {
        self.progress.stalled()
    }

    /// Time since the finalized height last grew.
    pub fn since_finalized(&self) -> std::time::Duration {
        self.progress.since_finalized()
    }

    /// The data directory's free space (measured again now).
    pub fn disk(&self) -> crate::disk::DiskState {
        self.disk.check()
    }

    /// The data directory's free-space watch, for storage that waits for space.
    pub fn disk_watch(&self) -> Arc<crate::disk::Disk> {
        self.disk.clone()
    }

    /// Whether the node is paused for lack of disk space.
    pub fn disk_paused(&self) -> bool {
        self.disk.paused()
    }

    pub fn peers(&self) -> usize {
        self.peers.load(Ordering::Acquire)
    }

    pub fn set_peers(&self, n: usize) {
        self.peers.store(n, Ordering::Release);
    }

    pub fn halted(&self) -> bool {
        self.halt.get().is_some()
    }

    /// Why the node halted, if it did.
    pub fn halt_reason(&self) -> Option<crate::health::Halt> {
        self.halt.get()
    }

    /// Height the node had when it started (readiness waits for a block above it).
    pub fn started_at(&self) -> u64 {
        self.started_at
    }

    pub fn pool_len(&self) -> usize {
        self.pool.lock().map(|p| p.len()).unwrap_or(0)
    }

    /// Where admitted transactions are sent for gossip.
    pub fn set_gossip(&self, tx: futures::channel::mpsc::UnboundedSender<Vec<u8>>) {
        if let Ok(mut g) = self.gossip.lock() {
            *g = Some(tx);
        }
    }

    /// Runs a read-only query on a free query engine (never the one that executes blocks).
    pub async fn query(
        &self,
        q: cowboy_execution::Query,
    ) -> Result<Result<cowboy_execution::QueryResult, ExecError>, crate::worker::PoolError> {
        let chain = self.chain.clone();
        self.queries
            .run(QUERY_WAIT, move |engine| chain.query(engine, &q))
            .await
    }

    /// [`cowboy_execution::Chain::simulate`] on a query worker (simulations share the query
    /// workers' bounds).
    pub async fn simulate(
        &self,
        tx: Transaction,
    ) -> Result<
        Result<Result<cowboy_execution::Simulation, cowboy_execution::TxError>, ExecError>,
        crate::worker::PoolError,
    > {
        let chain = self.chain.clone();
        self.queries
            .run(QUERY_WAIT, move |engine| chain.simulate(engine, tx))
            .await
    }

    /// An account in the latest executed state.
    pub fn account(&self, a: &Address) -> Result<Account, ExecError> {
        let snap = self.chain.store().snapshot()?;
        World::new(Overlay::new(&snap)).account(a)
    }

    /// The global and the user lane's basefees in the latest executed state.
    pub fn user_prices(&self) -> Result<(Basefees, Basefees), ExecError> {
        let snap = self.chain.store().snapshot()?;
        let world = World::new(Overlay::new(&snap));
        Ok((world.basefees()?, world.user_prices()?))
    }

    /// The next nonce `a` should use, counting its pending transactions.
    pub fn pending_nonce(&self, a: &Address) -> Result<(u64, u64), ExecError> {
        let latest = self.account(a)?.nonce;
        let pending = self
            .pool
            .lock()
            .map(|p| p.next_nonce(a, latest))
            .unwrap_or(latest);
        Ok((latest, pending))
    }

    /// A pending transaction.
    pub fn pending_tx(&self, h: &Hash) -> Option<Transaction> {
        self.pool
            .lock()
            .ok()
            .and_then(|p| p.get(h).map(|t| t.tx.clone()))
    }

    /// Decodes, verifies and pools a raw transaction; gossips it if `gossip`.
    pub fn admit(&self, raw: &[u8], gossip: bool) -> Result<(Hash, Admitted), AdmitError> {
        if self.disk.paused() {
            return Err(AdmitError::Unavailable(
                "the node's disk is nearly full; it takes no transactions until space is freed"
                    .into(),
            ));
        }
        if let Some(h) = self.halt.get() {
            return Err(AdmitError::Unavailable(format!(
                "the node halted ({}): {}",
                h.kind.name(),
                h.message
            )));
        }
        self.admit_with(raw, gossip, true)
    }

    /// Admission; `journal` records the transaction (not when it came from the journal).
    fn admit_with(
        &self,
        raw: &[u8],
        gossip: bool,
        journal: bool,
    ) -> Result<(Hash, Admitted), AdmitError> {
        let tx = Transaction::decode_strict(raw)?;
        let params = {
            let snap = self.chain.store().snapshot().map_err(ExecError::from)?;
            self.chain.terms(&snap)?.params
        };
        let vtx = cowboy_execution::verify(tx, self.chain.chain_id(), &params)?;
        // The account and the prices from the state as it is after the recovery, as close to
        // the pool insert as can be: a block committed meanwhile has used nonces.
        let snap = self.chain.store().snapshot().map_err(ExecError::from)?;
        let terms = self.chain.terms(&snap)?;
        let account = World::new(Overlay::new(&snap)).account(&vtx.sender)?;
        drop(snap);
        // Priced by its own lane, as the proposer and execution price it.
        let prices = *terms.prices.of_instruction(&vtx.tx.instruction);
        let hash = vtx.hash;
        let admitted = {
            let mut pool = self.pool.lock().map_err(|_| poisoned())?;
            let admitted = pool.insert(vtx, &account, &prices)?;
            if journal {
                // Accepted means kept: a transaction the node cannot record is not accepted.
                let written = self
                    .journal
                    .lock()
                    .map_err(|_| poisoned())
                    .and_then(|mut j| {
                        j.append(raw).map_err(|e| ExecError::Corrupt {
                            what: crate::pool_journal::FILE.into(),
                            reason: e.to_string(),
                        })
                    });
                if let Err(e) = written {
                    pool.remove(&hash);
                    return Err(AdmitError::Unavailable(format!(
                        "the node cannot record the transaction ({e}); retry later"
                    )));
                }
            }
            admitted
        };
        if gossip
            && let Ok(g) = self.gossip.lock()
            && let Some(g) = g.as_ref()
        {
            let _ = g.unbounded_send(raw.to_vec());
        }
        Ok((hash, admitted))
    }

    /// Chooses a new block's transactions from the pool (§6.4 selection, not yet in beacon
    /// order), against one snapshot of the executed state in which each sender's nonce is
    /// advanced past `used` (nonces the blocks not executed yet already use).
    pub fn select_for_block(
        &self,
        used: &std::collections::HashMap<Address, u64>,
    ) -> Result<Vec<VerifiedTx>, ExecError> {
        let candidates = {
            let snap = self.chain.store().snapshot()?;
            let world = World::new(Overlay::new(&snap));
            let next_nonce = |a: &Address| {
                world.account(a).map_or(u64::MAX, |acc| {
                    used.get(a).map_or(acc.nonce, |n| acc.nonce.max(n + 1))
                })
            };
            let pool = self.pool.lock().map_err(|_| poisoned())?;
            pool.candidates(MAX_BLOCK_TRANSACTIONS.saturating_mul(4), next_nonce)
        };
        self.chain.select(candidates, used)
    }

    /// Stateless checks of a block's transactions, in order: those already in the pool were
    /// checked (and their sender recovered) on admission and are not recovered again; the rest
    /// are recovered in parallel.
    pub fn check_transactions(
        &self,
        txs: &[Transaction],
    ) -> Result<Vec<Result<VerifiedTx, TxError>>, ExecError> {
        let hashes: Vec<Hash> = txs.iter().map(|t| t.digest()).collect();
        let params = self.chain.params()?;
        let chain_id = self.chain.chain_id();
        let mut out: Vec<Option<Result<VerifiedTx, TxError>>> = {
            let pool = self.pool.lock().map_err(|_| poisoned())?;
            hashes
                .iter()
                .map(|h| {
                    pool.get(h).cloned().map(|vtx| {
                        cowboy_execution::tx::recheck(&vtx, chain_id, &params).map(|()| vtx)
                    })
                })
                .collect()
        };
        let missing: Vec<usize> = (0..txs.len()).filter(|i| out[*i].is_none()).collect();
        if !missing.is_empty() {
            let fresh = cowboy_execution::verify_all(
                missing.iter().map(|i| txs[*i].clone()).collect(),
                chain_id,
                &params,
            );
            for (i, r) in missing.into_iter().zip(fresh) {
                out[i] = Some(r);
            }
        }
        Ok(out.into_iter().flatten().collect())
    }

    /// The outcome of executed block `height`.
    pub fn outcome(&self, height: u64) -> Result<Option<Outcome>, ExecError> {
        self.chain.outcome(height)
    }

    /// Executes and commits a finalized block (a block at or below the executed height is
    /// already applied and ignored), checks the header's claim about an executed height, and
    /// halts the node on any disagreement.
    ///
    /// The commit is deferred ([`Chain::commit_deferred`]): the block is the head for every
    /// reader at once, and is on disk after the next [`Core::sync`]. Acknowledge a block to
    /// consensus only after that sync, so that a crash in between makes consensus hand the
    /// block over again instead of skipping it.
    pub async fn apply_finalized(&self, block: Block) -> Result<Option<Outcome>, ApplyError> {
        if self.halted() {
            return Err(ApplyError::Halted);
        }
        let result = self.apply(block).await;
        if let Err(e) = &result
            && !matches!(e, ApplyError::Halted)
        {
            self.halt(e.halt_kind(), &e.to_string());
        }
        result
    }

    async fn apply(&self, block: Block) -> Result<Option<Outcome>, ApplyError> {
        let height = block.header.height;
        self.set_finalized_height(height);
        if height <= self.height() {
            return Ok(None);
        }
        // The header's claim about an executed height (always at or below ours: it is below
        // the block's own height). Finalized means 2f+1 validators checked it against their
        // own execution; if ours differs, this node diverged and must not go on.
        let header = &block.header;
        let local = self.chain.outcome(header.state_height)?;
        pipeline::check_claim(header, local.as_ref())
            .map_err(|claim| ApplyError::Diverged { height, claim })?;
        let checked = self.check_transactions(&block.transactions)?;
        let chain = self.chain.clone();
        let traces = self.traces;
        let job = move |engine: &mut cowboy_pvm::Engine| -> Result<Executed, BlockError> {
            // Traced: the node keeps what each call did for `cowboy_getTrace` (developer
            // data, beside the receipts; the execution is the same).
            let tracing = if traces { Tracing::Kept } else { Tracing::Off };
            let executed = chain.execute_with(engine, &block, Some(checked), tracing)?;
            chain.commit_deferred(&executed)?;
            Ok(executed)
        };
        let result = if self.blocking {
            self.executor.run_blocking("execution", job)?
        } else {
            self.executor.run("execution", job).await?
        };
        let executed = result?;
        if let Ok(mut pool) = self.pool.lock() {
            let snap = self.chain.store().snapshot().map_err(ExecError::from)?;
            let world = World::new(Overlay::new(&snap));
            let nonce_of = |a: &Address| world.account(a).map(|acc| acc.nonce).unwrap_or(0);
            pool.prune(nonce_of);
            let expired = pool.expire(std::time::Instant::now(), nonce_of);
            if expired > 0 {
                tracing::info!(expired, "dropped transactions waiting behind a nonce gap");
            }
        }
        self.compact_journal(false);
        let outcome = executed.outcome;
        self.executed.send_replace(height);
        tracing::info!(
            height,
            txs = executed.block.transactions.len(),
            skipped = executed.stats.skipped,
            root = %outcome.state_root,
            "executed finalized block"
        );
        Ok(Some(outcome))
    }

    /// Makes every applied block durable, halting the node if the disk fails. The fsync runs
    /// on the node's state sync thread, so the next block executes meanwhile (its commit waits
    /// for the sync); in a deterministic simulation it runs here.
    pub async fn sync(&self) -> Result<(), ApplyError> {
        let result: Result<(), ApplyError> = if self.blocking {
            self.chain.sync().map_err(ApplyError::from)
        } else {
            match self.state_sync.sync().await {
                Ok(synced) => synced.map_err(ApplyError::from),
                Err(gone) => Err(gone.into()),
            }
        };
        result.inspect_err(|e| {
            self.halt(
                e.halt_kind(),
                &format!("cannot write applied blocks to disk: {e}"),
            );
        })
    }

    fn halt(&self, kind: crate::health::HaltKind, why: &str) {
        if !self.halt.set(kind, why.to_owned()) {
            return;
        }
        let headline = match kind {
            crate::health::HaltKind::Divergence => "EXECUTION DIVERGED",
            crate::health::HaltKind::Panic => "EXECUTION ENGINE PANICKED",
            crate::health::HaltKind::Storage => "STORAGE FAILED",
        };
        tracing::error!(
            reason = why,
            "{headline}: this node stops applying blocks; its state is kept for investigation"
        );
    }
}

fn poisoned() -> ExecError {
    ExecError::Corrupt {
        what: "transaction pool".into(),
        reason: "a thread panicked while holding it".into(),
    }
}
