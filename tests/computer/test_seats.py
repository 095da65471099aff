"""Computer seats in the service: seated by `new`, by `replace` and by an open game's start
date; their decisions played by `tick` through the submission path (checked, logged,
replayable without thinking again); a failed decision plays the seat's default orders; no
mail ever goes to a computer seat, and every person's mail names them as such."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from commands.main import cli
from mailer.daemon.wiring import build
from referee import registry
from referee.computer import decide
from referee.computer.thinking import ThinkingFailed
from referee.config import Settings
from referee.gamelog import replay_log, write_log
from referee.playthrough import own_position_and_set
from referee.service import BadRequest, next_wake

from tests.deadlines.conftest import ManualClock, flat, mails
from tests.marks import slow
from tests.service.conftest import games  # noqa: F401  (the race test game: it has no computer player)

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def svc(tmp_path, games):  # noqa: F811
    clock = ManualClock()
    services = build(Settings(hostname="games.test", data_dir=tmp_path / "var"), clock=clock)
    services.clock = clock
    return services


def think(seen, level, seed):
    """The decision as the thinking process makes it, in this process (quicker for tests)."""
    return decide(registry.get(seen.game), seen, level, seed)


def alone(svc, name="porto-carthago", level="fast"):
    made = svc.referee.new_game(name, [("me", "me@players.test")], seed="alone",
                                bots=[("dmitri", level), ("ada", level), ("bruno", level)])
    return made.id, made.players[0]["token"]


def play_me(svc, gid, token, seed="me", most=3000):
    """The person answers with random legal orders; the computer seats by `tick`, which is
    what cron runs. Until the end; how many times the person was asked."""
    rng = random.Random(seed)
    asked = 0
    for _ in range(most):
        svc.referee.tick(think=think)
        stored = svc.store.load(gid)
        game = registry.get(stored.meta["game"])
        prompts = game.prompts(stored.state)
        if not prompts:
            return asked
        assert {p.player for p in prompts} == {"me"}, "after a tick the game waits only for the person"
        state, earlier = own_position_and_set(game, stored, "me")  # a new set replaces the earlier one
        menu = game.legal_orders(state, "me")
        asked += 1
        receipt = svc.referee.submit(gid, "me", "\n".join(earlier + [game.format(rng.choice(menu))]), token=token)
        assert receipt.status == "accepted", receipt.render()
    raise AssertionError("the game did not end")


@slow
@pytest.mark.parametrize("name", ["porto-carthago", "constantinopolis"])
def test_a_person_plays_a_whole_game_against_computer_players(svc, name):
    gid, token = alone(svc, name)
    asked = play_me(svc, gid, token)
    stored = svc.store.load(gid)
    assert stored.meta["status"] == "finished" and asked > 20
    moves = [e for e in stored.events if e.get("source") == "computer"]
    assert {e["player"] for e in moves} == {"dmitri", "ada", "bruno"} and all(e["type"] == "order" for e in moves)
    # the log replays exactly, without thinking again: it holds the computer seats' orders as text
    log = write_log(stored.meta, stored.events, stored.state, reveal_seed=True)
    assert replay_log(log, registry.get).ok
    # no mail to a computer seat, and the person's mail names them as such
    assert all(m["To"] == "me@players.test" for m in mails(svc, game=gid))
    last = flat(mails(svc, to="me@players.test", game=gid)[-1])
    assert "Players: " in last and "dmitri (computer)" in last and "THE GAME IS OVER" in last
    meta = stored.meta
    assert "mailbag" not in meta or set(meta["mailbag"]) <= {"me"}


def test_the_wake_index_opens_a_game_whose_computer_seat_is_asked(svc):
    made = svc.referee.new_game("porto-carthago", [("me", "me@players.test"), ("you", "you@players.test")],
                                seed="wake", bots=[("dmitri", "fast")])
    stored = svc.store.load(made.id)
    first = registry.get("porto-carthago").prompts(stored.state)[0].player
    assert (next_wake(stored.meta) == 0.0) == (first == "dmitri")
    assert stored.meta.get("computers", []) == (["dmitri"] if first == "dmitri" else [])


def test_a_failed_decision_plays_the_default_orders_and_says_why(svc):
    gid, token = alone(svc, level="strong")
    game = registry.get("porto-carthago")

    def broken(seen, level, seed):
        raise ThinkingFailed("no decision within 0.001 s")

    for _ in range(30):
        stored = svc.store.load(gid)
        if game.prompts(stored.state)[0].player != "me":
            break
        menu = game.legal_orders(stored.state, "me")
        svc.referee.submit(gid, "me", game.format(menu[-1]), token=token)
    actions = svc.referee.tick(think=broken)
    assert actions and all(a.action == "computer" and "default" in a.detail for a in actions)
    defaults = [e for e in svc.store.load(gid).events if e["type"] == "default" and e.get("source") == "computer"]
    assert defaults and all("no decision within 0.001 s" in e["reason"] for e in defaults)
    # an answer the game refuses is no better: default orders again, and the game goes on
    actions = svc.referee.tick(think=lambda seen, level, seed: ["NOT AN ORDER"])
    stored = svc.store.load(gid)
    assert game.prompts(stored.state)[0].player == "me" or stored.meta["status"] == "finished"
    assert any("not accepted" in e.get("reason", "") for e in stored.events if e["type"] == "default") or not actions


def test_new_checks_the_computer_players(svc):
    with pytest.raises(BadRequest, match="unknown level 'medium'"):
        svc.referee.new_game("porto-carthago", [("me", "me@players.test")], bots=[("a", "fast"), ("b", "medium")])
    with pytest.raises(BadRequest, match="no computer player"):
        svc.referee.new_game("race", [("me", "me@players.test")], bots=[("a", None)])
    with pytest.raises(BadRequest, match="given more than once"):
        svc.referee.new_game("porto-carthago", [("me", "me@players.test")], bots=[("me", None), ("b", None)])
    assert not svc.store.list()


def test_replace_hands_a_seat_to_a_computer_player_and_back(svc):
    made = svc.referee.new_game("porto-carthago", [(p, f"{p}@players.test") for p in ("ann", "bob", "cid")],
                                seed="handover")
    done = svc.referee.replace(made.id, "bob", computer="fast")
    seat = next(s for s in svc.store.load(made.id).meta["seats"] if s["name"] == "bob")
    assert seat["computer"]["level"] == "fast" and seat["email"] == "" and done["token"] == seat["token"]
    assert svc.referee.submit(made.id, "bob", "PASS", token=made.players[1]["token"]).status == "refused"
    svc.referee.tick(think=think)
    game = registry.get("porto-carthago")
    assert "bob" not in {p.player for p in game.prompts(svc.store.load(made.id).state)}
    back = svc.referee.replace(made.id, "bob", "bob2@players.test")
    seat = next(s for s in svc.store.load(made.id).meta["seats"] if s["name"] == "bob")
    assert "computer" not in seat and seat["email"] == "bob2@players.test" and back["computer"] is None
    assert [m["Subject"] for m in mails(svc, to="bob2@players.test")][-1].endswith("Welcome: you now play bob")
    with pytest.raises(BadRequest, match="unknown level"):
        svc.referee.replace(made.id, "bob", computer="best")
    kinds = [e.get("computer") for e in svc.store.load(made.id).events if e["type"] == "replace"]
    assert kinds == ["fast", None]


def test_an_open_game_fills_its_empty_seats_with_computer_players_at_its_start_date(svc):
    made = svc.referee.open_game("porto-carthago", "3..4", starts_when="2026-03-05T12:00:00Z", fill="fast",
                                 approve=True)
    svc.referee.join(made.id, "ann@players.test", "ann")
    svc.referee.approve(made.id, "ann")
    assert svc.store.load(made.id).meta["status"] == "open"
    svc.clock.now = START + timedelta(days=4)
    actions = svc.referee.tick(think=think)
    meta = svc.store.load(made.id).meta
    assert meta["status"] == "active" and len(meta["seats"]) == 4
    bots = [s["name"] for s in meta["seats"] if "computer" in s]
    assert len(bots) == 3 and "ann" not in bots
    assert any(a.action == "started" for a in actions)
    started = [e for e in meta and svc.store.load(made.id).events if e["type"] == "started"][0]
    assert sorted(started["computers"]) == sorted(bots)
    with pytest.raises(BadRequest, match="start date"):
        svc.referee.open_game("porto-carthago", "3..4", fill="fast")


def test_the_command_line_seats_and_replaces_computer_players(tmp_path):
    runner = CliRunner()
    data = tmp_path / "data"

    def run(*args):
        return runner.invoke(cli, ["--data-dir", str(data), *args], catch_exceptions=False)

    made = run("new", "porto-carthago", "--player", "me:me@players.test", "--bot", "dmitri", "--bot", "ada:fast")
    assert made.exit_code == 0, made.output
    assert "dmitri           computer player (strong)" in made.output and "ada              computer player (fast)" \
        in made.output
    assert run("replace", "porto-1", "me", "--bot", "fast").output.startswith(
        "me in porto-1 is now played by a computer player (fast).")
    back = run("replace", "porto-1", "ada", "--player", "ada@players.test")
    assert "ada in porto-1 is now <ada@players.test>" in back.output
    both = runner.invoke(cli, ["--data-dir", str(data), "replace", "porto-1", "ada", "--bot", "--email", "x@y.z"])
    assert both.exit_code != 0 and "--bot" in both.output
    history = run("history", "porto-1").output
    assert "me handed to a computer player (fast)" in history
