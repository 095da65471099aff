"""The automatic phases (ships, production, draw), donations, the end of round, and scoring."""

from __future__ import annotations

from typing import Any

from referee.contract import Event, Order, Prompt
from referee.rng import Rng

from . import auction
from .components import GOODS, OFFICES
from .state import (GOOD_VALUE, bump, can_produce, comp, contract, draw_cards, gain_goods, goods_total, illegal, level,
                    counted, lose_goods, market_card, menu_order, new_round_flags, pl, prompt, w, wp)


def move_ships(st: dict[str, Any], ev: list[Event], *, final: bool = False) -> None:
    """Each ship at sea moves one space; arrivals pay. At the end every ship arrives."""
    data = comp(st)
    for n in st["order"]:
        if all(ship["at"] == 0 for ship in st["p"][n]["ships"]):
            continue
        p = wp(st, n)
        for ship in p["ships"]:
            if ship["at"] == 0:
                continue
            ship["at"] = 0 if final else ship["at"] - 1
            if ship["at"] == 0:
                gold = fame = 0
                for c in ship["cargo"]:
                    card = contract(data, c)
                    gold += card["gold"]
                    fame += card["fame"]
                    if card["cargo"] != "passenger":
                        w(st, "flow")[card["cargo"]] -= card["amount"]
                    w(st, "discard").append(c)
                p["gold"] += gold
                p["fame"] += fame
                p["score"]["ships_gold"] += gold if final else 0
                p["score"]["ships_fame"] += fame if final else 0
                ev.append(Event("ship.arrive", f"{n}'s {ship['size']} ship {ship['id']} arrives with "
                                f"{counted(len(ship['cargo']), 'contract')}: {gold} gold and {fame} fame.",
                                {"player": n, "ship": ship["id"], "gold": gold, "fame": fame, "contracts": list(ship["cargo"])}))
                ship["cargo"] = []


def produce(st: dict[str, Any], ev: list[Event]) -> None:
    data = comp(st)
    for n in st["order"]:
        p = wp(st, n)
        got = dict(data["ager"])
        for b in p["buildings"]:
            info = data["buildings"][b]
            if info["kind"] == "production":
                for g, k in info["output"].items():
                    got[g] = got.get(g, 0) + k
        for g, k in got.items():
            gain_goods(st, p, g, k)
        text = ", ".join(f"{k} {g}" for g, k in sorted(got.items(), key=lambda x: GOOD_VALUE[x[0]]))
        ev.append(Event("produce", f"{n} produces {text}.", {"player": n, "goods": got}))


def draw_count(st: dict[str, Any], n: str) -> int:
    data = comp(st)
    p = pl(st, n)
    count = data["draw_by_level"][min(level(p, data), 7) - 1]
    count += p["posts"] - len(p["saved"])
    if st["offices"]["magister"] == n:
        count += data["magister_draw"]
    if "draw" in p["walls"]:
        count += 1
    return count


def draw_phase(st: dict[str, Any], ev: list[Event]) -> None:
    for n in st["order"]:
        new = draw_cards(st, draw_count(st, n))
        wp(st, n)["hand"].extend(new)
        ev.append(Event("draw", f"{n} draws {counted(len(new), 'contract')}: {', '.join(map(str, new)) or 'none'}.",
                        {"player": n, "drawn": new}))


# ----------------------------------------------------------------- donations


def donations_for(st: dict[str, Any], n: str) -> list[dict[str, Any]]:
    p = pl(st, n)
    can = can_produce(st, p)
    return [d for d in market_card(st)["donations"] if d["good"] in can and p["goods"][d["good"]] >= d["count"]]


def start_donate(st: dict[str, Any]) -> None:
    st["phase"] = "donate"
    st["donate"] = [n for n in st["order"] if not st["p"][n]["dropped"] and donations_for(st, n)]
    bump(st)


def donate_prompts(st: dict[str, Any]) -> list[Prompt]:
    return [prompt(n, "donate", True, ("donate", "pass"), "donate goods shown on the market card, or pass")
            for n in st["donate"]]


