"""A player's move is told once: a mail that opens with the receipt of their orders, or that
follows the receipt sent alone, does not tell it again in "Since your last mail". Of the steps
the receipt confirms, the player's own events that say no more than the orders did
(`echo_events`: taking talents, ending a turn) are left out, and everything else stays: what
the others did, what the orders caused (the goods a refill drew, a price), and the same move
to a player who had no receipt of it."""

from __future__ import annotations

from games.porto_carthago import GAME as PORTO
from mailer.outbound.folding import confirmed_steps, player_news
from mailer.outbound.reports import report_context, render_report
from referee.contract import Order, echo_kinds
from referee.receipts import Receipt
from tests.deadlines.conftest import clock, flat, mails, svc  # noqa: F401  (fixtures)
from tests.service.conftest import games  # noqa: F401  (the fixture svc asks for)

PLAYERS = ["ann", "bob", "cid"]


def _action_turn():
    """The first action turn of a Porto Carthago game: who has it, and the position."""
    state = PORTO.setup(PLAYERS, "echo", {o.name: o.default for o in PORTO.options}, PORTO.load_components(None))
    while (prompt := PORTO.prompts(state)[0]).decision != "action.main":
        state, _ = PORTO.apply(state, prompt.player, PORTO.default_orders(state, prompt.player))
    return prompt.player, state


def _record(seq: int, events) -> dict:
    return {"seq": seq, "events": [e.to_json() for e in events]}


def test_the_receipt_says_the_move_and_the_news_what_it_caused_and_what_others_did():
    player, state = _action_turn()
    state, took = PORTO.apply(state, player, [Order("talents")])
    other = PORTO.prompts(state)[0].player
    _, refilled = PORTO.apply(state, other, [Order("refill")])
    records = [_record(7, took), _record(8, refilled)]
    echoes = echo_kinds(PORTO)
    assert [e.kind for e in took] == ["talents"] and "talents" in echoes
    told = [e.text for e in player_news(records, player, 0, {7}, echoes)]
    assert told == [e.text for e in refilled]  # the other's refill and the goods it drew
    assert f"{other} refills the market: " in told[0]
    # without the receipt in the same mail, or to another reader, the move is told
    assert [e.text for e in player_news(records, player, 0, (), echoes)] == [e.text for e in took + refilled]
    assert len(player_news(records, other, 0, {7}, echoes)) == 2
    # the other's own refill is not an echo: what it drew is news to them too
    assert [e.text for e in player_news(records, other, 0, {8}, echoes)] == [e.text for e in took + refilled]


def test_a_mail_that_opens_with_the_receipt_tells_the_move_once_in_every_language():
    player, state = _action_turn()
    after, took = PORTO.apply(state, player, [Order("talents")])
    records = [_record(3, took)]
    said = {"en": "takes 3 talents", "de": "nimmt 3 Talente", "it": "prende 3 talenti"}
    for lang, words in said.items():
        receipt = Receipt("accepted", "g-1", player, phase={"key": "k", "round": 1, "name": "action turn",
                                                            "when": "decade 1"}, echo=["TALENTS"], language=lang)
        part = {"kind": "receipt", "text": receipt.render(brief=True), "step": 3}
        for parts, times in (([part], 0), ([], 1)):
            events = player_news(records, player, 0, confirmed_steps({"parts": parts}), echo_kinds(PORTO))
            text, _ = render_report(report_context(PORTO, after, game_id="g-1", player=player, events=events,
                                                   parts=parts, lang=lang))
            assert text.count(words) == times, text


def test_the_mail_after_a_receipt_sent_alone_does_not_tell_the_move_again(svc):
    svc.referee.new_game("porto-carthago", [(p, f"{p}@players.test") for p in PLAYERS], seed="echo", game_id="p1")

    def asked():
        state = svc.store.load("p1").state
        return PORTO.prompts(state)[0], state

    while (prompt := asked()[0]).decision != "action.main":
        state = asked()[1]
        svc.referee.submit("p1", prompt.player, "\n".join(
            PORTO.format(o) for o in PORTO.default_orders(state, prompt.player)))
    player = prompt.player
    svc.referee.submit("p1", player, "TALENTS")
    receipt = mails(svc, f"{player}@players.test")[-1]
    assert receipt["X-Referee-Kind"] == "receipt" and "TALENTS." in flat(receipt)  # alone: another is asked
    before = len(mails(svc, f"{player}@players.test"))
    while len(mails(svc, f"{player}@players.test")) == before:
        prompt, state = asked()
        svc.referee.submit("p1", prompt.player, "\n".join(
            PORTO.format(o) for o in PORTO.default_orders(state, prompt.player)))
    news = flat(mails(svc, f"{player}@players.test")[-1])
    assert "Since your last mail" in news and f"{player} takes 3 talents" not in news
    others = [flat(m) for p in PLAYERS if p != player for m in mails(svc, f"{p}@players.test")]
    assert any(f"{player} takes 3 talents" in text for text in others)  # the others are told
