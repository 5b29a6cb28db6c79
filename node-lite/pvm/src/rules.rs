//! Every rule by which the PVM refuses Python that CPython would run, in one table.
//!
//! A construct either gives CPython 3.11's result or is refused by one of these rules: at
//! validation (`cowboy build`, `cowboy run`, deploy), with `file:line:col` and the rule's id,
//! or at run time, with an exception whose message ends in `(rule: <id>)`. Each entry says what
//! it refuses, why, and what to write instead. The book's PVM chapter carries this table
//! (generated from it and checked by `book_lists_every_rule`), the differential suite marks a
//! refused program with `# refused: <id>`, and a test checks that every `(rule: …)` tag in the
//! sources names a rule here.

use std::fmt;

/// Declares [`Rule`] and [`Rule::ALL`] from one list, so enumerating the rules cannot miss one.
macro_rules! rules {
    ($($variant:ident),* $(,)?) => {
        /// A refusal rule. The id ([`Rule::id`]) is what messages, JSON and the book show.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Rule {
            $($variant),*
        }

        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];
        }
    };
}

rules! {
    Syntax,
    SourceNormalization,
    ImportNotAllowed,
    RelativeImport,
    ForbiddenBuiltin,
    DunderName,
    DunderAttribute,
    IntrospectionAttribute,
    IdentityComparison,
    AsyncNotSupported,
    ActorClass,
    HandlerSignature,
    ClassMetadata,
    ClassSlots,
    Finalizer,
    ComplexNumber,
    IdentityHash,
    LibraryReadOnly,
    LibraryPrivateName,
    ClassModule,
    ReLinearTime,
    FormatStarWidth,
    AbcRegister,
    DataclassFieldName,
    WrapperAttributes,
    MemoryLimit,
}

/// One row of the table.
#[derive(Debug)]
pub struct RuleInfo {
    pub rule: Rule,
    pub id: &'static str,
    /// Checked before running (validation) or while running.
    pub when: When,
    pub refuses: &'static str,
    pub why: &'static str,
    pub instead: &'static str,
}

/// When a rule is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    Validation,
    RunTime,
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Validation => "validation",
            Self::RunTime => "run time",
        })
    }
}

