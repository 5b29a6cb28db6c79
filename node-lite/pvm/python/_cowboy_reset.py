"""Per-call reset of library state that would otherwise make costs depend on history.

Library modules live for the whole life of an interpreter, and some remember things between
calls: ABCs cache isinstance results, typing memoises subscripted generics, the regex module
caches compiled patterns, decimal keeps a current context. A call that finds a cache warm would
run less (metered) code than one that finds it cold, and a freshly started node would charge
different cycles than one that has run for months. The runtime therefore calls ``reset()``,
unmetered, before every actor call, so every call starts from the same library state.
"""

import abc
import annotationlib
import collections
import decimal
import heapq
import re
import typing

# Resolve lazy imports now, so the first call after start-up does not run code later calls
# skip (the cost of a call must not depend on what ran before it).
collections.heapq = heapq
typing._lazy_annotationlib = annotationlib


def _all_classes():
    out = []
    seen = set()
    stack = [object]
    while stack:
        cls = stack.pop()
        if id(cls) in seen:
            continue
        seen.add(id(cls))
        out.append(cls)
        try:
            stack.extend(type.__subclasses__(cls))
        except TypeError:
            pass
    return out


_ABCS = [c for c in _all_classes() if isinstance(c, abc.ABCMeta)]
_TYPING_CACHES = list(typing._cleanups)
_DECIMAL_DEFAULT = decimal.DefaultContext.copy()


def reset():
    for cls in _ABCS:
        cls._abc_caches_clear()
    for clear in _TYPING_CACHES:
        clear()
    re.purge()
    d = decimal.DefaultContext
    p = _DECIMAL_DEFAULT
    d.prec = p.prec
    d.rounding = p.rounding
    d.Emin = p.Emin
    d.Emax = p.Emax
    d.capitals = p.capitals
    d.clamp = p.clamp
    d.traps = dict(p.traps)
    d.flags = dict(p.flags)
    decimal.setcontext(decimal.Context())
