"""Open games joined by mail through the worker: LIST, JOIN and its confirmation, approval,
LEAVE, the start drawn from the seed, and every refusal, each answered in words."""

from __future__ import annotations

from referee.rng import verify_commitment
from referee.signups import seat_order
from referee.store import TinyDBStore

from .conftest import HOST, confirmation_code

REFEREE = f"referee@{HOST}"


def join(world, who: str, game: str = "r1", name: str | None = None) -> None:
    """`who` asks for a seat and answers the confirmation mail."""
    address = f"{who}@p.test"
    world.mail(address, f"JOIN {game} {name or who}")
    world.mail(address, "yes, me", to=f"referee+{confirmation_code(world, address)}@{HOST}", subject="Re: confirm")


def last(world, address: str):
    mails = world.sent(address)
    assert mails, f"nothing was sent to {address}"
    return mails[-1]


def seats(world, game: str = "r1") -> list[str]:
    return [s["name"] for s in world.svc.store.load(game).meta["seats"]]


def test_list_by_mail_and_cli_show_seats_start_rule_preset_and_language(world):
    world.ref.open_game("race", "2..4", game_id="r1", policy="casual", language="Deutsch")
    world.ref.open_game("race", "2..3", game_id="r2", starts_when="2026-03-09T18:00Z", approve=True)
    world.ref.new_game("race", [("a", "a@p.test"), ("b", "b@p.test")], game_id="g1")
    join(world, "ann")
    world.mail("zoe@p.test", "LIST")
    text = last(world, "zoe@p.test").get_content()
    assert "r1: Race to the Target, 1 of 4 seats taken, 3 free (at least 2 to play)" in text
    assert "deadlines: casual; language: Deutsch" in text
    assert "r2: Race to the Target, 0 of 3 seats taken" in text and "the moderator approves each player" in text
    assert "starts at Mon 9 Mar 2026 18:00 UTC with at least 2 players" in text
    assert "g1: " not in text
    rows = {g["id"]: g for g in world.ref.open_games()}
    assert set(rows) == {"r1", "r2"} and rows["r1"]["taken"] == 1 and rows["r1"]["free"] == 3


def test_join_takes_the_seat_only_when_the_address_replies(world):
    world.ref.open_game("race", "2..3", game_id="r1")
    world.mail("ann@p.test", "JOIN r1 Ann")
    mail = last(world, "ann@p.test")
    assert mail["Subject"] == "[r1] Confirm your sign-up as ann"
    assert seats(world) == []
    code = confirmation_code(world, "ann@p.test")
    world.mail("ann@p.test", "ok", to=f"referee+{code}@{HOST}")
    assert seats(world) == ["ann"]
    seated = last(world, "ann@p.test")
    assert seated["Subject"] == "[r1] You have a seat as ann" and seated["Reply-To"].startswith("r1+ann+")
    # the same reply processed again changes nothing and seats nobody twice
    world.mail("ann@p.test", "ok", to=f"referee+{code}@{HOST}")
    assert seats(world) == ["ann"]


def test_confirm_by_a_line_to_the_plain_address(world):
    world.ref.open_game("race", "2..3", game_id="r1")
    world.mail("bob@p.test", "JOIN r1")
    world.mail("bob@p.test", f"CONFIRM {confirmation_code(world, 'bob@p.test')}")
    assert seats(world) == ["bob"]


def test_a_forged_from_is_never_seated(world):
    """Mallory writes JOIN with Frank's address as From: the code goes to Frank, who does not
    answer; Mallory's guesses at the code are refused, and Frank holds no seat."""
    world.ref.open_game("race", "2..3", game_id="r1")
    world.mail("frank@p.test", "JOIN r1 frank")
    assert last(world, "frank@p.test")["Subject"] == "[r1] Confirm your sign-up as frank"
    world.mail("mallory@evil.test", "CONFIRM aaaaaaaaaaaaaaaa")
    world.mail("mallory@evil.test", "yes", to=f"referee+bbbbbbbbbbbbbbbb@{HOST}")
    assert "no sign-up waits for this code" in last(world, "mallory@evil.test").get_content()
    assert seats(world) == []
    assert world.ref.signups("r1")["pending"][0]["email"] == "frank@p.test"
    world.clock.move(days=2, minutes=1)  # the request lapses
    assert world.ref.signups("r1")["pending"] == []


