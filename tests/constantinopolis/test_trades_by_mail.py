"""Free trade through the service, as players mail it: a trade once accepted stays done
whatever either side sends next (issue: the offerer's next mail used to reverse it and cancel
the other player's set), the buyer loads what he bought in a later mail, and receipts say
what was already done or kept, in the player's language."""

from datetime import datetime, timezone

from games.constantinopolis import GAME
from mailer.daemon.wiring import build
from referee import registry
from referee.config import Settings
from referee.gamelog import replay_log, write_log

from ..deadlines.conftest import mails, text
from .util import at_accept, card, give_cards, give_goods, new, seat

NOW = datetime(2026, 3, 2, tzinfo=timezone.utc)


def game_at_accept(tmp_path):
    svc = build(Settings(hostname="games.test", data_dir=tmp_path), clock=lambda: NOW)
    svc.referee.new_game("constantinopolis", [(p, f"{p}@players.test") for p in ("ann", "bob", "cid")],
                         seed="trade", game_id="t1", options={"free_trade": True})
    st = at_accept(seat(new(("ann", "bob", "cid"), free_trade=True),
                        {"magister": "ann", "pretorio": "bob", "comes": "cid"}))
    give_goods(st, "ann", green=2)
    give_goods(st, "bob", green=3)
    green = card("green")
    give_cards(st, "bob", [green])
    with svc.store.transaction("t1") as tx:
        tx.set_state(st)
        tx.set_meta(steps=[])
    return svc, green


def holdings(svc, *players):
    state = svc.store.load("t1").state
    return {p: (state["p"][p]["gold"], state["p"][p]["goods"]["green"]) for p in players}


def test_the_offerers_next_mail_leaves_the_trade_done(tmp_path):
    svc, _ = game_at_accept(tmp_path)
    ref = svc.referee
    assert ref.submit("t1", "ann", "offer bob give 2 gold for 1 green").status == "accepted"
    assert ref.submit("t1", "bob", "accept 1").status == "accepted"
    assert holdings(svc, "ann", "bob") == {"ann": (28, 3), "bob": (32, 2)}
    done = ref.submit("t1", "ann", "done")
    assert done.status == "accepted", done.render()
    assert "no longer apply" not in done.render()
    assert holdings(svc, "ann", "bob") == {"ann": (28, 3), "bob": (32, 2)}
    # bob is not told his set was cancelled, and his accept is no answer to a missing offer
    assert not [m for m in mails(svc, to="bob@players.test") if "cancelled" in text(m)]
    again = ref.submit("t1", "bob", "accept 1\ndone")
    assert again.status == "accepted", again.render()
    body = " ".join(again.render().split())
    assert "Already done in this phase, so not carried out again: accept 1." in body
    assert holdings(svc, "ann", "bob") == {"ann": (28, 3), "bob": (32, 2)}


def test_the_buyer_loads_the_contract_he_bought_in_a_later_mail(tmp_path):
    svc, green = game_at_accept(tmp_path)
    ref = svc.referee
    assert ref.submit("t1", "ann", f"offer bob give 3 gold for contract {green}").status == "accepted"
    assert ref.submit("t1", "bob", "accept 1").status == "accepted"
    load = ref.submit("t1", "ann", f"load {green} on ship 1")
    assert load.status == "accepted", load.render()  # once: "contract N is not in your hand"
    state = svc.store.load("t1").state
    assert state["p"]["ann"]["ships"][0]["cargo"] == [green] and green not in state["p"]["bob"]["hand"]


def test_an_error_points_at_the_line_as_sent_when_a_line_already_done_is_left_out(tmp_path):
    svc, _ = game_at_accept(tmp_path)
    ref = svc.referee
    ref.submit("t1", "ann", "offer bob give 2 gold for 1 green")
    ref.submit("t1", "bob", "accept 1")
    bad = ref.submit("t1", "bob", "accept 1\nload 999 on ship 1")
    assert bad.status == "rejected"
    assert [e["line"] for e in bad.errors] == [2]


def test_what_paid_for_a_trade_is_kept_and_the_player_is_told_in_his_language(tmp_path):
    svc, _ = game_at_accept(tmp_path)
    ref = svc.referee
    ref.set_language("t1", "cid", "de")
    with svc.store.transaction("t1") as tx:  # cid has no gold: he pays with a sale
        state = tx.state
        state["p"]["cid"]["gold"] = 0
        give_goods(state, "cid", green=2)
        tx.set_state(state)
    assert ref.submit("t1", "cid", "sell 2 green\noffer bob give 2 gold for 1 green").status == "accepted"
    assert ref.submit("t1", "bob", "accept 1").status == "accepted"
    kept = ref.submit("t1", "cid", "done")
    assert kept.status == "accepted", kept.render()
    body = " ".join(kept.render().split())
    assert "Ein Teil deiner früheren Befehle bleibt bestehen" in body and "Bestehen bleibt: verkaufe 2 grün." in body
    assert "- verkaufe 2 grün" not in kept.render()  # not shown as taken out of the set: it stands
    state = svc.store.load("t1").state
    assert state["p"]["cid"]["gold"] == 0 and state["p"]["cid"]["goods"]["green"] == 1
    assert state["p"]["cid"]["r"]["ledger"]["green"] == -2
    # the others are not told
    assert not [m for who in ("ann", "bob") for m in mails(svc, to=f"{who}@players.test") if "Kept" in text(m)]


def test_a_game_record_with_trades_replays(tmp_path):
    """A game played by mail from its start: the record holds only the mails, and the trades,
    the orders kept for them and the lines left out as done follow from them in a replay."""
    svc = build(Settings(hostname="games.test", data_dir=tmp_path), clock=lambda: NOW)
    ref = svc.referee
    ref.new_game("constantinopolis", [(p, f"{p}@players.test") for p in ("ann", "bob", "cid")],
                 seed="case-trade-3", game_id="t2", options={"free_trade": True})
    mailed = [("bob", "stay"), ("cid", "stay"), ("ann", "stay"), ("bob", "done"), ("cid", "done"), ("ann", "done"),
              ("cid", "sell 2 green\noffer ann give 2 gold for contract 19"), ("ann", "accept 1"),
              ("cid", "load 19 on ship 1"), ("ann", "offer bob give 2 gold for 1 green"), ("bob", "accept 2"),
              ("ann", "done"), ("bob", "accept 2\nsell 1 green\ndone"), ("cid", "sell 2 green\nload 19 on ship 1\ndone")]
    for player, orders in mailed:
        receipt = ref.submit("t2", player, orders)
        assert receipt.status == "accepted", receipt.render()
    stored = svc.store.load("t2")
    assert GAME.phase(stored.state).round == 1 and stored.state["phase"] in ("donate", "store")
    assert stored.state["p"]["cid"]["ships"][0]["cargo"] == [19]
    record = write_log(stored.meta, stored.events, stored.state, reveal_seed=True)
    result = replay_log(record, registry.get)
    assert result.ok, result.message
