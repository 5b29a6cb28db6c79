//! Talking to a node: the RPC options every networked command shares (defined once), filling
//! nonce and fees from the node, sending a signed transaction and waiting for its receipt with
//! a spinner (long polls, never a polling loop).

use crate::opts::GlobalArgs;
use anyhow::{Context as _, Result, anyhow, bail};
use clap::Args;
use cowboy_crypto::PrivateKey;
use cowboy_rpc::{CowboyApiClient, ReceiptView, jsonrpsee::http_client::HttpClient};
use cowboy_types::{Address, Hash, Instruction, trace::TraceCall};
use std::{collections::HashMap, time::Duration};

/// The RPC URL when neither a flag, the environment nor a profile gives one.
pub const DEFAULT_RPC_URL: &str = "http://127.0.0.1:8545";

/// The node to talk to.
#[derive(Args, Debug, Clone)]
pub struct RpcArgs {
    /// JSON-RPC URL of a node [default: the profile's, else http://127.0.0.1:8545].
    #[arg(long, env = "COWBOY_RPC_URL", value_name = "URL")]
    pub rpc_url: Option<String>,
}

impl RpcArgs {
    /// The URL to use and, when a profile supplied it, the chain id that profile expects.
    pub fn resolve(&self, global: &GlobalArgs) -> Result<(String, Option<(String, u64)>)> {
        if let Some(url) = &self.rpc_url {
            return Ok((url.clone(), None));
        }
        Ok(match global.profile()? {
            Some((
                name,
                crate::config::Profile {
                    rpc_url: Some(url),
                    chain_id,
                    ..
                },
            )) => (url, chain_id.map(|c| (name, c))),
            _ => (DEFAULT_RPC_URL.into(), None),
        })
    }
}

/// Transaction options shared by commands that send one: everything is filled from the node
/// unless given.
#[derive(Args, Debug, Clone, Default)]
pub struct TxArgs {
    /// Nonce (default: the sender's next nonce, counting its pending transactions).
    #[arg(long)]
    pub nonce: Option<u64>,
    /// Cycle limit (default: what a simulation used, plus a quarter).
    #[arg(long)]
    pub cycles_limit: Option<u64>,
    /// Cell limit (default: what a simulation used, plus a quarter).
    #[arg(long)]
    pub cells_limit: Option<u64>,
    /// Most paid per cycle (default: the node's suggestion, twice the user-lane basefee).
    #[arg(long)]
    pub max_fee_per_cycle: Option<u64>,
    /// Most paid per cell.
    #[arg(long)]
    pub max_fee_per_cell: Option<u64>,
    /// Tip per cycle to the proposer.
    #[arg(long)]
    pub priority_fee: Option<u64>,
    /// Return once the node accepted the transaction instead of waiting for its receipt.
    #[arg(long)]
    pub no_wait: bool,
    /// How long to wait for the receipt, in seconds.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// Send even when the simulation says the transaction fails or the sender cannot pay
    /// for it (it is then charged on chain for what it used).
    #[arg(long)]
    pub force: bool,
}

/// A connection to a node plus a runtime to drive it.
pub struct Node {
    pub client: HttpClient,
    pub url: String,
    /// The profile that chose this node and the chain id it expects.
    expected_chain: Option<(String, u64)>,
    runtime: tokio::runtime::Runtime,
}

impl Node {
    pub fn connect(args: &RpcArgs, global: &GlobalArgs) -> Result<Self> {
        let (url, expected_chain) = args.resolve(global)?;
        if global.verbose > 0 {
            let from = match (&args.rpc_url, &expected_chain) {
                (Some(_), _) => "--rpc-url or COWBOY_RPC_URL".to_string(),
                (None, Some((profile, chain))) => format!("profile {profile:?}, chain {chain}"),
                (None, None) => match global.profile()? {
                    Some((profile, p)) if p.rpc_url.is_some() => format!("profile {profile:?}"),
                    _ => "the default URL: no --rpc-url, COWBOY_RPC_URL or profile URL".to_string(),
                },
            };
            eprintln!("node: {url} ({from})");
        }
        Self::connect_url(&url, expected_chain)
    }

