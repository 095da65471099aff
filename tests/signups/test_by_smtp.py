"""A whole sign-up through `referee serve` by SMTP on loopback: four players join, one leaves,
one joins with a forged From and is never seated, the daemon is killed (SIGKILL) half-way and
started again, the game starts when full, and the first reports arrive."""

from __future__ import annotations

import email
import smtplib
import time
from email import policy
from email.message import EmailMessage

from referee.signups import seat_order
from referee.store import TinyDBStore

from ..faults.conftest import test_games  # noqa: F401  (the fixture: the daemon plays the test games)
from ..faults.mailworld import HOST, Daemon, Sink, build, settings

SEED = "club night"


class Mailbox(Sink):
    """The relay, keeping every mail whole."""

    def __init__(self) -> None:
        super().__init__()
        self.mails: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):
        with self._lock:
            self.mails.append(email.message_from_bytes(envelope.original_content, policy=policy.default))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.mails if m["To"] == address]

    def wait(self, address: str, subject: str, timeout: float = 60.0) -> EmailMessage:
        deadline = time.monotonic() + timeout
        while True:
            found = [m for m in self.to(address) if subject.casefold() in m["Subject"].casefold()]
            if found:
                return found[-1]
            assert time.monotonic() < deadline, f"no mail {subject!r} to {address}: {[m['Subject'] for m in self.to(address)]}"
            time.sleep(0.05)


def send(daemon: Daemon, envelope_from: str, from_header: str, to: str, body: str, subject: str = "hello") -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = from_header, to, subject
    msg["Message-ID"] = email.utils.make_msgid(domain="players.test")
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", daemon.port, timeout=10) as smtp:
        smtp.sendmail(envelope_from, [to], bytes(msg))


def test_sign_up_by_smtp_through_the_daemon_with_a_crash(tmp_path, test_games):
    box = Mailbox()
    box.start()
    data = tmp_path / "var"
    svc = build(settings(data, box.port))
    svc.referee.open_game("race", "3..4", game_id="club-1", seed=SEED, options={"target": 40})
    daemon = Daemon(data, box.port)
    referee = f"referee@{HOST}"

    def join(who: str) -> None:
        address = f"{who}@players.test"
        send(daemon, address, address, referee, f"JOIN club-1 {who}")
        ask = box.wait(address, "Confirm your sign-up")
        send(daemon, address, address, ask["Reply-To"], "yes, that was me", subject=f"Re: {ask['Subject']}")
        box.wait(address, "You have a seat" if who != "erin" else "round")

    try:
        daemon.start()
        daemon.wait_ready()
        send(daemon, "ann@players.test", "ann@players.test", referee, "LIST")
        assert "club-1: Race to the Target, 0 of 4 seats taken" in box.wait("ann@players.test", "Open games").get_content()
        join("ann")
        join("bob")
        # Mallory signs Frank up: the code goes to Frank, who never answers; Mallory guesses
        send(daemon, "mallory@evil.test", "frank@players.test", referee, "JOIN club-1 frank")
        box.wait("frank@players.test", "Confirm your sign-up")
        send(daemon, "mallory@evil.test", "mallory@evil.test", f"referee+{'a' * 16}@{HOST}", "yes")
        assert "no sign-up waits for this code" in box.wait("mallory@evil.test", "CONFIRM not done").get_content()
        send(daemon, "cid@players.test", "cid@players.test", referee, "JOIN club-1 cid")
        ask = box.wait("cid@players.test", "Confirm your sign-up")

        daemon.kill()  # a crash with cid's sign-up pending; it lives in the game's file
        daemon = Daemon(data, box.port)
        daemon.start()
        daemon.wait_ready()

        send(daemon, "cid@players.test", "cid@players.test", ask["Reply-To"], "yes")
        seated = box.wait("cid@players.test", "You have a seat")
        send(daemon, "cid@players.test", "cid@players.test", seated["Reply-To"], "LEAVE")
        box.wait("cid@players.test", "You left the game")
        join("dee")
        join("erin")  # the fourth seat: the game starts

        meta = TinyDBStore(data).load("club-1").meta
        assert meta["status"] == "active"
        assert sorted(meta["players"]) == ["ann", "bob", "dee", "erin"]
        assert meta["players"] == seat_order(SEED, ["ann", "bob", "dee", "erin"])
        for seat in meta["seats"]:
            report = box.wait(seat["email"], "round")
            assert report["Reply-To"] == f"club-1+{seat['name']}+{seat['token']}@{HOST}"
            body = report.get_body(("plain",)).get_content()
            assert f"PLAYER {seat['name']} {seat['token']}" in body and meta["commitment"] in body
        assert not [m for m in box.to("cid@players.test") if "round" in m["Subject"].casefold()]
        assert [m["Subject"] for m in box.to("frank@players.test")] == ["[club-1] Confirm your sign-up as frank"]
        assert daemon.stop() == 0, daemon.tail()
    finally:
        if daemon.proc is not None and daemon.proc.poll() is None:
            daemon.kill()
        box.stop()