def test_the_game_starts_when_full_with_the_seat_order_drawn_from_its_seed(world):
    made = world.ref.open_game("race", "2..3", game_id="r1", seed="seats please", options={"target": 30})
    for who in ("ann", "bob", "cid"):
        join(world, who)
    meta = world.svc.store.load("r1").meta
    assert meta["status"] == "active"
    assert meta["players"] == seat_order("seats please", ["ann", "bob", "cid"])
    assert verify_commitment("seats please", made.commitment) and meta["commitment"] == made.commitment
    started = [e for e in world.svc.store.load("r1").events if e["type"] == "started"]
    assert started and started[0]["commitment"] == made.commitment
    for who in ("ann", "bob", "cid"):
        report = last(world, f"{who}@p.test")
        seat = next(s for s in meta["seats"] if s["name"] == who)
        body = report.get_body(("plain",)).get_content()
        assert report["Reply-To"] == f"r1+{who}+{seat['token']}@{HOST}"
        assert f"PLAYER {who} {seat['token']}" in body and made.commitment in body
        assert f"Race to the Target r1 for {who}: round 0" in body  # the first report
    asked = meta["players"][0]
    assert "ORDERS r1" in last(world, f"{asked}@p.test").get_body(("plain",)).get_content()


def test_refusals_unknown_started_full_name_taken_bad_name(world):
    world.ref.open_game("race", "2..2", game_id="r1")
    world.ref.open_game("race", "2..3", game_id="r2", starts_when="2026-03-03T09:00Z")
    world.ref.new_game("race", [("a", "a@p.test"), ("b", "b@p.test")], game_id="g1")
    world.mail("zoe@p.test", "JOIN nosuch")
    assert "there is no game 'nosuch' here" in last(world, "zoe@p.test").get_content()
    world.mail("zoe@p.test", "JOIN g1")
    assert "g1 has already started" in last(world, "zoe@p.test").get_content()
    join(world, "ann", "r2")
    world.mail("zoe@p.test", "JOIN r2 ann")
    assert "the name 'ann' is taken in r2" in last(world, "zoe@p.test").get_content()
    world.mail("zoe@p.test", "JOIN r2 -x")
    assert ("the name '-x' cannot be a player's: a name is one word of letters, digits, '_' and '-', starting with a "
            "letter or digit, of at most") in " ".join(last(world, "zoe@p.test").get_content().split())
    world.mail("zoe@p.test", "JOIN r2 " + "z" * 60)
    assert "is too long" in last(world, "zoe@p.test").get_content()
    for reserved in ("referee", "Moderator", "postmaster"):
        world.mail("zoe@p.test", f"JOIN r2 {reserved}")
        assert f"the name '{reserved.lower()}' is kept for the referee's own mail" in \
            " ".join(last(world, "zoe@p.test").get_content().split())
    world.mail("referee@elsewhere.test", "JOIN r2")  # the name from the address: as reserved
    assert "kept for the referee's own mail" in " ".join(last(world, "referee@elsewhere.test").get_content().split())
    join(world, "ann", "r1")
    join(world, "bob", "r1")  # two of two: it starts
    world.mail("zoe@p.test", "JOIN r1")
    text = last(world, "zoe@p.test").get_content()
    assert "r1 is full: all 2 seats were taken" in text and "Nothing was changed" in text
    join(world, "bob", "r2")
    world.clock.move(days=2)
    world.svc.tick()  # its date has come with two of three seats taken
    assert world.svc.store.load("r2").meta["status"] == "active"
    world.mail("zoe@p.test", "JOIN r2")
    assert "r2 has already started" in last(world, "zoe@p.test").get_content()
    assert "zoe" not in seats(world, "r1") + seats(world, "r2")


def test_a_second_reply_for_the_last_seat_finds_the_game_full(world):
    world.ref.open_game("race", "2..2", game_id="r1")
    for who in ("ann", "bob", "cid"):
        world.mail(f"{who}@p.test", "JOIN r1")
    codes = {who: confirmation_code(world, f"{who}@p.test") for who in ("ann", "bob", "cid")}
    for who in ("ann", "bob", "cid"):
        world.mail(f"{who}@p.test", "ok", to=f"referee+{codes[who]}@{HOST}")
    assert sorted(seats(world)) == ["ann", "bob"]
    said = " ".join(last(world, "cid@p.test").get_content().split())
    assert "r1 is full: all 2 seats were taken and the game has started" in said


def test_limits_on_pending_sign_ups_and_requests_per_hour(world):
    for n in range(1, 7):
        world.ref.open_game("race", "2..4", game_id=f"r{n}")
    for n in (1, 2, 3):
        world.mail("eve@p.test", f"JOIN r{n}")
    world.mail("eve@p.test", "JOIN r4")
    assert "already has 3 sign-ups waiting" in last(world, "eve@p.test").get_content()
    assert [len(world.ref.signups(f"r{n}")["pending"]) for n in range(1, 6)] == [1, 1, 1, 0, 0]  # nothing kept
    # confirmed ones free their place; the requests of the hour still count
    for n in (1, 2, 3):
        code = [m["Reply-To"] for m in world.sent("eve@p.test") if f"[r{n}] Confirm" in m["Subject"]][0]
        world.mail("eve@p.test", "ok", to=code)
    world.mail("eve@p.test", "JOIN r4")
    world.mail("eve@p.test", "JOIN r5")
    world.mail("eve@p.test", "JOIN r6")
    assert "sent 5 JOIN requests in the last hour" in " ".join(last(world, "eve@p.test").get_content().split())
    world.clock.move(hours=1, minutes=1)
    world.mail("eve@p.test", "JOIN r6")
    assert last(world, "eve@p.test")["Subject"] == "[r6] Confirm your sign-up as eve"


