//! The JSON-RPC server against a real store: malformed JSON, oversize bodies, unknown methods,
//! bad parameters and invalid transactions each get a clear JSON-RPC error and the node keeps
//! answering; a transaction goes from `sendRawTransaction` through a finalized block to its
//! receipt, and the long polls return as soon as the block is executed.
//!
//! The port's limits (issue 12): connection caps per address and in total answer `503` and
//! leave room for other clients; idle, header-less and body-less connections are closed; a
//! chunked body over 1 MiB gets `413`; one address cannot hold every request slot; a batch is
//! capped and its calls run concurrently; `GET /health` says `503` until the node is ready and
//! after it halts, with the halt's kind.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_crypto::PrivateKey;
use cowboy_execution::{Genesis, GenesisValidator, genesis::Allocation};

use cowboy_node::{
    core::{Core, CoreOptions},
    rpc_server::RpcLimits,
};
use cowboy_rpc::{BlockId, BlockTag, CowboyApiClient, QueryRequest, code};
use cowboy_types::{
    Address, Beacon, Block, Instruction, Round, SystemInstruction, Transaction,
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
        runners: Vec::new(),
        threshold_public: None,
        tee_simulated_key: None,
        parameters: Default::default(),
        carried: None,
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
    let claim = core.outcome(head.height).expect("read").expect("outcome");
    let chosen = core
        .select_for_block(&Default::default())
        .expect("selection");
    let proposal = cowboy_execution::pipeline::Proposal {
        round: Round {
            epoch: 0,
            view: head.height + 1,
        },
        timestamp_ms: head.timestamp_ms + 1_000,
        proposer: validator(),
        beacon: Beacon {
            round: Round {
                epoch: 0,
                view: head.height,
            },
            signature: [3; BEACON_SIGNATURE_LEN],
        },
    };
    cowboy_execution::pipeline::assemble(&head, &proposal, &claim, chosen).block
}

/// Signs `t` with `k`, sends it through `sendRawTransaction`, finalizes the next block and
/// asserts its receipt is a success.
async fn include_successfully(
    core: &Core,
    client: &cowboy_rpc::jsonrpsee::http_client::HttpClient,
    k: &PrivateKey,
    mut t: Transaction,
) {
    cowboy_crypto::sign_transaction(&mut t, k).expect("sign");
    let hash = client
        .send_raw_transaction(HexBytes(t.to_bytes()))
        .await
        .expect("admitted");
    core.apply_finalized(next_block(core))
        .await
        .expect("applied");
    let receipt = client
        .wait_for_receipt(hash, Some(30_000))
        .await
        .expect("call")
        .expect("receipt");
    assert_eq!(
        receipt.status,
        cowboy_rpc::ReceiptStatus::Success,
        "{receipt:?}"
    );
}

async fn start() -> (tempfile::TempDir, Arc<Core>, SocketAddr) {
    start_with(RpcLimits::default()).await
}

async fn start_with(limits: RpcLimits) -> (tempfile::TempDir, Arc<Core>, SocketAddr) {
    open_and_serve(&genesis(), CoreOptions::default(), limits).await
}

/// A node core on `genesis` in a scratch directory, serving RPC on a free loopback port for
/// the rest of the test.
async fn open_and_serve(
    genesis: &Genesis,
    options: CoreOptions,
    limits: RpcLimits,
) -> (tempfile::TempDir, Arc<Core>, SocketAddr) {
    let dir = tempfile::tempdir().expect("tempdir");
    let core = Core::open(dir.path(), genesis, options).expect("core");
    let (addr, handle) =
        cowboy_node::rpc::serve(core.clone(), "127.0.0.1:0".parse().expect("addr"), limits)
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
    assert_eq!(receipt.status, cowboy_rpc::ReceiptStatus::Success);
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
    assert_eq!(q.status, cowboy_rpc::ReceiptStatus::Failed);
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

// ---- The port's limits ------------------------------------------------------------------

/// Each loopback address is a client of its own.
const CLIENT_A: [u8; 4] = [127, 0, 0, 1];
const CLIENT_B: [u8; 4] = [127, 0, 0, 2];
const CLIENT_C: [u8; 4] = [127, 0, 0, 3];

/// Long enough for any answer the tests wait for; a hang fails instead of blocking CI.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(20);

/// A connection to `addr` from the loopback address `from`.
async fn connect_from(from: [u8; 4], addr: SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.bind(SocketAddr::from((from, 0))).expect("bind");
    socket.connect(addr).await.expect("connect")
}

/// Reads one HTTP response: `None` if the server closed the connection first.
async fn read_response(stream: &mut tokio::net::TcpStream) -> Option<(u16, String)> {
    use tokio::io::AsyncReadExt as _;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let read = async {
        loop {
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                if buf.len() >= end + 4 + length {
                    let status = head.split_whitespace().nth(1)?.parse().ok()?;
                    let body = String::from_utf8_lossy(&buf[end + 4..end + 4 + length]);
                    return Some((status, body.into_owned()));
                }
            }
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
    };
    tokio::time::timeout(PATIENCE, read)
        .await
        .expect("the server answers or closes in time")
}

/// Sends one JSON-RPC body on a kept-alive connection and reads the answer.
async fn exchange(stream: &mut tokio::net::TcpStream, body: &str) -> Option<(u16, String)> {
    use tokio::io::AsyncWriteExt as _;
    let head = format!(
        "POST / HTTP/1.1\r\nHost: node\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.ok()?;
    stream.write_all(body.as_bytes()).await.ok()?;
    read_response(stream).await
}

const CHAIN_ID_CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"cowboy_chainId","params":[]}"#;

/// A long poll that waits `ms` for a block that will not come.
fn long_poll(id: u64, ms: u64) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"cowboy_waitForBlock","params":[1000,{ms}]}}"#)
}

