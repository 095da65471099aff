"""Phase 4: buildings in turn order, the Consul's pre-emption, the Praefectus Urbi's walls.

The Consul is asked live about each purchase he could pre-empt, unless he has given a
standing list (`preempt list ...`, `preempt never`): then the engine answers for him.
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event, Order, OrderError, Prompt

from . import trade
from .components import LICENCES, tables
from .state import bump, can_produce, comp, illegal, lose_goods, menu_order, pl, prompt, w, wp


def start(st: dict[str, Any]) -> None:
    st["phase"] = "construct"
    st["construct"] = {"turn": 0, "pending": None, "queue": []}
    bump(st)


def kind(data: dict[str, Any], g: dict[str, Any]) -> str:
    if "public" in g:
        return "public"
    if "wall" in g:
        return "wall"
    info = data["buildings"].get(g.get("building", ""))
    return info["kind"] if info else "?"


def key(g: dict[str, Any]) -> str:
    """How a building is named in the Consul's standing list."""
    if "public" in g:
        return f"public {g['public']}"
    if "wall" in g:
        return f"wall {g['wall']}"
    return g["building"]


def public_tile(st: dict[str, Any], fame: int) -> dict[str, Any] | None:
    """The dearer tile of the pair while it is there, else the cheaper one."""
    left = st["publics"]
    return next((t for t in tables(comp(st)).public_by_fame.get(fame, ()) if t["id"] in left), None)


def licence_ok(st: dict[str, Any], p: dict[str, Any], name: str) -> bool:
    data = comp(st)
    i = LICENCES.index(data["buildings"][name]["licence"])
    if i == 0:
        return True
    t = tables(data)
    owned = {"A"} | {t.licence_of[b] for b in p["buildings"] if b in t.licence_of}
    supply = st["supply"]
    while i > 0:
        prev = LICENCES[i - 1]
        if prev in owned:
            return True
        if sum(supply[b] for b in t.by_licence[prev]) > 0:
            return False
        i -= 1
    return True


def cost_of(st: dict[str, Any], g: dict[str, Any]) -> int:
    data = comp(st)
    if "public" in g:
        tile = public_tile(st, g["public"])
        return tile["cost"] if tile else 0
    if "wall" in g:
        return tables(data).wall_cost[g["wall"]]
    return data["buildings"][g["building"]]["cost"]


def check_build(st: dict[str, Any], player: str, g: dict[str, Any], *, preempt: bool = False,
                public: bool = False) -> None:
    """IllegalOrder unless `player` may buy `g` now. With `public`, the buyer's gold is left
    out unless the public-gold option makes it open: what decides whether the Consul is asked
    must be what every player can see."""
    data = comp(st)
    p = pl(st, player)
    k = kind(data, g)
    if not preempt and k in p["r"]["built"]:
        raise illegal(f"you already bought a {k} building this round")
    if k == "wall":
        if preempt:
            raise illegal("the Consul never pre-empts a wall segment")
        if st["offices"]["urbi"] != player:
            raise illegal("only the Praefectus Urbi builds wall segments")
        if st["ability"]["urbi"] is not None:
            raise illegal("the Praefectus Urbi's ability was already used this round")
        if g["wall"] not in st["walls"]:
            raise illegal(f"the {g['wall']} wall segment is already built", "choose another segment")
    elif k == "public":
        if public_tile(st, g["public"]) is None:
            raise illegal(f"no public building worth {g['public']} fame is left")
    else:
        name = g["building"]
        if st["supply"].get(name, 0) <= 0:
            raise illegal(f"no {name} is left in the supply")
        if name in p["buildings"]:
            raise illegal(f"you already own a {name}")
        if k == "production" and not licence_ok(st, p, name):
            lic = data["buildings"][name]["licence"]
            raise illegal(f"{name} needs a building of licence {LICENCES[LICENCES.index(lic) - 1]} first")
    cost = cost_of(st, g)
    if g.get("redemptor"):
        if preempt:
            raise illegal("a pre-emption pays the full price")
        if "Redemptor" not in p["buildings"]:
            raise illegal("you do not own the Redemptor")
        if p["r"]["redemptor"]:
            raise illegal("the Redemptor was already used this round")
        if "red" not in can_produce(st, p):
            raise illegal("the Redemptor needs you to produce industrial (red) goods")
        if p["goods"]["red"] < 1:
            raise illegal("the Redemptor needs one red good to discard")
        cost = max(0, cost - 5)
    if public and not st["options"]["public_gold"]:
        return
    if cost > p["gold"]:
        raise illegal(f"that costs {cost} gold; you have {p['gold']}")