    pub fn connect_url(url: &str, expected_chain: Option<(String, u64)>) -> Result<Self> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        let client =
            cowboy_rpc::client(url).with_context(|| format!("{url} is not a usable RPC URL"))?;
        Ok(Self {
            client,
            url: url.to_string(),
            expected_chain,
            runtime,
        })
    }

    /// Runs `future` (a library call over [`Self::client`]) to completion.
    pub fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }

    /// Refuses a node of another chain than the profile's.
    fn check_chain(&self) -> Result<()> {
        if let Some((profile, expected)) = &self.expected_chain {
            let actual = self.call(async |c| c.chain_id().await)?;
            if actual != *expected {
                bail!(
                    "profile {profile:?} expects chain {expected} but the node at {} is chain {actual}; fix the profile in config.toml or pass --rpc-url",
                    self.url
                );
            }
        }
        Ok(())
    }

    /// Runs one RPC call, turning a transport failure into an error that names the URL.
    pub fn call<T>(
        &self,
        f: impl AsyncFnOnce(&HttpClient) -> Result<T, cowboy_rpc::jsonrpsee::core::ClientError>,
    ) -> Result<T> {
        self.runtime
            .block_on(f(&self.client))
            .map_err(|e| rpc_error(e, &self.url))
    }

    /// Fills nonce, limits and fees and simulates (`cowboy_rpc::simulate_and_sign`: the
    /// node's suggestions, limits from the simulation, unless given), refuses a transaction
    /// bound to fail unless `--force`, signs, sends and (unless `no_wait`) waits for the
    /// receipt. On a terminal it says what the simulation found and what the transaction may
    /// cost at worst, before sending.
    pub fn send(
        &self,
        key: &PrivateKey,
        instruction: Instruction,
        args: &TxArgs,
    ) -> Result<(Hash, Option<ReceiptView>)> {
        self.send_at(key, |_| instruction.clone(), args)
    }

    /// [`Self::send`] for an instruction built from the latest executed height
    /// (`cowboy_rpc::simulate_and_sign_at`).
    pub fn send_at(
        &self,
        key: &PrivateKey,
        instruction: impl Fn(u64) -> Instruction,
        args: &TxArgs,
    ) -> Result<(Hash, Option<ReceiptView>)> {
        let options = cowboy_rpc::TxOptions {
            nonce: args.nonce,
            cycles_limit: args.cycles_limit,
            cells_limit: args.cells_limit,
            max_fee_per_cycle: args.max_fee_per_cycle,
            max_fee_per_cell: args.max_fee_per_cell,
            priority_fee_per_cycle: args.priority_fee,
        };
        let prepared = self
            .runtime
            .block_on(cowboy_rpc::simulate_and_sign_at(
                &self.client,
                key,
                instruction,
                &options,
                args.force,
            ))
            .map_err(|e| match e {
                cowboy_rpc::PrepareError::Rpc(e) => rpc_error(e, &self.url),
                other => other.into(),
            })?;
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            let s = &prepared.simulation;
            let tx = &prepared.tx;
            eprintln!(
                "simulated: {}, {} cycles, {} cells; limits {} cycles, {} cells; worst case {} of balance {}",
                s.receipt.status.name(),
                crate::output::thousands(s.receipt.cycles_used),
                crate::output::thousands(s.receipt.cells_used),
                crate::output::thousands(tx.cycles_limit),
                crate::output::thousands(tx.cells_limit),
                crate::output::cby(s.required.0),
                crate::output::cby(s.balance.0),
            );
        }
        self.send_raw(&prepared.tx.to_bytes(), args.no_wait, args.timeout)
    }

    /// What a transaction from `from` carrying `instruction` would use and cost
    /// (`cowboy_rpc::estimate`); nothing is signed or sent.
    pub fn estimate(
        &self,
        from: cowboy_types::Address,
        instruction: Instruction,
    ) -> Result<cowboy_rpc::Estimate> {
        self.runtime
            .block_on(cowboy_rpc::estimate(&self.client, from, instruction))
            .map_err(|e| match e {
                cowboy_rpc::PrepareError::Rpc(e) => rpc_error(e, &self.url),
                other => other.into(),
            })
    }

    /// Sends a signed transaction and (unless `no_wait`) waits for its receipt.
    pub fn send_raw(
        &self,
        raw: &[u8],
        no_wait: bool,
        timeout_s: u64,
    ) -> Result<(Hash, Option<ReceiptView>)> {
        self.check_chain()?;
        let hex = cowboy_types::json::HexBytes(raw.to_vec());
        let hash = self.call(async |c| c.send_raw_transaction(hex).await)?;
        if no_wait {
            return Ok((hash, None));
        }
        Ok((hash, Some(self.wait_receipt(hash, timeout_s)?)))
    }

    /// Waits for `hash`'s receipt, showing a spinner on a terminal.
    pub fn wait_receipt(&self, hash: Hash, timeout_s: u64) -> Result<ReceiptView> {
        let spinner = spinner(&format!("waiting for {hash} to be finalized"));
        let result = self
            .runtime
            .block_on(cowboy_rpc::receipt_within(
                &self.client,
                hash,
                Duration::from_secs(timeout_s),
            ))
            .map_err(|e| rpc_error(e, &self.url))
            .and_then(|r| {
                r.ok_or_else(|| {
                    anyhow!(
                        "{hash} was not finalized within {timeout_s} s; check it later with `cowboy tx status {hash}`"
                    )
                })
            });
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        result
    }
}

