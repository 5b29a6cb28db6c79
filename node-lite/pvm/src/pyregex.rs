//! `_cowboy_regex`: Python regular expressions on a linear-time engine.
//!
//! `_cowboy_re` (the `re` actors import) parses every pattern with CPython's own parser
//! (`re._parser`), so syntax errors, their positions, group numbers and names are CPython's.
//! It refuses the constructs that need backtracking and hands the rest of the tree here,
//! flattened into integers ([`Op`]). This module builds from the tree a `regex_syntax` HIR whose
//! every character set is the one CPython's `_sre` would test, and compiles it into
//! `regex_automata`'s Thompson NFA, which [`crate::regex_search`] searches without ever
//! backtracking: no pattern can take more than time linear in the text. What this module
//! reproduces of `_sre`:
//!
//! - **categories**: `\d` is `str.isdecimal`, `\s` is `str.isspace` (with the separators
//!   `\x1c`–`\x1f`), `\w` is `str.isalnum` or `_`; ASCII-only under `re.ASCII` and for bytes;
//! - **IGNORECASE**: a character matches when its lowercase (the first character of its full
//!   lowercase, as `_sre` takes it) is in the set, with CPython's extra equivalences between
//!   lowercase letters that share an uppercase (`s`/`ſ`, `i`/`ı`); a class without a cased
//!   character is matched as it is; ranges reaching beyond the BMP also match through the
//!   uppercase, as `RANGE_UNI_IGNORE` does;
//! - **`$` without MULTILINE** also matches before a newline that ends the text. A `$` that
//!   ends the pattern becomes `\z|(\n)\z` with a hidden group; a match through the hidden group
//!   ends before the newline. A `$` followed by more pattern is refused at search time when
//!   the text ends with a newline (the only case where it cannot be decided);
//! - **`\b`, `\B`**: the engine's Unicode word boundary, whose word characters differ from
//!   Python's for a few (combining marks, `²`): a search of a text holding such a character
//!   with a Unicode boundary is refused. `\B` never matches an empty text, as in CPython;
//! - **iteration** (`findall`, `finditer`, `sub`, `split`): after an empty match the next may
//!   start at the same place if it is not empty. A pattern that can prefer an empty match where
//!   a longer one exists (a lazy quantifier, an empty first alternative) is refused there.
//!
//! Prices: compiling costs a call plus 10 cycles per tree element (plus the case-insensitive
//! sets built) and a cycle per state of the automata built. A search costs a call and a cycle
//! per character of the text, plus every step of its walk of the automata, paid as it is
//! taken ([`crate::regex_search`]): the engine's own search routines, which cannot be priced
//! as they run, are never used.

use crate::{
    cost::cycles,
    natives::charge,
    regex_search::{Automata, Caches, Spans, Tab},
    text,
};
use regex_syntax::hir::{
    Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition,
};
use rustpython_vm::{
    PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyBaseExceptionRef, PyListRef, PyTypeRef, PyUtf8StrRef},
};
use std::{cell::RefCell, collections::BTreeMap, sync::LazyLock};

/// The tree's node codes, shared with `_cowboy_re` (it reads them from the module).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i64)]
pub enum Op {
    /// `LITERAL c`
    Literal = 1,
    /// `NOT_LITERAL c`
    NotLiteral = 2,
    /// `ANY`
    Any = 3,
    /// `IN n item*`, each item a [`SetItem`] code and its operands
    In = 4,
    /// `BRANCH n SEQ*`
    Branch = 5,
    /// `SEQ n node*`
    Seq = 6,
    /// `GROUP index add_flags del_flags SEQ` (index 0: not capturing)
    Group = 7,
    /// `REPEAT min max greedy SEQ` (max -1: unbounded)
    Repeat = 8,
    /// `AT` and an [`At`] code
    At = 9,
    /// `FAILURE`: matches nothing
    Fail = 10,
}

/// Items of a character set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i64)]
pub enum SetItem {
    /// `c`
    Literal = 0,
    /// `a b`
    Range = 1,
    /// a [`Category`] code
    Category = 2,
    /// the set is negated
    Negate = 3,
}

/// `\d`, `\D`, `\s`, `\S`, `\w`, `\W`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i64)]
pub enum Category {
    Digit = 0,
    NotDigit = 1,
    Space = 2,
    NotSpace = 3,
    Word = 4,
    NotWord = 5,
}

/// Zero-width assertions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i64)]
pub enum At {
    /// `^`
    Beginning = 0,
    /// `\A`
    BeginningString = 1,
    /// `$`
    End = 2,
    /// `\Z`
    EndString = 3,
    /// `\b`
    Boundary = 4,
    /// `\B`
    NonBoundary = 5,
}

/// The codes as `(CPython name, code)`, exported to `_cowboy_re`.
const CODES: &[(&str, i64)] = &[
    ("LITERAL", Op::Literal as i64),
    ("NOT_LITERAL", Op::NotLiteral as i64),
    ("ANY", Op::Any as i64),
    ("IN", Op::In as i64),
    ("BRANCH", Op::Branch as i64),
    ("SEQ", Op::Seq as i64),
    ("SUBPATTERN", Op::Group as i64),
    ("REPEAT", Op::Repeat as i64),
    ("AT", Op::At as i64),
    ("FAILURE", Op::Fail as i64),
    ("SET_LITERAL", SetItem::Literal as i64),
    ("RANGE", SetItem::Range as i64),
    ("CATEGORY", SetItem::Category as i64),
    ("NEGATE", SetItem::Negate as i64),
    ("CATEGORY_DIGIT", Category::Digit as i64),
    ("CATEGORY_NOT_DIGIT", Category::NotDigit as i64),
    ("CATEGORY_SPACE", Category::Space as i64),
    ("CATEGORY_NOT_SPACE", Category::NotSpace as i64),
    ("CATEGORY_WORD", Category::Word as i64),
    ("CATEGORY_NOT_WORD", Category::NotWord as i64),
    ("AT_BEGINNING", At::Beginning as i64),
    ("AT_BEGINNING_STRING", At::BeginningString as i64),
    ("AT_END", At::End as i64),
    ("AT_END_STRING", At::EndString as i64),
    ("AT_BOUNDARY", At::Boundary as i64),
    ("AT_NON_BOUNDARY", At::NonBoundary as i64),
];

/// Python `re` flags the translation reads.
const FLAG_IGNORECASE: i64 = 2;
const FLAG_MULTILINE: i64 = 8;
const FLAG_DOTALL: i64 = 16;
const FLAG_ASCII: i64 = 256;

/// Most patterns one call may compile.
const MAX_PATTERNS: usize = 1_024;
/// Most tree elements a pattern may have.
const MAX_TREE: usize = 64 * 1024;
/// Deepest nesting of groups the translation follows.
const MAX_DEPTH: usize = 200;
/// Size limit of the compiled automaton (bytes).
const SIZE_LIMIT: usize = 1 << 20;
/// Most capture groups a pattern may have: every match builds a span per group, and the
/// engine's per-search state grows with states × groups.
const MAX_GROUPS: u32 = 100;
/// Most NFA states × capture slots: bounds the engine's per-search memory (a few MiB).
const MAX_STATE_SLOTS: usize = 1 << 17;
/// Most character-class ranges a pattern's tree may hold (8 bytes each). The tree is built
/// before the automaton's size limit can refuse it, and a Unicode `\w` alone holds ~770
/// ranges, so `\w` written 5,000 times would build ~30 MiB first. The automaton spends at
/// least one 8-byte transition per range, and ~27 bytes on a Unicode one (50 `\w` exceed
/// [`SIZE_LIMIT`]), so a pattern refused here would not have fitted that limit.
const MAX_CLASS_RANGES: usize = SIZE_LIMIT / 16;
/// The rule every refusal here names.
const RULE: &str = "(rule: re-linear-time)";

