//! The block as consensus sees it: a Cowboy [`Block`] whose identity is the keccak256 digest
//! of its header (carried in Commonware's keccak256 digest type), whose height and parent come
//! from the header.

use bytes::BufMut;
use commonware_codec::{Buf, EncodeSize, Error as CodecError, Read, Write};
use commonware_consensus::{Heightable, types::Height};
use commonware_cryptography::{Digestible, keccak256::Digest};
use cowboy_types::{Block, Hash};

/// A block under consensus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainBlock(pub Block);

/// Our hash as a consensus digest.
pub fn to_digest(h: &Hash) -> Digest {
    Digest(h.0)
}

/// A consensus digest as our hash.
pub fn to_hash(d: &Digest) -> Hash {
    Hash(d.0)
}

impl Write for ChainBlock {
    fn write(&self, buf: &mut impl BufMut) {
        self.0.write(buf);
    }
}

impl EncodeSize for ChainBlock {
    fn encode_size(&self) -> usize {
        self.0.encode_size()
    }
}

impl Read for ChainBlock {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, cfg: &()) -> Result<Self, CodecError> {
        Block::read_cfg(buf, cfg).map(Self)
    }
}

impl Digestible for ChainBlock {
    type Digest = Digest;
    fn digest(&self) -> Digest {
        to_digest(&self.0.header.digest())
    }
}

impl Heightable for ChainBlock {
    fn height(&self) -> Height {
        Height::new(self.0.header.height)
    }
}

/// Largest encoded block accepted from the network: far above what a block's lanes allow
/// (80 M cycles of 21,000-cycle transfers is 3,809 transactions of a few hundred bytes).
pub const MAX_BLOCK_BYTES: usize = 32 * 1024 * 1024;

impl commonware_consensus::BoundedBlock for ChainBlock {
    fn max_encode_size(_: &()) -> usize {
        MAX_BLOCK_BYTES
    }
}

impl commonware_consensus::Block for ChainBlock {
    fn parent(&self) -> Digest {
        to_digest(&self.0.header.parent)
    }
}
