"""The email policies the referee parses and writes mail with.

The standard library's header registry builds a new class for every header it is asked
for (`HeaderRegistry.__getitem__` calls `type()` each time), which made a third of the cost
of reading and writing one mail, and every `get_content_type()` parses the header again.
These policies behave exactly like `email.policy.default` and `email.policy.SMTP`; their
registry keeps the classes it has built (keyed by class, not name, so invented header names
cannot grow it) and the last few hundred parsed headers (most mail repeats the same
Content-Type and MIME-Version lines). Header objects are never changed once built, so
sharing them is safe.
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


DEFAULT = policy.default.clone(header_factory=CachedHeaderRegistry())
SMTP = policy.SMTP.clone(header_factory=CachedHeaderRegistry())
