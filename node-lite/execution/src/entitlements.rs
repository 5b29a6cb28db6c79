//! The Entitlement Registry (system actor `0x…07`; CIP-2 §7): grants, revocations,
//! delegations and roles, and the one check everything else asks — "does this address hold
//! this (scope, action) at this height?" ([`holds`]). The Job Dispatcher asks it for runner
//! pool membership (CIP-2 §4 filter 7, §7.3).
//!
//! Who may grant in a scope (CIP-2 §7 leaves it to "pool owner / governance"; Cowboy decision,
//! `book/src/reference/runners.md`):
//! - `runner_pool:…` and `namespace:…`: the scope's owner, which is whoever first grants in it
//!   or names it in a role (recorded under `owner:`); nobody else can grant in it afterwards;
//! - `actor:A` and `runner:A`: only `A` itself;
//! - `global` and `token:…`: only Governance (`0x…09`), which no transaction can sign for.
//!
//! A record may be revoked by its granter or by the scope's owner, when it was granted
//! `revocable`. A delegate's record names its parent; revoking (or the expiry of) any record
//! up the chain makes every record below it fail the check. Expired or used-up records are
//! deleted the first time a check meets them (CIP-2 §7.5 "lazy expiry cleanup").
//!
//! Bounds (CIP-2 §7.5): 256 records per grantee, 64 roles per assignee, delegation chains of
//! at most 5; a role collects at most 16 scopes and 16 actions. A check therefore reads at most
//! the grantee's matching records, their parents and its 64 roles.

use crate::{
    ExecError,
    exec::{Executor, Handled},
    world::{World, decode, encode_record},
};
use cowboy_types::{
    Address, Hash,
    entitlement::{
        Action, Entitlement, EntitlementOp, MAX_DELEGATION_DEPTH, MAX_ENTITLEMENTS_PER_ADDRESS,
        MAX_ROLES_PER_ADDRESS, Role, Scope, entitlement_id, role_id,
    },
    keccak256,
    receipt::failure,
    runner::actors::ENTITLEMENT_REGISTRY as REGISTRY,
};

/// Storage keys under the Entitlement Registry.
pub mod keys {
    use cowboy_types::{Address, Hash};

    /// `ent:` ‖ id → [`cowboy_types::entitlement::Entitlement`].
    pub const ENTITLEMENT: &[u8] = b"ent:";
    /// `held:` ‖ grantee ‖ keccak256(scope ‖ action) ‖ id → empty: a grantee's records by
    /// what they permit.
    pub const HELD: &[u8] = b"held:";
    /// `count:` ‖ grantee → records held (8 B BE).
    pub const COUNT: &[u8] = b"count:";
    /// `owner:` ‖ keccak256(scope) → the scope's owner (20 B).
    pub const OWNER: &[u8] = b"owner:";
    /// `role:` ‖ id → [`cowboy_types::entitlement::Role`].
    pub const ROLE: &[u8] = b"role:";
    /// `assigned:` ‖ assignee ‖ role id → the height it was assigned (8 B BE).
    pub const ASSIGNED: &[u8] = b"assigned:";
    /// `roles:` ‖ assignee → roles assigned (8 B BE).
    pub const ROLE_COUNT: &[u8] = b"roles:";
    /// `rscope:` ‖ assignee ‖ keccak256(scope) ‖ role id → empty: an assignee's roles by the
    /// scopes they name, so a check reads only roles naming its scope.
    pub const ROLE_SCOPE: &[u8] = b"rscope:";

