//! Static validation of actor source, run by `cowboy build`, `cowboy run` and at deploy.
//!
//! Parses the (canonicalised) source and checks the PVM rules that can be decided before
//! running: imports only from the whitelist, no forbidden builtins, no dunder or frame
//! introspection (the usual sandbox escapes), no identity comparison with literals, no `async`,
//! and exactly one actor class whose public methods are the handlers. Every problem is reported
//! with `line:column`, the rule broken and how to fix it. The same checks that matter for safety
//! are enforced again at run time, so validation is a service to the developer, not the only
//! line of defence.

use crate::stdlib::{self, NameKind, PvmVersion};
use ruff_text_size::{Ranged, TextRange, TextSize};
use rustpython_vm::compiler::{
    ast::{self, CmpOp, Expr, ExprContext, Stmt, visitor::Visitor},
    parser,
};
use std::fmt;

/// Modules an actor may import (whitepaper §3 whitelist plus the two host modules, and the pure
/// modules `base64`, `bisect`, `copy`, `fractions`, `heapq`, `hmac`, `operator` and `string`
/// allowed after the determinism review recorded in the book's PVM chapter).
pub const IMPORT_WHITELIST: &[&str] = &[
    "abc",
    "base64",
    "bisect",
    "collections",
    "collections.abc",
    "copy",
    "cowboy_sdk",
    "dataclasses",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "hashlib",
    "heapq",
    "hmac",
    "itertools",
    "json",
    "math",
    "operator",
    "pvm_host",
    "re",
    "string",
    "struct",
    "typing",
];

/// Builtins that do not exist in the PVM, with the reason given to the developer.
pub const FORBIDDEN_BUILTINS: &[(&str, &str)] = &[
    ("eval", "dynamic code execution is not allowed"),
    ("exec", "dynamic code execution is not allowed"),
    ("compile", "dynamic code execution is not allowed"),
    ("open", "there is no filesystem; keep data in self.storage"),
    (
        "input",
        "there is no terminal; pass data as handler arguments",
    ),
    ("breakpoint", "there is no debugger on chain"),
    ("globals", "namespace introspection is not allowed"),
    ("locals", "namespace introspection is not allowed"),
    ("vars", "namespace introspection is not allowed"),
    ("dir", "namespace introspection is not allowed"),
    (
        "complex",
        "complex arithmetic uses the host's math library, which differs between machines; \
         keep real and imaginary parts as two floats or integers",
    ),
    ("help", "interactive help is not available"),
    ("exit", "handlers end by returning or raising"),
    ("quit", "handlers end by returning or raising"),
    ("memoryview", "raw buffers are not available"),
];

/// Dunder attributes an actor may use: they reveal nothing beyond `type()`, names, and (for
/// exceptions) the chain of exceptions the actor's own code raised and their notes. The
/// traceback (`__traceback__`) stays out of reach: it leads to frames.
pub const ALLOWED_DUNDER_ATTRIBUTES: &[&str] = &[
    "__init__",
    "__name__",
    "__qualname__",
    "__doc__",
    "__class__",
    "__cause__",
    "__context__",
    "__suppress_context__",
    "__notes__",
];

/// Special methods an actor may call on `super()`, to extend what a base class does
/// (`super().__repr__()`, `super().__post_init__()`, `super().__setitem__(k, v)`). The receiver is
/// the actor's own instance or class, and each does what the matching operator or builtin does;
/// attribute lookups by string (`__getattribute__`, `__getattr__`) and constructors of classes
/// (`__new__`, `__init_subclass__`, `__class_getitem__`) stay refused.
pub const SUPER_SPECIAL_METHODS: &[&str] = &[
    "__post_init__",
    "__repr__",
    "__str__",
    "__format__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__hash__",
    "__bool__",
    "__len__",
    "__iter__",
    "__contains__",
    "__getitem__",
    "__setitem__",
    "__delitem__",
    "__missing__",
    "__setattr__",
    "__delattr__",
    "__enter__",
    "__exit__",
    "__call__",
    "__add__",
    "__sub__",
    "__mul__",
    "__truediv__",
    "__floordiv__",
    "__mod__",
];

