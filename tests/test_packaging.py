"""An installed wheel, not only this checkout, must carry the templates and the games' data."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )
    (path,) = out.glob("referee-*.whl")
    return path


def test_wheel_contains_packages_templates_and_entry_points(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for package in ("referee", "games", "commands", "mailer"):
        assert f"{package}/__init__.py" in names
        modules = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / package).rglob("*.py"))
        assert [m for m in modules if m not in names] == [], "every module and subpackage is in the wheel"
    templates = sorted(n for n in names if n.startswith("referee/templates/"))
    expected = sorted(f"referee/templates/{p.relative_to(ROOT / 'templates').as_posix()}"
                      for p in (ROOT / "templates").rglob("*") if p.is_file())
    assert templates == expected and templates
    for lang in ("de", "en", "it"):  # the catalogues (compiled from .po when first needed) and the glossaries
        assert f"referee/i18n/locale/{lang}/LC_MESSAGES/referee.po" in names
    assert {"games/constantinopolis/glossary.toml", "games/porto_carthago/glossary.toml"} <= set(names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "referee = commands.main:main" in text
    assert "[referee.games]" in text


def test_installed_wheel_finds_its_templates_outside_the_checkout(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check",
         "--target", str(target), str(wheel)],
        check=True, capture_output=True, timeout=300,
    )
    probe = (
        "import mailer.inbound.ingest, mailer.daemon.serve, commands.demo.run; "  # the subpackages load
        "import referee.rendering as r; "
        "print(r.template_dir()); "
        "print(r.render('standings.txt', title='T', standings={'places': [], 'left': [], 'winners': ['x'], 'rule': '', 'decided': []}))\n"
        "from referee.i18n import gettext; from referee.i18n.terms import to_english; "
        "from games.porto_carthago import GAME; "
        "print(gettext('de', 'Game paused'), '|', to_english(GAME, 'de', 'Kapitän 2'))"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    where, *rendered = done.stdout.splitlines()
    assert Path(where) == target / "referee" / "templates"
    assert "Winner: x." in rendered
    assert rendered[-1] == "Partie angehalten | captain 2"  # German from the wheel's own catalogue
