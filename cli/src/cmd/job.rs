//! `cowboy job`: submit, estimate, show, list, watch and challenge off-chain jobs (the work is
//! in `cowboy_runner::jobs` and the node's RPC; this file parses and prints).

use crate::{
    client::{self, Node, RpcArgs, TxArgs},
    opts::{GlobalArgs, SignerArgs},
    output,
};
use anyhow::{Result, anyhow, bail};
use clap::{Args, Subcommand};
use cowboy_rpc::{CowboyApiClient, JobFilter};
use cowboy_runner::jobs;
use cowboy_types::{Instruction, SystemInstruction, job::JobRecord};
use std::{path::PathBuf, time::Duration};

#[derive(Subcommand)]
pub enum JobCommand {
    /// Submit a job from a spec file (JSON or TOML, the chain's JSON form).
    Submit(SubmitArgs),
    /// What a spec would get and pay if submitted now (committee, eligible runners, price).
    Estimate(EstimateArgs),
    /// A job: state, committee, commitments, reveals, result, payouts, selection inputs.
    Show(ShowArgs),
    /// Jobs by submitter, runner or state.
    List(ListArgs),
    /// Follow a job block by block until it finishes.
    Watch(WatchArgs),
    /// Challenge a verified job's result, bonding the chain's challenge bond.
    Challenge(ChallengeArgs),
}

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy job submit price.toml --callback 0xORACLE.on_price --account dev:0 --wait\n  \
cowboy job submit --http 'https://api.coingecko.com/api/v3/simple/price?ids=bitcoin&vs_currencies=usd' \\\n    \
--extract /bitcoin/usd --mode majority_vote --vote-field /bitcoin/usd --runners 3 \\\n    \
--callback 0xORACLE.on_price --account dev:0")]
pub struct SubmitArgs {
    /// The spec file (JSON or TOML); or describe the job with the flags below.
    spec: Option<PathBuf>,
    /// Override the spec's max_price (base units).
    #[arg(long)]
    max_price: Option<u64>,
    #[command(flatten)]
    quick: Box<QuickArgs>,
    /// Wait for the verified result (or the failure) and print it.
    #[arg(long)]
    wait: bool,
    /// How long to wait for the job with --wait, in seconds.
    #[arg(long, default_value_t = 300)]
    job_timeout: u64,
    #[command(flatten)]
    tx: TxArgs,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

#[derive(Args)]
#[command(
    after_help = "Examples:\n  cowboy job estimate price.toml\n  cowboy job estimate price.toml --json"
)]
pub struct EstimateArgs {
    /// The spec file; or describe the job with the flags below.
    spec: Option<PathBuf>,
    #[command(flatten)]
    quick: Box<QuickArgs>,
    #[command(flatten)]
    rpc: RpcArgs,
}

/// A job described by flags instead of a spec file (`cowboy_runner::jobs::QuickSpec`).
#[derive(Args)]
#[command(next_help_heading = "Job from flags (instead of a spec file)")]
pub struct QuickArgs {
    /// An HTTP job fetching this URL.
    #[arg(long, value_name = "URL")]
    http: Option<String>,
    /// Its method.
    #[arg(long, default_value = "GET")]
    method: String,
    /// A header, "Name: value" (repeat for several).
    #[arg(long, value_name = "HEADER")]
    header: Vec<String>,
    /// Its body.
    #[arg(long)]
    body: Option<String>,
    /// An extraction rule (repeat): /pointer, name=$.jsonpath, name=re:PATTERN, name=css:SELECTOR.
    #[arg(long, value_name = "RULE")]
    extract: Vec<String>,
    /// An LLM job with this model id.
    #[arg(long, value_name = "MODEL_ID")]
    llm: Option<String>,
    #[arg(long)]
    prompt: Option<String>,
    #[arg(long)]
    system: Option<String>,
    #[arg(long, default_value_t = 256)]
    max_tokens: u32,
    /// An MCP job on this server.
    #[arg(long, value_name = "URL")]
    mcp: Option<String>,
    #[arg(long)]
    tool: Option<String>,
    /// The tool's arguments, a JSON object.
    #[arg(long, value_name = "JSON")]
    arguments: Option<String>,
    /// none, economic_bond, majority_vote or deterministic.
    #[arg(long, default_value = "none")]
    mode: String,
    /// The JSON pointer majority_vote votes on.
    #[arg(long, value_name = "POINTER")]
    vote_field: Option<String>,
    /// Committee size (0: the chain's default).
    #[arg(long, default_value_t = 0)]
    runners: u8,
    /// Agreement threshold (0: the chain's default).
    #[arg(long, default_value_t = 0)]
    threshold: u8,
    /// Tip to the runners (base units).
    #[arg(long, default_value_t = 0)]
    tip: u64,
    #[arg(long, default_value_t = 20)]
    timeout_blocks: u64,
    #[arg(long, default_value_t = 10_000)]
    max_wall_ms: u64,
    #[arg(long, default_value_t = 4_096)]
    max_return_bytes: u32,
    /// json, text or bytes.
    #[arg(long, default_value = "json")]
    format: String,
    /// Who receives the result: ACTOR.HANDLER (with a spec file: replaces its callback's actor
    /// and handler).
    #[arg(long, value_name = "ACTOR.HANDLER")]
    callback: Option<String>,
    /// What delivering the result may cost (base units; the rest is refunded) [default:
    /// 1000000000, or a spec file's `callback.max_fee`]. 0 delivers nothing: `--wait` or
    /// `cowboy job show` reads the result.
    #[arg(long)]
    callback_fee: Option<u64>,
}

