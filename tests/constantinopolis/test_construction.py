"""Phase 4: buildings, licences, public buildings, walls, the Consul, the market, commercial
buildings and utility buildings, with the rulebook's examples."""

import pytest

from games.constantinopolis import GAME
from games.constantinopolis import production
from games.constantinopolis.production import draw_count, production_level
from referee.contract import IllegalOrder

from .util import DATA, at_construct, do, give_goods, new, own, seat

FORUM = 0  # the Forum Costantinum is the first market card in the data file


def construct(offices=None, players=("greg", "jen", "kay"), market=FORUM, **opts):
    st = new(players, **opts)
    st = seat(st, offices or {"magister": players[0], "pretorio": players[1], "comes": players[2]})
    st["market"]["current"] = [market]
    st["market"]["future"] = [i for i in range(5) if i != market]
    st = at_construct(st)
    production.produce(st, [])  # round one's production: two green from each Ager
    return st


def illegal(st, player, text):
    with pytest.raises(IllegalOrder) as e:
        GAME.apply(st, player, GAME.parse(st, player, text))
    return e.value


def test_greg_and_jen_round_one_example():
    st = construct()
    assert "licence C" in illegal(st, "greg", "build vinaria").message
    st, _ = do(st, "greg", "build metallum\nbuild emporium\ndone")
    assert st["p"]["greg"]["gold"] == 30 - 29
    st, _ = do(st, "jen", "build textrinum\nbuild caupona")
    assert st["p"]["jen"]["gold"] == 30 - 20
    # a second Textrinum: one production building a round, and no two of one name
    assert illegal(st, "jen", "build textrinum")
    assert production_level(st["p"]["greg"], DATA) == 2


def test_one_building_of_each_kind_per_round():
    st = construct()
    st, _ = do(st, "greg", "build pistrinum")
    assert "already bought a production" in illegal(st, "greg", "build textrinum").message
    st, _ = do(st, "greg", "build mensae")
    assert illegal(st, "greg", "build horreum")


def test_no_duplicate_names_except_public_and_walls():
    st = construct()
    own(st, "greg", "Pistrinum")
    assert "already own" in illegal(st, "greg", "build pistrinum").message
    st["p"]["greg"]["public"].append("public-24")
    st["publics"].remove("public-24")
    st, _ = do(st, "greg", "build public 3")  # a second public building is fine
    assert st["p"]["greg"]["public"] == ["public-24", "public-21"]


def test_licence_chain_and_skip_when_previous_licence_is_sold_out():
    st = construct()
    assert illegal(st, "greg", "build armorum faber")  # C needs B
    for b, info in DATA["buildings"].items():
        if info["kind"] == "production" and info["licence"] == "B":
            st["gone"][b] = st["supply"][b]
            st["supply"][b] = 0
    st, _ = do(st, "greg", "build armorum faber")  # FAQ: skip the sold-out B licence
    assert "Armorum Faber" in st["p"]["greg"]["buildings"]


def test_production_level_and_draw_table():
    st = construct()
    counts = []
    names = [b for b, i in DATA["buildings"].items() if i["kind"] == "production"]
    for k in range(8):
        counts.append(draw_count(st, "kay") - (3 if st["offices"]["magister"] == "kay" else 0))
        if k < 7:
            st["p"]["kay"]["buildings"].append(names[k])
    assert counts == [1, 2, 2, 3, 4, 4, 5, 5]


def test_draw_example_greg_jen_kay():
    st = construct()
    names = [b for b, i in DATA["buildings"].items() if i["kind"] == "production"]
    st["offices"]["magister"] = None
    st["p"]["greg"]["buildings"] = names[:3]  # four with Ager
    st["p"]["jen"]["buildings"] = names[:5]  # six
    st["p"]["kay"]["buildings"] = names[:7]  # eight
    assert [draw_count(st, n) for n in ("greg", "jen", "kay")] == [3, 4, 5]
    st["offices"]["magister"] = "greg"
    st["p"]["greg"]["posts"] = 2
    st["p"]["greg"]["saved"] = [1]
    st["p"]["greg"]["walls"] = ["draw"]
    assert draw_count(st, "greg") == 3 + 3 + 1 + 1


def test_public_building_example_kay_and_jen():
    st = construct({"magister": "kay", "pretorio": "jen", "comes": "greg"})
    st["p"]["kay"]["gold"] = 40
    st["p"]["jen"]["gold"] = 45
    st, ev = do(st, "kay", "build public 3\ndone")
    assert st["p"]["kay"]["gold"] == 16 and st["p"]["kay"]["fame"] == 3  # the dearer tile, 24
    assert "costs 50" in illegal(st, "jen", "build public 5").message
    st2, _ = do(st, "jen", "build public 4")
    assert st2["p"]["jen"]["gold"] == 9
    st, _ = do(st, "jen", "build public 3")
    assert st["p"]["jen"]["gold"] == 24 and "public-21" in st["p"]["jen"]["public"]


