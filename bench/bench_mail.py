"""Mail pipeline: messages per second through the whole path of `referee serve` (SMTP in,
spool, parse, authenticate, validate, persist, receipt queued) with 1, 10 and 50 concurrent SMTP
clients, against a bare aiosmtpd server with a no-op handler under the same load.

Targets: the pipeline handles at least half as many messages per second as the bare server,
on the queued-turns load and on the turns load (10 and 50 clients for the latter); and the
order-to-answer latency below has a p99 under 2 s with 10 clients.

Both servers run as separate processes on loopback; the clients are threads of this process,
one SMTP connection per message, as mail servers deliver. Every message is a valid order from
the right player with the right token, in three-player Porto Carthago games, 12 messages per
game, the games shared out among the clients. Two loads:

- queued turns (the target's path): players who are not asked send their next turn ahead,
  which the game queues; each mail is read, checked, stored and answered with a receipt;
- turns: the asked player's order, which also closes a decision, so reports to every player
  are written and queued in the same unit of work (more work per mail than the target names).

The target is judged on a sustained load, 1,800 messages in 150 games per case. The queued
load also runs as a short burst, 600 messages in 50 games, printed beside it: the bare server
takes a burst in under half a second, so the burst's ratio mostly measures how the pipeline
starts and how it ends (the worker finishing the last mail alone), not the rate it keeps.

The pipeline's time runs until the last message has been processed (its answer queued), not
just accepted over SMTP; it starts once the daemon has sent the new games' opening reports, as
a live server would have long before. `referee serve` is two processes (the SMTP server and the
worker). The daemon runs with `worker_interval_seconds = 0.05`; everything else is the default
(outgoing mail is captured in a local Maildir every 5 s).

Order-to-answer latency, on the turns load, sustained, with the daemon delivering to an SMTP
relay on loopback (an aiosmtpd process that writes down the wall-clock time each mail arrives,
with its In-Reply-To and References) instead of the capture Maildir, which would not say when a
mail arrived: for each order, from the moment its client begins to send it (before connecting)
to the arrival of the first mail that names the order's Message-ID in In-Reply-To or
References. Under the default `NOTIFY turn` a receipt that leaves the player nothing to do
waits for their next mail, so such an order is answered by the mail that asks them again,
after the other players' orders; a mail that carries several receipts names each in
References. Orders whose receipt is still waiting when every queued mail has reached the relay
(a game's last orders, a player asked and answered within one unit of work) are counted and
printed, not timed. p50 and p99 are over all the runs' orders together.

Rates on one machine move by about a tenth from run to run, so each case runs three times
(the target's five; once with `--quick`), the pipeline and the bare server in turn, and the
median ratio is printed with the range of the runs.

Run: `make bench`, or `.venv/bin/python bench/bench_mail.py [--quick]`.
"""

from __future__ import annotations

import os
import re
import shutil
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
from email.message import EmailMessage
from pathlib import Path
from types import SimpleNamespace

from _support import HOST, ROOT, build, machine, percentile, quick, settings, smtp_sink, target

from mailer.inbound.spool import Spool
from referee import registry
from referee.playthrough import bot_submission
from referee.progress import Position
from referee.rng import Rng

GAME, PLAYERS = "porto-carthago", ["ann", "bob", "cid"]
LEVELS = (1, 10, 50)
REPEATS = 3  # a case's rates move by about a tenth from run to run on a quiet machine
TARGET_REPEATS = 5  # the cases the target is judged on: a median of five moves less
CLIENT_NAME = "clients.bench.test"  # a sending server knows its own name: no lookup per connection
PER_GAME = 4 if quick() else 12
SUSTAINED, BURST = (50, 50) if quick() else (150, 50)  # games per case


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as smtp:
                smtp.noop()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server on port {port} did not start")
            time.sleep(0.05)


