//! Cowboy actor projects: a directory with a `cowboy.toml` manifest naming its actors (source,
//! handlers, entitlements). [`manifest`] reads it, [`build`] checks every actor against the
//! PVM rules and writes deployable artifacts, [`scenario`] runs `tests/*.toml` on a local PVM,
//! and [`templates`] holds the embedded `cowboy new` templates and the examples.

pub mod build;
pub mod manifest;
pub mod scenario;
pub mod templates;

pub use build::{Artifact, BuildError, build};
pub use manifest::{ActorEntry, DemoCall, MANIFEST, Manifest, ManifestError, Project};
