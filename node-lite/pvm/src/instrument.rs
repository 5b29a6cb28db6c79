//! Compile-time cycle metering: rewrites a parsed module so that every straight-line block of
//! code charges, before it runs, the sum of the cost-table prices of the operations in it.
//!
//! RustPython has no per-instruction hook, so metering is inserted into the AST (the technique
//! WebAssembly chains use on bytecode). The rewrite inserts calls to three builtins that only the
//! instrumenter can name (user code may not mention dunder names):
//!
//! - `__m__(n)`: charge `n` cycles; raises the uncatchable out-of-cycles error when the budget is
//!   spent. Inserted at the start of every block, and as `(__m__(n) and test)` inside loop,
//!   `elif` and guard conditions and lambda bodies, which execute repeatedly without a block of
//!   their own.
//! - `__mi__(iterable, n)`: wraps the iterable of a comprehension or generator expression and
//!   charges `n` cycles per element (the element expression, conditions and append).
//! - `__mc__(s)`: charges one cycle per character of an f-string's result.
//!
//! A block is a maximal run of statements with no control flow between them, plus the header of
//! the compound statement that ends it (an `if` test, a `for` iterable, `with` items). The charge
//! is an upper bound: statements skipped by an exception or `return` were still paid for. Work
//! whose size depends on runtime values (long strings, big integers, builtins that iterate) is
//! charged dynamically by the runtime, not here.

use crate::cost::cycles;
use ruff_text_size::TextRange;
use rustpython_vm::compiler::ast::{
    self, AtomicNodeIndex, BoolOp, ElifElseClause, ExceptHandler, Expr, ExprContext, Stmt,
    name::Name,
    visitor::transformer::{self, Transformer},
};
use std::cell::Cell;

/// Name of the block-charge builtin.
pub const CHARGE: &str = "__m__";
/// Name of the metered-iterator builtin.
pub const METERED_ITER: &str = "__mi__";
/// Name of the per-character charge builtin.
pub const CHARGE_CHARS: &str = "__mc__";

/// Names of the checked-arithmetic builtins the rewrite calls for `+ - * ** << %` and their
/// augmented forms: they bound integers to 4,096 bits, check sequence sizes before
/// allocating, charge per character and element, and use libm for float powers.
pub mod ops {
    pub const ADD: &str = "__ad__";
    pub const SUB: &str = "__sb__";
    pub const MUL: &str = "__mu__";
    pub const POW: &str = "__pw__";
    pub const LSHIFT: &str = "__ls__";
    pub const MOD: &str = "__md__";
    pub const IADD: &str = "__iad__";
    pub const ISUB: &str = "__isb__";
    pub const IMUL: &str = "__imu__";
    pub const IPOW: &str = "__ipw__";
    pub const ILSHIFT: &str = "__ils__";
    pub const IMOD: &str = "__imd__";
    /// Every name above.
    pub const ALL: &[&str] = &[
        ADD, SUB, MUL, POW, LSHIFT, MOD, IADD, ISUB, IMUL, IPOW, ILSHIFT, IMOD,
    ];

    /// The builtin for a binary operator, if it is checked.
    pub fn binary(op: super::ast::Operator) -> Option<&'static str> {
        use super::ast::Operator as O;
        Some(match op {
            O::Add => ADD,
            O::Sub => SUB,
            O::Mult => MUL,
            O::Pow => POW,
            O::LShift => LSHIFT,
            O::Mod => MOD,
            _ => return None,
        })
    }

    /// The builtin for an augmented assignment operator, if it is checked.
    pub fn inplace(op: super::ast::Operator) -> Option<&'static str> {
        use super::ast::Operator as O;
        Some(match op {
            O::Add => IADD,
            O::Sub => ISUB,
            O::Mult => IMUL,
            O::Pow => IPOW,
            O::LShift => ILSHIFT,
            O::Mod => IMOD,
            _ => return None,
        })
    }

    /// A checked operator whose right operand is another checked (binary) operator, as one
    /// call: `outer(a, inner(b, c))` is `name(a, b, c)`, which applies `inner` to `b` and `c`,
    /// then `outer` to `a` and that result (see [`super::fuse`]).
    #[derive(Clone, Copy, Debug)]
    pub struct Fused {
        pub name: &'static str,
        pub outer: &'static str,
        pub inner: &'static str,
    }

    /// Every outer operator (binary or in-place) by every inner binary operator, named
    /// `__<outer>_<inner>__` from the two names' cores.
    macro_rules! fused_table {
        ([$($outer:literal),*], $inner:tt) => { [$( fused_table!(@row $outer, $inner) ),*] };
        (@row $outer:literal, [$($inner:literal),*]) => {
            [$(Fused {
                name: concat!("__", $outer, "_", $inner, "__"),
                outer: concat!("__", $outer, "__"),
                inner: concat!("__", $inner, "__"),
            }),*]
        };
    }

    /// The fused builtins, by outer operator (rows) and inner operator (columns).
    pub const FUSED: [[Fused; 6]; 12] = fused_table!(
        [
            "ad", "sb", "mu", "pw", "ls", "md", "iad", "isb", "imu", "ipw", "ils", "imd"
        ],
        ["ad", "sb", "mu", "pw", "ls", "md"]
    );

    /// Every fused builtin.
    pub fn fused() -> impl Iterator<Item = &'static Fused> {
        FUSED.iter().flatten()
    }

    /// The fused builtin applying `inner` then `outer`, if both are checked operators (`inner`
    /// a binary one).
    pub fn fuse(outer: &str, inner: &str) -> Option<&'static Fused> {
        fused().find(|f| f.outer == outer && f.inner == inner)
    }
}

