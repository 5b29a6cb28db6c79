//! Property tests: `decode(encode(tx)) == tx` for generated transactions, and
//! `encode(decode(b)) == b` for every byte string the decoder accepts.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod common;

use cowboy_types::{transaction::*, *};
use proptest::prelude::*;

fn address() -> impl Strategy<Value = Address> {
    any::<[u8; 20]>().prop_map(Address)
}
fn hash() -> impl Strategy<Value = Hash> {
    any::<[u8; 32]>().prop_map(Hash)
}
fn signature() -> impl Strategy<Value = Signature> {
    proptest::collection::vec(any::<u8>(), 65).prop_map(|v| Signature::from_slice(&v).unwrap())
}
fn small_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..64)
}
/// Scalars biased toward varint boundaries.
fn scalar() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(127),
        Just(128),
        Just(16_383),
        Just(16_384),
        Just(u64::MAX),
        any::<u64>(),
        0..1_000_000u64,
    ]
}

fn timer() -> BoxedStrategy<TimerSpec> {
    (
        address(),
        "[a-z_]{1,20}",
        small_bytes(),
        scalar(),
        scalar(),
        proptest::option::of(scalar()),
        proptest::option::of((scalar(), scalar())),
    )
        .prop_map(
            |(actor, handler, args, cycles_per_fire, cells_per_fire, expires_at, bid)| TimerSpec {
                actor,
                handler,
                args,
                cycles_per_fire,
                cells_per_fire,
                expires_at,
                bid: bid.map(|(max_fee_per_cycle, max_priority_fee_per_cycle)| {
                    cowboy_types::TimerBid {
                        max_fee_per_cycle,
                        max_priority_fee_per_cycle,
                    }
                }),
            },
        )
        .boxed()
}

fn profile() -> BoxedStrategy<runner::RunnerProfile> {
    use runner::*;
    (
        prop_oneof![
            hash().prop_map(RunnerKey::Ed25519),
            any::<[u8; 32]>().prop_map(|k| {
                let mut b = [2u8; 33];
                b[1..].copy_from_slice(&k);
                RunnerKey::Secp256k1(b)
            }),
        ],
        proptest::sample::subsequence(JobType::ALL.to_vec(), 0..=4),
        proptest::collection::vec(hash(), 0..3),
        proptest::collection::vec("[a-z0-9.*-]{0,30}", 0..3),
        any::<bool>(),
        (any::<u64>(), any::<u64>(), any::<u64>()),
        (scalar(), any::<u64>(), ".{0,40}"),
    )
        .prop_map(
            |(
                key,
                types,
                models,
                domains,
                tee,
                (per_job, per_1k_tokens, per_second),
                (max_concurrent_jobs, max_job_value, endpoint),
            )| {
                RunnerProfile {
                    key,
                    capabilities: Capabilities {
                        job_types: JobTypes::of(&types),
                        models,
                        domains,
                        tee,
                    },
                    rate_card: RateCard {
                        per_job,
                        per_1k_tokens,
                        per_second,
                    },
                    max_concurrent_jobs,
                    max_job_value,
                    endpoint,
                }
            },
        )
        .boxed()
}

