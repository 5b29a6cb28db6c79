"""re for actors: CPython's regular expressions, matched in guaranteed linear time.

Actors that ``import re`` get this module. Patterns are parsed by CPython's own parser
(``re._parser``), so syntax errors, their messages and positions, group numbers and names are
CPython's. Matching runs on a finite-automaton engine (``_cowboy_regex``, on the Rust
``regex-automata`` crate) that reproduces ``_sre``'s character classes, case folding and
anchors; no pattern can take more than linear time: ``(a*)*b`` against a long run of ``a`` is
as fast as any other search. Constructs that need backtracking are refused when compiled, by
the rule ``re-linear-time``: look-around, backreferences, conditional groups, atomic groups
and possessive quantifiers. Compiling costs 10 cycles per element of the parsed pattern;
every search costs one cycle per character of the text searched.
"""

import _cowboy_regex as _rx
import operator as _operator
from re import _parser, _constants
from types import MappingProxyType as _MappingProxyType

__all__ = [
    "compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn",
    "split", "escape", "purge", "error", "Pattern", "Match", "RegexFlag",
    "A", "I", "M", "S", "U", "X", "ASCII", "IGNORECASE", "MULTILINE", "DOTALL", "UNICODE",
    "VERBOSE", "NOFLAG",
]

# Members in CPython's order of definition (the order composite names list them in).
_FLAG_MEMBERS = (
    ("ASCII", 256), ("IGNORECASE", 2), ("LOCALE", 4), ("UNICODE", 32), ("MULTILINE", 8),
    ("DOTALL", 16), ("VERBOSE", 64), ("TEMPLATE", 1), ("DEBUG", 128),
)
_ALL_FLAGS = 511


class RegexFlag(int):
    """re's flags: ints that print as their names, as CPython's ``enum.IntFlag`` does.

    A plain ``int`` subclass rather than an enum: an enum caches every combination it is asked
    for on its class, which outlives the call, so a later call would find it cheaper.
    """

    __slots__ = ()

    def __new__(cls, value=0):
        if not isinstance(value, int):
            raise ValueError("%r is not a valid RegexFlag" % (value,))
        return int.__new__(cls, value)

    @property
    def value(self):
        return int(self)

    @property
    def name(self):
        v = int(self)
        if v == 0:
            return "NOFLAG"
        parts = [name for name, bit in _FLAG_MEMBERS if v & bit]
        if v & ~_ALL_FLAGS:
            parts.append(hex(v & ~_ALL_FLAGS))
        return "|".join(parts)

    def __repr__(self):
        return "|".join(p if p.startswith("0x") else "re." + p for p in self.name.split("|"))

    __str__ = __repr__

    def __format__(self, spec):
        return format(str(self), spec)

    def __iter__(self):
        return iter([RegexFlag(bit) for _, bit in _FLAG_MEMBERS if int(self) & bit])

    def __contains__(self, other):
        if not isinstance(other, int):
            raise TypeError("unsupported operand type(s) for 'in': %r and %r"
                            % (type(other).__name__, type(self).__name__))
        return int(other) & int(self) == int(other)

    def __or__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return RegexFlag(int(self) | int(other))

    def __and__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return RegexFlag(int(self) & int(other))

    def __xor__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return RegexFlag(int(self) ^ int(other))

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __invert__(self):
        return RegexFlag(~int(self) & _ALL_FLAGS)


RegexFlag.__module__ = "re"
RegexFlag.NOFLAG = NOFLAG = RegexFlag(0)
for _name, _bit in _FLAG_MEMBERS:
    setattr(RegexFlag, _name, RegexFlag(_bit))
ASCII = A = RegexFlag.ASCII
IGNORECASE = I = RegexFlag.IGNORECASE
MULTILINE = M = RegexFlag.MULTILINE
DOTALL = S = RegexFlag.DOTALL
UNICODE = U = RegexFlag.UNICODE
VERBOSE = X = RegexFlag.VERBOSE

_LOCALE = 4
_CODES = _rx.CODES
_RULE = "(rule: re-linear-time)"


