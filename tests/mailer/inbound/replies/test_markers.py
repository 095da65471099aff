"""Each language's quote markers end the new text wherever a client puts them: attributions on
one line or wrapped over two or three, Outlook header blocks (bold or not), separators and
phone footers. The corpus (test_shapes.py) has whole replies; these cover every wrap of every
attribution, which the corpus has for some languages only."""

from __future__ import annotations

import textwrap

import pytest

from mailer.inbound.quotes import split_reply

from .languages import LANGUAGES

WHO = "Referee of the games <c@games.test>"
ORDERS = ["take consul", "defend 4"]
QUOTE = ["> ORDERS c r1-auction-2", "> # stay", "> END"]
UNMARKED = ["ORDERS c r1-auction-2", "# stay", "END"]
# Attributions without a verb ("вт, 3 мар. 2026 г. в 10:12, Ann <a@x>:") are only taken for
# one when a ">" quote follows: their clients always mark the quote.
VERBLESS = {("ru", "gmail"), ("ja", "gmail")}


def wrapped(line: str, lines: int) -> list[str]:
    """*line* wrapped at the widest width that gives exactly *lines* lines, as a client wraps it."""
    if lines == 1:
        return [line]
    for width in range(len(line), 8, -1):
        out = textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
        if len(out) == lines:
            return out
    raise AssertionError(f"{line!r} cannot be wrapped over {lines} lines")


def own(body: list[str]) -> list[str]:
    return [body[i] for i in split_reply(body).own if body[i].strip()]


CASES = [(code, kind, lines) for code in LANGUAGES for kind in ("gmail", "apple", "thunderbird") for lines in (1, 2, 3)]


@pytest.mark.parametrize("code, kind, lines", CASES, ids=[f"{c}-{k}-{n}" for c, k, n in CASES])
def test_an_attribution_wrapped_or_not_starts_the_quote(code, kind, lines):
    attribution = wrapped(getattr(LANGUAGES[code], kind).format(who=WHO), lines)
    assert own(ORDERS + [""] + attribution + [""] + QUOTE) == ORDERS  # top-posted
    assert own(attribution + [""] + QUOTE + ["", *ORDERS]) == ORDERS  # bottom-posted
    if (code, kind) not in VERBLESS:  # a client that does not mark its quote at all
        assert own(ORDERS + [""] + attribution + [""] + UNMARKED) == ORDERS


@pytest.mark.parametrize("code", sorted(LANGUAGES))
@pytest.mark.parametrize("bold", [False, True], ids=["plain", "bold"])
def test_an_outlook_header_block_ends_the_new_text(code, bold):
    lang = LANGUAGES[code]
    mark = "*" if bold else ""
    values = (WHO, lang.sent, "Bob <bob@players.test>", "Re: c: your turn")
    block = [f"{mark}{label}:{mark} {value}" for label, value in zip(lang.outlook, values)]
    assert own(ORDERS + ["", lang.separator] + block + [""] + UNMARKED) == ORDERS
    assert own(ORDERS + ["", "_" * 32] + block + [""] + UNMARKED) == ORDERS
    assert own(ORDERS + [""] + block + [""] + UNMARKED) == ORDERS


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_a_phone_footer_or_a_separator_ends_the_new_text(code):
    lang = LANGUAGES[code]
    assert own(ORDERS + ["", lang.phone, ""] + UNMARKED) == ORDERS
    assert own(ORDERS + ["", f"-------- {lang.separator.strip('-')} --------"] + UNMARKED) == ORDERS
    assert own(ORDERS + ["", "-- ", lang.name] + UNMARKED) == ORDERS
