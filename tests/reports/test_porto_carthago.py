"""Porto Carthago reports: the game's own layout, the facts a player needs, nothing hidden."""

from __future__ import annotations

import re

import pytest

from games.porto_carthago import GAME
from games.porto_carthago.board import copy_state
from mailer.outbound.reports import view_text
from referee.playthrough import play
from referee.rendering import render

from .util import NAMES, laid_out, mail, positions, section


def check_facts(state, player, text):
    """What the report must tell `player`, read back from the state itself."""
    seat = state["players"].index(player)
    own = " ".join(section(text, "Your position", "The harbour").split())
    assert f"Your position ({player}): talents {state['money'][seat]}, trade points {state['tp'][seat]}," in own
    assert f"supply {state['supply'][seat]}, lighthouse {state['light'][seat]}, " \
           f"temple {state['temple'][seat]}" in own
    assert f"): {', '.join(state['store'][seat]) or 'empty'}." in own
    harbour = section(text, "The harbour", "Players")
    for i, name in enumerate(state["comp"]["dock_names"]):
        owner = state["dock_o"][i]
        row = next(line.split() for line in harbour.splitlines() if line.startswith(f"    {name} "))
        assert row[1] == ("-" if owner is None else state["players"][owner])
        assert row[2] == (state["dock_g"][i] or "-") and row[3] == (state["dock_s"][i] or "-")
        if state["dock_s"][i]:
            assert row[5] == state["comp"]["ship_cards"][state["dock_s"][i]]["good"]
    for ship in state["row1"] + state["row2"]:
        assert re.search(rf"^    {ship}\s+[12]\s", harbour, re.M), ship
    assert f"Market: {', '.join(state['market']) or 'empty'};" in " ".join(harbour.split())
    players = section(text, "Players")
    for s, name in enumerate(state["players"]):
        row = next(line.split() for line in players.splitlines() if line.startswith(f"  {name} "))
        money = row[2] if row[1] == "*" else row[1]
        assert money == (str(state["money"][s]) if name == player or state["stage"] == "over" else "?")


@pytest.mark.parametrize("players, seed", [(3, "rep-3"), (4, "rep-4"), (5, "rep-5")])
def test_reports_use_the_game_layout_and_tell_the_key_facts(players, seed):
    for state in positions(GAME, players, seed, 11):
        for player in state["players"]:
            text, shown = laid_out(GAME, state, player)
            assert "ship_cards" not in text and "The harbour" in shown
            check_facts(state, player, text)


def test_held_cards_queue_and_peeked_cards_are_shown_to_their_owner_only():
    found = {}

    def look(pt):
        st = pt.state
        for item in st["pending"]:
            if item["t"] == "arrange" and "arrange" not in found:
                found["arrange"] = (st, st["players"][item["p"]], list(item["cards"]))
        for s, held in enumerate(st["held"]):
            if held and "held" not in found:
                found["held"] = (st, st["players"][s], held[0])

    for seed in ("peek-1", "peek-2", "peek-3", "peek-4"):
        play(GAME, NAMES[:4], seed, on_step=look)
        if len(found) == 2:
            break
    st, owner, card = found["held"]
    for player in st["players"]:
        text = " ".join(view_text(GAME, GAME.view(st, player), player).split())
        assert card in text  # held cards are open to all
    assert "Ship cards held: " + card in " ".join(view_text(GAME, GAME.view(st, owner), owner).split())
    st, owner, cards = found["arrange"]
    other = next(p for p in st["players"] if p != owner)
    mine = " ".join(view_text(GAME, GAME.view(st, owner), owner).split())
    theirs = " ".join(view_text(GAME, GAME.view(st, other), other).split())
    assert f"{owner}: the order of the top ship cards ({', '.join(cards)})" in mine
    assert re.search(rf"{re.escape(owner)}: the order of the top ship cards[;.]", theirs)
    assert not [c for c in cards if re.search(rf"\b{c}\b", theirs)]  # the peeked cards are still in the deck


def test_queued_orders_appear_in_their_owners_report():
    state = positions(GAME, 3, "queue", 30)[1]
    waiting = GAME.prompts(state)[0].player
    idle = next(p for p in state["players"] if p != waiting)
    state, _ = GAME.apply(state, idle, GAME.parse(state, idle, "TALENTS"))
    assert "Queued orders: TALENTS." in view_text(GAME, GAME.view(state, idle), idle)
    assert "Queued orders" not in view_text(GAME, GAME.view(state, waiting), waiting)


