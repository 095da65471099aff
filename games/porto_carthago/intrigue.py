"""Trade points (Handelspunkte) and the intrigue path (Intrigepfad, "Intrige"): every trade
point gained may instead put a servant from the supply on the next field of the path, and at
the end the players with the most path servants gain extra palace seats.

Reference: §5.7, with A28 (a conversion needs a supply servant and a free field; the ranking
and its ties) and A46 (converted points never count as trade points).
"""

from __future__ import annotations

from referee.contract import Event
from referee.wording import Phrase, phrase, plural_phrase

from .state import PendingDecision, State


def path_space(state: State) -> int:
    """Free fields left on the intrigue path."""
    return state["comp"]["intrigue_path"]["length"] - len(state["path"])


def max_conversion(state: State, seat: int, points: int) -> int:
    """How many of `points` may go onto the path: needs supply servants and free fields (A28)."""
    return max(0, min(points, state["supply"][seat], path_space(state)))


def reward_reason(why: str) -> Phrase:
    """What earned trade points, as the state keeps it (its English words: `loading S05`,
    `charter shipping`, `privilege of S12`), said in the reader's words."""
    if why.startswith("loading "):
        return phrase("loading {ship}", ship=why.removeprefix("loading "))
    if why.startswith("privilege of "):
        return phrase("privilege of {card}", card=why.removeprefix("privilege of "))
    if why == "charter shipping":
        return phrase("charter shipping")
    return Phrase(why, {})


def _gained(state: State, seat: int, points: int, why: Phrase) -> Event:
    return Event("trade_points", plural_phrase(points, "{player} gains {n} trade point ({reason}).",
                                               "{player} gains {n} trade points ({reason}).",
                                               player=state["players"][seat], reason=why),
                 {"player": state["players"][seat], "points": points})


def gain_points(state: State, seat: int, points: int, why: Phrase, events: list[Event]) -> None:
    """Award trade points; ask the player only when a conversion is actually possible. The
    reason waits in the state as its English text (`reward_reason` says it again)."""
    if points <= 0:
        return
    if max_conversion(state, seat, points) == 0:
        state["tp"][seat] += points
        events.append(_gained(state, seat, points, why))
        return
    state["pending"].append({"t": "reward", "p": seat, "n": points, "why": str(why)})


def place_on_path(state: State, seat: int, count: int, events: list[Event]) -> None:
    """Servants from the supply onto the next fields of the intrigue path."""
    for _ in range(count):
        state["path"].append(seat)
    state["supply"][seat] -= count
    if count:
        taken = plural_phrase(len(state["path"]), "{n} field", "{n} fields")
        events.append(Event("intrigue", plural_phrase(
            count, "{player} places {n} servant on the intrigue path (now {fields} taken).",
            "{player} places {n} servants on the intrigue path (now {fields} taken).",
            player=state["players"][seat], fields=taken), {"player": state["players"][seat], "count": count}))


def resolve_reward(state: State, reward: PendingDecision, count: int, events: list[Event]) -> None:
    """The player's answer to a reward: `count` points go onto the path, the rest on the track."""
    seat = reward["p"]
    place_on_path(state, seat, count, events)
    kept = reward["n"] - count
    state["tp"][seat] += kept
    if kept:
        events.append(_gained(state, seat, kept, reward_reason(reward["why"])))


def reached_field(state: State) -> tuple[int, list[int]] | None:
    """The farthest scoring field holding a servant, with its seat numbers (A28)."""
    scoring = state["comp"]["intrigue_path"]["scoring"]
    best = None
    for position, values in scoring.items():
        if int(position) <= len(state["path"]) and (best is None or int(position) > best[0]):
            best = (int(position), list(values))
    return best


def bonus_seats(state: State) -> list[int]:
    """Extra palace seats by servants on the path; ties go to whoever placed first."""
    out = [0] * len(state["players"])
    field = reached_field(state)
    if field is None:
        return out
    servants = [0] * len(state["players"])
    first: dict[int, int] = {}
    for i, seat in enumerate(state["path"]):
        servants[seat] += 1
        first.setdefault(seat, i)
    ranked = sorted(first, key=lambda s: (-servants[s], first[s]))
    for rank, seat in enumerate(ranked):
        if rank < len(field[1]):
            out[seat] = field[1][rank]
    return out
