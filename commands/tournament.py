"""`referee tournament`: a roster in; tables, standings, ratings and a verifiable archive out.

The logic is in referee/tournament/ (docs/tournaments.md says how an organiser uses it);
this module reads the options, calls the organiser and prints what it did.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import click

from referee import registry
from referee.errors import BadRequest
from referee.tournament.model import DEFAULT_POLICY
from referee.tournament.scoring import DEFAULT_SCHEME

from .common import EXIT_REFUSED, EXIT_USAGE, echo_json, fail, handles_errors, services

if TYPE_CHECKING:
    from referee.tournament.organiser import Made, Organiser

F = TypeVar("F", bound=Callable[..., Any])


def tournament_errors(func: F) -> F:
    """The tournament's own failures as one line and an exit status, then the usual ones."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from referee.tournament.roster import RosterError  # with the command, not with `referee --help`
        from referee.tournament.store import TournamentNotFound

        try:
            return func(*args, **kwargs)
        except RosterError as exc:
            raise BadRequest([f"roster: {p}" for p in exc.problems]) from None
        except TournamentNotFound as exc:
            fail(str(exc))

    return handles_errors(wrapper)  # type: ignore[return-value]


def organiser(ctx: click.Context) -> Organiser:
    return services(ctx).tournaments


def _name(ctx: click.Context, name: str | None) -> str:
    """The tournament named, or the only one there is."""
    if name:
        return name.strip().lower()
    names = organiser(ctx).store.names()
    if len(names) == 1:
        return names[0]
    if not names:
        fail("there is no tournament yet; `referee tournament new` makes one")
    fail(f"name the tournament: there are {len(names)} ({', '.join(names)})", EXIT_USAGE)


def _pairs(values: tuple[str, ...], option: str) -> dict[str, str]:
    out = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint=option)
        out[key.strip()] = value.strip()
    return out


def _show_round(made: Made) -> None:
    t, rnd = made.tournament, made.round
    what = f"final of the best {rnd.top}" if rnd.kind == "final" else f"{len(rnd.tables)} table(s)"
    click.echo(f"Round {rnd.number} of {t.planned}: {what}.")
    for table in rnd.tables:
        click.echo(f"  {table.game:<24} {', '.join(table.seats)}")
        click.echo(f"  {'':<24} seed commitment {table.commitment}")
    for warning in made.warnings:
        click.echo(f"Note: {warning}", err=True)


def _round_json(made: Made) -> dict[str, Any]:
    return {"tournament": made.tournament.name, "commitment": made.tournament.commitment,
            "round": made.round.to_json(), "warnings": made.warnings}


@click.group("tournament")
def tournament_group() -> None:
    """Tournaments: tables from a roster, standings, ratings and a verifiable archive.

    docs/tournaments.md walks through it from the roster to the published results.
    """


