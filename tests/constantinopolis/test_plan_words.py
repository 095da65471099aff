"""Plan parts named in the player's language: a German or Italian plan line reads to the same
plan as the English one, and a plan (and the plan template of a report) is shown back with the
part names of the language."""

import pytest

from games.constantinopolis import GAME
from referee.i18n.messages import say
from referee.i18n.terms import localise, to_english

from .util import new

# the English line, then the German and the Italian one that mean the same
PLANS = [
    ("auction: bid consul up to 8 or stay", "Versteigerung: biete consul bis 8 oder bleibe",
     "Asta: offri console fino a 8 o resta"),
    ("auction:\nstay", "Auktion:\nbleibe", "asta:\nresta"),
    ("construction: build Cura or Figulina if available", "Bauphase: baue Cura oder Figulina falls verfügbar",
     "Costruzione: costruisci Cura o Figulina se disponibile"),
    ("construction: build Cura or Figulina, if available", "Bauphase: baue Cura oder Figulina, falls verfügbar",
     "Costruzione: costruisci Cura o Figulina, se disponibile"),
    ("construction: done", "BAUPHASE: FERTIG", "COSTRUZIONE: FATTO"),
    ("donate: donate black or pass", "Spende: spende schwarz oder passe", "Donazione: dona nero o passa"),
    ("store: keep yellow or keep nothing", "Lager: lagere gelb oder lagere nichts",
     "Magazzino: conserva giallo o conserva niente"),
    ("consul: preempt never", "Konsul: vorkauf nie", "Console: prelazione mai"),
    ("pretorio: good red or blue", "Pretorio: gut rot oder blau", "Pretorio: bene rosso o blu"),
    ("cancel construction", "streiche Bauphase", "annulla costruzione"),
    ("cancel plan", "Streiche Plan", "Annulla piano"),
]


@pytest.mark.parametrize("english,german,italian", PLANS)
def test_a_plan_line_in_german_or_italian_is_the_english_plan(english, german, italian):
    state = new()
    player = state["players"][0]
    plan = GAME.parse(state, player, english)
    assert all(order.kind in ("plan", "cancel") for order in plan)
    for lang, line in (("de", german), ("it", italian)):
        assert GAME.parse(state, player, to_english(GAME, lang, line)) == plan, (lang, line)


def test_a_plan_is_shown_with_the_part_names_of_the_language():
    assert localise(GAME, "de", "auction: stay or take consul") == "Versteigerung: bleiben oder nehmen consul"
    assert localise(GAME, "de", "construction: build Cura, if available") == "Bauphase: bauen Cura, falls verfügbar"
    assert localise(GAME, "de", "store: keep nothing") == "Lager: lagern nichts"
    assert localise(GAME, "it", "construction: done") == "costruzione: fatto"
    assert localise(GAME, "it", "auction: stay") == "asta: resta"
    assert localise(GAME, "it", "cancel plan") == "annulla piano"


def test_the_plan_template_is_offered_with_the_part_names_of_the_language():
    state = new()
    player = state["players"][0]
    english = [str(line) for line in GAME.plan_template(state, player)]
    german = [say(line, "de", GAME) for line in GAME.plan_template(state, player)]
    assert "auction: bid <office> up to <gold> or take free or stay" in english
    assert any(line.startswith("Versteigerung: bieten <Amt> bis <Gold> oder ") for line in german)
    assert "Bauphase: bauen <Gebäude> oder <Gebäude>, falls verfügbar" in german
    # the office taken without paying, not the word for freeing a saved contract
    assert "Versteigerung: bieten <Amt> bis <Gold> oder kostenlos nehmen oder bleiben" in german
    italian = [say(line, "it", GAME) for line in GAME.plan_template(state, player)]
    assert "asta: offri <carica> fino a <oro> o prendi gratis o resta" in italian
    assert to_english(GAME, "it", "asta: prendi gratis") == "auction: take free"