def test_approval_by_the_moderator(world):
    world.ref.open_game("race", "2..3", game_id="r1", approve=True)
    world.mail("ann@p.test", "JOIN r1")
    world.mail("bob@p.test", "JOIN r1")
    answer = last(world, "ann@p.test")
    assert answer["Subject"] == "[r1] Sign-up received: the moderator decides"
    assert not (answer["Reply-To"] or "").startswith("referee+")  # no code: a reply seats nobody
    assert seats(world) == []
    world.ref.approve("r1", "ann")
    world.ref.decline("r1", "bob", "table is for the club")
    assert seats(world) == ["ann"]
    assert "table is for the club" in last(world, "bob@p.test").get_content()
    assert world.ref.signups("r1")["pending"] == []


def test_leave_before_the_start_by_the_seat_address_only(world):
    world.ref.open_game("race", "2..3", game_id="r1")
    join(world, "ann")
    join(world, "bob")
    # LEAVE to the referee's address with ann's From: ann's registered address is asked
    world.mail("ann@p.test", "LEAVE r1")
    ask = last(world, "ann@p.test")
    assert ask["Subject"] == "[r1] To leave, reply LEAVE" and seats(world) == ["ann", "bob"]
    world.mail("ann@p.test", "LEAVE", to=ask["Reply-To"])
    assert seats(world) == ["bob"]
    assert last(world, "ann@p.test")["Subject"] == "[r1] You left the game"
    join(world, "cid")
    join(world, "dee")
    assert world.svc.store.load("r1").meta["status"] == "active"
    bob = next(s for s in world.svc.store.load("r1").meta["seats"] if s["name"] == "bob")
    world.mail("bob@p.test", "LEAVE", to=f"r1+bob+{bob['token']}@{HOST}")
    assert "r1 has started; a seat can only be left before the start" in last(world, "bob@p.test").get_content()
    assert "bob" in seats(world)


def test_orders_and_status_to_an_open_game_are_refused_in_words(world):
    world.ref.open_game("race", "2..3", game_id="r1")
    join(world, "ann")
    token = world.svc.store.load("r1").meta["seats"][0]["token"]
    world.mail("ann@p.test", "ADD 1", to=f"r1+ann+{token}@{HOST}")
    assert "r1 has not started yet" in last(world, "ann@p.test").get_content()
    world.mail("ann@p.test", "STATUS", to=f"r1+ann+{token}@{HOST}")
    assert "r1 has not started yet: 1 of 3 seats are taken" in last(world, "ann@p.test").get_content()


def test_sign_ups_survive_a_restart(world, tmp_path):
    """Pending sign-ups and seats are in the game's file: a worker built afresh on the same
    data directory (a daemon restarted after a crash) carries on."""
    world.ref.open_game("race", "2..2", game_id="r1")
    join(world, "ann")
    world.mail("bob@p.test", "JOIN r1")
    code = confirmation_code(world, "bob@p.test")
    from mailer.daemon.wiring import build
    again = build(world.svc.settings, clock=world.clock)
    again.spool.add(f"Delivered-To: referee+{code}@{HOST}\r\nFrom: bob@p.test\r\nTo: referee+{code}@{HOST}\r\n"
                    f"Message-ID: <r@p.test>\r\nSubject: ok\r\n\r\nyes\r\n".encode())
    again.worker().run_once(again.spool)
    assert TinyDBStore(world.svc.settings.data_dir).load("r1").meta["status"] == "active"


def test_join_processed_twice_is_one_sign_up(world):
    world.ref.open_game("race", "2..3", game_id="r1")
    world.ref.join("r1", "ann@p.test", "ann", message_id="<same@p.test>")
    world.ref.join("r1", "ann@p.test", "ann", message_id="<same@p.test>")
    assert len(world.ref.signups("r1")["pending"]) == 1


def test_unknown_command_to_the_referee_gets_the_list_of_commands(world):
    world.mail("zoe@p.test", "hello there")
    text = " ".join(last(world, "zoe@p.test").get_content().split())
    assert "no command the referee knows: the first line of the mail, or else its subject, must begin" in text
    assert "JOIN <game id> [NAME]" in text