@tournament_group.command("new")
@click.argument("name")
@click.option("--game", "game_type", required=True, help="The game every table plays (`referee games`).")
@click.option("--roster", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The players: CSV with a header row (name,email[,rating][,timezone]) or TOML ([[player]]).")
@click.option("--rounds", type=int, default=3, show_default=True, help="How many rounds (a final included).")
@click.option("--table-size", default=None, metavar="K|A-B",
              help="Players a table: one size (4) or a range (3-5) within what the game takes "
                   "(default: 4 where the game takes 4).")
@click.option("--policy", default=DEFAULT_POLICY, show_default=True, metavar="PRESET",
              help="Deadline preset of every game: casual, standard or tournament.")
@click.option("--set", "policy_set", multiple=True, metavar="KEY=VALUE",
              help="A deadline policy key for every game, e.g. deadline=2d; repeatable.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A game option for every game.")
@click.option("--scoring", default=DEFAULT_SCHEME, show_default=True,
              help="Tournament points from places: scaled, linear, win, or points by place such as 10,6,3,1.")
@click.option("--seed", default=None, help="The tournament's seed (default: a fresh random one; keep it secret).")
@click.option("--language", default=None, metavar="LANG",
              help="Every game's language, de, en or it (default: en); each player may still choose their own.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@tournament_errors
def new_command(ctx: click.Context, name: str, game_type: str, roster: Path, rounds: int, table_size: str | None,
                policy: str, policy_set: tuple[str, ...], options: tuple[str, ...], scoring: str, seed: str | None,
                language: str | None, as_json: bool) -> None:
    """Make a tournament and its first round: one game a table, each created with its seed
    commitment published, every player mailed their game's first report.

    Everything is checked first (roster, game, table size, rounds, policy, options,
    scoring); with any problem, each is listed and nothing is made.
    """
    from referee.tournament.roster import read_roster

    entries = read_roster(roster)
    made = organiser(ctx).create(name, game_type, entries, rounds=rounds, table_size=table_size, policy=policy,
                                 policy_set=list(policy_set), options=_pairs(options, "--option"), seed=seed,
                                 scoring=scoring, language=language)
    if as_json:
        echo_json(_round_json(made))
        return
    t = made.tournament
    low, high = t.sizes
    click.echo(f"Tournament {t.name}: {t.title}, {len(t.players)} players, {t.planned} round(s), "
               f"tables of {low if low == high else f'{low}-{high}'}, scoring {t.scoring}.")
    click.echo(f"Tournament seed commitment (SHA-256): {t.commitment}")
    _show_round(made)


@tournament_group.command("next")
@click.argument("name", required=False)
@click.option("--final", "final", type=int, default=None, metavar="TOP_K",
              help="Make the last round a final: one table of the best TOP_K players still in.")
@click.option("--table-size", default=None, metavar="K|A-B", help="Table sizes for this round only.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@tournament_errors
def next_command(ctx: click.Context, name: str | None, final: int | None, table_size: str | None,
                 as_json: bool) -> None:
    """Make the next round from the standings so far, once every game of this round is over."""
    made = organiser(ctx).next_round(_name(ctx, name), final=final, table_size=table_size)
    if as_json:
        echo_json(_round_json(made))
        return
    _show_round(made)


@tournament_group.command("drop")
@click.argument("name")
@click.argument("player")
@click.pass_context
@tournament_errors
def drop_command(ctx: click.Context, name: str, player: str) -> None:
    """A player leaves the tournament: their game under way goes on by the game's own drop
    rule (`referee drop`) or, where it has none, with default orders in their seat; they are
    not seated again, and the standings say so."""
    done = organiser(ctx).drop(name, player)
    click.echo(f"{done['player']} dropped out of {done['tournament']}: {done['note']}.")


@tournament_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@tournament_errors
def list_command(ctx: click.Context, as_json: bool) -> None:
    """List the tournaments."""
    rows = organiser(ctx).list()
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("No tournaments yet; `referee tournament new` makes one.")
    for row in rows:
        if "problem" in row:
            click.echo(f"{row['name']:<24} {row['problem']}")
            continue
        state = "over" if row["complete"] else f"round {row['rounds_made']} of {row['rounds']}"
        click.echo(f"{row['name']:<24} {row['game']:<18} {row['players']:>3} players  {state}")


@tournament_group.command("status")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
@tournament_errors
def status_command(ctx: click.Context, name: str | None, as_json: bool) -> None:
    """Every round's tables, each game's state, and the seed commitments."""
    org = organiser(ctx)
    t = org.tournament(_name(ctx, name))
    if as_json:
        data = t.to_json()
        data["players"] = [p.to_json(public=True) for p in t.players]
        if not t.seed_revealed:
            data["seed"] = None
        echo_json(data)
        return
    click.echo(f"{t.name}: {t.title}, {len(t.players)} players, round {len(t.rounds)} of {t.planned}"
               f"{' (over)' if t.complete else ''}")
    click.echo(f"Seed commitment: {t.commitment}" + (f"; seed: {t.seed}" if t.seed_revealed else ""))
    for rnd in t.rounds:
        click.echo(f"Round {rnd.number}{' (final)' if rnd.kind == 'final' else ''}:")
        for table in rnd.tables:
            state = "over" if table.result else "playing"
            click.echo(f"  {table.game:<24} {state:<8} {', '.join(table.seats)}")
            click.echo(f"  {'':<24} seed commitment {table.commitment}")
    gone = [p for p in t.players if p.dropped]
    for p in gone:
        click.echo(f"{p.name} dropped out ({p.dropped['how']}, round {p.dropped['after']})")


@tournament_group.command("standings")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV.")
@click.option("--html", "html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the results page to this file: one self-contained HTML file, the games' logs inside.")
@click.pass_context
@tournament_errors
def standings_command(ctx: click.Context, name: str | None, as_json: bool, as_csv: bool, html: Path | None) -> None:
    """Tournament points, tie-breaks, games played and ratings, from every game over so far."""
    from referee.tournament.texts import results_page, standings_csv, standings_text  # the templates: here only

    if as_json and as_csv:
        raise click.UsageError("choose --json or --csv, not both")
    org = organiser(ctx)
    t, standings = org.standings(_name(ctx, name))
    if html is not None:
        logs = {}
        for rnd in t.rounds:
            for table in rnd.tables:
                if table.result is not None:
                    logs[table.game] = org.game_log(table.game)
        html.write_text(results_page(t, standings, logs), encoding="utf-8")
        click.echo(f"Results page written to {html}", err=as_json or as_csv)
    if as_json:
        echo_json(standings.to_json())
    elif as_csv:
        click.echo(standings_csv(standings), nl=False)
    elif html is None:
        click.echo(standings_text(t, standings), nl=False)


@tournament_group.command("archive")
@click.argument("name")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The archive to write: .zip, or .tar / .tar.gz for a tar file.")
@click.pass_context
@tournament_errors
def archive_command(ctx: click.Context, name: str, output: Path) -> None:
    """Write every game's log, the roster (no addresses, no tokens), the tables, the standings,
    the results page and a manifest of SHA-256 hashes into one file."""
    org = organiser(ctx)
    t = org.tournament(name.strip().lower())
    total = sum(len(r.tables) for r in t.rounds)
    with click.progressbar(length=total, label="Writing game logs", file=sys.stderr) as bar:
        t, digest = org.archive(t.name, str(output), progress=bar.update)
    click.echo(f"Archive of {t.name} written to {output}: {total} game(s).")
    click.echo(f"Manifest SHA-256: {digest} (publish it with the archive)")
    if not t.seed_revealed:
        click.echo("The tournament is not over, so its seed is not in the archive; archive it again at the end.")


@tournament_group.command("verify")
@click.argument("archive", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def verify_command(archive: Path, as_json: bool) -> None:
    """Check an archive: every hash, every game replayed, the seeds, the tables and the
    standings recomputed. Exit status 0 only if everything matches; 1 with every problem
    listed, each with the file and the place in it."""
    from referee.tournament.archive import ArchiveError, count_games, read_members, verify  # zip and tar: here only

    try:
        members = read_members(archive)
    except ArchiveError as exc:
        fail(str(exc))
    with click.progressbar(length=max(count_games(members), 1), label="Replaying games", file=sys.stderr) as bar:
        verdict = verify(members, registry.get, progress=bar.update)
    if as_json:
        echo_json({"ok": verdict.ok, "games": verdict.games, "steps": verdict.steps,
                   "manifest_sha256": verdict.manifest_sha256, "problems": verdict.problems, "notes": verdict.notes})
    else:
        for note in verdict.notes:
            click.echo(f"Note: {note}")
        if verdict.ok:
            click.echo(f"OK: {verdict.games} game(s) replayed ({verdict.steps} steps); every hash, seed, table and "
                       f"the standings match. Manifest SHA-256: {verdict.manifest_sha256}")
        else:
            for problem in verdict.problems:
                click.echo(f"FAILED: {problem}", err=True)
            click.echo(f"{len(verdict.problems)} problem(s) found.", err=True)
    if not verdict.ok:
        raise SystemExit(EXIT_REFUSED)
