"""Seeded randomness that replays identically on every Python version and platform.

`random.shuffle`, `choice` and `randrange` may change between Python releases, so a game log
recorded today might replay differently tomorrow. Here every draw is HMAC-SHA256 of a
per-purpose key and a counter, turned into an integer by rejection sampling: the whole
stream is defined by this file and the seed alone. The stream's position is two JSON values,
so it lives inside the game state and is snapshotted and restored with it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any, MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_WORD_BITS = 64
_WORD_SPAN = 1 << _WORD_BITS
_BLOCK = 64  # SHA-256 block size, for the HMAC pads
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


def new_seed() -> str:
    """A fresh high-entropy seed for a new game (the only place the core uses the OS RNG)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """SHA-256 of the seed, published when a game starts so the seed can't be swapped later."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def verify_commitment(seed: str, published: str) -> bool:
    return hmac.compare_digest(commitment(seed), published.strip().lower())


class Rng:
    """A deterministic stream of draws. One per purpose (deck, turn order, …), so that one
    extra draw for one purpose never shifts the draws of another."""

    __slots__ = ("_key", "counter", "_inner", "_outer")

    def __init__(self, key: bytes, counter: int = 0) -> None:
        self._key = key
        self.counter = counter
        # HMAC's two keyed hash states, computed once: every draw then costs two short
        # hashes instead of setting up a new HMAC object (the stream is the same)
        padded = (hashlib.sha256(key).digest() if len(key) > _BLOCK else key).ljust(_BLOCK, b"\0")
        self._inner = hashlib.sha256(padded.translate(_IPAD))
        self._outer = hashlib.sha256(padded.translate(_OPAD))

    @classmethod
    def from_seed(cls, seed: str, purpose: str = "") -> "Rng":
        key = hmac.new(seed.encode("utf-8"), b"referee/" + purpose.encode("utf-8"), hashlib.sha256)
        return cls(key.digest())

    # -- persistence inside a state

    def to_json(self) -> dict[str, Any]:
        return {"key": self._key.hex(), "counter": self.counter}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Rng":
        return cls(bytes.fromhex(data["key"]), int(data["counter"]))

    # -- draws

    def _word(self) -> int:
        """HMAC-SHA256(key, counter as 8 big-endian bytes), first 8 bytes as an integer."""
        inner = self._inner.copy()
        inner.update(self.counter.to_bytes(8, "big"))
        outer = self._outer.copy()
        outer.update(inner.digest())
        self.counter += 1
        return int.from_bytes(outer.digest()[:8], "big")

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _WORD_SPAN - (_WORD_SPAN % n)
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], both ends included."""
        return low + self.randbelow(high - low + 1)

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        if not 0 <= k <= len(items):
            raise ValueError("sample larger than population")
        pool = list(items)
        for i in range(k):
            j = i + self.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
