"""German and Italian that read like a published game: placeholders in the player's words,
counts that agree with their words, sentences joined by semicolons, mail commands in the
player's language, Content-Language on every mail, and the demo's check that finds each of
these when it is missing."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from commands.demo.languages import grammar_problems
from mailer.daemon.mail_commands import ALIASES, check_request
from mailer.outbound.compose import OutgoingMail, build
from mailer.outbound.reports import mail_commands
from referee import registry
from referee.i18n.messages import say
from referee.i18n.terms import agreed, glossary_data, localise_menu
from referee.notify import Notify
from referee.wording import in_a_row, phrase, term

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"constantinopolis": "constantinopolis", "porto-carthago": "porto_carthago"}


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("lang", ["de", "it"])
def test_every_placeholder_of_a_game_has_a_word_in_each_language(name, lang):
    """Every `<placeholder>` the game's code writes into a menu, an error or a plan line."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "games" / GAMES[name]).glob("*.py"))
    used = set(re.findall(r"<([a-z][a-z ,]*)>", source)) - {"placeholders"}  # a docstring's word
    table = glossary_data(registry.get(name))[lang]["placeholders"]
    assert used - set(table) == set()


def test_menu_placeholders_are_in_the_players_words():
    c, p = registry.get("constantinopolis"), registry.get("porto-carthago")
    assert localise_menu(c, "de", "buy <count> <good>: 1-2 green") == "kaufen <Anzahl> <Ware>: 1-2 green"
    assert localise_menu(c, "it", "load <contract> on ship <n>: 22") == "imbarca <contratto> sulla nave <n.>: 22"
    assert localise_menu(p, "de", "PORTER 5 <from> TO <to>: x") == "TRÄGER 5 <Herkunft> NACH <Ziel>: x"
    assert localise_menu(p, "it", "OCCUPY <dock>: C1-I") == "OCCUPA <molo>: C1-I"
    assert localise_menu(c, "en", "buy <count> <good>: 1 red") == "buy <count> <good>: 1 red"


def test_german_nouns_are_shown_with_a_capital_and_commands_in_one_form():
    c, p = registry.get("constantinopolis"), registry.get("porto-carthago")
    for game in (c, p):
        orders = glossary_data(game)["de"]["orders"]
        verbs = [words[0] for words in orders.values() if words[0][:1].islower() and words[0] != "fertig"]
        assert all(v.endswith("n") for v in verbs), verbs  # infinitives, never `nimm` beside `anlegen`
    assert say(phrase("{player} produces {goods}.", player="ann", goods=term("green")), "de", c) == "ann produziert Grün."


def test_counts_agree_with_their_words():
    assert agreed("it", "Beni: 4 verde, 1 rosso, 2 blu; 1-2 giallo; 0 nero") == "Beni: 4 verdi, 1 rosso, 2 blu; 1-2 gialli; 0 neri"
    assert agreed("it", "dmitri produce 2\n  verde") == "dmitri produce 2\n  verdi"  # across a wrapped line
    assert agreed("de", "2 Auftrag, 1 Auftrag") == "2 Aufträge, 1 Auftrag"
    assert agreed("en", "4 green") == "4 green"


def test_italian_mail_writes_ad_before_a_and_gratis_for_nothing():
    """The sentences are shared by every name and amount; the mail as a whole is written as
    Italian writes it (`terms.SMOOTHING`)."""
    assert agreed("it", "Costruzione: tocca a alice. Messaggio di dmitri a\n  anna; a bruno") == \
        "Costruzione: tocca ad alice. Messaggio di dmitri ad\n  anna; a bruno"
    assert agreed("it", "prende la carica vacante Consul per 0 oro; compra G2 per\n  0 talenti; per 10 oro") == \
        "prende la carica vacante Consul gratis; compra G2 gratis; per 10 oro"
    assert agreed("it", "MESSAGGIO A ann,bob; l'a alice") == "MESSAGGIO A ann,bob; l'a alice"
    assert agreed("en", "a apple for 0 gold") == "a apple for 0 gold"


