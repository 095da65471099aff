"""A new set in a simultaneous phase when another player's set relied on the earlier one.

`MATCH ann` (tests/service/simul.py) only applies while ann has a pick, so it relies on ann's
set. When ann replaces her set, the replay without her earlier set makes that set void: it is
cancelled whole, its player is asked again and told why, and ann's new set goes through. Before
this rule ann's every new set was refused and she could not act until the deadline.
"""

from datetime import datetime, timezone

import pytest

from commands.moderation import describe
from mailer.daemon.wiring import build
from referee import registry
from referee.config import Settings
from referee.contract import IllegalOrder, OrderError
from referee.gamelog import replay_log, write_log
from referee.progress import DROP, Position
from referee.service import Submission

from ..deadlines.conftest import flat, mails, text
from .simul import GAME as SIMUL, Simul
from .conftest import each_mail

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def position(players=("ann", "bob", "cid")) -> Position:
    return Position.start(SIMUL, SIMUL.setup(list(players), "s", {}, SIMUL.load_components(None)))


def send(pos: Position, player: str, orders: str):
    return pos.submit(player, pos.read(player, orders))


def test_a_set_that_relied_on_the_replaced_one_is_cancelled_and_its_player_asked_again():
    pos = position(("ann", "bob"))
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann\nDONE")
    assert pos.waiting_for() == ["ann"]
    out = send(pos, "ann", "PICK 7")  # before the rule: refused, and so was every other set of ann's
    assert [(c.player, c.text, c.reason) for c in out.cancelled] == [
        ("bob", "MATCH ann\nDONE", "ann has no pick to match")]
    assert pos.waiting_for() == ["ann", "bob"]
    assert pos.state["picks"] == {"ann": 7} and [s.player for s in pos.steps] == ["ann"]
    public, private = [e for e in out.events if e.kind.startswith("orders.cancelled")]
    assert public.to is None and "bob's orders no longer apply after ann changed theirs" in public.text
    assert "ann has no pick" not in public.text  # the reason goes to bob only
    assert private.to == ("bob",) and "ann has no pick to match" in private.text
    assert "send your whole set of orders again" in private.text
    send(pos, "ann", "PICK 7\nDONE")
    assert send(pos, "bob", "MATCH ann\nDONE").resolved  # bob sends again and matches the new pick
    assert pos.state["score"] == {"ann": 1, "bob": 1}


def test_a_cancelled_part_takes_the_parts_that_relied_on_it_along():
    pos = position()
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann")
    send(pos, "cid", "MATCH bob\nDONE")
    out = send(pos, "ann", "PICK 2")
    assert [c.player for c in out.cancelled] == ["bob", "cid"]
    assert "bob has no pick to match" in out.cancelled[1].reason
    assert pos.waiting_for() == ["ann", "bob", "cid"] and pos.state["picks"] == {"ann": 2}


def test_sets_that_still_apply_stay_and_keep_their_place():
    pos = position()
    send(pos, "bob", "PICK 3")
    send(pos, "ann", "PICK 5")
    send(pos, "cid", "PICK 4\nDONE")
    out = send(pos, "ann", "PICK 6")
    assert out.cancelled == [] and not any(e.kind.startswith("orders.cancelled") for e in out.events)
    assert [s.player for s in pos.steps] == ["bob", "cid", "ann"]
    assert pos.state["picks"] == {"ann": 6, "bob": 3, "cid": 4}


def test_a_set_that_relied_on_the_earlier_one_is_cancelled_even_when_the_new_one_would_do():
    """The other sets are replayed before the new set: bob's MATCH finds no pick there, so it
    is cancelled although ann's new set offers the same pick (docs/service.md)."""
    pos = position(("ann", "bob"))
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann\nDONE")
    out = send(pos, "ann", "PICK 5")
    assert [c.player for c in out.cancelled] == ["bob"] and pos.waiting_for() == ["ann", "bob"]
    assert not send(pos, "bob", "MATCH ann\nDONE").cancelled  # the same set applies when sent again
    assert pos.state["picks"] == {"ann": 5, "bob": 5}


def test_a_rejected_new_set_cancels_nothing():
    pos = position(("ann", "bob"))
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann\nDONE")
    with pytest.raises(IllegalOrder):
        send(pos, "ann", "PICK 12")
    assert pos.state["picks"] == {"ann": 5, "bob": 5} and pos.waiting_for() == ["ann"]
    assert [s.player for s in pos.steps] == ["ann", "bob"]


