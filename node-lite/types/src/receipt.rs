//! Receipts and events: what executing one transaction produced (whitepaper §4, §17).

use crate::{
    codec::{
        bytes_size, positioned, read_bytes, read_discriminant, read_list, read_plain, read_string,
        read_tag, read_varint, varint_size, write_bytes, write_list, write_varint,
    },
    constants::MAX_TX_SIZE,
    primitives::{Address, Hash},
};
use bytes::BufMut;
use commonware_codec::{Buf, EncodeSize, Error as CodecError, Read, Write};

/// Largest return value, in bytes (whitepaper §5.4 / §7.1: on-chain return data ≤ 64 KiB).
pub const MAX_RETURN_DATA: usize = 64 * 1024;
/// Most topics on one event (Cowboy decision, as Ethereum's LOG4).
pub const MAX_EVENT_TOPICS: usize = 4;
/// Most events one transaction may emit (Cowboy decision).
pub const MAX_EVENTS_PER_TX: usize = 1_024;
/// Longest failure message kept in a receipt (Cowboy decision).
pub const MAX_FAILURE_MESSAGE: usize = 1_024;
/// Most message outcomes one receipt lists (the per-transaction fanout of 1,024 plus the
/// transaction's own message).
pub const MAX_DELIVERIES: usize = 1_025;

/// Declares [`FailureKind`] once: each kind's receipt code (explicit, never derived from
/// declaration order), its stable name (JSON, CLI, RPC) and what it means.
macro_rules! failure_kinds {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, )*) => {
        /// Why a transaction, message or timer firing failed: the `kind` of
        /// `Status::Failed` / `Outcome::Failed` in receipts. Codes 1–13 are failures inside the
        /// PVM (`cowboy_pvm::ErrorKind` is this type); codes 32 and up are the state
        /// transition's. Codes are consensus data: never renumber one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[repr(u8)]
        pub enum FailureKind {
            $( $(#[$doc])* $variant = $code, )*
        }

        impl FailureKind {
            /// Every kind, in code order.
            pub const ALL: &'static [FailureKind] = &[$( FailureKind::$variant, )*];

            /// The code stored in receipts.
            pub const fn code(self) -> u8 {
                self as u8
            }

            /// The stable name (`OutOfCycles`, `Skipped`, …), as JSON and the CLI show it.
            pub const fn name(self) -> &'static str {
                match self {
                    $( FailureKind::$variant => stringify!($variant), )*
                }
            }

            /// The name of the kind with receipt code `code`, or `Unknown` for a code this
            /// version does not know (one written by a later version).
            pub const fn name_of(code: u8) -> &'static str {
                match Self::from_code(code) {
                    Some(kind) => kind.name(),
                    None => "Unknown",
                }
            }

            /// The kind with this receipt code, if there is one.
            pub const fn from_code(code: u8) -> Option<FailureKind> {
                match code {
                    $( $code => Some(FailureKind::$variant), )*
                    _ => None,
                }
            }
        }
    };
}

