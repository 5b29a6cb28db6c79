//! `cowboy build`: checks every actor of a project against the PVM rules and the manifest,
//! then writes one deployable artifact per actor to `build/NAME.json`. Nothing is written
//! unless every actor passes.

use crate::manifest::{ActorEntry, MANIFEST, ManifestError, Project};
use cowboy_types::Hash;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A deployable actor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Artifact {
    /// Format version of this file.
    pub format: u32,
    pub name: String,
    pub project: String,
    /// The actor class.
    pub class: String,
    /// Source path relative to the project.
    pub source: String,
    /// Canonical source (NFC, LF, no BOM): exactly the bytes deployed.
    pub code: String,
    /// keccak256 of `code`: with the deployer and salt it fixes the actor's address.
    pub code_hash: Hash,
    pub handlers: Vec<String>,
    /// What the actor declares (whitepaper §15): deployed with it and fixed for its lifetime;
    /// `submit_job` needs `http.fetch`, `llm.infer` or `mcp.invoke` for its job type.
    pub entitlements: cowboy_types::entitlement::ActorEntitlements,
    /// Whether deploying runs `__init__`.
    pub has_init: bool,
    /// The earliest PVM version that accepts the code: a chain on an earlier one refuses the
    /// deploy (`cowboy_pvm::stdlib`). Artifacts written before this field read as version 1.
    #[serde(default = "first_pvm_version")]
    pub pvm_version: u16,
}

fn first_pvm_version() -> u16 {
    cowboy_pvm::stdlib::PvmVersion::FIRST.get()
}

/// What a chain on an earlier PVM version than `artifact` needs refuses in it: one warning per
/// name the first version refused, at its file:line:col (`cowboy build` prints them).
pub fn version_warnings(artifact: &Artifact) -> Vec<Problem> {
    if artifact.pvm_version <= first_pvm_version() {
        return Vec::new();
    }
    let first = cowboy_pvm::stdlib::PvmVersion::FIRST;
    match cowboy_pvm::validate::validate_for(&artifact.code, first) {
        Ok(_) => Vec::new(),
        Err(diagnostics) => diagnostics
            .into_iter()
            .map(|d| Problem {
                file: artifact.source.clone(),
                line: d.line,
                column: d.column,
                rule: d.rule.id().into(),
                message: format!(
                    "{}; chains still on PVM version {first} refuse to deploy this actor",
                    d.message
                ),
                hint: format!(
                    "deploy to a chain on PVM version {} or later, or: {}",
                    artifact.pvm_version, d.hint
                ),
            })
            .collect(),
    }
}

/// Current artifact format.
pub const ARTIFACT_FORMAT: u32 = 1;

/// One problem: where, which rule, what, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Problem {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub rule: String,
    pub message: String,
    pub hint: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {}\n  hint: {}",
            self.file, self.line, self.column, self.rule, self.message, self.hint
        )
    }
}

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    #[error("{} problem{} found; nothing was written", .0.len(), if .0.len() == 1 { "" } else { "s" })]
    Problems(Vec<Problem>),
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path} is not a Cowboy build artifact: {reason}")]
    Artifact { path: PathBuf, reason: String },
}

/// Checks every actor; returns their artifacts (one per actor, in manifest order) without
/// writing them.
pub fn check(project: &Project) -> Result<Vec<Artifact>, BuildError> {
    let mut artifacts = Vec::new();
    let mut problems = Vec::new();
    for actor in &project.manifest.actors {
        match check_actor(project, actor) {
            Ok(a) => artifacts.push(a),
            Err(mut p) => problems.append(&mut p),
        }
    }
    if problems.is_empty() {
        Ok(artifacts)
    } else {
        Err(BuildError::Problems(problems))
    }
}

/// Checks every actor and writes `build/NAME.json` for each; returns them with their paths.
pub fn build(project: &Project) -> Result<Vec<(Artifact, PathBuf)>, BuildError> {
    let artifacts = check(project)?;
    let dir = project.build_dir();
    std::fs::create_dir_all(&dir).map_err(|error| BuildError::Write {
        path: dir.clone(),
        error,
    })?;
    let mut written = Vec::new();
    for a in artifacts {
        let path = dir.join(format!("{}.json", a.name));
        let text = serde_json::to_string_pretty(&a).map_err(|e| BuildError::Write {
            path: path.clone(),
            error: std::io::Error::other(e),
        })?;
        let tmp = dir.join(format!(".{}.json.tmp", a.name));
        std::fs::write(&tmp, text + "\n")
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|error| BuildError::Write {
                path: path.clone(),
                error,
            })?;
        written.push((a, path));
    }
    Ok(written)
}

