"""Each thing is said once in a mail: whole games of both titles, played by the bots that
answer only what they are asked and by the bots that send plans, through the service with
the real notifier; no mail a player gets holds a sentence of 30 characters or more twice.
In the same games, only a mail that asks for orders has a subject that says "Your move".

A plan is confirmed by the receipt in a line and shown under "Your plan"; it is not echoed
among the events, a plan step and the event it causes are one line, and a queue of turns is
not shown again in the position.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tempfile
from pathlib import Path
from typing import Sequence

import pytest

from mailer.daemon.wiring import build
from referee import registry
from referee.bots import make_bot
from referee.bots.tempo import asked_mails
from referee.config import Settings

from tests.deadlines.conftest import ManualClock, mails, text

PLAYERS = ["ann", "bob", "cid"]
LONGEST_GAME = 3000  # round trips


def sentences(body: str, players: Sequence[str] = PLAYERS) -> list[str]:
    """The sentences of a mail's text part: its lines joined where a paragraph or a list item
    goes on (a wrapped line, indented deeper than the line it goes on from), then cut after a full stop, a question or an exclamation mark or
    a semicolon, so that each order or plan line of a list counts too. A clause that goes on
    with what the player named before it did (`bruno buys Emporium; ends the construction
    turn`) is read with that player's name: what two players did alike is two sentences."""
    joined: list[str] = []
    first = 0  # the indentation of the current paragraph's first line: deeper lines go on with it
    for line in body.splitlines():
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        item = stripped.startswith(("- ", "#", "ORDERS", "END")) or not stripped
        if joined and joined[-1] and not item and indent > first:
            joined[-1] += " " + stripped
        else:
            joined.append(stripped)
            first = indent
    out = []
    for paragraph in joined:
        who = None
        for clause in re.split(r"(?<=[.!?;])\s+", paragraph):
            menu = clause.startswith("#")
            clause = clause.strip(" -#")
            if menu:
                clause = "# " + clause
            if not clause.strip("# "):
                continue
            named = next((p for p in players if re.match(rf"(\d+\.\s+)?{re.escape(p)}[ :'(]", clause)), None)
            if named and clause.startswith(named + ": "):
                clause = named + " " + clause[len(named) + 2:]  # `bob: ...` is bob's, not a label
            who = named or who
            out.append(clause if named or who is None else f"{who} {clause}")
    return out


def repeated(body: str, least: int = 30) -> list[str]:
    """The sentences of 30 characters or more said twice: whole, or (a plan line, an order
    echoed under a heading) what follows its label (`Your plan for the donation: donate red
    or pass` and `donate: donate red or pass` say the same)."""
    seen: set[str] = set()
    twice = []
    for sentence in sentences(body):
        said = sentence.rstrip(".;!? ")
        # a menu line of the ORDERS block lists what one order may take: alike for two slots
        who = next((p for p in PLAYERS if re.match(rf"(\d+\.\s+)?{re.escape(p)}[ '(]", said)), None)
        label_off = said.rpartition(": ")[2]
        keys = [said] if sentence.startswith("#") or label_off == said else [
            said, f"{who} {label_off}" if who else label_off]
        for key in dict.fromkeys(keys):
            if len(key) < least:
                continue
            if key in seen:
                twice.append(key)
            seen.add(key)
    return twice


def play(svc, name: str, kind: str, seed: str) -> int:
    game = registry.get(name)
    made = svc.referee.new_game(name, [(p, f"{p}@players.test") for p in PLAYERS], seed=seed, game_id=f"{name[:5]}-1")
    tokens = {p["name"]: p["token"] for p in made.players}
    bots = {p: make_bot(name, kind, f"{seed}/{p}") for p in PLAYERS}
    sent = 0
    for _ in range(LONGEST_GAME):
        stored = svc.store.load(made.id)
        batch = [dataclasses.replace(m, in_reply_to=m.message_id)
                 for m in asked_mails(game, stored, bots, tokens, sent, "players.test")]
        if not batch:
            return sent
        sent += len(batch)
        before = {r["id"] for r in svc.outbox.pending(include_sent=True)}
        receipts = svc.referee.submit_many(made.id, batch)
        assert all(r.status == "accepted" for r in receipts), [r.render() for r in receipts if r.status != "accepted"]
        # answered at once: a mail queued by this unit of work refers to each order mail
        new = [r["raw"] or "" for r in svc.outbox.pending(include_sent=True) if r["id"] not in before]
        assert all(any(sub.in_reply_to in raw for raw in new) for sub in batch), [s.in_reply_to for s in batch]
    raise AssertionError(f"{name} did not end")


