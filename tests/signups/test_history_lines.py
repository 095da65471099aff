"""`referee history`: one line per event for the moderator, and every line names every player
the event is about, from the first sign-up to the last deadline."""

from __future__ import annotations

from datetime import datetime, timedelta

from commands.moderation import describe
from referee.timekeeping import from_iso

NAMED = ("player", "name")  # an event's fields that hold one player's name
LISTED = ("players", "waiting_for")  # and those that hold several


def names(event: dict) -> set[str]:
    out = {str(event[key]) for key in NAMED if event.get(key)}
    for key in LISTED:
        out.update(str(n) for n in event.get(key) or [])
    for cancelled in event.get("cancelled") or []:
        out.add(cancelled["player"])
    return out


def due(world) -> datetime:
    return from_iso(world.svc.store.load("r1").meta["schedule"]["due"])


def test_every_line_names_the_players_of_its_event(world):
    ref, clock = world.ref, world.clock
    ref.open_game("simul", "3..3", game_id="r1", policy="tournament", approve=True,
                 options={"rounds": 3})
    for who in ("ann", "bob", "dan"):
        world.mail(f"{who}@p.test", f"JOIN r1 {who}")
    ref.decline("r1", "dan", "the table is full of friends")
    ref.approve("r1", "ann")
    world.mail("eve@p.test", "JOIN r1 eve")
    ref.approve("r1", "eve")
    ref.leave("r1", "eve", token=next(s["token"] for s in world.svc.store.load("r1").meta["seats"]
                                      if s["name"] == "eve"))
    ref.approve("r1", "bob")
    world.mail("cat@p.test", "JOIN r1 cat")
    ref.approve("r1", "cat")  # the third seat: the game starts
    assert world.svc.store.load("r1").meta["status"] == "active"
    ref.set_timezone("r1", "ann", "Europe/Berlin")
    ref.set_language("r1", "bob", "de")
    ref.set_notify("r1", "cat", "digest 7:15")
    ref.vacation("r1", "bob", "3d")
    ref.vacation("r1", "bob", "off")
    ref.policy_set("r1", ["escalation.after=3"], "a friendly table")
    ref.submit("r1", "ann", "PICK 3\nDONE")
    ref.submit("r1", "bob", "PICK 5")
    ref.extend("r1", "6h", "a holiday")
    ref.pause("r1", "the server moves")
    ref.resume("r1", "moved")
    clock.now = due(world) - timedelta(minutes=30)
    ref.tick()  # the reminders
    clock.now = due(world) + timedelta(minutes=1)
    ref.tick()  # the deadline: cat's default orders
    ref.adjudicate("r1")
    ref.replace("r1", "cat", "cathy@p.test")
    ref.drop("r1", "bob")
    events = ref.history("r1")
    ref.undo("r1", events[-1]["seq"] - 1, "bob asked to stay")
    ref.submit("r1", "ann", "PICK 9\nDONE")
    ref.submit("r1", "bob", "PICK 1\nDONE")
    ref.submit("r1", "cat", "PICK 2\nDONE")

    clock.now = due(world) + timedelta(minutes=1)
    ref.tick()  # the last round's orders were held for the deadline: the game ends

    events = ref.history("r1")
    seen = {e["type"] for e in events}
    assert {"created", "declined", "seated", "left", "started", "timezone", "language", "notify", "vacation",
            "policy", "order", "default", "extend", "pause", "resume", "reminder", "deadline", "adjudicate",
            "replace", "drop", "undo", "finished"} <= seen
    for event in events:
        line = describe(event)
        assert line != event["type"], f"an event told only by its kind: {event}"
        missing = [n for n in names(event) if n not in line]
        assert not missing, f"{line!r} does not name {missing} ({event['type']})"
    assert "join" not in seen  # a request to join is no event of the game (referee/service/signing_up.py)
    lines = {e["type"]: describe(e) for e in events}
    # a game recorded before that still shows its requests, naming who asked
    assert describe({"type": "join", "name": "cat", "email": "cat@p.test"}) == "cat asked for a seat from <cat@p.test>"
    assert lines["seated"].startswith("cat seated <cat@p.test>")
    assert lines["started"].startswith("game started; seat order ")
    assert lines["notify"].startswith("cat mail setting set to digest at 07:15")
    assert "ranking 1. " in lines["finished"]


def test_an_event_of_a_newer_version_still_names_its_players():
    assert describe({"type": "bounced", "player": "ann"}) == "bounced (ann)"
    assert describe({"type": "regrouped", "players": ["ann", "bob"]}) == "regrouped (ann, bob)"
    assert describe({"type": "adjudicate", "phase": "t1", "waiting_for": []}).endswith("(waiting for nobody)")
