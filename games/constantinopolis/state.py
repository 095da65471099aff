"""The game position: its typed shape, and the small helpers every phase shares.

A state is plain JSON (stored, hashed and replayed as it is), so the shapes below are
`TypedDict`s: they name every key and say which piece of the game it stands for, and cost
nothing at run time. The keys are part of the stored format and never change; what a key
holds is said next to it in the rulebook's words (player sheet, ledger, harbour, trading
posts, offices...). How `apply` changes a state without touching the one it was given is in
`draft`.
"""

from __future__ import annotations

import functools
from typing import Any, Literal, NotRequired, TypedDict

from referee.contract import IllegalOrder, Order, Prompt
from referee.rng import Rng
from referee.wording import Phrase, phrase, term

from .components import GOODS, OFFICES, for_state
from .draft import clone, writable  # noqa: F401  (clone: the tests that edit positions by hand take it from here)

GOOD_VALUE = {g: i for i, g in enumerate(GOODS)}  # higher index: more valuable (Other Rules: Goods)

Phase = Literal["auction", "pretorio", "construct", "accept", "donate", "store", "over"]


# --------------------------------------------------------------------------- the typed shape


class Ship(TypedDict):
    """A ship on the player sheet: in the Harbor space (`at` 0) or on a voyage, `at` rounds
    from home (the Short and Long Voyage spaces), with the contracts loaded on it."""

    id: int
    size: str  # small (parvus dromo), medium, large
    at: int
    cargo: list[int]  # contract card numbers


class ShipBought(TypedDict):
    id: int
    size: str


class RoundFlags(TypedDict):
    """What a player did this round (sheet key "r"); cleared when a new round begins."""

    built: list[str]  # the kinds of building bought (one of each kind a round)
    ledger: dict[str, int]  # the Ledger area: goods bought (+) or sold (-) at the market
    used: list[str]  # commercial buildings used (once a round each)
    redemptor: bool  # the Redemptor's discount used
    walls_used: list[str]  # once-a-round wall abilities used: "exchange", "trade"
    ship: ShipBought | None  # the ship bought in the accept phase (one a round)
    ship_paid: int  # what it cost, refunded if an earlier player takes it
    post: bool  # a trading post bought
    donated: bool
    loaded: bool  # a contract loaded this phase (the office redraw must come before)
    redrawn: bool


class FinalScore(TypedDict):
    """Fame and gold of the final scoring steps, kept for the result."""

    ships_gold: int
    ships_fame: int
    walls_fame: int
    gold_fame: int


class PlayerSheet(TypedDict):
    """One player's sheet (state key "p" maps each player to one)."""

    gold: int  # the Treasury area; secret unless the public-gold option is on
    fame: int  # the player's marker on the Fame Point track
    goods: dict[str, int]  # the Storage area, by goods type
    buildings: list[str]  # production, commercial and utility buildings owned (names)
    new: list[str]  # of those, the ones bought this round
    public: list[str]  # public building tiles (ids "public-<cost>")
    walls: list[str]  # city wall segments, by ability
    ships: list[Ship]
    next_ship: int  # the id the next ship bought gets
    hand: list[int]  # contract cards drawn and not yet accepted
    saved: list[int]  # contracts kept on trading posts for a later round
    posts: int  # trading posts owned
    dropped: bool  # left the game (Italian drop-out variant)
    removed: bool  # and their pieces have left the board
    r: RoundFlags
    score: FinalScore


class Duel(TypedDict):
    """An auction for an occupied office: the challenger and the holder raise or pass."""

    office: str
    challenger: str
    holder: str
    bid: int
    turn: Literal["holder", "challenger"]
    limit: int | None  # the challenger's `bid ... up to` limit


class Auction(TypedDict):
    """Phase 1, the Auction Public Office."""

    start: list[str]  # turn order at the start of the auction
    been: list[str]  # players who have been the active player
    active: str | None
    free: str | None  # the office a player who just lost his may take without paying
    coins: dict[str, int]  # gold on each office's coin area
    paid: int  # all gold paid this auction (discarded at its end)
    duel: Duel | None


class PendingPurchase(TypedDict):
    """A purchase the Consul is asked to pre-empt."""

    buyer: str
    args: dict[str, Any]  # the `build` order's arguments


