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
from typing import Any, Iterable, Mapping, Sequence

from referee.contract import Event, Game, State, plan_template, standing_plan
from referee.i18n import DEFAULT_LANGUAGE, N_, NAMES, translations
from referee.i18n.messages import after_semicolon, say
from referee.wording import Phrase
from referee.i18n.terms import localise, phase_name
from referee.notify import Notify
from referee.rendering import has_template, menu_text, render
from referee.standings import standings_context

from .folding import changed_sections, digest, sections

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
    return render(f"{partial or GENERIC_VIEW}.txt", lang=lang, view=view, player=player, changed=None,
                  rows=[] if partial else view_rows(view), sections={})


def orders_block(game: Game, state: State, game_id: str, player: str, lang: str = DEFAULT_LANGUAGE,
                 plan: bool = True) -> list[str]:
    """The block a player edits and sends back: the tag names game and phase, so a reply
    that arrives after the phase closed is recognised and refused. A game with a complete
    menu has it all here; otherwise the first lines and a pointer to HELP. `plan`: with the
    plan template (a report leaves it out when the player's last mail showed the same one)."""
    phase = game.phase(state)
    t = translations(lang)
    lines = [f"ORDERS {game_id} {phase.key}"]
    menu, complete = menu_text(game, state, player, lang=lang)
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
    if template:
        lines += _comment(t.gettext("Plan ahead (optional, only you see it): fill in, remove the #"))
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
                   deadline: str | None = None, notices: Sequence[str] = (),
                   parts: Sequence[Mapping[str, Any]] = (), choice: Notify | None = None, zone: str | None = None,
                   seen: Mapping[str, str] | None = None, players: Sequence[str] = (),
                   lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """What a report shows one player, in their language. `parts` come first (the receipt of
    their orders, a reminder, a notice: what waited for this mail, mailer/outbound/folding.py),
    then what is asked, then `notices` (what the referee or the moderator did that the events
    do not show: an undo and its reason, default orders played at a deadline) and the events
    since their last mail. `seen` is what the view looked like in that mail: the text shows
    only the parts of the table that changed since (None: all of it); the HTML part shows it
    all. `players`: the game's player names, so that one player's moves in a row read as one
    line."""
    phase = game.phase(state)
    prompts = [p for p in game.prompts(state) if p.player == player]
    result = game.result(state)
    view = game.view(state, player)
    partial = view_partial(game)
    choice = choice or Notify()
    template = plan_template(game, state, player) if prompts else []
    # kept by the notifier as what this mail showed: the view's parts and the plan template
    parts_now = {**sections(view, seen), PLAN_TEMPLATE: _template_mark(template, phase.round, seen)}
    changed = changed_sections(parts_now, seen or {})
    return {
        "game_id": game_id,
        "title": game.title,
        "player": player,
        "phase": {"key": phase.key, "round": phase.round, "name": phase_name(game, lang, phase.name)},
        "events": grouped([(e.kind, say(e.text, lang, game)) for e in events if e.visible_to(player)], players,
                          lang=lang),
        "view": view,
        "view_partial": partial or GENERIC_VIEW,
        "rows": [] if partial else view_rows(view),
        "prompt": say(prompts[0].text, lang, game) if prompts else None,
        "waiting_for": sorted({p.player for p in game.prompts(state)} - {player}),
        "help": say(game.help(state, player), lang, game) if prompts else "",
        "block": orders_block(game, state, game_id, player, lang,
                              plan=changed is None or PLAN_TEMPLATE in changed) if prompts else [],
        "deadline": deadline or translations(lang).gettext("none set"),
        "result": result.to_json() if result else None,
        "standings": standings_context(game, result, lang),
        "notices": list(notices),
        "parts": [dict(p) for p in parts],
        "changed": changed,  # None: show everything
        "sections": parts_now,
        "footer": choice.short(zone, lang),
        "setting": choice.command(lang),
        "plan": [plan_line(game, lang, line) for line in standing_plan(game, state, player) or []],
        "lang": lang,
        "language": NAMES[lang],
    }


def _template_mark(template: Sequence[str], round_no: int, seen: Mapping[str, str] | None) -> str:
    """What the plan template counts as for "shown before": its round, so a player is offered
    it in the first mail of a round that has one and not again in that round (HELP always
    has it); a mail without one keeps the mark of the last that had one."""
    if template:
        return digest(["plan template", round_no])
    return (seen or {}).get(PLAN_TEMPLATE) or digest([])


