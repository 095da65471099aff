"""Every command ends with the exit statuses docs/cli.md lists for it, and every status listed
there for a command is one it can really end with: each is brought about below on a real
data directory (a damaged game file for 74, a lock held by another holder for 75, ...).

`serve` runs in a process of its own; everything else through click's runner."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from commands.demo.bot import MailBot
from commands.main import cli
from referee import registry
from referee.store import TinyDBStore

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "cli.md"
GENERAL = {70, 141}  # may end any command; listed once in the doc


def documented() -> dict[str, set[int]]:
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| `referee ([a-z -]+)` \| .* \| ([0-9, ]+) \|$", line)
        if found:
            rows[found.group(1)] = {int(code) for code in found.group(2).split(",")}
    return rows


def commands(group: click.Group = cli, prefix: str = "") -> set[str]:
    """Every command a user can run, by its full name; a group that does something when run
    alone (`outbox`, `spool`) counts as one too."""
    names = set()
    ctx = click.Context(group, info_name=prefix.strip() or "referee")
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        full = f"{prefix}{name}"
        if isinstance(command, click.Group):
            names |= commands(command, f"{full} ")
            if command.invoke_without_command:
                names.add(full)
        else:
            names.add(full)
    return names


def test_every_command_is_in_the_doc_with_its_statuses():
    assert set(documented()) == commands()
    assert all(codes and not codes & GENERAL for codes in documented().values())


# -- the situations a case may need

@contextmanager
def locked(path: Path):
    """The file's lock held by someone else (another open file description)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def busy(name):
    return lambda w, stack: stack.enter_context(locked(w.data / name))


def replaced_by_directory(name):
    def make(w, stack):
        path = w.data / name
        if path.is_file():
            path.unlink()
        path.mkdir(parents=True, exist_ok=True)
    return make


def set_aside_mail(w, stack):
    spool = w.data / "spool"
    (spool / "cur" / "m1:2,E").write_bytes(b"From: x@y.test\r\n\r\nhi\r\n")


def broken_games(w, stack):
    stack.enter_context(pytest.MonkeyPatch.context()).setattr(registry, "broken", lambda: {"oops": "ImportError"})


def game_exists_race(w, stack):
    """Another process creates the game between the check and the write."""
    patch = stack.enter_context(pytest.MonkeyPatch.context())
    patch.setattr(TinyDBStore, "exists", lambda self, gid: False)