/// `super().<special method>` or `object.__setattr__`/`object.__delattr__` (the frozen
/// dataclass idiom: `object.__setattr__(self, "field", value)` in `__post_init__`). Both set or
/// read what plain attribute syntax would, through the same write barrier on library objects.
fn is_inherited_special_method(value: &Expr, attr: &str, version: PvmVersion) -> bool {
    match value {
        Expr::Call(c) => {
            matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "super")
                && c.arguments.args.is_empty()
                && c.arguments.keywords.is_empty()
                && SUPER_SPECIAL_METHODS.contains(&attr)
                && stdlib::allowed_in(NameKind::SuperSpecialMethod, attr, version)
        }
        Expr::Name(n) => {
            n.id.as_str() == "object"
                && matches!(attr, "__setattr__" | "__delattr__")
                && stdlib::allowed_in(NameKind::ObjectMethod, attr, version)
        }
        _ => false,
    }
}

/// Public attribute names that reach frames, code objects or tracebacks.
pub const INTROSPECTION_ATTRIBUTES: &[&str] = &[
    "gi_frame",
    "gi_code",
    "gi_yieldfrom",
    "cr_frame",
    "cr_code",
    "cr_await",
    "ag_frame",
    "ag_code",
    "ag_await",
    "f_back",
    "f_globals",
    "f_locals",
    "f_builtins",
    "f_code",
    "f_trace",
    "tb_frame",
    "tb_next",
    "co_code",
    "co_consts",
    "co_names",
];

pub use crate::rules::Rule;

/// One problem found in actor source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub rule: Rule,
    pub message: String,
    /// How to fix it.
    pub hint: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}\n  hint: {}",
            self.line,
            self.column,
            self.rule.id(),
            self.message,
            self.hint
        )
    }
}

impl Diagnostic {
    /// `file:line:col: rule: message` plus the hint line.
    pub fn render(&self, file: &str) -> String {
        format!("{file}:{self}")
    }
}

/// What validation learned about the actor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActorShape {
    /// Name of the actor class.
    pub class_name: String,
    /// Public handler names, in source order.
    pub handlers: Vec<String>,
    /// Whether the class defines `__init__`.
    pub has_init: bool,
}

/// Converts a byte offset to 1-based (line, column-in-characters).
pub fn line_col(source: &str, offset: TextSize) -> (usize, usize) {
    let offset = usize::from(offset).min(source.len());
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}

