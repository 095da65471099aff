"""Messages of the templates translated once, when a template is compiled.

Every environment speaks one language (referee/rendering.py), so a message reads the same in
every mail that environment renders, up to the values put into it. Jinja still looks it up at
each rendering, through three calls of its own, and a report has a couple of hundred of them:
a tenth of the time a report takes. This extension reads the template's tokens before they are
compiled and puts the translation in place of the call, exactly as Jinja's newstyle gettext
would give it: marked safe in a template that escapes HTML, then `%`-formatted with the values,
which escapes them there.

- `_("The table")` becomes the translated string (`%%` read as `%`);
- `_("Decade %(decade)s", decade=d)` becomes `("Dekade %(decade)s" % {"decade": d})`.

`{% trans %}` blocks and plurals stay calls. Since the translation is now part of the compiled
template, the compiled templates kept on disk are kept per language, per catalogue and per
version of this rewriting (`cache_key`).
"""

from __future__ import annotations

import hashlib
from typing import Iterator

from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

from . import _compiled, translations

VERSION = 3  # of the rewriting below: compiled templates kept on disk are kept per version


class CompiledMessages(Extension):
    """Translates `_("...")` and `_("...", name=value, ...)` when the template is compiled, in
    the environment's language (`environment.globals["lang"]`, set before any template is
    loaded)."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        env = self.environment
        lang = env.globals.get("lang", "en")
        escaped = bool(env.autoescape(stream.name) if callable(env.autoescape) else env.autoescape)
        tokens = list(stream)
        i = 0
        while i < len(tokens):
            end = _message_call(tokens, i)
            if end is None:
                yield tokens[i]
                i += 1
                continue
            yield from _translated(tokens[i:end + 1], lang, escaped)
            i = end + 1


def _message_call(tokens: list[Token], i: int) -> int | None:
    """Where `_("...")` or `_("...", name=value, ...)` starting at `i` ends (its closing
    parenthesis), or None when no such call starts there."""
    kinds = [t.type for t in tokens[i:i + 6]]
    if kinds[:3] != ["name", "lparen", "string"] or tokens[i].value != "_":
        return None
    if i > 0 and tokens[i - 1].type == "dot":  # `x._(...)` is someone else's method
        return None
    if kinds[3:4] == ["rparen"]:
        return i + 3
    if kinds[3:6] != ["comma", "name", "assign"]:
        return None
    depth = 0
    for j in range(i + 1, len(tokens)):
        depth += {"lparen": 1, "rparen": -1}.get(tokens[j].type, 0)
        if depth == 0:
            return j
    return None


def _translated(call: list[Token], lang: str, escaped: bool) -> list[Token]:
    """The tokens of the translation in place of the message's call."""
    line = call[0].lineno
    found = translations(lang).gettext(call[2].value)
    constant = call[3].type == "rparen"
    if constant:
        try:
            found = found % {}
        except (TypeError, ValueError):  # a message with a lone %: leave it to the call
            return call
    text = [Token(line, "string", found)]
    if escaped:
        text = [Token(line, "lparen", "("), *text, Token(line, "pipe", "|"), Token(line, "name", "safe"),
                Token(line, "rparen", ")")]
    if constant:
        return text
    values = _as_dict(call[4:-1], line)  # name=value, ...
    if values is None:
        return call
    return [Token(line, "lparen", "("), *text, Token(line, "mod", "%"), *values, Token(line, "rparen", ")")]


_OPENING, _CLOSING = {"lparen", "lbracket", "lbrace"}, {"rparen", "rbracket", "rbrace"}


def _as_dict(arguments: list[Token], line: int) -> list[Token] | None:
    """`name=value, ...` as the tokens of a dict literal, `{"name": value, ...}` (a literal is
    built in place; `dict(...)` would be one more call through Jinja's context per message);
    None when an argument is not `name=value`."""
    out, depth, at_name, i = [Token(line, "lbrace", "{")], 0, True, 0
    while i < len(arguments):
        token = arguments[i]
        if at_name:
            if token.type != "name" or i + 1 >= len(arguments) or arguments[i + 1].type != "assign":
                return None
            out += [Token(line, "string", token.value), Token(line, "colon", ":")]
            at_name, i = False, i + 2
            continue
        depth += (token.type in _OPENING) - (token.type in _CLOSING)
        at_name = depth == 0 and token.type == "comma"
        out.append(token)
        i += 1
    return [*out, Token(line, "rbrace", "}")]


def cache_key(lang: str) -> str:
    """What a compiled template depends on besides its source: the language and its catalogue."""
    return f"{lang}-{hashlib.sha256(_compiled(lang) or b'').hexdigest()[:12]}-v{VERSION}"
