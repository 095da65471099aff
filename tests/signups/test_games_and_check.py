"""GAMES at the referee's address and CHECK in front of orders, by mail and on the CLI."""

from __future__ import annotations

from click.testing import CliRunner

from commands.main import cli

from .conftest import HOST
from .test_joining import join, last


def token_of(world, game: str, player: str) -> str:
    return next(s["token"] for s in world.svc.store.load(game).meta["seats"] if s["name"] == player)


def test_games_lists_every_game_of_the_address_in_its_time_zone(world):
    world.ref.new_game("race", [("ann", "Ann@P.test"), ("bob", "bob@p.test")], game_id="g1",
                       timezones={"ann": "Europe/Berlin"})
    world.ref.new_game("race", [("bob", "bob@p.test"), ("ann", "ann@p.test")], game_id="g2")
    world.ref.new_game("race", [("cid", "cid@p.test"), ("dee", "dee@p.test")], game_id="g3")
    world.ref.open_game("race", "2..3", game_id="r1")
    join(world, "ann")
    world.mail("ann@p.test", "GAMES")
    answer = last(world, "Ann@P.test")
    text = answer.get_content()
    assert answer["To"] == "Ann@P.test"  # the registered address, as it is stored
    g1, g2 = text.split("g1: ")[1].split("g2: ")[0], text.split("g2: ")[1].split("r1: ")[0]
    assert "you play ann" in g1 and "your orders are asked for" in g1 and "CET" in g1
    assert f"g1+ann+{token_of(world, 'g1', 'ann')}@{HOST}" in g1
    assert "nothing is asked of you now" in g2 and "deadline" not in g2
    assert "r1: Race to the Target, you play ann" in text and "not started: 1 of 3 seats taken" in text
    assert "g3: " not in text  # (a reply address's token may hold the letters g3)


def test_games_from_an_address_that_plays_nothing(world):
    world.mail("nobody@p.test", "GAMES")
    assert "holds a seat in no game here" in last(world, "nobody@p.test").get_content()


def test_check_by_mail_answers_the_receipt_and_changes_nothing(world):
    world.ref.new_game("race", [("ann", "ann@p.test"), ("bob", "bob@p.test")], game_id="g1", seed="s")
    path = world.svc.store.path("g1")
    before = path.read_bytes()
    to = f"g1+ann+{token_of(world, 'g1', 'ann')}@{HOST}"
    world.mail("ann@p.test", "CHECK\nADD 2", to=to)
    answer = last(world, "ann@p.test")
    assert answer["Subject"] == "[g1] Checked, not sent: your orders would be accepted"
    assert "nothing was sent and the game is unchanged" in answer.get_content()
    assert "Understood as:\r\n  ADD 2" in answer.get_content()
    world.mail("ann@p.test", "ADD 9", to=to, subject="Re: CHECK")
    answer = last(world, "ann@p.test")
    assert answer["Subject"] == "[g1] Checked, not sent: your orders would NOT be accepted"
    assert "Errors:" in answer.get_content()
    world.mail("ann@p.test", "CHECK\n\nORDERS g1\nADD 1\nEND\n", to=to)
    assert "ADD 1" in last(world, "ann@p.test").get_content()
    assert path.read_bytes() == before  # not a byte written to the game
    assert world.ref.status("g1")["waiting_for"][0]["player"] == "ann"


def test_a_reply_to_the_check_with_the_corrected_orders_plays_them(world):
    """The answer comes from the game's address with the player's reply address, and its
    subject is no CHECK: replying to it with the corrected orders sends them to the game."""
    world.ref.new_game("race", [("ann", "ann@p.test"), ("bob", "bob@p.test")], game_id="g1", seed="s")
    to = f"g1+ann+{token_of(world, 'g1', 'ann')}@{HOST}"
    world.mail("ann@p.test", "CHECK\nADD 9", to=to)
    answer = last(world, "ann@p.test")
    assert answer["From"] == f"Referee <g1@{HOST}>" and answer["Reply-To"] == to
    assert "reply to this mail with them (without CHECK)" in " ".join(answer.get_content().split())
    quoted = "\n".join("> " + line for line in answer.get_content().splitlines())
    world.mail("ann@p.test", f"ADD 2\n\nOn Monday the referee wrote:\n{quoted}\n", to=answer["Reply-To"],
               subject=f"Re: {answer['Subject']}")
    assert world.ref.status("g1")["waiting_for"][0]["player"] == "bob"  # ann's ADD 2 was played


