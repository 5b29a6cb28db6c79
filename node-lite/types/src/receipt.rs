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

/// Failure kinds recorded in receipts (`Status::Failed { kind }`). Kinds 1–12 are the PVM's
/// (`cowboy_pvm::ErrorKind::code`: 1 OutOfCycles, 2 OutOfCells, 3 MemoryLimit, 4 RecursionLimit,
/// 5 IntegerOverflow, 6 Exception, 7 HandlerNotFound, 8 InvalidArguments, 9 InvalidValue,
/// 10 ReturnTooLarge, 11 Validation, 12 Host); the rest are the state transition's.
pub mod failure {
    /// A value transfer or bond exceeds the balance.
    pub const INSUFFICIENT_BALANCE: u8 = 32;
    /// A message was sent to an address without an actor.
    pub const NO_ACTOR: u8 = 33;
    /// A deploy's address already holds an actor.
    pub const ACTOR_EXISTS: u8 = 34;
    /// The actor's storage would exceed its quota.
    pub const QUOTA_EXCEEDED: u8 = 35;
    /// A storage quota outside the allowed range was asked for.
    pub const INVALID_QUOTA: u8 = 36;
    /// The recipient already received a message with this id (dedup window).
    pub const DUPLICATE_MESSAGE: u8 = 37;
    /// No pending timer with this id was created by the sender.
    pub const TIMER_NOT_FOUND: u8 = 38;
    /// A timer's height, budget, handler or arguments are not acceptable.
    pub const INVALID_TIMER: u8 = 39;
    /// The creator already has `max_timers_per_actor` pending timers.
    pub const TIMER_LIMIT: u8 = 40;
    /// A deferred message's bid is below the lane basefee of the block it would run in.
    pub const FEE_TOO_LOW: u8 = 41;
    /// The budget paying for a message ran out before it could be delivered.
    pub const OUT_OF_BUDGET: u8 = 42;
    /// The recipient's mailbox cannot take the message.
    pub const MAILBOX_FULL: u8 = 43;
    /// The transaction is in a finalized block but was not valid when the block executed
    /// (signature, nonce, balance, fee, or its lane was full): nothing changed, no fee charged.
    pub const SKIPPED: u8 = 44;
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
