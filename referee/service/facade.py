"""`Referee`: the one way into a game for the command line and the mail daemon alike.

It validates, applies and records; it never prints. Each duty is a module of this package,
written as a part of `Referee` that builds on the parts it needs (core.py at the bottom):

    creating.py          new games
    submissions.py       a player's orders and their receipts
    moderation.py        adjudicate, undo, replace, drop
    ticking.py           time passing: reminders, held sets, missed deadlines
    moderator_levers.py  the deadline policy, extend, pause, resume
    player_levers.py     vacation and time zone
    queries.py           status, views, history, a seat by its token, a player's games
    glance.py            a game's facts for its moderator: whom it waits for, until when, flags
    open_games.py        open games made, listed and looked at
    signing_up.py        JOIN, its confirmation or approval, LEAVE
    starting.py          an open game starting by itself
    checking.py          CHECK: the receipt orders would get, nothing changed
    computer_turns.py    the decisions of computer seats, thought apart and sent as orders
    table_talk.py        table talk (PRESS) passed on and kept, the moderator's notice, the record
    steps.py, openings.py, core.py: what those share
"""

from __future__ import annotations

from .checking import Checking
from .moderation import Moderation
from .moderator_levers import ModeratorLevers
from .player_levers import PlayerLevers
from .queries import Queries
from .signing_up import SigningUp
from .table_talk import TableTalk
from .ticking import Ticking


class Referee(SigningUp, Checking, TableTalk, Moderation, Ticking, ModeratorLevers, PlayerLevers, Queries):
    """Games, submissions, moderator actions, deadlines and queries over a `GameStore`."""
