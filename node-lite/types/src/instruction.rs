//! Transaction instructions (whitepaper §2.1): a typed operation with its own operands, encoded
//! as `[category, sub_type, body]` (§2.5).
//!
//! Category and sub-type numbers are consensus-critical. The spec fixes `System(0)`,
//! `Transfer(1)`, the entitlement range 30–39 (CIP-2 §7.2) and the timer opcodes 48/49/50
//! (§5.1b). The rest (the Runner Registry's 10–17, the Job Dispatcher's 20–24) is decided in
//! `book/src/reference/encoding.md`, and every number lives in [`category`], [`system_op`] and
//! [`actor_op`] below.

use crate::{
    bounded::List,
    codec::{
        bytes_size, field, positioned, read_bytes, read_discriminant, read_plain, read_string,
        read_tag, read_u64_be, read_varint, varint_size, write_bytes, write_varint,
    },
    constants::{MAX_ARGS_SIZE, MAX_CODE_SIZE, MAX_METHOD_NAME_LEN},
    entitlement::{ActorEntitlements, EntitlementOp},
    job::{JobSpec, Reveal},
    primitives::{Address, Hash},
    runner::RunnerProfile,
    tee::Attestation,
};
use bytes::BufMut;
use commonware_codec::{Buf, EncodeSize, Error as CodecError, Read, Write};

/// Instruction category discriminants (the first byte of an encoded instruction).
pub mod category {
    /// Protocol operations: transfers, timers, entitlements.
    pub const SYSTEM: u8 = 0;
    /// Actor lifecycle and messages.
    pub const ACTOR: u8 = 1;
    /// Reserved: application-defined instructions (no sub-types in v1).
    pub const CUSTOM: u8 = 2;
    /// Reserved: shared library code (no sub-types in v1).
    pub const LIBRARY: u8 = 3;
}

/// `System` sub-type discriminants.
pub mod system_op {
    /// Value transfer between accounts (Appendix A: `System(0) Transfer(1)`).
    pub const TRANSFER: u8 = 1;
    /// Runner Registry (CIP-2 §4; Cowboy numbering): register with a profile and stake.
    pub const RUNNER_REGISTER: u8 = 10;
    /// Replace the sender's runner profile.
    pub const RUNNER_UPDATE: u8 = 11;
    /// Prove the runner is alive (CIP-2 §4 health filter).
    pub const RUNNER_HEARTBEAT: u8 = 12;
    /// Bond more stake.
    pub const RUNNER_ADD_STAKE: u8 = 13;
    /// Start unbonding part of the stake.
    pub const RUNNER_WITHDRAW_STAKE: u8 = 14;
    /// Leave the market: never selected again, the whole stake unbonds.
    pub const RUNNER_EXIT: u8 = 15;
    /// Pay out stake whose unbonding delay has passed.
    pub const RUNNER_CLAIM: u8 = 16;
    /// Present a TEE attestation to the TEE Verifier (spec README "TEE").
    pub const RUNNER_ATTEST: u8 = 17;
    /// Job Dispatcher (CIP-2 §2–3; Cowboy numbering): submit a job, escrowing its price.
    pub const JOB_SUBMIT: u8 = 20;
    /// A committee member commits to its result (`keccak256(result ‖ salt)`).
    pub const JOB_COMMIT: u8 = 21;
    /// The aggregator's batch of reveals, or a member's own reveal after the aggregator's
    /// window.
    pub const JOB_REVEAL: u8 = 22;
    /// Challenge a verified result within its window, posting the challenge bond.
    pub const JOB_CHALLENGE: u8 = 24;
    /// Entitlement Registry (CIP-2 §7.2, exactly): grant one (scope, action).
    pub const ENTITLEMENT_GRANT: u8 = 30;
    /// Revoke an entitlement.
    pub const ENTITLEMENT_REVOKE: u8 = 31;
    /// Delegate a delegatable entitlement.
    pub const ENTITLEMENT_DELEGATE: u8 = 32;
    /// Create a role.
    pub const ENTITLEMENT_CREATE_ROLE: u8 = 33;
    /// Assign a role.
    pub const ENTITLEMENT_ASSIGN_ROLE: u8 = 34;
    /// Revoke a role.
    pub const ENTITLEMENT_REVOKE_ROLE: u8 = 35;
    /// One-shot timer at an absolute height (§5.1b, opcode 48).
    pub const SET_TIMER: u8 = 48;
    /// Recurring timer every N blocks (§5.1b, opcode 49).
    pub const SET_INTERVAL: u8 = 49;
    /// Cancel a pending timer (§5.1b, opcode 50).
    pub const CANCEL_TIMER: u8 = 50;
}

