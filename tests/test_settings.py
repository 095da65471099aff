"""The sending and flood settings are checked when the settings are read."""

import pytest

from referee import config


@pytest.mark.parametrize("variable, value, needle", [
    ("REFEREE_RELAY_CONNECTIONS", "0", "relay_connections must be at least 1"),
    ("REFEREE_LIMITS_SPOOL_RESERVED_PERCENT", "101", "spool_reserved_percent must be between 0 and 100"),
    ("REFEREE_LIMITS_SPOOL_RESERVED_PERCENT", "-1", "spool_reserved_percent must be between 0 and 100"),
    ("REFEREE_LIMITS_REFUSALS_PER_SENDER_PER_HOUR", "-1", "refusals_per_sender_per_hour must be 0 or more"),
])
def test_out_of_range_values_are_refused_naming_the_setting(variable, value, needle):
    with pytest.raises(config.ConfigError, match=needle):
        config.load(environ={variable: value})


def test_the_defaults():
    settings = config.load(environ={})
    assert settings.relay_connections == 4
    assert settings.limits.spool_reserved_percent == 20 and settings.limits.refusals_per_sender_per_hour == 1
    assert config.load(environ={"REFEREE_RELAY_CONNECTIONS": "8"}).relay_connections == 8