def donate_check(st: dict[str, Any], player: str, o: Order) -> None:
    if player not in st["donate"]:
        raise illegal("you have nothing to decide in the donation phase")
    if o.kind == "pass":
        return
    if o.kind != "donate":
        raise illegal("donate <good> or pass")
    card = market_card(st)
    entry = next((d for d in card["donations"] if d["good"] == o.args["good"]), None)
    if entry is None:
        raise illegal(f"the current market takes no {o.args['good']} donation")
    if o.args["good"] not in can_produce(st, pl(st, player)):
        raise illegal(f"you cannot produce {o.args['good']}")
    if pl(st, player)["goods"][entry["good"]] < entry["count"]:
        raise illegal(f"a donation of {entry['good']} needs {entry['count']} goods")


def donate_do(st: dict[str, Any], player: str, o: Order, ev: list[Event]) -> None:
    donate_check(st, player, o)
    w(st, "donate").remove(player)
    if o.kind == "donate":
        entry = next(d for d in market_card(st)["donations"] if d["good"] == o.args["good"])
        p = wp(st, player)
        lose_goods(st, p, entry["good"], entry["count"])
        p["fame"] += entry["fame"]
        p["r"]["donated"] = True
        ev.append(Event("donate", f"{player} donates {entry['count']} {entry['good']} for {entry['fame']} fame.",
                        {"player": player, "good": entry["good"], "fame": entry["fame"]}))


def donate_legal(st: dict[str, Any], player: str) -> list[Order]:
    if player not in st["donate"]:
        return []
    return [menu_order("pass")] + [menu_order("donate", ("good", d["good"])) for d in donations_for(st, player)]


# ----------------------------------------------------------------- end of round


def store_limit(st: dict[str, Any], p: dict[str, Any]) -> int:
    data = comp(st)
    return data["horreum_limit"] if "Horreum" in p["buildings"] else data["store_limit"]


def end_of_round(st: dict[str, Any], ev: list[Event]) -> None:
    """Market change, then the store step (or the end of the game)."""
    if st["last_public"] or not st["market"]["future"]:
        finish(st, ev)
        return
    m = w(st, "market")
    m["current"].append(m["future"].pop())
    names = comp(st)["markets"]
    ev.append(Event("market", f"The market moves to {names[m['current'][-1]]['name']}.", {"market": m["current"][-1]}))
    if not m["future"]:
        m["empties"] += 1
        if m["empties"] == 1:
            rng = Rng.from_json(st["rng"])
            m["future"] = rng.shuffled(m["current"][:-1])
            st["rng"] = rng.to_json()
            m["current"] = m["current"][-1:]
            m["hidden"] = st["options"]["market_reshuffle"] == "facedown"
            ev.append(Event("market.reshuffle", "The future market pile is empty: the older market cards are shuffled into a new pile"
                            + (" (face down)." if m["hidden"] else "."), {}))
        else:
            ev.append(Event("market.last", "The future market pile is empty for the second time: the next round is the last.", {}))
    st["phase"] = "store"
    st["store"] = [n for n in st["order"] if not st["p"][n]["dropped"] and goods_total(pl(st, n)) > store_limit(st, pl(st, n))]
    for n in st["order"]:
        if n not in st["store"] and st["p"][n]["dropped"]:
            p = wp(st, n)
            for g in GOODS:
                if p["goods"][g]:
                    lose_goods(st, p, g, p["goods"][g])
    bump(st)


def store_prompts(st: dict[str, Any]) -> list[Prompt]:
    return [prompt(n, "store", True, ("keep",), f"keep up to {store_limit(st, pl(st, n))} goods; the rest are discarded")
            for n in st["store"]]


def store_check(st: dict[str, Any], player: str, o: Order) -> None:
    if player not in st["store"]:
        raise illegal("you have no goods to choose between")
    if o.kind != "keep":
        raise illegal("keep <goods> (or keep nothing)")
    p = pl(st, player)
    keep = o.args["goods"]
    if len(keep) > store_limit(st, p):
        raise illegal(f"you may keep at most {store_limit(st, p)} goods")
    for g in GOODS:
        if keep.count(g) > p["goods"][g]:
            raise illegal(f"you have only {p['goods'][g]} {g}")


def store_do(st: dict[str, Any], player: str, o: Order, ev: list[Event]) -> None:
    store_check(st, player, o)
    p = wp(st, player)
    keep = o.args["goods"]
    lost = 0
    for g in GOODS:
        drop = p["goods"][g] - keep.count(g)
        lost += drop
        lose_goods(st, p, g, drop)
    w(st, "store").remove(player)
    ev.append(Event("store", f"{player} keeps {counted(len(keep), 'good')} and discards {lost}.", {"player": player, "kept": list(keep)}))