/// `Actor` sub-type discriminants.
pub mod actor_op {
    /// Deploy an actor's Python source (CREATE2-style address, §1.2).
    pub const DEPLOY: u8 = 0;
    /// Deliver a message to an actor handler.
    pub const MESSAGE: u8 = 1;
}

/// A transaction's operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instruction {
    System(SystemInstruction),
    Actor(ActorInstruction),
}

/// Operations of the `System` category.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SystemInstruction {
    /// Move `amount` from the sender to `to`.
    Transfer { to: Address, amount: u64 },
    /// Schedule `handler` on `actor` once, at block `height`.
    SetTimer { timer: TimerSpec, height: u64 },
    /// Schedule `handler` on `actor` every `every_blocks` blocks, first at `start_height`.
    SetInterval {
        timer: TimerSpec,
        start_height: u64,
        every_blocks: u64,
    },
    /// Cancel the pending timer `timer_id`.
    CancelTimer { timer_id: Hash },
    /// Register the sender as a runner, bonding `stake` from its balance.
    RunnerRegister {
        profile: Box<RunnerProfile>,
        stake: u64,
    },
    /// Replace the sender's runner profile (the stake must cover the new one).
    RunnerUpdate { profile: Box<RunnerProfile> },
    /// The sender's runner is alive.
    RunnerHeartbeat,
    /// Bond `amount` more from the sender's balance.
    RunnerAddStake { amount: u64 },
    /// Move `amount` of the stake to unbonding.
    RunnerWithdrawStake { amount: u64 },
    /// Leave the market; the whole stake unbonds.
    RunnerExit,
    /// Pay out unbonded stake whose delay has passed.
    RunnerClaim,
    /// Present the sender's TEE attestation.
    RunnerAttest { attestation: Box<Attestation> },
    /// Submit a job, escrowing `max_price + tip` (and the callback's `max_fee`) from the
    /// sender.
    JobSubmit { spec: Box<JobSpec> },
    /// A committee member of `job_id` commits to its result.
    JobCommit { job_id: Hash, commitment: Hash },
    /// Reveals of committed results of `job_id`.
    JobReveal {
        job_id: Hash,
        reveals: List<Reveal, 32>,
    },
    /// Challenge `job_id`'s verified result, bonding `bond` (the chain's `challenge_bond`).
    JobChallenge { job_id: Hash, bond: u64 },
    /// An Entitlement Registry operation (CIP-2 §7.2, sub-types 30–35).
    Entitlement(EntitlementOp),
}

/// What a timer delivers and who pays for each firing (§5.1a per-fire `fee_payer` model; the
/// transaction's sender is the fee payer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimerSpec {
    /// The actor whose handler fires.
    pub actor: Address,
    /// Handler (method) name.
    pub handler: String,
    /// Canonically encoded arguments delivered to the handler.
    pub args: Vec<u8>,
    /// Cycles pre-charged per firing (`gas_limit_per_fire`), capped by `max_cycles_per_fire`.
    pub cycles_per_fire: u64,
    /// Cells pre-charged per firing, capped by `max_cells_per_fire`.
    pub cells_per_fire: u64,
    /// Height after which the timer expires without firing (TTL), if any.
    pub expires_at: Option<u64>,
    /// What each firing bids in the §5.1b timer auction (ignored while timers run FIFO,
    /// §5.1a); `None` lets the protocol's default gas-bidding agent bid.
    pub bid: Option<TimerBid>,
}

/// A timer's bid per cycle in the §5.1b timer auction: the most it pays per cycle and the
/// most of that it offers the proposer above the timer lane's basefee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerBid {
    pub max_fee_per_cycle: u64,
    pub max_priority_fee_per_cycle: u64,
}

impl Write for TimerBid {
    fn write(&self, buf: &mut impl BufMut) {
        write_varint(self.max_fee_per_cycle, buf);
        write_varint(self.max_priority_fee_per_cycle, buf);
    }
}

impl EncodeSize for TimerBid {
    fn encode_size(&self) -> usize {
        varint_size(self.max_fee_per_cycle) + varint_size(self.max_priority_fee_per_cycle)
    }
}

impl Read for TimerBid {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            max_fee_per_cycle: read_varint(buf, "max_fee_per_cycle")?,
            max_priority_fee_per_cycle: read_varint(buf, "max_priority_fee_per_cycle")?,
        })
    }
}

