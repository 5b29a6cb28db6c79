//! Cowboy actor projects: a directory with a `cowboy.toml` manifest naming its actors (source,
//! handlers, entitlements). [`manifest`] reads it, [`build`] checks every actor against the
//! PVM rules and writes deployable artifacts, [`local_run`] (`cowboy run`) and [`scenario`]
//! (`cowboy test`, `tests/*.toml`) run actors on a local chain, [`demo`] deploys a project and
//! makes its demo calls on a running chain (`cowboy devnet up --example`), and [`templates`]
//! holds the embedded `cowboy new` templates and the examples.

pub mod build;
pub mod demo;
pub mod local_run;
pub mod manifest;
pub mod python_tests;
pub mod scenario;
pub mod templates;
pub mod watch;

pub use build::{Artifact, BuildError, build};
pub use manifest::{ActorEntry, DemoCall, MANIFEST, Manifest, ManifestError, Project};
