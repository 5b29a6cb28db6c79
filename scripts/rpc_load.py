#!/usr/bin/env python3
"""Holds thousands of idle and slow connections against a 1-validator devnet's RPC port and
measures what a well-behaved client sees meanwhile (issue 12's acceptance).

    scripts/rpc_load.py [--cowboy PATH] [--idle 5000] [--slow 200] [--seconds 60]

1. Starts a 1-validator devnet in a temporary COWBOY_HOME (`cowboy devnet up --detach`).
2. Baseline: a well-behaved client (one keep-alive connection, reconnecting if closed) sends
   `cowboy_getBlock("latest")` back to back; its latencies give the idle p50/p99.
3. Attack, for --seconds: --idle connections that connect and send nothing (reconnecting when
   the node closes them), from 127.0.1.x addresses (50 per address, under the per-address cap),
   and --slow clients from 127.0.2.x that trickle a request's headers and body one byte at a
   time (reconnecting when closed). The well-behaved client measures again, from 127.0.0.1.
4. Prints both latency distributions, their ratio, the blocks finalized during the attack, how
   many attack connections were open on average, and what the attackers were told (503, 408,
   closed). Exits 1 if the p99 under attack is above twice the idle p99 or finalization stopped.

Needs a file-descriptor limit above --idle + --slow (it raises its soft limit to the hard one).
"""

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GOOD_BODY = json.dumps(
    {"jsonrpc": "2.0", "id": 1, "method": "cowboy_getBlock", "params": ["latest", False]}
).encode()


