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
        })
    }
}