/// The table. Order is the book's order; ids are stable (they appear in scripts' `--json`).
pub const RULES: &[RuleInfo] = &[
    RuleInfo {
        rule: Rule::Syntax,
        id: "syntax",
        when: When::Validation,
        refuses: "source that does not parse as Python 3.11",
        why: "nothing can run",
        instead: "fix the syntax at the position shown",
    },
    RuleInfo {
        rule: Rule::SourceNormalization,
        id: "source-normalization",
        when: When::Validation,
        refuses: "a string literal holding characters that NFC normalization changes: the Kelvin sign (U+212A), the Ohm and Ångström signs, decomposed accents (`e` + U+0301)",
        why: "deployed source is NFC-normalised (whitepaper §1.2), so the deployed string would differ from the one written, and from CPython's",
        instead: "write those characters as `\\u` escapes (`\"\\u212a\"`), or as their normalized form if that is what was meant",
    },
    RuleInfo {
        rule: Rule::ImportNotAllowed,
        id: "import-not-allowed",
        when: When::Validation,
        refuses: "importing a module outside the allowed list (`os`, `time`, `random`, `zlib`, `inspect`, …)",
        why: "those modules reach the host (files, clock, network, threads, entropy) or have not passed the determinism review",
        instead: "the allowed modules; state in `self.storage`, time and randomness from `pvm_host`, data as handler arguments",
    },
    RuleInfo {
        rule: Rule::RelativeImport,
        id: "relative-import",
        when: When::Validation,
        refuses: "`from . import x`",
        why: "an actor is a single file",
        instead: "put the code in the actor's file",
    },
    RuleInfo {
        rule: Rule::ForbiddenBuiltin,
        id: "forbidden-builtin",
        when: When::Validation,
        refuses: "`eval`, `exec`, `compile`, `open`, `input`, `breakpoint`, `globals`, `locals`, `vars`, `dir`, `help`, `exit`, `quit`, `memoryview`",
        why: "dynamic code, host access or namespace introspection",
        instead: "the message names an alternative for each (`vars(x)` → explicit fields or `dataclasses.asdict`, `memoryview(b)[i:j]` → `b[i:j]`)",
    },
    RuleInfo {
        rule: Rule::ComplexNumber,
        id: "complex-number",
        when: When::Validation,
        refuses: "complex literals (`1j`) and `complex()`",
        why: "complex arithmetic uses the host's math library, whose results differ between machines",
        instead: "keep the real and imaginary parts as two floats or integers",
    },
    RuleInfo {
        rule: Rule::DunderName,
        id: "dunder-name",
        when: When::Validation,
        refuses: "binding or reading `__x__` names outside class bodies (`__builtins__`, `__import__`, the metering runtime's names)",
        why: "they are the interpreter's internals and the meter's hooks",
        instead: "choose another name; `__name__` may be read",
    },
    RuleInfo {
        rule: Rule::DunderAttribute,
        id: "dunder-attribute",
        when: When::Validation,
        refuses: "attributes `x.__y__` other than `__init__`, `__name__`, `__qualname__`, `__doc__`, `__class__` and an exception's `__cause__`, `__context__`, `__suppress_context__`, `__notes__` (also through `getattr` with a string)",
        why: "`__dict__`, `__mro__`, `__globals__`, `__subclasses__` and the rest lead from any object to the interpreter's internals and the host: the classic sandbox escapes",
        instead: "`type(x)`, `isinstance`, `dataclasses.fields`/`asdict`, the operators and builtins (`repr(x)`, `x == y`, `hash(x)`) instead of calling special methods",
    },
    RuleInfo {
        rule: Rule::IntrospectionAttribute,
        id: "introspection-attribute",
        when: When::Validation,
        refuses: "`gi_frame`, `f_back`, `f_globals`, `tb_frame`, `co_code` and the other frame and code attributes",
        why: "frames and code objects lead to every global and builtin",
        instead: "nothing: actors do not inspect frames",
    },
    RuleInfo {
        rule: Rule::IdentityComparison,
        id: "identity-comparison",
        when: When::Validation,
        refuses: "`x is 1`, `x is 'a'`: `is` against a number or string literal",
        why: "whether two equal values are one object depends on the interpreter's caches",
        instead: "`==`",
    },
    RuleInfo {
        rule: Rule::AsyncNotSupported,
        id: "async-not-supported",
        when: When::Validation,
        refuses: "`async def`, `await`, `async for`, `async with`",
        why: "there is no event loop; handlers run to completion",
        instead: "plain functions; messages and timers for work that continues later",
    },
    RuleInfo {
        rule: Rule::ActorClass,
        id: "actor-class",
        when: When::Validation,
        refuses: "source without exactly one actor class",
        why: "the actor class's public methods are the handlers",
        instead: "one class named `Actor` or decorated with `@actor`",
    },
    RuleInfo {
        rule: Rule::HandlerSignature,
        id: "handler-signature",
        when: When::Validation,
        refuses: "handlers with `*args`, `**kwargs` or keyword-only parameters",
        why: "transactions pass positional arguments",
        instead: "positional parameters, with defaults if needed",
    },
    RuleInfo {
        rule: Rule::ClassMetadata,
        id: "class-metadata",
        when: When::Validation,
        refuses: "class bodies that set `__module__`, `__annotations__`, `__text_signature__` and other metadata the runtime trusts",
        why: "library code acts on a class's module and metadata",
        instead: "let the runtime set them",
    },
    RuleInfo {
        rule: Rule::ClassSlots,
        id: "class-slots",
        when: When::RunTime,
        refuses: "`__slots__` other than a `str`, or a `tuple`, `list` or `dict` of `str`s (a generator, a set, a `str` subclass), on a class created during a call",
        why: "slot names go into the node's string pool, which allocates only for names the node has not seen; the PVM charges them to the call beforehand, which it can only do for names it reads without running the actor's code",
        instead: "`__slots__ = ('a', 'b')`",
    },
    RuleInfo {
        rule: Rule::Finalizer,
        id: "finalizer",
        when: When::RunTime,
        refuses: "a class `__del__` that is not a function the actor defines (a `functools.partial`, a builtin, a library function)",
        why: "finalizers of cyclic garbage run between calls, where only the actor's own code is stopped safely; a native callable there would change library state for later calls on one node only",
        instead: "`def __del__(self): ...` (it runs, metered, when an object's last reference goes during a call)",
    },
    RuleInfo {
        rule: Rule::IdentityHash,
        id: "identity-hash",
        when: When::RunTime,
        refuses: "`hash()` of an object hashed by identity (a class instance without `__hash__` used as a dict key or set member), and of NaN",
        why: "identity hashes come from memory addresses, which differ between nodes",
        instead: "give the class `__eq__` and `__hash__` over its values, or key by a value (an id string, a tuple)",
    },
    RuleInfo {
        rule: Rule::LibraryReadOnly,
        id: "library-read-only",
        when: When::RunTime,
        refuses: "setting or deleting attributes of the standard library's shared objects (modules, classes, functions, singletons)",
        why: "one interpreter serves every actor: a change would leak into other calls and forks nodes that restarted",
        instead: "subclass, or keep the value in your own object",
    },
    RuleInfo {
        rule: Rule::LibraryPrivateName,
        id: "library-private-name",
        when: When::RunTime,
        refuses: "reading `_private` attributes of standard-library objects",
        why: "private helpers of the library are not part of the allowed, reviewed surface",
        instead: "the module's public API",
    },
    RuleInfo {
        rule: Rule::ClassModule,
        id: "class-module",
        when: When::RunTime,
        refuses: "classes created during a call that claim a library module (`namedtuple(..., module='sys')`)",
        why: "library functions look such classes' module up and act on it",
        instead: "leave `module` unset",
    },
    RuleInfo {
        rule: Rule::ReLinearTime,
        id: "re-linear-time",
        when: When::RunTime,
        refuses: "look-around (`(?=`, `(?!`, `(?<=`, `(?<!`), backreferences (`\\1`, `(?P=name)`), conditional groups, atomic groups and possessive quantifiers, a repetition of a group that can match empty text with two or more optional iterations (`(\\w*)+`, `(|a){0,2}`); more than 100 groups, or an automaton over 1 MiB or too large for its groups; and, at search time, the three cases the engine cannot decide as `_sre` would: `\\b`/`\\B` on text holding a character Python and the engine classify differently as a word character, a `$` followed by more pattern on text ending with a newline, and iteration (`findall`, `sub`, `split`) with a pattern that can prefer an empty match to a longer one",
        why: "the PVM's `re` runs in time linear in the text; these need backtracking, whose time can grow exponentially inside one native call",
        instead: "match the parts with groups and check the extra condition in Python (a second `search`, a comparison of two groups); write greedy quantifiers; use `re.ASCII` for word boundaries on such text; put the empty alternative last",
    },
    RuleInfo {
        rule: Rule::FormatStarWidth,
        id: "format-star-width",
        when: When::RunTime,
        refuses: "`*` widths and precisions in `%` formatting whose arguments are not a tuple (`'%*d' % 5`, `'%(n)*d' % d`); with a tuple (`'%*d' % (5, x)`) they are written into the format before it is checked and run",
        why: "the width must be known before formatting, for the size checks",
        instead: "`'%5d' % x` or `format(x, f'>{width}')` / an f-string with a nested width",
    },
    RuleInfo {
        rule: Rule::AbcRegister,
        id: "abc-register",
        when: When::RunTime,
        refuses: "`ABC.register(cls)` (virtual subclasses)",
        why: "a registration changes ABC state that every interpreter on the node shares, so one call would change what later calls of other actors see",
        instead: "make the class inherit from the ABC",
    },
    RuleInfo {
        rule: Rule::DataclassFieldName,
        id: "dataclass-field-name",
        when: When::RunTime,
        refuses: "dataclass fields whose names are not identifiers, are keywords, or are names of the metering rewrite's builtins (`__m__`, `__ad__`, …), set through `__annotations__` or `make_dataclass`",
        why: "`dataclasses` builds its methods as Python source from the field names: such a name would be code, or would call the metering builtin where it means the field",
        instead: "fields named by identifiers; no field name needs the dunder form",
    },
    RuleInfo {
        rule: Rule::WrapperAttributes,
        id: "wrapper-attributes",
        when: When::RunTime,
        refuses: "`functools.update_wrapper`/`wraps` copying private names other than the standard ones (`__globals__`, `__code__`, …)",
        why: "copying them would hand a library function's globals to the actor, or give a library function the actor's code",
        instead: "the default `assigned`/`updated` lists, or public attribute names",
    },
    RuleInfo {
        rule: Rule::MemoryLimit,
        id: "memory-limit",
        when: When::RunTime,
        refuses: "a native operation whose size alone exceeds the call's memory limit (`struct.pack` of a huge format), raised as `MemoryError` before anything is allocated",
        why: "the allocation would happen inside one native call, before the meter could stop it",
        instead: "smaller sizes; the limit is `pvm_host.MEMORY_LIMIT_BYTES`",
    },
];