class Construction(TypedDict):
    """Phase 4, Construct Buildings, taken in turn order."""

    turn: int  # index into the turn order
    pending: PendingPurchase | None
    queue: list[dict[str, Any]]  # the buyer's orders waiting for the Consul's answer


Offer = TypedDict("Offer", {"id": int, "from": str, "to": str, "give": list[str], "get": list[str]})
Offer.__doc__ = "A free-trade offer; items are 'N gold', 'N <good>' or 'contract N'."


class Acceptance(TypedDict):
    """Phase 6, Accept Contracts, played by everyone at once."""

    done: list[str]  # players who have finished the phase
    offers: list[Offer]  # open free-trade offers
    next: int  # the number the next offer gets


class MarketPiles(TypedDict):
    """The market cards: the Current Market pile (open card last) and the Future Market pile."""

    current: list[int]
    future: list[int]  # the next card to open is the last
    empties: int  # how often the Future Market area has run empty
    hidden: bool  # the reshuffled pile lies face down (Italian option)


class GameState(TypedDict):
    """A whole position."""

    game: str
    rules_version: str
    components: dict[str, str]  # name, version and SHA-256 of the component set
    component_data: NotRequired[dict[str, Any]]  # the set itself, when it is not the built-in one
    options: dict[str, Any]
    players: list[str]  # in seat order
    round: int
    phase: Phase
    seq: int  # counts decisions opened, so that each phase key is new
    offices: dict[str, str | None]  # the Public Office area: office -> holder
    order: list[str]  # this round's turn order (by office number, I first)
    p: dict[str, PlayerSheet]
    supply: dict[str, int]  # building tiles left, by name
    gone: dict[str, int]  # tiles out of the game (drop-out variant)
    gone_public: int
    gone_walls: int
    publics: list[str]  # public building tiles still for sale
    walls: list[str]  # wall segments still to build
    ships: dict[str, int]  # ships left in the Available Ships area, by size
    deck: list[int]  # the contract deck (drawn from the end)
    discard: list[int]
    market: MarketPiles
    flow: dict[str, int]  # goods in play by type (an invariant's bookkeeping)
    ability: dict[str, str | None]  # consul / urbi: how the office ability was used this round
    preempt: list[str] | None  # the Consul's standing pre-emption list (None: ask him)
    last_public: bool  # the last public building was bought: this round is the last
    auction: Auction | None
    pretorio: str | None  # the Praefectus Pretorio, while his free good is to be chosen
    construct: Construction | None
    accept: Acceptance | None
    donate: list[str] | None  # players still to decide in phase 7
    store: list[str] | None  # players still to choose what to store in phase 8
    last_auction_discard: int
    reshuffles: int  # times the contract discards were reshuffled into a deck
    defend: dict[str, int]  # office holders' standing `defend` limits for the next auction
    rng: dict[str, Any]  # the seeded random stream (contract and market shuffles)


# --------------------------------------------------------------------------- shared helpers


def new_phase_key(state: GameState) -> None:
    """A new decision opened: the phase key changes, so orders aimed at the last one are stale."""
    state["seq"] += 1


@functools.lru_cache(maxsize=4096)
def shared_prompt(player: str, decision: str, simultaneous: bool, orders: tuple[str, ...], text: Phrase) -> Prompt:
    """A shared `Prompt` (it is immutable) for the prompts that repeat with the same words."""
    return Prompt(player, decision, simultaneous, orders, text)


_MENU_ORDERS: dict[tuple[Any, ...], Order] = {}


def menu_order(kind: str, *args: tuple[str, Any]) -> Order:
    """One shared `Order` per menu entry with scalar arguments (`menu_order("buy", ("good",
    "red"), ("count", 1))`). Orders are values: frozen, compared by value and never changed by
    the engine or the service, so a menu need not build the same one again and again. The
    cache is bounded by the component data (names, ids and small numbers)."""
    key = (kind, args)
    order = _MENU_ORDERS.get(key)
    if order is None:
        order = _MENU_ORDERS[key] = Order(kind, dict(args))
    return order


components_of = for_state  # the component set of a state (a plain alias: it is called very often)


