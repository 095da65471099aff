"""Marks the test suite's runs go by (pyproject.toml names them):

- `long`: takes minutes; started first, so that a parallel run does not end on it.
- `slow`: the bulk of a property test over many random games, a whole game by mail or a
  whole game of computer players;
  `make test-quick` leaves these out, `make test` and CI run them.
"""

from __future__ import annotations

import pytest

slow = pytest.mark.slow


def chunks(count: int) -> list:
    """The chunks of a property test: the first one in the quick run too, the others slow."""
    return [pytest.param(n, marks=() if n == 0 else slow) for n in range(count)]


# The test files whose tests spend most of their time waiting on other processes or the
# clock: a daemon killed and started again, Postfix's queue, a relay away, mutt, an SMTP
# child, a relay that hangs. A parallel run gives them all to one worker, one after another,
# while the other workers keep the processors busy (tests/conftest.py): handed out with the
# rest, several came to wait at once (the long ones at the start, mutt's near the end) and
# left a processor idle for about a minute of processor time in all.
WAITING = ("tests/faults/test_kill.py", "tests/faults/test_relay_outage.py", "tests/mailer/daemon/test_postfix.py",
           "tests/mailer/inbound/replies/test_mutt.py", "tests/mailer/inbound/test_ingest_process.py",
           "tests/mailer/daemon/test_daemon_sender.py", "tests/mailer/outbound/test_sending.py")
