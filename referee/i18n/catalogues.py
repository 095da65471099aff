"""The `.po` catalogues checked and kept: what a test and `make catalogues` need.

English is the source language; its catalogue repeats each message, so that every supported
language, English included, is checked the same way and an English wording can be changed
in one place without touching the code.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from . import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES, LOCALE_DIR

_FIELDS = re.compile(r"\{[a-z_]+(?:![rs])?(?::[^{}]*)?\}|%\([a-z_]+\)s")  # str.format fields and Jinja's trans placeholders
TEMPLATE = Path(__file__).resolve().parent / f"{DOMAIN}.pot"


def fields(text: str) -> set[str]:
    """The placeholders of a message, a `{name!r}` counted as `{name}`: a translation may show
    a value in its own quotation marks (`«{name}»`) where English quotes it with repr."""
    return {re.sub(r"!r(?=[:}])", "", p) for p in _FIELDS.findall(text)}


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def load(path: Path, lang: str | None = None) -> Catalog:
    """The catalogue at `path`, to read only: it is read once while the file stays as it is
    (its size and time of change the same) and shared by every caller. The language checks
    of the demo ask for the template once for every mail they read, and parsing it took ten
    processor-milliseconds each time. Whoever changes a catalogue reads their own (`_read`)."""
    stat = path.stat()
    return _kept(str(path.resolve()), stat.st_mtime_ns, stat.st_size, lang)


@lru_cache(maxsize=16)  # the template and a catalogue per language, with room for test copies
def _kept(path: str, mtime_ns: int, size: int, lang: str | None) -> Catalog:
    return _read(Path(path), lang)


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def problems(lang: str) -> list[str]:
    """Every message of the template that `lang` lacks, leaves empty or marks fuzzy, and every
    translation whose placeholders differ from the message's (Babel's own checks)."""
    template, catalog = load(TEMPLATE), load(po_path(lang), lang)
    found: list[str] = []
    for message in template:
        if not message.id:
            continue
        translated = catalog.get(message.id, context=message.context)
        label = repr(message.id if isinstance(message.id, str) else message.id[0])
        strings = [] if translated is None else (
            list(translated.string) if isinstance(translated.string, (list, tuple)) else [translated.string])
        if translated is None or not strings or not all(strings):
            found.append(f"{lang}: no translation of {label}")
        elif translated.fuzzy:
            found.append(f"{lang}: the translation of {label} is marked fuzzy")
        else:
            ids = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
            wanted = {p for text in ids for p in fields(text)}
            for text in strings:
                if fields(text) != wanted:
                    found.append(f"{lang}: the translation of {label} has the placeholders "
                                 f"{sorted(fields(text))}, not {sorted(wanted)}")
    for message, errors in catalog.check():
        for error in errors:
            found.append(f"{lang}: {message.id!r}: {error}")
    return found


def fill_source_language() -> None:
    """The English catalogue: each message as itself, a wording already changed kept."""
    path = po_path(DEFAULT_LANGUAGE)
    catalog = _read(path, DEFAULT_LANGUAGE)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            if not all(message.string or ()):
                message.string = (message.id[0], message.id[1])
        elif not message.string:
            message.string = message.id
        message.flags.discard("fuzzy")
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False)


def main(argv: list[str]) -> int:
    """`python -m referee.i18n.catalogues fill|check`."""
    if argv[:1] == ["fill"]:
        fill_source_language()
        return 0
    if argv[:1] == ["check"]:
        found = [p for lang in LANGUAGES for p in problems(lang)]
        print("\n".join(found) or "every message is translated in " + ", ".join(LANGUAGES))
        return 1 if found else 0
    print("usage: python -m referee.i18n.catalogues fill|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
