"""Final scoring: palace seats (bought plus the intrigue bonus), then trade points, then money.

Reference: §5.10, with A43 (a full tie is a shared win).
"""

from __future__ import annotations

from referee.contract import Result
from referee.wording import phrase

from .intrigue import bonus_seats
from .state import State

# The result's score keys in the rulebook's words (§5.10), in reading order.
SCORE_LABELS = {
    "palace_seats": phrase("palace seats"), "trade_points": phrase("trade points"), "money": phrase("talents"),
    "bought_seats": phrase("seats bought"), "intrigue_seats": phrase("seats from the intrigue path"),
    "path_servants": phrase("servants on the intrigue path"),
}
# Most servants in the palace, then the most trade points, then the most money (A43: then shared).
TIE_BREAKS = ("palace_seats", "trade_points", "money")


def seats_bought(state: State) -> list[int]:
    """Palace seats each player holds: small fields and the big field."""
    out = list(state["big"])
    for seat in state["palace"]:
        if seat is not None:
            out[seat] += 1
    return out[:len(state["players"])]


def result(state: State) -> Result | None:
    """Scores and ranking once the game is over (players with equal seats, trade points and
    money share a place), or None while it runs."""
    if state["stage"] != "over":
        return None
    bought = seats_bought(state)
    bonus = bonus_seats(state)
    scores = {}
    standing = {}
    for seat, player in enumerate(state["players"]):
        total = bought[seat] + bonus[seat]
        scores[player] = {"palace_seats": total, "bought_seats": bought[seat], "intrigue_seats": bonus[seat],
                          "trade_points": state["tp"][seat], "money": state["money"][seat],
                          "path_servants": state["path"].count(seat)}
        standing[player] = (total, state["tp"][seat], state["money"][seat])
    ranking: list[tuple[str, ...]] = []
    for place in sorted(set(standing.values()), reverse=True):
        ranking.append(tuple(p for p in state["players"] if standing[p] == place))
    return Result(scores, tuple(ranking), ranking[0])