/// Actor imports are rewritten into calls of these builtins, so that only an actor's own
/// import statements get the whitelist and module facades (native code importing on its behalf
/// gets real modules).
pub mod imports {
    /// `__ai__(name, leaf)`: `import name` (`leaf`: bind the last component, for `as`).
    pub const IMPORT: &str = "__ai__";
    /// `__aif__(name, names)`: `from name import names…`, returning a tuple.
    pub const IMPORT_FROM: &str = "__aif__";
    /// `__ais__(name)`: `from name import *` into the module namespace.
    pub const IMPORT_STAR: &str = "__ais__";
}

/// `__augi__(container, key, op, value)` / `__auga__(obj, name, op, value)`: augmented
/// assignment to a subscript or attribute whose target cannot be evaluated twice
/// (`a[f()] **= n`): loads, applies the checked in-place operator `op` (one of
/// [`ops::ALL`]'s in-place names) and stores, evaluating the target once.
pub const AUGMENTED_ITEM: &str = "__augi__";
pub const AUGMENTED_ATTRIBUTE: &str = "__auga__";

/// Name of the builtin actor code reads private (`_name`) attributes through: it applies the
/// library-private-name rule (`library_objects::check_private_read`).
pub const PRIVATE_ATTRIBUTE: &str = "__pa__";

/// Name of the builtin called first thing in every `except … as name:` handler: it rewords
/// the bound exception when RustPython's bytecode raised it with other words than CPython's
/// (`fidelity::reword_interpreter_error`).
pub const REWORD: &str = "__rw__";

/// Name of the builtin a synthetic `case` calls before each `case Cls(p, …)` with positional
/// sub-patterns (`fidelity::match_class_positional`): it raises CPython's TypeError, which
/// names the class (`Point() accepts 2 positional sub-patterns (3 given)`), where RustPython's
/// does not; otherwise it returns False and the real case runs.
pub const MATCH_POSITIONAL: &str = "__mp__";
/// The capture name the synthetic `case` binds the subject to.
const MATCH_SUBJECT: &str = "__ms__";

/// Whether `name` is one the rewrite calls (user code may not bind it).
pub fn is_reserved(name: &str) -> bool {
    name == CHARGE
        || name == REWORD
        || name == MATCH_POSITIONAL
        || name == MATCH_SUBJECT
        || name == METERED_ITER
        || name == CHARGE_CHARS
        || name == PRIVATE_ATTRIBUTE
        || name == AUGMENTED_ITEM
        || name == AUGMENTED_ATTRIBUTE
        || ops::ALL.contains(&name)
        || ops::fused().any(|f| f.name == name)
        || [imports::IMPORT, imports::IMPORT_FROM, imports::IMPORT_STAR].contains(&name)
}

/// Instruments a module body in place. `actor` also rewrites import statements into the actor
/// import builtins.
pub fn instrument_module(body: &mut Vec<Stmt>, actor: bool) {
    if actor {
        rewrite_imports(body);
    }
    let pass = Instrumenter {
        actor,
        ..Default::default()
    };
    pass.body(body, 0);
}

/// Instruments an expression compiled on its own (`eval`): its operations are charged when it
/// is evaluated, comprehensions and lambdas inside it as usual.
pub fn instrument_expression(expr: &mut Expr, actor: bool) {
    let pass = Instrumenter {
        actor,
        ..Default::default()
    };
    pass.visit_expr(expr);
    let body = take_expr(expr);
    *expr = charged_expr(expr_cost(&body), body);
}

/// Fuses checked operators after the rewrite: a checked operator whose right operand is
/// another, `outer(a, inner(b, c))`, becomes one call of their fused builtin,
/// `outer_inner(a, b, c)` ([`ops::FUSED`]). `total += i * 2` makes one call per iteration
/// instead of two; a call of one of these builtins is most of a metered loop's overhead
/// (`cargo bench -p cowboy-pvm --bench instructions`, `loop_metered`).
///
/// Fused builtins are only ever bound (`bound_helpers`, which applies this as it binds): no
/// builtins dict holds them, because code can see a dict's size (`annotationlib` copies an
/// annotation function's builtins, one cycle per entry).
///
/// Why it runs the same program:
/// - the order of evaluation is unchanged: `a`, `b` and `c` are evaluated first in both forms
///   (the right operand is evaluated after `a`, and its operands before it applies), then
///   `inner`, then `outer`; the fused builtin calls the same two Rust functions, so results,
///   errors and charges are theirs, and it releases the operands when the two calls did
///   (`fast_builtin`);
/// - charges were computed on the source's tree before this step, so no count changes;
/// - a traceback names the line of the call that raised: the two are fused only when they
///   start on the same line, where either call's error names the same line.
pub(crate) struct Fuse {
    /// Offsets of the source's line breaks, in order.
    line_breaks: Vec<u32>,
}

impl Fuse {
    /// For a tree parsed from `source`.
    pub(crate) fn new(source: &str) -> Self {
        // `\n`, `\r\n` and a lone `\r` each end a line, as for the compiler's line numbers.
        let bytes = source.as_bytes();
        let line_breaks = bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
            .filter_map(|(i, _)| u32::try_from(i).ok())
            .collect();
        Self { line_breaks }
    }

    fn line(&self, offset: ruff_text_size::TextSize) -> usize {
        let offset = u32::from(offset);
        self.line_breaks.partition_point(|&b| b < offset)
    }

