"""Per-call reset of library state that would otherwise make costs depend on history.

Library modules live for the whole life of an interpreter, and some remember things between
calls: ABCs cache isinstance results, typing memoises subscripted generics, the regex module
caches compiled patterns, decimal keeps a current context. A call that finds a cache warm would
run less (metered) code than one that finds it cold, and a freshly started node would charge
different cycles than one that has run for months. The runtime therefore calls ``reset()``,
unmetered, before every actor call, so every call starts from the same library state.

To keep that cheap the runtime resets only what the previous call could have touched: the
library's ABCs consulted since the last reset (the ABCMeta checks, and typing's protocol checks,
record them in ``touched``; every library ABC is reset when an interpreter starts), the regex
caches when they are not empty, typing's caches and overload registry after a call that
imported typing or functools, and the decimal contexts (the current one, and the flags and traps
of the library's three) after a call that imported decimal.

The reset runs between calls, where actor code cannot run at all (``natives.charge`` refuses
it): it calls only library and native functions, never a method an actor's class could define.
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
# typing's protocol checks call the checks it took from ABCMeta when it was imported.
typing._abc_instancecheck = __instancecheck__
typing._abc_subclasscheck = __subclasscheck__

_TYPING_CACHES = list(typing._cleanups)


def reset_typing():
    for clear in _TYPING_CACHES:
        clear()
    typing.clear_overloads()


# The library's contexts, with the flags and traps they had when the library was loaded. Their
# attributes are read-only to actors, but their `flags` and `traps` are dicts a call can change:
# `ExtendedContext.divide(1, 3)` records `Inexact` there, and `DefaultContext.traps[Inexact] =
# True` would make every later `Decimal(1) / 3` on the node raise (`Context()` copies
# DefaultContext's traps).
_LIBRARY_CONTEXTS = [
    (context, dict(context.flags), dict(context.traps), list(context._ignored_flags))
    for context in (decimal.DefaultContext, decimal.BasicContext, decimal.ExtendedContext)
]


def reset_decimal():
    # The current context is the only other one a call can change, and every call that
    # imported decimal leaves a new one behind.
    for context, flags, traps, ignored in _LIBRARY_CONTEXTS:
        context.flags.clear()
        context.flags.update(flags)
        context.traps.clear()
        context.traps.update(traps)
        context._ignored_flags[:] = ignored
    decimal.setcontext(decimal.Context())


def reset():
    """Everything, unconditionally (used after an interpreter is created). The engine empties
    the caches of every library ABC itself, natively: it is the only one that can tell the
    library's ABCs from an actor's (whose ``_abc_impl`` could run the actor's code)."""
    touched.clear()
    reset_typing()
    re.purge()
    reset_decimal()


class _Unrelated:
    """A class no ABC counts as a subclass (see ``make_caches``)."""


def make_caches(cls):
    """Makes the library ABC ``cls``'s positive and negative ``isinstance`` caches exist.

    RustPython creates each of an ABC's cache sets the first time it stores in it, and the reset
    only empties them: made in a call, a set was charged to the first call on a node that
    consulted the ABC, and to no later one. Called when an interpreter starts, for every library
    ABC, before the caches are emptied.
    """
    for subclass in (cls, _Unrelated):
        try:
            _subclasscheck(cls, subclass)
        except Exception:
            pass


def deepen():
    """Grows the interpreter's per-frame stacks as deep as any call can go.

    RustPython keeps, for every frame running, an entry in vectors that keep the room they
    grew (the frame stack, the stack of exceptions being handled): the first call on a node to
    recurse deep allocated that room and later calls found it. Called when an interpreter
    starts: recursing to the recursion limit leaves room for any call.
    """

    def down(n):
        return down(n + 1)

    try:
        down(0)
    except RecursionError:
        pass