// ---------------------------------------------------------------------------------------------
// Character data
// ---------------------------------------------------------------------------------------------

/// `_sre`'s lowercase of a character: the first character of its full lowercase.
fn py_lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// `_sre`'s uppercase of a character: the first character of its full uppercase.
fn py_upper(c: char) -> char {
    c.to_uppercase().next().unwrap_or(c)
}

fn py_is_cased(c: char) -> bool {
    py_lower(c) != c || py_upper(c) != c
}

/// Case data `_sre` derives from the Unicode database, computed once.
struct CaseData {
    /// Characters whose lowercase differs, with it (sorted by character).
    lower_movers: Vec<(char, char)>,
    /// The characters of `lower_movers`.
    lower_mover_set: ClassUnicode,
    /// Characters whose uppercase differs, with it.
    upper_movers: Vec<(char, char)>,
    /// Lowercase → the characters (other than itself) lowering to it.
    lowering_to: BTreeMap<char, Vec<char>>,
    /// CPython's `_casefix`: lowercase letters that share an uppercase with others.
    fixes: BTreeMap<char, Vec<char>>,
    /// Characters `_sre` considers cased.
    cased: ClassUnicode,
}

static CASE: LazyLock<CaseData> = LazyLock::new(|| {
    let mut lower_movers = Vec::new();
    let mut upper_movers = Vec::new();
    let mut lowering_to: BTreeMap<char, Vec<char>> = BTreeMap::new();
    let mut by_upper: BTreeMap<Vec<char>, Vec<char>> = BTreeMap::new();
    let mut cased = Vec::new();
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let lo = py_lower(c);
        let up = py_upper(c);
        if lo != c {
            lower_movers.push((c, lo));
            lowering_to.entry(lo).or_default().push(c);
        }
        if up != c {
            upper_movers.push((c, up));
        }
        if lo != c || up != c {
            cased.push(ClassUnicodeRange::new(c, c));
        }
        // `_casefix`: the lowercase of every character, grouped by its full uppercase (a
        // lowercase that is its own uppercase is skipped, without collecting it).
        let upper = lo.to_uppercase();
        if upper.len() != 1 || upper.clone().next() != Some(lo) {
            let group = by_upper.entry(upper.collect()).or_default();
            if !group.contains(&lo) {
                group.push(lo);
            }
        }
    }
    let mut fixes = BTreeMap::new();
    for group in by_upper.values().filter(|g| g.len() > 1) {
        for &c in group {
            let mut others: Vec<char> = group.iter().copied().filter(|&o| o != c).collect();
            others.sort_unstable();
            fixes.insert(c, others);
        }
    }
    let lower_mover_set = ClassUnicode::new(
        lower_movers
            .iter()
            .map(|&(c, _)| ClassUnicodeRange::new(c, c)),
    );
    CaseData {
        lower_movers,
        lower_mover_set,
        upper_movers,
        lowering_to,
        fixes,
        cased: ClassUnicode::new(cased),
    }
});

fn class_of(pred: impl Fn(char) -> bool) -> ClassUnicode {
    ClassUnicode::new(
        (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| pred(c))
            .map(|c| ClassUnicodeRange::new(c, c)),
    )
}

static UNICODE_DIGIT: LazyLock<ClassUnicode> = LazyLock::new(|| class_of(text::is_decimal));
static UNICODE_SPACE: LazyLock<ClassUnicode> = LazyLock::new(|| class_of(text::is_space));
static UNICODE_WORD: LazyLock<ClassUnicode> =
    LazyLock::new(|| class_of(|c| c == '_' || text::is_alnum(c)));
/// Characters whose word-ness differs between Python and the engine's `\b`.
static WORD_DIVERGENCE: LazyLock<ClassUnicode> = LazyLock::new(|| {
    let engine = match regex_syntax::parse(r"\w").map(|h| h.into_kind()) {
        Ok(HirKind::Class(Class::Unicode(c))) => c,
        // The engine's own syntax: `\w` is always a Unicode class.
        _ => ClassUnicode::empty(),
    };
    let mut d = UNICODE_WORD.clone();
    d.symmetric_difference(&engine);
    d
});

fn ascii_class(ranges: &[(char, char)]) -> ClassUnicode {
    ClassUnicode::new(ranges.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b)))
}

