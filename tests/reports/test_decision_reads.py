"""Everything a decision reads is in the mail that asks for it, changed or not.

A report's text shows only the parts of the table that changed since the player's last mail;
a player who reads one mail a day, or deleted yesterday's, must still find there what the
decision asked of them depends on: the market card for a donation, what is for sale for
construction, every dock for a ship's arrival. Each asking position of random games is
rendered as if the player's last mail had shown exactly this table (nothing changed), and
the text must still hold every part this test expects of its decision kind. The expectations
are written here, apart from the games' own tables, so that a part dropped from a game's
list fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO_CARTHAGO
from games.porto_carthago.palace import cheapest_field
from mailer.outbound.folding import sections
from mailer.outbound.reports import render_report, report_context
from referee.cases import load_case, start_position
from referee.contract import Game, OrderError, State
from referee.playthrough import play
from referee.progress import ORDER, Refused

from .util import NAMES

Check = Callable[[str, dict], bool]


def line(pattern: str) -> Check:
    return lambda text, view: re.search(pattern, text, re.MULTILINE) is not None


def market_card(text: str, view: dict) -> bool:
    """The current market card whole: its name, the buy, sell and limit rows, its donations."""
    return (f"Market: {view['market']['current']}" in text and re.search(r"^    buy ", text, re.MULTILINE)
            and re.search(r"^    sell ", text, re.MULTILINE) and re.search(r"^    limit ", text, re.MULTILINE)
            and "    Donations: " in text) is True


def every_dock(text: str, view: dict) -> bool:
    """The docks' table with a row for every dock, not only those that changed."""
    return "  Docks:\n" in text and all(re.search(rf"^    {re.escape(name)} ", text, re.MULTILINE)
                                        for name in view["docks"])


def every_slot(text: str, view: dict) -> bool:
    rows = re.findall(r"^ +(\d) +\S", text.split("  Action slots:\n", 1)[-1], re.MULTILINE)
    return "  Action slots:\n" in text and sorted({int(r) for r in rows}) == [s["slot"] for s in view["slots"]]


PARTS: dict[str, dict[str, Check]] = {
    "constantinopolis": {
        "office board": line(r"^  Offices: I "),
        "market card": market_card,
        "buildings for sale": line(r"^  Buildings for sale \(gold, tiles left\):"),
        "walls": line(r"^  Walls: "),
        "public buildings": line(r"^  Public buildings \(gold\): "),
        "ships for sale": line(r"^  Ships for sale \(gold, left\): "),
    },
    "porto-carthago": {
        "every dock": every_dock,
        "market": line(r"^  Market: "),
        "every action slot": every_slot,
        "palace": line(r"^  Palace: "),
        "row 1": line(r"^  (Ships waiting at sea|No ships waiting at sea)"),
        "intrigue path": line(r"^  Intrigue path: "),
        "privileges": line(r"^  Privileges: "),
    },
}

# What each decision reads, as the issue of the mail's content names it
EXPECTED: dict[str, dict[str, tuple[str, ...]]] = {
    "constantinopolis": {
        "auction.choose": ("office board",),
        "auction.duel": ("office board",),
        "auction.good": ("market card",),
        "construct.turn": ("buildings for sale", "market card", "walls", "public buildings"),
        "construct.preempt": ("buildings for sale",),
        "accept.contracts": ("market card", "ships for sale"),
        "donate": ("market card",),
        "store": (),
    },
    "porto-carthago": {
        "setup.optional_dock": ("every dock",),
        "setup.compulsory_dock": ("every dock",),
        "arrival.lighthouse": ("every dock", "row 1"),
        "action.main": ("every action slot", "market"),  # and the palace to a holder of the seat privilege
        "action.after": ("palace",),
        "intrigue.reward": ("intrigue path",),
        "privilege.immediate": ("privileges",),
        "privilege.arrange": (),
        "market.refill_buy": ("market",),
        "end.final_seat": ("palace",),
    },
}

GAMES = {"constantinopolis": CONSTANTINOPOLIS, "porto-carthago": PORTO_CARTHAGO}


def expected(name: str, decision: str, state: State, player: str) -> tuple[str, ...]:
    """The parts the decision reads: a Porto Carthago action turn reads the palace too when a
    seat can be bought on it: the player holds the privilege that buys one (P7), or slots 4
    and 6 offer a seat as their side action and the player has a servant in supply and the
    trade points the cheapest free field asks."""
    parts = EXPECTED[name][decision]
    seat = state["players"].index(player)
    if decision == "action.main" and (
            any(state["comp"]["ship_cards"][card]["privilege"] == "P7" for card in state["held"][seat])
            or state["supply"][seat] >= 1 and state["tp"][seat] >= cheapest_field(state)[2]):
        parts += ("palace",)
    return parts


