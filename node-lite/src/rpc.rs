//! The JSON-RPC 2.0 server (`cowboy_rpc::CowboyApi`) over HTTP, backed by the node's [`Core`].
//!
//! Malformed JSON, unknown methods and bad parameters get JSON-RPC's standard errors from
//! `jsonrpsee`; bodies above [`cowboy_rpc::MAX_REQUEST_BYTES`] are refused before parsing;
//! transaction errors carry the validity rule that failed.

use crate::{
    core::{AdmitError, Core},
    views,
};
use cowboy_execution::{
    ExecError, Query,
    query::{MAX_QUERY_CELLS, MAX_QUERY_CYCLES},
    world::World,
};
use cowboy_pvm::Value;
use cowboy_rpc::jsonrpsee::{
    core::{RpcResult, async_trait},
    server::ServerHandle,
    types::ErrorObjectOwned,
};
use cowboy_rpc::{
    AccountView, ActorView, Assignments, BlockId, BlockSummary, BlockTag, BlockView,
    CowboyApiServer, DutyView, EVENTS_PAGE, EVENTS_SCAN, EntitlementView, EntitlementsView,
    EventRecord, EventsPage, EventsRequest, FeesView, Health, JOBS_PAGE, JOBS_SCAN, JobFilter,
    JobsPage, MAX_EVENT_RANGE, MAX_EVENTS_PAGE, MAX_FILTERED_EVENT_RANGE, MAX_WAIT_MS, NodeStatus,
    NonceView, ProofView, QueryRequest, QueryView, RUNNERS_PAGE, ReceiptView, RoleView, RunnerView,
    RunnersPage, TimerView, TxView, code,
};
use cowboy_rpc::{
    CodeView, MAX_STORAGE_PAGE, STORAGE_PAGE, SimulationView, StorageEntry, StoragePage,
    StorageRequest, TIMER_FIRINGS_PAGE, TIMER_QUEUE_PAGE, TimerFiringView, ValidatorView,
};
use cowboy_state::{Overlay, StateRead};
use cowboy_types::{
    Address, Hash, TimerRecord,
    json::{Amount, HexBytes, TransactionJson},
    state::key,
};
use std::{net::SocketAddr, sync::Arc, time::Duration};

/// Most pending timers `getTimers` scans (the due queue is not indexed by actor; see the book).
const MAX_TIMER_SCAN: usize = 100_000;

/// The server's implementation of the API (and of the subscriptions: [`crate::subscriptions`]).
#[derive(Clone)]
pub struct Rpc {
    core: Arc<Core>,
    subscriptions: crate::subscriptions::SubscriptionLimits,
}

fn err(code: i32, message: impl Into<String>) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(code, message.into(), None::<()>)
}

/// A runner as the RPC shows it, with its reputation and health at `height`.
fn runner_view(
    world: &World<'_>,
    address: Address,
    record: cowboy_types::runner::Runner,
    height: u64,
    params: &cowboy_execution::Parameters,
) -> Result<RunnerView, ExecError> {
    use cowboy_execution::runners::{registry, tee};
    Ok(RunnerView {
        address,
        height,
        reputation: registry::reputation(&record, height, params.reputation.half_life_blocks),
        healthy: registry::healthy(&record, height, params.runner.heartbeat_timeout_blocks),
        attestation: tee::attested(world, &address)?,
        record,
    })
}

fn internal(e: impl std::fmt::Display) -> ErrorObjectOwned {
    err(-32603, format!("internal error: {e}"))
}

fn state(e: ExecError) -> ErrorObjectOwned {
    internal(e)
}

fn wait_for(timeout_ms: Option<u64>) -> Duration {
    Duration::from_millis(timeout_ms.unwrap_or(MAX_WAIT_MS).min(MAX_WAIT_MS))
}

impl Rpc {
    pub(crate) fn core(&self) -> &Arc<Core> {
        &self.core
    }

    pub(crate) fn subscription_limits(&self) -> crate::subscriptions::SubscriptionLimits {
        self.subscriptions
    }

