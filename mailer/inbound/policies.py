"""The email policies the referee reads mail with.

The standard library's header registry builds a new class for every header it is asked for
(`HeaderRegistry.__getitem__` calls `type()` each time), which made a third of the cost of
reading and writing one mail, and every `get_content_type()` parses the header again. These
policies behave exactly like `email.policy.default` (outgoing mail is written by hand,
mailer/outbound/compose.py, and needs none); their registry keeps the classes it has built
(keyed by class, not name, so invented header names cannot grow it) and the last few hundred
parsed headers (most mail repeats the same Content-Type and MIME-Version lines). Header
objects are never changed once built, so sharing them is safe.
"""

from __future__ import annotations

from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry


PARSED_KEPT = 512
LONGEST_KEPT = 1000


class CachedHeaderRegistry(HeaderRegistry):
    def __init__(self) -> None:
        super().__init__()
        self._built: dict[type, type] = {}
        self._parsed: dict[tuple[str, str], BaseHeader] = {}

    def __call__(self, name: str, value: str) -> BaseHeader:
        key = (name, value)
        header = self._parsed.get(key)
        if header is None:
            header = self[name](name, value)
            if len(value) <= LONGEST_KEPT:
                if len(self._parsed) >= PARSED_KEPT:
                    self._parsed.clear()
                self._parsed[key] = header
        return header

    def __getitem__(self, name: str) -> type:
        kind = self.registry.get(name.lower(), self.default_class)
        built = self._built.get(kind)
        if built is None:
            built = self._built[kind] = type("_" + kind.__name__, (kind, self.base_class), {})
        return built


class SalvagingHeaderRegistry(CachedHeaderRegistry):
    """For a second reading of a mail whose first reading failed: a header the standard
    library cannot parse (in Python 3.11 a Content-Type with a broken RFC 2231 piece such as
    `name*1*` raises IndexError) is read as far as it can be: the parameters that parse are
    kept, the others dropped; failing that, the value is kept as plain text."""

    def __call__(self, name: str, value: str) -> BaseHeader:
        try:
            return super().__call__(name, value)
        except Exception:
            return self._salvaged(name, value)

    def _salvaged(self, name: str, value: str) -> BaseHeader:
        head, *params = value.split(";")
        kept = head
        for param in params:
            try:
                super().__call__(name, f"{kept};{param}")
            except Exception:
                continue  # this piece is what breaks the parser
            kept = f"{kept};{param}"
        try:
            return super().__call__(name, kept)
        except Exception:
            return self["x-unparsed"](name, value)  # the default class: unstructured text


DEFAULT = policy.default.clone(header_factory=CachedHeaderRegistry())
SALVAGING = policy.default.clone(header_factory=SalvagingHeaderRegistry())
