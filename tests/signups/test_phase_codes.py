"""The ORDERS block's tag is a short phase code a player can read (`d1-dock1-3`), not the
engine's key (`d1-setup.optional_dock-3`); a reply quoting a tag of either kind names its phase."""

from __future__ import annotations

import re

from .conftest import HOST
from .test_games_and_check import token_of
from .test_joining import last

PLAYERS = [("ann", "ann@p.test"), ("bob", "bob@p.test"), ("cid", "cid@p.test")]


def asked(world) -> str:
    return world.ref.status("p1")["waiting_for"][0]["player"]


def tag_of(world, player: str) -> str:
    body = last(world, f"{player}@p.test").get_body(("plain",)).get_content()
    return re.search(r"^ORDERS p1 (\S+)\s*$", body, re.MULTILINE).group(1)


def test_the_tag_is_a_short_code_and_old_tags_are_still_read(world):
    world.ref.new_game("porto-carthago", PLAYERS, game_id="p1", seed="s", options={"start_player": "ann"})
    first = asked(world)
    tag = tag_of(world, first)
    assert re.fullmatch(r"d1-dock1-\d+", tag), tag
    number = tag.rsplit("-", 1)[1]
    to = f"p1+{first}+{token_of(world, 'p1', first)}@{HOST}"
    # a reply written to a report of the version before codes: its tag is the engine's key
    world.mail(f"{first}@p.test", f"ORDERS p1 d1-setup.optional_dock-{number}\nPASS\nEND\n", to=to)
    assert asked(world) != first  # taken
    # the same old tag again, now for a phase that is closed: refused, in codes
    world.mail(f"{first}@p.test", f"ORDERS p1 d1-setup.optional_dock-{number}\nPASS\nEND\n", to=to)
    answer = last(world, f"{first}@p.test")
    now = world.ref.status("p1")["phase"]["key"]
    assert answer["Subject"] == f"[p1] Too late: phase {tag} is closed, d1-dock1-{now.rsplit('-', 1)[1]} is open"
    text = " ".join(answer.get_content().split())
    assert "setup.optional_dock" not in text and f"these orders are for phase {tag}" in text
