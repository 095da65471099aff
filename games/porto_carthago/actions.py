"""The action turn: five actions (Aktionen) on six action cards laid on slots, each slot with a
servant cost and perhaps a side action (Nebenaktion), and the two alternatives, TALENTS (take
3 talents) and REFILL (refill the market).

Reference: §4 (the action cards: captain/Kapitän, aristocrat/Aristokrat, loadmaster/
Lademeister, merchant/Händler, porter/Träger), §5.4 (the turn, the side actions), A8 (the
4/3/2 goods price), A11 (a card only for its side action), A12 (side action timing), A15-A17
(porter and loadmaster), A27 (the aristocrat), A34 (the refill), A36 (TALENTS is always
possible) and A39 (servants the captain and the loadmaster need). The short menu of main
actions is in `action_menu`.
"""

from __future__ import annotations

from typing import Any, Callable

from referee.contract import Event, IllegalOrder, Order
from referee.wording import Phrase, both, phrase, plural_phrase, term

from .board import dock_index, free_storage, goods_price, refill_market
from .loading import load_if_wanted
from .palace import buy_seat, purchase_problem
from .shipping import ship_by_charter
from .state import State

ACTION_KINDS = ("captain", "aristocrat", "loadmaster", "merchant", "porter")
ARISTOCRAT_ROUTES = (("supply", "lighthouse"), ("supply", "temple"), ("lighthouse", "supply"),
                     ("temple", "supply"), ("lighthouse", "temple"), ("temple", "lighthouse"))


def slot_info(state: State, slot: int) -> dict[str, Any]:
    """The printed slot (1 to 6): its servant cost and side action."""
    return state["comp"]["action_slots"][slot - 1]


ARISTOCRAT_MOVES = range(1, 6)  # how many servants the aristocrat may move (A27)


def aristocrat_moves(to_lighthouse: int, to_temple: int) -> int:
    """Servants the aristocrat moves for these net changes of lighthouse and temple (A27)."""
    return (abs(to_lighthouse) + abs(to_temple) + abs(to_lighthouse + to_temple)) // 2


# --------------------------------------------------------------------------- checks


DOCK_TAKEN = phrase("that dock is taken")  # reasons shared by the orders naming such a dock
NOT_YOURS = phrase("that dock is not yours")


def cost_left(state: State, seat: int, kind: str, slot: Any) -> int:
    """The servants left in supply after paying for `slot`; raises when the slot cannot be used
    (the first check of every main action on a slot, `validate_main`)."""
    if not isinstance(slot, int) or not 1 <= slot <= 6:
        raise IllegalOrder(phrase("slot must be 1..6, not {slot!r}", slot=slot))
    lying = state["slots"][slot - 1]
    if kind != "side" and lying != kind:
        where = [str(i + 1) for i, card in enumerate(state["slots"]) if card == kind]
        hint = phrase("the {card} lies on slot {slots}", card=term(kind), slots=both(where)) if where else None
        raise IllegalOrder(phrase("slot {slot} holds the {lying}, not the {card}", slot=slot, lying=term(lying),
                                  card=term(kind)), reason=phrase("that slot holds another card"), suggestion=hint)
    cost = slot_info(state, slot)["cost"]
    if state["supply"][seat] < cost:
        raise IllegalOrder(plural_phrase(cost, "slot {slot} costs {n} servant and you have {supply} in supply",
                                         "slot {slot} costs {n} servants and you have {supply} in supply",
                                         slot=slot, supply=state["supply"][seat]),
                           suggestion=phrase("take {gain} talents with TALENTS", gain=state["comp"]["take_money"]))
    return state["supply"][seat] - cost


def validate_main(state: State, seat: int, order: Order) -> None:
    """Raise IllegalOrder when a main-action order is not allowed for `seat` now."""
    kind, args = order.kind, order.args
    if kind in ("talents", "refill"):
        return
    left = cost_left(state, seat, kind, args.get("slot"))
    check = _CHECKS.get(kind)
    if check is None:
        raise IllegalOrder(phrase("{kind} is not an action", kind=kind))
    check(state, seat, args, left)


