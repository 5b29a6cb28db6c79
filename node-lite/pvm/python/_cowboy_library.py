"""Patches that keep the embedded standard library from turning an actor's data into code or
names it may not use (loaded once, while the library is preloaded).

- ``dataclasses`` generates its methods as Python source built from field names: a field name
  that is not an identifier (``C.__annotations__ = {"a=__import__('os')": int}``) would be code.
  Field names must be identifiers that are not keywords, as ``make_dataclass`` already requires.
- ``functools.total_ordering`` would rename shared helper functions on every use (below).
- ``struct`` allocates a format's whole size before it checks its arguments: sizes beyond the
  per-call memory limit are refused with ``MemoryError`` before anything is allocated.
- ``functools.update_wrapper`` (and ``wraps``) copies the attributes its caller names from one
  object to another: naming ``__globals__`` or ``__code__`` would hand a library function's
  globals to the actor, or give a library function the actor's code. Only the standard names,
  and public (non-underscore) names, may be copied.
"""

import _struct
import dataclasses
import functools
import keyword
import struct

from pvm_host import MEMORY_LIMIT_BYTES
from pvm_host import charge as _charge

_get_field = dataclasses._get_field


def _checked_get_field(cls, a_name, a_type, default_kw_only):
    if not (isinstance(a_name, str) and a_name.isidentifier() and not keyword.iskeyword(a_name)):
        raise TypeError(
            f"dataclass field names must be identifiers, not {a_name!r} (rule: dataclass-field-name)"
        )
    return _get_field(cls, a_name, a_type, default_kw_only)


dataclasses._get_field = _checked_get_field

_update_wrapper = functools.update_wrapper
_STANDARD_NAMES = frozenset(functools.WRAPPER_ASSIGNMENTS) | frozenset(functools.WRAPPER_UPDATES)


def _check_names(names):
    for name in names:
        if not isinstance(name, str) or (name.startswith("_") and name not in _STANDARD_NAMES):
            raise ValueError(
                f"update_wrapper() may copy only {sorted(_STANDARD_NAMES)} and public names, "
                f"not {name!r} (rule: wrapper-attributes)"
            )


def update_wrapper(wrapper, wrapped, assigned=functools.WRAPPER_ASSIGNMENTS,
                   updated=functools.WRAPPER_UPDATES):
    assigned = tuple(assigned)
    updated = tuple(updated)
    _check_names(assigned)
    _check_names(updated)
    return _update_wrapper(wrapper, wrapped, assigned, updated)


update_wrapper.__doc__ = _update_wrapper.__doc__
functools.update_wrapper = update_wrapper

# ``functools.total_ordering`` renames the shared helper functions it installs on every use
# (``_gt_from_lt.__name__ = '__gt__'``): a change to the library that later calls would see.
# They are named once, here, and installed without renaming.
for _ops in functools._convert.values():
    for _opname, _opfunc in _ops:
        _opfunc.__name__ = _opname


def total_ordering(cls):
    """Class decorator that fills in missing ordering methods"""
    roots = {op for op in functools._convert
             if getattr(cls, op, None) is not getattr(object, op, None)}
    if not roots:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    root = max(roots)  # prefer __lt__ to __le__ to __gt__ to __ge__
    for opname, opfunc in functools._convert[root]:
        if opname not in roots:
            setattr(cls, opname, opfunc)
    return cls


functools.total_ordering = total_ordering


# ``functools.cmp_to_key`` as CPython's C version: one ``KeyWrapper`` type, defined here once.
# The library's Python version defines a class on every call, which an actor's call may not
# (rule: class-module).
_NO_OBJ = object()


class KeyWrapper:
    __slots__ = ("_cmp", "obj")

    def __init__(self, cmp, obj=_NO_OBJ):
        self._cmp = cmp
        if obj is not _NO_OBJ:
            self.obj = obj

    def __call__(self, *args, **kwargs):
        if kwargs:
            if len(args) + len(kwargs) == 1 and "obj" in kwargs:
                return KeyWrapper(self._cmp, kwargs["obj"])
            raise TypeError("K() takes at most 1 argument (%d given)" % (len(args) + len(kwargs)))
        if not args:
            raise TypeError("K() missing required argument 'obj' (pos 1)")
        if len(args) > 1:
            raise TypeError("K() takes at most 1 argument (%d given)" % len(args))
        return KeyWrapper(self._cmp, args[0])

    def _compare(self, other):
        if type(other) is not KeyWrapper:
            raise TypeError("other argument must be K instance")
        return self._cmp(self.obj, other.obj)

    def __lt__(self, other):
        return self._compare(other) < 0

    def __le__(self, other):
        return self._compare(other) <= 0

    def __gt__(self, other):
        return self._compare(other) > 0

    def __ge__(self, other):
        return self._compare(other) >= 0

    def __eq__(self, other):
        return self._compare(other) == 0

    def __ne__(self, other):
        return self._compare(other) != 0

    def __hash__(self):
        # The C type's name, which CPython's message prints with its module.
        raise TypeError("unhashable type: 'functools.KeyWrapper'")


KeyWrapper.__module__ = "functools"


