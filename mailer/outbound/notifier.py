"""Turns what the service did into queued mail, inside the same unit of work.

The service calls these hooks while it still holds the game's transaction, so a turn, its
receipt and the reports it triggers are written together: after a crash either all of them
exist or none does. Mail that must not touch the game (a rejected submission, a stranger)
goes to the system outbox, a small store of its own.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from datetime import datetime, timedelta
from typing import Any, Callable, Mapping, Sequence

from referee.computer_seats import computer_names, is_computer
from referee.config import Settings
from referee.contract import Event, Game, State, echo_kinds, question_for, standing_plan
from referee.i18n import NAMES, recipient_language, translations
from referee.i18n.messages import Message, msg, say
from referee.i18n.terms import agreed, phase_name, round_text, shown_phase
from referee.notify import DIGEST, EACH, Notify, bag_of
from referee.receipts import Receipt
from referee.rendering import paragraphs, render
from referee.schedule import deadline_short, deadline_text, due_of
from referee.store import GameExists, GameTransaction
from referee.timekeeping import format_duration, show_span

from mailer.own_address import referee_address

from . import folding
from .compose import OutgoingMail, message_id
from .outbox import TABLE, Outbox, queue
from .news import grouped
from .press import PressMail
from .reports import help_text, orders_block, plan_line, render_report, report_context, report_subject, your_move

SYSTEM_GAME = "postmaster"
# how long the answer to a mail to the game's plain address waits for a copy of the same mail
# at the player's token address, which withdraws it
PLAIN_ANSWER_WAIT = timedelta(seconds=60)


def reply_address(game_id: str, seat: Mapping[str, Any], host: str) -> str:
    return f"{game_id}+{seat['name']}+{seat['token']}@{host}"


class MailNotifier(PressMail):
    def __init__(self, settings: Settings, clock: Callable[[], datetime], outbox: Outbox,
                 system_outbox: Outbox) -> None:
        self.settings = settings
        self.clock = clock
        self.outbox = outbox
        self.system_outbox = system_outbox
        self._local = threading.local()  # the worker runs several games at once, one per thread
        self._unmarked: set[str] = set()  # games whose marker could not be written yet
        self._unmarked_lock = threading.Lock()

    @property
    def _touched(self) -> set[str]:
        """Games this thread queued mail for since its last `flush_marks`."""
        touched = getattr(self._local, "touched", None)
        if touched is None:
            touched = self._local.touched = set()
        return touched

    # -- helpers

    def _queue(self, tx: GameTransaction, mail: OutgoingMail, due: datetime | None = None) -> None:
        queue(tx, in_agreement(mail), host=self.settings.hostname, sender_name=self.settings.sender_name, now=self.clock(),
              due=due)
        self._touched.add(tx.game_id)

    def flush_marks(self) -> None:
        """After the unit of work is written: tell the sender which games have mail. A marker
        that cannot be written (a full disk) is tried again at every later flush, from any
        thread, and the error is raised for the caller to report."""
        with self._unmarked_lock:
            games, self._unmarked = self._touched | self._unmarked, set()
        self._touched.clear()
        failed: list[tuple[str, OSError]] = []
        for game_id in sorted(games):
            try:
                self.outbox.mark(game_id)
            except OSError as exc:
                failed.append((game_id, exc))
        if failed:
            with self._unmarked_lock:
                self._unmarked.update(game_id for game_id, _ in failed)
            raise failed[0][1]

    def _seat(self, meta: Mapping[str, Any], player: str) -> Mapping[str, Any]:
        return next(s for s in meta["seats"] if s["name"] == player)

    def _to_seat(self, tx: GameTransaction, seat: Mapping[str, Any], kind: str, subject: str, text: str,
                 serial: str, *, html: str | None = None, in_reply_to: str | None = None,
                 auto: str = "auto-generated", kind_in_id: str | None = None, answers: Sequence[str] = (),
                 label: str = "", phase: str = "") -> None:
        if is_computer(seat):
            return  # a seat the referee plays itself has no address
        self._queue(tx, OutgoingMail(
            tx.game_id, kind, seat["email"], subject, text,
            message_id(tx.game_id, kind_in_id or kind, serial, seat["name"], self.settings.hostname), html=html,
            reply_to=reply_address(tx.game_id, seat, self.settings.hostname), in_reply_to=in_reply_to, auto=auto,
            answers=tuple(answers), language=recipient_language(tx.meta, seat["name"]), label=label, phase=phase))

    # -- hooks called by the service inside its transaction

    def receipt(self, tx: GameTransaction, meta: Mapping[str, Any], receipt: Receipt,
                in_reply_to: str | None) -> None:
        """An accepted submission's receipt, to the player's registered address: a mail of its
        own at once for a player who chose `each`; else a part that `settle` sends at once too,
        opening the mail due in this unit of work or, when none is, alone."""
        seat = self._seat(meta, receipt.player)
        if is_computer(seat):
            return
        t = translations(receipt.language)
        if receipt.plan:
            folding.note_planner(tx, receipt.player)
        if self._choice(seat).mode != EACH:
            spent = receipt.render(brief=True, plan_left="spent") if receipt.plan else None
            ended = receipt.render(brief=True, plan_left="over") if receipt.plan else None
            folding.add_part(tx, receipt.player, "receipt", t.gettext("Orders received"), receipt.render(brief=True),
                             reply=in_reply_to, spent=spent, ended=ended, step=receipt.seq)
            return
        serial = f"{receipt.seq}" if receipt.seq is not None else receipt.at
        self._queue(tx, OutgoingMail(
            tx.game_id, "receipt", seat["email"],
            t.gettext("[{game}] Orders received: {status}").format(game=tx.game_id, status=t.gettext(receipt.status)),
            receipt.render(), message_id(tx.game_id, "receipt", serial, seat["name"], self.settings.hostname),
            reply_to=reply_address(tx.game_id, seat, self.settings.hostname),
            in_reply_to=in_reply_to, auto="auto-replied", language=receipt.language))

    def reports(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State) -> None:
        """Reports after a phase resolved, to the players who chose `each` (the others' mail is
        decided by `settle`). Such a player gets one when something is asked of them, when a
        new phase or round begins, or when the game ends; in between (another player's turn
        in a sequential phase) the events wait for their next report, so nobody is sent a
        mail per move of every other player."""
        phase = game.phase(state)
        stage = f"{phase.round}/{phase.name}"
        asked = {p.player for p in game.prompts(state)}
        over = not asked
        reported: dict[str, int] = dict(meta.get("reported", {}))
        since: dict[str, int] = dict(meta.get("reported_from", {}))  # what each last report began after
        notices: dict[str, list[str]] = {p: list(lines) for p, lines in (meta.get("notices") or {}).items()}
        records = tx.events(since=min(reported.values(), default=0))
        last_seq = records[-1]["seq"] if records else max(reported.values(), default=0)
        bags = dict(meta.get("mailbag") or {})
        for seat in meta["seats"]:
            name = seat["name"]
            if is_computer(seat) or self._choice(seat).mode != EACH or not (
                    name in asked or over or meta.get("reported_stage") != stage):
                continue
            seen = reported.get(name, 0)
            lang = recipient_language(meta, name)
            events = [Event.from_json(e) for r in records if r["seq"] > seen for e in r.get("events", [])]
            bag = bag_of(meta, name)
            riders = [p for p in bag["parts"] if p["kind"] in folding.RIDERS]  # table talk waiting for it
            ctx = self._context(tx, game, state, meta, seat, bag, events, notices.pop(name, ()), riders)
            text, html = render_report(ctx)
            self._queue(tx, OutgoingMail(
                tx.game_id, "report", seat["email"], report_subject(ctx), text,
                message_id(tx.game_id, f"report-{phase.key}", last_seq, name, self.settings.hostname),
                html=html, reply_to=reply_address(tx.game_id, seat, self.settings.hostname), language=lang,
                label=mail_label(ctx, new_round=stage_round(meta.get("reported_stage")) != phase.round),
                phase=phase_header(game, state)))
            bags[name] = dict(bag, seen=ctx["sections"], parts=[p for p in bag["parts"] if p not in riders])
            since[name] = seen
            reported[name] = last_seq
        tx.set_meta(reported=reported, reported_from=since, reported_stage=stage, mailbag=bags)
        if meta.get("notices"):
            tx.set_meta(notices=notices)  # told now; the rest wait for each player's next report

    def reminder(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State, player: str,
                 before: timedelta, now: datetime) -> None:
        """A reminder to one player whose orders are missing; always at once. A player who did
        not choose `each` gets it as their mail of the moment, with whatever waited for it."""
        seat = self._seat(meta, player)
        if is_computer(seat):
            return
        schedule = meta["schedule"]
        due = due_of(schedule)
        assert due is not None
        phase = game.phase(state)
        lang = recipient_language(meta, player)
        subject = translations(lang).gettext("[{game}] Reminder: orders due in {left}").format(
            game=tx.game_id, left=show_span(due - now))
        if self._choice(seat).mode != EACH:
            folding.add_part(tx, player, "reminder", subject.removeprefix(f"[{tx.game_id}] "), render(
                "reminder.txt", lang=lang, game_id=tx.game_id, title=game.title, player=player, brief=True,
                phase=shown_phase(game, lang, phase),
                prompt="", left=show_span(due - now), deadline="", help="", block=[]), urgent=True)
            return
        prompts = [p for p in game.prompts(state) if p.player == player]
        if prompts:
            subject = your_move(translations(lang), tx.game_id, round_text(game, lang, phase.round),
                                phase_name(game, lang, phase.name),
                                deadline_short(meta, seat.get("timezone"), lang), reminder=show_span(due - now))
        text = render("reminder.txt", lang=lang, game_id=tx.game_id, title=game.title, player=player, brief=False,
                      phase=shown_phase(game, lang, phase),
                      prompt=say(question_for(game, state, prompts[0]), lang, game) if prompts else "",
                      left=show_span(due - now),
                      deadline=deadline_text(meta, seat.get("timezone"), lang),
                      help=say(game.help(state, player), lang, game) if prompts else "",
                      block=orders_block(game, state, tx.game_id, player, lang) if prompts else [])
        self._to_seat(tx, seat, "reminder", subject, text, f"{phase.key}-{format_duration(before)}-{schedule['due']}",
                      phase=phase_header(game, state))

    def reopened(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State, player: str,
                 *, by: str, lines: Sequence[str], cancelled: Sequence[str], serial: str) -> None:
        """A player whose part of a simultaneous phase another player's set opened again: their
        accepted orders were cancelled (`cancelled` lists them, `lines` says why), or the game
        took something back (`lines`: the events that say what). Sent at once: their report
        would only come when the phase resolves, too late to answer."""
        seat = self._seat(meta, player)
        if is_computer(seat):
            return
        phase = game.phase(state)
        brief = self._choice(seat).mode != EACH
        lang = recipient_language(meta, player)
        t = translations(lang)
        body = render("reopened.txt", lang=lang, game_id=tx.game_id, title=game.title, player=player, by=by,
                      brief=brief,
                      phase=shown_phase(game, lang, phase),
                      lines=[say(line, lang, game) for line in lines],
                      cancelled=[say(line, lang, game) for line in cancelled],
                      deadline=deadline_text(meta, seat.get("timezone"), lang),
                      help=say(game.help(state, player), lang, game),
                      block=orders_block(game, state, tx.game_id, player, lang))
        subject = t.gettext("Your orders were cancelled") if cancelled else t.gettext("Your part is open again")
        if brief:  # the ORDERS block and the deadline come with the rest of their mail
            folding.add_part(tx, player, "reopened", subject, f"{subject}.\n{body}", urgent=True)
            return
        again = t.gettext("[{game}] Your move again ({what}): {when}, {phase}").format(
            game=tx.game_id, what=subject[:1].lower() + subject[1:], when=round_text(game, lang, phase.round),
            phase=phase_name(game, lang, phase.name))
        due = deadline_short(meta, seat.get("timezone"), lang)
        self._to_seat(tx, seat, "notice", again + t.gettext(" (by {deadline})").format(deadline=due) if due else again,
                      body, serial)

    def announce(self, tx: GameTransaction, meta: Mapping[str, Any], subject: Message, lines: Sequence[Message],
                 reason: str, serial: str, *, in_reply_to: str | None = None) -> None:
        """A notice to every player, each in their language: a policy change, an extension, a
        pause, a vacation. A line may hold `{deadline}`, filled in with each player's deadline
        in their own time zone."""
        for seat in meta["seats"]:
            if is_computer(seat):
                continue
            lang = recipient_language(meta, seat["name"])
            deadline = deadline_text(meta, seat.get("timezone"), lang)
            each = self._choice(seat).mode == EACH
            shown = say(subject, lang)
            text = render("notice.txt", lang=lang, game_id=tx.game_id, title=meta.get("title") or tx.game_id,
                          brief=not each, subject=shown,
                          lines=[say(line, lang, zone=seat.get("timezone")).replace("{deadline}", deadline)
                                 for line in lines], reason=reason)
            if not each:  # news that asks nothing: it waits for the player's next mail
                folding.add_part(tx, seat["name"], "notice", shown, text)
                continue
            self._to_seat(tx, seat, "notice", f"[{tx.game_id}] {shown}", text, serial, in_reply_to=in_reply_to)

    def alert(self, tx: GameTransaction, subject: str, lines: Sequence[str], serial: str, moderator: str) -> None:
        """A mail to the moderator (the game's policy address, else the server's); none when
        neither is set: the event in the game's history and `tick`'s output remain."""
        to = moderator or self.settings.moderator_email
        if not to:
            return
        text = render("notice.txt", game_id=tx.game_id, title=f"Moderator alert for {tx.game_id}",
                      lines=[say(line, "en") for line in lines], reason="", brief=False, subject=say(subject, "en"))
        self._queue(tx, OutgoingMail(tx.game_id, "alert", to, f"[{tx.game_id}] {subject}", text,
                                     message_id(tx.game_id, "alert", serial, "moderator", self.settings.hostname)))

    def to_player(self, tx: GameTransaction, meta: Mapping[str, Any], player: str, subject: str, text: str,
                  serial: str, in_reply_to: str | None, kind: str = "answer") -> None:
        """A mail to one player: an answer to their own mail goes at once; a notice (no mail
        of theirs to answer) waits for their next mail unless they chose `each`."""
        seat = self._seat(meta, player)
        if is_computer(seat):
            return
        if kind == "notice" and in_reply_to is None and self._choice(seat).mode != EACH:
            folding.add_part(tx, player, "notice", subject.removeprefix(f"[{tx.game_id}] "), text)
            return
        self._to_seat(tx, self._seat(meta, player), kind, subject, text, serial, in_reply_to=in_reply_to,
                      auto="auto-replied" if in_reply_to else "auto-generated")

    def status_answer(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State, player: str,
                      in_reply_to: str | None, serial: str) -> None:
        """STATUS: the player's latest mail again (its events, and whatever happened since, and
        what waits for their next mail), with the position, the whole table included, and the
        deadline as they stand; it does not count as a mail sent."""
        seat = self._seat(meta, player)
        seen = dict(meta.get("reported_from", {})).get(player, 0)
        bag = bag_of(meta, player)
        events = folding.player_news(tx.events(since=seen), player, seen, folding.confirmed_steps(bag),
                                     echo_kinds(game))
        ctx = self._context(tx, game, state, meta, seat, bag, events, (meta.get("notices") or {}).get(player, ()),
                            bag["parts"], full=True)
        text, html = render_report(ctx)
        self._to_seat(tx, seat, "status", report_subject(ctx), text, serial, html=html, in_reply_to=in_reply_to,
                      auto="auto-replied", phase=phase_header(game, state))

    def history_answer(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State, player: str,
                       in_reply_to: str | None, serial: str) -> None:
        """HISTORY: every event the player may see from their last report on, in full and in
        order, which that report's text may have told in short (its HTML part has them all)."""
        seat = self._seat(meta, player)
        lang = recipient_language(meta, player)
        t = translations(lang)
        seen = dict(meta.get("reported_from", {})).get(player, 0)
        events = folding.player_news(tx.events(since=seen), player, seen)
        phase = game.phase(state)
        choice = self._choice(seat)
        text = render("history.txt", lang=lang, game_id=tx.game_id, title=game.title, player=player,
                      phase=shown_phase(game, lang, phase),
                      events=grouped([(e.kind, say(e.text, lang, game)) for e in events], meta.get("players", ()), lang=lang),
                      setting=choice.command(lang), footer=choice.short(seat.get("timezone"), lang), language=NAMES[lang],
                      talk=self.press_history(tx, meta, player))
        self._to_seat(tx, seat, "history", t.gettext("[{game}] History: everything since your last report").format(
            game=tx.game_id), text, serial, in_reply_to=in_reply_to, auto="auto-replied")

    def welcome(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State, player: str,
                serial: str) -> None:
        """To the person who takes over a seat (`referee replace`): who they now are, the
        address to reply to (it carries their new token), the token for a PLAYER line, and
        the position as it stands, as their report shows it. It is their first mail: what
        waited for the former player's next mail goes with it, less the answers to that
        player's own mail."""
        seat = self._seat(meta, player)
        if is_computer(seat):
            return
        host = self.settings.hostname
        lang = recipient_language(meta, player)
        t = translations(lang)
        intro = [t.gettext("Welcome to {title}, game {game}. You now play {player}, taking over the seat "
                           "from the player before you.").format(title=game.title, game=tx.game_id, player=player), "",
                 t.gettext("To send orders, reply to any mail from the referee for this game: its reply address, "
                           "{address}, carries your secret token. Or write to {game_address} with this line in "
                           "your mail:").format(address=reply_address(tx.game_id, seat, host),
                                                 game_address=f"{tx.game_id}@{host}"), "",
                 f"    PLAYER {player} {seat['token']}", "",
                 t.gettext("Keep the token to yourself. The game as it stands now:")]
        seen = dict(meta.get("reported_from", {})).get(player, 0)
        bag = bag_of(meta, player)
        parts = [{"kind": "welcome", "subject": t.gettext("Welcome"), "text": "\n".join(intro)}]
        parts += [p for p in bag["parts"] if p["kind"] == "notice"]
        notices = dict(meta.get("notices") or {})
        events = folding.player_news(tx.events(since=seen), player, seen)
        ctx = self._context(tx, game, state, meta, seat, dict(bag, seen={}), events, notices.pop(player, ()), parts)
        text, html = render_report(ctx)
        subject = t.gettext("[{game}] Welcome: you now play {player}").format(game=tx.game_id, player=player)
        if ctx["prompt"]:
            subject = t.gettext("[{game}] Your move: you now play {player}, {when}, {phase}").format(
                game=tx.game_id, player=player, when=ctx["phase"]["when"], phase=ctx["phase"]["name"])
            subject += t.gettext(" (by {deadline})").format(deadline=ctx["due"]) if ctx["due"] else ""
        self._to_seat(tx, seat, "welcome", subject, text, serial, html=html)
        self._mailed(tx, game, state, player, bag, ctx)
        tx.set_meta(notices=notices)

    def plain_address_answer(self, game_id: str, meta: Mapping[str, Any], seat: Mapping[str, Any],
                             mail_id: str | None) -> None:
        """To a player who wrote to the game's plain address from their registered address,
        with no token: where to write instead, to that registered address, from the system
        outbox (the mail was not played, so it changes no game). It waits PLAIN_ANSWER_WAIT:
        the same mail may have reached the game at the player's token address too (a Bcc),
        and that copy withdraws it (`withdraw_plain_answer`)."""
        host = self.settings.hostname
        t = translations(recipient_language(meta, seat["name"]))
        plain, reply = f"{game_id}@{host}", reply_address(game_id, seat, host)
        text = (paragraphs(
            t.gettext("Your mail to {address} was not read, and nothing in it was played: mail to the game's plain "
                      "address does not show who sent it, and the referee does not go by the sender's "
                      "address alone.").format(address=plain),
            t.gettext("Send your orders and commands to your own reply address for this game, which carries your "
                      "secret token:")) + f"\n    {reply}\n\n" + paragraphs(
            t.gettext("Replying to any mail from the referee for this game writes to it by itself; if your mail "
                      "program asks whether to reply to the reply address (Reply-To), answer yes. Or write to "
                      "{address} and put this line in your mail:").format(address=plain))
            + f"\n    PLAYER {seat['name']} {seat['token']}\n")
        self.system_mail(seat["email"], t.gettext("[{game}] Not read: please write to your own reply address").format(
            game=game_id), text, in_reply_to=mail_id, serial=self._plain_serial(game_id, seat["name"], mail_id),
            reply_to=reply, due=self.clock() + PLAIN_ANSWER_WAIT, language=recipient_language(meta, seat["name"]))

    @staticmethod
    def _plain_serial(game_id: str, player: str, mail_id: str | None) -> str:
        digest = hashlib.sha256((mail_id or "").encode("utf-8")).hexdigest()[:16]
        return f"plain.{game_id}.{player}.{digest}"

    def withdraw_plain_answer(self, game_id: str, player: str, mail_id: str | None) -> bool:
        """The mail reached the game with the player's token too: the answer waiting for its
        plain copy is not sent (one mail, one answer). Whether one was waiting."""
        store = self.system_outbox.store
        if not mail_id or not store.exists(SYSTEM_GAME):
            return False
        wanted = message_id("system", "notice", self._plain_serial(game_id, player, mail_id), "x",
                            self.settings.hostname)
        with store.transaction(SYSTEM_GAME) as tx:
            record = tx.find_record(TABLE, "message_id", wanted)
            if record is None or record["status"] != "pending":
                return False
            tx.update_record(TABLE, record["id"], {"status": "dropped", "raw": None,
                                                  "last_error": "not sent: the same mail came with the token"})
        return True

    def drop_for_seat(self, tx: GameTransaction, seat: Mapping[str, Any], why: str) -> list[str]:
        """Mail not yet sent that invites a seat's former holder to reply with their token,
        which no longer works: marked `dropped` (never sent) with `why`; their Message-IDs."""
        old_reply = reply_address(tx.game_id, seat, self.settings.hostname)
        dropped = []
        for record in tx.records(TABLE):
            if record["status"] in ("pending", "failed") and old_reply in (record.get("raw") or ""):
                tx.update_record(TABLE, record["id"], {"status": "dropped", "raw": None, "last_error": why})
                dropped.append(record["message_id"])
        return dropped

    def signup_mail(self, tx: GameTransaction, to: str, subject: Message, lines: Sequence[Message], *, serial: str,
                    code: str | None = None, in_reply_to: str | None = None) -> None:
        """A mail about a sign-up to an address that holds no seat yet, queued with the
        sign-up, in the game's language: with `code`, its reply address carries the one-time
        code that takes the seat. `{referee}` and `{code}` in a line are filled in."""
        host = self.settings.hostname
        lang = recipient_language(tx.meta, None)
        filled = [say(line, lang).replace("{referee}", referee_address(host)).replace("{code}", code or "")
                  for line in lines]
        subject = say(subject, lang)
        text = render("notice.txt", lang=lang, game_id=tx.game_id, title=tx.meta.get("title") or tx.game_id,
                      lines=filled, reason="", brief=False, subject=subject)
        self._queue(tx, OutgoingMail(tx.game_id, "signup", to, subject, text,
                                     message_id(tx.game_id, "signup", serial, "x", host),
                                     reply_to=referee_address(host, code), in_reply_to=in_reply_to,
                                     auto="auto-replied" if in_reply_to else "auto-generated", language=lang))

    def welcome_lines(self, game_id: str, seats: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
        """What each player of a game that starts by itself reads at the top of their first
        report: who they are and how to send orders."""
        host = self.settings.hostname
        return {seat["name"]: [
            msg("Welcome, {player}. To send orders, reply to any mail from the referee for this game: its reply "
                "address, {address}, carries your secret token. Or write to {game_address} with this line in "
                "your mail:", player=seat["name"], address=reply_address(game_id, seat, host),
                game_address=game_id + "@" + host), "", f"    PLAYER {seat['name']} {seat['token']}", "",
            msg("Keep the token to yourself. A mail that begins with CHECK shows the receipt your orders would get "
                "without sending them.")] for seat in seats}

    def help_answer(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State, player: str,
                    in_reply_to: str | None, serial: str) -> None:
        seat = self._seat(meta, player)
        lang = recipient_language(meta, player)
        text = help_text(game, state, game_id=tx.game_id, player=player,
                         deadline=deadline_text(meta, seat.get("timezone"), lang), zone=seat.get("timezone"), lang=lang,
                         computers=computer_names(meta))
        self._to_seat(tx, seat, "help", translations(lang).gettext("[{game}] Help: your orders now").format(
            game=tx.game_id), text, serial, in_reply_to=in_reply_to, auto="auto-replied")

    # -- one mail per player per moment

    def settle(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State,
               now: datetime) -> list[tuple[str, str]]:
        """At the end of a unit of work: each player whose mail is due under their choice gets
        one mail with everything that waited for it (mailer/outbound/folding.py); who, and why."""
        return folding.settle(tx, game, state, now, lambda tx, seat, bag, events, notices, reason: self._combined(
            tx, game, state, seat, bag, events, notices, reason), lambda tx, seat, bag, parts: self._received(
            tx, game, state, seat, bag, parts))

    def _received(self, tx: GameTransaction, game: Game, state: State, seat: Mapping[str, Any],
                  bag: Mapping[str, Any], parts: Sequence[Mapping[str, Any]]) -> None:
        """The receipt of order mail whose answer is not due with a report now, at once and
        alone: what was understood, the plan when a receipt set some of it (the brief receipt
        points to it), whether anything is still asked of the player, and when their next mail
        comes under their choice."""
        name = seat["name"]
        lang = recipient_language(tx.meta, name)
        t = translations(lang)
        zone = seat.get("timezone")
        choice = self._choice(seat)
        phase = game.phase(state)
        prompts = game.prompts(state)
        mine = [p for p in prompts if p.player == name]
        if choice.mode == DIGEST:
            when = t.gettext("with your daily digest at {at} {zone}, sooner when a deadline of yours is less than a "
                             "day away").format(at=choice.at, zone=zone or "UTC")
        else:
            when = t.gettext("when you are asked something or the round ends")
        plan = [plan_line(game, lang, line) for line in standing_plan(game, state, name) or []]
        parts = folding.as_sent(parts, bool(plan))
        text = render("received.txt", lang=lang, game_id=tx.game_id, title=game.title, player=name,
                      phase=shown_phase(game, lang, phase),
                      parts=parts, asked=say(question_for(game, state, mine[0]), lang, game) if mine else "",
                      plan=plan if any(p.get("spent") for p in parts) else [],
                      waiting=sorted({p.player for p in prompts} - {name}), when=when,
                      setting=choice.command(lang), footer=choice.short(zone, lang), language=NAMES[lang])
        replies = [p["reply"] for p in parts if p.get("reply")]
        self._to_seat(tx, seat, "receipt", t.gettext("[{game}] Orders received: {status}").format(
            game=tx.game_id, status=t.gettext("accepted")), text, f"m{bag['count'] + 1}",
            in_reply_to=replies[-1] if replies else None, auto="auto-replied" if replies else "auto-generated",
            answers=replies[:-1])

    def _combined(self, tx: GameTransaction, game: Game, state: State, seat: Mapping[str, Any],
                  bag: dict[str, Any], events: list[Event], notices: Sequence[str], reason: str) -> None:
        meta = tx.meta
        name = seat["name"]
        parts = folding.sorted_parts(bag["parts"])
        ctx = self._context(tx, game, state, meta, seat, bag, events, notices, parts)
        text, html = render_report(ctx)
        reminder = next((p for p in parts if p["kind"] == "reminder"), None)
        replies = [p["reply"] for p in parts if p["kind"] == "receipt" and p.get("reply")]
        due = due_of(meta.get("schedule"))
        left = show_span(due - self.clock()) if reminder is not None and due is not None else None
        subject = report_subject(ctx, reminder=left)
        if reminder is not None and not ctx["result"] and not ctx["prompt"]:
            subject = f"[{tx.game_id}] {reminder['subject']}"
        elif reason == "digest":
            subject += translations(ctx["lang"]).gettext(" (daily digest)")
        self._to_seat(tx, seat, "reminder" if reminder is not None else "report", subject, text,
                      f"{bag['count'] + 1}", html=html, in_reply_to=replies[-1] if replies else None,
                      auto="auto-replied" if replies else "auto-generated", kind_in_id="mail", answers=replies[:-1],
                      label=mail_label(ctx, new_round=bag["round"] != ctx["phase"]["round"],
                                       reminder=reminder is not None),
                      phase=phase_header(game, state))
        bag["seen"] = ctx["sections"]
        since = dict(meta.get("reported_from", {}))
        since[name] = dict(meta.get("reported", {})).get(name, 0)
        tx.set_meta(reported_from=since)

    def _mailed(self, tx: GameTransaction, game: Game, state: State, player: str, bag: dict[str, Any],
                ctx: Mapping[str, Any]) -> None:
        """Record a mail outside `settle` (a welcome) as the player's mail of the moment."""
        phase = game.phase(state)
        asked = [p for p in game.prompts(state) if p.player == player]
        records = tx.events(since=dict(tx.meta.get("reported", {})).get(player, 0))
        bags = dict(tx.meta.get("mailbag") or {})
        bags[player] = dict(bag, parts=[], ask=phase.key if asked else None, round=phase.round,
                            ended=bool(ctx["result"]), since=None, waiting=None, count=bag["count"] + 1,
                            seen=ctx["sections"])
        reported = dict(tx.meta.get("reported", {}))
        since = dict(tx.meta.get("reported_from", {}))
        since[player] = reported.get(player, 0)
        if records:
            reported[player] = records[-1]["seq"]
        tx.set_meta(mailbag=bags, reported=reported, reported_from=since)

    def _context(self, tx: GameTransaction, game: Game, state: State, meta: Mapping[str, Any],
                 seat: Mapping[str, Any], bag: Mapping[str, Any], events: Sequence[Event], notices: Sequence[Message],
                 parts: Sequence[Mapping[str, Any]], *, full: bool = False) -> dict[str, Any]:
        """A player's mail, in their language: notices kept as messages are written in it."""
        zone = seat.get("timezone")
        lang = recipient_language(meta, seat["name"])
        ctx = report_context(game, state, game_id=tx.game_id, player=seat["name"], events=events,
                             deadline=deadline_text(meta, zone, lang), due=deadline_short(meta, zone, lang),
                             notices=[say(line, lang, game, zone) for line in notices],
                             # the mail of the game's end shows no plan, nor a receipt's word on one
                             parts=folding.as_sent(parts, bool(standing_plan(game, state, seat["name"])),
                                                   over=game.result(state) is not None),
                             choice=self._choice(seat), zone=zone,
                             seen=None if full else bag.get("seen"), players=meta.get("players", ()), lang=lang,
                             offer_plan=not bag.get("planner"), computers=computer_names(meta))
        return ctx

    @staticmethod
    def _choice(seat: Mapping[str, Any]) -> Notify:
        return Notify.of_seat(seat)

    # -- mail that must not touch a game

    def system_mail(self, to: str, subject: str, text: str, *, in_reply_to: str | None, serial: str,
                    seat: Mapping[str, Any] | None = None, game_id: str = "", label: str = "",
                    reply_to: str | None = None, due: datetime | None = None, language: str = "en") -> None:
        """A mail that belongs to no game's unit of work (a refusal, an answer of the desk, a
        CHECK, tournament standings), queued in the system outbox, in `language`, which its
        Content-Language header names; `label` names its kind in X-Referee-Kind. With a
        player's `seat` in `game_id` it comes from the game's address with the player's reply
        address, so that a reply with orders (the corrected ones, after a CHECK or a rejection)
        goes to the game and plays them."""
        if seat is not None:
            reply_to = reply_to or reply_address(game_id, seat, self.settings.hostname)
        store = self.system_outbox.store
        if not store.exists(SYSTEM_GAME):
            try:
                store.create(SYSTEM_GAME, {"game": "system", "players": [], "status": "active"}, {})
            except GameExists:
                pass  # another worker thread or process made it first
        with store.transaction(SYSTEM_GAME) as tx:
            queue(tx, in_agreement(OutgoingMail(game_id if seat is not None else "", "notice", to, subject, text,
                                   message_id("system", "notice", serial, "x", self.settings.hostname),
                                   reply_to=reply_to, in_reply_to=in_reply_to, auto="auto-replied",
                                   language=language, label=label)),
                  host=self.settings.hostname, sender_name=self.settings.sender_name, now=self.clock(), due=due)
        self.system_outbox.mark(SYSTEM_GAME)


def in_agreement(mail: OutgoingMail) -> OutgoingMail:
    """A mail whose counts agree with the words after them in its language (`4 verdi`, never
    `4 verde`), whatever part of the referee wrote the line."""
    if mail.language == "en":
        return mail
    return dataclasses.replace(mail, text=agreed(mail.language, mail.text),
                               html=agreed(mail.language, mail.html) if mail.html is not None else None)


# -- what a mail is, for filters and tools (X-Referee-Kind, X-Referee-Phase)

ASK, ROUND, END, REMINDER, REPORT = "ask", "round", "end", "reminder", "report"


def mail_label(ctx: Mapping[str, Any], *, new_round: bool, reminder: bool = False) -> str:
    """A report as its reader takes it: it asks for orders, the game ended, a reminder, a new
    round began, or news only; the same whatever language it is written in."""
    if ctx["block"]:
        return ASK
    if ctx["result"]:
        return END
    if reminder:
        return REMINDER
    return ROUND if new_round else REPORT


def phase_header(game: Game, state: State) -> str:
    """`ROUND; KEY; NAME`: the phase a mail reports, the name as the game itself writes it."""
    phase = game.phase(state)
    return f"{phase.round}; {phase.key}; {phase.name}"


def stage_round(stage: str | None) -> int | None:
    """The round of a `reported_stage` (`ROUND/NAME`)."""
    head = (stage or "").partition("/")[0]
    return int(head) if head.lstrip("-").isdigit() else None
