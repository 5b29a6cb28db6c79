//! Block and header shapes, as far as the spec fixes them (whitepaper §6, STF section).
//!
//! The header carries the parent beacon (the verified threshold-VRF seed of the round before the
//! proposal round, never a height-addressed seed), a keccak256 root over its transactions and a
//! commitment to the post-state of an executed height (`state_height`: its own height when a
//! block is built and executed at once, the proposer's newest executed finalized height under
//! consensus, where blocks execute only once finalized).

use crate::{
    codec::{read_list, read_plain, read_varint, varint_size, write_list, write_varint},
    primitives::{Address, Hash, keccak256},
    transaction::Transaction,
};
use bytes::BufMut;
use commonware_codec::{Buf, Encode, EncodeSize, Error as CodecError, Read, Write};

/// Length of a BLS12-381 G1 signature (the `MinSig` variant's seed signature).
pub const BEACON_SIGNATURE_LEN: usize = 48;

/// Most transactions one block may carry (bounded by the lane budgets: 80,000,000 cycles /
/// 21,000 per transfer = 3,809, §17.9; rounded up for headroom).
pub const MAX_BLOCK_TRANSACTIONS: usize = 4_096;

/// A consensus round: the epoch and the view within it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Round {
    pub epoch: u64,
    pub view: u64,
}

/// The execution-readable beacon: the threshold seed of `round` (the round before the block's
/// proposal round).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Beacon {
    pub round: Round,
    pub signature: [u8; BEACON_SIGNATURE_LEN],
}

/// A block header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub parent: Hash,
    pub height: u64,
    /// The round in which this block was proposed.
    pub round: Round,
    pub timestamp_ms: u64,
    /// Reward address of the validator that proposed the block: it receives the tips (§8.4).
    pub proposer: Address,
    pub beacon: Beacon,
    /// keccak256 binary Merkle root over the transaction digests.
    pub tx_root: Hash,
    /// The height whose post-state `state_root`, `receipts_root` and the basefees describe.
    /// A block built and executed in one step (a single operator, tests) commits to its own
    /// post-state (`state_height == height`); under consensus, blocks execute only once
    /// finalized, so a proposer commits to the newest finalized height it has executed
    /// (`state_height < height`) and verifiers check the claim against their own execution.
    pub state_height: u64,
    /// blake3 state root after executing block `state_height`.
    pub state_root: Hash,
    /// keccak256 root over the receipts block `state_height` produced.
    pub receipts_root: Hash,
    /// The basefees block `state_height` executed at.
    pub cycle_basefee: u64,
    pub cell_basefee: u64,
}

/// A block: header and ordered transactions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub header: Header,
    pub transactions: Vec<Transaction>,
}

impl Header {
    /// The block's identity: keccak256 of the encoded header.
    pub fn digest(&self) -> Hash {
        keccak256(&self.encode())
    }
}

impl Write for Round {
    fn write(&self, buf: &mut impl BufMut) {
        write_varint(self.epoch, buf);
        write_varint(self.view, buf);
    }
}
impl EncodeSize for Round {
    fn encode_size(&self) -> usize {
        varint_size(self.epoch) + varint_size(self.view)
    }
}
impl Read for Round {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            epoch: read_varint(buf, "epoch")?,
            view: read_varint(buf, "view")?,
        })
    }
}

impl Write for Beacon {
    fn write(&self, buf: &mut impl BufMut) {
        self.round.write(buf);
        buf.put_slice(&self.signature);
    }
}
impl EncodeSize for Beacon {
    fn encode_size(&self) -> usize {
        self.round.encode_size() + BEACON_SIGNATURE_LEN
    }
}
impl Read for Beacon {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            round: read_plain(buf, "round")?,
            signature: read_plain(buf, "signature")?,
        })
    }
}

impl Write for Header {
    fn write(&self, buf: &mut impl BufMut) {
        self.parent.write(buf);
        write_varint(self.height, buf);
        self.round.write(buf);
        write_varint(self.timestamp_ms, buf);
        self.proposer.write(buf);
        self.beacon.write(buf);
        self.tx_root.write(buf);
        write_varint(self.state_height, buf);
        self.state_root.write(buf);
        self.receipts_root.write(buf);
        write_varint(self.cycle_basefee, buf);
        write_varint(self.cell_basefee, buf);
    }
}
impl EncodeSize for Header {
    fn encode_size(&self) -> usize {
        Hash::LEN * 4
            + Address::LEN
            + varint_size(self.height)
            + self.round.encode_size()
            + varint_size(self.timestamp_ms)
            + varint_size(self.state_height)
            + self.beacon.encode_size()
            + varint_size(self.cycle_basefee)
            + varint_size(self.cell_basefee)
    }
}
impl Read for Header {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            parent: read_plain(buf, "parent")?,
            height: read_varint(buf, "height")?,
            round: read_plain(buf, "round")?,
            timestamp_ms: read_varint(buf, "timestamp_ms")?,
            proposer: read_plain(buf, "proposer")?,
            beacon: read_plain(buf, "beacon")?,
            tx_root: read_plain(buf, "tx_root")?,
            state_height: read_varint(buf, "state_height")?,
            state_root: read_plain(buf, "state_root")?,
            receipts_root: read_plain(buf, "receipts_root")?,
            cycle_basefee: read_varint(buf, "cycle_basefee")?,
            cell_basefee: read_varint(buf, "cell_basefee")?,
        })
    }
}

impl Write for Block {
    fn write(&self, buf: &mut impl BufMut) {
        self.header.write(buf);
        write_list(&self.transactions, buf, |tx, buf| tx.write(buf));
    }
}
impl EncodeSize for Block {
    fn encode_size(&self) -> usize {
        self.header.encode_size() + self.transactions.encode_size()
    }
}
impl Read for Block {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            header: read_plain(buf, "header")?,
            transactions: read_list(buf, "transactions", MAX_BLOCK_TRANSACTIONS, |b| {
                Transaction::read_cfg(b, &())
            })?,
        })
    }
}
