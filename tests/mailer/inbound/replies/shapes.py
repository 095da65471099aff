"""The corpus of hand-built reply shapes: the structure of what each client sends, in each language.

Every shape answers the first report of a game (Constantinopolis unless it says otherwise) and
names the orders the referee must take from it, exactly, or that it must take none (`taken=()`)
and answer with a text the shape names. The clients: Gmail (web and Android app), Outlook
(desktop, web / Hotmail / Outlook.com), Apple Mail, iOS Mail, Samsung Email on Android,
Thunderbird, Yahoo, Windows Mail, mail.ru and Yandex; mutt's own replies are in mutt/.
"""

from __future__ import annotations

import html as html_escape
import textwrap
from dataclasses import dataclass
from typing import Callable

from .languages import LANGUAGES, Language
from .mime import Part, html_lines, quoted, reply
from .world import Report

ORDERS = ("take consul", "defend 4")
WRITTEN = "take Consul\nDefend 4"  # as a player types them
PC_ORDERS = ("OCCUPY C2-I",)


@dataclass(frozen=True)
class Shape:
    name: str
    client: str
    language: str
    build: Callable[[Report], bytes]
    taken: tuple[str, ...] = ORDERS
    game: str = "c"
    answer: tuple[str, ...] = ()  # what the receipt (or the answer to a refused mail) must say

    @property
    def id(self) -> str:
        return f"{self.client}-{self.language}-{self.name}" + ("" if self.game == "c" else f"-{self.game}")


def who(report: Report) -> str:
    return f"Referee <{report.game_id}@games.test>"


def attribution(lang: Language, report: Report, kind: str = "gmail", width: int | None = None) -> str:
    line = getattr(lang, kind).format(who=who(report))
    if width is None:
        return line
    return "\n".join(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False))


def own_text(lang: Language, orders: str = WRITTEN, *, sign: bool = True) -> str:
    text = f"{lang.greeting}\n{lang.intro}\n{orders}\n"
    return text + (f"\n{lang.closing}\n{lang.name}\n" if sign else "")


def outlook_block(lang: Language, report: Report, bold: bool = False) -> str:
    mark = "*" if bold else ""
    values = (who(report), lang.sent, "Bob <bob@players.test>", report.subject)
    return "\n".join(f"{mark}{label}:{mark} {value}" for label, value in zip(lang.outlook, values))


def outlook_html_block(lang: Language, report: Report) -> str:
    values = (who(report), lang.sent, "Bob <bob@players.test>", report.subject)
    return "<br>".join(f"<b>{label}:</b> {html_escape.escape(value)}" for label, value in zip(lang.outlook, values))


def body_of(report: Report) -> str:
    """The inside of the report's HTML body."""
    page = report.html
    return page[page.index("<body"):].split(">", 1)[1].rsplit("</body>", 1)[0]


def in_block(text: str, orders: str, mark: str) -> str:
    """The report's text with orders typed under its block's ORDERS line, each with *mark*."""
    lines = text.rstrip("\n").split("\n")
    start = next(i for i, line in enumerate(lines) if "ORDERS " in line)
    end = next(i for i in range(start, len(lines)) if lines[i] == "END")
    typed = [mark + line for line in orders.split("\n")]
    return "\n".join(lines[:end] + typed + lines[end:])


def rewrapped(text: str, width: int) -> str:
    """Quoted text hard-wrapped again by a client, as some do when they quote."""
    out = []
    for line in text.split("\n"):
        out += textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False) or [""]
    return "\n".join(out)


# -- the clients ---------------------------------------------------------------------------------


def gmail(lang: Language, width: int | None = None, *, place: str = "top") -> Callable[[Report], bytes]:
    def build(report: Report) -> bytes:
        attr = attribution(lang, report, "gmail", width)
        if place == "block":
            own = f"{lang.greeting}\n\n{lang.closing}\n{lang.name}\n"
            text = f"{own}\n{attr}\n\n{quoted(in_block(report.text, WRITTEN, ''))}\n"
            typed = in_block(body_of(report), WRITTEN, "")
        else:
            own = own_text(lang)
            text = f"{own}\n{attr}\n\n{quoted(report.text)}\n"
            typed = body_of(report)
        page = (f'<div dir="ltr">{html_lines(own)}</div><br><div class="gmail_quote"><div dir="ltr" '
                f'class="gmail_attr">{html_escape.escape(attr)}<br></div><blockquote class="gmail_quote" '
                f'style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204)">{typed}</blockquote></div>')
        return reply(report, [Part(text), Part(page, "html")], client="gmail")
    return build