fn spinner(message: &str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let s = indicatif::ProgressBar::new_spinner();
    s.set_message(message.to_string());
    s.enable_steady_tick(Duration::from_millis(100));
    Some(s)
}

/// A client error in words: the node's own message for JSON-RPC errors, a hint for transport
/// failures.
pub fn rpc_error(e: cowboy_rpc::jsonrpsee::core::ClientError, url: &str) -> anyhow::Error {
    use cowboy_rpc::jsonrpsee::core::ClientError;
    match e {
        ClientError::Call(obj) => anyhow!("the node refused: {}", obj.message()),
        ClientError::Transport(t) => anyhow!(
            "cannot reach a node at {url}: {t} (is it running? start one with `cowboy devnet up`, or set --rpc-url, COWBOY_RPC_URL or a profile)"
        ),
        ClientError::RequestTimeout => anyhow!("the node at {url} did not answer in time"),
        other => anyhow!("RPC to {url} failed: {other}"),
    }
}

/// Parses `ARGS` given as JSON values (`42`, `"text"`, `[1,2]`, `{"k":1}`); a bare word that
/// is not JSON is taken as a string. An integer of any size is exact (JSON numbers are
/// doubles beyond 2^64: it is passed as `{"$int": "…"}`, which nested values may use too).
pub fn parse_args(args: &[String]) -> Result<Vec<serde_json::Value>> {
    Ok(args
        .iter()
        .map(|a| {
            let t = a.trim();
            let integer = t.strip_prefix('-').unwrap_or(t);
            if !integer.is_empty() && integer.chars().all(|c| c.is_ascii_digit()) {
                if let Ok(n) = serde_json::from_str::<serde_json::Value>(t)
                    && (n.is_i64() || n.is_u64())
                {
                    return n;
                }
                return serde_json::json!({ "$int": t });
            }
            serde_json::from_str(a).unwrap_or_else(|_| serde_json::Value::String(a.clone()))
        })
        .collect())
}

/// Encodes JSON arguments as the canonical argument list.
pub fn encode_args(args: &[serde_json::Value]) -> Result<Vec<u8>> {
    let mut values = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        values
            .push(cowboy_pvm::Value::from_json(a).map_err(|e| {
                anyhow!("argument {} is not a value an actor can take: {e}", i + 1)
            })?);
    }
    cowboy_pvm::Value::List(values)
        .encode()
        .map_err(|e| anyhow!("the arguments cannot be encoded: {e}"))
}

/// Parses an address argument.
pub fn address(text: &str, what: &str) -> Result<Address> {
    text.parse()
        .map_err(|e| anyhow!("{what} {text:?} is not an address: {e}"))
}

/// Parses `--salt`: `0x` and 1 to 64 hex digits, a number left-padded to 32 bytes as a uint256
/// is written (`0x01` is `0x00…01`); 64 digits may come without `0x` (`openssl rand -hex 32`).
pub fn salt(text: &str) -> Result<Hash> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .or((text.len() == 64).then_some(text))
        .filter(|d| !d.is_empty() && d.len() <= 64 && d.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| {
            anyhow!(
                "--salt {text:?} is not a salt: give 0x and 1 to 64 hex digits (a shorter one is left-padded with zeros: 0x01 is 0x00…01)"
            )
        })?;
    let mut bytes = [0u8; 32];
    hex::decode_to_slice(format!("{digits:0>64}"), &mut bytes)
        .map_err(|e| anyhow!("--salt {text:?}: {e}"))?;
    Ok(Hash(bytes))
}

/// Parses a hash argument.
pub fn hash(text: &str, what: &str) -> Result<Hash> {
    text.parse()
        .map_err(|e| anyhow!("{what} {text:?} is not a 32-byte hash: {e}"))
}

/// Prints a receipt for humans.
pub fn print_receipt(r: &ReceiptView) {
    print_receipt_head(r);
    print_receipt_effects(r);
}