    fn block_view(&self, height: u64, full: bool) -> RpcResult<Option<BlockView>> {
        let store = self.core.chain().store();
        let Some(block) = store.block(height).map_err(internal)? else {
            return Ok(None);
        };
        let Some(outcome) = self.core.outcome(height).map_err(state)? else {
            return Ok(None);
        };
        Ok(Some(views::block(&block, &outcome, full)))
    }

    pub(crate) fn receipt_view(&self, hash: &Hash) -> RpcResult<Option<ReceiptView>> {
        let store = self.core.chain().store();
        let Some(loc) = store.locate(hash).map_err(internal)? else {
            return Ok(None);
        };
        let Some(receipt) = store.receipt(hash).map_err(internal)? else {
            return Ok(None);
        };
        let block_hash = store
            .block(loc.height)
            .map_err(internal)?
            .map(|b| b.header.digest())
            .unwrap_or(Hash::ZERO);
        Ok(Some(views::receipt(&receipt, loc.height, block_hash)))
    }

    pub(crate) fn summary(&self, height: u64) -> RpcResult<Option<BlockSummary>> {
        let store = self.core.chain().store();
        let Some(block) = store.block(height).map_err(internal)? else {
            return Ok(None);
        };
        let outcome = self.core.outcome(height).map_err(state)?;
        Ok(Some(BlockSummary {
            height,
            hash: block.header.digest(),
            state_root: outcome.map_or(Hash::ZERO, |o| o.state_root),
            transactions: block.transactions.len(),
            timestamp_ms: block.header.timestamp_ms,
        }))
    }
}

#[async_trait]
impl CowboyApiServer for Rpc {
    async fn chain_id(&self) -> RpcResult<u64> {
        Ok(self.core.chain().chain_id())
    }

    async fn status(&self) -> RpcResult<NodeStatus> {
        let head = self.core.chain().head().map_err(state)?;
        let root = self
            .core
            .outcome(head.height)
            .map_err(state)?
            .map_or(Hash::ZERO, |o| o.state_root);
        let disk = self.core.disk();
        Ok(NodeStatus {
            chain_id: self.core.chain().chain_id(),
            genesis_hash: self.core.chain().genesis_hash(),
            height: head.height,
            finalized_height: self.core.finalized_height(),
            state_root: root,
            head_hash: head.digest(),
            peers: self.core.peers(),
            pool: self.core.pool_len(),
            halted: self.core.halted(),
            halt: self.core.halt_reason().map(views::halt),
            execution_lag: self.core.execution_lag(),
            catching_up: self.core.catching_up(),
            stalled: self.core.stalled(),
            last_finalized_ms_ago: self.core.since_finalized().as_millis() as u64,
            disk: views::disk(&disk),
            version: env!("CARGO_PKG_VERSION").into(),
        })
    }

    async fn health(&self) -> RpcResult<Health> {
        Ok(views::health(&self.core))
    }

    async fn block(&self, id: BlockId, full: Option<bool>) -> RpcResult<Option<BlockView>> {
        let full = full.unwrap_or(false);
        let height = match id {
            BlockId::Height(h) => h,
            BlockId::Tag(BlockTag::Latest) => self.core.height(),
            BlockId::Hash(h) => match self
                .core
                .chain()
                .store()
                .block_height(&h)
                .map_err(internal)?
            {
                Some(h) => h,
                None => return Ok(None),
            },
        };
        self.block_view(height, full)
    }

    async fn transaction(&self, hash: Hash) -> RpcResult<Option<TxView>> {
        if let Some(tx) = self.core.pending_tx(&hash) {
            return Ok(Some(TxView {
                hash,
                transaction: serde_json::to_value(TransactionJson::from(&tx)).map_err(internal)?,
                block_height: None,
                index: None,
                pending: true,
            }));
        }
        let store = self.core.chain().store();
        let Some(loc) = store.locate(&hash).map_err(internal)? else {
            return Ok(None);
        };
        let Some(index) = loc.body_index else {
            return Ok(None);
        };
        let Some(block) = store.block(loc.height).map_err(internal)? else {
            return Ok(None);
        };
        let Some(tx) = block.transactions.get(index as usize) else {
            return Ok(None);
        };
        Ok(Some(TxView {
            hash,
            transaction: serde_json::to_value(TransactionJson::from(tx)).map_err(internal)?,
            block_height: Some(loc.height),
            index: Some(index),
            pending: false,
        }))
    }

