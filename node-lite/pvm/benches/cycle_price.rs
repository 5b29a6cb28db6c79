//! The wall time one cycle buys, for every class of operation an actor can run: the
//! "Execution budget" decision (`../shared/spec/README.md`) made measurable.
//!
//! Each workload is a handler that repeats one kind of operation in a `while` loop until it has
//! used about [`TARGET_CYCLES`] (or run for [`TARGET_TIME`]); the benchmark divides the call's wall time by the cycles it was
//! charged. The plain `while` loop is the baseline: an operation slower per cycle than the
//! loop is under-charged (a block full of it would take longer than a block full of loops), and
//! is flagged `UNDERPRICED`. Workloads are reported worst first, as ratios to the baseline
//! measured in the same run.
//!
//! The report ends with the execution-budget factor: the share of the spec's block cycle cap
//! (80,000,000) that a block full of the slowest operation can use and still execute in half
//! the block time (`COWBOY_BLOCK_TIME_MS`, default 1,000) on this machine. The default genesis
//! scales the cycle target and the four lane budgets by a factor measured this way
//! (`cowboy_execution::params::BUDGET_SCALE_PPM`).
//!
//! Run: `cargo bench -p cowboy-pvm --bench cycle_price` (`COWBOY_PRICE_FILTER=json,re.` runs only
//! workloads whose name contains `json` or `re.`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_pvm::{CallContext, Engine, Limits, MemoryHost, Value};
use std::time::{Duration, Instant};

/// Cycles each measured call aims to use…
const TARGET_CYCLES: u64 = 3_000_000;
/// …unless that would take longer than this (badly under-charged operations).
const TARGET_TIME: Duration = Duration::from_millis(300);
/// Measured calls per workload (the median is reported).
const RUNS: usize = 3;
/// The spec's block cycle cap (whitepaper §17.9: the four lanes).
const SPEC_BLOCK_CYCLES: u64 = 80_000_000;