/// Writes an optional timer bid (1-byte tag, then the bid).
pub fn write_bid(bid: &Option<TimerBid>, buf: &mut impl BufMut) {
    bid.is_some().write(buf);
    if let Some(b) = bid {
        b.write(buf);
    }
}

/// Encoded width of an optional timer bid.
pub fn bid_size(bid: &Option<TimerBid>) -> usize {
    1 + bid.map_or(0, |b| b.encode_size())
}

/// Reads an optional timer bid.
pub fn read_bid(buf: &mut impl Buf) -> Result<Option<TimerBid>, CodecError> {
    Ok(if read_tag(buf, "bid")? {
        Some(read_plain(buf, "bid")?)
    } else {
        None
    })
}

/// Operations of the `Actor` category.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActorInstruction {
    /// Deploy `code` (canonical Python source); `__init__` receives `init_args`. The actor
    /// holds `entitlements` (whitepaper §15: what its manifest declares) for its lifetime.
    Deploy {
        code: String,
        salt: Hash,
        init_args: Vec<u8>,
        value: u64,
        entitlements: ActorEntitlements,
    },
    /// Call `method` on actor `to` with canonically encoded `args`, transferring `value`.
    Message {
        to: Address,
        method: String,
        args: Vec<u8>,
        value: u64,
    },
}

impl Instruction {
    /// `(category, sub_type)` of this instruction.
    pub fn discriminants(&self) -> (u8, u8) {
        match self {
            Self::System(s) => (
                category::SYSTEM,
                match s {
                    SystemInstruction::Transfer { .. } => system_op::TRANSFER,
                    SystemInstruction::SetTimer { .. } => system_op::SET_TIMER,
                    SystemInstruction::SetInterval { .. } => system_op::SET_INTERVAL,
                    SystemInstruction::CancelTimer { .. } => system_op::CANCEL_TIMER,
                    SystemInstruction::RunnerRegister { .. } => system_op::RUNNER_REGISTER,
                    SystemInstruction::RunnerUpdate { .. } => system_op::RUNNER_UPDATE,
                    SystemInstruction::RunnerHeartbeat => system_op::RUNNER_HEARTBEAT,
                    SystemInstruction::RunnerAddStake { .. } => system_op::RUNNER_ADD_STAKE,
                    SystemInstruction::RunnerWithdrawStake { .. } => {
                        system_op::RUNNER_WITHDRAW_STAKE
                    }
                    SystemInstruction::RunnerExit => system_op::RUNNER_EXIT,
                    SystemInstruction::RunnerClaim => system_op::RUNNER_CLAIM,
                    SystemInstruction::RunnerAttest { .. } => system_op::RUNNER_ATTEST,
                    SystemInstruction::JobSubmit { .. } => system_op::JOB_SUBMIT,
                    SystemInstruction::JobCommit { .. } => system_op::JOB_COMMIT,
                    SystemInstruction::JobReveal { .. } => system_op::JOB_REVEAL,
                    SystemInstruction::JobChallenge { .. } => system_op::JOB_CHALLENGE,
                    SystemInstruction::Entitlement(op) => op.sub_type(),
                },
            ),
            Self::Actor(a) => (
                category::ACTOR,
                match a {
                    ActorInstruction::Deploy { .. } => actor_op::DEPLOY,
                    ActorInstruction::Message { .. } => actor_op::MESSAGE,
                },
            ),
        }
    }

    /// The value (in base units) this instruction moves out of the sender's balance.
    pub fn value(&self) -> u64 {
        match self {
            Self::System(SystemInstruction::Transfer { amount, .. }) => *amount,
            Self::Actor(ActorInstruction::Deploy { value, .. })
            | Self::Actor(ActorInstruction::Message { value, .. }) => *value,
            Self::System(SystemInstruction::RunnerRegister { stake, .. }) => *stake,
            Self::System(SystemInstruction::RunnerAddStake { amount }) => *amount,
            Self::System(SystemInstruction::JobSubmit { spec }) => spec.escrow(),
            Self::System(SystemInstruction::JobChallenge { bond, .. }) => *bond,
            Self::System(_) => 0,
        }
    }

