"""Helpers that build positions for the rulebook cases: a fresh game, then the few fields a
case needs set by hand, then the phase driver run to the next decision."""

from __future__ import annotations

from typing import Any

from games.constantinopolis import GAME
from games.constantinopolis import accept, auction, construction, donations, flow
from games.constantinopolis.components import BUILTIN, OFFICES
from games.constantinopolis.state import clone

DATA = BUILTIN


def new(players=("greg", "jen", "kay"), seed: str = "case", **opts: Any) -> dict:
    return GAME.setup(list(players), seed, opts, GAME.load_components(None))


def do(st: dict, player: str, text: str) -> tuple[dict, list]:
    return GAME.apply(st, player, GAME.parse(st, player, text))


def seat(st: dict, offices: dict[str, str | None]) -> dict:
    """Put players on offices (office -> player); turn order follows."""
    st = clone(st)
    st["offices"] = {o: offices.get(o) for o in OFFICES}
    st["order"] = [st["offices"][o] for o in OFFICES if st["offices"][o]]
    return st


def at_auction(st: dict) -> dict:
    st = clone(st)
    auction.start(st)
    flow.advance(st, [])
    return st


def at_construct(st: dict) -> dict:
    st = clone(st)
    st["auction"] = None
    st["pretorio"] = None
    construction.start(st, [])
    flow.advance(st, [])
    return st


def at_accept(st: dict) -> dict:
    st = clone(st)
    st["auction"] = None
    st["construct"] = None
    accept.start(st)
    return st


def at_donate(st: dict) -> dict:
    st = clone(st)
    st["auction"] = None
    donations.start(st, [])
    flow.advance(st, [])
    return st


def card(cargo: str, amount: int = 1, medium: int | None = None, large: int | None = None, gold: int | None = None,
         skip: tuple = ()) -> int:
    for c in DATA["contracts"]:
        v = c["voyage"]
        if c["cargo"] == cargo and c["amount"] == amount and (medium is None or v["medium"] == medium) \
                and (large is None or v["large"] == large) and (gold is None or c["gold"] == gold) and c["id"] not in skip:
            return c["id"]
    raise LookupError("no such card")


def give_cards(st: dict, player: str, ids: list[int], where: str = "hand") -> None:
    """Move cards from wherever they are into a player's hand (keeps cards conserved)."""
    for c in ids:
        if c in st["deck"]:
            st["deck"].remove(c)
        elif c in st["discard"]:
            st["discard"].remove(c)
        else:
            for p in st["p"].values():
                for pile in (p["hand"], p["saved"]):
                    if c in pile:
                        pile.remove(c)
        st["p"][player][where].append(c)


def give_goods(st: dict, player: str, **goods: int) -> None:
    for g, n in goods.items():
        st["p"][player]["goods"][g] += n
        st["flow"][g] += n


def own(st: dict, player: str, *names: str) -> None:
    """Give buildings from the supply (bought in an earlier round)."""
    for b in names:
        st["supply"][b] -= 1
        st["p"][player]["buildings"].append(b)


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]