    pub fn entitlement(id: &Hash) -> Vec<u8> {
        [ENTITLEMENT, &id.0].concat()
    }
    pub fn held_prefix(grantee: &Address, pair: &Hash) -> Vec<u8> {
        [HELD, &grantee.0, &pair.0].concat()
    }
    pub fn held(grantee: &Address, pair: &Hash, id: &Hash) -> Vec<u8> {
        [HELD, &grantee.0, &pair.0, &id.0].concat()
    }
    pub fn held_by(grantee: &Address) -> Vec<u8> {
        [HELD, &grantee.0].concat()
    }
    pub fn count(grantee: &Address) -> Vec<u8> {
        [COUNT, &grantee.0].concat()
    }
    pub fn owner(scope: &Hash) -> Vec<u8> {
        [OWNER, &scope.0].concat()
    }
    pub fn role(id: &Hash) -> Vec<u8> {
        [ROLE, &id.0].concat()
    }
    pub fn assigned(assignee: &Address, role: &Hash) -> Vec<u8> {
        [ASSIGNED, &assignee.0, &role.0].concat()
    }
    pub fn assigned_to(assignee: &Address) -> Vec<u8> {
        [ASSIGNED, &assignee.0].concat()
    }
    pub fn role_count(assignee: &Address) -> Vec<u8> {
        [ROLE_COUNT, &assignee.0].concat()
    }
    pub fn role_scope_prefix(assignee: &Address, scope: &Hash) -> Vec<u8> {
        [ROLE_SCOPE, &assignee.0, &scope.0].concat()
    }
    pub fn role_scope(assignee: &Address, scope: &Hash, role: &Hash) -> Vec<u8> {
        [ROLE_SCOPE, &assignee.0, &scope.0, &role.0].concat()
    }
}

/// The index key of a (scope, action) pair: `keccak256(scope ‖ action)`.
fn pair(scope: &Scope, action: &Action) -> Hash {
    use commonware_codec::Encode as _;
    keccak256(&[scope.encode().as_ref(), action.encode().as_ref()].concat())
}

fn refused(kind: u8, message: impl Into<String>) -> Handled {
    Handled::failed(kind, message)
}

fn invalid(message: impl Into<String>) -> Handled {
    refused(failure::INVALID_ENTITLEMENT, message)
}

fn counter(world: &World<'_>, key: &[u8]) -> Result<u64, ExecError> {
    Ok(world
        .storage(&REGISTRY, key)?
        .and_then(|v| <[u8; 8]>::try_from(v.as_slice()).ok())
        .map_or(0, u64::from_be_bytes))
}

fn set_counter(world: &mut World<'_>, key: &[u8], n: u64) {
    let bytes = n.to_be_bytes();
    world.set_storage(&REGISTRY, key, (n > 0).then_some(&bytes[..]));
}

/// The record with this id.
pub fn entitlement(world: &World<'_>, id: &Hash) -> Result<Option<Entitlement>, ExecError> {
    world
        .storage(&REGISTRY, &keys::entitlement(id))?
        .map(|v| decode(|| format!("entitlement {id}"), &v))
        .transpose()
}

/// The role with this id.
pub fn role(world: &World<'_>, id: &Hash) -> Result<Option<Role>, ExecError> {
    world
        .storage(&REGISTRY, &keys::role(id))?
        .map(|v| decode(|| format!("role {id}"), &v))
        .transpose()
}

/// Who owns `scope`, if anyone has claimed it.
pub fn owner(world: &World<'_>, scope: &Scope) -> Result<Option<Address>, ExecError> {
    Ok(world
        .storage(&REGISTRY, &keys::owner(&scope.hash()))?
        .and_then(|v| Address::from_slice(&v)))
}

/// Whether `sender` may grant (or build roles) in `scope`; claims an unowned pool or
/// namespace for it.
fn may_grant(
    world: &mut World<'_>,
    sender: &Address,
    scope: &Scope,
) -> Result<Result<(), String>, ExecError> {
    Ok(match scope {
        Scope::Global | Scope::Token(_) => {
            if *sender == crate::params::GOVERNANCE {
                Ok(())
            } else {
                Err(format!(
                    "only Governance (0x…09) grants in the {} scope",
                    scope.kind()
                ))
            }
        }
        Scope::Actor(a) | Scope::Runner(a) => {
            if a == sender {
                Ok(())
            } else {
                Err(format!("only {a} grants in the scope {scope}"))
            }
        }
        Scope::RunnerPool(name) | Scope::Namespace(name)
            if name.len() >= 20 && name[..20] != sender.0 =>
        {
            Err(format!(
                "the scope {scope} starts with the address {}, and such names are reserved for that address (name a pool you own `your address ‖ name` so nobody can take it first)",
                hex(&name[..20])
            ))
        }
        Scope::RunnerPool(_) | Scope::Namespace(_) => match owner(world, scope)? {
            Some(o) if o == *sender => Ok(()),
            Some(o) => Err(format!(
                "the scope {scope} belongs to {o}; only it grants there"
            )),
            None => {
                world.set_storage(&REGISTRY, &keys::owner(&scope.hash()), Some(&sender.0));
                Ok(())
            }
        },
    })
}

