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

__all__ = ["is_closing", "is_salutation"]

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
    thanks?(?:\s+(?:you|again|a\s+lot|all|so\s+much))? | many\s+thanks | thank\s+you\s+(?:all|again)
  | thx | ty | cheers | best(?:\s+(?:regards|wishes))? | kind\s+regards | warm\s+regards | regards
  | all\s+the\s+best | yours(?:\s+(?:truly|sincerely))? | sincerely | take\s+care | good\s+luck(?:\s+all)?
  | have\s+(?:fun|a\s+(?:nice|good|great)\s+\w+) | see\s+you(?:\s+(?:soon|later|all))? | bye | goodbye
  | later | gl\s*hf | gg | good\s+game | stay\s+safe
  | danke(?:\s+(?:sch[öo]n|dir|euch))? | vielen\s+dank | besten\s+dank
  | (?:viele|liebe|beste|freundliche|herzliche|sch[öo]ne)\s+gr[üu](?:ß|ss)e | gr[üu](?:ß|ss)e | gru(?:ß|ss)
  | mit\s+freundlichen\s+gr[üu](?:ß|ss)en | lg | vg | mfg | bis\s+(?:bald|dann|morgen|später) | tsch[üu]ss
  | viel\s+gl[üu]ck | tsch[öo]
  | grazie(?:\s+mille)? | saluti | cordiali\s+saluti | un\s+saluto | a\s+presto | buona\s+(?:giornata|serata)
  | in\s+bocca\s+al\s+lupo
  | merci(?:\s+beaucoup)? | cordialement | bien\s+[àa]\s+(?:vous|toi) | amiti[ée]s | bises | [àa]\s+bient[ôo]t
  | bonne\s+(?:chance|journ[ée]e|soir[ée]e)
  | gracias | muchas\s+gracias | saludos | un\s+(?:saludo|abrazo) | atentamente | hasta\s+(?:luego|pronto)
  | suerte | obrigad[oa] | abra[çc]os | at[ée]\s+logo
  | dank\s+(?:je|u)(?:\s+wel)? | bedankt | groeten | groetjes | met\s+vriendelijke\s+groet(?:en)?
  | tot\s+(?:ziens|later|straks) | succes
  | dzi[ęe]ki | dzi[ęe]kuj[ęe] | pozdrawiam | pozdrowienia | z\s+powa[żz]aniem | do\s+zobaczenia | powodzenia
  | tack(?:\s+s[åa]\s+mycket)? | h[äa]lsningar | v[äa]nliga\s+h[äa]lsningar | mvh | ha\s+det(?:\s+bra)?
  | lycka\s+till | vi\s+ses
  | mange\s+tak | tak\s+for\s+\S+ | hilsen | venlig\s+hilsen | de\s+bedste\s+hilsner | held\s+og\s+lykke
  | спасибо(?:\s+большое)? | с\s+уважением | всего\s+(?:доброго|хорошего) | удачи | пока | до\s+свидания
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


def is_closing(line: str) -> bool:
    """A letter's closing ("Best regards,", "Viele Grüße, Dieter"): a signature may follow."""
    text = line.strip()
    return 0 < len(text) <= _MAX and bool(_CLOSING.match(text))