/// Refuses raw (not yet canonical) source whose string literals NFC normalization would change
/// (rule `source-normalization`). Deployed source is NFC-normalised (whitepaper §1.2). That is
/// harmless in names, which Python normalises further (NFKC), and in comments, but it changes a
/// literal's value: a Kelvin sign (U+212A) typed into a string becomes "K", a decomposed "é" one
/// character shorter, where CPython keeps what was written. Source that does not parse is left
/// to [`validate`], which reports the syntax error.
pub fn check_normalization(raw: &str) -> Result<(), Vec<Diagnostic>> {
    use rustpython_vm::compiler::ast::token::TokenKind;
    use unicode_normalization::{
        IsNormalized, UnicodeNormalization, char::canonical_combining_class,
    };
    if unicode_normalization::is_nfc_quick(raw.chars()) == IsNormalized::Yes {
        return Ok(());
    }
    // Positions as in the canonical source, whose line endings are LF and which has no BOM.
    let body = raw.strip_prefix('\u{feff}').unwrap_or(raw);
    let body = body.replace("\r\n", "\n").replace('\r', "\n");
    let Ok(parsed) = parser::parse_module(&body) else {
        return Ok(());
    };
    let escaped = |chars: &[char]| -> String {
        chars
            .iter()
            .map(|c| format!("\\u{:04x}", *c as u32))
            .collect()
    };
    let code_points = |chars: &[char]| -> String {
        let names: Vec<String> = chars
            .iter()
            .map(|c| format!("U+{:04X}", *c as u32))
            .collect();
        names.join(" ")
    };
    let mut diagnostics = Vec::new();
    for token in parsed.tokens().iter() {
        if !matches!(
            token.kind(),
            TokenKind::String | TokenKind::FStringMiddle | TokenKind::TStringMiddle
        ) {
            continue;
        }
        let text = &body[token.range()];
        if unicode_normalization::is_nfc(text) {
            continue;
        }
        let written: Vec<(usize, char)> = text.char_indices().collect();
        let normalized: Vec<char> = text.nfc().collect();
        let Some(at) = (0..written.len()).find(|&i| normalized.get(i) != Some(&written[i].1))
        else {
            continue;
        };
        // The characters that normalization combines or replaces: from the first that differs
        // through the combining marks after it.
        let cluster = |chars: &mut dyn Iterator<Item = char>| -> Vec<char> {
            let mut out: Vec<char> = Vec::new();
            for c in chars {
                if !out.is_empty() && canonical_combining_class(c) == 0 {
                    break;
                }
                out.push(c);
            }
            out
        };
        let from = cluster(&mut written[at..].iter().map(|&(_, c)| c));
        let to = cluster(&mut normalized[at..].iter().copied());
        let offset = TextSize::try_from(usize::from(token.range().start()) + written[at].0)
            .unwrap_or(token.range().start());
        let (line, column) = line_col(&body, offset);
        diagnostics.push(Diagnostic {
            line,
            column,
            rule: Rule::SourceNormalization,
            message: format!(
                "this string holds {}, which the NFC normalization of deployed source turns into {} ({:?}): the deployed string would not be the one written",
                code_points(&from),
                code_points(&to),
                to.iter().collect::<String>(),
            ),
            hint: format!(
                "write the characters as the escape \"{}\" (normalization leaves escapes alone), or as {:?} if that is what you meant",
                escaped(&from),
                to.iter().collect::<String>(),
            ),
        });
    }
    if diagnostics.is_empty() {
        Ok(())
    } else {
        Err(diagnostics)
    }
}

/// Validates actor source under the current PVM version. Returns the actor's shape, or every
/// diagnostic found.
pub fn validate(source: &str) -> Result<(ast::ModModule, ActorShape), Vec<Diagnostic>> {
    validate_for(source, PvmVersion::CURRENT)
}

/// The earliest PVM version that accepts `source` (which the current one accepts).
pub fn earliest_version(source: &str) -> PvmVersion {
    PvmVersion::all()
        .find(|&version| validate_for(source, version).is_ok())
        .unwrap_or(PvmVersion::CURRENT)
}

/// Validates actor source under the rules of `version`.
pub fn validate_for(
    source: &str,
    version: PvmVersion,
) -> Result<(ast::ModModule, ActorShape), Vec<Diagnostic>> {
    let parsed = match parser::parse_module(source) {
        Ok(p) => p,
        Err(e) => {
            let (line, column) = line_col(source, e.location.start());
            return Err(vec![Diagnostic {
                line,
                column,
                rule: Rule::Syntax,
                message: e.error.to_string(),
                hint: "fix the Python syntax error (the PVM runs Python 3 syntax)".into(),
            }]);
        }
    };
    let module = parsed.into_syntax();
    let mut checker = Checker {
        source,
        version,
        diagnostics: Vec::new(),
        class_scopes: vec![false],
        class_names: vec![Vec::new()],
    };
    for stmt in &module.body {
        checker.visit_stmt(stmt);
    }
    let shape = checker.actor_shape(&module.body);
    let mut diagnostics = checker.diagnostics;
    diagnostics.sort_by_key(|d| (d.line, d.column));
    match shape {
        Some(shape) if diagnostics.is_empty() => Ok((module, shape)),
        _ => Err(diagnostics),
    }
}

