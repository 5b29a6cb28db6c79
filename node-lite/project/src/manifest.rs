//! `cowboy.toml`: the project's name and its actors.
//!
//! ```toml
//! [project]
//! name = "counter"
//!
//! [[actors]]
//! name = "counter"
//! source = "src/counter.py"
//! handlers = ["increment", "get"]
//! entitlements = []
//! ```

use cowboy_pvm::Value;
use cowboy_types::Address;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The manifest's file name.
pub const MANIFEST: &str = "cowboy.toml";

/// The parsed manifest.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub project: ProjectMeta,
    #[serde(default)]
    pub actors: Vec<ActorEntry>,
    /// Calls `cowboy devnet up --example` makes after deploying, in order.
    #[serde(default)]
    pub demo: Vec<DemoCall>,
}

/// One call of the demo: `actor.call(*args)`; an argument `"$NAME"` stands for the address of
/// actor NAME once deployed.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoCall {
    pub actor: String,
    pub call: String,
    #[serde(default)]
    pub args: Vec<toml::Value>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectMeta {
    pub name: String,
    /// Commands `cowboy devnet up --example` suggests trying once it deployed the project
    /// (`$NAME` is the address of actor NAME).
    #[serde(default)]
    pub try_next: Vec<String>,
}

/// One actor of the project.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActorEntry {
    /// Name used by `--actor` and for `build/NAME.json`.
    pub name: String,
    /// Python source, relative to the project directory.
    pub source: PathBuf,
    /// The public methods callable in transactions; the class must define exactly these.
    pub handlers: Vec<String>,
    /// Capabilities the actor requires (whitepaper §15), e.g. `http.fetch`.
    #[serde(default)]
    pub entitlements: Vec<String>,
    /// `__init__` arguments `cowboy deploy` (without `--args`) and `cowboy devnet up --example`
    /// deploy with (`"$NAME"`: the address of an actor deployed before this one, which only
    /// `--example`, deploying them all, can resolve).
    #[serde(default)]
    pub deploy_args: Vec<toml::Value>,
    /// Base units sent with that deploy (without `--value`; pays the actor's timers and jobs).
    #[serde(default)]
    pub deploy_value: u64,
}

impl ActorEntry {
    /// The entitlements it declares, as the chain records them at deployment; the first
    /// unknown name is refused.
    pub fn declared_entitlements(
        &self,
    ) -> Result<cowboy_types::entitlement::ActorEntitlements, UnknownEntitlement> {
        let mut declared = Vec::with_capacity(self.entitlements.len());
        for e in &self.entitlements {
            declared.push(
                e.parse::<cowboy_types::entitlement::ActorEntitlement>()
                    .map_err(|_| UnknownEntitlement(e.clone()))?,
            );
        }
        Ok(cowboy_types::entitlement::ActorEntitlements::of(&declared))
    }
}

/// An entitlement name the chain does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown entitlement {0:?}")]
pub struct UnknownEntitlement(pub String);

impl UnknownEntitlement {
    /// What to write instead.
    pub fn hint(&self) -> String {
        let names: Vec<&str> = cowboy_types::entitlement::ActorEntitlement::ALL
            .iter()
            .map(|e| e.name())
            .collect();
        format!("use one of {}", names.join(", "))
    }
}

/// Why a project could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error(
        "no {MANIFEST} in {dir} or any parent directory; run this inside a project (create one with `cowboy new NAME`)"
    )]
    NotFound { dir: PathBuf },
    #[error("cannot read {path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// A project on disk.
#[derive(Clone, Debug)]
pub struct Project {
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// The manifest's text (for error positions).
    pub text: String,
}

impl Project {
    /// The project at `dir` when given, else the one around the current directory (what
    /// every `--path` option means).
    pub fn locate(dir: Option<&Path>) -> Result<Self, ManifestError> {
        match dir {
            Some(d) => Self::open(d),
            None => {
                let here = std::env::current_dir().map_err(|error| ManifestError::Io {
                    path: PathBuf::from("."),
                    error,
                })?;
                Self::find(&here)
            }
        }
    }

    /// Opens the project whose manifest is in `start` or its nearest ancestor.
    pub fn find(start: &Path) -> Result<Self, ManifestError> {
        let mut dir = Some(start);
        while let Some(d) = dir {
            if d.join(MANIFEST).is_file() {
                return Self::open(d);
            }
            dir = d.parent();
        }
        Err(ManifestError::NotFound {
            dir: start.to_path_buf(),
        })
    }

