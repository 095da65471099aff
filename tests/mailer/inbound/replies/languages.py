"""What a reply says around the orders and how each client introduces its quote, per language.

The prose is ours; the attribution lines and header labels copy the structure of what the
clients write (Gmail's "On <date>, <name> <address> wrote:", Outlook's From/Sent/To/Subject).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    code: str
    greeting: str
    intro: str
    closing: str
    name: str
    gmail: str  # Gmail's attribution, "{who}" for the referee's name and address
    apple: str  # Apple Mail's and iOS Mail's
    thunderbird: str
    outlook: tuple[str, str, str, str]  # From, Sent, To, Subject labels
    sent: str  # the date as Outlook writes it
    phone: str  # the phone's footer
    separator: str  # "-----Original Message-----" in this language
    charset: str  # what a client of the region labels its plain text with


LANGUAGES = {
    "en": Language("en", "Hi all,", "Here are my orders for this round:", "Thanks,", "Bob",
                   "On Tue, 3 Mar 2026 at 10:12, {who} wrote:", "On 3 Mar 2026, at 10:12, {who} wrote:",
                   "On 03/03/2026 10:12, Referee wrote:", ("From", "Sent", "To", "Subject"),
                   "Tuesday, March 3, 2026 10:12 AM", "Sent from my iPhone", "-----Original Message-----",
                   "windows-1252"),
    "de": Language("de", "Hallo zusammen,", "hier meine Befehle für diese Runde:", "Viele Grüße", "Bob",
                   "Am Di., 3. März 2026 um 10:12 Uhr schrieb {who}:", "Am 03.03.2026 um 10:12 schrieb {who}:",
                   "Am 03.03.26 um 10:12 schrieb Referee:", ("Von", "Gesendet", "An", "Betreff"),
                   "Dienstag, 3. März 2026 10:12", "Von meinem iPhone gesendet", "-----Ursprüngliche Nachricht-----",
                   "iso-8859-1"),
    "it": Language("it", "Ciao a tutti,", "ecco i miei ordini per questo turno:", "Saluti,", "Bob",
                   "Il giorno mar 3 mar 2026 alle ore 10:12 {who} ha scritto:",
                   "Il giorno 3 mar 2026, alle ore 10:12, {who} ha scritto:",
                   "Il 03/03/26 10:12, Referee ha scritto:", ("Da", "Inviato", "A", "Oggetto"),
                   "martedì 3 marzo 2026 10:12", "Inviato da iPhone", "-----Messaggio originale-----",
                   "windows-1252"),
    "fr": Language("fr", "Bonjour à tous,", "voici mes ordres pour ce tour :", "Cordialement,", "Bob",
                   "Le mar. 3 mars 2026 à 10:12, {who} a écrit :", "Le 3 mars 2026 à 10:12, {who} a écrit :",
                   "Le 03/03/2026 à 10:12, Referee a écrit :", ("De ", "Envoyé ", "À ", "Objet "),
                   "mardi 3 mars 2026 10:12", "Envoyé de mon iPhone", "-----Message d'origine-----",
                   "iso-8859-1"),
    "es": Language("es", "Hola a todos,", "aquí van mis órdenes para esta ronda:", "Saludos,", "Bob",
                   "El mar, 3 mar 2026 a las 10:12, {who} escribió:", "El 3 mar 2026, a las 10:12, {who} escribió:",
                   "El 03/03/26 a las 10:12, Referee escribió:", ("De", "Enviado el", "Para", "Asunto"),
                   "martes, 3 de marzo de 2026 10:12", "Enviado desde mi iPhone", "-----Mensaje original-----",
                   "windows-1252"),
    "nl": Language("nl", "Hoi allemaal,", "hier zijn mijn orders voor deze ronde:", "Groeten,", "Bob",
                   "Op di 3 mrt 2026 om 10:12 schreef {who}:", "Op 3 mrt 2026 om 10:12 heeft {who} het volgende geschreven:",
                   "Op 03-03-2026 om 10:12 schreef Referee:", ("Van", "Verzonden", "Aan", "Onderwerp"),
                   "dinsdag 3 maart 2026 10:12", "Verzonden vanaf mijn iPhone", "-----Oorspronkelijk bericht-----",
                   "iso-8859-1"),
    "pl": Language("pl", "Cześć wszystkim,", "oto moje rozkazy na tę rundę:", "Pozdrawiam,", "Bob",
                   "wt., 3 mar 2026 o 10:12 {who} napisał(a):", "Dnia 3 mar 2026 o godz. 10:12 {who} napisał(a):",
                   "W dniu 3.03.2026 o 10:12, Referee pisze:", ("Od", "Wysłano", "Do", "Temat"),
                   "wtorek, 3 marca 2026 10:12", "Wysłane z iPhone'a", "-----Wiadomość oryginalna-----",
                   "iso-8859-2"),
    "sv": Language("sv", "Hej allihop,", "här är mina order för den här rundan:", "Hälsningar,", "Bob",
                   "Den tis 3 mars 2026 kl 10:12 skrev {who}:", "3 mars 2026 kl. 10:12 skrev {who}:",
                   "Den 2026-03-03 kl. 10:12, skrev Referee:", ("Från", "Skickat", "Till", "Ämne"),
                   "den 3 mars 2026 10:12", "Skickat från min iPhone", "-----Ursprungligt meddelande-----",
                   "iso-8859-1"),
    "da": Language("da", "Hej alle sammen,", "her er mine ordrer til denne runde:", "Hilsen,", "Bob",
                   "Den tir. 3. mar. 2026 kl. 10.12 skrev {who}:", "Den 3. mar. 2026 kl. 10.12 skrev {who}:",
                   "Den 03-03-2026 kl. 10:12 skrev Referee:", ("Fra", "Sendt", "Til", "Emne"),
                   "3. marts 2026 10:12", "Sendt fra min iPhone", "-----Oprindelig meddelelse-----",
                   "windows-1252"),
    "ru": Language("ru", "Привет всем,", "вот мои приказы на этот раунд:", "С уважением,", "Боб",
                   "вт, 3 мар. 2026 г. в 10:12, {who}:", "3 марта 2026 г., в 10:12, {who} написал(а):",
                   "03.03.2026 10:12, Referee пишет:", ("От", "Отправлено", "Кому", "Тема"),
                   "3 марта 2026 г. 10:12", "Отправлено с iPhone", "-----Исходное сообщение-----",
                   "koi8-r"),
    "ja": Language("ja", "皆さん、こんにちは。", "今回の命令は次のとおりです。", "よろしくお願いします。", "ボブ",
                   "2026年3月3日(火) 10:12 {who}:", "2026/03/03 10:12、{who}のメール:",
                   "On 2026/03/03 10:12, Referee wrote:", ("差出人", "送信日時", "宛先", "件名"),
                   "2026年3月3日 10:12", "iPhoneから送信", "-----元のメッセージ-----",
                   "iso-2022-jp"),
}
