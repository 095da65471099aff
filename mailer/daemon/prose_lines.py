"""Lines of prose around the orders of a mail, told apart with the game's own grammar.

Outside an ORDERS block a player writes as in any letter: "Hi all,", "here are my orders:",
"Thanks, Ann". Such a line is set aside, and the orders on the other lines are taken, when the
game cannot read it and it is not close to an order. What is close comes from the game's grammar
through the engine contract (`referee.contract.order_keywords`, `referee.orderlines.keyword_match`):

* a line the game reads (in the context of the whole text) is an order, always;
* a line that starts with an order keyword, an alias or a prefix of one is a malformed order, and
  the mail is refused with the game's error and suggestion as before, unless it reads as a
  sentence (five words or more, with a comma or ending in . ! or ?: "Take care of your ships,
  Bob is coming");
* a line that starts with a near spelling of a keyword (the game's "did you mean") is a
  misspelt order when the corrected line reads, or when it is short (four words or fewer) or
  holds a number: "bidd consul 3", "tkae consl";
* a greeting, thanks or farewell ("Hello", "Thank you!", "Good luck, all") is prose, whatever
  the keywords: "Thank you" is a near spelling of ``take``, and "Good luck" begins with ``good``;
* after a letter's closing ("Best regards,") near the end come a name and a signature: there
  only lines the game reads are orders, so "Trade Manager | ACME" under a name is not refused.

Everything else is prose. No line the game reads is ever set aside, and every line set aside
is listed in the receipt. A game without a keyword list (an optional part of the contract) has
every line read as an order, as before.
"""

from __future__ import annotations

from typing import Mapping

from mailer.inbound.prose import is_closing, is_salutation
from referee.contract import AmbiguousOrder, Game, IllegalOrder, OrderError, OrderErrors, State, order_keywords
from referee.orderlines import folded_names, keyword_match

__all__ = ["set_aside_prose"]

_PUNCTUATION = ",.;:!?\"'()[]{}«»“”„‘’*_"
_SIGNATURE_TAIL = 8  # a closing is looked for among the last lines with text
_SHORT = 4
_SENTENCE = 5


def _content(line: str) -> str:
    return line.split("#", 1)[0].strip()


def _first_word(content: str) -> str:
    return content.split()[0].strip(_PUNCTUATION)


def _reads(game: Game, state: State, player: str, text: str) -> bool:
    """Whether the game reads *text* as orders, allowed now or not."""
    try:
        game.parse(state, player, text)
    except OrderErrors as exc:
        return all(isinstance(error, (IllegalOrder, AmbiguousOrder)) for error in exc.errors)
    except (IllegalOrder, AmbiguousOrder):
        return True
    except Exception:
        return False
    return True


def _failing(game: Game, state: State, player: str, text: str) -> set[int] | None:
    """The numbers of the lines the game cannot read in *text*; None when its error names no
    line, so nothing can be set aside safely."""
    try:
        game.parse(state, player, text)
    except OrderErrors as exc:
        numbers = {error.line for error in exc.errors}
        return None if None in numbers else {n for n in numbers if n is not None}
    except OrderError as exc:
        return {exc.line} if exc.line is not None else None
    except Exception:
        return None
    return set()


def _closing_at(lines: list[str]) -> int | None:
    """Where a letter's closing stands among the last lines with text."""
    tail = [i for i, line in enumerate(lines) if _content(line)][-_SIGNATURE_TAIL:]
    for i in tail:
        if is_closing(_content(lines[i])):
            return i
    return None


def _sentence(content: str) -> bool:
    return len(content.split()) >= _SENTENCE and ("," in content or content.endswith((".", "!", "?")))


def _order_word(word: str, keywords: Mapping[str, str]) -> bool:
    how, _ = keyword_match(word, keywords)
    return how == "exact" or (how == "prefix" and len(word) >= 2)


def _is_prose(game: Game, state: State, player: str, line: str, keywords: Mapping[str, str]) -> bool:
    """Whether a line the game cannot read is prose rather than an order gone wrong."""
    content = _content(line)
    if is_salutation(content):
        return True
    words = content.split()
    first = _first_word(content)
    how, candidates = keyword_match(first, keywords)
    if how == "none" or (how == "prefix" and len(first) < 2):
        return True
    if how != "exact" and any(_reads(game, state, player, " ".join([keyword] + words[1:]))
                              for keyword in candidates):
        return False
    if _sentence(content):
        return True
    if how != "close":
        return False
    return not (len(words) <= _SHORT or any(ch.isdigit() for ch in content))


def set_aside_prose(game: Game, state: State, player: str, lines: list[str]) -> tuple[list[str], list[str]]:
    """The lines with prose blanked (so the game's line numbers still count the player's lines),
    and the prose lines set aside."""
    names = order_keywords(game)
    if not names:
        return lines, []
    keywords = folded_names(names)
    closing = _closing_at(lines)
    suspects = []
    for i, line in enumerate(lines):
        content = _content(line)
        if not content:
            continue
        in_signature = closing is not None and i > closing
        if in_signature or is_salutation(content) or _sentence(content) \
                or not _order_word(_first_word(content), keywords):
            suspects.append(i)
    if not suspects:
        return lines, []
    failing = _failing(game, state, player, "\n".join(lines))
    if failing is None:
        return lines, []
    kept, aside = list(lines), []
    for i in suspects:
        if i + 1 not in failing:
            continue
        if (closing is not None and i > closing) or _is_prose(game, state, player, lines[i], keywords):
            aside.append(lines[i].strip())
            kept[i] = ""
    return kept, aside