def _check_side_only(state: State, seat: int, args: dict[str, Any], left: int) -> None:
    if slot_info(state, args["slot"])["side"] == "none":
        raise IllegalOrder(phrase("slot {slot} has no side action", slot=args["slot"]))


def _check_captain(state: State, seat: int, args: dict[str, Any], left: int) -> None:
    """A free charter ship, and one more servant to put on it (A39)."""
    if None not in state["charter"]:
        raise IllegalOrder(phrase("every charter ship is already taken"))
    if left < 1:
        raise IllegalOrder(phrase("the captain needs a servant in supply besides the slot cost"))


def _check_aristocrat(state: State, seat: int, args: dict[str, Any], left: int) -> None:
    """Up to five servants moved among supply, lighthouse and temple, each once (A27)."""
    to_lighthouse, to_temple = args.get("lighthouse", 0), args.get("temple", 0)
    moves = aristocrat_moves(to_lighthouse, to_temple)
    if moves not in ARISTOCRAT_MOVES:
        raise IllegalOrder(phrase("the aristocrat moves 1 to 5 servants, this needs {moves}", moves=moves),
                           suggestion=phrase("use SIDE n to take only the side action"))
    if state["light"][seat] + to_lighthouse < 0 or state["temple"][seat] + to_temple < 0 \
            or left - to_lighthouse - to_temple < 0:
        raise IllegalOrder(phrase("you do not have the servants for that move"))


def _check_loadmaster(state: State, seat: int, args: dict[str, Any], left: int) -> None:
    """Occupy an unowned dock with two servants, switch an own dock to an unowned one, or
    dissolve an own dock (A17, A18, A39)."""
    mode, dock = args.get("mode"), _dock_named(state, args.get("dock"))
    if mode == "occupy":
        if state["dock_o"][dock] is not None:
            raise IllegalOrder(phrase("dock {dock} is already owned", dock=args["dock"]), reason=DOCK_TAKEN)
        if left < 2:
            raise IllegalOrder(phrase("occupying a dock needs 2 servants in supply besides the slot cost"))
    elif mode in ("switch", "dissolve"):
        if state["dock_o"][dock] != seat:
            raise IllegalOrder(phrase("dock {dock} is not yours", dock=args["dock"]), reason=NOT_YOURS)
        if mode == "switch":
            target = _dock_named(state, args.get("to"))
            if state["dock_o"][target] is not None:
                raise IllegalOrder(phrase("dock {dock} is already owned", dock=args["to"]), reason=DOCK_TAKEN)
    else:
        raise IllegalOrder(phrase("unknown loadmaster mode {mode!r}", mode=mode))


def _check_merchant(state: State, seat: int, args: dict[str, Any], left: int) -> None:
    """A good from the market into a free storage space, at the current price (A8)."""
    good = args.get("good")
    if good not in state["market"]:
        raise IllegalOrder(phrase("there is no {good} in the market", good=good),
                           suggestion=phrase("the market holds {goods}", goods=" ".join(state["market"]))
                           if state["market"] else phrase("the market holds nothing"))
    if free_storage(state, seat) < 1:
        raise IllegalOrder(phrase("your storage has no free space"))
    if state["money"][seat] < goods_price(state):
        raise IllegalOrder(phrase("the next good costs {price} talents and you have {money}", price=goods_price(state),
                                  money=state["money"][seat]))


