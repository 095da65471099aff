"""The test suite's wall time from a fresh clone: `make test` in a new clone of the committed
tree (so the figure includes creating .venv and installing the project, as a newcomer's first
run does; the system packages are expected installed already). Target: at most 6 minutes on a
two-core machine.

Not one of `make bench`'s scripts (it runs the whole suite, minutes on its own). Run:
`.venv/bin/python bench/suite_time.py [PYTEST_ARGS...]`, e.g. `--durations=30` to see the
slowest tests as well. The load average before and after is printed with the figure: on a
shared machine other work slows the suite, and the figure is only comparable under like load.
The processor time of the run (user+sys of make and everything it started) is printed too: it
changes less with other work on the machine, and it is what the suite is bound by on two cores.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 360


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main(args: list[str]) -> int:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="referee-suite-") as tmp:
        # readable by others, as a checkout is: the Postfix test runs the referee as `nobody`
        # from the clone (a temporary directory is private, and there it found no module)
        os.chmod(tmp, 0o755)
        clone = Path(tmp) / "referee"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        print(f"make test in a fresh clone of {commit}; load average before: {load()}", flush=True)
        started, cpu = time.monotonic(), _children_cpu()
        run = subprocess.run(["make", "test", f"PYTEST_ARGS={' '.join(args)}"], cwd=clone, capture_output=True,
                             text=True)
        seconds, cpu = time.monotonic() - started, _children_cpu() - cpu
        print(run.stdout[-6000:], end="")
        if run.returncode:
            print(run.stderr[-3000:], end="", file=sys.stderr)
    summary = re.findall(r"^=*\s*(\d+ (?:passed|failed).*?)\s*=*$", run.stdout, re.M)
    print(f"load average after: {load()}")
    print(f"suite: {summary[-1] if summary else 'no summary line'}; exit status {run.returncode}; "
          f"processor time {cpu:.0f} s (user+sys)")
    ok = run.returncode == 0 and seconds <= TARGET_SECONDS
    print(f"  target: make test from a fresh clone = {seconds:.0f} s, at most {TARGET_SECONDS} s "
          f"(and every test passing): {'PASS' if ok else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
