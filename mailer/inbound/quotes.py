"""Finding the part of a reply that the sender wrote now, as opposed to what their client quoted.

The rules cover the big clients in English, German, Italian, French, Spanish and Dutch:

* lines starting with ``>`` are quoted and skipped, and reading goes on after them (bottom-posted
  and inline replies put new text below the quote);
* an attribution line ("On ... wrote:", "Am ... schrieb ...:", possibly wrapped over two lines)
  is skipped when a ``>`` quote follows it, and otherwise ends the new text: a top-posting client
  that does not mark its quote with ``>`` puts the whole old message below it;
* a signature separator (``-- `` or ``--``), a phone footer ("Sent from my iPhone"), an
  "Original Message" or forwarded-message separator and an Outlook header block
  (From/Sent/To/Subject, also in German and the other languages) end the new text.

Stripping is a convenience, not a safeguard: a stale order in an unrecognised quote can slip
through, which is why an ``ORDERS`` ... ``END`` block, when present, is the only part read.
"""

from __future__ import annotations

import re

__all__ = ["is_quoted", "visible_lines"]

_MAX_HEADER_LEN = 400
_MAX_MARKER_LEN = 100  # separators and phone footers are short; long lines never match

# Attribution lines: an opening word and a closing phrase, or (without the opening word) a line
# that names an address or a date, so that "As I wrote:" in the new text is not taken for one.
# Matched on one line or on two joined lines.
_ATTRIBUTION = re.compile(
    r"""^(?:
        on\s.+\swrote\s?:
      | am\s.+\sschrieb\b.*:
      | il\s.+\sha\sscritto\s?:
      | le\s.+\sa\s[ée]crit\s?:
      | el\s.+\sescribi[óo]\s?:
      | op\s.+\sschreef\b.*:
      | (?=.*[@\d]).+\s(?:wrote|schrieb|ha\sscritto|a\s[ée]crit|escribi[óo]|schreef)\s?:
      | .+\sschrieb\sam\s.*\d.*:
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
# A second line may only complete an attribution that the first line started with these words.
_ATTRIBUTION_START = re.compile(r"^(?:on|am|il|le|el|op)\s", re.IGNORECASE)

_SEPARATOR = re.compile(
    r"""^[-_=* ]{2,}\s*(?:
        original\smessage | ursprüngliche\snachricht | messaggio\soriginale
      | message\sd'origine | mensaje\soriginal | oorspronkelijk\sbericht
      | forwarded\smessage | weitergeleitete\snachricht | messaggio\sinoltrato
      | message\stransf[ée]r[ée] | mensaje\sreenviado | doorgestuurd\sbericht
    )\s*[-_=* ]{2,}$""",
    re.IGNORECASE | re.VERBOSE,
)
_FORWARD_START = re.compile(
    r"^(?:begin\sforwarded\smessage|anfang\sder\sweitergeleiteten\snachricht|"
    r"inizio\smessaggio\sinoltrato|d[ée]but\sdu\smessage\sr[ée]exp[ée]di[ée])\s?:$",
    re.IGNORECASE,
)
_PHONE_FOOTER = re.compile(
    r"""^(?:
        sent\sfrom\s(?:my\s)?\S.{0,60}
      | get\soutlook\sfor\s\S.{0,40}
      | von\smeinem\s.{1,40}\sgesendet
      | gesendet\svon\s(?:meinem\s)?\S.{0,60}
      | inviato\sda\s\S.{0,40}
      | envoy[ée]\sde\smon\s.{1,40}
      | enviado\sdesde\smi\s.{1,40}
      | verzonden\s(?:vanaf|met)\s.{1,40}
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
_OUTLOOK_FROM = re.compile(r"^\*?(?:from|von|de|da|van|od)\s?:", re.IGNORECASE)
_OUTLOOK_SENT = re.compile(
    r"^\*?(?:sent|date|gesendet|datum|envoy[ée]|inviato|data|enviado|fecha|verzonden)\s?:", re.IGNORECASE
)
_OUTLOOK_TO = re.compile(
    r"^\*?(?:to|an|à|a|para|aan|subject|betreff|objet|oggetto|asunto|onderwerp|cc)\s?:", re.IGNORECASE
)
_RULE = re.compile(r"^[-_=*~ ]{4,}$")
# Closing words of a letter; only trimmed when just a short signature follows (see _trim_closing).
_CLOSING = re.compile(
    r"""^(?:
        best(?:\s(?:regards|wishes))? | kind\sregards | regards | cheers | thanks | thank\syou | thx
      | all\sthe\sbest | yours | greetings
      | (?:viele|liebe|beste|freundliche)\s(?:grüße|grüsse|gruesse) | grüße | grüsse | gruß | lg | vg | mfg
      | saluti | cordiali\ssaluti | un\ssaluto | ciao
      | cordialement | bien\sà\svous | amicalement | bises
      | saludos | un\sabrazo | groeten | met\svriendelijke\sgroet | groetjes
    )(?:[ ,.!]+[^\s\d].{0,40})?[ ,.!]*$""",
    re.IGNORECASE | re.VERBOSE,
)
_SIGNATURE_TAIL_LINES = 3


def is_quoted(line: str) -> bool:
    """A ``>``-quoted line (leading spaces tolerated, as some clients indent the quote)."""
    return line.lstrip(" \t").startswith(">")


def _is_signature(line: str) -> bool:
    return line in ("-- ", "--") or line.strip() == "--"


def _attribution_length(lines: list[str], i: int) -> int:
    """How many lines (1 or 2) an attribution starting at line *i* spans, or 0."""
    first = lines[i].strip()
    if not first or len(first) > _MAX_HEADER_LEN:
        return 0
    if _ATTRIBUTION.match(first):
        return 1
    if i + 1 < len(lines) and _ATTRIBUTION_START.match(first):
        second = lines[i + 1].strip()
        if second and not is_quoted(second) and len(first) + len(second) <= _MAX_HEADER_LEN:
            if _ATTRIBUTION.match(first + " " + second):
                return 2
    return 0


def _is_outlook_block(lines: list[str], i: int) -> bool:
    if not _OUTLOOK_FROM.match(lines[i].strip()):
        return False
    window = [line.strip() for line in lines[i + 1 : i + 8]]
    return any(_OUTLOOK_SENT.match(line) for line in window) and any(
        _OUTLOOK_TO.match(line) for line in window
    )


def _next_content(lines: list[str], i: int) -> int:
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def visible_lines(lines: list[str]) -> list[str]:
    """The lines the sender wrote in this mail, in order, with the quoted history left out."""
    out: list[str] = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if is_quoted(line):
            i += 1
            continue
        if _is_signature(line):
            break
        if len(stripped) <= _MAX_MARKER_LEN and (
            _SEPARATOR.match(stripped) or _FORWARD_START.match(stripped) or _PHONE_FOOTER.match(stripped)
        ):
            break
        if _is_outlook_block(lines, i):
            break
        span = _attribution_length(lines, i)
        if span:
            following = _next_content(lines, i + span)
            if following < n and is_quoted(lines[following]):
                i += span
                continue
            break
        out.append(line)
        i += 1
    _trim_tail(out)
    _trim_closing(out)
    _trim_tail(out)
    return out


def _trim_tail(out: list[str]) -> None:
    while out and (not out[-1].strip() or _RULE.match(out[-1].strip())):
        out.pop()


def _trim_closing(out: list[str]) -> None:
    """Drop a letter closing ("Best, Bob", "Viele Grüße / Dieter") at the very end of the text.

    Only the last few lines are looked at, and only lines that read like a name ("Dieter",
    "Anne-Marie O'Neill", "Vienna, Austria") may follow the closing word, so an order line such
    as ``A PAR H`` or ``pass`` after a "Thanks!" is kept.
    """
    tail = [index for index, line in enumerate(out) if line.strip()][-(_SIGNATURE_TAIL_LINES + 1) :]
    for position, index in enumerate(tail):
        if _CLOSING.match(out[index].strip()):
            after = [out[later].strip() for later in tail[position + 1 :]]
            if all(_is_name_line(line) for line in after):
                del out[index:]
            return


def _is_name_line(line: str) -> bool:
    words = line.replace(",", " ").split()
    if not words or len(line) > 40:
        return False
    for word in words:
        initial = word.endswith(".")
        for piece in re.split(r"[-'’]", word.rstrip(".")):
            if not piece or not piece[0].isupper() or not piece.isalpha():
                return False
            if len(piece) == 1 and not initial and not ("'" in word or "’" in word):
                return False
            if len(piece) > 1 and not piece[1:].islower():
                return False
    return True