def test_a_sentence_after_a_semicolon_begins_small_where_the_language_writes_it_so():
    plans = in_a_row([phrase("Your plan for {when}: {orders}.", when="x", orders="y"),
                      phrase("Your plan for {when}: {orders}.", when="z", orders="w")])
    assert "; dein Plan für z" in say(plans, "de")
    assert "; il tuo piano per z" in say(plans, "it")
    assert "; Your plan for z" in say(plans, "en")


def test_mail_commands_are_written_and_read_in_the_players_language():
    assert Notify.parse("zug") == Notify.parse("turn") and Notify.parse("riepilogo 18:30") == Notify("digest", "18:30")
    assert Notify.parse("turn").command("de") == "BENACHRICHTIGUNG Zug"
    assert Notify.parse("sammel 08:00") == Notify.parse("sammeln 08:00") == Notify("digest", "08:00")
    assert Notify.parse("each").command("it") == "AVVISI ogni"
    assert Notify.parse("turn").command() == "NOTIFY turn"
    names = [name for name, _ in mail_commands("de")]
    assert "STAND" in names and "HILFE" in names and "PRÜFE, dann deine Befehle" in names
    assert not any(re.search(r"\b(STATUS|HELP|NOTIFY|CHECK|LANGUAGE|VACATION|then|until|off)\b", n + " " + w)
                   for n, w in mail_commands("it"))

    class Mail:
        first_line = "PRÜFE"
        subject = "Re: x"
        orders_text = "PRÜFE\nbieten consul 3"
        orders_from_block = False

    assert check_request(Mail()) == "bieten consul 3"
    assert ALIASES["BENACHRICHTIGUNG"] == ALIASES["AVVISI"] == "NOTIFY"


@pytest.mark.parametrize("lang", ["de", "it", "en"])
def test_every_mail_names_its_language(lang):
    raw = build(OutgoingMail("g-1", "report", "ann@x.test", "[g-1] x", "text\n", "<m1@x.test>", language=lang),
                host="games.test", sender_name="Referee", date=datetime(2026, 12, 1, tzinfo=timezone.utc))
    assert f"\r\nContent-Language: {lang}\r\n".encode() in raw


PALACE = "a palace seat is 'posto'; 'casella' is an action slot or a field of the intrigue path"


