"""Floods that must not make each mail dearer: 2,000 made-up senders at the referee's own
address, CONFIRMs with made-up codes among a hundred large games, and 2,000 STATUS mails
from one player.

Each case runs the worker's real path, as `referee serve` does: mail spooled as the SMTP
server or `referee ingest` spools it (the spooling itself is not timed), the worker's pass
over the spool (parse, desk or game, answers queued in the same unit of work, written and
synced), then the sender delivering what was queued to a relay that takes everything. Mail
goes in passes of 100; the time per mail of the first passes is compared with that of the
last, in one run, so that the machine's speed cancels out.

- Desk flood: 2,000 mails to referee@ from 2,000 addresses never seen, a quarter each LIST,
  JOIN of the one open game, an unknown command and CONFIRM with a made-up code, within an
  hour. The first 30 are answered (limits.desk_answers_to_newcomers_per_hour), the rest taken
  silently. Targets: the time per mail of the last 800 below 1.5 times that of mails 101-900
  (the first 100 hold the answered ones; each figure the median of its passes); `system/desk.json` below 8 KB at the end, and the
  open game's file at the end below 1.05 times its size after the first 100 mails.
- Made-up codes: CONFIRMs with made-up codes from addresses never seen (all but the first few
  taken silently once the newcomers' answers are used up), first with one game in the data
  directory, then with 100 more active games of 1 MB each, once the daemon would have sent
  their opening reports and read their seats; 200 mails timed each way. Target: the time per mail with the 100 games
  below 1.5 times that without (it was 0.5 s a mail when every game was read).
- STATUS flood: 2,000 STATUS mails from one player of a running game, each answered with a
  mail. Targets: the time per mail of the last 400 below 1.3 times that of mails 101-500; the
  game file at the end below 1.1 times its size after the first 500.

The machine these figures were taken on was shared with other work: the time of one pass
moves by half between passes, which the medians of several passes smooth.

Run: `.venv/bin/python bench/bench_floods.py [--quick]` (--quick: 1,000-mail floods, 20 games;
the desk's windows then overlap).
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from _support import HOST, NullRelay, build, machine, ms, quick, settings, target

from mailer.daemon.desk_book import RECORD
from referee.tokens import new_token

FLOOD = 1000 if quick() else 2000
BIG_GAMES = 20 if quick() else 100
PASS = 100
PLAYERS = [("ann", "ann@p.test"), ("bob", "bob@p.test"), ("cid", "cid@p.test")]


def spool(svc, frm: str, to: str, body: str, n: int) -> None:
    svc.spool.add((f"Delivered-To: {to}\r\nFrom: {frm}\r\nTo: {to}\r\nSubject: hello\r\n"
                   f"Message-ID: <flood{n}.{time.time_ns()}@forged.test>\r\n\r\n{body}\r\n").encode(), durable=False)


def passes(svc, mails, relay) -> list[float]:
    """Spool the mails a pass at a time; the seconds per mail of each pass (worker and sender)."""
    worker, per_mail = svc.worker(), []
    for start in range(0, len(mails), PASS):
        chunk = mails[start:start + PASS]
        for n, (frm, to, body) in enumerate(chunk, start):
            spool(svc, frm, to, body, n)
        began = time.perf_counter()
        handled = worker.run_once(svc.spool)
        svc.send(relay)
        per_mail.append((time.perf_counter() - began) / len(chunk))
        assert len(handled) == len(chunk), handled[:3]
    return per_mail


def middle(values: list[float]) -> float:
    """The median of a few passes: a pass slowed by another program on the machine weighs
    less than in a mean."""
    return statistics.median(values)


def desk_flood(root: Path) -> None:
    svc = build(settings(root))
    svc.referee.open_game("constantinopolis", "3..4", game_id="open-1")
    kinds = ("LIST", "JOIN open-1", "hello, is this thing on", "CONFIRM {code}")
    mails = [(f"forged{n}@victims.test", f"referee@{HOST}", kinds[n % 4].format(code=new_token()))
             for n in range(FLOOD)]
    relay = NullRelay()
    per_mail = passes(svc, mails[:PASS], relay)
    size = svc.store.path("open-1").stat().st_size
    per_mail += passes(svc, mails[PASS:], relay)
    end = svc.store.path("open-1").stat().st_size
    early, late = middle(per_mail[1:9]), middle(per_mail[-8:])
    book = svc.system_outbox.store.root / RECORD
    counts = json.loads(book.read_text())["total"]
    print(f"Desk flood: {FLOOD} mails from {FLOOD} made-up senders; {counts.get('answered', 0)} answered, "
          f"{counts.get('silent', 0)} taken silently")
    print(f"  first pass (the answered ones) {ms(per_mail[0])} a mail; mails 101-900 {ms(early)}; "
          f"the last 800 {ms(late)} (medians of the passes)")
    target("time per mail, last 800 / mails 101-900", late / early, 1.5)
    target("system/desk.json at the end, KB", book.stat().st_size / 1000, 8)
    print(f"  the open game's file: {size / 1000:.1f} KB after the first 100 mails, {end / 1000:.1f} KB at the end")
    target("the open game's file, end / after the first 100 mails", end / size, 1.05)


def made_up_codes(root: Path) -> None:
    svc = build(settings(root))
    svc.referee.open_game("constantinopolis", "3..4", game_id="open-1")
    relay = NullRelay()

    def guesses() -> list[tuple[str, str, str]]:
        return [(f"guess{n}@victims.test", f"referee@{HOST}", f"CONFIRM {new_token()}") for n in range(300)]

    few = middle(passes(svc, guesses(), relay)[1:])  # the first pass answers some: not timed
    padding = "x" * 1_000_000
    for n in range(BIG_GAMES):
        svc.referee.new_game("constantinopolis", PLAYERS, game_id=f"big-{n}")
        with svc.store.transaction(f"big-{n}") as tx:
            tx.add_record("padding", {"text": padding})
    svc.send(relay)  # their opening reports, as a running daemon would have sent them long before
    passes(svc, guesses()[:PASS], relay)  # and the worker has read their seats once
    many = middle(passes(svc, guesses(), relay)[1:])
    print("Made-up codes: CONFIRM with a code nobody was given, 200 mails timed each way")
    print(f"  one game: {ms(few)} a mail; with {BIG_GAMES} more active games of 1 MB: {ms(many)} a mail")
    target(f"time per mail, {BIG_GAMES} large games / one game", many / few, 1.5)


def status_flood(root: Path) -> None:
    svc = build(settings(root))
    svc.referee.new_game("constantinopolis", PLAYERS, game_id="g1")
    relay = NullRelay()
    svc.send(relay)
    token = next(s["token"] for s in svc.store.load("g1").meta["seats"] if s["name"] == "ann")
    to = f"g1+ann+{token}@{HOST}"
    first = passes(svc, [("ann@p.test", to, "STATUS")] * 500, relay)
    size = svc.store.path("g1").stat().st_size
    rest = passes(svc, [("ann@p.test", to, "STATUS")] * (FLOOD - 500), relay)
    end = svc.store.path("g1").stat().st_size
    early, late = middle(first[1:]), middle(rest[-4:])
    print(f"STATUS flood: {FLOOD} STATUS mails from one player, each answered")
    print(f"  mails 101-500 {ms(early)} a mail; the last 400 {ms(late)}; the game file {size / 1000:.1f} KB after "
          f"500, {end / 1000:.1f} KB at the end")
    target("time per mail, last 400 / mails 101-500", late / early, 1.3)
    target("game file, end / after 500", end / size, 1.1)


def main() -> None:
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        desk_flood(Path(tmp) / "desk")
        made_up_codes(Path(tmp) / "codes")
        status_flood(Path(tmp) / "status")


if __name__ == "__main__":
    main()