    /// Opens the project in `dir`.
    pub fn open(dir: &Path) -> Result<Self, ManifestError> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|error| ManifestError::Io {
            path: path.clone(),
            error,
        })?;
        let manifest: Manifest = toml::from_str(&text).map_err(|e| ManifestError::Invalid {
            path: path.clone(),
            message: e.to_string().trim_end().to_string(),
        })?;
        let invalid = |message: String| ManifestError::Invalid {
            path: path.clone(),
            message,
        };
        if manifest.actors.is_empty() {
            return Err(invalid(
                "no [[actors]]: add one with name, source and handlers".into(),
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        for a in &manifest.actors {
            let valid = !a.name.is_empty()
                && a.name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !valid {
                return Err(invalid(format!(
                    "actor name {:?}: use letters, digits, '-' and '_'",
                    a.name
                )));
            }
            if !seen.insert(a.name.clone()) {
                return Err(invalid(format!("two actors are named {:?}", a.name)));
            }
        }
        for d in &manifest.demo {
            if !seen.contains(&d.actor) {
                return Err(invalid(format!(
                    "[[demo]] calls actor {:?}, which is not among the [[actors]]",
                    d.actor
                )));
            }
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            manifest,
            text,
        })
    }

    /// The actor named `name`, or the only one when `name` is `None`.
    pub fn actor(&self, name: Option<&str>) -> Result<&ActorEntry, ManifestError> {
        let names = || {
            self.manifest
                .actors
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let invalid = |message: String| ManifestError::Invalid {
            path: self.dir.join(MANIFEST),
            message,
        };
        match name {
            Some(n) => self
                .manifest
                .actors
                .iter()
                .find(|a| a.name == n)
                .ok_or_else(|| invalid(format!("no actor {n:?}; the project has {}", names()))),
            None if self.manifest.actors.len() == 1 => Ok(&self.manifest.actors[0]),
            None => Err(invalid(format!(
                "the project has several actors ({}); choose one with --actor NAME",
                names()
            ))),
        }
    }

    /// Where `build` writes artifacts.
    pub fn build_dir(&self) -> PathBuf {
        self.dir.join("build")
    }

    /// 1-based line and column of the first occurrence of `needle` in the manifest, for error
    /// positions.
    pub fn position_of(&self, needle: &str) -> (usize, usize) {
        match self.text.find(needle) {
            Some(offset) => {
                let before = &self.text[..offset];
                let line = before.matches('\n').count() + 1;
                let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                (line, col)
            }
            None => (1, 1),
        }
    }
}

/// Handler or `__init__` arguments written in TOML (a manifest's `deploy_args` and `[[demo]]`
/// calls, a scenario's steps) as PVM values: a string `"$NAME"` is the address of actor NAME,
/// as `address_of` knows it; anything else is its TOML value.
pub fn resolve_args(
    args: &[toml::Value],
    address_of: impl Fn(&str) -> Option<Address>,
) -> Result<Vec<Value>, String> {
    args.iter()
        .map(|a| {
            if let Some(name) = a.as_str().and_then(|s| s.strip_prefix('$')) {
                return address_of(name)
                    .map(|addr| Value::Str(addr.to_string()))
                    .ok_or_else(|| format!("${name} is not an actor deployed before"));
            }
            let json = serde_json::to_value(a).map_err(|e| e.to_string())?;
            Value::from_json(&json).map_err(|e| format!("{json}: {e}"))
        })
        .collect()
}

/// `text` with each `$NAME` of an actor in `actors` replaced by its address (longer names
/// first, so `$pinger2` is not read as `$pinger` followed by `2`).
pub fn with_addresses(text: &str, actors: &std::collections::BTreeMap<String, Address>) -> String {
    let mut names: Vec<&String> = actors.keys().collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let mut out = text.to_string();
    for name in names {
        out = out.replace(&format!("${name}"), &actors[name].to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(manifest: &str) -> Result<Project, ManifestError> {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join(MANIFEST), manifest).expect("write");
        Project::open(dir.path())
    }

    fn message(r: Result<Project, ManifestError>) -> String {
        match r {
            Ok(_) => panic!("accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn bad_manifests_say_what_is_wrong() {
        let m = message(open("[project]\nname = \"x\"\n"));
        assert!(
            m.ends_with("no [[actors]]: add one with name, source and handlers"),
            "{m}"
        );

        let two = "[project]\nname = \"x\"\n[[actors]]\nname = \"a\"\nsource = \"a.py\"\nhandlers = []\n[[actors]]\nname = \"a\"\nsource = \"b.py\"\nhandlers = []\n";
        assert!(message(open(two)).ends_with("two actors are named \"a\""));

        let demo = "[project]\nname = \"x\"\n[[actors]]\nname = \"a\"\nsource = \"a.py\"\nhandlers = []\n[[demo]]\nactor = \"b\"\ncall = \"go\"\n";
        assert!(
            message(open(demo))
                .ends_with("[[demo]] calls actor \"b\", which is not among the [[actors]]")
        );

        // TOML errors keep the parser's line and column; unknown keys are refused.
        let m = message(open("[project]\nname = \"x\"\ncolour = 1\n"));
        assert!(
            m.contains("line 3") && m.contains("unknown field `colour`"),
            "{m}"
        );
    }

    #[test]
    fn actor_selection_names_the_choices() {
        let p = open("[project]\nname = \"x\"\n[[actors]]\nname = \"a\"\nsource = \"a.py\"\nhandlers = []\n[[actors]]\nname = \"b\"\nsource = \"b.py\"\nhandlers = []\n")
            .expect("valid");
        assert_eq!(p.actor(Some("b")).expect("b").name, "b");
        let m = p.actor(None).expect_err("ambiguous").to_string();
        assert!(
            m.ends_with("the project has several actors (a, b); choose one with --actor NAME"),
            "{m}"
        );
        let m = p.actor(Some("c")).expect_err("unknown").to_string();
        assert!(m.ends_with("no actor \"c\"; the project has a, b"), "{m}");
    }
}
