//! The boundary between the PVM and the chain: what an executing actor may ask of the node
//! ([`Host`]), what it is told about its call ([`CallContext`]), and what it leaves behind
//! ([`Effects`]).
//!
//! The PVM depends on no state store: reads go through the [`Host`] trait, and every write,
//! message, timer and event is buffered in the call's [`Effects`], returned only if the call
//! succeeds. A failed call therefore reverts all of its effects by construction (single-block
//! atomicity, whitepaper "Asynchronous Execution").

use std::collections::BTreeMap;

/// A 20-byte address.
pub type Address = [u8; 20];
/// A 32-byte hash.
pub type Hash32 = [u8; 32];

/// Why a host query failed (the store is unavailable or corrupt): the call cannot continue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("host error: {0}")]
pub struct HostError(pub String);

/// What the PVM may ask of the node while an actor runs.
pub trait Host {
    /// The committed value of `key` in `actor`'s storage.
    fn storage_get(&mut self, actor: &Address, key: &[u8]) -> Result<Option<Vec<u8>>, HostError>;
    /// The balance of `account`, in base units.
    fn balance(&mut self, account: &Address) -> Result<u64, HostError>;
    /// The owner of pending timer `id`, if it exists.
    fn timer_owner(&mut self, id: &Hash32) -> Result<Option<Address>, HostError>;
    /// The number of pending timers `actor` owns.
    fn timer_count(&mut self, actor: &Address) -> Result<usize, HostError>;
    /// Bytes already waiting in `actor`'s mailbox (see [`mailbox_bytes`]).
    fn mailbox_size(&mut self, actor: &Address) -> Result<u64, HostError>;
}

/// The block an actor executes in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockInfo {
    pub height: u64,
    pub epoch: u64,
    pub view: u64,
    pub timestamp_ms: u64,
    pub chain_id: u64,
    /// The execution-readable parent beacon (BLS signature bytes); randomness derives from it.
    pub beacon: Vec<u8>,
}

/// Who called, with what, where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallContext {
    /// The executing actor.
    pub actor: Address,
    /// The sender of the message (an account or an actor).
    pub caller: Address,
    /// Base units transferred with the message.
    pub value: u64,
    pub block: BlockInfo,
    /// The executing actor's nonce when the call starts. Every message and timer the call
    /// creates takes the next nonce: its id is `keccak256(actor ‖ nonce ‖ msg_hash)`
    /// (whitepaper §3), so ids never repeat and are identical on every node.
    pub nonce: u64,
    /// Send depth of the message being handled (0: the transaction's own message).
    pub depth: u32,
    pub limits: CallLimits,
    /// What the executing actor declared at deployment (whitepaper §15): `submit_job` refuses
    /// a job type it did not declare.
    pub entitlements: cowboy_types::entitlement::ActorEntitlements,
}

impl CallContext {
    /// A call outside any chain, for the PVM's own tests and benchmarks: block `height` (view =
    /// height, epoch 0, time 0, chain id 0, an all-zero beacon), actor nonce 0, depth 0, the
    /// genesis limits. (`cowboy run` and `cowboy test` run on a chain:
    /// `cowboy_execution::local`.)
    #[cfg(feature = "test-host")]
    pub fn local(actor: Address, caller: Address, value: u64, height: u64) -> Self {
        Self {
            actor,
            caller,
            value,
            block: BlockInfo {
                height,
                epoch: 0,
                view: height,
                timestamp_ms: 0,
                chain_id: 0,
                beacon: vec![0; 48],
            },
            nonce: 0,
            depth: 0,
            limits: CallLimits::default(),
            entitlements: cowboy_types::entitlement::ActorEntitlements::default(),
        }
    }
}

/// Limits the chain sets for one call (governance parameters; defaults are the genesis values).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallLimits {
    /// Deepest send (whitepaper §3: reentrancy depth 32).
    pub max_depth: u32,
    /// Messages and timers the transaction may still enqueue (whitepaper §3: fanout 1,024).
    pub fanout_left: u32,
    /// Pending timers one creator may have (whitepaper §5.1a: 1,024).
    pub max_timers: u32,
    /// Bytes a mailbox may hold (whitepaper §3: 1,000,000).
    pub mailbox_capacity: u64,
    /// Per-fire caps (whitepaper §5.1a: 550,000 each).
    pub max_cycles_per_fire: u64,
    pub max_cells_per_fire: u64,
    /// Per-fire floors: a firing pays the TimerSchedule intrinsic (§17.2: 5,000 cycles and 64
    /// cells) out of its budget.
    pub min_cycles_per_fire: u64,
    pub min_cells_per_fire: u64,
}

impl Default for CallLimits {
    fn default() -> Self {
        use crate::cost::limits;
        Self {
            max_depth: limits::CALL_DEPTH as u32,
            fanout_left: limits::FANOUT as u32,
            max_timers: limits::TIMERS_PER_ACTOR as u32,
            mailbox_capacity: limits::MAILBOX_BYTES,
            max_cycles_per_fire: limits::CYCLES_PER_FIRE,
            max_cells_per_fire: limits::CELLS_PER_FIRE,
            min_cycles_per_fire: limits::MIN_CYCLES_PER_FIRE,
            min_cells_per_fire: limits::MIN_CELLS_PER_FIRE,
        }
    }
}