    /// A short human name for the operation.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::System(SystemInstruction::Transfer { .. }) => "transfer",
            Self::System(SystemInstruction::SetTimer { .. }) => "set_timer",
            Self::System(SystemInstruction::SetInterval { .. }) => "set_interval",
            Self::System(SystemInstruction::CancelTimer { .. }) => "cancel_timer",
            Self::System(SystemInstruction::RunnerRegister { .. }) => "runner_register",
            Self::System(SystemInstruction::RunnerUpdate { .. }) => "runner_update",
            Self::System(SystemInstruction::RunnerHeartbeat) => "runner_heartbeat",
            Self::System(SystemInstruction::RunnerAddStake { .. }) => "runner_add_stake",
            Self::System(SystemInstruction::RunnerWithdrawStake { .. }) => "runner_withdraw_stake",
            Self::System(SystemInstruction::RunnerExit) => "runner_exit",
            Self::System(SystemInstruction::RunnerClaim) => "runner_claim",
            Self::System(SystemInstruction::RunnerAttest { .. }) => "runner_attest",
            Self::System(SystemInstruction::JobSubmit { .. }) => "job_submit",
            Self::System(SystemInstruction::JobCommit { .. }) => "job_commit",
            Self::System(SystemInstruction::JobReveal { .. }) => "job_reveal",
            Self::System(SystemInstruction::JobChallenge { .. }) => "job_challenge",
            Self::System(SystemInstruction::Entitlement(op)) => op.kind(),
            Self::Actor(ActorInstruction::Deploy { .. }) => "deploy",
            Self::Actor(ActorInstruction::Message { .. }) => "call",
        }
    }
}

impl Write for TimerSpec {
    fn write(&self, buf: &mut impl BufMut) {
        self.actor.write(buf);
        write_bytes(self.handler.as_bytes(), buf);
        write_bytes(&self.args, buf);
        write_varint(self.cycles_per_fire, buf);
        write_varint(self.cells_per_fire, buf);
        self.expires_at.is_some().write(buf);
        if let Some(h) = self.expires_at {
            write_varint(h, buf);
        }
        write_bid(&self.bid, buf);
    }
}

impl EncodeSize for TimerSpec {
    fn encode_size(&self) -> usize {
        Address::LEN
            + bytes_size(self.handler.as_bytes())
            + bytes_size(&self.args)
            + varint_size(self.cycles_per_fire)
            + varint_size(self.cells_per_fire)
            + 1
            + self.expires_at.map_or(0, varint_size)
            + bid_size(&self.bid)
    }
}

impl Read for TimerSpec {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            actor: read_plain(buf, "actor")?,
            handler: read_string(buf, "handler", MAX_METHOD_NAME_LEN)?,
            args: read_bytes(buf, "args", MAX_ARGS_SIZE)?,
            cycles_per_fire: read_varint(buf, "cycles_per_fire")?,
            cells_per_fire: read_varint(buf, "cells_per_fire")?,
            expires_at: if read_tag(buf, "expires_at")? {
                Some(read_varint(buf, "expires_at")?)
            } else {
                None
            },
            bid: read_bid(buf)?,
        })
    }
}

impl Write for Instruction {
    fn write(&self, buf: &mut impl BufMut) {
        let (cat, sub) = self.discriminants();
        buf.put_u8(cat);
        buf.put_u8(sub);
        match self {
            Self::System(SystemInstruction::Transfer { to, amount }) => {
                to.write(buf);
                amount.write(buf);
            }
            Self::System(SystemInstruction::SetTimer { timer, height }) => {
                timer.write(buf);
                write_varint(*height, buf);
            }
            Self::System(SystemInstruction::SetInterval {
                timer,
                start_height,
                every_blocks,
            }) => {
                timer.write(buf);
                write_varint(*start_height, buf);
                write_varint(*every_blocks, buf);
            }
            Self::System(SystemInstruction::CancelTimer { timer_id }) => timer_id.write(buf),
            Self::System(SystemInstruction::RunnerRegister { profile, stake }) => {
                profile.write(buf);
                stake.write(buf);
            }
            Self::System(SystemInstruction::RunnerUpdate { profile }) => profile.write(buf),
            Self::System(SystemInstruction::RunnerAttest { attestation }) => attestation.write(buf),
            Self::System(SystemInstruction::JobSubmit { spec }) => spec.write(buf),
            Self::System(SystemInstruction::JobCommit { job_id, commitment }) => {
                job_id.write(buf);
                commitment.write(buf);
            }
            Self::System(SystemInstruction::JobReveal { job_id, reveals }) => {
                job_id.write(buf);
                reveals.write(buf);
            }
            Self::System(SystemInstruction::JobChallenge { job_id, bond }) => {
                job_id.write(buf);
                bond.write(buf);
            }
            Self::System(SystemInstruction::Entitlement(op)) => op.write_body(buf),
            Self::System(
                SystemInstruction::RunnerAddStake { amount }
                | SystemInstruction::RunnerWithdrawStake { amount },
            ) => amount.write(buf),
            Self::System(
                SystemInstruction::RunnerHeartbeat
                | SystemInstruction::RunnerExit
                | SystemInstruction::RunnerClaim,
            ) => {}
            Self::Actor(ActorInstruction::Deploy {
                code,
                salt,
                init_args,
                value,
                entitlements,
            }) => {
                write_bytes(code.as_bytes(), buf);
                salt.write(buf);
                write_bytes(init_args, buf);
                value.write(buf);
                entitlements.write(buf);
            }
            Self::Actor(ActorInstruction::Message {
                to,
                method,
                args,
                value,
            }) => {
                to.write(buf);
                write_bytes(method.as_bytes(), buf);
                write_bytes(args, buf);
                value.write(buf);
            }
        }
    }
}

