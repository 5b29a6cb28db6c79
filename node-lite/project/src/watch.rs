//! Watch mode (`cowboy test --watch`, `cowboy build --watch`, `cowboy deploy --watch`): waits
//! for a project's sources to change, debounced, so one save is one re-run.
//!
//! What counts: `cowboy.toml` and the `.py` and `.toml` files of the project, outside `build/`,
//! `typings/`, `target/` and hidden directories; editors' swap and backup files do not.
//! The events of one save (an editor's write, rename and attribute change) arrive within the
//! debounce window and come out as one batch.

use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    sync::mpsc,
    time::Duration,
};

/// How long a project must be quiet before a batch of changes is reported: longer than the
/// steps of one save, shorter than a person notices.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// Why watching failed.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot watch {path}: {error}")]
    Start { path: PathBuf, error: String },
    #[error("watching {path} failed: {error}")]
    Failed { path: PathBuf, error: String },
}

/// A watched project directory.
pub struct Watch {
    root: PathBuf,
    events: mpsc::Receiver<DebounceEventResult>,
    _debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
}

impl Watch {
    /// Starts watching `root` (recursively).
    pub fn new(root: &Path) -> Result<Self, WatchError> {
        let root = root.canonicalize().map_err(|e| WatchError::Start {
            path: root.to_path_buf(),
            error: e.to_string(),
        })?;
        let (tx, events) = mpsc::channel();
        let start = |e: notify::Error| WatchError::Start {
            path: root.clone(),
            error: e.to_string(),
        };
        let mut debouncer = new_debouncer(DEBOUNCE, None, tx).map_err(start)?;
        debouncer
            .watch(&root, RecursiveMode::Recursive)
            .map_err(start)?;
        Ok(Self {
            root,
            events,
            _debouncer: debouncer,
        })
    }

    /// Blocks until sources change; the changed files, relative to the project, sorted.
    pub fn changes(&mut self) -> Result<Vec<PathBuf>, WatchError> {
        loop {
            let batch = self.events.recv().map_err(|_| WatchError::Failed {
                path: self.root.clone(),
                error: "the watcher stopped".into(),
            })?;
            let events = batch.map_err(|errors| WatchError::Failed {
                path: self.root.clone(),
                error: errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
            })?;
            // Batches that arrived while the last run was running are one change.
            let mut events = events;
            while let Ok(more) = self.events.try_recv() {
                events.extend(more.unwrap_or_default());
            }
            let changed: BTreeSet<PathBuf> = events
                .iter()
                .filter(|e| {
                    matches!(
                        e.kind,
                        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
                    )
                })
                .flat_map(|e| e.paths.iter())
                .filter_map(|p| p.strip_prefix(&self.root).ok())
                .filter(|p| relevant(p))
                .map(Path::to_path_buf)
                .collect();
            if !changed.is_empty() {
                return Ok(changed.into_iter().collect());
            }
        }
    }
}

/// Whether a change to `path` (relative to the project) should re-run anything.
pub fn relevant(path: &Path) -> bool {
    let mut parts = path.components().map(|c| c.as_os_str().to_string_lossy());
    let Some(first) = parts.next() else {
        return false;
    };
    if matches!(
        first.as_ref(),
        "build" | "typings" | "target" | "node_modules"
    ) {
        return false;
    }
    if path
        .components()
        .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
    {
        return false;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    if name.ends_with('~') || name.starts_with('#') {
        return false;
    }
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("py" | "toml")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_count_and_outputs_and_editor_files_do_not() {
        for (path, counts) in [
            ("cowboy.toml", true),
            ("src/counter.py", true),
            ("tests/test_counter.py", true),
            ("tests/counter.toml", true),
            ("build/counter.json", false),
            ("typings/cowboy_sdk.pyi", false),
            ("src/.counter.py.swp", false),
            (".git/index", false),
            ("src/counter.py~", false),
            ("README.md", false),
            ("src/__pycache__/x.pyc", false),
        ] {
            assert_eq!(relevant(Path::new(path)), counts, "{path}");
        }
    }
}