/// Validates source compiled while a call runs (what library code hands to `eval`, `exec` or
/// `compile` on an actor's behalf, e.g. a string annotation `typing.get_type_hints` evaluates):
/// the same rules as actor source, without an actor class. `expression` parses it as one
/// expression (`eval` mode).
pub fn validate_dynamic(source: &str, expression: bool) -> Result<(), Vec<Diagnostic>> {
    let mut checker = Checker {
        source,
        version: PvmVersion::CURRENT,
        diagnostics: Vec::new(),
        class_scopes: vec![false],
        class_names: vec![Vec::new()],
    };
    let syntax = |e: parser::ParseError| {
        let (line, column) = line_col(source, e.location.start());
        vec![Diagnostic {
            line,
            column,
            rule: Rule::Syntax,
            message: e.error.to_string(),
            hint: "fix the Python syntax error".into(),
        }]
    };
    if expression {
        let parsed = parser::parse_expression(source).map_err(syntax)?;
        checker.visit_expr(&parsed.into_syntax().body);
    } else {
        for stmt in &parser::parse_module(source)
            .map_err(syntax)?
            .into_syntax()
            .body
        {
            checker.visit_stmt(stmt);
        }
    }
    if checker.diagnostics.is_empty() {
        Ok(())
    } else {
        checker.diagnostics.sort_by_key(|d| (d.line, d.column));
        Err(checker.diagnostics)
    }
}

struct Checker<'s> {
    source: &'s str,
    /// The rules checked against.
    version: PvmVersion,
    diagnostics: Vec<Diagnostic>,
    /// Whether each enclosing scope is a class body (innermost last).
    class_scopes: Vec<bool>,
    /// Names bound so far in each enclosing class body (innermost last).
    class_names: Vec<Vec<String>>,
}

/// Whether `name` is a Python identifier that is not a keyword (what a field or attribute
/// name generated into source may be).
pub fn is_identifier(name: &str) -> bool {
    // What the parser reads as exactly this one name (keywords are not names).
    parser::parse_expression(name).is_ok_and(
        |parsed| matches!(&*parsed.into_syntax().body, Expr::Name(n) if n.id.as_str() == name),
    )
}

fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// Dunder names a class body may read (they describe the class being defined).
pub const CLASS_BODY_DUNDERS: &[&str] = &["__qualname__", "__module__", "__doc__"];

