//! The transaction (whitepaper §2.1) and its canonical encoding (§2.5, Appendix A).
//!
//! Fields are encoded as a flat concatenation in the frozen order of §2.5. The signing hash is
//! keccak256 of that encoding with the primary signature and every additional signer's signature
//! zeroed (addresses kept); the transaction's identity (digest) is the same value, so it does not
//! depend on any signature.

use crate::{
    codec::{
        DecodeError, Rule, bytes_size, decode_strict, positioned, read_bytes, read_list,
        read_plain, read_tag, read_varint, varint_size, write_bytes, write_list, write_varint,
    },
    constants::{
        MAX_ACCESS_LIST_ENTRIES, MAX_ACCESS_LIST_KEYS, MAX_ADDITIONAL_SIGNERS, MAX_METADATA_SIZE,
        MAX_TX_SIZE,
    },
    instruction::Instruction,
    primitives::{Address, Hash, Signature, keccak256},
};
use bytes::BufMut;
use commonware_codec::{Buf, Encode, EncodeSize, Error as CodecError, Read, ReadExt, Write};

/// One reserved access-list entry: an address and storage keys it will touch (v1: advisory,
/// never enforced).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessListEntry {
    pub address: Address,
    pub storage_keys: Vec<Hash>,
}

/// Provenance of a system-injected deferred transaction. Present only on such transactions,
/// which are not signature-verified; the three `origin_*` fields are present together or not at
/// all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub tx_hash: Hash,
    pub remaining_cycles: u64,
    pub remaining_cells: u64,
}

/// A co-signer and its signature over the same signing hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdditionalSigner {
    pub address: Address,
    pub signature: Signature,
}

/// A Cowboy transaction with every field of whitepaper §2.1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transaction {
    pub chain_id: u64,
    pub nonce: u64,
    pub instruction: Instruction,
    pub cycles_limit: u64,
    pub cells_limit: u64,
    pub max_fee_per_cycle: u64,
    pub max_fee_per_cell: u64,
    pub max_priority_fee_per_cycle: u64,
    pub max_priority_fee_per_cell: u64,
    pub from: Address,
    pub access_list: Option<Vec<AccessListEntry>>,
    pub metadata: Vec<u8>,
    pub origin: Option<Origin>,
    pub signature: Signature,
    pub additional_signers: Vec<AdditionalSigner>,
}

impl Transaction {
    /// The canonical encoding (§2.5).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.encode().to_vec()
    }

    /// Strictly decodes a canonical encoding, explaining any rejection by field, offset and rule.
    pub fn decode_strict(bytes: &[u8]) -> Result<Self, DecodeError> {
        if bytes.len() > MAX_TX_SIZE {
            return Err(DecodeError {
                field: String::new(),
                offset: 0,
                rule: Rule::TooLarge {
                    size: bytes.len(),
                    max: MAX_TX_SIZE,
                },
            });
        }
        decode_strict(bytes)
    }

    /// The signing preimage: the canonical encoding with every signature zeroed.
    pub fn signing_preimage(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encode_size());
        self.write_fields(&mut out, true);
        out
    }

    /// `keccak256` of the signing preimage: what every signer signs (§2.5).
    pub fn signing_hash(&self) -> Hash {
        keccak256(&self.signing_preimage())
    }

    /// The transaction's identity, equal to its signing hash (signature-independent).
    pub fn digest(&self) -> Hash {
        self.signing_hash()
    }

    /// Whether `additional_signers` is strictly ascending by address (no duplicates), as
    /// §2.2(e) requires.
    pub fn additional_signers_are_ordered(&self) -> bool {
        self.additional_signers
            .windows(2)
            .all(|w| w[0].address < w[1].address)
    }

    fn write_fields(&self, buf: &mut impl BufMut, zero_signatures: bool) {
        write_varint(self.chain_id, buf);
        write_varint(self.nonce, buf);
        self.instruction.write(buf);
        write_varint(self.cycles_limit, buf);
        write_varint(self.cells_limit, buf);
        write_varint(self.max_fee_per_cycle, buf);
        write_varint(self.max_fee_per_cell, buf);
        write_varint(self.max_priority_fee_per_cycle, buf);
        write_varint(self.max_priority_fee_per_cell, buf);
        self.from.write(buf);
        self.access_list.is_some().write(buf);
        if let Some(list) = &self.access_list {
            write_list(list, buf, |entry, buf| {
                entry.address.write(buf);
                write_list(&entry.storage_keys, buf, |k, buf| k.write(buf));
            });
        }
        write_bytes(&self.metadata, buf);
        match &self.origin {
            None => buf.put_slice(&[0, 0, 0]),
            Some(o) => {
                buf.put_u8(1);
                o.tx_hash.write(buf);
                buf.put_u8(1);
                write_varint(o.remaining_cycles, buf);
                buf.put_u8(1);
                write_varint(o.remaining_cells, buf);
            }
        }
        let sig = |s: &Signature| if zero_signatures { Signature::ZERO } else { *s };
        sig(&self.signature).write(buf);
        write_list(&self.additional_signers, buf, |s, buf| {
            s.address.write(buf);
            sig(&s.signature).write(buf);
        });
    }
}

