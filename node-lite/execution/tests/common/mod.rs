//! A small chain for tests: a genesis with funded keys and one validator, helpers to sign
//! transactions, and a way to run blocks (proposed, re-verified by a second replica, committed).
#![allow(dead_code)]

use cowboy_crypto::PrivateKey;
use cowboy_execution::{
    Chain, Executed, Genesis, Parameters, Proposal, VerifiedTx, genesis::Allocation,
    genesis::GenesisValidator, params::BASE_UNITS_PER_CBY,
};
use cowboy_pvm::{Engine, Value};
use cowboy_types::{
    ActorInstruction, Address, Beacon, Hash, Instruction, Receipt, Round, Status,
    SystemInstruction, Transaction,
    block::BEACON_SIGNATURE_LEN,
    json::{Amount, HexBytes},
};

pub const CHAIN_ID: u64 = 42;
pub const CBY: u64 = BASE_UNITS_PER_CBY;

/// Runs `f` on a thread with the PVM's large stack and a fresh engine.
pub fn with_engine<R: Send + 'static>(f: impl FnOnce(&mut Engine) -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(cowboy_pvm::thread::STACK_BYTES)
        .spawn(move || {
            let mut engine = Engine::new().expect("PVM starts");
            f(&mut engine)
        })
        .expect("thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

pub fn key(i: u8) -> PrivateKey {
    let mut b = [0u8; 32];
    b[31] = i;
    b[0] = 0x42;
    PrivateKey::from_bytes(&b).expect("valid key")
}

pub fn validator_address() -> Address {
    key(200).address()
}

pub fn genesis_with(params: Parameters, funded: &[(Address, u64)]) -> Genesis {
    Genesis {
        chain_id: CHAIN_ID,
        genesis_time_ms: 1_000,
        allocations: funded
            .iter()
            .map(|(a, b)| Allocation {
                address: *a,
                balance: Amount(*b),
            })
            .collect(),
        validators: vec![GenesisValidator {
            address: validator_address(),
            stake: Amount(100_000 * CBY),
            public_key: HexBytes(vec![7; 32]),
        }],
        runners: Vec::new(),
        threshold_public: None,
        tee_simulated_key: None,
        parameters: params,
        carried: None,
    }
}

/// A genesis giving keys 1..=n a million CBY each.
pub fn genesis(n: u8) -> Genesis {
    let funded: Vec<_> = (1..=n)
        .map(|i| (key(i).address(), 1_000_000 * CBY))
        .collect();
    genesis_with(Parameters::spec(), &funded)
}

/// A transaction from `key` with generous limits at the minimum basefee.
pub fn tx(key: &PrivateKey, nonce: u64, instruction: Instruction) -> Transaction {
    tx_with(key, nonce, instruction, 2_000_000, 200_000)
}

pub fn tx_with(
    key: &PrivateKey,
    nonce: u64,
    instruction: Instruction,
    cycles_limit: u64,
    cells_limit: u64,
) -> Transaction {
    let mut t = Transaction {
        chain_id: CHAIN_ID,
        nonce,
        instruction,
        cycles_limit,
        cells_limit,
        max_fee_per_cycle: 20_000,
        max_fee_per_cell: 20_000,
        max_priority_fee_per_cycle: 1,
        max_priority_fee_per_cell: 0,
        from: key.address(),
        access_list: None,
        metadata: vec![],
        origin: None,
        signature: Default::default(),
        additional_signers: vec![],
    };
    cowboy_crypto::sign_transaction(&mut t, key).expect("sign");
    t
}

pub fn transfer(to: Address, amount: u64) -> Instruction {
    Instruction::System(SystemInstruction::Transfer { to, amount })
}

pub fn deploy(code: &str, salt: u8, args: Vec<Value>) -> Instruction {
    Instruction::Actor(ActorInstruction::Deploy {
        code: code.to_owned(),
        salt: Hash([salt; 32]),
        init_args: encode_args(args),
        value: 0,
        entitlements: Default::default(),
    })
}

/// A deploy of `code` declaring `entitlements` (whitepaper §15).
pub fn deploy_declaring(
    code: &str,
    salt: u8,
    args: Vec<Value>,
    entitlements: &[cowboy_types::entitlement::ActorEntitlement],
    value: u64,
) -> Instruction {
    Instruction::Actor(ActorInstruction::Deploy {
        code: code.to_owned(),
        salt: Hash([salt; 32]),
        init_args: encode_args(args),
        value,
        entitlements: cowboy_types::entitlement::ActorEntitlements::of(entitlements),
    })
}

pub fn call(to: Address, method: &str, args: Vec<Value>, value: u64) -> Instruction {
    Instruction::Actor(ActorInstruction::Message {
        to,
        method: method.to_owned(),
        args: encode_args(args),
        value,
    })
}

pub fn encode_args(args: Vec<Value>) -> Vec<u8> {
    Value::List(args).encode().expect("encodable")
}

pub fn int(i: i64) -> Value {
    Value::Int(i.into())
}

pub fn actor_at(creator: Address, code: &str, salt: u8) -> Address {
    let canonical = cowboy_types::canonicalize_source(code);
    cowboy_types::actor_address(
        &creator,
        &Hash([salt; 32]),
        &cowboy_types::code_hash(&canonical),
    )
}

pub fn beacon(height: u64) -> Beacon {
    let mut signature = [0u8; BEACON_SIGNATURE_LEN];
    signature[..8].copy_from_slice(&height.to_be_bytes());
    signature[8] = 0xbe;
    Beacon {
        round: Round {
            epoch: 0,
            view: height,
        },
        signature,
    }
}

/// A node under test: a chain in a temporary directory.
pub struct Node {
    pub chain: Chain,
    pub dir: tempfile::TempDir,
    pub genesis: Genesis,
}

impl Node {
    pub fn new(genesis: &Genesis) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let chain = Chain::open(&dir.path().join("state.redb"), genesis).expect("genesis");
        Self {
            chain,
            dir,
            genesis: genesis.clone(),
        }
    }

    pub fn height(&self) -> u64 {
        self.chain.head().expect("head").height
    }

    pub fn proposal(&self) -> Proposal {
        let h = self.height() + 1;
        Proposal {
            round: Round { epoch: 0, view: h },
            timestamp_ms: 1_000 + h * 1_000,
            proposer: validator_address(),
            beacon: beacon(h),
        }
    }

    pub fn verify_all(&self, txs: Vec<Transaction>) -> Vec<VerifiedTx> {
        let params = self.chain.params().expect("params");
        cowboy_execution::verify_all(txs, CHAIN_ID, &params)
            .into_iter()
            .map(|r| r.expect("valid transaction"))
            .collect()
    }

    /// The block a proposer on this node's head builds from `txs` (selected as a validator
    /// selects from its pool), claiming the head's post-state.
    pub fn propose(&self, txs: Vec<Transaction>) -> cowboy_types::Block {
        let chosen = self
            .chain
            .select(self.verify_all(txs), &Default::default())
            .expect("selection");
        let head = self.chain.head().expect("head");
        let claim = self
            .chain
            .outcome(head.height)
            .expect("outcome")
            .expect("the head is executed");
        cowboy_execution::pipeline::assemble(&head, &self.proposal(), &claim, chosen).block
    }

    /// A validator's checks of a proposed `block` on this node's head (the view's leader is
    /// the genesis validator; every beacon counts as verified, the clock is the block's time).
    pub fn check(
        &self,
        block: &cowboy_types::Block,
    ) -> Result<Vec<VerifiedTx>, cowboy_execution::BlockError> {
        let head = self.chain.head().expect("head");
        let view = cowboy_execution::pipeline::View {
            round: block.header.round,
            leader: Some(validator_address()),
            now_ms: block.header.timestamp_ms,
            beacon_verified: &|_| true,
        };
        let params = self.chain.params().expect("params");
        let checked = self
            .chain
            .check_transactions(&block.transactions)
            .expect("checks");
        cowboy_execution::pipeline::check_proposal(&head, block, &view, &params, checked)
    }

    /// Proposes a block from `txs`, executes it as finalized, commits it, and returns it.
    pub fn block(&self, engine: &mut Engine, txs: Vec<Transaction>) -> Executed {
        let block = self.propose(txs);
        let executed = self
            .chain
            .execute(engine, &block, None)
            .expect("block executes");
        self.chain.commit(&executed).expect("commit");
        executed
    }

    pub fn account(&self, a: &Address) -> cowboy_types::Account {
        let snap = self.chain.store().snapshot().expect("snapshot");
        let overlay = cowboy_state::Overlay::new(&snap);
        cowboy_execution::world::World::new(overlay)
            .account(a)
            .expect("account")
    }

    /// The value under `self.storage[k]` of an actor (keys and values are canonical values).
    pub fn storage(&self, actor: &Address, k: &str) -> Option<Value> {
        use cowboy_state::StateRead;
        let snap = self.chain.store().snapshot().expect("snapshot");
        let raw_key = Value::Str(k.into()).encode().expect("key");
        snap.get(&cowboy_types::state::key::storage(actor, &raw_key))
            .expect("read")
            .map(|v| Value::decode(&v).expect("canonical"))
    }
}