fn entitlement_op() -> BoxedStrategy<cowboy_types::entitlement::EntitlementOp> {
    use cowboy_types::entitlement::{Action, Constraints, EntitlementOp, Name, RateLimit, Scope};
    let name = || proptest::collection::vec(any::<u8>(), 0..8).prop_map(|b| Name::new(b).unwrap());
    let scope = prop_oneof![
        Just(Scope::Global),
        address().prop_map(Scope::Actor),
        hash().prop_map(Scope::Token),
        name().prop_map(Scope::RunnerPool),
    ];
    let action = prop_oneof![
        Just(Action::All),
        Just(Action::SystemUpgrade),
        name().prop_map(Action::RunnerJoinPool),
        proptest::option::of(any::<u64>())
            .prop_map(|min_stake_override| Action::RunnerRegister { min_stake_override }),
    ];
    let constraints = (
        proptest::option::of(any::<u64>()),
        proptest::option::of(any::<u64>()),
        any::<u64>(),
        proptest::option::of((any::<u64>(), any::<u64>())),
        any::<bool>(),
        any::<u8>(),
    )
        .prop_map(
            |(valid_from, valid_until, max_uses, rate, delegatable, depth)| Constraints {
                valid_from,
                valid_until,
                max_uses,
                rate_limit: rate.map(|(max_uses, window_blocks)| RateLimit {
                    max_uses,
                    window_blocks,
                }),
                delegatable,
                delegation_depth_max: depth,
                ..Default::default()
            },
        );
    (address(), scope, action, constraints, hash())
        .prop_flat_map(|(a, scope, action, constraints, id)| {
            prop_oneof![
                Just(EntitlementOp::Grant {
                    grantee: a,
                    scope: scope.clone(),
                    action: action.clone(),
                    constraints,
                }),
                Just(EntitlementOp::Revoke { entitlement_id: id }),
                Just(EntitlementOp::Delegate {
                    entitlement_id: id,
                    delegatee: a,
                    constraints,
                }),
                Just(EntitlementOp::CreateRole {
                    name: Name::new(b"ops".to_vec()).unwrap(),
                    scopes: vec![scope.clone()].try_into().unwrap(),
                    actions: vec![action.clone(), Action::All].try_into().unwrap(),
                    constraints,
                }),
                Just(EntitlementOp::AssignRole {
                    role_id: id,
                    assignee: a,
                }),
                Just(EntitlementOp::RevokeRole {
                    role_id: id,
                    assignee: a,
                }),
            ]
        })
        .boxed()
}

fn instruction() -> BoxedStrategy<Instruction> {
    prop_oneof![
        (profile(), any::<u64>()).prop_map(|(p, stake)| Instruction::System(
            SystemInstruction::RunnerRegister {
                profile: Box::new(p),
                stake
            }
        )),
        profile().prop_map(|p| Instruction::System(SystemInstruction::RunnerUpdate {
            profile: Box::new(p)
        })),
        Just(Instruction::System(SystemInstruction::RunnerHeartbeat)),
        any::<u64>()
            .prop_map(|amount| Instruction::System(SystemInstruction::RunnerAddStake { amount })),
        any::<u64>().prop_map(|amount| Instruction::System(
            SystemInstruction::RunnerWithdrawStake { amount }
        )),
        Just(Instruction::System(SystemInstruction::RunnerExit)),
        Just(Instruction::System(SystemInstruction::RunnerClaim)),
        (1..u64::MAX).prop_map(|max_price| {
            let mut spec: job::JobSpec = serde_json::from_str(
                r#"{"input": {"llm": {"model": "0x0909090909090909090909090909090909090909090909090909090909090909",
                     "messages": [{"role": "user", "content": "héllo"}], "max_tokens": 8}},
                    "bounds": {"max_wall_ms": 1000, "max_tokens": 8},
                    "schema": {"max_return_bytes": 10, "expected_execution_ms": 10, "data_format": {"text": {}}},
                    "verification": {"mode": {"structured_match": {"checks": [{"numeric_range": {"field": "/x", "min": -5, "max": 5}}]}}, "runners": 2},
                    "max_price": "1", "timeout_blocks": 3,
                    "callback": {"actor": "0x0000000000000000000000000000000000000042", "handler": "done"},
                    "required_runner_pool": "0x6575"}"#,
            )
            .unwrap();
            spec.max_price = max_price;
            Instruction::System(SystemInstruction::JobSubmit {
                spec: Box::new(spec),
            })
        }),
        (address(), any::<u64>()).prop_map(|(to, amount)| Instruction::System(
            SystemInstruction::Transfer { to, amount }
        )),
        (timer(), scalar()).prop_map(|(timer, height)| Instruction::System(
            SystemInstruction::SetTimer { timer, height }
        )),
        (timer(), scalar(), scalar()).prop_map(|(timer, start_height, every_blocks)| {
            Instruction::System(SystemInstruction::SetInterval {
                timer,
                start_height,
                every_blocks,
            })
        }),
        hash()
            .prop_map(|timer_id| Instruction::System(SystemInstruction::CancelTimer { timer_id })),
        (
            ".{0,200}",
            hash(),
            small_bytes(),
            any::<u64>(),
            proptest::sample::subsequence(
                cowboy_types::entitlement::ActorEntitlement::ALL.to_vec(),
                0..=3
            )
        )
            .prop_map(|(code, salt, init_args, value, declared)| {
                Instruction::Actor(ActorInstruction::Deploy {
                    code,
                    salt,
                    init_args,
                    value,
                    entitlements: cowboy_types::entitlement::ActorEntitlements::of(&declared),
                })
            }),
        entitlement_op()
            .prop_map(|op| Instruction::System(SystemInstruction::Entitlement(op))),
        (
            address(),
            "[a-zA-Z_][a-zA-Z0-9_]{0,40}",
            small_bytes(),
            any::<u64>()
        )
            .prop_map(|(to, method, args, value)| Instruction::Actor(
                ActorInstruction::Message {
                    to,
                    method,
                    args,
                    value,
                }
            )),
    ]
    .boxed()
}