def outlook_desktop(lang: Language, *, place: str = "top") -> Callable[[Report], bytes]:
    def build(report: Report) -> bytes:
        if place == "block":
            own, old = f"{lang.greeting}\n\n{lang.closing}\n{lang.name}\n", in_block(report.text, WRITTEN, "")
        else:
            own, old = own_text(lang), report.text
        charset = "utf-8" if lang.code in ("ru", "ja") else lang.charset
        text = f"{own}\n{outlook_block(lang, report, bold=lang.code in ('de', 'fr', 'sv'))}\n\n{old}\n"
        page = (f'<div class="WordSection1">{html_lines(own)}<div><div style="border:none;border-top:solid '
                f'#E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal">{outlook_html_block(lang, report)}'
                f'</p></div></div>{body_of(report)}</div>')
        return reply(report, [Part(text, charset=charset), Part(page, "html", charset=charset)], client="outlook")
    return build


def outlook_web(lang: Language, *, place: str = "top") -> Callable[[Report], bytes]:
    """Outlook on the web, Hotmail and Outlook.com: HTML only, no "-- " before the signature."""
    def build(report: Report) -> bytes:
        if place == "block":
            own, old = f"{lang.greeting}\n\n{lang.closing}\n{lang.name}", in_block(body_of(report), WRITTEN, "")
        else:
            own, old = own_text(lang).rstrip("\n"), body_of(report)
        page = (f'<html><body><div style="font-family:Calibri">{html_lines(own)}</div><div id="appendonsend">'
                f'</div><hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
                f'<font face="Calibri" style="font-size:11pt">{outlook_html_block(lang, report)}</font><div>&nbsp;'
                f'</div></div><div>{old}</div></body></html>')
        return reply(report, [Part(page, "html", cte="base64" if lang.code in ("ru", "ja", "pl") else
                                   "quoted-printable")], client="hotmail")
    return build


def apple(lang: Language) -> Callable[[Report], bytes]:
    def build(report: Report) -> bytes:
        own = f"{WRITTEN}\n\n{lang.closing}\n{lang.name}\n"
        attr = attribution(lang, report, "apple")
        text = f"{own}\n{attr}\n\n{quoted(report.text)}\n"
        page = (f'<html><body style="overflow-wrap: break-word;">{html_lines(own)}<div><br><blockquote type="cite">'
                f'<div>{html_escape.escape(attr)}</div><br>{body_of(report)}</blockquote></div></body></html>')
        return reply(report, [Part(text), Part(page, "html")], client="apple")
    return build


def ios(lang: Language) -> Callable[[Report], bytes]:
    """iOS Mail: base64 text, the phone's footer, the attribution inside the quote."""
    def build(report: Report) -> bytes:
        text = f"{WRITTEN}\n\n{lang.phone}\n\n{quoted(attribution(lang, report, 'apple'))}\n>\n{quoted(report.text)}\n"
        return reply(report, [Part(text, cte="base64")], client="ios")
    return build


def samsung(lang: Language) -> Callable[[Report], bytes]:
    """Samsung Email on Android: a separator and a short header block, the quote unmarked."""
    def build(report: Report) -> bytes:
        sep = f"-------- {lang.separator.strip('-')} --------"
        labels = lang.outlook
        head = (f"{labels[0]}: {who(report)} \n{labels[1]}: 03/03/2026 10:12 (GMT+01:00) \n"
                f"{labels[2]}: bob@players.test \n{labels[3]}: {report.subject} ")
        text = f"{lang.greeting}\n{WRITTEN}\n\n{lang.phone.replace('iPhone', 'Galaxy')}\n\n{sep}\n{head}\n\n{report.text}\n"
        return reply(report, [Part(text, cte="8bit")], client="samsung")
    return build


def thunderbird(lang: Language) -> Callable[[Report], bytes]:
    """Thunderbird bottom-posting: format=flowed, the quote first, the signature after "-- "."""
    def build(report: Report) -> bytes:
        text = (f"{lang.thunderbird}\n{quoted(report.text)}\n\n{lang.greeting}\n{WRITTEN}\n\n"
                f"{lang.closing}\n-- \n{lang.name}\n")
        return reply(report, [Part(text, charset="utf-8" if lang.code in ("ru", "ja", "pl") else lang.charset,
                                   cte="8bit" if lang.code != "ja" else "7bit", flowed=True)],
                     client="thunderbird")
    return build


