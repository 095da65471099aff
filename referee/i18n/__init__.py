"""The languages Referee writes to players in, and the gettext catalogues behind them.

Every message a player reads is written in English in the code and the templates and looked
up in `locale/<lang>/LC_MESSAGES/referee.po` (compiled to `.mo` by `make install`; a checkout
or a wheel without the `.mo` compiles the `.po` in memory the first time it is needed, so a
fresh clone never writes to players in a half-translated mix). docs/languages.md says how to
add a language.
"""

from __future__ import annotations

import gettext as _gettext
import io
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

DOMAIN = "referee"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "de", "it")  # English first: the source language and the canonical order text
NAMES = {"en": "English", "de": "Deutsch", "it": "Italiano"}
# Other ways a player may name a language in `LANGUAGE ...`: its names in the three languages.
_ALIASES = {
    "english": "en", "englisch": "en", "inglese": "en", "eng": "en",
    "deutsch": "de", "german": "de", "tedesco": "de", "ger": "de", "deu": "de",
    "italiano": "it", "italian": "it", "italienisch": "it", "ita": "it",
}
# A moment as each language writes it in a deadline (CLDR patterns, read by Babel).
_MOMENT = {"en": "EEE d MMM y HH:mm", "de": "EEE, d. MMM y, HH:mm", "it": "EEE d MMM y, HH:mm"}
# The same without the year, for a subject line.
_SHORT_MOMENT = {"en": "EEE d MMM HH:mm", "de": "EEE, d. MMM, HH:mm", "it": "EEE d MMM, HH:mm"}


class LanguageError(ValueError):
    """A language Referee does not speak; the message lists the ones it does."""


def language_code(text: str | None) -> str:
    """`de`, `DE`, `de_CH`, `Deutsch`, `german` -> `de`; LanguageError for anything else."""
    raw = (text or "").strip().lower().replace("-", "_")
    code = _ALIASES.get(raw, raw.split("_", 1)[0])
    if code not in LANGUAGES:
        choices = ", ".join(f"{c} ({NAMES[c]})" for c in LANGUAGES)
        raise LanguageError(f"no language {text!r} here; choose one of {choices}")
    return code


def language_or_default(code: str | None) -> str:
    """A stored language, or English for a game or seat that never chose one."""
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def _compiled(lang: str) -> bytes | None:
    """The `.mo` bytes of a language: the file `make install` wrote when it is newer than the
    `.po`, else the `.po` compiled now with Babel."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        return mo.read_bytes()
    if not po.is_file():
        return None
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@lru_cache(maxsize=None)
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of a language; English (and any language without one) falls back to the
    message as written in the code."""
    data = _compiled(language_or_default(lang))
    if data is None:
        return _gettext.NullTranslations()
    return _gettext.GNUTranslations(io.BytesIO(data))


def gettext(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).ngettext(singular, plural, n)


def pgettext(lang: str, context: str, message: str) -> str:
    return translations(lang).pgettext(context, message)


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; it is translated where it is shown."""
    return message


def format_number(value: float | int, lang: str) -> str:
    """`12,345` in English, `12.345` in German and Italian."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=language_or_default(lang))


def format_moment(moment: datetime, lang: str, year: bool = True) -> str:
    """A moment's day and time as the language writes them: `Tue 1 Dec 2026 19:00`,
    `Di., 1. Dez. 2026, 19:00`, `mar 1 dic 2026, 19:00`; without the year, `Tue 1 Dec 19:00`."""
    from babel.dates import format_datetime

    lang = language_or_default(lang)
    return format_datetime(moment, (_MOMENT if year else _SHORT_MOMENT)[lang], tzinfo=moment.tzinfo, locale=lang)


def recipient_language(meta: Mapping[str, Any], player: str | None) -> str:
    """The language a player reads: their own choice, else the game's, else English."""
    for seat in meta.get("seats", []):
        if seat["name"] == player and seat.get("language"):
            return language_or_default(seat["language"])
    return language_or_default(meta.get("language"))
