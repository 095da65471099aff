"""The lines of "Since your last mail": one player's moves in a row read as one line, and one
line never glues two players' orders or a capital after a semicolon."""

from __future__ import annotations

from mailer.outbound.reports import grouped

PLAYERS = ["alice", "bruno", "chiara"]


def test_a_players_order_starts_its_own_line_and_keeps_what_it_did():
    lines = grouped([("order", "alice: ARISTOCRAT 2 LIGHTHOUSE +3"),
                     ("action", "alice uses the aristocrat on slot 2 paying 1 servant."),
                     ("order", "alice: DONE"),
                     ("order", "bruno: CAPTAIN 4"),
                     ("action", "bruno uses the captain on slot 4 and occupies a charter ship.")], PLAYERS)
    assert lines == ["alice: ARISTOCRAT 2 LIGHTHOUSE +3; uses the aristocrat on slot 2 paying 1 servant; DONE",
                     "bruno: CAPTAIN 4; uses the captain on slot 4 and occupies a charter ship."]


def test_sentences_of_one_kind_that_begin_with_a_capital_go_on_after_a_full_stop():
    lines = grouped([("load", "You load contract 57 on ship 1."), ("load", "You load contract 4 on ship 1.")], PLAYERS)
    assert lines == ["You load contract 57 on ship 1. You load contract 4 on ship 1."]
    lines = grouped([("production", "alice produces 2 green."), ("production", "bruno produces 1 blue.")], PLAYERS)
    assert lines == ["alice produces 2 green; bruno produces 1 blue."]
    lines = grouped([("production", "alice produces 2 green."), ("production", "bruno produces 2 green.")], PLAYERS)
    assert lines == ["alice produces 2 green; likewise bruno."]