def _check_porter(state: State, seat: int, args: dict[str, Any], left: int) -> None:
    """A good from storage or an own dock to storage, an own empty dock, or an own charter
    ship with a temple servant (A15, A16, A21)."""
    source, target = args.get("from"), args.get("to")
    if source == "storage":
        if args.get("good") not in state["store"][seat]:
            raise IllegalOrder(phrase("there is no {good} in your storage", good=args.get("good")))
    else:
        dock = _dock_named(state, source)
        if state["dock_o"][dock] != seat:
            raise IllegalOrder(phrase("dock {dock} is not yours", dock=source), reason=NOT_YOURS)
        if state["dock_g"][dock] is None:
            raise IllegalOrder(phrase("dock {dock} holds no good", dock=source))
    if target == source:
        raise IllegalOrder(phrase("a good must move somewhere else"))
    if target == "storage":
        if free_storage(state, seat) < 1:
            raise IllegalOrder(phrase("your storage has no free space"))
    elif target == "charter":
        if seat not in state["charter"]:
            raise IllegalOrder(phrase("you have no charter ship"),
                               suggestion=phrase("occupy one with the captain first"))
        if state["temple"][seat] < 1:
            raise IllegalOrder(phrase("charter shipping needs a servant of yours in the Baal temple"))
        if not state["deck"]:
            raise IllegalOrder(phrase("the ship deck is empty, so nothing can be shipped"))
    else:
        dock = _dock_named(state, target)
        if state["dock_o"][dock] != seat:
            raise IllegalOrder(phrase("dock {dock} is not yours", dock=target), reason=NOT_YOURS)
        if state["dock_g"][dock] is not None:
            raise IllegalOrder(phrase("dock {dock} already stores a good", dock=target))


_CHECKS: dict[str, Callable[[State, int, dict[str, Any], int], None]] = {
    "side": _check_side_only, "captain": _check_captain, "aristocrat": _check_aristocrat,
    "loadmaster": _check_loadmaster, "merchant": _check_merchant, "porter": _check_porter}


def _dock_named(state: State, name: Any) -> int:
    try:
        return dock_index(state, name)
    except (ValueError, AttributeError, TypeError):
        raise IllegalOrder(phrase("there is no dock called {name!r}", name=name)) from None


# --------------------------------------------------------------------------- carrying out


def execute_main(state: State, seat: int, order: Order, events: list[Event]) -> None:
    """Carry out a main action `validate_main` has passed: an alternative, or an action card
    whose slot cost is paid onto the card first."""
    kind, args = order.kind, order.args
    name = state["players"][seat]
    state["act"]["main"] = True
    if kind == "talents":
        gain = state["comp"]["take_money"]
        state["money"][seat] += gain
        events.append(Event("talents", phrase("{player} takes {gain} talents instead of an action card.",
                                              player=name, gain=gain), {"player": name}))
        return
    if kind == "refill":
        refill_market(state, True)
        market = " ".join(state["market"]) or phrase("nothing left in the bag")
        events.append(Event("refill", phrase("{player} refills the market: {market}.", player=name, market=market),
                            {"player": name, "market": list(state["market"])}))
        if refill_buy_asked(state, seat):
            state["pending"].append({"t": "refill_buy", "p": seat})
        return
    slot = args["slot"]
    cost = slot_info(state, slot)["cost"]
    state["supply"][seat] -= cost
    state["on_card"][slot - 1][seat] += cost
    state["act"]["slot"] = slot
    card = term(state["slots"][slot - 1])
    if kind == "side":
        events.append(Event("action", plural_phrase(
            cost, "{player} takes slot {slot} ({card}) paying {n} servant only for its side action.",
            "{player} takes slot {slot} ({card}) paying {n} servants only for its side action.",
            player=name, slot=slot, card=card) if cost else phrase(
            "{player} takes slot {slot} ({card}) only for its side action.", player=name, slot=slot, card=card),
            {"player": name, "slot": slot}))
        return
    # the card in the reader's words: the rulebook's German name only in German mail (the glossary's)
    head = plural_phrase(cost, "{player} uses the {card} card on slot {slot} paying {n} servant",
                         "{player} uses the {card} card on slot {slot} paying {n} servants",
                         player=name, card=term(kind), slot=slot) if cost else phrase(
        "{player} uses the {card} card on slot {slot}", player=name, card=term(kind), slot=slot)
    _EFFECTS[kind](state, seat, args, head, events)


def _captain(state: State, seat: int, args: dict[str, Any], head: Phrase, events: list[Event]) -> None:
    """Kapitän: a servant onto a free charter ship."""
    name = state["players"][seat]
    state["charter"][state["charter"].index(None)] = seat
    state["supply"][seat] -= 1
    events.append(Event("action", phrase("{action} and occupies a charter ship.", action=head),
                        {"player": name, "slot": args["slot"]}))