    async fn receipt(&self, hash: Hash) -> RpcResult<Option<ReceiptView>> {
        self.receipt_view(&hash)
    }

    async fn trace(&self, hash: Hash) -> RpcResult<Option<Vec<cowboy_types::trace::TraceCall>>> {
        self.core.chain().trace(&hash).map_err(internal)
    }

    async fn balance(&self, address: Address) -> RpcResult<Amount> {
        Ok(Amount(self.core.account(&address).map_err(state)?.balance))
    }

    async fn nonce(&self, address: Address) -> RpcResult<NonceView> {
        let (latest, pending) = self.core.pending_nonce(&address).map_err(state)?;
        Ok(NonceView { latest, pending })
    }

    async fn account(&self, address: Address) -> RpcResult<AccountView> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        let acc = world.account(&address).map_err(state)?;
        let actor = match &acc.actor {
            Some(a) => Some(ActorView {
                code_hash: a.code_hash,
                pvm_version: a.pvm_version,
                storage_used: a.storage.used,
                storage_quota: a.storage.quota,
                storage_bond: Amount(a.storage.bond),
                pending_timers: world.timer_count(&address).map_err(state)?,
                entitlements: a.entitlements,
            }),
            None => None,
        };
        Ok(AccountView {
            address,
            height: snap.height.unwrap_or(0),
            balance: Amount(acc.balance),
            nonce: acc.nonce,
            actor,
        })
    }

    async fn proof(&self, address: Address, storage_key: Option<HexBytes>) -> RpcResult<ProofView> {
        let k = match &storage_key {
            Some(k) => key::storage(&address, &k.0),
            None => key::account(&address),
        };
        let p = self.core.chain().store().prove(&k).map_err(internal)?;
        let proof = borsh::to_vec(&p.proof).map_err(internal)?;
        Ok(ProofView {
            height: p.height,
            state_root: p.root,
            key: HexBytes(p.key),
            value: p.value.map(HexBytes),
            proof: HexBytes(proof),
        })
    }

    async fn send_raw_transaction(&self, raw: HexBytes) -> RpcResult<Hash> {
        match self.core.admit(&raw.0, true) {
            Ok((hash, _)) => Ok(hash),
            Err(AdmitError::Decode(e)) => Err(ErrorObjectOwned::owned(
                code::INVALID_TRANSACTION,
                format!("not a canonical transaction: {e}"),
                Some(
                    serde_json::json!({ "rule": "encoding", "field": e.field, "offset": e.offset }),
                ),
            )),
            Err(AdmitError::Invalid(e)) => Err(ErrorObjectOwned::owned(
                code::INVALID_TRANSACTION,
                format!("invalid transaction: {e}"),
                Some(serde_json::json!({ "rule": tx_rule(&e) })),
            )),
            Err(AdmitError::Pool(e)) => Err(ErrorObjectOwned::owned(
                code::POOL_REFUSED,
                e.to_string(),
                Some(serde_json::json!({ "rule": pool_rule(&e) })),
            )),
            Err(AdmitError::Unavailable(e)) => Err(err(code::UNAVAILABLE, e)),
            Err(AdmitError::State(e)) => Err(state(e)),
        }
    }

    async fn query(&self, request: QueryRequest) -> RpcResult<QueryView> {
        let mut args = Vec::with_capacity(request.args.len());
        for (i, a) in request.args.iter().enumerate() {
            args.push(Value::from_json(a).map_err(|e| {
                err(
                    -32602,
                    format!("argument {i} is not a canonical value: {e}"),
                )
            })?);
        }
        let args = Value::List(args)
            .encode()
            .map_err(|e| err(-32602, format!("arguments cannot be encoded: {e}")))?;
        let q = Query {
            from: request.from.unwrap_or_default(),
            to: request.to,
            method: request.method,
            args,
            cycles_limit: request.cycles_limit.unwrap_or(MAX_QUERY_CYCLES),
            cells_limit: request.cells_limit.unwrap_or(MAX_QUERY_CELLS),
        };
        let result = self
            .core
            .query(q)
            .await
            .map_err(|e| err(code::UNAVAILABLE, e.to_string()))?
            .map_err(state)?;
        Ok(views::query(&result))
    }

    async fn simulate(&self, raw: HexBytes) -> RpcResult<SimulationView> {
        let tx = cowboy_types::Transaction::decode_strict(&raw.0).map_err(|e| {
            ErrorObjectOwned::owned(
                code::INVALID_TRANSACTION,
                format!("not a canonical transaction: {e}"),
                Some(
                    serde_json::json!({ "rule": "encoding", "field": e.field, "offset": e.offset }),
                ),
            )
        })?;
        let simulated = self
            .core
            .simulate(tx)
            .await
            .map_err(|e| err(code::UNAVAILABLE, e.to_string()))?
            .map_err(state)?
            .map_err(|e| {
                ErrorObjectOwned::owned(
                    code::INVALID_TRANSACTION,
                    format!("invalid transaction: {e}"),
                    Some(serde_json::json!({ "rule": tx_rule(&e) })),
                )
            })?;
        let required = u64::try_from(simulated.required).unwrap_or(u64::MAX);
        Ok(SimulationView {
            height: simulated.height,
            receipt: views::receipt(&simulated.receipt, simulated.height + 1, Hash::ZERO),
            balance: Amount(simulated.balance),
            nonce: simulated.nonce,
            required: Amount(required),
            affordable: u128::from(simulated.balance) >= simulated.required,
        })
    }

    async fn fees(&self) -> RpcResult<FeesView> {
        let (global, user) = self.core.user_prices().map_err(state)?;
        let params = self.core.chain().params().map_err(state)?;
        Ok(FeesView {
            height: self.core.height(),
            cycle_basefee: global.cycle,
            cell_basefee: global.cell,
            user_cycle_basefee: user.cycle,
            user_cell_basefee: user.cell,
            suggested_max_fee_per_cycle: user.cycle.saturating_mul(2),
            suggested_max_fee_per_cell: user.cell.saturating_mul(2),
            suggested_priority_fee_per_cycle: 1,
            max_cycles_per_tx: params.lanes.user_cycles,
            max_cells_per_tx: params.lanes.block_cells,
        })
    }

    async fn runner(&self, address: Address) -> RpcResult<Option<RunnerView>> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        let params = world.params().map_err(state)?;
        let height = snap.height.unwrap_or(0);
        world
            .runner(&address)
            .map_err(state)?
            .map(|r| runner_view(&world, address, r, height, &params).map_err(state))
            .transpose()
    }

    async fn entitlements(&self, address: Address) -> RpcResult<EntitlementsView> {
        use cowboy_execution::entitlements;
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        let height = snap.height.unwrap_or(0);
        let (held, roles) = entitlements::of_address(&world, &address).map_err(state)?;
        let mut views = Vec::with_capacity(held.len());
        for (id, record) in held {
            views.push(EntitlementView {
                id,
                usable: entitlements::usable(&world, &record, height)
                    .map_err(state)?
                    .0,
                record,
            });
        }
        Ok(EntitlementsView {
            address,
            height,
            entitlements: views,
            roles: roles
                .into_iter()
                .map(|(id, role)| RoleView { id, role })
                .collect(),
            declared: world
                .account(&address)
                .map_err(state)?
                .actor
                .map(|a| a.entitlements),
        })
    }

    async fn parameters(&self) -> RpcResult<serde_json::Value> {
        let params = self.core.chain().params().map_err(state)?;
        serde_json::to_value(&params).map_err(internal)
    }

    async fn estimate_job(
        &self,
        spec: cowboy_types::job::JobSpec,
    ) -> RpcResult<cowboy_types::job::Estimate> {
        if let Err(e) = spec.validate() {
            return Err(err(-32602, format!("the job spec is invalid: {e}")));
        }
        if let Err(e) = cowboy_execution::runners::verification::check_spec(&spec) {
            return Err(err(-32602, format!("the job spec is invalid: {e}")));
        }
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let height = snap.height.unwrap_or(0);
        let mut world = World::new(Overlay::new(&snap));
        let params = world.params().map_err(state)?;
        cowboy_execution::runners::dispatcher::estimate(&mut world, &spec, height + 1, &params)
            .map_err(state)
    }

    async fn job(&self, id: Hash) -> RpcResult<Option<cowboy_types::job::JobRecord>> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        cowboy_execution::runners::dispatcher::load(&world, &id).map_err(state)
    }

    async fn events(&self, request: EventsRequest) -> RpcResult<EventsPage> {
        use cowboy_state::events::{EventFilter, EventPosition};
        let store = self.core.chain().store();
        let latest = store.height().map_err(internal)?.unwrap_or(0);
        let to = request.to_height.unwrap_or(latest);
        let invalid = |m: String| err(-32602, m);
        if request.from_height > to {
            return Err(invalid(format!(
                "from_height {} is above to_height {to}",
                request.from_height
            )));
        }
        check_topics(&request.topics)?;
        let indexed =
            request.emitter.is_some() || request.topics.first().is_some_and(Option::is_some);
        let widest = if indexed {
            MAX_FILTERED_EVENT_RANGE
        } else {
            MAX_EVENT_RANGE
        };
        let blocks = to - request.from_height + 1;
        if blocks > widest {
            return Err(invalid(format!(
                "the range {}..={to} is {blocks} blocks; at most {widest} {}: ask for a \
                 narrower range{}",
                request.from_height,
                if indexed {
                    "with a filter"
                } else {
                    "without an emitter or first topic"
                },
                if indexed {
                    ""
                } else {
                    ", or filter by emitter or first topic"
                }
            )));
        }
        let limit = request.limit.unwrap_or(EVENTS_PAGE);
        if limit == 0 || limit > MAX_EVENTS_PAGE {
            return Err(invalid(format!(
                "limit {limit}: ask for 1 to {MAX_EVENTS_PAGE} events a page"
            )));
        }
        let after = match &request.cursor {
            None => None,
            Some(c) => Some(
                c.strip_prefix("0x")
                    .and_then(|h| hex::decode(h).ok())
                    .and_then(|b| EventPosition::from_bytes(&b))
                    .ok_or_else(|| {
                        invalid(format!(
                            "cursor {c:?} is not one a page returned (0x and 32 hex digits)"
                        ))
                    })?,
            ),
        };
        let page = store
            .events(&EventFilter {
                from: request.from_height,
                to,
                emitter: request.emitter,
                topics: request.topics.clone(),
                after,
                limit,
                scan_limit: EVENTS_SCAN,
            })
            .map_err(|e| match e {
                cowboy_state::StoreError::EventIndexOff => err(code::UNAVAILABLE, e.to_string()),
                e => internal(e),
            })?;
        Ok(EventsPage {
            events: page
                .events
                .iter()
                .map(|e| EventRecord {
                    block_height: e.position.height,
                    receipt_index: e.position.receipt,
                    event_index: e.position.event,
                    tx_hash: e.tx_hash,
                    emitter: e.event.emitter,
                    topics: e.event.topics.clone(),
                    data: cowboy_types::json::HexBytes(e.event.data.clone()),
                    value: views::value_json(&e.event.data),
                })
                .collect(),
            to_height: to,
            next_cursor: page
                .next
                .map(|p| format!("0x{}", hex::encode(p.to_bytes()))),
        })
    }

    async fn jobs(&self, filter: JobFilter) -> RpcResult<JobsPage> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        let scanned = cowboy_execution::runners::dispatcher::jobs_after(
            &world,
            filter.after.as_ref(),
            JOBS_SCAN,
        )
        .map_err(state)?;
        let scanned_all = scanned.len() < JOBS_SCAN;
        let mut jobs = Vec::new();
        let mut next = None;
        for job in &scanned {
            let matches = filter.submitter.is_none_or(|s| s == job.submitter)
                && filter.status.is_none_or(|s| s == job.status)
                && filter
                    .runner
                    .is_none_or(|r| job.draws.iter().any(|d| d.committee.contains(&r)));
            if matches {
                jobs.push(job.clone());
                if jobs.len() == JOBS_PAGE {
                    next = Some(job.id);
                    break;
                }
            }
        }
        if next.is_none() && !scanned_all {
            next = scanned.last().map(|j| j.id);
        }
        Ok(JobsPage { jobs, next })
    }

    async fn wait_for_assignment(
        &self,
        runner: Address,
        after: u64,
        timeout_ms: Option<u64>,
    ) -> RpcResult<Option<Assignments>> {
        use cowboy_execution::runners::dispatcher::{Duty, duty, live_jobs};
        let mut rx = self.core.subscribe();
        let wait = rx.wait_for(|h| *h > after);
        match tokio::time::timeout(wait_for(timeout_ms), wait).await {
            Ok(Ok(_)) => {}
            Ok(Err(_)) => return Err(err(code::UNAVAILABLE, "the node is shutting down")),
            Err(_) => return Ok(None),
        }
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let height = snap.height.unwrap_or(0);
        let world = World::new(Overlay::new(&snap));
        let window = world
            .params()
            .map_err(state)?
            .aggregator
            .aggregator_timeout_blocks;
        let jobs = live_jobs(&world, JOBS_SCAN).map_err(state)?;
        // The runner's transaction lands in the next block, at height + 1.
        let duties = jobs
            .iter()
            .filter_map(|j| {
                duty(j, &runner, height + 1, window).map(|d| DutyView {
                    job_id: j.id,
                    duty: match d {
                        Duty::Commit => "commit",
                        Duty::Reveal => "reveal",
                    }
                    .into(),
                    deadline: j.deadline,
                })
            })
            .collect();
        Ok(Some(Assignments { height, duties }))
    }

    async fn runners(&self, after: Option<Address>) -> RpcResult<RunnersPage> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        let params = world.params().map_err(state)?;
        let height = snap.height.unwrap_or(0);
        let mut runners: Vec<RunnerView> = world
            .runners_after(after.as_ref(), RUNNERS_PAGE + 1)
            .map_err(state)?
            .into_iter()
            .map(|(a, r)| runner_view(&world, a, r, height, &params).map_err(state))
            .collect::<Result<_, _>>()?;
        let next = if runners.len() > RUNNERS_PAGE {
            runners.truncate(RUNNERS_PAGE);
            runners.last().map(|r| r.address)
        } else {
            None
        };
        Ok(RunnersPage { runners, next })
    }

    async fn timers(&self, address: Address) -> RpcResult<Vec<TimerView>> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        // The due queue holds every pending timer's record, in firing order.
        let from = [key::TIMER_DUE];
        let to = [key::TIMER_DUE + 1];
        let entries = snap
            .range(&from, Some(&to), MAX_TIMER_SCAN)
            .map_err(internal)?;
        let mut out = Vec::new();
        for (_, v) in entries {
            let (id, t): (Hash, TimerRecord) =
                cowboy_execution::world::decode_due(&v).map_err(state)?;
            if t.actor != address && t.creator != address {
                continue;
            }
            out.push(timer_view(id, t));
        }
        out.sort_by_key(|t| (t.height, t.id));
        Ok(out)
    }

    async fn timer(&self, id: Hash) -> RpcResult<Option<TimerView>> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        Ok(world.timer(&id).map_err(state)?.map(|t| timer_view(id, t)))
    }

    async fn timer_firings(
        &self,
        id: Hash,
        limit: Option<usize>,
    ) -> RpcResult<Vec<TimerFiringView>> {
        let limit = limit.unwrap_or(TIMER_FIRINGS_PAGE);
        if limit == 0 || limit > TIMER_FIRINGS_PAGE {
            return Err(err(
                -32602,
                format!("limit {limit}: ask for 1 to {TIMER_FIRINGS_PAGE} firings"),
            ));
        }
        let store = self.core.chain().store();
        let mut out = Vec::new();
        for (height, receipt) in store.timer_firings(&id, limit).map_err(internal)? {
            if let Some(receipt) = self.receipt_view(&receipt)? {
                out.push(TimerFiringView { height, receipt });
            }
        }
        Ok(out)
    }

    async fn timer_queue(&self, limit: Option<usize>) -> RpcResult<Vec<TimerView>> {
        let limit = limit.unwrap_or(TIMER_QUEUE_PAGE);
        if limit == 0 || limit > TIMER_QUEUE_PAGE {
            return Err(err(
                -32602,
                format!("limit {limit}: ask for 1 to {TIMER_QUEUE_PAGE} timers"),
            ));
        }
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let entries = snap
            .range(&[key::TIMER_DUE], Some(&[key::TIMER_DUE + 1]), limit)
            .map_err(internal)?;
        entries
            .iter()
            .map(|(_, v)| {
                cowboy_execution::world::decode_due(v)
                    .map(|(id, t)| timer_view(id, t))
                    .map_err(state)
            })
            .collect()
    }

    async fn code(&self, address: Address) -> RpcResult<Option<CodeView>> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        let Some(actor) = world.account(&address).map_err(state)?.actor else {
            return Ok(None);
        };
        Ok(world
            .code(&actor.code_hash)
            .map_err(state)?
            .map(|source| CodeView {
                address,
                code_hash: actor.code_hash,
                source,
            }))
    }

    async fn storage(&self, request: StorageRequest) -> RpcResult<StoragePage> {
        let limit = request.limit.unwrap_or(STORAGE_PAGE);
        if limit == 0 || limit > MAX_STORAGE_PAGE {
            return Err(err(
                -32602,
                format!("limit {limit}: ask for 1 to {MAX_STORAGE_PAGE} entries a page"),
            ));
        }
        let prefix = key::storage_prefix(&request.address);
        // Strictly after `after`: its successor is `after ‖ 0x00`.
        let from = match &request.after {
            Some(after) => [prefix.as_slice(), &after.0, &[0]].concat(),
            None => prefix.clone(),
        };
        // The first key past every key with the prefix (an address is never all 0xff).
        let mut end = prefix.clone();
        if let Some(last) = end.iter().rposition(|b| *b != 0xff) {
            end[last] += 1;
            end.truncate(last + 1);
        }
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let mut entries = snap.range(&from, Some(&end), limit + 1).map_err(internal)?;
        let more = entries.len() > limit;
        entries.truncate(limit);
        let entries: Vec<StorageEntry> = entries
            .into_iter()
            .map(|(k, v)| {
                let key = k[prefix.len()..].to_vec();
                StorageEntry {
                    key_text: String::from_utf8(key.clone())
                        .ok()
                        .filter(|s| !s.chars().any(char::is_control)),
                    key: HexBytes(key),
                    value_json: views::value_json(&v),
                    value: HexBytes(v),
                }
            })
            .collect();
        Ok(StoragePage {
            height: snap.height.unwrap_or(0),
            next: more
                .then(|| entries.last().map(|e| e.key.clone()))
                .flatten(),
            entries,
        })
    }

    async fn validators(&self) -> RpcResult<Vec<ValidatorView>> {
        let snap = self.core.chain().store().snapshot().map_err(internal)?;
        let world = World::new(Overlay::new(&snap));
        Ok(world
            .validators()
            .map_err(state)?
            .into_iter()
            .map(|(address, v)| ValidatorView {
                address,
                stake: Amount(v.stake),
                public_key: HexBytes(v.public_key),
            })
            .collect())
    }

    async fn wait_for_block(
        &self,
        after: u64,
        timeout_ms: Option<u64>,
    ) -> RpcResult<Option<BlockSummary>> {
        let mut rx = self.core.subscribe();
        let wait = rx.wait_for(|h| *h > after);
        match tokio::time::timeout(wait_for(timeout_ms), wait).await {
            Ok(Ok(_)) => self.summary(after + 1),
            Ok(Err(_)) => Err(err(code::UNAVAILABLE, "the node is shutting down")),
            Err(_) => Ok(None),
        }
    }

    async fn wait_for_receipt(
        &self,
        hash: Hash,
        timeout_ms: Option<u64>,
    ) -> RpcResult<Option<ReceiptView>> {
        let mut rx = self.core.subscribe();
        let deadline = tokio::time::Instant::now() + wait_for(timeout_ms);
        loop {
            // Mark the current height seen before looking, so a block executed in between
            // wakes the wait below.
            rx.borrow_and_update();
            if let Some(r) = self.receipt_view(&hash)? {
                return Ok(Some(r));
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => continue,
                Ok(Err(_)) => return Err(err(code::UNAVAILABLE, "the node is shutting down")),
                Err(_) => return Ok(None),
            }
        }
    }
}

