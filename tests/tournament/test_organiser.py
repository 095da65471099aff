"""The organiser over real games: making rounds, refusing what cannot work (and making
nothing), dropping players, mailing standings, and the command line."""

from __future__ import annotations

import email
import json
import os
from email import policy

import pytest
from click.testing import CliRunner

from commands.main import cli
from referee.errors import BadRequest, ServiceError
from referee.tournament.roster import Entry

from .conftest import finish, finish_round, roster
from ..marks import slow


def files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and not p.name.endswith(".lock"))


def standings_mails(svc, to=None):
    rows = [r for r in svc.system_outbox.pending(include_sent=True) if "Standings" in r["subject"]
            or "Final standings" in r["subject"]]
    return [r for r in rows if to is None or r["to"] == to]


def test_bad_input_is_refused_with_every_problem_and_nothing_is_made(svc, tmp_path):
    data = tmp_path / "data"
    before = files(data)
    with pytest.raises(BadRequest) as caught:
        svc.tournaments.create("Spring Cup", "constantinopolis", roster(3) + [Entry("ann", "other@club.test")],
                               rounds=0, table_size="6", scoring="golf", policy_set=["deadline=soon"],
                               options={"colour": "red"})
    problems = caught.value.problems
    assert any(p.startswith("bad tournament name 'Spring Cup'") for p in problems)
    assert "--rounds must be from 1 to 50, not 0" in problems
    assert "table size '6' is not one the game allows: it takes 2-5 players a table" in problems
    assert "player name 'ann' is given 2 times in the roster (letter case is ignored)" in problems
    assert any(p.startswith("unknown scoring 'golf'") for p in problems)
    assert any(p.startswith("deadline=soon:") for p in problems)
    assert any("has no option 'colour'" in p for p in problems)
    with pytest.raises(BadRequest, match="Unknown game type 'constantinople'. Did you mean 'constantinopolis'"):
        svc.tournaments.create("cup", "constantinople", roster(8), rounds=2, table_size="4")
    with pytest.raises(BadRequest, match="the roster has 3 player.*3 player.* too few: a table needs at least 4"):
        svc.tournaments.create("cup", "constantinopolis", roster(3), rounds=2, table_size="4")
    with pytest.raises(BadRequest, match="the roster has 9 player.*9 players cannot be seated at tables of 4"):
        svc.tournaments.create("cup", "constantinopolis", roster(9), rounds=2, table_size="4")
    with pytest.raises(BadRequest, match="table size .2. is not one the game allows: it takes 3-5 players"):
        svc.tournaments.create("cup", "porto-carthago", roster(8), rounds=2, table_size="2")
    assert files(data) == before  # no tournament file, no game


