//! The runner's job journal (redb): for every job it commits to, the reveal it committed to
//! (result, salt, usage) and the signed commit transaction, written and made durable *before*
//! the transaction is sent. After a crash the runner sends the very same transaction again (the
//! chain takes one transaction per nonce, so it cannot commit twice) and reveals from the
//! journal; it never re-runs a job it has a journal entry for.

use cowboy_types::{Hash, job::Reveal};
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Job id → [`Entry`] as JSON.
const JOBS: TableDefinition<&[u8; 32], &[u8]> = TableDefinition::new("jobs");

/// Where a job stands for this runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The commit transaction is signed and about to be (or was) sent.
    Committing,
    /// The reveal transaction carrying this runner's result was sent.
    Revealing,
    /// The job left the runner's hands (settled, failed, or past its deadlines).
    Done,
}

/// One job's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub job_id: Hash,
    pub stage: Stage,
    /// What the runner committed to.
    pub reveal: Reveal,
    /// The signed commit transaction (canonical bytes, hex in JSON).
    pub commit_tx: cowboy_types::json::HexBytes,
    pub commit_hash: Hash,
    /// How many draws the job had when this runner committed. A commit still pending under a
    /// later draw was never taken (a retry keeps the commitments it found; a dispute's
    /// committee is fresh), so it is not sent again.
    #[serde(default)]
    pub draws: u32,
    /// The last reveal transaction sent, if any.
    #[serde(default)]
    pub reveal_hash: Option<Hash>,
    /// What the job paid this runner, once settled (base units).
    #[serde(default)]
    pub earned: u64,
}

/// Why the journal failed; the runner stops rather than act without it.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("job journal {path}: {message}")]
    Open { path: String, message: String },
    #[error("job journal: {0}")]
    Io(String),
    #[error("job journal entry for {0} is damaged: {1}")]
    Damaged(Hash, String),
}

fn io(e: impl std::fmt::Display) -> JournalError {
    JournalError::Io(e.to_string())
}

/// An open journal.
pub struct Journal {
    db: Database,
}

impl Journal {
    /// Opens or creates the journal at `path`.
    pub fn open(path: &Path) -> Result<Self, JournalError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| JournalError::Open {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
        }
        let db = Database::create(path).map_err(|e| JournalError::Open {
            path: path.display().to_string(),
            message: format!(
                "{e} (another runner using the same journal? each runner needs its own)"
            ),
        })?;
        let txn = db.begin_write().map_err(io)?;
        txn.open_table(JOBS).map_err(io)?;
        txn.commit().map_err(io)?;
        Ok(Self { db })
    }

    /// Writes `entry` durably (returns once it is on disk).
    pub fn put(&self, entry: &Entry) -> Result<(), JournalError> {
        let bytes = serde_json::to_vec(entry).map_err(io)?;
        let txn = self.db.begin_write().map_err(io)?;
        {
            let mut table = txn.open_table(JOBS).map_err(io)?;
            table
                .insert(&entry.job_id.0, bytes.as_slice())
                .map_err(io)?;
        }
        txn.commit().map_err(io)
    }

    /// The entry for `job_id`, if any.
    pub fn get(&self, job_id: &Hash) -> Result<Option<Entry>, JournalError> {
        let txn = self.db.begin_read().map_err(io)?;
        let table = txn.open_table(JOBS).map_err(io)?;
        match table.get(&job_id.0).map_err(io)? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(v.value())
                .map(Some)
                .map_err(|e| JournalError::Damaged(*job_id, e.to_string())),
        }
    }

    /// Every entry not yet [`Stage::Done`].
    pub fn open_entries(&self) -> Result<Vec<Entry>, JournalError> {
        let txn = self.db.begin_read().map_err(io)?;
        let table = txn.open_table(JOBS).map_err(io)?;
        let mut out = Vec::new();
        for item in table.iter().map_err(io)? {
            let (k, v) = item.map_err(io)?;
            let entry: Entry = serde_json::from_slice(v.value())
                .map_err(|e| JournalError::Damaged(Hash(*k.value()), e.to_string()))?;
            if entry.stage != Stage::Done {
                out.push(entry);
            }
        }
        Ok(out)
    }

    /// How many entries there are in each stage, and what settled jobs paid in all.
    pub fn summary(&self) -> Result<Summary, JournalError> {
        let txn = self.db.begin_read().map_err(io)?;
        let table = txn.open_table(JOBS).map_err(io)?;
        let mut s = Summary::default();
        for item in table.iter().map_err(io)? {
            let (k, v) = item.map_err(io)?;
            let entry: Entry = serde_json::from_slice(v.value())
                .map_err(|e| JournalError::Damaged(Hash(*k.value()), e.to_string()))?;
            match entry.stage {
                Stage::Committing => s.committing += 1,
                Stage::Revealing => s.revealing += 1,
                Stage::Done => s.done += 1,
            }
            s.earned = s.earned.saturating_add(entry.earned);
        }
        Ok(s)
    }
}

/// Counts of journal entries.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Summary {
    pub committing: u64,
    pub revealing: u64,
    pub done: u64,
    #[serde(with = "cowboy_types::runner::amount")]
    pub earned: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowboy_types::{Address, bounded::Bytes};

    fn entry(id: u8) -> Entry {
        let reveal = Reveal {
            runner: Address([1; 20]),
            result: Bytes::new(b"{\"usd\":1}".to_vec()).expect("fits"),
            salt: Hash([id; 32]),
            tokens: 0,
            ms: 5,
            embedding: Default::default(),
            fault: None,
        };
        Entry {
            job_id: Hash([id; 32]),
            stage: Stage::Committing,
            commit_hash: reveal.commitment(),
            draws: 1,
            reveal,
            commit_tx: cowboy_types::json::HexBytes(vec![1, 2, 3]),
            reveal_hash: None,
            earned: 0,
        }
    }

    #[test]
    fn entries_survive_reopening_and_done_ones_are_not_open() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("j.redb");
        {
            let j = Journal::open(&path).expect("open");
            j.put(&entry(1)).expect("put");
            let mut done = entry(2);
            done.stage = Stage::Done;
            done.earned = 7;
            j.put(&done).expect("put");
        }
        let j = Journal::open(&path).expect("reopen");
        assert_eq!(j.get(&Hash([1; 32])).expect("get"), Some(entry(1)));
        assert_eq!(j.open_entries().expect("open").len(), 1);
        let s = j.summary().expect("summary");
        assert_eq!((s.committing, s.done, s.earned), (1, 1, 7));
    }
}