/// `n` connections from `from`, each answered once (so the server counts it), kept open.
async fn hold(from: [u8; 4], addr: SocketAddr, n: usize) -> Vec<tokio::net::TcpStream> {
    let mut held = Vec::new();
    for _ in 0..n {
        let mut s = connect_from(from, addr).await;
        assert_eq!(
            exchange(&mut s, CHAIN_ID_CALL).await.expect("answer").0,
            200
        );
        held.push(s);
    }
    held
}

/// One request from `from` on a fresh connection.
async fn call_from(from: [u8; 4], addr: SocketAddr, body: &str) -> Option<(u16, String)> {
    let mut s = connect_from(from, addr).await;
    exchange(&mut s, body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_caps_answer_503_and_leave_room_for_other_clients() {
    let (_dir, _core, addr) = start_with(RpcLimits {
        max_connections: 5,
        max_connections_per_ip: 3,
        ..Default::default()
    })
    .await;
    // Client A holds its three connections (each has answered once, so each is counted).
    let held_a = hold(CLIENT_A, addr, 3).await;
    let (status, body) = call_from(CLIENT_A, addr, CHAIN_ID_CALL)
        .await
        .expect("a refusal");
    assert_eq!(status, 503, "{body}");
    assert!(
        body.contains("too many RPC connections from your address"),
        "{body}"
    );
    // Another client is still served, and may take what is left of the total.
    let _held_b = hold(CLIENT_B, addr, 2).await;
    let (status, body) = call_from(CLIENT_C, addr, CHAIN_ID_CALL)
        .await
        .expect("a refusal");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("maximum number of RPC connections"), "{body}");
    // Closed connections give their places back.
    drop(held_a);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match call_from(CLIENT_C, addr, CHAIN_ID_CALL).await {
            Some((200, _)) => break,
            other => assert!(
                tokio::time::Instant::now() < deadline,
                "places were not given back: {other:?}"
            ),
        }
        tokio::task::yield_now().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_slow_and_idle_connections_are_closed() {
    use tokio::io::AsyncWriteExt as _;
    let (_dir, _core, addr) = start_with(RpcLimits {
        header_timeout_s: 1,
        body_timeout_s: 1,
        idle_timeout_s: 1,
        max_connections_per_ip: 3,
        ..Default::default()
    })
    .await;
    // A connection that never sends a request is closed (hyper may say 408 first).
    let mut silent = connect_from(CLIENT_A, addr).await;
    let ended = read_response(&mut silent).await;
    assert!(matches!(ended, None | Some((408, _))), "{ended:?}");

    // A body that stops half-way gets 408.
    let mut slow = connect_from(CLIENT_A, addr).await;
    slow.write_all(
        b"POST / HTTP/1.1\r\nHost: node\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"",
    )
    .await
    .expect("write");
    let (status, body) = read_response(&mut slow).await.expect("an answer");
    assert_eq!(status, 408, "{body}");
    assert!(body.contains("did not arrive within 1 s"), "{body}");

    // A kept-alive connection with nothing in flight is closed.
    let mut idle = connect_from(CLIENT_A, addr).await;
    assert_eq!(
        exchange(&mut idle, CHAIN_ID_CALL).await.expect("answer").0,
        200
    );
    assert_eq!(read_response(&mut idle).await, None);

    // None of them holds a place any more: the address can open its three again.
    drop((silent, slow, idle));
    let mut again = Vec::new();
    for _ in 0..3 {
        let mut s = connect_from(CLIENT_A, addr).await;
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            match exchange(&mut s, CHAIN_ID_CALL).await {
                Some((200, _)) => break,
                other => {
                    assert!(tokio::time::Instant::now() < deadline, "{other:?}");
                    s = connect_from(CLIENT_A, addr).await;
                }
            }
        }
        again.push(s);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chunked_body_over_1_mib_gets_413() {
    use tokio::io::AsyncWriteExt as _;
    let (_dir, _core, addr) = start().await;
    let mut s = connect_from(CLIENT_A, addr).await;
    s.write_all(
        b"POST / HTTP/1.1\r\nHost: node\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    )
    .await
    .expect("write");
    let chunk = vec![b' '; 64 * 1024];
    // 17 chunks of 64 KiB: just over the 1 MiB limit.
    for _ in 0..17 {
        let framed = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
        if s.write_all(&framed).await.is_err() {
            break;
        }
    }
    let _ = s.write_all(b"0\r\n\r\n").await;
    let (status, body) = read_response(&mut s).await.expect("an answer");
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("larger than 1048576 bytes"), "{body}");
    // The node keeps serving.
    assert_eq!(
        call_from(CLIENT_B, addr, CHAIN_ID_CALL)
            .await
            .expect("answer")
            .0,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_every_request_slot() {
    let (_dir, _core, addr) = start_with(RpcLimits {
        max_in_flight_per_ip: 2,
        ..Default::default()
    })
    .await;
    // Client A parks two long polls (one that meets the limit itself, while one of the
    // requests below runs, tries again).
    let mut polls = Vec::new();
    for id in 0..2 {
        polls.push(tokio::spawn(async move {
            loop {
                match call_from(CLIENT_A, addr, &long_poll(id, 15_000)).await {
                    Some((429, _)) => continue,
                    other => return other,
                }
            }
        }));
    }
    // Its next request is refused once both are running …
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let (status, body) = loop {
        let answer = call_from(CLIENT_A, addr, CHAIN_ID_CALL)
            .await
            .expect("answer");
        if answer.0 != 200 {
            break answer;
        }
        assert!(tokio::time::Instant::now() < deadline, "never refused");
    };
    assert_eq!(status, 429, "{body}");
    assert!(
        body.contains("more than 2 requests of your address"),
        "{body}"
    );
    // … while another client is served at once.
    for _ in 0..5 {
        assert_eq!(
            call_from(CLIENT_B, addr, CHAIN_ID_CALL)
                .await
                .expect("answer")
                .0,
            200
        );
    }
    for p in polls {
        p.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_is_capped_and_its_calls_run_concurrently() {
    let (_dir, _core, addr) = start_with(RpcLimits {
        max_batch: 3,
        ..Default::default()
    })
    .await;
    let too_many = format!("[{}]", [CHAIN_ID_CALL; 4].join(","));
    let (status, body) = call_from(CLIENT_A, addr, &too_many).await.expect("answer");
    let v: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("batch"),
        "{status} {body}"
    );

    // Three long polls of 2 s each: one after another they would take 6 s.
    let polls = format!(
        "[{}]",
        (0..3)
            .map(|i| long_poll(i, 2_000))
            .collect::<Vec<_>>()
            .join(",")
    );
    let started = std::time::Instant::now();
    let (status, body) = call_from(CLIENT_A, addr, &polls).await.expect("answer");
    let took = started.elapsed();
    assert_eq!(status, 200, "{body}");
    let answers: Vec<serde_json::Value> = serde_json::from_str(&body).expect("a batch answer");
    assert_eq!(answers.len(), 3);
    assert!(answers.iter().all(|a| a["result"].is_null()), "{body}");
    assert!(
        took < std::time::Duration::from_millis(4_500),
        "the batch's calls ran one after another ({took:?})"
    );
}

/// `GET /health`: the status and the health document.
async fn get_health(addr: SocketAddr) -> (u16, serde_json::Value) {
    use tokio::io::AsyncWriteExt as _;
    let mut s = connect_from(CLIENT_A, addr).await;
    s.write_all(b"GET /health HTTP/1.1\r\nHost: node\r\n\r\n")
        .await
        .expect("write");
    let (status, body) = read_response(&mut s).await.expect("an answer");
    (
        status,
        serde_json::from_str(&body).expect("a health document"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_health_is_503_until_the_first_block_and_after_a_halt() {
    let (_dir, core, addr) = start().await;
    let (status, doc) = get_health(addr).await;
    assert_eq!(status, 503, "{doc}");
    assert_eq!(doc["ready"], false);
    assert!(
        doc["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("no block finalized")
    );

    core.apply_finalized(next_block(&core))
        .await
        .expect("block 1 applies");
    let (status, doc) = get_health(addr).await;
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["ready"], true);
    assert_eq!(doc["execution_lag"], 0);

    let mut lying = next_block(&core);
    lying.header.state_root = cowboy_types::Hash([0xee; 32]);
    let _ = core.apply_finalized(lying).await;
    let (status, doc) = get_health(addr).await;
    assert_eq!(status, 503, "{doc}");
    assert_eq!(doc["halted"], true);
    assert_eq!(doc["halt"]["kind"], "divergence", "{doc}");
}

/// A runner registered through `sendRawTransaction` appears in `cowboy_getRunner` and
/// `cowboy_getRunners` with its stake, reputation and health.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registered_runner_is_listed_with_its_health_and_reputation() {
    use cowboy_types::{
        Hash,
        runner::{Capabilities, JobType, JobTypes, RunnerKey, RunnerProfile},
    };
    let (_dir, core, addr) = start().await;
    let client = cowboy_rpc::client(&format!("http://{addr}")).expect("client");
    let me = key(1).address();
    assert_eq!(client.runner(me).await.expect("call"), None);
    let stake = 10_000 * 1_000_000_000;
    let mut base_point = [0x66u8; 32];
    base_point[0] = 0x58;
    let mut t = transfer(&key(1), 0, CHAIN_ID);
    t.instruction = Instruction::System(SystemInstruction::RunnerRegister {
        profile: Box::new(RunnerProfile {
            key: RunnerKey::Ed25519(Hash(base_point)),
            capabilities: Capabilities {
                job_types: JobTypes::of(&[JobType::Llm]),
                ..Default::default()
            },
            rate_card: Default::default(),
            max_concurrent_jobs: 1,
            max_job_value: 0,
            endpoint: "http://127.0.0.1:9999".into(),
        }),
        stake,
    });
    t.cells_limit = 5_000;
    include_successfully(&core, &client, &key(1), t).await;

    let view = client.runner(me).await.expect("call").expect("registered");
    assert_eq!(
        (view.record.stake, view.reputation, view.healthy),
        (stake, 75, true)
    );
    assert_eq!(view.record.registered_at, 1);
    let page = client.runners(None).await.expect("call");
    assert_eq!(page.runners.len(), 1);
    assert_eq!(page.next, None);
    assert!(
        client
            .runners(Some(me))
            .await
            .expect("call")
            .runners
            .is_empty()
    );
    // The JSON form is the documented one.
    let (_, body) = post(
        addr,
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"cowboy_getRunner","params":["{me}"]}}"#)
            .as_bytes(),
    );
    assert!(body.contains(r#""job_types":["llm"]"#), "{body}");
    assert!(body.contains(r#""healthy":true"#), "{body}");
}

/// A job submitted through the RPC is listed by `cowboy_getJobs` (by submitter, status and
/// runner), and its runner's long poll returns the commit it owes as soon as the job's block
/// is executed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runner_long_polls_for_its_assignment_and_jobs_are_listed() {
    use cowboy_types::{
        Hash,
        job::{JobSpec, JobStatus},
        runner::{Capabilities, JobType, JobTypes, RunnerKey, RunnerProfile},
    };
    let runner = key(9);
    let mut g = genesis();
    let mut base_point = [0x66u8; 32];
    base_point[0] = 0x58;
    g.allocations.push(Allocation {
        address: runner.address(),
        balance: Amount(1_000_000_000_000),
    });
    g.runners.push(cowboy_execution::genesis::GenesisRunner {
        address: runner.address(),
        stake: Amount(10_000 * 1_000_000_000),
        profile: RunnerProfile {
            key: RunnerKey::Ed25519(Hash(base_point)),
            capabilities: Capabilities {
                job_types: JobTypes::of(&[JobType::Http]),
                ..Default::default()
            },
            rate_card: Default::default(),
            max_concurrent_jobs: 2,
            max_job_value: 0,
            endpoint: "http://127.0.0.1:9".into(),
        },
    });
    let (_dir, core, addr) = open_and_serve(&g, CoreOptions::default(), RpcLimits::default()).await;
    let client = cowboy_rpc::client(&format!("http://{addr}")).expect("client");

    // An actor to call back, then the job.
    let code = "class Actor:\n    def __init__(self):\n        pass\n\n    def done(self, job_id, status, result, details):\n        return status\n";
    let mut deploy = transfer(&key(1), 0, CHAIN_ID);
    deploy.instruction = Instruction::Actor(cowboy_types::ActorInstruction::Deploy {
        code: code.into(),
        salt: Hash::ZERO,
        init_args: vec![0x80],
        value: 0,
        entitlements: Default::default(),
    });
    deploy.cycles_limit = 1_000_000;
    deploy.cells_limit = 20_000;
    cowboy_crypto::sign_transaction(&mut deploy, &key(1)).expect("sign");
    client
        .send_raw_transaction(HexBytes(deploy.to_bytes()))
        .await
        .expect("admitted");
    core.apply_finalized(next_block(&core))
        .await
        .expect("applied");
    let actor = cowboy_types::actor_address(
        &key(1).address(),
        &Hash::ZERO,
        &cowboy_types::code_hash(&cowboy_types::canonicalize_source(code)),
    );
    let spec: JobSpec = serde_json::from_value(serde_json::json!({
        "input": {"http": {"method": "GET", "url": "https://api.example.com/v"}},
        "bounds": {"max_wall_ms": 1000},
        "schema": {"max_return_bytes": 64, "expected_execution_ms": 100, "data_format": {"bytes": {}}},
        "verification": {"mode": {"none": {}}},
        "max_price": "1000",
        "timeout_blocks": 10,
        "callback": {"actor": actor, "handler": "done"}
    }))
    .expect("spec");
    let mut submit = transfer(&key(1), 1, CHAIN_ID);
    submit.instruction = Instruction::System(SystemInstruction::JobSubmit {
        spec: Box::new(spec),
    });
    submit.cycles_limit = 200_000;
    submit.cells_limit = 20_000;
    cowboy_crypto::sign_transaction(&mut submit, &key(1)).expect("sign");
    client
        .send_raw_transaction(HexBytes(submit.to_bytes()))
        .await
        .expect("admitted");

    // The runner waits for its next assignment before the block exists.
    let poll = {
        let client = client.clone();
        let me = runner.address();
        tokio::spawn(async move { client.wait_for_assignment(me, 1, Some(30_000)).await })
    };
    core.apply_finalized(next_block(&core))
        .await
        .expect("applied");
    let assignments = poll.await.expect("join").expect("call").expect("assigned");
    assert_eq!(assignments.height, 2);
    assert_eq!(assignments.duties.len(), 1, "{assignments:?}");
    assert_eq!(assignments.duties[0].duty, "commit");
    let id = assignments.duties[0].job_id;

    let by_submitter = client
        .jobs(cowboy_rpc::JobFilter {
            submitter: Some(key(1).address()),
            ..Default::default()
        })
        .await
        .expect("call");
    assert_eq!(by_submitter.jobs.len(), 1);
    assert_eq!(by_submitter.jobs[0].id, id);
    assert_eq!(by_submitter.next, None);
    let assigned = client
        .jobs(cowboy_rpc::JobFilter {
            status: Some(JobStatus::Assigned),
            runner: Some(runner.address()),
            ..Default::default()
        })
        .await
        .expect("call");
    assert_eq!(assigned.jobs.len(), 1);
    let settled = client
        .jobs(cowboy_rpc::JobFilter {
            status: Some(JobStatus::Settled),
            ..Default::default()
        })
        .await
        .expect("call");
    assert!(settled.jobs.is_empty());
    let job = client.job(id).await.expect("call").expect("stored");
    assert_eq!(job.status, JobStatus::Assigned);
    // Nothing new for someone else, and a timeout is `null`.
    let idle = client
        .wait_for_assignment(key(1).address(), 2, Some(50))
        .await
        .expect("call");
    assert_eq!(idle, None);
}

/// A pool membership granted through `sendRawTransaction` (Entitlement Registry, CIP-2 §7.3)
/// is listed by `cowboy_getEntitlements` in its documented JSON form.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_granted_pool_membership_is_listed_with_the_grantees_entitlements() {
    use cowboy_types::entitlement::{Action, Constraints, EntitlementOp, Name, Scope};
    let (_dir, core, addr) = start().await;
    let client = cowboy_rpc::client(&format!("http://{addr}")).expect("client");
    let member = key(2).address();
    let empty = client.entitlements(member).await.expect("call");
    assert!(empty.entitlements.is_empty() && empty.roles.is_empty());
    assert_eq!(empty.declared, None, "an account declares nothing");
    let pool = Name::new(b"pool".to_vec()).expect("fits");
    let mut t = transfer(&key(1), 0, CHAIN_ID);
    t.instruction = Instruction::System(SystemInstruction::Entitlement(EntitlementOp::Grant {
        grantee: member,
        scope: Scope::RunnerPool(pool.clone()),
        action: Action::RunnerJoinPool(pool),
        constraints: Constraints {
            valid_until: Some(1_000),
            revocable: true,
            ..Default::default()
        },
    }));
    t.cells_limit = 5_000;
    include_successfully(&core, &client, &key(1), t).await;
    let view = client.entitlements(member).await.expect("call");
    assert_eq!(view.entitlements.len(), 1);
    let e = &view.entitlements[0];
    assert!(e.usable);
    assert_eq!(
        (e.record.granter, e.record.granted_at),
        (key(1).address(), 1)
    );
    let (_, body) = post(
        addr,
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"cowboy_getEntitlements","params":["{member}"]}}"#
        )
        .as_bytes(),
    );
    assert!(
        body.contains(r#""scope":"runner_pool:0x706f6f6c""#),
        "{body}"
    );
    assert!(
        body.contains(r#""action":"runner_join_pool:0x706f6f6c""#),
        "{body}"
    );
    assert!(body.contains(r#""valid_until":1000"#), "{body}");
}

// ---- WebSocket subscriptions (issue 18) ----

/// Applies `n` blocks, one after another.
async fn apply_blocks(core: &Core, n: usize) {
    for _ in 0..n {
        core.apply_finalized(next_block(core))
            .await
            .expect("applied");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_heads_arrive_in_order_with_no_gaps_and_no_repeats() {
    use cowboy_rpc::{CowboyPubSubClient, jsonrpsee::core::client::Subscription};
    let (_dir, core, addr) = start().await;
    let url = format!("http://{addr}");
    let ws = cowboy_rpc::ws_client(&url).await.expect("ws connect");
    let http = cowboy_rpc::client(&url).expect("client");
    let mut live: Subscription<cowboy_rpc::BlockSummary> =
        ws.subscribe_new_heads(None).await.expect("subscribe");
    apply_blocks(&core, 20).await;
    let mut seen = Vec::new();
    while seen.len() < 20 {
        let head = tokio::time::timeout(std::time::Duration::from_secs(30), live.next())
            .await
            .expect("a head within 30 s")
            .expect("open")
            .expect("decoded");
        seen.push(head);
    }
    let heights: Vec<u64> = seen.iter().map(|h| h.height).collect();
    assert_eq!(heights, (1..=20).collect::<Vec<_>>(), "no gaps, no repeats");
    for head in &seen {
        let block = http
            .block(BlockId::Height(head.height), None)
            .await
            .expect("call")
            .expect("block");
        assert_eq!(head.hash, block.hash, "the head is the block RPC returns");
        assert_eq!(head.state_root, block.executed_state_root);
    }
    // A subscriber that reconnects replays from where it stopped, then goes on live.
    let mut resumed: Subscription<cowboy_rpc::BlockSummary> =
        ws.subscribe_new_heads(Some(15)).await.expect("subscribe");
    apply_blocks(&core, 2).await;
    let mut heights = Vec::new();
    while heights.len() < 8 {
        heights.push(resumed.next().await.expect("open").expect("decoded").height);
    }
    assert_eq!(heights, (15..=22).collect::<Vec<_>>());
    let next = live.next().await.expect("open").expect("decoded");
    assert_eq!(next.height, 21, "the first subscription goes on");

    // Too far back to replay: a clear error.
    apply_blocks(&core, 300).await;
    let err = ws
        .subscribe_new_heads(Some(1))
        .await
        .expect_err("1 is too far back");
    let message = err.to_string();
    assert!(
        message.contains("more than 256 blocks behind the head")
            && message.contains("cowboy_getBlock"),
        "{message}"
    );

    // A transaction's receipt arrives on its subscription once its block is executed.
    let t = transfer(&key(1), 0, CHAIN_ID);
    let hash = http
        .send_raw_transaction(HexBytes(t.to_bytes()))
        .await
        .expect("admitted");
    let mut receipt: Subscription<cowboy_rpc::ReceiptView> =
        ws.subscribe_receipt(hash).await.expect("subscribe");
    apply_blocks(&core, 1).await;
    let got = receipt.next().await.expect("open").expect("decoded");
    assert_eq!(got.tx_hash, hash);
    assert_eq!(got.status, cowboy_rpc::ReceiptStatus::Success);
    receipt.unsubscribe().await.expect("unsubscribe");
    // Subscriptions need a WebSocket: over HTTP, a clear refusal.
    let (_, body) = post(
        addr,
        br#"{"jsonrpc":"2.0","id":1,"method":"cowboy_subscribeNewHeads","params":[]}"#,
    );
    assert!(body.contains("error"), "{body}");
}

/// A raw WebSocket client whose socket buffers are small, so that not reading stalls the
/// node's writes quickly.
async fn raw_ws(
    addr: SocketAddr,
) -> (
    soketto::Sender<tokio_util::compat::Compat<tokio::net::TcpStream>>,
    soketto::Receiver<tokio_util::compat::Compat<tokio::net::TcpStream>>,
) {
    use tokio_util::compat::TokioAsyncReadCompatExt as _;
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("rcvbuf");
    let stream = socket.connect(addr).await.expect("connect");
    let host = addr.to_string();
    let mut client = soketto::handshake::Client::new(stream.compat(), &host, "/");
    match client.handshake().await.expect("handshake") {
        soketto::handshake::ServerResponse::Accepted { .. } => {}
        other => panic!("upgrade refused: {other:?}"),
    }
    client.into_builder().finish()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_consumer_is_disconnected_with_a_clear_error_and_the_node_is_unaffected() {
    use cowboy_rpc::{CowboyPubSubClient, jsonrpsee::core::client::Subscription};
    let limits = RpcLimits {
        subscription_buffer: 4,
        subscription_max_lag_blocks: 16,
        slow_consumer_grace_s: 5,
        socket_send_buffer_bytes: 4096,
        ..RpcLimits::default()
    };
    let (_dir, core, addr) = start_with(limits).await;
    let url = format!("http://{addr}");
    // A client that keeps up.
    let ws = cowboy_rpc::ws_client(&url).await.expect("ws connect");
    let mut fast: Subscription<cowboy_rpc::BlockSummary> =
        ws.subscribe_new_heads(None).await.expect("subscribe");
    let (seen, mut fast_progress) = tokio::sync::watch::channel(0u64);
    let fast_reader = tokio::spawn(async move {
        let mut heights = Vec::new();
        loop {
            match fast.next().await {
                Some(Ok(head)) => {
                    heights.push(head.height);
                    let _ = seen.send(head.height);
                    if heights.len() == 1_504 {
                        break;
                    }
                }
                other => panic!(
                    "the reading client's subscription ended after {} heads: {other:?} ({:?})",
                    heights.len(),
                    fast.close_reason()
                ),
            }
        }
        heights
    });
    // The chain moves on in steps a reading client keeps up with.
    let mut produce = async |n: u64| {
        for _ in 0..n / 8 {
            apply_blocks(&core, 8).await;
            let height = core.chain().head().expect("head").height;
            tokio::time::timeout(
                std::time::Duration::from_secs(30),
                fast_progress.wait_for(|h| *h >= height),
            )
            .await
            .expect("the reading client keeps up")
            .expect("fast reader");
        }
    };

    // A client that reads nothing for a while, then everything it is sent.
    let (mut sender, mut receiver) = raw_ws(addr).await;
    sender
        .send_text(
            r#"{"jsonrpc":"2.0","id":1,"method":"cowboy_subscribeNewHeads","params":[null]}"#,
        )
        .await
        .expect("send");
    sender.flush().await.expect("flush");
    let mut first = Vec::new();
    receiver.receive_data(&mut first).await.expect("subscribed");
    let answer: serde_json::Value = serde_json::from_slice(&first).expect("json");
    assert!(!answer["result"].is_null(), "subscribed: {answer}");
    let (resume, reading) = tokio::sync::oneshot::channel::<()>();
    let slow_reader = tokio::spawn(async move {
        let _ = reading.await;
        let mut messages = Vec::new();
        loop {
            let mut data = Vec::new();
            match receiver.receive_data(&mut data).await {
                Ok(_) => {
                    messages.push(serde_json::from_slice::<serde_json::Value>(&data).expect("json"))
                }
                Err(_) => return messages,
            }
        }
    });

    // The slow client reads nothing while 1,000 blocks pass, then everything.
    produce(1_000).await;
    resume.send(()).expect("reader waits");
    produce(504).await;

    let messages = tokio::time::timeout(std::time::Duration::from_secs(60), slow_reader)
        .await
        .expect("the slow client's connection is closed")
        .expect("reader");
    let (error, heads) = messages.split_last().expect("messages");
    let heights: Vec<u64> = heads
        .iter()
        .map(|m| m["params"]["result"]["height"].as_u64().expect("a head"))
        .collect();
    assert!(
        !heights.is_empty() && heights.len() < 1_504,
        "{} heads",
        heights.len()
    );
    assert!(
        heights == (1..=heights.len() as u64).collect::<Vec<_>>(),
        "in order, no gaps: {heights:?}"
    );
    let text = error["params"]["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{error}"));
    assert!(text.starts_with("slow consumer"), "{text}");
    assert!(
        text.contains(&format!("Resume with from = {}", heights.len() + 1)),
        "names where to resume: {text}"
    );

    // Everyone else is unaffected.
    let fast = fast_reader.await.expect("fast reader");
    assert!(
        fast == (1..=1_504).collect::<Vec<_>>(),
        "the client that reads gets every head: {} of 1504",
        fast.len()
    );
    let status = cowboy_rpc::client(&url)
        .expect("client")
        .status()
        .await
        .expect("status");
    assert_eq!(status.height, 1_504);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_its_subscriptions_over_all_its_connections() {
    use cowboy_rpc::{
        CowboyPubSubClient,
        jsonrpsee::core::{
            client::{ClientT, Subscription, SubscriptionKind},
            rpc_params,
        },
    };
    let limits = RpcLimits {
        max_subscriptions_per_ip: 2,
        ..RpcLimits::default()
    };
    let (_dir, _core, addr) = start_with(limits).await;
    let url = format!("http://{addr}");
    let a = cowboy_rpc::ws_client(&url).await.expect("ws connect");
    let b = cowboy_rpc::ws_client(&url).await.expect("ws connect");
    let first: Subscription<cowboy_rpc::BlockSummary> =
        a.subscribe_new_heads(None).await.expect("first");
    let _second: Subscription<cowboy_rpc::BlockSummary> =
        b.subscribe_new_heads(None).await.expect("second");
    let refused = a
        .subscribe_new_heads(None)
        .await
        .expect_err("a third is over the address's cap")
        .to_string();
    assert!(refused.contains("holds 2 subscriptions"), "{refused}");
    // Ending one gives its place back before the unsubscribe is answered, however late the
    // subscription's own task notices: the next subscribe, sent on the answer, is admitted.
    // Many rounds, as the task is usually quick and the race it had was rare. (The typed
    // client's `unsubscribe` does not wait for the answer, so the test asks itself.)
    // Another kind's unsubscribe does not end it.
    let SubscriptionKind::Subscription(id) = first.kind().clone() else {
        panic!("a subscription has an id");
    };
    let ended: bool = a
        .request("cowboy_unsubscribeEvents", rpc_params![id])
        .await
        .expect("unsubscribe");
    assert!(!ended, "a heads subscription is not an events subscription");
    a.subscribe_new_heads(None)
        .await
        .expect_err("the heads subscription still holds its place");
    let mut held = first;
    for round in 0..200 {
        let SubscriptionKind::Subscription(id) = held.kind().clone() else {
            panic!("a subscription has an id");
        };
        let ended: bool = a
            .request("cowboy_unsubscribeNewHeads", rpc_params![id])
            .await
            .expect("unsubscribe");
        assert!(ended, "round {round}: the subscription was live");
        held = a
            .subscribe_new_heads(None)
            .await
            .unwrap_or_else(|e| panic!("round {round}: a place again at once: {e}"));
    }
    // A place is still one place: the cap holds after all those rounds.
    let refused = b
        .subscribe_new_heads(None)
        .await
        .expect_err("still over the cap")
        .to_string();
    assert!(refused.contains("holds 2 subscriptions"), "{refused}");
    drop(held);
}

/// An unsubscribe is answered even when the address has its most requests in flight: a
/// client at that cap can still give back what it holds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsubscribe_passes_the_in_flight_cap() {
    use cowboy_rpc::{
        CowboyApiClient, CowboyPubSubClient,
        jsonrpsee::core::{
            client::{ClientT, Subscription, SubscriptionKind},
            rpc_params,
        },
    };
    let limits = RpcLimits {
        max_in_flight_per_ip: 1,
        ..RpcLimits::default()
    };
    let (_dir, _core, addr) = start_with(limits).await;
    let url = format!("http://{addr}");
    let a = std::sync::Arc::new(cowboy_rpc::ws_client(&url).await.expect("ws connect"));
    let heads: Subscription<cowboy_rpc::BlockSummary> =
        a.subscribe_new_heads(None).await.expect("subscribe");
    let SubscriptionKind::Subscription(id) = heads.kind().clone() else {
        panic!("a subscription has an id");
    };
    // A long poll takes the address's one place for requests in flight: a status call
    // refused proves it holds it (nothing else is running). The poll itself is refused when
    // it arrives while a status call runs; then it is sent again.
    let long_poll = || {
        let polling = a.clone();
        tokio::spawn(async move { polling.wait_for_block(1_000, Some(60_000)).await })
    };
    let mut poll = long_poll();
    loop {
        match a.status().await {
            Err(e)
                if e.to_string()
                    .contains("requests of your address are running") =>
            {
                break;
            }
            Err(e) => panic!("{e}"),
            Ok(_) if poll.is_finished() => poll = long_poll(),
            Ok(_) => tokio::task::yield_now().await,
        }
    }
    let ended: bool = a
        .request("cowboy_unsubscribeNewHeads", rpc_params![id])
        .await
        .expect("the unsubscribe is answered");
    assert!(ended);
}

/// `cowboy_simulate`: a transaction's receipt as the next block would give it, nothing
/// changed; an unsigned transaction is simulated; a call to a missing actor is a failed
/// receipt, not an error; a sender short of the worst case is told; a malformed transaction
/// is refused with the rule.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_simulation_gives_the_next_blocks_receipt_and_changes_nothing() {
    let (_dir, core, addr) = start().await;
    let client = cowboy_rpc::client(&format!("http://{addr}")).expect("client");
    // Block 1, so the simulation runs on a chain with history.
    core.apply_finalized(next_block(&core))
        .await
        .expect("applied");
    let sender = key(1).address();
    let before = client.account(sender).await.expect("account");

    let signed = transfer(&key(1), 0, CHAIN_ID);
    let sim = client
        .simulate(HexBytes(signed.to_bytes()))
        .await
        .expect("simulated");
    assert_eq!(sim.height, 1);
    assert_eq!(sim.receipt.block_height, 2);
    assert_eq!(sim.receipt.status, cowboy_rpc::ReceiptStatus::Success);
    assert!(sim.receipt.fee.0 > 0);
    assert!(sim.affordable);
    assert_eq!((sim.balance, sim.nonce), (before.balance, before.nonce));
    // Nothing changed: not the account, not the pool, not the head.
    let after = client.account(sender).await.expect("account");
    assert_eq!((after.balance, after.nonce), (before.balance, before.nonce));
    assert_eq!(client.nonce(sender).await.expect("nonce").pending, 0);
    assert_eq!(core.chain().head().expect("head").height, 1);

    // Unsigned, and to an address without an actor: a failed receipt.
    let mut call = transfer(&key(1), 0, CHAIN_ID);
    call.instruction = Instruction::Actor(cowboy_types::ActorInstruction::Message {
        to: key(9).address(),
        method: "hello".into(),
        args: vec![0x80],
        value: 0,
    });
    call.signature = Default::default();
    let sim = client
        .simulate(HexBytes(call.to_bytes()))
        .await
        .expect("simulated");
    assert_eq!(sim.receipt.status, cowboy_rpc::ReceiptStatus::Failed);
    assert_eq!(sim.receipt.failure.as_deref(), Some("NoActor"), "{sim:?}");

    // A sender with nothing: simulated as if it could pay, and told it cannot.
    let mut poor = transfer(&key(7), 0, CHAIN_ID);
    poor.from = key(7).address();
    let sim = client
        .simulate(HexBytes(poor.to_bytes()))
        .await
        .expect("simulated");
    assert!(!sim.affordable);
    assert_eq!(sim.balance.0, 0);
    assert!(sim.required.0 > 0);

    // Malformed bytes: refused with the encoding rule.
    let (status, body) = post(
        addr,
        br#"{"jsonrpc":"2.0","id":1,"method":"cowboy_simulate","params":["0x0102"]}"#,
    );
    assert_eq!(status, 200);
    assert_eq!(
        error_code(&body),
        i64::from(cowboy_rpc::code::INVALID_TRANSACTION),
        "{body}"
    );
}

/// A node keeps what each call did (`cowboy_getTrace`) unless its config says `traces = false`;
/// either way the receipt is the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_keeps_call_traces_unless_told_not_to() {
    let deploy = |k: &PrivateKey| {
        let mut t = transfer(k, 0, CHAIN_ID);
        t.instruction = Instruction::Actor(cowboy_types::ActorInstruction::Deploy {
            code: "class Actor:\n    def __init__(self):\n        print('hello')\n        self.n = 1\n"
                .into(),
            salt: Default::default(),
            init_args: vec![0x80],
            value: 0,
            entitlements: Default::default(),
        });
        t.cycles_limit = 1_000_000;
        t.cells_limit = 100_000;
        cowboy_crypto::sign_transaction(&mut t, k).expect("sign");
        t
    };
    let mut receipts = Vec::new();
    for traces in [true, false] {
        let options = CoreOptions {
            traces,
            ..Default::default()
        };
        let (_dir, core, addr) = open_and_serve(&genesis(), options, RpcLimits::default()).await;
        let client = cowboy_rpc::client(&format!("http://{addr}")).expect("client");
        let t = deploy(&key(1));
        let hash = client
            .send_raw_transaction(HexBytes(t.to_bytes()))
            .await
            .expect("admitted");
        core.apply_finalized(next_block(&core))
            .await
            .expect("applied");
        let receipt = client.receipt(hash).await.expect("call").expect("receipt");
        assert_eq!(
            receipt.status,
            cowboy_rpc::ReceiptStatus::Success,
            "{receipt:?}"
        );
        let trace = client.trace(hash).await.expect("call");
        if traces {
            let calls = trace.expect("a trace");
            assert_eq!(calls.len(), 1);
            assert_eq!(calls[0].method, None, "a deploy's __init__");
            assert_eq!(calls[0].logs, ["hello"]);
            assert!(calls[0].cycles_used > 0 && calls[0].cycles_used < receipt.cycles_used);
        } else {
            assert_eq!(trace, None);
        }
        receipts.push((receipt.cycles_used, receipt.cells_used, receipt.fee));
    }
    assert_eq!(receipts[0], receipts[1], "tracing changes nothing on chain");
}

/// A client that has the node admit `race` (same sender, same nonce, other fees) right after
/// it reads a nonce: what a transaction of the sender gossiped from another validator, or sent
/// by another process with the same key, does when it lands between a client's nonce read and
/// its send.
struct RacingClient {
    inner: cowboy_rpc::jsonrpsee::http_client::HttpClient,
    race: std::sync::Mutex<Option<Transaction>>,
    nonces_read: std::sync::atomic::AtomicUsize,
}

impl cowboy_rpc::jsonrpsee::core::client::ClientT for RacingClient {
    async fn notification<P>(
        &self,
        method: &str,
        params: P,
    ) -> Result<(), cowboy_rpc::jsonrpsee::core::ClientError>
    where
        P: cowboy_rpc::jsonrpsee::core::traits::ToRpcParams + Send,
    {
        self.inner.notification(method, params).await
    }

    async fn request<R, P>(
        &self,
        method: &str,
        params: P,
    ) -> Result<R, cowboy_rpc::jsonrpsee::core::ClientError>
    where
        R: serde::de::DeserializeOwned,
        P: cowboy_rpc::jsonrpsee::core::traits::ToRpcParams + Send,
    {
        // Read as JSON (the caller's type need not be `Send` across the racing send).
        let answer: Result<serde_json::Value, _> = self.inner.request(method, params).await;
        if method == "cowboy_getNonce" {
            self.nonces_read
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let race = self.race.lock().unwrap().take();
            if let Some(tx) = race {
                self.inner
                    .send_raw_transaction(HexBytes(tx.to_bytes()))
                    .await
                    .expect("the racing transaction is admitted");
            }
        }
        answer.and_then(|v| {
            serde_json::from_value(v).map_err(cowboy_rpc::jsonrpsee::core::ClientError::ParseError)
        })
    }

    async fn batch_request<'a, R>(
        &self,
        batch: cowboy_rpc::jsonrpsee::core::params::BatchRequestBuilder<'a>,
    ) -> Result<
        cowboy_rpc::jsonrpsee::core::client::BatchResponse<'a, R>,
        cowboy_rpc::jsonrpsee::core::ClientError,
    >
    where
        R: serde::de::DeserializeOwned + std::fmt::Debug + 'a,
    {
        self.inner.batch_request(batch).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn send_signs_again_when_its_nonce_is_taken_between_read_and_send() {
    let (_dir, _core, addr) = start().await;
    let racing = |race| RacingClient {
        inner: cowboy_rpc::client(&format!("http://{addr}")).expect("client"),
        race: std::sync::Mutex::new(race),
        nonces_read: Default::default(),
    };
    let instruction = Instruction::System(SystemInstruction::Transfer {
        to: key(3).address(),
        amount: 1,
    });

    // The node refuses the first signing with the rule named in its data…
    let client = racing(Some(transfer(&key(1), 0, CHAIN_ID)));
    let first = cowboy_rpc::prepare::signed_transaction(
        &client,
        &key(1),
        instruction.clone(),
        &Default::default(),
    )
    .await
    .expect("signed");
    assert_eq!(first.nonce, 0, "read before the racing transaction landed");
    let refused = client
        .inner
        .send_raw_transaction(HexBytes(first.to_bytes()))
        .await
        .expect_err("nonce taken");
    let cowboy_rpc::jsonrpsee::core::ClientError::Call(call) = refused else {
        panic!("not a call error: {refused:?}");
    };
    assert_eq!(call.code(), code::POOL_REFUSED);
    let data: serde_json::Value = serde_json::from_str(call.data().expect("data").get()).unwrap();
    assert_eq!(data["rule"], code::pool_rule::REPLACEMENT_UNDERPRICED);

    // …and `send`, which chose the nonce, reads it again and signs again.
    let client = racing(Some(transfer(&key(1), 1, CHAIN_ID)));
    let hash =
        cowboy_rpc::prepare::send(&client, &key(1), instruction.clone(), &Default::default())
            .await
            .expect("sent with the next nonce");
    let sent = client
        .inner
        .transaction(hash)
        .await
        .unwrap()
        .expect("pending");
    assert_eq!(
        sent.transaction["nonce"],
        serde_json::json!(2),
        "{}",
        sent.transaction
    );
    assert_eq!(
        client.nonces_read.load(std::sync::atomic::Ordering::SeqCst),
        2
    );

    // A nonce the caller chose is never changed.
    let client = racing(None);
    client
        .inner
        .send_raw_transaction(HexBytes(transfer(&key(1), 3, CHAIN_ID).to_bytes()))
        .await
        .expect("admitted");
    let chosen = cowboy_rpc::prepare::TxOptions {
        nonce: Some(3),
        ..Default::default()
    };
    let refused = cowboy_rpc::prepare::send(&client, &key(1), instruction, &chosen)
        .await
        .expect_err("the chosen nonce is taken");
    assert!(
        refused.to_string().contains("nonce 3 is already pending"),
        "{refused}"
    );
    assert_eq!(
        client.nonces_read.load(std::sync::atomic::Ordering::SeqCst),
        0
    );
}
