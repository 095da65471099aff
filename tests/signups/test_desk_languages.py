"""The sign-up desk in the reader's language: its own command words choose it (LISTE, ELENCO),
so does the language a mail program states (Content-Language); JOIN and LEAVE answer in the
game's language, GAMES in the language the address's seats are played in; English when nothing
says otherwise. Every line of every answer fits 78 columns."""

from __future__ import annotations

import pytest

from .conftest import HOST, confirmation_code

REFEREE = f"referee@{HOST}"
COMMANDS = {"en": "What you can write to", "de": "Was du an", "it": "Cosa puoi scrivere a"}


@pytest.fixture
def desk(world):
    world.ref.open_game("race", "2..4", game_id="r1", language="de")
    world.ref.open_game("race", "2..3", game_id="r2", language="it")
    world.ref.open_game("race", "2..3", game_id="r3")
    return world


def answers(world, address: str) -> list[tuple[str, str]]:
    return [(m["Subject"], m.get_content()) for m in world.sent(address)]


def last(world, address: str) -> tuple[str, str]:
    return answers(world, address)[-1]


def fits(text: str) -> None:
    too_wide = [line for line in text.splitlines() if len(line) > 78]
    assert not too_wide, too_wide


@pytest.mark.parametrize("word, lang, subject, heading", [
    ("LIST", "en", "Open games", "Open games at"),
    ("LISTE", "de", "Offene Partien", "Offene Partien bei"),
    ("liste", "de", "Offene Partien", "Offene Partien bei"),
    ("ELENCO", "it", "Partite aperte", "Partite aperte presso"),
])
def test_list_answers_in_the_language_of_its_command_word(desk, word, lang, subject, heading):
    desk.mail("zoe@p.test", word)
    got_subject, text = last(desk, "zoe@p.test")
    assert got_subject == subject and text.startswith(heading)
    assert COMMANDS[lang] in text and all(g in text for g in ("r1:", "r2:", "r3:"))
    fits(text)


def test_a_mail_program_stated_language_chooses_when_the_word_is_english(desk):
    desk.mail("zoe@p.test", "LIST", headers={"Content-Language": "it-IT"})
    assert last(desk, "zoe@p.test")[0] == "Partite aperte"
    desk.mail("zoe@p.test", "LIST", headers={"Content-Language": "fr, de"})
    assert last(desk, "zoe@p.test")[0] == "Offene Partien"
    desk.mail("zoe@p.test", "LIST", headers={"Content-Language": "fr"})
    assert last(desk, "zoe@p.test")[0] == "Open games"


@pytest.mark.parametrize("word, lang", [("HELP", "en"), ("HILFE", "de"), ("AIUTO", "it")])
def test_help_lists_the_commands_without_calling_the_mail_a_mistake(desk, word, lang):
    desk.mail("zoe@p.test", word)
    subject, text = last(desk, "zoe@p.test")
    assert text.startswith(COMMANDS[lang]) and "\n\n\n" not in text
    fits(text)


def test_join_leave_and_games_answer_in_the_games_language(desk):
    desk.mail("ann@p.test", "JOIN r1 Ann")
    subject, text = last(desk, "ann@p.test")
    assert subject == "[r1] Bestätige deine Anmeldung als ann" and "CONFIRM " in text
    fits(text)
    desk.mail("ann@p.test", "ok", to=f"referee+{confirmation_code(desk, 'ann@p.test')}@{HOST}")
    subject, text = last(desk, "ann@p.test")
    assert subject == "[r1] Dein Platz als ann" and "du spielst als ann" in text
    fits(text)
    desk.mail("ann@p.test", "GAMES")
    subject, text = last(desk, "ann@p.test")
    assert subject == "Deine Partien" and "r1: Race to the Target, du spielst ann" in text
    desk.mail("ann@p.test", "LEAVE r1")
    assert last(desk, "ann@p.test")[0] == "[r1] Zum Aufgeben: antworte mit ABMELDEN"
    # an English command word to an Italian game: the game's language
    desk.mail("bob@p.test", "JOIN r2 Bob")
    assert last(desk, "bob@p.test")[0] == "[r2] Conferma la tua iscrizione come bob"
    desk.mail("cid@p.test", "JOIN r3 Cid")
    assert last(desk, "cid@p.test")[0] == "[r3] Confirm your sign-up as cid"


def test_a_refusal_is_explained_in_the_readers_language_and_changes_nothing(desk):
    desk.mail("bob@p.test", "ISCRIVIMI r9 Bob")
    subject, text = last(desk, "bob@p.test")
    assert subject == "ISCRIVIMI non eseguito"
    assert "«r9»" in text and "Non è cambiato niente." in text and COMMANDS["it"] in text
    assert all(not g["taken"] for g in desk.ref.open_games())
    desk.mail("bob@p.test", "ANMELDEN r1 ann!!")
    subject, text = last(desk, "bob@p.test")
    assert subject == "ANMELDEN nicht ausgeführt" and "Es wurde nichts geändert." in text
    fits(text)


def test_a_word_means_one_command_at_the_desk_and_in_a_game():
    """The desk's words and the players' mail commands share HELP's (HILFE, AIUTO) and LEAVE's
    (ABMELDEN, AUSSTEIGEN, LASCIA): written once, so a word can never mean one command at the
    desk and another in a game."""
    from mailer.daemon.desk import DESK_COMMANDS, DESK_WORDS
    from mailer.daemon.mail_commands import ALIASES, WORDS

    shared = set(DESK_WORDS) & set(ALIASES)
    assert shared == {"HILFE", "AIUTO", "ABMELDEN", "AUSSTEIGEN", "LASCIA"}
    assert all(DESK_WORDS[word] == WORDS[word] for word in shared)
    assert {command for command, _ in DESK_WORDS.values()} <= set(DESK_COMMANDS)
