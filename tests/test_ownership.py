"""A command run as another user than the data directory's owner acts as the owner (root) or
refuses, naming the user to run it as; it never leaves a file the daemon cannot read. Real
processes under real users: the test runs as root (as CI does) and needs the user `nobody`."""

import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from .anyone import referee_script

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="changing users needs root (CI runs as root)")


@pytest.fixture
def place():
    """A directory every user may enter (pytest's own are root's alone)."""
    global SCRIPT
    path = Path(tempfile.mkdtemp(prefix="referee-owner-", dir="/tmp"))
    path.chmod(0o755)
    SCRIPT = referee_script(path)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def referee(*args, user=None, stdin=None):
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, input=stdin, user=user,
                          cwd="/", timeout=120)


def test_root_acts_as_the_owner_of_the_data_directory(place):
    nobody = pwd.getpwnam("nobody")
    data = place / "data"
    data.mkdir()
    os.chown(data, nobody.pw_uid, nobody.pw_gid)
    made = referee("--data-dir", str(data), "new", "constantinopolis", "--player", "ann:ann@p.test",
                   "--player", "bob:bob@p.test", "--seed", "s", "--id", "c-1", "--json")
    assert made.returncode == 0, made.stderr
    token = {p["name"]: p["token"] for p in json.loads(made.stdout)["players"]}["ann"]
    raw = f"From: ann@p.test\nTo: c-1+ann+{token}@games.localhost\nMessage-ID: <m@p.test>\n\nSTATUS\n"
    assert referee("--data-dir", str(data), "ingest", stdin=raw).returncode == 0
    assert referee("--data-dir", str(data), "status", "c-1").returncode == 0
    owners = {(path.stat().st_uid, path.stat().st_gid) for path in [data, *data.rglob("*")]}
    assert owners == {(nobody.pw_uid, nobody.pw_gid)}, sorted(
        str(p) for p in data.rglob("*") if p.stat().st_uid != nobody.pw_uid)


def test_another_user_is_refused_with_the_user_to_run_as(place):
    data = place / "data"
    made = referee("--data-dir", str(data), "new", "constantinopolis", "--player", "ann:ann@p.test",
                   "--player", "bob:bob@p.test", "--seed", "s", "--id", "c-1")
    assert made.returncode == 0, made.stderr
    before = sorted((str(p), p.stat().st_mtime_ns) for p in data.rglob("*"))
    refused = referee("--data-dir", str(data), "extend", "c-1", "--by", "1d", "--reason", "x", user="nobody")
    assert refused.returncode == 1
    assert "belongs to user root" in refused.stderr and "run it as root" in refused.stderr
    # an MTA's pipe run as the wrong user keeps the mail: try again later
    piped = referee("--data-dir", str(data), "ingest", user="nobody", stdin="From: a@p.test\n\nx\n")
    assert piped.returncode == 75 and "belongs to user root" in piped.stderr
    assert sorted((str(p), p.stat().st_mtime_ns) for p in data.rglob("*")) == before
