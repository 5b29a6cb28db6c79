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
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import encode  # noqa: E402 - the one canonical encoder, shared with the corpus
SUITE = os.path.join(HERE, "differential")
EXPECTED = os.path.join(SUITE, "expected.json")


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
    # The program runs as a module named as the PVM names an actor's (`__actor__`), registered in
    # sys.modules while `run()` runs, as an actor's module is during a call: library code finds
    # a class's module there (`typing.get_type_hints(cls)`).
    module = types.ModuleType("__actor__")
    module.__file__ = path
    sys.modules["__actor__"] = module
    try:
        with open(path, encoding="utf-8") as f:
            exec(compile(f.read(), path, "exec"), module.__dict__)
        value = module.run()
        result = {"ok": encode(value).hex(), "repr": repr(value)}
    except Exception as e:  # noqa: BLE001 - any failure is data for the comparison
        result = {"error": type(e).__name__, "message": str(e)}
    finally:
        del sys.modules["__actor__"]
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