/// Writes a new record and its index entry, counting it against its grantee's limit; or
/// replaces the constraints of the record with the same id when `sender` granted it (a
/// renewal).
fn store(world: &mut World<'_>, id: Hash, mut record: Entitlement) -> Result<Handled, ExecError> {
    if let Some(old) = entitlement(world, &id)? {
        record.nonce = old.nonce;
        if old.granter != record.granter {
            return Ok(refused(
                failure::MISSING_ENTITLEMENT,
                format!(
                    "entitlement {id} was granted by {}; only it can renew it (or revoke it first)",
                    old.granter
                ),
            ));
        }
    } else {
        let count = counter(world, &keys::count(&record.grantee))?;
        if count >= MAX_ENTITLEMENTS_PER_ADDRESS {
            return Ok(invalid(format!(
                "{} already holds {MAX_ENTITLEMENTS_PER_ADDRESS} entitlements, the most an address may (CIP-2 §7.5); revoke some first",
                record.grantee
            )));
        }
        set_counter(world, &keys::count(&record.grantee), count + 1);
        record.nonce = world.next_seq("entitlement")?;
        world.set_storage(
            &REGISTRY,
            &keys::held(&record.grantee, &pair(&record.scope, &record.action), &id),
            Some(&[]),
        );
    }
    world.set_storage(
        &REGISTRY,
        &keys::entitlement(&id),
        Some(&encode_record(&record)),
    );
    returning(&id)
}

/// A success returning `id` (as canonical bytes, like a job submission's id).
fn returning(id: &Hash) -> Result<Handled, ExecError> {
    cowboy_pvm::Value::Bytes(id.0.to_vec())
        .encode()
        .map(Handled::Delivered)
        .map_err(|e| ExecError::Corrupt {
            what: "entitlement id".into(),
            reason: e.to_string(),
        })
}

/// Deletes a record, its index entry and its count.
fn remove(world: &mut World<'_>, id: &Hash, record: &Entitlement) -> Result<(), ExecError> {
    world.set_storage(&REGISTRY, &keys::entitlement(id), None);
    world.set_storage(
        &REGISTRY,
        &keys::held(&record.grantee, &pair(&record.scope, &record.action), id),
        None,
    );
    let key = keys::count(&record.grantee);
    let count = counter(world, &key)?;
    set_counter(world, &key, count.saturating_sub(1));
    Ok(())
}

/// Whether `record` and every record up its delegation chain are usable at `height`, and the
/// reads that took: each parent must still be the record the delegate was made from (same
/// nonce: not revoked and granted again), still delegatable with a longer chain than its
/// delegate's, and live.
pub fn usable(
    world: &World<'_>,
    record: &Entitlement,
    height: u64,
) -> Result<(bool, u64), ExecError> {
    let mut current = record.clone();
    let mut reads = 0;
    for _ in 0..=MAX_DELEGATION_DEPTH {
        if !current.constraints.live_at(height) {
            return Ok((false, reads));
        }
        let Some(parent_id) = current.parent_id else {
            return Ok((true, reads));
        };
        reads += 1;
        match entitlement(world, &parent_id)? {
            Some(p)
                if p.nonce == current.parent_nonce
                    && p.constraints.delegatable
                    && p.constraints.delegation_depth_max
                        > current.constraints.delegation_depth_max =>
            {
                current = p
            }
            _ => return Ok((false, reads)),
        }
    }
    Ok((false, reads))
}

