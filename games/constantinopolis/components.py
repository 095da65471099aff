"""Component data: read the tagged data file, validate it, and flatten it for the rules.

The data file keeps every value with its provenance tag (certain / derived / inferred) so a
moderator can see what is printed and what is reconstructed. The rules only need the values,
so `flatten` strips the tags once, at load time.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any, Mapping, NamedTuple

from referee.contract import ComponentError, canonical_json

TAGS = ("certain", "derived", "inferred")
GOODS = ("green", "blue", "red", "black", "yellow")
OFFICES = ("magister", "pretorio", "comes", "urbi", "consul")
SIZES = ("small", "medium", "large")
WALL_ABILITIES = ("exchange", "trade", "draw", "market", "guard", "dock")
UTILITY_ABILITIES = {"Mensae": "sale_bonus", "Redemptor": "discount", "Taberna": "buy_own", "Horreum": "store_five"}
LICENCES = ("A", "B", "C", "D")
CONTRACT_COUNT = 106


def _builtin_raw() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/components.json").read_text(encoding="utf-8")
    return json.loads(text)


class _Reader:
    """Pulls tagged values out of the raw file, collecting every problem instead of stopping."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def val(self, node: Any, where: str, kind: type | tuple[type, ...] | None = None) -> Any:
        if not isinstance(node, Mapping) or "value" not in node or "tag" not in node:
            self.problems.append(f"{where}: expected a tagged value {{'value': ..., 'tag': ...}}")
            return None
        if node["tag"] not in TAGS:
            self.problems.append(f"{where}: tag {node['tag']!r} is not one of {', '.join(TAGS)}")
        value = node["value"]
        if kind is not None and (not isinstance(value, kind) or isinstance(value, bool) and kind is int):
            self.problems.append(f"{where}: {value!r} has the wrong type")
            return None
        return value

    def count(self, node: Any, where: str, minimum: int = 0) -> int:
        value = self.val(node, where, int)
        if value is None:
            return 0
        if value < minimum:
            self.problems.append(f"{where}: {value} is below {minimum}")
        return value

    def goods(self, node: Any, where: str) -> dict[str, int]:
        value = self.val(node, where, dict)
        if value is None:
            return {}
        out: dict[str, int] = {}
        for good, n in value.items():
            if good not in GOODS:
                self.problems.append(f"{where}: unknown goods type {good!r}")
            elif not isinstance(n, int) or isinstance(n, bool) or n < 1:
                self.problems.append(f"{where}: count for {good} must be a positive whole number")
            else:
                out[good] = n
        if not out:
            self.problems.append(f"{where}: needs at least one good")
        return out


