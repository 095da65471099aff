"""A game with its first report sent, and a mail worker to read the replies of the corpus.

The report is the real one: rendered by the notifier, queued in the game's outbox with its
ORDERS block remembered, as a running referee would have mailed it. A reply is handed to the
worker's handler as the SMTP server spools it (its envelope recipient on top) and read in the
game's unit of work; what it did is the game's log (the orders taken) or the answer mailed.
"""

from __future__ import annotations

import email
import shutil
from dataclasses import dataclass
from datetime import datetime, timezone
from email import policy
from pathlib import Path

from mailer.daemon.handler import Handled, MailHandler
from mailer.outbound.notifier import MailNotifier
from mailer.outbound.outbox import TABLE, Outbox
from referee import registry
from referee.config import Settings
from referee.service import Referee
from referee.store import TinyDBStore

from tests.service.conftest import each_mail

HOST = "games.test"
NOW = datetime(2026, 3, 3, 9, 12, tzinfo=timezone.utc)
PLAYERS = ("ann", "bob", "cid")
GAMES = {"c": "constantinopolis", "p": "porto-carthago"}


@dataclass(frozen=True)
class Report:
    """The report a reply answers, as the player's mail program received it."""

    game_id: str
    player: str
    message_id: str
    subject: str
    sender: str
    reply_to: str
    text: str
    html: str


class World:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.settings = Settings(hostname=HOST, data_dir=root)
        self.store = TinyDBStore(root / "data")
        self.system = TinyDBStore(root / "system")
        self.notifier = MailNotifier(self.settings, lambda: NOW, Outbox(self.store, root / "data" / "pending"),
                                     Outbox(self.system, root / "system" / "pending"))
        self.referee = Referee(self.store, clock=lambda: NOW, games=lambda name: registry.games()[name],
                               notifier=self.notifier)
        self.handler = MailHandler(self.referee, self.notifier, self.settings)

    def start(self, game_id: str) -> None:
        self.referee.new_game(GAMES[game_id], [(p, f"{p}@players.test") for p in PLAYERS],
                              seed="corpus-seed", game_id=game_id)
        each_mail(self.store, game_id)  # the receipt of each reply is a mail of its own, read below

    def report(self, game_id: str) -> Report:
        """The last report mailed to the player asked first."""
        asked = self.referee.status(game_id)["waiting_for"][0]["player"]
        with self.store.transaction(game_id) as tx:
            record = [r for r in tx.records(TABLE) if r["kind"] == "report" and r["to"] == f"{asked}@players.test"][-1]
        mail = email.message_from_string(record["raw"], policy=policy.default)
        return Report(game_id, asked, record["message_id"], str(mail["Subject"]), str(mail["From"]),
                      str(mail["Reply-To"]), mail.get_body(("plain",)).get_content().replace("\r\n", "\n"),
                      mail.get_body(("html",)).get_content().replace("\r\n", "\n"))

    def read(self, raw: bytes, to: str) -> Handled:
        return self.handler.handle(f"Delivered-To: {to}\r\n".encode() + raw)

    def taken(self, game_id: str) -> list[str]:
        """The orders the game took, in its log: the canonical text of each."""
        events = self.store.load(game_id).events
        return [line for e in events if e.get("type") == "order" for line in e["text"].splitlines()]

    def receipt(self, game_id: str) -> str:
        """The text of the last receipt queued in the game's outbox."""
        with self.store.transaction(game_id) as tx:
            record = [r for r in tx.records(TABLE) if r["kind"] == "receipt"][-1]
        return email.message_from_string(record["raw"], policy=policy.default).get_content()

    def answers(self) -> list[str]:
        """The text of every answer queued in the system outbox (refusals, rejected orders)."""
        with self.system.transaction("postmaster") as tx:
            records = tx.records(TABLE)
        return [email.message_from_string(r["raw"], policy=policy.default).get_content() for r in records]


def prepared(template: Path, root: Path) -> World:
    """A world copied from the template (games created once per test session)."""
    shutil.copytree(template, root, dirs_exist_ok=True)
    return World(root)
