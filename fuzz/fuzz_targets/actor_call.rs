//! Fuzzes actor execution through the PVM's panic boundary: the input is turned into an actor
//! (statements drawn from a grammar of ordinary and hostile Python, with literals taken from the
//! input; or, one time in eight, the input itself as the handler's source), which is validated,
//! deployed and called with small limits. Whatever it does, the call must end — with a result or
//! a deterministic failure — and the PVM thread must survive it. An input that reaches the
//! boundary (`VmPanic`) is reported as a crash: the boundary held, but it found a RustPython
//! panic whose cause should be fixed (issue 12).

#![no_main]

use cowboy_pvm::{CallContext, ErrorKind, Limits, MemoryHost, PvmThread};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Statement templates: `{i}`/`{j}` become small integers, `{s}` a short string literal,
/// `{body}` a nested block.
const STATEMENTS: &[&str] = &[
    "x = {i}",
    "x = x + {i}",
    "x = x * {j} % 1000003",
    "s = {s} * ({i} % 7)",
    "s = format({s}, '.{i}')",
    "s = format({s}, '>{i}.{j}')",
    "s = '{:^{i}}'.format({s})",
    "s = {s}[{i}:{j}]",
    "s = s.replace({s}, {s})",
    "s = '%{i}.{j}s' % {s}",
    "s = str(round({i} / ({j} + 1), {j}))",
    "l = list(range({i}))",
    "l = sorted(l, key=lambda v: -v)",
    "l = l[::{j} or 1]",
    "d = {{k: k * {i} for k in range({j})}}",
    "del d[next(iter(d))] if d else None",
    "l = list(reversed(d))",
    "l = list(reversed(d.items()))",
    "t = tuple(l) + ({i},)",
    "h = hash(t)",
    "b = bytes(range({i} % 256)) * {j}",
    "b = b.hex()",
    "n = int({s}.encode().hex() or '0', 16)",
    "n = pow({i}, {j}, {i} + 2)",
    "n = ({i} ** {j}) >> {i}",
    "f = float({i}) / ({j} + 0.5)",
    "f = f ** 0.5",
    "import json\ns = json.dumps({{'k': [{i}, {s}]}}, sort_keys=True)",
    "import re\nm = re.findall({s}, {s} * {i})",
    "import re\ns = re.sub('a*', '-', {s})",
    "import hashlib\nb = hashlib.sha256({s}.encode()).digest()",
    "import itertools\nl = list(itertools.islice(itertools.count({i}), {j}))",
    "from collections import deque\nq = deque(l, maxlen={j} + 1)\nq.rotate({i})",
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int = {i}\ns = repr(P())",
    "import typing\nclass T:\n    a: 'int'\nh = typing.get_type_hints(T)",
    "s = ''.join(chr(0x41 + (k % 60)) + 'é' for k in range({i}))",
    "s = s.encode('utf-8')[{i}:].decode('utf-8', 'replace')",
    "self.storage[{s}] = {i}",
    "v = self.storage.get({s})",
    "raise ValueError({s})",
    "assert {i} != {j}, {s}",
    "while x < {i}:\n    x += 1",
    "for k in range({i}):\n{body}",
    "if x % {j} == 0:\n{body}\nelse:\n{body}",
    "try:\n{body}\nexcept Exception as e:\n    s = str(e)",
    "def g(a, *r, k={i}, **kw):\n    return a + k\nx = g({j})",
    "class C:\n    def __init__(self):\n        self.v = {i}\n    def __eq__(self, o):\n        return self.v == o\nx = C() == {j}",
    "x = [y for y in range({i}) if y % ({j} + 1)]",
    "x = id(object()) - id(object())",
    "s = repr(object())",
];

/// Turns fuzz bytes into choices.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
        self.0 = rest;
        first
    }
    fn literal(&mut self) -> String {
        const WORDS: &[&str] = &["'a'", "'éa'", "''", "'\\u00e9\\u00e9'", "'ab*'", "'(a|b)+'", "'𝔘x'", "'\\n'"];
        WORDS[self.byte() as usize % WORDS.len()].to_string()
    }
}

