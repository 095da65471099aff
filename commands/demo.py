"""`referee demo`: a whole game played end to end by bots, stored like a real game."""

from __future__ import annotations

import shutil
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import click

from referee import registry
from referee.contract import Game, Result
from referee.playthrough import Playthrough, play, replay, same_state
from referee.rendering import render
from referee.rng import commitment, new_seed, verify_commitment
from referee.store import TinyDBStore

PLAYER_NAMES = ("alice", "bruno", "chiara", "dmitri", "emma")
DEFAULT_GAME = "constantinopolis"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def standings(game: Game, result: Result) -> str:
    places = []
    rank = 1
    for tied in result.ranking:
        detail = ", ".join(f"{k} {v}" for k, v in result.scores[tied[0]].items())
        places.append({"rank": rank, "players": list(tied), "detail": detail})
        rank += len(tied)
    return render("standings.txt", title=game.title, places=places, winners=list(result.winners))


@click.command("demo")
@click.option("--game", "game_name", default=None,
              help=f"Which installed game to play (default: {DEFAULT_GAME}).")
@click.option("--players", type=click.IntRange(1, len(PLAYER_NAMES)), default=None,
              help="Number of players (default: 4, or the game's limit).")
@click.option("--seed", default=None, help="Seed for the game and the bots (default: fresh).")
@click.option("--keep", is_flag=True, help="Keep the data directory and say where it is.")
def demo_command(game_name: str | None, players: int | None, seed: str | None, keep: bool) -> None:
    """Play a complete game with one bot per player and show it as it goes.

    Each bot chooses from the engine's legal orders; every order goes through the rules
    engine and into a game file like a real one. At the end the seed is revealed and checked
    against its commitment, and the stored order log is replayed to prove it gives the same
    final position.
    """
    installed = registry.games()
    if game_name is None:
        if not installed:
            raise click.ClickException("no games are installed; see `referee games`")
        game_name = DEFAULT_GAME if DEFAULT_GAME in installed else next(iter(installed))
    try:
        game = registry.get(game_name)
    except registry.UnknownGame as exc:
        raise click.UsageError(str(exc)) from None
    count = players or min(max(4, game.min_players), game.max_players)
    if not game.min_players <= count <= game.max_players:
        raise click.UsageError(f"{game.title} takes {game.min_players}-{game.max_players} players, not {count}")
    names = list(PLAYER_NAMES[:count])
    seed = seed or new_seed()
    data_dir = Path(tempfile.mkdtemp(prefix="referee-demo-"))
    store = TinyDBStore(data_dir)
    game_id = "demo-1"
    components = game.load_components(None)
    state = game.setup(names, seed, {}, components)
    store.create(game_id, {"game": game.name, "title": game.title, "players": names, "created": _now(),
                           "status": "active", "commitment": commitment(seed)}, state,
                 [{"type": "created", "at": _now()}])
    click.echo(f"{game.title}, {count} players: {', '.join(names)}")
    click.echo(f"Seed commitment (SHA-256): {commitment(seed)}")

    last_phase = [game.phase(state).key]

    def record(pt: Playthrough) -> None:
        player, text = pt.log[-1]
        phase = game.phase(pt.state)
        store.append(game_id, [{"type": "order", "player": player, "text": text, "at": _now()}], state=pt.state)
        if phase.key != last_phase[0]:
            store.snapshot(game_id, phase.key, pt.state)
            last_phase[0] = phase.key
            click.echo(f"  round {phase.round}: {phase.name}  ({pt.steps} orders so far)", err=True)

    pt = play(game, names, seed, {}, on_step=record)
    assert pt.result is not None
    with store.transaction(game_id) as tx:
        tx.set_meta(status="finished", seed=seed)
        tx.append({"type": "finished", "at": _now(), "result": pt.result.to_json()})
    click.echo("")
    click.echo(standings(game, pt.result), nl=False)
    click.echo(f"Seed revealed: {seed} (matches the commitment: {verify_commitment(seed, commitment(seed))})")

    stored = store.load(game_id)
    log = [(e["player"], e["text"]) for e in stored.events if e["type"] == "order"]
    replayed = replay(game, names, seed, {}, log)
    ok = same_state(replayed, stored.state)
    click.echo(f"Replayed {len(log)} stored orders: {'same final position' if ok else 'MISMATCH'}")
    if keep:
        click.echo(f"Game file kept in {data_dir}")
    else:
        shutil.rmtree(data_dir, ignore_errors=True)
    if not ok:
        raise SystemExit(1)