def test_a_cancelled_player_the_phase_no_longer_asks_is_not_told_to_send_orders():
    """bob's set relied on ann's, then bob's seat was dropped: his set is cancelled with ann's
    change, but nothing he sends would be taken, so no line says he is asked."""
    pos = position()
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann")
    pos.submit("bob", [], DROP)
    out = send(pos, "ann", "PICK 7")
    assert [c.player for c in out.cancelled] == ["bob"] and out.reopened == []
    assert "bob" not in pos.waiting_for()
    public, private = [e for e in out.events if e.kind.startswith("orders.cancelled")]
    assert public.text.endswith("so they are cancelled; nothing more is asked of bob in this phase.")
    assert private.to == ("bob",) and "nothing more is asked of you" in private.text
    assert "asked for new orders" not in public.text and "send your whole set" not in private.text


class HostCloses(Simul):
    """Like Simul, but the first player's DONE closes the round for everyone, so one set can
    both cancel another player's set and close the phase."""

    name = "hostcloses"

    def apply(self, state, player, orders):
        new, events = super().apply(state, player, orders)
        if new["round"] == state["round"] and new["players"][0] in new["done"]:
            events += self._resolve(new)
        return new, events


def test_a_set_that_cancels_another_and_closes_the_phase_does_not_say_they_are_asked():
    game = HostCloses()
    pos = Position.start(game, game.setup(["ann", "bob", "cid"], "s", {}, game.load_components(None)))
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann\nDONE")
    out = send(pos, "ann", "PICK 7\nDONE")
    assert out.resolved and [c.player for c in out.cancelled] == ["bob"] and out.reopened == []
    assert pos.state["score"] == {"ann": 1, "bob": 0, "cid": 0}
    public, private = [e for e in out.events if e.kind.startswith("orders.cancelled")]
    assert public.text.endswith("so they are cancelled; the phase closed without them.")
    assert "None of them counted when the phase closed." in private.text
    assert "send your whole set" not in private.text


class DropAfterPick(Simul):
    """Like Simul, but only a player who has picked may be dropped."""

    def drop(self, state, player):
        if player not in state["picks"]:
            raise IllegalOrder(f"{player} has no pick")
        return super().drop(state, player)


def test_a_drop_that_no_longer_applies_is_not_taken_back():
    """A drop is the moderator's act, not a set, so it is never cancelled: the new set that would
    void it is refused, saying why."""
    game = DropAfterPick()
    pos = Position.start(game, game.setup(["ann", "bob", "cid"], "s", {}, game.load_components(None)))
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann")
    pos.submit("bob", [], DROP)
    with pytest.raises(OrderError, match="without your earlier set, the drop of bob no longer applies") as exc:
        send(pos, "ann", "PICK 7")
    assert exc.value.category.value == "illegal"
    assert pos.state["dropped"] == ["bob"] and pos.state["picks"] == {"ann": 5}


# -- through the service, with the mail it sends


@pytest.fixture
def svc(tmp_path, games):
    return build(Settings(hostname="games.test", data_dir=tmp_path / "var"), clock=lambda: NOW)


def new_game(svc, policy="standard"):
    svc.referee.new_game("simul", [(p, f"{p}@players.test") for p in ("ann", "bob", "cid")], seed="s",
                         game_id="s1", policy=policy)
    each_mail(svc.store, "s1")  # the notice of a reopened part is read as a mail of its own


