"""Trade points and the intrigue path: every point gained may become a path servant instead."""

from __future__ import annotations

from referee.contract import Event

from .board import State, counted


def path_space(state: State) -> int:
    return state["comp"]["intrigue_path"]["length"] - len(state["path"])


def max_conversion(state: State, seat: int, points: int) -> int:
    """How many of `points` may go onto the path: needs supply servants and free fields (A28)."""
    return max(0, min(points, state["supply"][seat], path_space(state)))


def gain_points(state: State, seat: int, points: int, why: str, events: list[Event]) -> None:
    """Award trade points; ask the player only when a conversion is actually possible."""
    if points <= 0:
        return
    if max_conversion(state, seat, points) == 0:
        state["tp"][seat] += points
        events.append(Event("trade_points", f"{state['players'][seat]} gains {counted(points, 'trade point')} ({why}).",
                            {"player": state["players"][seat], "points": points}))
        return
    state["pending"].append({"t": "reward", "p": seat, "n": points, "why": why})


def place_on_path(state: State, seat: int, count: int, events: list[Event]) -> None:
    for _ in range(count):
        state["path"].append(seat)
    state["supply"][seat] -= count
    if count:
        events.append(Event("intrigue", f"{state['players'][seat]} places {counted(count, 'servant')} on the intrigue path "
                            f"(now {counted(len(state['path']), 'field')} taken).",
                            {"player": state["players"][seat], "count": count}))


def resolve_reward(state: State, item: dict, count: int, events: list[Event]) -> None:
    seat = item["p"]
    place_on_path(state, seat, count, events)
    kept = item["n"] - count
    state["tp"][seat] += kept
    if kept:
        events.append(Event("trade_points", f"{state['players'][seat]} gains {counted(kept, 'trade point')} ({item['why']}).",
                            {"player": state["players"][seat], "points": kept}))


def reached_field(state: State) -> tuple[int, list[int]] | None:
    """The farthest scoring field holding a servant, with its seat numbers (A28)."""
    scoring = state["comp"]["intrigue_path"]["scoring"]
    best = None
    for pos, values in scoring.items():
        if int(pos) <= len(state["path"]) and (best is None or int(pos) > best[0]):
            best = (int(pos), list(values))
    return best


def bonus_seats(state: State) -> list[int]:
    """Extra palace seats by servants on the path; ties go to whoever placed first."""
    n = len(state["players"])
    out = [0] * n
    field = reached_field(state)
    if field is None:
        return out
    count = [0] * n
    first: dict[int, int] = {}
    for i, seat in enumerate(state["path"]):
        count[seat] += 1
        first.setdefault(seat, i)
    ranked = sorted(first, key=lambda s: (-count[s], first[s]))
    for rank, seat in enumerate(ranked):
        if rank < len(field[1]):
            out[seat] = field[1][rank]
    return out
