"""What happened since a player's last mail, as the lines of "Since your last mail".

Each thing is said once. A player's own plan, as they set it (`plan.set`), the turns they
queued (`queue.set`) or a standing limit (`defend.set`), is not told again among the events:
the receipt confirms it in a line and the report's plan shows it. Nor, in a mail that opens
with the receipt of a player's orders, is a move of theirs that says no more than the orders
(`folding.player_news`). A step of a plan (`plan.used`, `queue.used`: "Your plan plays
'stay'.") and the event it causes ("alice stays in Magister Officiorum.") read as one line.
Moves of one player in a row read as one line too, and moves of the same kind by several
players (every production, every draw) share a line when that takes no more room.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Collection, Sequence

from referee.i18n import DEFAULT_LANGUAGE, translations
from referee.i18n.messages import say
from referee.wording import both

# Event kinds (the games follow these names) that restate the reader's own orders for later:
# a plan part, turns queued, a standing limit
OWN_ECHO = ("plan.set", "queue.set", "defend.set")
# Event kinds of a plan's step, told to its owner just before what the step does
STEP = ("plan.used", "queue.used")


@dataclass(frozen=True)
class Told:
    """One event as the reader reads it: its kind, its text, and the text that says who acted
    (the event a plan step caused, when the step is joined to it)."""

    kind: str
    text: str
    lead: str


def told(events: Sequence[tuple[str, str]]) -> list[Told]:
    """The events (kind, text) a player may see, less the echoes of their own plan, each plan
    step joined to the event after it: `Your plan plays 'stay': alice stays in ...`."""
    out: list[Told] = []
    step: str | None = None
    for kind, text in events:
        if kind in OWN_ECHO:
            continue
        if kind in STEP:
            if step is not None:
                out.append(Told(kind, step, step))
            step = text
            continue
        if step is not None:
            out.append(Told(kind, f"{step.rstrip().rstrip('.')}: {text}", text))
            step = None
        else:
            out.append(Told(kind, text, text))
    if step is not None:
        out.append(Told("plan.used", step, step))
    return out


def grouped(events: Sequence[tuple[str, str]], players: Sequence[str], width: int = 74,
            lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Events (kind, text) as the lines of "Since your last mail". Events in a row that begin
    with the same player's name read as one line: `bruno sells 1 blue for 2 gold; sells 3
    green for 3 gold; ends the construction turn.` Events in a row of the same kind (every
    player's production, every draw of contracts) are joined with `;` when that takes no more
    lines of `width` than one line each (a sentence that begins with a capital goes on after a
    full stop, not after `;`), unless an event names its player as `name: ...` (an
    order as sent: what it did follows on its line). When the next players of such a run do
    word for word what the first did, they are named after it (`chiara takes 3 talents instead
    of an action card; likewise alice and bruno.`, in `lang`). A mail that covers a whole round
    stays readable, and nothing is left out."""
    out: list[str] = []
    last_who: str | None = None
    last_kind: str | None = None
    step = False  # the last line tells a plan's step: another player's move does not join it
    last: Wrapped | None = None  # the last line as wrapped, once it was needed
    alike: Alike | None = None  # the players doing word for word what ends the last line
    for item in told(events):
        kind, text = item.kind, item.text
        who = next((p for p in players if item.lead.startswith((p + " ", p + ": "))), None)
        deed = text[len(who):] if who is not None and item.lead == text else None
        if out and who is not None and who == last_who and item.lead == text and not _names_another(out[-1], who,
                                                                                                      players):
            out[-1] = _joined(out[-1], text[len(who):].removeprefix(":").lstrip())
            last, alike = None, None
        elif out and alike is not None and kind == last_kind and not step and deed == alike.deed \
                and who not in alike.players and not deed.startswith(":"):
            alike = alike.adding(who)  # type: ignore[arg-type]
            out[-1], last = alike.line(lang), None
            who = None
        elif out and kind == last_kind and not step and item.lead == text and not (
                who and item.lead.startswith(who + ": ")) and (
                wrapped := _fitting(last or Wrapped.of(out[-1], width), text)) is not None:
            out[-1], last = wrapped.text, wrapped
            alike = Alike(out[-1], deed, (who,)) if deed is not None else None
            who = None  # a joined line no longer belongs to one player
        else:
            out.append(text)
            step = item.lead != text
            last = None
            alike = Alike(text, deed, (who,)) if deed is not None and not step else None
        last_who, last_kind = who, kind
    return out