def request_bytes(body: bytes) -> bytes:
    return (
        b"POST / HTTP/1.1\r\nHost: node\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )


async def read_response(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.decode("latin-1").split("\r\n"):
        if line.lower().startswith("content-length:"):
            length = int(line.split(":", 1)[1])
    body = await reader.readexactly(length)
    status = int(head.split(b" ", 2)[1])
    if status != 200:
        raise RuntimeError(f"HTTP {status}: {body[:200]!r}")
    return body


class GoodClient:
    """One keep-alive connection, as a wallet or indexer would hold."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.conn = None
        self.reconnects = 0
        self.errors = []

    async def call(self) -> float:
        for _ in range(3):
            try:
                if self.conn is None:
                    self.conn = await asyncio.open_connection(self.host, self.port)
                    self.reconnects += 1
                reader, writer = self.conn
                started = time.perf_counter()
                writer.write(request_bytes(GOOD_BODY))
                await writer.drain()
                body = await read_response(reader)
                elapsed = time.perf_counter() - started
                json.loads(body)["result"]["height"]
                return elapsed
            except Exception as e:  # the node closed an idle connection, or refused
                self.errors.append(str(e)[:120])
                if self.conn is not None:
                    self.conn[1].close()
                self.conn = None
        raise RuntimeError(f"the well-behaved client failed: {self.errors[-3:]}")

    async def measure(self, seconds: float) -> list:
        latencies = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            latencies.append(await self.call())
            await asyncio.sleep(0.01)
        return latencies


class Attack:
    def __init__(self, port: int, idle: int, slow: int):
        self.port, self.idle, self.slow = port, idle, slow
        self.open = 0
        self.samples = []
        self.outcomes = {}
        self.stop = asyncio.Event()

    def count(self, what: str):
        self.outcomes[what] = self.outcomes.get(what, 0) + 1

    async def connect(self, source: str):
        """A connection from `source`, or None (counted, after a pause) if it was refused."""
        try:
            return await asyncio.open_connection("127.0.0.1", self.port, local_addr=(source, 0))
        except OSError as e:
            self.count(f"connect failed: {e.strerror}")
            await asyncio.sleep(0.5)
            return None

    def count_answer(self, data: bytes):
        """Counts how the node ended a connection: refused (503), timed out (408) or closed."""
        status = data[:20]
        self.count("503" if b" 503 " in status else ("408" if b" 408 " in status else "closed"))

    async def idle_connection(self, source: str):
        while not self.stop.is_set():
            connection = await self.connect(source)
            if connection is None:
                continue
            reader, writer = connection
            self.open += 1
            try:
                data = await reader.read(200)  # waits until the node answers or closes
                self.count_answer(data)
            except OSError:
                self.count("reset")
            finally:
                self.open -= 1
                writer.close()
            await asyncio.sleep(0.05)

    async def slow_client(self, source: str):
        payload = request_bytes(GOOD_BODY)
        while not self.stop.is_set():
            connection = await self.connect(source)
            if connection is None:
                continue
            reader, writer = connection
            self.open += 1
            try:
                for byte in payload:
                    writer.write(bytes([byte]))
                    await writer.drain()
                    try:
                        data = await asyncio.wait_for(reader.read(200), timeout=1.0)
                    except asyncio.TimeoutError:
                        continue
                    self.count_answer(data)
                    break
                else:
                    self.count("answered")
            except OSError:
                self.count("reset")
            finally:
                self.open -= 1
                writer.close()

    async def sample(self):
        while not self.stop.is_set():
            self.samples.append(self.open)
            await asyncio.sleep(1.0)

    def tasks(self):
        tasks = []
        for i in range(self.idle):
            tasks.append(self.idle_connection(f"127.0.1.{1 + i // 50}"))
        for i in range(self.slow):
            tasks.append(self.slow_client(f"127.0.2.{1 + i // 20}"))
        tasks.append(self.sample())
        return [asyncio.ensure_future(t) for t in tasks]


def percentile(values: list, p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def height(cowboy: str, url: str) -> int:
    out = subprocess.run(
        [cowboy, "status", "--rpc-url", url, "--json"], capture_output=True, text=True
    )
    return json.loads(out.stdout)["status"]["height"]


async def attack_async(args) -> None:
    """The attackers, in a process of their own (so their event loop never delays the
    well-behaved client's measurements); reports on stdout when told to stop (stdin closes)."""
    attack = Attack(args.rpc_port, args.idle, args.slow)
    running = attack.tasks()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    attack.stop.set()
    for t in running:
        t.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    print(json.dumps({"samples": attack.samples, "outcomes": attack.outcomes}), flush=True)


async def main_async(args, port: int, url: str) -> int:
    good = GoodClient("127.0.0.1", port)
    baseline = await good.measure(args.baseline)
    start_height = height(args.cowboy, url)
    attacker = subprocess.Popen(
        [sys.executable, __file__, "--attack-only", "--rpc-port", str(port),
         "--idle", str(args.idle), "--slow", str(args.slow)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    # Let the attack build up before measuring.
    await asyncio.sleep(5)
    under = await good.measure(args.seconds)
    end_height = height(args.cowboy, url)
    stdout, _ = attacker.communicate("", timeout=60)
    result = json.loads(stdout.strip().splitlines()[-1])

    class Seen:
        samples = result["samples"]
        outcomes = result["outcomes"]

    attack = Seen

    idle_p50, idle_p99 = percentile(baseline, 50), percentile(baseline, 99)
    load_p50, load_p99 = percentile(under, 50), percentile(under, 99)
    held = statistics.mean(attack.samples[5:] or attack.samples or [0])
    report = {
        "idle": {"requests": len(baseline), "p50_ms": idle_p50 * 1e3, "p99_ms": idle_p99 * 1e3},
        "under_attack": {"requests": len(under), "p50_ms": load_p50 * 1e3, "p99_ms": load_p99 * 1e3},
        "p99_ratio": load_p99 / idle_p99,
        "p50_ratio": load_p50 / idle_p50,
        "attack_connections_open_mean": round(held),
        "attack_outcomes": attack.outcomes,
        "good_client_reconnects": good.reconnects,
        "good_client_errors": len(good.errors),
        "blocks_finalized_during_attack": end_height - start_height,
        "attack_seconds": args.seconds + 5,
    }
    print(json.dumps(report, indent=2))
    ok = report["p99_ratio"] <= 2.0 and report["blocks_finalized_during_attack"] > 0
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cowboy", default=shutil.which("cowboy") or "target/release/cowboy")
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--baseline", type=float, default=20)
    parser.add_argument("--rpc-port", type=int, default=18545)
    parser.add_argument("--attack-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < args.idle + args.slow + 100:
        sys.exit(f"the open-file hard limit {hard} is below {args.idle + args.slow + 100}")

    if args.attack_only:
        asyncio.run(attack_async(args))
        return 0

    home = tempfile.mkdtemp(prefix="cowboy-load-")
    env = dict(os.environ, COWBOY_HOME=home)
    up = subprocess.run(
        [args.cowboy, "devnet", "up", "--detach", "--validators", "1", "--json",
         "--rpc-port", str(args.rpc_port), "--p2p-port", str(args.rpc_port + 100),
         "--faucet-port", str(args.rpc_port + 200)],
        env=env, capture_output=True, text=True,
    )
    if up.returncode != 0:
        sys.exit(f"devnet up failed: {up.stderr}")
    url = f"http://127.0.0.1:{args.rpc_port}"
    try:
        return asyncio.run(main_async(args, args.rpc_port, url))
    finally:
        subprocess.run([args.cowboy, "devnet", "down"], env=env, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
