"""Constant messages of the templates translated once, when a template is compiled.

Every environment speaks one language (referee/rendering.py), so a message without values,
`_("The table")`, reads the same in every mail that environment renders. Jinja still looks it
up at each rendering, through three calls of its own, and a report has a couple of hundred of
them: a tenth of the time a report takes. This extension reads the template's tokens before
they are compiled and puts the translation in place of such a call: a string, marked safe in a
template that escapes HTML (as Jinja's newstyle gettext marks a translation), `%%` read as
`%` (as newstyle gettext formats every message). Messages with values, `{% trans %}` blocks and
plurals stay calls. Since the translation is now part of the compiled template, the compiled
templates kept on disk are kept per language and per catalogue (`cache_folder`).
"""

from __future__ import annotations

import hashlib
from typing import Iterator

from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

from . import _compiled, translations

_CALL = ("name", "lparen", "string", "rparen")


class ConstantMessages(Extension):
    """Translates `_("...")` when the template is compiled, in the environment's language
    (`environment.globals["lang"]`, set before any template is loaded)."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        env = self.environment
        lang = env.globals.get("lang", "en")
        escaped = bool(env.autoescape(stream.name) if callable(env.autoescape) else env.autoescape)
        window: list[Token] = []
        previous = None
        for token in stream:
            window.append(token)
            if len(window) < 4:
                continue
            if self._is_call(window, previous):
                yield from self._constant(window, lang, escaped)
                window, previous = [], window[-1]
                continue
            previous = window.pop(0)
            yield previous
        yield from window

    @staticmethod
    def _is_call(window: list[Token], previous: Token | None) -> bool:
        return (tuple(t.type for t in window) == _CALL and window[0].value == "_"
                and (previous is None or previous.type != "dot"))  # `x._(...)` is someone else's method

    @staticmethod
    def _constant(window: list[Token], lang: str, escaped: bool) -> list[Token]:
        line = window[0].lineno
        try:
            text = translations(lang).gettext(window[2].value) % {}
        except (TypeError, ValueError):  # a message with a lone %: leave it to the call
            return window
        if not escaped:
            return [Token(line, "string", text)]
        return [Token(line, "lparen", "("), Token(line, "string", text), Token(line, "pipe", "|"),
                Token(line, "name", "safe"), Token(line, "rparen", ")")]


def cache_key(lang: str) -> str:
    """What a compiled template depends on besides its source: the language and its catalogue."""
    return f"{lang}-{hashlib.sha256(_compiled(lang) or b'').hexdigest()[:12]}"