/// The answer of a check and the storage reads it made (the caller pays for them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holding {
    pub held: bool,
    pub reads: u64,
}

/// Whether `grantee` holds `action` in `scope` at `height` (CIP-2 §7.3 `check`): a live record
/// for exactly that pair (or for `all` actions in the scope) whose delegation chain is live,
/// or an assigned role naming the scope and the action within its constraints. Records found
/// expired or used up are deleted. Uses are not counted (CIP-2 §7.3: a membership check does
/// not increment `used_count`).
pub fn holds(
    world: &mut World<'_>,
    grantee: &Address,
    scope: &Scope,
    action: &Action,
    height: u64,
) -> Result<Holding, ExecError> {
    let mut reads = 0u64;
    for wanted in [action.clone(), Action::All] {
        let prefix = cowboy_types::state::key::storage(
            &REGISTRY,
            &keys::held_prefix(grantee, &pair(scope, &wanted)),
        );
        let page = world
            .overlay
            .scan(&prefix, None, MAX_ENTITLEMENTS_PER_ADDRESS as usize)?;
        reads += 1;
        for (k, _) in page {
            let Some(id) = k.get(prefix.len()..).and_then(Hash::from_slice) else {
                continue;
            };
            reads += 1;
            let Some(record) = entitlement(world, &id)? else {
                continue;
            };
            if record.constraints.spent_at(height) {
                remove(world, &id, &record)?;
                continue;
            }
            let (ok, chain) = usable(world, &record, height)?;
            reads += chain;
            if ok {
                return Ok(Holding { held: true, reads });
            }
        }
    }
    // Roles naming this scope only (made by its owner: `may_grant` at creation).
    let prefix = cowboy_types::state::key::storage(
        &REGISTRY,
        &keys::role_scope_prefix(grantee, &scope.hash()),
    );
    let page = world
        .overlay
        .scan(&prefix, None, MAX_ROLES_PER_ADDRESS as usize)?;
    reads += 1;
    for (k, _) in page {
        let Some(id) = k.get(prefix.len()..).and_then(Hash::from_slice) else {
            continue;
        };
        reads += 1;
        if let Some(r) = role(world, &id)?
            && r.constraints.live_at(height)
            && r.scopes.contains(scope)
            && r.actions.iter().any(|a| a.permits(action))
        {
            return Ok(Holding { held: true, reads });
        }
    }
    Ok(Holding { held: false, reads })
}

fn hex(bytes: &[u8]) -> String {
    cowboy_types::encode_hex(bytes)
}