def test_last_public_building_ends_the_game_after_the_round():
    st = construct()
    st["publics"] = ["public-66"]
    st["gone_public"] = 7
    st["p"]["greg"]["gold"] = 70
    st, ev = do(st, "greg", "build public 6")
    assert st["last_public"]
    while st["phase"] != "over":
        for p in GAME.prompts(st)[:1]:
            st, _ = GAME.apply(st, p.player, GAME.default_orders(st, p.player))
    assert st["round"] == 1


def test_walls_only_for_the_praefectus_urbi_one_per_round():
    st = construct({"magister": "greg", "urbi": "jen", "comes": "kay"})
    assert "Praefectus Urbi" in illegal(st, "greg", "build wall guard").message
    st, _ = do(st, "greg", "done")
    st, _ = do(st, "kay", "done")
    st, _ = do(st, "jen", "build wall draw")
    assert illegal(st, "jen", "build wall dock")
    assert st["p"]["jen"]["gold"] == 20 and st["ability"]["urbi"] == "wall"


def test_consul_preemption_example_and_its_limits():
    st = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
    st["supply"]["Metallum"] = 1
    st["gone"]["Metallum"] = 1
    st, ev = do(st, "kay", "build metallum")
    prompt = GAME.prompts(st)[0]
    assert prompt.player == "jen" and prompt.decision == "construct.preempt"
    st, ev = do(st, "jen", "preempt")
    assert "Metallum" in st["p"]["jen"]["buildings"] and st["p"]["jen"]["gold"] == 10
    assert "Metallum" not in st["p"]["kay"]["buildings"]
    # Kay may buy another production building; the Consul is done for the round
    st, ev = do(st, "kay", "build pistrinum")
    assert "Pistrinum" in st["p"]["kay"]["buildings"]
    st, _ = do(st, "kay", "done")
    st, _ = do(st, "greg", "done")
    # the pre-empted building does not count for the Consul's own one-per-kind
    st, _ = do(st, "jen", "build pistrinum")
    assert "Pistrinum" in st["p"]["jen"]["buildings"]


def test_consul_never_preempts_walls_and_pays_full_price():
    st = construct({"urbi": "kay", "comes": "greg", "consul": "jen"})
    st, _ = do(st, "greg", "done")
    st, _ = do(st, "kay", "build wall market")
    assert GAME.prompts(st)[0].player == "kay"  # nobody was asked
    own(st, "kay", "Redemptor", "Metallum")
    give_goods(st, "kay", red=1)
    st["p"]["jen"]["gold"] = 19
    st, _ = do(st, "kay", "build figulina with redemptor")
    # Jen cannot pay Figulina's full 17? she can; but with 19 gold she is asked
    assert GAME.prompts(st)[0].player == "jen"
    st, _ = do(st, "jen", "preempt")
    assert st["p"]["jen"]["gold"] == 2 and st["p"]["kay"]["goods"]["red"] == 1


def test_a_purchase_that_costs_nothing_is_told_as_free():
    """With the Redemptor a 5-gold building costs the buyer nothing: `free of charge`, never `for 0 gold`."""
    st = construct({"urbi": "kay", "comes": "greg", "consul": "jen"})
    st, _ = do(st, "greg", "done")
    own(st, "kay", "Redemptor", "Metallum")
    give_goods(st, "kay", red=1)
    st["p"]["jen"]["gold"] = 0
    st, ev = do(st, "kay", "build taberna with redemptor")
    asked = [str(e.text) for e in ev if e.kind == "build.ask"]
    assert asked == ["kay wants to buy Taberna free of charge unless the Consul jen pre-empts it."]
    assert str(GAME.asked(st, "jen")) == ("kay wants to buy Taberna free of charge; you cannot pre-empt it (that "
                                             "costs 5 gold; you have none): allow")


def test_consul_standing_list_answers_for_him():
    st = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
    st, _ = do(st, "jen", "preempt list Cura, public 4")
    st, _ = do(st, "kay", "build pistrinum")  # not on the list: goes through without asking
    assert "Pistrinum" in st["p"]["kay"]["buildings"]
    st, _ = do(st, "kay", "done")
    st, _ = do(st, "greg", "build cura")
    assert "Cura" in st["p"]["jen"]["buildings"] and "Cura" not in st["p"]["greg"]["buildings"]
    st2 = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
    st2, _ = do(st2, "jen", "preempt never")
    st2, _ = do(st2, "kay", "build cura")
    assert "Cura" in st2["p"]["kay"]["buildings"]