@pytest.mark.parametrize("lang,text,found", [
    ("de", "# kaufen <count> <good>: 1 Grün", "English placeholder <count>"),
    ("it", "# offri <carica> <gold>", "English placeholder <gold>"),
    ("de", "bruno produziert 2 grün.", "German noun written small: 'grün'"),
    ("de", "1 lademeister (Kosten 0)", "German noun written small: 'lademeister'"),
    ("it", "Beni: 4 verde.", "a word does not agree with its count: '4 verde'"),
    ("de", "nutzt die Karte Kapitän (kapitän) auf Feld 3", "term doubled in brackets: 'Kapitän (kapitän)'"),
    ("it", "usa la carta capitano (Kapitän) nella casella 3", "German term outside German mail: 'Kapitän'"),
    ("it", "[g-1] Turno 3: Asta", "'Turno 3': a round is 'round', a player's turn 'turno'"),
    ("it", "compra uffici mercantili o navi", "'uffici mercantili': a trading post is 'fondaco'"),
    ("it", "preparazione: magazzino facoltativo", "'magazzino facoltativo': a dock is 'molo'; 'magazzino' is the storage"),
    ("de", "[g-1] Partie vorbei", "'Partie vorbei': the end of the game is 'Spielende'"),
    ("it", "Costruzione: tocca a alice.", "'a alice': 'ad' before a word starting with 'a'"),
    ("it", "prende la carica vacante Consul per 0 oro.", "'per 0 oro': a price of nothing is 'gratis'"),
    ("it", "con 7 punti in 2 partita/e", "'partita/e': a plural chosen by its count, not written with a slash"),
    ("it", "Piano accettato; vedi \"Il tuo piano\".", "'\"Il tuo piano\"': Italian quotes a word with «...», "
                                                     "not with straight quotes"),
    ("it", "ordine sconosciuto 'kaptan'", "\"'kaptan'\": Italian quotes a word with «...», not with straight quotes"),
    ("it", "Dall'ultima mail (o manda HISTORY):", "'HISTORY': an English command word beside the Italian ones "
                                                  "(AVVISI, CRONOLOGIA, ISCRIVIMI, LASCIA, ...)"),
    ("it", "Mura: una volta per turno, scambia", "'volta per turno': once a round is 'una volta per round'"),
    ("it", "costruisce il segmento di mura pesca", "'segmento di mura': a wall segment is a 'tratto di mura'"),
    ("it", "attraverso il referee", "'il referee': the program is 'l'arbitro'"),
    ("it", "Nave #1: piccola (capacità 2), in porto, vuoto.",
     "'Nave #1: piccola (capacità 2), in porto, vuoto': a ship (la nave) is 'vuota'"),
    ("it", "Palazzo: 2/15 caselle occupate; prossima casella 7 talenti",
     "'caselle occupate': " + PALACE),
    ("it", "alice compra un posto nel palazzo sulla casella 3 per 7 talenti",
     "'palazzo sulla casella': " + PALACE),
    ("it", "Il porto: decade 1, round d'azione 2", "\"round d'azione\": an action round of a decade is 'giro d'azione'; 'turno' is one player's"),
    ("it", "alice e bruno condividono un posto: pari in posti nel palazzo 1",
     "'condividono un posto': players tied in the standings are 'a pari merito'"),
    ("it", "alice compra Caupona per 9 oro.", "'compra Caupona per 9 oro': a building is built ('costruisce'), as the order and the phase say"),
    ("it", "Il torneo è finito. Sei arrivato al posto 2", "'Sei arrivato': a player is addressed or named in a form "
                                                      "that does not assume a man"),
    ("it", "[g-1] alice è tornato", "'[g-1] alice è tornato': a player is addressed or named in a form that does not assume a man"),
    ("it", "un rilancio deve essere almeno 3", "'deve essere almeno 3': a minimum is 'di almeno N oro'"),
    ("it", "  Accettati (asta delle cariche pubbliche, round 1): passa.",
     "'  Accettati': a receipt names what it accepts ('Ordini accettati')"),
    ("de", "NOTIFY press each und NOTIFY press digest ändern das wieder.", "English command word: 'NOTIFY'"),
    ("de", "Nach JOIN gehört die Kennung der Partie", "English command word: 'JOIN'"),
    ("de", "'if available' gibt es hier nicht", "English command word: 'if available'"),
    ("de", "Spieler können nur mit der Option dropout aussteigen", "English command word: 'dropout'"),
    ("de", "dmitri besetzt das freie Amt Comes Thesaurorum für 0 Gold.",
     "'für 0 Gold': nothing paid is 'kostenlos'"),
    ("de", "mit 12 Punkten aus 3 Partie(n)", "plural in brackets: 'ie(n)'"),
    ("de", "3 spätere Ereignis(se) zählen nicht mehr", "plural in brackets: 'is(se)'"),
    ("de", "das Feld muss 1..6 sein", "a range written with dots: '1..6'"),
    ("de", "die Antwort des Consul steht aus", "'des Consul': the genitive is 'des Consuls'"),
    ("de", "Güter: 2 Grün", "'Güter': goods are 'Ware', 'Waren', 'Warenart'"),
    ("de", "Dateien blieben beim Referee", "'Referee': the program is 'Schiedsrichter' in German text"),
    ("de", "kein Befehl namens 'Kaptän'", "\"'Kaptän'\": German text quotes with „…“, not straight quotes"),
    ("de", "Schiffe: #1 klein", "'#1': a number is 'Nr.', not '#'"),
    ("de", "Mauern: keine mehr..", "'..': a full stop doubled"),
    ("it", "Mura: nessuna rimasta..", "'..': a full stop doubled"),
    ("de", "Markt: VII Regio - Opificies", "'o - O': a dash between words is '–', not a hyphen"),
    ("de", "mehr Mauerstücke bringen mehr Ruhm", "'Mauerstück': a wall segment is a 'Mauerabschnitt'"),
    ("de", "Dein Zug: Runde 4, Gebäude bauen", "'Gebäude bauen': the building phase is the 'Bauphase'"),
    ("de", "Dekade 1, Belohnung der Intrige", "'Belohnung der Intrige': the decision is 'Handelspunkt oder Intrige'"),
    ("de", "Mauern: Tausch, Handel, Nachziehen", "'Nachziehen': the wall is „Aufträge“; 'nachziehen' is the order "
                                              "that redraws contracts"),
    ("de", "ein Tauschposten ist 2 Grün", "'Tauschposten': 'Posten' is a trading post, not an item of an offer"),
    ("de", "alice möchte öffentlich 4 kaufen", "'möchte öffentlich 4': a public building is named in prose, not by "
                                                "its order"),
    ("de", "Versteigerung: keine Münzen; gewählt haben schon: niemand.",
     "'gewählt haben schon: niemand': 'gewählt hat noch niemand'"),
    ("de", "bruno hat für das Amt Consul auf 2 erhöht", "'auf 2 erhöht': a bid is raised to so much 'Gold'"),
])
def test_the_demos_check_finds_what_a_native_reader_marks(lang, text, found):
    assert found in grammar_problems(text, lang)


