"""Every command that opens a data directory runs as the user who owns it.

The daemon runs as a user of its own (`User=referee`), and a moderator may type a command as
root or as themselves. A file written by another user than the owner (a game file replaced as
root with mode 0600, a lock or a spool file) is one the daemon cannot read, and the game stops.
So a command run as root becomes the owner before it touches anything (the settings file is
read before, so it may stay readable by root alone); anyone else is refused with the user to
run it as.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

__all__ = ["NotTheOwner", "act_as_owner"]


class NotTheOwner(Exception):
    """The data directory belongs to another user, and this process cannot become them."""


def act_as_owner(data_dir: Path) -> None:
    """Become the owner of `data_dir` when running as root; refuse (NotTheOwner) when running
    as anyone else but the owner. Nothing to do for a directory not made yet: it will belong
    to whoever makes it."""
    try:
        info = os.stat(data_dir)
    except FileNotFoundError:
        return
    me = os.geteuid()
    if info.st_uid == me:
        return
    try:
        entry: pwd.struct_passwd | None = pwd.getpwuid(info.st_uid)
    except KeyError:  # an owner without a name: its number is all there is
        entry = None
    name = entry.pw_name if entry is not None else str(info.st_uid)
    if me != 0:
        raise NotTheOwner(
            f"the data directory {data_dir} belongs to user {name}, and this command runs as "
            f"{_name_of(me)}: what it wrote could not be read by the daemon; run it as {name} "
            f"(e.g. `sudo -u {name} referee ...`), or as root, which acts as {name}")
    group = entry.pw_gid if entry is not None else info.st_gid
    if entry is not None:
        os.initgroups(entry.pw_name, group)
    else:
        os.setgroups([])
    os.setgid(group)
    os.setuid(info.st_uid)
    if entry is not None:
        os.environ["HOME"], os.environ["USER"], os.environ["LOGNAME"] = entry.pw_dir, name, name


def _name_of(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)