impl Rule {
    /// This rule's row.
    pub fn info(self) -> &'static RuleInfo {
        RULES.iter().find(|r| r.rule == self).unwrap_or(&RULES[0])
    }

    /// Stable identifier shown in messages and JSON.
    pub fn id(self) -> &'static str {
        self.info().id
    }

    /// The rule with this id.
    pub fn from_id(id: &str) -> Option<Rule> {
        RULES.iter().find(|r| r.id == id).map(|r| r.rule)
    }

    /// The tag that ends a run-time refusal's message.
    pub fn tag(self) -> String {
        format!("(rule: {})", self.id())
    }
}

/// The table as the book shows it (Markdown).
pub fn markdown_table() -> String {
    let mut out =
        String::from("| rule | checked at | refuses | why | instead |\n|---|---|---|---|---|\n");
    for r in RULES {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            r.id, r.when, r.refuses, r.why, r.instead
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_one_row_and_a_unique_id() {
        for &rule in Rule::ALL {
            assert_eq!(
                RULES.iter().filter(|r| r.rule == rule).count(),
                1,
                "{rule:?} needs exactly one row in RULES"
            );
        }
        assert_eq!(RULES.len(), Rule::ALL.len());
        let mut ids = std::collections::BTreeSet::new();
        for r in RULES {
            assert!(ids.insert(r.id), "id {} twice", r.id);
            assert_eq!(r.rule.info().id, r.id);
            assert_eq!(Rule::from_id(r.id), Some(r.rule));
        }
    }

    /// Every `(rule: …)` tag written in the PVM's sources (Rust and Python) names a rule of
    /// the table.
    #[test]
    fn every_tag_in_the_sources_names_a_rule() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut checked = 0;
        // The Rust sources and the PVM's own Python modules (`python/`), which raise too.
        let files = ["src", "python"].into_iter().flat_map(|dir| {
            std::fs::read_dir(root.join(dir))
                .expect("source directory")
                .map(|entry| entry.expect("entry").path())
                // `python/stubs/` holds the editors' type stubs, which raise nothing.
                .filter(|path| path.is_file())
        });
        for path in files {
            let text = std::fs::read_to_string(&path).expect("source");
            for (i, _) in text.match_indices("(rule: ") {
                let id: String = text[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                    .collect();
                if id.is_empty() {
                    continue; // `(rule: {})` in this file
                }
                assert!(
                    Rule::from_id(&id).is_some(),
                    "{}: `(rule: {id})` is not in the rule table",
                    path.display()
                );
                checked += 1;
            }
        }
        assert!(checked >= 5, "found only {checked} rule tags");
    }

    /// The book's PVM chapter carries the table exactly; `COWBOY_BLESS=1` rewrites it.
    #[test]
    fn book_lists_every_rule() {
        let book = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/pvm.md");
        let text = std::fs::read_to_string(&book).expect("book/src/pvm.md");
        let (begin, end) = ("<!-- rules:begin -->\n", "<!-- rules:end -->");
        let (Some(b), Some(e)) = (text.find(begin), text.find(end)) else {
            panic!("book/src/pvm.md lacks the {begin:?} … {end:?} markers");
        };
        let current = &text[b + begin.len()..e];
        let wanted = markdown_table();
        if current != wanted {
            if std::env::var_os("COWBOY_BLESS").is_some() {
                let updated = format!("{}{wanted}{}", &text[..b + begin.len()], &text[e..]);
                std::fs::write(&book, updated).expect("write the book");
            } else {
                panic!(
                    "book/src/pvm.md's rule table is not rules.rs's: run `COWBOY_BLESS=1 cargo \
                     test -p cowboy-pvm --lib rules` to regenerate it"
                );
            }
        }
    }
}