def yahoo(report: Report) -> bytes:
    own = own_text(LANGUAGES["en"])
    attr = "On Tuesday, March 3, 2026, 10:12:00 AM GMT+1, Referee <c@games.test> wrote:"
    text = f"{own}\n\n {attr}\n \n \n{report.text}\n"
    page = (f'<html><body><div class="yahoo-style-wrap">{html_lines(own)}</div><div id="yahoo_quoted_1" '
            f'class="yahoo_quoted"><div style="font-size:13px;color:#26282a"><div>{html_escape.escape(attr)}</div>'
            f'<div><br></div><div><br></div><div>{body_of(report)}</div></div></div></body></html>')
    return reply(report, [Part(text), Part(page, "html")], client="yahoo")


def windows_mail(report: Report) -> bytes:
    lang = LANGUAGES["en"]
    page = (f'<html><body><div>{html_lines(WRITTEN)}</div><div><br></div><div>Thanks,</div><div>Bob</div><div><br>'
            f'</div><div>Sent from <a href="https://go.microsoft.com/fwlink/?LinkId=550986">Mail</a> for Windows</div>'
            f'<div><br></div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
            f'<p class="MsoNormal">{outlook_html_block(lang, report)}</p></div><div>{body_of(report)}</div></body></html>')
    return reply(report, [Part(page, "html")], client="windowsmail")


def mailru(report: Report) -> bytes:
    lang = LANGUAGES["ru"]
    page = (f'<HTML><BODY><div>{html_lines(own_text(lang, sign=False))}</div><div>&nbsp;</div>'
            f'<div data-signature-widget="container"><div data-signature-widget="content"><div>--<br>Боб</div></div></div>'
            f'<div>&nbsp;</div><div class="mail-quote-collapse">Вторник, 3 марта 2026, 10:12 +01:00 от Referee '
            f'&lt;c@games.test&gt;:<br>&nbsp;<blockquote style="border-left:1px solid #0857A6; margin:10px; '
            f'padding:0 0 0 10px;"><div id=""><div class="js-helper js-readmsg-msg">{body_of(report)}</div></div>'
            f'</blockquote></div></BODY></HTML>')
    return reply(report, [Part(page, "html", cte="base64")], client="mailru", sender="Боб <bob@players.test>")


def yandex(report: Report) -> bytes:
    lang = LANGUAGES["ru"]
    page = (f'<div>{html_lines(own_text(lang, sign=False))}</div><div>&nbsp;</div><div>-- </div>'
            f'<div>Отправлено из мобильной Яндекс Почты</div><div>&nbsp;</div><div>03.03.2026, 10:12, "Referee" '
            f'&lt;c@games.test&gt;:</div><blockquote>{body_of(report)}</blockquote>')
    return reply(report, [Part(page, "html")], client="yandex")


# -- shapes of particular interest --------------------------------------------------------------


def typed_into_block_unmarked(report: Report) -> bytes:
    """A plain-text editor: orders typed on new lines inside the quoted block, without ">"."""
    lang = LANGUAGES["en"]
    old = quoted(report.text).split("\n")
    end = max(i for i, line in enumerate(old) if line == "> END")
    text = "\n".join([attribution(lang, report)] + old[:end] + ["take consul", "defend 4"] + old[end:])
    return reply(report, [Part(text + "\n\nThanks!\nBob\n")], client="vim")


def typed_into_rewrapped_block(report: Report) -> bytes:
    """Apple Mail quoting the report re-wrapped at 60 columns, orders typed in the block."""
    text = f"Hi,\n\nOn 3 Mar 2026, at 10:12, {who(report)} wrote:\n\n"
    text += quoted(rewrapped(in_block(report.text, "take consul\ndefend 4", ""), 60))
    return reply(report, [Part(text + "\n")], client="apple")


def gmail_plain(report: Report, own: str, old: str, *, references: bool = True) -> bytes:
    """A plain-text reply: the player's text, Gmail's attribution and *old* quoted with ">"."""
    text = f"{own}\n\nOn Tue, 3 Mar 2026 at 10:12, {who(report)} wrote:\n\n{quoted(old)}\n"
    return reply(report, [Part(text.lstrip("\n"))], client="gmail" if references else "webmail",
                 references=references)


