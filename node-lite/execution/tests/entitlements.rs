//! The Entitlement Registry (0x…07; CIP-2 §7) on the block pipeline: who may grant in which
//! scope, renewals, revocation, delegation within the parent's constraints, roles, the
//! per-address limits, and the check every other rule asks.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use common::*;
use cowboy_execution::{entitlements, params::Parameters, world::World};
use cowboy_types::{
    Address, Hash, Instruction, SystemInstruction,
    entitlement::{
        Action, Constraints, EntitlementOp, MAX_ENTITLEMENTS_PER_ADDRESS, Name, Scope,
        entitlement_id, role_id,
    },
    receipt::failure as kind,
};

fn node() -> Node {
    let funded: Vec<(Address, u64)> = (1..=4).map(|i| (key(i).address(), 1_000 * CBY)).collect();
    Node::new(&genesis_with(Parameters::spec(), &funded))
}

fn op(op: EntitlementOp) -> Instruction {
    Instruction::System(SystemInstruction::Entitlement(op))
}

fn pool() -> (Scope, Action) {
    let p = Name::new(b"pool".to_vec()).unwrap();
    (Scope::RunnerPool(p.clone()), Action::RunnerJoinPool(p))
}

fn grant(grantee: Address, constraints: Constraints) -> Instruction {
    let (scope, action) = pool();
    op(EntitlementOp::Grant {
        grantee,
        scope,
        action,
        constraints,
    })
}

/// Sends `i` from key `from` in its own block.
fn send(
    node: &Node,
    engine: &mut cowboy_pvm::Engine,
    from: u8,
    i: Instruction,
) -> cowboy_types::Receipt {
    let k = key(from);
    let t = tx(&k, node.account(&k.address()).nonce, i);
    let hash = t.digest();
    receipt_of(&node.block(engine, vec![t]), &hash).clone()
}

fn refused(r: &cowboy_types::Receipt, expected: u8, says: &str) {
    let (k, message) = failure(r);
    assert_eq!(k, expected, "{message}");
    assert!(message.contains(says), "{message:?} should say {says:?}");
}

/// Whether `who` holds the pool membership now (the check the dispatcher asks).
fn holds(node: &Node, who: &Address) -> bool {
    let snap = node.chain.store().snapshot().expect("snapshot");
    let mut world = World::new(cowboy_state::Overlay::new(&snap));
    let (scope, action) = pool();
    entitlements::holds(&mut world, who, &scope, &action, node.height() + 1)
        .expect("check")
        .held
}