    /// The fused call for `expr`, if it is `outer(a, inner(b, c))` with both on one line.
    pub(crate) fn fused(&self, expr: &mut Expr) -> Option<Expr> {
        let Expr::Call(outer) = expr else { return None };
        let [_, Expr::Call(inner)] = &*outer.arguments.args else {
            return None;
        };
        let (Expr::Name(outer_name), Expr::Name(inner_name)) = (&*outer.func, &*inner.func) else {
            return None;
        };
        if !outer.arguments.keywords.is_empty()
            || !inner.arguments.keywords.is_empty()
            || inner.arguments.args.len() != 2
            || self.line(outer.range.start()) != self.line(inner.range.start())
        {
            return None;
        }
        let fused = ops::fuse(outer_name.id.as_str(), inner_name.id.as_str())?;
        let mut args = std::mem::take(&mut outer.arguments.args).into_vec();
        let Some(Expr::Call(inner)) = args.pop() else {
            return None;
        };
        args.extend(inner.arguments.args.into_vec());
        Some(call(fused.name, args, outer.range))
    }
}

/// A single-underscore name (`_x`, not `__x__`): the ones [`PRIVATE_ATTRIBUTE`] checks.
fn is_private_name(name: &str) -> bool {
    name.starts_with('_')
        && !(name.len() > 4 && name.starts_with("__") && name.ends_with("__"))
        && !crate::library_objects::PUBLIC_UNDERSCORE_NAMES.contains(&name)
}

pub(crate) fn str_lit(s: &str, range: TextRange) -> Expr {
    Expr::StringLiteral(ast::ExprStringLiteral {
        node_index: AtomicNodeIndex::NONE,
        range,
        value: ast::StringLiteralValue::single(ast::StringLiteral {
            range,
            node_index: AtomicNodeIndex::NONE,
            value: s.into(),
            flags: ast::StringLiteralFlags::empty(),
        }),
    })
}

fn store(name: &str, range: TextRange) -> Expr {
    Expr::Name(ast::ExprName {
        node_index: AtomicNodeIndex::NONE,
        range,
        id: Name::new(name),
        ctx: ExprContext::Store,
    })
}

fn assign(targets: Expr, value: Expr, range: TextRange) -> Stmt {
    Stmt::Assign(ast::StmtAssign {
        node_index: AtomicNodeIndex::NONE,
        range,
        targets: vec![targets],
        value: Box::new(value),
    })
}

/// Rewrites every import statement (at any depth) into actor-import builtin calls.
fn rewrite_imports(body: &mut Vec<Stmt>) {
    let old = std::mem::take(body);
    for mut stmt in old {
        match &mut stmt {
            Stmt::Import(i) => {
                for alias in &i.names {
                    let range = alias.range();
                    let full = alias.name.id.as_str();
                    let (bound, leaf) = match &alias.asname {
                        Some(a) => (a.id.to_string(), true),
                        None => (full.split('.').next().unwrap_or(full).to_string(), false),
                    };
                    let value = call(
                        imports::IMPORT,
                        vec![
                            str_lit(full, range),
                            Expr::BooleanLiteral(ast::ExprBooleanLiteral {
                                node_index: AtomicNodeIndex::NONE,
                                range,
                                value: leaf,
                            }),
                        ],
                        range,
                    );
                    body.push(assign(store(&bound, range), value, range));
                }
                continue;
            }
            Stmt::ImportFrom(i) => {
                let range = i.range;
                let module = i
                    .module
                    .as_ref()
                    .map(|m| m.id.to_string())
                    .unwrap_or_default();
                if module == "__future__" || i.level > 0 {
                    // `__future__` is a compile-time directive; relative imports are rejected
                    // by validation.
                } else if i.names.iter().any(|a| a.name.id.as_str() == "*") {
                    let value = call(imports::IMPORT_STAR, vec![str_lit(&module, range)], range);
                    body.push(Stmt::Expr(ast::StmtExpr {
                        node_index: AtomicNodeIndex::NONE,
                        range,
                        value: Box::new(value),
                    }));
                    continue;
                } else {
                    let names: Vec<Expr> = i
                        .names
                        .iter()
                        .map(|a| str_lit(a.name.id.as_str(), range))
                        .collect();
                    let targets: Vec<Expr> = i
                        .names
                        .iter()
                        .map(|a| store(a.asname.as_ref().unwrap_or(&a.name).id.as_str(), range))
                        .collect();
                    let tuple = |elts: Vec<Expr>, ctx: ExprContext| {
                        Expr::Tuple(ast::ExprTuple {
                            node_index: AtomicNodeIndex::NONE,
                            range,
                            elts,
                            ctx,
                            parenthesized: true,
                        })
                    };
                    let value = call(
                        imports::IMPORT_FROM,
                        vec![str_lit(&module, range), tuple(names, ExprContext::Load)],
                        range,
                    );
                    body.push(assign(tuple(targets, ExprContext::Store), value, range));
                    continue;
                }
            }
            Stmt::FunctionDef(f) => rewrite_imports(&mut f.body),
            Stmt::ClassDef(c) => rewrite_imports(&mut c.body),
            Stmt::If(x) => {
                rewrite_imports(&mut x.body);
                for c in &mut x.elif_else_clauses {
                    rewrite_imports(&mut c.body);
                }
            }
            Stmt::For(x) => {
                rewrite_imports(&mut x.body);
                rewrite_imports(&mut x.orelse);
            }
            Stmt::While(x) => {
                rewrite_imports(&mut x.body);
                rewrite_imports(&mut x.orelse);
            }
            Stmt::With(x) => rewrite_imports(&mut x.body),
            Stmt::Try(x) => {
                rewrite_imports(&mut x.body);
                for h in &mut x.handlers {
                    let ExceptHandler::ExceptHandler(h) = h;
                    rewrite_imports(&mut h.body);
                }
                rewrite_imports(&mut x.orelse);
                rewrite_imports(&mut x.finalbody);
            }
            Stmt::Match(m) => {
                for c in &mut m.cases {
                    rewrite_imports(&mut c.body);
                }
            }
            _ => {}
        }
        body.push(stmt);
    }
}