@slow
def test_a_tournament_from_roster_to_final_with_a_drop(svc):
    org = svc.tournaments
    made = org.create("cup", "constantinopolis", roster(12), rounds=3, table_size="3-4", seed="cup",
                      options={"dropout": "true"})
    tables = made.round.tables
    assert [len(x.seats) for x in tables] == [4, 4, 4]
    assert [x.game for x in tables] == ["cup-r1-t1", "cup-r1-t2", "cup-r1-t3"]
    for table in tables:  # each game made with its players, its derived seed and its commitment published
        status = svc.referee.status(table.game)
        assert status["players"] == table.seats and status["commitment"] == table.commitment
    assert all(len(r["subject"]) for r in svc.outbox.pending())  # everyone's first report is queued

    with pytest.raises(ServiceError) as caught:
        org.next_round("cup")
    assert "round 1 of cup is still being played: cup-r1-t1 (round 1, " in str(caught.value)
    assert "waiting for" in str(caught.value) and "cup-r1-t3" in str(caught.value)
    assert org.tournament("cup").rounds[-1].number == 1  # nothing made

    finish_round(svc, "cup")
    mails = standings_mails(svc)
    assert len(mails) == 12 and {m["to"] for m in mails} == {e.email for e in roster(12)}
    assert all(m["subject"] == "[cup] Standings after round 1" for m in mails)

    second = org.next_round("cup").round
    assert second.number == 2 and [len(x.seats) for x in second.tables] == [4, 4, 4]
    # the player leaves their game under Constantinopolis's own rule (the dropout option)
    victim = second.tables[0].seats[1]
    done = org.drop("cup", victim)
    assert done["how"] == "left" and "left cup-r2-t1 under the game's own rule" in done["note"]
    with pytest.raises(ServiceError, match="already dropped out"):
        org.drop("cup", victim)
    finish_round(svc, "cup")
    _, standings = org.standings("cup")
    row = next(r for r in standings.rows if r.name == victim)
    assert row.dropped == {"after": 2, "game": "cup-r2-t1", "how": "left"} and row.games == 2
    assert row.places[1] == "4th"  # last at the table they left, with no points for it
    assert len(standings_mails(svc)) == 24

    with pytest.raises(BadRequest, match="a final of 6 needs|this game takes 2-5 players, not 6"):
        org.next_round("cup", final=6)
    final = org.next_round("cup", final=4).round
    assert final.kind == "final" and len(final.tables) == 1 and victim not in final.tables[0].seats
    leaders = [r.name for r in standings.rows if r.name != victim][:4]
    assert sorted(final.tables[0].seats) == sorted(leaders)
    finish(svc, final.tables[0].game)
    t, standings = org.standings("cup")
    assert t.complete and t.seed_revealed
    ranking = t.rounds[-1].tables[0].result["ranking"]
    place = {p: n for n, group in enumerate(ranking, 1) for p in group}
    top = standings.rows[:4]
    assert {r.name for r in top} == set(place) and [place[r.name] for r in top] == sorted(place.values())
    last = standings_mails(svc, "ann@club.test")[-1]
    body = email.message_from_bytes(last["raw"].encode(), policy=policy.default).get_body(("plain",)).get_content()
    assert last["subject"] == "[cup] Final standings" and "seed is revealed: cup." in body.replace("\r\n", " ")
    assert f"{victim} dropped out in round 2: left cup-r2-t1 under the game's own rule." in body
    with pytest.raises(ServiceError, match="cup is over"):
        org.next_round("cup")


def test_a_player_whose_game_has_no_drop_rule_keeps_their_seat_on_default_orders(svc):
    org = svc.tournaments
    org.create("pc", "porto-carthago", roster(8), rounds=2, table_size="4", seed="pc")
    done = org.drop("pc", "ann")
    assert done["how"] == "defaults" and "plays default orders at each deadline" in done["note"]
    finish_round(svc, "pc")
    t, standings = org.standings("pc")
    assert next(r for r in standings.rows if r.name == "ann").games == 1  # the result counts
    nxt = org.next_round("pc", table_size="3-4").round  # seven players left
    assert sorted(len(x.seats) for x in nxt.tables) == [3, 4]
    assert "ann" not in {p for x in nxt.tables for p in x.seats}


def test_ratings_carry_over_to_the_next_tournament(svc):
    org = svc.tournaments
    org.create("one", "constantinopolis", roster(4), rounds=1, table_size="4", seed="one")
    finish_round(svc, "one")
    _, first = org.standings("one")
    made = org.create("two", "constantinopolis", roster(4), rounds=1, table_size="4", seed="two")
    start = {p.name: (p.mu, p.rated_from) for p in made.tournament.players}
    for row in first.rows:
        assert start[row.name] == (pytest.approx(row.mu), "history")