def asking_positions(game: Game, decision: str, seeds=("reads-1", "reads-2", "reads-3", "reads-4")
                     ) -> list[tuple[State, str]]:
    """Positions of random four-player games where someone is asked `decision` (a few each)."""
    found: list[tuple[State, str]] = []

    def keep(pt) -> None:
        for prompt in game.prompts(pt.state):
            if prompt.decision == decision and len(found) < 6:
                found.append((pt.state, prompt.player))

    for seed in seeds:
        play(game, NAMES[:4], seed, on_step=keep)
        if len(found) >= 6:
            break
    return found or case_positions(game, decision)


CASES_DIR = Path(__file__).resolve().parents[1] / "cases"


def case_positions(game: Game, decision: str) -> list[tuple[State, str]]:
    """Positions of the game's case files where someone is asked `decision`: a decision that
    random games seldom reach (Porto Carthago's final palace seat) is set up by one."""
    found: list[tuple[State, str]] = []
    for path in sorted(CASES_DIR.glob(f"{game.name.replace('-', '_')}_*.toml")):
        case = load_case(path.read_text())
        pos = start_position(game, case)
        for step in [None, *case.get("step", [])]:
            if step is not None:
                try:
                    player = str(step["player"]).lower()
                    pos.submit(player, pos.take(player, step["orders"]), ORDER)
                except (KeyError, OrderError, Refused):
                    continue
            found += [(pos.state, p.player) for p in game.prompts(pos.state) if p.decision == decision]
    return found


def unchanged_mail(game: Game, state: State, player: str) -> str:
    """The text of the player's asking mail when their last mail showed this same table."""
    view = game.view(state, player)
    ctx = report_context(game, state, game_id="g-1", player=player, events=[], seen=sections(view),
                         players=state["players"])
    assert ctx["changed"] is not None  # the mail shows what changed, not everything
    return render_report(ctx)[0]


CASES = [(name, decision) for name, kinds in EXPECTED.items() for decision in kinds]


@pytest.mark.parametrize("name,decision", CASES, ids=[f"{n}:{d}" for n, d in CASES])
def test_an_asking_mail_shows_whole_what_its_decision_reads(name, decision):
    game = GAMES[name]
    found = asking_positions(game, decision)
    assert found, f"no random game asked for {decision}"
    for state, player in found:
        text = unchanged_mail(game, state, player)
        view = game.view(state, player)
        missing = [part for part in expected(name, decision, state, player) if not PARTS[name][part](text, view)]
        assert not missing, f"{decision} mail to {player} leaves out {missing}:\n{text}"


def test_an_action_turn_shows_the_palace_where_a_seat_can_be_bought():
    """Not to a player without the trade points the cheapest field asks; to one with them (the
    seat side action), and to a holder of the seat privilege, which ignores them."""
    game = PORTO_CARTHAGO
    state, player = asking_positions(game, "action.main")[0]
    state = json.loads(json.dumps(state))
    seat = state["players"].index(player)
    minimum = cheapest_field(state)[2]
    assert minimum > 0
    state["tp"][seat], state["held"][seat], state["supply"][seat] = minimum - 1, [], max(1, state["supply"][seat])
    assert "  Palace: " not in unchanged_mail(game, state, player)
    state["tp"][seat] = minimum
    assert "palace" in expected("porto-carthago", "action.main", state, player)
    assert "  Palace: " in unchanged_mail(game, state, player)
    state["tp"][seat] = 0
    state["held"][seat] = [next(c for c, card in state["comp"]["ship_cards"].items() if card["privilege"] == "P7")]
    assert "palace" in expected("porto-carthago", "action.main", state, player)
    assert "  Palace: " in unchanged_mail(game, state, player)


@pytest.mark.parametrize("name", GAMES)
def test_a_mail_that_asks_nothing_still_shows_only_what_changed(name):
    """The parts a decision reads are shown for that decision only: a player who is not asked
    gets the unchanged parts named, not shown."""
    game = GAMES[name]
    decision = next(iter(EXPECTED[name]))
    state, asked = asking_positions(game, decision)[0]
    other = next(p for p in state["players"] if p not in {x.player for x in game.prompts(state)})
    text = unchanged_mail(game, state, other)
    assert "Unchanged, not shown:" in text
    assert not any(check(text, game.view(state, other)) for part, check in PARTS[name].items()
                   if part in ("market card", "every dock", "every action slot", "buildings for sale"))
