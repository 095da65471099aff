"""Final scoring: palace seats (bought plus intrigue bonus), then trade points, then money."""

from __future__ import annotations

from referee.contract import Result

from .board import State
from .intrigue import bonus_seats


def seats_bought(state: State) -> list[int]:
    n = len(state["players"])
    out = list(state["big"])
    for s in state["palace"]:
        if s is not None:
            out[s] += 1
    return out[:n]


def result(state: State) -> Result | None:
    if state["stage"] != "over":
        return None
    bought = seats_bought(state)
    bonus = bonus_seats(state)
    scores = {}
    keys = {}
    for s, p in enumerate(state["players"]):
        total = bought[s] + bonus[s]
        scores[p] = {"palace_seats": total, "bought_seats": bought[s], "intrigue_seats": bonus[s],
                     "trade_points": state["tp"][s], "money": state["money"][s],
                     "path_servants": state["path"].count(s)}
        keys[p] = (total, state["tp"][s], state["money"][s])
    ranking: list[tuple[str, ...]] = []
    for key in sorted(set(keys.values()), reverse=True):
        ranking.append(tuple(p for p in state["players"] if keys[p] == key))
    return Result(scores, tuple(ranking), ranking[0])
