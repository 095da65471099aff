"""Sending to a slow relay: mails a second through several relay connections, and how long a
receipt for a new order waits while another game has a backlog.

The relay is an aiosmtpd server in a process of its own that takes one second per mail (it
answers 250 a second after the end of DATA) and writes down when each mail arrived.
`referee serve` runs as it would in production, with the default settings (4 relay
connections, worker every second, sender every 5 seconds) and the relay above. Game A has a
backlog waiting when the daemon starts (as after a relay outage: notices to its players);
game B has nothing waiting. A few seconds in, a player of game B mails an order through SMTP;
the daemon stores it and queues the receipt.

Figures:
- throughput: the mails delivered (the backlog and the receipt) divided by the time from the
  daemon's start (its SMTP port answering) to the last of them reaching the relay, so the
  start, the first mail's second and the connections' ramp-up are included. Target: at least
  3.5 mails a second with 4 connections. The rate from the first delivery to the last is
  printed beside it, and a smaller backlog sent with `relay_connections = 1`, as the serial
  sender this replaces did.
- the receipt's wait: from the SMTP server's 250 for B's order to the relay's receipt of the
  answer, with how much of A's backlog was still to go at that moment. Target: below 5 s (one
  worker interval, one look for new mail, one mail's time and a free connection), where
  waiting behind the backlog would take as many seconds as it had mails left.

Every mail is also checked to reach the relay exactly once.

Run: `.venv/bin/python bench/bench_sending.py [--quick]`.
"""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

from _support import HOST, ROOT, NullRelay, build, machine, quick, settings, smtp_sink, target

from mailer.outbound.compose import OutgoingMail, message_id
from mailer.outbound.outbox import queue
from referee import registry

from bench_mail import free_port, wait_for_port

PLAYERS = ["ann", "bob", "cid"]
BACKLOG = 80  # fewer would let the start weigh on the figure more than on a real backlog
SERIAL_BACKLOG = 6 if quick() else 12
ORDER_AFTER = 3.0  # seconds after the daemon's start
TARGET_RATE, TARGET_WAIT = 3.5, 5.0


def prepare(root: Path, backlog: int) -> tuple[list[str], tuple[str, str, str]]:
    """Games A and B with their opening reports sent, A's backlog queued; the backlog's
    Message-IDs and (game, player, token) of a B player whose order will be queued."""
    svc = build(settings(root))
    made = {}
    for game_id in ("pc-a", "pc-b"):
        made[game_id] = svc.referee.new_game("porto-carthago", [(p, f"{p}@players.test") for p in PLAYERS],
                                             seed=game_id, game_id=game_id)
    svc.send(NullRelay())
    now, ids = svc.clock(), []
    with svc.store.transaction("pc-a") as tx:
        for n in range(backlog):
            player = PLAYERS[n % len(PLAYERS)]
            mail = OutgoingMail("pc-a", "notice", f"{player}@players.test", f"[pc-a] Notice {n}",
                                f"Notice {n} to {player}.\n" * 20,
                                message_id("pc-a", "notice", n, player, HOST))
            queue(tx, mail, host=HOST, sender_name="Referee", now=now + timedelta(microseconds=n))
            ids.append(mail.message_id)
    svc.outbox.mark("pc-a")
    asked = {p.player for p in registry.get("porto-carthago").prompts(svc.store.load("pc-b").state)}
    seat = next(s for s in made["pc-b"].players if s["name"] not in asked)
    return ids, ("pc-b", seat["name"], seat["token"])


def arrivals(log: Path) -> list[tuple[float, str]]:
    if not log.exists():
        return []
    return [(float(at), mid) for at, mid in (line.split(" ", 1) for line in log.read_text().splitlines())]


