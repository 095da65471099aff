"""Standings as people read them: plain text (the command, the mail after each round), CSV,
and the results page (`templates/tournament/`)."""

from __future__ import annotations

import base64
import csv
import io
from typing import Any, Mapping

from babel.numbers import format_decimal

from .. import registry
from ..i18n import DEFAULT_LANGUAGE, N_, language_or_default, translations
from ..rendering import render
from ..standings import label
from .model import FINAL, Round, Tournament
from .scoring import places, parse_scheme, show
from .standings import Row, Standings, ordinal_text

HEADER = [N_("place"), N_("player"), N_("points"), N_("score"), N_("h2h"), N_("games"), N_("rating"), N_("rounds")]


def score_name(t: Tournament, lang: str = DEFAULT_LANGUAGE) -> str:
    """What the game's first score is called (fame, palace seats), from a finished table: the
    game's own words for it, in `lang`."""
    game = _game(t)
    for rnd in t.rounds:
        for table in rnd.tables:
            for scores in (table.result or {}).get("scores", {}).values():
                for key, value in scores.items():
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        return label(game, key, lang) if game is not None else key.replace("_", " ")
    return translations(lang).gettext("the game's score")


def _game(t: Tournament) -> Any:
    try:
        return registry.get(t.game)
    except Exception:  # a game no longer installed: its keys stand for themselves
        return None


def place_text(row: Row) -> str:
    return f"{row.rank}{'=' if row.shared else ''}"


def dropped_text(row: Row, lang: str = DEFAULT_LANGUAGE) -> str | None:
    d = row.dropped
    if not d:
        return None
    tr = translations(lang)
    if d["how"] == "left":
        return tr.gettext("{player} dropped out in round {round}: left {game} under the game's own rule.").format(
            player=row.name, round=d["after"], game=d["game"])
    if d["how"] == "defaults":
        return tr.gettext("{player} dropped out in round {round}: their seat in {game} played default orders to the "
                          "end.").format(player=row.name, round=d["after"], game=d["game"])
    return tr.gettext("{player} dropped out after round {round}.").format(player=row.name, round=d["after"])


def rating_text(rating: float, lang: str = DEFAULT_LANGUAGE) -> str:
    """A rating to one decimal, with the language's decimal sign."""
    return f"{rating:.1f}" if lang == DEFAULT_LANGUAGE else format_decimal(rating, format="0.0", locale=lang)


def table_text(table: Any, label: str, lang: str = DEFAULT_LANGUAGE) -> str:
    tr = translations(lang)
    if table.result is None:
        return tr.gettext("playing: {players}").format(players=", ".join(table.seats))
    place = places(table.seats, table.result["ranking"])
    parts = []
    for player in sorted(table.seats, key=lambda p: (place[p], table.seats.index(p))):
        scores = table.result.get("scores", {}).get(player, {})
        first = next((v for v in scores.values() if isinstance(v, (int, float)) and not isinstance(v, bool)), None)
        tied = sum(1 for p in table.seats if place[p] == place[player]) > 1
        left = player not in {p for group in table.result["ranking"] for p in group}
        detail = tr.gettext("left the game") if left else (f"{label} {show(first, lang)}" if first is not None else "")
        rank = ordinal_text(place[player]) if lang == DEFAULT_LANGUAGE else f"{place[player]}."
        parts.append(f"{rank}{'=' if tied else ''} {player}" + (f" ({detail})" if detail else ""))
    return ", ".join(parts)


