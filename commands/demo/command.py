"""`referee demo`: a whole game played by mail, end to end, on this machine.

The outgoing mail goes by SMTP to a capture server rather than through the built-in
`maildir:` relay: that way the demo uses the relay client a deployment uses, and each player
gets a mailbox of their own instead of one shared folder (commands/demo/run.py says more).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from referee import registry
from referee.i18n import NAMES, LanguageError, language_code
from referee.rng import new_seed, verify_commitment

from ..common import EXIT_REFUSED, fail
from .defaults import PLAYER_NAMES, STALL_SECONDS

if TYPE_CHECKING:
    from referee.contract import Game, Result

    from .run import DemoRun, Tick

DEFAULT_GAME = "constantinopolis"


def standings(game: Game, result: Result) -> str:
    """The final standings in the rulebook's words, with the tie-breaks that decided places."""
    from referee.rendering import render
    from referee.standings import standings_context

    return render("standings.txt", title=game.title, standings=standings_context(game, result))


def _choose_game(name: str | None) -> Game:
    installed = registry.games()
    if name is None:
        if not installed:
            raise click.ClickException("no games are installed; see `referee games`")
        name = DEFAULT_GAME if DEFAULT_GAME in installed else next(iter(installed))
    try:
        return registry.get(name)
    except registry.UnknownGame as exc:
        raise click.UsageError(str(exc)) from None


def _data_dir(ctx: click.Context) -> tuple[Path, bool]:
    """The directory to play in and whether it is the user's own (given with --data-dir or
    REFEREE_DATA): that one must be empty, so the demo never mixes with real games."""
    root = ctx.find_root()
    if root.get_parameter_source("data_dir") in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
        path = Path(root.obj["data_dir"])
        if path.exists() and any(path.iterdir()):
            raise click.UsageError(f"the demo needs an empty data directory; {path} is not empty")
        path.mkdir(parents=True, exist_ok=True)
        return path, True
    return Path(tempfile.mkdtemp(prefix="referee-demo-")), False


def _languages(given: str | None, names: list[str]) -> dict[str, str]:
    """`de,en,it` dealt to the players in turn (a fourth player gets the first again)."""
    if given is None:
        return {}
    try:
        codes = [language_code(code) for code in given.split(",") if code.strip()]
    except LanguageError as exc:
        raise click.BadParameter(str(exc), param_hint="--languages") from None
    if not codes:
        raise click.BadParameter("name at least one language, e.g. de,en,it", param_hint="--languages")
    return {name: codes[i % len(codes)] for i, name in enumerate(names)}


PROGRESS_HEAD = "  time  mails in  out  phase"


def _show_tick(tick: Tick) -> None:
    """One line a phase: the counts first, so a phase's name of any length ends the line."""
    where = f"round {tick.round}: {tick.phase}" if tick.phase is not None else "(still playing)"
    click.echo(f"{tick.elapsed:5.1f}s  {tick.mails_in:8d} {tick.mails_out:4d}  {where}")


@click.command("demo")
@click.option("--game", "game_name", default=None, metavar="GAME",
              help=f"Which installed game to play (default: {DEFAULT_GAME}; see `referee games`).")
@click.option("--players", type=click.IntRange(1, len(PLAYER_NAMES)), default=None,
              help="Number of players (default: 4, or the game's limit).")
@click.option("--seed", default=None, help="Seed for the game and the bots; the same seed plays the same game.")
@click.option("--bots", "bots_kind", type=click.Choice(["plans", "ask-only"]), default="plans", show_default=True,
              help="Bots that send plans for the decisions they see coming, or bots that answer only what "
                   "they are asked. Either way they choose their orders as the computer player's fast level "
                   "does (docs/bots.md); a game without a computer player gets random legal orders.")
@click.option("--talk/--no-talk", default=True, show_default=True,
              help="The bots also write to each other through the referee: a greeting to everyone in their "
                   "first mail of orders, and an answer to the first table talk each gets.")
@click.option("--keep", is_flag=True, help="Keep the data directory (game file, mailboxes, log) and say where it is.")
@click.option("--stall-timeout", type=click.FloatRange(1), default=STALL_SECONDS, show_default=True,
              help="Give up when no mail has moved for this many seconds.")
@click.option("--languages", default=None, metavar="LANG,...",
              help="The players' languages in turn, e.g. de,en,it: each is written to in theirs and writes "
                   "orders in it; at the end every mail is checked to be in its player's language.")
@click.option("--verbose", is_flag=True, help="Show the daemon's log on standard error as it goes (by default it "
                                             "goes to daemon.log in the data directory).")