/// `(name, setup, body)`: `setup` runs once per call, `body` once per iteration.
const WORKLOADS: &[(&str, &str, &str)] = &[
    ("loop (baseline)", "", "pass"),
    ("arithmetic", "", "x = i * 3 + 7 - i // 2"),
    ("comparison and branch", "", "if i < 5 or i == 7:\n    pass"),
    ("function call", "def f(x):\n    return x", "f(i)"),
    (
        "method call",
        "class A:\n    def m(self, x):\n        return x\na = A()",
        "a.m(i)",
    ),
    (
        "attribute read and write",
        "class A:\n    pass\na = A()\na.x = 0",
        "a.x = a.x + 1",
    ),
    (
        "private attribute",
        "class A:\n    pass\na = A()\na._x = 0",
        "a._x = a._x + 1",
    ),
    (
        "instance creation",
        "class A:\n    def __init__(self, x):\n        self.x = x",
        "A(i)",
    ),
    (
        "dataclass instance",
        "import dataclasses\n@dataclasses.dataclass\nclass P:\n    x: int\n    y: int",
        "P(i, i)",
    ),
    (
        "exception raise and catch",
        "",
        "try:\n    raise ValueError('x')\nexcept ValueError:\n    pass",
    ),
    (
        "list append",
        "l = []",
        "l.append(i)\nif len(l) > 1000:\n    l = []",
    ),
    ("list index", "l = list(range(100))", "x = l[i % 100]"),
    (
        "dict set and get",
        "d = {}",
        "d[i % 100] = i\nx = d[i % 100]",
    ),
    (
        "comprehension of 100",
        "s = list(range(100))",
        "x = [v + 1 for v in s]",
    ),
    (
        "for loop over range(100)",
        "",
        "for v in range(100):\n    pass",
    ),
    ("f-string", "", "s = f'{i}-{i}'"),
    ("str concat", "", "s = 'ab' + 'cd'"),
    ("str * 1000", "", "s = 'ab' * 1000"),
    ("list * 1000", "", "s = [0] * 1000"),
    (
        "str.join 1000",
        "parts = ['ab'] * 1000",
        "s = ''.join(parts)",
    ),
    ("str.split 1000 words", "t = 'a b ' * 500", "x = t.split()"),
    (
        "str.replace 1000",
        "t = 'ab' * 500",
        "x = t.replace('a', 'xy')",
    ),
    ("str.upper 1000", "t = 'ab' * 500", "x = t.upper()"),
    ("str.find 1000", "t = 'ab' * 500", "x = t.find('c')"),
    (
        "str == 100000",
        "a = 'a' * 100000\nb = 'a' * 100000",
        "x = a == b",
    ),
    ("str slice 100000", "a = 'a' * 100000", "x = a[1:]"),
    ("non-ASCII str index", "a = 'é' * 100000", "x = a[-1]"),
    ("str(int 4000 bits)", "a = 3 ** 2500", "x = str(a)"),
    (
        "f-string of an int 4000 bits",
        "a = 3 ** 2500",
        "x = f'{a}'",
    ),
    ("int(1200 digits)", "t = '9' * 1200", "x = int(t)"),
    (
        "bigint multiply",
        "a = 3 ** 1200\nb = 7 ** 700",
        "x = a * b",
    ),
    (
        "bigint floor division",
        "a = 3 ** 2500\nb = 7 ** 1100",
        "x = a // b",
    ),
    ("bigint power", "b = 3 ** 800", "x = b ** 3"),
    (
        "bigint pow mod",
        "a = 3 ** 2500\nb = 7 ** 1400\nm = 2 ** 4000 + 1",
        "x = pow(a, b, m)",
    ),
    (
        "bigint bitwise",
        "a = 3 ** 2500\nb = 7 ** 1400",
        "x = a & b ^ a | b",
    ),
    ("list slice 10000", "l = list(range(10000))", "x = l[1:]"),
    ("list(l) 10000", "l = list(range(10000))", "x = list(l)"),
    ("tuple(l) 10000", "l = list(range(10000))", "x = tuple(l)"),
    (
        "list == 10000",
        "a = list(range(10000))\nb = list(range(10000))",
        "x = a == b",
    ),
    ("x in list 10000", "l = list(range(10000))", "x = -1 in l"),
    (
        "sorted 10000",
        "l = list(range(10000, 0, -1))",
        "x = sorted(l)",
    ),
    ("sum 10000", "l = list(range(10000))", "x = sum(l)"),
    ("max 10000", "l = list(range(10000))", "x = max(l)"),
    (
        "list.pop(0) 10000",
        "l = list(range(10000))",
        "l.insert(0, l.pop(0))",
    ),
    (
        "dict(d) 10000",
        "d = {k: k for k in range(10000)}",
        "x = dict(d)",
    ),
    (
        "dict == 10000",
        "a = {k: k for k in range(10000)}\nb = {k: k for k in range(10000)}",
        "x = a == b",
    ),
    ("set(l) 10000", "l = list(range(10000))", "x = set(l)"),
    (
        "set union 10000",
        "a = set(range(10000))\nb = set(range(5000, 15000))",
        "x = a | b",
    ),
    (
        "set == 10000",
        "a = set(range(10000))\nb = set(range(10000))",
        "x = a == b",
    ),
    ("tuple hash 10000", "t = tuple(range(10000))", "x = hash(t)"),
    ("repr(list 10000)", "l = list(range(10000))", "x = repr(l)"),
    (
        "reversed(dict 1000)",
        "d = {k: k for k in range(1000)}",
        "x = list(reversed(d))",
    ),
    (
        "deque rotate 10000",
        "import collections\nq = collections.deque(range(10000))",
        "q.rotate(1)",
    ),
    (
        "x in deque 10000",
        "import collections\nq = collections.deque(range(10000))",
        "x = -1 in q",
    ),
    (
        "json.dumps",
        "import json\no = {'k': list(range(50)), 's': 'text' * 10}",
        "x = json.dumps(o)",
    ),
    (
        "json.loads",
        "import json\nt = json.dumps({'k': list(range(50)), 's': 'text' * 10})",
        "x = json.loads(t)",
    ),
    // Library code that matches the actor's text with the library's own (native) regexes.
    (
        "json.loads of a 100 KB string",
        "import json\nt = '\"' + 'x' * 100_000 + '\"'",
        "x = json.loads(t)",
    ),
    (
        "json.dumps of a 10,000-character string",
        "import json\nt = '\\u00e9' * 10_000",
        "x = json.dumps(t)",
    ),
    (
        "Decimal of 1,000 digits",
        "import decimal\nt = '1' * 1000",
        "x = decimal.Decimal(t)",
    ),
    (
        "Fraction of a padded 100 KB string",
        "import fractions\nt = '1/3' + ' ' * 100_000",
        "x = fractions.Fraction(t)",
    ),
    (
        "string.Template.substitute 100 KB",
        "import string\nt = string.Template('x' * 100_000 + '$a')",
        "x = t.substitute(a=1)",
    ),
    (
        "re.findall 1000",
        "import re\nt = 'ab' * 500",
        "x = re.findall('a', t)",
    ),
    (
        "re.sub 1000",
        "import re\nt = 'ab' * 500",
        "x = re.sub('a', 'x', t)",
    ),
    (
        "re.match",
        "import re\nt = 'hello world'",
        "x = re.match('h(.*)d', t)",
    ),
    // Work the automaton's size or shape makes per byte, and iteration whose every search
    // reads to the end of the text (issue 13's review).
    (
        "re.findall rereading to the end",
        "import re\nt = 'A' * 2000",
        "x = re.findall(r'.*[^A-Z]|[A-Z]', t)",
    ),
    (
        "re.findall on threads (Unicode \\b)",
        "import re\nt = 'A\u{e9}' * 1000",
        "x = re.findall(r'.*\\bX|\\w', t)",
    ),
    (
        "re.search many live threads",
        "import re\nt = ''.join(format(i * 2654435761 % 2 ** 32, '032b') for i in range(2000))",
        "x = re.search(r'1[01]{16}2', t)",
    ),
    (
        "re.search large automaton on threads",
        "import re\nt = '\u{e9}' * 300",
        "x = re.search(r'(?:x?){1000}\\bz', t)",
    ),
    (
        "re.findall with groups",
        "import re\nt = 'ab@cd ' * 50",
        "x = re.findall(r'(\\w+)@(\\w+)', t)",
    ),
    // Large automata over texts that keep many threads alive, and a new pattern each time
    // (attacks on the lazy DFAs the engine once used: issue 13's second review).
    (
        "re.search large automaton, varied text",
        "import re\ns = ''.join(format(i * 2654435761 % 2 ** 32, '032b') for i in range(128)) + 'z'",
        "x = re.search('(?:x?){1000}[01]{20}1[01]*z', s)",
    ),
    (
        "re.search many alternatives, cold",
        "import re\nabc = ''.join(chr(c) for c in range(33, 123))\np = '(?:x?){400}(?:' + '|'.join(c + c for c in abc if c != 'x' and c not in '\\\\()[]{}|.*+?^$') + ')|'\nt = ''.join(a + b for a in abc for b in abc)\ns = ''.join(c for i, c in enumerate(t) if i == 0 or t[i - 1] != c)",
        "x = re.search(p + chr(0x4e00 + i), s)",
    ),
    (
        "re.search groups of a long match",
        "import re\ns = ''.join(format(i * 2654435761 % 2 ** 32, '032b') for i in range(128))",
        "x = re.search('((?:x?){1000}[01])+|' + chr(0x4e00 + i), s)",
    ),
    (
        "re.search Unicode boundaries",
        "import re\nt = '\u{1d400}' * 2000",
        "x = re.search(r'\\B' * 200 + 'x', t)",
    ),
    // Case-insensitive sets translated on every new pattern, and again for the fullmatch
    // variant (issue 13's third review).
    (
        "re.compile case-insensitive sets, cold",
        "import re\np = '(?i)' + '[ab]' * 300",
        "x = re.compile(p + chr(0x4e00 + i))",
    ),
    (
        "re.compile case-insensitive ranges, cold",
        "import re\np = '(?i)' + '[a-z\u{e0}-\u{17f}]' * 300",
        "x = re.compile(p + chr(0x4e00 + i))",
    ),
    (
        "re.fullmatch case-insensitive sets, cold",
        "import re\np = '(?i)' + '[ab]' * 300",
        "x = re.fullmatch(p + chr(0x4e00 + i), 'b')",
    ),
    (
        "hashlib.sha256 10 KB",
        "import hashlib\nd = b'x' * 10000",
        "x = hashlib.sha256(d).digest()",
    ),
    (
        "keccak256 10 KB",
        "from cowboy_sdk import keccak256\nd = b'x' * 10000",
        "x = keccak256(d)",
    ),
    ("bytes.hex 10 KB", "d = b'x' * 10000", "x = d.hex()"),
    (
        "bytes.fromhex 10 KB",
        "h = 'ab' * 10000",
        "x = bytes.fromhex(h)",
    ),
    (
        "struct.pack 100",
        "import struct\nv = list(range(100))",
        "x = struct.pack('>100I', *v)",
    ),
    (
        "decimal multiply",
        "import decimal\na = decimal.Decimal('1.2345')\nb = decimal.Decimal('6.789')",
        "x = a * b",
    ),
    ("math.sqrt", "import math", "x = math.sqrt(i + 1.0)"),
    ("math.sin", "import math", "x = math.sin(i * 1.7)"),
    ("math.exp", "import math", "x = math.exp(i * 1e-3)"),
    ("math.pow", "import math", "x = math.pow(i * 0.37, 2.5)"),
    (
        "math.lgamma",
        "import math",
        "x = math.lgamma(i * 0.01 + 0.5)",
    ),
    (
        "math.log of a 4095-bit int",
        "import math\nbig = (1 << 4095) - 12345",
        "x = math.log(big)",
    ),
    (
        "math.factorial(300)",
        "import math",
        "x = math.factorial(300)",
    ),
    ("storage write", "", "self.storage[i % 10] = i"),
    ("storage read", "self.storage[1] = 1", "x = self.storage[1]"),
];

