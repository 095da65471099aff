"""The referee behind a real Postfix, both ways docs/operations.md describes: the game domain
handed by a transport to `referee serve`, or piped to `referee ingest`.

A private Postfix instance on loopback (tests/mailer/daemon/postfix.py) is the MX: players write
to it from 127.0.0.2 (outside its mynetworks, as the world would), the referee sends through
it from 127.0.0.1, and it delivers the players' domain to a mail server of the test's on
loopback, which refuses one player's address so that a report of failure comes back. Nothing
leaves the machine. The referee runs as the user `nobody`, who owns its data directory, as a
daemon's user would; the test runs as root and so does CI. Where Postfix is not installed the
test skips, except in CI, where it fails (`make install` installs it).
"""

from __future__ import annotations

import email
import json
import os
import pwd
import shutil
import smtplib
import socket
import subprocess
import tempfile
import time
from contextlib import suppress
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from referee import registry
from referee.bots import make_bot
from referee.playthrough import own_position
from referee.store import TinyDBStore

from ...anyone import referee_script
from .postfix import POSTFIX, Postfix, free_port

pytestmark = pytest.mark.long

HOST = "games.test"
PLAYERS = "players.test"
GONE = f"bob-gone@{PLAYERS}"  # the players' server refuses it: every mail to bob bounces
MODERATOR = f"mod@{PLAYERS}"
OUTSIDE = ("127.0.0.2", 0)  # players write from here: not in the instance's mynetworks
WAIT = 45.0


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing() -> str | None:
    if POSTFIX is None:
        return "Postfix is not installed (make install installs it with apt-get as root or through sudo)"
    if os.geteuid() != 0:
        return "a private Postfix instance needs root (CI runs as root)"
    try:
        pwd.getpwnam("postfix"), pwd.getpwnam("nobody")
    except KeyError as exc:
        return f"no user {exc}"
    return None


class Mailboxes:
    """The players' mail server: keeps what it is given, refuses GONE at RCPT."""

    def __init__(self) -> None:
        self.mails: list[email.message.EmailMessage] = []

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address.lower() == GONE:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown in local recipient table" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        mail = email.message_from_bytes(envelope.original_content, policy=policy.default)
        mail["X-Envelope-From"] = envelope.mail_from or "<>"
        self.mails.append(mail)
        return "250 OK"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [m for m in self.mails if address in str(m["To"])]