class error(Exception):
    """Exception raised for an invalid pattern or template."""

    def __init__(self, msg, pattern=None, pos=None):
        self.msg = msg
        self.pattern = pattern
        self.pos = pos
        if pattern is not None and pos is not None:
            msg = "%s at position %d" % (msg, pos)
            newline = "\n" if isinstance(pattern, str) else b"\n"
            self.lineno = pattern.count(newline, 0, pos) + 1
            self.colno = pos - pattern.rfind(newline, 0, pos)
            if newline in pattern:
                msg = "%s (line %d, column %d)" % (msg, self.lineno, self.colno)
        else:
            self.lineno = self.colno = None
        super().__init__(msg)


error.__module__ = "re"


def _refuse(what, instead):
    return error("%s is not supported: the PVM's re runs in time linear in the text, without "
                 "backtracking; %s %s" % (what, instead, _RULE))


_REFUSED = {
    "ASSERT": ("look-ahead and look-behind ((?=...), (?<=...))",
               "check the condition with a second search in Python"),
    "ASSERT_NOT": ("negative look-ahead and look-behind ((?!...), (?<!...))",
                   "check the condition with a second search in Python"),
    "GROUPREF": ("a backreference (\\1, (?P=name))",
                 "capture both parts and compare the groups in Python"),
    "GROUPREF_EXISTS": ("a conditional group ((?(1)...|...))",
                        "use two patterns, or test m.group(1) in Python"),
    "ATOMIC_GROUP": ("an atomic group ((?>...))", "write the group without ?>"),
    "POSSESSIVE_REPEAT": ("a possessive quantifier (*+, ++, ?+, {m,n}+)",
                          "write the greedy quantifier (without the +)"),
}


def _flatten(sub, out, parents, parent):
    """Appends the parsed pattern ``sub`` to ``out`` as ``_cowboy_regex``'s codes."""
    out.append(_CODES["SEQ"])
    out.append(len(sub.data))
    for op, av in sub.data:
        name = op.name
        if name in _REFUSED:
            raise _refuse(*_REFUSED[name])
        if name == "LITERAL" or name == "NOT_LITERAL":
            out.append(_CODES[name])
            out.append(av)
        elif name == "ANY" or name == "FAILURE":
            out.append(_CODES[name])
        elif name == "IN":
            out.append(_CODES["IN"])
            out.append(len(av))
            for item_op, item in av:
                item_name = item_op.name
                if item_name == "LITERAL":
                    out.append(_CODES["SET_LITERAL"])
                    out.append(item)
                elif item_name == "RANGE":
                    out.append(_CODES["RANGE"])
                    out.append(item[0])
                    out.append(item[1])
                elif item_name == "CATEGORY":
                    out.append(_CODES["CATEGORY"])
                    out.append(_CODES[item.name])
                elif item_name == "NEGATE":
                    out.append(_CODES["NEGATE"])
                else:
                    raise error("unsupported set item %s %s" % (item_name, _RULE))
        elif name == "BRANCH":
            out.append(_CODES["BRANCH"])
            out.append(len(av[1]))
            for alternative in av[1]:
                _flatten(alternative, out, parents, parent)
        elif name == "SUBPATTERN":
            group, add_flags, del_flags, p = av
            out.append(_CODES["SUBPATTERN"])
            out.append(group or 0)
            out.append(add_flags)
            out.append(del_flags)
            if group:
                parents[group] = parent
            _flatten(p, out, parents, group or parent)
        elif name == "MAX_REPEAT" or name == "MIN_REPEAT":
            lo, hi, item = av
            out.append(_CODES["REPEAT"])
            out.append(lo)
            out.append(-1 if hi == _constants.MAXREPEAT else hi)
            out.append(1 if name == "MAX_REPEAT" else 0)
            _flatten(item, out, parents, parent)
        elif name == "AT":
            out.append(_CODES["AT"])
            out.append(_CODES[av.name])
        else:
            raise error("unsupported pattern element %s %s" % (name, _RULE))


_FLAG_NAMES = (
    ("re.IGNORECASE", 2), ("re.LOCALE", 4), ("re.MULTILINE", 8), ("re.DOTALL", 16),
    ("re.UNICODE", 32), ("re.VERBOSE", 64), ("re.DEBUG", 128), ("re.ASCII", 256),
)


