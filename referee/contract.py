"""The engine contract every game implements, and the types it shares with the core.

The core (service, mail, CLI) talks to a game only through `Game`. A game keeps its whole
position in a JSON-serialisable `State` (plain dicts, lists, str, int, bool, None), so the
store can snapshot it, the log can replay it and tests can round-trip it. Every function is
pure: same input, same output, no clock, no I/O, no global random.
"""

from __future__ import annotations

import difflib
import json
import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from .wording import Phrase, in_a_row, listed, menu_order, phrase, restore

State = dict[str, Any]
"""A game position: JSON-native data only. Engines never mutate a state they were given."""

JSON = Any


def canonical_json(value: JSON) -> str:
    """One spelling per value, so hashes and equality of states are stable."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --------------------------------------------------------------------------- orders


@dataclass(frozen=True)
class Order:
    """One typed order of one player, e.g. ``Order("bid", {"office": "consul", "gold": 5})``.

    `kind` is the order's keyword in lower case; `args` holds JSON scalars (or lists of them).
    Orders compare by value, so ``parse(format(o)) == [o]`` is a meaningful test.
    """

    kind: str
    args: Mapping[str, JSON] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", dict(self.args))

    def __hash__(self) -> int:
        return hash((self.kind, canonical_json(self.args)))

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> "Order":
        return cls(str(data["kind"]), dict(data.get("args", {})))

    def plain(self) -> bool:
        """Whether its arguments are scalars only, so that one order may be shared by every
        reader of the same text (a parse kept for a line read again)."""
        return not any(isinstance(v, (list, dict)) for v in self.args.values())


class ErrorClass(str, Enum):
    """The three ways an order can be wrong, after python-chess: each needs a different fix."""

    INVALID = "invalid"  # not an order at all: syntax, unknown keyword, bad number
    ILLEGAL = "illegal"  # well formed, but not allowed in this position
    AMBIGUOUS = "ambiguous"  # a name that matches more than one thing


class OrderError(Exception):
    """A rejected order, with enough detail for a receipt a player can act on."""

    category: ErrorClass = ErrorClass.INVALID

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        text: str | None = None,
        suggestion: str | None = None,
        category: ErrorClass | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.text = text
        self.suggestion = suggestion
        # The rule's reason in words that fit every order it refuses ("that dock is taken"),
        # where `message` names what this order names ("dock C3-I is already owned"): the
        # alternatives of a line refused for one reason are then said together (`why_not`).
        self.reason = reason
        # The English templates and values of `message` and `suggestion`, when the error was
        # made from them (`referee.orderlines`): a receipt writes them in the player's language.
        self.templates: dict[str, tuple[str, dict[str, Any]]] = {}
        if category is not None:
            self.category = ErrorClass(category)

    def at(self, line: int, text: str | None = None) -> "OrderError":
        """Return this error placed on a line of the submission (parsers add it late)."""
        self.line = line
        if text is not None:
            self.text = text
        return self

    def to_json(self) -> dict[str, JSON]:
        return {
            "class": self.category.value,
            "line": self.line,
            "text": self.text,
            "message": self.message,
            "suggestion": self.suggestion,
        }

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        hint = f" ({self.suggestion})" if self.suggestion else ""
        return f"{where}{self.category.value}: {self.message}{hint}"


def why_not(failures: Sequence[tuple[Any, Any]], named: Callable[[list[Any]], Any]) -> Any:
    """Why none of several alternatives could be played, each reason said once: `failures`
    are (alternative, why) pairs in the order they were tried, `why` an OrderError (its
    `reason`, else its message) or a phrase; the alternatives refused for the same reason are
    named together by `named` (the game's way of writing a list of alternatives): `OCCUPY
    C3-I TAKE G1 or C3-I TAKE G2: dock C3-I is already owned; OCCUPY C2-I TAKE G1: there is
    no G1 in the market`. Nothing here reads a state, so a game may call it from its rules."""
    groups: dict[str, tuple[list[Any], Any]] = {}
    for alternative, why in failures:
        if isinstance(why, OrderError):
            why = why.reason if why.reason is not None else why.message
        groups.setdefault(str(why), ([], why))[0].append(alternative)
    return in_a_row([phrase("{order}: {reason}", order=named(alternatives), reason=why)
                     for alternatives, why in groups.values()])


class InvalidOrder(OrderError):
    category = ErrorClass.INVALID


class IllegalOrder(OrderError):
    category = ErrorClass.ILLEGAL


class AmbiguousOrder(OrderError):
    category = ErrorClass.AMBIGUOUS


class OrderErrors(OrderError):
    """Several errors found in one submission; a receipt lists them all, not just the first."""

    def __init__(self, errors: Sequence[OrderError]) -> None:
        if not errors:
            raise ValueError("OrderErrors needs at least one error")
        first = errors[0]
        super().__init__(
            first.message,
            line=first.line,
            text=first.text,
            suggestion=first.suggestion,
            category=first.category,
        )
        self.errors = list(errors)

    def __str__(self) -> str:
        return "; ".join(str(e) for e in self.errors)


class ComponentError(ValueError):
    """A component data file that does not fit the game; lists every problem found."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


class SetupError(ValueError):
    """Bad arguments to `setup`: player count, names or options."""


# --------------------------------------------------------------------------- what the core sees


@dataclass(frozen=True)
class PhaseInfo:
    """Where the game stands. `key` changes every time a phase opens, never repeats, and is
    what a submission names so that orders aimed at a past phase can be refused."""

    key: str
    round: int
    name: str
    kind: str  # a phase kind for deadline policy, e.g. "auction", "accept", "action"


@dataclass(frozen=True)
class Prompt:
    """Somebody must decide something now. The service asks `prompts`, never guesses."""

    player: str
    decision: str  # machine name of the decision, e.g. "auction.bid"
    simultaneous: bool  # True: several players answer independently; False: in turn order
    orders: tuple[str, ...]  # order keywords allowed in this decision
    text: str = ""  # one line for a human: what is being asked


@dataclass(frozen=True)
class Event:
    """Something that happened, for reports and logs.

    `to` is None for a public event, or the players allowed to see it. A game that reveals
    something privately emits the private event to its owner and, if needed, a redacted
    public one.
    """

    kind: str
    text: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    to: tuple[str, ...] | None = None

    def visible_to(self, player: str | None) -> bool:
        """None means the moderator, who sees everything."""
        return player is None or self.to is None or player in self.to

    def to_json(self) -> dict[str, JSON]:
        out = {
            "kind": self.kind,
            "text": str(self.text),
            "data": dict(self.data),
            "to": list(self.to) if self.to is not None else None,
        }
        if isinstance(self.text, Phrase):  # kept, so that each reader gets it in their language
            out["said"] = self.text.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> "Event":
        to = data.get("to")
        text = str(data["text"])
        return cls(
            str(data["kind"]),
            restore(text, data["said"]) if "said" in data else text,
            dict(data.get("data", {})),
            tuple(to) if to is not None else None,
        )


@dataclass(frozen=True)
class Result:
    """Final scores. `ranking` is a list of places, each a list of tied players."""

    scores: Mapping[str, Mapping[str, JSON]]
    ranking: tuple[tuple[str, ...], ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "scores": {p: dict(s) for p, s in self.scores.items()},
            "ranking": [list(place) for place in self.ranking],
            "winners": list(self.winners),
        }


@dataclass(frozen=True)
class GameOption:
    """A variant or setting chosen when a game is created (``--option key=value``)."""

    name: str
    default: JSON
    help: str
    choices: tuple[JSON, ...] | None = None  # None: any value of the default's type


def checked_options(options: Sequence[GameOption], given: Mapping[str, Any], owner: str,
                    convert: Callable[[GameOption, Any], Any] | None = None) -> tuple[dict[str, JSON], list[str]]:
    """Every option's value, the defaults with the given ones laid over, and what is wrong
    with those given: an option `owner` (the game) does not have, a value `convert` refuses
    (ValueError), one that is not among its choices. The one check the service, case files,
    tournaments and the games' own `setup` make."""
    known = {o.name: o for o in options}
    values = {o.name: o.default for o in options}
    problems = []
    for name, raw in given.items():
        option = known.get(name)
        if option is None:
            close = difflib.get_close_matches(name, list(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"{owner} has no option {name!r}{hint}; options: {', '.join(known) or 'none'}")
            continue
        try:
            value = convert(option, raw) if convert is not None else raw
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if option.choices is not None and value not in option.choices:
            choices = ", ".join(json.dumps(c) for c in option.choices)
            problems.append(f"option {name} must be one of {choices}, not {json.dumps(value)}")
            continue
        values[name] = value
    return values, problems


# --------------------------------------------------------------------------- the contract


@runtime_checkable
class Game(Protocol):
    """One game's rules engine. All methods are pure functions of their arguments."""

    name: str  # registry key, e.g. "constantinopolis"
    title: str
    min_players: int
    max_players: int
    rules_version: str  # bumped whenever a rules change could alter a replay
    options: Sequence[GameOption]

    def load_components(self, data: Mapping[str, JSON] | None) -> dict[str, JSON]:
        """Validate a component data set (None: the built-in one) and return it in the form
        `setup` takes. Raises ComponentError listing every problem."""
        ...

    def setup(
        self,
        players: Sequence[str],
        seed: str,
        options: Mapping[str, JSON],
        components: Mapping[str, JSON],
    ) -> State:
        """The opening position. Randomness comes only from `seed`. Raises SetupError."""
        ...

    def phase(self, state: State) -> PhaseInfo:
        """The phase now open (after the end: a phase whose kind is "over")."""
        ...

    def prompts(self, state: State) -> list[Prompt]:
        """Who must act now. Empty exactly when the game is over."""
        ...

    def parse(self, state: State, player: str, text: str) -> list[Order]:
        """Text of one submission (one order per line, `#` comments) to orders for the
        player's current prompt. Raises OrderError (or OrderErrors) with line numbers."""
        ...

    def format(self, order: Order) -> str:
        """Canonical text: ``parse(state, player, format(o)) == [o]`` where o is legal."""
        ...

    def apply(self, state: State, player: str, orders: Sequence[Order]) -> tuple[State, list[Event]]:
        """Validate and apply one submission; return the new state and what happened.
        Raises OrderError and leaves `state` untouched when anything is wrong."""
        ...

    def default_orders(self, state: State, player: str) -> list[Order]:
        """What a player who misses the deadline does; applying it ends their part."""
        ...

    def legal_orders(self, state: State, player: str) -> list[Order]:
        """A menu of orders the player may give now, each applicable on its own."""
        ...

    def view(self, state: State, player: str | None) -> dict[str, JSON]:
        """What `player` may see; None is the moderator's full view."""
        ...

    def help(self, state: State, player: str) -> str:
        """A short summary of the orders for the player's current decision."""
        ...

    def drop(self, state: State, player: str) -> tuple[State, list[Event]]:
        """Remove a player where the rules or a variant allow it; IllegalOrder otherwise."""
        ...

    def result(self, state: State) -> Result | None:
        """Final scores and ranking with the rulebook's tie-breaks, or None while playing."""
        ...

    def check(self, state: State) -> list[str]:
        """Invariant violations of a position (empty when sound); used by tests and replay."""
        ...


def phase_kinds(game: Game) -> tuple[str, ...] | None:
    """The phase kinds a game's `PhaseInfo.kind` takes, if the game lists them (optional
    attribute ``phase_kinds``), so a deadline policy naming another kind can be refused."""
    kinds = getattr(game, "phase_kinds", None)
    return tuple(kinds) if kinds is not None else None


def phase_code(game: Game, key: str) -> str:
    """A phase key as players read and write it (the ORDERS block's tag, a receipt's "phase
    ..."): short, without the engine's own spelling of the decision (`d2-lighthouse-38` for
    `d2-arrival.lighthouse-38`). An engine opts in by defining ``phase_code(key) -> str``,
    which must give the same code for a code as for the key it stands for, so that a reply
    quoting a tag of either kind names its phase; keys stay what the engine, the log and the
    store know."""
    hook = getattr(game, "phase_code", None)
    return str(hook(key)) if hook is not None else key


def same_phase(game: Game, named: str, key: str) -> bool:
    """Whether a phase a player named (a tag, old or new) is the phase `key`."""
    return named == key or phase_code(game, named) == phase_code(game, key)
def decision_title(game: Game, decision: str) -> str:
    """A decision (`Prompt.decision`) in a third person's words, for the moderator: the
    prompt's own text is written to the player asked ("... on your office"). A game names its
    decisions in an optional mapping ``decision_titles``; else the machine name is shown."""
    titles = getattr(game, "decision_titles", None) or {}
    return str(titles.get(decision) or decision.replace("_", " ").replace(".", ": "))


def accepts_orders(game: Game, state: State, player: str) -> bool:
    """Whether `player` may submit now although no prompt names them.

    Mail is slow, so engines may take standing orders ahead of time (a defend limit during
    someone else's auction turn, a queued turn). An engine opts in by defining
    ``accepts_unprompted(state, player) -> bool``; `apply` still validates what is sent.
    Without it only prompted players may submit.
    """
    hook = getattr(game, "accepts_unprompted", None)
    return bool(hook(state, player)) if hook is not None else False


def final_kinds(game: Game) -> frozenset[str]:
    """The order kinds that are agreements between players: in a simultaneous decision a new
    set replaces the player's earlier one, but once such an order is applied it stands as a
    fact of the phase, whatever either player sends afterwards (a trade offered and accepted
    has happened). An engine opts in with the attribute ``final_kinds``; see
    `referee.progress`."""
    return frozenset(getattr(game, "final_kinds", ()))


@dataclass(frozen=True)
class MenuLine:
    """One line of the menu a player reads (HELP, the report's ORDERS block, the receipt of a
    rejected set): a compact text standing for every order of one family, e.g. ``load
    <contract> on ship <n>: 22, 41 on ship 1 or 2``. `orders` are the orders it stands for;
    `more`, for a line with an open-ended amount (``defend <gold>: any amount``), says whether
    an order beyond them belongs to it too. Tests hold the lines to `apply`: every order a
    line stands for is legal, and every legal order has its line. `ahead`: a standing or plan
    order, kept for a decision still to come (a defend limit during construction, a queued
    next turn), which the player reads under "Plan ahead" rather than among the orders that
    answer the decision open now."""

    text: str
    orders: tuple[Order, ...] = ()
    more: Callable[[Order], bool] | None = None
    ahead: bool = False

    def covers(self, order: Order) -> bool:
        return order in self.orders or (self.more is not None and self.more(order))


def menu_family(head: str, labelled: Sequence[tuple[str, Order]], legal: Callable[[Order], bool]) -> list[MenuLine]:
    """The line of a family of orders, each named by a label, keeping the legal ones:
    ``head: a, b, c`` (no line when none is legal). Engines build their menus from these. A
    label may be a game term or a phrase (`referee.wording`), so that each reader gets the
    line in their words."""
    kept = [(label, o) for label, o in labelled if legal(o)]
    if not kept:
        return []
    text = phrase("{order}: {choices}", order=menu_order(head), choices=listed(label for label, _ in kept))
    return [MenuLine(text, tuple(o for _, o in kept))]


def passes(check: Callable[[Order], None]) -> Callable[[Order], bool]:
    """A check that raises OrderError, as a test that says whether an order is legal."""
    def legal(order: Order) -> bool:
        try:
            check(order)
        except OrderError:
            return False
        return True
    return legal


def menu_lines(game: Game, state: State, player: str) -> tuple[list[MenuLine], bool]:
    """The player's menu, and whether it is complete. An engine opts in to a complete,
    compact menu by defining ``menu(state, player) -> list[MenuLine]``; otherwise each order
    of `legal_orders` is a line, which may be only a selection."""
    hook = getattr(game, "menu", None)
    if hook is not None:
        return list(hook(state, player)), True
    return [MenuLine(game.format(o), (o,)) for o in game.legal_orders(state, player)], False


def standing_plan(game: Game, state: State, player: str) -> list[str]:
    """The player's standing plan: the orders and plans they sent ahead that wait for
    decisions still to come, as the lines that would set them again. Shown to that player
    alone (their report), never to the others. An engine opts in by defining
    ``standing_plan(state, player) -> list[str]``."""
    hook = getattr(game, "standing_plan", None)
    return list(hook(state, player)) if hook is not None else []


def question_for(game: Game, state: State, prompt: Prompt) -> str:
    """The question of `prompt` as its player reads it in their own mail (the report, HELP, a
    reminder, a receipt's "you are still asked"), where it may name what only that player may
    know (their gold too little to raise); the prompt's own text is read by everyone (STATUS,
    "now deciding"). An engine opts in by defining ``asked(state, player) -> str | None``
    (None: the prompt's own text)."""
    hook = getattr(game, "asked", None)
    own = hook(state, prompt.player) if hook is not None else None
    return own if own is not None else prompt.text


def echo_kinds(game: Game) -> frozenset[str]:
    """The kinds of event that, told to the player whose order made them, say no more than the
    order's own text (`alice takes 3 talents instead of an action card` for `TALENTS`, `alice
    ends the construction turn` for `done`): a mail that opens with the receipt of that order
    leaves them out of its news, where they would tell the player's move a second time; what
    the order caused beyond it (a price, a yield, the goods a refill drew) is told as before.
    Such an event is the player's by its `player` (its data's or its phrase's) or by being
    written to them alone. An engine opts in with the attribute ``echo_events``."""
    return frozenset(getattr(game, "echo_events", ()))


def plan_template(game: Game, state: State, player: str) -> list[str]:
    """A few plan lines the player may fill in and send with their answer, for the decisions
    that come next (the report's ORDERS block offers them as comments). An engine opts in by
    defining ``plan_template(state, player) -> list[str]``."""
    hook = getattr(game, "plan_template", None)
    return list(hook(state, player)) if hook is not None else []


def sample_world(game: Game, view: Mapping[str, JSON], components: Mapping[str, JSON],
                 rng: "random.Random") -> State | None:
    """A whole position that shows one player exactly `view`, its hidden parts (others' money,
    a deck's order...) drawn with `rng`: a world that player cannot tell from the real one,
    for a computer player to search without ever reading the real state. An engine opts in by
    defining ``sample(view, components, rng) -> State``; None for a game without it."""
    hook = getattr(game, "sample", None)
    return hook(view, components, rng) if hook is not None else None


def decision_reads(game: Game, state: State, player: str) -> list[str]:
    """The parts of `player`'s view (its top-level keys, or an item of one such as
    `market/current_card`) that the decision open for them reads, the market for a donation: a report that asks for that decision shows
    them whole even when nothing in them changed since the player's last mail, which may be
    days old or deleted. An engine opts in by defining ``reads(state, player) -> list[str]``;
    none when the player is not asked."""
    hook = getattr(game, "reads", None)
    return list(hook(state, player)) if hook is not None else []


PLAN, QUEUED = "plan", "queued"  # what `planned_orders` says of an order meant for later


def planned_orders(game: Game, state: State, player: str, orders: Sequence[Order]) -> list[str]:
    """For each of a player's orders, in the position they were sent in: "" when it answers the
    decision open now, `PLAN` when it sets a plan or a standing order (`auction: stay`,
    `defend 3`), `QUEUED` when it is a turn that waits in the player's queue. A receipt
    confirms what is meant for later in a line and leaves its text to the report's plan. An
    engine opts in by defining ``planned(state, player, orders) -> list[str]``; otherwise every
    order counts as one for now."""
    hook = getattr(game, "planned", None)
    return list(hook(state, player, orders)) if hook is not None else [""] * len(orders)


def order_keywords(game: Game) -> Mapping[str, str] | None:
    """Every spelling of a game's order keywords (aliases too) to the keyword, when the game
    lists them (optional attribute ``keywords``). Mail reading sets aside a line of prose around
    the orders ("Hi all,", "Thanks, Ann") only when it can tell it from an order by them; for a
    game without the list every line is read as an order, as before."""
    return getattr(game, "keywords", None)


@dataclass(frozen=True)
class OrderShape:
    """What may follow an order's keyword, loosely: enough for mail reading to tell a line that
    tries to be this order ("bidd consul 5": a keyword misspelt, arguments of a bid) from a line
    of prose that only begins like it ("Med venlig hilsen": near `merchant`, but no slot and no
    good after it). `least` and `most` count the words after the keyword (`most` None: any
    number); `names` are the names and small words its arguments are made of (goods, offices,
    buildings, `up`, `to`, `on`...), in any letter case; `numbers` says whether a word holding a
    digit may stand for one (a count, a contract, a slot, a dock like C1-I, a card like S05).
    `part` marks the name of a plan part: `part: <order>` or `part:` alone."""

    least: int = 0
    most: int | None = 0
    names: frozenset[str] = frozenset()
    numbers: bool = False
    part: bool = False


def order_shapes(game: Game, state: State) -> Mapping[str, OrderShape] | None:
    """Each order keyword's shape (`OrderShape`, by the keyword `order_keywords` gives), when
    the game lists them (optional method ``order_shapes(state)``; the names of goods, docks and
    ships may come from the position's components). Without them mail reading takes any line
    near an order word for a misspelt order, as the safe side."""
    hook = getattr(game, "order_shapes", None)
    return hook(state) if hook is not None else None
