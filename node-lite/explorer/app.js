// Cowboy Explorer: a single-page app over the node's public JSON-RPC (HTTP for reads, a
// WebSocket `cowboy_subscribeNewHeads` subscription for the live head). Hash routes:
// #/ · #/block/ID · #/tx/HASH · #/address/ADDR · #/timers · #/network?nodes=URL,URL
"use strict";

const view = document.getElementById("view");
let rpcId = 0;

async function rpc(method, params = [], url = "/") {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
  });
  const body = await response.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

// ---- rendering helpers (every value goes through text nodes: nothing from the chain is HTML) ----
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
const link = (href, text, attrs = {}) => h("a", { href, class: "mono", ...attrs }, text);
const short = (hex) => (hex && hex.length > 20 ? `${hex.slice(0, 10)}…${hex.slice(-8)}` : hex);
const blockLink = (id, text) => link(`#/block/${id}`, text ?? String(id));
const txLink = (hash, full) => link(`#/tx/${hash}`, full ? hash : short(hash), { title: hash });
const addrLink = (a, full) => link(`#/address/${a}`, full ? a : short(a), { title: a });
const cby = (base) => {
  const n = BigInt(base);
  const whole = n / 1000000000n, frac = (n % 1000000000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${whole.toLocaleString("en-US")}${frac ? "." + frac : ""} CBY`;
};
const json = (v) => JSON.stringify(v, null, 2);
const ago = (ms) => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s} s ago` : s < 3600 ? `${Math.round(s / 60)} min ago` : new Date(ms).toLocaleString();
};
function fields(rows) {
  const dl = h("dl", { class: "fields" });
  for (const [label, value, testid] of rows) {
    dl.append(h("dt", {}, label), h("dd", { "data-field": testid ?? label }, value ?? h("span", { class: "muted" }, "—")));
  }
  return dl;
}
function table(headers, rows, testid) {
  if (!rows.length) return h("p", { class: "empty" }, "None.");
  return h("table", { "data-testid": testid },
    h("thead", {}, h("tr", {}, headers.map((x) => h("th", { class: x.endsWith("#") ? "num" : "" }, x.replace(/#$/, ""))))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c, i) => h("td", { class: headers[i].endsWith("#") ? "num" : "" }, c))))));
}
const pill = (text, kind) => h("span", { class: `pill ${kind}` }, text);
function show(...nodes) { view.replaceChildren(...nodes); }
function fail(e) { show(h("div", { class: "error", "data-testid": "error" }, String(e.message ?? e))); }

// ---- live head ----
let head = null;
const headListeners = new Set();
// `status` is the node's status read for this head (null when that read failed).
function setHead(summary, status) {
  head = summary;
  const a = document.getElementById("head-height");
  a.textContent = summary.height;
  a.href = `#/block/${summary.height}`;
  for (const f of headListeners) f(summary, status);
}
async function refreshStatus() {
  const s = await rpc("cowboy_status");
  document.getElementById("finalized-height").textContent = s.finalized_height;
  document.getElementById("chain-id").textContent = `chain ${s.chain_id}`;
  return s;
}
function connectLive() {
  const dot = document.getElementById("live-dot");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/`);
  ws.onopen = () => {
    dot.classList.add("on");
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "cowboy_subscribeNewHeads", params: [null] }));
  };
  ws.onmessage = async (m) => {
    const msg = JSON.parse(m.data);
    if (msg.params && msg.params.result) {
      setHead(msg.params.result, await refreshStatus().catch(() => null));
    }
  };
  ws.onclose = () => { dot.classList.remove("on"); setTimeout(connectLive, 2000); };
}

// ---- views ----
async function overview() {
  const [status, fees] = await Promise.all([refreshStatus(), rpc("cowboy_fees")]);
  const card = (label, value, testid) => h("div", { class: "card" }, h("div", { class: "label" }, label), h("div", { class: "value", "data-testid": testid }, value));
  const blocksBody = h("div");
  // Executed blocks never change: each is read once, however many heads the page sees.
  const seen = new Map();
  const block = async (n) => {
    if (!seen.has(n)) seen.set(n, await rpc("cowboy_getBlock", [n, false]));
    return seen.get(n);
  };
  const renderBlocks = async () => {
    const top = head ? head.height : status.height;
    const heights = [];
    for (let i = top; i > 0 && heights.length < 15; i--) heights.push(i);
    const blocks = await Promise.all(heights.map(block));
    for (const n of seen.keys()) if (n <= top - 15) seen.delete(n);
    blocksBody.replaceChildren(table(["Height#", "Hash", "Proposer", "Txs#", "Time"],
      blocks.filter(Boolean).map((b) => [blockLink(b.height), link(`#/block/${b.hash}`, short(b.hash)), addrLink(b.proposer), b.transactions.length, ago(b.timestamp_ms)]),
      "latest-blocks"));
  };
  await renderBlocks();
  const onHead = async (_summary, s) => {
    if (location.hash !== "" && location.hash !== "#/") return;
    if (s) {
      for (const [id, value] of [["status-height", s.height], ["status-finalized", s.finalized_height]]) {
        const el = document.querySelector(`[data-testid=${id}]`);
        if (el) el.textContent = value;
      }
    }
    await renderBlocks();
  };
  headListeners.clear();
  headListeners.add(onHead);
  show(
    h("h1", {}, "Overview"),
    h("div", { class: "cards" },
      card("Executed height", status.height, "status-height"),
      card("Finalized height", status.finalized_height, "status-finalized"),
      card("Peers", status.peers),
      card("Pending transactions", status.pool),
      card("Cycle basefee", `${fees.cycle_basefee} (user ${fees.user_cycle_basefee})`),
      card("Cell basefee", `${fees.cell_basefee} (user ${fees.user_cell_basefee})`),
      card("Health", status.halted ? pill("halted", "bad") : status.stalled ? pill("stalled", "bad") : pill("ok", "ok"))),
    h("h2", {}, "State"),
    fields([["State root", h("span", { class: "mono" }, status.state_root), "state_root"], ["Head hash", link(`#/block/${status.head_hash}`, status.head_hash)], ["Genesis", h("span", { class: "mono" }, status.genesis_hash)], ["Version", status.version]]),
    h("h2", {}, "Latest blocks"), blocksBody);
}

async function blockPage(id) {
  const param = /^\d+$/.test(id) ? Number(id) : id;
  const b = await rpc("cowboy_getBlock", [param, true]);
  if (!b) throw new Error(`no executed block ${id} on this node`);
  const receipts = await Promise.all(b.transactions.map((t) => rpc("cowboy_getReceipt", [t])));
  const cycles = receipts.reduce((s, r) => s + (r ? r.cycles_used : 0), 0);
  const cells = receipts.reduce((s, r) => s + (r ? r.cells_used : 0), 0);
  show(
    h("h1", {}, `Block ${b.height}`),
    fields([
      ["Hash", h("span", { class: "mono" }, b.hash), "hash"],
      ["Parent", b.height > 1 ? link(`#/block/${b.parent}`, b.parent) : h("span", { class: "mono" }, b.parent), "parent"],
      ["Time", `${new Date(b.timestamp_ms).toISOString()} (${ago(b.timestamp_ms)})`],
      ["Round", `epoch ${b.epoch}, view ${b.view}`],
      ["Proposer", addrLink(b.proposer, true), "proposer"],
      ["Beacon", h("span", {}, `round ${b.beacon_round} `, h("span", { class: "mono muted" }, short(b.beacon.toString())))],
      ["Transactions root", h("span", { class: "mono" }, b.tx_root)],
      ["State root (executed)", h("span", { class: "mono" }, b.executed_state_root), "executed_state_root"],
      ["Receipts root (executed)", h("span", { class: "mono" }, b.executed_receipts_root)],
      [`Claimed roots (of block ${b.state_height})`, h("span", { class: "mono" }, `${short(b.state_root)} · ${short(b.receipts_root)}`)],
      ["Basefees", `${b.cycle_basefee} per cycle · ${b.cell_basefee} per cell`, "basefees"],
      ["Used", `${cycles.toLocaleString("en-US")} cycles · ${cells.toLocaleString("en-US")} cells`, "used"],
    ]),
    h("h2", {}, `Transactions (${b.transactions.length})`),
    table(["#", "Hash", "From", "Instruction", "Status", "Cycles#", "Cells#", "Fee"],
      b.transactions.map((t, i) => {
        const tx = (b.full_transactions || [])[i] || {};
        const r = receipts[i];
        return [i, txLink(t), tx.from ? addrLink(tx.from) : "—", instructionName(tx.instruction), r ? statusPill(r) : "—", r ? r.cycles_used : "—", r ? r.cells_used : "—", r ? cby(r.fee) : "—"];
      }), "block-transactions"));
}

function instructionName(ins) {
  if (!ins) return "—";
  if (typeof ins === "string") return ins;
  const kind = ins.kind ?? ins.type ?? Object.keys(ins)[0];
  return String(kind);
}
const statusPill = (r) => r.status === "success" ? pill("success", "ok") : pill(r.failure ?? "failed", "bad");

function eventsTable(events, withTx) {
  return table(["Emitter", "Topics", "Value", ...(withTx ? ["Transaction", "Block#"] : [])],
    events.map((e) => [addrLink(e.emitter), h("span", { class: "mono" }, e.topics.map(short).join(" ")),
      e.value !== undefined && e.value !== null ? h("code", {}, JSON.stringify(e.value)) : h("span", { class: "mono muted" }, short(e.data)),
      ...(withTx ? [txLink(e.tx_hash), blockLink(e.block_height)] : [])]), "events");
}

async function txPage(hash) {
  const [t, r] = await Promise.all([rpc("cowboy_getTransaction", [hash]), rpc("cowboy_getReceipt", [hash])]);
  if (!t) throw new Error(`no transaction ${hash} on this node`);
  const tx = t.transaction;
  const nodes = [
    h("h1", {}, "Transaction"),
    fields([
      ["Hash", h("span", { class: "mono" }, t.hash), "hash"],
      ["Status", t.pending ? pill("pending", "info") : r ? statusPill(r) : "—", "status"],
      ["Block", t.block_height != null ? blockLink(t.block_height) : "—", "block"],
      ["From", tx.from ? addrLink(tx.from, true) : "—", "from"],
      ["Nonce", tx.nonce],
      ["Limits", `${tx.cycles_limit} cycles · ${tx.cells_limit} cells`],
      ["Max fees", `${tx.max_fee_per_cycle} per cycle · ${tx.max_fee_per_cell} per cell (tip ${tx.max_priority_fee_per_cycle})`],
    ]),
    h("h2", {}, "Instruction"),
    h("pre", { "data-testid": "instruction" }, json(tx.instruction)),
  ];
  if (r) {
    nodes.push(h("h2", {}, "Receipt"), fields([
      ["Outcome", statusPill(r), "outcome"],
      ...(r.error ? [["Error", r.error, "error"]] : []),
      ["Cycles used", r.cycles_used, "cycles_used"],
      ["Cells used", r.cells_used, "cells_used"],
      ["Fee", cby(r.fee), "fee"],
      ["Return value", r.return_value !== null && r.return_value !== undefined ? h("code", {}, JSON.stringify(r.return_value)) : h("span", { class: "mono muted" }, r.return_data || "—"), "return_value"],
      ...(r.created ? [["Created actor", addrLink(r.created, true), "created"]] : []),
    ]),
    h("h2", {}, `Events (${r.events.length})`), eventsTable(await decodedEvents(r), false),
    h("h2", {}, `Deliveries (${r.deliveries.length})`),
    table(["Message", "To", "Outcome"], r.deliveries.map((d) => [h("span", { class: "mono" }, short(d.id)), addrLink(d.to), d.outcome === "failed" ? pill(d.error ?? "failed", "bad") : pill(d.outcome, d.outcome === "delivered" ? "ok" : "info")]), "deliveries"));
  }
  show(...nodes);
}

// A receipt's events with their values decoded (the event index decodes them).
async function decodedEvents(r) {
  if (!r.events.length) return [];
  let cursor = null, out = [];
  for (let i = 0; i < 20; i++) {
    const page = await rpc("cowboy_getEvents", [{ from_height: r.block_height, to_height: r.block_height, limit: 1000, cursor }]);
    out = out.concat(page.events.filter((e) => e.tx_hash === r.tx_hash));
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return out.length === r.events.length ? out : r.events;
}

async function addressPage(addr) {
  const account = await rpc("cowboy_getAccount", [addr]);
  const nodes = [h("h1", {}, account.actor ? "Actor" : "Account"),
    fields([
      ["Address", h("span", { class: "mono" }, account.address), "address"],
      ["Balance", cby(account.balance), "balance"],
      ["Nonce", account.nonce, "nonce"],
      ["At height", account.height],
    ])];
  const top = account.height;
  const events = await collectEvents(addr, top);
  const timers = await rpc("cowboy_getTimers", [addr]);
  if (account.actor) {
    const a = account.actor;
    const [code, storage] = await Promise.all([rpc("cowboy_getCode", [addr]), rpc("cowboy_getStorage", [{ address: addr }])]);
    nodes.push(h("h2", {}, "Actor"), fields([
      ["Code hash", h("span", { class: "mono" }, a.code_hash), "code_hash"],
      ["PVM version", a.pvm_version],
      ["Storage", `${a.storage_used.toLocaleString("en-US")} of ${a.storage_quota.toLocaleString("en-US")} bytes (bond ${cby(a.storage_bond)})`, "storage_used"],
      ["Pending timers", a.pending_timers],
      ["Entitlements", a.entitlements && Object.keys(a.entitlements).length ? h("code", {}, JSON.stringify(a.entitlements)) : "none"],
    ]),
    h("h2", {}, "Source"),
    code ? h("pre", { class: "source", "data-testid": "source" }, code.source) : h("p", { class: "empty" }, "No source stored."),
    h("h2", {}, `Storage (${storage.entries.length}${storage.next ? "+" : ""} keys)`),
    table(["Key", "Value"], storage.entries.map((e) => [h("span", { class: "mono", "data-key": e.key }, e.key_text ?? e.key),
      e.value_json !== undefined && e.value_json !== null ? h("code", { "data-value": e.value }, JSON.stringify(e.value_json)) : h("span", { class: "mono" }, e.value)]), "storage"));
  }
  nodes.push(h("h2", {}, `Timers (${timers.length})`),
    table(["Id", "Actor", "Handler", "Next height#", "Every#"], timers.map((t) => [h("span", { class: "mono" }, short(t.id)), addrLink(t.actor), t.handler, t.height, t.every_blocks ?? "once"]), "timers"),
    h("h2", {}, `Recent events (${events.length})`), eventsTable(events, true));
  show(...nodes);
}

// The newest 50 events `addr` emitted in the last 10,000 blocks.
async function collectEvents(addr, top) {
  const from = Math.max(0, top - 9999);
  let cursor = null, out = [];
  for (let i = 0; i < 20; i++) {
    const page = await rpc("cowboy_getEvents", [{ from_height: from, to_height: top, emitter: addr, limit: 1000, cursor }]);
    out = out.concat(page.events).slice(-50);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return out.reverse();
}

async function timersPage() {
  const timers = await rpc("cowboy_getTimerQueue", [null]);
  show(h("h1", {}, "Timer queue"), h("p", { class: "muted" }, "Pending timers in firing order (the first 1,000)."),
    table(["Next height#", "Actor", "Handler", "Every#", "Cycles per fire#", "Creator"],
      timers.map((t) => [blockLink(t.height), addrLink(t.actor), t.handler, t.every_blocks ?? "once", t.cycles_per_fire, addrLink(t.creator)]), "timer-queue"));
}

async function networkPage(query) {
  const urls = (query.get("nodes") || "").split(",").map((s) => s.trim()).filter(Boolean);
  if (!urls.length) urls.push(location.origin + "/");
  const validators = await rpc("cowboy_getValidators");
  const statuses = await Promise.all(urls.map((u) => rpc("cowboy_status", [], u).catch((e) => ({ error: e.message }))));
  const common = Math.min(...statuses.filter((s) => !s.error).map((s) => s.height));
  const roots = await Promise.all(urls.map((u, i) => statuses[i].error || !Number.isFinite(common) ? null : rpc("cowboy_getBlock", [common, false], u).then((b) => b && b.executed_state_root).catch(() => null)));
  const agreed = roots.filter(Boolean);
  show(h("h1", {}, "Network"),
    h("h2", {}, `Validators (${validators.length})`),
    table(["Address", "Stake", "Public key"], validators.map((v) => [addrLink(v.address, true), cby(v.stake), h("span", { class: "mono" }, short(v.public_key))]), "validators"),
    h("h2", {}, `Nodes (${urls.length})`),
    h("p", { class: "muted" }, `State roots compared at height ${Number.isFinite(common) ? common : "—"}. Add nodes with #/network?nodes=URL,URL.`),
    table(["Node", "Height#", "Finalized#", "Peers#", `State root at ${Number.isFinite(common) ? common : "—"}`, ""],
      urls.map((u, i) => {
        const s = statuses[i];
        if (s.error) return [u, "—", "—", "—", "—", pill("unreachable", "bad")];
        const same = roots[i] && agreed.every((r) => r === roots[i]);
        return [u, s.height, s.finalized_height, s.peers, h("span", { class: "mono" }, roots[i] ?? "—"), same ? pill("agrees", "ok") : pill("differs", "bad")];
      }), "nodes"));
}

// ---- search and routing ----
async function search(q) {
  q = q.trim();
  if (/^\d+$/.test(q)) return `#/block/${q}`;
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) return `#/address/${q.toLowerCase()}`;
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) {
    const hash = q.toLowerCase();
    if (await rpc("cowboy_getBlock", [hash, false])) return `#/block/${hash}`;
    if (await rpc("cowboy_getTransaction", [hash])) return `#/tx/${hash}`;
    throw new Error(`no block or transaction ${hash} on this node`);
  }
  throw new Error(`"${q}" is not a block height, a 32-byte hash (0x and 64 hex digits) or an address (0x and 40 hex digits)`);
}
document.getElementById("search").addEventListener("submit", (e) => {
  e.preventDefault();
  search(document.getElementById("search-input").value).then((to) => { location.hash = to; }, fail);
});

async function route() {
  const [path, qs] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  for (const a of document.querySelectorAll(".tabs a")) a.classList.toggle("active", a.getAttribute("href") === `#/${parts[0] ?? ""}`);
  headListeners.clear();
  view.setAttribute("data-loading", "true");
  try {
    switch (parts[0]) {
      case undefined: await overview(); break;
      case "block": await blockPage(decodeURIComponent(parts[1] ?? "")); break;
      case "tx": await txPage(parts[1]); break;
      case "address": await addressPage(parts[1]); break;
      case "timers": await timersPage(); break;
      case "network": await networkPage(new URLSearchParams(qs)); break;
      default: throw new Error(`no page ${location.hash}`);
    }
  } catch (e) {
    fail(e);
  }
  view.setAttribute("data-loading", "false");
  view.setAttribute("data-route", location.hash || "#/");
}
window.addEventListener("hashchange", route);
refreshStatus().then((s) => setHead({ height: s.height, hash: s.head_hash }, s)).catch(() => {});
connectLive();
route();
