"""HELP, the report's ORDERS block and the receipt of a rejected set list every order the
player may give, compactly: the exchange wall with every pair, every sale, every load. (Which
orders are legal is tested in tests/fuzz/test_full_menus.py; this is about the mail.)"""

from __future__ import annotations

from datetime import datetime, timezone

from games.constantinopolis import GAME
from mailer.outbound.reports import help_text, orders_block

from ..constantinopolis.util import at_accept, at_construct, card, give_cards, give_goods, new, own, seat
from .util import service_at

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def builder():
    st = at_construct(seat(new(("greg", "jen", "kay")), {"magister": "greg", "pretorio": "jen", "urbi": "kay"}))
    own(st, "greg", "Cura")  # green and blue
    give_goods(st, "greg", green=2, red=3, black=1)
    st["p"]["greg"]["walls"] = ["exchange", "trade"]
    st["walls"] = [w for w in st["walls"] if w not in ("exchange", "trade")]
    return st


EXCHANGE = "exchange <good> for <good> (exchange wall): 1 of green, red, black for 1 of green, blue"
SELL = "sell <count> <good>: "
TRADE = "trade <three goods> (trade wall): sell any three of your goods for 10 gold; you have 2 green, 3 red, 1 black"


def test_help_and_the_orders_block_list_every_exchange_sale_and_trade():
    st = builder()
    helped = help_text(GAME, st, game_id="c1", player="greg", deadline="none", zone=None)
    block = "\n".join(orders_block(GAME, st, "c1", "greg"))
    for text in (helped, block):
        flat = " ".join(text.replace("#", " ").split())
        assert EXCHANGE + " (another type)" in flat
        assert TRADE in flat
        assert "1-2 green" in flat and "1-3 red" in flat and "1 black" in flat
    assert "Every order you may give now:" in block and "send HELP" not in block


def test_a_rejected_set_gets_the_whole_menu_in_its_receipt(tmp_path):
    svc = service_at(tmp_path, builder(), lambda: NOW)
    receipt = svc.referee.submit("c1", "greg", "exchange blue for red")
    assert receipt.status == "rejected"
    text = " ".join(receipt.render().split())
    assert "Orders you may give now:" in text and EXCHANGE in text and TRADE in text
    accepted = svc.referee.submit("c1", "greg", "exchange black for blue")
    assert accepted.status == "accepted" and not accepted.menu


def test_every_load_is_listed_by_contract_and_ship():
    st = at_accept(seat(new(("greg", "jen", "kay")), {"magister": "greg", "pretorio": "jen", "comes": "kay"}))
    green, passenger = card("green"), card("passenger")
    give_cards(st, "greg", [green, passenger])
    give_goods(st, "greg", green=1)
    st["p"]["greg"]["ships"].append({"id": 2, "size": "medium", "at": 0, "cargo": []})
    block = " ".join(" ".join(orders_block(GAME, st, "c1", "greg")).replace("#", " ").split())
    assert f"load <contract> on ship <n>: {green} on ship 1 or 2; {passenger} on ship 2" in block
