"""The `referee` command as any user of the machine can run it, for tests that run it as
another user than root (the data directory's owner, Postfix's pipe).

The test's own interpreter may live where only root can read (a version manager under /root);
the script then runs the system's Python 3.11 on the same installed packages, which the
project's own files and the virtual environment leave readable by all."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readable_by_all(path: Path) -> bool:
    """Whether any user can reach and run `path`: every directory above it lets others in."""
    path = path.resolve()
    return all(p.stat().st_mode & 0o001 for p in path.parents) and bool(path.stat().st_mode & 0o005)


def python_for_all() -> str:
    own = Path(sys.executable)
    if readable_by_all(own):
        return str(own)
    for candidate in ("python3.11", "python3"):
        found = shutil.which(candidate, path="/usr/bin:/usr/local/bin:/bin")
        if found and readable_by_all(Path(found)):
            return found
    raise RuntimeError("no Python 3.11 that every user may run (the tests run the referee as another user)")


def referee_script(where: Path) -> Path:
    """An executable `referee` in `where` that any user can run."""
    script = where / "referee"
    packages = sysconfig.get_paths()["purelib"]
    paths = os.pathsep.join([str(ROOT), packages])
    script.write_text(f"#!{python_for_all()}\n"
                      "import os, site, sys\n"
                      f"site.addsitedir({packages!r})\n"
                      f"sys.path.insert(0, {str(ROOT)!r})\n"
                      f"os.environ['PYTHONPATH'] = {paths!r}  # for the processes it starts (the daemon's)\n"
                      "from commands.main import main\n"
                      "sys.argv[0] = 'referee'\n"
                      "main()\n", encoding="utf-8")
    script.chmod(0o755)
    os.chmod(where, os.stat(where).st_mode | 0o005)
    return script