@click.pass_context
def demo_command(ctx: click.Context, game_name: str | None, players: int | None, seed: str | None,
                 bots_kind: str, talk: bool, keep: bool, stall_timeout: float, languages: str | None,
                 verbose: bool) -> None:
    """Play a whole game by mail on this machine: the real daemon, one bot per player.

    The referee daemon listens on a loopback port; its outgoing mail goes by SMTP to a small
    capture server that files each mail into the player's own mailbox (a Maildir). One bot
    per player reads its mail there, writes its orders (by default with plans for the
    decisions it sees coming; --bots ask-only answers only what it is asked), and replies by
    SMTP the way a person would; unless --no-talk, they greet the table and answer each
    other through the referee (table talk). Progress is shown as rounds and phases change;
    at the end come the standings, the mailboxes, the exported game log and its replay.

    The daemon's own log goes to daemon.log in the data directory (--verbose: to standard
    error as it goes). Without --keep the data directory is temporary and removed at the end,
    unless the game did not finish; played in a directory of your own (`referee --data-dir DIR
    demo`, DIR empty) it is kept. Exit status 1 when the game stalls or the log does not
    replay.
    """
    # the run (the daemon, the capture relay, the bots) is imported when a demo runs, not
    # when `referee --help` lists this command
    from referee.computer import available as computer_available

    from .run import DemoFailed, DemoRun

    game = _choose_game(game_name)
    count = players or min(max(4, game.min_players), game.max_players)
    if not game.min_players <= count <= game.max_players:
        raise click.UsageError(f"{game.title} takes {game.min_players}-{game.max_players} players, not {count}")
    names = list(PLAYER_NAMES[:count])
    spoken = _languages(languages, names)
    seed = seed or new_seed()
    data_dir, own_dir = _data_dir(ctx)
    keep = keep or own_dir
    run = DemoRun(game, names, seed, data_dir, stall_seconds=stall_timeout, on_tick=_show_tick, bots_kind=bots_kind,
                  languages=spoken, chooser="fast", talk=talk, verbose=verbose)
    choosing = ", choosing as the computer player's fast level" if computer_available(game) else ""
    click.echo(f"{game.title}, {count} players: {', '.join(names)}; seed {seed}; bots: {bots_kind}{choosing}")
    if spoken:
        click.echo("Languages: " + ", ".join(f"{n} {spoken[n]}" for n in names))
    click.echo(PROGRESS_HEAD)
    ok = finished = False
    try:
        try:
            run.run()
        except DemoFailed as exc:
            fail(f"{exc} (after {run.elapsed:.1f} s)")
        finished = True
        ok = _report(game, run)
    finally:
        if keep or not finished:
            click.echo(f"Data directory kept: {data_dir}" + ("" if finished else " (the game did not finish)"))
            if not verbose:
                click.echo(f"Daemon log: {run.log_path}")
        else:
            shutil.rmtree(data_dir, ignore_errors=True)
            click.echo("The temporary data directory was removed, with the daemon's log; run with --keep (or "
                       "--data-dir DIR) to read the mailboxes and the logs afterwards, or --verbose to see the "
                       "daemon's log as it goes.")
    if not ok:
        raise SystemExit(EXIT_REFUSED)


def _report(game: Game, run: DemoRun) -> bool:
    """Standings, mailboxes, the exported log and its replay; True when everything checks."""
    from referee.gamelog import replay_log, write_log

    assert run.services is not None
    stored = run.services.store.load(run.game_id)
    meta = stored.meta
    result = game.result(stored.state)
    if meta.get("status") != "finished" or result is None:
        fail(f"the bots stopped but {run.game_id} is not finished")
        return False
    click.echo("")
    click.echo(standings(game, result), nl=False)
    bots = run.bots.values()
    refused = sum(b.counters.refused for b in bots)
    click.echo(f"\nPlayed by mail in {run.elapsed:.1f} s: {run.mails_in} mails from the players, "
               f"{run.mails_out} from the referee (reports, receipts and notices).")
    click.echo(f"Mail per player: {run.mail_stats().summary()}.")
    if refused:
        click.echo(f"The referee refused {refused} set(s) of orders, each with the reason; the bots wrote new ones.")
    sealed = verify_commitment(meta["seed"], meta["commitment"])
    click.echo(f"Seed revealed: {meta['seed']} ({'matches' if sealed else 'DOES NOT match'} "
               f"the commitment {meta['commitment'][:16]}… published at the start)")
    click.echo("\nMailboxes (Maildir; the bots' own mail is in the .Sent folder):")
    for bot in bots:
        click.echo(f"  {bot.name:<8} {run.mailbox(bot.name)}  ({bot.counters.received} received, "
                   f"{bot.counters.sent} sent)")
    log_path = run.data_dir / f"{run.game_id}.log"
    log_path.write_text(write_log(meta, stored.events, stored.state), encoding="utf-8")
    click.echo(f"Game log: {log_path}")
    verdict = replay_log(log_path.read_text(encoding="utf-8"), registry.get)
    click.echo(f"referee replay {log_path.name}: {'OK' if verdict.ok else 'FAILED'}: {verdict.message}")
    return sealed and verdict.ok and _languages_kept(run)


def _languages_kept(run: DemoRun) -> bool:
    """With --languages: every mail each player received is in their language."""
    from .languages import mailbox_problems

    if not run.languages:
        return True
    ok = True
    for name, lang in run.languages.items():
        count, problems = mailbox_problems(run.mailbox(name), lang, run.game_id)
        click.echo(f"  {name:<8} {lang}: {count} mails, {'all' if not problems else count - len(problems)} "
                   f"in {NAMES[lang]}")
        for problem in problems[:5]:
            click.echo(f"    not in {NAMES[lang]}: {problem}")
        ok = ok and not problems
    click.echo(f"Languages: {'every mail in its player' + chr(39) + 's language' if ok else 'FAILED'}")
    return ok
