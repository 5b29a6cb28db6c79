#!/usr/bin/env python3
"""An independent implementation of runner selection (CIP-2 section 5 with the spec README's
"Decisions for the runner market": the v3 seed, retry seeds, the log-weighted Fisher-Yates
shuffle and the aggregator draw), written from the documents, not from the Rust code.

    python3 selection_oracle.py VECTORS.json            prints the vectors recomputed from their inputs
    python3 selection_oracle.py VECTORS.json --write    rewrites the file with them

Each vector's inputs: round (epoch, view), beacon (48 bytes hex), job_id (32 bytes hex),
min_stake, m, candidates (address, stake, reputation) in any order. Outputs: seed, selected
(draw order), aggregator, retry_seed (retry 1) and retry_selected (retry 1, the first committee
excluded, CIP-2 section 6).
"""

import json
import sys

from Crypto.Hash import keccak


def keccak256(data: bytes) -> bytes:
    return keccak.new(digest_bits=256, data=data).digest()


def leb128(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def selection_seed(epoch: int, view: int, beacon: bytes, job_id: bytes) -> bytes:
    return keccak256(b"cowboy-runner-select-v3:" + leb128(epoch) + leb128(view) + beacon + job_id)


def retry_seed(seed: bytes, retry: int) -> bytes:
    return keccak256(seed + b"retry:" + retry.to_bytes(4, "little"))


def stake_to_weight(stake: int, min_stake: int) -> int:
    # floor(log2(stake // MIN_STAKE + 1)) + 1, in integers: the bit length of the ratio + 1.
    return (stake // min_stake + 1).bit_length()


def fisher_yates(candidates, seed: bytes, m: int, min_stake: int):
    """candidates: [(address bytes, stake)], already filtered; sorted here by address."""
    cands = sorted(candidates, key=lambda c: c[0])
    weights = [stake_to_weight(s, min_stake) for _, s in cands]
    n = len(cands)
    assert m <= n, "not enough candidates"
    current = seed
    for i in range(m):
        total_remaining = sum(weights[i:n])
        h = keccak256(current + i.to_bytes(8, "little"))
        r = int.from_bytes(h[0:8], "little") % total_remaining
        acc = 0
        j = 0
        for k in range(i, n):
            acc += weights[k]
            if r < acc:
                j = k - i
                break
        cands[i], cands[i + j] = cands[i + j], cands[i]
        weights[i], weights[i + j] = weights[i + j], weights[i]
        current = h
    return [a for a, _ in cands[:m]]


def draw_aggregator(committee, reputation, seed: bytes, percentile: int = 50):
    """Uniform among members whose reputation is at least the committee's percentile
    (nearest rank, rounded down), in committee order."""
    reps = sorted(reputation[a] for a in committee)
    threshold = reps[(len(reps) - 1) * percentile // 100]
    eligible = [a for a in committee if reputation[a] >= threshold]
    h = keccak256(seed + b"aggregator")
    return eligible[int.from_bytes(h[0:8], "little") % len(eligible)]


def hx(b: bytes) -> str:
    return "0x" + b.hex()


def unhex(s: str) -> bytes:
    return bytes.fromhex(s[2:] if s.startswith("0x") else s)


def compute(v):
    inp = v["input"]
    beacon = unhex(inp["beacon"])
    job_id = unhex(inp["job_id"])
    cands = [(unhex(c["address"]), int(c["stake"])) for c in inp["candidates"]]
    reputation = {unhex(c["address"]): int(c["reputation"]) for c in inp["candidates"]}
    m, floor = int(inp["m"]), int(inp["min_stake"])
    seed = selection_seed(int(inp["round"]["epoch"]), int(inp["round"]["view"]), beacon, job_id)
    selected = fisher_yates(cands, seed, m, floor)
    retry = retry_seed(seed, 1)
    rest = [c for c in cands if c[0] not in selected]
    retried = fisher_yates(rest, retry, min(m, len(rest)), floor)
    return {
        "name": v["name"],
        "input": inp,
        "output": {
            "seed": hx(seed),
            "selected": [hx(a) for a in selected],
            "aggregator": hx(draw_aggregator(selected, reputation, seed)),
            "retry_seed": hx(retry),
            "retry_selected": [hx(a) for a in retried],
        },
    }


def main():
    path = sys.argv[1]
    with open(path) as f:
        doc = json.load(f)
    doc["vectors"] = [compute(v) for v in doc["vectors"]]
    text = json.dumps(doc, indent=2) + "\n"
    if "--write" in sys.argv[2:]:
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