#[derive(Default)]
struct Instrumenter {
    // Transformer methods take `&self`; nothing needs mutable state, but keep a counter of
    // inserted charges for tests and debugging.
    inserted: Cell<usize>,
    /// Actor code: reads of private attributes go through [`PRIVATE_ATTRIBUTE`].
    actor: bool,
    /// The classes whose bodies enclose the code being rewritten, innermost last: a
    /// `self.__x` that the rewrite turns into a string (`__pa__(self, "__x")`) is mangled as
    /// the compiler would have mangled the attribute (`_Class__x`).
    classes: std::cell::RefCell<Vec<String>>,
}

impl Instrumenter {
    /// `name` as the compiler mangles it inside the innermost enclosing class (the language
    /// reference's "private name mangling"): `__x` (not `__x__`) in class `_C` becomes
    /// `_C__x`; a class named only with underscores mangles nothing.
    fn mangled(&self, name: &str) -> String {
        let classes = self.classes.borrow();
        let Some(class) = classes.last() else {
            return name.to_owned();
        };
        let stripped = class.trim_start_matches('_');
        if !name.starts_with("__") || name.ends_with("__") || stripped.is_empty() {
            return name.to_owned();
        }
        format!("_{stripped}{name}")
    }
}

fn name(id: &'static str, range: TextRange) -> Expr {
    Expr::Name(ast::ExprName {
        node_index: AtomicNodeIndex::NONE,
        range,
        id: Name::new_static(id),
        ctx: ExprContext::Load,
    })
}

fn int(n: u64, range: TextRange) -> Expr {
    Expr::NumberLiteral(ast::ExprNumberLiteral {
        node_index: AtomicNodeIndex::NONE,
        range,
        value: ast::Number::Int(ast::Int::from(n)),
    })
}

fn call(func: &'static str, args: Vec<Expr>, range: TextRange) -> Expr {
    Expr::Call(ast::ExprCall {
        node_index: AtomicNodeIndex::NONE,
        range,
        func: Box::new(name(func, range)),
        arguments: ast::Arguments {
            range,
            node_index: AtomicNodeIndex::NONE,
            args: args.into_boxed_slice(),
            keywords: Box::new([]),
        },
    })
}

fn charge_stmt(n: u64, range: TextRange) -> Stmt {
    Stmt::Expr(ast::StmtExpr {
        node_index: AtomicNodeIndex::NONE,
        range,
        value: Box::new(call(CHARGE, vec![int(n, range)], range)),
    })
}

/// `(__m__(n) and expr)`: charges `n` before evaluating `expr`, evaluating to `expr`'s value.
fn charged_expr(n: u64, expr: Expr) -> Expr {
    let range = expr.range();
    Expr::BoolOp(ast::ExprBoolOp {
        node_index: AtomicNodeIndex::NONE,
        range,
        op: BoolOp::And,
        values: vec![call(CHARGE, vec![int(n, range)], range), expr],
    })
}

/// Removes the charge the instrumenter put at the start of an instrumented body and returns its
/// amount (so a loop can charge it together with the iteration).
fn take_first_charge(body: &mut Vec<Stmt>) -> u64 {
    let position = body.iter().position(|s| {
        matches!(s, Stmt::Expr(e) if matches!(&*e.value, Expr::Call(c)
            if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == CHARGE)))
    });
    let Some(i) = position else { return 0 };
    let Stmt::Expr(e) = body.remove(i) else {
        return 0;
    };
    let Expr::Call(c) = *e.value else { return 0 };
    match c.arguments.args.first() {
        Some(Expr::NumberLiteral(n)) => match &n.value {
            ast::Number::Int(v) => v.as_u64().unwrap_or(0),
            _ => 0,
        },
        _ => 0,
    }
}

fn take_expr(e: &mut Expr) -> Expr {
    std::mem::replace(
        e,
        Expr::NoneLiteral(ast::ExprNoneLiteral {
            node_index: AtomicNodeIndex::NONE,
            range: e.range(),
        }),
    )
}

use ruff_text_size::Ranged as _;

impl Instrumenter {
    /// Instruments a statement list; `entry` extra cycles are added to the first block's charge.
    fn body(&self, body: &mut Vec<Stmt>, entry: u64) {
        let old = std::mem::take(body);
        let mut out: Vec<Stmt> = Vec::with_capacity(old.len() + 2);
        let mut block: Vec<Stmt> = Vec::new();
        let mut block_cost = entry;
        let mut first = true;
        for mut stmt in old {
            block_cost += stmt_cost(&stmt);
            self.stmt(&mut stmt);
            let ends_block = is_compound(&stmt);
            block.push(stmt);
            if ends_block {
                self.flush(&mut out, &mut block, block_cost);
                block_cost = 0;
                first = false;
            }
        }
        if !block.is_empty() || first {
            // An empty body only happens for synthetic input; charge the entry cost anyway.
            self.flush(&mut out, &mut block, block_cost.max(cycles::DEFAULT));
        }
        *body = out;
    }

    fn flush(&self, out: &mut Vec<Stmt>, block: &mut Vec<Stmt>, cost: u64) {
        let range = block.first().map(|s| s.range()).unwrap_or_default();
        // Docstrings and `from __future__` imports must stay first in a body, so the charge
        // goes after them (a string literal costs one cycle; moving it is harmless).
        let lead = block
            .iter()
            .take_while(|s| match s {
                Stmt::ImportFrom(i) => i
                    .module
                    .as_ref()
                    .is_some_and(|m| m.id.as_str() == "__future__"),
                Stmt::Expr(e) => matches!(*e.value, Expr::StringLiteral(_)),
                _ => false,
            })
            .count();
        let mut rest = block.split_off(lead);
        out.append(block);
        out.push(charge_stmt(cost.max(cycles::DEFAULT), range));
        self.inserted.set(self.inserted.get() + 1);
        out.append(&mut rest);
    }