failure_kinds! {
    /// The cycle budget ran out.
    OutOfCycles = 1,
    /// The cell budget ran out.
    OutOfCells = 2,
    /// The per-call memory limit (10 MiB) was crossed.
    MemoryLimit = 3,
    /// Python recursion deeper than 256 frames.
    RecursionLimit = 4,
    /// An integer exceeded 4,096 bits.
    IntegerOverflow = 5,
    /// The handler raised an exception.
    Exception = 6,
    /// The method is not a handler of the actor.
    HandlerNotFound = 7,
    /// The arguments are not a canonical list of values.
    InvalidArguments = 8,
    /// The return value (or a persisted attribute) cannot be canonically encoded.
    InvalidValue = 9,
    /// The encoded return value is larger than 64 KiB.
    ReturnTooLarge = 10,
    /// The source failed static validation.
    Validation = 11,
    /// The node's storage failed (not the actor's fault).
    Host = 12,
    /// The interpreter hit an internal error (a Rust panic) while running the call: the call
    /// fails deterministically on every node and is charged its whole cycle budget.
    VmPanic = 13,
    /// A value transfer or bond exceeds the balance.
    InsufficientBalance = 32,
    /// A message was sent to an address without an actor.
    NoActor = 33,
    /// A deploy's address already holds an actor.
    ActorExists = 34,
    /// The actor's storage would exceed its quota.
    QuotaExceeded = 35,
    /// A storage quota outside the allowed range was asked for.
    InvalidQuota = 36,
    /// The recipient already received a message with this id (dedup window).
    DuplicateMessage = 37,
    /// No pending timer with this id was created by the sender.
    TimerNotFound = 38,
    /// A timer's height, budget, handler or arguments are not acceptable.
    InvalidTimer = 39,
    /// The creator already has `max_timers_per_actor` pending timers.
    TimerLimit = 40,
    /// A deferred message's bid is below the lane basefee of the block it would run in.
    FeeTooLow = 41,
    /// The budget paying for a message ran out before it could be delivered.
    OutOfBudget = 42,
    /// The recipient's mailbox cannot take the message.
    MailboxFull = 43,
    /// The transaction is in a finalized block but was not valid when the block executed
    /// (signature, nonce, balance, fee, or its lane was full): nothing changed, no fee charged.
    Skipped = 44,
    /// The sender is already a registered runner (or an exited one whose record remains).
    RunnerExists = 45,
    /// The sender is not a registered runner.
    NotARunner = 46,
    /// A runner profile or stake operation breaks a registry rule (the message says which).
    InvalidRunner = 47,
    /// The stake would fall below `max(runner_stake_floor, 1.5 × max_job_value)`.
    StakeTooLow = 48,
    /// The runner has exited: it can only claim its unbonding stake.
    RunnerExited = 49,
    /// No unbonding stake is due yet.
    NothingToClaim = 50,
    /// A job spec is refused (the message names the field and the rule).
    InvalidJob = 51,
    /// Too few registered runners qualify for the job.
    NoRunners = 52,
    /// No job has this id.
    JobNotFound = 53,
    /// The sender may not take this step of the job (not on its committee, not its
    /// aggregator, its own reveal before the aggregator's window ended).
    NotOnCommittee = 54,
    /// The job is not waiting for this step (already committed or revealed, past its
    /// deadline, another status).
    WrongJobState = 55,
    /// The sender lacks the entitlement the operation needs: an actor submitting a job type
    /// its manifest did not declare, or a grant, revocation or delegation it may not make.
    MissingEntitlement = 56,
    /// An Entitlement Registry operation breaks a rule (the message says which).
    InvalidEntitlement = 57,
    /// No entitlement or role has this id.
    EntitlementNotFound = 58,
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The state transition's failure codes as plain bytes (what `Status::Failed { kind }` holds).
pub mod failure {
    use super::FailureKind;

    pub const INSUFFICIENT_BALANCE: u8 = FailureKind::InsufficientBalance.code();
    pub const NO_ACTOR: u8 = FailureKind::NoActor.code();
    pub const ACTOR_EXISTS: u8 = FailureKind::ActorExists.code();
    pub const QUOTA_EXCEEDED: u8 = FailureKind::QuotaExceeded.code();
    pub const INVALID_QUOTA: u8 = FailureKind::InvalidQuota.code();
    pub const DUPLICATE_MESSAGE: u8 = FailureKind::DuplicateMessage.code();
    pub const TIMER_NOT_FOUND: u8 = FailureKind::TimerNotFound.code();
    pub const INVALID_TIMER: u8 = FailureKind::InvalidTimer.code();
    pub const TIMER_LIMIT: u8 = FailureKind::TimerLimit.code();
    pub const FEE_TOO_LOW: u8 = FailureKind::FeeTooLow.code();
    pub const OUT_OF_BUDGET: u8 = FailureKind::OutOfBudget.code();
    pub const MAILBOX_FULL: u8 = FailureKind::MailboxFull.code();
    pub const SKIPPED: u8 = FailureKind::Skipped.code();
    pub const RUNNER_EXISTS: u8 = FailureKind::RunnerExists.code();
    pub const NOT_A_RUNNER: u8 = FailureKind::NotARunner.code();
    pub const INVALID_RUNNER: u8 = FailureKind::InvalidRunner.code();
    pub const STAKE_TOO_LOW: u8 = FailureKind::StakeTooLow.code();
    pub const RUNNER_EXITED: u8 = FailureKind::RunnerExited.code();
    pub const NOTHING_TO_CLAIM: u8 = FailureKind::NothingToClaim.code();
    pub const INVALID_JOB: u8 = FailureKind::InvalidJob.code();
    pub const NO_RUNNERS: u8 = FailureKind::NoRunners.code();
    pub const JOB_NOT_FOUND: u8 = FailureKind::JobNotFound.code();
    pub const NOT_ON_COMMITTEE: u8 = FailureKind::NotOnCommittee.code();
    pub const WRONG_JOB_STATE: u8 = FailureKind::WrongJobState.code();
    pub const MISSING_ENTITLEMENT: u8 = FailureKind::MissingEntitlement.code();
    pub const INVALID_ENTITLEMENT: u8 = FailureKind::InvalidEntitlement.code();
    pub const ENTITLEMENT_NOT_FOUND: u8 = FailureKind::EntitlementNotFound.code();
}

/// What became of one message a transaction (or timer, or deferred delivery) sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The handler ran and its effects committed.
    Delivered,
    /// The handler failed (its effects reverted; the message's value went back to the sender).
    Failed { kind: u8, message: String },
    /// Waiting in the recipient's mailbox for a later block.
    Deferred,
}