def test_consul_is_asked_whatever_his_gold_and_told_alone_that_he_cannot_pay():
    """His gold is secret (FAQ): asking him only when he can pay would tell the table."""
    for gold in (0, 40):
        st = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
        st["p"]["jen"]["gold"] = gold
        st, ev = do(st, "kay", "build metallum")
        assert [(p.player, p.decision) for p in GAME.prompts(st)] == [("jen", "construct.preempt")]
        assert [e.kind for e in ev if e.to is None] == ["build.ask"]
        menu = [GAME.format(o) for o in GAME.legal_orders(st, "jen")]
        assert menu == (["allow"] if gold == 0 else ["allow", "preempt"])
        # the question offers only what the form does: no pre-emption he cannot pay
        asked = str(GAME.asked(st, "jen"))  # his own reading: his gold is secret from the table
        assert str(GAME.prompts(st)[0].text).startswith("kay wants to buy Metallum for 20 gold: pre-empt it for 20")
        if gold == 0:
            assert asked == ("kay wants to buy Metallum for 20 gold; you cannot pre-empt it (that costs 20 gold; you "
                             "have none): allow") and "pre-empt it for" not in asked
        else:
            assert asked.startswith("kay wants to buy Metallum for 20 gold: pre-empt it for 20 gold yourself")
        if gold == 0:
            err = illegal(st, "jen", "preempt")
            assert "costs 20 gold; you have none" in err.message and err.suggestion == "allow"
            st, _ = do(st, "jen", "allow")
            assert "Metallum" in st["p"]["kay"]["buildings"]


def test_with_public_gold_the_consul_who_cannot_pay_is_not_asked():
    st = construct({"magister": "kay", "comes": "greg", "consul": "jen"}, public_gold=True)
    st["p"]["jen"]["gold"] = 0
    st, _ = do(st, "kay", "build metallum")
    assert GAME.prompts(st)[0].player == "kay" and "Metallum" in st["p"]["kay"]["buildings"]


def test_a_standing_list_lets_go_what_the_consul_cannot_pay_and_tells_him_alone():
    st = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
    st["p"]["jen"]["gold"] = 3
    st, _ = do(st, "jen", "preempt list Metallum")
    st, ev = do(st, "kay", "build metallum")
    assert "Metallum" in st["p"]["kay"]["buildings"] and st["p"]["jen"]["gold"] == 3
    note = [e for e in ev if e.kind == "preempt.unpaid"]
    assert len(note) == 1 and note[0].to == ("jen",) and "costs 20 gold; you have 3" in note[0].text
    # what the others see is the same as after a list without Metallum
    st2 = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
    st2, _ = do(st2, "jen", "preempt never")
    st2, ev2 = do(st2, "kay", "build metallum")
    assert [e.text for e in ev if e.visible_to("kay")] == [e.text for e in ev2 if e.visible_to("kay")]


def test_market_examples_at_the_forum():
    st = construct()
    st, _ = do(st, "greg", "buy 1 blue")
    assert st["p"]["greg"]["gold"] == 27
    give_goods(st, "greg", green=1)  # three green with the Ager's two
    assert "at most 2" in illegal(st, "greg", "sell 3 green").message
    st, _ = do(st, "greg", "sell 2 green")
    assert st["p"]["greg"]["gold"] == 29
    assert illegal(st, "greg", "sell 1 green")
    assert illegal(st, "greg", "sell 1 blue")  # bought blue this round
    st, _ = do(st, "greg", "buy 1 blue")  # one more is allowed
    assert illegal(st, "greg", "buy 1 black")  # black is not traded here
    assert illegal(st, "greg", "buy 1 yellow\nbuy 1 yellow")


def test_cannot_buy_what_you_produce_without_taberna_and_faq_new_building():
    st = construct()
    assert "Taberna" in illegal(st, "greg", "buy 1 green").message
    st, _ = do(st, "greg", "build textrinum")  # bought this round: blue may still be bought
    st, _ = do(st, "greg", "buy 1 blue")
    st2 = construct()
    own(st2, "greg", "Taberna")
    st2, _ = do(st2, "greg", "buy 1 green")
    assert "bought green" in illegal(st2, "greg", "sell 1 green").message  # FAQ: never both ways