/// Bytes a message occupies in a mailbox: its method name and encoded arguments.
pub fn mailbox_bytes(method: &str, args: &[u8]) -> u64 {
    (method.len() + args.len()) as u64
}

/// A message the actor sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMessage {
    pub id: Hash32,
    pub to: Address,
    pub method: String,
    /// Canonically encoded positional arguments (a list).
    pub args: Vec<u8>,
    pub value: u64,
}

/// A job the actor submitted (CIP-2 §2): the Job Dispatcher takes it, with its escrow from the
/// actor's balance, when the call succeeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobRequest {
    /// The job id: `keccak256(actor ‖ nonce ‖ keccak256(job_submit instruction))`, the id a
    /// message with the same nonce would have.
    pub id: Hash32,
    pub spec: cowboy_types::job::JobSpec,
}

/// A timer the actor scheduled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimerRequest {
    pub id: Hash32,
    /// First (or only) firing height.
    pub height: u64,
    /// Repeat every N blocks; 0 for a one-shot timer.
    pub every: u64,
    pub handler: String,
    /// Canonically encoded positional arguments (a list).
    pub args: Vec<u8>,
    pub cycles_per_fire: u64,
    pub cells_per_fire: u64,
    pub expires_at: Option<u64>,
    /// §5.1b auction bid per cycle: `(max_fee, max_priority_fee)`.
    pub bid: Option<(u64, u64)>,
}

/// An event the actor emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmittedEvent {
    pub topics: Vec<Hash32>,
    pub data: Vec<u8>,
}

/// Everything a successful call leaves behind, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Effects {
    /// Final value of every storage key written (`None`: deleted), sorted by key.
    pub storage: BTreeMap<Vec<u8>, Option<Vec<u8>>>,
    pub messages: Vec<OutgoingMessage>,
    pub timers_set: Vec<TimerRequest>,
    pub timers_cancelled: Vec<Hash32>,
    pub events: Vec<EmittedEvent>,
    /// Jobs submitted, in order.
    pub jobs: Vec<JobRequest>,
    /// Output of `print` (for developers; not consensus data).
    pub logs: Vec<String>,
    /// Nonces the call consumed (ids of messages and timers created, cancelled or not).
    pub nonces_used: u64,
    /// A new storage quota the actor asked for, in bytes.
    pub quota_request: Option<u64>,
}

/// A host with no state: every key is absent, every balance zero. For validation dry runs.
#[derive(Debug, Default)]
pub struct EmptyHost;

impl Host for EmptyHost {
    fn storage_get(&mut self, _: &Address, _: &[u8]) -> Result<Option<Vec<u8>>, HostError> {
        Ok(None)
    }
    fn balance(&mut self, _: &Address) -> Result<u64, HostError> {
        Ok(0)
    }
    fn timer_owner(&mut self, _: &Hash32) -> Result<Option<Address>, HostError> {
        Ok(None)
    }
    fn timer_count(&mut self, _: &Address) -> Result<usize, HostError> {
        Ok(0)
    }
    fn mailbox_size(&mut self, _: &Address) -> Result<u64, HostError> {
        Ok(0)
    }
}

/// An in-memory host for the PVM's own tests and benchmarks (feature `test-host`): storage per
/// actor, balances, pending timers; apply a successful call's [`Effects`] with
/// [`MemoryHost::apply`]. It is not a state transition — no fees, value or delivery — and
/// nothing outside tests may use it: local runs use `cowboy_execution::local`, the chain's own.
#[cfg(feature = "test-host")]
#[derive(Debug, Default, Clone)]
pub struct MemoryHost {
    pub storage: BTreeMap<(Address, Vec<u8>), Vec<u8>>,
    pub balances: BTreeMap<Address, u64>,
    pub timers: BTreeMap<Hash32, (Address, TimerRequest)>,
}

#[cfg(feature = "test-host")]
impl MemoryHost {
    /// Commits a successful call's effects for `actor`.
    pub fn apply(&mut self, actor: &Address, effects: &Effects) {
        for (key, value) in &effects.storage {
            match value {
                Some(v) => {
                    self.storage.insert((*actor, key.clone()), v.clone());
                }
                None => {
                    self.storage.remove(&(*actor, key.clone()));
                }
            }
        }
        for id in &effects.timers_cancelled {
            self.timers.remove(id);
        }
        for t in &effects.timers_set {
            self.timers.insert(t.id, (*actor, t.clone()));
        }
    }
}

#[cfg(feature = "test-host")]
impl Host for MemoryHost {
    fn storage_get(&mut self, actor: &Address, key: &[u8]) -> Result<Option<Vec<u8>>, HostError> {
        Ok(self.storage.get(&(*actor, key.to_vec())).cloned())
    }
    fn balance(&mut self, account: &Address) -> Result<u64, HostError> {
        Ok(self.balances.get(account).copied().unwrap_or(0))
    }
    fn timer_owner(&mut self, id: &Hash32) -> Result<Option<Address>, HostError> {
        Ok(self.timers.get(id).map(|(a, _)| *a))
    }
    fn timer_count(&mut self, actor: &Address) -> Result<usize, HostError> {
        Ok(self.timers.values().filter(|(a, _)| a == actor).count())
    }
    fn mailbox_size(&mut self, _: &Address) -> Result<u64, HostError> {
        // Messages are reported, never queued.
        Ok(0)
    }
}
