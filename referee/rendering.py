"""Finds the Jinja templates and builds the one environment every renderer uses.

In a checkout the templates are the top-level `templates/` folder; an installed wheel carries
them inside the package as `referee/templates/` (see pyproject.toml), so both places are tried.
Templates are never looked up relative to the current directory.
"""

from __future__ import annotations

import os
import re
import textwrap
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, Sequence

from jinja2 import BytecodeCache, Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, \
    pass_eval_context, select_autoescape
from jinja2.runtime import Context, Macro
from markupsafe import Markup, escape

from . import registry
from .contract import Game, State, menu_lines
from .i18n import DEFAULT_LANGUAGE, LANGUAGES, format_number, language_or_default, translations
from .fragments import CachedParts
from .i18n.compiled import CompiledMessages, cache_key
from .i18n.messages import say
from .i18n.terms import localise_menu, term, wall_name
from .wording import Phrase

_PACKAGE_DIR = Path(__file__).resolve().parent


def template_dir() -> Path:
    for candidate in (_PACKAGE_DIR / "templates", _PACKAGE_DIR.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the Referee templates are missing from this installation")


NBSP = "\u00a0"


def nobreak(text: object) -> str:
    """Spaces that `wrap` must not break at (`Metallum 20 (2)` stays on one line); `wrap` and
    `columns` turn them back into plain spaces, HTML shows them as spaces that hold."""
    return str(text).replace(" ", NBSP)


_NUMBER = re.compile(r"^[-+]?\d+$|^[?-]$")


def columns(rows: Sequence[Sequence[Any]], indent: int = 2, gap: int = 2, width: int = 78) -> str:
    """Rows of cells as aligned lines of a plain-text table. A column whose cells below the
    first row are all numbers (or `?`, `-`) is right-aligned, so figures line up. A last cell
    that would pass `width` goes on below, under its own column."""
    cells = [[str(c).replace(NBSP, " ") for c in row] for row in rows]
    if not cells:
        return ""
    count = max(len(row) for row in cells)
    cells = [row + [""] * (count - len(row)) for row in cells]
    right = [len(cells) > 1 and all(_NUMBER.match(row[i]) for row in cells[1:] if row[i]) for i in range(count)]
    sizes = [max(len(row[i]) for row in cells) for i in range(count)]
    head = indent + sum(sizes[:-1]) + gap * (count - 1)  # where the last column starts
    if not right[-1] and head + sizes[-1] > width:
        sizes[-1] = max(width - head, 12)
    lines = []
    for row in cells:
        parts = [c.rjust(sizes[i]) if right[i] else c.ljust(sizes[i]) for i, c in enumerate(row[:-1])]
        if right[-1]:
            last = [row[-1].rjust(sizes[-1])]
        elif len(row[-1]) <= sizes[-1] and row[-1].isprintable() and row[-1] == row[-1].strip():
            last = [row[-1]]  # what textwrap would give: it fits, and has no whitespace to change
        else:
            last = textwrap.wrap(row[-1], sizes[-1], break_long_words=False) or [""]
        lines.append((" " * indent + (" " * gap).join(parts + [last[0]])).rstrip())
        lines += [" " * head + more for more in last[1:]]
    return "\n".join(lines)


_KEYWORD_AFTER_SPACE = re.compile(r" (?=(?:orders|end)\b)", re.IGNORECASE)


def wrap(text: str, indent: int = 2, hang: int = 4, width: int = 76) -> str:
    """One paragraph filled to `width`, continuation lines indented further (`hang`). A line
    is never broken just before the word "orders" or "end": a line starting with it could be
    read as the start or the end of an ORDERS block by whoever answers the mail."""
    return _wrapped(str(text), indent, hang, width)


def paragraphs(*texts: str, width: int = 78) -> str:
    """Plain mail text of a few paragraphs, each filled to `width`, a blank line between."""
    return "\n\n".join(_wrapped(text, 0, 0, width) for text in texts) + "\n"


@lru_cache(maxsize=8192)  # reports fill the same lines again and again: headings, rows, menu lines
def _wrapped(text: str, indent: int, hang: int, width: int) -> str:
    text = _KEYWORD_AFTER_SPACE.sub(NBSP, re.sub(r"[ \t\n]+", " ", text).strip(" "))
    filled = textwrap.fill(text, width, initial_indent=" " * indent,
                           subsequent_indent=" " * hang, break_long_words=False, break_on_hyphens=False)
    return filled.replace(NBSP, " ")


class MenuText(NamedTuple):
    """A player's menu as written: the orders that answer the decision open now, the standing
    and plan orders (`MenuLine.ahead`, shown under "Plan ahead"), and whether it lists every
    order."""

    now: list[str]
    ahead: list[str]
    complete: bool


def menu_text(game: Game, state: State, player: str, width: int = 72,
              lang: str = DEFAULT_LANGUAGE) -> MenuText:
    """The player's menu (`menu_lines`) as lines no wider than `width`, a long line going on,
    indented, on the next ones. Reports, HELP and receipts all show it this way, with the
    order words in the player's language."""
    menu, complete = menu_lines(game, state, player)
    now: list[str] = []
    ahead: list[str] = []
    for line in menu:
        text = say(line.text, lang, game) if isinstance(line.text, Phrase) else localise_menu(game, lang, line.text)
        for part in text.splitlines():
            (ahead if line.ahead else now).extend(_menu_lines(part, width))
    return MenuText(now, ahead, complete)


@lru_cache(maxsize=4096)
def _menu_lines(part: str, width: int) -> list[str]:
    return textwrap.wrap(part, width, subsequent_indent="    ", break_long_words=False,
                         break_on_hyphens=False) or [""]


_BULLET = re.compile(r"^[-+*] ")


def logical_lines(text: str, width: int = 78) -> list[tuple[int, str]]:
    """Plain text written for `width` columns (`wrap`) back as its logical lines, (indent,
    text), a blank line as (0, ""). A line goes on the one before it when the line before was
    wrapped there (the first word of this one would not have fitted on it), this one starts
    no bullet, and it is indented as a continuation: as deep as the line's continuations so
    far, or, for the first, two columns deeper than a line at the margin and four deeper than
    an indented one (a suggestion under an error is a line of its own), or, in a paragraph
    whose lines are all at the margin (a notice filled flush), at the margin too. What a
    mail's HTML part shows as prose, wrapped by the reader's screen."""
    out: list[tuple[int, str]] = []
    rows = text.splitlines()
    flush = _flush_blocks(rows)
    start = more = -1  # the current logical line's indent and its continuations' (-1: none yet)
    before = 0  # the length of the physical line before
    for number, raw in enumerate(rows):
        body = raw.rstrip().lstrip(" ")
        indent = len(raw) - len(raw.lstrip(" "))
        if not body:
            out.append((0, ""))
            start = more = -1
            before = 0
            continue
        wrapped = start >= 0 and before + 1 + len(_first_chunk(body)) > width and not _BULLET.match(body)
        if indent > start:
            goes_on = wrapped and (indent == more if more >= 0 else indent - start >= (4 if start else 2))
        else:
            goes_on = wrapped and indent == start == 0 and flush[number]
        if goes_on:
            out[-1] = (start, out[-1][1] + " " + body)
            more = indent
        else:
            out.append((indent, body))
            start, more = indent, -1
        before = len(raw.rstrip())
    return out


def _flush_blocks(rows: list[str]) -> list[bool]:
    """For each line, whether the block it stands in (the lines between blank ones) has all
    its lines at the margin: a paragraph filled flush, whose lines go on at the margin."""
    out: list[bool] = []
    block: list[str] = []
    for raw in rows + [""]:
        if raw.strip():
            block.append(raw)
            continue
        out += [all(not line.startswith(" ") for line in block)] * len(block) + [True]
        block = []
    return out[:len(rows)]


_FIRST_CHUNK = re.compile(r"\S+(?: (?:orders|end)\b\S*)*", re.IGNORECASE)


def _first_chunk(line: str) -> str:
    """What `wrap` moved to the start of a line as one piece: its first word, and the words
    "orders" and "end" after it, which `wrap` never begins a line with."""
    found = _FIRST_CHUNK.match(line)
    return found.group(0) if found else line


def prose(text: str) -> Markup:
    """Plain text of a mail (a receipt, a notice) as HTML prose: its logical lines, each on a
    line of its own and indented as it was, wrapped by the reader's screen instead of at 78
    monospaced columns (which a phone would wrap a second time)."""
    parts = []
    for indent, line in logical_lines(text.strip("\n")):
        shown = escape(line)
        parts.append(Markup('<span style="padding-left: {}em">{}</span>').format(indent // 2, shown) if indent
                     else shown)
    return Markup("<br>").join(parts)


def plural(count: int, word: str, words: str | None = None) -> str:
    """`1 contract`, `2 contracts`; irregular plurals are given (`plural(n, "ship", "ships")`)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def environment(lang: str = DEFAULT_LANGUAGE) -> Environment:
    """The environment of a language (any unknown code: English), built once per process."""
    return _environment(language_or_default(lang))


_BUILTIN = type(len)  # builtin functions and the methods of built-in types: `name.split`, `rows.append`


# A macro asks for the evaluation context (`pass_eval_context`), in the Jinja versions known;
# one that does not is called the long way.
_MACRO = Macro if getattr(Macro.__call__, "jinja_pass_arg", None) is \
    getattr(pass_eval_context(lambda: None), "jinja_pass_arg") else None


class _ReportContext(Context):
    """Jinja calls everything a template calls through `Context.call`, which first looks for a
    marker asking for the context (`pass_context`) on the callable and on its `__call__`. A
    built-in function or method (`rows.append`, `view.docks.items`) cannot carry the marker,
    and neither can `dict`: they are called at once, which is most of a report's calls. A
    template's macro (`w.goods(...)`, most of the rest) always asks for the evaluation context
    (`pass_eval_context`, which tells it whether to escape): it gets it at once, as Jinja would
    give it."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's own names)
        if type(__obj) is _MACRO:
            args = (__self.eval_ctx, *args)
        elif type(__obj) is not _BUILTIN and __obj is not dict:
            return super().call(__obj, *args, **kwargs)
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception")


_DICT_NAMES = frozenset(dir(dict))


class _ReportEnvironment(Environment):
    """Jinja reads `a.b` as the attribute `b` first and the item second. A view is plain
    dicts, so for each field a report shows that meant an AttributeError raised and caught
    (about a twentieth of a report's time). A plain dict has no attributes but dict's own, so
    for any other name only the item can answer: it is looked up at once, with the result
    Jinja would give."""

    context_class = _ReportContext

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


@lru_cache(maxsize=None)
def _environment(lang: str) -> Environment:
    """StrictUndefined turns a misspelt variable into an error instead of an empty report;
    HTML is escaped, plain text is not (a text mail must not contain `&amp;`). Templates are
    part of the installation: a compiled template is used for the life of the process, not
    checked against its file on every mail (a changed template takes effect at the next
    start of the daemon).

    One environment per language: Jinja's i18n extension installs its gettext for the whole
    environment, so a shared one could not write each recipient in their own language (the
    worker renders for several games at once, in threads). `{% trans %}` and `_()` use
    newstyle gettext, so a placeholder is filled after translation and escaped in HTML."""
    env = _ReportEnvironment(
        loader=FileSystemLoader(str(template_dir())),
        auto_reload=False,
        undefined=StrictUndefined,
        autoescape=select_autoescape(["html", "htm", "xml"], default_for_string=False),
        keep_trailing_newline=True,
        extensions=["jinja2.ext.do", "jinja2.ext.i18n", CompiledMessages, CachedParts],
        bytecode_cache=_bytecode_cache(lang),
    )
    env.globals["lang"] = lang  # before any template is compiled: CompiledMessages reads it
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.filters.update(columns=columns, wrap=wrap, plural=plural, nobreak=nobreak, prose=prose,
                       number=lambda value: format_number(value, lang),
                       term=lambda word, game: term(game, lang, word),
                       wall=lambda wall, game: wall_name(game, lang, wall),
                       say=lambda message, game=None: say(message, lang, registry.get(game) if game else None))
    return env


def _bytecode_cache(lang: str) -> BytecodeCache | None:
    """Compiled templates kept on disk between processes (Jinja's own cache, in the user's
    cache folder, `$XDG_CACHE_HOME/referee` or `~/.cache/referee`), so that the daemon and each
    of its worker processes start in a fraction of the time compiling every template in every
    language takes. Keyed by each template's source, in a folder per language and catalogue
    (compiled templates hold their constant messages translated): an edited template or
    catalogue is compiled again."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "referee", "templates", cache_key(lang))
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        return FileSystemBytecodeCache(folder)
    except OSError:  # no cache folder to be had: each process compiles for itself
        return None


def preload() -> list[str]:
    """Compile every template in every language now; the names that failed. A daemon does
    this at start, so that the first mail after a restart is not the one that pays for
    compiling (tens of milliseconds per template), and a broken template shows in the log at
    once."""
    broken = []
    for lang in LANGUAGES:
        env = environment(lang)
        for name in env.list_templates():
            try:
                env.get_template(name)
            except Exception as exc:  # reported; rendering with it fails again, per mail, later
                broken.append(f"{name} ({lang}): {exc}")
    return broken


@lru_cache(maxsize=None)
def has_template(name: str) -> bool:
    """Whether a template exists, e.g. a game's own view partial; asked per report, and the
    answer holds for the life of the process, as the compiled templates do."""
    return (template_dir() / name).is_file()


def render(name: str, *, lang: str = DEFAULT_LANGUAGE, **context: object) -> str:
    """A template in the recipient's language (`lang`: a code of `referee.i18n.LANGUAGES`)."""
    return environment(lang).get_template(name).render(**context)