fn contains(class: &ClassUnicode, c: char) -> bool {
    class
        .ranges()
        .binary_search_by(|r| {
            if r.end() < c {
                std::cmp::Ordering::Less
            } else if r.start() > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn single(c: char) -> ClassUnicode {
    ClassUnicode::new([ClassUnicodeRange::new(c, c)])
}

fn negated(mut c: ClassUnicode) -> ClassUnicode {
    c.negate();
    c
}

fn union(mut a: ClassUnicode, b: &ClassUnicode) -> ClassUnicode {
    a.union(b);
    a
}

// ---------------------------------------------------------------------------------------------
// Tree → HIR
// ---------------------------------------------------------------------------------------------

/// Which regex a translation builds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Variant {
    /// `search`/`match`/iteration: a final `$` may match before a final newline.
    Search,
    /// `fullmatch`: the match must end at the end, so `$` is `\z`.
    Full,
}

struct Translator<'a> {
    codes: &'a [i64],
    at: usize,
    variant: Variant,
    /// Translating for an empty text: `\B` fails there, as in `_sre`.
    empty_text: bool,
    /// Capture index of the next hidden group (after all of Python's).
    next_hidden: u32,
    hidden: Vec<u32>,
    /// A `$` without MULTILINE that more pattern follows.
    inner_dollar: bool,
    unicode_boundary: bool,
    non_boundary: bool,
    /// The pattern may prefer an empty match where a longer one exists.
    prefers_empty: bool,
    /// Work spent building case-insensitive sets (charged).
    case_work: u64,
    /// Ranges held by the character classes built so far.
    class_ranges: usize,
}

type Tx<T> = Result<T, String>;

impl Translator<'_> {
    fn next(&mut self) -> Tx<i64> {
        let v = self
            .codes
            .get(self.at)
            .copied()
            .ok_or_else(|| "truncated pattern tree".to_owned())?;
        self.at += 1;
        Ok(v)
    }

    fn next_char(&mut self) -> Tx<char> {
        let v = self.next()?;
        u32::try_from(v)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| format!("character code {v} is not a character the PVM's re can match"))
    }

    fn count(&mut self) -> Tx<usize> {
        usize::try_from(self.next()?).map_err(|_| "negative count in pattern tree".to_owned())
    }

    fn expect(&mut self, op: Op) -> Tx<()> {
        if self.next()? == op as i64 {
            Ok(())
        } else {
            Err(format!("malformed pattern tree: expected {op:?}"))
        }
    }

    /// `SEQ n node*`; `terminal`: nothing in the pattern can follow this sequence.
    fn seq(&mut self, flags: i64, terminal: bool, depth: usize) -> Tx<Hir> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "the pattern nests groups more than {MAX_DEPTH} deep {RULE}"
            ));
        }
        self.expect(Op::Seq)?;
        let n = self.count()?;
        let mut items = Vec::with_capacity(n.min(1024));
        for i in 0..n {
            items.push(self.node(flags, terminal && i + 1 == n, depth)?);
        }
        Ok(Hir::concat(items))
    }

    fn node(&mut self, flags: i64, terminal: bool, depth: usize) -> Tx<Hir> {
        let op = self.next()?;
        let hir = match op {
            x if x == Op::Literal as i64 => {
                let c = self.next_char()?;
                Hir::class(Class::Unicode(self.literal_set(c, flags)))
            }
            x if x == Op::NotLiteral as i64 => {
                let c = self.next_char()?;
                Hir::class(Class::Unicode(negated(self.literal_set(c, flags))))
            }
            x if x == Op::Any as i64 => {
                let all = ClassUnicode::new([ClassUnicodeRange::new('\0', char::MAX)]);
                let mut set = all;
                if flags & FLAG_DOTALL == 0 {
                    set.difference(&single('\n'));
                }
                Hir::class(Class::Unicode(set))
            }
            x if x == Op::In as i64 => Hir::class(Class::Unicode(self.set(flags)?)),
            x if x == Op::Branch as i64 => {
                let n = self.count()?;
                let mut alts = Vec::with_capacity(n.min(1024));
                let mut nullable_seen = false;
                for _ in 0..n {
                    let alt = self.seq(flags, terminal, depth + 1)?;
                    let props = alt.properties();
                    if nullable_seen && props.maximum_len() != Some(0) {
                        self.prefers_empty = true;
                    }
                    if props.minimum_len() == Some(0) {
                        nullable_seen = true;
                    }
                    alts.push(alt);
                }
                Hir::alternation(alts)
            }
            x if x == Op::Group as i64 => {
                let index = self.next()?;
                let add = self.next()?;
                let del = self.next()?;
                // `_compiler._combine_flags`: a scoped `(?a:`, `(?u:` or `(?L:` replaces the
                // others of its kind.
                const TYPE_FLAGS: i64 = FLAG_ASCII | 4 | 32;
                let base = if add & TYPE_FLAGS != 0 {
                    flags & !TYPE_FLAGS
                } else {
                    flags
                };
                let inner = self.seq((base | add) & !del, terminal, depth + 1)?;
                if index == 0 {
                    inner
                } else {
                    let index = u32::try_from(index).map_err(|_| "bad group index".to_owned())?;
                    Hir::capture(Capture {
                        index,
                        name: None,
                        sub: Box::new(inner),
                    })
                }
            }
            x if x == Op::Repeat as i64 => {
                let min = u32::try_from(self.next()?).map_err(|_| "bad repeat".to_owned())?;
                let max = self.next()?;
                let max = if max < 0 {
                    None
                } else {
                    Some(u32::try_from(max).map_err(|_| "bad repeat".to_owned())?)
                };
                let greedy = self.next()? != 0;
                let body = self.seq(flags, terminal && max == Some(1), depth + 1)?;
                if !greedy && max != Some(min) && body.properties().maximum_len() != Some(0) {
                    self.prefers_empty = true;
                }
                // `_sre`'s MAX_UNTIL/MIN_UNTIL refuse an optional iteration where the previous
                // optional one matched empty, and it keeps the groups of the last iteration run
                // (`(\w*)+` leaves group 1 empty, `(|a){0,2}b` on "ab" sets group 1 to (1, 1)).
                // A Thompson automaton has no such memory, so its groups differ once two
                // optional iterations can follow each other; one optional iteration
                // (`(a?)?`, `(a|b?){1,2}`) behaves the same in both.
                let optional_iterations = max.map(|max| max.saturating_sub(min));
                if optional_iterations.is_none_or(|n| n >= 2)
                    && body.properties().minimum_len() == Some(0)
                    && body.properties().explicit_captures_len() > 0
                {
                    return Err(format!(
                        "a repetition of a group that can match empty text, with two or more optional iterations (`(\\w*)+`, `(a|b?)*`, `(|a){{0,2}}`), sets its groups by backtracking; make the group match at least one character, or allow at most one optional iteration {RULE}"
                    ));
                }
                Hir::repetition(Repetition {
                    min,
                    max,
                    greedy,
                    sub: Box::new(body),
                })
            }
            x if x == Op::At as i64 => self.assertion(flags, terminal)?,
            x if x == Op::Fail as i64 => Hir::fail(),
            other => return Err(format!("malformed pattern tree: unknown node {other}")),
        };
        if let HirKind::Class(Class::Unicode(class)) = hir.kind() {
            self.class_ranges += class.ranges().len();
            if self.class_ranges > MAX_CLASS_RANGES {
                return Err(format!(
                    "the pattern's character classes hold more than {MAX_CLASS_RANGES} ranges, too large for the PVM's linear-time engine; Unicode classes such as \\w hold hundreds each, so match a repeated class with a quantifier (`\\w{{5}}` is one class) or use re.ASCII {RULE}"
                ));
            }
        }
        Ok(hir)
    }

    fn assertion(&mut self, flags: i64, terminal: bool) -> Tx<Hir> {
        let code = self.next()?;
        let multiline = flags & FLAG_MULTILINE != 0;
        let ascii = flags & FLAG_ASCII != 0;
        Ok(match code {
            x if x == At::Beginning as i64 => Hir::look(if multiline {
                Look::StartLF
            } else {
                Look::Start
            }),
            x if x == At::BeginningString as i64 => Hir::look(Look::Start),
            x if x == At::EndString as i64 => Hir::look(Look::End),
            x if x == At::End as i64 => {
                if multiline {
                    Hir::look(Look::EndLF)
                } else if self.variant == Variant::Full {
                    Hir::look(Look::End)
                } else if terminal {
                    // `\z|(\n)\z`: the hidden group tells a match that ended before the final
                    // newline.
                    let index = self.next_hidden;
                    self.next_hidden += 1;
                    self.hidden.push(index);
                    Hir::alternation(vec![
                        Hir::look(Look::End),
                        Hir::concat(vec![
                            Hir::capture(Capture {
                                index,
                                name: None,
                                sub: Box::new(Hir::class(Class::Unicode(single('\n')))),
                            }),
                            Hir::look(Look::End),
                        ]),
                    ])
                } else {
                    self.inner_dollar = true;
                    Hir::look(Look::End)
                }
            }
            x if x == At::Boundary as i64 => {
                if !ascii {
                    self.unicode_boundary = true;
                }
                Hir::look(if ascii {
                    Look::WordAscii
                } else {
                    Look::WordUnicode
                })
            }
            x if x == At::NonBoundary as i64 => {
                self.non_boundary = true;
                if !ascii {
                    self.unicode_boundary = true;
                }
                if self.empty_text {
                    Hir::fail()
                } else {
                    Hir::look(if ascii {
                        Look::WordAsciiNegate
                    } else {
                        Look::WordUnicodeNegate
                    })
                }
            }
            other => return Err(format!("malformed pattern tree: unknown assertion {other}")),
        })
    }

    /// `\d`, `\s`, `\w` and their negations: ASCII's ranges, or Python's Unicode sets.
    fn category(code: i64, ascii: bool) -> Tx<ClassUnicode> {
        const DIGIT: &[(char, char)] = &[('0', '9')];
        const SPACE: &[(char, char)] = &[('\t', '\r'), (' ', ' ')];
        const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
        let (ascii_set, unicode_set, negate): (_, &ClassUnicode, _) = match code {
            x if x == Category::Digit as i64 => (DIGIT, &UNICODE_DIGIT, false),
            x if x == Category::NotDigit as i64 => (DIGIT, &UNICODE_DIGIT, true),
            x if x == Category::Space as i64 => (SPACE, &UNICODE_SPACE, false),
            x if x == Category::NotSpace as i64 => (SPACE, &UNICODE_SPACE, true),
            x if x == Category::Word as i64 => (WORD, &UNICODE_WORD, false),
            x if x == Category::NotWord as i64 => (WORD, &UNICODE_WORD, true),
            other => return Err(format!("malformed pattern tree: unknown category {other}")),
        };
        let set = if ascii {
            ascii_class(ascii_set)
        } else {
            unicode_set.clone()
        };
        Ok(if negate { negated(set) } else { set })
    }

    /// What a literal matches (`LITERAL`, `LITERAL_UNI_IGNORE`, or `IN_UNI_IGNORE` with
    /// `_casefix`'s equivalents).
    fn literal_set(&mut self, c: char, flags: i64) -> ClassUnicode {
        if flags & FLAG_IGNORECASE == 0 {
            return single(c);
        }
        if flags & FLAG_ASCII != 0 {
            return if c.is_ascii_alphabetic() {
                ascii_class(&[
                    (c.to_ascii_lowercase(), c.to_ascii_lowercase()),
                    (c.to_ascii_uppercase(), c.to_ascii_uppercase()),
                ])
            } else {
                single(c)
            };
        }
        if !py_is_cased(c) {
            return single(c);
        }
        self.case_work += 1;
        let case = &*CASE;
        let lo = py_lower(c);
        let mut targets = vec![lo];
        if let Some(more) = case.fixes.get(&lo) {
            targets.extend(more);
        }
        let mut out = Vec::new();
        for t in targets {
            if py_lower(t) == t {
                out.push(ClassUnicodeRange::new(t, t));
            }
            for &m in case.lowering_to.get(&t).into_iter().flatten() {
                out.push(ClassUnicodeRange::new(m, m));
            }
        }
        ClassUnicode::new(out)
    }

    /// `IN n item*`, as `_optimize_charset` and the `IN`/`IN_IGNORE`/`IN_UNI_IGNORE` opcodes
    /// read it.
    fn set(&mut self, flags: i64) -> Tx<ClassUnicode> {
        let n = self.count()?;
        let ascii = flags & FLAG_ASCII != 0;
        let ignore = flags & FLAG_IGNORECASE != 0;
        let mut negate = false;
        // The set a (lowered, when ignoring case) character is tested against.
        let mut tested = ClassUnicode::empty();
        let mut has_cased = false;
        let mut lowered_ranges: Vec<(char, char)> = Vec::new();
        let mut uppercase_ranges: Vec<(char, char)> = Vec::new();
        for _ in 0..n {
            let kind = self.next()?;
            match kind {
                x if x == SetItem::Literal as i64 => {
                    let c = self.next_char()?;
                    if !ignore {
                        tested.union(&single(c));
                    } else if ascii {
                        tested.union(&single(c.to_ascii_lowercase()));
                        has_cased |= c.is_ascii_alphabetic();
                    } else if (py_lower(c) as u32) < 0x10000 {
                        let lo = py_lower(c);
                        tested.union(&single(lo));
                        for &k in CASE.fixes.get(&lo).into_iter().flatten() {
                            tested.union(&single(k));
                        }
                        has_cased |= py_is_cased(c);
                    } else {
                        // Beyond the BMP `_sre` keeps the literal as written.
                        tested.union(&single(c));
                        has_cased = true;
                    }
                }
                x if x == SetItem::Range as i64 => {
                    let a = self.next_char()?;
                    let b = self.next_char()?;
                    if a > b {
                        return Err("malformed pattern tree: reversed range".to_owned());
                    }
                    if !ignore {
                        tested.union(&ClassUnicode::new([ClassUnicodeRange::new(a, b)]));
                    } else {
                        if !ascii {
                            self.case_work += 10;
                        }
                        let bmp_end = b.min('\u{ffff}');
                        if a <= bmp_end {
                            lowered_ranges.push((a, bmp_end));
                        }
                        if b > '\u{ffff}' {
                            // `RANGE_UNI_IGNORE`, whose uppercase is Unicode's even under
                            // re.ASCII.
                            uppercase_ranges.push((a, b));
                            has_cased = true;
                        } else {
                            let mut r = ClassUnicode::new([ClassUnicodeRange::new(a, b)]);
                            if ascii {
                                r.intersect(&ascii_class(&[('A', 'Z'), ('a', 'z')]));
                            } else {
                                r.intersect(&CASE.cased);
                            }
                            has_cased |= !r.ranges().is_empty();
                        }
                    }
                }
                x if x == SetItem::Category as i64 => {
                    let code = self.next()?;
                    tested.union(&Self::category(code, ascii)?);
                }
                x if x == SetItem::Negate as i64 => negate = true,
                other => return Err(format!("malformed pattern tree: unknown set item {other}")),
            }
        }
        // Ranges lowered item by item (with `_casefix`'s equivalents).
        for (a, b) in lowered_ranges {
            let range = ClassUnicode::new([ClassUnicodeRange::new(a, b)]);
            if ascii {
                let mut lowered = range.clone();
                let mut upper = range;
                upper.intersect(&ascii_class(&[('A', 'Z')]));
                lowered.difference(&upper);
                for r in upper.ranges() {
                    lowered.union(&ascii_class(&[(
                        r.start().to_ascii_lowercase(),
                        r.end().to_ascii_lowercase(),
                    )]));
                }
                tested.union(&lowered);
                continue;
            }
            let case = &*CASE;
            let mut lowered = range;
            lowered.difference(&case.lower_mover_set);
            let movers = case
                .lower_movers
                .iter()
                .filter(|&&(c, _)| a <= c && c <= b)
                .map(|&(_, lo)| ClassUnicodeRange::new(lo, lo));
            lowered.union(&ClassUnicode::new(movers));
            let fixes: Vec<ClassUnicodeRange> = case
                .fixes
                .iter()
                .filter(|(k, _)| contains(&lowered, **k))
                .flat_map(|(_, v)| v.iter().map(|&c| ClassUnicodeRange::new(c, c)))
                .collect();
            lowered.union(&ClassUnicode::new(fixes));
            tested.union(&lowered);
        }
        // `RANGE_UNI_IGNORE`: the lowered character, or its uppercase, in the range.
        for (a, b) in uppercase_ranges {
            tested.union(&ClassUnicode::new([ClassUnicodeRange::new(a, b)]));
            let via_upper = CASE
                .upper_movers
                .iter()
                .filter(|&&(_, up)| a <= up && up <= b)
                .map(|&(c, _)| ClassUnicodeRange::new(c, c));
            tested.union(&ClassUnicode::new(via_upper));
        }
        let matched = if ignore && has_cased {
            // A character matches when its lowercase is in `tested`: `tested` less the
            // characters whose lowercase differs, plus those whose lowercase is in it.
            let mut m = tested.clone();
            let hits: Vec<ClassUnicodeRange> = if ascii {
                m.difference(&ascii_class(&[('A', 'Z')]));
                ('A'..='Z')
                    .filter(|c| contains(&tested, c.to_ascii_lowercase()))
                    .map(|c| ClassUnicodeRange::new(c, c))
                    .collect()
            } else {
                // Walking the difference and the movers is ~1,400 steps whatever the set.
                self.case_work += 1;
                let case = &*CASE;
                m.difference(&case.lower_mover_set);
                let size: usize = tested
                    .ranges()
                    .iter()
                    .map(|r| r.end() as usize - r.start() as usize + 1)
                    .sum();
                if size <= case.lower_movers.len() {
                    tested
                        .iter()
                        .flat_map(|r| r.start()..=r.end())
                        .flat_map(|lo| case.lowering_to.get(&lo).into_iter().flatten())
                        .map(|&c| ClassUnicodeRange::new(c, c))
                        .collect()
                } else {
                    case.lower_movers
                        .iter()
                        .filter(|&&(_, lo)| contains(&tested, lo))
                        .map(|&(c, _)| ClassUnicodeRange::new(c, c))
                        .collect()
                }
            };
            union(m, &ClassUnicode::new(hits))
        } else {
            tested
        };
        Ok(if negate { negated(matched) } else { matched })
    }
}

