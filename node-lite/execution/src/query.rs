//! Runs against the latest committed state whose effects are thrown away: read-only calls (a
//! handler run without a transaction, metered like a real call; `cowboy query` and the node's
//! query RPC) and transaction simulations (a transaction executed as the next block would
//! execute it; `cowboy_simulate`, which the CLI runs before it sends).

use crate::{
    Chain, ExecError,
    exec::{Env, Executor, Handled, Pending, Session, status_of},
    fees::{Basefees, Bid},
    world::World,
};
use cowboy_pvm::Engine;
use cowboy_state::Overlay;
use cowboy_types::{ActorInstruction, Address, Event, Hash, Instruction, Status, receipt::failure};

/// Most cycles a query may use unless asked for less (and never more than the largest single
/// transaction: the chain's user lane).
pub const MAX_QUERY_CYCLES: u64 = 20_000_000;
/// Most cells a query may use unless asked for less.
pub const MAX_QUERY_CELLS: u64 = 4_000_000;

/// What a read-only call produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryResult {
    /// The height of the state the call read.
    pub height: u64,
    pub status: Status,
    pub return_data: Vec<u8>,
    pub events: Vec<Event>,
    pub cycles_used: u64,
    pub cells_used: u64,
}

/// A read-only call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The caller the handler sees (`msg.sender`); any address.
    pub from: Address,
    pub to: Address,
    pub method: String,
    /// Canonically encoded argument list.
    pub args: Vec<u8>,
    pub cycles_limit: u64,
    pub cells_limit: u64,
}

/// The environment of the block after `head`, as far as the state can tell it (the next
/// block's time and beacon are not known yet: the head's stand in).
fn next_env(
    head: &cowboy_types::Header,
    basefees: Basefees,
    params: crate::Parameters,
    chain_id: u64,
) -> Env {
    let height = head.height + 1;
    Env {
        height,
        beacon: head.beacon,
        block: cowboy_pvm::BlockInfo {
            height,
            epoch: head.round.epoch,
            view: head.round.view,
            timestamp_ms: head.timestamp_ms,
            chain_id,
            beacon: head.beacon.signature.to_vec(),
        },
        params,
        basefees,
    }
}

/// What a transaction would do if the next block executed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    /// The height of the state it ran on (it ran as block `height + 1`).
    pub height: u64,
    /// Its receipt: status, return value, events, deliveries, cycles, cells and fee.
    pub receipt: cowboy_types::Receipt,
    /// The sender's balance and next nonce in that state.
    pub balance: u64,
    pub nonce: u64,
    /// The most the transaction may take: its limits at its fee caps, plus the value it
    /// carries. A sender whose balance is below it cannot send it as it is; the simulation
    /// ran as if the balance covered it.
    pub required: u128,
}

impl Chain {
    /// Executes `tx` on the latest committed state as the next block would execute it, and
    /// throws its effects away. The signature is not checked (the sender is `tx.from`), nor
    /// is the nonce (a sender may have transactions pending ahead of it), nor the balance
    /// ([`Simulation::required`] says whether it suffices): everything else a block checks
    /// is, and a transaction it refuses is the `Err` inside.
    pub fn simulate(
        &self,
        engine: &mut Engine,
        tx: cowboy_types::Transaction,
    ) -> Result<Result<Simulation, crate::TxError>, ExecError> {
        let snapshot = self.store().snapshot()?;
        let head = self.head()?;
        let world = World::new(Overlay::new(&snapshot));
        let params = world.params()?;
        let chain_id = crate::block::chain_id(&world)?;
        let vtx = match crate::tx::impersonate(tx, chain_id, &params) {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        let env = next_env(&head, world.basefees()?, params, chain_id);
        let mut x = Executor::new(env, world, engine, crate::exec::Tracing::Off);
        let lane = crate::lanes::lane_of(&vtx.tx.instruction);
        let prices = x.env.lane(crate::lanes::multiplier(
            lane,
            &x.env.params.lane_fee_multipliers,
        ));
        let mut account = x.world.account(&vtx.sender)?;
        let (balance, nonce) = (account.balance, account.nonce);
        // Only the nonce is the simulation's to ignore: the fee caps must clear the basefees.
        account.nonce = vtx.tx.nonce;
        let required = vtx.required_balance();
        account.balance = account
            .balance
            .max(u64::try_from(required).unwrap_or(u64::MAX));
        if let Err(e) = crate::tx::check_stateful(&vtx, &account, &prices) {
            return Ok(Err(e));
        }
        x.world.set_account(&vtx.sender, &account);
        let receipt = crate::block::execute_tx(&mut x, &vtx, &prices)?;
        Ok(Ok(Simulation {
            height: head.height,
            receipt,
            balance,
            nonce,
            required,
        }))
    }

    /// Runs `q` on the latest committed state and throws its effects away.
    pub fn query(&self, engine: &mut Engine, q: &Query) -> Result<QueryResult, ExecError> {
        let snapshot = self.store().snapshot()?;
        let head = self.head()?;
        let world = World::new(Overlay::new(&snapshot));
        let params = world.params()?;
        let chain_id = crate::block::chain_id(&world)?;
        let env = next_env(&head, world.basefees()?, params, chain_id);
        let fanout = env.params.execution.fanout_per_tx;
        let mut x = Executor::new(env, world, engine, crate::exec::Tracing::Off);
        if x.world.account(&q.to)?.actor.is_none() {
            return Ok(QueryResult {
                height: head.height,
                status: Status::Failed {
                    kind: failure::NO_ACTOR,
                    message: format!("{} has no actor", q.to),
                },
                return_data: Vec::new(),
                events: Vec::new(),
                cycles_used: 0,
                cells_used: 0,
            });
        }
        let free = Bid {
            max_fee_per_cycle: 0,
            max_fee_per_cell: 0,
            max_priority_fee_per_cycle: 0,
            max_priority_fee_per_cell: 0,
        };
        let mut s = Session::new(
            q.from,
            free,
            Basefees { cycle: 0, cell: 0 },
            // No more than one transaction could use: the user lane is sized so a block
            // executes in time, and a query shares the node's cores with execution.
            q.cycles_limit
                .min(MAX_QUERY_CYCLES)
                .min(x.env.params.lanes.user_cycles),
            q.cells_limit.min(MAX_QUERY_CELLS),
            fanout,
            Hash::ZERO,
        );
        let instruction = Instruction::Actor(ActorInstruction::Message {
            to: q.to,
            method: q.method.clone(),
            args: q.args.clone(),
            value: 0,
        });
        let m = Pending {
            id: cowboy_types::message_id(&q.from, u64::MAX, &instruction),
            sender: q.from,
            to: q.to,
            method: q.method.clone(),
            args: q.args.clone(),
            value: 0,
            depth: 0,
        };
        let handled = x.process(&mut s, m)?;
        x.drain(&mut s)?;
        let return_data = match &handled {
            Handled::Delivered(r) => r.clone(),
            _ => Vec::new(),
        };
        Ok(QueryResult {
            height: head.height,
            status: status_of(&handled),
            return_data,
            events: s.events,
            cycles_used: s.cycles_used,
            cells_used: s.cells_used,
        })
    }
}
