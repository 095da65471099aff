"""What the benchmark scripts share: percentiles, target lines, and games recorded through
the real service so that later measurements can start from any of their positions."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mailer.daemon.wiring import Services, build  # noqa: E402
from referee import registry  # noqa: E402
from referee.config import Limits, Settings  # noqa: E402
from referee.playthrough import BotStuck, bot_submission  # noqa: E402
from referee.rng import Rng  # noqa: E402

from bench_constantinopolis import pin_to_one_core  # noqa: E402  (engine figures are for one core)

HOST = "games.test"


SMTP_SINK = """
import asyncio, signal, threading, time
from aiosmtpd.controller import Controller
from email.parser import BytesHeaderParser
DELAY, LOG, REFS = {delay!r}, {log!r}, {refs!r}
log = open(LOG, "a", buffering=1) if LOG else None
class Sink:
    async def handle_DATA(self, server, session, envelope):
        if DELAY:
            await asyncio.sleep(DELAY)
        if log is not None:
            at, headers = time.time(), BytesHeaderParser().parsebytes(envelope.original_content)
            line = [str(at), headers["Message-ID"]]
            if REFS:
                line += (headers["References"] or "").split() + (headers["In-Reply-To"] or "").split()
            log.write(" ".join(line) + "\\n")
        return "250 OK"
c = Controller(Sink(), hostname="127.0.0.1", port={port}, server_hostname="sink.bench")
c.start()
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *a: stop.set())
print("ready", flush=True)
stop.wait()
c.stop()
"""


def smtp_sink(port: int, *, delay: float = 0.0, log: Path | None = None, refs: bool = False) -> subprocess.Popen:
    """A bare aiosmtpd server in a process of its own, ready when this returns: it takes every
    mail, after `delay` seconds, and writes "<time> <Message-ID>" to `log` if given, followed
    with `refs` by the ids of its References and In-Reply-To headers. Stop it with
    `terminate()`."""
    proc = subprocess.Popen([sys.executable, "-c", SMTP_SINK.format(delay=delay, log=str(log) if log else None,
                                                                    port=port, refs=refs)],
                            stdout=subprocess.PIPE, text=True)
    proc.stdout.readline()  # type: ignore[union-attr]
    return proc


def quick() -> bool:
    """`--quick` on the command line or BENCH_QUICK=1: smaller runs for a fast look."""
    return "--quick" in sys.argv or os.environ.get("BENCH_QUICK", "") not in ("", "0")


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty sample."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def target(label: str, value: float, limit: float, *, at_least: bool = False) -> None:
    """One line saying whether a measured ratio meets its target; never fails the run."""
    ok = value >= limit if at_least else value < limit
    word = "at least" if at_least else "below"
    print(f"  target: {label} = {value:.2f}, {word} {limit:g}: {'PASS' if ok else 'FAIL'}")


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass  # no /proc/cpuinfo here: the model stays unnamed
    return f"{os.cpu_count()} CPU(s), {cpu}, Python {platform.python_version()}"


def settings(data_dir: Path, **changes) -> Settings:
    """Settings for a benchmark data directory: no sender rate limit, a roomy spool."""
    limits = Limits(mails_per_sender_per_hour=10_000_000, max_spool_messages=1_000_000)
    return Settings(hostname=HOST, data_dir=data_dir, limits=limits, **changes)


class NullRelay:
    """Takes every mail and keeps nothing: delivery is not what is being measured."""

    def deliver(self, raw: bytes, mail_from: str, recipients: Sequence[str], message_id: str) -> None:
        return None


@dataclass
class Position:
    """A game file as it stood before one accepted submission, and that submission."""

    round: int
    file: bytes
    player: str
    text: str


def record_game(svc: Services, game_name: str, players: int, seed: str, game_id: str) -> list[Position]:
    """Play a whole game through the service with bots, delivering mail after each turn as the
    daemon would, and keep the file before every accepted submission."""
    game = registry.get(game_name)
    names = ["ann", "bob", "cid", "dee", "eve"][:players]
    svc.referee.new_game(game_name, [(n, f"{n}@players.test") for n in names], seed=seed, game_id=game_id)
    relay = NullRelay()
    svc.send(relay)
    bots = Rng.from_seed(seed, "bench bots")
    path = svc.store.path(game_id)
    positions: list[Position] = []
    while True:
        stored = svc.store.load(game_id)
        try:
            turn = bot_submission(game, stored, bots)
        except BotStuck:  # a moderator closes the phase, as a deadline would
            svc.referee.adjudicate(game_id)
            svc.send(relay)
            continue
        if turn is None:
            return positions
        before = path.read_bytes()
        receipt = svc.referee.submit(game_id, turn[0], turn[1])
        if receipt.status == "accepted":
            positions.append(Position(game.phase(stored.state).round, before, *turn))
        svc.send(relay)


def summary(values: Sequence[float]) -> str:
    return f"p50 {ms(statistics.median(values))}  p99 {ms(percentile(values, 99))}  (n={len(values)})"


__all__ = ["HOST", "NullRelay", "Position", "build", "machine", "ms", "percentile", "pin_to_one_core", "quick",
           "record_game", "settings", "smtp_sink", "summary", "target"]