def best_keep(st: dict[str, Any], player: str) -> list[str]:
    p = pl(st, player)
    bag = [g for g in reversed(GOODS) for _ in range(p["goods"][g])]
    return sorted(bag[:store_limit(st, p)], key=GOOD_VALUE.get)


def store_legal(st: dict[str, Any], player: str) -> list[Order]:
    if player not in st["store"]:
        return []
    p = pl(st, player)
    out = [Order("keep", {"goods": best_keep(st, player)})]
    cheap = sorted([g for g in GOODS for _ in range(p["goods"][g])], key=GOOD_VALUE.get)[:store_limit(st, p)]
    if cheap != out[0].args["goods"]:
        out.append(Order("keep", {"goods": sorted(cheap, key=GOOD_VALUE.get)}))
    out.append(Order("keep", {"goods": []}))
    return out


def new_round(st: dict[str, Any], ev: list[Event]) -> None:
    st["round"] += 1
    st["store"] = None
    st["donate"] = None
    _remove_dropped(st, ev)
    for n in st["players"]:
        p = wp(st, n)
        p["r"] = new_round_flags()
        p["new"] = []
    st["ability"] = {"consul": None, "urbi": None}
    st["preempt"] = None
    st["last_auction_discard"] = 0
    ev.append(Event("round", f"Round {st['round']} begins.", {"round": st["round"]}))
    auction.start(st)


def _remove_dropped(st: dict[str, Any], ev: list[Event]) -> None:
    """Italian variant: a leaver's pieces go out of the game; the supply shrinks to fit."""
    gone = [n for n in st["players"] if st["p"][n]["dropped"] and not st["p"][n]["removed"]]
    if not gone:
        return
    data = comp(st)
    for n in gone:
        p = wp(st, n)
        for b in p["buildings"]:
            w(st, "gone")[b] = st["gone"].get(b, 0) + 1
        st["gone_public"] += len(p["public"])
        st["gone_walls"] += len(p["walls"])
        p["buildings"], p["public"], p["walls"], p["new"] = [], [], [], []
        for ship in p["ships"]:
            for c in ship["cargo"]:
                card = contract(data, c)
                if card["cargo"] != "passenger":
                    w(st, "flow")[card["cargo"]] -= card["amount"]
                w(st, "discard").append(c)
        p["ships"] = []
        w(st, "discard").extend(p["hand"] + p["saved"])
        p["hand"], p["saved"] = [], []
        for g in GOODS:
            if p["goods"][g]:
                lose_goods(st, p, g, p["goods"][g])
        for o in OFFICES:
            if st["offices"][o] == n:
                w(st, "offices")[o] = None
        p["removed"] = True
        ev.append(Event("dropout", f"{n}'s buildings, ships and markers leave the game.", {"player": n}))
    left = len([n for n in st["players"] if not st["p"][n]["dropped"]])
    cap = 1 if left <= 2 else 2
    for b, info in data["buildings"].items():
        if st["supply"].get(b, 0) > cap:
            w(st, "gone")[b] = st["gone"].get(b, 0) + st["supply"][b] - cap
            w(st, "supply")[b] = cap
    # players without an office after the removal take the lowest vacant ones, in turn order
    for n in st["order"]:
        if not st["p"][n]["dropped"] and n not in st["offices"].values():
            w(st, "offices")[next(o for o in OFFICES if st["offices"][o] is None)] = n


def finish(st: dict[str, Any], ev: list[Event]) -> None:
    """Final scoring: ships at sea arrive, walls, then one fame per full 15 gold."""
    data = comp(st)
    move_ships(st, ev, final=True)
    for n in st["players"]:
        p = wp(st, n)
        walls = len(p["walls"])
        wf = data["wall_fame"][walls - 1] if walls else 0
        p["fame"] += wf
        gf = p["gold"] // data["fame_per_gold"]
        p["fame"] += gf
        p["score"]["walls_fame"] = wf
        p["score"]["gold_fame"] = gf
        ev.append(Event("score", f"{n}: {wf} fame for walls and {gf} for gold; {p['fame']} fame in all.",
                        {"player": n, "fame": p["fame"], "gold": p["gold"]}))
    st["phase"] = "over"
    bump(st)