def can_preempt(st: dict[str, Any], buyer: str, g: dict[str, Any]) -> str | None:
    """The Consul, when the open facts leave him a pre-emption of this purchase. His gold is
    secret (FAQ), so it is not looked at: were he asked only when he could pay, every player
    would learn whether he can. Whether he can pay is answered to him alone."""
    consul = st["offices"]["consul"]
    if consul is None or consul == buyer or st["p"][consul]["dropped"] or st["ability"]["consul"] is not None:
        return None
    if "wall" in g:
        return None
    try:
        check_build(st, consul, _plain(g), preempt=True, public=True)
    except OrderError:
        return None
    return consul


def _plain(g: dict[str, Any]) -> dict[str, Any]:
    """A purchase as the Consul would make it: without the buyer's Redemptor."""
    return {k: v for k, v in g.items() if k != "redemptor"}


def _listed_and_payable(st: dict[str, Any], consul: str, g: dict[str, Any], ev: list[Event]) -> bool:
    """Whether the Consul's standing list pre-empts this purchase. A listed building he cannot
    pay for is let go, as if he had answered ALLOW, and he alone is told why."""
    if st["preempt"] is None or key(g) not in st["preempt"]:
        return False
    try:
        check_build(st, consul, _plain(g), preempt=True)
    except OrderError as e:
        ev.append(Event("preempt.unpaid", f"Your standing list names {key(g)}, but you could not pre-empt it "
                        f"({e.message}); it went to the buyer.", {"building": key(g)}, to=(consul,)))
        return False
    return True


def execute(st: dict[str, Any], player: str, g: dict[str, Any], ev: list[Event], *, preempt: bool = False) -> None:
    data = comp(st)
    p = wp(st, player)
    k = kind(data, g)
    cost = cost_of(st, g)
    if g.get("redemptor") and not preempt:
        lose_goods(st, p, "red", 1)
        p["r"]["redemptor"] = True
        cost = max(0, cost - 5)
    p["gold"] -= cost
    how = "pre-empts and buys" if preempt else "buys"
    if k == "public":
        tile = public_tile(st, g["public"])
        w(st, "publics").remove(tile["id"])
        p["public"].append(tile["id"])
        p["fame"] += tile["fame"]
        text = f"{player} {how} the public building {tile['name']} ({tile['cost']}) for {cost} gold and gains {tile['fame']} fame."
        if not st["publics"]:
            st["last_public"] = True
            text += " It was the last public building: the game ends after this round."
    elif k == "wall":
        w(st, "walls").remove(g["wall"])
        p["walls"].append(g["wall"])
        w(st, "ability")["urbi"] = "wall"
        text = f"{player} builds the {g['wall']} wall segment for {cost} gold."
    else:
        w(st, "supply")[g["building"]] -= 1
        p["buildings"].append(g["building"])
        p["new"].append(g["building"])
        text = f"{player} {how} {g['building']} for {cost} gold."
    if preempt:
        w(st, "ability")["consul"] = "preempt"
    else:
        p["r"]["built"].append(k)
    ev.append(Event("build", text, {"player": player, "building": key(g), "gold": cost, "preempt": preempt}))