def run(tmp: Path, connections: int, backlog: int, with_order: bool) -> dict:
    root, log = tmp / f"data-{connections}", tmp / f"relay-{connections}.log"
    ids, (game_id, player, token) = prepare(root, backlog)
    relay_port, port = free_port(), free_port()
    relay = smtp_sink(relay_port, delay=1.0, log=log)
    env = {**os.environ, "REFEREE_DATA": str(root), "REFEREE_LISTEN_PORT": str(port), "REFEREE_HOSTNAME": HOST,
           "REFEREE_RELAY": f"smtp://127.0.0.1:{relay_port}", "REFEREE_RELAY_CONNECTIONS": str(connections),
           "PYTHONPATH": str(ROOT)}
    daemon = subprocess.Popen([sys.executable, "-m", "commands", "serve"], env=env, cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    result: dict = {}
    try:
        wait_for_port(port, daemon)
        started = time.time()
        receipt = f"<{game_id}.receipt.2.{player}@{HOST}>"
        if with_order:
            time.sleep(max(0.0, started + ORDER_AFTER - time.time()))
            msg = EmailMessage()
            msg["From"], msg["To"] = f"{player}@players.test", f"{game_id}+{player}+{token}@{HOST}"
            msg["Subject"], msg["Message-ID"] = "orders", "<bench-order@players.test>"
            msg.set_content("TALENTS\n")
            with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
                smtp.sendmail(msg["From"], [msg["To"]], bytes(msg))
            result["ordered_at"] = time.time()
        wanted = set(ids) | ({receipt} if with_order else set())
        deadline = time.time() + 30 + 2 * backlog
        while not wanted <= {mid for _, mid in arrivals(log)}:
            if time.time() > deadline or daemon.poll() is not None:
                raise SystemExit(f"the daemon did not deliver everything ({connections} connection(s))")
            time.sleep(0.05)
    finally:
        daemon.terminate()
        daemon.wait(60)
        relay.terminate()
        relay.wait(60)
    got = arrivals(log)
    counts = Counter(mid for _, mid in got)
    result["twice"] = [mid for mid, n in counts.items() if n > 1]
    result["rate"] = len(got) / (max(at for at, _ in got) - started)
    result["sustained"] = (len(got) - 1) / (max(at for at, _ in got) - min(at for at, _ in got))
    if with_order:
        receipt_at = next(at for at, mid in got if mid == receipt)
        result["wait"] = receipt_at - result["ordered_at"]
        result["left"] = sum(1 for at, mid in got if mid in set(ids) and at > receipt_at)
    return result


def main() -> None:
    print(f"sending: {machine()}")
    print(f"  a relay taking 1 s per mail; game A has {BACKLOG} mails waiting when `referee serve` starts "
          f"(default settings); {ORDER_AFTER:.0f} s in, a player of game B mails an order by SMTP")
    with tempfile.TemporaryDirectory(prefix="bench-sending-") as tmp:
        four = run(Path(tmp), 4, BACKLOG, True)
        one = run(Path(tmp), 1, SERIAL_BACKLOG, False)
    print(f"  4 connections: {four['rate']:.2f} mails/s ({BACKLOG + 1} mails, from the daemon's start to the last "
          f"delivery; {four['sustained']:.2f} mails/s from the first delivery to the last); 1 connection: "
          f"{one['rate']:.2f} mails/s ({SERIAL_BACKLOG} mails)")
    target("mails a second with 4 connections", four["rate"], TARGET_RATE, at_least=True)
    print(f"  the receipt for game B's order reached the relay {four['wait']:.2f} s after the order was taken, "
          f"with {four['left']} of game A's mails still to go (behind them it would have waited about "
          f"{four['left'] / four['rate'] + four['wait']:.0f} s)")
    target("seconds a receipt waits while another game has a backlog", four["wait"], TARGET_WAIT)
    twice = four["twice"] + one["twice"]
    print(f"  mails that reached the relay twice: {len(twice)}: {'PASS' if not twice else 'FAIL'}")


if __name__ == "__main__":
    main()
