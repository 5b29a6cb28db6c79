"""CPython 3.11 oracle for the PVM's differential suite (``differential/<area>/<name>.py``).

Each program defines ``run()``. The oracle runs it under CPython and records, per program,
either the canonical encoding of its result (the PVM's deterministic CBOR profile, hex, with
CPython's ``repr`` alongside for reading) or the exception it raised (type name and ``str``).
``tests/differential.rs`` runs the same programs on the PVM and compares; it reads the
recorded file, so the suite runs without CPython too.

A program that the PVM refuses on purpose says so on its first line::

    # refused: <rule-id>

and its CPython result is still recorded (it documents what the refused construct does).

Usage (from the repository root; PYTHONHASHSEED pins str hashing):

    PYTHONHASHSEED=0 python3 node-lite/pvm/tests/differential.py            # check, print diffs
    PYTHONHASHSEED=0 python3 node-lite/pvm/tests/differential.py --write    # regenerate
    PYTHONHASHSEED=0 python3 node-lite/pvm/tests/differential.py --show str/join_basic
"""

import json
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "differential")
EXPECTED = os.path.join(SUITE, "expected.json")


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


def programs():
    """``(area/name, path)`` of every program, sorted."""
    found = []
    for area in sorted(os.listdir(SUITE)):
        directory = os.path.join(SUITE, area)
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            if name.endswith(".py"):
                found.append((area + "/" + name[:-3], os.path.join(directory, name)))
    return found


def refusal(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline().strip()
    if first.startswith("# refused:"):
        return first.split(":", 1)[1].strip()
    return None


def run_one(path):
    try:
        ns = runpy.run_path(path, run_name="differential")
        value = ns["run"]()
        result = {"ok": encode(value).hex(), "repr": repr(value)}
    except Exception as e:  # noqa: BLE001 - any failure is data for the comparison
        result = {"error": type(e).__name__, "message": str(e)}
    rule = refusal(path)
    if rule:
        result["refused"] = rule
    return result


def main():
    args = sys.argv[1:]
    if os.environ.get("PYTHONHASHSEED") != "0":
        sys.exit("run with PYTHONHASHSEED=0")
    if sys.version_info[:2] != (3, 11):
        sys.exit("the oracle is CPython 3.11; this is " + sys.version.split()[0])
    if args[:1] == ["--show"]:
        for name in args[1:]:
            print(name, json.dumps(run_one(os.path.join(SUITE, name + ".py")), indent=1))
        return
    results = {name: run_one(path) for name, path in programs()}
    if args[:1] == ["--write"]:
        with open(EXPECTED, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, sort_keys=True, ensure_ascii=False)
            f.write("\n")
        print(f"wrote {len(results)} results to {EXPECTED}")
        return
    try:
        with open(EXPECTED, encoding="utf-8") as f:
            recorded = json.load(f)
    except FileNotFoundError:
        recorded = {}
    stale = sorted(n for n in set(results) | set(recorded) if results.get(n) != recorded.get(n))
    for name in stale:
        print(f"{name}: recorded {recorded.get(name)}, CPython now {results.get(name)}")
    if stale:
        sys.exit(f"{len(stale)} recorded results are stale: rerun with --write")
    print(f"{len(results)} recorded results match CPython")


if __name__ == "__main__":
    main()
