"""Bounded work for any mail the size limit lets in: whatever a mail holds, the lines looked at
and the lines handed to the game are capped, and the answer quotes at most a page of it.

The shapes are those that used to cost seconds and hundreds of megabytes (bench/bench_long_mail.py
measures them): hundreds of thousands of short lines, a hundred thousand orders, thousands of
garbage lines in an ORDERS block, one line of a megabyte, a huge quote, a huge HTML body, quoted
ORDERS lines that no END closes. What is counted here is the work's structure, never its time.
"""

from __future__ import annotations

import email

import pytest

from mailer.daemon import prose_lines
from mailer.daemon.reading import MAX_SHOWN
from mailer.inbound import html, orders, quotes
from mailer.inbound.limits import MAX_RAW_LINES
from mailer.inbound.orders import MAX_BODY_LINES
from mailer.inbound.quotes import MAX_OWN_LINES
from referee.receipts import MAX_ERRORS

from .mime import Part, reply

PAGE = 60  # lines of 78 characters: what an answer may quote of the mail it answers


class Counted:
    """Calls to a function of a module, and the lines of text they were given."""

    def __init__(self, monkeypatch, owner, name, lines_of=None):
        self.calls = 0
        self.lines = 0
        original = getattr(owner, name)

        def counted(*args, **kwargs):
            self.calls += 1
            if lines_of is not None:
                self.lines += lines_of(*args, **kwargs)
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)


@pytest.fixture
def parsed(monkeypatch, world):
    """The lines the games are asked to read, over every mail of the test."""
    counts = []
    for name in ("c", "p"):
        game = world.referee.game_of(world.store.load(name).meta)
        counts.append(Counted(monkeypatch, type(game), "parse",
                              lambda self, state, player, text: text.count("\n") + 1))
    return counts


def send(world, text: str, *, subtype: str = "plain", game: str = "c"):
    report = world.report(game)
    raw = reply(report, [Part(text, subtype=subtype, cte="8bit")], client=str(len(text)))
    handled = world.read(raw, report.reply_to)
    answer = world.receipt(game) if handled.outcome == "accepted" else world.answers()[-1]
    return handled, answer


def quoting(answer: str, marker: str) -> list[str]:
    """The lines of an answer that quote the mail (they hold its *marker*)."""
    return [line for line in answer.splitlines() if marker in line]


def test_a_mail_of_many_short_lines_is_refused_after_a_bounded_look(world, parsed, monkeypatch):
    looked = Counted(monkeypatch, quotes, "_ends_new_text")
    handled, answer = send(world, "\n".join("x" for _ in range(400_000)))
    assert handled.outcome == "refused"
    assert "longer than the referee reads, so nothing in it was read" in " ".join(answer.split())
    assert looked.calls <= MAX_OWN_LINES + 1
    assert sum(p.calls for p in parsed) == 0
    assert len(answer.splitlines()) <= PAGE


def test_a_hundred_thousand_orders_are_refused_unread(world, parsed):
    handled, answer = send(world, "\n".join("stay" for _ in range(100_000)))
    assert handled.outcome == "refused" and sum(p.calls for p in parsed) == 0
    assert len(quoting(answer, "stay")) == 0


def test_as_many_lines_as_are_read_cost_a_few_readings_of_them(world, parsed, monkeypatch):
    judged = Counted(monkeypatch, prose_lines, "_attempt")
    lines = [f"bidd consul {n} up to 9 or stay" for n in range(MAX_OWN_LINES)]
    handled, answer = send(world, "\n".join(lines))
    assert handled.outcome == "rejected"
    assert judged.calls <= MAX_OWN_LINES
    assert sum(p.lines for p in parsed) <= 4 * MAX_OWN_LINES  # the prose reading's rounds, then the submission
    assert len(quoting(answer, "bidd consul")) <= MAX_ERRORS
    assert f"and {MAX_OWN_LINES - MAX_ERRORS} more lines with errors" in " ".join(answer.split())
    assert len(answer.splitlines()) <= 2 * PAGE  # the menu of the orders one may give comes too


@pytest.mark.parametrize("count", [100, MAX_OWN_LINES - 10])
def test_garbage_in_an_orders_block_is_answered_with_a_page_whatever_its_length(world, count):
    garbage = "\n".join(f"zqx {n} wibble wobble frobnicate the quux" for n in range(count))
    handled, answer = send(world, f"ORDERS\n{garbage}\nEND")
    assert handled.outcome == "rejected"
    shown = quoting(answer, "wibble")
    assert len(shown) == MAX_ERRORS
    assert f"and {count - MAX_ERRORS} more lines with errors, not shown" in " ".join(answer.split())


def test_thousands_of_garbage_lines_in_an_orders_block_are_refused_unread(world, parsed):
    garbage = "\n".join(f"zqx {n} wibble wobble frobnicate the quux" for n in range(8_000))
    handled, answer = send(world, f"ORDERS\n{garbage}\nEND")
    assert handled.outcome == "refused" and sum(p.calls for p in parsed) == 0
    assert quoting(answer, "wibble") == [] and len(answer.encode()) < 2_000


