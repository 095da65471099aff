"""The menus (`legal_orders`) are worked out directly, without trying orders through `apply`.
Here `apply` is the judge: every menu entry must apply on its own without touching the input,
and for the orders a menu covers, the menu offers exactly those that `apply` accepts."""

from __future__ import annotations

import pytest

from games.constantinopolis import GAME
from games.constantinopolis.components import BUILTIN, GOODS, SIZES
from referee.contract import Order, OrderError, canonical_json
from referee.playthrough import play

from .util import at_accept, at_construct, card, give_cards, give_goods, new, own, seat

NAMES = ["ann", "bob", "cid", "dee", "eve"]


def accepted(st: dict, player: str, order: Order) -> bool:
    try:
        GAME.apply(st, player, [order])
    except OrderError:
        return False
    return True


def build_candidates(st: dict) -> list[Order]:
    out = []
    for g in ([{"building": b} for b in BUILTIN["buildings"]] + [{"public": f} for f in range(1, 8)]
              + [{"wall": w["id"]} for w in BUILTIN["walls"]]):
        out += [Order("build", g), Order("build", dict(g, redemptor=True))]
    return out


def check_menu(st: dict, player: str) -> None:
    menu = GAME.legal_orders(st, player)
    before = canonical_json(st)
    for order in menu:
        assert accepted(st, player, order), (st["phase"], order)
    assert canonical_json(st) == before
    kinds = {o.kind for o in menu}
    if st["phase"] == "construct" and st["construct"]["pending"] is None:
        builds = {canonical_json(o.args) for o in menu if o.kind == "build"}
        assert builds == {canonical_json(o.args) for o in build_candidates(st) if accepted(st, player, o)}
    if st["phase"] in ("construct", "accept") and menu:
        for kind in ("buy", "sell"):
            offered = {o.args["good"] for o in menu if o.kind == kind}
            assert offered == {g for g in GOODS if accepted(st, player, Order(kind, {"good": g, "count": 1}))}, kind
        used = {o.args["building"] for o in menu if o.kind == "use"}
        assert used == {b for b, info in BUILTIN["buildings"].items()
                        if info["kind"] == "commercial" and accepted(st, player, Order("use", {"building": b}))}
        # the exchange wall is offered for the first good held only (a compact menu)
        held = [g for g in GOODS if st["p"][player]["goods"][g]]
        exchange = any(accepted(st, player, Order("exchange", {"give": a, "get": b})) for a in held[:1] for b in GOODS)
        assert ("exchange" in kinds) == exchange
        bag = [g for g in GOODS for _ in range(st["p"][player]["goods"][g])]  # the trade wall takes any three
        assert ("trade" in kinds) == (len(bag) >= 3 and accepted(st, player, Order("trade", {"goods": bag[:3]})))
    if st["phase"] == "accept" and menu:
        p = st["p"][player]
        for order in [Order("post")] + [Order("ship", {"size": s}) for s in SIZES] \
                + [Order("save", {"contract": c}) for c in p["hand"][:1]] \
                + [Order("redraw", {"contracts": p["hand"][:2]})] * bool(p["hand"]):
            assert (order in menu) == accepted(st, player, order), order
        loads = {o.args["contract"] for o in menu if o.kind == "load"}
        assert loads == {c for c in p["hand"] if any(accepted(st, player, Order("load", {"contract": c, "ship": s["id"]}))
                                                    for s in p["ships"])}


@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {"free_trade": True}), (4, {}), (5, {"produce_since_round_start": True, "taberna_one_type": True}),
])
def test_menus_offer_exactly_what_apply_accepts(players, options):
    def probe(pt):
        if pt.steps % 5 == 0:
            for prompt in GAME.prompts(pt.state):
                check_menu(pt.state, prompt.player)

    play(GAME, NAMES[:players], f"menus-{players}", options, on_step=probe)


@pytest.mark.parametrize("gold", [0, 4, 9, 14, 22, 40])
@pytest.mark.parametrize("red_producer", [False, True])
def test_construction_menu_with_redemptor_walls_and_taberna(gold, red_producer):
    st = seat(new(), {"magister": "greg", "pretorio": "jen", "urbi": "kay"})
    st["order"] = ["greg", "jen", "kay"]
    st = at_construct(st)
    own(st, "greg", "Redemptor", "Taberna", "Emporium", "Pistrinum", *(["Metallum"] if red_producer else []))
    give_goods(st, "greg", red=2, green=3, blue=1)
    st["p"]["greg"]["gold"] = gold
    st["p"]["greg"]["walls"] = ["exchange", "trade", "market"]
    st["walls"] = [w for w in st["walls"] if w not in ("exchange", "trade", "market")]
    check_menu(st, "greg")
    # the Praefectus Urbi's turn, with walls to offer
    st, _ = GAME.apply(st, "greg", [Order("done")])
    st, _ = GAME.apply(st, "jen", [Order("done")])
    st["p"]["kay"]["gold"] = gold
    check_menu(st, "kay")


@pytest.mark.parametrize("gold", [0, 2, 7, 12, 30])
def test_accept_menu_with_posts_ships_and_offices(gold):
    st = seat(new(), {"consul": "greg", "urbi": "jen", "comes": "kay"})
    st = at_accept(st)
    give_cards(st, "greg", [card("green"), card("passenger"), card("red", 2)])
    give_goods(st, "greg", green=1, red=2)
    st["p"]["greg"]["gold"] = gold
    st["p"]["greg"]["posts"] = 1
    st["p"]["greg"]["walls"] = ["dock"]
    st["ships"]["medium"] = 0
    check_menu(st, "greg")
    st["ships"]["medium"] = 2
    st["ability"]["consul"] = "preempt"
    check_menu(st, "greg")
