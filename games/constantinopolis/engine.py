"""The Constantinopolis engine behind the `Game` contract: setup, the phase driver, dispatch.

Every public method is pure: `apply` changes a draft of the state (copied part by part as it
changes, see `state`) and returns it. The driver (`_settle`) runs the automatic phases until
somebody has to decide something.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.contract import (JSON, Event, GameOption, IllegalOrder, InvalidOrder, MenuLine, Order, OrderError,
                              OrderErrors, PhaseInfo, Prompt, Result, SetupError, State)
from referee.orderlines import order_lines
from referee.rng import Rng

from . import accept, auction, components, construction, menus, rounds
from .components import GOODS, OFFICES, SIZES
from .grammar import fmt, parse_line
from .state import comp, draft, finished, goods_total, new_round_flags, pl, producible, w, wp
from .views import view as _view

PHASE_NAMES = {"auction": ("Auction of public offices", "auction"), "pretorio": ("Auction of public offices", "auction"),
               "construct": ("Construct buildings", "construct"), "accept": ("Accept contracts", "accept"),
               "donate": ("Donate goods", "donate"), "store": ("End of round: store goods", "store"),
               "over": ("Game over", "over")}

OPTIONS = (
    GameOption("public_gold", False, "Everyone sees everyone's gold (the FAQ makes gold private by default).", (False, True)),
    GameOption("free_trade", False, "Optional rule: players trade contracts, goods and gold in the accept phase.", (False, True)),
    GameOption("market_reshuffle", "faceup", "Italian edition: the reshuffled future market pile lies face down.",
               ("faceup", "facedown")),
    GameOption("dropout", False, "Italian edition: a player may leave and the game goes on with at least two.", (False, True)),
    GameOption("produce_since_round_start", False,
               "Italian edition: only production buildings owned since the start of the round make a player "
               "'able to produce' (commercial buildings, donations, Redemptor, exchange wall).", (False, True)),
    GameOption("taberna_one_type", False,
               "Italian edition reading: with the Taberna a player buys only one of the types he produces each round.",
               (False, True)),
)


class Constantinopolis:
    """Rules engine for Constantinopolis (2-5 players)."""

    name = "constantinopolis"
    title = "Constantinopolis"
    min_players = 2
    max_players = 5
    rules_version = "2"  # 2: the Consul is asked on open facts; offers hold what they give
    options = OPTIONS

    # ------------------------------------------------------------------ setup

    def load_components(self, data: Mapping[str, JSON] | None) -> dict[str, JSON]:
        return components.load(data)

    def setup(self, players: Sequence[str], seed: str, options: Mapping[str, JSON],
              components_: Mapping[str, JSON]) -> State:
        players = list(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise SetupError(f"Constantinopolis takes 2 to 5 players, not {len(players)}")
        if len(set(players)) != len(players) or not all(isinstance(n, str) and n.strip() for n in players):
            raise SetupError("player names must be distinct and non-empty")
        opts = {o.name: o.default for o in OPTIONS}
        for k, v in dict(options).items():
            spec = next((o for o in OPTIONS if o.name == k), None)
            if spec is None:
                raise SetupError(f"unknown option {k!r}; known: {', '.join(o.name for o in OPTIONS)}")
            if spec.choices is not None and v not in spec.choices:
                raise SetupError(f"option {k} must be one of {spec.choices}, not {v!r}")
            opts[k] = v
        data = dict(components_)
        if "sha256" not in data:
            data = components.load(data)
        n = len(players)
        rng = Rng.from_seed(seed, "constantinopolis")
        supply = {}
        for b, info in data["buildings"].items():
            supply[b] = info["tiles"] if n == 5 else min(info["tiles"], 1 if n == 2 else 2)
        seats = rng.shuffled(players)
        offices = {o: None for o in OFFICES}
        for office, who in zip(OFFICES, seats):
            offices[office] = who
        markets = rng.shuffled(list(range(len(data["markets"]))))
        st: dict[str, Any] = {
            "game": self.name, "rules_version": self.rules_version,
            "components": {"name": data["name"], "version": data["version"], "sha256": data["sha256"]},
            "options": opts, "players": players, "round": 1, "phase": "auction", "seq": 0,
            "offices": offices, "order": seats,
            "p": {}, "supply": supply, "gone": {}, "gone_public": 0, "gone_walls": 0,
            "publics": [t["id"] for t in data["public"]], "walls": [w["id"] for w in data["walls"]],
            "ships": {s: data["ships"][s]["count"] - (n if s == "small" else 0) for s in SIZES},
            "deck": [], "discard": [],
            "market": {"current": markets[:1], "future": markets[1:], "empties": 0, "hidden": False},
            "flow": {g: 0 for g in GOODS}, "ability": {"consul": None, "urbi": None}, "preempt": None,
            "last_public": False, "auction": None, "construct": None, "accept": None, "donate": None,
            "store": None, "pretorio": None, "last_auction_discard": 0, "reshuffles": 0, "defend": {},
        }
        st["deck"] = rng.shuffled([c["id"] for c in data["contracts"]])
        st["rng"] = rng.to_json()
        if data["sha256"] != components.BUILTIN["sha256"]:
            st["component_data"] = data
        for name in players:
            st["p"][name] = {"gold": data["start_gold"], "fame": 0, "goods": {g: 0 for g in GOODS}, "buildings": [],
                             "new": [], "public": [], "walls": [], "ships": [{"id": 1, "size": "small", "at": 0, "cargo": []}],
                             "next_ship": 2, "hand": [], "saved": [], "posts": 0, "dropped": False, "removed": False,
                             "r": new_round_flags(),
                             "score": {"ships_gold": 0, "ships_fame": 0, "walls_fame": 0, "gold_fame": 0}}
        auction.start(st)
        _settle(st, [])
        return st

    # ------------------------------------------------------------------ what is open

    def phase(self, state: State) -> PhaseInfo:
        name, kind = PHASE_NAMES[state["phase"]]
        return PhaseInfo(f"r{state['round']}-{state['phase']}-{state['seq']}", state["round"], name, kind)

    def prompts(self, state: State) -> list[Prompt]:
        return _prompts(state)

    phase_kinds = ("auction", "construct", "accept", "donate", "store")

    def accepts_unprompted(self, state: State, player: str) -> bool:
        """Standing orders (a defend limit, the Consul's pre-emption list) come ahead of time."""
        pp = state["p"].get(player)
        return pp is not None and not pp["dropped"] and state["phase"] != "over" and bool(_allowed(state, player))

    # ------------------------------------------------------------------ orders

    def parse(self, state: State, player: str, text: str) -> list[Order]:
        if player not in state["p"]:
            raise IllegalOrder(f"{player!r} is not playing in this game")
        data = comp(state)
        allowed = _allowed(state, player)
        prompted = any(p.player == player for p in _prompts(state))
        orders: list[Order] = []
        errors: list[OrderError] = []
        for number, line in order_lines(text):
            try:
                o = parse_line(line, data, state["players"])
                if o.kind not in allowed:
                    if not prompted:
                        extra = f" (you may still give: {', '.join(sorted(allowed))})" if allowed else ""
                        raise IllegalOrder("you have nothing to decide now" + extra, suggestion="wait for your turn")
                    raise IllegalOrder(f"'{line.split()[0]}' is not an order you can give now",
                                       suggestion="allowed now: " + ", ".join(sorted(set(k.split("-")[0] for k in allowed))))
                orders.append(o)
            except OrderError as e:
                errors.append(e.at(number, line))
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise OrderErrors(errors)
        if not orders:
            raise InvalidOrder("no orders found in the text", suggestion=self.help(state, player))
        return orders

    def format(self, order: Order) -> str:
        return fmt(order)

    def apply(self, state: State, player: str, orders: Sequence[Order]) -> tuple[State, list[Event]]:
        if player not in state["p"]:
            raise IllegalOrder(f"{player!r} is not playing in this game")
        if state["phase"] == "over":
            raise IllegalOrder("the game is over")
        st = draft(state)
        ev: list[Event] = []
        for i, o in enumerate(orders, start=1):
            try:
                if st["p"][player]["dropped"]:
                    raise IllegalOrder("you have left the game")
                _dispatch(st, player, o, ev)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                raise InvalidOrder(f"malformed order {o.kind!r}: {e.__class__.__name__}", line=i) from None
            except OrderError as e:
                if e.line is None:
                    e.line = i
                    e.text = fmt(o)
                raise
            _settle(st, ev)
            c = st.get("construct")
            if c and c["pending"] and c["pending"]["buyer"] == player and i < len(orders):
                # the Consul must answer first; the rest of this mail waits for him
                w(st, "construct")["queue"] = [x.to_json() for x in orders[i:]]
                ev.append(Event("queue.wait", f"{len(orders) - i} more orders wait for the Consul's answer.",
                                {"orders": [fmt(x) for x in orders[i:]]}, to=(player,)))
                break
        return finished(st), ev

    def default_orders(self, state: State, player: str) -> list[Order]:
        return _default(state, player)

    def legal_orders(self, state: State, player: str) -> list[Order]:
        ph = state["phase"]
        if ph in ("auction", "pretorio"):
            return auction.legal(state, player)
        if ph == "construct":
            return construction.legal(state, player)
        if ph == "accept":
            return accept.legal(state, player)
        if ph == "donate":
            return rounds.donate_legal(state, player)
        if ph == "store":
            return rounds.store_legal(state, player)
        return []

    def menu(self, state: State, player: str) -> list[MenuLine]:
        """Every order the player may give now, compactly (HELP, reports, receipts)."""
        return menus.menu(state, player)

    def view(self, state: State, player: str | None) -> dict[str, JSON]:
        return _view(state, player)

    def help(self, state: State, player: str) -> str:
        mine = [p for p in _prompts(state) if p.player == player]
        if not mine:
            return "Nothing to decide now."
        p = mine[0]  # every order itself is listed by `menu`
        return f"{p.text[:1].upper()}{p.text[1:]}. Orders: " + ", ".join(p.orders) + "."

    def drop(self, state: State, player: str) -> tuple[State, list[Event]]:
        if not state["options"]["dropout"]:
            raise IllegalOrder("players can leave only with the dropout option")
        if player not in state["p"] or state["p"][player]["dropped"]:
            raise IllegalOrder(f"{player} is not in the game")
        if state["phase"] == "over":
            raise IllegalOrder("the game is over")
        left = [n for n in state["players"] if not state["p"][n]["dropped"]]
        if len(left) <= 2:
            raise IllegalOrder("the game needs at least two players to go on")
        st = draft(state)
        wp(st, player)["dropped"] = True
        ev = [Event("dropout", f"{player} leaves the game; their pieces leave at the start of the next round.",
                    {"player": player})]
        if st["phase"] == "construct" and st["construct"]["pending"] and st["construct"]["pending"]["buyer"] == player:
            c = w(st, "construct")
            c["pending"] = None
            c["queue"] = []
        if st["phase"] == "accept":
            w(st, "accept")["offers"] = [x for x in st["accept"]["offers"] if player not in (x["from"], x["to"])]
        if st["phase"] == "donate" and player in st["donate"]:
            w(st, "donate").remove(player)
        if st["phase"] == "store" and player in st["store"]:
            w(st, "store").remove(player)
        if st["phase"] == "pretorio" and st["pretorio"] == player:
            auction.give_good(st, player, auction.best_good(producible(pl(st, player), comp(st))), ev)
        if st["phase"] == "auction" and st["auction"]["active"] == player:
            _dispatch(st, player, _default(st, player)[0], ev, force=True)
        _settle(st, ev)
        return finished(st), ev

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = {}
        for n in state["players"]:
            p = state["p"][n]
            scores[n] = {"fame": p["fame"], "gold": p["gold"], "goods": goods_total(p), "dropped": p["dropped"],
                         **p["score"]}
        live = [n for n in state["players"] if not state["p"][n]["dropped"]]
        keyf = lambda n: (state["p"][n]["fame"], state["p"][n]["gold"], goods_total(state["p"][n]))  # noqa: E731
        places: list[list[str]] = []
        for n in sorted(live, key=keyf, reverse=True):
            if places and keyf(places[-1][0]) == keyf(n):
                places[-1].append(n)
            else:
                places.append([n])
        return Result(scores, tuple(tuple(x) for x in places), tuple(places[0]))

    def check(self, state: State) -> list[str]:
        from .checks import check
        return check(state)


def _allowed(st: dict[str, Any], player: str) -> set[str]:
    kinds: set[str] = set()
    for p in _prompts(st):
        if p.player == player:
            kinds.update(p.orders)
    if st["phase"] == "auction":
        kinds.add("defend")
    if st["phase"] == "construct" and st["offices"]["consul"] == player:
        kinds.update(("preempt-list", "preempt-ask"))
    return kinds


def _prompts(st: dict[str, Any]) -> list[Prompt]:
    ph = st["phase"]
    if ph in ("auction", "pretorio"):
        return auction.prompts(st)
    if ph == "construct":
        return construction.prompts(st)
    if ph == "accept":
        return accept.prompts(st)
    if ph == "donate":
        return rounds.donate_prompts(st)
    if ph == "store":
        return rounds.store_prompts(st)
    return []


def _default(st: dict[str, Any], player: str) -> list[Order]:
    ph = st["phase"]
    if ph in ("auction", "pretorio"):
        return auction.default(st, player)
    if ph == "construct":
        c = st["construct"]
        if c["pending"] is not None:
            return [Order("allow")] if st["offices"]["consul"] == player else []
        return [Order("done")] if st["order"][c["turn"]] == player else []
    if ph == "accept":
        return [Order("done")] if player in accept.waiting(st) else []
    if ph == "donate":
        return [Order("pass")] if player in st["donate"] else []
    if ph == "store":
        return [Order("keep", {"goods": rounds.best_keep(st, player)})] if player in st["store"] else []
    return []


def _dispatch(st: dict[str, Any], player: str, o: Order, ev: list[Event], force: bool = False) -> None:
    ph = st["phase"]
    if ph in ("auction", "pretorio"):
        auction.do(st, player, o, ev)
    elif ph == "construct":
        construction.do(st, player, o, ev)
    elif ph == "accept":
        accept.do(st, player, o, ev)
    elif ph == "donate":
        rounds.donate_do(st, player, o, ev)
    elif ph == "store":
        rounds.store_do(st, player, o, ev)
    else:
        raise IllegalOrder("no orders are taken now")


def _settle(st: dict[str, Any], ev: list[Event]) -> None:
    """Run automatic steps until a player must decide (or the game is over)."""
    for _ in range(10_000):
        ph = st["phase"]
        if ph == "auction":
            if auction.settle(st, ev):
                continue
        elif ph == "pretorio":
            if st["pretorio"] is None:
                if st["round"] > 1:
                    rounds.move_ships(st, ev)
                rounds.produce(st, ev)
                construction.start(st)
                continue
        elif ph == "construct":
            if construction.settle(st, ev):
                rounds.draw_phase(st, ev)
                accept.start(st)
                continue
        elif ph == "accept":
            if accept.settle(st, ev):
                rounds.start_donate(st)
                continue
        elif ph == "donate":
            if not st["donate"]:
                st["donate"] = None
                rounds.end_of_round(st, ev)
                continue
        elif ph == "store":
            if not st["store"]:
                rounds.new_round(st, ev)
                continue
        if ph == "over":
            return
        # a player who has left answers with the default orders (players leave only under
        # the dropout option, see `drop`)
        ps = st["p"]
        gone = [p for p in _prompts(st) if ps[p.player]["dropped"]] if st["options"]["dropout"] and any(
            ps[n]["dropped"] for n in st["players"]) else None
        if gone:
            for o in _default(st, gone[0].player):
                _dispatch(st, gone[0].player, o, ev, force=True)
            continue
        return
    raise RuntimeError("the phase driver did not settle")


GAME = Constantinopolis()