/// A translated pattern and what its searches must know.
struct Translation {
    hir: Hir,
    hidden: Vec<u32>,
    inner_dollar: bool,
    unicode_boundary: bool,
    non_boundary: bool,
    prefers_empty: bool,
    case_work: u64,
}

fn translate(
    codes: &[i64],
    flags: i64,
    groups: u32,
    variant: Variant,
    empty_text: bool,
) -> Tx<Translation> {
    let mut t = Translator {
        codes,
        at: 0,
        variant,
        empty_text,
        next_hidden: groups + 1,
        hidden: Vec::new(),
        inner_dollar: false,
        unicode_boundary: false,
        non_boundary: false,
        prefers_empty: false,
        case_work: 0,
        class_ranges: 0,
    };
    let hir = t.seq(flags, true, 0)?;
    if t.at != codes.len() {
        return Err("malformed pattern tree: trailing elements".to_owned());
    }
    Ok(Translation {
        hir,
        hidden: t.hidden,
        inner_dollar: t.inner_dollar,
        unicode_boundary: t.unicode_boundary,
        non_boundary: t.non_boundary,
        prefers_empty: t.prefers_empty,
        case_work: t.case_work,
    })
}

fn build(hir: &Hir) -> Result<Automata, String> {
    Automata::build(hir, SIZE_LIMIT, MAX_STATE_SLOTS).map_err(|e| {
        format!(
            "the pattern is too large for the PVM's linear-time engine ({e}); large counted repetitions multiply its size {RULE}"
        )
    })
}

