"""The lines mail programs write around a reply, in the languages players write in.

English, German, Italian, French, Spanish, Portuguese, Dutch, Polish, Swedish, Danish,
Russian and Japanese, as the common clients write them: attribution lines ("On ... wrote:",
"Am ... schrieb ...:", "W dniu ... napisał(a):", "2026年3月3日(火) 10:12 Ann <a@x>:"),
separators ("-----Original Message-----", "---------- Forwarded message ---------"), the
labels of Outlook's header block (From/Sent/To/Subject and their translations), phone and
provider footers ("Sent from my iPhone", "Sent with Proton Mail secure email."), and the
openings of corporate disclaimers. `quotes.py` decides what they mean where they stand.

Every pattern is matched against one stripped line (or a few joined), never searched across
a body, so reading a mail costs the same whatever it holds.
"""

from __future__ import annotations

import re

__all__ = [
    "ATTRIBUTION",
    "ATTRIBUTION_ANY",
    "ATTRIBUTION_OPENING",
    "DISCLAIMER",
    "FOOTER",
    "FORWARD_START",
    "HEADER_FROM",
    "HEADER_LABEL",
    "HEADER_OTHER",
    "SEPARATOR",
    "UNDERSCORES",
]

_I = re.IGNORECASE | re.VERBOSE
_COLON = r"\s?[:：]"

# The verbs that close an attribution, each language's way of saying "wrote"; in German, Dutch,
# Swedish and Danish the name may follow the verb.
_WROTE_LAST = r"""(?:wrote | ha\s+scritto | a\s+[ée]crit | escribi[óo] | escreveu | napisa[łl](?:\(a\)|a)?
  | pisze | napsal(?:\(a\)|a)? | написал(?:\(а\)|а)? | пишет | のメール | は書きました)"""
_WROTE_FIRST = r"(?:schrieb|schreef|skrev)"

# An attribution: an opening word and a closing verb, or (without an opening word) a line that
# names an address or a date before the verb, so that "As I wrote:" in new text is not one.
ATTRIBUTION = re.compile(
    rf"""^(?:
        on\b.+\bwrote{_COLON}
      | am\b.+\bschrieb\b.*{_COLON}
      | il\b.+\bha\s+scritto{_COLON}
      | le\b.+\ba\s+[ée]crit{_COLON}
      | el\b.+\bescribi[óo]{_COLON}
      | em\b.+\bescreveu{_COLON}
      | op\b.+\b(?:schreef\b.*|geschreven){_COLON}
      | (?:w\s+dniu|dnia)\b.+\b(?:napisa[łl](?:\(a\)|a)?|pisze){_COLON}
      | den\b.+\bskrev\b.*{_COLON}
      | (?=.*(?:@|\d)).+?\s?{_WROTE_LAST}{_COLON}
      | (?=.*\d).+\b{_WROTE_FIRST}\s+[^:]{{1,80}}<[^<>\s]+@[^<>\s]+>{_COLON}
      | .+\b{_WROTE_FIRST}\s+(?:am|op)\b.*\d.*{_COLON}
    )$""",
    _I,
)
# Without a verb: a line that names an address in angle brackets and ends in a colon (Gmail in
# Russian or Japanese, Yandex, mail.ru: "вт, 3 мар. 2026 г. в 10:12, Ann <a@x>:"). Only taken
# for an attribution when a ">" quote follows it.
ATTRIBUTION_ANY = re.compile(r"^.*<[^<>\s]+@[^<>\s]+>\s?(?:\S{0,12})?[:：]$")
# What may begin an attribution wrapped over two or three lines: an opening word, a weekday,
# a date or a time. An order line never joins the attribution below it.
ATTRIBUTION_OPENING = re.compile(
    r"""^(?:
        (?:on|am|il|le|el|em|op|den|dnia|w\s+dniu)\s
      | (?:mon|tue|wed|thu|fri|sat|sun|mo|di|mi|do|fr|sa|so|lun|mar|mer|jeu|ven|sam|dim|mié|jue|vie|sáb
         |pon|wt|śr|czw|pt|sob|niedz|må|tis|ons|tors|fre|lör|sön|man|tir|tor|lør|søn|пн|вт|ср|чт|пт|сб|вс)
        [.,]?\s
      | .*\b\d{1,2}[:.]\d{2}\b
      | .*\b(?:19|20)\d{2}\b
      | \d{4}年
    )""",
    _I,
)

_PHRASES = r"""(?:
    original\s+message | ursprüngliche\s+nachricht | messaggio\s+originale | message\s+d'origine
  | mensaje\s+original | mensagem\s+original | oorspronkelijk\s+bericht | wiadomo[śs][ćc]\s+oryginalna
  | ursprungligt\s+meddelande | originalmeddelande | oprindelig\s+meddelelse | original\s+meddelelse
  | исходное\s+сообщение | оригинальное\s+сообщение | 元のメッセージ
  | forwarded\s+message | weitergeleitete\s+nachricht | messaggio\s+inoltrato | message\s+transf[ée]r[ée]
  | mensaje\s+reenviado | mensagem\s+encaminhada | doorgestuurd\s+bericht | przekazana\s+wiadomo[śs][ćc]
  | wiadomo[śs][ćc]\s+przekazana | vidarebefordrat\s+meddelande | videresendt\s+(?:meddelelse|besked)
  | пересылаемое\s+сообщение | пересланное\s+сообщение | 転送(?:された)?メッセージ
)"""
SEPARATOR = re.compile(rf"^[-_=*~ ]{{2,}}\s*{_PHRASES}\s*[-_=*~ ]{{2,}}$", _I)
UNDERSCORES = re.compile(r"^_{20,}$")
FORWARD_START = re.compile(
    r"""^(?:begin\s+forwarded\s+message | anfang\s+der\s+weitergeleiteten\s+(?:nachricht|e-mail)
      | inizio\s+messaggio\s+inoltrato | d[ée]but\s+du\s+message\s+r[ée]exp[ée]di[ée]
      | inicio\s+del\s+mensaje\s+reenviado | begin\s+doorgestuurd\s+bericht
      | pocz[ąa]tek\s+przekazanej\s+wiadomo[śs]ci | vidarebefordrat\s+mejl
      | (?:start\s+p[åa]\s+)?videresendt\s+besked | начало\s+переадресованного\s+сообщения
      | 転送されたメッセージ)\s?[:：]$""",
    _I,
)

