"""Whether every mail a player received is in the language they chose: the check `referee
demo --languages` ends with, and its test.

A mail's subject must be one the referee writes in that language (every subject is a
message of the catalogue starting `[{game}]`), and a report or receipt must carry the
words of that language that every one of them carries (the footer naming the language, the
receipt's heading). A German subject in an Italian player's mailbox, or an English report
to a German player, is a problem named with the mail's subject. So is a sentence of English
inside a mail in another language: an event, a prompt or an error some code wrote without
going through the catalogue. And what a reader of the language would mark (`grammar_problems`):
an English `<placeholder>`, a German noun of the glossaries written small, an Italian word
that does not agree with its count, a term doubled in brackets (`Kapitän (kapitän)`), a
German term in an Italian mail, a word the glossary keeps for another concept
(`TERMS`: `turno 3` for a round, `uffici` for trading posts, `NOTIFY` beside `AVVISI`), and
the slips of a language whatever the concept (`SLIPS`: Italian `a alice`, `per 0 oro`,
`partita/e`, 'straight quotes').
"""

from __future__ import annotations

import re
from email import policy
from functools import lru_cache
from email.parser import BytesParser
from pathlib import Path

from referee import registry
from referee.i18n import NAMES, translations
from referee.i18n.catalogues import TEMPLATE, load
from referee.i18n.terms import COUNTED, agreed, glossary_data
from referee.orderlines import fold

# The footer every report carries, as the catalogue has it: the mail setting, the language by
# name and the command that changes it.
REPORT_MARK = "%(setting)s (%(footer)s) · %(language)s: LANGUAGE de|en|it · HELP"
REPORT_SUBJECTS = ("[{game}] {when} – {phase}", "[{game}] Your move: {when}, {phase}",
                   "[{game}] Your move (reminder, {left} left): {when}, {phase}", "[{game}] Game over")


def _pattern(text: str, game_id: str) -> re.Pattern[str]:
    escaped = re.escape(text).replace(re.escape("{game}"), re.escape(game_id))
    return re.compile(re.sub(r"\\\{[a-z_]+\\\}", ".*", escaped) + "$")


def _footer(text: str, language: str) -> re.Pattern[str]:
    """The footer in one language, the language named and the mail setting whatever it is."""
    escaped = re.escape(text).replace(re.escape("%(language)s"), re.escape(language))
    return re.compile(escaped.replace(re.escape("%(setting)s"), ".+?").replace(re.escape("%(footer)s"), ".+?"))


@lru_cache(maxsize=64)
def _subjects(lang: str, game_id: str) -> tuple[re.Pattern[str], ...]:
    """Every subject the referee writes in `lang`, as patterns. Made once per language and
    game, not once per mail: it reads the whole message template (a Babel parse of the .pot
    file, most of what checking a mailbox cost), which does not change while a process runs.
    Bounded, as a check of many games' mailboxes in one process would otherwise keep them all."""
    t = translations(lang)
    return tuple(_pattern(t.gettext(m.id), game_id) for m in load(TEMPLATE)
                 if isinstance(m.id, str) and m.id.startswith("[{game}]"))


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