impl QuickArgs {
    /// The spec from `file`, else from these flags (`max_price` for the flags' job).
    fn spec(
        &self,
        file: Option<&PathBuf>,
        max_price: Option<u64>,
    ) -> Result<cowboy_types::job::JobSpec> {
        if let Some(path) = file {
            let mut spec = jobs::load_spec(path)?;
            // `--callback` points a shared spec file at the caller's own actor.
            if let Some(callback) = &self.callback {
                let (actor, handler) = callback
                    .rsplit_once('.')
                    .ok_or_else(|| anyhow!("--callback {callback:?} is not ACTOR.HANDLER"))?;
                spec.callback.actor = client::address(actor, "--callback")?;
                spec.callback.handler = handler.try_into().map_err(|_| {
                    anyhow!("--callback {callback:?}: the handler name is longer than 128 bytes")
                })?;
            }
            if let Some(fee) = self.callback_fee {
                spec.callback.max_fee = fee;
            }
            return Ok(spec);
        }
        let quick = jobs::QuickSpec {
            http: self.http.clone(),
            method: Some(self.method.clone()),
            headers: self.header.clone(),
            body: self.body.clone(),
            extract: self.extract.clone(),
            llm: self
                .llm
                .as_deref()
                .map(|m| client::hash(m, "--llm"))
                .transpose()?,
            prompt: self.prompt.clone(),
            system: self.system.clone(),
            max_tokens: self.max_tokens,
            mcp: self.mcp.clone(),
            tool: self.tool.clone(),
            arguments: self.arguments.clone(),
            mode: self.mode.clone(),
            vote_field: self.vote_field.clone(),
            runners: self.runners,
            threshold: self.threshold,
            max_price: max_price.unwrap_or(10_000_000),
            tip: self.tip,
            timeout_blocks: self.timeout_blocks,
            max_wall_ms: self.max_wall_ms,
            max_return_bytes: self.max_return_bytes,
            format: self.format.clone(),
            callback: self
                .callback
                .clone()
                .ok_or_else(|| anyhow!("a job from flags needs --callback ACTOR.HANDLER"))?,
            callback_fee: self.callback_fee.unwrap_or(1_000_000_000),
        };
        quick
            .build()
            .map_err(|e| anyhow!("the job is invalid: {e}"))
    }
}

#[derive(Args)]
#[command(
    after_help = "Exits 1 when --verify-selection finds a draw the record does not give.\n\nExamples:\n  cowboy job show 0xJOB\n  cowboy job show 0xJOB --verify-selection --json"
)]
pub struct ShowArgs {
    /// The job id.
    id: String,
    /// Re-run the committee selection from the job's record and say whether it matches.
    #[arg(long)]
    verify_selection: bool,
    #[command(flatten)]
    rpc: RpcArgs,
}

#[derive(Args)]
#[command(
    after_help = "Examples:\n  cowboy job list --submitter 0xORACLE\n  cowboy job list --status settled --json"
)]
pub struct ListArgs {
    /// Jobs this address (an actor or an account) submitted.
    #[arg(long)]
    submitter: Option<String>,
    /// Jobs this runner was drawn for.
    #[arg(long)]
    runner: Option<String>,
    /// submitted, assigned, committed, verified, settled, failed, disputed.
    #[arg(long)]
    status: Option<String>,
    /// Continue after this job id (a previous page's `next`).
    #[arg(long)]
    after: Option<String>,
    #[command(flatten)]
    rpc: RpcArgs,
}

