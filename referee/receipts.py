"""The answer to every submission, whether it came by CLI or by mail.

A receipt says what was understood (the canonical echo), what changed since the player's
previous set in this phase, every error with its line and a suggestion, the events the
player may see, what happens next and by when (the deadline in the player's time zone), all
in the player's language: the echo is the canonical text in their words, while the game log
keeps it in English. The text form comes from `templates/receipt.txt`, so the mail layer
sends exactly what the CLI prints.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from .contract import PLAN, QUEUED, OrderError, OrderErrors
from .i18n import DEFAULT_LANGUAGE, N_, translations
from .i18n.messages import say
from .i18n.terms import localise_error
from .orderlines import order_lines
from .rendering import render
from .wording import Phrase

ACCEPTED, REJECTED, DUPLICATE, REFUSED = "accepted", "rejected", "duplicate", "refused"
STATUS_WORDS = (N_("accepted"), N_("rejected"), N_("duplicate"), N_("refused"))  # as players read them
MAX_ERRORS = 12  # errors shown in one answer: with their lines and suggestions, about a page
MAX_ERROR_TEXT = 160  # characters of a line, message or suggestion quoted in one


@dataclass
class Receipt:
    status: str
    game: str
    player: str
    phase: dict[str, Any] | None = None  # the phase the submission was read in
    message_id: str | None = None
    source: str = "cli"
    at: str = ""
    echo: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    first_set: bool = True
    planned: list[str] = field(default_factory=list)  # per line of `echo`: "" now, "plan" or "queued" (contract)
    errors: list[dict[str, Any]] = field(default_factory=list)
    more_errors: int = 0  # errors past the first MAX_ERRORS, counted and not shown
    reason: str = ""
    events: list[str] = field(default_factory=list)
    next: dict[str, Any] = field(default_factory=dict)
    seq: int | None = None
    deadline: str = ""  # the open phase's deadline, in the player's time zone
    menu: list[str] = field(default_factory=list)  # every order the player may give, after a rejection
    ahead: list[str] = field(default_factory=list)  # and the standing and plan orders among them
    language: str = DEFAULT_LANGUAGE  # the player's: the receipt is written, and its orders echoed, in it
    set_aside: list[Any] = field(default_factory=list)  # lines of a mail read as prose, not orders (or a message)
    notes: list[Any] = field(default_factory=list)  # how a mail was read: messages, in the player's language
    stale: str = ""  # the code of the closed phase the orders were for, when that refused them
    talk: list[Any] = field(default_factory=list)  # what became of the table talk of the same mail (messages)

    @property
    def ok(self) -> bool:
        return self.status in (ACCEPTED, DUPLICATE)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Receipt":
        return cls(**data)

    @property
    def now(self) -> list[str]:
        """The orders of `echo` for the decision open when they came (all, without `planned`)."""
        return [line for line, later in zip(self.echo, self.planned or [""] * len(self.echo)) if not later]

    @property
    def later(self) -> list[str]:
        """The orders of `echo` meant for later: plan lines, standing orders, queued turns."""
        return [line for line, later in zip(self.echo, self.planned) if later]

    @property
    def plan(self) -> list[str]:
        """What the set gave for later, in a few words: the name of each plan part it set (the
        words before `:` of a plan line, as the player writes it: `auction`, `LIGHTHOUSE`), a
        standing order whole (`defend 3`), and how many turns it queued. The lines themselves
        are in the report's plan."""
        named = [line.split(":", 1)[0].strip() if ":" in line else line
                 for line, later in zip(self.echo, self.planned) if later == PLAN]
        queued = sum(later == QUEUED for later in self.planned)
        out = list(dict.fromkeys(named))
        if queued:
            t = translations(self.language)
            out.insert(0, t.ngettext("{n} turn queued", "{n} turns queued", queued).format(n=queued))
        return out

    def render(self, brief: bool = False, plan_left: str = "shown") -> str:
        """The receipt's text, in the player's language; `brief` leaves out what happened and
        what comes next, for a receipt that opens a mail whose report says both. `plan_left`:
        "shown" when the mail shows the plan this set gave, "spent" when it was used up before
        the mail went, "over" when the game ended (the plan is named only if nothing else was)."""
        return render("receipt.txt", lang=self.language, r=self, brief=brief, plan_left=plan_left)


def diff_lines(old: Sequence[str], new: Sequence[str]) -> tuple[list[str], list[str]]:
    """Lines added and removed, counting repeats (two identical orders are two orders)."""
    before, after = Counter(old), Counter(new)
    added = [line for line in new if (after - before)[line] > 0]
    removed = [line for line in old if (before - after)[line] > 0]
    return list(dict.fromkeys(added)), list(dict.fromkeys(removed))


def error_list(exc: OrderError, text: str, lang: str = DEFAULT_LANGUAGE, game: Any = None) -> list[dict[str, Any]]:
    """The errors of a submission as dicts, each showing its line as the player wrote it
    (`text`, before it was read into English), the first `MAX_ERRORS` of them (`more_errors`
    counts the rest): an answer quotes at most a page of what it refuses. An error the engine
    raised without a line (from `apply`) is placed on the submission's only order line when
    there is just one. An error made from templates (`OrderError.templates`) is written in
    `lang`; every text in it is cut to `MAX_ERROR_TEXT` characters."""
    errors = exc.errors if isinstance(exc, OrderErrors) else [exc]
    lines = list(order_lines(text))
    written = dict(lines)
    out = []
    for err in errors[:MAX_ERRORS]:
        item = err.to_json()
        if item["line"] is None and len(lines) == 1:
            item["line"], item["text"] = lines[0][0], item["text"] or lines[0][1]
        elif item["line"] in written:  # the line as the player wrote it, not as it was read
            item["text"] = written[item["line"]]
        for key in ("message", "suggestion"):
            said = getattr(err, key)
            if isinstance(said, Phrase) and key not in err.templates:
                item[key] = say(said, lang, game)
        for key, template in err.templates.items():
            item[key] = localise_error(game, lang, template)
        for key in ("text", "message", "suggestion"):
            if isinstance(item.get(key), str) and len(item[key]) > MAX_ERROR_TEXT:
                item[key] = item[key][:MAX_ERROR_TEXT - 3] + "..."
        out.append(item)
    return out


def more_errors(exc: OrderError) -> int:
    """How many errors of a submission `error_list` leaves out."""
    return max(0, len(exc.errors if isinstance(exc, OrderErrors) else [exc]) - MAX_ERRORS)
