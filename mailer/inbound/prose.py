"""Greetings, thanks and farewells that players write around their orders, in many languages.

A line that is only one of these ("Hi all,", "Thanks, Ann", "Viele Grüße", "С уважением") is
prose whatever a game's keywords look like: "Thank you" is a near spelling of Constantinopolis'
``take`` and "Thanks" of Porto Carthago's ``TALENTS``, and "Good luck!" begins with the order
``good``. A closing ("Best regards,") also starts a letter's signature, which
mailer/daemon/reading.py reads more leniently than the text above it.

No phrase here is one letter away from an order keyword of the games (tests/mailer check it),
so a misspelt order is never taken for a greeting.
"""

from __future__ import annotations

import re

__all__ = ["is_closing", "is_salutation", "looks_like_name"]

_GREETINGS = r"""
    hi | hello | hey | hiya | howdy | dear | good\s+(?:morning|afternoon|evening|day|night) | greetings
  | hallo | moin | servus | gr[üu][ßs]\s?gott | guten\s+(?:morgen|tag|abend) | liebe[rs]? | sehr\s+geehrte[rs]?
  | ciao | buongiorno | buonasera | cari | caro | cara | gentile
  | bonjour | bonsoir | salut | coucou | cher | ch[èe]re
  | hola | buenos\s+d[íi]as | buenas\s+(?:tardes|noches) | querid[oa]s? | estimad[oa]s?
  | ol[áa] | bom\s+dia | boa\s+tarde | boa\s+noite
  | hoi | goedemorgen | goedemiddag | goedenavond | beste
  | cze[śs][ćc] | dzie[ńn]\s+dobry | witaj(?:cie)? | szanown[iya]
  | hej(?:\s+hej)? | hejsan | tjena | god\s+(?:morgon|kv[äa]ll|dag|aften) | kære
  | привет | здравствуй(?:те)? | добрый\s+(?:день|вечер) | доброе\s+утро | уважаем(?:ый|ая|ые)
  | こんにちは | こんばんは | おはようございます | お疲れ様です | お世話になっております
"""
_CLOSINGS = r"""
    thanks?(?:\s+(?:you|again|a\s+lot|all|so\s+much|in\s+advance))? | many\s+thanks | thank\s+you\s+(?:all|again)
  | with\s+thanks | thx | ty | tia | cheers | best(?:\s+(?:regards|wishes))? | all\s+(?:the\s+)?best
  | (?:kind|warm|warmest|best|many)\s+(?:regards|wishes) | regards | rgds | br | kr | warmly | love | lots\s+of\s+love
  | xo(?:xo)? | yours(?:\s+(?:truly|sincerely|ever))? | sincerely | take\s+care | good\s+luck(?:\s+all)?
  | have\s+(?:fun|a\s+(?:nice|good|great)\s+\w+) | see\s+you(?:\s+(?:soon|later|all))? | bye | goodbye
  | (?:talk|speak)\s+(?:soon|later) | later | gl\s*hf | gg | good\s+game | stay\s+safe
  | danke(?:\s+(?:sch[öo]n|dir|euch))? | vielen\s+dank | besten\s+dank
  | (?:viele|liebe|beste|freundliche|herzliche|sch[öo]ne|sonnige)\s+gr[üu](?:ß|ss)e | gr[üu](?:ß|ss)e | gru(?:ß|ss)
  | mit\s+(?:freundlichen|besten|herzlichen)\s+gr[üu](?:ß|ss)en | lg | vg | mfg | bis\s+(?:bald|dann|morgen|später)
  | tsch[üu]ss | viel\s+gl[üu]ck | tsch[öo] | ciao | servus
  | grazie(?:\s+mille)? | saluti | (?:cordiali|distinti|tanti|cari)\s+saluti | un\s+(?:caro\s+)?saluto
  | a\s+presto | buona\s+(?:giornata|serata) | in\s+bocca\s+al\s+lupo | con\s+affetto | un\s+abbraccio
  | cordialmente | baci
  | merci(?:\s+beaucoup)? | (?:bien\s+)?cordialement | bien\s+[àa]\s+(?:vous|toi) | amiti[ée]s | amicalement
  | bises | bisous | [àa]\s+(?:bient[ôo]t|plus|demain) | (?:sinc[èe]res\s+)?salutations(?:\s+distingu[ée]es)?
  | bonne\s+(?:chance|journ[ée]e|soir[ée]e)
  | gracias | muchas\s+gracias | saludos(?:\s+cordiales)? | un\s+(?:saludo|abrazo) | abrazos | besos
  | atentamente | hasta\s+(?:luego|pronto|ma[ñn]ana) | nos\s+vemos
  | suerte | obrigad[oa] | abra[çc]os | at[ée]\s+logo
  | dank\s+(?:je|u)(?:\s+wel)? | bedankt | groeten | groetjes | (?:hartelijke|vriendelijke)\s+groet(?:en)?
  | met\s+vriendelijke\s+groet(?:en)? | mvg | doei | tot\s+(?:ziens|later|straks) | succes
  | dzi[ęe]ki | dzi[ęe]kuj[ęe] | pozdrawiam | pozdrowienia | serdeczne\s+pozdrowienia | z\s+powa[żz]aniem
  | do\s+zobaczenia | do\s+us[łl]yszenia | na\s+razie | trzymaj\s+si[ęe] | powodzenia
  | tack(?:\s+s[åa]\s+mycket)? | (?:v[äa]nliga|b[äa]sta)\s+h[äa]lsningar | h[äa]lsningar
  | med\s+v[äa]nliga\s+h[äa]lsningar | mvh | vh | ha\s+det(?:\s+(?:bra|gott))? | hej\s+d[åa] | kram(?:ar)?
  | lycka\s+till | vi\s+ses
  | mange\s+tak | tak\s+for\s+\S+ | (?:med\s+)?venlig(?:st)?\s+hilsen | venlige\s+hilsner | k[æa]rlig\s+hilsen | kh
  | (?:mange|de\s+bedste|bedste)\s+hilsner | hilsen | knus | held\s+og\s+lykke
  | спасибо(?:\s+большое)? | с\s+уважением | с\s+наилучшими\s+пожеланиями | всего\s+(?:доброго|хорошего)
  | до\s+(?:встречи|свидания) | удачи | пока | обнимаю
  | ありがとうございます | ありがとう | よろしくお願いします | よろしくお願いいたします | 宜しくお願いします
"""
# After the phrase: a name or two, "all", "everyone", and the punctuation and smileys of a letter.
_AFTER = r"""(?:[\s,.!:;–—-]+(?:(?:all|everyone|everybody|folks|guys|team|friends|players|referee|zusammen
  | alle|tutti|[àa]\s+tous|todos|allemaal|wszystkim|allihop|alle\s+sammen|всем)\b
  | [^\W\d_][\w'’.-]{0,24})){0,3}"""
