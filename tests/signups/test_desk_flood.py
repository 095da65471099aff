"""The referee's own address bounded as a whole: a flood from 2,000 made-up senders gets a
few dozen answers an hour in all, leaves at most a few sign-ups per seat in the open game's
file, keeps the desk's record at a fixed size, and costs each mail the same at the end as at
the start; a CONFIRM with a made-up code reads no game's file. The counts are shown to the
moderator by `referee status --desk`."""

from __future__ import annotations

import email.utils
import json
import threading
from email.message import EmailMessage

from click.testing import CliRunner

from commands.main import cli
from mailer.daemon.desk_book import RECORD
from mailer.inbound.message import parse_message
from referee.store.tinydb_store import TinyDBStore

from .conftest import HOST, confirmation_code

NEWCOMERS_PER_HOUR = 30  # limits.desk_answers_to_newcomers_per_hour, its default


def spooled(world, frm: str, body: str, n: int, to: str = f"referee@{HOST}") -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = frm, to, "hello"
    msg["Message-ID"] = f"<flood{n}@forged.test>"
    msg["Date"] = email.utils.format_datetime(world.clock.now)
    msg.set_content(body)
    world.svc.spool.add(f"Delivered-To: {to}\r\n".encode() + bytes(msg), durable=False)


class Reads:
    """Game files opened, counted."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        real = TinyDBStore._open

        def counting(store, path, *, must_exist):
            if "/games/" in str(path):
                self.count += 1
            return real(store, path, must_exist=must_exist)

        monkeypatch.setattr(TinyDBStore, "_open", counting)


def flood_mail(n: int) -> tuple[str, str]:
    """The n-th mail of the flood: LIST, JOIN, an unknown command or a made-up CONFIRM, each
    from a sender never seen before."""
    kind = ("LIST", "JOIN r1", "hello, is this thing on", f"CONFIRM {n:016d}")[n % 4]
    return f"forged{n}@victims.test", kind


def test_a_flood_from_two_thousand_made_up_senders_stays_bounded(world, monkeypatch):
    world.ref.open_game("race", "2..4", game_id="r1")
    world.ref.new_game("race", [("pat", "pat@players.test"), ("quin", "quin@players.test")], game_id="g1")
    reads = Reads(monkeypatch)
    system = world.svc.system_outbox.store.root
    sizes, reads_per_batch, silent_before = [], [], 0
    for batch in range(20):  # 2,000 mails, 100 a pass, in 40 minutes
        before = reads.count
        for n in range(batch * 100, batch * 100 + 100):
            spooled(world, *flood_mail(n), n)
        world.clock.move(minutes=2)
        handled = world.worker.run_once(world.svc.spool)
        assert len(handled) == 100
        reads_per_batch.append(reads.count - before)
        sizes.append(((system / RECORD).stat().st_size, world.svc.store.path("r1").stat().st_size))
        if batch == 0:
            silent_before = sum(1 for h in handled if h.stranger)
    answered = [m for m in world.sent() if m["To"].endswith("@victims.test")]
    assert len(answered) == NEWCOMERS_PER_HOUR  # in all, over 2,000 senders
    meta = world.svc.store.load("r1").meta
    assert len(meta["signup"]["pending"]) <= 3 * 4  # a few per seat, whatever the senders
    assert len(meta["signup"]["pending"]) == sum(1 for m in answered if "Confirm your sign-up" in m["Subject"])
    assert meta["seats"] == []
    # the desk's record and the open game's file stop growing once the bounds are reached
    assert sizes[-1][0] < 8_000 and sizes[-1][0] <= sizes[1][0] + 100
    assert sizes[-1][1] == sizes[1][1]
    # the cost of a mail: as many game files read in the last pass as in the second (the first
    # still answered); a made-up CONFIRM reads none
    assert reads_per_batch[-1] == reads_per_batch[1]
    before = reads.count
    world.mail("someone@victims.test", "CONFIRM abcdefghijklmnop")
    world.mail("someone@victims.test", "CONFIRM 1234")
    assert reads.count == before
    # everything not answered was counted, and the moderator sees it
    book = json.loads((system / RECORD).read_text())
    assert len(book["answers"]) <= NEWCOMERS_PER_HOUR + 1 and len(book["newcomers"]) == NEWCOMERS_PER_HOUR
    shown = CliRunner().invoke(cli, ["--data-dir", str(world.svc.settings.data_dir), "status", "--desk", "--json"],
                               obj={"clock": world.clock})
    assert shown.exit_code == 0, shown.output
    counts = json.loads(shown.output)
    assert counts["silent_total"] == 2002 - NEWCOMERS_PER_HOUR and counts["answered_total"] == NEWCOMERS_PER_HOUR
    assert counts["newcomers_answered_last_hour"] == NEWCOMERS_PER_HOUR
    assert silent_before == 100 - NEWCOMERS_PER_HOUR
    text = CliRunner().invoke(cli, ["--data-dir", str(world.svc.settings.data_dir), "status", "--desk"],
                              obj={"clock": world.clock}).output
    assert f"taken without an answer: {2002 - NEWCOMERS_PER_HOUR} this hour" in text
    # a player is still answered during the flood, and newcomers again an hour later
    world.mail("pat@players.test", "LIST")
    assert world.sent("pat@players.test")[-1]["Subject"] == "Open games"
    world.mail("late@newcomer.test", "LIST")
    assert world.sent("late@newcomer.test") == []
    world.clock.move(hours=1)
    world.mail("late@newcomer.test", "LIST")
    assert len(world.sent("late@newcomer.test")) == 1


def test_a_local_part_no_server_takes_gets_no_answer(world):
    world.mail("x" * 300 + "@victims.test", "LIST")
    world.mail("y" * 65 + "@victims.test", "LIST")
    assert [m for m in world.sent() if m["To"].endswith("@victims.test")] == []
    world.mail("y" * 64 + "@victims.test", "LIST")
    assert len(world.sent("y" * 64 + "@victims.test")) == 1


def test_pending_sign_ups_are_capped_per_game_and_lapse(world):
    world.ref.open_game("race", "2..2", game_id="r1")  # 2 seats: 6 sign-ups wait at most
    for n in range(8):
        world.mail(f"p{n}@p.test", "JOIN r1")
    pending = [p["email"] for p in world.svc.store.load("r1").meta["signup"]["pending"]]
    assert pending == [f"p{n}@p.test" for n in range(2, 8)]  # the oldest were pushed out
    pushed_out = confirmation_code(world, "p0@p.test")
    world.mail("p0@p.test", "ok", to=f"referee+{pushed_out}@{HOST}")
    assert "no sign-up waits for this code" in " ".join(world.sent("p0@p.test")[-1].get_content().split())
    world.clock.move(days=2, minutes=1)
    lapsed = confirmation_code(world, "p7@p.test")
    world.mail("p7@p.test", "ok", to=f"referee+{lapsed}@{HOST}")
    assert "no sign-up waits for this code" in " ".join(world.sent("p7@p.test")[-1].get_content().split())
    assert world.ref.signups("r1")["pending"] == [] and world.svc.store.load("r1").meta["seats"] == []


def test_the_loser_of_two_simultaneous_replies_for_the_last_seat_is_told_the_game_is_full(world, monkeypatch):
    world.ref.open_game("race", "2..2", game_id="r1")
    for who in ("ann", "bob", "cid"):
        world.mail(f"{who}@p.test", "JOIN r1")
    world.mail("ann@p.test", "ok", to=f"referee+{confirmation_code(world, 'ann@p.test')}@{HOST}")
    both_looked = threading.Barrier(2)
    real = type(world.ref)._seat_pending

    def after_both_looked(self, *args, **kwargs):
        both_looked.wait(10)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(type(world.ref), "_seat_pending", after_both_looked)
    mails = []
    for who in ("bob", "cid"):
        code = confirmation_code(world, f"{who}@p.test")
        raw = (f"Delivered-To: referee+{code}@{HOST}\r\nFrom: {who}@p.test\r\nTo: referee+{code}@{HOST}\r\n"
               f"Message-ID: <{who}-ok@p.test>\r\nSubject: ok\r\n\r\nyes\r\n").encode()
        mails.append((parse_message(raw), raw, code))
    results = {}
    threads = [threading.Thread(target=lambda m=m: results.setdefault(m[0].sender, world.worker.desk.handle(*m)))
               for m in mails]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    outcomes = sorted(r.outcome for r in results.values())
    assert outcomes == ["command", "rejected"]
    loser = next(who for who, r in results.items() if r.outcome == "rejected")
    said = " ".join(world.sent(loser)[-1].get_content().split())
    assert "r1 is full: all 2 seats were taken and the game has started" in said
