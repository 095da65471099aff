"""HTML-only mail to plain text, with the quoted history that mail clients append marked.

Only the stdlib parser is used: it never executes anything and copes with broken markup. The
quote containers of the common clients are found here, before any text exists, because once
flattened a quote looks like fresh text: their lines come out with ``>`` marks, one per level,
as a plain-text client would quote them. The quoted part is then left out of the new text the
same way as in a plain-text reply, and an ORDERS block the player typed into it can still be
found (mailer/inbound/orders.py).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["MAX_MARKUP", "html_to_text"]

_BLOCK = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "fieldset",
        "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot",
        "th", "thead", "tr", "ul",
    }
)
_SKIP_ALWAYS = frozenset({"head", "script", "style", "title", "template", "noscript"})
_QUOTE_CLASSES = frozenset({"gmail_quote", "gmail_quote_container", "yahoo_quoted", "moz-cite-prefix"})
# Signature containers: dropped, but what follows them is still read.
_SKIP_CLASSES = frozenset({"gmail_signature", "moz-signature"})
_SKIP_IDS = frozenset({"signature", "ms-outlook-mobile-signature", "ms-outlook-ios-signature"})
# Outlook puts the quoted message after these markers as siblings, not inside them: the rest of
# the document is quoted.
_CUT_IDS = frozenset({"divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
_SPACES = re.compile(r"[ \t\r\n\f\v]+")


class _TextExtractor(HTMLParser):
    def __init__(self, limit: int) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit
        self.skip_tag: str | None = None
        self.skip_depth = 0
        self.pre_depth = 0
        self.quotes: list[list] = []  # open quote containers: [tag, how many of that tag are open]
        self.after_cut = 0  # 1 once Outlook's reply marker has passed: the rest is quoted

    # -- structure -------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip_tag is not None:
            if tag == self.skip_tag and tag not in _VOID:
                self.skip_depth += 1
            return
        values = {name.lower(): (value or "") for name, value in attrs}
        element_id = values.get("id", "").strip().lower()
        classes = set(values.get("class", "").lower().split())
        if element_id in _CUT_IDS and not self.after_cut:
            self._newline()
            self.after_cut = 1
        if tag in _SKIP_ALWAYS or classes & _SKIP_CLASSES or element_id in _SKIP_IDS:
            if tag not in _VOID:
                self.skip_tag, self.skip_depth = tag, 1
            return
        if tag not in _VOID:
            if tag == "blockquote" or classes & _QUOTE_CLASSES:
                self._newline()
                self.quotes.append([tag, 1])
            else:
                for frame in reversed(self.quotes):
                    if frame[0] == tag:
                        frame[1] += 1
                        break
        if tag == "pre":
            self.pre_depth += 1
        if tag == "br":
            self._emit("\n")
        elif tag in _BLOCK:
            self._newline()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip_tag is not None:
            return
        if tag == "br":
            self._emit("\n")
        elif tag in _BLOCK:
            self._newline()

    def handle_endtag(self, tag: str) -> None:
        if self.skip_tag is not None:
            if tag == self.skip_tag:
                self.skip_depth -= 1
                if self.skip_depth <= 0:
                    self.skip_tag, self.skip_depth = None, 0
            return
        if tag == "pre" and self.pre_depth:
            self.pre_depth -= 1
        if tag in _BLOCK and tag != "br":
            self._newline()
        for index in range(len(self.quotes) - 1, -1, -1):
            if self.quotes[index][0] == tag:
                self.quotes[index][1] -= 1
                if self.quotes[index][1] <= 0:
                    self._newline()
                    del self.quotes[index:]
                break

    def handle_data(self, data: str) -> None:
        if self.skip_tag is not None:
            return
        if self.pre_depth:
            self._emit(data.replace("\r\n", "\n").replace("\r", "\n"))
        else:
            text = _SPACES.sub(" ", data)
            at_line_start = not self.parts or self.parts[-1].endswith("\n")
            if at_line_start:
                text = text.lstrip(" ")
            self._emit(text)

    # -- output ----------------------------------------------------------------------------
    def _newline(self) -> None:
        """A block boundary: ends the current line unless it is already ended."""
        if self.parts and not self.parts[-1].endswith("\n"):
            self._emit("\n")

    def _emit(self, text: str) -> None:
        if not text or self.size >= self.limit:
            return
        depth = self.after_cut + len(self.quotes)
        if depth:
            mark = ">" * depth + " "
            if not self.parts or self.parts[-1].endswith("\n"):
                text = mark + text
            text = text.replace("\n", "\n" + mark)
            if text.endswith("\n" + mark):
                text = text[: -len(mark)]
        self.parts.append(text)
        self.size += len(text)


def _defuse(html: str) -> str:
    """Rewrite markup so that html.parser never rescans the document (linear time).

    On Python 3.11.7 a few hundred kilobytes of unclosed ``<!--`` or ``</`` take minutes,
    because each one searches to the end of the input. Here comments, declarations, processing
    instructions and marked sections are removed, a construct without its closing delimiter
    swallows the rest of the input (as in a browser), and a ``<`` that cannot start a tag
    becomes text. Every search starts where the previous one ended, or ends the loop.
    """
    out: list[str] = []
    pos = 0
    length = len(html)
    while pos < length:
        start = html.find("<", pos)
        if start < 0:
            out.append(html[pos:])
            break
        out.append(html[pos:start])
        rest = html[start + 1 : start + 4]
        if rest.startswith("!--"):
            close, skip = html.find("-->", start + 4), 3
        elif rest.startswith("!") or rest.startswith("?"):
            close, skip = html.find(">", start + 2), 1
        elif rest[:1].isalpha() or (rest[:1] == "/" and rest[1:2].isalpha()):
            close = html.find(">", start + 1)
            if close < 0:
                break
            out.append(html[start : close + 1])
            pos = close + 1
            continue
        else:
            out.append("&lt;")
            pos = start + 1
            continue
        if close < 0:
            break
        pos = close + skip
    return "".join(out)


MAX_MARKUP = 100_000  # characters parsed: a reply quoting eight reports; html.parser reads about 0.4 MB a second


def html_to_text(html: str, limit: int = 256 * 1024) -> str:
    """Readable text of *html*: one line per block, quotes marked with ``>``, styles gone,
    entities decoded. Only the first MAX_MARKUP characters are parsed (the stdlib parser reads
    half a megabyte a second): what lies beyond is far down the quoted history."""
    parser = _TextExtractor(limit)
    try:
        parser.feed(_defuse(html[:MAX_MARKUP]))
        parser.close()
    except Exception:  # the parser may give up on broken markup; keep what it produced
        pass
    lines = [line.rstrip(" \t") for line in "".join(parser.parts).split("\n")]
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)[:limit]
