"""Header values made safe, for the mail the referee reads and the mail it writes.

Text from players ends up in headers (a subject, a name) and Message-IDs are copied from one
mail into another (In-Reply-To): the inbound reader and the outbound composer both go through
these functions, so a value is cleaned the same way whichever way it travels.
"""

from __future__ import annotations

import re

# C0/C1 controls, zero-width characters, bidi overrides and the Unicode line separators: none
# belongs in a one-line header, and the invisible ones only serve to disguise text.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
MESSAGE_ID = re.compile(r"<([^<>\s]{1,250})>")


def sanitise_header(value: object, limit: int = 200) -> str:
    """Make player-supplied text safe for an outgoing header: one line, no controls, bounded.

    All whitespace (CR, LF, tabs, U+2028 and the like) collapses to one space, so the result can
    never start a new header line, whatever the text went through before.
    """
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    text = _CONTROL.sub("", text)
    text = " ".join(text.split())
    if limit >= 0 and len(text) > limit:
        text = text[:limit].rstrip()
    return text


def normalise_message_id(value: str | None) -> str | None:
    """``<id@host>`` form of a Message-ID-like header, or None when there is nothing usable."""
    if value is None:
        return None
    found = MESSAGE_ID.search(value)
    if found:
        inner = sanitise_header(found.group(1), 250)
    else:
        inner = sanitise_header(value, 250).strip("<>")
        if not inner or " " in inner or "@" not in inner:
            return None
    if not inner:
        return None
    return f"<{inner}>"
