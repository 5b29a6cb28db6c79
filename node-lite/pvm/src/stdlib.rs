//! The allowed standard library, as a contract: which modules and otherwise-refused names an
//! actor may use, by PVM version.
//!
//! What an actor may import or touch is part of the chain's rules: two nodes that disagree on
//! it disagree on whether a deploy succeeds. So the lists in [`crate::validate`]
//! (`IMPORT_WHITELIST`, `ALLOWED_DUNDER_ATTRIBUTES`, `SUPER_SPECIAL_METHODS`, and
//! `object.__setattr__`/`__delattr__`) are the current version's, and [`ADDED`] records, for
//! every name a later version allowed, the version that allowed it. Everything else on those
//! lists has been allowed since [`PvmVersion::FIRST`].
//!
//! - A deploy is validated under the chain's version ([`PvmVersion::CURRENT`] of the node) and
//!   the actor's record keeps that version, so its code is known to have been checked by it.
//! - Versions only add names. Code deployed under an earlier version still validates under a
//!   later one, so a node runs every actor under its current rules; taking a name away would
//!   need the engine to keep the earlier rules for code recorded with an earlier version.
//! - `cowboy build` reports the earliest version that accepts an actor, and warns about each
//!   name it uses that an earlier version refused (a chain not yet upgraded refuses the deploy).

use std::fmt;

/// A version of the PVM's rules about what actor code may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PvmVersion(u16);

impl PvmVersion {
    /// The PVM before issue 13's determinism review of the pure standard library modules.
    pub const FIRST: Self = Self(1);
    /// Allows `base64`, `bisect`, `copy`, `fractions`, `heapq`, `hmac`, `operator` and
    /// `string`; an exception's `__cause__`, `__context__`, `__suppress_context__` and
    /// `__notes__`; special methods on `super()`; `object.__setattr__`/`__delattr__`.
    pub const V2: Self = Self(2);
    /// The version this build of the PVM implements.
    pub const CURRENT: Self = Self::V2;

    /// The version numbered `n`, if this PVM knows it.
    pub fn new(n: u16) -> Option<Self> {
        (Self::FIRST.0..=Self::CURRENT.0)
            .contains(&n)
            .then_some(Self(n))
    }

    pub fn get(self) -> u16 {
        self.0
    }

    /// Every version this PVM knows, oldest first.
    pub fn all() -> impl Iterator<Item = Self> {
        (Self::FIRST.0..=Self::CURRENT.0).map(Self)
    }
}

impl fmt::Display for PvmVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which list a versioned name belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// An importable module (`validate::IMPORT_WHITELIST`).
    Module,
    /// A dunder attribute readable on any object (`validate::ALLOWED_DUNDER_ATTRIBUTES`).
    DunderAttribute,
    /// A special method callable on `super()` (`validate::SUPER_SPECIAL_METHODS`).
    SuperSpecialMethod,
    /// `object.<name>` (`__setattr__`, `__delattr__`).
    ObjectMethod,
}

/// A name a version after the first allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Added {
    pub kind: NameKind,
    pub name: &'static str,
    pub since: PvmVersion,
}

const fn added(kind: NameKind, name: &'static str, since: PvmVersion) -> Added {
    Added { kind, name, since }
}

use NameKind::{DunderAttribute, Module, ObjectMethod, SuperSpecialMethod};

/// Every name allowed after the first version, with the version that allowed it.
pub const ADDED: &[Added] = &[
    added(Module, "base64", PvmVersion::V2),
    added(Module, "bisect", PvmVersion::V2),
    added(Module, "copy", PvmVersion::V2),
    added(Module, "fractions", PvmVersion::V2),
    added(Module, "heapq", PvmVersion::V2),
    added(Module, "hmac", PvmVersion::V2),
    added(Module, "operator", PvmVersion::V2),
    added(Module, "string", PvmVersion::V2),
    added(DunderAttribute, "__cause__", PvmVersion::V2),
    added(DunderAttribute, "__context__", PvmVersion::V2),
    added(DunderAttribute, "__suppress_context__", PvmVersion::V2),
    added(DunderAttribute, "__notes__", PvmVersion::V2),
    added(ObjectMethod, "__setattr__", PvmVersion::V2),
    added(ObjectMethod, "__delattr__", PvmVersion::V2),
    // Every special method on `super()` came with V2: the list is `SUPER_SPECIAL_METHODS`.
];

/// The version that allowed `name` as a `kind`: [`PvmVersion::FIRST`] for names not in
/// [`ADDED`] (the caller has checked the name is on the current list).
pub fn since(kind: NameKind, name: &str) -> PvmVersion {
    if kind == SuperSpecialMethod {
        return PvmVersion::V2;
    }
    ADDED
        .iter()
        .find(|a| a.kind == kind && a.name == name)
        .map_or(PvmVersion::FIRST, |a| a.since)
}

/// Whether `version` allows `name` as a `kind` (given it is on the current list).
pub fn allowed_in(kind: NameKind, name: &str, version: PvmVersion) -> bool {
    since(kind, name) <= version
}

/// The dunder attributes `version` allows, in the current list's order.
pub fn dunder_attributes(version: PvmVersion) -> impl Iterator<Item = &'static str> {
    crate::validate::ALLOWED_DUNDER_ATTRIBUTES
        .iter()
        .copied()
        .filter(move |d| allowed_in(DunderAttribute, d, version))
}

/// The modules `version` allows, in the current list's order.
pub fn modules(version: PvmVersion) -> impl Iterator<Item = &'static str> {
    crate::validate::IMPORT_WHITELIST
        .iter()
        .copied()
        .filter(move |m| allowed_in(Module, m, version))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{ALLOWED_DUNDER_ATTRIBUTES, IMPORT_WHITELIST};

    #[test]
    fn every_added_name_is_on_the_current_list_once() {
        for (i, a) in ADDED.iter().enumerate() {
            let listed = match a.kind {
                Module => IMPORT_WHITELIST.contains(&a.name),
                DunderAttribute => ALLOWED_DUNDER_ATTRIBUTES.contains(&a.name),
                ObjectMethod => matches!(a.name, "__setattr__" | "__delattr__"),
                SuperSpecialMethod => false,
            };
            assert!(listed, "{a:?} is not on the current list");
            assert!(a.since > PvmVersion::FIRST && a.since <= PvmVersion::CURRENT);
            assert!(
                !ADDED[..i]
                    .iter()
                    .any(|b| b.kind == a.kind && b.name == a.name),
                "{a:?} twice"
            );
        }
    }

    #[test]
    fn versions_only_add_modules() {
        let mut previous: Vec<&str> = Vec::new();
        for v in PvmVersion::all() {
            let now: Vec<&str> = modules(v).collect();
            assert!(
                previous.iter().all(|m| now.contains(m)),
                "{v} removed a module"
            );
            previous = now;
        }
        assert_eq!(previous, IMPORT_WHITELIST);
        assert!(!modules(PvmVersion::FIRST).any(|m| m == "heapq"));
        assert_eq!(PvmVersion::new(0), None);
        assert_eq!(PvmVersion::new(PvmVersion::CURRENT.get() + 1), None);
    }
}