@functools.lru_cache(maxsize=None)
def played(name: str, kind: str) -> tuple[tuple[tuple[str, str, str, str], ...], int]:
    """Every mail of one whole game, played once per module, as (recipient, subject, text part,
    the ids it answers: In-Reply-To and References), and how many order mails were sent."""
    with tempfile.TemporaryDirectory(prefix="said-once-") as tmp:
        svc = build(Settings(hostname="games.test", data_dir=Path(tmp) / "var"), clock=ManualClock())
        sent = play(svc, name, kind, f"once-{name}-{kind}")
        return tuple((str(m["To"]), str(m["Subject"]), text(m).replace("\r\n", "\n"),
                      f"{m['In-Reply-To'] or ''} {m['References'] or ''}") for m in mails(svc)), sent


def game_mail(name: str, kind: str) -> list[tuple[str, str, str]]:
    return [(to, subject, body) for to, subject, body, _ in played(name, kind)[0]]


GAMES = [(name, kind) for name in ("constantinopolis", "porto-carthago") for kind in ("ask-only", "plans")]


@pytest.mark.parametrize("name,kind", GAMES)
def test_no_mail_says_a_sentence_twice(name, kind):
    got = game_mail(name, kind)
    assert len(got) > 20
    found = [(to, subject, repeated(body)) for to, subject, body in got]
    assert not [f for f in found if f[2]]


@pytest.mark.parametrize("name,kind", GAMES)
def test_every_order_mail_is_answered_in_the_unit_of_work_that_read_it(name, kind):
    """Under the default NOTIFY turn too: its receipt alone, or opening the mail then due (each
    unit of work is checked as the game is played, in `play`)."""
    got, sent = played(name, kind)
    answered = {ref for *_, refs in got for ref in refs.split()}
    assert sent > 10
    assert not [n for n in range(1, sent + 1) if not any(f"<{n}.{p}@players.test>" in answered for p in PLAYERS)]


@pytest.mark.parametrize("name,kind", GAMES)
def test_only_a_mail_that_asks_for_orders_says_your_move(name, kind):
    """The subject of a mail that asks for orders (its ORDERS block) says so first, with the
    deadline; no other subject says "Your move" (receipts, round ends, the end)."""
    got = game_mail(name, kind)
    asking = [(subject, body) for _, subject, body in got if re.search(r"^ORDERS \S+ \S+$", body, re.M)]
    others = [subject for _, subject, body in got if not re.search(r"^ORDERS \S+ \S+$", body, re.M)]
    assert asking and others
    assert all(re.fullmatch(r"\[\w+-1\] Your move: (?:round|decade) \d+, .+ \(by \w{3} \d+ \w{3} \d\d:\d\d UTC\)", s)
               for s, _ in asking), [s for s, _ in asking][:3]
    assert not [s for s in others if "Your move" in s]
    assert {re.sub(r"\d+", "N", s.split("] ", 1)[1].split(":")[0].split(" – ")[0]) for s in others} <= {
        "Orders received", "Round N", "Decade N", "Game over"}


def test_the_sentences_of_a_mail_are_read_across_its_wrapped_lines():
    body = ("Since your last mail:\n  - ann buys Armamentarium for 9 gold; ends the\n    construction turn.\n"
            "  - bob buys Armamentarium for 9 gold; ends the construction turn.\n"
            "  - ann buys Armamentarium for 9 gold.\n\nYour plan (only you see it):\n  construction: done\n")
    assert repeated(body) == ["ann buys Armamentarium for 9 gold"]
    assert "ann ends the construction turn." in sentences(body) and "bob ends the construction turn." in sentences(body)
    assert repeated("A short one. A short one.") == []


@pytest.mark.parametrize("name", ["constantinopolis", "porto-carthago"])
def test_a_receipt_that_points_to_the_plan_has_it_in_the_same_mail(name):
    """"Plan accepted: ...; see Your plan" names the plan's parts; the plan itself is in that
    mail, whether the receipt opens a report or comes alone (the player hears nothing more
    until they are asked). A plan used up in the unit of work that read it is said to be."""
    got = game_mail(name, "plans")
    pointing = [(subject, body) for _, subject, body in got if "see Your plan." in body]
    assert pointing and [s for s, _ in pointing if "Orders received" in s]
    assert not [s for s, body in pointing if body.count("Your plan (only you see it") != 1], [
        s for s, body in pointing if body.count("Your plan (only you see it") != 1][:3]
    spent = [body for _, _, body in got if "it is all used up already." in body]
    assert not [body for body in spent if "Your plan (only you see it" in body]


@pytest.mark.parametrize("name", ["constantinopolis", "porto-carthago"])
def test_the_mail_of_the_games_end_says_nothing_of_a_plan(name):
    """Nothing is left to plan once the game is over: the receipt that opens the last mail
    names the orders it read, never the plan the same mail carried ("Plan accepted: ...; it
    is all used up already" above THE GAME IS OVER reads as a plan still in play)."""
    last = [(to, body) for to, subject, body in game_mail(name, "plans") if subject.endswith("Game over")]
    assert len(last) == len(PLAYERS)
    assert [to for to, body in last if "Accepted (" in body]  # a receipt opens some of them
    assert not [to for to, body in last if "Plan accepted" in body or "Your plan (only you see it" in body]