fn ctx() -> CallContext {
    CallContext::local([0xaa; 20], [0x11; 20], 0, 1)
}

fn indent(code: &str, by: usize) -> String {
    code.lines()
        .map(|l| format!("{}{l}\n", " ".repeat(by)))
        .collect()
}

fn actor(setup: &str, body: &str) -> String {
    format!(
        "class Actor:\n    def run(self, n):\n{}        i = 0\n        while i < n:\n{}            i += 1\n        return i\n",
        indent(setup, 8),
        indent(body, 12)
    )
}

/// One measured workload.
struct Price {
    name: &'static str,
    ns_per_cycle: f64,
    cycles_per_iteration: f64,
}

fn run(
    engine: &mut Engine,
    code: &cowboy_pvm::ActorCode,
    n: u64,
) -> Result<(Duration, u64), String> {
    let mut host = MemoryHost::default();
    let limits = Limits {
        cycles: 1_000_000_000,
        cells: 1_000_000_000,
    };
    let d = engine.deploy(code, &mut host, ctx(), &[], limits);
    host.apply(&[0xaa; 20], &d.effects);
    let args = Value::List(vec![Value::Int(n.into())])
        .encode()
        .expect("arguments");
    let started = Instant::now();
    let out = engine.call(code, &mut host, ctx(), "run", &args, limits);
    let elapsed = started.elapsed();
    if let Err(e) = &out.result {
        return Err(format!("{e} (after {n} iterations)"));
    }
    Ok((elapsed, out.cycles_used))
}

