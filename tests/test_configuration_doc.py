"""docs/configuration.md lists every setting with its real default and variable names, so the
reference cannot drift from referee/config.py."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from referee import config
from referee.config import Limits, Settings

DOC = Path(__file__).resolve().parents[1] / "docs" / "configuration.md"
ROW = re.compile(r"^\| `([a-z_.]+)` \|")


def toml_value(value) -> str:
    """A default as it is written in a TOML file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return '"' + str(value) + '"'


def expected_rows() -> dict[str, str]:
    """`key -> "| `key` | `default` | `ENV` |"` for every setting, from the dataclasses."""
    rows = {}
    defaults = Settings()
    for f in fields(Settings):
        if f.name == "limits":
            continue
        env = config.ENV_PREFIX + f.name.upper()
        rows[f.name] = f"| `{f.name}` | `{toml_value(getattr(defaults, f.name))}` | `{env}` |"
    for f in fields(Limits):
        key = f"limits.{f.name}"
        env = f"{config.ENV_PREFIX}LIMITS_{f.name.upper()}"
        rows[key] = f"| `{key}` | `{toml_value(getattr(defaults.limits, f.name))}` | `{env}` |"
    return rows


def documented() -> dict[str, str]:
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match and "`REFEREE_" in line:
            rows[match.group(1)] = line
    return rows


def test_every_setting_is_documented_with_its_default_and_variable():
    expected, found = expected_rows(), documented()
    wrong = [row for key, row in expected.items() if not found.get(key, "").startswith(row)]
    assert not wrong, "docs/configuration.md needs these rows (then a description):\n" + "\n".join(wrong)


def test_the_reference_lists_no_setting_that_does_not_exist():
    assert sorted(set(documented()) - set(expected_rows())) == []


def test_the_complete_example_file_is_valid_and_names_every_setting(tmp_path):
    text = DOC.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "referee.toml"
    path.write_text(example, encoding="utf-8")
    loaded = config.load(path, environ={})
    assert loaded.hostname == "games.example.org" and loaded.relay == "smtp://127.0.0.1:25"
    keys = {line.split("=")[0].strip() for line in example.splitlines() if "=" in line}
    assert keys == {f.name for f in fields(Settings) if f.name != "limits"} | {f.name for f in fields(Limits)}