    /// Recurses into a statement: nested bodies get their own blocks; expressions that execute
    /// repeatedly (loop tests, `elif` tests, guards) get inline charges.
    fn stmt(&self, stmt: &mut Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => {
                self.params(&mut f.parameters);
                // Annotations run later, in the function's `__annotate__`, when something
                // asks for them (`typing.get_type_hints`, dataclasses): rewritten like any
                // expression so their arithmetic is checked.
                self.annotations(&mut f.parameters);
                if let Some(r) = &mut f.returns {
                    self.visit_expr(r);
                }
                if let Some(tp) = &mut f.type_params {
                    self.visit_type_params(tp);
                }
                for d in &mut f.decorator_list {
                    self.visit_expr(&mut d.expression);
                }
                self.body(&mut f.body, 0);
            }
            Stmt::ClassDef(c) => {
                if let Some(tp) = &mut c.type_params {
                    self.visit_type_params(tp);
                }
                for d in &mut c.decorator_list {
                    self.visit_expr(&mut d.expression);
                }
                if let Some(args) = &mut c.arguments {
                    self.visit_arguments(args);
                }
                self.classes.borrow_mut().push(c.name.id.to_string());
                self.body(&mut c.body, 0);
                self.classes.borrow_mut().pop();
            }
            Stmt::For(f) => {
                self.visit_expr(&mut f.iter);
                self.visit_expr(&mut f.target);
                // Each iteration binds the target, advances the iterator and runs the body's
                // first block: charged together by the metered iterator, before the element
                // is yielded, so the loop costs one native call per iteration, not two.
                self.body(&mut f.body, expr_cost(&f.target) + cycles::DEFAULT);
                let per_iteration = take_first_charge(&mut f.body);
                let range = f.iter.range();
                let iter = take_expr(&mut f.iter);
                *f.iter = call(METERED_ITER, vec![iter, int(per_iteration, range)], range);
                if !f.orelse.is_empty() {
                    self.body(&mut f.orelse, 0);
                }
            }
            Stmt::While(w) => {
                self.visit_expr(&mut w.test);
                // The test and the body's first block are charged together at every
                // evaluation of the test (the last, false, evaluation pays for a block it does
                // not run: an upper bound, and one native call per iteration instead of two).
                self.body(&mut w.body, 0);
                let first_block = take_first_charge(&mut w.body);
                let test = take_expr(&mut w.test);
                *w.test = charged_expr(expr_cost(&test) + cycles::DEFAULT + first_block, test);
                if !w.orelse.is_empty() {
                    self.body(&mut w.orelse, 0);
                }
            }
            Stmt::If(i) => {
                self.visit_expr(&mut i.test);
                self.body(&mut i.body, 0);
                for clause in &mut i.elif_else_clauses {
                    self.elif(clause);
                }
            }
            Stmt::With(w) => {
                for item in &mut w.items {
                    self.visit_expr(&mut item.context_expr);
                    if let Some(v) = &mut item.optional_vars {
                        self.visit_expr(v);
                    }
                }
                self.body(&mut w.body, 0);
            }
            Stmt::Match(m) => {
                self.visit_expr(&mut m.subject);
                m.cases = std::mem::take(&mut m.cases)
                    .into_iter()
                    .flat_map(|case| positional_check(&case.pattern).into_iter().chain([case]))
                    .collect();
                for case in &mut m.cases {
                    if let Some(g) = &mut case.guard {
                        self.visit_expr(g);
                        let guard = take_expr(g);
                        **g = charged_expr(expr_cost(&guard), guard);
                    }
                    self.body(&mut case.body, pattern_cost(&case.pattern));
                }
            }
            Stmt::Try(t) => {
                self.body(&mut t.body, 0);
                for h in &mut t.handlers {
                    let ExceptHandler::ExceptHandler(h) = h;
                    let type_cost = h.type_.as_deref().map_or(0, expr_cost);
                    if let Some(ty) = &mut h.type_ {
                        self.visit_expr(ty);
                    }
                    self.body(&mut h.body, cycles::HANDLER_ENTER + type_cost);
                    // Unpriced: a check of the exception's type and message.
                    if let Some(bound) = &h.name {
                        let range = h.range;
                        let bound = Expr::Name(ast::ExprName {
                            node_index: AtomicNodeIndex::NONE,
                            range,
                            id: bound.id.clone(),
                            ctx: ExprContext::Load,
                        });
                        let reword = call(REWORD, vec![bound], range);
                        h.body.insert(
                            0,
                            Stmt::Expr(ast::StmtExpr {
                                node_index: AtomicNodeIndex::NONE,
                                range,
                                value: Box::new(reword),
                            }),
                        );
                    }
                }
                if !t.orelse.is_empty() {
                    self.body(&mut t.orelse, 0);
                }
                if !t.finalbody.is_empty() {
                    self.body(&mut t.finalbody, cycles::HANDLER_ENTER);
                }
            }
            Stmt::AugAssign(a) => {
                self.visit_expr(&mut a.value);
                let Some(f) = ops::inplace(a.op) else {
                    self.visit_expr(&mut a.target);
                    return;
                };
                let range = a.range;
                if let Some(load) = pure_load(&a.target) {
                    let value = take_expr(&mut a.value);
                    let target = take_expr(&mut a.target);
                    *stmt = Stmt::Assign(ast::StmtAssign {
                        node_index: AtomicNodeIndex::NONE,
                        range,
                        targets: vec![target],
                        value: Box::new(call(f, vec![load, value], range)),
                    });
                    return;
                }
                // A target with side effects (`a[f()] **= n`): one helper call evaluates it
                // once and still uses the checked operator, never the native one.
                self.visit_expr(&mut a.target);
                let value = take_expr(&mut a.value);
                let helper = match &mut *a.target {
                    Expr::Subscript(sub) => {
                        let container = take_expr(&mut sub.value);
                        let key = take_expr(&mut sub.slice);
                        call(
                            AUGMENTED_ITEM,
                            vec![container, key, str_lit(f, range), value],
                            range,
                        )
                    }
                    Expr::Attribute(attr) => {
                        let object = take_expr(&mut attr.value);
                        let name = self.mangled(attr.attr.id.as_str());
                        call(
                            AUGMENTED_ATTRIBUTE,
                            vec![object, str_lit(&name, range), str_lit(f, range), value],
                            range,
                        )
                    }
                    // Names are always pure; nothing else can be a target.
                    _ => return,
                };
                *stmt = Stmt::Expr(ast::StmtExpr {
                    node_index: AtomicNodeIndex::NONE,
                    range,
                    value: Box::new(helper),
                });
            }
            other => self.visit_stmt_exprs(other),
        }
    }

    fn elif(&self, clause: &mut ElifElseClause) {
        if let Some(test) = &mut clause.test {
            self.visit_expr(test);
            let t = take_expr(test);
            *test = charged_expr(expr_cost(&t), t);
        }
        self.body(&mut clause.body, 0);
    }

    fn annotations(&self, p: &mut ast::Parameters) {
        let simple = p
            .posonlyargs
            .iter_mut()
            .chain(p.args.iter_mut())
            .chain(p.kwonlyargs.iter_mut())
            .map(|a| &mut a.parameter);
        let star = p.vararg.as_deref_mut().into_iter();
        let double = p.kwarg.as_deref_mut().into_iter();
        for parameter in simple.chain(star).chain(double) {
            if let Some(annotation) = &mut parameter.annotation {
                self.visit_expr(annotation);
            }
        }
    }

    fn params(&self, p: &mut ast::Parameters) {
        for arg in p
            .posonlyargs
            .iter_mut()
            .chain(p.args.iter_mut())
            .chain(p.kwonlyargs.iter_mut())
        {
            if let Some(d) = &mut arg.default {
                self.visit_expr(d);
            }
        }
    }

    /// Rewrites the expressions of a simple statement.
    fn visit_stmt_exprs(&self, stmt: &mut Stmt) {
        // Simple statements have no nested bodies: the default walk visits exactly their
        // expressions.
        transformer::walk_stmt(self, stmt);
    }

    /// Per-element cost of a comprehension whose generators are `gens` and whose per-element
    /// result costs `element` (the element expression plus the append/store).
    fn comprehension(&self, gens: &mut [ast::Comprehension], element: u64) {
        // The innermost generator pays for the element; each outer generator pays for binding
        // its target, its conditions and evaluating the next generator's iterable.
        let n = gens.len();
        let mut per_item = element;
        for i in (0..n).rev() {
            let g = &mut gens[i];
            self.visit_expr(&mut g.target);
            for cond in &mut g.ifs {
                self.visit_expr(cond);
            }
            self.visit_expr(&mut g.iter);
            let here = expr_cost(&g.target)
                + g.ifs.iter().map(expr_cost).sum::<u64>()
                + cycles::DEFAULT
                + per_item;
            let range = g.iter.range();
            let iter = take_expr(&mut g.iter);
            g.iter = call(METERED_ITER, vec![iter, int(here, range)], range);
            // The outer generator evaluates this (inner) iterable once per outer element.
            per_item = if i > 0 { expr_cost(&gens[i].iter) } else { 0 };
        }
    }
}