def _check_text(pattern, string):
    """The text the engine searches, and the object groups are sliced from."""
    if isinstance(string, str):
        if not isinstance(pattern, str):
            raise TypeError("cannot use a bytes pattern on a string-like object")
        return string, string
    if isinstance(string, (bytes, bytearray, memoryview)):
        if isinstance(pattern, str):
            raise TypeError("cannot use a string pattern on a bytes-like object")
        subject = string if type(string) is bytes else bytes(string)
        return subject.decode("latin-1"), subject
    raise TypeError("expected string or bytes-like object, got %r" % type(string).__name__)


def _bounds(text, pos, endpos):
    n = len(text)
    if pos < 0:
        pos = 0
    elif pos > n:
        pos = n
    if endpos is None or endpos > n:
        endpos = n
    elif endpos < 0:
        endpos = 0
    return pos, endpos


class Match:
    """The result of a successful match."""

    def __init__(self, pattern, string, pos, endpos, spans, subject=None):
        self.re = pattern
        self.string = string
        # What groups are sliced from: `bytes` for any bytes-like string, as `_sre` slices.
        self._subject = string if subject is None else subject
        self.pos = pos
        self.endpos = endpos
        self._spans = spans
        # The group that closed last: the one ending last; of nested groups ending together,
        # the outer one.
        last = None
        for g in range(1, len(spans)):
            end = spans[g][1]
            if spans[g][0] < 0:
                continue
            if last is None or end > spans[last][1] or (
                    end == spans[last][1] and not _encloses(pattern._parents, last, g)):
                last = g
        self.lastindex = last
        self.lastgroup = None
        if last is not None:
            for name, index in pattern.groupindex.items():
                if index == last:
                    self.lastgroup = name

    def _index(self, group):
        if isinstance(group, str):
            index = self.re.groupindex.get(group)
            if index is not None:
                return index
        elif isinstance(group, int) and 0 <= group < len(self._spans):
            return group
        raise IndexError("no such group")

    def _slice(self, index, default=None):
        start, end = self._spans[index]
        return default if start < 0 else self._subject[start:end]

    def group(self, *groups):
        if not groups:
            return self._slice(0)
        if len(groups) == 1:
            return self._slice(self._index(groups[0]))
        return tuple(self._slice(self._index(g)) for g in groups)

    def __getitem__(self, group):
        return self._slice(self._index(group))

    def groups(self, default=None):
        return tuple(self._slice(i, default) for i in range(1, len(self._spans)))

    def groupdict(self, default=None):
        return {name: self._slice(index, default) for name, index in self.re.groupindex.items()}

    def start(self, group=0):
        return self._spans[self._index(group)][0]

    def end(self, group=0):
        return self._spans[self._index(group)][1]

    def span(self, group=0):
        return self._spans[self._index(group)]

    @property
    def regs(self):
        return tuple(self._spans)

    def expand(self, template):
        return _expand(self.re, self, template)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __bool__(self):
        return True

    def __repr__(self):
        return "<re.Match object; span=%r, match=%s>" % (self.span(), repr(self.group())[:50])


Match.__module__ = "re"


def _encloses(parents, outer, inner):
    while inner:
        inner = parents.get(inner, 0)
        if inner == outer:
            return True
    return False


