//! Read-only calls: a handler run against the latest committed state without a transaction —
//! metered like a real call, every write and send discarded. What `cowboy query` and the
//! node's query RPC use.

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

impl Chain {
    /// Runs `q` on the latest committed state and throws its effects away.
    pub fn query(&self, engine: &mut Engine, q: &Query) -> Result<QueryResult, ExecError> {
        let snapshot = self.store().snapshot()?;
        let head = self.head()?;
        let world = World::new(Overlay::new(&snapshot));
        let params = world.params()?;
        let basefees = world.basefees()?;
        let chain_id = crate::block::chain_id(&world)?;
        let height = head.height + 1;
        let env = Env {
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
        };
        let fanout = env.params.execution.fanout_per_tx;
        let mut x = Executor::new(env, world, engine, false);
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
