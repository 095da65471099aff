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

from . import translations

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


def say(message: Message, lang: str, game: Any = None, zone: str | None = None) -> str:
    """A message in `lang` (a plain string as it is), for a reader in time zone `zone`."""
    if isinstance(message, str):
        return message
    if "moment" in message:
        from ..timekeeping import from_iso, show_moment

        return show_moment(from_iso(str(message["moment"])), zone, lang)
    if "orders" in message:
        if game is None:
            return str(message["orders"])
        from .terms import localise

        return " | ".join(localise(game, lang, line) for line in str(message["orders"]).split(" | "))
    values = {key: say(value, lang, game, zone) if isinstance(value, Mapping) else value
              for key, value in (message.get("args") or {}).items()}
    english = str(message["msg"])
    return translations(lang).gettext(english).format(**values)
