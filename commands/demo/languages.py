"""Whether every mail a player received is in the language they chose: the check `referee
demo --languages` ends with, and its test.

A mail's subject must be one the referee writes in that language (every subject is a
message of the catalogue starting `[{game}]`), and a report or receipt must carry the
words of that language that every one of them carries (the footer naming the language, the
receipt's heading). A German subject in an Italian player's mailbox, or an English report
to a German player, is a problem named with the mail's subject. So is a sentence of English
inside a mail in another language: an event, a prompt or an error some code wrote without
going through the catalogue.
"""

from __future__ import annotations

import re
from email import policy
from functools import lru_cache
from email.parser import BytesParser
from pathlib import Path

from referee.i18n import NAMES, translations
from referee.i18n.catalogues import TEMPLATE, load

# The footer every report carries, as the catalogue has it: the mail setting, the language by
# name and the command that changes it.
REPORT_MARK = "%(setting)s (%(footer)s) · %(language)s: LANGUAGE de|en|it · HELP"
REPORT_SUBJECTS = ("[{game}] Round {round}: {phase}", "[{game}] Your move: round {round}, {phase}",
                   "[{game}] Your move (reminder, {left} left): round {round}, {phase}", "[{game}] Game over")


def _pattern(text: str, game_id: str) -> re.Pattern[str]:
    escaped = re.escape(text).replace(re.escape("{game}"), re.escape(game_id))
    return re.compile(re.sub(r"\\\{[a-z_]+\\\}", ".*", escaped) + "$")


def _footer(text: str, language: str) -> re.Pattern[str]:
    """The footer in one language, the language named and the mail setting whatever it is."""
    escaped = re.escape(text).replace(re.escape("%(language)s"), re.escape(language))
    return re.compile(escaped.replace(re.escape("%(setting)s"), ".+?").replace(re.escape("%(footer)s"), ".+?"))


def _subjects(lang: str, game_id: str) -> list[re.Pattern[str]]:
    """Every subject the referee writes in `lang`, as patterns."""
    t = translations(lang)
    return [_pattern(t.gettext(m.id), game_id) for m in load(TEMPLATE)
            if isinstance(m.id, str) and m.id.startswith("[{game}]")]


@lru_cache(maxsize=None)
def _english(lang: str) -> frozenset[str]:
    """The longest stretch of plain words (14 characters or more, three words or more) of
    every English message that `lang` translates differently, unless the stretch reads the
    same in one of `lang`'s own messages: a mail in `lang` holding one is partly English."""
    t = translations(lang)
    messages = [m.id for m in load(TEMPLATE) if isinstance(m.id, str) and m.id]
    own = "\n".join(" ".join(t.gettext(m).split()) for m in messages)
    stretches = set()
    for message in messages:
        if t.gettext(message) == message:
            continue
        longest = max((" ".join(p.split()) for p in re.split(r"\{[a-z_]*\}|%\([a-z_]+\)s", message)), key=len)
        if len(longest) >= 14 and longest.count(" ") >= 2 and longest not in own:
            stretches.add(longest)
    return frozenset(stretches)


def mail_problems(raw: bytes, lang: str, game_id: str) -> list[str]:
    """What is not in `lang` in one mail from the referee."""
    mail = BytesParser(policy=policy.default).parsebytes(raw)
    subject = str(mail.get("Subject") or "")
    t = translations(lang)
    body = mail.get_body(("plain",))
    text = " ".join((body.get_content() if body is not None else "").split())  # lines as one, unwrapped
    problems = []
    if not any(p.match(subject) for p in _subjects(lang, game_id)):
        problems.append(f"subject {subject!r} is not one written in {NAMES[lang]}")
    if any(_pattern(t.gettext(s), game_id).match(subject) for s in REPORT_SUBJECTS):
        if not _footer(t.gettext(REPORT_MARK), NAMES[lang]).search(text):
            problems.append(f"report {subject!r} lacks the {NAMES[lang]} footer")
    if lang != "en":
        english = sorted(s for s in _english(lang) if s in text)
        if english:
            problems.append(f"{subject!r} holds English: {english[0]!r}")
    return problems


def mailbox_problems(folder: Path, lang: str, game_id: str) -> tuple[int, list[str]]:
    """How many mails a player's Maildir holds, and what in them is not in `lang`."""
    files = [p for sub in ("new", "cur") for p in sorted((folder / sub).iterdir())]
    problems = [problem for path in files for problem in mail_problems(path.read_bytes(), lang, game_id)]
    return len(files), problems