/// An event has at most 4 topics: a filter with more matches nothing, so it is a mistake.
pub(crate) fn check_topics(topics: &[Option<Hash>]) -> RpcResult<()> {
    if topics.len() > 4 {
        return Err(err(
            -32602,
            format!("{} topics given; an event has at most 4", topics.len()),
        ));
    }
    Ok(())
}

fn timer_view(id: Hash, t: TimerRecord) -> TimerView {
    TimerView {
        id,
        actor: t.actor,
        creator: t.creator,
        fee_payer: t.fee_payer,
        height: t.next_height,
        handler: t.handler,
        every_blocks: (t.every > 0).then_some(t.every),
        cycles_per_fire: t.cycles_per_fire,
        cells_per_fire: t.cells_per_fire,
    }
}

/// The name of the pool rule that refused a transaction (`data.rule` of `POOL_REFUSED`).
fn pool_rule(e: &cowboy_mempool::PoolError) -> &'static str {
    use cowboy_mempool::PoolError::*;
    use cowboy_rpc::code::pool_rule;
    match e {
        AlreadyKnown(_) => pool_rule::ALREADY_KNOWN,
        NonceTooLow { .. } => pool_rule::NONCE_TOO_LOW,
        NonceTooHigh { .. } => pool_rule::NONCE_TOO_HIGH,
        FeeBelowBasefee { .. } => pool_rule::BASEFEE,
        InsufficientBalance { .. } => pool_rule::BALANCE,
        Underpriced { .. } => pool_rule::REPLACEMENT_UNDERPRICED,
        SenderFull { .. } => pool_rule::SENDER_FULL,
        PoolFull => pool_rule::POOL_FULL,
    }
}

