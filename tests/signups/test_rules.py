"""The pure rules of open games: seat ranges, start rules, limits, the seat order."""

from datetime import datetime, timedelta, timezone

import pytest

from referee.i18n.messages import say
from referee.signups import (FULL, SignupError, SignupLimits, limit_problem, new_record, parse_seats, parse_start,
                             seat_order, start_due)
from referee.timekeeping import to_iso

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def test_seat_ranges():
    assert parse_seats("3..5") == (3, 5) and parse_seats(" 2-4 ") == (2, 4) and parse_seats("4") == (4, 4)
    for bad in ("", "5..3", "0..2", "three", "2..", "1...3"):
        with pytest.raises(SignupError):
            parse_seats(bad)


def test_start_rules():
    assert parse_start(None, NOW) == FULL and parse_start("Full", NOW) == FULL
    assert parse_start("2026-03-05T18:00Z", NOW) == "2026-03-05T18:00:00Z"
    with pytest.raises(SignupError, match="already past"):
        parse_start("2026-03-01", NOW)
    with pytest.raises(SignupError, match="write 'full' or a date"):
        parse_start("soon", NOW)
    full, dated = new_record((2, 4), FULL, False, "English"), new_record((2, 4), "2026-03-05T18:00:00Z", False, "")
    assert not start_due(full, 3, NOW) and start_due(full, 4, NOW)
    later = NOW + timedelta(days=4)
    assert not start_due(dated, 3, NOW) and start_due(dated, 4, NOW)  # full: at once
    assert start_due(dated, 2, later) and not start_due(dated, 1, later)  # the date, with at least MIN


def test_limits_count_pending_sign_ups_and_requests_of_the_hour_whatever_the_letter_case():
    limits = SignupLimits(pending_per_address=2, per_address_per_hour=3)
    record = new_record((2, 4), FULL, False, "")
    record["pending"] = [{"email": "Eve@P.test", "at": to_iso(NOW)}, {"email": "eve@p.test", "at": to_iso(NOW)}]
    assert "2 sign-ups waiting" in say(limit_problem("EVE@p.test", [record], limits, NOW), "en")
    assert limit_problem("eve@p.test", [record], limits, NOW + timedelta(days=2)) is None  # lapsed
    record = dict(record, pending=[], requests=[{"email": "eve@p.test", "at": to_iso(NOW)}] * 3)
    assert "3 JOIN requests in the last hour" in say(limit_problem("eve@p.test", [record], limits, NOW), "en")
    assert limit_problem("eve@p.test", [record], limits, NOW + timedelta(hours=1)) is None


def test_the_seat_order_is_a_function_of_the_seed_alone():
    names = ["ann", "bob", "cid", "dee"]
    assert seat_order("s", names) == seat_order("s", names) and sorted(seat_order("s", names)) == names
    assert len({tuple(seat_order(str(n), names)) for n in range(50)}) > 10
