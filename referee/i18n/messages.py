"""Messages made now and read later, by players of different languages.

A notice for the next report, or an announcement to every player, is decided once but read by
each player in their own language. It is therefore kept as a message, `msg("... {name} ...",
name=...)`: the English text as written in the code (the gettext key) and its values, plain
JSON so it can wait in the game file. `say` writes it in a language when the mail is made. A
value may itself be a message (a reason inside a sentence); a plain string is shown as it is
(the moderator's own words, text from before messages were kept this way).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Union

from . import DEFAULT_LANGUAGE, translations

Message = Union[str, Mapping[str, Any]]


def msg(text: str, **values: Any) -> dict[str, Any]:
    """A message to be written later in each reader's language; `text` is extracted for the
    catalogues (`-k msg`) and its `{fields}` are filled from `values`."""
    return {"msg": text, "args": values}


def orders(text: str) -> dict[str, str]:
    """A value that is canonical order text, shown in the reader's language when the game is
    known where the message is written (`say(..., game=...)`)."""
    return {"orders": text}


def moment(value: datetime) -> dict[str, str]:
    """A value that is a moment, written as the reader's language writes dates, in the
    reader's time zone when it is known where the message is written."""
    from ..timekeeping import to_iso

    return {"moment": to_iso(value)}


def kept_message(message: Any) -> Message:
    """A message as it can wait in the game file: a game's phrase as its JSON (a plain string
    would lose how to say it in another language), anything else as it is."""
    to_json = getattr(message, "to_json", None)
    return to_json() if to_json is not None and isinstance(message, str) else message


def say(message: Message | Any, lang: str, game: Any = None, zone: str | None = None) -> str:
    """A message in `lang`, for a reader in time zone `zone`: a message kept as JSON (`msg`, a
    game's `Phrase.to_json`), or a game's phrase, term, list or order text itself
    (`referee.wording`; the game, when given, knows its terms and order words). A plain
    string is shown as it is."""
    if isinstance(message, str):
        to_json = getattr(message, "to_json", None)
        if to_json is None or lang == DEFAULT_LANGUAGE:
            return str(message)  # English: the phrase's own text, exactly as the game wrote it
        message = to_json()
    if not isinstance(message, Mapping):
        return str(message)
    if "moment" in message:
        from ..timekeeping import from_iso, show_moment

        return show_moment(from_iso(str(message["moment"])), zone, lang)
    if "orders" in message:
        if game is None:
            return str(message["orders"])
        from .terms import localise

        return " | ".join(localise(game, lang, line) for line in str(message["orders"]).split(" | "))
    if "menu_order" in message:
        if game is None:
            return str(message["menu_order"])
        from .terms import localise_menu

        return localise_menu(game, lang, str(message["menu_order"]))
    if "term" in message:
        return _term(game, lang, str(message["term"]))
    if "list" in message:
        return _listing([say(item, lang, game, zone) for item in message["list"]], str(message.get("last") or ""),
                        lang)
    if "msg" not in message:
        return str(message)
    values = {key: say(value, lang, game, zone) if isinstance(value, (Mapping, str)) else value
              for key, value in (message.get("args") or {}).items()}
    t = translations(lang)
    if message.get("plural") is not None:
        count = int(message.get("n") or 0)
        return t.ngettext(str(message["msg"]), str(message["plural"]), count).format(n=count, **values)
    if message["msg"] == IN_A_ROW and isinstance(values.get("rest"), str):
        values["rest"] = after_semicolon(values["rest"], lang)
    return t.gettext(str(message["msg"])).format(**values)


IN_A_ROW = "{first}; {rest}"  # `referee.wording.in_a_row`: sentences joined by semicolons
# Words that begin a sentence with a capital only because they begin it; after a semicolon
# they are written small. German nouns keep their capital, so only these are lowered there.
_SMALL_AFTER_SEMICOLON = {
    "de": {"Dein", "Deine", "Deinen", "Deinem", "Deiner", "Du", "Die", "Der", "Das", "Den", "Dem", "Ein", "Eine",
           "Es", "Er", "Sie", "Wer", "Niemand", "Nichts", "Alle", "Jetzt", "Dann"},
    "it": {"Il", "Lo", "La", "I", "Gli", "Le", "Un", "Uno", "Una", "Tu", "Ti", "Nessuno", "Niente", "Ora", "Poi",
           "Tutti", "Questo", "Questa", "Per", "In", "Non"},
}


def after_semicolon(text: str, lang: str) -> str:
    """The second of two sentences joined by a semicolon, its first letter small as the
    language writes it there: articles, pronouns and the like, never a name (German nouns,
    an office's title) nor an order written in capitals."""
    first = text.split(" ", 1)[0]
    word = first.split("'", 1)[0] if "'" in first[:4] else first  # L'asta, Un'altra
    if word in _SMALL_AFTER_SEMICOLON.get(lang, ()) or (lang == "it" and word in ("L", "Un", "Dell", "All")):
        return text[:1].lower() + text[1:]
    return text


def _term(game: Any, lang: str, word: str) -> str:
    if game is None:
        return word
    from .terms import term

    return term(str(getattr(game, "name", "")), lang, word)


def _listing(items: list[str], last: str, lang: str) -> str:
    """`a, b or c` in `lang`."""
    if not last or len(items) < 2:
        return ", ".join(items)
    t = translations(lang)
    joiner = t.gettext(" or ") if last == "or" else t.gettext(" and ")
    return f"{', '.join(items[:-1])}{joiner}{items[-1]}"