def own_text_wins(report: Report) -> bytes:
    """Orders above the quote, and other orders typed into the quoted block: the own text wins."""
    return gmail_plain(report, "take consul\ndefend 4", in_block(report.text, "stay", ""))


def typed_into_block_without_references(report: Report) -> bytes:
    """A client that drops In-Reply-To and References: the block is found by its ORDERS line."""
    return gmail_plain(report, "Hi,", in_block(report.text, WRITTEN, ""), references=False)


def untouched_without_references(report: Report) -> bytes:
    return gmail_plain(report, "Tomorrow.", report.text, references=False)


def typed_into_block_of_another_mail(report: Report) -> bytes:
    """Orders typed into a block whose ORDERS line the referee never sent this player."""
    block = in_block(report.text, WRITTEN, "").replace("ORDERS c ", "ORDERS c x", 1)
    return gmail_plain(report, "", block, references=False)


def no_orders_anywhere(report: Report) -> bytes:
    return gmail_plain(report, "Hi all,\nsorry, I need a day to think.\n\nThanks,\nBob", report.text)


def own_block_copied(report: Report) -> bytes:
    block = report.text[report.text.index("\nORDERS ") + 1:report.text.index("\nEND") + 4]
    filled = block.replace("\nEND", "\ntake consul\ndefend 4\nEND")
    text = f"Hello,\n\n{filled}\n\nBob\n\nOn Tue, 3 Mar 2026 at 10:12, {who(report)} wrote:\n{quoted(report.text)}\n"
    return reply(report, [Part(text)], client="gmail")


def stale_orders_quoted(report: Report) -> bytes:
    """A reply to the receipt of an earlier set: the earlier orders are quoted, the new ones above."""
    earlier = "Orders accepted for bob.\n\nUnderstood as:\n  take urbi\n\n> take urbi\n> defend 9\n"
    text = f"take consul\ndefend 4\n\nOn Tue, 3 Mar 2026 at 10:30, {who(report)} wrote:\n{quoted(earlier)}\n"
    return reply(report, [Part(text)], client="gmail")


def corporate(report: Report) -> bytes:
    text = ("take consul\ndefend 4\n\nBest regards,\nBob Miller\nTrade Manager | Example Shipping Ltd\n"
            "+44 20 7946 0000 | www.example.com\n\nCONFIDENTIALITY NOTICE: This e-mail and any attachments are "
            "confidential and intended solely for the addressee. Use of this e-mail by anyone else is not\n"
            "allowed. Take care before you print this e-mail.\n\n"
            f"From: {who(report)}\nSent: Tuesday, March 3, 2026 10:12 AM\nTo: Bob Miller\nSubject: {report.subject}\n\n"
            f"{report.text}\n")
    return reply(report, [Part(text, charset="windows-1252")], client="outlook")


def proton(report: Report) -> bytes:
    text = (f"Hi,\ntake consul\ndefend 4\n\nSent with Proton Mail secure email.\n\n"
            f"On Tuesday, March 3rd, 2026 at 10:12, {who(report)} wrote:\n\n{quoted(report.text)}\n")
    return reply(report, [Part(text)], client="proton")


def sent_with(report: Report) -> bytes:
    text = (f"take consul\ndefend 4\n\nCheers\nBob\n\nSent with Spark\n\n{who(report)}wrote:\n"
            f"{quoted(report.text)}\n")
    return reply(report, [Part(text)], client="spark")


def three_line_attribution(report: Report) -> bytes:
    text = (f"take consul\ndefend 4\n\nOn Tue, 3 Mar 2026 at 10:12, Referee of the\ngames here <"
            f"{report.game_id}@games.test>\nwrote:\n\n{quoted(report.text)}\n")
    return reply(report, [Part(text)], client="gmail")


def misspelt(report: Report) -> bytes:
    text = f"Hi all,\ntkae consul\ndefend 4\n\nThanks,\nBob\n\nOn Tue, 3 Mar 2026, {who(report)} wrote:\n{quoted(report.text)}\n"
    return reply(report, [Part(text)], client="gmail")


def pasted_report(report: Report) -> bytes:
    """The report pasted below the orders with no marker at all: its block, unchanged, is not
    the player's, and the text above it cannot be told from the quote, so nothing is read."""
    text = f"take consul\ndefend 4\n\n{report.text}\n"
    return reply(report, [Part(text)], client="pasted")


