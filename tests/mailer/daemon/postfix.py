"""A private Postfix instance for a test: its own configuration, queue and data directories,
listening on one loopback port, started and stopped by the test.

Nothing it takes can leave the machine: there is no relay host, every domain it serves is
routed by its transport map to a server on loopback, and every other address goes to the
`error` transport (a bounce, never a delivery). Its main.cf carries the lines of the recipe in
docs/operations.md ("Behind Postfix") for the game domain, so that the test runs the recipe.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

POSTFIX = shutil.which("postfix", path="/usr/sbin:/usr/bin:/sbin:/bin")
POSTMAP = shutil.which("postmap", path="/usr/sbin:/usr/bin:/sbin:/bin")
POSTQUEUE = shutil.which("postqueue", path="/usr/sbin:/usr/bin:/sbin:/bin")

# master.cf: the services a delivering instance needs, none chrooted (a chroot would need a
# copy of the system's files inside the test's directory).
MASTER = """\
{listen} inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
"""

MAIN = """\
compatibility_level = 3.6
queue_directory = {base}/queue
data_directory = {base}/data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
meta_directory = /etc/postfix
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
maillog_file = {base}/maillog
maillog_file_prefixes = {base}
syslog_name = postfix-test
myhostname = mx.{domain}
mydomain = {domain}
myorigin = $myhostname
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.1/32
relayhost =
default_transport = error:nothing leaves this test's machine
smtp_host_lookup = native
biff = no
# the game domain, as docs/operations.md gives it
relay_domains = {domain}
transport_maps = hash:{base}/conf/transport
recipient_delimiter = +
smtpd_recipient_restrictions = permit_mynetworks, reject_unauth_destination, reject_unverified_recipient
unverified_recipient_reject_code = 550
address_verify_negative_refresh_time = 10m
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postfix:
    """One instance: `start()` writes its files and starts it, `stop()` stops it."""

    def __init__(self, base: Path, domain: str, transports: dict[str, str], *, main: str = "",
                 master: str = "") -> None:
        self.base, self.domain = base, domain
        self.port = free_port()
        self.conf = base / "conf"
        self.transports, self.extra_main, self.extra_master = transports, main, master

    def start(self) -> None:
        for sub in ("conf", "queue", "data"):
            (self.base / sub).mkdir(parents=True, exist_ok=True)
        shutil.chown(self.base / "data", "postfix")
        (self.conf / "main.cf").write_text(MAIN.format(base=self.base, domain=self.domain) + self.extra_main)
        (self.conf / "master.cf").write_text(MASTER.format(listen=f"127.0.0.1:{self.port}") + self.extra_master)
        (self.conf / "transport").write_text("".join(f"{key} {value}\n" for key, value in self.transports.items()))
        self.run(POSTMAP, "-c", str(self.conf), str(self.conf / "transport"))
        self.run(POSTFIX, "-c", str(self.conf), "check")
        self.run(POSTFIX, "-c", str(self.conf), "start")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"Postfix did not listen on port {self.port}:\n{self.log()}")

    def stop(self) -> None:
        if (self.base / "data" / "master.lock").exists() or (self.base / "queue" / "pid").exists():
            subprocess.run([POSTFIX, "-c", str(self.conf), "stop"], capture_output=True, timeout=60)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and self._master_running():
            time.sleep(0.1)

    def _master_running(self) -> bool:
        pid_file = self.base / "queue" / "pid" / "master.pid"
        try:
            pid = int(pid_file.read_text().split()[0])
            os.kill(pid, 0)
        except (OSError, ValueError, IndexError):
            return False
        return True

    def flush(self) -> None:
        """`postqueue -f`: deliver what is deferred now, as the recipe says to after a restart."""
        self.run(POSTQUEUE, "-c", str(self.conf), "-f")

    def queue_ids(self) -> list[str]:
        """What waits in the instance's queue (deferred or active)."""
        out = subprocess.run([POSTQUEUE, "-c", str(self.conf), "-j"], capture_output=True, text=True,
                             timeout=30).stdout
        return [line for line in out.splitlines() if line.strip()]

    def log(self) -> str:
        try:
            return (self.base / "maillog").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def run(self, *argv: str | None) -> None:
        done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, argv))} failed: {done.stderr}{done.stdout}\n{self.log()[-3000:]}")