/// Cycles a compilation costs beyond the call: its tree, the case-insensitive sets it built,
/// and its automaton.
fn compile_cycles(codes: usize, case_work: u64, states: usize) -> u64 {
    codes as u64 * 10 + case_work * 100 + states as u64
}

// ---------------------------------------------------------------------------------------------
// Compiled patterns
// ---------------------------------------------------------------------------------------------

/// A compiled pattern: one the current call compiled, or one the library compiled when the
/// interpreter started (see [`LIBRARY_HANDLE`]).
struct Compiled {
    codes: Vec<i64>,
    flags: i64,
    groups: u32,
    hidden: Vec<u32>,
    inner_dollar: bool,
    unicode_boundary: bool,
    non_boundary: bool,
    /// May match empty text, and may prefer that to a longer match.
    empty_hazard: bool,
    /// The case-insensitive work its translation does (see [`compile_cycles`]).
    case_work: u64,
    /// The regexes searches run, by [`Compiled::slot`]: `search`, `fullmatch`, and both for
    /// an empty text (built when first needed), each with the cache its searches reuse.
    variants: [Option<(Automata, Option<Caches>)>; 4],
}

impl Compiled {
    fn slot(full: bool, empty_text: bool) -> usize {
        usize::from(full) + 2 * usize::from(empty_text)
    }

    /// A copy for one call: the automata built so far (shared, immutable), no search caches.
    fn copy_for_call(&self) -> Self {
        Self {
            codes: self.codes.clone(),
            flags: self.flags,
            groups: self.groups,
            hidden: self.hidden.clone(),
            inner_dollar: self.inner_dollar,
            unicode_boundary: self.unicode_boundary,
            non_boundary: self.non_boundary,
            empty_hazard: self.empty_hazard,
            case_work: self.case_work,
            variants: self
                .variants
                .each_ref()
                .map(|v| v.as_ref().map(|(automata, _)| (automata.clone(), None))),
        }
    }
}

/// Handles of library patterns start here; a call's own handles are indices below it.
///
/// `string.Template.pattern` is compiled by the library while the interpreter starts and is
/// searched by every call. A search keeps caches, and builds variants of the automaton on
/// first need, in the pattern it searches: done in a shared pattern, that work would be paid
/// by the first call that needed it and found ready by later ones (a cost that depends on the
/// node's history). So a call searches its own copy of a library pattern, made on first use
/// and dropped with the call's patterns.
const LIBRARY_HANDLE: usize = 1 << 40;

thread_local! {
    /// Patterns compiled during the current call, by handle.
    static PATTERNS: RefCell<Vec<Compiled>> = const { RefCell::new(Vec::new()) };
    /// Patterns the current interpreter's library compiled before any call, by handle less
    /// [`LIBRARY_HANDLE`]; never searched directly.
    static LIBRARY_PATTERNS: RefCell<Vec<Compiled>> = const { RefCell::new(Vec::new()) };
    /// The call's copies of library patterns: `(library index, call handle)`.
    static LIBRARY_COPIES: RefCell<Vec<(usize, usize)>> = const { RefCell::new(Vec::new()) };
    static REGEX_ERROR: RefCell<Option<PyTypeRef>> = const { RefCell::new(None) };
}

/// Drops the patterns compiled during a call (handles never outlive the call that made them:
/// actor modules are re-executed for every call), and the call's copies of library patterns.
pub fn clear_patterns() {
    // Fresh vectors: one that kept its capacity would let a later call skip the allocation
    // an earlier call was charged memory for.
    PATTERNS.with(|p| *p.borrow_mut() = Vec::new());
    LIBRARY_COPIES.with(|c| *c.borrow_mut() = Vec::new());
}

/// Drops the library patterns of a retired interpreter (a new one compiles its own).
pub fn forget_library_patterns() {
    clear_patterns();
    LIBRARY_PATTERNS.with(|p| *p.borrow_mut() = Vec::new());
}

/// The call's handle for `handle`: itself for a pattern the call compiled, the call's copy
/// (made now if need be) for a library pattern.
fn call_handle(handle: usize, vm: &VirtualMachine) -> PyResult<usize> {
    let Some(index) = handle.checked_sub(LIBRARY_HANDLE) else {
        return Ok(handle);
    };
    if let Some(copy) = LIBRARY_COPIES.with(|c| {
        c.borrow()
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, copy)| *copy)
    }) {
        return Ok(copy);
    }
    let copy = LIBRARY_PATTERNS
        .with(|l| l.borrow().get(index).map(Compiled::copy_for_call))
        .ok_or_else(|| regex_error("pattern handle is no longer valid".into(), vm))?;
    let handle = PATTERNS.with(|ps| {
        let mut ps = ps.borrow_mut();
        ps.push(copy);
        ps.len() - 1
    });
    LIBRARY_COPIES.with(|c| c.borrow_mut().push((index, handle)));
    Ok(handle)
}

/// Builds the character tables before any call runs (the library preload calls this), so no
/// call is charged the memory of building them and a fresh node behaves as a warm one.
pub fn warm_tables() {
    LazyLock::force(&CASE);
    LazyLock::force(&UNICODE_DIGIT);
    LazyLock::force(&UNICODE_SPACE);
    LazyLock::force(&UNICODE_WORD);
    LazyLock::force(&WORD_DIVERGENCE);
}

fn regex_error(msg: String, vm: &VirtualMachine) -> PyBaseExceptionRef {
    let ty = REGEX_ERROR
        .with(|t| t.borrow().clone())
        .unwrap_or_else(|| vm.ctx.exceptions.value_error.to_owned());
    vm.new_exception_msg(ty, msg.into())
}

