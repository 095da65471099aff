"""Component data: the built-in set and validation of a moderator-supplied one.

Every printed value lives in `components.json`, tagged `certain`, `inferred` or `placeholder`,
so a moderator who owns the game can replace the unknowns without touching code.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any, Mapping

from referee.contract import ComponentError, canonical_json
from referee.wording import phrase

TAGS = ("certain", "inferred", "placeholder")
ACTIONS = ("captain", "aristocrat", "loadmaster", "merchant", "porter")
SIDES = ("none", "expand_storage", "palace")
# the side actions in words
SIDE_ACTIONS = {"expand_storage": phrase("expand storage"), "palace": phrase("palace seat")}
PRIVILEGES = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8")
DANGER = {"1": 7, "2": 6, "3": 6, "4": 5, "5": 4, "6": 2}

KEYS = (
    "players", "servants_per_player", "storage", "starting_money", "goods", "goods_per_colour",
    "market_size", "goods_prices", "refill_buy_price", "take_money", "decades",
    "actions_per_decade", "early_end", "ship_rows_extra", "civilizations", "privileges",
    "danger_distribution", "ship_cards", "action_cards", "action_slots", "palace_fields",
    "palace_big_field", "intrigue_path", "loading", "shipping", "final_seat",
)


def _builtin_raw() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8")
    return json.loads(text)


_BUILTIN_RAW = _builtin_raw()


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_values(values: Mapping[str, Any], problems: list[str]) -> None:
    """Structural and cross checks of the untagged values; appends every problem found."""
    _check_figures(values, problems)
    _check_ship_cards(values, problems)
    _check_board(values, problems)


def _need(condition: bool, message: str, problems: list[str]) -> None:
    if not condition:
        problems.append(message)


def _at_least(values: Mapping[str, Any], key: str, least: int) -> bool:
    return _is_int(values[key]) and values[key] >= least


def _distinct_names(names: Any, count: int) -> bool:
    """A list of `count` different one-word names (goods, civilizations: they are typed in orders)."""
    return (isinstance(names, list) and len(names) == count and len(set(names)) == count
            and all(isinstance(n, str) and n.strip() and " " not in n for n in names))


def _check_figures(values: Mapping[str, Any], problems: list[str]) -> None:
    """Players, servants, storage, money, goods, market, prices and the game's length."""
    players = values["players"]
    _need(isinstance(players, dict) and players.get("min") == 3 and players.get("max") == 5,
          "players must be {min: 3, max: 5}", problems)
    _need(_at_least(values, "servants_per_player", 8),
          "servants_per_player must be a whole number of at least 8", problems)
    storage = values["storage"]
    _need(isinstance(storage, dict)
          and all(_is_int(storage.get(k)) for k in ("spaces", "initially_blocked", "expand_cost"))
          and 0 <= storage.get("initially_blocked", -1) < storage.get("spaces", 0)
          and storage.get("expand_cost", -1) >= 0,
          "storage needs whole numbers spaces > initially_blocked >= 0 and expand_cost >= 0", problems)
    _need(_at_least(values, "starting_money", 0), "starting_money must be >= 0", problems)
    _need(_distinct_names(values["goods"], 5), "goods must be five distinct names without blanks", problems)
    _need(_at_least(values, "goods_per_colour", 2), "goods_per_colour must be >= 2", problems)
    sizes = values["market_size"]
    _need(isinstance(sizes, dict) and all(_is_int(sizes.get(k)) and 1 <= sizes.get(k) <= 6 for k in ("3", "4", "5")),
          "market_size must give 1..6 goods for 3, 4 and 5 players", problems)
    prices = values["goods_prices"]
    _need(isinstance(prices, list) and prices and all(_is_int(x) and x >= 0 for x in prices),
          "goods_prices must be a non-empty list of prices", problems)
    for key in ("refill_buy_price", "take_money"):
        _need(_at_least(values, key, 0), f"{key} must be a whole number >= 0", problems)
    _need(_at_least(values, "decades", 1), "decades must be >= 1", problems)
    _need(_at_least(values, "actions_per_decade", 1), "actions_per_decade must be >= 1", problems)
    early = values["early_end"]
    _need(isinstance(early, dict) and _is_int(early.get("decade")) and _is_int(early.get("trade_points")),
          "early_end needs decade and trade_points", problems)
    _need(_at_least(values, "ship_rows_extra", 0), "ship_rows_extra must be >= 0", problems)
    _need(_distinct_names(values["civilizations"], 6), "civilizations must be six distinct names without blanks",
          problems)
    _need(list(values["privileges"]) == list(PRIVILEGES), f"privileges must be exactly {list(PRIVILEGES)}", problems)
    _need(values["danger_distribution"] == DANGER, f"danger_distribution must be {DANGER} (printed in the rules)",
          problems)


