"""Random whole games where players who send plans play against players who answer live, with
invariants after every step: the engine's own checks, a JSON round trip, an input position
left unchanged, a plan (and every note about it) seen by its owner alone, and at the end a
replay of the text log to the same position. Then the same through the service, where every
mail must be accepted."""

from __future__ import annotations

import json
import random

import pytest

from referee import registry
from referee.bots import make_bot
from referee.bots.tempo import play_game
from referee.contract import Game, State, standing_plan
from referee.playthrough import replay, same_state
from referee.storage import fingerprint

NAMES = ["ann", "bob", "cid", "dee", "eve"]
PLAN_EVENTS = ("plan.", "queue")
MAX_STEPS = 5000
OWN_PLAN = ("your_plan", "my_plan", "my_queue", "my_queue_text")  # the viewer's own plan, in their view


class LiveBot:
    """A player who answers live with any legal order at all, never planning."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def mail(self, game: Game, state: State, player: str) -> str:
        return game.format(self.rng.choice(game.legal_orders(state, player)))


def _private_plans_hidden(game: Game, state: State, players: list[str], where: str) -> None:
    """No player's view holds a line of another player's plan that only a plan could write."""
    for owner in players:
        lines = [line for line in standing_plan(game, state, owner) if " or " in line]
        for other in players:
            if other == owner or not lines:
                continue
            view = {k: v for k, v in game.view(state, other).items() if k not in OWN_PLAN}
            seen = json.dumps(view, ensure_ascii=False)
            leaked = [line for line in lines if line in seen]
            assert not leaked, f"{where}: {other} sees {owner}'s plan: {leaked}"


def play_mixed(game_name: str, players: int, seed: str) -> int:
    """One game, planning and live seats alternating; the number of steps it took."""
    game = registry.get(game_name)
    names = NAMES[:players]
    bots = {p: make_bot(game_name, "plans", f"{seed}/{p}") if i % 2 == 0 else LiveBot(f"{seed}/{p}")
            for i, p in enumerate(names)}
    planners = {p for p in names if not isinstance(bots[p], LiveBot)}
    state = game.setup(names, seed, {}, game.load_components(None))
    pick = random.Random(seed)
    log: list[tuple[str, str]] = []
    for step in range(MAX_STEPS):
        prompts = game.prompts(state)
        if not prompts:
            break
        player = pick.choice(prompts).player if prompts[0].simultaneous else prompts[0].player
        text = bots[player].mail(game, state, player)
        where = f"{game_name} {seed} step {step} ({player}: {text!r})"
        before = fingerprint(state)
        new, events = game.apply(state, player, game.parse(state, player, text))
        assert fingerprint(state) == before, f"{where}: apply changed its input"
        assert game.check(new) == [], f"{where}: {game.check(new)}"
        assert json.loads(json.dumps(new)) == new, f"{where}: no JSON round trip"
        for event in events:  # a note about a plan goes to one player: its owner, or the sender
            if event.kind.startswith(PLAN_EVENTS):
                assert event.to is not None and len(event.to) == 1 and event.to[0] in planners | {player}, \
                    f"{where}: a plan note to {event.to}: {event.text}"
        _private_plans_hidden(game, new, names, where)
        state = new
        log.append((player, text))
    else:
        raise AssertionError(f"{game_name} {seed}: no end after {MAX_STEPS} steps")
    assert game.result(state) is not None and game.result(state).winners
    assert same_state(replay(game, names, seed, {}, log), state)
    return len(log)


@pytest.mark.parametrize("game_name, players", [("constantinopolis", n) for n in (2, 3, 4, 5)]
                         + [("porto-carthago", n) for n in (3, 4, 5)])
@pytest.mark.parametrize("seed", ["plan-a", "plan-b"])
def test_plan_bots_against_live_bots(game_name, players, seed):
    assert play_mixed(game_name, players, seed) > 0


@pytest.mark.parametrize("game_name", ["constantinopolis", "porto-carthago"])
def test_plan_and_ask_only_bots_through_the_service(game_name, tmp_path):
    seats = NAMES[:4]
    kinds = {p: "plans" if i % 2 else "ask-only" for i, p in enumerate(seats)}
    tempo = play_game(game_name, seats, "service-mixed", kinds, directory=tmp_path, record=True)
    assert tempo.finished and tempo.not_accepted == []
    assert tempo.mails >= tempo.round_trips > 0
    assert tempo.log.startswith("REFEREE-LOG")


def test_make_bot_names_what_it_knows():
    with pytest.raises(ValueError, match="unknown bot kind"):
        make_bot("constantinopolis", "clever", "s")
    with pytest.raises(ValueError, match="no bot plays"):
        make_bot("chess", "plans", "s")
