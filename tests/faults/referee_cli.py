"""The `referee` command line with the test games installed, for tests that run it in a
process of its own: `python -m tests.faults.referee_cli serve`, `... adjudicate GAME`.

The race and simultaneous-phase test games join the installed real games, exactly as the
`race_registered` fixture does inside the test process. REFEREE_TEST_RETRY_SECONDS shortens
the outbox's first retry wait (30 s) so that a relay outage test needs seconds, not minutes.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta

from mailer.outbound import outbox
from referee import registry

from ..race import GAME as RACE
from ..service.simul import GAME as SIMUL


def with_test_games() -> dict:
    return {**registry.games(), "race": RACE, "simul": SIMUL}


def main() -> None:
    table = with_test_games()
    registry.games = lambda: dict(table)  # type: ignore[assignment]
    retry = os.environ.get("REFEREE_TEST_RETRY_SECONDS")
    if retry:
        outbox.BASE_DELAY = timedelta(seconds=float(retry))
    from commands.main import cli

    cli(args=sys.argv[1:], prog_name="referee")


if __name__ == "__main__":
    main()