def grouped(events: Sequence[tuple[str, str]], players: Sequence[str], width: int = 74,
            lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Events (kind, text) as the lines of "Since your last mail". Events in a row that begin
    with the same player's name read as one line: `bruno sells 1 blue for 2 gold; sells 3
    green for 3 gold; ends the construction turn.` (in German and Italian, whose clauses need
    their subject after a semicolon, `bruno verkauft ..., verkauft ... und beendet ...`). Events
    in a row of the same kind (every player's production, every draw of contracts) are joined
    with `;` when that takes no more lines of `width` than one line each. A mail that covers a
    whole round stays readable, and nothing is left out."""
    lines: list[list[str]] = []  # each line: its first text, then the same player's clauses
    last_who: str | None = None
    last_kind: str | None = None
    for kind, text in events:
        who = next((p for p in players if text.startswith((p + " ", p + ": "))), None)
        if lines and who is not None and who == last_who:
            lines[-1].append(text[len(who):].removeprefix(":").lstrip())
        elif lines and kind == last_kind and _lines(joined := _line(lines[-1], lang).rstrip(".") + "; "
                                                     + after_semicolon(text, lang), width) <= (
                _lines(_line(lines[-1], lang), width) + _lines(text, width)):
            lines[-1] = [joined]
            who = None  # a joined line no longer belongs to one player
        else:
            lines.append([text])
        last_who, last_kind = who, kind
    return [_line(parts, lang) for parts in lines]


def _line(parts: Sequence[str], lang: str) -> str:
    """One player's clauses in a row as one line: after semicolons in English; in German and
    Italian after commas and the language's "and" before the last, which keeps the player
    the subject of each clause."""
    if len(parts) == 1:
        return parts[0]
    if lang == DEFAULT_LANGUAGE or any(";" in p or ":" in p for p in parts):
        return "; ".join(p.rstrip(".") for p in parts[:-1]) + "; " + parts[-1]
    t = translations(lang)
    return ", ".join(p.rstrip(".") for p in parts[:-1]) + t.gettext(" and ") + parts[-1]


def _lines(text: str, width: int) -> int:
    return len(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or 1


MAIL_COMMANDS = (
    ("STATUS", N_("your current report again, the whole table included")),
    ("NOTIFY turn", N_("mail when you are asked something and at round ends (the default)")),
    ("NOTIFY each", N_("a mail for everything as it happens")),
    ("NOTIFY digest 08:00", N_("at most one mail a day, at that time in your time zone")),
    ("HELP", N_("this summary of the orders you may give now")),
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
           "CHECK": "PRÜFE", "LEAVE": "AUSSTEIGEN", "NOTIFY": "BENACHRICHTIGUNG",
           "each": "jede", "turn": "zug", "digest": "sammel", "then your orders": "dann deine Befehle",
           "until": "bis", "off": "aus"},
    "it": {"STATUS": "STATO", "HELP": "AIUTO", "VACATION": "VACANZA", "TIMEZONE": "FUSO", "LANGUAGE": "LINGUA",
           "CHECK": "VERIFICA", "LEAVE": "LASCIA", "NOTIFY": "AVVISI",
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
              zone: str | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """HELP: the engine's summary for the player's current decision, every order on the menu,
    and the mail commands."""
    phase = game.phase(state)
    prompts = [p for p in game.prompts(state) if p.player == player]
    menu = menu_text(game, state, player, width=74, lang=lang)[0] if prompts else []
    template = [plan_line(game, lang, part) for part in plan_template(game, state, player)] if prompts else []
    return render("help.txt", lang=lang, game_id=game_id, title=game.title, player=player, template=template,
                  phase={"key": phase.key, "round": phase.round, "name": phase_name(game, lang, phase.name)},
                  prompt=say(prompts[0].text, lang, game) if prompts else "",
                  help=say(game.help(state, player), lang, game) if prompts else "",
                  menu=menu[:HELP_MENU_LINES], more=max(len(menu) - HELP_MENU_LINES, 0),
                  waiting_for=sorted({p.player for p in game.prompts(state)} - {player}),
                  deadline=deadline, zone=zone or "UTC", commands=mail_commands(lang), language=NAMES[lang])


def render_report(context: Mapping[str, Any]) -> tuple[str, str]:
    """The text and HTML parts, in the language the context was made for."""
    return render("report.txt", **context), render("report.html", **context)


def report_subject(context: Mapping[str, Any]) -> str:
    phase = context["phase"]
    t = translations(context.get("lang", DEFAULT_LANGUAGE))
    if context["result"]:
        return t.gettext("[{game}] Game over").format(game=context["game_id"])
    return t.gettext("[{game}] Round {round}: {phase}").format(game=context["game_id"], round=phase["round"],
                                                               phase=phase["name"])


def new_events(events: Sequence[Mapping[str, Any]]) -> list[Event]:
    """Events stored with order steps, back as `Event`s."""
    out: list[Event] = []
    for record in events:
        out.extend(Event.from_json(e) for e in record.get("events", []))
    return out
