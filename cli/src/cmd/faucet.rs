//! `cowboy faucet`: ask a faucet for funds (`cowboy faucet ADDRESS`), see its limits
//! (`info`), or run one against any node (`serve`).

use crate::{
    client::RpcArgs,
    opts::{GlobalArgs, SignerArgs},
    output,
};
use anyhow::{Context as _, Result};
use clap::{Args, Subcommand};
use cowboy_faucet::{Client, Config, Limit, Server};
use std::{net::SocketAddr, time::Duration};

/// The faucet URL when neither flag, environment nor profile gives one (`devnet up`'s).
const DEFAULT_FAUCET_URL: &str = "http://127.0.0.1:8645";

#[derive(Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  \
cowboy faucet 0x70997970c51812dc3a010c7d01b50e0d17dc79c8\n  \
cowboy faucet 0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc --amount 5000000000 --json\n  \
cowboy faucet info\n  \
cowboy faucet serve --rpc-url http://127.0.0.1:8545 --account treasury --listen 0.0.0.0:8646  # until Ctrl-C"
)]
pub struct FaucetArgs {
    #[command(subcommand)]
    command: Option<FaucetCommand>,
    /// The address to fund.
    address: Option<String>,
    /// How much to ask for: base units, or CBY with a `cby` suffix (default: the faucet's
    /// default).
    #[arg(long, value_parser = crate::output::parse_amount)]
    amount: Option<u64>,
    #[command(flatten)]
    url: FaucetUrl,
}

#[derive(Args, Clone)]
struct FaucetUrl {
    /// The faucet [default: the profile's faucet_url, else http://127.0.0.1:8645].
    #[arg(long, env = "COWBOY_FAUCET_URL", value_name = "URL")]
    faucet_url: Option<String>,
}

impl FaucetUrl {
    fn resolve(&self, global: &GlobalArgs) -> Result<String> {
        if let Some(u) = &self.faucet_url {
            return Ok(u.clone());
        }
        Ok(global
            .profile()?
            .and_then(|(_, p)| p.faucet_url)
            .unwrap_or_else(|| DEFAULT_FAUCET_URL.into()))
    }
}

#[derive(Subcommand)]
enum FaucetCommand {
    /// The faucet's account, balance and limits.
    Info(InfoArgs),
    /// Run a faucet: an HTTP service paying from a funded key, rate-limited per address and
    /// per IP. Stops on SIGINT/SIGTERM.
    Serve(ServeArgs),
}

#[derive(Args)]
struct InfoArgs {
    #[command(flatten)]
    url: FaucetUrl,
}

#[derive(Args)]
struct ServeArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8645")]
    listen: SocketAddr,
    /// Sent when a request names no amount (default 100 CBY): base units, or CBY (`100cby`).
    #[arg(long, default_value_t = 100_000_000_000, value_parser = crate::output::parse_amount)]
    default_amount: u64,
    /// Most one request may ask for (default 1,000 CBY): base units, or CBY (`1000cby`).
    #[arg(long, default_value_t = 1_000_000_000_000, value_parser = crate::output::parse_amount)]
    max_amount: u64,
    /// Requests one address may make per window.
    #[arg(long, default_value_t = 1)]
    address_limit: u32,
    /// Requests one IP may make per window.
    #[arg(long, default_value_t = 10)]
    ip_limit: u32,
    /// The rate-limit window, in seconds.
    #[arg(long, default_value_t = 60)]
    window: u64,
    /// Requests come through a reverse proxy (e.g. TLS termination): limit per IP by the last
    /// `X-Forwarded-For` address the proxy appends, and refuse requests without one.
    #[arg(long)]
    behind_proxy: bool,
    /// Log filter.
    #[arg(long, default_value = "info")]
    log_level: String,
    /// A label shown in the process list (`cowboy devnet` uses it to find its faucet).
    #[arg(long, hide = true)]
    tag: Option<String>,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

impl FaucetArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        match self.command {
            Some(FaucetCommand::Info(a)) => a.run(global),
            Some(FaucetCommand::Serve(a)) => a.run(global),
            None => {
                let Some(address) = &self.address else {
                    anyhow::bail!(
                        "give the address to fund: `cowboy faucet 0xADDRESS` (or `cowboy faucet serve` to run one)"
                    );
                };
                let address = crate::client::address(address, "the address")?;
                let client = Client::new(&self.url.resolve(global)?)?;
                let drip = runtime()?.block_on(client.drip(address, self.amount))?;
                if global.json {
                    output::json(&drip);
                } else {
                    outln!(
                        "sent {} base units ({} CBY) to {} in block {} (tx {})",
                        drip.amount,
                        drip.amount as f64 / 1e9,
                        drip.address,
                        drip.block_height,
                        drip.tx_hash
                    );
                }
                Ok(())
            }
        }
    }
}

impl InfoArgs {
    fn run(self, global: &GlobalArgs) -> Result<()> {
        let client = Client::new(&self.url.resolve(global)?)?;
        let info = runtime()?.block_on(client.info())?;
        if global.json {
            output::json(&info);
        } else {
            outln!("faucet   {}", client.url());
            outln!("account  {} (chain {})", info.address, info.chain_id);
            outln!("balance  {} base units", info.balance);
            outln!(
                "amounts  {} by default, at most {}",
                info.default_amount,
                info.max_amount
            );
            outln!(
                "limits   {} per address, {} per IP",
                info.per_address,
                info.per_ip
            );
        }
        Ok(())
    }
}

impl ServeArgs {
    fn run(self, global: &GlobalArgs) -> Result<()> {
        crate::logs::init(&self.log_level, false)?;
        let key = self.signer.key(global)?;
        let (rpc_url, _) = self.rpc.resolve(global)?;
        let config = Config {
            rpc_url,
            key,
            default_amount: self.default_amount,
            max_amount: self.max_amount,
            per_address: Limit {
                count: self.address_limit,
                window_s: self.window,
            },
            per_ip: Limit {
                count: self.ip_limit,
                window_s: self.window,
            },
            receipt_timeout: Duration::from_secs(60),
            behind_proxy: self.behind_proxy,
        };
        let runtime = runtime()?;
        runtime.block_on(async move {
            let shutdown = crate::shutdown::Shutdown::listen()?;
            let server = Server::bind(self.listen, config).await?;
            let addr = server.local_addr().unwrap_or(self.listen);
            tracing::info!(%addr, account = %server.address(), "faucet listening");
            // Say where it serves whatever the log level: a silent server looks hung.
            if global.json {
                output::json(&serde_json::json!({
                    "listening": format!("http://{addr}"),
                    "account": server.address().to_string(),
                }));
            } else {
                outln!(
                    "faucet listening on http://{addr}, paying from {}; Ctrl-C stops it",
                    server.address()
                );
            }
            server.run(shutdown.into_wait()).await?;
            tracing::info!("faucet stopped");
            Ok(())
        })
    }
}
