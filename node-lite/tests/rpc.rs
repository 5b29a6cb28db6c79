//! The JSON-RPC server against a real store: malformed JSON, oversize bodies, unknown methods,
//! bad parameters and invalid transactions each get a clear JSON-RPC error and the node keeps
//! answering; a transaction goes from `sendRawTransaction` through a finalized block to its
//! receipt, and the long polls return as soon as the block is executed.

use cowboy_crypto::PrivateKey;
use cowboy_execution::{Genesis, GenesisValidator, genesis::Allocation};

use cowboy_node::core::{Core, CoreOptions};
use cowboy_rpc::{BlockId, BlockTag, CowboyApiClient, QueryRequest, code};
use cowboy_types::{
    Address, Beacon, Block, Header, Instruction, Round, SystemInstruction, Transaction,
    block::BEACON_SIGNATURE_LEN,
    json::{Amount, HexBytes},
};
use std::{
    io::{Read, Write},
    net::SocketAddr,
    sync::Arc,
};

const CHAIN_ID: u64 = 9;

fn key(i: u8) -> PrivateKey {
    PrivateKey::from_bytes(&[i; 32]).expect("key")
}

fn validator() -> Address {
    Address([0xaa; 20])
}

fn genesis() -> Genesis {
    Genesis {
        chain_id: CHAIN_ID,
        genesis_time_ms: 0,
        allocations: vec![Allocation {
            address: key(1).address(),
            balance: Amount(1_000_000_000_000_000),
        }],
        validators: vec![GenesisValidator {
            address: validator(),
            stake: Amount(1_000_000_000),
            public_key: HexBytes(vec![7; 32]),
        }],
        threshold_public: None,
        parameters: Default::default(),
    }
}

fn transfer(k: &PrivateKey, nonce: u64, chain_id: u64) -> Transaction {
    let mut t = Transaction {
        chain_id,
        nonce,
        instruction: Instruction::System(SystemInstruction::Transfer {
            to: key(2).address(),
            amount: 12_345,
        }),
        cycles_limit: 30_000,
        cells_limit: 1_000,
        max_fee_per_cycle: 100_000,
        max_fee_per_cell: 100_000,
        max_priority_fee_per_cycle: 1,
        max_priority_fee_per_cell: 0,
        from: k.address(),
        access_list: None,
        metadata: vec![],
        origin: None,
        signature: Default::default(),
        additional_signers: vec![],
    };
    cowboy_crypto::sign_transaction(&mut t, k).expect("sign");
    t
}

/// The next block as consensus would finalize it, with the pool's transactions.
fn next_block(core: &Core) -> Block {
    let head = core.chain().head().expect("head");
    let outcome = core.outcome(head.height).expect("read").expect("outcome");
    let (_, prices) = core.user_prices().expect("prices");
    let mut txs = core
        .select_for_block(
            &Default::default(),
            &prices,
            cowboy_execution::tx::Room {
                cycles: 80_000_000,
                cells: 10_000_000,
                count: 100,
            },
        )
        .expect("selection");
    let beacon = Beacon {
        round: Round {
            epoch: 0,
            view: head.height,
        },
        signature: [3; BEACON_SIGNATURE_LEN],
    };
    cowboy_execution::tx::canonical_order(&mut txs, &beacon);
    let hashes: Vec<_> = txs.iter().map(|t| t.hash).collect();
    Block {
        header: Header {
            parent: head.digest(),
            height: head.height + 1,
            round: Round {
                epoch: 0,
                view: head.height + 1,
            },
            timestamp_ms: head.timestamp_ms + 1_000,
            proposer: validator(),
            beacon,
            tx_root: cowboy_execution::roots::tx_root_of(&hashes),
            state_height: head.height,
            state_root: outcome.state_root,
            receipts_root: outcome.receipts_root,
            cycle_basefee: outcome.cycle_basefee,
            cell_basefee: outcome.cell_basefee,
        },
        transactions: txs.into_iter().map(|t| t.tx).collect(),
    }
}