def test_one_line_of_a_megabyte_is_quoted_back_a_hundred_characters_long(world, parsed):
    handled, answer = send(world, "take consul\ndefend 4\n" + "word " * 200_000)
    assert handled.outcome == "accepted"  # a paragraph of prose, set aside
    assert all(p.lines <= 3 * 3 for p in parsed)  # the game read the two orders, never the paragraph
    shown = quoting(answer, "word")
    assert sum(len(line.strip()) for line in shown) <= MAX_SHOWN + 3


def test_a_long_line_in_an_orders_block_never_reaches_the_game(world, parsed):
    handled, answer = send(world, "ORDERS\ntake consul\n" + "bid " * 300_000 + "\nEND")
    assert handled.outcome == "refused" and sum(p.calls for p in parsed) == 0
    assert quoting(answer, "bid bid") == []


def test_orders_above_a_huge_quote_are_read_from_the_first_lines(world, monkeypatch):
    looked = Counted(monkeypatch, quotes, "is_quoted")
    handled, answer = send(world, "take consul\ndefend 4\n\n" + "\n".join("> x" for _ in range(250_000)))
    assert handled.outcome == "accepted" and world.taken("c") == ["take consul", "defend 4"]
    assert f"only its first {MAX_BODY_LINES} lines were looked at" in " ".join(answer.split())
    assert looked.calls <= MAX_BODY_LINES + 10


def test_the_parser_is_given_a_bounded_number_of_lines(world, monkeypatch):
    seen = []
    original = email.parser.BytesParser.parsebytes

    def parsebytes(self, raw, *args, **kwargs):
        seen.append(raw.count(b"\n"))
        return original(self, raw, *args, **kwargs)

    monkeypatch.setattr(email.parser.BytesParser, "parsebytes", parsebytes)
    send(world, "\n".join("x" for _ in range(400_000)))
    assert seen and max(seen) <= MAX_RAW_LINES


def test_a_huge_html_body_is_parsed_up_to_a_bounded_size(world, monkeypatch):
    fed = []
    original = html._TextExtractor.feed
    monkeypatch.setattr(html._TextExtractor, "feed", lambda self, data: (fed.append(len(data)), original(self, data))[1])
    page = "<html><body>" + "".join("<div>x</div>" for _ in range(80_000)) + "</body></html>"
    handled, _ = send(world, page, subtype="html")
    assert handled.outcome == "refused"
    assert sum(fed) <= html.MAX_MARKUP


def test_quoted_orders_lines_without_an_end_are_looked_at_a_few_times(world, monkeypatch):
    calls = {"n": 0}
    original = orders.split_quote

    def split_quote(line):
        calls["n"] += 1
        return original(line)

    monkeypatch.setattr(orders, "split_quote", split_quote)
    handled, _ = send(world, "take consul\ndefend 4\n\n" + "\n".join("> ORDERS c r1-auction-2" for _ in range(40_000)))
    assert handled.outcome == "accepted"
    assert calls["n"] <= MAX_BODY_LINES + 8 * 400


def test_a_mail_from_a_stranger_costs_the_same_bounded_look(world, monkeypatch):
    looked = Counted(monkeypatch, quotes, "_ends_new_text")
    report = world.report("c")
    raw = reply(report, [Part("\n".join("x" for _ in range(400_000)), cte="8bit")], sender="Eve <eve@elsewhere.test>")
    raw = raw.replace(report.reply_to.encode(), b"c@games.test")  # no player's token anywhere
    handled = world.read(raw, "c@games.test")
    assert handled.outcome == "unmatched"
    assert looked.calls <= MAX_OWN_LINES + 1


def test_more_prose_than_is_listed_is_counted_in_the_players_words(world):
    prose = "\n".join(f"Line {n} of a long story about the weather" for n in range(40))
    handled, answer = send(world, f"take consul\ndefend 4\n\n{prose}")
    assert handled.outcome == "accepted"
    assert "... and 28 more" in answer and "{" not in answer


@pytest.mark.parametrize("in_block", [False, True], ids=["own-text", "orders-block"])
def test_a_long_line_of_alternatives_is_read_as_orders(world, in_block):
    """Plans and alternatives make lines of hundreds of characters (the demo's bots write them):
    read, never set aside as a paragraph nor refused as too long."""
    docks = [f"C{n}-{side}" for n in range(1, 7) for side in ("I", "II")]
    line = " or ".join(f"OCCUPY {dock}" for dock in ["C2-I"] + docks + docks)
    assert len(line) > 300
    text = f"ORDERS\n{line}\nEND" if in_block else f"Hi all,\n{line}\n\nThanks,\nBob"
    handled, answer = send(world, text, game="p")
    assert handled.outcome == "accepted", answer
    assert world.taken("p") and world.taken("p")[0].startswith("OCCUPY C2-I or C1-I or C1-II")