def prompts(st: dict[str, Any]) -> list[Prompt]:
    c = st["construct"]
    if c["pending"] is not None:
        b = c["pending"]
        return [Prompt(st["offices"]["consul"], "construct.preempt", False, ("preempt", "allow", "preempt-list", "preempt-ask"),
                       f"{b['buyer']} is buying {key(b['args'])}: preempt or allow")]
    who = st["order"][c["turn"]]
    kinds = ("build", "done") + trade.KINDS
    if st["offices"]["consul"] == who:
        kinds += ("preempt-list", "preempt-ask")
    return [prompt(who, "construct.turn", False, kinds, "buy buildings, trade at the market, use buildings; end with done")]


def settle(st: dict[str, Any], ev: list[Event]) -> bool:
    c = st["construct"]
    if c["pending"] is None:
        while c["turn"] < len(st["order"]) and st["p"][st["order"][c["turn"]]]["dropped"]:
            c = w(st, "construct")
            c["turn"] += 1
    if c["turn"] >= len(st["order"]):
        st["construct"] = None
        return True
    if c["pending"] is not None and st["p"][st["offices"]["consul"]]["dropped"]:
        _answer(st, False, ev)
    return False


def _answer(st: dict[str, Any], yes: bool, ev: list[Event]) -> None:
    c = w(st, "construct")
    b = c["pending"]
    c["pending"] = None
    consul = st["offices"]["consul"]
    plain = _plain(b["args"])
    if yes:
        execute(st, consul, plain, ev, preempt=True)
        ev.append(Event("preempt", f"{b['buyer']} did not get {key(plain)} and may buy another building of that kind.",
                        {"player": b["buyer"]}))
    else:
        execute(st, b["buyer"], b["args"], ev)
    bump(st)
    _run_queue(st, b["buyer"], ev)


def _run_queue(st: dict[str, Any], buyer: str, ev: list[Event]) -> None:
    """Carry on with the orders the buyer sent after the purchase the Consul was asked about."""
    from .grammar import fmt

    c = w(st, "construct")
    while c["queue"] and c["pending"] is None:
        o = Order.from_json(c["queue"].pop(0))
        if c["turn"] >= len(st["order"]) or st["order"][c["turn"]] != buyer:
            ev.append(Event("queue.dropped", f"Your turn had ended, so '{fmt(o)}' and what followed were not used.",
                            {"order": fmt(o)}, to=(buyer,)))
            c["queue"] = []
            return
        try:
            do(st, buyer, o, ev)
        except OrderError as e:
            ev.append(Event("queue.error", f"After the Consul's answer, '{fmt(o)}' could not be carried out "
                            f"({e.message}); the orders after it were not used either. Please send new orders.",
                            {"order": fmt(o), "error": e.message}, to=(buyer,)))
            c["queue"] = []
            return


def check(st: dict[str, Any], player: str, o: Order) -> None:
    c = st["construct"]
    if o.kind in ("preempt-list", "preempt-ask"):
        if st["offices"]["consul"] != player:
            raise illegal("only the Consul gives pre-emption orders")
        if st["ability"]["consul"] is not None:
            raise illegal("the Consul's ability was already used this round")
        return
    if c["pending"] is not None:
        if st["offices"]["consul"] != player or o.kind not in ("preempt", "allow"):
            raise illegal("waiting for the Consul to answer: preempt or allow")
        if o.kind == "preempt":
            try:
                check_build(st, player, _plain(c["pending"]["args"]), preempt=True)
            except OrderError as e:
                raise illegal(e.message, "allow") from None
        return
    if st["order"][c["turn"]] != player:
        raise illegal("it is not your turn to build")
    if o.kind == "done":
        return
    if o.kind == "build":
        check_build(st, player, o.args)
        return
    if o.kind in trade.KINDS:
        trade.check(st, player, o)
        return
    raise illegal(f"'{o.kind}' is not a construction order", "build, buy, sell, use, exchange, trade or done")