# Phone and provider footers: short lines a client or a mail service adds under the text.
FOOTER = re.compile(
    r"""^(?:
        sent\s+(?:from|with|via|using)\s+\S.{0,60}
      | get\s+outlook\s+for\s+\S.{0,40}
      | von\s+meine[mr]?\s+.{1,50}\s+gesendet\.?
      | gesendet\s+(?:von|mit|über|vom)\s+\S.{0,60}
      | inviato\s+(?:da|dal|dalla|con)\s+\S.{0,60} | scarica\s+outlook\s+per\s+\S.{0,40}
      | envoy[ée]\s+(?:de|depuis|avec|à\s+partir\s+de)\s+\S.{0,60} | obtenir\s+outlook\s+pour\s+\S.{0,40}
      | enviado\s+(?:desde|con|do|de)\s+\S.{0,60} | obtener\s+outlook\s+para\s+\S.{0,40}
      | (?:verzonden|verstuurd)\s+(?:vanaf|met|van)\s+\S.{0,60}
      | wys[łl]an[eoy]\s+(?:z|ze|przy\s+u[żz]yciu)\s+\S.{0,60}
      | skickat\s+(?:från|med)\s+\S.{0,60} | hämta\s+outlook\s+för\s+\S.{0,40}
      | sendt\s+(?:fra|med)\s+\S.{0,60} | hent\s+outlook\s+til\s+\S.{0,40}
      | отправлено\s+(?:с|со|из|через)\s+\S.{0,60} | получить\s+outlook\s+для\s+\S.{0,40}
      | \S.{0,40}から送信 | outlook\s+for\s+\S+\s+を入手
    )$""",
    _I,
)

# The labels of a header block as Outlook (desktop, web, phone) and forwarding clients write it,
# bold ("*From:*"), with a space before the colon (French) or a full-width colon (Japanese).
_LABEL = r"^\*{{0,2}}\s?(?:{})\s?\*{{0,2}}\s?[:：]"
HEADER_FROM = re.compile(
    _LABEL.format(r"from|von|da|de|van|od|från|fra|от|от\s+кого|差出人|送信者|exp[ée]diteur|remitente"), re.I
)
HEADER_OTHER = re.compile(
    _LABEL.format(
        r"sent|date|to|cc|subject|gesendet|datum|an|betreff|inviato|data|a|oggetto|envoy[ée]|à|objet"
        r"|enviado|enviado\s+el|fecha|para|asunto|verzonden|aan|onderwerp|wys[łl]ano|do|temat|dw"
        r"|skickat|till|ämne|kopia|sendt|dato|til|emne|отправлено|дата|кому|тема|копия"
        r"|送信日時|日付|宛先|件名|cc"
    ),
    re.I,
)
# Any short "label: value" line, for a header block in a language not listed above.
HEADER_LABEL = re.compile(r"^\*{0,2}[^\W\d_][\w .'-]{0,24}?\*{0,2}\s?[:：]\s?\S")

# The first line of a corporate or legal notice appended under the text.
DISCLAIMER = re.compile(
    r"""^\W{0,3}(?:
        (?:confidential(?:ity)?|privileged|disclaimer|important\s+notice|legal\s+notice)\b
      | (?:this|the\s+information\s+(?:contained\s+)?in\s+this)\s+(?:e-?mail|message|communication)\b
          .*\b(?:confidential|privileged|intended|addressee|recipient)
      | (?:diese|die\s+in\s+dieser)\s+(?:e-?mail|nachricht)\b.*\b(?:vertraulich|empfänger|bestimmt)
      | (?:questo|questa|il\s+presente)\s+(?:messaggio|e-?mail)\b.*\b(?:riservat|confidenzial|destinat)
      | (?:ce|le\s+pr[ée]sent)\s+(?:message|courriel|e-?mail|courrier)\b.*\b(?:confidentiel|destinataire)
      | (?:este|el\s+presente)\s+(?:mensaje|correo|e-?mail)\b.*\b(?:confidencial|destinatario)
      | (?:dit|deze)\s+(?:bericht|e-?mail(?:bericht)?)\b.*\b(?:vertrouwelijk|geadresseerde|bestemd)
      | (?:ta|niniejsza)\s+wiadomo[śs][ćc]\b.*\b(?:poufn|adresat)
      | detta\s+(?:e-?post(?:meddelande)?|meddelande)\b.*\b(?:konfidentiell|mottagare|avsedd)
      | denne\s+(?:e-?mail|meddelelse|besked)\b.*\b(?:fortrolig|modtager)
      | (?:это|данное|настоящее)\s+(?:сообщение|письмо|электронное)\b.*\b(?:конфиденц|адресат|получател)
      | この(?:電子)?メール.*(?:機密|宛先|受信者)
    )""",
    re.IGNORECASE | re.VERBOSE,
)