async fn start() -> (tempfile::TempDir, Arc<Core>, SocketAddr) {
    let dir = tempfile::tempdir().expect("tempdir");
    let core = Core::open(dir.path(), &genesis(), CoreOptions::default()).expect("core");
    let (addr, handle) = cowboy_node::rpc::serve(
        core.clone(),
        "127.0.0.1:0".parse().expect("addr"),
        Default::default(),
    )
    .await
    .expect("serve");
    // Keep the server for the whole test.
    std::mem::forget(handle);
    (dir, core, addr)
}

/// A raw HTTP POST; returns the status code and body.
fn post(addr: SocketAddr, body: &[u8]) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("write");
    let _ = s.write_all(body);
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

fn error_code(body: &str) -> i64 {
    let v: serde_json::Value = serde_json::from_str(body.trim()).unwrap_or_else(|_| {
        // Chunked bodies: take the JSON line.
        body.lines()
            .find_map(|l| serde_json::from_str(l).ok())
            .expect("a JSON body")
    });
    v["error"]["code"].as_i64().expect("an error code")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_clear_errors_and_the_node_keeps_running() {
    let (_dir, _core, addr) = start().await;
    let alive = move || {
        let (status, body) = post(
            addr,
            br#"{"jsonrpc":"2.0","id":1,"method":"cowboy_chainId"}"#,
        );
        assert_eq!(status, 200);
        assert!(body.contains(&format!("\"result\":{CHAIN_ID}")), "{body}");
    };
    let blocking = |f: Box<dyn FnOnce() + Send>| tokio::task::spawn_blocking(f);

    blocking(Box::new(move || {
        let (_, body) = post(addr, b"{not json");
        assert_eq!(error_code(&body), -32700, "parse error: {body}");
        alive();

        let (_, body) = post(
            addr,
            br#"{"jsonrpc":"2.0","id":1,"method":"cowboy_noSuchThing"}"#,
        );
        assert_eq!(error_code(&body), -32601, "method not found: {body}");
        alive();

        let (_, body) = post(
            addr,
            br#"{"jsonrpc":"2.0","id":1,"method":"cowboy_getBalance","params":["not-an-address"]}"#,
        );
        assert_eq!(error_code(&body), -32602, "invalid params: {body}");
        alive();

        let huge = vec![b' '; 2 * 1024 * 1024];
        let (status, _) = post(addr, &huge);
        assert_eq!(status, 413, "an oversize body is refused before parsing");
        alive();
    }))
    .await
    .expect("requests");

    let client = cowboy_rpc::client(&format!("http://{addr}")).expect("client");
    let refused = |e: cowboy_rpc::jsonrpsee::core::ClientError| match e {
        cowboy_rpc::jsonrpsee::core::ClientError::Call(o) => (o.code(), o.message().to_string()),
        other => panic!("expected a JSON-RPC error, got {other}"),
    };
    let (c, m) = refused(
        client
            .send_raw_transaction(HexBytes(vec![1, 2, 3]))
            .await
            .expect_err("garbage"),
    );
    assert_eq!(c, code::INVALID_TRANSACTION);
    assert!(m.contains("not a canonical transaction"), "{m}");

    let wrong_chain = transfer(&key(1), 0, CHAIN_ID + 1);
    let (c, m) = refused(
        client
            .send_raw_transaction(HexBytes(wrong_chain.to_bytes()))
            .await
            .expect_err("wrong chain"),
    );
    assert_eq!(c, code::INVALID_TRANSACTION);
    assert!(m.contains("chain"), "{m}");

    let poor = transfer(&key(5), 0, CHAIN_ID);
    let (c, m) = refused(
        client
            .send_raw_transaction(HexBytes(poor.to_bytes()))
            .await
            .expect_err("no funds"),
    );
    assert_eq!(c, code::POOL_REFUSED);
    assert!(m.contains("balance"), "{m}");

    assert_eq!(client.chain_id().await.expect("still answering"), CHAIN_ID);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_reaches_its_receipt_through_a_finalized_block() {
    let (_dir, core, addr) = start().await;
    let client = cowboy_rpc::client(&format!("http://{addr}")).expect("client");
    let t = transfer(&key(1), 0, CHAIN_ID);
    let hash = client
        .send_raw_transaction(HexBytes(t.to_bytes()))
        .await
        .expect("admitted");
    assert_eq!(hash, t.digest());
    let again = client.send_raw_transaction(HexBytes(t.to_bytes())).await;
    assert!(again.is_err(), "a duplicate is refused");
    let pending = client
        .transaction(hash)
        .await
        .expect("call")
        .expect("known");
    assert!(pending.pending);
    assert_eq!(
        client.nonce(key(1).address()).await.expect("nonce").pending,
        1
    );

    // A waiter started before the block exists returns once it is executed.
    let waiter = {
        let client = client.clone();
        tokio::spawn(async move { client.wait_for_receipt(hash, Some(30_000)).await })
    };
    let block = next_block(&core);
    assert_eq!(block.transactions.len(), 1);
    core.apply_finalized(block).await.expect("applied");
    let receipt = waiter.await.expect("join").expect("call").expect("receipt");
    assert_eq!(receipt.status, "success");
    assert_eq!(receipt.block_height, 1);
    assert!(receipt.fee.0 > 0);

    let balance = client.balance(key(2).address()).await.expect("balance");
    assert_eq!(balance.0, 12_345);
    let block = client
        .block(BlockId::Tag(BlockTag::Latest), Some(true))
        .await
        .expect("call")
        .expect("block");
    assert_eq!(block.height, 1);
    assert_eq!(block.transactions, vec![hash]);
    let summary = client
        .wait_for_block(0, Some(1_000))
        .await
        .expect("call")
        .expect("block 1");
    assert_eq!(summary.height, 1);
    assert!(
        client
            .wait_for_block(1, Some(200))
            .await
            .expect("call")
            .is_none(),
        "no block 2 yet: the long poll times out with null"
    );
    let status = client.status().await.expect("status");
    assert_eq!(status.height, 1);
    assert_eq!(status.state_root, block.executed_state_root);
    let proof = client.proof(key(2).address(), None).await.expect("proof");
    assert_eq!(proof.state_root, status.state_root);
    assert!(proof.value.is_some());

    let q = client
        .query(QueryRequest {
            to: key(2).address(),
            method: "get".into(),
            args: vec![],
            from: None,
            cycles_limit: None,
            cells_limit: None,
        })
        .await
        .expect("query");
    assert_eq!(q.status, "failed");
    assert!(q.error.unwrap_or_default().contains("no actor"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finalized_header_claiming_another_state_halts_the_node() {
    let (_dir, core, addr) = start().await;
    let client = cowboy_rpc::client(&format!("http://{addr}")).expect("client");
    core.apply_finalized(next_block(&core))
        .await
        .expect("block 1 applies");
    let mut lying = next_block(&core);
    lying.header.state_root = cowboy_types::Hash([0xee; 32]);
    let err = core
        .apply_finalized(lying)
        .await
        .expect_err("a divergence is detected");
    assert!(
        matches!(err, cowboy_node::core::ApplyError::Diverged { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("diverged"), "{err}");
    let health = client.health().await.expect("health");
    assert!(health.halted && !health.ready);
    assert!(health.reason.unwrap_or_default().contains("diverged"));
    // It stops applying blocks rather than going on from a state nobody else has.
    let again = core.apply_finalized(next_block(&core)).await;
    assert!(matches!(again, Err(cowboy_node::core::ApplyError::Halted)));
    assert!(client.status().await.expect("status").halted);
}