impl Checker<'_> {
    fn report(&mut self, range: TextRange, rule: Rule, message: String, hint: impl Into<String>) {
        let (line, column) = line_col(self.source, range.start());
        self.diagnostics.push(Diagnostic {
            line,
            column,
            rule,
            message,
            hint: hint.into(),
        });
    }

    fn check_import(&mut self, module: &str, range: TextRange) {
        let listed = IMPORT_WHITELIST.contains(&module);
        if !listed || !stdlib::allowed_in(NameKind::Module, module, self.version) {
            let message = if listed {
                format!(
                    "module `{module}` is not available in PVM version {} (allowed since \
                     version {})",
                    self.version,
                    stdlib::since(NameKind::Module, module)
                )
            } else {
                format!("module `{module}` is not available in the PVM")
            };
            let allowed: Vec<&str> = stdlib::modules(self.version).collect();
            self.report(
                range,
                Rule::ImportNotAllowed,
                message,
                format!("import only: {}", allowed.join(", ")),
            );
        }
    }

    fn bind_class_name(&mut self, name: &str) {
        if let Some(names) = self.class_names.last_mut() {
            names.push(name.to_owned());
        }
    }

    fn bound_in_class_body(&self, name: &str) -> bool {
        self.in_class_body()
            && self
                .class_names
                .last()
                .is_some_and(|n| n.iter().any(|x| x == name))
    }

    fn in_class_body(&self) -> bool {
        self.class_scopes.last().copied().unwrap_or(false)
    }

    fn check_binding(&mut self, name: &str, range: TextRange) {
        // Names the metering rewrite calls: binding them would let code skip its charges.
        if crate::instrument::is_reserved(name) {
            self.report(
                range,
                Rule::DunderName,
                format!("`{name}` is reserved for the metering runtime"),
                "choose another name",
            );
        } else if self.in_class_body()
            && (name == "__module__" || crate::library_objects::METADATA_DUNDERS.contains(&name))
        {
            self.report(
                range,
                Rule::ClassMetadata,
                format!("`{name}` cannot be set in a class body"),
                "the runtime sets a class's module and metadata; library code relies on them",
            );
        } else if is_dunder(name) && !self.in_class_body() {
            self.report(
                range,
                Rule::DunderName,
                format!("`{name}` cannot be assigned or bound"),
                "dunder names are reserved for the runtime; choose another name",
            );
        }
    }

    /// Finds the actor class: decorated `@actor` (or `@cowboy_sdk.actor`), else named `Actor`.
    fn actor_shape(&mut self, body: &[Stmt]) -> Option<ActorShape> {
        let classes: Vec<&ast::StmtClassDef> = body
            .iter()
            .filter_map(|s| match s {
                Stmt::ClassDef(c) => Some(c),
                _ => None,
            })
            .collect();
        let decorated: Vec<&&ast::StmtClassDef> = classes
            .iter()
            .filter(|c| {
                c.decorator_list.iter().any(|d| match &d.expression {
                    Expr::Name(n) => n.id.as_str() == "actor",
                    Expr::Attribute(a) => a.attr.id.as_str() == "actor",
                    _ => false,
                })
            })
            .collect();
        let chosen: Vec<&ast::StmtClassDef> = if decorated.is_empty() {
            classes
                .iter()
                .filter(|c| c.name.id.as_str() == "Actor")
                .copied()
                .collect()
        } else {
            decorated.into_iter().copied().collect()
        };
        let class = match chosen.as_slice() {
            [one] => *one,
            [] => {
                self.report(
                    TextRange::default(),
                    Rule::ActorClass,
                    "no actor class found".into(),
                    "decorate one class with `@actor` (from cowboy_sdk import actor), or name it `Actor`",
                );
                return None;
            }
            [_, second, ..] => {
                self.report(
                    second.range(),
                    Rule::ActorClass,
                    format!(
                        "more than one actor class (`{}` is the second)",
                        second.name.id
                    ),
                    "a module deploys exactly one actor; keep helpers as plain classes",
                );
                return None;
            }
        };
        let mut handlers = Vec::new();
        let mut has_init = false;
        for stmt in &class.body {
            let Stmt::FunctionDef(f) = stmt else { continue };
            let name = f.name.id.as_str();
            let is_static = f.decorator_list.iter().any(|d| {
                matches!(&d.expression, Expr::Name(n) if n.id.as_str() == "staticmethod" || n.id.as_str() == "classmethod")
            });
            if name == "__init__" {
                has_init = true;
            } else if name.starts_with('_') || is_static {
                continue;
            }
            let first = f
                .parameters
                .posonlyargs
                .iter()
                .chain(f.parameters.args.iter())
                .next();
            if first.is_none_or(|p| p.parameter.name.id.as_str() != "self") {
                self.report(
                    f.range(),
                    Rule::HandlerSignature,
                    format!("handler `{name}` must take `self` as its first parameter"),
                    format!("write `def {name}(self, ...):`"),
                );
            }
            if name != "__init__" {
                handlers.push(name.to_string());
            }
        }
        Some(ActorShape {
            class_name: class.name.id.to_string(),
            handlers,
            has_init,
        })
    }
}