class Pattern:
    """A compiled regular expression."""

    def __init__(self, pattern, flags):
        if not isinstance(pattern, (str, bytes)):
            raise TypeError("first argument must be string or compiled pattern")
        if flags & _LOCALE and isinstance(pattern, bytes):
            raise error("re.LOCALE is not supported: it reads the host's locale %s" % _RULE)
        try:
            parsed = _parser.parse(pattern, flags)
        except _constants.error as e:
            raise error(e.msg, e.pattern, e.pos) from None
        self.pattern = pattern
        self.flags = int(parsed.state.flags)
        self.groups = parsed.state.groups - 1
        self.groupindex = _MappingProxyType(dict(parsed.state.groupdict))
        self._parents = {}
        codes = []
        _flatten(parsed, codes, self._parents, 0)
        native_flags = self.flags
        if isinstance(pattern, bytes):
            native_flags |= 256
        try:
            self._native = _rx.compile(codes, native_flags, self.groups)
        except _rx.error as e:
            raise error(str(e)) from None

    def _run(self, string, pos, endpos, mode):
        text, subject = _check_text(self.pattern, string)
        pos, endpos = _bounds(text, pos, endpos)
        if pos > endpos:
            return None
        try:
            spans = _rx.find(self._native, text, pos, endpos, mode)
        except _rx.error as e:
            raise error(str(e)) from None
        if spans is None:
            return None
        return Match(self, string, pos, endpos, spans, subject)

    def search(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 0)

    def match(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 1)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 2)

    def _all(self, string, pos=0, endpos=None, limit=0):
        text, subject = _check_text(self.pattern, string)
        pos, endpos = _bounds(text, pos, endpos)
        if pos > endpos:
            return [], subject
        try:
            found = _rx.find_all(self._native, text, pos, endpos, limit)
        except _rx.error as e:
            raise error(str(e)) from None
        return [Match(self, string, pos, endpos, spans, subject) for spans in found], subject

    def finditer(self, string, pos=0, endpos=None):
        return iter(self._all(string, pos, endpos)[0])

    def findall(self, string, pos=0, endpos=None):
        matches, subject = self._all(string, pos, endpos)
        empty = subject[:0]
        out = []
        for m in matches:
            if self.groups == 0:
                out.append(m.group(0))
            elif self.groups == 1:
                out.append(m._slice(1, empty))
            else:
                out.append(m.groups(empty))
        return out

    def subn(self, repl, string, count=0):
        count = _operator.index(count)
        matches, subject = self._all(string, limit=max(count, 0))
        empty = subject[:0]
        if callable(repl):
            expand = repl
        else:
            template = _template(self, repl)
            if len(template) == 1:
                literal = template[0]
                expand = lambda m: literal
            else:
                expand = lambda m: _fill(template, m, empty)
        if count < 0:
            return subject if type(string) is not str else string, 0
        # As `_sre`'s pattern_subx: non-empty segments and every replacement that is not None,
        # joined (a replacement of the wrong type fails the join with CPython's message).
        pieces = []
        last = 0
        n = 0
        for m in matches:
            if count and n >= count:
                break
            start, end = m.span()
            if last < start:
                pieces.append(subject[last:start])
            piece = expand(m)
            if piece is not None:
                pieces.append(piece)
            last = end
            n += 1
        if last < len(subject):
            pieces.append(subject[last:])
        return empty.join(pieces), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        maxsplit = _operator.index(maxsplit)
        matches, subject = self._all(string, limit=max(maxsplit, 0))
        if maxsplit < 0:
            return [subject]
        out = []
        last = 0
        n = 0
        for m in matches:
            if maxsplit and n >= maxsplit:
                break
            start, end = m.span()
            out.append(subject[last:start])
            out.extend(m.groups())
            last = end
            n += 1
        out.append(subject[last:])
        return out

    def __repr__(self):
        flags = self.flags
        if isinstance(self.pattern, str) and flags & (_LOCALE | 32 | 256) == 32:
            flags &= ~32
        names = []
        for name, bit in _FLAG_NAMES:
            if flags & bit:
                names.append(name)
                flags &= ~bit
        if flags:
            names.append(hex(flags))
        shown = repr(self.pattern)[:200]
        if names:
            return "re.compile(%s, %s)" % (shown, "|".join(names))
        return "re.compile(%s)" % (shown,)

    def __eq__(self, other):
        if not isinstance(other, Pattern):
            return NotImplemented
        return self.pattern == other.pattern and self.flags == other.flags

    def __hash__(self):
        return hash((self.pattern, self.flags))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


Pattern.__module__ = "re"


def _template(pattern, repl):
    """A replacement template as literals and group numbers (CPython's parse_template)."""
    try:
        return _parser.parse_template(repl, pattern)
    except _constants.error as e:
        raise error(e.msg, e.pattern, e.pos) from None


def _fill(template, m, empty):
    out = []
    for item in template:
        if isinstance(item, int):
            value = m._slice(item)
            if value:
                out.append(value)
        elif item:
            out.append(item)
    return empty.join(out)


def _expand(pattern, m, template):
    return _fill(_template(pattern, template), m, m._subject[:0])


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    return Pattern(pattern, flags)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


def purge():
    """Clears the cache of compiled patterns (the PVM's lasts one call; nothing to do)."""


_SPECIAL = {c: "\\" + chr(c) for c in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}


def escape(pattern):
    if isinstance(pattern, str):
        return pattern.translate(_SPECIAL)
    return str(pattern, "latin1").translate(_SPECIAL).encode("latin1")