fn rx_compile(tree: PyListRef, flags: i64, groups: u32, vm: &VirtualMachine) -> PyResult<usize> {
    let items = tree.borrow_vec().to_vec();
    if items.len() > MAX_TREE {
        return Err(regex_error(
            format!("the pattern has more than {MAX_TREE} elements {RULE}"),
            vm,
        ));
    }
    let codes = items
        .iter()
        .map(|o| o.try_to_value::<i64>(vm))
        .collect::<PyResult<Vec<i64>>>()?;
    // A pattern this call compiled already is reused (`re.match(p, s)` in a loop compiles
    // `p` once, as CPython's cache does); the charge is a call.
    let cached = PATTERNS.with(|ps| {
        ps.borrow()
            .iter()
            .position(|c| c.flags == flags && c.codes == codes)
    });
    if let Some(handle) = cached {
        charge(cycles::CALL, vm)?;
        return Ok(handle);
    }
    charge(cycles::CALL + codes.len() as u64 * 10, vm)?;
    if groups > MAX_GROUPS {
        return Err(regex_error(
            format!(
                "the pattern has {groups} groups; the PVM's re allows at most {MAX_GROUPS} {RULE}"
            ),
            vm,
        ));
    }
    let t =
        translate(&codes, flags, groups, Variant::Search, false).map_err(|e| regex_error(e, vm))?;
    charge(t.case_work * 100, vm)?;
    let built = build(&t.hir).map_err(|e| regex_error(e, vm))?;
    charge(built.states() as u64, vm)?;
    let empty_hazard = t.prefers_empty && t.hir.properties().minimum_len() == Some(0);
    let compiled = Compiled {
        codes,
        flags,
        groups,
        hidden: t.hidden,
        inner_dollar: t.inner_dollar,
        unicode_boundary: t.unicode_boundary,
        non_boundary: t.non_boundary,
        empty_hazard,
        case_work: t.case_work,
        variants: [Some((built, None)), None, None, None],
    };
    if !crate::meter::active() {
        // The library, while the interpreter starts (no call, nothing metered).
        return Ok(LIBRARY_PATTERNS.with(|ps| {
            let mut ps = ps.borrow_mut();
            ps.push(compiled);
            LIBRARY_HANDLE + ps.len() - 1
        }));
    }
    PATTERNS.with(|ps| {
        let mut ps = ps.borrow_mut();
        if ps.len() >= MAX_PATTERNS {
            return Err(regex_error(
                format!("a call may compile at most {MAX_PATTERNS} patterns"),
                vm,
            ));
        }
        ps.push(compiled);
        Ok(ps.len() - 1)
    })
}

/// Byte offsets of a text to Python's character offsets, in one pass however many are asked.
struct CharOffsets<'a> {
    text: &'a str,
    ascii: bool,
    /// `(byte, char)` of the last conversion: offsets asked roughly in order (as matches are
    /// found) cost about one pass over the text in all.
    cursor: std::cell::Cell<(usize, usize)>,
}

impl<'a> CharOffsets<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            ascii: text.is_ascii(),
            cursor: std::cell::Cell::new((0, 0)),
        }
    }

    fn of(&self, byte: usize) -> i64 {
        if self.ascii {
            return byte as i64;
        }
        let (at_byte, at_char) = self.cursor.get();
        let now = if byte >= at_byte {
            at_char + self.text[at_byte..byte].chars().count()
        } else {
            at_char - self.text[byte..at_byte].chars().count()
        };
        self.cursor.set((byte, now));
        now as i64
    }
}

/// Converts a char index into a byte index of `s`.
fn byte_offset(s: &str, char_index: usize) -> usize {
    s.char_indices().nth(char_index).map_or(s.len(), |(b, _)| b)
}

/// What a search needs of a compiled pattern; its caches go back to the pattern after.
struct Searcher {
    handle: usize,
    slot: usize,
    automata: Automata,
    caches: Caches,
    groups: u32,
    hidden: Vec<u32>,
    empty_hazard: bool,
}

impl Searcher {
    /// Python's groups of what a search found, a hidden-group match moved before the final
    /// newline.
    fn spans(&self, found: &Spans, hay_len: usize) -> Spans {
        let group = |g: usize| found.get(g).copied().flatten();
        let through_hidden = self.hidden.iter().any(|&h| group(h as usize).is_some());
        let fix = |x: usize| {
            if through_hidden && x == hay_len {
                x - 1
            } else {
                x
            }
        };
        (0..=self.groups as usize)
            .map(|g| group(g).map(|(s, e)| (fix(s), fix(e))))
            .collect()
    }

    /// The search of `hay` from `at`, charged through `vm` as it goes (see
    /// [`crate::regex_search`]).
    fn find(
        &mut self,
        hay: &str,
        at: usize,
        anchored: bool,
        vm: &VirtualMachine,
    ) -> PyResult<Option<Spans>> {
        let mut pay = |c| charge(c, vm);
        let mut tab = Tab::new(&mut pay);
        let found = self
            .automata
            .find(&mut self.caches, hay.as_bytes(), at, anchored, &mut tab)?;
        tab.settle()?;
        Ok(found.map(|f| self.spans(&f, hay.len())))
    }

    /// Hands the caches back to the pattern, for its next search.
    fn finish(self) {
        PATTERNS.with(|ps| {
            if let Some(Some((_, cache))) = ps
                .borrow_mut()
                .get_mut(self.handle)
                .map(|c| &mut c.variants[self.slot])
            {
                *cache = Some(self.caches);
            }
        });
    }
}

/// The regex a search of `hay` runs (built and charged on first need), with what the search
/// must check.
fn searcher(handle: usize, hay: &str, full: bool, vm: &VirtualMachine) -> PyResult<Searcher> {
    let handle = call_handle(handle, vm)?;
    let mut build_cost = 0;
    let searcher = PATTERNS.with(|ps| {
        let mut ps = ps.borrow_mut();
        let c = ps
            .get_mut(handle)
            .ok_or_else(|| regex_error("pattern handle is no longer valid".into(), vm))?;
        if c.unicode_boundary
            && let Some(bad) = hay.chars().find(|&ch| contains(&WORD_DIVERGENCE, ch))
        {
            return Err(regex_error(
                format!(
                    "\\b and \\B cannot be decided on text holding {bad:?} (U+{:04X}): Python and the PVM's linear-time engine disagree on whether it is a word character; use re.ASCII, or match the words with \\w+ {RULE}",
                    bad as u32
                ),
                vm,
            ));
        }
        if c.inner_dollar && hay.ends_with('\n') {
            return Err(regex_error(
                format!(
                    "a `$` followed by more pattern cannot be decided on text ending with a newline; use \\Z, or strip the newline first {RULE}"
                ),
                vm,
            ));
        }
        let empty_text = hay.is_empty() && c.non_boundary;
        let slot = Compiled::slot(full, empty_text);
        if c.variants[slot].is_none() {
            // The translation is paid before it runs (its work is known from the first one);
            // the automaton, whose size the variant changes, after it is built.
            charge(compile_cycles(c.codes.len(), c.case_work, 0), vm)?;
            let variant = if full { Variant::Full } else { Variant::Search };
            let mut t = translate(&c.codes, c.flags, c.groups, variant, empty_text)
                .map_err(|e| regex_error(e, vm))?;
            if full {
                t.hir = Hir::concat(vec![t.hir, Hir::look(Look::End)]);
            }
            let built = build(&t.hir).map_err(|e| regex_error(e, vm))?;
            build_cost = built.states() as u64;
            c.variants[slot] = Some((built, None));
        }
        let Some((automata, caches)) = &mut c.variants[slot] else {
            return Err(regex_error("pattern variant missing".into(), vm));
        };
        let captures = c.groups > 0 || (!full && !c.hidden.is_empty());
        let caches = caches.take().unwrap_or_else(|| automata.caches(captures));
        Ok(Searcher {
            handle,
            slot,
            automata: automata.clone(),
            caches,
            groups: c.groups,
            hidden: if full { Vec::new() } else { c.hidden.clone() },
            empty_hazard: c.empty_hazard,
        })
    })?;
    charge(build_cost, vm)?;
    Ok(searcher)
}