def do(st: dict[str, Any], player: str, o: Order, ev: list[Event]) -> None:
    check(st, player, o)
    c = st["construct"]
    if o.kind == "preempt-list":
        st["preempt"] = list(o.args["buildings"])
        shown = ", ".join(st["preempt"]) or "nothing"
        ev.append(Event("preempt.list", f"You will pre-empt: {shown}.", {"buildings": st["preempt"]}, to=(player,)))
        if c["pending"] is not None:
            _answer(st, _listed_and_payable(st, player, c["pending"]["args"], ev), ev)
        return
    if o.kind == "preempt-ask":
        st["preempt"] = None
        ev.append(Event("preempt.ask", "You will be asked about each purchase you could pre-empt.", {}, to=(player,)))
        return
    if o.kind in ("preempt", "allow"):
        _answer(st, o.kind == "preempt", ev)
        return
    if o.kind == "done":
        ev.append(Event("construct.done", f"{player} ends the construction turn.", {"player": player}))
        w(st, "construct")["turn"] += 1
        bump(st)
        return
    if o.kind == "build":
        consul = can_preempt(st, player, o.args)
        if consul is not None:
            mode = st["preempt"]
            if mode is None:
                w(st, "construct")["pending"] = {"buyer": player, "args": dict(o.args)}
                ev.append(Event("build.ask", f"{player} wants to buy {key(o.args)}; the Consul {consul} may pre-empt it.",
                                {"player": player, "building": key(o.args)}))
                bump(st)
                return
            if _listed_and_payable(st, consul, o.args, ev):
                plain = _plain(o.args)
                execute(st, consul, plain, ev, preempt=True)
                ev.append(Event("preempt", f"{player} did not get {key(plain)} and may buy another building of that kind.",
                                {"player": player}))
                return
        execute(st, player, o.args, ev)
        return
    trade.do(st, player, o, ev)


def legal(st: dict[str, Any], player: str) -> list[Order]:
    c = st["construct"]
    data = comp(st)
    if c["pending"] is not None:
        if st["offices"]["consul"] != player:
            return []
        out = [menu_order("allow")]
        try:
            check(st, player, menu_order("preempt"))
            out.append(menu_order("preempt"))
        except OrderError:
            pass
        return out
    if st["order"][c["turn"]] != player:
        return []
    out = [menu_order("done")]
    p = pl(st, player)
    r = p["r"]
    built = r["built"]
    gold = p["gold"]
    # the tests of `check_build`, worked out once for the whole menu
    red = "Redemptor" in p["buildings"] and not r["redemptor"] and p["goods"]["red"] > 0
    red_ok = red and "red" in can_produce(st, p)
    budget = gold + (5 if red else 0)
    licence: dict[str, bool] = {}

    def offer(what: str, which: Any, cost: int) -> None:
        if cost <= gold:
            out.append(menu_order("build", (what, which)))
        if red_ok and max(0, cost - 5) <= gold:
            out.append(menu_order("build", (what, which), ("redemptor", True)))

    supply = st["supply"]
    owned = p["buildings"]
    t = tables(data)
    for b, k, cost, lic in t.affordable[max(0, min(budget, len(t.affordable) - 1))]:
        if k not in built and supply[b] > 0 and b not in owned:
            if k == "production":
                if lic not in licence:
                    licence[lic] = licence_ok(st, p, b)
                if not licence[lic]:
                    continue
            offer("building", b, cost)
    if "public" not in built and budget >= t.cheapest_public:
        left = st["publics"]
        for f in t.public_fames:
            tile = next((x for x in t.public_by_fame[f] if x["id"] in left), None)
            if tile is not None and tile["cost"] <= budget:
                offer("public", f, tile["cost"])
    if "wall" not in built and st["offices"]["urbi"] == player and st["ability"]["urbi"] is None:
        for seg in st["walls"]:
            offer("wall", seg, t.wall_cost[seg])
    out += trade.legal(st, player)
    if st["offices"]["consul"] == player and st["ability"]["consul"] is None and st["preempt"] is None:
        out.append(Order("preempt-list", {"buildings": []}))
    return out