impl Transformer for Instrumenter {
    fn visit_stmt(&self, stmt: &mut Stmt) {
        // Statements reached through expressions do not exist in Python; keep the default.
        transformer::walk_stmt(self, stmt);
    }

    fn visit_expr(&self, expr: &mut Expr) {
        match expr {
            Expr::Lambda(l) => {
                if let Some(p) = &mut l.parameters {
                    self.params(p);
                }
                self.visit_expr(&mut l.body);
                let body = take_expr(&mut l.body);
                *l.body = charged_expr(expr_cost(&body) + cycles::DEFAULT, body);
            }
            Expr::ListComp(c) => {
                self.visit_expr(&mut c.elt);
                let element = expr_cost(&c.elt) + cycles::LIST_APPEND;
                self.comprehension(&mut c.generators, element);
            }
            Expr::SetComp(c) => {
                self.visit_expr(&mut c.elt);
                let element = expr_cost(&c.elt) + cycles::LIST_APPEND;
                self.comprehension(&mut c.generators, element);
            }
            Expr::Generator(c) => {
                self.visit_expr(&mut c.elt);
                let element = expr_cost(&c.elt) + cycles::DEFAULT;
                self.comprehension(&mut c.generators, element);
            }
            Expr::DictComp(c) => {
                self.visit_expr(&mut c.key);
                self.visit_expr(&mut c.value);
                let element = expr_cost(&c.key) + expr_cost(&c.value) + cycles::DICT_SET;
                self.comprehension(&mut c.generators, element);
            }
            Expr::BinOp(_) => {
                transformer::walk_expr(self, expr);
                let Expr::BinOp(b) = expr else { return };
                if let Some(f) = ops::binary(b.op) {
                    let range = b.range;
                    let left = take_expr(&mut b.left);
                    let right = take_expr(&mut b.right);
                    *expr = call(f, vec![left, right], range);
                }
            }
            Expr::FString(_) => {
                transformer::walk_expr(self, expr);
                let range = expr.range();
                let inner = take_expr(expr);
                *expr = call(CHARGE_CHARS, vec![inner], range);
            }
            Expr::Attribute(a)
                if self.actor
                    && a.ctx == ExprContext::Load
                    && is_private_name(a.attr.id.as_str()) =>
            {
                transformer::walk_expr(self, expr);
                let Expr::Attribute(a) = expr else { return };
                let range = a.range;
                let attr = self.mangled(a.attr.id.as_str());
                let value = take_expr(&mut a.value);
                *expr = call(PRIVATE_ATTRIBUTE, vec![value, str_lit(&attr, range)], range);
            }
            _ => transformer::walk_expr(self, expr),
        }
    }
}