#[derive(Args)]
pub struct WatchArgs {
    /// The job id.
    id: String,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 600)]
    timeout: u64,
    #[command(flatten)]
    rpc: RpcArgs,
}

#[derive(Args)]
pub struct ChallengeArgs {
    /// The verified job whose result is challenged.
    id: String,
    #[command(flatten)]
    tx: TxArgs,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

fn job_id(text: &str) -> Result<cowboy_types::Hash> {
    client::hash(text, "the job id")
}

fn get(node: &Node, id: cowboy_types::Hash) -> Result<JobRecord> {
    node.call(async |c| c.job(id).await)?.ok_or_else(|| {
        anyhow!(
            "no job {id} on {} (check the id, or that the node is on the right chain)",
            node.url
        )
    })
}

impl JobCommand {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        match self {
            Self::Submit(a) => submit(a, global),
            Self::Estimate(a) => {
                let spec = a.quick.spec(a.spec.as_ref(), None)?;
                let node = Node::connect(&a.rpc, global)?;
                let estimate = node.call(async |c| c.estimate_job(spec).await)?;
                if global.json {
                    output::json(&estimate);
                    return Ok(());
                }
                outln!(
                    "committee  {} runner{}, {} must agree",
                    estimate.committee_size,
                    if estimate.committee_size == 1 {
                        ""
                    } else {
                        "s"
                    },
                    estimate.threshold
                );
                let n = estimate.candidates.len();
                outln!("eligible   {n} runner{}", if n == 1 { "" } else { "s" });
                for (why, n) in &estimate.refused {
                    outln!("refused    {n} ({why})");
                }
                outln!(
                    "price      {} base units (at the expected usage, with the tip)",
                    estimate.price
                );
                outln!(
                    "escrow     {} base units (max_price + tip + 2 × callback.max_fee)",
                    estimate.escrow
                );
                if estimate.candidates.len() < usize::from(estimate.committee_size) {
                    bail!(
                        "no eligible committee: {} runners qualify, the job needs {}",
                        estimate.candidates.len(),
                        estimate.committee_size
                    );
                }
                Ok(())
            }
            Self::Show(a) => show(a, global),
            Self::List(a) => {
                let node = Node::connect(&a.rpc, global)?;
                let status = match &a.status {
                    Some(s) => Some(serde_json::from_value(serde_json::Value::String(s.clone())).map_err(|_| {
                        anyhow!("--status {s:?} is not a job status: submitted, assigned, committed, verified, settled, failed or disputed")
                    })?),
                    None => None,
                };
                let filter = JobFilter {
                    submitter: a
                        .submitter
                        .as_deref()
                        .map(|t| client::address(t, "--submitter"))
                        .transpose()?,
                    runner: a
                        .runner
                        .as_deref()
                        .map(|t| client::address(t, "--runner"))
                        .transpose()?,
                    status,
                    after: a.after.as_deref().map(job_id).transpose()?,
                };
                let page = node.call(async |c| c.jobs(filter).await)?;
                if global.json {
                    output::json(&page);
                    return Ok(());
                }
                if page.jobs.is_empty() {
                    outln!("no jobs");
                }
                for j in &page.jobs {
                    outln!(
                        "{}  {:9}  {}  submitted at {} by {}",
                        j.id,
                        j.status.to_string(),
                        j.spec.job_type(),
                        j.submitted_at,
                        j.submitter
                    );
                }
                if let Some(next) = page.next {
                    outln!("more: --after {next}");
                }
                Ok(())
            }
            Self::Watch(a) => {
                let id = job_id(&a.id)?;
                let node = Node::connect(&a.rpc, global)?;
                get(&node, id)?;
                let json = global.json;
                let last = node
                    .block_on(jobs::follow(
                        &node.client,
                        id,
                        Duration::from_secs(a.timeout),
                        |j| {
                            jobs::finished(j.status)
                                && j.status != cowboy_types::job::JobStatus::Verified
                        },
                        |before, after| {
                            if json {
                                output::json(&crate::schema::JobChange {
                                    height_status: after.status,
                                    events: jobs::changes(before, after),
                                });
                            } else {
                                for line in jobs::changes(before, after) {
                                    outln!("{line}");
                                }
                            }
                        },
                    ))
                    .map_err(|e| client::rpc_error(e, &node.url))?;
                match last {
                    Some(j) if jobs::finished(j.status) => Ok(()),
                    _ => bail!("job {id} did not finish within {} s", a.timeout),
                }
            }
            Self::Challenge(a) => {
                let id = job_id(&a.id)?;
                let node = Node::connect(&a.rpc, global)?;
                let job = get(&node, id)?;
                if job.status != cowboy_types::job::JobStatus::Verified {
                    bail!(
                        "job {id} is {}; only a verified job, within its challenge window, can be challenged",
                        job.status
                    );
                }
                let params = node.call(async |c| c.parameters().await)?;
                let bond = params
                    .pointer("/runner/challenge_bond")
                    .and_then(|v| {
                        v.as_str()
                            .and_then(|s| s.parse().ok())
                            .or_else(|| v.as_u64())
                    })
                    .ok_or_else(|| {
                        anyhow!("the node's parameters carry no runner.challenge_bond")
                    })?;
                let key = a.signer.key(global)?;
                let (hash, receipt) = node.send(
                    &key,
                    Instruction::System(SystemInstruction::JobChallenge { job_id: id, bond }),
                    &a.tx,
                )?;
                client::report(global.json, hash, receipt)
            }
        }
    }
}