/// One message and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The message id, `keccak256(sender ‖ nonce ‖ msg_hash)`.
    pub id: Hash,
    pub to: Address,
    pub outcome: Outcome,
}

/// An event emitted by an actor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub emitter: Address,
    pub topics: Vec<Hash>,
    pub data: Vec<u8>,
}

/// How a transaction ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every effect committed.
    Success,
    /// Execution failed; every effect except the fee was reverted.
    Failed { kind: u8, message: String },
}

/// The outcome of one transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    pub tx_hash: Hash,
    pub status: Status,
    pub cycles_used: u64,
    pub cells_used: u64,
    /// Total fee charged (basefee burn plus tip), in base units.
    pub fee: u64,
    pub return_data: Vec<u8>,
    pub events: Vec<Event>,
    /// The address of the actor a deploy created.
    pub created: Option<Address>,
    /// Every message the transaction's execution handled, in order (its own message first).
    pub deliveries: Vec<Delivery>,
}

impl Write for Outcome {
    fn write(&self, buf: &mut impl BufMut) {
        match self {
            Self::Delivered => buf.put_u8(0),
            Self::Failed { kind, message } => {
                buf.put_u8(1);
                buf.put_u8(*kind);
                write_bytes(message.as_bytes(), buf);
            }
            Self::Deferred => buf.put_u8(2),
        }
    }
}
impl EncodeSize for Outcome {
    fn encode_size(&self) -> usize {
        match self {
            Self::Failed { message, .. } => 2 + bytes_size(message.as_bytes()),
            _ => 1,
        }
    }
}
impl Read for Outcome {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        let start = buf.remaining();
        match read_discriminant(buf, "outcome")? {
            0 => Ok(Self::Delivered),
            1 => Ok(Self::Failed {
                kind: read_discriminant(buf, "kind")?,
                message: read_string(buf, "message", MAX_FAILURE_MESSAGE)?,
            }),
            2 => Ok(Self::Deferred),
            other => Err(positioned("outcome", start, CodecError::InvalidEnum(other))),
        }
    }
}