def test_check_lists_every_problem_of_every_line_at_once(world):
    """An invalid line and an illegal one in the same mail: both in the first answer, each on
    the line the player wrote it, whatever the comments and blank lines above."""
    world.ref.new_game("race", [("ann", "ann@p.test"), ("bob", "bob@p.test")], game_id="g1", seed="s")
    to = f"g1+ann+{token_of(world, 'g1', 'ann')}@{HOST}"
    world.mail("ann@p.test", "CHECK\n# my turn\n\nADD 9\nFROB\n", to=to)
    text = " ".join(last(world, "ann@p.test").get_content().split())
    assert 'line 3 [illegal] "ADD 9": you may add' in text
    assert 'line 4 [invalid] "FROB": expected ADD <n>' in text
    assert text.index("line 3") < text.index("line 4")


def test_a_rejected_order_is_named_on_its_own_line(world):
    """An error of `apply` is on the line its order was written, not on the order's place
    among the orders (the comments of a pre-filled block come first)."""
    world.ref.new_game("constantinopolis", [("ann", "ann@p.test"), ("bob", "bob@p.test"), ("cy", "cy@p.test")],
                       game_id="c1", seed="s")
    asked = world.ref.status("c1")["waiting_for"][0]["player"]
    to = f"c1+{asked}+{token_of(world, 'c1', asked)}@{HOST}"
    world.mail(f"{asked}@p.test", "# my orders\n\nbid comes 99\n", to=to)
    answer = last(world, f"{asked}@p.test")
    assert 'line 3 [illegal] "bid comes 99": you have only 30 gold' in " ".join(answer.get_content().split())
    assert answer["Reply-To"] == to  # a reply with the corrected orders goes to the game


def test_check_with_a_wrong_token_is_refused_like_any_unmatched_mail(world):
    world.ref.new_game("race", [("ann", "ann@p.test"), ("bob", "bob@p.test")], game_id="g1")
    world.mail("ann@p.test", "CHECK\nADD 2", to=f"g1+ann+wrongtoken0000000@{HOST}")
    assert "could not be matched to a player" in last(world, "ann@p.test").get_content()


def test_check_on_the_command_line(world):
    world.ref.new_game("race", [("ann", "ann@p.test"), ("bob", "bob@p.test")], game_id="g1")
    path = world.svc.store.path("g1")
    before = path.read_bytes()
    runner = CliRunner()
    data = str(world.svc.settings.data_dir)
    good = runner.invoke(cli, ["--data-dir", data, "orders", "g1", "ann", "--check"], input="ADD 3\n")
    assert good.exit_code == 0 and "CHECK only" in good.output and "Orders accepted" in good.output
    bad = runner.invoke(cli, ["--data-dir", data, "orders", "g1", "bob", "--check"], input="ADD 1\n")
    assert bad.exit_code == 1 and "nothing is asked of bob" in bad.output
    assert path.read_bytes() == before
    listed = runner.invoke(cli, ["--data-dir", data, "list", "--open"])
    assert listed.exit_code == 0 and "No game is open" in listed.output


def test_check_of_the_set_that_would_end_the_game_ends_nothing(world):
    """The check runs the whole step, resolution included, in a unit of work thrown away:
    no finished hook runs, no report is queued."""
    world.ref.new_game("race", [("ann", "ann@p.test"), ("bob", "bob@p.test")], game_id="g1",
                       options={"target": 3})
    ended: list[str] = []
    world.ref.finished_hooks.append(ended.append)
    receipt = world.ref.check("g1", "ann", "ADD 3")
    assert receipt.status == "accepted" and receipt.next["finished"]
    assert ended == [] and world.ref.status("g1")["result"] is None


