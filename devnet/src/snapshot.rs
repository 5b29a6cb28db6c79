//! Devnet snapshots: node-0's state saved as a genesis file under `$COWBOY_HOME/snapshots`,
//! which `cowboy devnet up --from-snapshot` and `cowboy node init --genesis` start a new chain
//! from. What the file carries is [`cowboy_execution::snapshot`]'s business; this module names,
//! writes, lists and reads the files, and reads node-0's store.

use crate::{Devnet, DevnetError, Event, Result, io};
use cowboy_execution::{
    Genesis,
    snapshot::{Counts, Source},
};
use serde::Serialize;
use std::{
    path::{Path, PathBuf},
    time::Duration,
};

/// Where snapshots live, under `$COWBOY_HOME`.
pub const DIR: &str = "snapshots";

/// Longest snapshot name.
const MAX_NAME: usize = 64;

/// A snapshot written by [`Devnet::save_snapshot`].
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Saved {
    pub name: String,
    pub path: PathBuf,
    pub source: Source,
    #[serde(flatten)]
    pub counts: Counts,
    /// Whether node-0 was running, and so was stopped for the read and started again.
    pub restarted_node: bool,
}

/// One snapshot file, as [`list`] finds it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Listed {
    pub name: String,
    pub path: PathBuf,
    /// Where it was taken (`None`: the file is not a readable snapshot).
    pub source: Option<Source>,
    /// Why the file could not be read.
    pub error: Option<String>,
}

/// Checks a snapshot name: letters, digits, `.`, `-`, `_`, not starting with `.`.
pub fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if ok {
        Ok(())
    } else {
        Err(DevnetError::SnapshotName(name.to_string()))
    }
}

/// The file of snapshot `name`.
pub fn path(home: &Path, name: &str) -> PathBuf {
    home.join(DIR).join(format!("{name}.json"))
}

/// The snapshots under `home`, by name.
pub fn list(home: &Path) -> Vec<Listed> {
    let dir = home.join(DIR);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out: Vec<Listed> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let path = e.path();
            let name = path
                .file_name()?
                .to_str()?
                .strip_suffix(".json")?
                .to_string();
            let (source, error) = match Genesis::load(&path) {
                Ok(g) => match g.carried {
                    Some(c) => (Some(c.source), None),
                    None => (None, Some("a genesis without carried state".to_string())),
                },
                Err(e) => (None, Some(e.to_string())),
            };
            Some(Listed {
                name,
                path,
                source,
                error,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Reads a snapshot by name (under `home`) or by path (anything with a `/` or ending in
/// `.json`), checked as a genesis.
pub fn load(home: &Path, name_or_path: &str) -> Result<Genesis> {
    let file = if name_or_path.contains('/') || name_or_path.ends_with(".json") {
        PathBuf::from(name_or_path)
    } else {
        check_name(name_or_path)?;
        path(home, name_or_path)
    };
    if !file.is_file() {
        return Err(DevnetError::NoSnapshot {
            name: name_or_path.to_string(),
            path: file,
        });
    }
    Ok(Genesis::load(&file)?)
}

impl Devnet {
    /// Saves node-0's latest state as snapshot `name` under `home`. A running node-0 is
    /// stopped for the read (its redb file admits one process) and started again, ready,
    /// before this returns; the other nodes keep running. Refuses to replace an existing
    /// snapshot unless `overwrite`.
    pub fn save_snapshot(
        &self,
        home: &Path,
        name: &str,
        overwrite: bool,
        binary: &Path,
        timeout: Duration,
        on: &mut dyn FnMut(Event),
    ) -> Result<Saved> {
        check_name(name)?;
        let file = path(home, name);
        if file.exists() && !overwrite {
            return Err(DevnetError::SnapshotExists {
                name: name.to_string(),
                path: file,
            });
        }
        let state = self.existing()?;
        let node = state.nodes[0].name.clone();
        let restarted_node = self.stop_node(&node)?;
        let read = read_home(&state.nodes[0].home);
        if restarted_node {
            // Bring node-0 back whatever the read gave.
            self.start_node(&node, binary, timeout, on)?;
        }
        let saved = read?;
        write(&file, &saved.genesis)?;
        let carried = saved.genesis.carried.as_ref();
        Ok(Saved {
            name: name.to_string(),
            path: file,
            source: carried
                .map(|c| c.source.clone())
                .ok_or_else(|| DevnetError::Snapshot("nothing was carried".into()))?,
            counts: saved.counts,
            restarted_node,
        })
    }
}

/// Writes a snapshot to `file` whole, then renames it into place: a reader never sees half a
/// snapshot.
pub fn write(file: &Path, genesis: &Genesis) -> Result<()> {
    let text =
        serde_json::to_string_pretty(genesis).map_err(|e| DevnetError::Snapshot(e.to_string()))?;
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let partial = dir.join(format!(".{name}.partial"));
    std::fs::write(&partial, text + "\n").map_err(io(&partial))?;
    std::fs::rename(&partial, file).map_err(io(file))
}

/// The snapshot of a stopped node's state (the store in its home, `data/chain.redb`).
pub fn read_home(node_home: &Path) -> Result<cowboy_execution::snapshot::Saved> {
    let path = cowboy_node::node::Home(node_home.to_path_buf())
        .data()
        .join("chain.redb");
    let path = path.as_path();
    let fail =
        |e: &dyn std::fmt::Display| DevnetError::Snapshot(format!("{}: {e}", path.display()));
    let snap = cowboy_state::Store::read_latest(path).map_err(|e| fail(&e))?;
    let height = snap
        .height
        .ok_or_else(|| fail(&"the store has no genesis yet"))?;
    cowboy_execution::snapshot::save(&snap, height, snap.hash, snap.root).map_err(|e| fail(&e))
}
