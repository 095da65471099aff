"""The report each player gets after a phase resolves: events, their own view, and a
pre-filled ORDERS block to reply with.

One context feeds both the text and the HTML template, so the two parts of a mail never
say different things. The context holds only what `Game.view` and `Event.visible_to` allow
for that player; nothing else of the state is passed to the templates.

A game may ship its own layout of the view: `templates/<game name>/view.txt` and `view.html`,
included by the report with the variables `view` and `player`. A game without one (a
third-party game, the test games) gets the view as generic indented rows.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Collection, Iterable, Mapping, Sequence

from referee.contract import Event, Game, State, decision_reads, phase_code, plan_template, question_for, standing_plan
from referee.i18n import DEFAULT_LANGUAGE, N_, NAMES, translations
from referee.i18n.messages import say
from referee.wording import Phrase
from referee.i18n.terms import localise, shown_phase
from referee.notify import Notify
from referee.rendering import has_template, menu_text, render
from referee.standings import standings_context

from .folding import changed_sections, digest, sections, with_whole
from .news import grouped, in_short

MENU_LINES = 12


@dataclass(frozen=True)
class Row:
    depth: int
    label: str
    value: str


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def view_rows(view: Mapping[str, Any], depth: int = 0) -> list[Row]:
    """A nested view as indented label/value rows; lists of scalars stay on one line."""
    rows: list[Row] = []
    for key, value in view.items():
        label = str(key).replace("_", " ")
        if isinstance(value, Mapping):
            rows.append(Row(depth, label, ""))
            rows.extend(view_rows(value, depth + 1))
        elif isinstance(value, list) and any(isinstance(v, (Mapping, list)) for v in value):
            rows.append(Row(depth, label, ""))
            for i, item in enumerate(value, start=1):
                if isinstance(item, Mapping):
                    rows.append(Row(depth + 1, f"#{i}", ""))
                    rows.extend(view_rows(item, depth + 2))
                else:
                    rows.append(Row(depth + 1, f"#{i}", ", ".join(_scalar(v) for v in item)))
        elif isinstance(value, list):
            rows.append(Row(depth, label, ", ".join(_scalar(v) for v in value) or "none"))
        else:
            rows.append(Row(depth, label, _scalar(value)))
    return rows


PLAN_TEMPLATE = "orders block/plan template"  # hashed beside the view's parts: shown again only when it changed
GENERIC_VIEW = "view-rows"  # templates/view-rows.txt and .html: any view as indented rows
_GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def view_partial(game: Game) -> str | None:
    """The game's own view layout (without the `.txt` / `.html` ending), if it has both parts."""
    name = str(getattr(game, "name", ""))
    if not _GAME_NAME.match(name):
        return None
    base = f"{name}/view"
    return base if has_template(f"{base}.txt") and has_template(f"{base}.html") else None