class Site:
    """Postfix, the players' server and the referee, as one machine would run them."""

    def __init__(self, way: str, base: Path) -> None:
        self.way, self.base = way, base
        self.script = referee_script(base)
        self.data = base / "data"
        self.data.mkdir()
        nobody = pwd.getpwnam("nobody")
        os.chown(self.data, nobody.pw_uid, nobody.pw_gid)
        self.boxes = Mailboxes()
        self.sink = Controller(self.boxes, hostname="127.0.0.1", port=free_port(), server_hostname=f"mx.{PLAYERS}")
        self.daemon_port = free_port()
        self.config = base / "referee.toml"
        transports = {PLAYERS: f"smtp:[127.0.0.1]:{self.sink.port}"}
        main = master = ""
        if way == "transport":
            transports[HOST] = f"smtp:[127.0.0.1]:{self.daemon_port}"
        else:  # the recipe's pipe: flag D, one recipient per delivery
            transports[HOST] = "referee:"
            main = ("referee_destination_recipient_limit = 1\n"
                    "smtpd_recipient_restrictions = permit_mynetworks, reject_unauth_destination,\n"
                    "    check_policy_service unix:private/referee_rcpt\n"
                    "referee_rcpt_time_limit = 3600\n")
            master = (f"referee unix - n n - - pipe\n"
                      f"  flags=DRq user=nobody argv={self.script} --config {self.config} ingest --quiet\n"
                      f"referee_rcpt unix - n n - 0 spawn\n"
                      f"  user=nobody argv={self.script} --config {self.config} recipient-check\n")
        self.postfix = Postfix(base / "postfix", HOST, transports, main=main, master=master)
        self.config.write_text(
            f'hostname = "{HOST}"\ndata_dir = "{self.data}"\nrelay = "smtp://127.0.0.1:{self.postfix.port}"\n'
            f'listen_port = {self.daemon_port}\nmoderator_email = "{MODERATOR}"\nworker_processes = 1\n'
            "worker_interval_seconds = 0.2\nsender_interval_seconds = 0.5\n")
        self.config.chmod(0o644)
        self.daemon: subprocess.Popen | None = None

    def start(self) -> None:
        self.sink.start()
        self.postfix.start()
        if self.way == "transport":
            self.start_daemon()

    def start_daemon(self) -> None:
        log = open(self.base / "daemon.log", "ab")
        self.daemon = subprocess.Popen([str(self.script), "--config", str(self.config), "serve"], stdout=log,
                                       stderr=log, cwd="/", env=clean_env())
        until(lambda: listening(self.daemon_port), lambda: f"the daemon to listen\n{self.daemon_log()}")

    def stop_daemon(self) -> None:
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.terminate()
            self.daemon.wait(timeout=60)
        self.daemon = None

    def stop(self) -> None:
        self.stop_daemon()
        self.postfix.stop()
        self.sink.stop()

    def referee(self, *args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([str(self.script), "--config", str(self.config), *args], capture_output=True,
                              text=True, timeout=120, cwd="/", env=clean_env())
        assert done.returncode == 0, done.stderr
        return done

    def status(self) -> dict:
        return json.loads(self.referee("status", "c-1", "--json").stdout)

    def send(self, frm: str, to: str, body: str, *, subject: str = "orders", in_reply_to: str | None = None,
             envelope_from: str | None = None) -> str:
        """A mail from outside, to the MX."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = frm, to, subject
        msg["Message-ID"] = make_msgid(domain=PLAYERS)
        if in_reply_to:
            msg["In-Reply-To"] = msg["References"] = in_reply_to
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.postfix.port, source_address=OUTSIDE, timeout=30) as smtp:
            smtp.sendmail(frm if envelope_from is None else envelope_from, [to], msg.as_bytes())
        return msg["Message-ID"]

    def send_to_many(self, frm: str, to_header: str, recipients: list[str], body: str, subject: str) -> str:
        """One mail, one SMTP transaction, several envelope recipients (To and Bcc)."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = frm, to_header, subject
        msg["Message-ID"] = make_msgid(domain=PLAYERS)
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.postfix.port, source_address=OUTSIDE, timeout=30) as smtp:
            smtp.sendmail(frm, recipients, msg.as_bytes())
        return msg["Message-ID"]

    def rcpt(self, to: str) -> tuple[int, bytes]:
        """What the MX answers a stranger at RCPT, in the end: a 450 while it is still asking
        the referee is tried again, as the stranger's server would."""
        def ask() -> tuple[int, bytes] | None:
            with smtplib.SMTP("127.0.0.1", self.postfix.port, source_address=OUTSIDE, timeout=30) as smtp:
                smtp.ehlo("stranger.test")
                smtp.mail(f"stranger@{PLAYERS}")
                code, text = smtp.rcpt(to)
            return None if code == 450 and b"verification in progress" in text else (code, text)
        return until(ask, lambda: f"the MX's answer to RCPT TO:<{to}>\n{self.postfix.log()[-5000:]}")

    def stored(self):
        return TinyDBStore(self.data).load("c-1")

    def daemon_log(self) -> str:
        path = self.base / "daemon.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""