/// A load of an augmented-assignment target that can be evaluated twice without changing
/// meaning (names, attributes of names, subscripts of names by names or literals); `None`
/// for targets whose evaluation has side effects, which keep their native `+=`.
fn pure_load(target: &Expr) -> Option<Expr> {
    fn pure(e: &Expr) -> bool {
        match e {
            Expr::Name(_)
            | Expr::NumberLiteral(_)
            | Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_) => true,
            Expr::Attribute(a) => pure(&a.value),
            Expr::UnaryOp(u) => pure(&u.operand),
            Expr::Tuple(t) => t.elts.iter().all(pure),
            _ => false,
        }
    }
    let mut load = target.clone();
    match &mut load {
        Expr::Name(n) => n.ctx = ExprContext::Load,
        Expr::Attribute(a) if pure(&a.value) => a.ctx = ExprContext::Load,
        Expr::Subscript(s) if pure(&s.value) && pure(&s.slice) => s.ctx = ExprContext::Load,
        _ => return None,
    }
    Some(load)
}

fn is_compound(stmt: &Stmt) -> bool {
    matches!(
        stmt,
        Stmt::If(_)
            | Stmt::For(_)
            | Stmt::While(_)
            | Stmt::With(_)
            | Stmt::Match(_)
            | Stmt::Try(_)
            | Stmt::FunctionDef(_)
            | Stmt::ClassDef(_)
    )
}

/// Static cost of a statement as it contributes to its block: simple statements in full,
/// compound statements only for their header (their bodies are charged separately).
pub fn stmt_cost(stmt: &Stmt) -> u64 {
    let d = cycles::DEFAULT;
    match stmt {
        Stmt::FunctionDef(f) => {
            d + f
                .decorator_list
                .iter()
                .map(|x| expr_cost(&x.expression) + cycles::CALL)
                .sum::<u64>()
                + params_cost(&f.parameters)
        }
        Stmt::ClassDef(c) => {
            cycles::CALL
                + c.decorator_list
                    .iter()
                    .map(|x| expr_cost(&x.expression) + cycles::CALL)
                    .sum::<u64>()
                + c.arguments.as_deref().map_or(0, arguments_cost)
        }
        Stmt::Return(r) => d + r.value.as_deref().map_or(0, expr_cost),
        Stmt::Delete(x) => d + x.targets.iter().map(expr_cost).sum::<u64>(),
        Stmt::TypeAlias(_) => d,
        Stmt::Assign(a) => expr_cost(&a.value) + a.targets.iter().map(expr_cost).sum::<u64>(),
        Stmt::AugAssign(a) => cycles::ARITHMETIC + 2 * expr_cost(&a.target) + expr_cost(&a.value),
        Stmt::AnnAssign(a) => expr_cost(&a.target) + a.value.as_deref().map_or(0, expr_cost),
        Stmt::For(f) => d + expr_cost(&f.iter),
        Stmt::While(_) => 0, // the test is charged inline at every evaluation
        Stmt::If(i) => expr_cost(&i.test),
        Stmt::With(w) => w
            .items
            .iter()
            .map(|i| {
                expr_cost(&i.context_expr)
                    + 2 * cycles::CALL
                    + i.optional_vars.as_deref().map_or(0, expr_cost)
            })
            .sum(),
        Stmt::Match(m) => expr_cost(&m.subject),
        Stmt::Raise(r) => {
            cycles::RAISE
                + r.exc.as_deref().map_or(0, expr_cost)
                + r.cause.as_deref().map_or(0, expr_cost)
        }
        Stmt::Try(_) => cycles::TRY_ENTER,
        Stmt::Assert(a) => d + expr_cost(&a.test) + a.msg.as_deref().map_or(0, expr_cost),
        // Imports are charged by the import hook (CIP-3 import costs).
        Stmt::Import(i) => d * i.names.len() as u64,
        Stmt::ImportFrom(i) => d * (1 + i.names.len() as u64),
        Stmt::Global(_) | Stmt::Nonlocal(_) => 0,
        Stmt::Expr(e) => expr_cost(&e.value),
        Stmt::Pass(_) | Stmt::Break(_) | Stmt::Continue(_) => d,
        Stmt::IpyEscapeCommand(_) => d,
    }
}

fn params_cost(p: &ast::Parameters) -> u64 {
    p.posonlyargs
        .iter()
        .chain(p.args.iter())
        .chain(p.kwonlyargs.iter())
        .filter_map(|a| a.default.as_deref())
        .map(expr_cost)
        .sum()
}

fn arguments_cost(a: &ast::Arguments) -> u64 {
    a.args.iter().map(expr_cost).sum::<u64>()
        + a.keywords.iter().map(|k| expr_cost(&k.value)).sum::<u64>()
}

/// `case __ms__ if __mp__(__ms__, Cls, n): pass`, to go before a case whose pattern is first
/// tested as a class pattern with `n` positional sub-patterns (`Cls(a, b)`, `Cls(a) as x`, or
/// the first alternative of an `|`). A capture with a guard may precede other cases; the guard
/// runs when the case is reached, as the class pattern's own check would. Class patterns
/// nested deeper keep RustPython's words.
fn positional_check(pattern: &ast::Pattern) -> Option<ast::MatchCase> {
    use ast::Pattern as P;
    let class = match pattern {
        P::MatchClass(c) => c,
        P::MatchAs(ast::PatternMatchAs {
            pattern: Some(inner),
            ..
        }) => return positional_check(inner),
        P::MatchOr(o) => return o.patterns.first().and_then(positional_check),
        _ => return None,
    };
    let n = class.arguments.patterns.len();
    if n == 0 {
        return None;
    }
    let range = class.range;
    let guard = call(
        MATCH_POSITIONAL,
        vec![
            name(MATCH_SUBJECT, range),
            (*class.cls).clone(),
            int(n as u64, range),
        ],
        range,
    );
    Some(ast::MatchCase {
        range,
        node_index: AtomicNodeIndex::NONE,
        pattern: P::MatchAs(ast::PatternMatchAs {
            node_index: AtomicNodeIndex::NONE,
            range,
            pattern: None,
            name: Some(ast::Identifier::new(MATCH_SUBJECT, range)),
        }),
        guard: Some(Box::new(guard)),
        body: vec![Stmt::Pass(ast::StmtPass {
            node_index: AtomicNodeIndex::NONE,
            range,
        })],
    })
}

