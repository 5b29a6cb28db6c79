//! Cowboy's consensus types and their canonical binary encoding.
//!
//! Everything hashed into a block, a state root or a receipt root is encoded here with
//! `commonware-codec` exactly as whitepaper §2.5 prescribes: fields in a frozen order, minimal
//! LEB128 varints for `u64` scalars, 8-byte big-endian amounts, raw fixed-width addresses, digests
//! and signatures, 1-byte option tags and bounded varint length prefixes. Decoding is strict:
//! every byte string has at most one meaning and at most one encoding.

pub mod actor;
pub mod block;
pub mod bounded;
pub mod codec;
pub mod constants;
pub mod entitlement;
pub mod extract;
pub mod instruction;
pub mod intrinsic;
pub mod job;
pub mod json;
pub mod limits;
pub mod primitives;
pub mod receipt;
pub mod runner;
pub mod state;
pub mod tee;
pub mod timer;
pub mod trace;
pub mod transaction;
pub mod units;

pub use actor::{
    actor_address, canonicalize_source, code_hash, is_canonical_source, is_handler_name, message_id,
};
pub use block::{Beacon, Block, Header, Round};
pub use codec::{DecodeError, Rule};
pub use instruction::{ActorInstruction, Instruction, SystemInstruction, TimerBid, TimerSpec};
pub use json::{JsonError, TransactionJson};
pub use primitives::{Address, Hash, ParseHexError, Signature, decode_hex, encode_hex, keccak256};
pub use receipt::{Delivery, Event, FailureKind, Outcome, Receipt, Status};
pub use state::{
    Account, ActorRecord, DeferredOrigin, MailboxMessage, StorageUsage, Supply, TimerRecord,
    Validator,
};
pub use transaction::{AccessListEntry, AdditionalSigner, Origin, Transaction};
