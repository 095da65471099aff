"""The daemon's log under a flood of strangers' mail: one line a minute with a count, not a
line per mail; every other mail still gets its own line."""

import logging

from mailer.daemon import worker
from mailer.daemon.handler import Handled
from mailer.repeated import RepeatedLog


def test_strangers_mail_is_logged_once_a_minute_with_a_count(caplog, monkeypatch):
    now = [0.0]
    strangers = RepeatedLog(worker.log, clock=lambda: now[0])
    monkeypatch.setattr(worker, "_strangers", strangers)
    monkeypatch.setattr(strangers, "_schedule", lambda: None)  # the test says when the minute is over
    caplog.set_level(logging.INFO, logger="referee.worker")
    for n in range(5000):
        worker.log_handled(Handled("unmatched", "no game and player token found; not answered: the sender is in "
                                   "no game", stranger=True))
    worker.log_handled(Handled("accepted", game="g1", player="ann", message_id="<m1@p.test>"))
    lines = [r for r in caplog.records if r.name == "referee.worker"]
    assert len(lines) == 2 and "mail <m1@p.test> accepted: g1 ann" in lines[1].getMessage()
    now[0] = 61.0
    strangers.flush()
    last = caplog.records[-1]
    assert last.levelno == logging.INFO and "(4999 more time(s) in the last 60 s)" in last.getMessage()