def test_the_demos_check_passes_good_german_and_italian():
    assert grammar_problems("# kaufen <Anzahl> <Ware>: 1-2 Grün\nbruno produziert 2 Grün; Spielende", "de") == []
    assert grammar_problems("BENACHRICHTIGUNG zug · HILFE; kostenlos; des Consuls; „Kaptän“; Nr. 1; 1 bis 6; "
                            "aus 3 Partien; ORDERS g-1 r1-x-0 … END", "de") == []
    assert grammar_problems("Mauern: Tausch, Handel, Aufträge. … und mehr...; VII Regio – Opificies; Bauphase; "
                            "# nachziehen <Auftrag>; erhöht auf 2 Gold.", "de") == []
    assert grammar_problems("# compra <quantità> <bene>: 1-2 verdi\nRound 3; 1 verde, 2 rossi; fondaci", "it") == []
    assert grammar_problems("tocca ad alice, poi a bruno; dell'intrigo e l'ultimo; prende gratis; «fatto»; "
                            "una riga per turno; partite giocate: 2", "it") == []
    assert grammar_problems("Palazzo: 2/15 posti occupati; prossimo posto 7 talenti; Caselle azione: 1 capitano; "
                            "decade 1, giro d'azione 2; alice e bruno sono a pari merito; alice costruisce Caupona "
                            "per 9 oro; compra 2 verdi per 4 oro; Hai chiuso al posto 2; alice è di nuovo in gioco; "
                            "il contratto 17 è tornato nella tua mano; di almeno 3 oro; bruno esercita la prelazione e "
                            "compra Caupona per 9 oro;\n"
                            "  Ordini accettati (asta delle cariche pubbliche, round 1): passa.", "it") == []
    assert grammar_problems("buy <count> <good>: 4 green", "en") == []


def test_a_wall_segment_is_named_by_a_noun_where_its_order_word_is_a_verb():
    """`costruisci mura commercia` builds it; reports and lists name it `mura del commercio`,
    `commercio` (glossary `[it.names]`, `[it.walls]`); English and German read as before."""
    from games.constantinopolis import GAME as constantinopolis
    from referee.i18n.terms import wall_name

    built = phrase("{player} builds the {wall} segment for {gold} gold.", player="alice", wall=term("trade wall"),
                   gold=10)
    assert say(built, "it", constantinopolis) == "alice costruisce il tratto di mura del commercio per 10 oro."
    assert say(built, "en", constantinopolis) == "alice builds the trade wall segment for 10 gold."
    assert say(built, "de", constantinopolis) == "alice baut die Mauer „Handel“ für 10 Gold."
    assert [wall_name("constantinopolis", "it", w) for w in ("exchange", "draw")] == ["scambio", "pescata"]
    assert wall_name("constantinopolis", "de", "exchange") == "Tausch"
    assert wall_name("constantinopolis", "en", "exchange") == "exchange"
