"""re for actors: regular expressions with guaranteed linear-time matching.

Actors that ``import re`` get this module. It keeps the familiar ``re`` API but matches with
a finite-automaton engine (the Rust ``regex`` crate), so no pattern can take exponential time:
``(a*)*b`` against a long run of ``a`` is as fast as any other search. The price is that
backreferences (``\\1``, ``(?P=name)``) and look-around (``(?=``, ``(?!``, ``(?<=``, ``(?<!``)
are not supported and raise ``re.error`` when compiled. Every search costs one cycle per
character of the text searched plus one per character of the pattern.
"""

import _cowboy_regex as _rx

__all__ = [
    "compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn",
    "split", "escape", "error", "Pattern", "Match",
    "IGNORECASE", "I", "MULTILINE", "M", "DOTALL", "S", "VERBOSE", "X", "ASCII", "A",
    "NOFLAG",
]

NOFLAG = 0
IGNORECASE = I = 2
MULTILINE = M = 8
DOTALL = S = 16
VERBOSE = X = 64
ASCII = A = 256

error = _rx.error


class Match:
    """The result of a successful match."""

    def __init__(self, pattern, string, pos, endpos, spans):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = spans
        last = None
        for i in range(1, len(spans)):
            if spans[i][0] >= 0:
                last = i
        self.lastindex = last
        self.lastgroup = None
        if last is not None:
            for name, index in pattern.groupindex.items():
                if index == last:
                    self.lastgroup = name

    def _index(self, group):
        if isinstance(group, str):
            if group not in self.re.groupindex:
                raise IndexError("no such group")
            return self.re.groupindex[group]
        if not isinstance(group, int) or group < 0 or group >= len(self._spans):
            raise IndexError("no such group")
        return group

    def group(self, *groups):
        if not groups:
            groups = (0,)
        values = []
        for g in groups:
            start, end = self._spans[self._index(g)]
            values.append(None if start < 0 else self.string[start:end])
        return values[0] if len(values) == 1 else tuple(values)

    def __getitem__(self, group):
        return self.group(group)

    def groups(self, default=None):
        out = []
        for start, end in self._spans[1:]:
            out.append(default if start < 0 else self.string[start:end])
        return tuple(out)

    def groupdict(self, default=None):
        out = {}
        for name, index in self.re.groupindex.items():
            start, end = self._spans[index]
            out[name] = default if start < 0 else self.string[start:end]
        return out

    def start(self, group=0):
        return self._spans[self._index(group)][0]

    def end(self, group=0):
        return self._spans[self._index(group)][1]

    def span(self, group=0):
        return self._spans[self._index(group)]

    def expand(self, template):
        return _expand(self, template)

    def __bool__(self):
        return True

    def __repr__(self):
        return "<re.Match object; span=%r, match=%r>" % (self.span(), self.group())


class Pattern:
    """A compiled regular expression."""

    def __init__(self, pattern, flags):
        if isinstance(flags, int) is False:
            raise TypeError("flags must be an int")
        self.pattern = pattern
        self.flags = flags
        self._native = _rx.compile(pattern, flags)
        self.groups = _rx.group_count(self._native)
        self.groupindex = _rx.group_names(self._native)

    def _run(self, string, pos, endpos, mode):
        if endpos is None or endpos > len(string):
            endpos = len(string)
        if pos < 0:
            pos = 0
        spans = _rx.find(self._native, string, pos, endpos, mode)
        if spans is None:
            return None
        return Match(self, string, pos, endpos, spans)

    def search(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 0)

    def match(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 1)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 2)

    def finditer(self, string, pos=0, endpos=None):
        if endpos is None or endpos > len(string):
            endpos = len(string)
        for spans in _rx.find_all(self._native, string, pos, endpos):
            yield Match(self, string, pos, endpos, spans)

    def findall(self, string, pos=0, endpos=None):
        out = []
        for m in self.finditer(string, pos, endpos):
            if self.groups == 0:
                out.append(m.group(0))
            elif self.groups == 1:
                out.append(m.group(1) or "")
            else:
                out.append(tuple(g or "" for g in m.groups()))
        return out

    def subn(self, repl, string, count=0):
        pieces = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if count and n >= count:
                break
            start, end = m.span()
            pieces.append(string[last:start])
            if callable(repl):
                pieces.append(repl(m))
            else:
                pieces.append(_expand(m, repl))
            last = end
            n += 1
        pieces.append(string[last:])
        return "".join(pieces), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        out = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if maxsplit and n >= maxsplit:
                break
            start, end = m.span()
            out.append(string[last:start])
            out.extend(m.groups())
            last = end
            n += 1
        out.append(string[last:])
        return out

    def __repr__(self):
        return "re.compile(%r)" % (self.pattern,)

    def __eq__(self, other):
        return isinstance(other, Pattern) and self.pattern == other.pattern and self.flags == other.flags

    def __hash__(self):
        return hash((self.pattern, self.flags))


def _expand(m, template):
    out = []
    i = 0
    n = len(template)
    while i < n:
        c = template[i]
        if c == "\\" and i + 1 < n:
            d = template[i + 1]
            if d.isdigit():
                j = i + 1
                while j < n and j < i + 3 and template[j].isdigit():
                    j += 1
                out.append(m.group(int(template[i + 1:j])) or "")
                i = j
                continue
            if d == "g" and i + 2 < n and template[i + 2] == "<":
                close = template.find(">", i + 3)
                if close < 0:
                    raise error("missing >, unterminated name")
                name = template[i + 3:close]
                out.append(m.group(int(name) if name.isdigit() else name) or "")
                i = close + 1
                continue
            escapes = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "f": "\f", "v": "\v", "a": "\a"}
            if d in escapes:
                out.append(escapes[d])
                i += 2
                continue
            out.append(c)
            out.append(d)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
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


_SPECIAL = frozenset("()[]{}?*+-|^$\\.&~# \t\n\r\v\f")


def escape(pattern):
    return "".join("\\" + c if c in _SPECIAL else c for c in pattern)