prop_compose! {
    fn transaction()(
        scalars in proptest::collection::vec(scalar(), 8),
        instruction in instruction(),
        from in address(),
        access_list in proptest::option::of(proptest::collection::vec(
            (address(), proptest::collection::vec(hash(), 0..3))
                .prop_map(|(address, storage_keys)| AccessListEntry { address, storage_keys }),
            0..3,
        )),
        metadata in small_bytes(),
        origin in proptest::option::of((hash(), scalar(), scalar()).prop_map(
            |(tx_hash, remaining_cycles, remaining_cells)| Origin { tx_hash, remaining_cycles, remaining_cells },
        )),
        signature in signature(),
        additional_signers in proptest::collection::vec(
            (address(), signature()).prop_map(|(address, signature)| AdditionalSigner { address, signature }),
            0..4,
        ),
    ) -> Transaction {
        Transaction {
            chain_id: scalars[0],
            nonce: scalars[1],
            instruction,
            cycles_limit: scalars[2],
            cells_limit: scalars[3],
            max_fee_per_cycle: scalars[4],
            max_fee_per_cell: scalars[5],
            max_priority_fee_per_cycle: scalars[6],
            max_priority_fee_per_cell: scalars[7],
            from,
            access_list,
            metadata,
            origin,
            signature,
            additional_signers,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn decode_of_encode_is_identity(tx in transaction()) {
        let bytes = tx.to_bytes();
        prop_assert_eq!(bytes.len(), commonware_codec::EncodeSize::encode_size(&tx));
        prop_assert_eq!(Transaction::decode_strict(&bytes).unwrap(), tx);
    }

    #[test]
    fn json_round_trip_preserves_the_transaction(tx in transaction()) {
        // Signing input must list co-signers in order and without the sender.
        if !tx.additional_signers_are_ordered() || tx.additional_signers.iter().any(|s| s.address == tx.from) {
            return Ok(());
        }
        let json = serde_json::to_string(&TransactionJson::from(&tx)).unwrap();
        let mut parsed = TransactionJson::parse(&json).unwrap();
        parsed.hash = None;
        let signature = parsed.signature.take();
        let mut back = parsed.into_unsigned(tx.from).unwrap();
        back.signature = signature.unwrap();
        // Deploy source is canonicalised on the way in.
        if let Instruction::Actor(ActorInstruction::Deploy { code, .. }) = &tx.instruction
            && !is_canonical_source(code)
        {
            return Ok(());
        }
        prop_assert_eq!(back, tx);
    }

    /// Mutating a valid encoding (flip, insert, delete bytes) must either be rejected or decode
    /// to something that re-encodes to exactly the same bytes.
    #[test]
    fn every_accepted_byte_string_re_encodes_identically(
        tx in transaction(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..4),
    ) {
        let mut bytes = tx.to_bytes();
        for (index, byte, kind) in edits {
            let at = index.index(bytes.len().max(1));
            match kind {
                0 if !bytes.is_empty() => bytes[at] = byte,
                1 => bytes.insert(at.min(bytes.len()), byte),
                _ if !bytes.is_empty() => { bytes.remove(at); }
                _ => {}
            }
        }
        if let Ok(decoded) = Transaction::decode_strict(&bytes) {
            prop_assert_eq!(decoded.to_bytes(), bytes);
        }
    }

    #[test]
    fn random_bytes_never_panic_and_accepted_ones_re_encode(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(decoded) = Transaction::decode_strict(&bytes) {
            prop_assert_eq!(decoded.to_bytes(), bytes);
        }
    }
}
