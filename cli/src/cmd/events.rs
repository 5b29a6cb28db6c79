//! `cowboy events`: the events of executed blocks, by actor and topics, the whole range or up
//! to `--limit`; `--follow` goes on printing the events of each new block as it is executed
//! (a WebSocket subscription; after a disconnect it reads what it missed page by page and
//! subscribes again; long polls against a node without WebSocket; never a sleep). Topics are given by event name (hashed as `emit` hashes it) or
//! as hashes; data is shown decoded when it is a canonical value.

use crate::{
    client::{self, Node, RpcArgs},
    opts::GlobalArgs,
};
use anyhow::{Result, bail};
use clap::Args;
use cowboy_rpc::{
    CowboyApiClient, EventRecord, EventsRequest, MAX_EVENT_RANGE, MAX_EVENTS_PAGE,
    MAX_FILTERED_EVENT_RANGE, MAX_WAIT_MS,
};
use cowboy_types::Hash;
use std::collections::BTreeMap;

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy events --actor 0xACTOR\n  \
cowboy events --topic Incremented --from 1 --to 20\n  \
cowboy events --actor 0xACTOR --topic Incremented --follow --json   # until Ctrl-C\n\n\
Without --from: the last 10,000 blocks (the last 1,000,000 with --actor or a first --topic, \
which the node indexes). --json prints one JSON object per event per line.")]
pub struct EventsArgs {
    /// Only events this actor emitted.
    #[arg(long)]
    actor: Option<String>,
    /// A topic: an event name (its keccak256, as `emit(name)` makes the first topic), a
    /// 32-byte hash, or `_` for any. Repeat for the second, third and fourth topics.
    #[arg(long = "topic", value_name = "NAME|HASH|_")]
    topics: Vec<String>,
    /// The first block.
    #[arg(long)]
    from: Option<u64>,
    /// The last block (default: the latest executed one).
    #[arg(long, conflicts_with = "follow")]
    to: Option<u64>,
    /// Stop after this many events.
    #[arg(long)]
    limit: Option<usize>,
    /// Keep printing the events of new blocks as they are executed (Ctrl-C to stop).
    #[arg(long)]
    follow: bool,
    #[command(flatten)]
    rpc: RpcArgs,
}