/// Runs an Entitlement Registry instruction from `sender`.
pub(crate) fn execute(
    x: &mut Executor<'_, '_>,
    sender: Address,
    op: &EntitlementOp,
) -> Result<Handled, ExecError> {
    let height = x.env.height;
    let world = &mut x.world;
    match op {
        EntitlementOp::Grant {
            grantee,
            scope,
            action,
            constraints,
        } => {
            if let Err(e) = constraints.validate() {
                return Ok(invalid(e.to_string()));
            }
            if let (Action::RunnerJoinPool(p), scope) = (action, scope)
                && *scope != Scope::RunnerPool(p.clone())
            {
                return Ok(invalid(format!(
                    "runner_join_pool:{} is granted in the scope runner_pool:{} (CIP-2 §7.3), not {scope}",
                    hex(p),
                    hex(p)
                )));
            }
            if let Err(e) = may_grant(world, &sender, scope)? {
                return Ok(refused(failure::MISSING_ENTITLEMENT, e));
            }
            let id = entitlement_id(grantee, scope, action, None);
            store(
                world,
                id,
                Entitlement {
                    grantee: *grantee,
                    scope: scope.clone(),
                    action: action.clone(),
                    constraints: *constraints,
                    parent_id: None,
                    granter: sender,
                    granted_at: height,
                    depth: 0,
                    nonce: 0,
                    parent_nonce: 0,
                },
            )
        }
        EntitlementOp::Revoke { entitlement_id: id } => {
            let Some(record) = entitlement(world, id)? else {
                return Ok(refused(
                    failure::ENTITLEMENT_NOT_FOUND,
                    format!(
                        "no entitlement {id} (never granted, revoked, or expired and cleaned up)"
                    ),
                ));
            };
            // Its holder may always give it up; its granter and the scope's owner may take it
            // back when it was granted revocable.
            if record.grantee == sender {
                remove(world, id, &record)?;
                return Ok(Handled::Delivered(Vec::new()));
            }
            let owner = owner(world, &record.scope)?;
            if record.granter != sender && owner != Some(sender) {
                return Ok(refused(
                    failure::MISSING_ENTITLEMENT,
                    format!(
                        "entitlement {id} is revoked by its granter {}, the owner of {}, or given up by its holder",
                        record.granter, record.scope
                    ),
                ));
            }
            if !record.constraints.revocable {
                return Ok(invalid(format!(
                    "entitlement {id} was granted with revocable = false"
                )));
            }
            remove(world, id, &record)?;
            Ok(Handled::Delivered(Vec::new()))
        }
        EntitlementOp::Delegate {
            entitlement_id: parent_id,
            delegatee,
            constraints,
        } => {
            let Some(parent) = entitlement(world, parent_id)? else {
                return Ok(refused(
                    failure::ENTITLEMENT_NOT_FOUND,
                    format!("no entitlement {parent_id} to delegate"),
                ));
            };
            if parent.grantee != sender {
                return Ok(refused(
                    failure::MISSING_ENTITLEMENT,
                    format!(
                        "entitlement {parent_id} is held by {}; only its holder delegates it",
                        parent.grantee
                    ),
                ));
            }
            if !parent.constraints.delegatable {
                return Ok(invalid(format!(
                    "entitlement {parent_id} is not delegatable"
                )));
            }
            if !usable(world, &parent, height)?.0 {
                return Ok(invalid(format!(
                    "entitlement {parent_id} is not usable at height {height} (outside its window, used up, or its delegator's record is gone)"
                )));
            }
            if let Err(e) = constraints.within(&parent.constraints) {
                return Ok(invalid(e.to_string()));
            }
            let id = entitlement_id(delegatee, &parent.scope, &parent.action, Some(parent_id));
            store(
                world,
                id,
                Entitlement {
                    grantee: *delegatee,
                    scope: parent.scope.clone(),
                    action: parent.action.clone(),
                    constraints: *constraints,
                    parent_id: Some(*parent_id),
                    granter: sender,
                    granted_at: height,
                    depth: parent.depth.saturating_add(1),
                    nonce: 0,
                    parent_nonce: parent.nonce,
                },
            )
        }
        EntitlementOp::CreateRole {
            name,
            scopes,
            actions,
            constraints,
        } => {
            if let Err(e) = constraints.validate() {
                return Ok(invalid(e.to_string()));
            }
            if scopes.is_empty() || actions.is_empty() {
                return Ok(invalid("a role names at least one scope and one action"));
            }
            let id = role_id(&sender, name);
            if role(world, &id)?.is_some() {
                return Ok(invalid(format!(
                    "{sender} already has a role named {} ({id})",
                    hex(name)
                )));
            }
            for action in actions.iter() {
                if let Action::RunnerJoinPool(p) = action
                    && !scopes.contains(&Scope::RunnerPool(p.clone()))
                {
                    return Ok(invalid(format!(
                        "a role granting {action} names the scope runner_pool:{} (CIP-2 §7.3)",
                        hex(p)
                    )));
                }
            }
            for scope in scopes.iter() {
                if let Err(e) = may_grant(world, &sender, scope)? {
                    return Ok(refused(failure::MISSING_ENTITLEMENT, e));
                }
            }
            let record = Role {
                name: name.clone(),
                creator: sender,
                scopes: scopes.clone(),
                actions: actions.clone(),
                constraints: *constraints,
                created_at: height,
            };
            world.set_storage(&REGISTRY, &keys::role(&id), Some(&encode_record(&record)));
            returning(&id)
        }
        EntitlementOp::AssignRole { role_id, assignee } => {
            let Some(r) = role(world, role_id)? else {
                return Ok(refused(
                    failure::ENTITLEMENT_NOT_FOUND,
                    format!("no role {role_id}"),
                ));
            };
            if r.creator != sender {
                return Ok(refused(
                    failure::MISSING_ENTITLEMENT,
                    format!("role {role_id} is assigned by its creator {}", r.creator),
                ));
            }
            let key = keys::assigned(assignee, role_id);
            if world.storage(&REGISTRY, &key)?.is_some() {
                return Ok(invalid(format!("{assignee} already has role {role_id}")));
            }
            let count = counter(world, &keys::role_count(assignee))?;
            if count >= MAX_ROLES_PER_ADDRESS {
                return Ok(invalid(format!(
                    "{assignee} already has {MAX_ROLES_PER_ADDRESS} roles, the most an address may (CIP-2 §7.5)"
                )));
            }
            set_counter(world, &keys::role_count(assignee), count + 1);
            world.set_storage(&REGISTRY, &key, Some(&height.to_be_bytes()));
            for scope in r.scopes.iter() {
                world.set_storage(
                    &REGISTRY,
                    &keys::role_scope(assignee, &scope.hash(), role_id),
                    Some(&[]),
                );
            }
            Ok(Handled::Delivered(Vec::new()))
        }
        EntitlementOp::RevokeRole { role_id, assignee } => {
            let Some(r) = role(world, role_id)? else {
                return Ok(refused(
                    failure::ENTITLEMENT_NOT_FOUND,
                    format!("no role {role_id}"),
                ));
            };
            // The creator takes a role back; an assignee may give it up.
            if r.creator != sender && *assignee != sender {
                return Ok(refused(
                    failure::MISSING_ENTITLEMENT,
                    format!(
                        "role {role_id} is revoked by its creator {} or given up by its assignee",
                        r.creator
                    ),
                ));
            }
            let key = keys::assigned(assignee, role_id);
            if world.storage(&REGISTRY, &key)?.is_none() {
                return Ok(refused(
                    failure::ENTITLEMENT_NOT_FOUND,
                    format!("{assignee} does not have role {role_id}"),
                ));
            }
            world.set_storage(&REGISTRY, &key, None);
            for scope in r.scopes.iter() {
                world.set_storage(
                    &REGISTRY,
                    &keys::role_scope(assignee, &scope.hash(), role_id),
                    None,
                );
            }
            let count = counter(world, &keys::role_count(assignee))?;
            set_counter(world, &keys::role_count(assignee), count.saturating_sub(1));
            Ok(Handled::Delivered(Vec::new()))
        }
    }
}

