"""Whole games played by bots through the service, counting round trips and player mails.

A round trip is one wait: the game waits for the players it asks now, and each of them
answers with one mail, all at the same time (in a phase played by all at once, everyone
asked; in one played in turn, the one player). Each mail goes through `Referee.submit_many`
with the player's token and a Message-ID, the path the mail worker takes once it has read a
mail's ORDERS block, into a real game file in a temporary directory; nothing is sent.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from .. import registry
from ..contract import Game, OrderError
from ..playthrough import own_position
from ..receipts import ACCEPTED
from ..service import Referee, Submission
from ..store import TinyDBStore
from ..timekeeping import StepClock
from . import Bot, make_bot

MAX_ROUND_TRIPS = 5000


@dataclass
class Tempo:
    """How one game went: round trips, mails, and mails the referee did not accept."""

    game: str
    players: int
    kinds: dict[str, str]
    round_trips: int = 0
    mails: int = 0
    not_accepted: list[str] = field(default_factory=list)
    log: str = ""  # the game record, when asked for
    finished: bool = False


def asked_mails(game: Game, stored: Any, bots: Mapping[str, Bot], tokens: Mapping[str, str], sent: int,
                domain: str) -> list[Submission]:
    """The mails of the players the game asks now (none when the game is over), each written by
    that player's bot against the position its set applies to, with their token and the
    Message-ID `<n.player@domain>`, numbered on from `sent`: the path the mail worker takes
    once it has read a mail's ORDERS block."""
    mails = []
    for player in dict.fromkeys(p.player for p in game.prompts(stored.state)):
        try:
            state = own_position(game, stored, player)
        except OrderError:
            state = stored.state
        sent += 1
        mails.append(Submission(player, bots[player].mail(game, state, player), token=tokens[player],
                                message_id=f"<{sent}.{player}@{domain}>", source="mail"))
    return mails


def play_game(game_name: str, players: Sequence[str], seed: str, kinds: Mapping[str, str], *,
              options: Mapping[str, object] | None = None, directory: Path | None = None,
              record: bool = False) -> Tempo:
    """Play one game to its end with one bot per player (`kinds`: player -> bot kind)."""
    if directory is None:
        with tempfile.TemporaryDirectory(prefix="tempo-") as tmp:
            return play_game(game_name, players, seed, kinds, options=options, directory=Path(tmp), record=record)
    game = registry.get(game_name)
    store = TinyDBStore(directory)
    ref = Referee(store, clock=StepClock())
    made = ref.new_game(game_name, [(p, f"{p}@example.org") for p in players], seed=seed, options=options)
    tokens = {p["name"]: p["token"] for p in made.players}
    bots = {p: make_bot(game_name, kinds[p], f"{seed}/{p}") for p in players}
    tempo = Tempo(game_name, len(players), dict(kinds))
    sent = 0
    while tempo.round_trips < MAX_ROUND_TRIPS:
        stored = store.load(made.id)
        mails = asked_mails(game, stored, bots, tokens, sent, f"{made.id}.bench")
        if not mails:
            tempo.finished = True
            break
        sent += len(mails)
        receipts = ref.submit_many(made.id, mails)
        tempo.round_trips += 1
        tempo.mails += len(mails)
        for mail, receipt in zip(mails, receipts):
            if receipt.status != ACCEPTED:
                tempo.not_accepted.append(f"{mail.player}: {receipt.status}: {mail.text!r}: {receipt.render()}")
    if record:
        from ..gamelog import write_log
        stored = store.load(made.id)
        tempo.log = write_log(stored.meta, stored.events, stored.state, reveal_seed=True)
    return tempo