impl EventsArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let emitter = self
            .actor
            .as_deref()
            .map(|a| client::address(a, "--actor"))
            .transpose()?;
        if self.topics.len() > 4 {
            bail!(
                "{} --topic given; an event has at most 4 topics",
                self.topics.len()
            );
        }
        // Names the output can show for the topics it was given by name.
        let mut names = BTreeMap::new();
        let mut topics = Vec::new();
        for t in &self.topics {
            topics.push(match t.as_str() {
                "_" => None,
                hex if hex.starts_with("0x") => Some(client::hash(hex, "--topic")?),
                name => {
                    let h = cowboy_types::keccak256(name.as_bytes());
                    names.insert(h, name.to_string());
                    Some(h)
                }
            });
        }
        let indexed = emitter.is_some() || topics.first().is_some_and(Option::is_some);
        let node = Node::connect(&self.rpc, global)?;
        let latest = node.call(async |c| c.status().await)?.height;
        let mut to = self.to.unwrap_or(latest);
        let widest = if indexed {
            MAX_FILTERED_EVENT_RANGE
        } else {
            MAX_EVENT_RANGE
        };
        let mut from = self.from.unwrap_or_else(|| to.saturating_sub(widest - 1));
        let mut shown = 0usize;
        // The last event printed: a resumed subscription or page never prints one twice.
        let mut last: Option<(u64, u32, u32)> = None;
        let mut live = true;
        let print = |e: &EventRecord| {
            if global.json {
                match serde_json::to_string(e) {
                    Ok(line) => outln!("{line}"),
                    Err(err) => eprintln!("error: cannot serialise an event: {err}"),
                }
            } else {
                outln!("{}", line(e, &names));
            }
        };
        loop {
            // The range in slices the node takes, each a page at a time.
            let mut start = from;
            while start <= to {
                let end = to.min(start.saturating_add(widest - 1));
                let mut cursor = None;
                loop {
                    let request = EventsRequest {
                        from_height: start,
                        to_height: Some(end),
                        emitter,
                        topics: topics.clone(),
                        limit: Some(MAX_EVENTS_PAGE),
                        cursor: cursor.take(),
                    };
                    let page = node.call(async |c| c.events(request).await)?;
                    for e in &page.events {
                        let position = (e.block_height, e.receipt_index, e.event_index);
                        if last.is_some_and(|l| position <= l) {
                            continue;
                        }
                        last = Some(position);
                        print(e);
                        shown += 1;
                        if self.limit.is_some_and(|l| shown >= l) {
                            return Ok(());
                        }
                    }
                    match page.next_cursor {
                        Some(next) => cursor = Some(next),
                        None => break,
                    }
                }
                start = end.saturating_add(1);
            }
            if !self.follow {
                if shown == 0 && !global.json {
                    eprintln!("no events in blocks {from}..={to}");
                }
                return Ok(());
            }
            if live {
                // Every event from the next block, as the node executes it.
                let filter = cowboy_rpc::EventsSubscription {
                    from_height: Some(to + 1),
                    emitter,
                    topics: topics.clone(),
                };
                let url = node.url.clone();
                let ended = node.block_on(async {
                    use cowboy_rpc::CowboyPubSubClient as _;
                    let ws = cowboy_rpc::ws_client(&url).await?;
                    let mut events = ws.subscribe_events(filter).await?;
                    while let Some(item) = events.next().await {
                        let e = item?;
                        let position = (e.block_height, e.receipt_index, e.event_index);
                        if last.is_some_and(|l| position <= l) {
                            continue;
                        }
                        last = Some(position);
                        print(&e);
                        shown += 1;
                        if self.limit.is_some_and(|l| shown >= l) {
                            return Ok(true);
                        }
                    }
                    Ok::<_, cowboy_rpc::jsonrpsee::core::ClientError>(false)
                });
                match ended {
                    Ok(true) => return Ok(()),
                    // The node ended the subscription (it closes a subscriber that falls too
                    // far behind) or went away: read what was missed, then subscribe again.
                    // So does a subscription whose `from` is already too far back.
                    Ok(false) | Err(cowboy_rpc::jsonrpsee::core::ClientError::RestartNeeded(_)) => {
                        from = last.map_or(to + 1, |l| l.0);
                        to = node.call(async |c| c.status().await)?.height.max(from);
                        continue;
                    }
                    Err(cowboy_rpc::jsonrpsee::core::ClientError::Call(e))
                        if e.code() == -32602 =>
                    {
                        from = last.map_or(to + 1, |l| l.0);
                        to = node.call(async |c| c.status().await)?.height.max(from);
                        continue;
                    }
                    // A node without WebSocket subscriptions: long polls instead.
                    Err(e) => {
                        tracing::debug!(error = %e, "no event subscription; following with long polls");
                        live = false;
                    }
                }
            }
            // The next executed block, as soon as there is one.
            let after = to;
            let next = loop {
                if let Some(b) =
                    node.call(async |c| c.wait_for_block(after, Some(MAX_WAIT_MS)).await)?
                {
                    break b.height;
                }
            };
            from = (after + 1).max(from);
            to = next;
        }
    }
}

/// `height  emitter  name-or-topic [topics…]  value  tx`.
fn line(e: &EventRecord, names: &BTreeMap<Hash, String>) -> String {
    let topic = |h: &Hash| names.get(h).cloned().unwrap_or_else(|| h.to_string());
    let first = e.topics.first().map(topic).unwrap_or_else(|| "-".into());
    let rest: Vec<String> = e.topics.iter().skip(1).map(topic).collect();
    let data = match &e.value {
        Some(v) => v.to_string(),
        None if e.data.0.is_empty() => "-".into(),
        None => format!("0x{}", hex::encode(&e.data.0)),
    };
    format!(
        "{:>8}  {}  {}{}  {}  tx {}",
        e.block_height,
        e.emitter,
        first,
        if rest.is_empty() {
            String::new()
        } else {
            format!(" [{}]", rest.join(", "))
        },
        data,
        e.tx_hash
    )
}
