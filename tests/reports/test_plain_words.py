"""Every code a mail uses is explained in that mail or its HTML legend; an English mail
carries no German word; the HTML lists no order word that the mail leaves unexplained."""

from __future__ import annotations

import re

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from mailer.outbound.reports import orders_block, render_report, report_context

from .util import check_html, positions

GERMAN = re.compile(r"Kapitän|Aristokrat|Lademeister|Händler|Träger|Speicher|Leuchtturm")


def asked_reports(game, players: int, seed: str, every: int, lang: str = "en"):
    """(state, player, text, HTML shown as text) of the asked players over a random game."""
    for state in positions(game, players, seed, every=every):
        for prompt in game.prompts(state)[:1]:
            ctx = report_context(game, state, game_id="g-1", player=prompt.player, events=[], lang=lang)
            text, html = render_report(ctx)
            yield state, prompt.player, text, check_html(html)


def test_porto_carthagos_codes_are_all_explained_in_the_html_legend():
    for state, player, text, shown in asked_reports(PORTO, 4, "plain-p", every=25):
        legend = shown[shown.index("What the codes mean"):]
        assert "G1, G2, G3, G4, G5: the kinds of goods." in legend
        assert ("C1, C2, C3, C4, C5, C6: the civilizations. Each has two docks, I and II (C1-I is dock I of "
                "C1)") in legend
        assert "S01 to S30: the ship cards." in legend
        for code in ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"):
            assert f"{code}: " in legend  # every privilege, whether a card shows it now or not
        assert not GERMAN.search(text) and not GERMAN.search(shown), GERMAN.search(text + shown)


def test_constantinopolis_explains_walls_licences_and_the_saved_column():
    for state, player, text, shown in asked_reports(CONSTANTINOPOLIS, 4, "plain-c", every=40):
        legend = shown[shown.index("What the words mean"):]
        for wall, what in (("exchange", "swap one of your goods"), ("trade", "three of your goods of any types for 10 "
                           "gold"), ("draw", "one contract more"), ("market", "2 gold off every good"),
                           ("guard", "must raise by at least 3 gold"), ("dock", "3 gold off a ship")):
            assert f"{wall} (10 gold): " in legend and what in legend, wall
        assert "Licences A to D:" in legend and "Saved contracts: contracts kept on a trading post" in legend
        assert "saved = contracts kept on a trading post" in text  # the text's players table says it too
        # the HTML's orders are the block's, each line explained; no bare list of order words above it
        assert "Orders: " not in shown


def test_a_public_building_on_the_menu_names_the_building_and_its_price():
    from ..constantinopolis.util import at_construct, new, seat
    state = at_construct(seat(new(("greg", "jen", "kay")), {"magister": "greg", "pretorio": "jen", "urbi": "kay"}))
    state["p"]["greg"]["gold"] = 40
    block = " ".join(orders_block(CONSTANTINOPOLIS, state, "c1", "greg"))
    assert re.search(r"build public <fame>: 3 \((Domus Regia|Hippodromus), \d+ gold\)", block), block


@pytest.mark.parametrize("lang, words", [("de", "Was die Kürzel bedeuten"), ("it", "Che cosa significano le sigle")])
def test_the_legend_is_in_the_readers_language(lang, words):
    state, player, text, shown = next(iter(asked_reports(PORTO, 3, "plain-l", every=50, lang=lang)))
    assert words in shown


def test_a_good_the_player_has_none_of_is_said_as_none():
    from games.constantinopolis.state import too_few
    sheet = {"goods": {"blue": 0, "green": 2}}
    assert str(too_few(sheet, "blue").message) == "you have no blue"  # not `you have only 0 blue`
    assert str(too_few(sheet, "green").message) == "you have only 2 green"


def test_german_prose_writes_the_cards_and_places_with_a_capital():
    from referee.i18n.terms import localise, term
    assert term("porto-carthago", "de", "merchant") == "Händler"  # `nutzt die Karte Händler`
    assert term("porto-carthago", "de", "storage") == "Lager"  # `trägt G1 von Lager nach C1-II`
    assert term("porto-carthago", "it", "merchant") == "mercante"
    assert localise(PORTO, "de", "MERCHANT 1 G3") == "HÄNDLER 1 G3"  # the order word as before