/// A receipt's summary: transaction, block, status, created actor, meters and return value.
fn print_receipt_head(r: &ReceiptView) {
    outln!("tx:       {}", r.tx_hash);
    outln!("block:    {} ({})", r.block_height, r.block_hash);
    match &r.failure {
        None => outln!("status:   success"),
        Some(kind) => outln!(
            "status:   FAILED ({kind}): {}",
            r.error.as_deref().unwrap_or("")
        ),
    }
    if let Some(a) = r.created {
        outln!("actor:    {a}");
    }
    outln!(
        "used:     {} cycles, {} cells; fee {} base units",
        r.cycles_used,
        r.cells_used,
        r.fee.0
    );
    if let Some(v) = &r.return_value {
        outln!("returned: {v}");
    }
}

/// A receipt's events and the nested messages with how each ended.
fn print_receipt_effects(r: &ReceiptView) {
    for e in &r.events {
        let topics: Vec<String> = e.topics.iter().map(|t| t.to_string()).collect();
        let data = shown_value(&e.data.0);
        outln!(
            "event:    {} topics [{}] data {data}",
            e.emitter,
            topics.join(", ")
        );
    }
    // The messages the transaction's own message sent, each with how it ended.
    for d in r.deliveries.iter().skip(1) {
        match &d.error {
            Some(e) => outln!("message:  {} {} FAILED: {e}", d.id, d.to),
            None => outln!("message:  {} {} {}", d.id, d.to, d.outcome.name()),
        }
    }
}

/// Prints what sending a transaction produced: its hash when not waited for, else its receipt
/// (JSON with `--json`); fails (after printing) when the transaction failed.
pub fn report(json: bool, hash: Hash, receipt: Option<ReceiptView>) -> Result<()> {
    match receipt {
        None if json => crate::output::json(&crate::schema::Sent::Hash { tx_hash: hash }),
        None => outln!("{hash}"),
        Some(r) => {
            if json {
                crate::output::json(&crate::schema::Sent::Receipt(Box::new(r.clone())));
            } else {
                print_receipt(&r);
            }
            check_success(&r)?;
        }
    }
    Ok(())
}

/// Canonically encoded bytes shown as the value they encode (JSON), else as hex.
fn shown_value(bytes: &[u8]) -> String {
    cowboy_pvm::Value::decode(bytes)
        .ok()
        .map(|v| v.to_json())
        .map_or_else(|| format!("0x{}", hex::encode(bytes)), |v| v.to_string())
}

/// An encoded argument list shown as `(a, b, …)`.
fn shown_args(bytes: &[u8]) -> String {
    match cowboy_pvm::Value::decode(bytes).map(|v| v.to_json()) {
        Ok(serde_json::Value::Array(items)) => {
            let items: Vec<String> = items.iter().map(|v| v.to_string()).collect();
            format!("({})", items.join(", "))
        }
        _ => format!("(0x{})", hex::encode(bytes)),
    }
}

/// Prints a receipt with the delivery tree its trace (`cowboy_getTrace`) gives: every call
/// with its handler, value, cycles, cells, status and events, nested under the call that sent
/// it, and the messages that never ran with how they ended. `verbose` 1 adds `print` output
/// and return values, 2 the tracebacks of failed calls (`forge -vv…` style).
pub fn print_traced_receipt(r: &ReceiptView, calls: &[TraceCall], verbose: u8) {
    print_receipt_head(r);
    outln!("trace:");
    let by_message: HashMap<Hash, &TraceCall> = calls
        .iter()
        .filter_map(|c| c.message.map(|m| (m, c)))
        .collect();
    let deliveries: HashMap<Hash, &cowboy_rpc::DeliveryView> =
        r.deliveries.iter().map(|d| (d.id, d)).collect();
    let tree = TraceTree {
        by_message,
        deliveries,
        verbose,
    };
    for root in calls.iter().filter(|c| c.depth == 0) {
        tree.call(root, None, 1);
    }
}

/// What [`print_traced_receipt`] walks.
struct TraceTree<'a> {
    by_message: HashMap<Hash, &'a TraceCall>,
    deliveries: HashMap<Hash, &'a cowboy_rpc::DeliveryView>,
    verbose: u8,
}