def test_others_hidden_values_never_reach_the_report():
    """Money, the deck and bag order, and another player's queue change nothing (before the
    end: the final standings rightly show everyone's talents, a tie-break)."""
    for state in positions(GAME, 4, "hide", 9):
        if GAME.result(state) is not None:
            continue
        changed = copy_state(state)
        changed["money"][1] += 23
        changed["deck"] = list(reversed(changed["deck"]))
        changed["bag"] = sorted(changed["bag"])
        changed["queue"] = {**changed["queue"], "bob": [{"kind": "talents", "args": {}}]}
        assert mail(GAME, state, "ann") == mail(GAME, changed, "ann")


def test_event_and_help_texts_read_as_sentences():
    pt = play(GAME, NAMES[:4], "words")
    texts = [e.text for e in pt.events]
    assert not [t for t in texts if "(s)" in t]
    assert any(re.search(r"\b1 servant\b", t) for t in texts)
    state = GAME.setup(NAMES[:3], "help", {}, GAME.load_components(None))
    first = GAME.prompts(state)[0].player
    assert not GAME.help(state, first).startswith("You must")
    assert GAME.help(state, first)[0].isupper()


def test_tie_lines_name_each_column_with_its_value_in_brackets():
    """`gleich in Palastplätze 1` put a column's name where German wants another case, and the
    second line nested brackets: each value now follows its column in brackets, in a list."""
    from referee.contract import Result
    from referee.standings import decided

    scores = {"alice": {"palace_seats": 1, "trade_points": 2, "money": 141},
              "bruno": {"palace_seats": 1, "trade_points": 2, "money": 141},
              "chiara": {"palace_seats": 1, "trade_points": 3, "money": 100}}
    result = Result(scores, (("chiara",), ("alice", "bruno")), ("chiara",))
    assert decided(GAME, result, "de") == [
        "alice und bruno teilen sich einen Platz, gleichauf in allem: Palastplätze (1), Handelspunkte (2) und "
        "Talente (141).",
        "chiara vor alice und bruno – gleichauf: Palastplätze (1); entscheidend: Handelspunkte (3 zu 2)."]
    assert decided(GAME, result, "en")[0] == ("alice and bruno share a place: equal in palace seats (1), trade "
                                               "points (2) and talents (141).")


def test_the_html_heading_counts_decades_like_the_subject_and_the_text():
    """Porto Carthago's rounds are decades: the HTML heading says so, as the text part's
    first line does (it once said `Round 1: ...`)."""
    state = GAME.setup(["ann", "bob", "cid"], "heading", {o.name: o.default for o in GAME.options},
                       GAME.load_components(None))
    text, html = mail(GAME, state, "ann")
    assert "decade 1, " in text.splitlines()[0]
    assert re.search(r"For <b>ann</b>: decade 1, ", html) and "Round 1" not in html


@pytest.mark.parametrize("lang, heading, goods, dock, ships", [
    ("en", "What the codes mean:", "the kinds of goods", "(C1-I is dock I of C1)", "S01 to S30: the ship cards"),
    ("de", "Was die Kürzel bedeuten:", "die Warenarten", "(C1-I ist Speicher I von C1)", "S01 bis S30: die Schiffskarten"),
    ("it", "Che cosa significano le sigle:", "i tipi di merce", "(C1-I è il molo I di C1)",
     "Da S01 a S30: le carte nave")])
def test_a_whole_plain_text_view_says_what_its_codes_stand_for(lang, heading, goods, dock, ships):
    """G1, C1-I, S05 fill the plain text; a whole view (a first mail, or one asked for) explains
    them as the HTML part does, the privileges under the same heading; a daily mail, which shows
    only what changed, leaves the explanation out."""
    state = positions(GAME, 3, "codes-3", 40)[1]
    player = state["players"][0]
    view = GAME.view(state, player)
    text = view_text(GAME, view, player, lang)
    legend = " ".join(section(text, "  " + heading, "  Market").split())
    assert f"G1, G2, G3, G4, G5: {goods}." in legend and dock in " ".join(text.split()) and ships in legend
    assert re.search(r"^    (Privileges|Privilegien|Privilegi): P1: ", text, re.M)
    daily = render("porto-carthago/view.txt", lang=lang, view=view, player=player, changed=["ship_cards"],
                   plan_apart=False, sections={})
    assert heading not in daily and re.search(r"^  (Privileges|Privilegien|Privilegi): P1: ", daily, re.M)
