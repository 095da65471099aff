"""The daemon delivers mail in a thread of its own: orders are read, checked and answered
while the relay hangs (at start too), and a stopping daemon waits for the one mail being
handed over."""

import threading
import time
from email.message import EmailMessage

from mailer.daemon.serve import serve
from mailer.daemon.wiring import build
from referee import registry
from referee.config import Settings

from ..net import free_port
from ...service.conftest import each_mail

HOST = "games.test"
PLAYERS = ["ann", "bob", "cid"]


class HangingRelay:
    """Takes mail at once until `hang` is set; then each delivery waits for `release`."""

    def __init__(self):
        self.hang, self.release, self.hanging = threading.Event(), threading.Event(), threading.Event()
        self.delivered = []

    def deliver(self, raw, mail_from, recipients, message_id):
        if self.hang.is_set():
            self.hanging.set()
            assert self.release.wait(30), "the test never released the relay"
        self.delivered.append(message_id)


def order_mail(game_id, player, token, text, n):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{player}@players.test", f"{game_id}+{player}+{token}@{HOST}", "orders"
    msg["Message-ID"] = f"<{game_id}.{n}@players.test>"
    msg.set_content(text + "\n")
    return f"Delivered-To: {msg['To']}\r\n".encode() + bytes(msg)


def wait_for(condition, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def orders_stored(svc, game_id):
    return sum(1 for e in svc.store.load(game_id).events if e["type"] == "order")


def start(tmp_path, relay, connections=4):
    """A Porto Carthago game and a daemon sending through `relay`: the services, the tokens,
    the players not asked now (their next turns are queued, each answered by a receipt), the
    stop event and the daemon's thread, once it is ready."""
    settings = Settings(hostname=HOST, data_dir=tmp_path, worker_interval_seconds=0.02,
                        sender_interval_seconds=0.05, listen_port=free_port(), relay_connections=connections)
    svc = build(settings)
    made = svc.referee.new_game("porto-carthago", [(p, f"{p}@players.test") for p in PLAYERS], seed="s",
                                game_id="pc-1")
    each_mail(svc.store, "pc-1")  # every receipt is a mail of its own
    tokens = {s["name"]: s["token"] for s in made.players}
    asked = {prompt.player for prompt in registry.get("porto-carthago").prompts(svc.store.load("pc-1").state)}
    svc.relay = lambda: relay
    stop, ready = threading.Event(), threading.Event()
    daemon = threading.Thread(target=serve, args=(svc, stop), kwargs={"on_ready": ready})
    daemon.start()
    if not ready.wait(30):
        stop.set()
        raise AssertionError("the daemon did not start")
    return svc, tokens, [p for p in PLAYERS if p not in asked], stop, daemon


def test_orders_are_answered_while_the_relay_hangs(tmp_path):
    """With one relay connection, the one mail on it is all a stopping daemon waits for."""
    relay = HangingRelay()
    svc, tokens, idle, stop, daemon = start(tmp_path, relay, connections=1)
    try:
        wait_for(lambda: len(relay.delivered) == 3)  # the opening reports, sent at start
        relay.hang.set()
        svc.spool.add(order_mail("pc-1", idle[0], tokens[idle[0]], "TALENTS", 1))
        wait_for(relay.hanging.is_set)  # the receipt is being handed to a relay that does not answer
        svc.spool.add(order_mail("pc-1", idle[1], tokens[idle[1]], "TALENTS", 2))
        wait_for(lambda: orders_stored(svc, "pc-1") == 2)  # read and stored all the same
        assert svc.spool.pending() == 0
    finally:
        stop.set()
        time.sleep(0.2)
        assert daemon.is_alive()  # waiting for the mail in the relay's hands
        relay.release.set()
        daemon.join(30)
    assert not daemon.is_alive()
    assert len(relay.delivered) == 4  # the receipt in hand went out; the other waits for the next start
    with svc.store.transaction("pc-1") as tx:
        receipts = [r["status"] for r in tx.records("outbox") if r["kind"] == "receipt"]
    assert sorted(receipts) == ["pending", "sent"]


def test_a_relay_that_hangs_at_start_does_not_hold_up_orders(tmp_path):
    relay = HangingRelay()
    relay.hang.set()  # the opening reports, left from before the start, cannot go out
    svc, tokens, (player, *_), stop, daemon = start(tmp_path, relay)
    try:
        svc.spool.add(order_mail("pc-1", player, tokens[player], "TALENTS", 1))
        wait_for(lambda: orders_stored(svc, "pc-1") == 1)
        assert relay.hanging.is_set() and relay.delivered == []
    finally:
        stop.set()
        relay.release.set()
        daemon.join(30)
    assert not daemon.is_alive()


class HangsOnce(HangingRelay):
    """Takes mail at once, except the first mail after `hang` is set: that one waits for
    `release`."""

    def __init__(self):
        super().__init__()
        self._lock = threading.Lock()

    def deliver(self, raw, mail_from, recipients, message_id):
        with self._lock:
            first = self.hang.is_set() and not self.hanging.is_set()
            if first:
                self.hanging.set()
        if first:
            assert self.release.wait(30), "the test never released the relay"
        self.delivered.append(message_id)


def test_with_several_connections_a_mail_the_relay_holds_up_holds_up_no_other(tmp_path):
    """The relay does not answer for one receipt; the next receipt goes out on another
    connection meanwhile, and a stopping daemon waits for the one still in hand."""
    relay = HangsOnce()
    svc, tokens, idle, stop, daemon = start(tmp_path, relay, connections=4)
    try:
        wait_for(lambda: len(relay.delivered) == 3)  # the opening reports
        relay.hang.set()
        svc.spool.add(order_mail("pc-1", idle[0], tokens[idle[0]], "TALENTS", 1))
        wait_for(relay.hanging.is_set)
        svc.spool.add(order_mail("pc-1", idle[1], tokens[idle[1]], "TALENTS", 2))
        wait_for(lambda: len(relay.delivered) == 4)  # the second receipt, past the first
    finally:
        stop.set()
        time.sleep(0.2)
        assert daemon.is_alive()  # waiting for the receipt in the relay's hands
        relay.release.set()
        daemon.join(30)
    assert not daemon.is_alive()
    assert len(relay.delivered) == 5
    with svc.store.transaction("pc-1") as tx:
        receipts = [r["status"] for r in tx.records("outbox") if r["kind"] == "receipt"]
    assert receipts == ["sent", "sent"]