def test_check_above_a_quoted_report_reads_the_lines_added_to_its_orders_block(world):
    """A reply that says CHECK above the quoted report, the order typed into the quoted ORDERS
    block: read as orders are, by comparing the block with the one sent."""
    world.ref.new_game("race", [("ann", "ann@p.test"), ("bob", "bob@p.test")], game_id="g1", seed="s")
    before = world.svc.store.path("g1").read_bytes()
    report = last(world, "ann@p.test")
    text = report.get_body(("plain",)).get_content().replace("\r\n", "\n")
    head, block = text.split("ORDERS g1", 1)
    edited = head + "ORDERS g1" + block.replace("\n", "\nADD 2\n", 1)
    quoted = "\n".join("> " + line if line else ">" for line in edited.rstrip("\n").split("\n"))
    world.svc.spool.add(
        (f"Delivered-To: {report['Reply-To']}\r\nFrom: ann@p.test\r\nTo: {report['Reply-To']}\r\n"
         f"Subject: Re: {report['Subject']}\r\nMessage-ID: <q1@p.test>\r\nIn-Reply-To: {report['Message-ID']}\r\n"
         f"References: {report['Message-ID']}\r\n\r\nCHECK\r\n\r\nOn Monday the referee wrote:\r\n"
         + quoted.replace("\n", "\r\n") + "\r\n").encode())
    world.worker.run_once(world.svc.spool)
    answer = last(world, "ann@p.test")
    assert answer["Subject"] == "[g1] Checked, not sent: your orders would be accepted", answer.get_content()
    assert "Understood as:\r\n  ADD 2" in answer.get_content()
    assert world.svc.store.path("g1").read_bytes() == before


def test_new_open_on_the_command_line_checks_everything_first(world):
    runner = CliRunner()
    data = str(world.svc.settings.data_dir)

    def run(*args):
        return runner.invoke(cli, ["--data-dir", data, *args])

    made = run("new", "race", "--open", "--seats", "2..3", "--starts-when", "2099-04-01T18:00Z", "--approve",
               "--language", "Italiano", "--id", "club")
    assert made.exit_code == 0 and "players join by mail with JOIN club" in made.output
    listed = run("list", "--open")
    assert "club" in listed.output and "0 of 3 taken, 3 free" in listed.output and "Italiano; approval" in listed.output
    for args, why in ((["--open", "--seats", "2..3", "--player", "a:a@p.test"], "give no --player"),
                      (["--seats", "2..3", "--player", "a:a@p.test", "--player", "b:b@p.test"], "go with --open"),
                      (["--open"], "--open needs --seats"),
                      (["--open", "--seats", "3..1"], "not above the most"),
                      (["--open", "--seats", "2..9"], "takes 2-4 players, not 2..9"),
                      (["--open", "--seats", "2..3", "--starts-when", "2020-01-01"], "already past"),
                      (["--open", "--seats", "2..3", "--id", "referee"], "the referee's own address"),
                      (["--open", "--seats", "2..3", "--language", "Deutsch\nfree beer: JOIN x"], "no line breaks"),
                      (["--open", "--seats", "2..3", "--language", "x" * 41], "at most 40 characters")):
        done = run("new", "race", *args)
        assert done.exit_code == 2 and why in done.output, (args, done.output)
    shown = run("signups", "show", "club")
    assert shown.exit_code == 0 and "the moderator approves each player" in shown.output


def test_check_of_a_plan_says_which_step_the_position_as_it_stands_takes(world):
    """A plan checked while its player is asked: the answer names the alternative that would
    be played now (the first one is not legal, the second is), and the plan for later
    decisions is echoed; the game file is not touched."""
    world.ref.new_game("constantinopolis", [("ann", "ann@p.test"), ("bob", "bob@p.test"), ("cy", "cy@p.test")],
                       game_id="c1", seed="s")
    asked = world.ref.status("c1")["waiting_for"][0]["player"]
    before = world.svc.store.path("c1").read_bytes()
    to = f"c1+{asked}+{token_of(world, 'c1', asked)}@{HOST}"
    world.mail(f"{asked}@p.test", "CHECK\nauction: bid comes 99 or bid comes 1 up to 3\n"
               "construction: build Textrinum or Figulina if available", to=to)
    text = last(world, f"{asked}@p.test").get_content()
    assert "Your plan plays 'bid comes 1 up to 3'" in text
    assert "passed over: 'bid comes 99': you have only" in " ".join(text.split())  # why the first was not taken
    assert "build Textrinum or Figulina, if available" in text
    assert world.svc.store.path("c1").read_bytes() == before