@dataclass(frozen=True)
class Alike:
    """The end of a line of "Since your last mail" where players did the same thing: `line`
    told it for the first of `players`; the others are named after it, not told again."""

    first: str
    deed: str
    players: tuple[str, ...]

    def adding(self, player: str) -> "Alike":
        return Alike(self.first, self.deed, (*self.players, player))

    def line(self, lang: str) -> str:
        names = say(both(self.players[1:]), lang)
        return _joined(self.first, translations(lang).gettext("likewise {names}").format(names=names) + ".")


def _fitting(line: "Wrapped", text: str) -> "Wrapped | None":
    """`line` with `text` joined to it, when that takes no more lines than the two apart."""
    joined = line.joined(text)
    return joined if len(joined) <= len(line) + _lines(text, line.width) else None


def _names_another(line: str, who: str, players: Sequence[str]) -> bool:
    """Whether `line` names a player besides `who`: an entry joined after it without its
    subject would read as that player's (`alice wants to buy ...; the Consul chiara decides
    ...; buys ...`), so it keeps its subject on a line of its own."""
    return any(p != who and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", line) for p in players)


def _joined(line: str, text: str) -> str:
    """`line; text`, or `line. Text` when `text` begins a sentence with a capital."""
    if text[:1].isupper() and not text[:2].isupper():
        return line.rstrip(".") + ". " + text
    return line.rstrip(".") + "; " + text


@lru_cache(maxsize=8192)
def _lines(text: str, width: int) -> int:
    """How many lines `text` takes wrapped to `width`. Kept for texts met again: a report asks
    it of every line it might show several times over (told whole, less the minor events, in
    short), and the daemon asks it of the same events for every reader of a round."""
    return len(_wrap(text, width)) or 1


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)


_SPACES = re.compile(" *")
_NOT_SPACE = re.compile(r"[\t\n\r\x0b\x0c]")  # the whitespace textwrap turns into spaces


@dataclass(frozen=True)
class Wrapped:
    """A line of "Since your last mail" as `_wrap` breaks it to `width`, with where each piece
    begins in it (None where it holds whitespace other than spaces: textwrap changes that,
    so its pieces are not the line's own). Joining the events of a long run one by one (the
    orders of a round) wrapped the growing line whole at each join; a join changes only the
    line's end, so only its last two pieces are wrapped again (`joined`): wrapping puts each
    word on the first line it fits, going on from the start, so the pieces before them end
    where they did."""

    text: str
    width: int
    lines: list[str]
    starts: list[int] | None

    @classmethod
    def of(cls, text: str, width: int) -> "Wrapped":
        lines = _wrap(text, width)
        return cls(text, width, lines, _starts(text, lines))

    def __len__(self) -> int:
        """The lines it takes, as `_lines` counts them."""
        return len(self.lines) or 1

    def joined(self, text: str) -> "Wrapped":
        """This line with `text` joined to it (`_joined`), wrapped."""
        line = _joined(self.text, text)
        keep = len(self.lines) - 2
        if self.starts is not None and keep >= 1 and line.startswith(self.text[:self.starts[keep]]):
            start = self.starts[keep]
            tail = _wrap(line[start:], self.width)
            tail_starts = _starts(line[start:], tail)
            if tail_starts is not None:
                return Wrapped(line, self.width, self.lines[:keep] + tail,
                               self.starts[:keep] + [start + at for at in tail_starts])
        return Wrapped.of(line, self.width)


def _starts(text: str, lines: Sequence[str]) -> list[int] | None:
    """Where each of `lines`, the wrapped pieces of `text`, begins in it; None when they are
    not its pieces as they stand (whitespace other than spaces, which textwrap changes)."""
    if _NOT_SPACE.search(text):
        return None
    starts: list[int] = []
    at = 0
    for n, piece in enumerate(lines):
        # the first piece may begin after a run of spaces too long for a line; the others
        # begin at the first word after the spaces their line break took
        at = text.find(piece) if n == 0 else _SPACES.match(text, at).end()  # type: ignore[union-attr]
        if at < 0 or not text.startswith(piece, at):
            return None
        starts.append(at)
        at += len(piece)
    return starts


SHORT = 6  # lines of "Since your last mail" the text part shows as they are
LONG = 16  # lines beyond which it tells the events player by player


