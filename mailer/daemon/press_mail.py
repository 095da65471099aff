"""A mail of table talk (mailer/daemon/press_lines.py), perhaps with orders: handed to the
service in one unit of work (referee/service/table_talk.py), and the answer the service does
not queue with the game sent from the system outbox: the refusal of talk that went nowhere,
and of orders not accepted, so that a mail that changed nothing changes no game file.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mailer.inbound.message import InboundMail
from mailer.outbound.press import answer_serial, press_answer
from referee.i18n import translations
from referee.i18n.messages import msg
from referee.press import is_reply_code
from referee.receipts import ACCEPTED, DUPLICATE, REJECTED
from referee.service import PressRequest, ServiceError, Talk

from .press_lines import PressInMail, Section, find_press

PRESS = "PRESS"  # the "command" of a mail of table talk, for the worker: read alone, not in a run of orders


def read_press(mail: InboundMail, token: str, host: str, command: tuple[str, str] | None) -> PressInMail | None:
    """The table talk of an identified mail: always for a mail to a reply address of table
    talk; else only when no mail command (STATUS, CHECK ...) came first."""
    if is_reply_code(token):
        return find_press(mail, host=host, by_address=True)
    if command is not None:
        return None
    return find_press(mail, host=host)


def _talk(section: Section) -> Talk:
    left_out = []
    if section.headers_left_out:
        left_out.append(msg("Lines that looked like mail headers were left out of its top: {count}.",
                            count=section.headers_left_out))
    if section.addresses_left_out:
        left_out.append(msg("Reply addresses of the referee's, which carry a secret, were left out of it: {count}.",
                            count=section.addresses_left_out))
    lines = (max(section.first, 1), section.last) if section.last else None
    return Talk(section.audience, section.text, lines, section.by_address, tuple(left_out))


def answer_press(handler: Any, read: Any) -> tuple[str, str, str]:
    """Table talk and the orders of the same mail (`read`, an IdentifiedMail of `handler`, a
    MailHandler) to the service; what it became, for the log: outcome, detail, player."""
    game_id, player, token = read.who
    press: PressInMail = read.press
    mail = read.mail
    orders = replace(read, mail=press.orders, command=None).submission() if press.orders is not None else None
    request = PressRequest(player, tuple(_talk(s) for s in press.sections), token=token,
                           message_id=mail.message_id, in_reply_to=mail.message_id, source="mail",
                           attachments=press.attachments, orders=orders, order_lines=press.order_lines)
    try:
        outcome = handler.referee.press(game_id, request)
    except ServiceError:
        return "refused", f"bad token; {handler._refuse(mail)}", player
    talked = f"table talk {outcome.sent} of {len(outcome.talks)} sent"
    if outcome.duplicate:
        talked = "table talk passed on before"
    receipt = outcome.receipt
    serial = f"{game_id}.{answer_serial(mail.message_id, outcome)}"
    if receipt is not None:
        if receipt.status in (ACCEPTED, DUPLICATE):
            return receipt.status, talked, outcome.player
        t = translations(outcome.language)
        handler.notifier.system_mail(outcome.address, t.gettext("[{game}] Orders not accepted").format(game=game_id),
                                     receipt.render(), in_reply_to=mail.message_id, serial=serial,
                                     language=outcome.language, label="refusal")
        status = receipt.status if receipt.status == REJECTED else "refused"
        return status, f"{talked}; orders: {receipt.reason or status}", outcome.player
    if not outcome.sent and not outcome.duplicate:
        subject, text = press_answer(game_id, outcome, [])
        handler.notifier.system_mail(outcome.address, subject, text, in_reply_to=mail.message_id, serial=serial,
                                     language=outcome.language)
        return "refused", talked, outcome.player
    return "press", talked, outcome.player
