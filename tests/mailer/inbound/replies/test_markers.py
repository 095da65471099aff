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


# A mail system's warning above the text of mail from outside, in each language read here.
BANNERS = {
    "en": ["CAUTION: This email originated from outside of the organization. Do not click links or open",
           "attachments unless you recognize the sender and know the content is safe."],
    "de": ["ACHTUNG: Diese E-Mail stammt von außerhalb der Organisation.",
           "Klicken Sie nicht auf Links und öffnen Sie keine Anhänge, wenn Sie den Absender nicht kennen."],
    "it": ["ATTENZIONE: questa e-mail proviene dall'esterno dell'organizzazione."],
    "fr": ["ATTENTION : ce courriel provient de l'extérieur de l'organisation."],
    "es": ["PRECAUCIÓN: Este correo electrónico se originó fuera de la organización."],
    "nl": ["LET OP: deze e-mail is afkomstig van buiten de organisatie."],
    "pl": ["UWAGA: ta wiadomość pochodzi spoza organizacji."],
    "sv": ["VARNING: Detta e-postmeddelande kommer från en extern avsändare."],
    "da": ["ADVARSEL: Denne e-mail stammer fra en ekstern afsender."],
    "ru": ["ВНИМАНИЕ: Это письмо пришло из-за пределов организации."],
}
FORWARDS = {
    "en": "---------- Forwarded message ---------", "de": "---------- Weitergeleitete Nachricht ----------",
    "it": "---------- Messaggio inoltrato ---------", "fr": "---------- Message transféré ---------",
    "es": "---------- Mensaje reenviado ---------", "nl": "---------- Doorgestuurd bericht ---------",
    "pl": "---------- Przekazana wiadomość ---------", "sv": "---------- Vidarebefordrat meddelande ---------",
    "da": "---------- Videresendt meddelelse ---------", "ru": "---------- Пересылаемое сообщение ---------",
    "ja": "---------- 転送されたメッセージ ---------",
}


@pytest.mark.parametrize("code", sorted(BANNERS))
def test_a_banner_from_outside_is_skipped_not_taken_for_the_end(code):
    banner = BANNERS[code]
    assert own(banner + [""] + ORDERS + ["", "-- ", "Bob"] + QUOTE) == ORDERS
    assert own(["[EXTERNAL]"] + ORDERS) == ORDERS


@pytest.mark.parametrize("code", sorted(FORWARDS))
def test_a_forwarded_mail_has_its_header_block_set_aside_and_its_text_kept(code):
    lang = LANGUAGES[code]
    values = ("Bob <bob@work.example>", lang.sent, "Bob <bob@players.test>", "orders")
    block = [f"{label}: {value}" for label, value in zip(lang.outlook, values)]
    body = ["FYI", "", FORWARDS[code]] + block + ["", *ORDERS, "", lang.closing, lang.name, "", *QUOTE]
    reply = split_reply(body)
    assert [body[i] for i in reply.own if body[i].strip()] == ["FYI"]
    assert reply.forward_marker
    assert [body[i] for i in reply.forwarded if body[i].strip()] == ORDERS + [lang.closing, lang.name]
    # Outlook forwards as it replies (a rule and a header block): the text below is found, and
    # only the subject (FW:) can say it is a forward
    body = ["", "_" * 32] + block + ["", *ORDERS]
    reply = split_reply(body)
    assert not reply.forward_marker and [body[i] for i in reply.forwarded if body[i].strip()] == ORDERS