def clean_env() -> dict[str, str]:
    return {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def until(check, what, timeout: float = WAIT):
    """What `check` finds once it finds something; `what` (or what it returns) says what was
    waited for, and the logs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"waited {timeout:.0f} s for {what() if callable(what) else what}")


@pytest.fixture(params=["transport", "pipe"])
def site(request):
    problem = missing()
    if problem:
        if in_ci():
            pytest.fail(problem)
        pytest.skip(problem)
    base = Path(tempfile.mkdtemp(prefix="referee-postfix-", dir="/tmp"))
    base.chmod(0o755)
    made = Site(request.param, base)
    try:
        made.start()
        yield made
    finally:
        made.stop()
        if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
            print(made.postfix.log()[-6000:], made.daemon_log())
        shutil.rmtree(base, ignore_errors=True)


def play_a_round(site: Site, tokens: dict[str, str]) -> int:
    """Every player asked answers by mail through the MX (a reply to their latest report, where
    they got one) until the round changes; the number of replies sent."""
    game = registry.get("constantinopolis")
    bots = {name: make_bot("constantinopolis", "ask-only", seed=f"postfix/{name}") for name in tokens}
    first = game.phase(site.stored().state).round
    sent = 0
    while True:
        stored = site.stored()
        if game.phase(stored.state).round != first or sent >= 40:
            return sent
        asked = [p.player for p in game.prompts(stored.state)]
        events = len(stored.events)
        for name in asked:
            address = f"c-1+{name}+{tokens[name]}@{HOST}"
            reports = [m for m in site.boxes.to(address_of(stored, name)) if m["Reply-To"] == address]
            text = bots[name].mail(game, own_position(game, stored, name), name)
            site.send(address_of(stored, name), address, text,
                      in_reply_to=reports[-1]["Message-ID"] if reports else None)
            sent += 1
        until(lambda: len(site.stored().events) > events,
              lambda: f"the replies of {asked} to be played\n{site.daemon_log()}\n{site.postfix.log()[-3000:]}")


def address_of(stored, name: str) -> str:
    return next(seat["email"] for seat in stored.meta["seats"] if seat["name"] == name)


def test_a_game_behind_a_real_postfix(site):
    made = json.loads(site.referee("new", "constantinopolis", "--player", f"ann:ann@{PLAYERS}",
                                   "--player", f"bob:{GONE}", "--seed", "postfix", "--id", "c-1", "--json").stdout)
    tokens = {p["name"]: p["token"] for p in made["players"]}
    if site.way == "pipe":  # no daemon: what `new` queued goes out at the next tick, from cron
        site.referee("tick")
    welcome = until(lambda: site.boxes.to(f"ann@{PLAYERS}"), "ann's first report")[-1]
    assert welcome["Reply-To"] == f"c-1+ann+{tokens['ann']}@{HOST}"
    assert welcome["X-Envelope-From"] == f"c-1@{HOST}"

    # players' replies through the MX, a round played
    assert play_a_round(site, tokens) >= 2
    assert [e for e in site.stored().events if e["type"] == "order" and e.get("source") == "mail"]
    assert any("Orders received" in str(m["Subject"]) or m["Reply-To"] for m in site.boxes.to(f"ann@{PLAYERS}"))

    # bob's mail bounced: the report came back to the game's address and was noticed
    status = until(lambda: (lambda s: s if s["bouncing"] else None)(site.status()), "bob's seat marked as bouncing")
    assert [(b["player"], b["email"], b["source"]) for b in status["bouncing"]] == [("bob", GONE, "dsn")]
    assert "550 5.1.1" in status["bouncing"][0]["why"]
    alert = until(lambda: site.boxes.to(MODERATOR), "the moderator's alert")
    assert GONE in alert[0].get_content() and "bob" in str(alert[0]["Subject"])
    assert "bob: mail to <bob-gone@players.test> bounces since" in site.referee("status", "c-1").stdout
    assert "bounced" in site.referee("outbox").stdout

    # an unknown game address is refused at RCPT with the referee's own text, so nothing
    # bounces to a sender who may be forged: the MX asks the daemon (address verification) or,
    # with the pipe, `referee recipient-check` (a policy service); a game's address is taken
    code, text = site.rcpt(f"nosuchgame@{HOST}")
    assert code == 550 and b"No such game or player address here" in text
    assert site.rcpt(f"c-1@{HOST}")[0] == 250
    assert site.rcpt("someone@elsewhere.test")[0] == 454  # and the MX relays nothing for outsiders
    # the null sender is never a player: orders from <> to ann's token address are not played
    before = len(site.stored().events)
    null_id = site.send(f"ann@{PLAYERS}", f"c-1+ann+{tokens['ann']}@{HOST}", "pass", envelope_from="")
    until(lambda: null_id in delivered_ids(site), "the null sender's mail to be taken")
    time.sleep(2)
    assert len(site.stored().events) == before
    assert site.boxes.to(f"stranger@{PLAYERS}") == []

    # one mail to two games' token addresses reaches both (the pipe's flag D and one recipient
    # per delivery); one mail To the game and Bcc the token address gets one answer
    other = json.loads(site.referee("new", "constantinopolis", "--player", f"ann:ann@{PLAYERS}", "--player",
                                    f"cid:cid@{PLAYERS}", "--seed", "two", "--id", "c-2", "--json").stdout)
    other_token = {p["name"]: p["token"] for p in other["players"]}["ann"]
    both = site.send_to_many(f"ann@{PLAYERS}", f"c-1+ann+{tokens['ann']}@{HOST}, c-2+ann+{other_token}@{HOST}",
                             [f"c-1+ann+{tokens['ann']}@{HOST}", f"c-2+ann+{other_token}@{HOST}"], "STATUS", "STATUS")
    answers = until(lambda: (lambda found: found if len(found) == 2 else None)(
        [m for m in site.boxes.to(f"ann@{PLAYERS}") if both in str(m["In-Reply-To"])]), "STATUS answered by both games")
    assert sorted(str(m["Reply-To"]).split("+")[0] for m in answers) == ["c-1", "c-2"]
    bcc = site.send_to_many(f"ann@{PLAYERS}", f"c-1@{HOST}", [f"c-1@{HOST}", f"c-1+ann+{tokens['ann']}@{HOST}"],
                            "STATUS", "STATUS")
    until(lambda: [m for m in site.boxes.to(f"ann@{PLAYERS}") if bcc in str(m["In-Reply-To"])], "the STATUS answer")
    until(lambda: bcc in delivered_ids(site) and not pending_plain_answers(site), "no answer left to the plain copy")
    time.sleep(1)
    assert len([m for m in site.boxes.to(f"ann@{PLAYERS}") if bcc in str(m["In-Reply-To"])]) == 1

    if site.way == "transport":  # after the daemon was down, flushing the queue delivers at once
        site.stop_daemon()
        asked = site.send(f"ann@{PLAYERS}", f"c-1+ann+{tokens['ann']}@{HOST}", "STATUS", subject="STATUS")
        until(lambda: site.postfix.queue_ids(), "Postfix to keep ann's mail while the daemon is down")
        site.start_daemon()
        site.postfix.flush()
        until(lambda: [m for m in site.boxes.to(f"ann@{PLAYERS}") if asked in str(m["In-Reply-To"])],
              "the answer to ann's STATUS once the queue was flushed", timeout=20)

    nobody = pwd.getpwnam("nobody").pw_uid
    assert owners(site.data) == {nobody}


def pending_plain_answers(site: Site) -> list[dict]:
    """Answers to a mail at a game's plain address still waiting to be sent."""
    rows = json.loads(site.referee("outbox", "--json").stdout)
    return [r for r in rows if ".notice.plain." in r["message_id"] and r["status"] == "pending"]


def owners(root: Path) -> set[int]:
    """Who owns the files under `root`, read while the daemon still runs: a file it removes
    between the listing and the look (a game's pending-mail marker, once sent) owns nothing."""
    found = set()
    for path in [root, *root.rglob("*")]:
        with suppress(FileNotFoundError):
            found.add(path.stat().st_uid)
    return found


def delivered_ids(site: Site) -> set[str]:
    """The Message-IDs of every mail in the referee's spool."""
    found = set()
    spool = site.data / "spool"
    for path in list(spool.rglob("*")):
        if path.is_file() and path.name not in ("journal", "aside.log"):
            try:
                head = path.read_bytes()
            except OSError:
                continue
            for line in head.split(b"\n"):
                if line.lower().startswith(b"message-id:"):
                    found.add(line.split(b":", 1)[1].strip().decode("ascii", "replace"))
    return found
