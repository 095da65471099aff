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
    "BANNER",
    "BANNER_MORE",
    "DISCLAIMER",
    "FOOTER",
    "FORWARD_SEPARATOR",
    "FORWARD_START",
    "FORWARD_SUBJECT",
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

_ORIGINAL = r"""(?:
    original\s+message | ursprüngliche\s+nachricht | messaggio\s+originale | message\s+d'origine
  | mensaje\s+original | mensagem\s+original | oorspronkelijk\s+bericht | wiadomo[śs][ćc]\s+oryginalna
  | ursprungligt\s+meddelande | originalmeddelande | oprindelig\s+meddelelse | original\s+meddelelse
  | исходное\s+сообщение | оригинальное\s+сообщение | 元のメッセージ
)"""
_FORWARDED = r"""(?:
    forwarded\s+message | weitergeleitete\s+nachricht | messaggio\s+inoltrato | message\s+transf[ée]r[ée]
  | mensaje\s+reenviado | mensagem\s+encaminhada | doorgestuurd\s+bericht | przekazana\s+wiadomo[śs][ćc]
  | wiadomo[śs][ćc]\s+przekazana | vidarebefordrat\s+meddelande | videresendt\s+(?:meddelelse|besked)
  | пересылаемое\s+сообщение | пересланное\s+сообщение | 転送(?:された)?メッセージ
)"""
_PHRASES = rf"(?:{_ORIGINAL}|{_FORWARDED})"
SEPARATOR = re.compile(rf"^[-_=*~ ]{{2,}}\s*{_PHRASES}\s*[-_=*~ ]{{2,}}$", _I)
FORWARD_SEPARATOR = re.compile(rf"^[-_=*~ ]{{2,}}\s*{_FORWARDED}\s*[-_=*~ ]{{2,}}$", _I)
# The subject of a forwarded mail, as the clients write it: Fwd/FW (and WG, I, TR, RV, Doorst,
# VB, VS, PD, Пересл, 転送 in their languages).
FORWARD_SUBJECT = re.compile(
    r"^\s*\[?\s*(?:fwd?|fw|wg|i|tr|rv|doorst|vb|vs|vid|pd|пересл|пер|転送)\s*[:：]", re.IGNORECASE)
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
    r"""^\W{0,3}(?:(?:important|notice|note|caution|warning|disclaimer|legal)\s*[:!-]\s*)?(?:
        (?:confidential(?:ity)?|privileged|disclaimer|important\s+notice|legal\s+notice)\b
      | (?:this|the\s+(?:information|content|contents)\s+(?:contained\s+)?(?:in|of)\s+this)\s+
          (?:e-?mail|message|communication)\b.*\b(?:confidential|privileged|intended|addressee|recipient)
      | (?:any\s+)?views\s+(?:or|and)\s+opinions\s+(?:expressed|presented|contained)\b
      | if\s+you\s+(?:are\s+not\s+the\s+intended\s+recipient|have\s+received\s+this\s+(?:e-?mail|message)\s+in\s+error)
      | (?:please\s+)?(?:consider|think\s+of)\s+the\s+environment\s+before\s+printing
      | (?:diese|die\s+in\s+dieser)\s+(?:e-?mail|nachricht)\b.*\b(?:vertraulich|empfänger|bestimmt)
      | (?:der\s+inhalt|die\s+informationen)\s+(?:dieser|in\s+dieser)\s+(?:e-?mail|nachricht)\b.*\b(?:vertraulich|empfänger|bestimmt)
      | (?:wenn|falls)\s+sie\s+nicht\s+der\s+(?:richtige\s+|beabsichtigte\s+)?(?:adressat|empfänger)
      | bitte\s+denken\s+sie\s+an\s+die\s+umwelt
      | (?:questo|questa|il\s+presente)\s+(?:messaggio|e-?mail)\b.*\b(?:riservat|confidenzial|destinat)
      | (?:le\s+)?informazioni\s+contenute\s+(?:in|nel|nella)\s+(?:questo|questa|presente)\b
      | se\s+(?:avete|hai|ha)\s+ricevuto\s+(?:questo|questa)\s+(?:messaggio|e-?mail)\s+per\s+errore
      | (?:ce|le\s+pr[ée]sent)\s+(?:message|courriel|e-?mail|courrier)\b.*\b(?:confidentiel|destinataire)
      | si\s+vous\s+avez\s+re[çc]u\s+ce\s+(?:message|courriel|e-?mail)\s+par\s+erreur
      | (?:este|el\s+presente)\s+(?:mensaje|correo|e-?mail)\b.*\b(?:confidencial|destinatario)
      | la\s+informaci[óo]n\s+contenida\s+en\s+(?:este|esta)\b
      | si\s+(?:usted\s+)?(?:ha|has)\s+recibido\s+este\s+(?:mensaje|correo)\s+por\s+error
      | (?:dit|deze)\s+(?:bericht|e-?mail(?:bericht)?)\b.*\b(?:vertrouwelijk|geadresseerde|bestemd)
      | de\s+informatie\s+(?:verzonden\s+met|in)\s+(?:dit|deze)\s+(?:bericht|e-?mail)
      | (?:ta|niniejsza)\s+wiadomo[śs][ćc]\b.*\b(?:poufn|adresat)
      | informacje\s+zawarte\s+w\s+tej\s+wiadomo[śs]ci
      | detta\s+(?:e-?post(?:meddelande)?|meddelande)\b.*\b(?:konfidentiell|mottagare|avsedd)
      | informationen\s+i\s+(?:detta|denne)\s+(?:e-?post|e-?mail|meddelande|besked)
      | denne\s+(?:e-?mail|meddelelse|besked)\b.*\b(?:fortrolig|modtager)
      | (?:это|данное|настоящее)\s+(?:сообщение|письмо|электронное)\b.*\b(?:конфиденц|адресат|получател)
      | информация,?\s+содержащаяся\s+в\s+(?:этом|данном|настоящем)
      | この(?:電子)?メール.*(?:機密|宛先|受信者)
    )""",
    re.IGNORECASE | re.VERBOSE,
)