def test_the_cancelled_player_is_mailed_at_once_and_the_record_replays(svc):
    new_game(svc)
    ref = svc.referee
    ref.submit("s1", "ann", "PICK 5")
    ref.submit("s1", "bob", "MATCH ann\nDONE")
    ref.submit("s1", "cid", "PICK 4")
    receipt = ref.submit("s1", "ann", "PICK 7\nDONE")
    assert receipt.status == "accepted"
    rendered = " ".join(receipt.render().split())
    assert "bob's orders no longer apply after ann changed theirs, so they are cancelled" in rendered
    assert "waiting for bob, cid" in rendered and "ann has no pick" not in rendered
    assert ref.status("s1")["phase"]["key"] == "r1"

    stored = svc.store.load("s1")
    event = stored.events[-1]
    assert event["cancelled"] == [{"player": "bob", "text": "MATCH ann\nDONE", "reason": "ann has no pick to match"}]
    assert describe(dict(event)).endswith("; cancelled bob's orders (ann has no pick to match)")
    assert [s["player"] for s in stored.meta["steps"]] == ["cid", "ann"]

    notice = mails(svc, to="bob@players.test", kind="notice")
    assert len(notice) == 1 and notice[0]["Subject"].startswith(
        "[s1] Your move again (your orders were cancelled): round 1, pick")
    body = text(notice[0]).replace("\r\n", "\n")
    assert "ann sent new orders for pick (round 1, phase r1)" in body
    assert "ann has no pick to match" in body and "  MATCH ann\n  DONE\n" in body
    assert "Send your whole set again" in body and "ORDERS s1 r1" in body
    assert not mails(svc, to="cid@players.test", kind="notice") and not mails(svc, to="ann@players.test", kind="notice")

    # bob's STATUS answer (his report so far) says it too, with the reason; cid's does not
    ref.request("s1", "bob", "status", token=None, in_reply_to=None, serial="st-bob")
    ref.request("s1", "cid", "status", token=None, in_reply_to=None, serial="st-cid")
    assert "ann has no pick to match" in flat(mails(svc, to="bob@players.test", kind="status")[-1])
    cid_status = flat(mails(svc, to="cid@players.test", kind="status")[-1])
    assert "bob's orders no longer apply" in cid_status and "ann has no pick" not in cid_status

    again = ref.submit("s1", "bob", "MATCH ann\nDONE")
    assert again.status == "accepted" and again.first_set
    ref.submit("s1", "cid", "PICK 4\nDONE")
    assert svc.store.load("s1").state["score"] == {"ann": 1, "bob": 1, "cid": 0}
    ref.adjudicate("s1")  # round 2 by default orders: the game ends
    stored = svc.store.load("s1")
    assert stored.meta["status"] == "finished"
    result = replay_log(write_log(stored.meta, stored.events, stored.state), registry.get)
    assert result.ok, result.message


def test_a_dropped_player_whose_set_is_cancelled_gets_no_notice(svc):
    new_game(svc)
    ref = svc.referee
    ref.submit("s1", "ann", "PICK 5")
    ref.submit("s1", "bob", "MATCH ann")
    ref.drop("s1", "bob")
    rendered = ref.submit("s1", "ann", "PICK 7").render()
    assert "bob's orders no longer apply after ann changed theirs, so they are cancelled; nothing more is " \
        "asked of bob in this phase." in " ".join(rendered.split())
    assert "asked for new orders" not in rendered
    assert not mails(svc, to="bob@players.test", kind="notice")


def test_a_set_that_cancels_another_and_closes_the_phase_sends_no_notice(svc, games):
    """The notice would carry the next phase's ORDERS block and ask for orders to a phase
    that is gone; bob hears of it in the new phase's report instead."""
    games["hostcloses"] = HostCloses()
    svc.referee.new_game("hostcloses", [(p, f"{p}@players.test") for p in ("ann", "bob", "cid")], seed="s",
                         game_id="s1", policy="standard")
    each_mail(svc.store, "s1")
    ref = svc.referee
    ref.submit("s1", "ann", "PICK 5")
    ref.submit("s1", "bob", "MATCH ann\nDONE")
    reports = len(mails(svc, to="bob@players.test", kind="report"))
    receipt = ref.submit("s1", "ann", "PICK 7\nDONE")
    assert receipt.status == "accepted" and receipt.next["resolved"]
    assert "so they are cancelled; the phase closed without them." in " ".join(receipt.render().split())
    assert not mails(svc, to="bob@players.test", kind="notice")
    report = mails(svc, to="bob@players.test", kind="report")
    assert len(report) == reports + 1
    body = flat(report[-1])
    assert "ann has no pick to match" in body and "ORDERS s1 r2" in body


