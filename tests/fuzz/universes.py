"""Candidate orders for a player at a position: every kind of each game with arguments taken
broadly from the component data and the position (all buildings, goods, docks, cards, ship
numbers, amounts on both sides of every limit), written independently of the engines' menu
code, so that a menu that forgets a family or a value is caught."""

from __future__ import annotations

import random
from itertools import combinations, permutations, product
from typing import Any

from referee.contract import Order

State = dict[str, Any]


def constantinopolis(st: State, player: str, rng: random.Random) -> list[Order]:
    from games.constantinopolis.components import GOODS, OFFICES, SIZES, WALL_ABILITIES, for_state

    data = for_state(st)
    p = st["p"][player]
    gold = p["gold"]
    out = [Order(k) for k in ("stay", "pass", "done", "allow", "post", "preempt", "preempt-ask")]
    out.append(Order("take", {"office": "free"}))
    for office in OFFICES:
        out.append(Order("take", {"office": office}))
        out += [Order("bid", {"office": office, "limit": limit}) for limit in (1, gold, gold + 3)]
        for bid in range(1, gold + 3):
            out.append(Order("bid", {"office": office, "gold": bid}))
            for limit in (bid - 1, bid, bid + 3):
                if limit >= 1:
                    out.append(Order("bid", {"office": office, "gold": bid, "limit": limit}))
    out += [Order("raise", {"gold": n}) for n in range(1, gold + 3)]
    out += [Order("defend", {"gold": n}) for n in (0, 1, 5, 40)]
    out += [Order(k, {"good": g}) for k in ("good", "donate") for g in GOODS]
    targets = ([{"building": b} for b in data["buildings"]] + [{"public": f} for f in range(1, 8)]
               + [{"wall": w} for w in WALL_ABILITIES])
    out += [Order("build", dict(t, **extra)) for t in targets for extra in ({}, {"redemptor": True})]
    out += [Order(k, {"good": g, "count": n}) for k in ("buy", "sell", "discard") for g in GOODS for n in range(1, 8)]
    out += [Order("use", {"building": b}) for b in data["buildings"]]
    out += [Order("exchange", {"give": a, "get": b}) for a in GOODS for b in GOODS]
    out += [Order("trade", {"goods": sorted(c, key=GOODS.index)})
            for c in {tuple(sorted(x)) for x in product(GOODS, repeat=3)}]
    keys = list(data["buildings"])[:6] + ["public 3", "public 5"]
    out += [Order("preempt-list", {"buildings": []}), Order("preempt-list", {"buildings": rng.sample(keys, 2)})]
    cards = list(dict.fromkeys(p["hand"] + p["saved"] + [c for s in p["ships"] for c in s["cargo"]]
                               + [rng.randint(1, len(data["contracts"]))]))
    out += [Order("redraw", {"contracts": list(c)}) for k in (1, 2) for c in permutations(cards[:6], k)]
    out += [Order("load", {"contract": c, "ship": s}) for c in cards for s in range(1, p["next_ship"] + 1)]
    out += [Order(k, {"contract": c}) for k in ("unload", "save", "free") for c in cards]
    out += [Order("ship", {"size": s}) for s in SIZES]
    held = [f"1 {g}" for g in GOODS if p["goods"][g]][:2] + [f"contract {c}" for c in p["hand"][:1]]
    for other in st["players"]:
        for give in ([], ["1 gold"], [f"{max(gold, 1)} gold"], [f"{gold + 1} gold"], *([h] for h in held)):
            for get in ([], ["1 green"]):
                out.append(Order("offer", {"to": other, "give": give, "get": get}))
    offers = (st.get("accept") or {}).get("next", 1)
    out += [Order(k, {"offer": i}) for k in ("accept", "reject") for i in range(1, offers + 1)]
    for counts in product(*(range(min(p["goods"][g], 6) + 1) for g in GOODS)):
        if sum(counts) <= 6:
            out.append(Order("keep", {"goods": [g for g, n in zip(GOODS, counts) for _ in range(n)]}))
    return out


def porto_carthago(st: State, player: str, rng: random.Random) -> list[Order]:
    comp = st["comp"]
    goods, docks = list(comp["goods"]), list(comp["dock_names"])
    seat = st["players"].index(player)
    out = [Order(k) for k in ("talents", "refill", "pass", "done", "expand", "palace", "accept", "decline")]
    out += [Order("buy", {"good": g}) for g in goods]
    for slot in range(1, 7):
        out += [Order("captain", {"slot": slot}), Order("side", {"slot": slot})]
        out += [Order("merchant", {"slot": slot, "good": g}) for g in goods]
        for dl, dt in product(range(-4, 7), range(-4, 7)):
            out.append(Order("aristocrat", {"slot": slot, **({"lighthouse": dl} if dl else {}),
                                            **({"temple": dt} if dt else {})}))
    for slot in range(1, 7):
        if st["slots"][slot - 1] != "loadmaster" and slot != 1:
            continue  # every loadmaster slot, and one other to see it refused
        for d in docks:
            out += [Order("loadmaster", {"slot": slot, "mode": m, "dock": d}) for m in ("occupy", "dissolve")]
            out += [Order("loadmaster", {"slot": slot, "mode": "switch", "dock": d, "to": t}) for t in docks]
    sources = [("storage", g) for g in goods] + [(d, None) for d in docks]
    for slot in range(1, 7):
        if st["slots"][slot - 1] != "porter" and slot != 1:
            continue
        for (src, g), dst in product(sources, docks + ["storage", "charter"]):
            args = {"slot": slot, "from": src, "to": dst, **({"good": g} if g else {})}
            out.append(Order("porter", args))
    cards = list(dict.fromkeys(st["held"][seat] + st["row1"] + [rng.choice(comp["card_order"])]))
    players = st["players"]
    for cid in cards:
        out.append(Order("use", {"card": cid}))
        out += [Order("use", {"card": cid, "dock": d}) for d in docks]
        out += [Order("use", {"card": cid, "ship": s}) for s in cards]
        if cid not in st["held"][seat]:
            continue
        for k in (1, 2, 3):  # servant moves of one to three players, up to one too many in all
            for who in combinations(players, k):
                for nets in product([n for n in range(-3, 4) if n] if k < 3 else [-1, 1], repeat=k):
                    if sum(abs(n) for n in nets) <= 4:
                        out.append(Order("use", {"card": cid, "moves": [[q, n] for q, n in zip(who, nets)]}))
    for item in st["pending"][:1]:
        if item["t"] == "arrange":
            out += [Order("arrange", {"cards": list(c)}) for c in permutations(item["cards"])]
            out.append(Order("arrange", {"cards": list(item["cards"][:-1])}))
    out += [Order("intrigue", {"count": n}) for n in range(0, 5)]
    for ship in cards:
        out += [Order("dock", {"ship": ship, "at": at}) for at in (None, "I", "II")]
        out.append(Order("reject", {"ship": ship}))
    out += [Order("occupy", {"dock": d}) for d in docks]
    out += [Order("occupy", {"dock": d, "good": g}) for d in docks for g in goods]
    return out


UNIVERSES = {"constantinopolis": constantinopolis, "porto-carthago": porto_carthago}