def breaking_bot(w, stack):
    patch = stack.enter_context(pytest.MonkeyPatch.context())
    patch.setattr(MailBot, "choose", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no idea")))


def a_log(w, stack, tamper=False):
    text = w.run("log", "g1", "--reveal-seed").output
    if tamper:  # the record's last line lost
        text = "".join(text.splitlines(keepends=True)[:-1])
    (w.tmp / "g1.log").write_text(text)


def fresh_data_dir(w, stack):
    w.data = w.tmp / "fresh"


def a_tournament(w, stack, finished=False, rounds=1):
    """Tournament t1: four race players at two tables (a quick race: target 3), one round
    unless told; with `finished` its first round is played to the end."""
    import referee.tournament.store
    stack.enter_context(pytest.MonkeyPatch.context()).setattr(referee.tournament.store, "LOCK_TIMEOUT", 0.2)
    (w.tmp / "roster.csv").write_text("name,email\nann,a@x.test\nbob,b@x.test\ncy,c@x.test\ndee,d@x.test\n")
    made = w.run("tournament", "new", "t1", "--game", "race", "--roster", "{tmp}/roster.csv", "--rounds", str(rounds),
                 "--table-size", "2", "--option", "target=3", "--seed", "t1")
    assert made.exit_code == 0, made.output
    for game in ("t1-r1-t1", "t1-r1-t2") if finished else ():
        while "Winner" not in w.run("status", game).output:
            assert w.run("adjudicate", game).exit_code == 0


def a_finished_tournament(w, stack):
    a_tournament(w, stack, finished=True)


def an_archive(w, stack, tamper=False):
    a_finished_tournament(w, stack)
    assert w.run("tournament", "archive", "t1", "-o", "{tmp}/t1.zip").exit_code == 0
    if tamper:
        import zipfile
        with zipfile.ZipFile(w.tmp / "t1.zip", "a") as zf:
            zf.writestr("t1/extra.txt", "added later")


def a_broken_tournament(w, stack):
    a_tournament(w, stack)
    (w.data / "tournaments" / "t1.json").write_text('{"tournament": {"1":')


def tournaments_is_a_file(w, stack):
    (w.tmp / "roster.csv").write_text("name,email\nann,a@x.test\nbob,b@x.test\n")
    (w.data / "tournaments").write_text("")


def an_open_game(w, stack):
    """Open game o1 (moderator approval), where zed waits for a seat."""
    made = w.run("new", "race", "--open", "--seats", "2..3", "--approve", "--id", "o1")
    assert made.exit_code == 0, made.output
    from referee.service import Referee
    Referee(TinyDBStore(w.data)).join("o1", "zed@x.test", "zed")


def open_and_busy(w, stack):
    an_open_game(w, stack)
    busy("games/o1.json.lock")(w, stack)


SIGNUPS = {"signups show": ["signups", "show", "o1"], "signups approve": ["signups", "approve", "o1", "zed"],
           "signups decline": ["signups", "decline", "o1", "zed"]}


TOURNAMENT = ["tournament", "new", "t2", "--game", "race", "--roster", "{tmp}/roster.csv", "--table-size", "2"]


NEW = ["new", "race", "--player", "x:x@x.test", "--player", "y:y@x.test", "--id", "g9"]
GAME_COMMANDS = {  # command: (arguments on g1 that work, ... that fail for a reason of the command's own)
    "status": (["status", "g1"], None),
    "show": (["show", "g1"], ["show", "g1", "--as", "zed"]),
    "history": (["history", "g1"], None),
    "log": (["log", "g1"], None),
    "policy show": (["policy", "show", "g1"], None),
    "orders": (["orders", "g1", "ann", "-"], ["orders", "g1", "bob", "-"]),
    "adjudicate": (["adjudicate", "g1"], None),
    "undo": (["undo", "g1", "--to", "1", "--reason", "x"], ["undo", "g1", "--to", "9", "--reason", "x"]),
    "replace": (["replace", "g1", "ann", "--email", "c@x.test"], ["replace", "g1", "zed", "--email", "c@x.test"]),
    "drop": (["drop", "s1", "cy"], ["drop", "g1", "bob"]),
    "policy set": (["policy", "set", "g1", "grace=2h", "--reason", "x"], None),
    "extend": (["extend", "g1", "--by", "1d", "--reason", "x"], None),
    "pause": (["pause", "g1", "--reason", "x"], None),
    "resume": (["resume", "g1"], None),
    "vacation": (["vacation", "g1", "ann", "5d"], ["vacation", "g1", "ann", "off"]),
    "timezone": (["timezone", "g1", "ann", "Europe/Berlin"], None),
    "notify": (["notify", "g1", "ann", "digest", "18:30"], ["notify", "g1", "zed", "each"]),
    "language": (["language", "g1", "ann", "de"], None),
    "press": (["press", "g1"], ["press", "g1", "--as", "zed"]),
    "notice": (["notice", "g1", "The server moves on Sunday."], None),
}
PREPARE = {"undo": [["orders", "g1", "ann", "-"]], "resume": [["pause", "g1", "--reason", "x"]]}
USAGE = {"status": ["status"], "show": ["show"], "history": ["history"], "log": ["log"],
         "policy show": ["policy", "show"], "orders": ["orders", "g1", "ann", "x"], "adjudicate": ["adjudicate"],
         "undo": ["undo", "g1", "--to", "1"], "replace": ["replace", "g1", "ann", "--email", "c@"],
         "drop": ["drop", "g1"], "policy set": ["policy", "set", "g1", "nokey=1", "--reason", "x"],
         "extend": ["extend", "g1", "--by", "soon", "--reason", "x"], "pause": ["pause", "g1"],
         "resume": ["resume"], "vacation": ["vacation", "g1", "ann", "forever"],
         "timezone": ["timezone", "g1", "ann", "Mars/Olympus"], "notify": ["notify", "g1", "ann", "hourly"],
         "language": ["language", "g1", "ann", "klingon"], "press": ["press", "g1", "--set", "press=loud"],
         "notice": ["notice", "g1", " "]}

CASES: list[tuple[str, int, list[str], object]] = []  # command, status, arguments, situation
for name, (works, refused) in GAME_COMMANDS.items():
    CASES += [(name, 0, works, None), (name, 2, USAGE[name], None),
              (name, 1, [w if w not in ("g1", "s1") else "nosuch" for w in works], None),
              (name, 74, [w if w not in ("g1", "s1") else "gb" for w in works], None),
              (name, 75, works, busy("games/s1.json.lock" if "s1" in works else "games/g1.json.lock"))]
    if refused:
        CASES.append((name, 1, refused, None))
for name, args in SIGNUPS.items():
    CASES += [(name, 0, args, an_open_game), (name, 2, args[:2], an_open_game),
              (name, 1, [a if a != "o1" else "g1" for a in args], an_open_game),
              (name, 74, [a if a != "o1" else "gb" for a in args], None), (name, 75, args, open_and_busy)]
CASES += [
    ("games", 0, ["games"], None), ("games", 2, ["games", "--bogus"], None), ("games", 1, ["games"], broken_games),
    ("demo", 0, ["demo", "--game", "race", "--players", "2", "--seed", "x"], fresh_data_dir),
    ("demo", 1, ["demo", "--game", "race", "--players", "2", "--seed", "x"], lambda w, s: (fresh_data_dir(w, s),
                                                                                          breaking_bot(w, s))),
    ("demo", 2, ["demo", "--game", "rcae"], fresh_data_dir),
    ("new", 0, NEW, None), ("new", 2, NEW[:-2] + ["--id", "Bad Id"], None), ("new", 1, NEW[:-1] + ["g1"],
                                                                            game_exists_race),
    ("new", 74, NEW, replaced_by_directory("index.json")), ("new", 75, NEW, busy("games/g9.json.lock")),
    ("list", 0, ["list"], None), ("list", 2, ["list", "--bogus"], None),
    ("list", 74, ["list"], replaced_by_directory("index.json")), ("list", 75, ["list"], busy("index.json.lock")),
    ("replay", 0, ["replay", "{tmp}/g1.log"], a_log), ("replay", 1, ["replay", "{tmp}/g1.log"],
                                                        lambda w, s: a_log(w, s, tamper=True)),
    ("replay", 2, ["replay", "{tmp}/none.log"], None),
    ("case run", 0, ["case", "run", str(ROOT / "tests/cases/race_reaching_the_target.toml")], None),
    ("case run", 1, ["case", "run", "{tmp}/g1.log"], a_log), ("case run", 2, ["case", "run", "{tmp}/no.toml"], None),
    ("ingest", 0, ["ingest", "--quiet"], None), ("ingest", 2, ["ingest", "--bogus"], None),
    ("ingest", 65, ["ingest", "--quiet"], "large"), ("ingest", 75, ["ingest", "--quiet"], "spool new is a file"),
    ("recipient-check", 0, ["recipient-check"], None), ("recipient-check", 2, ["recipient-check", "x"], None),
    ("outbox", 0, ["outbox"], "no broken game"), ("outbox", 2, ["outbox", "--bogus"], None), ("outbox", 74, ["outbox"], None),
    ("outbox", 75, ["outbox"], busy("games/g1.json.lock")),
    ("outbox retry", 0, ["outbox", "retry"], "no broken game"), ("outbox retry", 2, ["outbox", "retry", "x"], None),
    ("outbox retry", 74, ["outbox", "retry"], None),
    ("outbox retry", 75, ["outbox", "retry"], busy("games/g1.json.lock")),
    ("spool", 0, ["spool"], None), ("spool", 2, ["spool", "--bogus"], None),
    ("spool", 74, ["spool"], "spool cur is a file"),
    ("spool requeue", 0, ["spool", "requeue", "m1"], set_aside_mail),
    ("spool requeue", 1, ["spool", "requeue", "m2"], set_aside_mail), ("spool requeue", 2, ["spool", "requeue"], None),
    ("spool requeue", 74, ["spool", "requeue", "--all"], "spool cur is a file"),
    ("spool prune", 0, ["spool", "prune"], None), ("spool prune", 2, ["spool", "prune", "x"], None),
    ("spool prune", 74, ["spool", "prune"], "spool cur is a file"),
    ("config show", 0, ["config", "show"], None), ("config show", 2, ["--config", "{tmp}/bad.toml", "config", "show"],
                                                   "bad config"),
    ("tick", 0, ["tick"], None), ("tick", 2, ["tick", "--now", "soon"], None),
    ("tick", 74, ["tick"], replaced_by_directory("index.json")), ("tick", 75, ["tick"], busy("index.json.lock")),
    ("serve", 0, ["serve"], "process"), ("serve", 1, ["serve"], "process"), ("serve", 2, ["serve", "--port", "0"],
                                                                              "process"),
    ("serve", 74, ["serve"], "process"),
    ("tournament new", 0, TOURNAMENT, a_tournament), ("tournament new", 2, TOURNAMENT[:-1] + ["6"], a_tournament),
    ("tournament new", 74, TOURNAMENT, tournaments_is_a_file),
    ("tournament new", 75, TOURNAMENT, lambda w, s: (a_tournament(w, s), busy("tournaments/t2.json.lock")(w, s))),
    ("tournament next", 0, ["tournament", "next", "t1"], lambda w, s: a_tournament(w, s, finished=True, rounds=2)),
    ("tournament next", 1, ["tournament", "next", "t1"], a_tournament),
    ("tournament next", 2, ["tournament", "next", "t1", "--table-size", "9"],
     lambda w, s: a_tournament(w, s, finished=True, rounds=2)),
    ("tournament next", 74, ["tournament", "next", "t1"], a_broken_tournament),
    ("tournament next", 75, ["tournament", "next", "t1"], lambda w, s: (a_tournament(w, s),
                                                                       busy("tournaments/t1.json.lock")(w, s))),
    ("tournament drop", 0, ["tournament", "drop", "t1", "ann"], a_tournament),
    ("tournament drop", 1, ["tournament", "drop", "t1", "zed"], a_tournament),
    ("tournament drop", 2, ["tournament", "drop", "t1"], a_tournament),
    ("tournament drop", 74, ["tournament", "drop", "t1", "ann"], a_broken_tournament),
    ("tournament drop", 75, ["tournament", "drop", "t1", "ann"], lambda w, s: (a_tournament(w, s),
                                                                              busy("tournaments/t1.json.lock")(w, s))),
    ("tournament list", 0, ["tournament", "list"], a_broken_tournament),
    ("tournament list", 2, ["tournament", "list", "--bogus"], None),
    ("tournament status", 0, ["tournament", "status"], a_tournament),
    ("tournament status", 1, ["tournament", "status", "nosuch"], a_tournament),
    ("tournament status", 2, ["tournament", "status", "t1", "--bogus"], a_tournament),
    ("tournament status", 74, ["tournament", "status", "t1"], a_broken_tournament),
    ("tournament status", 75, ["tournament", "status", "t1"], lambda w, s: (a_tournament(w, s),
                                                                           busy("tournaments/t1.json.lock")(w, s))),
    ("tournament standings", 0, ["tournament", "standings", "t1", "--csv"], a_finished_tournament),
    ("tournament standings", 1, ["tournament", "standings", "nosuch"], a_tournament),
    ("tournament standings", 2, ["tournament", "standings", "t1", "--json", "--csv"], a_tournament),
    ("tournament standings", 74, ["tournament", "standings", "t1"], a_broken_tournament),
    ("tournament standings", 75, ["tournament", "standings", "t1"],
     lambda w, s: (a_tournament(w, s), busy("tournaments/t1.json.lock")(w, s))),
    ("tournament archive", 0, ["tournament", "archive", "t1", "-o", "{tmp}/a.zip"], a_finished_tournament),
    ("tournament archive", 1, ["tournament", "archive", "t1", "-o", "{tmp}/a.zip"], a_tournament),
    ("tournament archive", 2, ["tournament", "archive", "t1"], a_tournament),
    ("tournament archive", 74, ["tournament", "archive", "t1", "-o", "{tmp}/a.zip"], a_broken_tournament),
    ("tournament archive", 75, ["tournament", "archive", "t1", "-o", "{tmp}/a.zip"],
     lambda w, s: (a_tournament(w, s), busy("tournaments/t1.json.lock")(w, s))),
    ("tournament verify", 0, ["tournament", "verify", "{tmp}/t1.zip"], an_archive),
    ("tournament verify", 1, ["tournament", "verify", "{tmp}/t1.zip"], lambda w, s: an_archive(w, s, tamper=True)),
    ("tournament verify", 2, ["tournament", "verify", "{tmp}/none.zip"], None),
]


def test_every_documented_status_of_every_command_is_brought_about_below():
    covered = {(name, status) for name, status, *_ in CASES}
    listed = {(name, status) for name, codes in documented().items() for status in codes}
    assert listed == covered, (sorted(listed - covered), sorted(covered - listed))


class World:
    def __init__(self, tmp: Path) -> None:
        self.tmp, self.data = tmp, tmp / "data"
        self.runner = CliRunner()

    def run(self, *args: str, input=None, env=None):
        args = [a.replace("{tmp}", str(self.tmp)) for a in args]
        return self.runner.invoke(cli, ["--data-dir", str(self.data), *args], input=input, env=env,
                                  catch_exceptions=False)


@pytest.fixture
def world(tmp_path, games, monkeypatch):
    kwdefaults = dict(TinyDBStore.__init__.__kwdefaults__)
    monkeypatch.setattr(TinyDBStore.__init__, "__kwdefaults__", {**kwdefaults, "lock_timeout": 0.2})
    w = World(tmp_path)
    for args in (["new", "race", "--player", "ann:ann@x.test", "--player", "bob:bob@x.test", "--id", "g1"],
                 ["new", "race", "--player", "ann:ann@x.test", "--player", "bob:bob@x.test", "--id", "gb"],
                 ["new", "simul", "--player", "ann:a@x.test", "--player", "bob:b@x.test", "--player", "cy:c@x.test",
                  "--id", "s1"]):
        assert w.run(*args).exit_code == 0
    (w.data / "games" / "gb.json").write_text('{"meta": {"1":\n{"id": "gb"')
    return w


def serve_process(w: World, args: list[str], situation: int) -> int:
    env = {**os.environ, "REFEREE_DATA": str(w.data), "REFEREE_RELAY": f"maildir:{w.tmp / 'relay'}"}
    taken = None
    if situation == 74:  # a data directory whose `games` is a file
        env["REFEREE_DATA"] = str(w.tmp / "odd")
        (w.tmp / "odd").mkdir()
        (w.tmp / "odd" / "games").write_text("not a directory")
    port = None
    if args == ["serve"]:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if situation == 1:
            taken = socket.socket()
            taken.bind(("127.0.0.1", port))
            taken.listen()
        args = ["serve", "--port", str(port)]
    proc = subprocess.Popen([sys.executable, "-m", "commands", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if situation == 0:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                    time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        err = proc.stderr.read()
        assert "Traceback" not in err, err
        return proc.returncode
    finally:
        if proc.poll() is None:
            proc.kill()
        if taken is not None:
            taken.close()


@pytest.mark.parametrize("name, status, args, situation", CASES,
                         ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_each_command_ends_with_the_documented_status(world, name, status, args, situation):
    assert status in documented()[name]
    if situation == "process":
        assert serve_process(world, args, status) == status
        return
    env, stdin = None, None
    with ExitStack() as stack:
        for prepare in PREPARE.get(name, []) if status in (0, 1, 75) else []:
            assert world.run(*prepare, input="ADD 1\n").exit_code == 0
        if callable(situation):
            situation(world, stack)
        elif situation == "large":
            env, stdin = {"REFEREE_LIMITS_MAX_MESSAGE_BYTES": "100"}, "x" * 200
        elif situation in ("spool cur is a file", "spool new is a file"):
            folder = world.data / "spool" / situation.split()[1]
            for entry in folder.iterdir():
                entry.unlink()
            folder.rmdir()
            folder.write_text("")
        elif situation == "bad config":
            (world.tmp / "bad.toml").write_text("hostname = [")
        elif situation == "no broken game":
            (world.data / "games" / "gb.json").unlink()
        if name == "ingest" and stdin is None:
            stdin = "From: ann@x.test\r\nTo: g1@localhost\r\nMessage-ID: <i1@x.test>\r\n\r\nhello\r\n"
        if name == "orders":
            stdin = "ADD 1\n"
        result = world.run(*args, input=stdin, env=env)
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output and "unexpected failure" not in result.output
    if status not in (0, 141):
        assert result.output.strip(), "a failure says why"