def test_in_one_unit_of_work_a_later_accepted_set_makes_the_notice_stale(svc):
    """The mail worker submits a run of mails together: when bob's own new set follows the one
    that cancelled his, his receipt says what stands and a notice asking him again would be
    stale. A later set of his that is rejected leaves the notice due."""
    new_game(svc)
    ref = svc.referee
    ref.submit("s1", "ann", "PICK 5")
    ref.submit("s1", "bob", "MATCH ann\nDONE")
    ann, bob = ref.submit_many("s1", [Submission("ann", "PICK 7"), Submission("bob", "MATCH ann\nDONE")])
    assert ann.status == bob.status == "accepted" and "bob's orders no longer apply" in ann.render()
    assert svc.store.load("s1").events[-2]["cancelled"][0]["player"] == "bob"
    assert not mails(svc, to="bob@players.test", kind="notice")

    ann, bob = ref.submit_many("s1", [Submission("ann", "PICK 8"), Submission("bob", "PICK 12")])
    assert (ann.status, bob.status) == ("accepted", "rejected")
    notice = mails(svc, to="bob@players.test", kind="notice")
    assert len(notice) == 1 and notice[0]["Message-ID"] == f"<s1.notice.reopened-{ann.seq}.bob@games.test>"
    assert "ORDERS s1 r1" in text(notice[0])


def test_a_notice_whose_player_was_asked_again_later_in_the_unit_still_goes_out(svc):
    """bob's new set is accepted, then cancelled again within the same unit: the second notice
    is newer than his receipt and goes out; the first does not."""
    new_game(svc)
    ref = svc.referee
    ref.submit("s1", "ann", "PICK 5")
    ref.submit("s1", "bob", "MATCH ann\nDONE")
    receipts = ref.submit_many("s1", [Submission("ann", "PICK 7"), Submission("bob", "MATCH ann\nDONE"),
                                      Submission("ann", "PICK 6")])
    assert [r.status for r in receipts] == ["accepted"] * 3
    notice = mails(svc, to="bob@players.test", kind="notice")
    assert [m["Message-ID"] for m in notice] == [f"<s1.notice.reopened-{receipts[2].seq}.bob@games.test>"]


def test_with_early_resolution_off_a_set_that_cancels_another_is_not_held(svc):
    """Only a set that completes the phase waits for the deadline; one that reopens a player
    does not complete it."""
    new_game(svc, policy="tournament")
    ref = svc.referee
    ref.submit("s1", "ann", "PICK 5")
    ref.submit("s1", "bob", "MATCH ann\nDONE")
    ref.submit("s1", "cid", "PICK 4\nDONE")
    receipt = ref.submit("s1", "ann", "PICK 7\nDONE")
    assert receipt.status == "accepted" and receipt.next["waiting_for"] == ["bob"]
    assert svc.store.load("s1").events[-1]["type"] == "order"
    assert len(mails(svc, to="bob@players.test", kind="notice")) == 1


def test_undoing_the_new_set_brings_the_cancelled_set_back(svc):
    new_game(svc)
    ref = svc.referee
    ref.submit("s1", "ann", "PICK 5")
    kept = ref.submit("s1", "bob", "MATCH ann\nDONE").seq
    ref.submit("s1", "ann", "PICK 7")
    ref.undo("s1", kept, "ann's change came after the deadline she agreed")
    stored = svc.store.load("s1")
    assert stored.state["picks"] == {"ann": 5, "bob": 5}
    assert [w["player"] for w in ref.status("s1")["waiting_for"]] == ["ann", "cid"]
    assert [s["player"] for s in stored.meta["steps"]] == ["ann", "bob"]


def test_after_an_undo_every_player_gets_the_position_as_it_now_stands(svc):
    """An undo can bring back a set its player had replaced or lost; whoever it touches must
    hear of it, so every player gets a report, asked or not."""
    new_game(svc)
    ref = svc.referee
    ref.submit("s1", "ann", "PICK 5")
    kept = ref.submit("s1", "bob", "MATCH ann\nDONE").seq
    ref.submit("s1", "ann", "PICK 7")
    ref.submit("s1", "bob", "PICK 9\nDONE")  # bob sent a new set after his was cancelled
    before = {p: len(mails(svc, to=f"{p}@players.test", kind="report")) for p in ("ann", "bob", "cid")}
    ref.undo("s1", kept, "ann's change came after the deadline she agreed")
    after = {p: len(mails(svc, to=f"{p}@players.test", kind="report")) for p in ("ann", "bob", "cid")}
    assert all(after[p] == before[p] + 1 for p in before), (before, after)
    assert svc.store.load("s1").state["picks"]["bob"] == 5  # his matched pick is back
