"""Every message a player can read is in the catalogues, and every catalogue translates all
of them: a message added to the code or a template without `make catalogues` and its
translations fails here, as does a translation that lost or renamed a placeholder."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from referee.i18n import LANGUAGES, gettext, ngettext, translations
from referee.i18n.catalogues import TEMPLATE, load, po_path, problems

ROOT = Path(__file__).resolve().parents[2]


def extracted() -> set[object]:
    """The messages in the code and the templates now, read the way `make catalogues` reads them."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = dict(DEFAULT_KEYWORDS, msg=None, phrase=None, plural_phrase=(2, 3))  # as `make catalogues` reads them
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(str(ROOT), method_map, options_map, keywords):
        found.add((context, message if isinstance(message, str) else tuple(message)[:2]))
    return found


def in_template() -> set[object]:
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)[:2]) for m in load(TEMPLATE) if m.id}


def test_the_catalogue_template_holds_every_message_of_the_code_and_the_templates():
    missing = extracted() - in_template()
    assert not missing, f"run `make catalogues` and translate: {sorted(map(str, missing))[:10]}"


def test_the_catalogue_template_holds_no_message_that_is_gone():
    gone = in_template() - extracted()
    assert not gone, f"run `make catalogues`: {sorted(map(str, gone))[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_in_every_language(lang):
    assert po_path(lang).is_file()
    assert problems(lang) == []


def test_a_missing_translation_or_a_lost_placeholder_is_found(tmp_path, monkeypatch):
    """The check itself: a catalogue with one message untranslated and one that lost a field."""
    from referee.i18n import catalogues

    text = po_path("de").read_text(encoding="utf-8")
    broken = text.replace('msgstr "Partie angehalten"', 'msgstr ""', 1)
    broken = broken.replace('msgstr "Neue Frist: {deadline}"', 'msgstr "Neue Frist"', 1)
    assert broken != text
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "de" / "LC_MESSAGES" / "referee.po").write_text(broken, encoding="utf-8")
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    found = catalogues.problems("de")
    assert "de: no translation of 'Game paused'" in found
    assert any("'New deadline: {deadline}'" in p and "placeholders" in p for p in found)


def test_the_languages_differ_and_english_is_the_message_itself():
    assert gettext("en", "Game paused") == "Game paused"
    assert gettext("de", "Game paused") == "Partie angehalten"
    assert gettext("it", "Game paused") == "Partita sospesa"
    line = ("Your mail began with {command}, so it was read as that command alone. {count} line after it was "
            "not read, and no orders were taken from this mail:")
    lines = line.replace("line after it was", "lines after it were")
    one = ngettext("de", line, lines, 1)
    assert one.startswith("Deine Mail") and "Zeile danach wurde" in one
    assert "Zeilen danach wurden" in ngettext("de", line, lines, 3)


def test_a_checkout_without_compiled_catalogues_compiles_them_in_memory(tmp_path, monkeypatch):
    """A fresh clone before `make install` (or a wheel, which carries only the .po) still
    writes German: the .po is read and compiled with Babel when no newer .mo is there."""
    import referee.i18n as i18n

    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    folder.joinpath("referee.po").write_bytes(po_path("de").read_bytes())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("de").gettext("Game paused") == "Partie angehalten"
        assert not (folder / "referee.mo").exists()
    finally:
        i18n.translations.cache_clear()
    assert translations("de").gettext("Game paused") == "Partie angehalten"