impl<'a> Visitor<'a> for Checker<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Import(i) => {
                for alias in &i.names {
                    self.check_import(alias.name.id.as_str(), alias.range());
                }
            }
            Stmt::ImportFrom(i) => {
                let module = i.module.as_ref().map(|m| m.id.as_str()).unwrap_or("");
                if i.level > 0 {
                    self.report(
                        i.range(),
                        Rule::RelativeImport,
                        "relative imports are not available".into(),
                        "an actor is a single module; import only whitelisted modules",
                    );
                } else if module == "__future__" {
                    // Compile-time directives are harmless.
                } else {
                    self.check_import(module, i.range());
                }
            }
            Stmt::FunctionDef(f) => {
                if f.is_async {
                    self.report(
                        f.range(),
                        Rule::AsyncNotSupported,
                        format!("`async def {}` is not supported", f.name.id),
                        "handlers run to completion within a block; use messages and timers for asynchronous work",
                    );
                }
                // Special methods (`__eq__`, `__repr__`, …) may be defined on your own classes.
                self.check_binding(f.name.id.as_str(), f.name.range());
                for d in &f.decorator_list {
                    self.visit_decorator(d);
                }
                self.visit_parameters(&f.parameters);
                if let Some(r) = &f.returns {
                    self.visit_annotation(r);
                }
                self.class_scopes.push(false);
                self.class_names.push(Vec::new());
                for s in &f.body {
                    self.visit_stmt(s);
                }
                self.class_names.pop();
                self.class_scopes.pop();
                return;
            }
            Stmt::ClassDef(c) => {
                self.check_binding(c.name.id.as_str(), c.name.range());
                for d in &c.decorator_list {
                    self.visit_decorator(d);
                }
                if let Some(args) = &c.arguments {
                    self.visit_arguments(args);
                }
                self.class_scopes.push(true);
                self.class_names.push(Vec::new());
                for s in &c.body {
                    self.visit_stmt(s);
                    // Record what the statement bound, so later statements may read it
                    // (e.g. `__rmul__ = __mul__`).
                    match s {
                        Stmt::FunctionDef(f) => self.bind_class_name(f.name.id.as_str()),
                        Stmt::Assign(a) => {
                            for t in &a.targets {
                                if let Expr::Name(n) = t {
                                    self.bind_class_name(n.id.as_str());
                                }
                            }
                        }
                        _ => {}
                    }
                }
                self.class_names.pop();
                self.class_scopes.pop();
                return;
            }
            Stmt::For(f) if f.is_async => self.report(
                f.range(),
                Rule::AsyncNotSupported,
                "`async for` is not supported".into(),
                "use a plain `for` loop",
            ),
            Stmt::With(w) if w.is_async => self.report(
                w.range(),
                Rule::AsyncNotSupported,
                "`async with` is not supported".into(),
                "use a plain `with` statement",
            ),
            Stmt::Global(g) => {
                for n in &g.names {
                    self.check_binding(n.id.as_str(), n.range());
                }
            }
            _ => {}
        }
        ast::visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Name(n) => {
                let id = n.id.as_str();
                if let Some((_, why)) = FORBIDDEN_BUILTINS.iter().find(|(b, _)| *b == id) {
                    if n.ctx == ExprContext::Load {
                        self.report(
                            n.range(),
                            Rule::ForbiddenBuiltin,
                            format!("`{id}` is not available in the PVM"),
                            *why,
                        );
                    }
                } else if n.ctx != ExprContext::Load {
                    self.check_binding(id, n.range());
                } else if is_dunder(id)
                    && !(id == "__name__"
                        || (self.in_class_body() && CLASS_BODY_DUNDERS.contains(&id))
                        || self.bound_in_class_body(id))
                {
                    self.report(
                        n.range(),
                        Rule::DunderName,
                        format!("`{id}` is not accessible to actors"),
                        "runtime internals are off limits; only `__name__` may be read",
                    );
                }
            }
            Expr::Attribute(a) => {
                let attr = a.attr.id.as_str();
                let allowed = ALLOWED_DUNDER_ATTRIBUTES.contains(&attr)
                    && stdlib::allowed_in(NameKind::DunderAttribute, attr, self.version);
                if is_dunder(attr)
                    && !allowed
                    && !is_inherited_special_method(&a.value, attr, self.version)
                {
                    self.report(
                        a.attr.range(),
                        Rule::DunderAttribute,
                        if ALLOWED_DUNDER_ATTRIBUTES.contains(&attr) {
                            format!(
                                "attribute `{attr}` is not accessible in PVM version {} \
                                 (allowed since version {})",
                                self.version,
                                stdlib::since(NameKind::DunderAttribute, attr)
                            )
                        } else {
                            format!("attribute `{attr}` is not accessible to actors")
                        },
                        format!(
                            "introspection of runtime internals is not allowed; allowed dunder attributes: {}",
                            stdlib::dunder_attributes(self.version)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                } else if INTROSPECTION_ATTRIBUTES.contains(&attr) {
                    self.report(
                        a.attr.range(),
                        Rule::IntrospectionAttribute,
                        format!("attribute `{attr}` exposes frames or code objects"),
                        "frames, code objects and tracebacks are not accessible to actors",
                    );
                }
            }
            Expr::Compare(c) => {
                let mut left: &Expr = &c.left;
                for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                    if matches!(op, CmpOp::Is | CmpOp::IsNot)
                        && (is_value_literal(left) || is_value_literal(right))
                    {
                        self.report(
                            c.range(),
                            Rule::IdentityComparison,
                            "`is` comparison with a number, string or bytes literal".into(),
                            "use `==` / `!=`; `is` is only meaningful for None, True and False",
                        );
                    }
                    left = right;
                }
            }
            Expr::NumberLiteral(n) if matches!(n.value, ast::Number::Complex { .. }) => self
                .report(
                    n.range(),
                    Rule::ComplexNumber,
                    "complex numbers are not available in the PVM".into(),
                    "complex arithmetic uses the host's math library, which differs between \
                     machines; keep real and imaginary parts as two floats or integers",
                ),
            Expr::Await(a) => self.report(
                a.range(),
                Rule::AsyncNotSupported,
                "`await` is not supported".into(),
                "handlers run to completion; use messages and timers for asynchronous work",
            ),
            Expr::Lambda(l) => {
                if let Some(p) = &l.parameters {
                    self.check_params(p);
                }
            }
            _ => {}
        }
        ast::visitor::walk_expr(self, expr);
    }

    fn visit_parameters(&mut self, parameters: &'a ast::Parameters) {
        self.check_params(parameters);
        ast::visitor::walk_parameters(self, parameters);
    }

    fn visit_comprehension(&mut self, comprehension: &'a ast::Comprehension) {
        if comprehension.is_async {
            self.report(
                comprehension.range(),
                Rule::AsyncNotSupported,
                "`async for` in a comprehension is not supported".into(),
                "use a plain comprehension",
            );
        }
        ast::visitor::walk_comprehension(self, comprehension);
    }

    fn visit_except_handler(&mut self, handler: &'a ast::ExceptHandler) {
        let ast::ExceptHandler::ExceptHandler(h) = handler;
        if let Some(name) = &h.name {
            self.check_binding(name.id.as_str(), name.range());
        }
        ast::visitor::walk_except_handler(self, handler);
    }

    fn visit_alias(&mut self, alias: &'a ast::Alias) {
        let bound = alias.asname.as_ref().unwrap_or(&alias.name);
        if bound.id.as_str() != "*" {
            self.check_binding(bound.id.as_str(), bound.range());
        }
    }
}