fn submit(a: SubmitArgs, global: &GlobalArgs) -> Result<()> {
    let mut spec = a.quick.spec(a.spec.as_ref(), a.max_price)?;
    if let Some(p) = a.max_price {
        spec.max_price = p;
    }
    let node = Node::connect(&a.rpc, global)?;
    // Refuse before paying a fee when no committee could be drawn.
    let estimate = node.call(async |c| c.estimate_job(spec.clone()).await)?;
    if estimate.candidates.len() < usize::from(estimate.committee_size) {
        let refused: Vec<String> = estimate
            .refused
            .iter()
            .map(|(w, n)| format!("{n} {w}"))
            .collect();
        bail!(
            "no eligible runners: the job needs a committee of {} but {} runners qualify (refused: {}); see `cowboy job estimate`",
            estimate.committee_size,
            estimate.candidates.len(),
            if refused.is_empty() {
                "none registered".into()
            } else {
                refused.join(", ")
            }
        );
    }
    let key = a.signer.key(global)?;
    let balance = node.call(async |c| c.balance(key.address()).await)?;
    if balance.0 < spec.escrow() {
        bail!(
            "insufficient escrow: the job escrows {} base units (max_price + tip + 2 × callback.max_fee) and {} holds {}",
            spec.escrow(),
            key.address(),
            balance.0
        );
    }
    let nonce = match a.tx.nonce {
        Some(n) => n,
        None => node.call(async |c| c.nonce(key.address()).await)?.pending,
    };
    let instruction = Instruction::System(SystemInstruction::JobSubmit {
        spec: Box::new(spec),
    });
    let id = cowboy_types::message_id(&key.address(), nonce, &instruction);
    let tx = TxArgs {
        nonce: Some(nonce),
        ..a.tx.clone()
    };
    let (hash, receipt) = node.send(&key, instruction, &tx)?;
    let Some(receipt) = receipt else {
        if global.json {
            output::json(&crate::schema::JobSubmitted::Submitted {
                job_id: id,
                tx_hash: hash,
                block: None,
            });
        } else {
            outln!("job {id} (tx {hash})");
        }
        return Ok(());
    };
    if receipt.status != cowboy_rpc::ReceiptStatus::Success {
        if global.json {
            output::json(&crate::schema::JobSubmitted::Failed(Box::new(receipt)));
            bail!(output::Reported);
        }
        return client::report(false, hash, Some(receipt));
    }
    if !a.wait {
        if global.json {
            output::json(&crate::schema::JobSubmitted::Submitted {
                job_id: id,
                tx_hash: hash,
                block: Some(receipt.block_height),
            });
        } else {
            outln!("job {id} submitted in block {}", receipt.block_height);
        }
        return Ok(());
    }
    let job = node
        .block_on(jobs::follow(
            &node.client,
            id,
            Duration::from_secs(a.job_timeout),
            |j| jobs::finished(j.status),
            |_, _| {},
        ))
        .map_err(|e| client::rpc_error(e, &node.url))?
        .ok_or_else(|| anyhow!("job {id} is not on chain after its submission succeeded"))?;
    if global.json {
        output::json(&crate::schema::JobSubmitted::Finished(Box::new(job_show(
            &job, None,
        ))));
    } else {
        print_job(&job, false, None);
    }
    match job.status {
        cowboy_types::job::JobStatus::Failed => bail!(output::Reported),
        s if jobs::finished(s) => Ok(()),
        s => bail!(
            "job {id} is still {s} after {} s; follow it with `cowboy job watch {id}`",
            a.job_timeout
        ),
    }
}

