"""Component data: read the tagged data file, validate it, and flatten it for the rules.

The data file keeps every value with its provenance tag (certain / derived / inferred) so a
moderator can see what is printed and what is reconstructed. The rules only need the values,
so `flatten` strips the tags once, at load time.
"""

from __future__ import annotations

import functools
import hashlib
import json
from importlib import resources
from typing import Any, Callable, Mapping, NamedTuple, TypeVar

from referee.contract import ComponentError, canonical_json

T = TypeVar("T")

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
    """Validate a raw tagged data set and return the plain form the rules use; every problem
    found is listed in one ComponentError."""
    if not isinstance(raw, Mapping):
        raise ComponentError(["the component data must be a JSON object"])
    reader = _Reader()
    problems = reader.problems
    out: dict[str, Any] = {}
    for key in ("name", "version"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            problems.append(f"{key}: a non-empty string is required")
    out["name"] = str(raw.get("name", ""))
    out["version"] = str(raw.get("version", ""))
    for section in ("goods", "start", "ships", "production", "commercial", "utility", "public", "walls",
                    "markets", "contracts"):
        if section not in raw:
            problems.append(f"{section}: section missing")
    if problems:
        raise ComponentError(problems)
    _read_figures(raw, reader, out)
    out["ships"] = _read_ships(raw["ships"], reader)
    out["buildings"] = _read_buildings(raw, reader)
    out["public"] = _read_public(raw["public"], reader)
    out["walls"] = _read_walls(raw["walls"], reader)
    out["markets"] = _read_markets(raw["markets"], reader)
    out["contracts"] = _read_contracts(raw["contracts"], reader)
    if problems:
        raise ComponentError(problems)
    out["sha256"] = hashlib.sha256(canonical_json(raw).encode("utf-8")).hexdigest()
    return out


def _read_figures(raw: Mapping[str, Any], reader: _Reader, out: dict[str, Any]) -> None:
    """The goods types, the start, the offices and the numbers printed on the board."""
    problems = reader.problems
    types = reader.val(raw["goods"].get("types"), "goods.types", list)
    if types is not None and list(types) != list(GOODS):
        problems.append(f"goods.types: must be {list(GOODS)} in value order, got {types}")
    out["start_gold"] = reader.count(raw["start"].get("gold"), "start.gold")
    out["ager"] = reader.goods(raw["start"].get("ager"), "start.ager")
    offices = reader.val(raw.get("offices"), "offices", list)
    if offices is not None and sorted(offices) != sorted(OFFICES):
        problems.append(f"offices: must name each of {', '.join(OFFICES)} once")
    out["offices"] = list(offices or OFFICES)
    out["office_names"] = reader.val(raw.get("office_names"), "office_names", dict) or {}
    out["vacant_price"] = reader.count(raw.get("vacant_office_price"), "vacant_office_price")
    out["comes_gold"] = reader.count(raw.get("comes_gold"), "comes_gold")
    out["magister_draw"] = reader.count(raw.get("magister_draw"), "magister_draw")
    draw = reader.val(raw.get("draw_by_level"), "draw_by_level", list) or []
    if len(draw) != 7 or not all(isinstance(x, int) and x >= 0 for x in draw):
        problems.append("draw_by_level: seven whole numbers (levels 1 to 7+) are required")
    out["draw_by_level"] = list(draw)
    posts = reader.val(raw.get("trading_post_prices"), "trading_post_prices", list) or []
    if len(posts) != 4 or not all(isinstance(x, int) and x >= 0 for x in posts):
        problems.append("trading_post_prices: four whole numbers are required")
    out["post_prices"] = list(posts)
    out["fame_per_gold"] = reader.count(raw.get("fame_per_gold"), "fame_per_gold", 1)
    wall_fame = reader.val(raw.get("wall_fame"), "wall_fame", list) or []
    if len(wall_fame) != 6:
        problems.append("wall_fame: six values (1 to 6 segments) are required")
    out["wall_fame"] = list(wall_fame)
    out["store_limit"] = reader.count(raw.get("store_limit"), "store_limit")
    out["horreum_limit"] = reader.count(raw.get("horreum_store_limit"), "horreum_store_limit")


def _read_ships(node: Mapping[str, Any], reader: _Reader) -> dict[str, dict[str, int]]:
    ships = {}
    for size in SIZES:
        entry = node.get(size)
        if not isinstance(entry, Mapping):
            reader.problems.append(f"ships.{size}: missing")
            continue
        ships[size] = {k: reader.count(entry.get(k), f"ships.{size}.{k}")
                       for k in ("count", "cost", "capacity", "passengers")}
        if ships[size]["passengers"] > ships[size]["capacity"]:
            reader.problems.append(f"ships.{size}: more passenger places than capacity")
    return ships


def _read_buildings(raw: Mapping[str, Any], reader: _Reader) -> dict[str, dict[str, Any]]:
    """Production (with licence and output), commercial (input, gold, fame) and utility
    buildings, by name."""
    problems = reader.problems
    buildings: dict[str, dict[str, Any]] = {}

    def add(name: Any, entry: dict[str, Any], where: str) -> None:
        if not isinstance(name, str) or not name:
            problems.append(f"{where}.name: missing")
        elif name in buildings:
            problems.append(f"{where}: building name {name!r} appears twice")
        else:
            buildings[name] = entry

    for i, node in enumerate(raw["production"]):
        where = f"production[{i}]"
        licence = reader.val(node.get("licence"), f"{where}.licence", str)
        if licence is not None and licence not in LICENCES:
            problems.append(f"{where}.licence: {licence!r} is not one of A-D")
        add(reader.val(node.get("name"), f"{where}.name", str),
            {"kind": "production", "cost": reader.count(node.get("cost"), f"{where}.cost"), "licence": licence or "A",
             "tiles": reader.count(node.get("tiles"), f"{where}.tiles", 1),
             "output": reader.goods(node.get("output"), f"{where}.output")}, where)
    if len(raw["production"]) != 12:
        problems.append(f"production: 12 buildings expected, found {len(raw['production'])}")
    for i, node in enumerate(raw["commercial"]):
        where = f"commercial[{i}]"
        add(reader.val(node.get("name"), f"{where}.name", str),
            {"kind": "commercial", "cost": reader.count(node.get("cost"), f"{where}.cost"),
             "tiles": reader.count(node.get("tiles"), f"{where}.tiles", 1),
             "input": reader.goods(node.get("input"), f"{where}.input"),
             "gold": reader.count(node.get("gold"), f"{where}.gold"),
             "fame": reader.count(node.get("fame"), f"{where}.fame")}, where)
    for i, node in enumerate(raw["utility"]):
        where = f"utility[{i}]"
        name = reader.val(node.get("name"), f"{where}.name", str)
        if name is not None and name not in UTILITY_ABILITIES:
            problems.append(f"{where}.name: {name!r} is not a utility building the rules know")
        add(name, {"kind": "utility", "cost": reader.count(node.get("cost"), f"{where}.cost"),
                   "tiles": reader.count(node.get("tiles"), f"{where}.tiles", 1)}, where)
    return buildings


def _read_public(nodes: list[Any], reader: _Reader) -> list[dict[str, Any]]:
    """Public buildings, identified by their cost (two tiles share each fame value)."""
    public = []
    for i, node in enumerate(nodes):
        where = f"public[{i}]"
        cost = reader.count(node.get("cost"), f"{where}.cost")
        public.append({"id": f"public-{cost}", "name": reader.val(node.get("name"), f"{where}.name", str),
                       "cost": cost, "fame": reader.count(node.get("fame"), f"{where}.fame", 1)})
    if len({x["id"] for x in public}) != len(public):
        reader.problems.append("public: two public buildings share a cost; costs identify the tiles")
    return public


def _read_walls(nodes: list[Any], reader: _Reader) -> list[dict[str, Any]]:
    """City wall segments, identified by their ability."""
    walls = []
    for i, node in enumerate(nodes):
        where = f"walls[{i}]"
        ability = reader.val(node.get("ability"), f"{where}.ability", str)
        if ability not in WALL_ABILITIES:
            reader.problems.append(f"{where}.ability: {ability!r} is not one of {', '.join(WALL_ABILITIES)}")
        walls.append({"id": ability, "cost": reader.count(node.get("cost"), f"{where}.cost"),
                      "text": reader.val(node.get("text"), f"{where}.text", str)})
    if sorted(x["id"] for x in walls) != sorted(WALL_ABILITIES):
        reader.problems.append("walls: exactly one wall segment per ability is required")
    return walls


def _read_markets(nodes: list[Any], reader: _Reader) -> list[dict[str, Any]]:
    """Market cards: buy/sell limit and prices of each goods type, and the donation column."""
    problems = reader.problems
    markets = []
    for i, node in enumerate(nodes):
        where = f"markets[{i}]"
        goods = {}
        for good in GOODS:
            row = node.get("goods", {}).get(good)
            if not isinstance(row, Mapping):
                problems.append(f"{where}.goods.{good}: missing")
                continue
            entry = {k: reader.count(row.get(k), f"{where}.goods.{good}.{k}") for k in ("limit", "buy", "sell")}
            if entry["limit"] and entry["buy"] < 1:
                problems.append(f"{where}.goods.{good}: a tradeable good needs a buy price of at least 1")
            goods[good] = entry
        donations = []
        for j, donation in enumerate(node.get("donations", [])):
            good = reader.val(donation.get("good"), f"{where}.donations[{j}].good", str)
            if good not in GOODS:
                problems.append(f"{where}.donations[{j}].good: unknown goods type {good!r}")
            donations.append({"good": good,
                              "count": reader.count(donation.get("count"), f"{where}.donations[{j}].count", 1),
                              "fame": reader.count(donation.get("fame"), f"{where}.donations[{j}].fame")})
        if len({d["good"] for d in donations}) != len(donations):
            problems.append(f"{where}.donations: one entry per goods type")
        name = reader.val(node.get("name"), f"{where}.name", str)
        if isinstance(name, str):  # `VII Regio – Opificies`: the rulebook's dash; the digest stays the raw data's
            name = name.replace(" - ", " – ")
        markets.append({"name": name, "goods": goods, "donations": donations})
    if len(markets) != 5:
        problems.append(f"markets: 5 market cards expected, found {len(markets)}")
    return markets


def _read_contracts(deck: Mapping[str, Any], reader: _Reader) -> list[dict[str, Any]]:
    """The contract deck: a table whose columns carry the tags, one row a card."""
    problems = reader.problems
    columns = deck.get("columns")
    want = ["id", "cargo", "amount", "small", "medium", "large", "gold", "fame"]
    tags = deck.get("column_tags", {})
    if columns != want:
        problems.append(f"contracts.columns: must be {want}")
    for column in want:
        if tags.get(column) not in TAGS:
            problems.append(f"contracts.column_tags.{column}: a tag (certain/derived/inferred) is required")
    total = reader.count(deck.get("count"), "contracts.count", 1)
    contracts = []
    seen: set[int] = set()
    for i, row in enumerate(deck.get("rows", [])):
        where = f"contracts.rows[{i}]"
        if not isinstance(row, list) or len(row) != len(want):
            problems.append(f"{where}: expected {len(want)} columns")
            continue
        number, cargo, amount, small, medium, large, gold, fame = row
        if not isinstance(number, int) or number < 1 or number in seen:
            problems.append(f"{where}: id {number!r} must be a unique positive whole number")
            continue
        seen.add(number)
        _check_contract_row(where, cargo, amount, small, medium, large, gold, fame, problems)
        contracts.append({"id": number, "cargo": cargo, "amount": amount,
                          "voyage": {"small": small, "medium": medium, "large": large}, "gold": gold, "fame": fame})
    if total and len(contracts) != total:
        problems.append(f"contracts: count says {total} cards but {len(contracts)} rows are given")
    if sorted(seen) != list(range(1, len(seen) + 1)):
        problems.append("contracts: ids must run 1..N without gaps")
    return sorted(contracts, key=lambda c: c["id"])


def _check_contract_row(where: str, cargo: Any, amount: Any, small: Any, medium: Any, large: Any, gold: Any,
                        fame: Any, problems: list[str]) -> None:
    """A goods card carries 1 or 2 goods and a small ship makes it in one round; a passenger
    card carries one passenger, never on a small ship, for no fame (Contract Cards)."""
    if cargo == "passenger":
        if amount != 1 or small is not None or fame != 0:
            problems.append(f"{where}: a passenger card has amount 1, no small-ship voyage and no fame")
    elif cargo in GOODS:
        if amount not in (1, 2) or small != 1:
            problems.append(f"{where}: a goods card carries 1 or 2 goods and a small ship makes it in 1 round")
    else:
        problems.append(f"{where}: cargo {cargo!r} is neither a goods type nor 'passenger'")
    if medium not in (1, 2) or large not in (1, 2):
        problems.append(f"{where}: voyage lengths must be 1 or 2 rounds")
    if not isinstance(gold, int) or gold < 0 or not isinstance(fame, int) or fame < 0:
        problems.append(f"{where}: gold and fame must be whole numbers")


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


def per_set(derive: Callable[[Any], T]) -> Callable[[Any], T]:
    """`derive` of a flattened component set, made once per set (keyed by its hash: a pure
    function of it) and shared by every caller, so what it gives is read only."""
    made: dict[str, T] = {}

    @functools.wraps(derive)
    def once(data: Mapping[str, Any]) -> T:
        found = made.get(data["sha256"])
        if found is None:
            found = made[data["sha256"]] = derive(data)
        return found
    return once


def _derive_tables(data: Mapping[str, Any]) -> Tables:
    buildings = data["buildings"]
    production = {b: info for b, info in buildings.items() if info["kind"] == "production"}
    by_fame: dict[int, list[dict[str, Any]]] = {}
    for tile in data["public"]:
        by_fame.setdefault(tile["fame"], []).append(tile)
    dearest = max((info["cost"] for info in buildings.values()), default=0)
    return Tables(
        public_fames=tuple(sorted(by_fame)),
        public_by_fame={fame: tuple(sorted(tiles, key=lambda x: -x["cost"])) for fame, tiles in by_fame.items()},
        wall_cost={wall["id"]: wall["cost"] for wall in data["walls"]},
        outputs={b: frozenset(info["output"]) for b, info in production.items()},
        ager=frozenset(data["ager"]),
        licence_of={b: info["licence"] for b, info in production.items()},
        by_licence={licence: tuple(b for b, info in production.items() if info["licence"] == licence)
                    for licence in LICENCES},
        affordable=tuple(tuple((b, info["kind"], info["cost"], info.get("licence")) for b, info in buildings.items()
                               if info["cost"] <= gold) for gold in range(dearest + 1)),
        cheapest_public=min((tile["cost"] for tile in data["public"]), default=0),
        trades=tuple(tuple((good, card["goods"][good]["limit"], card["goods"][good]["buy"]) for good in GOODS
                           if card["goods"][good]["limit"] > 0) for card in data["markets"]),
        inputs={b: tuple(info["input"].items()) for b, info in buildings.items() if info["kind"] == "commercial"},
    )


tables = per_set(_derive_tables)  # the derived lookups of a component set


def for_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The component set a state uses: the cache by hash, or the copy embedded in the state."""
    ref = state["components"]
    flat = _CACHE.get(ref["sha256"])
    if flat is None:
        flat = state["component_data"]
        _CACHE[ref["sha256"]] = flat
    return flat