#[test]
fn grants_follow_scope_ownership_and_revocations_follow_the_granter() {
    with_engine(|engine| {
        let node = node();
        let [owner, member, stranger] = [1u8, 2, 3].map(|i| key(i).address());
        let revocable = Constraints {
            revocable: true,
            ..Default::default()
        };
        // The first grant claims the pool; it returns the record's id.
        let r = send(&node, engine, 1, grant(member, revocable));
        assert_success(&r);
        let (scope, action) = pool();
        let id = entitlement_id(&member, &scope, &action, None);
        assert_eq!(returned(&r), cowboy_pvm::Value::Bytes(id.0.to_vec()));
        assert!(holds(&node, &member) && !holds(&node, &stranger));
        // Someone else may not grant there, nor renew the owner's record.
        refused(
            &send(&node, engine, 3, grant(stranger, revocable)),
            kind::MISSING_ENTITLEMENT,
            &format!("belongs to {owner}"),
        );
        // Scopes only their subject or Governance grant in.
        for (scope, says) in [
            (Scope::Global, "Governance"),
            (Scope::Token(Hash([1; 32])), "Governance"),
            (Scope::Actor(stranger), "only"),
        ] {
            let r = send(
                &node,
                engine,
                1,
                op(EntitlementOp::Grant {
                    grantee: member,
                    scope,
                    action: Action::All,
                    constraints: Constraints::default(),
                }),
            );
            refused(&r, kind::MISSING_ENTITLEMENT, says);
        }
        // A pool membership is granted in its own pool's scope.
        let r = send(
            &node,
            engine,
            1,
            op(EntitlementOp::Grant {
                grantee: member,
                scope: Scope::Namespace(Name::new(b"pool".to_vec()).unwrap()),
                action: action.clone(),
                constraints: Constraints::default(),
            }),
        );
        refused(
            &r,
            kind::INVALID_ENTITLEMENT,
            "is granted in the scope runner_pool",
        );
        // Constraints are checked.
        let deep = Constraints {
            delegatable: true,
            delegation_depth_max: 6,
            ..Default::default()
        };
        refused(
            &send(&node, engine, 1, grant(member, deep)),
            kind::INVALID_ENTITLEMENT,
            "at most 5",
        );
        // A renewal by the granter replaces the constraints and keeps the id.
        let until = Constraints {
            valid_until: Some(100),
            revocable: true,
            ..Default::default()
        };
        let r = send(&node, engine, 1, grant(member, until));
        assert_eq!(returned(&r), cowboy_pvm::Value::Bytes(id.0.to_vec()));
        // Only the granter (or the scope's owner) revokes, and only a revocable record.
        let revoke = op(EntitlementOp::Revoke { entitlement_id: id });
        refused(
            &send(&node, engine, 3, revoke.clone()),
            kind::MISSING_ENTITLEMENT,
            "revoked by its granter",
        );
        assert_success(&send(&node, engine, 1, revoke.clone()));
        assert!(!holds(&node, &member));
        refused(
            &send(&node, engine, 1, revoke),
            kind::ENTITLEMENT_NOT_FOUND,
            "no entitlement",
        );
        assert_success(&send(
            &node,
            engine,
            1,
            grant(
                stranger,
                Constraints {
                    revocable: false,
                    ..Default::default()
                },
            ),
        ));
        let fixed = entitlement_id(&stranger, &scope, &action, None);
        // Its holder may always give it up (nobody can fill an address's slots for good).
        let r = send(
            &node,
            engine,
            3,
            op(EntitlementOp::Revoke {
                entitlement_id: fixed,
            }),
        );
        assert_success(&r);
        assert_success(&send(
            &node,
            engine,
            1,
            grant(
                stranger,
                Constraints {
                    revocable: false,
                    ..Default::default()
                },
            ),
        ));
        // A pool named after an address is that address's alone.
        let mut squat = key(4).address().0.to_vec();
        squat.extend_from_slice(b"pool");
        let squat = Name::new(squat).unwrap();
        let r = send(
            &node,
            engine,
            1,
            op(EntitlementOp::Grant {
                grantee: member,
                scope: Scope::RunnerPool(squat.clone()),
                action: Action::RunnerJoinPool(squat),
                constraints: Constraints::default(),
            }),
        );
        refused(&r, kind::MISSING_ENTITLEMENT, "reserved for that address");
        refused(
            &send(
                &node,
                engine,
                1,
                op(EntitlementOp::Revoke {
                    entitlement_id: fixed,
                }),
            ),
            kind::INVALID_ENTITLEMENT,
            "revocable = false",
        );
    });
}

#[test]
fn delegation_stays_within_its_parent_and_dies_with_it() {
    with_engine(|engine| {
        let node = node();
        let [holder, delegate] = [2u8, 3].map(|i| key(i).address());
        let parent = Constraints {
            valid_until: Some(50),
            delegatable: true,
            delegation_depth_max: 2,
            revocable: true,
            ..Default::default()
        };
        assert_success(&send(&node, engine, 1, grant(holder, parent)));
        let (scope, action) = pool();
        let parent_id = entitlement_id(&holder, &scope, &action, None);
        let delegate_with = |constraints| {
            op(EntitlementOp::Delegate {
                entitlement_id: parent_id,
                delegatee: delegate,
                constraints,
            })
        };
        let child = Constraints {
            valid_until: Some(40),
            delegatable: true,
            delegation_depth_max: 1,
            revocable: true,
            ..Default::default()
        };
        // Only the holder delegates; looser constraints are refused.
        refused(
            &send(&node, engine, 3, delegate_with(child)),
            kind::MISSING_ENTITLEMENT,
            "only its holder",
        );
        let mut loose = child;
        loose.valid_until = Some(60);
        refused(
            &send(&node, engine, 2, delegate_with(loose)),
            kind::INVALID_ENTITLEMENT,
            "valid_until is after the parent's",
        );
        let mut as_deep = child;
        as_deep.delegation_depth_max = 2;
        refused(
            &send(&node, engine, 2, delegate_with(as_deep)),
            kind::INVALID_ENTITLEMENT,
            "below the parent's",
        );
        let r = send(&node, engine, 2, delegate_with(child));
        assert_success(&r);
        assert!(holds(&node, &delegate));
        let child_id = entitlement_id(&delegate, &scope, &action, Some(&parent_id));
        assert_eq!(returned(&r), cowboy_pvm::Value::Bytes(child_id.0.to_vec()));
        // Revoking the parent (its granter, key 1) ends the delegate's too, and granting the
        // parent again (the same id) does not bring the old delegate back.
        let revoke_parent = op(EntitlementOp::Revoke {
            entitlement_id: parent_id,
        });
        assert_success(&send(&node, engine, 1, revoke_parent));
        assert!(!holds(&node, &delegate));
        assert_success(&send(&node, engine, 1, grant(holder, parent)));
        assert!(holds(&node, &holder));
        assert!(
            !holds(&node, &delegate),
            "a delegate of the revoked record stays dead"
        );
        // Renewing the parent as not delegatable ends delegates made under it.
        let r = send(&node, engine, 2, delegate_with(child));
        assert_success(&r);
        assert!(holds(&node, &delegate));
        assert_success(&send(
            &node,
            engine,
            1,
            grant(holder, Constraints::default()),
        ));
        assert!(!holds(&node, &delegate));
        // A revocable parent's delegate is revocable too.
        let mut fixed = child;
        fixed.revocable = false;
        assert_success(&send(&node, engine, 1, grant(holder, parent)));
        refused(
            &send(&node, engine, 2, delegate_with(fixed)),
            kind::INVALID_ENTITLEMENT,
            "revocable too",
        );
    });
}