fn show(a: ShowArgs, global: &GlobalArgs) -> Result<()> {
    let id = job_id(&a.id)?;
    let node = Node::connect(&a.rpc, global)?;
    let job = get(&node, id)?;
    let replay = if a.verify_selection {
        Some(
            cowboy_execution::runners::selection::replay(&job)
                .map_err(|e| anyhow!("cannot re-run the selection: {e}"))?,
        )
    } else {
        None
    };
    print_job(&job, global.json, replay.as_ref());
    if let Some((root, draws)) = &replay
        && (!root
            || draws
                .iter()
                .any(|d| !d.seed_matches || !d.committee_matches))
    {
        bail!(output::Reported);
    }
    Ok(())
}

type Replay = (bool, Vec<cowboy_execution::runners::selection::Replayed>);

/// What `job show --json` prints.
fn job_show(job: &JobRecord, replay: Option<&Replay>) -> crate::schema::JobShow {
    crate::schema::JobShow {
        job: job.clone(),
        votes: jobs::votes(job),
        selection: replay.map(|(root, draws)| crate::schema::Selection {
            snapshot_root_matches: *root,
            draws: draws.clone(),
        }),
    }
}

fn print_job(job: &JobRecord, json: bool, replay: Option<&Replay>) {
    if json {
        output::json(&job_show(job, replay));
        return;
    }
    let votes = jobs::votes(job);
    outln!("job        {}", job.id);
    outln!(
        "status     {}{}",
        job.status,
        if job.failure.is_empty() {
            String::new()
        } else {
            format!(": {}", job.failure.as_str())
        }
    );
    outln!(
        "type       {} ({}, {} of {} must agree)",
        job.spec.job_type(),
        job.spec.verification.mode.name(),
        job.threshold,
        job.committee_size
    );
    outln!(
        "submitter  {} at height {}",
        job.submitter,
        job.submitted_at
    );
    outln!(
        "escrow     {} base units; deadline {}",
        job.escrow,
        job.deadline
    );
    outln!(
        "snapshot   {} candidates, root {}",
        job.candidates.len(),
        job.snapshot_root
    );
    for (k, d) in job.draws.iter().enumerate() {
        outln!(
            "draw {}     round ({}, {}) seed {}",
            d.retry,
            d.round_epoch,
            d.round_view,
            d.seed
        );
        // A retry's leading members kept their seats from the draw before.
        let previous = k.checked_sub(1).and_then(|p| job.draws.get(p));
        for m in d.committee.iter() {
            let kept = previous.is_some_and(|p| p.committee.contains(m));
            let tag = match (*m == d.aggregator, kept) {
                (true, true) => " (kept, aggregator)",
                (true, false) => " (aggregator)",
                (false, true) => " (kept)",
                (false, false) => "",
            };
            outln!("             {m}{tag}");
        }
    }
    for c in job.commitments.iter() {
        outln!("commit     {} {}", c.runner, c.hash);
    }
    for v in &votes {
        let runners: Vec<String> = v.runners.iter().map(|a| a.to_string()).collect();
        outln!(
            "reveal     {} × {}{}: {}",
            v.runners.len(),
            v.result_hash,
            if v.valid { "" } else { " (invalid)" },
            v.preview
        );
        outln!("             by {}", runners.join(", "));
    }
    for s in job.slashed.iter() {
        outln!("slashed    {s}");
    }
    if let Some(r) = &job.result {
        outln!(
            "result     {}",
            String::from_utf8(r.to_vec())
                .unwrap_or_else(|_| format!("0x{}", hex::encode(r.as_slice())))
        );
    }
    for p in job.payouts.iter() {
        outln!("payout     {} {} base units", p.runner, p.amount);
    }
    if job.burn > 0 || job.treasury > 0 {
        outln!(
            "burned     {} base units; treasury {}",
            job.burn,
            job.treasury
        );
    }
    if let Some((root, draws)) = replay {
        outln!(
            "selection  snapshot root {}",
            if *root { "matches" } else { "DOES NOT MATCH" }
        );
        for d in draws {
            outln!(
                "           draw {}: seed {}, committee {}",
                d.retry,
                if d.seed_matches {
                    "matches"
                } else {
                    "DOES NOT MATCH"
                },
                if d.committee_matches {
                    "matches"
                } else {
                    "DOES NOT MATCH"
                }
            );
        }
    }
}
