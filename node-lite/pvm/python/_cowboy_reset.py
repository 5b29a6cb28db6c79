"""Per-call reset of library state that would otherwise make costs depend on history.

Library modules live for the whole life of an interpreter, and some remember things between
calls: ABCs cache isinstance results, typing memoises subscripted generics, the regex module
caches compiled patterns, decimal keeps a current context. A call that finds a cache warm would
run less (metered) code than one that finds it cold, and a freshly started node would charge
different cycles than one that has run for months. The runtime therefore calls ``reset()``,
unmetered, before every actor call, so every call starts from the same library state.

To keep that cheap the runtime resets only what the previous call could have touched: ABCs
consulted since the last reset (the ABCMeta checks record them in ``touched``), the regex
caches when they are not empty, typing's caches after a call that imported typing or functools,
and the decimal context after a call that imported decimal.
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

touched = set()
_instancecheck = abc.ABCMeta.__instancecheck__
_subclasscheck = abc.ABCMeta.__subclasscheck__
_register = abc.ABCMeta.register


def __instancecheck__(cls, instance):
    touched.add(cls)
    return _instancecheck(cls, instance)


def __subclasscheck__(cls, subclass):
    touched.add(cls)
    return _subclasscheck(cls, subclass)


def register(cls, subclass):
    touched.add(cls)
    return _register(cls, subclass)


abc.ABCMeta.__instancecheck__ = __instancecheck__
abc.ABCMeta.__subclasscheck__ = __subclasscheck__
abc.ABCMeta.register = register

_TYPING_CACHES = list(typing._cleanups)
_DECIMAL_DEFAULT = decimal.DefaultContext.copy()
_DECIMAL_FIELDS = ("prec", "rounding", "Emin", "Emax", "capitals", "clamp")


def _decimal_pristine(ctx):
    p = _DECIMAL_DEFAULT
    for f in _DECIMAL_FIELDS:
        if getattr(ctx, f) != getattr(p, f):
            return False
    return ctx.traps == p.traps and ctx.flags == p.flags


_fresh_context = decimal.Context()
decimal.setcontext(_fresh_context)


def reset_abcs():
    for cls in touched:
        cls._abc_caches_clear()
    touched.clear()


def reset_typing():
    for clear in _TYPING_CACHES:
        clear()


def reset_decimal():
    global _fresh_context
    d = decimal.DefaultContext
    if not _decimal_pristine(d):
        p = _DECIMAL_DEFAULT
        for f in _DECIMAL_FIELDS:
            setattr(d, f, getattr(p, f))
        d.traps = dict(p.traps)
        d.flags = dict(p.flags)
    if decimal.getcontext() is not _fresh_context or not _decimal_pristine(_fresh_context):
        _fresh_context = decimal.Context()
        decimal.setcontext(_fresh_context)


def reset():
    """Everything, unconditionally (used after an interpreter is created)."""
    reset_abcs()
    reset_typing()
    re.purge()
    reset_decimal()