fn spans_to_py(offsets: &CharOffsets<'_>, spans: &Spans, vm: &VirtualMachine) -> PyObjectRef {
    let items: Vec<PyObjectRef> = spans
        .iter()
        .map(|s| match s {
            Some((a, b)) => vm.new_tuple((offsets.of(*a), offsets.of(*b))).into(),
            None => vm.new_tuple((-1i64, -1i64)).into(),
        })
        .collect();
    vm.ctx.new_list(items).into()
}

/// What a search of `s[pos:endpos]` (in characters) works on: the text up to `endpos`, the
/// byte it starts at, and the pattern's searcher; charged a call and a cycle per character
/// (the text's offsets). The searches themselves are charged what they read.
fn begin_search<'t>(
    handle: usize,
    s: &'t str,
    pos: usize,
    endpos: usize,
    full: bool,
    vm: &VirtualMachine,
) -> PyResult<(&'t str, usize, Searcher)> {
    charge(
        cycles::CALL + s.chars().count() as u64 * cycles::PER_CHAR,
        vm,
    )?;
    let end = byte_offset(s, endpos);
    let start = byte_offset(s, pos).min(end);
    let hay = &s[..end];
    let searcher = searcher(handle, hay, full, vm)?;
    Ok((hay, start, searcher))
}

/// `search` (mode 0), `match` (1) or `fullmatch` (2) of `text[pos:endpos]`.
fn rx_find(
    handle: usize,
    text: PyUtf8StrRef,
    pos: usize,
    endpos: usize,
    mode: u8,
    vm: &VirtualMachine,
) -> PyResult<PyObjectRef> {
    let s = text.as_str();
    let (hay, start, mut searcher) = begin_search(handle, s, pos, endpos, mode == 2, vm)?;
    let offsets = CharOffsets::new(s);
    let found = searcher.find(hay, start, mode != 0, vm);
    searcher.finish();
    let found = found?;
    Ok(match found {
        Some(spans) => spans_to_py(&offsets, &spans, vm),
        None => vm.ctx.none(),
    })
}

/// Every match of `text[pos:endpos]`, as `finditer` finds them; the first `limit` of them
/// when `limit` is positive (as `sub`'s count and `split`'s maxsplit stop the search).
fn rx_find_all(
    handle: usize,
    text: PyUtf8StrRef,
    pos: usize,
    endpos: usize,
    limit: usize,
    vm: &VirtualMachine,
) -> PyResult<PyListRef> {
    let s = text.as_str();
    let (hay, start, mut searcher) = begin_search(handle, s, pos, endpos, false, vm)?;
    if searcher.empty_hazard {
        // The caches go back to the pattern: a refused iteration must not cost the next one
        // a rebuild of them.
        searcher.finish();
        return Err(regex_error(
            format!(
                "this pattern can match empty text and may prefer that to a longer match (a lazy quantifier such as *? or ??, or an empty first alternative): after an empty match CPython backtracks for a longer one at the same place, which the linear-time engine cannot; put the empty choice last (x* rather than x*?, (b|) rather than (|b)) {RULE}"
            ),
            vm,
        ));
    }
    // Each match costs its list entry and its spans, charged before they are built.
    let per_match = cycles::LIST_APPEND + 2 * (u64::from(searcher.groups) + 1);
    let offsets = CharOffsets::new(s);
    let mut out = Vec::new();
    let mut at = start;
    let mut after_empty = false;
    while at <= hay.len() && (limit == 0 || out.len() < limit) {
        let Some(mut spans) = searcher.find(hay, at, false, vm)? else {
            break;
        };
        let Some((mut m_start, mut m_end)) = spans[0] else {
            break;
        };
        if after_empty && m_start == at && m_end == at {
            // CPython does not take an empty match where the last one ended empty; the
            // pattern prefers no empty match when a longer one exists here (checked above),
            // so the next match starts further on.
            let Some(ch) = hay[at..].chars().next() else {
                break;
            };
            match searcher.find(hay, at + ch.len_utf8(), false, vm)? {
                Some(next) => spans = next,
                None => break,
            }
            let Some((a, b)) = spans[0] else { break };
            (m_start, m_end) = (a, b);
        }
        charge(per_match, vm)?;
        out.push(spans_to_py(&offsets, &spans, vm));
        after_empty = m_start == m_end;
        at = m_end;
    }
    searcher.finish();
    Ok(vm.ctx.new_list(out))
}