impl EncodeSize for Instruction {
    fn encode_size(&self) -> usize {
        2 + match self {
            Self::System(SystemInstruction::Transfer { .. }) => Address::LEN + 8,
            Self::System(SystemInstruction::SetTimer { timer, height }) => {
                timer.encode_size() + varint_size(*height)
            }
            Self::System(SystemInstruction::SetInterval {
                timer,
                start_height,
                every_blocks,
            }) => timer.encode_size() + varint_size(*start_height) + varint_size(*every_blocks),
            Self::System(SystemInstruction::CancelTimer { .. }) => Hash::LEN,
            Self::System(SystemInstruction::RunnerRegister { profile, .. }) => {
                profile.encode_size() + 8
            }
            Self::System(SystemInstruction::RunnerUpdate { profile }) => profile.encode_size(),
            Self::System(SystemInstruction::RunnerAttest { attestation }) => {
                attestation.encode_size()
            }
            Self::System(SystemInstruction::JobSubmit { spec }) => spec.encode_size(),
            Self::System(SystemInstruction::JobCommit { .. }) => 2 * Hash::LEN,
            Self::System(SystemInstruction::JobChallenge { .. }) => Hash::LEN + 8,
            Self::System(SystemInstruction::Entitlement(op)) => op.body_size(),
            Self::System(SystemInstruction::JobReveal { reveals, .. }) => {
                Hash::LEN + reveals.encode_size()
            }
            Self::System(
                SystemInstruction::RunnerAddStake { .. }
                | SystemInstruction::RunnerWithdrawStake { .. },
            ) => 8,
            Self::System(
                SystemInstruction::RunnerHeartbeat
                | SystemInstruction::RunnerExit
                | SystemInstruction::RunnerClaim,
            ) => 0,
            Self::Actor(ActorInstruction::Deploy {
                code, init_args, ..
            }) => bytes_size(code.as_bytes()) + Hash::LEN + bytes_size(init_args) + 8 + 1,
            Self::Actor(ActorInstruction::Message { method, args, .. }) => {
                Address::LEN + bytes_size(method.as_bytes()) + bytes_size(args) + 8
            }
        }
    }
}

