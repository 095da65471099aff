"""Player secrets and player names.

A token proves who sent a submission (the From address of a mail is no proof). Tokens are
random, short enough to type, and compared in constant time so timing reveals nothing.
"""

from __future__ import annotations

import base64
import hmac
import re
import secrets

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
EMAIL = re.compile(r"^[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+$")


def new_token() -> str:
    """About 80 bits of randomness as 16 lower-case base32 characters."""
    return base64.b32encode(secrets.token_bytes(10)).decode("ascii").lower()


def same_token(given: str | None, stored: str | None) -> bool:
    if not given or not stored:
        return False
    return hmac.compare_digest(given.strip().lower().encode(), stored.encode())


def valid_name(name: str) -> bool:
    return bool(NAME.match(name))


def valid_email(address: str) -> bool:
    return bool(EMAIL.match(address)) and len(address) <= 254
