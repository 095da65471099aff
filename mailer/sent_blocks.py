"""The ORDERS block of each mail sent to a player, kept so that a reply can be compared with it.

A player may type their orders into the report's ORDERS block where their client quoted it.
Only a comparison with the block as it was sent tells the lines they added or changed from the
lines the referee wrote, however their client quoted or re-wrapped it. The block is kept as a
fingerprint per line (a short hash of the line with its spacing and letter case evened out), in
its own table of the game's file, for the last few mails with a block to each address: a reply
to an older mail names a phase that has closed, which is refused anyway, and a game's file is
rewritten with every turn, so it must not grow with every report ever sent.

Both directions use it: mailer/outbound/outbox.py remembers the block of each mail it queues,
mailer/daemon/reading.py looks it up by the Message-ID a reply names in In-Reply-To or References,
or, for a reply that names none on record (a client that drops those headers, a reply to a
copy forwarded to oneself), among the blocks sent to the player's address with the tag the
quoted block carries (`sent_blocks_to`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Iterable

from referee.store import GameTransaction

__all__ = ["KEPT_PER_ADDRESS", "TABLE", "SentBlock", "block_of", "fingerprint", "remember", "sent_block",
           "same_tag", "sent_blocks_to"]

TABLE = "sent_blocks"
KEPT_PER_ADDRESS = 3
_PRINT = 8  # hex digits of a line's fingerprint
_START = re.compile(r"^ORDERS(?:\s+(?P<tag>\S.*?))?\s*$")
_SPACES = re.compile(r"\s+")


def fingerprint(line: str) -> str:
    """A line's short hash, the same whatever its spacing and letter case."""
    even = _SPACES.sub(" ", line).strip().casefold()
    return hashlib.blake2s(even.encode("utf-8"), digest_size=_PRINT // 2).hexdigest()


def same_tag(a: str | None, b: str | None) -> bool:
    """Two ORDERS tags name the same game and phase, whatever their spacing and letter case."""
    return a is not None and b is not None and _SPACES.sub(" ", a).strip().casefold() == \
        _SPACES.sub(" ", b).strip().casefold()


def block_of(text: str) -> tuple[str | None, list[str]] | None:
    """The tag and the lines between the ORDERS and END lines of a mail the referee wrote."""
    lines = text.splitlines()
    for start, line in enumerate(lines):
        found = _START.match(line.strip())
        if found is None:
            continue
        for end in range(start + 1, len(lines)):
            if lines[end].strip() == "END":
                return found.group("tag"), lines[start + 1 : end]
        return None
    return None


@dataclass(frozen=True)
class SentBlock:
    """The block of one mail sent: its tag and the fingerprints of its lines, in order."""

    message_id: str
    tag: str | None
    prints: tuple[str, ...]

    @classmethod
    def of(cls, record: dict) -> SentBlock:
        prints = record.get("prints") or ""
        return cls(record["message_id"], record.get("tag"),
                   tuple(prints[i : i + _PRINT] for i in range(0, len(prints), _PRINT)))


def remember(tx: GameTransaction, message_id: str, to: str, text: str) -> None:
    """Keep the block of a mail being queued, if it has one; forget the oldest beyond
    KEPT_PER_ADDRESS for the same address."""
    found = block_of(text)
    if found is None:
        return
    tag, lines = found
    prints = "".join(fingerprint(line) for line in lines if line.strip())
    tx.add_record(TABLE, {"message_id": message_id, "to": to, "tag": tag, "prints": prints})
    same = [record["id"] for record in tx.records(TABLE) if record.get("to") == to]
    if len(same) > KEPT_PER_ADDRESS:
        tx.remove_records(TABLE, sorted(same)[: len(same) - KEPT_PER_ADDRESS])


def sent_block(tx: GameTransaction, message_ids: Iterable[str]) -> SentBlock | None:
    """The kept block of the first of *message_ids* that had one."""
    for message_id in message_ids:
        record = tx.find_record(TABLE, "message_id", message_id)
        if record is not None:
            return SentBlock.of(record)
    return None


def sent_blocks_to(tx: GameTransaction, to: str, tag: str) -> list[SentBlock]:
    """The kept blocks sent to *to* under *tag* (the same game and phase), the newest first."""
    found = [record for record in tx.records(TABLE) if record.get("to") == to and same_tag(record.get("tag"), tag)]
    return [SentBlock.of(record) for record in sorted(found, key=lambda record: record["id"], reverse=True)]