#[test]
fn roles_grant_what_they_collect_until_taken_back() {
    with_engine(|engine| {
        let node = node();
        let member = key(2).address();
        let (scope, action) = pool();
        let name = Name::new(b"operators".to_vec()).unwrap();
        let create = op(EntitlementOp::CreateRole {
            name: name.clone(),
            scopes: vec![scope.clone()].try_into().unwrap(),
            actions: vec![Action::All].try_into().unwrap(),
            constraints: Constraints::default(),
        });
        let r = send(&node, engine, 1, create.clone());
        assert_success(&r);
        let id = role_id(&key(1).address(), &name);
        assert_eq!(returned(&r), cowboy_pvm::Value::Bytes(id.0.to_vec()));
        refused(
            &send(&node, engine, 1, create),
            kind::INVALID_ENTITLEMENT,
            "already has a role",
        );
        // The role claimed the pool: nobody else builds a role or grants in it.
        let other = op(EntitlementOp::CreateRole {
            name,
            scopes: vec![scope].try_into().unwrap(),
            actions: vec![action].try_into().unwrap(),
            constraints: Constraints::default(),
        });
        refused(
            &send(&node, engine, 3, other),
            kind::MISSING_ENTITLEMENT,
            "belongs to",
        );
        let assign = op(EntitlementOp::AssignRole {
            role_id: id,
            assignee: member,
        });
        refused(
            &send(&node, engine, 3, assign.clone()),
            kind::MISSING_ENTITLEMENT,
            "its creator",
        );
        assert!(!holds(&node, &member));
        assert_success(&send(&node, engine, 1, assign.clone()));
        assert!(
            holds(&node, &member),
            "`all` in the role covers runner_join_pool"
        );
        refused(
            &send(&node, engine, 1, assign),
            kind::INVALID_ENTITLEMENT,
            "already has role",
        );
        // The assignee may give it up.
        assert_success(&send(
            &node,
            engine,
            2,
            op(EntitlementOp::RevokeRole {
                role_id: id,
                assignee: member,
            }),
        ));
        assert!(!holds(&node, &member));
    });
}

#[test]
fn an_address_holds_at_most_256_entitlements() {
    with_engine(|engine| {
        let node = node();
        let member = key(2).address();
        let owner = key(1);
        let mut nonce = node.account(&owner.address()).nonce;
        let grants: Vec<Instruction> = (0..=MAX_ENTITLEMENTS_PER_ADDRESS)
            .map(|i| {
                let p = Name::new(i.to_be_bytes().to_vec()).unwrap();
                op(EntitlementOp::Grant {
                    grantee: member,
                    scope: Scope::RunnerPool(p.clone()),
                    action: Action::RunnerJoinPool(p),
                    constraints: Constraints::default(),
                })
            })
            .collect();
        let mut last = None;
        for chunk in grants.chunks(16) {
            let txs: Vec<_> = chunk
                .iter()
                .map(|i| {
                    let t = tx(&owner, nonce, i.clone());
                    nonce += 1;
                    t
                })
                .collect();
            let hashes: Vec<Hash> = txs.iter().map(|t| t.digest()).collect();
            let executed = node.block(engine, txs);
            last = Some(receipt_of(&executed, hashes.last().unwrap()).clone());
            for h in &hashes[..hashes.len() - usize::from(chunk.len() < 16)] {
                assert_success(receipt_of(&executed, h));
            }
        }
        refused(
            &last.unwrap(),
            kind::INVALID_ENTITLEMENT,
            "already holds 256 entitlements",
        );
    });
}
