"""Positions for Porto Carthago tests: set up, skip ahead with default orders, edit a copy."""

from __future__ import annotations

from typing import Any, Callable

from games.porto_carthago import GAME
from games.porto_carthago.board import dock_index
from games.porto_carthago.state import copy_state

P3 = ["Ann", "Bob", "Cid"]
P4 = ["Ann", "Bob", "Cid", "Dee"]
P5 = ["Ann", "Bob", "Cid", "Dee", "Eve"]
LAYOUT = ["captain", "aristocrat", "loadmaster", "merchant", "porter", "porter"]
# placeholder slots: costs 0 1 1 2 2 3; side actions: 2 expand, 4 palace, 6 palace


def new(players: list[str] = P4, seed: str = "t", **opts: Any) -> dict:
    opts.setdefault("start_player", players[0])
    return GAME.setup(players, seed, opts, GAME.load_components(None))


def who(state: dict) -> str:
    return GAME.prompts(state)[0].player


def decision(state: dict) -> str:
    return GAME.prompts(state)[0].decision


def do(state: dict, text: str, player: str | None = None) -> tuple[dict, list]:
    player = player or who(state)
    return GAME.apply(state, player, GAME.parse(state, player, text))


def run(state: dict, stop: Callable[[dict], bool], limit: int = 2000) -> dict:
    """Apply default orders until `stop(state)` holds."""
    for _ in range(limit):
        if stop(state):
            return state
        p = who(state)
        state, _ = GAME.apply(state, p, GAME.default_orders(state, p))
    raise AssertionError("position not reached")


def at_actions(players: list[str] = P4, seed: str = "t", **opts: Any) -> dict:
    """Decade 1, first action turn, with a fixed card layout and nothing else disturbed."""
    state = run(new(players, seed, **opts), lambda s: s["stage"] == "actions")
    return edit(state, slots=list(LAYOUT))


def edit(state: dict, **changes: Any) -> dict:
    out = copy_state(state)
    out.update(changes)
    return out


def seat(state: dict, player: str) -> int:
    return state["players"].index(player)


def di(state: dict, name: str) -> int:
    return dock_index(state, name)


def free_all_docks(state: dict) -> dict:
    """Give every dock servant back to its owner's supply and empty the docks of goods and ships."""
    out = copy_state(state)
    for i, o in enumerate(out["dock_o"]):
        if out["dock_s"][i] is not None:
            out["deck"].append(out["dock_s"][i])
            out["dock_s"][i] = None
        if o is not None:
            out["supply"][o] += 2
            if out["dock_g"][i] is not None:
                out["bag"].append(out["dock_g"][i])
        out["dock_o"][i] = None
        out["dock_g"][i] = None
    return out


def take_ship(state: dict, cid: str) -> None:
    """Remove a ship card from wherever it is (in place) so a test can put it somewhere."""
    for key in ("row1", "row2", "deck"):
        if cid in state[key]:
            state[key].remove(cid)
            return
    for h in state["held"]:
        if cid in h:
            h.remove(cid)
            return
    for i, s in enumerate(state["dock_s"]):
        if s == cid:
            state["dock_s"][i] = None
            return
    raise AssertionError(cid)


def take_good(state: dict, good: str) -> None:
    state["bag"].remove(good)


def sound(state: dict) -> dict:
    problems = GAME.check(state)
    assert not problems, problems
    return state


def settle(state: dict) -> tuple[dict, list]:
    """Run the automatic steps of a hand-made position (as apply would after an order)."""
    from games.porto_carthago.flow import advance
    out = copy_state(state)
    events: list = []
    advance(out, events)
    return out, events


def set_row1(state: dict, cids: list[str]) -> dict:
    out = copy_state(state)
    out["deck"].extend(out["row1"])
    out["row1"] = []
    for cid in cids:
        take_ship(out, cid)
    out["row1"] = list(cids)
    return out


def put_on_top(state: dict, cids: list[str]) -> dict:
    out = copy_state(state)
    for cid in cids:
        take_ship(out, cid)
    out["deck"][:0] = list(cids)
    return out


def own_dock(state: dict, player: str, dock: str, good: str | None = None, ship: str | None = None) -> dict:
    """Make `player` own `dock` (servants from supply), optionally with a good and a ship."""
    out = copy_state(state)
    s = seat(out, player)
    d = di(out, dock)
    prev = out["dock_o"][d]
    if prev is not None:
        out["supply"][prev] += 2
        if out["dock_g"][d] is not None:
            out["bag"].append(out["dock_g"][d])
            out["dock_g"][d] = None
    out["dock_o"][d] = s
    out["supply"][s] -= 2
    if good is not None:
        out["bag"].remove(good)
        out["dock_g"][d] = good
    if ship is not None:
        take_ship(out, ship)
        if out["dock_s"][d] is not None:
            out["deck"].append(out["dock_s"][d])
        out["dock_s"][d] = ship
    return out


def give(state: dict, player: str, **values: int) -> dict:
    """Set per-player numbers; servants moved to lighthouse/temple come out of the supply."""
    out = copy_state(state)
    s = seat(out, player)
    for key, value in values.items():
        if key in ("light", "temple"):
            out["supply"][s] -= value - out[key][s]
        out[key][s] = value
    return out


def store(state: dict, player: str, *goods: str) -> dict:
    out = copy_state(state)
    s = seat(out, player)
    out["bag"].extend(out["store"][s])
    out["store"][s] = []
    for g in goods:
        out["bag"].remove(g)
        out["store"][s].append(g)
    return out


def hold(state: dict, player: str, cid: str) -> dict:
    out = copy_state(state)
    take_ship(out, cid)
    out["held"][seat(out, player)].append(cid)
    return out


def charter(state: dict, player: str) -> dict:
    out = copy_state(state)
    s = seat(out, player)
    out["charter"][out["charter"].index(None)] = s
    out["supply"][s] -= 1
    return out
