"""Store benchmark: cost of one submission-sized write with 10, 1,000 and 10,000 other games.

Prints bytes written and latency percentiles per write. Run: `make bench` or
`.venv/bin/python bench/bench_store.py [--max-games N]`.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from referee.store import TinyDBStore

META = {"game": "bench", "players": ["a", "b", "c", "d"], "status": "active"}
STATE = {"round": 1, "board": {"cells": list(range(400))}, "hands": {p: list(range(12)) for p in "abcd"}}


def measure(root: Path, others: int, writes: int = 200) -> tuple[float, float, int]:
    store = TinyDBStore(root)
    for i in range(others):
        store.create(f"other-{i}", META, STATE)
    store.create("target", META, STATE)
    timings = []
    store.stats.reset()
    for i in range(writes):
        start = time.perf_counter()
        store.append("target", [{"type": "order", "player": "a", "text": f"BID {i}"}], state={**STATE, "i": i})
        timings.append(time.perf_counter() - start)
    timings.sort()
    p50 = statistics.median(timings) * 1000
    p99 = timings[int(len(timings) * 0.99) - 1] * 1000
    return p50, p99, store.stats.bytes_written // writes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-games", type=int, default=10_000)
    args = parser.parse_args()
    print(f"{'other games':>12} {'p50 ms':>8} {'p99 ms':>8} {'bytes/write':>12}")
    for others in (10, 1_000, 10_000):
        if others > args.max_games:
            break
        with tempfile.TemporaryDirectory() as tmp:
            p50, p99, per_write = measure(Path(tmp), others)
        print(f"{others:>12} {p50:>8.2f} {p99:>8.2f} {per_write:>12}")


if __name__ == "__main__":
    main()