/// A short name for the validity rule a transaction broke.
fn tx_rule(e: &cowboy_execution::TxError) -> &'static str {
    use cowboy_execution::TxError::*;
    match e {
        TooLarge { .. } => "max_tx_size",
        WrongChain { .. } => "chain_id",
        Signature(_) => "signature",
        BelowIntrinsic { .. } => "intrinsic_cost",
        AboveMaximum { .. } => "limit_maximum",
        TipAboveMaxFee { .. } => "tip_above_max_fee",
        Nonce { .. } => "nonce",
        FeeBelowBasefee { .. } => "basefee",
        InsufficientBalance { .. } => "balance",
        LaneFull { .. } => "lane",
    }
}

/// Starts the server on `addr` within `limits`; returns its bound address and a handle that
/// stops it.
pub async fn serve(
    core: Arc<Core>,
    addr: SocketAddr,
    limits: crate::rpc_server::RpcLimits,
) -> std::io::Result<(SocketAddr, ServerHandle)> {
    let probe_core = core.clone();
    let probe: crate::rpc_server::HealthProbe = Arc::new(move || {
        let health = views::health(&probe_core);
        (
            health.ready,
            serde_json::to_string(&health).unwrap_or_default(),
        )
    });
    let rpc = Rpc {
        core,
        subscriptions: crate::subscriptions::SubscriptionLimits {
            max_lag_blocks: limits.subscription_max_lag_blocks,
        },
    };
    let mut methods = CowboyApiServer::into_rpc(rpc.clone());
    methods
        .merge(cowboy_rpc::CowboyPubSubServer::into_rpc(rpc))
        .map_err(std::io::Error::other)?;
    let server = crate::rpc_server::serve(addr, methods, limits, Some(probe)).await?;
    Ok((server.local_addr, server.handle))
}