impl TraceTree<'_> {
    /// One call and, indented below it, what it emitted and the messages it sent.
    fn call(&self, c: &TraceCall, args: Option<&[u8]>, level: usize) {
        let pad = "  ".repeat(level);
        let handler = c.method.as_deref().unwrap_or("__init__");
        let args = args.map(shown_args).unwrap_or_default();
        let value = if c.value.0 > 0 {
            format!(" value {}", crate::output::cby(c.value.0))
        } else {
            String::new()
        };
        let status = match &c.failure {
            Some(f) => format!("FAILED ({}): {}", f.kind, f.message),
            None => "ok".into(),
        };
        outln!(
            "{pad}{}.{handler}{args}{value}  [{} cycles, {} cells]  {status}",
            c.actor,
            crate::output::thousands(c.cycles_used),
            crate::output::thousands(c.cells_used)
        );
        let inner = "  ".repeat(level + 1);
        if self.verbose >= 1 {
            for line in &c.logs {
                outln!("{inner}print: {line}");
            }
            if let Some(r) = &c.returned {
                outln!("{inner}returned: {}", shown_value(&r.0));
            }
        }
        if self.verbose >= 2
            && let Some(tb) = c.failure.as_ref().and_then(|f| f.traceback.as_deref())
        {
            for line in tb.lines() {
                outln!("{inner}| {line}");
            }
        }
        for e in &c.events {
            let topics: Vec<String> = e.topics.iter().map(|t| t.to_string()).collect();
            outln!(
                "{inner}event [{}] {}",
                topics.join(", "),
                shown_value(&e.data.0)
            );
        }
        for m in &c.sent {
            match self.by_message.get(&m.id) {
                Some(child) => self.call(child, Some(&m.args.0), level + 1),
                None => {
                    let value = if m.value.0 > 0 {
                        format!(" value {}", crate::output::cby(m.value.0))
                    } else {
                        String::new()
                    };
                    let ended = match self.deliveries.get(&m.id) {
                        Some(d) => match &d.error {
                            Some(e) => format!("FAILED: {e}"),
                            None => d.outcome.name().into(),
                        },
                        None => "not delivered in this transaction".into(),
                    };
                    outln!(
                        "{inner}{}.{}{}{value}  {ended}",
                        m.to,
                        m.method,
                        shown_args(&m.args.0)
                    );
                }
            }
        }
    }
}

/// Prints what sending a transaction produced, as [`report`] does, with the delivery tree
/// when the node recorded a trace of it and the transaction ran nested messages (or `-v`).
pub fn report_traced(
    node: &Node,
    global: &GlobalArgs,
    hash: Hash,
    receipt: Option<ReceiptView>,
) -> Result<()> {
    let Some(r) = receipt
        .as_ref()
        .filter(|r| !global.json && (r.deliveries.len() > 1 || global.verbose > 0))
    else {
        return report(global.json, hash, receipt);
    };
    match node.call(async |c| c.trace(r.tx_hash).await) {
        Ok(Some(calls)) if !calls.is_empty() => print_traced_receipt(r, &calls, global.verbose),
        _ => print_receipt(r),
    }
    check_success(r)
}

/// Fails (after printing) when a receipt says the transaction failed.
pub fn check_success(r: &ReceiptView) -> Result<()> {
    if r.status != cowboy_rpc::ReceiptStatus::Success {
        bail!(crate::output::Reported);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_of_any_size_stay_exact() {
        let big = "123456789012345678901234567890";
        let args: Vec<String> = [big, "-7", "18446744073709551615", "word", "[1,2]"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let parsed = parse_args(&args).expect("parsed");
        assert_eq!(parsed[0], serde_json::json!({ "$int": big }));
        assert_eq!(parsed[1], serde_json::json!(-7));
        assert_eq!(parsed[3], serde_json::json!("word"));
        let encoded = encode_args(&parsed).expect("encoded");
        let cowboy_pvm::Value::List(values) = cowboy_pvm::Value::decode(&encoded).expect("decoded")
        else {
            panic!("not a list")
        };
        assert_eq!(
            values[0],
            cowboy_pvm::Value::Int(big.parse().expect("big int"))
        );
        assert_eq!(values[2], cowboy_pvm::Value::Int(u64::MAX.into()));
    }

    #[test]
    fn a_short_salt_is_left_padded_and_a_bad_one_is_named() {
        let one = salt("0x01").expect("short salt");
        assert_eq!(one.0[31], 1);
        assert!(one.0[..31].iter().all(|b| *b == 0));
        assert_eq!(salt("0x1").expect("odd digits"), one);
        let full = format!("0x{}", "ab".repeat(32));
        assert_eq!(salt(&full).expect("full salt").0, [0xab; 32]);
        assert_eq!(
            salt(&"ab".repeat(32)).expect("bare 64 digits").0,
            [0xab; 32]
        );
        assert_eq!(salt("0X01").expect("0X"), one);
        for bad in ["01", "0x", "0xzz", &format!("0x{}", "0".repeat(65))] {
            let error = salt(bad).expect_err(bad).to_string();
            assert!(
                error.starts_with(&format!("--salt {bad:?} is not a salt")),
                "{error}"
            );
        }
    }
}