def settled(root: Path, proc: subprocess.Popen, timeout: float = 120.0, pause: float = 0.5) -> None:
    """Wait until the daemon has sent the opening reports of the games just made (its first
    pass does that, and a tick): the load should meet a daemon at rest, as a live server is."""
    deadline = time.monotonic() + timeout
    markers = [root / "outbox-pending", root / "system" / "outbox-pending"]
    while any(not p.name.startswith(".") for d in markers if d.exists() for p in d.iterdir()):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the daemon did not send the mail it queued")
        time.sleep(0.05)
    time.sleep(pause)


def planned_orders(seed: str, count: int, queued: bool) -> list[tuple[str, str]]:
    """`count` submissions in a game with this seed: the asked player's orders as bots play
    them, or orders from a player who is not asked (queued for their next turn)."""
    game = registry.get(GAME)
    pos = Position.start(game, game.setup(PLAYERS, seed, {}, game.load_components(None)))
    if queued:
        waiting = pos.waiting_for()[0]
        idle = [p for p in PLAYERS if p != waiting]
        texts = ["TALENTS", "REFILL", "TALENTS\nPASS", "PASS"]
        return [(idle[i % len(idle)], texts[i % len(texts)]) for i in range(count)]
    bots = Rng.from_seed(seed, "mail bench")
    plan = []
    while len(plan) < count:
        stored = SimpleNamespace(state=pos.state, meta={"steps": []}, snapshots=[])
        turn = bot_submission(game, stored, bots)
        if turn is None:
            break
        pos.submit(turn[0], game.parse(pos.state, *turn))
        plan.append(turn)
    return plan


def prepare(root: Path, clients: int, queued: bool, games: int = SUSTAINED) -> list[list[tuple[str, bytes]]]:
    """Games in a fresh data directory, and each client's messages: (recipient, raw mail)."""
    svc = build(settings(root))
    per_client: list[list[tuple[str, bytes]]] = [[] for _ in range(clients)]
    for g in range(games):
        gid, seed = f"pc-{g}", f"mail-bench-{g}"
        made = svc.referee.new_game(GAME, [(p, f"{p}@players.test") for p in PLAYERS], seed=seed, game_id=gid)
        tokens = {s["name"]: s["token"] for s in made.players}
        for i, (player, text) in enumerate(planned_orders(seed, PER_GAME, queued)):
            to = f"{gid}+{player}+{tokens[player]}@{HOST}"
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = f"{player}@players.test", to, "orders"
            msg["Message-ID"] = f"<{gid}.{i}@players.test>"
            msg.set_content(text + "\n")
            per_client[g % clients].append((to, bytes(msg)))
    return per_client


MESSAGE_ID = re.compile(rb"^Message-ID: *(<[^>]+>)", re.MULTILINE | re.IGNORECASE)


def load(port: int, per_client: list[list[tuple[str, bytes]]], sent: dict[str, float] | None = None) -> float:
    """Send every client's messages at once, one connection per message; seconds taken. With
    `sent`, each message's Message-ID gets the wall-clock time its client began to send it."""
    errors: list[BaseException] = []

    def client(messages: list[tuple[str, bytes]]) -> None:
        try:
            for to, raw in messages:
                if sent is not None:
                    sent[MESSAGE_ID.search(raw).group(1).decode()] = time.time()  # type: ignore[union-attr]
                with smtplib.SMTP("127.0.0.1", port, timeout=60, local_hostname=CLIENT_NAME) as smtp:
                    smtp.sendmail(to.split("+")[1] + "@players.test", [to], raw)
        except BaseException as exc:  # reported below, after the other clients finish
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(m,)) for m in per_client]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit(f"a client failed: {errors[0]!r}")
    return time.perf_counter() - start


def waiting(spool: Spool) -> int:
    """Mail the daemon has taken over SMTP and not yet dealt with."""
    return spool.pending()