_END = r"""[\s,.!?:;)(…~*^_=<>3-]*(?:[\U0001F300-\U0001FAFF\u2600-\u27BF]\s*)*$"""
_SALUTATION = re.compile(rf"^(?:(?:{_GREETINGS})|(?:{_CLOSINGS})){_AFTER}{_END}", re.IGNORECASE | re.VERBOSE)
_CLOSING = re.compile(rf"^(?:{_CLOSINGS}){_AFTER}{_END}", re.IGNORECASE | re.VERBOSE)
_MAX = 80


def is_salutation(line: str) -> bool:
    """A greeting, thanks or farewell, with perhaps a name after it, and nothing else."""
    text = line.strip()
    return 0 < len(text) <= _MAX and bool(_SALUTATION.match(text))


# A name as people sign: "Peter", "Anne-Marie O'Neill", "J. Smith", "Dr. Müller", "Петр Иванов",
# "Jan van der Berg". A word of capitals only counts as initials (two or three letters): "DONE"
# or "PASS" in capitals is how Porto Carthago's orders are written, never a name.
_NAME_WORD = re.compile(r"^[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*\.?$")
_PARTICLES = frozenset({"van", "von", "der", "den", "de", "di", "da", "del", "della", "le", "la", "du", "y", "e", "af",
                        "zu", "ter", "ten", "bin", "ibn"})
_MAX_NAME_WORDS = 4


def looks_like_name(line: str) -> bool:
    """A line that is a name and nothing else, as a mail is signed (a first name, a full name,
    initials), in any script."""
    words = line.strip().rstrip(",.;!").split()
    if not 1 <= len(words) <= _MAX_NAME_WORDS or words[0].lower() in _PARTICLES:
        return False
    for word in words:
        if not _NAME_WORD.match(word):
            return False
        letters = [ch for ch in word if ch.isalpha()]
        if word.lower() in _PARTICLES:
            continue
        if letters[0].islower():
            return False
        if len(letters) > 3 and all(ch.isupper() for ch in letters):
            return False
    return True


def is_closing(line: str) -> bool:
    """A letter's closing ("Best regards,", "Viele Grüße, Dieter"): a signature may follow."""
    text = line.strip()
    return 0 < len(text) <= _MAX and bool(_CLOSING.match(text))
