"""Constantinopolis reports: the game's own layout, the facts a player needs, nothing hidden."""

from __future__ import annotations

import re

import pytest

from games.constantinopolis import GAME
from games.constantinopolis.components import BUILTIN
from games.constantinopolis.state import clone
from mailer.reports import render_report, report_context, view_text
from referee.contract import Event
from referee.playthrough import play

from .util import NAMES, check_html, positions, section

OFFICE_NAMES = BUILTIN["office_names"]


def report(state, player, events=()):
    ctx = report_context(GAME, state, game_id="c-1", player=player, events=list(events))
    return ctx, *render_report(ctx)


def goods_text(goods):
    return ", ".join(f"{n} {g}" for g, n in goods.items() if n) or "none"


def check_facts(state, player, text):
    """What the report must tell `player`, read back from the state itself."""
    me = state["p"][player]
    own = section(text, "Your position", "The table")
    assert f"Gold {me['gold']}, fame {me['fame']}," in own
    assert f"Goods: {goods_text(me['goods'])}." in own
    for ship in me["ships"]:
        assert f"Ship #{ship['id']}: {ship['size']}" in own
        for c in ship["cargo"]:
            assert re.search(rf"carrying\s[^.]*\b{c} \(", own), c
    if me["hand"]:
        hand = section(own, "  Contracts in hand")
        for c in me["hand"]:
            assert re.search(rf"^\s+{c}\s", hand, re.M), c
    else:
        assert "No contracts in hand." in own
    table = section(text, "The table", "Players")
    for office, holder in state["offices"].items():
        assert re.search(rf"{OFFICE_NAMES[office]}\s+{holder or 'vacant'}\b", table), office
    card = GAME.view(state, player)["market"]["current_card"]["goods"]
    for what in ("buy", "sell", "limit"):
        row = next(line.split()[1:] for line in table.splitlines() if line.strip().startswith(what + " "))
        assert row == [str(card[g][what]) if card[g]["limit"] else "-" for g in card], what
    players = section(text, "Players")
    for name in state["players"]:
        row = next(line.split() for line in players.splitlines() if line.startswith(f"  {name} "))
        gold = row[3] if row[1] == "*" else row[2]
        if name == player or state["options"]["public_gold"]:
            assert gold == str(state["p"][name]["gold"])
        else:
            assert gold == "?"


@pytest.mark.parametrize("players, seed, options", [
    (3, "rep-3", {}),
    (5, "rep-5", {}),
    (4, "rep-4", {"public_gold": True, "free_trade": True, "market_reshuffle": "facedown", "dropout": True}),
])
def test_reports_use_the_game_layout_and_tell_the_key_facts(players, seed, options):
    for state in positions(GAME, players, seed, 17, options):
        for player in state["players"]:
            ctx, text, html = report(state, player)
            assert ctx["view_partial"] == "constantinopolis/view" and ctx["rows"] == []
            assert "What you see:" not in text and "catalogue" not in text
            check_facts(state, player, text)
            shown = check_html(html)
            assert f"Your position ({player})" in shown and "Players" in shown
            assert "\u00a0" not in text  # non-breaking spaces are for wrapping only


def test_a_five_player_report_stays_short_and_narrow():
    longest = 0
    for seed in ("short-1", "short-2"):
        for state in positions(GAME, 5, seed, 9):
            for player in state["players"]:
                lines = view_text(GAME, GAME.view(state, player), player).splitlines()
                longest = max(longest, len(lines))
                assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert 40 < longest < 120


def test_others_hidden_values_never_reach_the_report():
    """Gold, loaded contracts, advance limits and the deck order of others change nothing."""
    checked = 0
    for state in positions(GAME, 4, "hide", 7):
        if state["phase"] == "over":
            continue
        other = state["players"][1]
        changed = clone(state)
        changed["p"][other]["gold"] += 17
        changed["deck"] = list(reversed(changed["deck"]))
        changed["defend"][other] = 9
        for ship in changed["p"][other]["ships"]:
            if ship["cargo"]:
                ship["cargo"] = [changed["deck"][0]]
                checked += 1
        assert report(state, "ann")[1:] == report(changed, "ann")[1:]
    assert checked  # some position had a loaded ship of the other player


def test_text_stays_plain_and_html_escapes():
    state = GAME.setup(["<ann>", "bob&co", "cid"], "esc", {}, GAME.load_components(None))
    _, text, html = report(state, "<ann>", [Event("x", "bob&co bids <5>")])
    assert "Your position (<ann>)" in text and "bob&co" in text and "&amp;" not in text
    assert "&lt;ann&gt;" in html and "bob&amp;co" in html and "<ann>" not in html
    assert "bob&amp;co bids &lt;5&gt;" in html
    assert "Your position (<ann>)" in check_html(html)


def test_the_market_table_and_for_sale_lists_follow_the_view():
    state = GAME.setup(NAMES[:3], "table", {}, GAME.load_components(None))
    view = GAME.view(state, "ann")
    text = view_text(GAME, view, "ann")
    assert f"Market: {view['market']['current']}" in text
    assert "Next markets: " + ", ".join(view["market"]["future"]) in " ".join(text.split())
    for name, left in view["supply"].items():
        if left:
            assert f"{name} {view['catalogue']['buildings'][name]['cost']} ({left})" in " ".join(text.split())
    assert "Walls: exchange, trade, draw, market, guard, dock (10 gold each)." in text
    assert "Contract deck: " in text and f"discard pile: {view['discard']}." in text


def test_face_down_future_market_shows_only_a_count():
    seen = []
    play(GAME, NAMES[:2], "down", {"market_reshuffle": "facedown"},
         on_step=lambda pt: seen.append(pt.state) if pt.state["market"]["hidden"] and not seen else None)
    assert seen, "the face-down pile never came up"
    text = view_text(GAME, GAME.view(seen[0], "ann"), "ann")
    hidden = len(seen[0]["market"]["future"])
    assert f"Next markets: {hidden} card{'' if hidden == 1 else 's'} face down." in " ".join(text.split())
    assert not any(name in text for name in (m["name"] for m in BUILTIN["markets"][1:]) if name != seen[0] and False)


@pytest.mark.parametrize("players", [2, 5])
def test_event_texts_read_as_sentences(players):
    pt = play(GAME, NAMES[:players], f"words-{players}")
    texts = [e.text for e in pt.events]
    assert not [t for t in texts if re.search(r"\b1 (contracts|goods)\b", t)]
    assert any(re.search(r"\b1 contract\b", t) for t in texts)