def cmp_to_key(*args, **kwargs):
    """Convert a cmp= function into a key= function."""
    given = len(args) + len(kwargs)
    if given > 1:
        raise TypeError("cmp_to_key() takes at most 1 argument (%d given)" % given)
    if args:
        return KeyWrapper(args[0])
    if "mycmp" in kwargs:
        return KeyWrapper(kwargs["mycmp"])
    if kwargs:
        raise TypeError("cmp_to_key() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    raise TypeError("cmp_to_key() missing required argument 'mycmp' (pos 1)")


cmp_to_key.__module__ = "functools"
functools.KeyWrapper = KeyWrapper
functools.cmp_to_key = cmp_to_key


# ---- sizes: struct ----------------------------------------------------------------------------

def _check_struct_size(size, what):
    if size > MEMORY_LIMIT_BYTES:
        raise MemoryError(
            f"{what} of {size} bytes would exceed the per-call memory limit (rule: memory-limit)"
        )


_native_pack = _struct.pack
_native_pack_into = _struct.pack_into
_native_calcsize = _struct.calcsize


# CPython 3.11's checks of each value `struct` packs (`Modules/_struct.c`), in its order and
# with its messages, where the native module words them differently or packs what CPython
# refuses (a float beyond float32's range with `f`). Consulted only when packing failed, or
# when the format has an `f`.
_INT64 = (-(1 << 63), (1 << 63) - 1)
_UINT64 = (0, (1 << 64) - 1)
_SHORT = (-32768, 32767)
_USHORT = (0, 65535)
_INT32 = (-(1 << 31), (1 << 31) - 1)
_UINT32 = (0, (1 << 32) - 1)
# By byte order ('@' native; '<' and '=' use the native functions where the sizes agree, as
# on the little-endian machines CPython's results are taken from; '>' and '!' their own),
# each integer code's conversion (a 64-bit one: values beyond it are "argument out of range"
# or, for the big-endian long longs, "int too large to convert") and then its range check
# (None, or the message and bounds).
_NATIVE = {
    "b": (_INT64, ("byte format requires -128 <= number <= 127", (-128, 127))),
    "B": (_INT64, ("ubyte format requires 0 <= number <= 255", (0, 255))),
    "h": (_INT64, ("short format requires -32768 <= number <= 32767", _SHORT)),
    "H": (_INT64, ("ushort format requires 0 <= number <= 65535", _USHORT)),
    "i": (_INT64, ("'i' format requires -2147483648 <= number <= 2147483647", _INT32)),
    "I": (_UINT64, ("'I' format requires 0 <= number <= 4294967295", _UINT32)),
    "l": (_INT64, None),
    "L": (_UINT64, None),
    "q": (_INT64, None),
    "Q": (_UINT64, None),
    "n": (_INT64, None),
    "N": (_UINT64, None),
}
_LITTLE = dict(_NATIVE)
_LITTLE["l"] = (_INT64, ("'l' format requires -2147483648 <= number <= 2147483647", _INT32))
_LITTLE["L"] = (_UINT64, ("'L' format requires 0 <= number <= 4294967295", _UINT32))
_BIG = {
    "b": _NATIVE["b"],
    "B": _NATIVE["B"],
    "h": (_INT64, ("'h' format requires -32768 <= number <= 32767", _SHORT)),
    "H": (_UINT64, ("'H' format requires 0 <= number <= 65535", _USHORT)),
    "i": _NATIVE["i"],
    "I": _NATIVE["I"],
    "l": _LITTLE["l"],
    "L": _LITTLE["L"],
    "q": ("int too large to convert", _INT64),
    "Q": ("int too large to convert", _UINT64),
}
_INTEGER_CODES = {"@": _NATIVE, "<": _LITTLE, "=": _LITTLE, ">": _BIG, "!": _BIG}
# The smallest magnitudes a double rounds to infinity from in float32 (2**128 - 2**103) and
# in half precision (65504 + 16).
_FLOAT32_OVERFLOW = 3.4028235677973366e38
_HALF_OVERFLOW = 65520.0
_INF = float("inf")
_NUMBERS = (int, bool, float)


def _struct_codes(format):
    """The format's byte-order mark (or '@') and the code of each value it packs."""
    if isinstance(format, (bytes, bytearray)):
        format = bytes(format).decode("latin-1")
    order = "@"
    if format[:1] in ("@", "=", "<", ">", "!"):
        order, format = format[0], format[1:]
    codes = []
    count = None
    for c in format:
        if c.isdigit():
            count = (count or 0) * 10 + int(c)
        elif c.isspace():
            continue
        else:
            if c in "sp":
                codes.append(c)
            elif c != "x":
                codes.extend(c * (1 if count is None else count))
            count = None
    return order, codes


def _struct_value_error(order, code, value):
    """CPython's exception for packing `value` with `code`, or None if it packs."""
    if code in "sp":
        if not isinstance(value, (bytes, bytearray)):
            return _struct.error("argument for '%s' must be a bytes object" % code)
        return None
    if code == "c":
        if not isinstance(value, (bytes, bytearray)) or len(value) != 1:
            return _struct.error("char format requires a bytes object of length 1")
        return None
    if code in "efd":
        if not (hasattr(type(value), "__float__") or hasattr(type(value), "__index__")):
            return _struct.error("required argument is not a float")
        if code == "d" or (code == "f" and order == "@") or type(value) not in _NUMBERS:
            # Native `f` is a C cast: beyond float32's range it packs an infinity. An actor's
            # number is left to the native module: its `__float__` must run once.
            return None
        x = float(value)
        limit = _FLOAT32_OVERFLOW if code == "f" else _HALF_OVERFLOW
        if x == x and x not in (_INF, -_INF) and abs(x) >= limit:
            # `_struct.c` reports an overflow of an int argument as its own error.
            if isinstance(value, int):
                return _struct.error("int too large to convert")
            return OverflowError("float too large to pack with %s format" % code)
        return None
    if code == "?":
        return None
    table = _INTEGER_CODES[order]
    if code not in table:
        return None
    if not hasattr(type(value), "__index__"):
        return _struct.error("required argument is not an integer")
    if type(value) not in _NUMBERS:
        # An actor's integer is left to the native module: its `__index__` must run once.
        return None
    x = int(value)
    conversion, check = table[code]
    if isinstance(conversion, str):
        # The big-endian long longs convert with the range as their only check.
        low, high = check
        return None if low <= x <= high else _struct.error(conversion)
    low, high = conversion
    if not low <= x <= high:
        return _struct.error("argument out of range")
    if check is not None:
        message, (low, high) = check
        if not low <= x <= high:
            return _struct.error(message)
    return None


def _struct_cpython_error(format, values):
    try:
        order, codes = _struct_codes(format)
    except Exception:
        return None
    if len(codes) != len(values):
        return None
    for code, value in zip(codes, values):
        error = _struct_value_error(order, code, value)
        if error is not None:
            return error
    return None


def _struct_floats(format, values):
    """For a format with a half or single float: CPython's first error, checked before anything
    is packed (the native module refuses native `f` overflows CPython packs, and words the
    others differently); else the values with native `f` overflows made infinities."""
    error = _struct_cpython_error(format, values)
    if error is not None:
        raise error
    order, codes = _struct_codes(format)
    if order != "@" or len(codes) != len(values):
        return values
    values = list(values)
    for i, code in enumerate(codes):
        if code == "f" and type(values[i]) in _NUMBERS:
            x = float(values[i])
            if x == x and abs(x) >= _FLOAT32_OVERFLOW:
                values[i] = _INF if x > 0 else -_INF
    return values


def _struct_has_half_or_single(format):
    if isinstance(format, (bytes, bytearray)):
        return b"f" in format or b"e" in format
    return "f" in format or "e" in format


_PACK_ERRORS = (_struct.error, TypeError, ValueError, OverflowError)


def pack(format, /, *values):
    _check_struct_size(_native_calcsize(format), "struct.pack()")
    _charge(len(values))
    if _struct_has_half_or_single(format):
        values = _struct_floats(format, values)
    try:
        return _native_pack(format, *values)
    except _PACK_ERRORS:
        error = _struct_cpython_error(format, values)
        if error is None:
            raise
    raise error


def pack_into(format, buffer, offset, /, *values):
    _check_struct_size(_native_calcsize(format), "struct.pack_into()")
    _charge(len(values))
    if _struct_has_half_or_single(format):
        values = _struct_floats(format, values)
    try:
        return _native_pack_into(format, buffer, offset, *values)
    except _PACK_ERRORS:
        error = _struct_cpython_error(format, values)
        if error is None:
            raise
    raise error


for _module in (struct, _struct):
    _module.pack = pack
    _module.pack_into = pack_into
pack.__module__ = pack_into.__module__ = "struct"
# ``Struct(fmt).pack`` is checked natively (``sizes::guard_struct``): the type cannot be
# subclassed.

# ``itertools``' combinatoric types cannot be subclassed: their sizes are checked natively
# (``sizes::guard_itertools``).


# ---- CPython's errors where the library's Python words them differently ------------------------
# (``fidelity.rs`` does the same for built-in functions and types.) Each wrapper checks the
# arguments CPython's C implementation checks, with its messages, then calls the original.

import heapq

_reduce = functools.reduce
_REDUCE_EMPTY = "reduce() of empty sequence with no initial value"


def reduce(function, sequence, *initial):
    """reduce(function, iterable[, initial]) -> value"""
    try:
        return _reduce(function, sequence, *initial)
    except TypeError as e:
        # By type first: ``str()`` of an actor's TypeError subclass would run its code.
        if type(e) is not TypeError or str(e) != _REDUCE_EMPTY:
            raise
    # Outside the handler, so the error has no ``__context__``, as CPython's has none.
    raise TypeError("reduce() of empty iterable with no initial value")


reduce.__module__ = "functools"
functools.reduce = reduce


def _heap_list(heap):
    if not isinstance(heap, list):
        raise TypeError("heap argument must be a list")


def _heap_not_empty(heap):
    _heap_list(heap)
    if not heap:
        raise IndexError("index out of range")


def _heap_wrapper(name, check):
    original = getattr(heapq, name)

    def wrapper(heap, *args):
        check(heap)
        return original(heap, *args)

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = original.__doc__
    wrapper.__module__ = "heapq"
    setattr(heapq, name, wrapper)


for _name, _check in [("heappop", _heap_not_empty), ("heapreplace", _heap_not_empty),
                      ("heappush", _heap_list), ("heappushpop", _heap_list),
                      ("heapify", _heap_list)]:
    _heap_wrapper(_name, _check)


# `hmac`: CPython 3.11's words for a missing digestmod, and `compare_digest`'s checks
# (`Modules/_operator.c`: two `str` must be ASCII; otherwise neither bytes-like is one error,
# and else each must be bytes-like).
import hmac as _hmac

_hmac_init = _hmac.HMAC.__init__
_HMAC_NO_DIGESTMOD = "Missing required argument 'digestmod'."


def _hmac_init_checked(self, key, msg=None, digestmod=''):
    try:
        return _hmac_init(self, key, msg, digestmod)
    except TypeError as e:
        if type(e) is not TypeError or str(e) != _HMAC_NO_DIGESTMOD:
            raise
    raise TypeError("Missing required parameter 'digestmod'.")


_hmac_init_checked.__name__ = _hmac_init_checked.__qualname__ = "__init__"
_hmac.HMAC.__init__ = _hmac_init_checked

_compare_digest = _hmac.compare_digest


def _not_bytes_like(x):
    if isinstance(x, str):
        return True
    try:
        memoryview(x)
    except TypeError:
        return True
    return False


def compare_digest(a, b, /):
    """Return 'a == b', in time independent of where they differ."""
    if not (isinstance(a, str) and isinstance(b, str)):
        a_bad, b_bad = _not_bytes_like(a), _not_bytes_like(b)
        if a_bad and b_bad:
            raise TypeError("unsupported operand types(s) or combination of types: '%s' and '%s'"
                            % (type(a).__name__, type(b).__name__))
        for x, bad in ((a, a_bad), (b, b_bad)):
            if bad:
                raise TypeError("a bytes-like object is required, not '%s'" % type(x).__name__)
    return _compare_digest(a, b)


compare_digest.__module__ = "hmac"
_hmac.compare_digest = compare_digest


# `json`: CPython 3.11 does not name the value that is out of range.
import json as _json

_json_encode = _json.JSONEncoder.encode
_JSON_OUT_OF_RANGE = "Out of range float values are not JSON compliant"


def _json_encode_checked(self, o):
    try:
        return _json_encode(self, o)
    except ValueError as e:
        if type(e) is not ValueError or str(e) not in (
                _JSON_OUT_OF_RANGE + ": inf", _JSON_OUT_OF_RANGE + ": -inf",
                _JSON_OUT_OF_RANGE + ": nan"):
            raise
    raise ValueError(_JSON_OUT_OF_RANGE)


_json_encode_checked.__name__ = _json_encode_checked.__qualname__ = "encode"
_json.JSONEncoder.encode = _json_encode_checked


# `json.loads` errors as CPython 3.11 reports them: 3.13 (the embedded library) says "Illegal
# trailing comma" at the comma where 3.11 expects a name or value at the closing bracket, and
# names a bad escape's or control character, one position further on.
_JSONDecodeError = _json.JSONDecodeError
_json_decode_error_init = _JSONDecodeError.__init__
_JSON_WHITESPACE = " \t\n\r"


def _json_decode_error_init_311(self, msg, doc, pos):
    if msg in ("Illegal trailing comma before end of object",
               "Illegal trailing comma before end of array"):
        end = pos + 1
        while end < len(doc) and doc[end] in _JSON_WHITESPACE:
            end += 1
        if msg.endswith("object"):
            msg = "Expecting property name enclosed in double quotes"
        else:
            msg = "Expecting value"
        pos = end
    elif msg.startswith("Invalid \\escape: "):
        msg = "Invalid \\escape"
        pos -= 1
    elif msg.startswith("Invalid control character ") and msg != "Invalid control character at":
        msg = "Invalid control character at"
        pos -= 1
    _json_decode_error_init(self, msg, doc, pos)


_json_decode_error_init_311.__name__ = _json_decode_error_init_311.__qualname__ = "__init__"
_JSONDecodeError.__init__ = _json_decode_error_init_311


# `format(Decimal(...), spec)`: CPython 3.11's decimal (libmpdec) has no `_` grouping and no
# separators after the point, which the embedded (3.13) `_pydecimal` accepts.
import decimal as _decimal_module
import _pydecimal

_decimal_format = _decimal_module.Decimal.__format__


def _decimal_format_311(self, specifier, context=None, _localeconv=None):
    # libmpdec words every bad specifier so; `_pydecimal` says "Invalid format specifier: …".
    if isinstance(specifier, str):
        m = _pydecimal._parse_format_specifier_regex.match(specifier)
        if m is None or m.group("thousands_sep") == "_" or m.group("frac_separators"):
            raise ValueError("invalid format string")
    return _decimal_format(self, specifier, context, _localeconv)


_decimal_format_311.__name__ = _decimal_format_311.__qualname__ = "__format__"
_decimal_module.Decimal.__format__ = _decimal_format_311


# A trapped signal: libmpdec's exception carries the list of the conditions that trapped
# (`decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]`), `_pydecimal`'s a sentence
# ("Invalid literal for Decimal: 'abc'"). Otherwise as `_pydecimal.Context._raise_error`.
def _decimal_raise_error_311(self, condition, explanation=None, *args):
    error = _pydecimal._condition_map.get(condition, condition)
    if error in self._ignored_flags:
        return error().handle(self, *args)
    self.flags[error] = 1
    if not self.traps[error]:
        return condition().handle(self, *args)
    raise error([condition])


_decimal_raise_error_311.__name__ = _decimal_raise_error_311.__qualname__ = "_raise_error"
_pydecimal.Context._raise_error = _decimal_raise_error_311


# `OrderedDict`'s repr as CPython 3.11 prints it (`OrderedDict([('x', 1)])`; 3.12 changed it to
# the dict form the embedded library has).
import collections as _collections
import reprlib as _reprlib


class _tuplegetter:
    """A namedtuple field, as CPython's `_collections._tuplegetter`: read-only with CPython
    3.11's words (the embedded library falls back to a `property`, which says `property 'x'
    of 'P' object has no setter`)."""

    def __init__(self, index, doc):
        self._index = index
        self.__doc__ = doc

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return tuple.__getitem__(instance, self._index)

    def __set__(self, instance, value):
        raise AttributeError("can't set attribute")

    def __delete__(self, instance):
        raise AttributeError("can't delete attribute")


_collections._tuplegetter = _tuplegetter


# `namedtuple(...)._replace` with an unknown field: CPython 3.11 raises ValueError (3.13, the
# embedded library, TypeError).
_namedtuple = _collections.namedtuple
_ACTOR_MODULE = "__actor__"


def _check_class_module(module):
    # `namedtuple` and `make_dataclass` set the new class's `__module__` after creating it,
    # past the check of its namespace: a library module there would let `typing.get_type_hints`
    # evaluate the class's annotations in that module's globals.
    if (module is not None and module != _ACTOR_MODULE
            and module in _collections._sys.modules):
        raise TypeError(
            f"a class created by an actor cannot belong to the library module '{module}' "
            "(rule: class-module)"
        )


def _caller_module(depth):
    # The module of the frame `depth` levels above the caller, as `namedtuple` finds it.
    try:
        return _collections._sys._getframemodulename(depth + 1) or "__main__"
    except AttributeError:
        try:
            return _collections._sys._getframe(depth + 1).f_globals.get("__name__", "__main__")
        except (AttributeError, ValueError):
            return None


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if module is None:
        # The caller's module, as `namedtuple` itself finds it (one frame further out here).
        module = _caller_module(1)
    _check_class_module(module)
    cls = _namedtuple(typename, field_names, rename=rename, defaults=defaults, module=module)
    fields = cls._fields

    def _replace(self, /, **kwds):
        result = self._make(map(kwds.pop, fields, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    _replace.__doc__ = cls._replace.__doc__
    _replace.__qualname__ = cls._replace.__qualname__
    cls._replace = _replace
    if "__replace__" in cls.__dict__:
        # 3.13's `copy.replace` hook, which 3.11 does not have.
        del cls.__replace__
    return cls


namedtuple.__doc__ = _namedtuple.__doc__
namedtuple.__module__ = "collections"
_collections.namedtuple = namedtuple


@_reprlib.recursive_repr()
def _ordered_dict_repr(self):
    if not self:
        return "%s()" % (self.__class__.__name__,)
    return "%s(%r)" % (self.__class__.__name__, list(self.items()))


_ordered_dict_repr.__name__ = _ordered_dict_repr.__qualname__ = "__repr__"
_collections.OrderedDict.__repr__ = _ordered_dict_repr


# Warnings go nowhere. Actors cannot import `warnings`, so a warning is never part of a result,
# but recording one changes state that outlives the call (a module's `__warningregistry__`,
# the "once" filters): the first call that warns would allocate it and later ones would not
# (`re._parser` warns of possible nested sets in `[[a]`; corpus `re_parser_warning`).
import warnings as _warnings


def _no_warning(message, category=None, stacklevel=1, source=None, *, skip_file_prefixes=()):
    """Discards the warning (the PVM has no stderr, and actors cannot observe warnings)."""


_warnings.warn = _no_warning


# `string.Template` compiles its pattern with the actors' `re` (`_cowboy_re`), as CPython 3.11's
# compiles it with `re`: the library's own `re` runs a backtracking engine that is not metered, and
# `Template.pattern` is reachable by actors (`Template.pattern.findall(text)` scanned any text for
# a constant charge). With the actors' engine every search is charged per character, and a
# subclass's own `pattern`, `idpattern` or `flags` is held to the same rule (`re-linear-time`) as
# any pattern an actor compiles. `flags` is `re.IGNORECASE` from the start, as in 3.11.
import _cowboy_re
import string as _string


def _template_compile_pattern(cls):
    re = _cowboy_re
    pattern = cls.__dict__.get("pattern", _string._TemplatePattern)
    if pattern is _string._TemplatePattern:
        delim = re.escape(cls.delimiter)
        id = cls.idpattern
        bid = cls.braceidpattern or cls.idpattern
        pattern = fr"""
            {delim}(?:
              (?P<escaped>{delim})  |   # Escape sequence of two delimiters
              (?P<named>{id})       |   # delimiter and a Python identifier
              {{(?P<braced>{bid})}} |   # delimiter and a braced identifier
              (?P<invalid>)             # Other ill-formed delimiter exprs
            )
            """
    if cls.flags is None:
        cls.flags = re.IGNORECASE
    pat = cls.pattern = re.compile(pattern, cls.flags | re.VERBOSE)
    return pat


_template_compile_pattern.__name__ = "_compile_pattern"
_template_compile_pattern.__qualname__ = "Template._compile_pattern"
_string.Template._compile_pattern = classmethod(_template_compile_pattern)
_string.Template.pattern = _string._TemplatePattern
_string.Template.flags = _cowboy_re.IGNORECASE


# `dataclasses` and `enum` as CPython 3.11 has them, where the embedded (3.13) library changed
# an error or a default.
_init_fn = dataclasses._init_fn


def _init_fn_311(fields, std_fields, *args, **kwargs):
    # 3.11 does not name the default argument the field follows.
    seen_default = False
    for f in std_fields:
        if f.init:
            if not (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING):
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
    return _init_fn(fields, std_fields, *args, **kwargs)


dataclasses._init_fn = _init_fn_311

_dataclass_replace = dataclasses.replace


def replace(obj, /, **changes):
    # CPython 3.11's: its errors are ValueErrors (3.13's TypeErrors).
    if not dataclasses._is_dataclass_instance(obj):
        raise TypeError("replace() should be called on dataclass instances")
    for f in getattr(obj, dataclasses._FIELDS).values():
        if f._field_type is dataclasses._FIELD_CLASSVAR:
            continue
        if not f.init:
            if f.name in changes:
                raise ValueError(
                    f"field {f.name} is declared with init=False, it cannot be specified with "
                    "replace()"
                )
            continue
        if f.name not in changes:
            if f._field_type is dataclasses._FIELD_INITVAR and f.default is dataclasses.MISSING:
                raise ValueError(f"InitVar {f.name!r} must be specified with replace()")
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


replace.__doc__ = _dataclass_replace.__doc__
replace.__module__ = "dataclasses"
dataclasses.replace = replace


# An actor's classes belong to the module `__actor__`, which is not in `sys.modules` (registering
# it would let library code that writes into a class's module, such as `enum.global_enum`, bind
# any name in the actor's globals, the metering hooks included). Library code that only *reads* a
# class's module finds the call's actor module instead as the globals of the innermost actor frame
# (a call runs one actor module): `dataclasses` resolving a quoted annotation (`"ClassVar[int]"`,
# `"typing.ClassVar[int]"`, `"InitVar[int]"`; it failed on every quoted annotation before), and
# `typing.get_type_hints` evaluating a class's quoted annotations.
def _actor_globals():
    frame = _collections._sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__") == _ACTOR_MODULE:
            return frame.f_globals
        frame = frame.f_back
    return None


class _ActorModuleView:
    """What `typing` gets for `sys.modules.get("__actor__")`: the actor's globals as `__dict__`."""

    __slots__ = ("_namespace",)

    def __init__(self, namespace):
        self._namespace = namespace

    @property
    def __dict__(self):
        return self._namespace


class _ModulesWithActor:
    """`sys.modules` for reading: `get` also finds the call's actor module (as a view)."""

    __slots__ = ()

    def get(self, name, default=None):
        module = _collections._sys.modules.get(name)
        if module is not None:
            return module
        if name == _ACTOR_MODULE:
            namespace = _actor_globals()
            if namespace is not None:
                return _ActorModuleView(namespace)
        return default


class _SysForTyping:
    """`typing`'s `sys`: the real module, but `modules.get` also finds the call's actor module."""

    __slots__ = ()
    modules = _ModulesWithActor()

    def __getattr__(self, name):
        return getattr(_collections._sys, name)


_MODULES_WITH_ACTOR = _SysForTyping.modules


def _module_namespace(name):
    return getattr(_MODULES_WITH_ACTOR.get(name), "__dict__", None)


def _same_module(bound, module, name):
    # An actor's `import typing` binds a facade of the module (a module object of the same name
    # holding the same public objects), which CPython's identity test would not recognise.
    return bound is module or (
        type(bound) is type(module)
        and bound.__name__ == module.__name__
        and bound.__dict__.get(name, bound) is module.__dict__.get(name, module)
    )


def _is_type(annotation, cls, a_module, a_type, is_type_predicate):
    match = dataclasses._MODULE_IDENTIFIER_RE.match(annotation)
    if not match:
        return False
    home = _module_namespace(cls.__module__)
    if not match.group(1):
        ns = home
    elif home is not None and _same_module(home.get(match.group(1)), a_module, match.group(2)):
        ns = _module_namespace(a_type.__module__)
    else:
        ns = None
    return bool(ns and is_type_predicate(ns.get(match.group(2)), a_module))


dataclasses._is_type = _is_type

# ---- typing.Union and Optional as CPython 3.11 has them --------------------------------------
# The embedded library is 3.14's, where `Union[int, str]` is the same object as `int | str` and
# prints as `int | str`. In 3.11, `Union[...]` and `Optional[...]` make a `_UnionGenericAlias`
# that prints `typing.Union[int, str]` / `typing.Optional[int]`, while `int | str` stays a
# `types.UnionType`. `typing.Union` becomes a class again whose subscription builds that alias;
# 3.14's own code asks `isinstance(t, Union)` to recognise `int | str`, which it still does.
import types as _types
import typing as _typing

# typing reads a class's module for `get_type_hints` (see `_SysForTyping` above).
_typing.sys = _SysForTyping()


class _UnionForm(type):
    def __repr__(cls):
        return "typing.Union"

    def __call__(cls, *args, **kwargs):
        raise TypeError("Cannot instantiate typing.Union")

    def __instancecheck__(cls, obj):
        # What 3.14's typing means by `isinstance(t, Union)`; 3.11's objects are aliases.
        return type(obj) is _types.UnionType

    def __or__(cls, other):
        return cls[cls, other]

    def __ror__(cls, other):
        return cls[other, cls]

    def __getitem__(cls, parameters):
        return _union_of(parameters)


class Union(metaclass=_UnionForm):
    """Union type; Union[X, Y] means either X or Y.

    On CPython 3.11's terms: `Union[int, str]` prints as `typing.Union[int, str]`, a union of a
    type and None as `typing.Optional[int]`; `int | str` is a different object (a
    `types.UnionType`) that compares equal to it.
    """

    def __init_subclass__(cls, *args, **kwargs):
        raise TypeError("Cannot subclass typing.Union")


Union.__module__ = "typing"


def _union_member(parameter):
    if parameter is Union:
        raise TypeError("Plain typing.Union is not valid as type argument")
    return _typing._type_check(parameter, "Union[arg, ...]: each arg must be a type.")


# Uncached, as the library's other subscriptions run here (see `_cowboy_reset`).
def _union_of(parameters):
    if parameters == ():
        raise TypeError("Cannot take a Union of no types.")
    if not isinstance(parameters, tuple):
        parameters = (parameters,)
    members = []
    for parameter in map(_union_member, parameters):
        if isinstance(parameter, (_UnionGenericAlias, _types.UnionType)):
            members.extend(parameter.__args__)
        else:
            members.append(parameter)
    members = tuple(_typing._deduplicate(members))
    if len(members) == 1:
        return members[0]
    if len(members) == 2 and type(None) in members:
        return _UnionGenericAlias(Union, members, name="Optional")
    return _UnionGenericAlias(Union, members)


class _UnionGenericAlias(_typing._NotIterable, _typing._GenericAlias, _root=True):
    def copy_with(self, params):
        return Union[params]

    def __eq__(self, other):
        if not isinstance(other, (_UnionGenericAlias, _types.UnionType)):
            return NotImplemented
        return set(self.__args__) == set(other.__args__)

    def __hash__(self):
        return hash(frozenset(self.__args__))

    def __repr__(self):
        args = self.__args__
        if len(args) == 2:
            if args[0] is type(None):
                return f"typing.Optional[{_typing._type_repr(args[1])}]"
            if args[1] is type(None):
                return f"typing.Optional[{_typing._type_repr(args[0])}]"
        return "typing.Union[" + ", ".join(_typing._type_repr(a) for a in args) + "]"

    def __instancecheck__(self, obj):
        return self.__subclasscheck__(type(obj))

    def __subclasscheck__(self, cls):
        for arg in self.__args__:
            if issubclass(cls, arg):
                return True
        return False

    def __reduce__(self):
        func, (origin, args) = super().__reduce__()
        return func, (Union, args)


_UnionGenericAlias.__module__ = "typing"
_typing_get_origin = _typing.get_origin


def get_origin(tp):
    # 3.11 answers `types.UnionType` for `int | str`, and `typing.Union` for `Union[int, str]`.
    if type(tp) is _types.UnionType:
        return _types.UnionType
    return _typing_get_origin(tp)


get_origin.__doc__ = _typing_get_origin.__doc__
get_origin.__module__ = "typing"
_typing.Union = Union
_typing._UnionGenericAlias = _UnionGenericAlias
_typing.get_origin = get_origin
# singledispatch's `register` takes a union made either way, as in 3.11.
functools.UnionType = (_types.UnionType, _UnionGenericAlias)


import enum as _enum


def _generate_next_value_(name, start, count, last_values):
    """
    Generate the next value when not given.

    name: the name of the member
    start: the initial start value or None
    count: the number of existing members
    last_values: the list of values assigned
    """
    # 3.11: the last value plus one when the values sort and it is the largest; otherwise the
    # last value that can be incremented, from the end (3.13 refuses values that do not sort).
    if not last_values:
        return start
    try:
        last = last_values[-1]
        last_values.sort()
        if last == last_values[-1]:
            return last + 1
        raise TypeError
    except TypeError:
        for v in reversed(last_values):
            try:
                return v + 1
            except TypeError:
                pass
        return start


_generate_next_value_.__qualname__ = "Enum._generate_next_value_"
_generate_next_value_.__module__ = "enum"
_enum.Enum._generate_next_value_ = staticmethod(_generate_next_value_)


# Library functions memoised with ``functools.lru_cache`` at import: the cache's lock and its
# entries are library objects, which a call may not change (rule: library-read-only), so
# ``hash(Fraction(1, 3))`` and ``isinstance(x, SomeRuntimeProtocol)`` failed. Their caches only
# saved time, and a warm cache would make a call's cost depend on earlier calls: they run
# uncached. (typing's own caches fall back to the uncached function and are reset between
# calls, see ``_cowboy_reset``.)
import fractions as _fractions
import inspect as _inspect

_fractions._hash_algorithm = _fractions._hash_algorithm.__wrapped__
_inspect._shadowed_dict_from_weakref_mro_tuple = (
    _inspect._shadowed_dict_from_weakref_mro_tuple.__wrapped__
)


# `dataclasses.make_dataclass` as in CPython 3.11, without 3.12's `module` parameter (which,
# set after the class is created, would bypass the class-module rule). The class belongs to
# the caller's module, found here one frame further out than `make_dataclass` would look.
_make_dataclass = dataclasses.make_dataclass


def make_dataclass(cls_name, fields, *, bases=(), namespace=None, init=True, repr=True, eq=True,
                   order=False, unsafe_hash=False, frozen=False, match_args=True,
                   kw_only=False, slots=False, weakref_slot=False):
    return _make_dataclass(
        cls_name, fields, bases=bases, namespace=namespace, init=init, repr=repr, eq=eq,
        order=order, unsafe_hash=unsafe_hash, frozen=frozen, match_args=match_args,
        kw_only=kw_only, slots=slots, weakref_slot=weakref_slot, module=_caller_module(1))


make_dataclass.__doc__ = _make_dataclass.__doc__
make_dataclass.__module__ = "dataclasses"
dataclasses.make_dataclass = make_dataclass


# `Decimal.ln`, `log10`, `exp` and `**` read digits of log(10) from one memo object made at
# import, and store more when a precision needs them (above ~37 digits): a change to a library
# object a call may not make (rule: library-read-only), and a memo that would make a call's cost
# depend on earlier calls. Each use starts from a fresh memo holding the 47 digits the library
# writes in.
def _log10_digits(p):
    return _pydecimal._Log10Memoize().getdigits(p)


_pydecimal._log10_digits = _log10_digits


# `base64` builds its base32 and base85 tables on first use and keeps them in module globals:
# the first call on a node would pay for them and later calls not. Built now, at preload.
import base64 as _base64

_base64.b32encode(b"a")
_base64.b32hexencode(b"a")
_base64.b32decode(b"ME======")
_base64.b32hexdecode(b"C4======")
_base64.a85encode(b"a")
_base64.a85decode(b"@/")
_base64.b85encode(b"a")
_base64.b85decode(b"VE")


# `inspect.signature` of a built-in (`object.__init__`, reached by `@dataclass(init=False)`
# while it writes the class's `__doc__`) re-renders Argument Clinic's text signature through
# `tokenize`, which the PVM does not embed. The same rendering, without it: whitespace outside
# string literals dropped, `, ` after each comma, and the `$` marking the self parameter
# removed and its index returned (commas counted at every depth, as the token walk does).
def _signature_strip_non_python_syntax(signature):
    if not signature:
        return signature, None
    self_parameter = None
    current_parameter = 0
    text = []
    i = 0
    n = len(signature)
    while i < n:
        c = signature[i]
        if c in "'\"":
            j = i + 1
            while j < n and signature[j] != c:
                j += 2 if signature[j] == "\\" else 1
            text.append(signature[i:j + 1])
            i = j + 1
            continue
        i += 1
        if c in " \t\n\r\f":
            continue
        if c == ",":
            current_parameter += 1
            text.append(", ")
        elif c == "$":
            self_parameter = current_parameter
        else:
            text.append(c)
    return "".join(text).strip(), self_parameter


_inspect._signature_strip_non_python_syntax = _signature_strip_non_python_syntax


# ---- UTF-16 and UTF-32 codecs ---------------------------------------------------------------
# RustPython hands these `_codecs` functions to a Python module (`_pycodecs`) through a cell
# shared by the whole process, which the PVM does not embed: `s.encode("utf-16-le")` said
# "unknown encoding". They are written here after CPython's `Objects/unicodeobject.c`: the same
# results, errors (reason, positions, the encoding named) and error-handler protocol
# (`codecs.lookup_error`), checked against CPython 3.11 on random inputs for every function and
# handler. Metered like any Python code. The `encodings` modules bind them when imported, so
# they are installed before those modules load (below).
import _codecs as _codecs_native
import codecs as _codecs_module

def _handler_range(pos, length):
    if pos < 0:
        pos += length
    if not 0 <= pos <= length:
        raise IndexError(f"position {pos} from error handler out of bounds")
    return pos


def _utf_encode(s, errors, unit, order, encoding):
    # UTF-16 (unit 2) or UTF-32 (unit 4) code units of `s`, in byte order `order`.
    out = bytearray()
    n = len(s)
    i = 0
    while i < n:
        cp = ord(s[i])
        if cp < 0xD800 or 0xE000 <= cp < 0x10000 or (cp >= 0x10000 and unit == 4):
            out += cp.to_bytes(unit, order)
            i += 1
        elif cp >= 0x10000:
            cp -= 0x10000
            out += (0xD800 | (cp >> 10)).to_bytes(2, order)
            out += (0xDC00 | (cp & 0x3FF)).to_bytes(2, order)
            i += 1
        else:
            exc = UnicodeEncodeError(encoding, s, i, i + 1, "surrogates not allowed")
            if errors is None or errors == "strict":
                raise exc
            rep, pos = _codecs_native.lookup_error(errors)(exc)
            if isinstance(rep, (bytes, bytearray)):
                if len(rep) % unit:
                    raise exc
                out += rep
            else:
                for ch in rep:
                    if ord(ch) >= 128:
                        raise exc
                    out += ord(ch).to_bytes(unit, order)
            i = _handler_range(pos, n)
    return bytes(out)


def _decode_error(errors, encoding, data, start, end, reason, out):
    # Calls the error handler; returns the position to resume at.
    exc = UnicodeDecodeError(encoding, data, start, end, reason)
    if errors is None or errors == "strict":
        raise exc
    rep, pos = _codecs_native.lookup_error(errors)(exc)
    out.append(rep)
    return _handler_range(pos, len(data))


def _utf16_decode(data, errors, final, order, encoding, i=0):
    n = len(data)
    out = []
    while i < n:
        if i + 1 >= n:
            if not final:
                break
            i = _decode_error(errors, encoding, data, i, n, "truncated data", out)
            continue
        u = int.from_bytes(data[i:i + 2], order)
        if u < 0xD800 or u >= 0xE000:
            out.append(chr(u))
            i += 2
        elif u >= 0xDC00:
            i = _decode_error(errors, encoding, data, i, i + 2, "illegal encoding", out)
        elif i + 3 >= n:
            if not final:
                break
            i = _decode_error(errors, encoding, data, i, n, "unexpected end of data", out)
        else:
            u2 = int.from_bytes(data[i + 2:i + 4], order)
            if 0xDC00 <= u2 < 0xE000:
                out.append(chr(0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00)))
                i += 4
            else:
                i = _decode_error(errors, encoding, data, i, i + 2, "illegal UTF-16 surrogate", out)
    return "".join(out), i


def _utf32_decode(data, errors, final, order, encoding, i=0):
    n = len(data)
    out = []
    while i < n:
        if i + 3 >= n:
            if not final:
                break
            i = _decode_error(errors, encoding, data, i, n, "truncated data", out)
            continue
        cp = int.from_bytes(data[i:i + 4], order)
        if cp >= 0x110000:
            i = _decode_error(errors, encoding, data, i, i + 4,
                              "code point not in range(0x110000)", out)
        elif 0xD800 <= cp < 0xE000:
            i = _decode_error(errors, encoding, data, i, i + 4,
                              "code point in surrogate code point range(0xd800, 0xe000)", out)
        else:
            out.append(chr(cp))
            i += 4
    return "".join(out), i


def _bytes_like(data):
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    raise TypeError(f"a bytes-like object is required, not '{type(data).__name__}'")


def _codec_functions(unit, name, decode):
    # The `_codecs` functions of one family: `utf_16` or `utf_32` (unit 2 or 4 bytes).
    bom_le = (b"\xff\xfe" if unit == 2 else b"\xff\xfe\x00\x00")
    bom_be = (b"\xfe\xff" if unit == 2 else b"\x00\x00\xfe\xff")
    dashed = name.replace("_", "-")

    def text(s, function):
        if not isinstance(s, str):
            raise TypeError(
                f"{name}{function}() argument 1 must be str, not {type(s).__name__}")
        return s

    def encode_le(s, errors=None, /):
        text(s, "_le_encode")
        return _utf_encode(s, errors, unit, "little", dashed + "-le"), len(s)

    def encode_be(s, errors=None, /):
        text(s, "_be_encode")
        return _utf_encode(s, errors, unit, "big", dashed + "-be"), len(s)

    def encode(s, errors=None, byteorder=0, /):
        text(s, "_encode")
        if byteorder < 0:
            return _utf_encode(s, errors, unit, "little", dashed + "-le"), len(s)
        if byteorder > 0:
            return _utf_encode(s, errors, unit, "big", dashed + "-be"), len(s)
        return bom_le + _utf_encode(s, errors, unit, "little", dashed), len(s)

    def decode_le(data, errors=None, final=False, /):
        return decode(_bytes_like(data), errors, final, "little", dashed + "-le")

    def decode_be(data, errors=None, final=False, /):
        return decode(_bytes_like(data), errors, final, "big", dashed + "-be")

    def ex_decode(data, errors=None, byteorder=0, final=False, /):
        data = _bytes_like(data)
        skip = 0
        if byteorder == 0:
            if data[:unit] == bom_le:
                byteorder, skip = -1, unit
            elif data[:unit] == bom_be:
                byteorder, skip = 1, unit
            elif len(data) < unit and not final and (bom_le.startswith(data) or bom_be.startswith(data)):
                return "", 0, 0
        order, suffix = ("big", "-be") if byteorder > 0 else ("little", "-le")
        text, consumed = decode(data, errors, final, order, dashed + suffix, skip)
        return text, consumed, byteorder

    def decode_any(data, errors=None, final=False, /):
        text, consumed, _ = ex_decode(data, errors, 0, final)
        return text, consumed

    functions = {
        f"{name}_le_encode": encode_le,
        f"{name}_be_encode": encode_be,
        f"{name}_encode": encode,
        f"{name}_le_decode": decode_le,
        f"{name}_be_decode": decode_be,
        f"{name}_decode": decode_any,
        f"{name}_ex_decode": ex_decode,
    }
    for fname, f in functions.items():
        f.__name__ = f.__qualname__ = fname
    return functions


for _family in (_codec_functions(2, "utf_16", _utf16_decode),
                _codec_functions(4, "utf_32", _utf32_decode)):
    for _name, _function in _family.items():
        _function.__module__ = "_codecs"
        setattr(_codecs_native, _name, _function)
        setattr(_codecs_module, _name, _function)

for _name in ("utf_16", "utf_16_le", "utf_16_be", "utf_32", "utf_32_le", "utf_32_be"):
    if "encodings." + _name in _collections._sys.modules:
        raise RuntimeError(f"encodings.{_name} was imported before its codec functions were installed")
import encodings.utf_16
import encodings.utf_16_be
import encodings.utf_16_le
import encodings.utf_32
import encodings.utf_32_be
import encodings.utf_32_le


# `collections.deque` as a sequence: CPython's deque has the flag that makes `match` take it for a
# sequence (`case [a, b]:`); RustPython's native deque lacks it, so a deque fell through to
# `case _`. `collections.deque` becomes a subclass with the flag (`__abc_tpflags__`, read when a
# class is created), whose `+` and `*` give the subclass, as CPython's deque's do. Installed by
# the engine once the native deque's methods are charged (`prices::install_deque`), so that the
# subclass inherits the charged slots.
def _install_sequence_deque():
    native = _collections.deque
    sequence_flag = 1 << 5

    class deque(native):
        __slots__ = ()
        __abc_tpflags__ = sequence_flag

        def __add__(self, other):
            if not isinstance(other, native):
                raise TypeError(
                    f'can only concatenate deque (not "{type(other).__name__}") to deque')
            new = self.copy()
            new.extend(other)
            return new

        def __mul__(self, n):
            new = self.copy()
            new *= n
            return new

        __rmul__ = __mul__

    deque.__module__ = "collections"
    deque.__qualname__ = "deque"
    deque.__doc__ = native.__doc__
    for method in (deque.__add__, deque.__mul__):
        method.__qualname__ = "deque." + method.__name__
    _collections.deque = deque
    # `typing.Deque` was made from the native class when `typing` was imported.
    import typing
    typing.Deque = typing._alias(deque, 1, name="Deque")


# `string.Formatter.parse` as CPython 3.11's `_string.formatter_parser` (`MarkupIterator_next`
# in `Objects/stringlib/unicode_format.h`): RustPython's joins the literal text around an
# escaped brace ('b{{c}}' gives one chunk 'b{c}' where CPython gives 'b{' and 'c}'). Lazy, as
# CPython's: an error is raised at the chunk it is in.
def _formatter_parser(format_string):
    if not isinstance(format_string, str):
        raise TypeError(f"expected str, got {type(format_string).__name__}")
    s = format_string
    end = len(s)
    pos = 0
    while pos < end:
        start = pos
        c = ""
        markup = False
        while pos < end:
            c = s[pos]
            pos += 1
            if c == "{" or c == "}":
                markup = True
                break
        at_end = pos >= end
        literal_end = pos
        if c == "}" and markup and (at_end or s[pos] != "}"):
            raise ValueError("Single '}' encountered in format string")
        if at_end and markup and c == "{":
            raise ValueError("Single '{' encountered in format string")
        if not at_end and markup:
            if s[pos] == c:
                pos += 1
                markup = False
            else:
                literal_end -= 1
        literal = s[start:literal_end]
        if not markup:
            yield (literal, None, None, None)
            continue
        name_start = pos
        c = ""
        while pos < end:
            c = s[pos]
            pos += 1
            if c == "{":
                raise ValueError("unexpected '{' in field name")
            if c == "[":
                while pos < end and s[pos] != "]":
                    pos += 1
                c = ""
                continue
            if c in "}:!":
                break
            c = ""
        name = s[name_start:pos - 1] if c else s[name_start:pos]
        conversion = None
        spec = ""
        if c == "!" or c == ":":
            if c == "!":
                if pos >= end:
                    raise ValueError("end of string while looking for conversion specifier")
                conversion = s[pos]
                pos += 1
                if pos < end:
                    c = s[pos]
                    pos += 1
                    if c == "}":
                        yield (literal, name, spec, conversion)
                        continue
                    if c != ":":
                        raise ValueError("expected ':' after conversion specifier")
            spec_start = pos
            count = 1
            while pos < end:
                c = s[pos]
                pos += 1
                if c == "{":
                    count += 1
                elif c == "}":
                    count -= 1
                    if count == 0:
                        break
            if count:
                raise ValueError("unmatched '{' in format spec")
            spec = s[spec_start:pos - 1]
        elif c != "}":
            raise ValueError("expected '}' before end of string")
        yield (literal, name, spec, conversion)


def _format_integer(text):
    # `get_integer`: any decimal digits (not only ASCII), or None.
    if not text:
        return None
    value = 0
    for c in text:
        if not c.isdecimal():
            return None
        value = value * 10 + int(c)
        if value > 9223372036854775807:
            raise ValueError("Too many decimal digits in format string")
    return value


def _field_name_rest(s, pos):
    # `FieldNameIterator_next`, lazily: `(is_attribute, name or index)` per part.
    end = len(s)
    while pos < end:
        c = s[pos]
        pos += 1
        if c == ".":
            start = pos
            while pos < end and s[pos] != "." and s[pos] != "[":
                pos += 1
            name = s[start:pos]
            index = None
            attribute = True
        elif c == "[":
            start = pos
            while pos < end and s[pos] != "]":
                pos += 1
            if pos >= end:
                raise ValueError("Missing ']' in format string")
            name = s[start:pos]
            pos += 1
            index = _format_integer(name)
            attribute = False
        else:
            raise ValueError("Only '.' or '[' may follow ']' in format field specifier")
        if not name:
            raise ValueError("Empty attribute in format string")
        yield (attribute, name if index is None else index)


def _formatter_field_name_split(field_name):
    # CPython 3.11's `_string.formatter_field_name_split`: RustPython's words every error of
    # the parts "Unexpected error parsing format string" and takes only ASCII digits as an index.
    if not isinstance(field_name, str):
        raise TypeError(f"expected str, got {type(field_name).__name__}")
    split = len(field_name)
    for i, c in enumerate(field_name):
        if c == "." or c == "[":
            split = i
            break
    first = field_name[:split]
    index = _format_integer(first)
    return (first if index is None else index), _field_name_rest(field_name, split)




# `string`'s handle on the native `_string` module is replaced by these two (the only ones it
# uses): `Formatter.parse`, `get_field` and `vformat` call them through it.
import types as _types

_string._string = _types.SimpleNamespace(
    formatter_parser=_formatter_parser,
    formatter_field_name_split=_formatter_field_name_split,
)


# The codec registry caches what it finds: the native registry every name its search found a
# codec for, `encodings._cache` every name it searched, found or not. Filled by calls, both
# made a call's lookup cheaper after an earlier call had looked the name up ('x'.encode(
# 'utf-16-le') cost 963 cycles more on a node that had just started). Every name a codec can
# be found under is looked up now, so the native registry finds each at once in every call;
# a name that finds no codec is searched again each time (metered), as `encodings._cache`
# keeps only what it holds now.
import encodings as _encodings
import encodings.aliases as _encoding_aliases


def _codec_names():
    modules = ("ascii", "latin_1", "utf_8", "utf_16", "utf_16_be", "utf_16_le", "utf_32",
               "utf_32_be", "utf_32_le")
    names = set(modules)
    for alias, module in _encoding_aliases.aliases.items():
        if module in modules:
            # The search also finds an alias written with dots for its underscores.
            variants = [""]
            for part in alias.split("_"):
                variants = [v + sep + part for v in variants for sep in (("_", ".") if v else ("",))]
            names.update(variants)
    return sorted(names)


for _name in _codec_names():
    try:
        _codecs_module.lookup(_name)
    except LookupError:
        pass


class _CodecCache(dict):
    """`encodings._cache`, holding only what it holds when the library is sealed."""

    __slots__ = ()

    def __setitem__(self, key, value):
        pass


_encodings._cache = _CodecCache(
    (k, v) for k, v in _encodings._cache.items() if v is not None
)


# RustPython makes some objects the first time they are needed and keeps them for as long as
# the process runs: the class behind `weakref.proxy` (`OrderedDict` links through proxies),
# `struct.error`, `ExceptionGroup`. Made in a call, they were charged to the first call on a
# node that needed them (1.7 KB for the proxy class) and to no later one: made now.
import _weakref


class _Referent:
    pass


_weakref.proxy(_Referent())
try:
    _struct.pack("b", 1000)
except _struct.error:
    pass
ExceptionGroup("", [ValueError()])
del _Referent
