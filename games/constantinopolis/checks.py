"""Invariants of a sound position, checked after every step of the random playthroughs."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .components import GOODS, SIZES
from .state import comp, contract


def check(st: dict[str, Any]) -> list[str]:
    data = comp(st)
    out: list[str] = []
    for n in st["players"]:
        p = st["p"][n]
        if p["gold"] < 0:
            out.append(f"{n} has negative gold {p['gold']}")
        for g in GOODS:
            if p["goods"][g] < 0:
                out.append(f"{n} has negative {g}")
        if len(set(p["buildings"])) != len(p["buildings"]):
            out.append(f"{n} owns two buildings with the same name")
        for s in p["ships"]:
            cargo = sum(contract(data, c)["amount"] for c in s["cargo"])
            if cargo > data["ships"][s["size"]]["capacity"]:
                out.append(f"{n}'s ship {s['id']} is overloaded")
        if p["posts"] - len(p["saved"]) < 0:
            out.append(f"{n} saves more contracts than trading posts")
    # goods: what is in play equals what was created minus what was destroyed
    in_play = Counter()
    for n in st["players"]:
        p = st["p"][n]
        for g in GOODS:
            in_play[g] += p["goods"][g]
        for s in p["ships"]:
            for c in s["cargo"]:
                card = contract(data, c)
                if card["cargo"] != "passenger":
                    in_play[card["cargo"]] += card["amount"]
    for g in GOODS:
        if in_play[g] != st["flow"][g]:
            out.append(f"{g} goods not conserved: {in_play[g]} in play, {st['flow'][g]} accounted")
    # contract cards: each exactly once
    cards = list(st["deck"]) + list(st["discard"])
    for n in st["players"]:
        p = st["p"][n]
        cards += p["hand"] + p["saved"]
        for s in p["ships"]:
            cards += s["cargo"]
    if sorted(cards) != list(range(1, len(data["contracts"]) + 1)):
        dup = [c for c, k in Counter(cards).items() if k > 1]
        out.append(f"contract cards not conserved: {len(cards)} found, duplicates {dup[:5]}")
    # buildings owned never exceed the tiles put in play
    owned = Counter(b for n in st["players"] for b in st["p"][n]["buildings"])
    n = len(st["players"])
    for b, info in data["buildings"].items():
        tiles = info["tiles"] if n == 5 else min(info["tiles"], 1 if n == 2 else 2)
        if st["supply"][b] < 0:
            out.append(f"negative supply of {b}")
        if owned[b] + st["supply"][b] + st["gone"].get(b, 0) != tiles:
            out.append(f"{b}: {owned[b]} owned + {st['supply'][b]} in supply != {tiles} tiles")
    pubs = sum(len(st["p"][n]["public"]) for n in st["players"])
    if pubs + len(st["publics"]) + st["gone_public"] != len(data["public"]):
        out.append("public building tiles not conserved")
    walls = sum(len(st["p"][n]["walls"]) for n in st["players"])
    if walls + len(st["walls"]) + st["gone_walls"] != len(data["walls"]):
        out.append("wall segments not conserved")
    for size in SIZES:
        mine = sum(1 for n in st["players"] for s in st["p"][n]["ships"] if s["size"] == size)
        if st["ships"][size] < 0 or mine + st["ships"][size] > data["ships"][size]["count"]:
            out.append(f"{size} ships: {mine} owned + {st['ships'][size]} in supply exceed the box")
    holders = [h for h in st["offices"].values() if h is not None]
    if len(set(holders)) != len(holders):
        out.append("a player holds two offices")
    if st["phase"] not in ("auction",):
        for n in st["players"]:
            if not st["p"][n]["dropped"] and n not in holders:
                out.append(f"{n} holds no office after the auction")
    return out
