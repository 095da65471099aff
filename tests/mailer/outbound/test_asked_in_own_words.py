"""What a player reads of the question put to them and of the time it is asked in, the same
in every mail that says it: the report, HELP, a reminder, a part opened again and a receipt of
its own.
Porto Carthago counts decades, Constantinopolis rounds, in every language; and a game's own
reading of the question for the player asked (`asked`: "you cannot raise: you have 1 gold")
is what that player reads wherever their mail puts the question."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from mailer.outbound.reports import help_text
from referee.contract import Prompt, question_for
from referee.i18n.terms import shown_phase
from referee.receipts import Receipt
from referee.rendering import render
from tests.deadlines.conftest import START, clock, flat, mails, svc  # noqa: F401  (fixtures)
from tests.service.conftest import games  # noqa: F401  (the race and simul test games)

PLAYERS = ["ann", "bob", "cid"]
# the count of a game's time, as its mail says it in each language; and words the other count
# would have put there
WHEN = {("porto-carthago", "en"): ("decade 1", "Decade 1", ("round 1", "Round 1")),
        ("porto-carthago", "de"): ("Dekade 1", "Dekade 1", ("Runde 1",)),
        ("porto-carthago", "it"): ("decade 1", "Decade 1", ("round 1", "Round 1")),
        ("constantinopolis", "en"): ("round 1", "Round 1", ("decade 1", "Decade 1")),
        ("constantinopolis", "de"): ("Runde 1", "Runde 1", ("Dekade 1",)),
        ("constantinopolis", "it"): ("round 1", "Round 1", ("decade 1", "Decade 1"))}


def _opening(game):
    return game.setup(PLAYERS, "own-words", {o.name: o.default for o in game.options}, game.load_components(None))


@pytest.mark.parametrize("lang", ["en", "de", "it"])
@pytest.mark.parametrize("game", [PORTO, CONSTANTINOPOLIS], ids=lambda g: g.name)
def test_help_a_reminder_and_a_part_open_again_count_time_as_the_game_does(game, lang):
    state = _opening(game)
    player = game.prompts(state)[0].player
    small, capital, wrong = WHEN[(game.name, lang)]
    texts = [help_text(game, state, game_id="g-1", player=player, deadline="soon", zone=None, lang=lang)]
    assert texts[0].splitlines()[1].startswith(capital + ": ")
    common = dict(lang=lang, game_id="g-1", title=game.title, player=player, deadline="soon", help="",
                  phase=shown_phase(game, lang, game.phase(state)), block=["ORDERS g-1 x", "END"])
    for brief in (True, False):
        texts.append(render("reminder.txt", prompt="", left="2h", brief=brief, **common))
        texts.append(render("reopened.txt", by="bob", lines=["why"], cancelled=[], brief=brief, **common))
    texts.append(Receipt("accepted", "g-1", player, phase=common["phase"], echo=["PASS"], language=lang).render())
    for text in texts:
        flat = " ".join(text.split())
        assert small in flat or capital in flat, text
        assert not any(word in flat for word in wrong), text
        assert max(len(line) for line in text.splitlines()) <= 78, text  # the question, help, commands


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_help_sets_its_parts_apart_by_one_blank_line(lang):
    state = _opening(CONSTANTINOPOLIS)
    player = CONSTANTINOPOLIS.prompts(state)[0].player
    text = help_text(CONSTANTINOPOLIS, state, game_id="g-1", player=player, deadline="soon", zone=None, lang=lang)
    assert "\n\n\n" not in text
    parts = text.split("\n\n")  # heading, question, help, menu, plan ahead, mail commands, the footer lines
    assert len(parts) == 7 and all(part.strip() for part in parts), text
    assert "(UTC)" not in text  # a player without a time zone reads deadlines in UTC, not "UTC with UTC beside"


OWN = "pick, knowing what only you know"


def test_the_player_asked_reads_the_games_own_question_in_every_mail_that_asks(svc, clock, games,  # noqa: F811
                                                                             monkeypatch):
    """The report, HELP, the reminder and the receipt that says what is still asked all put the
    question as the game words it for the player asked, not the text written for everyone."""
    monkeypatch.setattr(games["simul"], "asked", lambda state, player: f"{player}, {OWN}", raising=False)
    made = svc.referee.new_game("simul", [(p, f"{p}@players.test") for p in PLAYERS], seed="s", game_id="s1",
                                notify={"ann": "digest 20:00", "bob": "each"}, policy_set=["deadline=2d"])
    tokens = {p["name"]: p["token"] for p in made.players}
    assert f"YOUR MOVE: cid, {OWN}" in flat(mails(svc, "cid@players.test")[-1])  # the report
    svc.referee.submit("s1", "ann", "PICK 5")  # still asked, her digest not due: the receipt alone
    receipt = mails(svc, "ann@players.test")[-1]
    assert receipt["X-Referee-Kind"] == "receipt" and f"You are still asked: ann, {OWN}." in flat(receipt)
    svc.referee.request("s1", "cid", "help", token=tokens["cid"], in_reply_to=None, serial="help-1")
    assert f"Your move: cid, {OWN}" in flat(mails(svc, "cid@players.test")[-1])
    clock.now = START + timedelta(days=1, hours=1)
    svc.tick()
    reminder = mails(svc, "bob@players.test")[-1]  # bob chose a mail for each thing: the reminder whole
    assert reminder["X-Referee-Kind"] == "reminder" and f"Your move: bob, {OWN}" in flat(reminder)
    assert "pick a number" not in flat(reminder)


def test_the_contract_falls_back_on_the_prompts_own_text():
    prompt = Prompt("ann", "pick", True, ("pick",), "pick a number")
    assert question_for(object(), {}, prompt) == "pick a number"  # a game without `asked`
    assert question_for(CONSTANTINOPOLIS, _opening(CONSTANTINOPOLIS), prompt) == "pick a number"  # None: its own