def flatten(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a raw tagged data set and return the plain form the rules use."""
    if not isinstance(raw, Mapping):
        raise ComponentError(["the component data must be a JSON object"])
    r = _Reader()
    p = r.problems
    out: dict[str, Any] = {}
    for key in ("name", "version"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            p.append(f"{key}: a non-empty string is required")
    out["name"] = str(raw.get("name", ""))
    out["version"] = str(raw.get("version", ""))
    for section in ("goods", "start", "ships", "production", "commercial", "utility", "public", "walls",
                    "markets", "contracts"):
        if section not in raw:
            p.append(f"{section}: section missing")
    if p:
        raise ComponentError(p)
    types = r.val(raw["goods"].get("types"), "goods.types", list)
    if types is not None and list(types) != list(GOODS):
        p.append(f"goods.types: must be {list(GOODS)} in value order, got {types}")
    out["start_gold"] = r.count(raw["start"].get("gold"), "start.gold")
    out["ager"] = r.goods(raw["start"].get("ager"), "start.ager")
    offices = r.val(raw.get("offices"), "offices", list)
    if offices is not None and sorted(offices) != sorted(OFFICES):
        p.append(f"offices: must name each of {', '.join(OFFICES)} once")
    out["offices"] = list(offices or OFFICES)
    out["office_names"] = r.val(raw.get("office_names"), "office_names", dict) or {}
    out["vacant_price"] = r.count(raw.get("vacant_office_price"), "vacant_office_price")
    out["comes_gold"] = r.count(raw.get("comes_gold"), "comes_gold")
    out["magister_draw"] = r.count(raw.get("magister_draw"), "magister_draw")
    draw = r.val(raw.get("draw_by_level"), "draw_by_level", list) or []
    if len(draw) != 7 or not all(isinstance(x, int) and x >= 0 for x in draw):
        p.append("draw_by_level: seven whole numbers (levels 1 to 7+) are required")
    out["draw_by_level"] = list(draw)
    posts = r.val(raw.get("trading_post_prices"), "trading_post_prices", list) or []
    if len(posts) != 4 or not all(isinstance(x, int) and x >= 0 for x in posts):
        p.append("trading_post_prices: four whole numbers are required")
    out["post_prices"] = list(posts)
    out["fame_per_gold"] = r.count(raw.get("fame_per_gold"), "fame_per_gold", 1)
    wall_fame = r.val(raw.get("wall_fame"), "wall_fame", list) or []
    if len(wall_fame) != 6:
        p.append("wall_fame: six values (1 to 6 segments) are required")
    out["wall_fame"] = list(wall_fame)
    out["store_limit"] = r.count(raw.get("store_limit"), "store_limit")
    out["horreum_limit"] = r.count(raw.get("horreum_store_limit"), "horreum_store_limit")
    ships = {}
    for size in SIZES:
        node = raw["ships"].get(size)
        if not isinstance(node, Mapping):
            p.append(f"ships.{size}: missing")
            continue
        ships[size] = {k: r.count(node.get(k), f"ships.{size}.{k}") for k in ("count", "cost", "capacity", "passengers")}
        if ships[size]["passengers"] > ships[size]["capacity"]:
            p.append(f"ships.{size}: more passenger places than capacity")
    out["ships"] = ships
    buildings: dict[str, dict[str, Any]] = {}

    def add(name: Any, entry: dict[str, Any], where: str) -> None:
        if not isinstance(name, str) or not name:
            p.append(f"{where}.name: missing")
        elif name in buildings:
            p.append(f"{where}: building name {name!r} appears twice")
        else:
            buildings[name] = entry

    for i, node in enumerate(raw["production"]):
        w = f"production[{i}]"
        lic = r.val(node.get("licence"), f"{w}.licence", str)
        if lic is not None and lic not in LICENCES:
            p.append(f"{w}.licence: {lic!r} is not one of A-D")
        add(r.val(node.get("name"), f"{w}.name", str),
            {"kind": "production", "cost": r.count(node.get("cost"), f"{w}.cost"), "licence": lic or "A",
             "tiles": r.count(node.get("tiles"), f"{w}.tiles", 1), "output": r.goods(node.get("output"), f"{w}.output")}, w)
    if len(raw["production"]) != 12:
        p.append(f"production: 12 buildings expected, found {len(raw['production'])}")
    for i, node in enumerate(raw["commercial"]):
        w = f"commercial[{i}]"
        add(r.val(node.get("name"), f"{w}.name", str),
            {"kind": "commercial", "cost": r.count(node.get("cost"), f"{w}.cost"),
             "tiles": r.count(node.get("tiles"), f"{w}.tiles", 1), "input": r.goods(node.get("input"), f"{w}.input"),
             "gold": r.count(node.get("gold"), f"{w}.gold"), "fame": r.count(node.get("fame"), f"{w}.fame")}, w)
    for i, node in enumerate(raw["utility"]):
        w = f"utility[{i}]"
        name = r.val(node.get("name"), f"{w}.name", str)
        if name is not None and name not in UTILITY_ABILITIES:
            p.append(f"{w}.name: {name!r} is not a utility building the rules know")
        add(name, {"kind": "utility", "cost": r.count(node.get("cost"), f"{w}.cost"),
                   "tiles": r.count(node.get("tiles"), f"{w}.tiles", 1)}, w)
    out["buildings"] = buildings
    public = []
    for i, node in enumerate(raw["public"]):
        w = f"public[{i}]"
        cost = r.count(node.get("cost"), f"{w}.cost")
        public.append({"id": f"public-{cost}", "name": r.val(node.get("name"), f"{w}.name", str),
                       "cost": cost, "fame": r.count(node.get("fame"), f"{w}.fame", 1)})
    if len({x["id"] for x in public}) != len(public):
        p.append("public: two public buildings share a cost; costs identify the tiles")
    out["public"] = public
    walls = []
    for i, node in enumerate(raw["walls"]):
        w = f"walls[{i}]"
        ability = r.val(node.get("ability"), f"{w}.ability", str)
        if ability not in WALL_ABILITIES:
            p.append(f"{w}.ability: {ability!r} is not one of {', '.join(WALL_ABILITIES)}")
        walls.append({"id": ability, "cost": r.count(node.get("cost"), f"{w}.cost"),
                      "text": r.val(node.get("text"), f"{w}.text", str)})
    if sorted(x["id"] for x in walls) != sorted(WALL_ABILITIES):
        p.append("walls: exactly one wall segment per ability is required")
    out["walls"] = walls
    markets = []
    for i, node in enumerate(raw["markets"]):
        w = f"markets[{i}]"
        goods = {}
        for good in GOODS:
            row = node.get("goods", {}).get(good)
            if not isinstance(row, Mapping):
                p.append(f"{w}.goods.{good}: missing")
                continue
            entry = {k: r.count(row.get(k), f"{w}.goods.{good}.{k}") for k in ("limit", "buy", "sell")}
            if entry["limit"] and entry["buy"] < 1:
                p.append(f"{w}.goods.{good}: a tradeable good needs a buy price of at least 1")
            goods[good] = entry
        donations = []
        for j, d in enumerate(node.get("donations", [])):
            good = r.val(d.get("good"), f"{w}.donations[{j}].good", str)
            if good not in GOODS:
                p.append(f"{w}.donations[{j}].good: unknown goods type {good!r}")
            donations.append({"good": good, "count": r.count(d.get("count"), f"{w}.donations[{j}].count", 1),
                              "fame": r.count(d.get("fame"), f"{w}.donations[{j}].fame")})
        if len({d["good"] for d in donations}) != len(donations):
            p.append(f"{w}.donations: one entry per goods type")
        markets.append({"name": r.val(node.get("name"), f"{w}.name", str), "goods": goods, "donations": donations})
    if len(markets) != 5:
        p.append(f"markets: 5 market cards expected, found {len(markets)}")
    out["markets"] = markets
    deck = raw["contracts"]
    columns = deck.get("columns")
    want = ["id", "cargo", "amount", "small", "medium", "large", "gold", "fame"]
    tags = deck.get("column_tags", {})
    if columns != want:
        p.append(f"contracts.columns: must be {want}")
    for col in want:
        if tags.get(col) not in TAGS:
            p.append(f"contracts.column_tags.{col}: a tag (certain/derived/inferred) is required")
    total = r.count(deck.get("count"), "contracts.count", 1)
    rows = deck.get("rows", [])
    contracts = []
    seen: set[int] = set()
    for i, row in enumerate(rows):
        w = f"contracts.rows[{i}]"
        if not isinstance(row, list) or len(row) != len(want):
            p.append(f"{w}: expected {len(want)} columns")
            continue
        cid, cargo, amount, small, medium, large, gold, fame = row
        if not isinstance(cid, int) or cid < 1 or cid in seen:
            p.append(f"{w}: id {cid!r} must be a unique positive whole number")
            continue
        seen.add(cid)
        if cargo == "passenger":
            if amount != 1 or small is not None or fame != 0:
                p.append(f"{w}: a passenger card has amount 1, no small-ship voyage and no fame")
        elif cargo in GOODS:
            if amount not in (1, 2) or small != 1:
                p.append(f"{w}: a goods card carries 1 or 2 goods and a small ship makes it in 1 round")
        else:
            p.append(f"{w}: cargo {cargo!r} is neither a goods type nor 'passenger'")
        if medium not in (1, 2) or large not in (1, 2):
            p.append(f"{w}: voyage lengths must be 1 or 2 rounds")
        if not isinstance(gold, int) or gold < 0 or not isinstance(fame, int) or fame < 0:
            p.append(f"{w}: gold and fame must be whole numbers")
        contracts.append({"id": cid, "cargo": cargo, "amount": amount,
                          "voyage": {"small": small, "medium": medium, "large": large}, "gold": gold, "fame": fame})
    if total and len(contracts) != total:
        p.append(f"contracts: count says {total} cards but {len(contracts)} rows are given")
    if sorted(seen) != list(range(1, len(seen) + 1)):
        p.append("contracts: ids must run 1..N without gaps")
    out["contracts"] = sorted(contracts, key=lambda c: c["id"])
    if p:
        raise ComponentError(p)
    out["sha256"] = hashlib.sha256(canonical_json(raw).encode("utf-8")).hexdigest()
    return out


BUILTIN_RAW = _builtin_raw()
BUILTIN = flatten(BUILTIN_RAW)
_CACHE: dict[str, dict[str, Any]] = {BUILTIN["sha256"]: BUILTIN}


def load(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """The built-in set (None) or a validated moderator-supplied raw set, in flattened form."""
    if data is None:
        return BUILTIN
    if "sha256" in data and "buildings" in data:  # already flattened: re-validate via cache key
        cached = _CACHE.get(str(data["sha256"]))
        if cached is not None:
            return cached
        raise ComponentError(["flattened component data is not accepted; give the tagged data file"])
    flat = flatten(data)
    _CACHE.setdefault(flat["sha256"], flat)
    return flat


class Tables(NamedTuple):
    """Lookups derived from a component set, built once per set (see `tables`)."""

    public_fames: tuple[int, ...]  # the fame values of public buildings, ascending
    public_by_fame: dict[int, tuple[dict[str, Any], ...]]  # the tiles of each value, dearest first
    wall_cost: dict[str, int]
    outputs: dict[str, frozenset[str]]  # the goods types of each production building
    ager: frozenset[str]
    licence_of: dict[str, str]  # production building -> licence
    by_licence: dict[str, tuple[str, ...]]  # licence -> production buildings
    affordable: tuple[tuple[tuple[str, str, int, str | None], ...], ...]  # [gold]: (name, kind, cost, licence)
    # of the buildings costing at most that much, in data order (the last entry: all of them)
    cheapest_public: int
    trades: tuple[tuple[tuple[str, int, int], ...], ...]  # per market card: (good, limit, buy price) it trades
    inputs: dict[str, tuple[tuple[str, int], ...]]  # commercial building -> the goods it takes


_TABLES: dict[str, Tables] = {}


def tables(data: Mapping[str, Any]) -> Tables:
    """Derived lookups of a flattened component set, cached by its hash (a pure function of it)."""
    t = _TABLES.get(data["sha256"])
    if t is None:
        by_fame: dict[int, list[dict[str, Any]]] = {}
        for tile in data["public"]:
            by_fame.setdefault(tile["fame"], []).append(tile)
        t = Tables(tuple(sorted(by_fame)),
                   {f: tuple(sorted(ts, key=lambda x: -x["cost"])) for f, ts in by_fame.items()},
                   {w["id"]: w["cost"] for w in data["walls"]},
                   {b: frozenset(info["output"]) for b, info in data["buildings"].items() if info["kind"] == "production"},
                   frozenset(data["ager"]),
                   {b: info["licence"] for b, info in data["buildings"].items() if info["kind"] == "production"},
                   {lic: tuple(b for b, info in data["buildings"].items()
                               if info["kind"] == "production" and info["licence"] == lic) for lic in LICENCES},
                   tuple(tuple((b, info["kind"], info["cost"], info.get("licence")) for b, info in data["buildings"].items()
                               if info["cost"] <= gold)
                         for gold in range(max((i["cost"] for i in data["buildings"].values()), default=0) + 1)),
                   min((tile["cost"] for tile in data["public"]), default=0),
                   tuple(tuple((g, m["goods"][g]["limit"], m["goods"][g]["buy"]) for g in GOODS if m["goods"][g]["limit"] > 0)
                         for m in data["markets"]),
                   {b: tuple(info["input"].items()) for b, info in data["buildings"].items() if info["kind"] == "commercial"})
        _TABLES[data["sha256"]] = t
    return t


def for_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The component set a state uses: the cache by hash, or the copy embedded in the state."""
    ref = state["components"]
    flat = _CACHE.get(ref["sha256"])
    if flat is None:
        flat = state["component_data"]
        _CACHE[ref["sha256"]] = flat
    return flat