def _context(t: Tournament, standings: Standings, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    label = score_name(t, lang)
    tr = translations(lang)
    rows = [[tr.gettext(h) for h in HEADER]] + [[place_text(r), r.name, show(r.points, lang), show(r.score, lang),
                                                  str(r.head_to_head), str(r.games), rating_text(r.rating, lang),
                                                  " ".join(r.places)] for r in standings.rows]
    rounds = [{"number": r.number, "kind": r.kind, "top": r.top,
               "tables": [{"number": x.number, "game": x.game, "text": table_text(x, label, lang)} for x in r.tables]}
              for r in t.rounds]
    return {"title": f"{t.name} ({t.title})", "complete": standings.complete, "played": standings.rounds_played,
            "planned": t.planned, "rows": rows, "rounds": rounds,
            "dropped": [line for r in standings.rows if (line := dropped_text(r, lang))],
            "scoring": parse_scheme(t.scoring).describe(lang), "score_name": label}


def standings_text(t: Tournament, standings: Standings, lang: str = DEFAULT_LANGUAGE) -> str:
    """The standings as the organiser's command line shows them (in English, as the command
    line speaks), or in `lang`."""
    lang = language_or_default(lang)
    return render("tournament/standings.txt", lang=lang, **_context(t, standings, lang))


def standings_mail(t: Tournament, standings: Standings, rnd: Round, player: str) -> tuple[str, str]:
    """The mail every player gets when round `rnd` is over: (subject, text), in the
    tournament's language."""
    lang = language_or_default(t.language)
    tr = translations(lang)
    row = next(r for r in standings.rows if r.name == player)
    over = t.complete and rnd.number == len(t.rounds)
    # "1st" in English; the other languages say "place 1" in their own sentence
    values = {"place": ordinal_text(row.rank) if lang == "en" else str(row.rank), "points": show(row.points, lang),
              "games": row.games, "round": rnd.number, "planned": t.planned,
              "shared": tr.gettext(" (shared)") if row.shared else ""}
    if over:
        headline = tr.ngettext("The tournament is over. You finished {place}{shared} with {points} points from "
                               "{games} game.", "The tournament is over. You finished {place}{shared} with {points} "
                               "points from {games} games.", row.games).format(**values)
        nxt = tr.gettext("Thank you for playing.")
        subject = tr.gettext("[{tournament}] Final standings").format(tournament=t.name)
    else:
        headline = tr.ngettext("Round {round} of {planned} is over. You are {place}{shared} with {points} points "
                               "from {games} game.", "Round {round} of {planned} is over. You are {place}{shared} "
                               "with {points} points from {games} games.", row.games).format(**values)
        nxt = (tr.gettext("The organiser makes the next round from these standings; if you play in it, the game's "
                          "first report tells you your table and your seat.") if not row.dropped else
               tr.gettext("You have dropped out, so you will not be seated in later rounds."))
        subject = tr.gettext("[{tournament}] Standings after round {round}").format(tournament=t.name,
                                                                                    round=rnd.number)
    text = render("tournament/mail.txt", lang=lang, player=player, headline=headline, next=nxt, tournament=t.name,
                  seed=t.seed if over and t.seed_revealed else None, commitment=t.commitment,
                  **_context(t, standings, lang))
    return subject, text


def standings_csv(standings: Standings) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "shared", "name", "points", "score", "head_to_head", "games", "rating", "mu", "sigma",
                     "dropped_after", "final_place", *[f"round_{i + 1}" for i in range(len(standings.rows[0].places)
                                                                                       if standings.rows else 0)]])
    for r in standings.rows:
        writer.writerow([r.rank, "yes" if r.shared else "", r.name, show(r.points), show(r.score), r.head_to_head,
                         r.games, f"{r.rating:.3f}", f"{r.mu:.3f}", f"{r.sigma:.3f}",
                         (r.dropped or {}).get("after", ""), r.finalist or "", *r.places])
    return out.getvalue()


def results_page(t: Tournament, standings: Standings, logs: Mapping[str, str] | None = None) -> str:
    """The results page: one HTML file, no external resources. With `logs` (game id -> log
    text) each game's log is embedded as a data: link; without, links point at
    `games/<id>.log` beside the page, as in the archive."""
    lang = language_or_default(t.language)
    ctx = _context(t, standings, lang)
    label = ctx["score_name"]
    links = {}
    for rnd in t.rounds:
        for table in rnd.tables:
            if logs is None:
                links[table.game] = f"games/{table.game}.log"
            elif table.game in logs:
                data = base64.b64encode(logs[table.game].encode("utf-8")).decode("ascii")
                links[table.game] = f"data:text/plain;charset=utf-8;base64,{data}"
    rounds = [{"number": r.number, "final": r.kind == FINAL, "top": r.top,
               "tables": [{"number": x.number, "game": x.game, "link": links.get(x.game), "text": table_text(x, label, lang),
                           "commitment": x.commitment} for x in r.tables]} for r in t.rounds]
    return render("tournament/results.html", lang=language_or_default(t.language), t=t, standings=standings, rows=standings.rows, rounds=rounds,
                  place_text=place_text, show=show, dropped=ctx["dropped"], scoring=ctx["scoring"],
                  score_name=label)
