"""What the Consul's pre-emption says: the building by its name and both prices, the buyer
as the subject of his own purchase, and order lines that say what each answer does."""

from games.constantinopolis import GAME
from games.constantinopolis.buildings import public_tile
from mailer.outbound.news import grouped, summary
from referee.i18n.messages import say

from .test_construction import construct
from .util import do


def _asked(gold=40):
    st = construct({"magister": "kay", "comes": "greg", "consul": "jen"})
    st["p"]["jen"]["gold"] = gold
    st["p"]["kay"]["gold"] = 40
    st, ev = do(st, "kay", "build public 4")
    return st, ev


def test_the_consul_is_told_which_building_and_what_pre_empting_costs():
    st, _ = _asked()
    tile = public_tile(st, 4)
    prompt = GAME.prompts(st)[0]
    text = say(prompt.text, "en", GAME)
    assert prompt.player == "jen" and "public 4" not in text
    assert tile["name"] in text and f"pre-empt it for {tile['cost']} gold yourself" in text
    de = say(prompt.text, "de", GAME)
    assert tile["name"] in de and f"selbst für {tile['cost']} Gold vor" in de and "kaufe es" not in de  # named


def test_the_consuls_form_says_what_each_answer_does_and_why_pre_empting_is_missing():
    st, _ = _asked()
    tile = public_tile(st, 4)
    lines = [say(line.text, "en", GAME) for line in GAME.menu(st, "jen")]
    assert f"preempt: buy the public building {tile['name']} ({tile['fame']} fame) yourself for {tile['cost']} gold" \
        in lines
    assert "allow: kay buys it" in lines
    assert any(line.startswith("preempt ask: from now on be asked about each purchase") for line in lines)
    poor, _ = _asked(gold=0)
    lines = [say(line.text, "en", GAME) for line in GAME.menu(poor, "jen")]
    assert not any(line.startswith("preempt:") for line in lines)
    assert any(line.startswith("allow: kay buys it (you cannot pre-empt it: ") for line in lines)


def test_the_history_keeps_the_buyer_as_the_subject_of_his_purchase():
    st, ev = _asked()
    st, ev2 = do(st, "jen", "allow")
    events = [(e.kind, say(e.text, "de", GAME)) for e in ev + ev2 if e.to is None]
    players = ["greg", "jen", "kay"]
    tile = public_tile(construct({"magister": "kay", "comes": "greg", "consul": "jen"}), 4)
    for lines in (grouped(events, players), summary(events, players, lang="de")):
        said = "\n".join(lines)
        assert "öffentlich 4" not in said and tile["name"] in said
        assert "falls der Consul jen es nicht vorkauft" in said
        # the purchase is kay's, said with his name, never left to follow the Consul's
        assert "vorkauft; kauft" not in said and "vorkaufen; kauft" not in said
    assert any(line.startswith("kay kauft das öffentliche Gebäude") for line in grouped(events, players))


def test_an_entry_after_one_naming_another_player_keeps_its_subject():
    events = [("a", "alice wants to buy Cura unless the Consul chiara pre-empts it."), ("b", "alice buys Cura.")]
    assert grouped(events, ["alice", "chiara"]) == [events[0][1], events[1][1]]
    plain = [("a", "alice sells 1 blue."), ("b", "alice buys Cura.")]
    assert grouped(plain, ["alice", "chiara"]) == ["alice sells 1 blue; buys Cura."]
