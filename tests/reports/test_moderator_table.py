"""`referee show GAME`: the whole table for the moderator in plain text, what the players
cannot see included and marked; positions taken all along random games of both games."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from commands.main import cli
from commands.table_text import HIDDEN, HIDDEN_ALL, marked_rows, table_text
from referee import registry
from referee.playthrough import play

from ..race import GAME as RACE

PLAYERS = ["ann", "bob", "cat", "dan"]


def positions(name: str, seed: str, every: int) -> list[dict]:
    game = registry.get(name)
    states: list[dict] = []
    play(game, PLAYERS, seed, on_step=lambda pt: states.append(pt.state) if pt.steps % every == 0 else None)
    return states


@pytest.mark.parametrize("seed", ["m1", "m2"])
def test_constantinopolis_shows_every_secret_marked(seed):
    game = registry.get("constantinopolis")
    for state in positions("constantinopolis", seed, 7):
        text = table_text(game, state, PLAYERS)
        full = game.view(state, None)
        assert "your" not in text.lower() and "None" not in text
        for name in PLAYERS:  # every player's gold, which the others do not see
            assert re.search(rf"^{name}: .*\n  Gold {full['p'][name]['gold']} \[hidden\]", text, re.MULTILINE), name
            for number in full["p"][name]["hand"]:  # every contract in hand, with its number
                assert re.search(rf"^ +{number}  ", text, re.MULTILINE), (name, number)
        if full["deck"]:  # the deck's order, which no player sees
            assert f"next drawn first: {full['deck'][-1]}, " in text or f"next drawn first: {full['deck'][-1]} " in text
            assert HIDDEN_ALL in text
        duel = (full.get("auction") or {}).get("duel")
        if duel and duel["limit"] is not None:
            assert f"{duel['challenger']}'s limit in this duel: {duel['limit']} gold {HIDDEN}" in text
        for name in PLAYERS:
            for ship in full["p"][name]["ships"]:
                for number in ship["cargo"]:  # what each ship carries, hidden from the others
                    assert re.search(rf"#{ship['id']} .*carrying [^.]*{number} \(", text.replace("\n    ", " ")), number


@pytest.mark.parametrize("seed", ["m1", "m2"])
def test_porto_carthago_shows_money_deck_bag_and_queues(seed):
    game = registry.get("porto-carthago")
    for state in positions("porto-carthago", seed, 5):
        text = table_text(game, state, PLAYERS)
        full = game.view(state, None)
        assert "your" not in text.lower() and "None" not in text
        for name, p in full["players"].items():
            assert re.search(rf"^  {name} +{p['money']}\*", text, re.MULTILINE), name
        if full["deck"]:
            assert f"next drawn first: {', '.join(full['deck'])}".replace(", ", " ") in \
                " ".join(text.split()).replace(", ", " ")
        assert f"Goods bag: {len(full['bag'])} goods" in text


def test_a_game_without_a_layout_marks_each_value_with_who_cannot_see_it():
    state = RACE.setup(["ann", "bob"], "s", {}, RACE.load_components(None))
    views = {p: RACE.view(state, p) for p in ("ann", "bob")}
    rows = marked_rows(RACE.view(state, None), views)
    assert f"    ann: {state['lucky']['ann']} [hidden from bob]" in rows
    assert f"    bob: {state['lucky']['bob']} [hidden from ann]" in rows
    assert "  total: 0" in rows  # what everyone sees carries no mark
    assert marked_rows({"deck": [3, 1]}, {"ann": {"deck": 2}}) == [f"  deck: 3, 1 {HIDDEN_ALL}"]


def test_show_prints_text_for_the_moderator_and_keeps_json_and_the_players_view(tmp_path, monkeypatch):
    real = registry.games()
    monkeypatch.setattr(registry, "games", lambda: {**real, "race": RACE})
    runner, data = CliRunner(), str(tmp_path / "var")

    def run(*args):
        return runner.invoke(cli, ["--data-dir", data, *args], catch_exceptions=False)

    assert run("new", "constantinopolis", "--player", "ann:a@x.org", "--player", "bob:b@x.org", "--id", "c1").exit_code == 0
    shown = run("show", "c1")
    assert shown.exit_code == 0
    lines = shown.output.splitlines()
    assert lines[0] == "c1 as seen by the moderator: Constantinopolis, round 1, Auction of public offices " \
                       "(phase r1-auction-2)"
    assert re.match(r"Waiting for (ann|bob): auction: ", lines[1])
    assert "\nThe table\n" in shown.output and "\nann: " in shown.output and "Gold 30 [hidden]" in shown.output
    assert not shown.output.lstrip().startswith("{") and '"rng"' not in shown.output
    assert json.loads(run("show", "c1", "--json").output)["deck"]  # the JSON keeps everything
    mine = run("show", "c1", "--as", "bob").output
    assert mine.startswith("c1 as seen by bob:") and "[hidden" not in mine
    assert run("new", "race", "--player", "ann:a@x.org", "--player", "bob:b@x.org", "--id", "r1").exit_code == 0
    assert "[hidden from bob]" in run("show", "r1").output
