"""Final standings as players read them: every score under the rulebook's words, and which
tie-break decided each place.

A game names its score keys in words with the optional attribute `score_labels` (key ->
words, in the order the words should be read) and the keys that decide places with
`tie_breaks` (compared in that order, the higher value ahead). A game without them still
gets readable standings: a key stands for itself with `_` read as a space, and places are
explained only as the game ranked them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .contract import Game, Result
from .i18n import DEFAULT_LANGUAGE
from .i18n.messages import msg, say
from .wording import both


@dataclass(frozen=True)
class Place:
    rank: int
    players: tuple[str, ...]
    detail: str  # the scores of the place in words


def score_labels(game: Game) -> dict[str, str]:
    return dict(getattr(game, "score_labels", None) or {})


def tie_breaks(game: Game) -> tuple[str, ...]:
    return tuple(getattr(game, "tie_breaks", None) or ())


def label(game: Game, key: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A score key in words: the game's own (a phrase, said in `lang`), else the key."""
    found = score_labels(game).get(key)
    return say(found, lang, game) if found else key.replace("_", " ")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def scores_text(game: Game, scores: Mapping[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """`fame 5, gold 2, goods 2; fame from ships 2, ...`: the keys that decide places first,
    then the others in the game's order; a flag (a player who left) only when it is set."""
    deciding = [k for k in tie_breaks(game) if k in scores]
    others = [k for k in score_labels(game) if k in scores and k not in deciding]
    others += [k for k in scores if k not in deciding and k not in others]

    def part(key: str) -> str | None:
        value = scores[key]
        if isinstance(value, bool):
            return label(game, key, lang) if value else None
        if value is None:
            return None
        return f"{label(game, key, lang)} {value}"

    first = [p for p in map(part, deciding) if p]
    rest = [p for p in map(part, others) if p]
    return "; ".join(x for x in (", ".join(first), ", ".join(rest)) if x)


def places(game: Game, result: Result, lang: str = DEFAULT_LANGUAGE) -> list[Place]:
    out: list[Place] = []
    rank = 1
    for tied in result.ranking:
        out.append(Place(rank, tuple(tied), scores_text(game, result.scores.get(tied[0], {}), lang)))
        rank += len(tied)
    return out


def unranked(result: Result) -> list[str]:
    """Players scored but not placed (they left the game under a rule that allows it)."""
    ranked = {p for tied in result.ranking for p in tied}
    return [p for p in result.scores if p not in ranked]


def _words(items: Sequence[str], lang: str) -> str:
    return say(both(items), lang)


def rule_text(game: Game, lang: str = DEFAULT_LANGUAGE) -> str:
    """How places are decided, in one sentence; empty for a game that does not say."""
    keys = tie_breaks(game)
    if not keys:
        return ""
    words = [label(game, k, lang) for k in keys]
    if len(keys) == 1:
        return say(msg("Places go by {first}; players equal on it share the place.", first=words[0]), lang)
    return say(msg("Places go by {first}; a tie is decided by {then}; players equal on all of these share the place.",
                   first=words[0], then=say(_then(words[1:]), lang)), lang)


def _then(words: Sequence[str]) -> Any:
    """`gold, then by goods`: the tie-breaks after the first, in order."""
    said: Any = words[-1]
    for word in reversed(words[:-1]):
        said = msg("{this}, then by {next}", this=word, next=said)
    return said


def decided(game: Game, result: Result, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Why each place is where it is, where a tie-break was needed or a place is shared;
    a place won outright on the first key needs no words beyond the scores."""
    keys = tie_breaks(game)
    if not keys:
        return []
    lines: list[str] = []
    ranking = [list(t) for t in result.ranking]
    for tied in ranking:
        if len(tied) > 1:
            values = _words([f"{label(game, k, lang)} ({result.scores[tied[0]].get(k)})" for k in keys], lang)
            lines.append(say(msg("{players} share a place: equal in {values}.", players=_words(tied, lang),
                                 values=values), lang))
    for upper, lower in zip(ranking, ranking[1:]):
        a, b = result.scores[upper[0]], result.scores[lower[0]]
        for i, key in enumerate(keys):
            if a.get(key) == b.get(key) or not (_number(a.get(key)) and _number(b.get(key))):
                continue
            if i == 0:
                break  # decided on the first key: the scores say it
            equal = _words([f"{label(game, k, lang)} ({a.get(k)})" for k in keys[:i]], lang)
            lines.append(say(msg("{ahead} ahead of {behind} on {key} ({value} to {other}), with equal {equal}.",
                                 ahead=_words(upper, lang), behind=_words(lower, lang), key=label(game, key, lang),
                                 value=a.get(key), other=b.get(key), equal=equal), lang))
            break
    return lines


def standings_context(game: Game, result: Result | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any] | None:
    """Everything a report, the demo or `referee status` shows of a finished game, in `lang`."""
    if result is None:
        return None
    return {"winners": list(result.winners), "places": [p.__dict__ for p in places(game, result, lang)],
            "left": [{"player": p, "detail": scores_text(game, result.scores[p], lang)} for p in unranked(result)],
            "rule": rule_text(game, lang), "decided": decided(game, result, lang)}