fn pattern_cost(p: &ast::Pattern) -> u64 {
    use ast::Pattern as P;
    cycles::DEFAULT
        + match p {
            P::MatchValue(v) => expr_cost(&v.value),
            P::MatchSingleton(_) | P::MatchStar(_) => 0,
            P::MatchSequence(s) => s.patterns.iter().map(pattern_cost).sum(),
            P::MatchMapping(m) => {
                m.keys.iter().map(expr_cost).sum::<u64>()
                    + m.patterns.iter().map(pattern_cost).sum::<u64>()
            }
            P::MatchClass(c) => {
                cycles::CALL
                    + c.arguments.patterns.iter().map(pattern_cost).sum::<u64>()
                    + c.arguments
                        .keywords
                        .iter()
                        .map(|k| pattern_cost(&k.pattern))
                        .sum::<u64>()
            }
            P::MatchAs(a) => a.pattern.as_deref().map_or(0, pattern_cost),
            P::MatchOr(o) => o.patterns.iter().map(pattern_cost).sum(),
        }
}

/// Static cost of evaluating an expression once. Nested scopes (lambda bodies, comprehension
/// elements) are charged when they run, not here.
pub fn expr_cost(expr: &Expr) -> u64 {
    let d = cycles::DEFAULT;
    match expr {
        Expr::BoolOp(b) => {
            b.values.iter().map(expr_cost).sum::<u64>() + d * (b.values.len() as u64 - 1).max(1)
        }
        Expr::Named(n) => d + expr_cost(&n.value),
        Expr::BinOp(b) => cycles::ARITHMETIC + expr_cost(&b.left) + expr_cost(&b.right),
        Expr::UnaryOp(u) => cycles::ARITHMETIC + expr_cost(&u.operand),
        Expr::Lambda(l) => d + l.parameters.as_deref().map_or(0, params_cost),
        Expr::If(i) => expr_cost(&i.test) + expr_cost(&i.body) + expr_cost(&i.orelse),
        Expr::Dict(x) => {
            d + x
                .items
                .iter()
                .map(|i| {
                    i.key.as_ref().map_or(0, expr_cost) + expr_cost(&i.value) + cycles::DICT_SET
                })
                .sum::<u64>()
        }
        Expr::Set(s) => {
            d + s
                .elts
                .iter()
                .map(|e| expr_cost(e) + cycles::LIST_APPEND)
                .sum::<u64>()
        }
        Expr::List(l) => {
            d + l
                .elts
                .iter()
                .map(|e| expr_cost(e) + cycles::LIST_APPEND)
                .sum::<u64>()
        }
        Expr::Tuple(t) => {
            d + t
                .elts
                .iter()
                .map(|e| expr_cost(e) + cycles::LIST_APPEND)
                .sum::<u64>()
        }
        // Comprehensions: creating the scope and evaluating the outermost iterable here; the
        // per-element work is charged by the metered iterator.
        Expr::ListComp(c) => cycles::CALL + c.generators.first().map_or(0, |g| expr_cost(&g.iter)),
        Expr::SetComp(c) => cycles::CALL + c.generators.first().map_or(0, |g| expr_cost(&g.iter)),
        Expr::DictComp(c) => cycles::CALL + c.generators.first().map_or(0, |g| expr_cost(&g.iter)),
        Expr::Generator(c) => cycles::CALL + c.generators.first().map_or(0, |g| expr_cost(&g.iter)),
        Expr::Await(a) => d + expr_cost(&a.value),
        Expr::Yield(y) => d + y.value.as_deref().map_or(0, expr_cost),
        Expr::YieldFrom(y) => d + expr_cost(&y.value),
        Expr::Compare(c) => {
            expr_cost(&c.left)
                + c.comparators
                    .iter()
                    .map(|e| expr_cost(e) + cycles::ARITHMETIC)
                    .sum::<u64>()
        }
        Expr::Call(c) => cycles::CALL + expr_cost(&c.func) + arguments_cost(&c.arguments),
        Expr::FString(f) => {
            d + f
                .value
                .elements()
                .map(|e| match e {
                    ast::InterpolatedStringElement::Literal(_) => d,
                    ast::InterpolatedStringElement::Interpolation(i) => {
                        cycles::CALL + expr_cost(&i.expression)
                    }
                })
                .sum::<u64>()
        }
        Expr::TString(_) => d,
        Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::NumberLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_) => d,
        Expr::Attribute(a) => d + expr_cost(&a.value),
        Expr::Subscript(s) => cycles::SUBSCRIPT + expr_cost(&s.value) + expr_cost(&s.slice),
        Expr::Starred(s) => d + expr_cost(&s.value),
        Expr::Name(_) => d,
        Expr::Slice(s) => {
            d + s.lower.as_deref().map_or(0, expr_cost)
                + s.upper.as_deref().map_or(0, expr_cost)
                + s.step.as_deref().map_or(0, expr_cost)
        }
        Expr::IpyEscapeCommand(_) => d,
    }
}