def _aristocrat(state: State, seat: int, args: dict[str, Any], head: Phrase, events: list[Event]) -> None:
    """Aristokrat: servants moved among supply, lighthouse and temple."""
    name = state["players"][seat]
    to_lighthouse, to_temple = args.get("lighthouse", 0), args.get("temple", 0)
    state["light"][seat] += to_lighthouse
    state["temple"][seat] += to_temple
    state["supply"][seat] -= to_lighthouse + to_temple
    events.append(Event("action", phrase("{action}: lighthouse {lighthouse:+d}, temple {temple:+d} (now {light_now} "
                                         "and {temple_now}).", action=head, lighthouse=to_lighthouse,
                                         temple=to_temple, light_now=state["light"][seat],
                                         temple_now=state["temple"][seat]),
                        {"player": name, "slot": args["slot"]}))


def _loadmaster(state: State, seat: int, args: dict[str, Any], head: Phrase, events: list[Event]) -> None:
    """Lademeister: occupy, dissolve or switch a dock warehouse; a stored good moves along on
    a switch (A17) and loads if the new dock's ship wants it."""
    name = state["players"][seat]
    detail = {"player": name, "slot": args["slot"]}
    dock = dock_index(state, args["dock"])
    if args["mode"] == "occupy":
        state["dock_o"][dock] = seat
        state["supply"][seat] -= 2
        events.append(Event("action", phrase("{action} and occupies dock {dock}.", action=head, dock=args["dock"]),
                            detail))
    elif args["mode"] == "dissolve":
        state["dock_o"][dock] = None
        state["supply"][seat] += 2
        lost = state["dock_g"][dock]
        if lost is not None:
            state["bag"].append(lost)
            state["dock_g"][dock] = None
        events.append(Event("action", phrase("{action} and gives up dock {dock}; the stored {good} goes back into "
                                             "the bag.", action=head, dock=args["dock"], good=lost) if lost else
                            phrase("{action} and gives up dock {dock}.", action=head, dock=args["dock"]), detail))
    else:
        target = dock_index(state, args["to"])
        state["dock_o"][dock] = None
        state["dock_o"][target] = seat
        moved = state["dock_g"][dock]
        state["dock_g"][dock] = None
        state["dock_g"][target] = moved  # A17: a stored good moves with the servants
        events.append(Event("action", phrase("{action} and moves from dock {dock} to dock {to}, taking the stored "
                                             "{good} along.", action=head, dock=args["dock"], to=args["to"],
                                             good=moved) if moved else
                            phrase("{action} and moves from dock {dock} to dock {to}.", action=head, dock=args["dock"],
                                   to=args["to"]), detail))
        load_if_wanted(state, target, events)


def _merchant(state: State, seat: int, args: dict[str, Any], head: Phrase, events: list[Event]) -> None:
    """Händler: a good from the market into storage; each purchase lowers the next price."""
    name = state["players"][seat]
    price = goods_price(state)
    state["money"][seat] -= price
    state["market"].remove(args["good"])
    state["store"][seat].append(args["good"])
    state["bought"] += 1
    events.append(Event("action", phrase("{action} and buys {good} for {price} talents.", action=head,
                                         good=args["good"], price=price),
                        {"player": name, "slot": args["slot"], "good": args["good"]}))