# Words a language keeps for one concept, found where another is meant (docs/glossary.md):
# pattern -> what the glossary says instead.
TERMS = {
    "de": [(r"\bPartie vorbei\b", "the end of the game is 'Spielende'"),
           (r"\bVERWERFE\b|\bverwerfe\b", "a ship is sent away with 'abweisen'"),
           (r"\bGüter\b|\bGut\b|\bGüterart\b|\bWarensorten?\b", "goods are 'Ware', 'Waren', 'Warenart'"),
           (r"\bReferee\b|\bReferees\b", "the program is 'Schiedsrichter' in German text"),
           (r"\bdes Consul\b", "the genitive is 'des Consuls'"),
           (r"\bfür 0 Gold\b", "nothing paid is 'kostenlos'"),
           (r"'[^'\s][^'\n]{0,40}'", "German text quotes with „…“, not straight quotes"),
           (r"#\d", "a number is 'Nr.', not '#'"),
           (r"\bMauerst(?:ü|ue)ck", "a wall segment is a 'Mauerabschnitt'"),
           (r"\bGebäude bauen\b", "the building phase is the 'Bauphase'"),
           (r"\bBelohnung der Intrige\b", "the decision is 'Handelspunkt oder Intrige'"),
           (r"\bNachziehen\b", "the wall is „Aufträge“; 'nachziehen' is the order that redraws contracts"),
           (r"\bPosten sind\b|\bTauschposten\b", "'Posten' is a trading post, not an item of an offer"),
           (r"\b(?:möchte|will|kauft) öffentlich \d", "a public building is named in prose, not by its order"),
           (r"\bgewählt haben schon: niemand\b", "'gewählt hat noch niemand'"),
           (r"\bauf \d+ erhöht\b|\berhöht auf \d+\.", "a bid is raised to so much 'Gold'"),
           (r"\b[Kk]auf (?:eine|einen|es)\b|\b[Bb]leib,|\boder sag\b|\b[Dd]u darfst einen Speicher\b|\bschick ein "
            r"Schiff\b", "a prompt is in the full imperative ('kaufe', 'bleibe im Amt', 'besetze ... oder passe')"),
           (r"\bAktionszug: Zusätze\b", "the phase is 'Aktionszug (Nebenaktion und Privilegien)'"),
           (r"<\+n\|-n>", "the aristocrat's numbers are '<±Zahl>', explained on the line"),
           (r"\bganz ausgespielt\.\s+DIE PARTIE IST VORBEI", "the mail of the game's end says nothing of a plan")],
    "it": [(r"\b[Tt]urno \d", "a round is 'round', a player's turn 'turno'"),
           (r"\b[Ff]ine turno\b", "the end of a round is 'fine del round'"),
           (r"\buffic(?:io|i) mercantil[ei]\b|\buffici\b", "a trading post is 'fondaco'"),
           (r"\bcaricat[oi]\b|\b[Cc]arichi il contratto\b", "a contract is 'imbarcato' on a ship; 'carica' is an office"),
           (r"\bmagazzino (?:facoltativo|obbligatorio)\b", "a dock is 'molo'; 'magazzino' is the storage"),
           (r"\bDECLINA\b", "a privilege is declined with 'RINUNCIA'"),
           (r"\bvolta per turno\b|\bfine del turno\b", "once a round is 'una volta per round'"),
           (r"\bsegment[oi] di mura\b", "a wall segment is a 'tratto di mura'"),
           (r"\b(?:il|del|al|dal|nel) referee\b", "the program is 'l'arbitro'"),
           (r"\b(?:NOTIFY|HISTORY|JOIN|LEAVE|CONFIRM|CHECK)\b|\bif available\b",
            "an English command word beside the Italian ones (AVVISI, CRONOLOGIA, ISCRIVIMI, LASCIA, ...)"),
           (r"\bNave #\d+:[^.\n]*\bvuoto\b", "a ship (la nave) is 'vuota'"),
           (r"\bcasell[ae] (?:grande|occupate)\b|\bprossima casella\b|\bcasella libera più economica\b"
            r"|\bpalazzo sulla casella\b",
            "a palace seat is 'posto'; 'casella' is an action slot or a field of the intrigue path"),
           (r"\bround d'azione\b", "an action round of a decade is 'giro d'azione'; 'turno' is one player's"),
           (r"\bcondividono un posto\b", "players tied in the standings are 'a pari merito'"),
           (r"(?<!prelazione e )(?<!prelazione, )\bcompra (?:l'edificio pubblico )?[A-Z][a-z]+(?: [A-Z][a-z]+)? per \d+ oro\b",
            "a building is built ('costruisce'), as the order and the phase say")],
}
# What a reader of the language marks whatever the concept (`grammar_problems`): the sound of
# the next word, a price of nothing, a plural written with a slash, English quotation marks.
SLIPS = {
    "de": [(r"(?<![.…])\.\.(?![.…])", "a full stop doubled"),
           (r"[^\W\d_] - [^\W\d_]", "a dash between words is '–', not a hyphen")],
    "it": [(r"(?<![.…])\.\.(?![.…])", "a full stop doubled"),
           (r"[^\W\d_] - [^\W\d_]", "a dash between words is '–', not a hyphen"),(r"(?<![\w'’<])a\s+[Aa][^\W\d_]+", "'ad' before a word starting with 'a'"),
           (r"\bper\s+0\s+(?:oro|talenti)\b", "a price of nothing is 'gratis'"),
           (r"\b[^\W\d_]+[eoa]/[ei]\b", "a plural chosen by its count, not written with a slash"),
           (r"(?:^|(?<=[\s(:]))'[^'\s][^'\n]{0,40}'(?=[\s.,;:)]|$)|\"[^\"\n]{1,40}\"",
            "Italian quotes a word with «...», not with straight quotes"),
           (r"\b(?:[Ss]ei arrivato|[Ss]ei pronto|[Ss]ei stato)\b|^\S+ è tornato$|\[[^]]+\] \S+ è tornato\b",
            "a player is addressed or named in a form that does not assume a man"),
           (r"\bdeve essere almeno \d", "a minimum is 'di almeno N oro'"),
           (r"(?m)^\s*Accettati\b", "a receipt names what it accepts ('Ordini accettati')")],
}