def run_pipeline(root: Path, per_client, relay_log: Path | None = None,
                 sent: dict[str, float] | None = None) -> tuple[float, float]:
    """Messages a second end to end and as answered over SMTP. With `relay_log`, the daemon
    delivers to an SMTP relay on loopback that writes down when each mail arrives (with its
    References), and the run goes on until every queued mail has reached it."""
    total = sum(len(m) for m in per_client)
    port = free_port()
    env = {**os.environ, "REFEREE_DATA": str(root), "REFEREE_LISTEN_PORT": str(port), "REFEREE_HOSTNAME": HOST,
           "REFEREE_WORKER_INTERVAL_SECONDS": "0.05", "REFEREE_LIMITS_MAILS_PER_SENDER_PER_HOUR": "10000000",
           "REFEREE_LIMITS_MAX_SPOOL_MESSAGES": "1000000", "PYTHONPATH": str(ROOT)}
    relay = None
    if relay_log is not None:
        relay_port = free_port()
        relay = smtp_sink(relay_port, log=relay_log, refs=True)
        env["REFEREE_RELAY"] = f"smtp://127.0.0.1:{relay_port}"
    proc = subprocess.Popen([sys.executable, "-m", "commands", "serve"], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc)
        settled(root, proc)
        start = time.perf_counter()
        smtp_seconds = load(port, per_client, sent)
        spool = Spool(root / "spool")
        while waiting(spool):
            if time.perf_counter() - start > 600:
                raise SystemExit("the pipeline did not finish within 10 minutes")
            time.sleep(0.01)
        elapsed = time.perf_counter() - start
        if relay is not None:
            settled(root, proc, pause=0.0)  # every mail queued has reached the relay
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        if relay is not None:
            relay.terminate()
            relay.wait(timeout=60)
    problems = Spool(root / "spool").aside()
    if problems:
        raise SystemExit(f"{len(problems)} message(s) failed in the worker, e.g. {problems[0].reason}")
    return total / elapsed, total / smtp_seconds


def run_bare(per_client) -> float:
    port = free_port()
    proc = smtp_sink(port)
    try:
        wait_for_port(port, proc)
        total = sum(len(m) for m in per_client)
        return total / load(port, per_client)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def worker_alone(root: Path, queued: bool) -> float:
    """Messages per second of the mail worker by itself, in this process, on a spool filled
    beforehand: the part of the pipeline after the SMTP server has answered."""
    per_client = prepare(root, 1, queued)
    svc = build(settings(root))
    for to, raw in per_client[0]:
        svc.spool.add(f"Return-Path: <x@players.test>\r\nDelivered-To: {to}\r\n".encode() + raw)
    worker = svc.worker()
    start = time.perf_counter()
    handled = worker.run_once(svc.spool)
    elapsed = time.perf_counter() - start
    if {h.outcome for h in handled} != {"accepted"}:
        raise SystemExit(f"the worker did not accept everything: {sorted({h.outcome for h in handled})}")
    return len(handled) / elapsed


def accepted(root: Path) -> int:
    svc = build(settings(root))
    return sum(sum(1 for e in svc.store.load(row["id"]).events if e["type"] == "order") for row in svc.store.list())