def porto(kind: str) -> Callable[[Report], bytes]:
    def build(report: Report) -> bytes:
        if kind == "gmail":
            text = (f"Hi all,\nOccupy c2-i\n\nThanks\nBob\n\nOn Tue, 3 Mar 2026 at 10:12, {who(report)} wrote:\n\n"
                    f"{quoted(report.text)}\n")
        elif kind == "block":
            text = f"Hallo,\n\nAm 03.03.26 um 10:12 schrieb Referee:\n{quoted(in_block(report.text, 'OCCUPY C2-I', ''))}\n"
        else:
            text = (f"Привет всем,\nOCCUPY C2-I\n\nСпасибо!\n\n{outlook_block(LANGUAGES['ru'], report)}\n\n"
                    f"{report.text}\n")
        return reply(report, [Part(text, charset="utf-8")], client=kind)
    return build


# -- names, sign-offs, banners and forwards: text a person reads past -----------------------------


def gmail_top(own: str, *, charset: str = "utf-8", client: str = "gmail") -> Callable[[Report], bytes]:
    """The player's *own* text above Gmail's attribution and the quoted report."""
    def build(report: Report) -> bytes:
        text = f"{own}\n\nOn Tue, 3 Mar 2026 at 10:12, {who(report)} wrote:\n\n{quoted(report.text)}\n"
        return reply(report, [Part(text, charset=charset)], client=client)
    return build


# A closing and a name under the orders, as people in each language sign a short mail.
SIGNED = {
    "da": ("Kh", "Peter"), "da-formal": ("Med venlig hilsen", "Peter Hansen"), "de": ("Mit freundlichen Grüßen",
    "Dieter Bauer\nDipl.-Ing. Dieter Bauer\nBauer & Söhne GmbH\nTel. 089 123456"), "it": ("Con affetto", "Paola"),
    "fr": ("Bien cordialement,", "Pierre Dupont\nDirecteur commercial"), "es": ("Saludos cordiales,", "Paco"),
    "nl": ("Doei,", "Daan"), "sv": ("Med vänliga hälsningar", "Per"), "pl": ("Z poważaniem", "Piotr Nowak"),
    "ru": ("Всего хорошего,", "Пётр Иванов"), "en": ("Warm wishes,", "Sonya"),
}


def signed(code: str) -> Callable[[Report], bytes]:
    closing, name = SIGNED[code]
    return gmail_top(f"{WRITTEN}\n\n{closing}\n{name}")


def interleaved(report: Report) -> bytes:
    """A bottom-posted answer written between the paragraphs of the quoted report, with
    everyday sentences that begin like orders ("and" is close to `end`)."""
    lines = report.text.rstrip("\n").split("\n")
    middle = len(lines) // 2
    while lines[middle].strip():
        middle += 1
    text = (f"On Tue, 3 Mar 2026 at 10:12, {who(report)} wrote:\n{quoted(chr(10).join(lines[:middle]))}\n\n"
            "take consul\nAnd another reply!\n\n"
            f"{quoted(chr(10).join(lines[middle:]))}\n\ndefend 4\nand under this.\n")
    return reply(report, [Part(text)], client="thunderbird")


def with_banner(banner: str, *, lang: str = "en") -> Callable[[Report], bytes]:
    """A mail system's warning above the text, and the Outlook header block above the report."""
    def build(report: Report) -> bytes:
        language = LANGUAGES[lang]
        text = f"{banner}\n\n{WRITTEN}\n\n{language.closing}\n{language.name}\n\n{outlook_block(language, report)}\n\n{report.text}\n"
        return reply(report, [Part(text, charset="utf-8")], client="outlook")
    return build


