//! The `cowboy new` templates (`templates/`) and the example projects (`examples/`), embedded
//! in the binary so `cowboy new` and `cowboy devnet up --example` work from an installed
//! `cowboy` with no checkout.

use include_dir::{Dir, include_dir};
use std::path::{Path, PathBuf};

static TEMPLATES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../templates");
static EXAMPLES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../examples");

/// What every new project gets for editors besides its template's files: a `pyproject.toml`
/// for Pyright and ruff, and the type stubs of the modules actors and tests import (checked
/// against the modules by the PVM's stub-drift test).
const EDITOR_FILES: [(&str, &[u8]); 4] = [
    (
        "pyproject.toml",
        include_bytes!("../../../templates/pyproject.toml"),
    ),
    (
        "typings/cowboy_sdk.pyi",
        include_bytes!("../../pvm/python/stubs/cowboy_sdk.pyi"),
    ),
    (
        "typings/cowboy_test.pyi",
        include_bytes!("../../pvm/python/stubs/cowboy_test.pyi"),
    ),
    (
        "typings/pvm_host.pyi",
        include_bytes!("../../pvm/python/stubs/pvm_host.pyi"),
    ),
];

/// A project that can be written out.
#[derive(Clone, Copy, Debug)]
pub struct Template {
    pub name: &'static str,
    pub description: &'static str,
    dir: &'static Dir<'static>,
}

/// `name` from `root`, if it was embedded.
fn embedded(
    root: &'static Dir<'static>,
    name: &'static str,
    description: &'static str,
) -> Option<Template> {
    Some(Template {
        name,
        description,
        dir: root.get_dir(name)?,
    })
}

/// The `cowboy new` templates, the default first.
pub fn templates() -> Vec<Template> {
    [
        (
            "counter",
            "a counter: storage, a handler that changes it, events",
        ),
        (
            "interval",
            "a scheduled job: a chain-native interval timer calls a handler every N blocks",
        ),
        (
            "pair",
            "two actors exchanging messages with correlation ids and a timeout timer",
        ),
    ]
    .into_iter()
    .filter_map(|(name, description)| embedded(&TEMPLATES, name, description))
    .collect()
}

/// The complete example projects.
pub fn examples() -> Vec<Template> {
    [
        (
            "counter",
            "a counter with per-caller counts and an owner reset",
        ),
        (
            "heartbeat",
            "a cron-like job on an interval timer, with pause/resume and late-beat counting",
        ),
        (
            "ping-pong",
            "two actors: requests with correlation ids, replies, timeout timers",
        ),
    ]
    .into_iter()
    .filter_map(|(name, description)| embedded(&EXAMPLES, name, description))
    .collect()
}

/// Why a project could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    #[error("unknown {kind} {name:?}; choose one of: {known}")]
    Unknown {
        kind: &'static str,
        name: String,
        known: String,
    },
    #[error(
        "invalid project name {0:?}: start with a letter, then letters, digits, '-' or '_' (at most 64)"
    )]
    InvalidName(String),
    #[error("{0} already exists and is not empty; choose another name or --path")]
    Exists(PathBuf),
    #[error("cannot write {path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

fn find(list: Vec<Template>, kind: &'static str, name: &str) -> Result<Template, ScaffoldError> {
    let known = list.iter().map(|t| t.name).collect::<Vec<_>>().join(", ");
    list.into_iter()
        .find(|t| t.name == name)
        .ok_or_else(|| ScaffoldError::Unknown {
            kind,
            name: name.to_string(),
            known,
        })
}

/// The template called `name`.
pub fn template(name: &str) -> Result<Template, ScaffoldError> {
    find(templates(), "template", name)
}

/// The example called `name`.
pub fn example(name: &str) -> Result<Template, ScaffoldError> {
    find(examples(), "example", name)
}

/// Checks a project name.
pub fn check_name(name: &str) -> Result<(), ScaffoldError> {
    let valid = name.len() <= 64
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(())
    } else {
        Err(ScaffoldError::InvalidName(name.to_string()))
    }
}

impl Template {
    /// The files, as (relative path, contents): the template's and the editor files.
    pub fn files(&self) -> Vec<(PathBuf, &'static [u8])> {
        let mut out = Vec::new();
        collect(self.dir, self.dir.path(), &mut out);
        for (path, bytes) in EDITOR_FILES {
            if !out.iter().any(|(p, _)| p == Path::new(path)) {
                out.push((PathBuf::from(path), bytes));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Writes the project to `dest` with `{{name}}` replaced by `project`. `dest` must not
    /// exist or be empty; the files appear all at once (written to a sibling temporary
    /// directory, then renamed). Returns the files written, relative to `dest`.
    pub fn write(&self, dest: &Path, project: &str) -> Result<Vec<PathBuf>, ScaffoldError> {
        check_name(project)?;
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |error| ScaffoldError::Io { path, error }
        };
        if dest.exists() {
            let empty = std::fs::read_dir(dest).map_err(io(dest))?.next().is_none();
            if !empty {
                return Err(ScaffoldError::Exists(dest.to_path_buf()));
            }
            std::fs::remove_dir(dest).map_err(io(dest))?;
        }
        let parent = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(io(&parent))?;
        let staging = parent.join(format!(".cowboy-new-{project}-{}", std::process::id()));
        let result = (|| {
            let mut written = Vec::new();
            for (rel, bytes) in self.files() {
                let path = staging.join(&rel);
                if let Some(p) = path.parent() {
                    std::fs::create_dir_all(p).map_err(io(p))?;
                }
                let text = String::from_utf8_lossy(bytes).replace("{{name}}", project);
                std::fs::write(&path, text).map_err(io(&path))?;
                written.push(rel);
            }
            std::fs::rename(&staging, dest).map_err(io(dest))?;
            Ok(written)
        })();
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&staging);
        }
        result
    }
}

fn collect(dir: &'static Dir<'static>, root: &Path, out: &mut Vec<(PathBuf, &'static [u8])>) {
    for f in dir.files() {
        if let Ok(rel) = f.path().strip_prefix(root) {
            out.push((rel.to_path_buf(), f.contents()));
        }
    }
    for d in dir.dirs() {
        // Build output of a checkout is not part of a template.
        if d.path().file_name().is_some_and(|n| n == "build") {
            continue;
        }
        collect(d, root, out);
    }
}