/// An address's records and roles, each with its id.
pub type HeldBy = (Vec<(Hash, Entitlement)>, Vec<(Hash, Role)>);

/// Every record `grantee` holds (at most 256) and every role assigned to it (at most 64), in
/// key order, for the RPC.
pub fn of_address(world: &World<'_>, grantee: &Address) -> Result<HeldBy, ExecError> {
    let prefix = cowboy_types::state::key::storage(&REGISTRY, &keys::held_by(grantee));
    let mut held = Vec::new();
    for (k, _) in world
        .overlay
        .scan(&prefix, None, MAX_ENTITLEMENTS_PER_ADDRESS as usize)?
    {
        let Some(id) = k
            .len()
            .checked_sub(32)
            .and_then(|i| Hash::from_slice(&k[i..]))
        else {
            continue;
        };
        if let Some(e) = entitlement(world, &id)? {
            held.push((id, e));
        }
    }
    let prefix = cowboy_types::state::key::storage(&REGISTRY, &keys::assigned_to(grantee));
    let mut roles = Vec::new();
    for (k, _) in world
        .overlay
        .scan(&prefix, None, MAX_ROLES_PER_ADDRESS as usize)?
    {
        let Some(id) = k.get(prefix.len()..).and_then(Hash::from_slice) else {
            continue;
        };
        if let Some(r) = role(world, &id)? {
            roles.push((id, r));
        }
    }
    Ok((held, roles))
}