@lru_cache(maxsize=None)
def _glossary_words(lang: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Every game's words for `lang`: English placeholders it shows in its own words, the
    German nouns (shown with a capital), the German terms no other language shares."""
    english_placeholders: set[str] = set()
    nouns: set[str] = set()
    german: set[str] = set()
    for game in registry.games().values():
        data = glossary_data(game)
        for english, local in data.get(lang, {}).get("placeholders", {}).items():
            if local != english:
                english_placeholders.add(english)
        # the words of the other languages (English's own aliases take the German card names)
        others = {fold(w) for code, table in data.items() if code not in ("de", "en")
                  for section in ("orders", "words", "aliases") for words in table.get(section, {}).values()
                  for w in words} | {fold(k) for table in data.values() for section in ("orders", "words")
                                     for k in table.get(section, {})}
        for section in ("orders", "words"):
            for words in data.get("de", {}).get(section, {}).values():
                if words and words[0][:1].isupper():
                    nouns.add(words[0])
                    if len(words[0]) >= 5 and fold(words[0]) not in others:
                        german.add(words[0])
    return frozenset(english_placeholders), frozenset(nouns), frozenset(german)


# The mail commands' English names, which German and Italian mail shows in their own words
# (mailer/daemon/mail_commands.py, mailer/daemon/desk.py take both): found in a German or
# Italian mail, an English word was left in. ORDERS and END stay: they mark the order block.
ENGLISH_COMMANDS = re.compile(r"\b(?:JOIN|LIST|LEAVE|CONFIRM|CHECK|NOTIFY|HISTORY|STATUS|HELP|LANGUAGE|VACATION"
                              r"|TIMEZONE)\b|\bif available\b|\bdropout\b")
# A plural written with its ending in brackets or after a slash (`Partie(n)`, `partita/e`),
# where the catalogue's plural forms choose by the count.
BRACKET_PLURAL = re.compile(r"[^\W\d_]{2}\((?:n|en|e|s|se|er|i)\)|[^\W\d_]{3}[aeio]/[aei]\b")


def grammar_problems(text: str, lang: str) -> list[str]:
    """What a reader of `lang` marks in a mail's text, beyond English sentences (see the
    module's docstring); empty for English."""
    if lang == "en":
        return []
    placeholders, nouns, german = _glossary_words(lang)
    problems = [f"English placeholder <{m}>" for m in sorted(set(re.findall(r"<([^<>|]+)>", text)))
                if m in placeholders]
    if lang == "de":
        problems += [f"German noun written small: {w.lower()!r}" for w in sorted(nouns)
                     if re.search(r"(?<![\w<>-])" + re.escape(w.lower()) + r"(?![\w-])", text)]
    else:
        problems += [f"German term outside German mail: {w!r}" for w in sorted(german)
                     if re.search(r"(?<![\w-])" + re.escape(w) + r"(?![\w-])", text)]
        problems += [f"a word does not agree with its count: {m.group(0)!r}" for m in COUNTED.finditer(text)
                     if agreed(lang, m.group(0)) != m.group(0)][:1]
    if lang == "de":  # German mail is read for these; Italian keeps its own list (TERMS)
        problems += [f"English command word: {m.group(0)!r}" for m in [ENGLISH_COMMANDS.search(text)] if m]
        problems += [f"plural in brackets: {m.group(0)!r}" for m in [BRACKET_PLURAL.search(text)] if m]
        problems += [f"a range written with dots: {m.group(0)!r}" for m in [re.search(r"\d\.\.\d", text)] if m]
    problems += [f"term doubled in brackets: {m.group(0)!r}"
                 for m in re.finditer(r"([^\W\d_]+) \(([^\W\d_]+)\)", text) if fold(m.group(1)) == fold(m.group(2))]
    problems += [f"{m.group(0)!r}: {why}" for pattern, why in TERMS.get(lang, ()) + SLIPS.get(lang, [])
                 for m in [re.search(pattern, text)] if m]
    return problems


def mail_problems(raw: bytes, lang: str, game_id: str) -> list[str]:
    """What is not in `lang` in one mail from the referee."""
    mail = BytesParser(policy=policy.default).parsebytes(raw)
    subject = str(mail.get("Subject") or "")
    t = translations(lang)
    body = mail.get_body(("plain",))
    content = body.get_content() if body is not None else ""
    # a list's dash and an empty table cell are no hyphens between words
    content = re.sub(r"(?<=  )-(?= )|(?<= )-(?=  )", "·", re.sub(r"(?m)^(\s*)- ", r"\1• ", content))
    text = " ".join(content.split())  # lines as one, unwrapped
    problems = []
    if not any(p.match(subject) for p in _subjects(lang, game_id)):
        problems.append(f"subject {subject!r} is not one written in {NAMES[lang]}")
    if game_id.startswith("porto") and re.search(r"\b(?:[Rr]ound|Runde) \d", subject):
        problems.append(f"subject {subject!r} counts rounds where Porto Carthago counts decades")
    if any(_pattern(t.gettext(s), game_id).match(subject) for s in REPORT_SUBJECTS):
        if not _footer(t.gettext(REPORT_MARK), NAMES[lang]).search(text):
            problems.append(f"report {subject!r} lacks the {NAMES[lang]} footer")
    if lang != "en":
        english = sorted(s for s in _english(lang) if s in text)
        if english:
            problems.append(f"{subject!r} holds English: {english[0]!r}")
        problems += [f"{subject!r}: {problem}" for problem in grammar_problems(subject + " " + text, lang)]
    return problems


def mailbox_problems(folder: Path, lang: str, game_id: str) -> tuple[int, list[str]]:
    """How many mails a player's Maildir holds, and what in them is not in `lang`."""
    files = [p for sub in ("new", "cur") for p in sorted((folder / sub).iterdir())]
    problems = [problem for path in files for problem in mail_problems(path.read_bytes(), lang, game_id)]
    return len(files), problems