def forwarded(kind: str) -> Callable[[Report], bytes]:
    """A player who wrote their orders in another mail (to themselves, from work) and forwards
    it to the game: the forwarded mail's text is the orders, below its header block."""
    def build(report: Report) -> bytes:
        own = "Sorry, this went to my work address first. See below.\n\nBob\n"
        header = ("From: Bob Miller <bob.miller@work.example>\nDate: Tue, 3 Mar 2026 at 10:40\n"
                  "Subject: my orders\nTo: Bob <bob@players.test>\n")
        if kind == "gmail":
            text, subject = f"{own}\n---------- Forwarded message ---------\n{header}\n\n{WRITTEN}\n\nThanks\nBob\n", "Fwd: my orders"
        elif kind == "outlook":
            header = ("From: Bob Miller <bob.miller@work.example>\nSent: Tuesday, March 3, 2026 10:40 AM\n"
                      "To: Bob <bob@players.test>\nSubject: my orders\n")
            text, subject = f"\n\n{'_' * 32}\n{header}\n{WRITTEN}\n\nBob Miller\nTrade Manager | Example Shipping Ltd\n", "FW: my orders"
        else:  # Apple Mail in German: its own forward line, German labels
            header = ("Von: Bob Müller <bob.mueller@work.example>\nBetreff: Befehle\nDatum: 3. März 2026 um 10:40:00 MEZ\n"
                      "An: Bob <bob@players.test>\n")
            text, subject = (f"Hallo,\n\nsiehe unten.\n\nAnfang der weitergeleiteten Nachricht:\n\n{header}\n{WRITTEN}\n\n"
                             "Viele Grüße\nBob\n"), "WG: Befehle"
        return reply(report, [Part(text, charset="utf-8")], client=f"fwd-{kind}", references=False, subject=subject)
    return build


def order_above_greeting(report: Report) -> bytes:
    """The order first, then a greeting, a question and a sign-off to another player (Polish)."""
    text = "OCCUPY C2-I\n\nCześć Anno,\nJak się masz?\nPozdrawiam,\nJan\n"
    return reply(report, [Part(text, charset="iso-8859-2")], client="thunderbird-pl", references=False)


def _issue_shapes() -> list[Shape]:
    not_read = "Not read as orders:"
    shapes = [Shape(f"signed-{code}", "gmail", code.split("-")[0], signed(code), answer=(not_read,)) for code in SIGNED]
    shapes += [
        Shape("name-alone-at-the-end", "gmail", "en", gmail_top(f"{WRITTEN}\n\nPeter"), answer=(f"{not_read} Peter",)),
        Shape("name-right-under", "gmail", "en", gmail_top(f"{WRITTEN}\nStan"), answer=(f"{not_read} Stan",)),
        Shape("signature-on-top", "gmail", "en", gmail_top(
            f"Thank you,\nSonya Johnson\nSales Director, Baltic Freight\n+44 20 7946 0000\n\n{WRITTEN}"),
            answer=(f"{not_read} Thank you, Sonya Johnson Sales Director, Baltic Freight",)),
        Shape("signature-on-top-title", "gmail", "en", gmail_top(
            f"Peter Miller\nTrade Manager | Example Shipping Ltd\n\n{WRITTEN}"),
            answer=("Trade Manager | Example Shipping Ltd",)),
        Shape("interleaved-everyday-sentences", "thunderbird", "en", interleaved,
              answer=(f"{not_read} And another reply! and under this.",)),
        Shape("bulleted-orders-and-prose", "gmail", "en", gmail_top(
            "Hi,\n- take consul\n- defend 4\n- how about bullets\n- and another\n\nBob"),
            answer=("- how about bullets", "- and another")),
        Shape("outside-banner", "outlook", "en", with_banner(
            "CAUTION: This email originated from outside of the organization. Do not click links or open\n"
            "attachments unless you recognize the sender and know the content is safe.")),
        Shape("outside-banner-tag", "outlook", "en", with_banner("[EXTERNAL]")),
        Shape("outside-banner", "outlook", "de", with_banner(
            "ACHTUNG: Diese E-Mail stammt von einem externen Absender. Klicken Sie nicht auf Links und öffnen\n"
            "Sie keine Anhänge, wenn Sie den Absender nicht kennen.", lang="de")),
        Shape("first-contact-banner", "outlook", "it", with_banner(
            "Non ricevi spesso messaggi di posta elettronica da bob@players.test. Scopri perché è importante",
            lang="it")),
        Shape("disclaimer-content", "outlook", "en", gmail_top(
            f"{WRITTEN}\n\nRegards\nBob\n\nThe content of this email is confidential and intended for the recipient "
            "named above only.\nPlease consider the environment before printing this email.", client="outlook")),
        Shape("forwarded", "gmail", "en", forwarded("gmail"), answer=("Read from the mail you forwarded",)),
        Shape("forwarded", "outlook", "en", forwarded("outlook"), answer=("Read from the mail you forwarded",)),
        Shape("forwarded", "apple", "de", forwarded("apple"), answer=("Read from the mail you forwarded",)),
        Shape("misspelt-with-arguments", "gmail", "en", gmail_top("Hi all,\nbidd consul 5\n\nThanks,\nBob"), taken=(),
              answer=("bidd consul 5", "did you mean")),
        Shape("misspelt-with-arguments", "gmail", "en", gmail_top("Hi all,\nOCUPY C2-I\n\nKh\nPeter"), taken=(),
              game="p", answer=("OCUPY C2-I", "did you mean")),
        Shape("order-above-greeting", "thunderbird", "pl", order_above_greeting, PC_ORDERS, "p",
              answer=(f"{not_read} Cześć Anno, Jak się masz? Pozdrawiam, Jan",)),
    ]
    return shapes