def test_the_command_line(tmp_path, monkeypatch):
    data = tmp_path / "data"
    path = tmp_path / "roster.csv"
    path.write_text("name,email,rating\n" + "".join(f"{e.name},{e.email},{20 + i}\n"
                                                     for i, e in enumerate(roster(8))))
    runner = CliRunner()

    def run(*args):
        return runner.invoke(cli, ["--data-dir", str(data), *args], catch_exceptions=False)

    made = run("tournament", "new", "club", "--game", "constantinopolis", "--roster", str(path), "--rounds", "2",
               "--table-size", "4", "--seed", "club", "--json")
    assert made.exit_code == 0, made.output
    first = json.loads(made.stdout)["round"]
    # round one by rating: the two best (hal 27, gus 26) head different tables
    assert [x["seats"][0] for x in first["tables"]] != [] and {"hal", "gus"} <= {
        p for x in first["tables"] for p in x["seats"][:4]}
    assert not {"hal", "gus"} <= set(first["tables"][0]["seats"])
    again = run("tournament", "new", "club", "--game", "constantinopolis", "--roster", str(path))
    assert again.exit_code == 2 and "a tournament 'club' already exists" in again.stderr
    bad = tmp_path / "bad.csv"
    bad.write_text("name,email\nann,ann@x.test\nann,bob@x.test\n")
    refused = run("tournament", "new", "other", "--game", "constantinopolis", "--roster", str(bad))
    assert refused.exit_code == 2 and "roster: player name 'ann' is given 2 times" in refused.stderr
    busy = run("tournament", "next")
    assert busy.exit_code == 1 and "still being played" in busy.stderr
    from .conftest import make_services
    svc = make_services(data)
    finish_round(svc, "club")
    shown = run("tournament", "standings")
    assert shown.exit_code == 0 and "club (Constantinopolis): standings after round 1 of 2" in shown.stdout
    as_csv = run("tournament", "standings", "club", "--csv")
    assert as_csv.stdout.splitlines()[0].startswith("rank,shared,name,points,score,head_to_head,games,rating")
    page = tmp_path / "page.html"
    done = run("tournament", "standings", "club", "--html", str(page), "--json")
    assert json.loads(done.stdout)["rounds_played"] == 1
    html = page.read_text()
    assert "data:text/plain;charset=utf-8;base64," in html and 'name="viewport"' in html
    assert "http://" not in html and "https://" not in html and "<link" not in html and "<script" not in html
    assert run("tournament", "next", "club").exit_code == 0
    status = run("tournament", "status", "club")
    assert "club-r2-t1" in status.stdout and "playing" in status.stdout
    assert run("tournament", "list").stdout.startswith("club ")
    nothing = run("tournament", "standings", "nope")
    assert nothing.exit_code == 1 and "no tournament 'nope'" in nothing.stderr


def test_a_roster_time_zone_is_in_the_players_first_report(svc):
    entries = [Entry(e.name, e.email, timezone=None if e.name == "dee" else "Europe/Rome") for e in roster(4)]
    made = svc.tournaments.create("tz", "constantinopolis", entries, rounds=1, table_size="4", seed="tz")
    game = made.round.tables[0].game
    seats = {s["name"]: s for s in svc.referee.load(game).meta["seats"]}
    assert seats["ann"]["timezone"] == "Europe/Rome" and "timezone" not in seats["dee"]
    asked = svc.referee.status(game)["waiting_for"][0]["player"]
    first = next(r for r in svc.outbox.pending() if r["game"] == game and r["to"] == f"{asked}@club.test")
    with svc.store.transaction(game) as tx:
        raw = tx.find_record("outbox", "message_id", first["message_id"])["raw"]
    text = email.message_from_string(raw, policy=policy.default).get_body(("plain",)).get_content()
    assert "CEST (" in text  # the deadline in the player's own time (Rome, in May) from the first mail


def test_a_tournaments_table_talk_options_go_to_every_game(svc):
    with pytest.raises(BadRequest, match="press must be one of none, public, private"):
        svc.tournaments.create("loud", "constantinopolis", roster(4), rounds=1, table_size="4",
                               options={"press": "loud"})
    made = svc.tournaments.create("quiet", "constantinopolis", roster(4), rounds=1, table_size="4", seed="q",
                                  options={"press": "public", "press_in_archive": "none"})
    meta = svc.referee.load(made.round.tables[0].game).meta
    assert meta["press"] == {"press": "public", "press_in_archive": "none", "press_after_end": False}
    assert "press" not in meta["options"]