fn measure(
    engine: &mut Engine,
    name: &'static str,
    setup: &str,
    body: &str,
) -> Result<Price, String> {
    let code = engine
        .load(&actor(setup, body))
        .map_err(|d| format!("{d:?}"))?;
    // Size the loop: cycles and time of 1 and 21 iterations give the per-iteration price.
    let (t1, one) = run(engine, &code, 1)?;
    let (t21, many) = run(engine, &code, 21)?;
    let per_iteration = ((many - one) as f64 / 20.0).max(1.0);
    let time_per_iteration = (t21.saturating_sub(t1).as_nanos() as f64 / 20.0).max(1.0);
    let by_cycles = TARGET_CYCLES as f64 / per_iteration;
    let by_time = TARGET_TIME.as_nanos() as f64 / time_per_iteration;
    let n = (by_cycles.min(by_time) as u64).max(1);
    let mut samples = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let (elapsed, cycles) = run(engine, &code, n)?;
        samples.push(elapsed.as_nanos() as f64 / cycles as f64);
    }
    samples.sort_by(f64::total_cmp);
    Ok(Price {
        name,
        ns_per_cycle: samples[RUNS / 2],
        cycles_per_iteration: per_iteration,
    })
}

fn main() {
    let filter = std::env::var("COWBOY_PRICE_FILTER").unwrap_or_default();
    let block_time_ms: f64 = std::env::var("COWBOY_BLOCK_TIME_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000.0);
    // The engine runs on a thread with the PVM's stack, as on a node.
    let prices = std::thread::Builder::new()
        .stack_size(cowboy_pvm::thread::STACK_BYTES)
        .spawn(move || {
            let mut engine = Engine::new().expect("engine");
            let mut prices = Vec::new();
            for (name, setup, body) in WORKLOADS {
                if !(filter.split(',').any(|f| name.contains(f)) || name.starts_with("loop")) {
                    continue;
                }
                match measure(&mut engine, name, setup, body) {
                    Ok(p) => prices.push(p),
                    Err(e) => println!("{name}: FAILED: {e}"),
                }
            }
            prices
        })
        .expect("thread")
        .join()
        .expect("benchmark thread");
    let baseline = prices
        .iter()
        .find(|p| p.name.starts_with("loop"))
        .map_or(1.0, |p| p.ns_per_cycle);
    let mut sorted: Vec<&Price> = prices.iter().collect();
    sorted.sort_by(|a, b| b.ns_per_cycle.total_cmp(&a.ns_per_cycle));
    println!(
        "{:<32} {:>10} {:>9} {:>14}",
        "workload", "ns/cycle", "× loop", "cycles/iter"
    );
    for p in &sorted {
        let ratio = p.ns_per_cycle / baseline;
        println!(
            "{:<32} {:>10.1} {:>9.2} {:>14.0}{}",
            p.name,
            p.ns_per_cycle,
            ratio,
            p.cycles_per_iteration,
            if ratio > 1.0 { "  UNDERPRICED" } else { "" }
        );
    }
    let worst = sorted.first().map_or(baseline, |p| p.ns_per_cycle);
    let budget_ns = block_time_ms * 1e6 / 2.0;
    let factor = (budget_ns / (SPEC_BLOCK_CYCLES as f64 * worst)).min(1.0);
    println!(
        "\nexecution-budget factor for {block_time_ms:.0} ms blocks: {factor:.4} \
         ({:.0} ppm; block cap {:.0} cycles = {:.0} ms of the slowest workload, {:.0} ms of loops)",
        factor * 1e6,
        SPEC_BLOCK_CYCLES as f64 * factor,
        SPEC_BLOCK_CYCLES as f64 * factor * worst / 1e6,
        SPEC_BLOCK_CYCLES as f64 * factor * baseline / 1e6,
    );
}
