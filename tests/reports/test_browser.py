"""The HTML reports in a real browser engine: headless Chromium from the system's packages
(`make install` installs it) shows each game's report on a phone-sized screen.

For a decision in the middle of a game and for the final standings, in both games: the page
lays out no wider than a 375-pixel phone screen and nothing in it is cut off (no element's
content is wider than its box: a phone's mail program hides scroll bars, so a table that
scrolled sideways would hide its right-hand columns with no hint), the receipt at its top is
prose that the screen wraps, not 78 monospaced columns wrapped a second time, it loads nothing
from outside, it keeps its styles in style attributes (mail programs drop <style> blocks), and
its pictures of the position are there. A screenshot of every page is
kept in build/screenshots/ (REFEREE_SCREENSHOTS to choose another folder) for a person to
look at; CI keeps that folder as an artefact.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO_CARTHAGO
from mailer.outbound.reports import render_report, report_context
from referee.contract import Event
from referee.receipts import Receipt

from .util import positions

ROOT = Path(__file__).resolve().parents[2]
PHONE = 375  # CSS pixels: a small phone held upright
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CONTENT = PHONE - 16  # less the body's padding
# appended to a copy of the page only: lays the page out in a box as wide as the phone's
# content area and writes the width its content needs where --dump-dom shows it (a table in
# a box that scrolls sideways does not count: it scrolls inside its box). The box, since
# headless Chromium lays --dump-dom pages out at least 500 pixels wide whatever the window.
MEASURE = ("<script>const box = document.createElement('div');"
           f"box.style.width = '{CONTENT}px'; box.style.overflow = 'auto';"
           "while (document.body.firstChild) box.appendChild(document.body.firstChild);"
           "document.body.appendChild(box);"
           "const cut = [];"
           "for (const el of box.querySelectorAll('*')) {"
           " if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)"
           "  cut.push(el.tagName + ' ' + el.scrollWidth + '>' + el.clientWidth + ' '"
           "   + el.textContent.replace(/\\s+/g, ' ').slice(0, 40)); }"
           "document.title = 'width=' + box.scrollWidth + ' cut=' + JSON.stringify(cut);</script>")
RECEIPT = Receipt("accepted", "g-1", "ann", phase={"name": "action turn", "round": 3, "key": "d3-turn-40"},
                  echo=["OCCUPY C5-I TAKE G1 or C5-I TAKE G2 or C3-II TAKE G1 or C3-II TAKE G2 or C5-II TAKE G1",
                        "CAPTAIN or TALENTS", "REFILL or LOADMASTER OCCUPY C2-I or ARISTOCRAT LIGHTHOUSE +1 or TALENTS",
                        "LIGHTHOUSE: DOCK S22 or S21 or S01 or S04 or S16"]).render(brief=True)


def in_ci() -> bool:
    """CI sets CI (.ci/run does); there a missing browser is a failure, not a skip."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="module")
def browser() -> str:
    found = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if found is None:
        message = "no Chromium installed (make install installs it with apt-get as root or through sudo)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def shots() -> Path:
    folder = Path(os.environ.get("REFEREE_SCREENSHOTS") or ROOT / "build" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def run(browser: str, tmp: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp / "profile"
    return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}",
                           f"--window-size={PHONE},1600", *args],
                          capture_output=True, text=True, timeout=120)


def reports():
    """(name, game, html) for a mid-game decision and for the end of each game."""
    out = []
    for game in (CONSTANTINOPOLIS, PORTO_CARTHAGO):
        states = positions(game, 4, "browser", 9)
        middle = states[len(states) // 2]
        asked = game.prompts(middle)[0].player
        end = states[-1]
        assert game.result(end) is not None, "the last position is the end of the game"
        for when, state, player in (("decision", middle, asked), ("end", end, end["players"][0])):
            ctx = report_context(game, state, game_id="g-1", player=player, deadline="Fri 27 Nov 2026 18:00 UTC",
                                 events=[Event("x", f"{player} did something worth a line in the report.")],
                                 parts=[{"kind": "receipt", "text": RECEIPT}])
            out.append((f"{game.name}-{when}", game, render_report(ctx)[1]))
    return out


REPORTS = reports()


@pytest.mark.parametrize("name,game,html", REPORTS, ids=[r[0] for r in REPORTS])
def test_the_html_report_fits_a_phone_and_loads_nothing_from_outside(browser, shots, tmp_path, name, game, html):
    # only inline styles, nothing fetched: no <style>, <link>, <img>, <script>, no address
    assert not re.search(r"<(style|link|img|script|iframe|object)\b", html, re.IGNORECASE)
    assert not re.search(r"(src|href)\s*=|url\(|@import|https?://", html, re.IGNORECASE)
    assert 'name="viewport"' in html
    # the pictures of the position
    if game is CONSTANTINOPOLIS:
        assert "Offices, in turn order" in html
    elif "decision" in name:
        assert "The docks (yours highlighted)" in html and "The palace (yours highlighted" in html

    page = tmp_path / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    shot = shots / f"{name}.png"
    shot.unlink(missing_ok=True)
    done = run(browser, tmp_path, f"--screenshot={shot}", page.as_uri())
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", done.stderr[-2000:]
    assert shot.stat().st_size > 10_000  # a page with text and tables on it, not a blank one

    measured = tmp_path / f"{name}-measure.html"
    measured.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = run(browser, tmp_path, "--dump-dom", measured.as_uri())
    width = re.search(r"<title>width=(\d+) cut=(.*)</title>", dom.stdout)
    assert width, dom.stderr[-2000:]
    assert int(width.group(1)) <= CONTENT, f"{name} needs {width.group(1)} pixels on a {PHONE}-pixel screen"
    assert width.group(2) == "[]", f"{name}: cut off at {PHONE} pixels: {width.group(2)}"


@pytest.mark.parametrize("name,game,html", REPORTS[:1], ids=[REPORTS[0][0]])
def test_the_receipt_at_the_top_is_prose_the_screen_wraps(name, game, html):
    box = re.search(r'<div style="[^"]*border-left: 4px solid #999[^"]*">(.*?)</div>', html, re.DOTALL)
    assert box and "monospace" not in box.group(0) and "pre-wrap" not in box.group(0)
    # each logical line whole, as the text part wrapped it at 78 columns: the screen wraps it now
    assert "OCCUPY C5-I TAKE G1 or C5-I TAKE G2 or C3-II TAKE G1 or C3-II TAKE G2 or C5-II TAKE G1; CAPTAIN" \
        in " ".join(box.group(1).split()) and "\n" not in box.group(1).strip()
