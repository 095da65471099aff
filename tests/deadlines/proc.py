"""The `referee` command in a child process with the test games installed:
`python -m tests.deadlines.proc ARGS...` (run from the repository root)."""

import sys

from referee import registry
from tests.race import GAME as RACE
from tests.service.simul import GAME as SIMUL


def main() -> None:
    table = {**registry.games(), "race": RACE, "simul": SIMUL}
    registry.games = lambda: table
    from commands.main import cli

    cli(args=sys.argv[1:], prog_name="referee")


if __name__ == "__main__":
    main()