def _check_ship_cards(values: Mapping[str, Any], problems: list[str]) -> None:
    """30 cards with unique ids, known civilizations, goods and privileges, and the printed
    danger distribution; every good wanted by some card."""
    cards = values["ship_cards"]
    if not isinstance(cards, list) or len(cards) != 30:
        problems.append("ship_cards must be a list of 30 cards")
        return
    civilizations, goods = values["civilizations"], values["goods"]
    ids: set[str] = set()
    danger: dict[str, int] = {}
    per_good: dict[str, int] = {}
    for number, card in enumerate(cards, 1):
        where = f"ship card {number}"
        if not isinstance(card, dict):
            problems.append(f"{where} is not an object")
            continue
        card_id = card.get("id")
        if not isinstance(card_id, str) or not card_id or " " in card_id:
            problems.append(f"{where}: id must be a name without blanks")
        elif card_id in ids:
            problems.append(f"{where}: id {card_id!r} used twice")
        else:
            ids.add(card_id)
            where = f"ship card {card_id}"
        if isinstance(civilizations, list) and card.get("civilization") not in civilizations:
            problems.append(f"{where}: unknown civilization {card.get('civilization')!r}")
        if isinstance(goods, list) and card.get("good") not in goods:
            problems.append(f"{where}: unknown good {card.get('good')!r}")
        else:
            per_good[card["good"]] = per_good.get(card["good"], 0) + 1
        if not (_is_int(card.get("yield")) and card["yield"] >= 0):
            problems.append(f"{where}: yield must be a whole number >= 0")
        level = card.get("danger")
        if not (_is_int(level) and 1 <= level <= 6):
            problems.append(f"{where}: danger must be 1..6")
        else:
            danger[str(level)] = danger.get(str(level), 0) + 1
        if card.get("privilege") not in PRIVILEGES:
            problems.append(f"{where}: unknown privilege {card.get('privilege')!r}")
    if danger and danger != DANGER:
        problems.append(f"ship cards have danger counts {dict(sorted(danger.items()))}, the rules print {DANGER}")
    if isinstance(goods, list) and len(set(goods)) == 5 and per_good and sorted(per_good) != sorted(goods):
        problems.append("every good must be wanted by at least one ship card")