def test_a_command_written_wrongly_is_told_the_rule_of_its_form(world):
    """Each refusal of the desk names the rule the mail breaks; a name of several words is
    told what a name may be, with the name it could have been."""
    world.ref.open_game("constantinopolis", "2..4", game_id="constantinopolis-1")
    world.mail("carla@p.test", "JOIN constantinopolis-1 Carla M.")
    text = " ".join(last(world, "carla@p.test").get_content().split())
    assert "was not understood" not in text
    assert ("A name is one word, and 'Carla M.' is 2 words. A name may hold letters, digits, '_' and '-', must start "
            "with a letter or digit, and may have at most 28 characters in this game: for instance JOIN "
            "constantinopolis-1 carla_m.") in text
    world.mail("carla@p.test", "JOIN constantinopolis-1 carla_m")
    assert "Confirm your sign-up as carla_m" in last(world, "carla@p.test")["Subject"]
    for mail, rule in (("LIST all", "LIST takes nothing after it: write LIST alone."),
                       ("GAMES now", "GAMES takes nothing after it: write GAMES alone."),
                       ("CONFIRM", "CONFIRM takes one word after it, the code of your confirmation mail"),
                       ("LEAVE", "LEAVE takes one word after it, the id of the game whose seat you give up."),
                       ("JOIN", "JOIN needs the id of the game after it (LIST shows the games open for sign-ups)")):
        world.mail("zoe@p.test", mail)
        assert rule in " ".join(last(world, "zoe@p.test").get_content().split()), mail
    world.mail("zoe@p.test", "ANMELDEN constantinopolis-1 Zoe Z")  # in German, the game's rule in German
    assert "Ein Name ist ein Wort" in " ".join(last(world, "zoe@p.test").get_content().split())


def test_before_the_start_moderator_commands_refuse_and_after_it_the_record_replays(world):
    from click.testing import CliRunner

    from commands.main import cli
    world.ref.open_game("race", "2..2", game_id="r1", options={"target": 5})
    runner = CliRunner()
    data = str(world.svc.settings.data_dir)

    def run(*args):
        return runner.invoke(cli, ["--data-dir", data, *args])

    for args in (["show", "r1"], ["log", "r1"], ["adjudicate", "r1"], ["undo", "r1", "--to", "1", "--reason", "x"]):
        done = run(*args)
        assert done.exit_code == 1 and "has not started yet" in done.output, (args, done.output)
    status = run("status", "r1", "--json")
    assert status.exit_code == 0 and '"status": "open"' in status.output
    status = run("status", "r1")
    assert status.exit_code == 0 and "Waiting for players: 0 of 2 seats taken" in status.output
    join(world, "ann")
    join(world, "bob")
    first = world.svc.store.load("r1").meta["players"][0]
    world.ref.submit("r1", first, "ADD 2")
    undone = run("undo", "r1", "--to", "2", "--reason", "x")
    assert undone.exit_code == 1 and "an undo goes back to its start at most" in undone.output
    log = world.svc.settings.data_dir / "r1.log"
    log.write_text(run("log", "r1").output)
    assert run("replay", str(log), "--seed", world.svc.store.load("r1").meta["seed"]).exit_code == 0


def test_answers_from_the_referee_address_are_bounded_per_address_and_hour(world):
    for _ in range(12):
        world.mail("victim@p.test", "LIST")
    assert len(world.sent("victim@p.test")) == 10  # limits.desk_answers_per_address_per_hour
    world.clock.move(hours=1)
    world.mail("victim@p.test", "LIST")
    assert len(world.sent("victim@p.test")) == 11


def test_refusals_of_the_moderator_and_of_a_second_seat(world):
    import pytest

    from referee.service import ServiceError
    world.ref.open_game("race", "2..3", game_id="r1")
    world.ref.open_game("race", "2..3", game_id="r2", approve=True)
    join(world, "ann")
    world.mail("ann@p.test", "JOIN r1 anne")
    assert ("this address already has a seat in r1, and an address holds one seat a game"
            in " ".join(last(world, "ann@p.test").get_content().split()))
    with pytest.raises(ServiceError, match="players who confirm by mail; there is nothing to approve"):
        world.ref.approve("r1", "ann")
    with pytest.raises(ServiceError, match="no such sign-up waits in r2"):
        world.ref.approve("r2", "nobody")
    with pytest.raises(ServiceError, match="no sign-up as 'nobody' waits in r2"):
        world.ref.decline("r2", "nobody")
    world.mail("ann@p.test", "LEAVE r2")
    assert "this address holds no seat in r2" in last(world, "ann@p.test").get_content()
    with pytest.raises(ServiceError, match="there is no game"):
        world.ref.join("r9", "x@p.test")