def summary(events: Sequence[tuple[str, str]], players: Sequence[str], minor: Collection[str] = (),
            lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The same events in short: a line per player with what they did, in the order they
    did it and their name once (`bruno: buys Emporium for 9 gold; draws 2 contracts: 91,
    100.`), beside the events that belong to no player, each where it first comes. Left out:
    the kinds a game calls `minor` (how an outcome came about, what the table shows anyway)
    and the steps of the reader's plan (what they caused is kept); a thing a player did more
    than once is said once, with how often (in `lang`). The full list stays in the HTML part
    and in the answer to HISTORY."""
    lines: list[str | list[str]] = []
    own: dict[str, list[str]] = {}
    public: Counter[str] = Counter()
    for item in told(events):
        if item.kind in minor:
            continue
        text = item.lead.strip()
        who = next((p for p in players if text.startswith((p + " ", p + ": ", p + "'"))), None)
        if who is None:
            if not public[text]:
                lines.append(text)
            public[text] += 1
            continue
        tail = text[len(who):].removeprefix(":").strip() if not text.startswith(who + "'") else text
        if who not in own:
            own[who] = []
            lines.append(own[who])
            own[who].append(who)
        if len(own[who]) > 1 and _names_another(own[who][-1], who, players) and not tail.startswith(who):
            tail = f"{who} {tail}"  # after an entry naming another player, say whose this one is
        own[who].append(tail.rstrip("."))
    out = []
    for line in lines:
        if isinstance(line, list):
            times = Counter(line[1:])  # the same thing done again is said once, with how often
            said = [_times(tail, times[tail], lang) for tail in dict.fromkeys(line[1:])]
            out.append(f"{line[0]}: " + "; ".join(said) + ".")
        else:
            out.append(line if public[line] == 1 else _times(line.rstrip("."), public[line], lang) + ".")
    return out


def _times(text: str, n: int, lang: str) -> str:
    """`text`, with how often when more than once: `takes 3 talents (2 times)`."""
    return text if n == 1 else f"{text} " + translations(lang).ngettext("({n} time)", "({n} times)", n).format(n=n)


def once(events: Sequence[tuple[str, str]], lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
    """The events with one that comes again word for word (the same player doing the same
    thing on a later turn) said at its first place, with how often. A plan's step and the
    event it caused count as one (`Your plan plays 'stay'` is the same words whatever it
    plays), so a step is never folded away from its event nor joined to another."""
    units: list[tuple[tuple[str, str], ...]] = []
    for event in events:
        if event[0] not in STEP and units and len(units[-1]) == 1 and units[-1][0][0] in STEP:
            units[-1] += (event,)
        else:
            units.append((event,))
    times = Counter(units)
    if all(n == 1 for n in times.values()):
        return list(events)
    out: list[tuple[str, str]] = []
    for unit in dict.fromkeys(units):
        *lead, (kind, text) = unit
        out += [*lead, (kind, text if times[unit] == 1 else _times(text.rstrip("."), times[unit], lang) + ".")]
    return out


def less(events: Sequence[tuple[str, str]], kinds: Collection[str]) -> list[tuple[str, str]]:
    """The events without those of `kinds`, except one that a plan's step caused: the step
    reads as one line with it, and left alone it would join whatever came next (another
    player's move)."""
    return [(kind, text) for i, (kind, text) in enumerate(events)
            if kind not in kinds or (i and events[i - 1][0] in STEP)]


def in_short(events: Sequence[tuple[str, str]], players: Sequence[str], minor: Collection[str] = (),
             table: Collection[str] = (), lang: str = DEFAULT_LANGUAGE, width: int = 74,
             full: list[str] | None = None) -> tuple[list[str], bool]:
    """The lines a mail's text part shows of the events, and whether they are told in short.
    Up to `SHORT` lines, every event as it came (one that comes again word for word said once,
    with how often); beyond, the same less the `minor` ones; when that still runs past `LONG`
    lines, the summary player by player, less the `table` kinds too (what the table in the
    same mail shows whole), if it is shorter. A stretch that would leave nothing is told whole.
    `full`: `grouped(events, players, width, lang)`, when the caller has it already (a report
    shows it whole in the HTML part)."""
    if full is None:
        full = grouped(events, players, width, lang)
    length = _length(full, width)
    said = once(events, lang)

    def whole() -> tuple[list[str], bool]:
        """Told whole, but a thing done again word for word said once, with how often."""
        return (full, False) if len(said) == len(events) else (grouped(said, players, width, lang), True)

    if length <= SHORT:
        return whole()
    kept = grouped(less(said, minor), players, width, lang)
    if _length(kept, width) <= LONG:
        return (kept, True) if kept and _length(kept, width) < length else whole()
    short = summary(events, players, {*minor, *table}, lang) or kept
    best = min((kept, short), key=lambda lines: _length(lines, width))
    return (best, True) if _length(best, width) < length else whole()


def _length(lines: Sequence[str], width: int) -> int:
    return sum(_lines(line, width) for line in lines)
