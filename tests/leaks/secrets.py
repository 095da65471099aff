"""Changes to one player's secrets that the public record cannot tell apart, game by game,
for the non-interference test (test_non_interference.py), and the points where the rules
themselves reveal such a secret, after which two games that differ in it may rightly differ.

A change is made at some position of a random game and then both games go on with the same
public acts. Each kind of secret:

- money (Porto Carthago) or gold (Constantinopolis without public gold): more or less of it;
- hidden contracts (Constantinopolis, phase 6): contracts the player has loaded in secret
  taken back, or others loaded;
- deck order: the cards of the deck that the rest of the game never shows (found by playing
  it once) put in another order;
- proxies: a Constantinopolis defend limit, a bid's "up to", the Consul's standing list; a
  Porto Carthago order queue.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Callable, Sequence

from referee.contract import Event

State = dict[str, Any]
Change = Callable[[State, str, random.Random, Sequence[State]], "State | None"]


# --------------------------------------------------------------------------- Constantinopolis


def _c_gold(st: State, x: str, rng: random.Random, future: Sequence[State]) -> State | None:
    """More or less gold, never less than X's open offers give: an offer holds its gold until
    it is answered, which the player it was made to knows."""
    if st["options"]["public_gold"]:
        return None
    gold = st["p"][x]["gold"]
    offers = (st.get("accept") or {}).get("offers", [])
    held = sum(int(item.split()[0]) for o in offers if o["from"] == x for item in o["give"] if item.endswith(" gold"))
    changed = max(held, gold + rng.choice([-1, 1]) * rng.randint(1, 12))
    if changed == gold:
        return None
    s = copy.deepcopy(st)  # only for a change made: most positions tried make none
    s["p"][x]["gold"] = changed
    return s


def _c_contracts(st: State, x: str, rng: random.Random, future: Sequence[State]) -> State | None:
    """X, still accepting, takes back a contract loaded in secret or loads another one."""
    from games.constantinopolis import GAME
    from games.constantinopolis.components import for_state

    if st["phase"] != "accept" or x in st["accept"]["done"]:
        return None
    data = for_state(st)
    loaded = [(i, c) for i, ship in enumerate(st["p"][x]["ships"]) if ship["at"] == 0 for c in ship["cargo"]]
    if loaded and rng.random() < 0.6:
        s = copy.deepcopy(st)
        p = s["p"][x]
        i, c = rng.choice(loaded)
        ship = p["ships"][i]
        card = data["contracts"][c - 1]
        ship["cargo"].remove(c)
        if card["cargo"] != "passenger":
            p["goods"][card["cargo"]] += card["amount"]
        p["hand"].append(c)
        return s
    loads = [o for o in GAME.legal_orders(st, x) if o.kind == "load"]
    if not loads:
        return None
    s, _ = GAME.apply(st, x, [rng.choice(loads)])
    return s


def _c_proxy(st: State, x: str, rng: random.Random, future: Sequence[State]) -> State | None:
    defend = x in st["defend"]
    duel = (st.get("auction") or {}).get("duel")
    duel_limit = duel is not None and duel["challenger"] == x and duel.get("limit") is not None
    preempt = st["offices"].get("consul") == x and st["phase"] == "construct" and st["ability"]["consul"] is None
    if not (defend or duel_limit or preempt):
        return None
    s = copy.deepcopy(st)
    if defend:
        s["defend"][x] += rng.randint(1, 6)
    if duel_limit:
        s["auction"]["duel"]["limit"] += rng.randint(1, 6)
    if preempt:
        s["preempt"] = ["Metallum", "Cura", "public 4"] if s["preempt"] is None else None
    return s


# --------------------------------------------------------------------------- Porto Carthago


def _p_money(st: State, x: str, rng: random.Random, future: Sequence[State]) -> State | None:
    seat = st["players"].index(x)
    money = st["money"][seat]
    changed = max(0, money + rng.choice([-1, 1]) * rng.randint(1, 15))
    if changed == money:
        return None
    s = copy.deepcopy(st)  # only for a change made
    s["money"][seat] = changed
    return s


def _p_queue(st: State, x: str, rng: random.Random, future: Sequence[State]) -> State | None:
    """X has orders waiting in the queue (or others than they had)."""
    s = copy.deepcopy(st)
    queue = s["queue"].get(x) or []
    options = [[{"kind": "talents", "args": {}}], [{"kind": "refill", "args": {}}, {"kind": "pass", "args": {}}],
               [{"kind": "pass", "args": {}}], []]
    options = [q for q in options if q != queue]
    s["queue"][x] = rng.choice(options)
    return s


# --------------------------------------------------------------------------- both: the deck


def _deck(st: State, x: str, rng: random.Random, future: Sequence[State]) -> State | None:
    """The cards of the deck that stay in it, unseen, for the rest of the game (a P2 look
    counts as seen), put in another order among their places."""
    name = st["game"]
    deck = st["deck"]
    seen: set = set()
    where = {c: i for i, c in enumerate(deck)}
    last = deck
    for later in future:  # a card drawn, or turned up and put back under (charter shipping), is seen
        if later["deck"] is not last and later["deck"] != last:  # a deck as it was shows nothing new
            last = later["deck"]
            now = {c: i for i, c in enumerate(last)}
            seen.update(c for c in deck if c not in now or c not in where or now[c] > where[c])
            where = now
        if name == "porto-carthago":
            for item in later["pending"]:
                if item["t"] == "arrange":
                    seen.update(item["cards"])
    places = [i for i, c in enumerate(deck) if c not in seen]
    if len({deck[i] for i in places}) < 2:
        return None
    s = copy.deepcopy(st)
    cards = [deck[i] for i in places]
    while cards == [deck[i] for i in places]:
        rng.shuffle(cards)
    for i, c in zip(places, cards):
        s["deck"][i] = c
    return s


CHANGES: dict[str, dict[str, Change]] = {
    "constantinopolis": {"gold": _c_gold, "contracts": _c_contracts, "proxy": _c_proxy, "deck": _deck},
    "porto-carthago": {"money": _p_money, "queue": _p_queue, "deck": _deck},
}


# --------------------------------------------------------------------------- what the rules reveal


def revealed(name: str, kind: str, x: str, submitter: str, events: Sequence[Sequence[Event]],
             before: Sequence[State], after: Sequence[State], changed_cards: set) -> bool:
    """Whether in this step the rules show the changed secret, so that the two games may
    differ from here on. `events`, `before` and `after` hold each game's events of the step
    and its states around it."""
    if kind == "deck":  # a changed card drawn or turned up (never, when the game goes as it went)
        return any(c not in s["deck"] or s["deck"].index(c) > b["deck"].index(c)
                   for b, s in zip(before, after) for c in changed_cards if c in b["deck"])
    if name == "porto-carthago":
        if kind == "queue":  # X's own turn (the queue may end it), or the queue answered for X
            return submitter == x or any(b["queue"].get(x) != a["queue"].get(x) for b, a in zip(before, after))
        return False  # money: nothing in the rules shows it before the end
    a, b = events
    if kind == "contracts":  # shown to all when the ships sail
        return any(e.kind == "ship.sail" for e in (*a, *b))
    auto = [[e for e in side if e.kind in ("auction.raise", "auction.pass") and e.data.get("player") == x]
            for side in (a, b)]
    answered_for_x = submitter != x and auto[0] != auto[1]
    if kind == "proxy":
        builds = [[e.text for e in side if e.kind in ("build", "build.ask", "preempt")] for side in (a, b)]
        return answered_for_x or (submitter != x and builds[0] != builds[1])
    if kind == "gold":  # paying what one has for a vacant office, a limit answered with one's gold
        takes = [[e.data for e in side if e.kind == "auction.take" and e.data.get("player") == x] for side in (a, b)]
        return takes[0] != takes[1] or answered_for_x
    return False
