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

TAGS = ("certain", "inferred", "placeholder")
ACTIONS = ("captain", "aristocrat", "loadmaster", "merchant", "porter")
SIDES = ("none", "expand_storage", "palace")
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


def _check_values(v: Mapping[str, Any], problems: list[str]) -> None:
    """Structural and cross checks of the untagged values; appends every problem found."""

    def need(cond: bool, msg: str) -> None:
        if not cond:
            problems.append(msg)

    p = v["players"]
    need(isinstance(p, dict) and p.get("min") == 3 and p.get("max") == 5,
         "players must be {min: 3, max: 5}")
    need(_is_int(v["servants_per_player"]) and v["servants_per_player"] >= 8,
         "servants_per_player must be a whole number of at least 8")
    st = v["storage"]
    need(isinstance(st, dict) and all(_is_int(st.get(k)) for k in ("spaces", "initially_blocked", "expand_cost"))
         and 0 <= st.get("initially_blocked", -1) < st.get("spaces", 0) and st.get("expand_cost", -1) >= 0,
         "storage needs whole numbers spaces > initially_blocked >= 0 and expand_cost >= 0")
    need(_is_int(v["starting_money"]) and v["starting_money"] >= 0, "starting_money must be >= 0")
    goods = v["goods"]
    need(isinstance(goods, list) and len(goods) == 5 and len(set(goods)) == 5
         and all(isinstance(g, str) and g.strip() and " " not in g for g in goods),
         "goods must be five distinct names without blanks")
    need(_is_int(v["goods_per_colour"]) and v["goods_per_colour"] >= 2, "goods_per_colour must be >= 2")
    ms = v["market_size"]
    need(isinstance(ms, dict) and all(_is_int(ms.get(k)) and 1 <= ms.get(k) <= 6 for k in ("3", "4", "5")),
         "market_size must give 1..6 goods for 3, 4 and 5 players")
    gp = v["goods_prices"]
    need(isinstance(gp, list) and gp and all(_is_int(x) and x >= 0 for x in gp),
         "goods_prices must be a non-empty list of prices")
    for key in ("refill_buy_price", "take_money"):
        need(_is_int(v[key]) and v[key] >= 0, f"{key} must be a whole number >= 0")
    need(_is_int(v["decades"]) and v["decades"] >= 1, "decades must be >= 1")
    need(_is_int(v["actions_per_decade"]) and v["actions_per_decade"] >= 1, "actions_per_decade must be >= 1")
    ee = v["early_end"]
    need(isinstance(ee, dict) and _is_int(ee.get("decade")) and _is_int(ee.get("trade_points")),
         "early_end needs decade and trade_points")
    need(_is_int(v["ship_rows_extra"]) and v["ship_rows_extra"] >= 0, "ship_rows_extra must be >= 0")
    civs = v["civilizations"]
    need(isinstance(civs, list) and len(civs) == 6 and len(set(civs)) == 6
         and all(isinstance(c, str) and c.strip() and " " not in c for c in civs),
         "civilizations must be six distinct names without blanks")
    need(list(v["privileges"]) == list(PRIVILEGES), f"privileges must be exactly {list(PRIVILEGES)}")
    need(v["danger_distribution"] == DANGER, f"danger_distribution must be {DANGER} (printed in the rules)")
    cards = v["ship_cards"]
    if not isinstance(cards, list) or len(cards) != 30:
        problems.append("ship_cards must be a list of 30 cards")
    else:
        ids: set[str] = set()
        danger: dict[str, int] = {}
        per_good: dict[str, int] = {}
        for n, card in enumerate(cards, 1):
            where = f"ship card {n}"
            if not isinstance(card, dict):
                problems.append(f"{where} is not an object")
                continue
            cid = card.get("id")
            if not isinstance(cid, str) or not cid or " " in cid:
                problems.append(f"{where}: id must be a name without blanks")
            elif cid in ids:
                problems.append(f"{where}: id {cid!r} used twice")
            else:
                ids.add(cid)
                where = f"ship card {cid}"
            if isinstance(civs, list) and card.get("civilization") not in civs:
                problems.append(f"{where}: unknown civilization {card.get('civilization')!r}")
            if isinstance(goods, list) and card.get("good") not in goods:
                problems.append(f"{where}: unknown good {card.get('good')!r}")
            else:
                per_good[card["good"]] = per_good.get(card["good"], 0) + 1
            if not (_is_int(card.get("yield")) and card["yield"] >= 0):
                problems.append(f"{where}: yield must be a whole number >= 0")
            d = card.get("danger")
            if not (_is_int(d) and 1 <= d <= 6):
                problems.append(f"{where}: danger must be 1..6")
            else:
                danger[str(d)] = danger.get(str(d), 0) + 1
            if card.get("privilege") not in PRIVILEGES:
                problems.append(f"{where}: unknown privilege {card.get('privilege')!r}")
        if danger and danger != DANGER:
            problems.append(f"ship cards have danger counts {dict(sorted(danger.items()))}, the rules print {DANGER}")
        if isinstance(goods, list) and len(set(goods)) == 5 and per_good and sorted(per_good) != sorted(goods):
            problems.append("every good must be wanted by at least one ship card")
    ac = v["action_cards"]
    need(isinstance(ac, list) and len(ac) == 6 and set(ac) == set(ACTIONS),
         f"action_cards must be six cards showing all of {list(ACTIONS)}")
    slots = v["action_slots"]
    if not isinstance(slots, list) or len(slots) != 6:
        problems.append("action_slots must list six slots")
    else:
        for n, s in enumerate(slots, 1):
            if not (isinstance(s, dict) and _is_int(s.get("cost")) and 0 <= s["cost"] <= 3 and s.get("side") in SIDES):
                problems.append(f"action slot {n} needs cost 0..3 and side one of {list(SIDES)}")
    pf = v["palace_fields"]
    if not isinstance(pf, list):
        problems.append("palace_fields must be a list of [price, min_tp]")
    else:
        for n, f in enumerate(pf, 1):
            if not (isinstance(f, list) and len(f) == 2 and all(_is_int(x) and x >= 0 for x in f)):
                problems.append(f"palace field {n} must be [price, min_tp] with whole numbers")
    bf = v["palace_big_field"]
    need(isinstance(bf, dict) and _is_int(bf.get("price")) and _is_int(bf.get("min_tp")),
         "palace_big_field needs price and min_tp")
    ip = v["intrigue_path"]
    if not (isinstance(ip, dict) and _is_int(ip.get("length")) and ip["length"] >= 1 and isinstance(ip.get("scoring"), dict)):
        problems.append("intrigue_path needs a length >= 1 and a scoring table")
    else:
        for pos, vals in ip["scoring"].items():
            if not (pos.isdigit() and 1 <= int(pos) <= ip["length"]):
                problems.append(f"intrigue scoring field {pos!r} is not on the path (1..{ip['length']})")
            if not (isinstance(vals, list) and 1 <= len(vals) <= 5 and all(_is_int(x) and x >= 0 for x in vals)):
                problems.append(f"intrigue scoring field {pos!r} must list 1..5 seat numbers")
    for key, fields in (("loading", ("trade_points",)), ("shipping", ("success_tp", "fail_tp", "tax_per_temple_servant")),
                        ("final_seat", ("price", "min_tp"))):
        need(isinstance(v[key], dict) and all(_is_int(v[key].get(f)) and v[key][f] >= 0 for f in fields),
             f"{key} needs whole numbers {', '.join(fields)}")


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