def case(tmp: str, clients: int, queued: bool, games: int, repeats: int) -> float:
    """Run one case `repeats` times and print its median; the median ratio."""
    runs = []
    for n in range(repeats):
        root = Path(tmp) / f"{'q' if queued else 't'}{games}-{clients}-{n}"
        per_client = prepare(root, clients, queued, games)
        total = sum(len(m) for m in per_client)
        pipeline, smtp_rate = run_pipeline(root, per_client)
        stored = accepted(root)
        if stored != total:
            raise SystemExit(f"only {stored} of {total} orders were stored")
        runs.append((pipeline / run_bare(per_client), pipeline, smtp_rate))
        shutil.rmtree(root)
    ratio, pipeline, smtp_rate = sorted(runs)[len(runs) // 2]
    spread = f" (runs {min(runs)[0]:.2f}-{max(runs)[0]:.2f})" if len(runs) > 1 else ""
    print(f"    {clients:>2} client(s): pipeline {pipeline:.0f} msg/s end to end (SMTP answered at "
          f"{smtp_rate:.0f} msg/s), bare aiosmtpd {pipeline / ratio:.0f} msg/s, ratio {ratio:.2f}{spread}")
    return ratio


def answer_times(sent: dict[str, float], log: Path) -> tuple[list[float], int]:
    """Seconds from each order's sending to the first mail at the relay that answers it (names
    it in In-Reply-To or References), and how many orders no mail answered during the run."""
    first: dict[str, float] = {}
    for line in log.read_text().splitlines():
        at, _, *refs = line.split()
        for ref in refs:
            if ref in sent and ref not in first:
                first[ref] = float(at)
    return [first[mid] - at for mid, at in sent.items() if mid in first], len(sent) - len(first)


def latency_case(tmp: str, clients: int, repeats: int) -> float:
    """The turns load, sustained, with the relay on loopback: order sent to answer delivered.
    Prints the pooled p50 and p99 (and each run's p99); returns the pooled p99."""
    delays: list[float] = []
    rates, p99s, unanswered = [], [], 0
    for n in range(repeats):
        root = Path(tmp) / f"latency-{clients}-{n}"
        per_client = prepare(root, clients, False)
        sent: dict[str, float] = {}
        pipeline, _ = run_pipeline(root, per_client, relay_log=Path(tmp) / f"relay-{clients}-{n}.log", sent=sent)
        got, left = answer_times(sent, Path(tmp) / f"relay-{clients}-{n}.log")
        delays += got
        rates.append(pipeline)
        p99s.append(percentile(got, 99))
        unanswered += left
        shutil.rmtree(root)
    print(f"    {clients:>2} client(s): {len(delays)} orders answered at the relay, "
          f"p50 {percentile(delays, 50):.2f} s, "
          f"p99 {percentile(delays, 99):.2f} s (runs' p99 {min(p99s):.2f}-{max(p99s):.2f} s); pipeline "
          f"{sorted(rates)[len(rates) // 2]:.0f} msg/s; {unanswered} order(s) whose receipt was still waiting for "
          "the player's next mail when the run ended")
    return percentile(delays, 99)


def main() -> None:
    print(f"mail: {machine()}")
    levels = (1, 10) if quick() else LEVELS
    repeats, target_repeats = (1, 1) if quick() else (REPEATS, TARGET_REPEATS)
    print(f"  valid orders by SMTP, {PER_GAME} per game, one connection per message; each case {repeats} "
          f"time(s) ({target_repeats} for the target's), the pipeline and the bare server in turn; the median "
          "ratio, and the range")
    with tempfile.TemporaryDirectory(prefix="bench-mail-") as tmp:
        print(f"  queued turns (stored, receipt queued): {SUSTAINED * PER_GAME} orders in {SUSTAINED} games "
              f"per case{'' if quick() else ', sustained'}")
        for clients in levels:
            ratio = case(tmp, clients, True, SUSTAINED, target_repeats)
            target(f"pipeline / bare with {clients} client(s)", ratio, 0.5, at_least=True)
        if BURST != SUSTAINED:  # --quick runs one small load only
            print(f"  queued turns, short burst: {BURST * PER_GAME} orders in {BURST} games per case "
                  "(start and end weigh more; not the target)")
            for clients in levels:
                case(tmp, clients, True, BURST, repeats)
        print(f"  turns (stored; the mail of each player now asked, receipts folded in, queued): "
              f"{SUSTAINED * PER_GAME} orders in {SUSTAINED} games per case")
        for clients in levels:
            ratio = case(tmp, clients, False, SUSTAINED, target_repeats if clients > 1 else repeats)
            if clients > 1:
                target(f"turns: pipeline / bare with {clients} clients", ratio, 0.5, at_least=True)
        print(f"  order to answer at the player's relay, turns load, {SUSTAINED * PER_GAME} orders in {SUSTAINED} "
              "games, delivered to an SMTP relay on loopback that notes each mail's arrival")
        for clients in (10,) if quick() else (10, 50):
            p99 = latency_case(tmp, clients, repeats)
            if clients == 10:
                target("p99 seconds from order sent to its answer at the relay with 10 clients", p99, 2.0)
        for queued in (True, False):
            alone = worker_alone(Path(tmp) / f"{'q' if queued else 't'}-worker", queued)
            print(f"  the mail worker alone, {'queued turns' if queued else 'turns'} (spool filled "
                  f"beforehand, no SMTP): {alone:.0f} msg/s")


if __name__ == "__main__":
    main()