# A mail system's warning put above the text of mail from outside an organisation ("CAUTION:
# This email originated from outside of the organization", "[EXTERNAL]", Outlook's "You don't
# often get email from ..."), in the languages read here. It is skipped, not taken for the end
# of the new text: the sender's text follows it.
BANNER = re.compile(
    r"""^\W{0,3}(?:
        \[\s*(?:external|ext|extern|externe?|esterno|externo|extern[ae]|zewn[ęe]trzn[ya]|внешн(?:ий|ее))\s*\](?:\W.*)?
      | (?:external(?:\s+(?:e-?mail|sender|message))?|externe?\s+(?:e-?mail|nachricht|absender))\s*[:!-].*
      | (?:caution|warning|attention|notice|achtung|vorsicht|warnung|hinweis|attenzione|avviso|attention
         |avertissement|precauci[óo]n|atenci[óo]n|aviso|let\s+op|waarschuwing|advarsel|varning|obs|uwaga
         |ostrze[żz]enie|внимание|осторожно|предупреждение)\s*[:!-]
        (?=.*(?:mail|messag|nachricht|courriel|correo|bericht|meddel|wiadomo|письм|сообщ|sender|afsender
              |avs[äa]ndare|nadawc|отправител))\s*.*
         (?:outside|external|extern|au(?:ß|ss)erhalb|esterno|esterna|fuori|l'ext[ée]rieur|externe|fuera|externo|buiten
          |ekstern|uden\s+for|utanf[öo]r
          |spoza|zewn[ęe]trz|вне\s|внешн|за\s+предел).*
      | (?:this|the)\s+(?:e-?mail|message)\s+(?:originated|came|comes|was\s+sent|is)\s+from\s+(?:outside|an?\s+external).*
      | you\s+don['’]t\s+often\s+get\s+e-?mail\s+from\b.*
      | sie\s+erhalten\s+nicht\s+(?:oft|h[äa]ufig)\s+e-?mails?\s+von\b.*
      | non\s+ricevi\s+spesso\s+(?:messaggi|e-?mail)\b.*
      | vous\s+n['’](?:obtenez|recevez)\s+pas\s+souvent\s+d['’]e-?mails?\b.*
      | no\s+suele\s+recibir\s+correo\b.*
      | (?:je|u)\s+ontvangt\s+niet\s+vaak\s+e-?mail\b.*
      | du\s+(?:modtager|får)\s+ikke\s+ofte\s+(?:e-?)?mails?\b.* | du\s+f[åa]r\s+inte\s+ofta\s+e-?post\b.*
      | nie\s+otrzymujesz\s+cz[ęe]sto\s+wiadomo[śs]ci\b.*
      | вы\s+нечасто\s+получаете\s+(?:письма|сообщения)\b.*
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
# The rest of such a warning, on a line of its own: "Do not click links or open attachments
# unless you recognize the sender and know the content is safe."
BANNER_MORE = re.compile(
    r"""^\W{0,3}(?:
        do\s+not\s+click\s+(?:on\s+)?(?:any\s+)?links | learn\s+why\s+this\s+is\s+important
      | klicken\s+sie\s+nicht\s+auf\s+links | erfahren\s+sie,?\s+warum\s+dies\s+wichtig\s+ist
      | non\s+(?:fare|fate)\s+clic\s+su | scopri\s+perch[ée]\s+(?:questo\s+)?[èe]\s+importante
      | ne\s+cliquez\s+pas\s+sur | d[ée]couvrez\s+pourquoi\s+(?:ceci|cela)\s+est\s+important
      | no\s+haga\s+clic\s+en | (?:descubra|m[áa]s\s+informaci[óo]n\s+sobre)\s+por\s+qu[ée]
      | klik\s+niet\s+op | klik\s+ikke\s+p[åa] | klicka\s+inte\s+p[åa] | nie\s+klikaj
      | не\s+(?:переходите\s+по\s+ссылкам|открывайте)
    )""",
    re.IGNORECASE | re.VERBOSE,
)
