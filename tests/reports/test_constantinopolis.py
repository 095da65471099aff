"""Constantinopolis reports: the game's own layout, the facts a player needs, nothing hidden."""

from __future__ import annotations

import re

import pytest

from games.constantinopolis import GAME
from games.constantinopolis.components import BUILTIN
from games.constantinopolis.state import clone
from mailer.outbound.reports import view_text
from referee.playthrough import play

from .util import NAMES, laid_out, mail, positions, section

OFFICE_NAMES = BUILTIN["office_names"]


def goods_text(goods):
    return ", ".join(f"{n} {g}" for g, n in goods.items() if n) or "none"


def check_facts(state, player, text):
    """What the report must tell `player`, read back from the state itself."""
    me = state["p"][player]
    own = section(text, "Your position", "The table")
    assert f"Gold {me['gold']}, fame {me['fame']}," in own
    assert f"Goods: {goods_text(me['goods'])}." in own
    for ship in me["ships"]:
        assert f"#{ship['id']} {ship['size']} (capacity" in " ".join(own.split())
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
        if name == player or state["options"]["public_gold"] or state["phase"] == "over":
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
            text, shown = laid_out(GAME, state, player)
            assert "catalogue" not in text and "Players" in shown
            check_facts(state, player, text)


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
        assert mail(GAME, state, "ann") == mail(GAME, changed, "ann")
    assert checked  # some position had a loaded ship of the other player


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
    assert not [i for i in seen[0]["market"]["future"] if BUILTIN["markets"][i]["name"] in text]


@pytest.mark.parametrize("players", [2, 5])
def test_event_texts_read_as_sentences(players):
    pt = play(GAME, NAMES[:players], f"words-{players}")
    texts = [e.text for e in pt.events]
    assert not [t for t in texts if re.search(r"\b1 (contracts|goods)\b", t)]
    assert any(re.search(r"\b1 contract\b", t) for t in texts)


def test_a_player_who_left_is_marked_and_still_gets_a_report():
    state = positions(GAME, 3, "drop", 40, {"dropout": True})[1]
    state, _ = GAME.drop(state, "bob")
    while GAME.prompts(state) and not state["p"]["bob"]["removed"]:
        who = GAME.prompts(state)[0].player
        state, _ = GAME.apply(state, who, GAME.default_orders(state, who))
    assert state["p"]["bob"]["removed"]
    players = section(laid_out(GAME, state, "ann")[0], "Players")
    assert re.search(r"^  bob \(out\)\s+-\s+\?\s", players, re.M)
    assert "Your position (bob)" in laid_out(GAME, state, "bob")[0]


def test_another_players_cargo_is_a_note_in_the_ships_bracket():
    """With ships_public the others' ships name their contracts inside the bracket that says
    where the ship is (`small (at sea, 1 round left, carrying 45 (1 blue))`), never after a
    colon of its own (`small (at sea, 1 round left): carrying ...`)."""
    checked = 0
    for state in positions(GAME, 3, "cargo-public", every=2, options={"ships_public": True}):
        for player in state["players"]:
            text, html = laid_out(GAME, state, player)
            for part in (text, html):
                flat = " ".join(part.split())
                assert "): carrying" not in flat
                carried = re.findall(r"(?:small|medium|large) \([^()]*carrying \d", flat)
                checked += len(carried)
    assert checked > 10