impl Write for Delivery {
    fn write(&self, buf: &mut impl BufMut) {
        self.id.write(buf);
        self.to.write(buf);
        self.outcome.write(buf);
    }
}
impl EncodeSize for Delivery {
    fn encode_size(&self) -> usize {
        Hash::LEN + Address::LEN + self.outcome.encode_size()
    }
}
impl Read for Delivery {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            id: read_plain(buf, "id")?,
            to: read_plain(buf, "to")?,
            outcome: read_plain(buf, "outcome")?,
        })
    }
}

impl Write for Event {
    fn write(&self, buf: &mut impl BufMut) {
        self.emitter.write(buf);
        write_list(&self.topics, buf, |t, buf| t.write(buf));
        write_bytes(&self.data, buf);
    }
}
impl EncodeSize for Event {
    fn encode_size(&self) -> usize {
        Address::LEN + self.topics.encode_size() + bytes_size(&self.data)
    }
}
impl Read for Event {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            emitter: read_plain(buf, "emitter")?,
            topics: read_list(buf, "topics", MAX_EVENT_TOPICS, |b| Hash::read_cfg(b, &()))?,
            data: read_bytes(buf, "data", MAX_TX_SIZE)?,
        })
    }
}

impl Write for Status {
    fn write(&self, buf: &mut impl BufMut) {
        match self {
            Self::Success => buf.put_u8(0),
            Self::Failed { kind, message } => {
                buf.put_u8(1);
                buf.put_u8(*kind);
                write_bytes(message.as_bytes(), buf);
            }
        }
    }
}
impl EncodeSize for Status {
    fn encode_size(&self) -> usize {
        match self {
            Self::Success => 1,
            Self::Failed { message, .. } => 2 + bytes_size(message.as_bytes()),
        }
    }
}
impl Read for Status {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        let start = buf.remaining();
        match read_discriminant(buf, "status")? {
            0 => Ok(Self::Success),
            1 => Ok(Self::Failed {
                kind: read_discriminant(buf, "kind")?,
                message: read_string(buf, "message", MAX_FAILURE_MESSAGE)?,
            }),
            other => Err(positioned("status", start, CodecError::InvalidEnum(other))),
        }
    }
}

impl Write for Receipt {
    fn write(&self, buf: &mut impl BufMut) {
        self.tx_hash.write(buf);
        self.status.write(buf);
        write_varint(self.cycles_used, buf);
        write_varint(self.cells_used, buf);
        write_varint(self.fee, buf);
        write_bytes(&self.return_data, buf);
        write_list(&self.events, buf, |e, buf| e.write(buf));
        self.created.write(buf);
        write_list(&self.deliveries, buf, |d, buf| d.write(buf));
    }
}
impl EncodeSize for Receipt {
    fn encode_size(&self) -> usize {
        Hash::LEN
            + self.status.encode_size()
            + varint_size(self.cycles_used)
            + varint_size(self.cells_used)
            + varint_size(self.fee)
            + bytes_size(&self.return_data)
            + self.events.encode_size()
            + self.created.encode_size()
            + self.deliveries.encode_size()
    }
}
impl Read for Receipt {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            tx_hash: read_plain(buf, "tx_hash")?,
            status: read_plain(buf, "status")?,
            cycles_used: read_varint(buf, "cycles_used")?,
            cells_used: read_varint(buf, "cells_used")?,
            fee: read_varint(buf, "fee")?,
            return_data: read_bytes(buf, "return_data", MAX_RETURN_DATA)?,
            events: read_list(buf, "events", MAX_EVENTS_PER_TX, |b| {
                Event::read_cfg(b, &())
            })?,
            created: if read_tag(buf, "created")? {
                Some(read_plain(buf, "created")?)
            } else {
                None
            },
            deliveries: read_list(buf, "deliveries", MAX_DELIVERIES, |b| {
                Delivery::read_cfg(b, &())
            })?,
        })
    }
}