/// The receipt of `tx` in `executed`.
pub fn receipt_of<'e>(executed: &'e Executed, tx: &Hash) -> &'e Receipt {
    &executed
        .receipts
        .iter()
        .find(|(r, _)| &r.tx_hash == tx)
        .expect("receipt present")
        .0
}

pub fn assert_success(r: &Receipt) {
    assert_eq!(r.status, Status::Success, "receipt: {r:#?}");
}

/// The canonical value a receipt returned.
pub fn returned(r: &Receipt) -> Value {
    Value::decode(&r.return_data).expect("canonical return value")
}

pub fn failure(r: &Receipt) -> (u8, String) {
    match &r.status {
        Status::Failed { kind, message } => (*kind, message.clone()),
        Status::Success => panic!("expected a failure, got success: {r:#?}"),
    }
}

/// Asserts the block changed nothing but what paying fees changes: the sender's balance and
/// nonce, the validator's balance (reward and tip), the supply counters and the basefees.
pub fn assert_only_fees_changed(executed: &Executed, sender: &Address) {
    use cowboy_types::state::key;
    let allowed = [
        key::account(sender),
        key::account(&validator_address()),
        key::chain("supply"),
        key::chain("inflation"),
        key::storage(
            &cowboy_execution::params::BASEFEE_ACTOR,
            cowboy_execution::world::BASEFEE_KEY,
        ),
    ];
    for k in executed.prepared.changes().keys() {
        assert!(
            allowed.contains(k),
            "the failed transaction changed state key {} (namespace {:#04x})",
            hex::encode(k),
            k[0]
        );
    }
}

/// An actor whose timers record `[label, height]` in `ticks` (the timer and snapshot tests).
pub const TICKER: &str = r#"
import cowboy_sdk as sdk

class Actor:
    def __init__(self):
        self.storage["ticks"] = []

    def tick(self, label):
        ticks = self.storage["ticks"]
        ticks.append([label, sdk.block_height()])
        self.storage["ticks"] = ticks
        return label

    def at(self, height, label):
        return sdk.set_timer(height, "tick", label, cycles=100000, cells=5000)

    def every(self, n, label, expires):
        return sdk.set_interval(n, "tick", label, cycles=100000, cells=5000, expires_at=expires)

    def stop(self, timer_id):
        return sdk.cancel_timer(timer_id)
"#;

/// An actor whose `work(n)` runs an `n`-step loop and whose `fan(k, n)` sends itself `k` of them
/// (per-actor budgets deferring messages).
pub const BUSY: &str = r#"
import cowboy_sdk as sdk

class Actor:
    def __init__(self):
        self.storage["done"] = 0

    def work(self, n):
        x = 0
        for i in range(n):
            x += i
        self.storage["done"] += 1
        return x

    def fan(self, k, n):
        for i in range(k):
            sdk.send(sdk.self_address(), "work", n)
"#;
