"""One mail per player per moment: what waits for a player's next mail, whether it is due
now under their choice (`NOTIFY each|turn|digest`, referee/notify.py), and the one mail
that carries it all.

The notifier's hooks do not mail a `turn` or `digest` player directly: a receipt, a notice,
a reminder or a reopened part is kept as a *part* in the player's mailbag (the game's meta,
so it is written with the turn that caused it). At the end of every unit of work the
service calls `settle`, which looks at each player once: is something asked of them that
they were not mailed about, did a round end, is the game over, is a reminder or a reopened
part waiting, has their digest time come? If so, everything that waits goes out as one mail:
the parts (receipts first), what is asked, what happened since their last mail, and the
position. Otherwise it keeps waiting; nothing is dropped. A receipt does not wait: the
receipt of an order mail read in this unit of work goes out alone when nothing else is due.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Callable, Collection, Mapping, Sequence

import orjson

from referee.computer_seats import computer_names, is_computer
from referee.contract import Event, Game, State, echo_kinds
from referee.notify import DIGEST, EACH, SOON, TURN, Notify, bag_of, next_slot
from referee.schedule import due_of
from referee.store import GameTransaction
from referee.timekeeping import from_iso, to_iso

from .news import STEP

# the order parts are read in: the answer to the player's own mail first
PART_ORDER = {"receipt": 0, "reopened": 1, "reminder": 2, "welcome": 3, "notice": 4, "press": 5}
# parts that ride along with the next mail and never make it due (NOTIFY press digest)
RIDERS = frozenset({"press"})


def add_part(tx: GameTransaction, player: str, kind: str, subject: str, text: str, *,
             reply: str | None = None, urgent: bool = False, spent: str | None = None,
             ended: str | None = None, step: int | None = None) -> None:
    """Keep something for the player's next mail (in the game's meta, this unit of work).
    `urgent`: it asks the player to act now (a reminder, a reopened part), so it does not
    wait for the next round or digest. `spent`: a receipt that set some of the player's plan,
    as it reads when none of the plan is left by the time the mail goes (`as_sent`); `ended`:
    the same receipt as it reads in the mail of the game's end. `step`: the seq of the step a
    receipt confirms, whose echoes of the player's own orders its mail leaves out of the news
    (`player_news`)."""
    if player in computer_names(tx.meta):
        return  # the referee plays the seat: nothing waits for a mail it never gets
    bags = dict(tx.meta.get("mailbag") or {})
    bag = bag_of(tx.meta, player)
    bag["parts"].append({"kind": kind, "subject": subject, "text": text, "reply": reply, "urgent": urgent,
                         "fresh": True, "spent": spent, "ended": ended, "step": step})
    bags[player] = bag
    tx.set_meta(mailbag=bags)


def note_planner(tx: GameTransaction, player: str) -> None:
    """The player has sent a plan: they know how, so their reports leave the plan template
    (the ORDERS block's "Plan ahead") to HELP."""
    bag = bag_of(tx.meta, player)
    if not bag["planner"]:
        tx.set_meta(mailbag={**(tx.meta.get("mailbag") or {}), player: dict(bag, planner=True)})


def sections(view: Mapping[str, Any], known: Mapping[str, str] | None = None) -> dict[str, str]:
    """A short hash of each part of a view, so the next mail can tell what changed on the
    table since this one: each top-level key, and each item of one that holds a table (a
    mapping, or a list of mappings) as `key/item` (`players/ann`, `docks/C1-I`, `slots/0`),
    and each field of such an item that is a mapping itself (`players/ann/goods`), so a
    layout can show only the rows, or the parts of a row, that changed.

    `known`: the sections of an earlier view (the reader's last mail). A top-level part whose
    hash is the same holds the same items, so their hashes are taken from there instead of
    being computed again."""
    out: dict[str, str] = {}
    earlier = _by_part(known) if known else {}
    for key, value in view.items():
        out[key] = digest(value)
        if key in earlier and known.get(key) == out[key]:  # type: ignore[union-attr]
            out.update(earlier[key])
        elif isinstance(value, Mapping):
            for item, sub in value.items():
                out[f"{key}/{item}"] = digest(sub)
                if isinstance(sub, Mapping):
                    for field, part in sub.items():
                        out[f"{key}/{item}/{field}"] = digest(part)
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for i, sub in enumerate(value):
                out[f"{key}/{i}"] = digest(sub)
    return out


def _by_part(known: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """Earlier sections by their top-level part: `{"docks": {"docks/C1-I": …, …}, "round": {}}`."""
    out: dict[str, dict[str, str]] = {}
    for name, value in known.items():
        top, slash, _ = name.partition("/")
        group = out.setdefault(top, {})
        if slash:
            group[name] = value
    return out


def changed_sections(now: Mapping[str, str], seen: Mapping[str, str]) -> list[str] | None:
    """The parts of a view (its `sections`) that differ from `seen`; None (everything) without
    a record."""
    if not seen:
        return None
    return sorted(k for k, h in now.items() if seen.get(k) != h)


def with_whole(changed: list[str] | None, now: Mapping[str, str], parts: Sequence[str]) -> list[str] | None:
    """`changed` (from `changed_sections`) with `parts` counted as changed, each whole (the part
    and every item and field of it), so that a layout shows them as if they were new: what a
    decision reads is shown in the mail that asks for it, changed or not. A part may name an
    item of a top-level part (`market/current_card`): that item whole, and its top-level part
    as changed, so that the layout shows the part with that item in it."""
    if changed is None or not parts:
        return changed
    extra: set[str] = set()
    for part in parts:
        extra.add(part.partition("/")[0])
        extra.update(k for k in now if k == part or k.startswith(part + "/"))
    return sorted(set(changed) | extra)


_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def digest(value: Any) -> str:
    """A short hash of a JSON-native value, the same for equal values whatever their keys'
    order. orjson: a report hashes a few hundred parts of a view, and the standard library's
    encoder made that a sixth of a turn's cost. (A value orjson refuses, an integer beyond 64
    bits, goes through the standard library.)"""
    try:
        encoded = orjson.dumps(value, option=_SORTED, default=str)
    except TypeError:
        encoded = json.dumps(value, sort_keys=True, default=str, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()[:10]


def sorted_parts(parts: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return sorted((dict(p) for p in parts), key=lambda p: PART_ORDER.get(p["kind"], 9))


def as_sent(parts: Sequence[Mapping[str, Any]], plan_left: bool, over: bool = False) -> list[dict[str, Any]]:
    """The parts in the order a mail shows them; a receipt that set some of the plan points to
    the mail's plan, or, when nothing of the plan is left to show (`plan_left` false: it was
    played or lapsed in the same unit of work), says that it is used up. In the mail of the
    game's end (`over`) it leaves the plan out, and a receipt left with nothing to say goes."""
    if over:
        shown = [dict(p, text=p["ended"]) if p.get("ended") is not None else dict(p, text=p["spent"])
                 if p.get("spent") else p for p in sorted_parts(parts)]
        return [p for p in shown if p["text"].strip()]
    return [dict(p, text=p["spent"]) if p.get("spent") and not plan_left else p for p in sorted_parts(parts)]


class Due:
    """Why a player's mail goes now, or None; computed from the position and their mailbag."""

    @staticmethod
    def reason(choice: Notify, bag: Mapping[str, Any], *, asked: str | None, round_now: int, over: bool,
               news: bool, deadline: datetime | None, now: datetime, zone: str | None) -> str | None:
        parts = bag["parts"]
        urgent = bag.get("urgent") or any(p.get("urgent") for p in parts)
        answered = asked is not None and any(p.get("fresh") and p["kind"] == "receipt" for p in parts)
        new_ask = asked is not None and asked != bag["ask"]
        if choice.mode == EACH:  # waiting under an earlier choice; table talk waits for the next mail
            return "left" if any(p["kind"] not in RIDERS for p in parts) else None
        if over and not bag["ended"]:
            return "end"
        if any(p["kind"] == "reminder" for p in parts):
            return "reminder"
        if bag.get("urgent"):
            return "again"  # the moderator took the game back: everyone hears at once
        if choice.mode == TURN:
            if urgent or answered:
                return "again"
            if new_ask:
                return "ask"
            if bag["round"] != round_now:
                return "round"
            return None
        # digest
        near = deadline is not None and deadline - now < SOON
        if asked is not None and (new_ask or urgent or answered) and near:
            return "soon"
        since = bag["since"]
        if (news or new_ask) and since and next_slot(from_iso(since), choice.at or "08:00", zone) <= now:
            return "digest"
        return None


def confirmed_steps(bag: Mapping[str, Any]) -> set[int]:
    """The steps whose receipt the player has read by the time their next mail comes: those of
    the receipts that open it, and of those sent alone since their last mail (`told`)."""
    steps = {p["step"] for p in bag["parts"] if p["kind"] == "receipt" and p.get("step") is not None}
    return steps | set(bag.get("told") or ())


def player_news(records: Sequence[Mapping[str, Any]], player: str, after: int,
                confirmed: Collection[int] = (), echoes: Collection[str] = ()) -> list[Event]:
    """The events `player` may see among the stored records after seq `after`. In the steps
    `confirmed` (`confirmed_steps`: their receipt said what the player ordered), the player's
    own events of the kinds `echoes` (`referee.contract.echo_kinds`) are left out: they would
    tell that move a second time. One that follows a step of a plan stays, the two read as
    one line (news.told)."""
    out = []
    for record in records:
        if record["seq"] <= after:
            continue
        echoed = record["seq"] in confirmed and bool(echoes)
        last = ""
        for e in record.get("events", []):
            event = Event.from_json(e)
            if not event.visible_to(player):
                continue
            if not (echoed and event.kind in echoes and last not in STEP and own_event(event, player)):
                out.append(event)
            last = event.kind
    return out


def own_event(event: Event, player: str) -> bool:
    """Whether an event tells `player`'s own doing: its `player` (in its data or its phrase's
    values) is theirs, or it is written to them alone."""
    values = getattr(event.text, "values", None) or {}
    return player in (event.data.get("player"), values.get("player")) or event.to == (player,)


def settle(tx: GameTransaction, game: Game, state: State, now: datetime,
           send: Callable[[GameTransaction, Mapping[str, Any], dict[str, Any], list[Event], list[str], str], None],
           answer: Callable[[GameTransaction, Mapping[str, Any], dict[str, Any], list[dict[str, Any]]], None]
           | None = None) -> list[tuple[str, str]]:
    """Decide, for every player, whether their mail goes now; `send(tx, seat, bag, events,
    notices, reason)` composes and queues it. A player whose order mail was received in this
    unit of work and whose mail is not due gets the receipt at once all the same, alone:
    `answer(tx, seat, bag, receipts)`; the rest waits. Writes the mailbags, the players'
    event cursors and the notices left. The players mailed, in seat order, with the reason
    ("received" for a receipt alone)."""
    meta = tx.meta
    phase = game.phase(state)
    prompts = game.prompts(state)
    asked = {p.player: phase.key for p in prompts}
    over = not prompts and game.result(state) is not None
    reported: dict[str, int] = dict(meta.get("reported", {}))
    notices: dict[str, list[str]] = {p: list(v) for p, v in (meta.get("notices") or {}).items()}
    bags = dict(meta.get("mailbag") or {})
    start = min((reported.get(s["name"], 0) for s in meta["seats"]), default=0)
    records = tx.events(since=start)
    last_seq = max((r["seq"] for r in records), default=start)
    due = due_of(meta.get("schedule")) if not meta.get("paused") else None
    mailed: list[tuple[str, str]] = []
    echoes = echo_kinds(game)
    for seat in meta["seats"]:
        if is_computer(seat):
            continue  # the referee plays it: no mail
        name = seat["name"]
        choice = Notify.of_seat(seat)
        bag = bag_of(meta, name)
        if choice.mode == EACH and not bag["parts"]:
            if bag["urgent"]:
                bags[name] = dict(bag, urgent=False)  # its report went out with the event that urged it
            continue  # mailed as things happen, by the notifier's hooks
        events = player_news(records, name, reported.get(name, 0), confirmed_steps(bag), echoes)
        news = bool(bag["parts"] or notices.get(name) or events)
        reason = Due.reason(choice, bag, asked=asked.get(name), round_now=phase.round, over=over, news=news,
                            deadline=due, now=now, zone=seat.get("timezone"))
        if reason is not None:
            send(tx, seat, bag, events, notices.pop(name, []), reason)
            mailed.append((name, reason))
            bag.update(parts=[], ask=asked.get(name), round=phase.round, ended=over, since=None, waiting=None,
                       urgent=False, count=bag["count"] + 1, told=[])
            reported[name] = last_seq
        else:
            received = [p for p in bag["parts"] if p["kind"] == "receipt" and p.get("fresh")]
            if received and answer is not None:  # the first thing a player wants: "received"
                answer(tx, seat, bag, received)
                mailed.append((name, "received"))
                bag["told"] = [*(bag.get("told") or ()), *(p["step"] for p in received if p.get("step") is not None)]
                bag["parts"] = [p for p in bag["parts"] if not (p["kind"] == "receipt" and p.get("fresh"))]
                bag["count"] += 1
            for part in bag["parts"]:
                part["fresh"] = False
            if (news or (asked.get(name) and asked[name] != bag["ask"])) and not bag["since"]:
                bag["since"] = to_iso(now)
            bag["waiting"] = asked.get(name) if asked.get(name) and asked[name] != bag["ask"] else None
        bags[name] = bag
    tx.set_meta(mailbag=bags, reported=reported, notices=notices)
    return mailed