def _check_board(values: Mapping[str, Any], problems: list[str]) -> None:
    """Action cards and slots, the palace, the intrigue path, loading, shipping, the final seat."""
    cards = values["action_cards"]
    _need(isinstance(cards, list) and len(cards) == 6 and set(cards) == set(ACTIONS),
          f"action_cards must be six cards showing all of {list(ACTIONS)}", problems)
    slots = values["action_slots"]
    if not isinstance(slots, list) or len(slots) != 6:
        problems.append("action_slots must list six slots")
    else:
        for n, slot in enumerate(slots, 1):
            if not (isinstance(slot, dict) and _is_int(slot.get("cost")) and 0 <= slot["cost"] <= 3
                    and slot.get("side") in SIDES):
                problems.append(f"action slot {n} needs cost 0..3 and side one of {list(SIDES)}")
    fields = values["palace_fields"]
    if not isinstance(fields, list):
        problems.append("palace_fields must be a list of [price, min_tp]")
    else:
        for n, field in enumerate(fields, 1):
            if not (isinstance(field, list) and len(field) == 2 and all(_is_int(x) and x >= 0 for x in field)):
                problems.append(f"palace field {n} must be [price, min_tp] with whole numbers")
    big = values["palace_big_field"]
    _need(isinstance(big, dict) and _is_int(big.get("price")) and _is_int(big.get("min_tp")),
          "palace_big_field needs price and min_tp", problems)
    path = values["intrigue_path"]
    if not (isinstance(path, dict) and _is_int(path.get("length")) and path["length"] >= 1
            and isinstance(path.get("scoring"), dict)):
        problems.append("intrigue_path needs a length >= 1 and a scoring table")
    else:
        for position, seats in path["scoring"].items():
            if not (position.isdigit() and 1 <= int(position) <= path["length"]):
                problems.append(f"intrigue scoring field {position!r} is not on the path (1..{path['length']})")
            if not (isinstance(seats, list) and 1 <= len(seats) <= 5 and all(_is_int(x) and x >= 0 for x in seats)):
                problems.append(f"intrigue scoring field {position!r} must list 1..5 seat numbers")
    for key, fields_needed in (("loading", ("trade_points",)),
                               ("shipping", ("success_tp", "fail_tp", "tax_per_temple_servant")),
                               ("final_seat", ("price", "min_tp"))):
        entry = values[key]
        _need(isinstance(entry, dict) and all(_is_int(entry.get(f)) and entry[f] >= 0 for f in fields_needed),
              f"{key} needs whole numbers {', '.join(fields_needed)}", problems)


def validate(data: Mapping[str, Any]) -> dict[str, Any]:
    """Check a raw (tagged) data set and return the compact form a game state carries."""
    problems: list[str] = []
    if not isinstance(data, Mapping):
        raise ComponentError(["the component data must be a JSON object"])
    for key in ("name", "version"):
        if not isinstance(data.get(key), str) or not data.get(key):
            problems.append(f"{key!r} must be a non-empty string")
    values: dict[str, Any] = {}
    tags: dict[str, str] = {}
    for key in KEYS:
        entry = data.get(key)
        if entry is None:
            problems.append(f"{key!r} is missing")
            continue
        if not isinstance(entry, Mapping) or "value" not in entry:
            problems.append(f"{key!r} must be an object with 'value' and 'tag'")
            continue
        if entry.get("tag") not in TAGS:
            problems.append(f"{key!r} has tag {entry.get('tag')!r}; use one of {list(TAGS)}")
        values[key] = entry["value"]
        tags[key] = entry.get("tag")
    unknown = sorted(set(data) - set(KEYS) - {"name", "version", "description"})
    if unknown:
        problems.append(f"unknown keys: {', '.join(unknown)}")
    if not problems:
        try:
            _check_values(values, problems)
        except (TypeError, AttributeError, KeyError) as exc:  # wildly wrong shapes
            problems.append(f"malformed data: {exc}")
    if problems:
        raise ComponentError(problems)
    digest = hashlib.sha256(canonical_json(dict(data)).encode("utf-8")).hexdigest()
    cards = {c["id"]: c for c in values["ship_cards"]}
    out = dict(values)
    out["ship_cards"] = cards
    out["dock_names"] = [f"{c}-{n}" for c in values["civilizations"] for n in ("I", "II")]
    out["card_order"] = [c["id"] for c in values["ship_cards"]]
    out["meta"] = {"name": data["name"], "version": data["version"], "sha256": digest, "tags": tags}
    return out


_BUILTIN: dict[str, Any] | None = None


def load(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """The built-in set for None (validated once, then handed out as a fresh top-level dict),
    otherwise the validated moderator set."""
    global _BUILTIN
    if data is not None:
        return validate(data)
    if _BUILTIN is None:
        _BUILTIN = validate(_BUILTIN_RAW)
    return dict(_BUILTIN)


def builtin_raw() -> dict[str, Any]:
    """A fresh copy of the built-in tagged data (tests edit it to make bad sets)."""
    return json.loads(json.dumps(_BUILTIN_RAW))
