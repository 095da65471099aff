"""Parts of a report rendered once and used again while what they show has not changed.

The HTML part of every report shows the whole table, and most of the table is the same from
one mail to the next (the ships at sea, the privileges, the palace, the buildings for sale);
the text part shows the parts that changed since the reader's last mail, often the same ones
another reader was shown a moment before. A layout marks such a part: `{% cached key, ... %}...{% endcached %}`, the keys being what the
part depends on (the short hashes of the view's parts that a report computes anyway,
`sections`, and the reader's name when the part highlights the reader's own pieces). A part
keyed by the view's hashes alone is shared by every reader whose view of it is the same: a
reader's view holds only what that reader may see, and equal hashes mean equal content. The
rendered part is kept under the keys, the template's name and the tag's line, in its
language's environment (each language has one), and used again when the same keys come back.
A key that is not defined (a view rendered outside a report) leaves the part uncached.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable

from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from jinja2.runtime import Undefined

KEPT = 4096  # parts per language; a report has about a dozen, and games go on for weeks


class CachedParts(Extension):
    tags = {"cached"}

    def __init__(self, environment: Any) -> None:
        super().__init__(environment)
        environment.extend(cached_parts=_Parts(KEPT))

    def parse(self, parser: Parser) -> nodes.Node:
        token = next(parser.stream)
        keys = [parser.parse_expression()]
        while parser.stream.skip_if("comma"):
            keys.append(parser.parse_expression())
        body = parser.parse_statements(("name:endcached",), drop_needle=True)
        where = nodes.Const(f"{parser.name}:{token.lineno}")
        call = self.call_method("_part", [where, nodes.List(keys)])
        return nodes.CallBlock(call, [], [], body).set_lineno(token.lineno)

    def _part(self, where: str, keys: list[Any], caller: Callable[[], str]) -> str:
        if any(isinstance(key, Undefined) for key in keys):
            return caller()
        key = (where, *(str(k) for k in keys))
        parts: _Parts = self.environment.cached_parts  # type: ignore[attr-defined]
        found = parts.get(key)
        if found is None:
            found = caller()
            parts.put(key, found)
        return found


class _Parts:
    """A bounded, thread-safe store of rendered parts: the oldest used goes first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.hits = 0  # parts used again, for a look at how well they serve
        self._kept: OrderedDict[tuple[str, ...], str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...]) -> str | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                self.hits += 1
            return found

    def put(self, key: tuple[str, ...], value: str) -> None:
        with self._lock:
            self._kept[key] = value
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
