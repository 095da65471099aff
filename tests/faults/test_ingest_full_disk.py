"""`referee ingest` on a full disk: the MTA is told to try again (75) and nothing is left
behind in spool/tmp (a partial file there was never deleted); once there is room the same
mail is taken. A real small file system (tmpfs in a mount namespace of its own), really full."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = r'''
set -u
mount -t tmpfs -o size=2m tmpfs "$1" || exit 99
cd "$1"
"$2" -m commands --data-dir data list >/dev/null || exit 98
# a ballast that leaves about 100 kB, then the mail of 400 kB through the pipe
head -c $((2048 * 1024 - 100 * 1024)) /dev/zero > ballast 2>/dev/null
"$2" -c 'import sys; sys.stdout.buffer.write(b"From: a@p.test\r\nTo: g1@games.test\r\nSubject: x\r\n\r\n" + b"y" * 400000)' > /dev/null
"$2" -c 'import sys; sys.stdout.buffer.write(b"From: a@p.test\r\nTo: g1@games.test\r\nSubject: x\r\n\r\n" + b"y" * 400000)' \
  | "$2" -m commands --data-dir data ingest --quiet 2>ingest.err
echo "status $?"
echo "tmp $(ls data/spool/tmp | wc -l) new $(ls data/spool/new | wc -l)"
rm ballast
"$2" -c 'import sys; sys.stdout.buffer.write(b"From: a@p.test\r\nTo: g1@games.test\r\nSubject: x\r\n\r\n" + b"y" * 400000)' \
  | "$2" -m commands --data-dir data ingest --quiet 2>>ingest.err
echo "status $?"
cat ingest.err
'''


def test_a_failed_ingest_leaves_no_partial_file_and_the_mta_retries(tmp_path):
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(["unshare", "-rm", "sh", "-c", SCRIPT, "sh", str(disk), sys.executable], cwd=ROOT,
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    if done.returncode == 99 or "Operation not permitted" in done.stderr:
        pytest.skip(f"no tmpfs in a user namespace here: {done.stderr.strip()[:200]}")
    lines = done.stdout.splitlines()
    assert lines[0] == "status 75", done.stdout + done.stderr
    assert lines[1] == "tmp 0 new 0", done.stdout  # nothing half-written kept
    assert lines[2] == "status 0", done.stdout  # room again: the MTA's retry is taken
    assert "Error: cannot store the message now:" in done.stdout and "No space left on device" in done.stdout