/// Builds the `_cowboy_regex` module.
pub fn regex_module(
    vm: &VirtualMachine,
) -> PyResult<rustpython_vm::PyRef<rustpython_vm::builtins::PyModule>> {
    let d = vm.ctx.new_dict();
    let error = vm.ctx.new_exception_type("re", "error", None);
    REGEX_ERROR.with(|t| *t.borrow_mut() = Some(error.clone()));
    d.set_item("error", error.into(), vm)?;
    let codes = vm.ctx.new_dict();
    for (name, code) in CODES {
        codes.set_item(*name, vm.ctx.new_int(*code).into(), vm)?;
    }
    d.set_item("CODES", codes.into(), vm)?;
    crate::natives::add(vm, &d, "compile", rx_compile)?;
    crate::natives::add(vm, &d, "find", rx_find)?;
    crate::natives::add(vm, &d, "find_all", rx_find_all)?;
    Ok(crate::natives::module(vm, "_cowboy_regex", d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::{Anchored, Input, meta};

    fn automata(pattern: &str) -> Automata {
        build(&regex_syntax::parse(pattern).expect("parses")).expect("builds")
    }

    /// The search of `hay` from `at`, and the cycles it was charged.
    fn search(
        a: &Automata,
        caches: &mut Caches,
        hay: &str,
        at: usize,
        anchored: bool,
    ) -> (Option<Spans>, u64) {
        let mut paid = 0;
        let mut pay = |c| {
            paid += c;
            Ok::<(), ()>(())
        };
        let mut tab = Tab::new(&mut pay);
        let found = a
            .find(caches, hay.as_bytes(), at, anchored, &mut tab)
            .expect("free");
        tab.settle().expect("free");
        (found, paid)
    }

    fn matches(codes: &[i64], flags: i64, hay: &str) -> Option<(usize, usize)> {
        let t = translate(codes, flags, 0, Variant::Search, false).expect("translates");
        let a = build(&t.hir).expect("builds");
        let (found, _) = search(&a, &mut a.caches(false), hay, 0, false);
        found.and_then(|spans| spans[0])
    }

    #[test]
    fn searches_find_what_the_library_s_engine_finds() {
        let patterns = [
            r".*[^A-Z]|[A-Z]",
            r"\b\w+\b",
            r"(?-u:\b)\w+",
            r"(a+)|(b)",
            r"(a|ab)(c|bcd)(d*)",
            r"x*",
            r"(\d+)?",
            r"(?m)^(a)$",
            r"[a-c]+?d|e",
            r"a.*b|a",
            r"(?:(ab)|a)*c",
            r"\bfoo\B",
            r"(?s)(.*)\b(.)|é",
            r"((a)|b)+",
            r"(\w+)@(\w+)\.com",
            r"\z|(\n)\z",
        ];
        let texts = [
            "",
            "AAAA",
            "abcd abcbcd",
            "foo food foo",
            "a\nab\na",
            "héllo wörld 12 é",
            "éAéAé x",
            "aaab aab ab b",
            "aéa\n\n",
            "me@host.com, you@élan.com\n",
        ];
        for pattern in patterns {
            let hir = regex_syntax::parse(pattern).expect("parses");
            let a = build(&hir).expect("builds");
            let oracle = meta::Regex::builder().build_from_hir(&hir).expect("builds");
            let (mut with_groups, mut bare) = (a.caches(true), a.caches(false));
            for hay in texts {
                for at in (0..=hay.len()).filter(|&at| hay.is_char_boundary(at)) {
                    for anchored in [false, true] {
                        let mut caps = oracle.create_captures();
                        let input = Input::new(hay).range(at..).anchored(if anchored {
                            Anchored::Yes
                        } else {
                            Anchored::No
                        });
                        oracle.search_captures(&input, &mut caps);
                        let want = caps.is_match().then(|| {
                            (0..caps.group_len())
                                .map(|g| caps.get_group(g).map(|s| (s.start, s.end)))
                                .collect::<Spans>()
                        });
                        let case = format!("{pattern:?} on {hay:?} from {at}, anchored {anchored}");
                        let (got, _) = search(&a, &mut with_groups, hay, at, anchored);
                        assert_eq!(got, want, "{case}");
                        let (found, _) = search(&a, &mut bare, hay, at, anchored);
                        assert_eq!(
                            found.map(|s| s[0]),
                            want.as_ref().map(|s| s[0]),
                            "{case}, without groups"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn no_assertion_holds_inside_a_character() {
        // CPython: re.search(r'(?a)\B', 'aéa\n\n').span() == (4, 4), between the newlines
        // (byte 5); the bytes of `é` are not positions.
        let a = automata(r"(?-u:\B)");
        let (found, _) = search(&a, &mut a.caches(true), "aéa\n\n", 0, false);
        assert_eq!(found, Some(vec![Some((5, 5))]));
        // From the start of `é` in `aé`: not inside `é` (byte 2), but at the end (byte 3).
        let (found, _) = search(&a, &mut a.caches(true), "aé", 1, false);
        assert_eq!(found, Some(vec![Some((3, 3))]));
    }

    #[test]
    fn a_search_pays_for_every_thread_it_follows() {
        // `.*` keeps a thread alive to the end of the text whatever matched first: the
        // search reads on to the end, paying for each thread at each byte.
        let a = automata(r".*[^A-Z]|[A-Z]");
        let mut caches = a.caches(false);
        let text = "A".repeat(5000);
        let (found, paid) = search(&a, &mut caches, &text, 0, false);
        assert_eq!(found, Some(vec![Some((0, 1))]));
        assert!((5000..20_000).contains(&paid), "{paid}");
        let (_, from_4000) = search(&a, &mut caches, &text, 4000, false);
        assert!(
            (from_4000 * 5).abs_diff(paid) < 100,
            "the same walk, a fifth as long: {from_4000} and {paid}"
        );
        // A search stops when no thread is left: a word is read to its end, and one byte
        // more.
        let a = automata(r"\b\w+\b");
        let (_, short) = search(&a, &mut a.caches(false), "ab cd", 0, false);
        let (_, long) = search(
            &a,
            &mut a.caches(false),
            &format!("ab {}", "c".repeat(5000)),
            0,
            false,
        );
        assert_eq!(short, long);
        // The threads alive, not the automaton's size, set the price: `\w` is hundreds of
        // states (Unicode), of which a word keeps a few alive.
        assert!(a.states() > 300, "{}", a.states());
        let (_, word) = search(&a, &mut a.caches(false), &"w".repeat(1000), 0, false);
        assert!(word < 10 * 1000, "{word}");
        // Groups are copied with their thread.
        let a = automata(r"(\w)(\w)(\w)(\w)(\w)(\w)(\w)(\w)(\w)+");
        let (_, without) = search(&a, &mut a.caches(false), &"w".repeat(1000), 0, false);
        let (_, with) = search(&a, &mut a.caches(true), &"w".repeat(1000), 0, false);
        assert!(with > without, "{with} {without}");
    }

    #[test]
    fn a_unicode_word_boundary_costs_more_than_an_ascii_one() {
        // It decodes the characters on both sides and looks them up in the word table.
        let text = "\u{1d400}".repeat(300);
        let (_, unicode) = search(
            &automata(r"\Bx"),
            &mut automata(r"\Bx").caches(false),
            &text,
            0,
            false,
        );
        let ascii_automata = automata(r"(?-u:\B)x");
        let (_, ascii) = search(
            &ascii_automata,
            &mut ascii_automata.caches(false),
            &text,
            0,
            false,
        );
        // 8 more steps at each of the 301 positions, 3 steps a cycle.
        assert!(unicode >= ascii + 301 * 8 / 3, "{unicode} {ascii}");
    }

    const LIT: i64 = Op::Literal as i64;
    const SEQ: i64 = Op::Seq as i64;

    #[test]
    fn ignorecase_follows_sre_lowercase_and_casefix() {
        let i = FLAG_IGNORECASE;
        // `i` matches `İ` (lowercase `i`) and `ı` (shares the uppercase `I`).
        assert!(matches(&[SEQ, 1, LIT, 'i' as i64], i, "\u{130}").is_some());
        assert!(matches(&[SEQ, 1, LIT, 'i' as i64], i, "\u{131}").is_some());
        // `ß` is not cased for `_sre` unless its uppercase is asked: `ẞ` lowers to it.
        assert!(matches(&[SEQ, 1, LIT, 0x1E9E], i, "ß").is_some());
        // ASCII: no folding beyond ASCII.
        assert!(matches(&[SEQ, 1, LIT, 's' as i64], i | FLAG_ASCII, "\u{17f}").is_none());
        assert!(matches(&[SEQ, 1, LIT, 's' as i64], i, "\u{17f}").is_some());
    }

    #[test]
    fn casefix_matches_cpython_s_table_size() {
        // CPython 3.11's `re._casefix._EXTRA_CASES` has 50 entries for Unicode 14; later
        // Unicode versions only add.
        assert!(CASE.fixes.len() >= 50, "{}", CASE.fixes.len());
        assert_eq!(CASE.fixes.get(&'s'), Some(&vec!['\u{17f}']));
        assert_eq!(CASE.fixes.get(&'i'), Some(&vec!['\u{131}']));
        assert_eq!(CASE.fixes.get(&'\u{3b8}'), Some(&vec!['\u{3d1}']));
    }

    #[test]
    fn categories_are_python_s() {
        let cat = Op::In as i64;
        let space = [
            SEQ,
            1,
            cat,
            1,
            SetItem::Category as i64,
            Category::Space as i64,
        ];
        assert!(matches(&space, 0, "\u{1c}").is_some());
        assert!(matches(&space, FLAG_ASCII, "\u{1c}").is_none());
    }

    #[test]
    fn malformed_trees_are_errors_not_panics() {
        for codes in [
            vec![],
            vec![SEQ],
            vec![SEQ, 1],
            vec![SEQ, 1, 99],
            vec![SEQ, 1, LIT, -1],
            vec![SEQ, 1, LIT, 0xD800],
            vec![SEQ, -3],
            vec![SEQ, 0, 0],
        ] {
            assert!(
                translate(&codes, 0, 0, Variant::Search, false).is_err(),
                "{codes:?}"
            );
        }
    }
}