CANNOT_PRODUCE = phrase("you cannot produce that good")  # the reason shared by orders naming such goods


def illegal(message: Phrase, suggestion: Phrase | None = None, reason: Phrase | None = None) -> IllegalOrder:
    """An illegal order; `reason` says the rule in words that fit every order it refuses
    (`that costs more than the 5 gold you have`), for a plan's alternatives said together."""
    return IllegalOrder(message, suggestion=suggestion, reason=reason)


def sentence_start(name: str, sentence: bool = True) -> str:
    """A player's name at the start of a sentence (HELP's): its first letter a capital."""
    return name[:1].upper() + name[1:] if sentence else name


@functools.lru_cache(maxsize=1024)  # the same few counts of five goods, in events and menus all game long
def goods_count(count: int | str, good: str) -> Phrase:
    """`2 green`: a number (or numbers, `1-3`) of one type of goods, the type in the reader's words."""
    return phrase("{count} {good}", count=count, good=term(good))


def too_few(sheet: PlayerSheet, good: str) -> IllegalOrder:
    """`you have only 2 green` (or `you have no green`): fewer goods of a type than an order needs."""
    if not sheet["goods"][good]:
        return illegal(phrase("you have no {good}", good=term(good)))
    return illegal(phrase("you have only {goods}", goods=goods_count(sheet["goods"][good], good)))


def sheet_of(state: GameState, name: str) -> PlayerSheet:
    """Player `name`'s sheet, to read (to change it, take it through `writable_sheet`)."""
    return state["p"][name]


def active_players(state: GameState) -> list[str]:
    """Players still in the game (the drop-out variant removes some)."""
    return [n for n in state["players"] if not state["p"][n]["dropped"]]


def office_of(state: GameState, name: str) -> str | None:
    for office, holder in state["offices"].items():
        if holder == name:
            return office
    return None


def turn_order(state: GameState) -> list[str]:
    """Players by the number of the office they hold (I first); officeless players last
    (The Auction Public Office Phase: the offices' numbers are the turn order). A player who
    left under the drop-out variant is out of it once his pieces are off the board: he
    produces, draws and decides nothing more."""
    out = [state["offices"][o] for o in OFFICES if state["offices"][o] is not None]
    out += [n for n in state["players"] if n not in out and not state["p"][n]["removed"]]
    return out


def goods_total(sheet: PlayerSheet) -> int:
    return sum(sheet["goods"].values())


def gain_goods(state: GameState, sheet: PlayerSheet, good: str, n: int) -> None:
    """`sheet` must come from `writable_sheet`."""
    sheet["goods"][good] += n
    writable(state, "flow")[good] += n


def lose_goods(state: GameState, sheet: PlayerSheet, good: str, n: int) -> None:
    """`sheet` must come from `writable_sheet`."""
    if sheet["goods"][good] < n:
        if not sheet["goods"][good]:
            raise illegal(phrase("you have no {good}", good=term(good)))
        raise illegal(phrase("you have only {goods}, not {count}", goods=goods_count(sheet["goods"][good], good),
                             count=n))
    sheet["goods"][good] -= n
    writable(state, "flow")[good] -= n


def contract_card(components: dict[str, Any], number: int) -> dict[str, Any]:
    """The printed contract card with this number."""
    return components["contracts"][number - 1]


def market_card(state: GameState) -> dict[str, Any]:
    """The open Current Market card, whose limits and prices hold this round."""
    return components_of(state)["markets"][state["market"]["current"][-1]]


def draw_contracts(state: GameState, n: int) -> list[int]:
    """Draw n contract cards, reshuffling the discards when the deck runs out."""
    out: list[int] = []
    deck = writable(state, "deck")
    for _ in range(n):
        if not deck:
            if not state["discard"]:
                break
            rng = Rng.from_json(state["rng"])
            deck = state["deck"] = rng.shuffled(state["discard"])
            state["rng"] = rng.to_json()
            state["discard"] = []
            state["reshuffles"] += 1
        out.append(deck.pop())
    return out


def new_round_flags() -> RoundFlags:
    return {"built": [], "ledger": {}, "used": [], "redemptor": False, "walls_used": [],
            "ship": None, "ship_paid": 0, "post": False, "donated": False, "loaded": False,
            "redrawn": False}