fn statements(input: &mut Bytes, depth: usize, indent: usize, out: &mut String) {
    let count = 1 + input.byte() as usize % 4;
    for _ in 0..count {
        let template = STATEMENTS[input.byte() as usize % STATEMENTS.len()];
        let mut text = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            text.push_str(&rest[..open]);
            let after = &rest[open..];
            let (replacement, skip) = if after.starts_with("{{") {
                ("{".to_string(), 2)
            } else if after.starts_with("{i}") {
                ((input.byte() % 40).to_string(), 3)
            } else if after.starts_with("{j}") {
                ((input.byte() % 9).to_string(), 3)
            } else if after.starts_with("{s}") {
                (input.literal(), 3)
            } else if after.starts_with("{body}") {
                let mut nested = String::new();
                if depth < 3 {
                    statements(input, depth + 1, 0, &mut nested);
                } else {
                    nested.push_str("pass\n");
                }
                let indented: String = nested.lines().map(|l| format!("    {l}\n")).collect();
                (indented.trim_end_matches('\n').to_string(), 6)
            } else if after.starts_with("{:") {
                // A format spec inside a string literal: keep it.
                ("{:".to_string(), 2)
            } else {
                ("{".to_string(), 1)
            };
            text.push_str(&replacement);
            rest = &after[skip..];
        }
        text.push_str(&rest.replace("}}", "}"));
        for line in text.lines() {
            out.push_str(&" ".repeat(indent));
            out.push_str(line);
            out.push('\n');
        }
    }
}

fn actor(data: &[u8]) -> String {
    let mut input = Bytes(data);
    let mut body = String::new();
    if input.byte() % 8 == 0 {
        // The raw input as the handler body: exercises the parser and the validator.
        for line in String::from_utf8_lossy(input.0).lines() {
            body.push_str("        ");
            body.push_str(line);
            body.push('\n');
        }
    } else {
        body.push_str("        x = 0\n        s = ''\n        l = []\n        d = {}\n");
        statements(&mut input, 0, 8, &mut body);
    }
    format!("class Actor:\n    def __init__(self):\n        pass\n\n    def go(self):\n{body}        return 1\n")
}

fn pvm() -> &'static PvmThread {
    static PVM: OnceLock<PvmThread> = OnceLock::new();
    PVM.get_or_init(|| PvmThread::spawn().expect("the PVM starts"))
}

fuzz_target!(|data: &[u8]| {
    let source = actor(data);
    let outcome = pvm()
        .run(move |engine| {
            let Ok(code) = engine.load(&source) else {
                return None; // refused by a named rule: fine
            };
            let ctx = CallContext::local([0xaa; 20], [0x11; 20], 0, 1);
            let limits = Limits {
                cycles: 300_000,
                cells: 100_000,
            };
            let mut host = MemoryHost::default();
            let deployed = engine.deploy(&code, &mut host, ctx.clone(), &[], limits);
            host.apply(&ctx.actor, &deployed.effects);
            let out = engine.call(&code, &mut host, ctx, "go", &[], limits);
            Some((out.result.err().map(|e| (e.kind, e.traceback)), source))
        })
        .expect("the PVM thread survives every call");
    if std::env::var_os("COWBOY_FUZZ_SHOW").is_some() {
        // For checking the generator: what ran, and how it ended.
        match &outcome {
            None => eprintln!("REFUSED"),
            Some((end, source)) => eprintln!("{source}\n=> {:?}", end.as_ref().map(|e| e.0)),
        }
    }
    if let Some((Some((ErrorKind::VmPanic, traceback)), source)) = outcome {
        panic!("the boundary held, but this actor reaches a VM panic:\n{source}\n{traceback:?}");
    }
});