def view_text(game: Game, view: Mapping[str, Any], player: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A player's view as the text report shows it, the whole table (also `referee show --as`)."""
    partial = view_partial(game)
    return render(f"{partial or GENERIC_VIEW}.txt", lang=lang, view=view, player=player, changed=None, plan_apart=False,
                  rows=[] if partial else view_rows(view), sections={})


def orders_block(game: Game, state: State, game_id: str, player: str, lang: str = DEFAULT_LANGUAGE,
                 plan: bool = True) -> list[str]:
    """The block a player edits and sends back: the tag names game and phase, so a reply
    that arrives after the phase closed is recognised and refused. A game with a complete
    menu has it all here; otherwise the first lines and a pointer to HELP. `plan`: with the
    plan template (a report leaves it out when the player's last mail showed the same one)."""
    phase = game.phase(state)
    t = translations(lang)
    lines = [f"ORDERS {game_id} {phase_code(game, phase.key)}"]
    menu, ahead, complete = menu_text(game, state, player, lang=lang)
    if menu:
        if complete:
            lines += _comment(t.gettext("Write your orders below, one per line. Every order you may give now:"))
            lines += [f"# {part}" for part in menu]
        else:
            lines += _comment(t.gettext("Write your orders below, one per line. Some of what you may order now:"))
            lines += [f"# {part}" for part in menu[:MENU_LINES]]
            if len(menu) > MENU_LINES:
                lines += _comment(t.gettext("... and {count} more; send HELP for the full list.").format(
                    count=len(menu) - MENU_LINES))
    template = plan_template(game, state, player) if plan else []
    if template or ahead:  # the standing orders always, the template when it is new to the reader
        lines += _comment(t.gettext("Plan ahead (optional, only you see it): fill in, remove the #"))
        lines += [f"#   {part}" for part in ahead]  # indented as the template's lines: both are filled in
        lines += [f"#   {plan_line(game, lang, part)}" for part in template]
    lines.append("END")
    return lines


def plan_line(game: Game, lang: str, line: str) -> str:
    """A line of a plan or of the plan template in the player's words: a game's phrase as the
    phrase says it, canonical order text with the glossary's words."""
    return say(line, lang, game) if isinstance(line, Phrase) else localise(game, lang, line)


def _comment(text: str, width: int = 78) -> list[str]:
    """A comment of the ORDERS block, `# ` on every line it takes within `width`."""
    return textwrap.wrap(text, width, initial_indent="# ", subsequent_indent="# ", break_long_words=False)


def report_context(game: Game, state: State, *, game_id: str, player: str, events: Iterable[Event],
                   deadline: str | None = None, due: str | None = None, notices: Sequence[str] = (),
                   parts: Sequence[Mapping[str, Any]] = (), choice: Notify | None = None, zone: str | None = None,
                   seen: Mapping[str, str] | None = None, players: Sequence[str] = (),
                   lang: str = DEFAULT_LANGUAGE, offer_plan: bool = True,
                   computers: Collection[str] = ()) -> dict[str, Any]:
    """What a report shows one player, in their language. `parts` come first (the receipt of
    their orders, a reminder, a notice: what waited for this mail, mailer/outbound/folding.py),
    then what is asked, then `notices` (what the referee or the moderator did that the events
    do not show: an undo and its reason, default orders played at a deadline) and the events
    since their last mail. `seen` is what the view looked like in that mail: the text shows
    the parts of the table that changed since (None: all of it) and, whole, every part the
    decision asked for reads (`decision_reads`); the HTML part shows it all. `players`: the
    game's player names, so that one player's moves in a row read as one line. `offer_plan`:
    the ORDERS block offers the plan template (once a round); a player who has sent a plan
    knows how, and finds it in HELP. `computers`: the seats the referee plays, named as such
    ("dmitri (computer)")."""
    phase = game.phase(state)
    prompts = [p for p in game.prompts(state) if p.player == player]
    result = game.result(state)
    view = game.view(state, player)
    partial = view_partial(game)
    choice = choice or Notify()
    template = plan_template(game, state, player) if prompts else []
    told = tuple((e.kind, say(e.text, lang, game)) for e in events if e.visible_to(player))
    every_event, shown_events, summarised = _events_told(told, tuple(players), frozenset(getattr(game, "minor_events", ())),
                                                         frozenset(getattr(game, "table_events", ())), lang)
    # kept by the notifier as what this mail showed: the view's parts and the plan template
    parts_now = {**sections(view, seen), PLAN_TEMPLATE: _template_mark(template, phase.round, seen)}
    changed = changed_sections(parts_now, seen or {})
    # what the decision reads is shown whole, changed or not: the last mail may be days old
    shown = with_whole(changed, parts_now, decision_reads(game, state, player) if prompts else [])
    return {
        "game_id": game_id,
        "title": game.title,
        "player": player,
        "phase": shown_phase(game, lang, phase),
        "events": list(every_event),  # every one: the HTML part
        "events_text": list(shown_events),  # the text part: in short when they run long
        "events_summarised": summarised,
        "view": view,
        "view_partial": partial or GENERIC_VIEW,
        "rows": [] if partial else view_rows(view),
        "prompt": say(question_for(game, state, prompts[0]), lang, game) if prompts else None,
        "waiting_for": [shown_name(name, computers, lang) for name in
                        sorted({p.player for p in game.prompts(state)} - {player})],
        "seats_line": seats_line(players, computers, lang),
        "help": say(game.help(state, player), lang, game) if prompts else "",
        "block": orders_block(game, state, game_id, player, lang,
                              plan=offer_plan and (changed is None or PLAN_TEMPLATE in changed)) if prompts else [],
        "deadline": deadline or translations(lang).gettext("none set"),
        "due": due,  # the deadline in a few words, for the subject; None: none
        "result": result.to_json() if result else None,
        "standings": _named(standings_context(game, result, lang), computers, lang),
        "notices": list(notices),
        "parts": [dict(p) for p in parts],
        "changed": shown,  # None: show everything
        "sections": parts_now,
        "footer": choice.short(zone, lang),
        "setting": choice.command(lang),
        # nothing is left to plan once the game is over
        "plan": [] if result else [plan_line(game, lang, line) for line in standing_plan(game, state, player) or []],
        "plan_apart": True,  # the plan, queued turns too, has a part of its own: the view leaves it out
        "lang": lang,
        "language": NAMES[lang],
    }


@lru_cache(maxsize=256)
def _events_told(told: tuple[tuple[str, str], ...], players: tuple[str, ...], minor: frozenset[str],
                 table: frozenset[str], lang: str) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """The lines of "Since your last mail": every event (the HTML part), the text part's lines
    and whether these are in short (`in_short`). Kept for events met again: the readers of a
    round mostly see the same events, and the lines follow from the events' text, the
    players and the language alone."""
    every = grouped(told, players, lang=lang)
    shown, summarised = in_short(told, players, minor, table, lang, full=every)
    return tuple(every), tuple(shown), summarised


def shown_name(name: str, computers: Collection[str], lang: str) -> str:
    """A player's name as mail shows it: a seat the referee plays is named as such."""
    if name not in computers:
        return name
    return translations(lang).gettext("{player} (computer)").format(player=name)


def seats_line(players: Sequence[str], computers: Collection[str], lang: str) -> str:
    """The players in seat order, the computer seats named as such; empty in a game without
    computer players (everyone there is a person)."""
    if not computers:
        return ""
    return translations(lang).gettext("Players: {players}.").format(
        players=", ".join(shown_name(name, computers, lang) for name in players))


def _named(standings: dict[str, Any] | None, computers: Collection[str], lang: str) -> dict[str, Any] | None:
    """The standings with the computer seats named as such."""
    if standings is None or not computers:
        return standings
    return dict(standings, winners=[shown_name(n, computers, lang) for n in standings["winners"]],
                places=[dict(p, players=[shown_name(n, computers, lang) for n in p["players"]])
                        for p in standings["places"]])


def _template_mark(template: Sequence[str], round_no: int, seen: Mapping[str, str] | None) -> str:
    """What the plan template counts as for "shown before": its round, so a player is offered
    it in the first mail of a round that has one and not again in that round (HELP always
    has it); a mail without one keeps the mark of the last that had one."""
    if template:
        return digest(["plan template", round_no])
    return (seen or {}).get(PLAN_TEMPLATE) or digest([])


MAIL_COMMANDS = (
    ("STATUS", N_("your current report again, the whole table included")),
    ("NOTIFY turn", N_("mail when you are asked something and at round ends (the default)")),
    ("NOTIFY each", N_("a mail for everything as it happens")),
    ("NOTIFY digest 08:00", N_("at most one mail a day, at that time in your time zone")),
    ("HELP", N_("this summary of the orders you may give now")),
    ("HISTORY", N_("everything that happened from your last report on, in full")),
    ("VACATION 5d", N_("away for five days (or: VACATION until 2026-12-01, VACATION off)")),
    ("TIMEZONE Europe/Berlin", N_("show deadlines in your time zone")),
    ("LANGUAGE de", N_("your mail in German (de), Italian (it) or English (en)")),
    ("CHECK, then your orders", N_("the receipt they would get now; nothing is sent or changed")),
    ("LEAVE", N_("give up your seat, before the game starts")),
)


# The mail commands' names as German and Italian players write them (mailer/daemon/mail_commands.py
# reads them; English is always understood too), and the words of their examples.
COMMAND_WORDS = {
    "de": {"STATUS": "STAND", "HELP": "HILFE", "VACATION": "URLAUB", "TIMEZONE": "ZEITZONE", "LANGUAGE": "SPRACHE",
           "CHECK": "PRÜFE", "LEAVE": "AUSSTEIGEN", "NOTIFY": "BENACHRICHTIGUNG", "HISTORY": "VERLAUF",
           "JOIN": "ANMELDEN", "LIST": "LISTE", "CONFIRM": "BESTÄTIGEN", "GAMES": "PARTIEN",
           "each": "jede", "turn": "Zug", "digest": "sammeln", "then your orders": "dann deine Befehle",
           "until": "bis", "off": "aus"},
    "it": {"STATUS": "STATO", "HELP": "AIUTO", "VACATION": "VACANZA", "TIMEZONE": "FUSO", "LANGUAGE": "LINGUA",
           "CHECK": "VERIFICA", "LEAVE": "LASCIA", "NOTIFY": "AVVISI", "HISTORY": "CRONOLOGIA",
           "JOIN": "ISCRIVIMI", "LIST": "ELENCO", "CONFIRM": "CONFERMA", "GAMES": "PARTITE",
           "each": "ogni", "turn": "turno", "digest": "riepilogo", "then your orders": "poi i tuoi ordini",
           "until": "fino", "off": "no"},
}
_COMMAND_WORD = re.compile(r"then your orders|[A-Za-z]+")


def command_words(text: str, lang: str) -> str:
    """A mail command as written in `lang` (`NOTIFY turn` -> `BENACHRICHTIGUNG zug`)."""
    table = COMMAND_WORDS.get(lang)
    if not table:
        return text
    return _COMMAND_WORD.sub(lambda m: table.get(m.group(0), m.group(0)), text)


def mail_commands(lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
    """The mail commands and what each does, in `lang`: the commands in the words of the
    player's language, which are understood as well as the English ones."""
    t = translations(lang)
    return [(command_words(name, lang), command_words(t.gettext(what), lang) if lang in COMMAND_WORDS else
             t.gettext(what)) for name, what in MAIL_COMMANDS]


HELP_MENU_LINES = 200


def help_text(game: Game, state: State, *, game_id: str, player: str, deadline: str,
              zone: str | None, lang: str = DEFAULT_LANGUAGE, computers: Collection[str] = ()) -> str:
    """HELP: the engine's summary for the player's current decision, every order on the menu,
    and the mail commands."""
    phase = game.phase(state)
    prompts = [p for p in game.prompts(state) if p.player == player]
    menu, ahead, _ = menu_text(game, state, player, width=74, lang=lang) if prompts else ([], [], False)
    template = ahead + [plan_line(game, lang, part) for part in plan_template(game, state, player)] if prompts else []
    return render("help.txt", lang=lang, game_id=game_id, title=game.title, player=player, template=template,
                  phase=shown_phase(game, lang, phase),
                  prompt=say(question_for(game, state, prompts[0]), lang, game) if prompts else "",
                  help=say(game.help(state, player), lang, game) if prompts else "",
                  menu=menu[:HELP_MENU_LINES], more=max(len(menu) - HELP_MENU_LINES, 0),
                  waiting_for=[shown_name(n, computers, lang) for n in
                               sorted({p.player for p in game.prompts(state)} - {player})],
                  deadline=deadline, zone=zone or "UTC", commands=mail_commands(lang), language=NAMES[lang])


def render_report(context: Mapping[str, Any]) -> tuple[str, str]:
    """The text and HTML parts, in the language the context was made for."""
    return render("report.txt", **context), render("report.html", **context)


def report_subject(context: Mapping[str, Any], reminder: str | None = None) -> str:
    """A report's subject. One that asks for orders says so first, with the deadline in the
    reader's zone (`[g] Your move: round 2, Construct buildings (by Sat 28 Nov 18:05 CET)`), so
    an inbox tells at a glance the mails that need an answer; no other subject says so.
    `reminder`: the time left, for a mail that reminds of the deadline."""
    phase = context["phase"]
    t = translations(context.get("lang", DEFAULT_LANGUAGE))
    game = context["game_id"]
    if context["result"]:
        return t.gettext("[{game}] Game over").format(game=game)
    if context["prompt"]:
        return your_move(t, game, phase["when"], phase["name"], context.get("due"), reminder)
    when = phase["when"]
    return t.gettext("[{game}] {when} – {phase}").format(game=game, when=when[:1].upper() + when[1:],
                                                         phase=phase["name"])


def your_move(t: Any, game: str, when: str, phase: str, due: str | None, reminder: str | None = None) -> str:
    """The subject of a mail that asks for orders, in the language of the translations `t`;
    `when`: the round as the game counts it (`round_text`); `reminder`: the time left, for a
    reminder."""
    if reminder:
        text = t.gettext("[{game}] Your move (reminder, {left} left): {when}, {phase}").format(
            game=game, left=reminder, when=when, phase=phase)
    else:
        text = t.gettext("[{game}] Your move: {when}, {phase}").format(game=game, when=when, phase=phase)
    return text + t.gettext(" (by {deadline})").format(deadline=due) if due else text


def new_events(events: Sequence[Mapping[str, Any]]) -> list[Event]:
    """Events stored with order steps, back as `Event`s."""
    out: list[Event] = []
    for record in events:
        out.extend(Event.from_json(e) for e in record.get("events", []))
    return out