def test_mensae_and_market_wall():
    st = construct()
    own(st, "greg", "Mensae")
    st["p"]["greg"]["walls"].append("market")
    st["walls"].remove("market")
    st, _ = do(st, "greg", "sell 2 green")
    assert st["p"]["greg"]["gold"] == 34  # (1 + 1) * 2
    st, _ = do(st, "greg", "buy 1 blue")  # 3 - 2 = 1
    assert st["p"]["greg"]["gold"] == 33
    st, _ = do(st, "greg", "buy 1 yellow")  # 7 - 2 = 5
    assert st["p"]["greg"]["gold"] == 28


def test_caupona_example_and_commercial_rules():
    st = construct()
    own(st, "greg", "Caupona")
    st, _ = do(st, "greg", "use caupona")
    assert st["p"]["greg"]["gold"] == 34 and st["p"]["greg"]["fame"] == 1
    assert st["p"]["greg"]["goods"]["green"] == 0
    give_goods(st, "greg", green=2)
    assert "already used" in illegal(st, "greg", "use caupona").message
    st2 = construct()
    own(st2, "greg", "Emporium")
    give_goods(st2, "greg", red=2)
    assert "cannot produce" in illegal(st2, "greg", "use emporium").message
    st3 = construct()
    st3, _ = do(st3, "greg", "build caupona\nuse caupona")  # usable the round it is built
    assert st3["p"]["greg"]["fame"] == 1


def test_redemptor_discount():
    st = construct()
    own(st, "greg", "Redemptor")
    give_goods(st, "greg", red=1)
    assert "produce industrial" in illegal(st, "greg", "build cura with redemptor").message
    own(st, "greg", "Metallum")
    st, _ = do(st, "greg", "build cura with redemptor")
    assert st["p"]["greg"]["gold"] == 30 - 11 and st["p"]["greg"]["goods"]["red"] == 0


def test_exchange_and_trade_walls():
    st = construct()
    st["p"]["greg"]["walls"] += ["exchange", "trade"]
    st["walls"] = [w for w in st["walls"] if w not in ("exchange", "trade")]
    give_goods(st, "greg", blue=2)
    assert "cannot produce" in illegal(st, "greg", "exchange blue for red").message
    st, _ = do(st, "greg", "exchange blue for green")
    assert illegal(st, "greg", "exchange blue for green")
    st, _ = do(st, "greg", "trade green green blue")
    assert st["p"]["greg"]["gold"] == 40 and sum(st["p"]["greg"]["goods"].values()) == 1


def test_production_and_new_buildings_produce_next_round():
    st = new(("a", "b"))
    assert st["p"]["a"]["goods"]["green"] == 0
    st = construct(players=("a", "b"), offices={"magister": "a", "pretorio": "b"})
    assert st["p"]["a"]["goods"]["green"] == 2  # the Ager's two green
    st, ev = do(st, "a", "build textrinum\ndone")
    assert st["p"]["a"]["goods"]["blue"] == 0
    production.produce(st, [])
    assert st["p"]["a"]["goods"]["blue"] == 2 and st["p"]["a"]["goods"]["green"] == 4


def test_faq_able_to_produce_means_owning_a_building_of_that_type():
    st = construct()
    own(st, "greg", "Metallum", "Taberna", "Emporium")
    st, _ = do(st, "greg", "buy 2 red")  # bought, not produced: still fine for the Emporium
    st, _ = do(st, "greg", "use emporium")
    assert st["p"]["greg"]["gold"] == 30 - 12 + 7 and st["p"]["greg"]["fame"] == 1


def test_rest_of_a_mail_waits_for_the_consul():
    st = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
    st, ev = do(st, "kay", "build cura\nbuild mensae\ndone")
    assert [e.kind for e in ev if e.kind == "queue.wait"] and st["construct"]["queue"]
    assert "Mensae" not in st["p"]["kay"]["buildings"]
    st, ev = do(st, "jen", "preempt")
    assert "Cura" in st["p"]["jen"]["buildings"] and "Mensae" in st["p"]["kay"]["buildings"]
    assert GAME.prompts(st)[0].player == "greg"  # kay's queued done ended her turn
    st2 = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
    st2, _ = do(st2, "kay", "build cura\nbuild metallum\nbuild mensae")
    st2, ev = do(st2, "jen", "allow")
    # Cura went through; the second production building of the round is refused and reported
    assert "Cura" in st2["p"]["kay"]["buildings"] and "Mensae" not in st2["p"]["kay"]["buildings"]
    err = [e for e in ev if e.kind == "queue.error"]
    assert err and err[0].to == ("kay",)
    assert GAME.prompts(st2)[0].player == "kay"