impl Write for Transaction {
    fn write(&self, buf: &mut impl BufMut) {
        self.write_fields(buf, false);
    }
}

impl EncodeSize for Transaction {
    fn encode_size(&self) -> usize {
        varint_size(self.chain_id)
            + varint_size(self.nonce)
            + self.instruction.encode_size()
            + varint_size(self.cycles_limit)
            + varint_size(self.cells_limit)
            + varint_size(self.max_fee_per_cycle)
            + varint_size(self.max_fee_per_cell)
            + varint_size(self.max_priority_fee_per_cycle)
            + varint_size(self.max_priority_fee_per_cell)
            + Address::LEN
            + 1
            + self.access_list.as_ref().map_or(0, |list| {
                list.len().encode_size()
                    + list
                        .iter()
                        .map(|e| {
                            Address::LEN
                                + e.storage_keys.len().encode_size()
                                + e.storage_keys.len() * Hash::LEN
                        })
                        .sum::<usize>()
            })
            + bytes_size(&self.metadata)
            + self.origin.as_ref().map_or(3, |o| {
                3 + Hash::LEN + varint_size(o.remaining_cycles) + varint_size(o.remaining_cells)
            })
            + Signature::LEN
            + self.additional_signers.len().encode_size()
            + self.additional_signers.len() * (Address::LEN + Signature::LEN)
    }
}

impl Read for Transaction {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        let start = buf.remaining();
        let chain_id = read_varint(buf, "chain_id")?;
        let nonce = read_varint(buf, "nonce")?;
        let instruction = read_plain(buf, "instruction")?;
        let cycles_limit = read_varint(buf, "cycles_limit")?;
        let cells_limit = read_varint(buf, "cells_limit")?;
        let max_fee_per_cycle = read_varint(buf, "max_fee_per_cycle")?;
        let max_fee_per_cell = read_varint(buf, "max_fee_per_cell")?;
        let max_priority_fee_per_cycle = read_varint(buf, "max_priority_fee_per_cycle")?;
        let max_priority_fee_per_cell = read_varint(buf, "max_priority_fee_per_cell")?;
        let from = read_plain(buf, "from")?;
        let access_list = if read_tag(buf, "access_list")? {
            Some(read_list(
                buf,
                "access_list",
                MAX_ACCESS_LIST_ENTRIES,
                |b| {
                    Ok(AccessListEntry {
                        address: read_plain(b, "address")?,
                        storage_keys: read_list(b, "storage_keys", MAX_ACCESS_LIST_KEYS, |b| {
                            Hash::read(b)
                        })?,
                    })
                },
            )?)
        } else {
            None
        };
        let metadata = read_bytes(buf, "metadata", MAX_METADATA_SIZE)?;
        let origin_start = buf.remaining();
        let tx_hash = if read_tag(buf, "origin_tx_hash")? {
            Some(read_plain::<Hash>(buf, "origin_tx_hash")?)
        } else {
            None
        };
        let remaining_cycles = if read_tag(buf, "origin_remaining_cycles")? {
            Some(read_varint(buf, "origin_remaining_cycles")?)
        } else {
            None
        };
        let remaining_cells = if read_tag(buf, "origin_remaining_cells")? {
            Some(read_varint(buf, "origin_remaining_cells")?)
        } else {
            None
        };
        let origin = match (tx_hash, remaining_cycles, remaining_cells) {
            (None, None, None) => None,
            (Some(tx_hash), Some(remaining_cycles), Some(remaining_cells)) => Some(Origin {
                tx_hash,
                remaining_cycles,
                remaining_cells,
            }),
            _ => {
                return Err(positioned(
                    "origin",
                    origin_start,
                    CodecError::Invalid(
                        "origin",
                        "origin_tx_hash, origin_remaining_cycles and origin_remaining_cells \
                         must be all present (deferred system tx) or all absent",
                    ),
                ));
            }
        };
        let signature = read_plain(buf, "signature")?;
        let additional_signers =
            read_list(buf, "additional_signers", MAX_ADDITIONAL_SIGNERS, |b| {
                Ok(AdditionalSigner {
                    address: read_plain(b, "address")?,
                    signature: read_plain(b, "signature")?,
                })
            })?;
        let size = start - buf.remaining();
        if size > MAX_TX_SIZE {
            return Err(positioned(
                "transaction",
                start,
                CodecError::Invalid(
                    "transaction",
                    "encoding is above max_tx_size (131072 bytes)",
                ),
            ));
        }
        Ok(Self {
            chain_id,
            nonce,
            instruction,
            cycles_limit,
            cells_limit,
            max_fee_per_cycle,
            max_fee_per_cell,
            max_priority_fee_per_cycle,
            max_priority_fee_per_cell,
            from,
            access_list,
            metadata,
            origin,
            signature,
            additional_signers,
        })
    }
}
