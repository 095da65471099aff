"""Plan parts named in the player's language: a German or Italian plan line reads to the same
plan as the English one, and a plan is shown back with the part names of the language."""

import pytest

from games.porto_carthago import GAME
from referee.i18n.terms import localise, to_english

from .helpers import at_actions

# the English line, then the German and the Italian one that mean the same
PLANS = [
    ("EXTRAS: EXPAND or PALACE or DONE", "Zusätze: ERWEITERN oder PALAST oder FERTIG",
     "Extra: ESPANDI o PALAZZO o FATTO"),
    ("PRIVILEGE: ACCEPT", "Privileg: annehmen", "Privilegio: accetta"),
    ("FINAL: PALACE or PASS", "SCHLUSSPLATZ: PALAST oder PASSE", "FINALE: PALAZZO o PASSA"),
    ("LIGHTHOUSE: DOCK S05 or DOCK S12 II", "Leuchtturm: anlegen S05 oder anlegen S12 II",
     "Faro: attracca S05 o attracca S12 II"),
    ("INTRIGUE: INTRIGUE 1 or 0", "INTRIGE: INTRIGE 1 oder 0", "INTRIGO: INTRIGO 1 o 0"),
    ("REFILL: BUY G2 or PASS", "Auffüllen: kaufe G2 oder passe", "Rifornimento: compra G2 o passa"),
    ("CANCEL TURNS", "Streiche Züge", "Annulla turni"),
    ("CANCEL PRIVILEGE", "streiche Privileg", "annulla privilegio"),
    ("TURNS:\nTALENTS", "ZÜGE:\nTALENTE", "TURNI:\nTALENTI"),
]


@pytest.mark.parametrize("english,german,italian", PLANS)
def test_a_plan_line_in_german_or_italian_is_the_english_plan(english, german, italian):
    state = at_actions()
    player = state["players"][1]
    plan = GAME.parse(state, player, english)
    for lang, line in (("de", german), ("it", italian)):
        assert GAME.parse(state, player, to_english(GAME, lang, line)) == plan, (lang, line)


def test_a_plan_is_shown_with_the_part_names_of_the_language():
    assert localise(GAME, "de", "EXTRAS: EXPAND or DONE") == "ZUSÄTZE: ERWEITERN oder FERTIG"
    assert localise(GAME, "it", "EXTRAS: EXPAND or DONE") == "EXTRA: AMPLIA o FATTO"
    assert localise(GAME, "it", "PRIVILEGE: ACCEPT or DECLINE") == "PRIVILEGIO: ACCETTA o RINUNCIA"
    assert localise(GAME, "de", "CANCEL TURNS") == "STREICHEN ZÜGE"
    assert localise(GAME, "it", "FINAL: PALACE or PASS") == "FINALE: PALAZZO o PASSA"
