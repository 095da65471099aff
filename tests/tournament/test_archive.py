"""Archives: written from a finished tournament, verified, and tampered with."""

from __future__ import annotations

import hashlib
import json
import zipfile

import pytest
from click.testing import CliRunner

from commands.main import cli
from referee import registry
from referee.tournament.archive import read_members, verify

from .conftest import finish_round, make_services, once_per_run, roster


@pytest.fixture(scope="module")
def archived(tmp_path_factory):
    """The archive of a finished two-round tournament and its data directory. Made once for
    the whole run: each test only reads them (a tampered copy goes to the test's own
    directory), and playing the eight games costs more than all the tests here together."""
    return once_per_run(tmp_path_factory, "archive", make_archive)


def make_archive(root):
    svc = make_services(root / "data")
    svc.tournaments.create("cup", "constantinopolis", roster(8), rounds=2, table_size="4", seed="cup")
    finish_round(svc, "cup")
    svc.tournaments.next_round("cup")
    finish_round(svc, "cup")
    result = CliRunner().invoke(cli, ["--data-dir", str(root / "data"), "tournament", "archive", "cup", "-o",
                                      str(root / "cup.zip")])
    assert result.exit_code == 0, result.output
    return root / "cup.zip", root / "data"


def rewrite(source, target, change):
    """A copy of the archive with `change(files)` applied to its files (path -> bytes)."""
    files = read_members(source)
    change(files)
    with zipfile.ZipFile(target, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return target


def check(path):
    return CliRunner().invoke(cli, ["tournament", "verify", str(path)])


def test_the_archive_holds_everything_but_addresses_and_tokens(archived):
    path, data = archived
    files = read_members(path)
    assert sorted(files) == sorted(["cup/manifest.json", "cup/tournament.json", "cup/roster.json", "cup/tables.json",
                                    "cup/standings.json", "cup/standings.csv", "cup/index.html",
                                    *[f"cup/games/cup-r{r}-t{t}.log" for r in (1, 2) for t in (1, 2)]])
    manifest = json.loads(files["cup/manifest.json"])["files"]
    assert all(hashlib.sha256(files[f"cup/{k}"]).hexdigest() == v for k, v in manifest.items())
    everything = b"".join(files.values())
    assert b"@club.test" not in everything
    game = json.loads((data / "games" / "cup-r1-t1.json").read_text())
    for seat in game["meta"]["1"]["seats"]:
        assert seat["token"].encode() not in everything
    assert json.loads(files["cup/tournament.json"])["seed"] == "cup"
    assert b'href="games/cup-r1-t1.log"' in files["cup/index.html"]


def test_an_untouched_archive_verifies(archived, tmp_path):
    path, _ = archived
    result = check(path)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("OK: 4 game(s) replayed (")
    assert "every hash, seed, table and the standings match" in result.stdout


def test_a_tar_archive_verifies_too(archived, tmp_path):
    _, data = archived
    target = tmp_path / "cup.tar.gz"
    made = CliRunner().invoke(cli, ["--data-dir", str(data), "tournament", "archive", "cup", "-o", str(target)])
    assert made.exit_code == 0, made.output
    assert check(target).exit_code == 0


def test_one_order_changed(archived, tmp_path):
    path, _ = archived
    where = {}

    def change(files):
        name = "cup/games/cup-r1-t2.log"
        lines = files[name].decode().splitlines(keepends=True)
        for n, line in enumerate(lines):
            fields = line.split("\t")
            if len(fields) == 7 and fields[3] == "default" and fields[5] != '""':
                fields[5] = json.dumps("done")
                lines[n] = "\t".join(fields)
                where["line"] = n + 1
                break
        files[name] = "".join(lines).encode()

    result = check(rewrite(path, tmp_path / "t.zip", change))
    assert result.exit_code == 1
    assert "FAILED: cup/games/cup-r1-t2.log: its SHA-256 differs from the manifest's" in result.stderr
    assert f"FAILED: cup/games/cup-r1-t2.log: line {where['line']}: hash mismatch" in result.stderr


def test_one_result_changed_even_with_the_manifest_made_to_match(archived, tmp_path):
    path, _ = archived

    def change(files):
        tables = json.loads(files["cup/tables.json"])
        ranking = tables[1]["tables"][0]["result"]["ranking"]
        ranking[0], ranking[-1] = ranking[-1], ranking[0]
        files["cup/tables.json"] = json.dumps(tables).encode()
        manifest = json.loads(files["cup/manifest.json"])
        manifest["files"]["tables.json"] = hashlib.sha256(files["cup/tables.json"]).hexdigest()
        files["cup/manifest.json"] = json.dumps(manifest).encode()

    result = check(rewrite(path, tmp_path / "t.zip", change))
    assert result.exit_code == 1
    assert "FAILED: cup/tables.json: round 2, table 1 (cup-r2-t1) result ranking[0]" in result.stderr
    assert "the replay gives" in result.stderr
    assert "SHA-256" not in result.stderr  # the hashes agree; the replay is what catches it


def test_one_file_missing(archived, tmp_path):
    path, _ = archived
    result = check(rewrite(path, tmp_path / "t.zip", lambda files: files.pop("cup/games/cup-r2-t2.log")))
    assert result.exit_code == 1
    assert "FAILED: cup/games/cup-r2-t2.log: missing (the manifest lists it)" in result.stderr
    assert "FAILED: cup/games/cup-r2-t2.log: missing, so the result of cup-r2-t2 cannot be checked" in result.stderr


def test_standings_and_tables_are_recomputed(archived, tmp_path):
    path, _ = archived

    def change(files):
        standings = json.loads(files["cup/standings.json"])
        standings["standings"][0]["points"] += 1
        files["cup/standings.json"] = json.dumps(standings).encode()
        tables = json.loads(files["cup/tables.json"])
        seats = tables[1]["tables"][0]["seats"]
        seats[0], seats[1] = seats[1], seats[0]
        files["cup/tables.json"] = json.dumps(tables).encode()

    verdict = verify(read_members(rewrite(path, tmp_path / "t.zip", change)), registry.get)
    assert not verdict.ok
    assert any(p.startswith("cup/standings.json: standings[0].points: ") and "recomputed" in p
               for p in verdict.problems)
    assert any(p.startswith("cup/tables.json: round 2, cup-r2-t1: seats [") and "the pairing from the seed" in p
               for p in verdict.problems)


def test_not_an_archive(tmp_path):
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"hello")
    result = check(junk)
    assert result.exit_code == 1 and "neither a zip nor a tar file" in result.stderr
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as zf:
        zf.writestr("cup/tables.json", b"[]")
    result = check(empty)
    assert result.exit_code == 1 and "cup/manifest.json: missing" in result.stderr
