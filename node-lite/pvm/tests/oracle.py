"""CPython oracle for the PVM corpus.

Runs every ``corpus/*.py`` program under CPython (the reference for actor semantics), calls its
``run()`` and prints, per program, the canonical encoding of the result (the PVM's deterministic
CBOR profile, hex) or the name of the exception raised. The Rust test runs the same programs on
the PVM and compares byte for byte.

Usage: PYTHONHASHSEED=0 python3 oracle.py CORPUS_DIR > results.json
"""

import json
import os
import runpy
import sys


def head(major, arg):
    m = major << 5
    if arg < 24:
        return bytes([m | arg])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if arg < 1 << (8 * size):
            return bytes([m | info]) + arg.to_bytes(size, "big")
    raise OverflowError


def encode(v):
    """The PVM's canonical value encoding; exact types only, as the PVM converts them."""
    t = type(v)
    if v is None:
        return b"\xf6"
    if v is True:
        return b"\xf5"
    if v is False:
        return b"\xf4"
    if t is int:
        if v.bit_length() > 4096:
            raise OverflowError("int above 4096 bits")
        if v >= 0:
            if v < 1 << 64:
                return head(0, v)
            mag = v.to_bytes((v.bit_length() + 7) // 8, "big")
            return head(6, 2) + head(2, len(mag)) + mag
        n = -1 - v
        if n < 1 << 64:
            return head(1, n)
        mag = n.to_bytes((n.bit_length() + 7) // 8, "big")
        return head(6, 3) + head(2, len(mag)) + mag
    if t is str:
        b = v.encode("utf-8")
        return head(3, len(b)) + b
    if t is bytes:
        return head(2, len(v)) + v
    if t in (list, tuple):
        return head(4, len(v)) + b"".join(encode(x) for x in v)
    if t is dict:
        items = sorted((encode(k), encode(x)) for k, x in v.items())
        return head(5, len(items)) + b"".join(k + x for k, x in items)
    raise TypeError("run() returned a value that is not canonical: " + t.__name__)


def main():
    corpus = sys.argv[1]
    results = {}
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".py"):
            continue
        try:
            ns = runpy.run_path(os.path.join(corpus, name), run_name="corpus")
            results[name[:-3]] = {"ok": encode(ns["run"]()).hex()}
        except Exception as e:  # noqa: BLE001 - any failure is data for the comparison
            results[name[:-3]] = {"error": type(e).__name__, "message": str(e)}
    json.dump(results, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
