from games.porto_carthago import GAME

from .helpers import at_actions, give


def test_money_of_others_is_hidden():
    s = give(at_actions(), "Bob", money=77)
    v = GAME.view(s, "Ann")
    assert v["players"]["Bob"]["money"] is None and v["players"]["Ann"]["money"] == s["money"][0]
    assert GAME.view(s, "Bob")["players"]["Bob"]["money"] == 77
    assert GAME.view(s, None)["players"]["Bob"]["money"] == 77


def test_a_players_view_does_not_change_with_others_hidden_information():
    s = at_actions()
    t = give(s, "Bob", money=99)
    t["deck"] = list(reversed(t["deck"]))
    assert GAME.view(s, "Ann") == GAME.view(t, "Ann")
    assert GAME.view(s, None) != GAME.view(t, None)


def test_deck_order_and_random_state_stay_with_the_moderator():
    s = at_actions()
    v = GAME.view(s, "Ann")
    assert "deck" not in v and v["deck_count"] == len(s["deck"]) and "rng" not in str(v.keys())
    assert GAME.view(s, None)["deck"] == s["deck"]


def test_queues_are_private():
    s = at_actions()
    s, events = GAME.apply(s, "Cid", GAME.parse(s, "Cid", "TALENTS"))
    assert GAME.view(s, "Cid")["my_queue"] and not GAME.view(s, "Bob")["my_queue"]
    assert all(e.to == ("Cid",) for e in events if e.kind == "queue")


def test_another_players_decision_is_named_never_addressed_to_the_reader():
    """While Ann decides, Bob's HELP and view name her decision by its title, in his language;
    the prompt speaking to the decider (`scegli la tua azione`) is Ann's alone."""
    from referee.i18n.messages import say

    s = at_actions()
    assert say(GAME.help(s, "Bob"), "it", GAME).startswith("Ora decide Ann (turno d'azione). ")
    assert "scegli" in say(GAME.help(s, "Ann"), "it", GAME)
    waiting = GAME.view(s, "Bob")["waiting_for"]
    assert say(waiting["title"], "it", GAME) == "turno d'azione" and say(waiting["title"], "de", GAME) == "Aktionszug"


def test_whom_the_game_waits_for_is_named_in_the_third_person():
    """The harbour line every player reads (`now deciding: Bob (...)`) names the decision as a
    task, not as the prompt addressed to the player asked (`choose your action`), which read
    as if it spoke to the reader; nor does it repeat the decade and action round."""
    from games.porto_carthago.game import PortoCarthago
    from referee.i18n.messages import say

    s = at_actions()
    asked = GAME.prompts(s)[0].player
    reader = next(p for p in ("Ann", "Bob", "Cid") if p != asked)
    waiting = GAME.view(s, reader)["waiting_for"]
    assert waiting["player"] == asked and waiting["text"] == "choosing an action"
    assert "Aktion wählen" == say(waiting["text"], "de", PortoCarthago())
    setup = GAME.setup(["Ann", "Bob", "Cid"], "third-person", {}, GAME.load_components(None))
    text = str(GAME.view(setup, None)["waiting_for"]["text"])
    assert not {"you", "your"} & set(text.split()), text


def test_at_the_games_end_everyone_sees_everyones_money():
    """Money breaks ties in the final ranking, told in the open, so the final table shows it."""
    from referee.computer.arena import play_match

    end = play_match(GAME, {"Ann": "random", "Bob": "random", "Cid": "random"}, "money at the end").state
    assert end is not None and end["stage"] == "over"
    seen = GAME.view(end, "Ann")["players"]
    assert [seen[p]["money"] for p in ("Ann", "Bob", "Cid")] == end["money"]
