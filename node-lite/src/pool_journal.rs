//! The transaction pool on disk: every admitted transaction survives a restart or a crash of
//! the node.
//!
//! `data/pool.journal` is a sequence of records `[length: u32 LE][crc32: u32 LE][the signed
//! transaction]`. An admission appends one record before the node answers (the write reaches
//! the operating system, so it survives the node's process being killed; it is flushed to the
//! device at shutdown and when the journal is rewritten). Transactions that leave the pool are
//! not written: the journal is rewritten from the pool once it holds more than twice what the
//! pool does. At start the node reads the journal and admits each transaction again through the
//! normal checks (those whose nonce the chain has used meanwhile are dropped); a record cut
//! short or damaged by a crash ends the journal there, and the file is truncated to its last
//! whole record.

use std::{
    fs::{File, OpenOptions},
    io::{self, Read as _, Write as _},
    path::{Path, PathBuf},
};

/// The journal's file name in the data directory.
pub const FILE: &str = "pool.journal";
/// Largest record accepted when reading (a transaction is at most 128 KiB).
const MAX_RECORD: usize = 1 << 20;

/// An open journal.
pub struct PoolJournal {
    path: PathBuf,
    file: File,
    bytes: u64,
}

/// What reading a journal found.
pub struct Recovered {
    /// The transactions, oldest first.
    pub transactions: Vec<Vec<u8>>,
    /// Bytes of a damaged or cut-off tail that were dropped.
    pub dropped_tail: u64,
}

impl PoolJournal {
    /// Opens (or creates) the journal in `dir`, returning what it held.
    pub fn open(dir: &Path) -> io::Result<(Self, Recovered)> {
        let path = dir.join(FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let mut transactions = Vec::new();
        let mut at = 0usize;
        while let Some(record) = record_at(&bytes, at) {
            transactions.push(record.to_vec());
            at += 8 + record.len();
        }
        let dropped_tail = (bytes.len() - at) as u64;
        if dropped_tail > 0 {
            tracing::warn!(
                path = %path.display(),
                dropped_bytes = dropped_tail,
                "the pool journal ends in a damaged record (a crash while writing); truncated to its last whole record"
            );
            file.set_len(at as u64)?;
        }
        Ok((
            Self {
                path,
                file,
                bytes: at as u64,
            },
            Recovered {
                transactions,
                dropped_tail,
            },
        ))
    }

    /// Appends one admitted transaction. A write that fails part way (a full disk) is cut
    /// back off, so the records appended after it are not hidden behind a damaged one.
    pub fn append(&mut self, raw: &[u8]) -> io::Result<()> {
        let record = encode(raw);
        if let Err(e) = self.file.write_all(&record) {
            // Truncating frees space; it cannot need any.
            if let Err(cut) = self.file.set_len(self.bytes) {
                tracing::warn!(error = %cut, "cannot cut a partly written pool journal record");
            }
            return Err(e);
        }
        self.bytes += record.len() as u64;
        Ok(())
    }

    /// Bytes the journal holds.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Replaces the journal with exactly `transactions` (temporary file, flushed, renamed).
    pub fn rewrite<'a>(&mut self, transactions: impl Iterator<Item = &'a [u8]>) -> io::Result<()> {
        let tmp = self.path.with_extension("journal.tmp");
        let mut out = File::create(&tmp)?;
        let mut bytes = 0u64;
        for raw in transactions {
            let record = encode(raw);
            out.write_all(&record)?;
            bytes += record.len() as u64;
        }
        out.sync_all()?;
        std::fs::rename(&tmp, &self.path)?;
        self.file = OpenOptions::new()
            .append(true)
            .read(true)
            .open(&self.path)?;
        self.bytes = bytes;
        Ok(())
    }

    /// Flushes what was appended to the device.
    pub fn sync(&self) -> io::Result<()> {
        self.file.sync_data()
    }
}

fn encode(raw: &[u8]) -> Vec<u8> {
    let mut record = Vec::with_capacity(8 + raw.len());
    record.extend_from_slice(&(raw.len() as u32).to_le_bytes());
    record.extend_from_slice(&crc32fast::hash(raw).to_le_bytes());
    record.extend_from_slice(raw);
    record
}

/// The record starting at `at`, if it is whole and its checksum matches.
fn record_at(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let header = bytes.get(at..at + 8)?;
    let len = u32::from_le_bytes(header[..4].try_into().ok()?) as usize;
    let crc = u32::from_le_bytes(header[4..].try_into().ok()?);
    if len > MAX_RECORD {
        return None;
    }
    let body = bytes.get(at + 8..at + 8 + len)?;
    (crc32fast::hash(body) == crc).then_some(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_survive_reopening_and_a_torn_tail_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        {
            let (mut j, r) = PoolJournal::open(dir.path()).unwrap();
            assert!(r.transactions.is_empty());
            j.append(b"first").unwrap();
            j.append(b"second").unwrap();
        }
        // A crash in the middle of a third record.
        let path = dir.path().join(FILE);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&encode(b"third")[..7]).unwrap();
        drop(f);
        let (mut j, r) = PoolJournal::open(dir.path()).unwrap();
        assert_eq!(r.transactions, vec![b"first".to_vec(), b"second".to_vec()]);
        assert_eq!(r.dropped_tail, 7);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), j.bytes());
        // Rewritten to what the pool still holds.
        j.rewrite([b"second".as_slice()].into_iter()).unwrap();
        j.append(b"fourth").unwrap();
        let (_, r) = PoolJournal::open(dir.path()).unwrap();
        assert_eq!(r.transactions, vec![b"second".to_vec(), b"fourth".to_vec()]);
    }

    #[test]
    fn a_flipped_byte_ends_the_journal_there() {
        let dir = tempfile::tempdir().unwrap();
        {
            let (mut j, _) = PoolJournal::open(dir.path()).unwrap();
            j.append(b"one").unwrap();
            j.append(b"two").unwrap();
        }
        let path = dir.path().join(FILE);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&path, bytes).unwrap();
        let (_, r) = PoolJournal::open(dir.path()).unwrap();
        assert_eq!(r.transactions, vec![b"one".to_vec()]);
    }
}