def _porter(state: State, seat: int, args: dict[str, Any], head: Phrase, events: list[Event]) -> None:
    """Träger: a good carried to storage, to an own dock (where it may load at once) or onto
    an own charter ship (shipped at once)."""
    name = state["players"][seat]
    source, target = args["from"], args["to"]
    if source == "storage":
        good = args["good"]
        state["store"][seat].remove(good)
    else:
        source_dock = dock_index(state, source)
        good = state["dock_g"][source_dock]
        state["dock_g"][source_dock] = None
    if source == "storage":  # the storage with its article, which a name like C3-I has not
        said = phrase("{action} and carries {good} from the storage to {target}.", action=head, good=good,
                      target=term(target))
    elif target == "storage":
        said = phrase("{action} and carries {good} from {source} into the storage.", action=head, good=good,
                      source=term(source))
    else:
        said = phrase("{action} and carries {good} from {source} to {target}.", action=head, good=good,
                      source=term(source), target=term(target))
    events.append(Event("action", said,
                        {"player": name, "slot": args["slot"], "good": good}))
    if target == "storage":
        state["store"][seat].append(good)
    elif target == "charter":
        ship_by_charter(state, seat, good, events)
    else:
        target_dock = dock_index(state, target)
        state["dock_g"][target_dock] = good
        load_if_wanted(state, target_dock, events)


_EFFECTS: dict[str, Callable[[State, int, dict[str, Any], Phrase, list[Event]], None]] = {
    "captain": _captain, "aristocrat": _aristocrat, "loadmaster": _loadmaster, "merchant": _merchant,
    "porter": _porter}


# --------------------------------------------------------------------------- the refill's buy


def refill_buy_asked(state: State, seat: int) -> bool:
    """Whether the refilling player is asked to buy: goods in the market and room in storage,
    both open to all. Money is secret (A33), so it is not asked about here; a player who
    cannot pay answers PASS (or has it queued, or gets it as the default)."""
    return bool(state["market"]) and free_storage(state, seat) >= 1


def refill_buy_problem(state: State, seat: int) -> Phrase | None:
    """Why the refilling player cannot buy a good for 6 talents now (told to them alone)."""
    price = state["comp"]["refill_buy_price"]
    if free_storage(state, seat) < 1:
        return phrase("your storage has no free space")
    if state["money"][seat] < price:
        return phrase("a good after the refill costs {price} talents and you have {money}", price=price,
                      money=state["money"][seat])
    return None


# --------------------------------------------------------------------------- side actions


# the problems of a side action that name nothing, made once: every turn's end asks for them
# (`flow.after_open`), and a phrase with no values is the same whoever reads it
_SIDE_FIRST = phrase("a side action comes after the main action")
_NO_SLOT = phrase("the 3-talent and refill alternatives give no side action")
_SIDE_TAKEN = phrase("the side action was already taken this turn")
_ALL_SPACES = phrase("your storage already has all its spaces")


def side_problem(state: State, seat: int, kind: str, public: bool = False) -> Phrase | None:
    """Why the side action `kind` (expand or palace) is not possible now (A11, A12). With
    `public`, money is left out: it decides whether the side action goes through, never
    whether the player is asked (A33)."""
    turn = state["act"]
    if not turn["main"]:
        return _SIDE_FIRST
    if turn["slot"] is None:
        return _NO_SLOT
    if turn["side"]:
        return _SIDE_TAKEN
    side = slot_info(state, turn["slot"])["side"]
    want = "expand_storage" if kind == "expand" else "palace"
    if side != want:
        return phrase("slot {slot} does not offer that side action", slot=turn["slot"])
    if kind == "expand":
        if state["blocked"][seat] < 1:
            return _ALL_SPACES
        cost = state["comp"]["storage"]["expand_cost"]
        if not public and state["money"][seat] < cost:
            return phrase("expanding the storage costs {cost} talents and you have {money}", cost=cost,
                          money=state["money"][seat])
        return None
    return purchase_problem(state, seat, public=public)


def execute_side(state: State, seat: int, kind: str, events: list[Event]) -> None:
    """Expand the storage (a blocking servant goes back to the supply) or buy a palace seat."""
    state["act"]["side"] = True
    if kind == "expand":
        cost = state["comp"]["storage"]["expand_cost"]
        state["money"][seat] -= cost
        state["blocked"][seat] -= 1
        state["supply"][seat] += 1
        events.append(Event("expand", phrase("{player} pays {cost} talents for a new storage space.",
                                             player=state["players"][seat], cost=cost),
                            {"player": state["players"][seat]}))
    else:
        buy_seat(state, seat, events, phrase("side action"))