def _per_language() -> list[Shape]:
    shapes = []
    for code, lang in LANGUAGES.items():
        width = {"en": 60, "de": 50, "it": 55, "pl": 45, "ru": 30, "ja": 25}.get(code)
        shapes += [
            Shape("top", "gmail", code, gmail(lang),
                  answer=(f"Not read as orders: {lang.greeting} {lang.intro} {lang.closing} {lang.name}",)),
            Shape("outlook-block", "outlook", code, outlook_desktop(lang)),
            Shape("html-only", "outlook-web", code, outlook_web(lang),
                  answer=(f"Not read as orders: {lang.greeting} {lang.intro} {lang.closing} {lang.name}",)),
            Shape("top", "apple", code, apple(lang)),
            Shape("top", "ios", code, ios(lang)),
            Shape("top", "samsung", code, samsung(lang)),
            Shape("bottom", "thunderbird", code, thunderbird(lang)),
            Shape("in-block", "gmail", code, gmail(lang, place="block")),
            Shape("in-block", "outlook", code, outlook_desktop(lang, place="block")),
            Shape("in-block", "outlook-web", code, outlook_web(lang, place="block")),
        ]
        if width:
            shapes.append(Shape(f"wrapped-{width}", "gmail", code, gmail(lang, width)))
    return shapes


SHAPES: list[Shape] = _per_language() + [
    Shape("top", "yahoo", "en", yahoo),
    Shape("html-only", "windows-mail", "en", windows_mail, answer=("Not read as orders: Thanks, Bob",)),
    Shape("html-only", "mailru", "ru", mailru),
    Shape("html-only", "yandex", "ru", yandex),
    Shape("typed-in-block-unmarked", "vim", "en", typed_into_block_unmarked),
    Shape("typed-in-rewrapped-block", "apple", "en", typed_into_rewrapped_block),
    Shape("in-block-without-references", "webmail", "en", typed_into_block_without_references,
          answer=("Read from the ORDERS block you edited",)),
    Shape("untouched-without-references", "webmail", "en", untouched_without_references, taken=(),
          answer=("Not read as orders: Tomorrow.", "quoted from the referee's mail (as it was sent)")),
    Shape("in-unknown-block", "webmail", "en", typed_into_block_of_another_mail, taken=(),
          answer=("could not be compared with a block the referee sent you",)),
    Shape("own-text-wins", "gmail", "en", own_text_wins, answer=("Your own text holds orders",)),
    Shape("no-orders", "gmail", "en", no_orders_anywhere, taken=(),
          answer=("No orders were found", "sorry, I need a day to think.", "quoted from the referee's mail (as it was sent)")),
    Shape("own-block-copied", "gmail", "en", own_block_copied),
    Shape("stale-quoted-orders", "gmail", "en", stale_orders_quoted),
    Shape("corporate-disclaimer", "outlook", "en", corporate),
    Shape("proton-footer", "proton", "en", proton),
    Shape("sent-with-addr-wrote", "spark", "en", sent_with),
    Shape("three-line-attribution", "gmail", "en", three_line_attribution),
    Shape("misspelt", "gmail", "en", misspelt, taken=(), answer=("tkae consul", "did you mean")),
    Shape("pasted-report", "pasted", "en", pasted_report, taken=(), answer=("unchanged, so it was not read",)),
    Shape("top", "gmail", "en", porto("gmail"), PC_ORDERS, "p"),
    Shape("in-block", "thunderbird", "de", porto("block"), PC_ORDERS, "p"),
    Shape("outlook-block", "outlook", "ru", porto("outlook"), PC_ORDERS, "p"),
] + _issue_shapes()
