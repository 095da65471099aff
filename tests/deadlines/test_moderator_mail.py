"""Moderator actions reach people: `replace` welcomes the new player with their reply address,
token and the game as it stands, and mail still queued for the former player (with its dead
token) is not sent; an undo and default orders (at a deadline, or by `adjudicate`) are told
to every player at the top of their next report, with the reason."""

from email.message import EmailMessage

from .conftest import events, flat, mails, race, simul, text

HOST = "games.test"


def queued(svc, game_id):
    with svc.store.transaction(game_id) as tx:
        return tx.records("outbox")


def test_replace_welcomes_the_new_player_and_drops_mail_for_the_old_token(svc):
    tokens = race(svc)
    old_reply = f"race-1+ann+{tokens['ann']}@{HOST}"
    assert [r["status"] for r in queued(svc, "race-1") if old_reply in (r["raw"] or "")] == ["pending"]
    done = svc.referee.replace("race-1", "ann", "carol@players.test")
    assert len(done["dropped"]) == 1 and done["warning"] is None
    records = {r["message_id"]: r for r in queued(svc, "race-1")}
    (dropped,) = done["dropped"]
    assert records[dropped]["status"] == "dropped" and records[dropped]["raw"] is None
    assert "the seat went to <carol@players.test>" in records[dropped]["last_error"]
    assert dropped not in {r["message_id"] for r in svc.outbox.pending()}  # `referee outbox` leaves it out

    (welcome,) = [m for m in mails(svc, kind="welcome")]
    assert welcome["To"] == "carol@players.test"
    assert welcome["Subject"] == "[race-1] Your move: you now play ann, round 0, add (by Wed 4 Mar 09:00 UTC)"
    new_reply = f"race-1+ann+{done['token']}@{HOST}"
    assert welcome["Reply-To"] == new_reply
    body = text(welcome)
    assert f"PLAYER ann {done['token']}" in body and new_reply in body
    assert "YOUR MOVE: add to the total" in body and "ORDERS race-1 t0" in body  # the report as it stands
    history = [e for e in events(svc, "race-1", "replace")]
    assert history[0]["dropped"] == [dropped]

    # the new player answers the welcome: their orders count
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "carol@players.test", new_reply, "Re: welcome"
    msg["Message-ID"] = "<c1@players.test>"
    msg.set_content("ADD 3\n")
    svc.spool.add(f"Delivered-To: {new_reply}\r\n".encode() + bytes(msg))
    assert [h.outcome for h in svc.worker().run_once(svc.spool)] == ["accepted"]
    delivered_to = {r["to"] for r in queued(svc, "race-1") if r["status"] != "dropped"}
    svc.send()
    assert not [r for r in queued(svc, "race-1") if r["status"] == "pending"]
    assert {r["to"] for r in queued(svc, "race-1") if r["status"] == "sent"} == delivered_to
    assert "ann@players.test" not in delivered_to


def test_replace_from_the_command_line_says_what_happened(cli_run):
    made = cli_run("new", "race", "--player", "ann:ann@players.test", "--player", "bob:bob@players.test",
                   "--id", "r1")
    assert made.exit_code == 0
    result = cli_run("replace", "r1", "ann", "--email", "carol@players.test")
    assert result.exit_code == 0
    assert "A welcome with the reply address and the game as it stands is mailed to <carol@players.test>." \
        in result.output
    assert "1 mail(s) still queued for the former player will not be sent." in result.output
    history = cli_run("history", "r1")
    assert "ann replaced (new address and token; welcome mailed); 1 mail(s) queued for the former player not sent" \
        in history.output


def test_an_undo_is_told_to_every_player_with_its_reason(svc):
    tokens = race(svc)
    svc.referee.submit("race-1", "ann", "ADD 1", token=tokens["ann"])
    svc.referee.submit("race-1", "bob", "ADD 2", token=tokens["bob"])
    svc.referee.undo("race-1", 2, "bob's order was typed by his cat")
    for player in ("ann", "bob"):
        last = mails(svc, to=f"{player}@players.test", kind="report")[-1]
        body = flat(last)
        assert "The moderator took the game back to just after event 2 of its history: 1 later event " \
               "no longer counts." in body
        assert "Reason given: bob's order was typed by his cat" in body
        # what is asked opens the mail; what the moderator did follows at once
        assert body.index("YOUR MOVE" if player == "bob" else "Nothing is asked of you") < body.index("Reason given")
    assert not svc.store.load("race-1").meta["notices"]  # told: nothing waits


def test_defaults_at_a_deadline_are_told_to_everyone_and_what_was_played_to_the_player(svc, clock):
    race(svc)  # standard: 2d deadline, 1h grace; ann is asked first
    clock.advance(days=2, hours=1, minutes=1)
    assert [a.action for a in svc.tick()] == ["defaults"]
    why = "The deadline of phase t0 (Wed 4 Mar 2026 09:00 UTC) passed without their orders, so default orders " \
          "were played for ann."
    ann, bob = (flat(mails(svc, to=f"{p}@players.test", kind="report")[-1]) for p in ("ann", "bob"))
    assert why in ann and why in bob
    assert "Played for you: ADD 1." in ann and "Played for you" not in bob


def test_defaults_in_a_simultaneous_phase_tell_only_each_player_their_own(svc, clock):
    simul(svc)
    svc.referee.submit("simul-1", "ann", "PICK 1\nDONE")
    clock.advance(days=3)
    actions = svc.tick()
    assert [a.action for a in actions] == ["defaults"]
    played = {p for a in actions for p in a.players}
    for player in ("ann", "bob", "cid"):
        body = flat(mails(svc, to=f"{player}@players.test", kind="report")[-1])
        assert "so default orders were played for " + ", ".join(sorted(played)) in body
        assert ("Played for you:" in body) == (player in played)


def test_adjudicate_tells_whose_orders_were_defaults(svc):
    race(svc)
    svc.referee.adjudicate("race-1")
    body = flat(mails(svc, to="bob@players.test", kind="report")[-1])
    assert "The moderator closed phase t0 without waiting any longer, so default orders were played for ann." in body