impl Read for Instruction {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        let cat_start = buf.remaining();
        let cat = read_discriminant(buf, "category")?;
        if cat > category::LIBRARY {
            return Err(positioned(
                "category",
                cat_start,
                CodecError::InvalidEnum(cat),
            ));
        }
        let sub_start = buf.remaining();
        let sub = read_discriminant(buf, "sub_type")?;
        if cat == category::SYSTEM
            && let Some(op) = EntitlementOp::read_body(sub, buf)
        {
            return Ok(Self::System(SystemInstruction::Entitlement(op?)));
        }
        match (cat, sub) {
            (category::SYSTEM, system_op::TRANSFER) => field(buf, "transfer", |b| {
                Ok(Self::System(SystemInstruction::Transfer {
                    to: read_plain(b, "to")?,
                    amount: read_u64_be(b, "amount")?,
                }))
            }),
            (category::SYSTEM, system_op::SET_TIMER) => field(buf, "set_timer", |b| {
                Ok(Self::System(SystemInstruction::SetTimer {
                    timer: read_plain(b, "timer")?,
                    height: read_varint(b, "height")?,
                }))
            }),
            (category::SYSTEM, system_op::SET_INTERVAL) => field(buf, "set_interval", |b| {
                Ok(Self::System(SystemInstruction::SetInterval {
                    timer: read_plain(b, "timer")?,
                    start_height: read_varint(b, "start_height")?,
                    every_blocks: read_varint(b, "every_blocks")?,
                }))
            }),
            (category::SYSTEM, system_op::CANCEL_TIMER) => field(buf, "cancel_timer", |b| {
                Ok(Self::System(SystemInstruction::CancelTimer {
                    timer_id: read_plain(b, "timer_id")?,
                }))
            }),
            (category::SYSTEM, system_op::RUNNER_REGISTER) => field(buf, "runner_register", |b| {
                Ok(Self::System(SystemInstruction::RunnerRegister {
                    profile: Box::new(read_plain(b, "profile")?),
                    stake: read_u64_be(b, "stake")?,
                }))
            }),
            (category::SYSTEM, system_op::RUNNER_UPDATE) => field(buf, "runner_update", |b| {
                Ok(Self::System(SystemInstruction::RunnerUpdate {
                    profile: Box::new(read_plain(b, "profile")?),
                }))
            }),
            (category::SYSTEM, system_op::JOB_SUBMIT) => field(buf, "job_submit", |b| {
                Ok(Self::System(SystemInstruction::JobSubmit {
                    spec: Box::new(read_plain(b, "spec")?),
                }))
            }),
            (category::SYSTEM, system_op::JOB_COMMIT) => field(buf, "job_commit", |b| {
                Ok(Self::System(SystemInstruction::JobCommit {
                    job_id: read_plain(b, "job_id")?,
                    commitment: read_plain(b, "commitment")?,
                }))
            }),
            (category::SYSTEM, system_op::JOB_REVEAL) => field(buf, "job_reveal", |b| {
                Ok(Self::System(SystemInstruction::JobReveal {
                    job_id: read_plain(b, "job_id")?,
                    reveals: read_plain(b, "reveals")?,
                }))
            }),
            (category::SYSTEM, system_op::JOB_CHALLENGE) => field(buf, "job_challenge", |b| {
                Ok(Self::System(SystemInstruction::JobChallenge {
                    job_id: read_plain(b, "job_id")?,
                    bond: read_u64_be(b, "bond")?,
                }))
            }),
            (category::SYSTEM, system_op::RUNNER_HEARTBEAT) => {
                Ok(Self::System(SystemInstruction::RunnerHeartbeat))
            }
            (category::SYSTEM, system_op::RUNNER_ADD_STAKE) => {
                field(buf, "runner_add_stake", |b| {
                    Ok(Self::System(SystemInstruction::RunnerAddStake {
                        amount: read_u64_be(b, "amount")?,
                    }))
                })
            }
            (category::SYSTEM, system_op::RUNNER_WITHDRAW_STAKE) => {
                field(buf, "runner_withdraw_stake", |b| {
                    Ok(Self::System(SystemInstruction::RunnerWithdrawStake {
                        amount: read_u64_be(b, "amount")?,
                    }))
                })
            }
            (category::SYSTEM, system_op::RUNNER_EXIT) => {
                Ok(Self::System(SystemInstruction::RunnerExit))
            }
            (category::SYSTEM, system_op::RUNNER_CLAIM) => {
                Ok(Self::System(SystemInstruction::RunnerClaim))
            }
            (category::SYSTEM, system_op::RUNNER_ATTEST) => field(buf, "runner_attest", |b| {
                Ok(Self::System(SystemInstruction::RunnerAttest {
                    attestation: Box::new(read_plain(b, "attestation")?),
                }))
            }),
            (category::ACTOR, actor_op::DEPLOY) => field(buf, "deploy", |b| {
                Ok(Self::Actor(ActorInstruction::Deploy {
                    code: read_string(b, "code", MAX_CODE_SIZE)?,
                    salt: read_plain(b, "salt")?,
                    init_args: read_bytes(b, "init_args", MAX_ARGS_SIZE)?,
                    value: read_u64_be(b, "value")?,
                    entitlements: read_plain(b, "entitlements")?,
                }))
            }),
            (category::ACTOR, actor_op::MESSAGE) => field(buf, "call", |b| {
                Ok(Self::Actor(ActorInstruction::Message {
                    to: read_plain(b, "to")?,
                    method: read_string(b, "method", MAX_METHOD_NAME_LEN)?,
                    args: read_bytes(b, "args", MAX_ARGS_SIZE)?,
                    value: read_u64_be(b, "value")?,
                }))
            }),
            // Custom and Library are reserved categories with no sub-types defined in v1.
            _ => Err(positioned(
                "sub_type",
                sub_start,
                CodecError::InvalidEnum(sub),
            )),
        }
    }
}