impl Checker<'_> {
    fn check_params(&mut self, p: &ast::Parameters) {
        let all = p
            .posonlyargs
            .iter()
            .chain(p.args.iter())
            .chain(p.kwonlyargs.iter())
            .map(|a| &a.parameter)
            .chain(p.vararg.as_deref())
            .chain(p.kwarg.as_deref());
        let names: Vec<(String, TextRange)> = all
            .map(|a| (a.name.id.to_string(), a.name.range()))
            .collect();
        for (name, range) in names {
            self.check_binding(&name, range);
        }
    }
}

fn is_value_literal(e: &Expr) -> bool {
    matches!(
        e,
        Expr::NumberLiteral(_) | Expr::StringLiteral(_) | Expr::BytesLiteral(_) | Expr::FString(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(src: &str) -> Vec<(usize, usize, &'static str)> {
        match validate(src) {
            Ok(_) => vec![],
            Err(d) => d.iter().map(|d| (d.line, d.column, d.rule.id())).collect(),
        }
    }

    const OK: &str = "class Actor:\n    def __init__(self):\n        self.n = 0\n    def inc(self, by=1):\n        self.n += by\n        return self.n\n";

    #[test]
    fn a_plain_actor_validates() {
        let (_, shape) = validate(OK).unwrap();
        assert_eq!(shape.class_name, "Actor");
        assert_eq!(shape.handlers, vec!["inc"]);
        assert!(shape.has_init);
    }

    #[test]
    fn rules_are_reported_with_positions() {
        let src = format!("import os\n{OK}x = ().__class__.__base__\ny = eval('1')\nz = 5 is 5\n");
        assert_eq!(
            rules(&src),
            vec![
                (1, 8, "import-not-allowed"),
                (8, 18, "dunder-attribute"),
                (9, 5, "forbidden-builtin"),
                (10, 5, "identity-comparison"),
            ]
        );
    }

    #[test]
    fn syntax_errors_have_positions() {
        let d = validate("class Actor:\n    def f(self)\n        pass\n").unwrap_err();
        assert_eq!(d[0].rule, Rule::Syntax);
        assert_eq!(d[0].line, 2);
    }

    #[test]
    fn escapes_are_refused() {
        for src in [
            "def f(): pass\nf.__globals__['__builtins__']",
            "__builtins__",
            "import collections\ncollections._sys",
            "def g():\n    yield 1\ng().gi_frame.f_globals",
        ] {
            let full = format!("{OK}{src}\n");
            let r = rules(&full);
            if src.contains("collections._sys") {
                // Module-private attributes are refused at run time (module facades).
                assert!(r.is_empty(), "{src}: {r:?}");
            } else {
                assert!(!r.is_empty(), "{src} must be refused");
            }
        }
    }

    #[test]
    fn strings_that_normalization_changes_are_refused_where_written() {
        let refused = |src: &str| -> Vec<(usize, usize, &'static str)> {
            check_normalization(src)
                .err()
                .unwrap_or_default()
                .into_iter()
                .map(|d| (d.line, d.column, d.rule.id()))
                .collect()
        };
        // A Kelvin sign and a decomposed accent in strings (plain, f-string, after a CRLF and a
        // BOM); the same characters in a comment and a name are harmless.
        let kelvin = "\u{feff}x = 1\r\ns = '\u{212a}'\nt = f'caf\u{65}\u{301} {s}'\n";
        assert_eq!(
            refused(kelvin),
            vec![
                (2, 6, "source-normalization"),
                (3, 10, "source-normalization")
            ]
        );
        assert!(refused("# \u{212a} caf\u{65}\u{301}\nx\u{212a} = '\\u212a'\n").is_empty());
        let d = check_normalization("s = '\u{212a}'\n").unwrap_err();
        assert!(d[0].message.contains("U+212A"), "{}", d[0].message);
        assert!(d[0].hint.contains("\"\\u212a\""), "{}", d[0].hint);
        // What does not parse is left to validation.
        assert!(refused("s = '\u{212a}\n").is_empty());
    }

    #[test]
    fn actor_class_is_required_and_unique() {
        assert_eq!(rules("x = 1\n"), vec![(1, 1, "actor-class")]);
        let two = "from cowboy_sdk import actor\n@actor\nclass A:\n    pass\n@actor\nclass B:\n    pass\n";
        assert_eq!(rules(two), vec![(5, 1, "actor-class")]);
    }
}