/// Reads an artifact written by [`build`].
pub fn read_artifact(path: &Path) -> Result<Artifact, BuildError> {
    let fail = |reason: String| BuildError::Artifact {
        path: path.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    let artifact: Artifact = serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?;
    if artifact.format != ARTIFACT_FORMAT {
        return Err(fail(format!(
            "format {} (this cowboy reads {ARTIFACT_FORMAT}); rebuild it with `cowboy build`",
            artifact.format
        )));
    }
    if cowboy_types::code_hash(&artifact.code) != artifact.code_hash {
        return Err(fail(
            "its code does not match its code_hash (edited by hand?); rebuild it with `cowboy build`"
                .into(),
        ));
    }
    Ok(artifact)
}

fn check_actor(project: &Project, actor: &ActorEntry) -> Result<Artifact, Vec<Problem>> {
    let file = actor.source.display().to_string();
    let (m_line, m_col) = project.position_of(&format!("\"{}\"", actor.name));
    let manifest_problem = |rule: &str, message: String, hint: String| Problem {
        file: MANIFEST.into(),
        line: m_line,
        column: m_col,
        rule: rule.into(),
        message,
        hint,
    };
    let path = project.dir.join(&actor.source);
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            return Err(vec![manifest_problem(
                "source",
                format!("actor {}: cannot read {file}: {e}", actor.name),
                "fix the `source` path (relative to the project directory)".into(),
            )]);
        }
    };
    let code = cowboy_types::canonicalize_source(&source);
    let validated = cowboy_pvm::validate::check_normalization(&source)
        .and_then(|()| cowboy_pvm::validate::validate(&code));
    let shape = match validated {
        Ok((_, shape)) => shape,
        Err(diagnostics) => {
            return Err(diagnostics
                .into_iter()
                .map(|d| Problem {
                    file: file.clone(),
                    line: d.line,
                    column: d.column,
                    rule: d.rule.id().into(),
                    message: d.message,
                    hint: d.hint,
                })
                .collect());
        }
    };
    let mut problems = Vec::new();
    for h in &actor.handlers {
        if !shape.handlers.contains(h) {
            problems.push(manifest_problem(
                "handlers",
                format!(
                    "actor {} declares handler {h:?}, but class {} in {file} has no public method {h:?}",
                    actor.name, shape.class_name
                ),
                format!("add `def {h}(self, ...)` to the class, or remove {h:?} from handlers"),
            ));
        }
    }
    for h in &shape.handlers {
        if !actor.handlers.contains(h) {
            let (line, column) = def_position(&code, h);
            problems.push(Problem {
                file: file.clone(),
                line,
                column,
                rule: "handlers".into(),
                message: format!(
                    "public method {h:?} of class {} is not among actor {}'s handlers in {MANIFEST}",
                    shape.class_name, actor.name
                ),
                hint: format!(
                    "add \"{h}\" to handlers in {MANIFEST}, or rename it `_{h}` to keep it private"
                ),
            });
        }
    }
    let entitlements = match actor.declared_entitlements() {
        Ok(e) => e,
        Err(e) => {
            problems.push(manifest_problem(
                "entitlements",
                format!("actor {}: {e}", actor.name),
                e.hint(),
            ));
            Default::default()
        }
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Artifact {
        format: ARTIFACT_FORMAT,
        name: actor.name.clone(),
        project: project.manifest.project.name.clone(),
        class: shape.class_name,
        source: file,
        code_hash: cowboy_types::code_hash(&code),
        handlers: shape.handlers,
        entitlements,
        has_init: shape.has_init,
        pvm_version: cowboy_pvm::validate::earliest_version(&code).get(),
        code,
    })
}

/// Line and column of `def name(` in `source`.
fn def_position(source: &str, name: &str) -> (usize, usize) {
    let needle = format!("def {name}(");
    for (i, line) in source.lines().enumerate() {
        if let Some(col) = line.find(&needle) {
            return (i + 1, col + 5);
        }
    }
    (1, 1)
}
