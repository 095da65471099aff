"""A tournament's archive: one zip (or tar) file anyone can check, and the check.

Layout, under one folder named after the tournament::

    manifest.json      SHA-256 of every other file
    tournament.json    the settings, the seed commitment, and the seed once revealed
    roster.json        the players: name, roster rating, starting rating, drop; no address, no token
    tables.json        every round: its tables, each game's seats and seed commitment and result
    standings.json     the standings; standings.csv the same as CSV
    index.html         the results page, linking each game's log below
    games/<id>.log     each game's record, as `referee log` writes it (docs/log-format.md)

`verify` checks every hash of the manifest (and that no file is missing or extra), replays
every game from its log (referee/gamelog.py), checks each log's header against the tables
(game, players, seed commitment) and each game's seed against the tournament's, recomputes
each result, each round's tables (pairing is a function of the seed and the results before
it) and the standings, and lists every difference with the file and the place in it. The
manifest proves the files belong together; whoever publishes the archive should publish
the manifest's own SHA-256 beside it (`archive` prints it), so readers know they have the
archive that was published.
"""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..contract import Game
from ..gamelog import replay_log, write_log
from ..rng import verify_commitment
from .model import Player, Round, Tournament, game_seed
from .pairing import PairingError
from .rounds import make_round
from .standings import compute, differences
from .texts import results_page, standings_csv

FORMAT = "referee-tournament-archive"
VERSION = 1
MANIFEST = "manifest.json"
FIXED_TIME = (2000, 1, 1, 0, 0, 0)  # zip entries carry no real time, so the same tournament gives the same bytes

Progress = Callable[[int], None]  # called with 1 per game done


class ArchiveError(Exception):
    """An archive that cannot be written or read as a tournament archive."""


def _dump(value: Any) -> bytes:
    return (json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False) + "\n").encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def archive_files(t: Tournament, logs: Mapping[str, str]) -> dict[str, bytes]:
    """Every file of the archive but the manifest, by path inside the tournament's folder."""
    standings = compute(t)
    files = {
        "tournament.json": _dump(t.settings_json()),
        "roster.json": _dump([p.to_json(public=True) for p in t.players]),
        "tables.json": _dump([r.to_json() for r in t.rounds]),
        "standings.json": _dump(standings.to_json()),
        "standings.csv": standings_csv(standings).encode("utf-8"),
        "index.html": results_page(t, standings).encode("utf-8"),
    }
    for game, text in logs.items():
        files[f"games/{game}.log"] = text.encode("utf-8")
    return files


def manifest(t: Tournament, files: Mapping[str, bytes]) -> bytes:
    return _dump({"format": FORMAT, "version": VERSION, "tournament": t.name,
                  "files": {path: sha256(data) for path, data in sorted(files.items())}})


def game_log_texts(stored: Mapping[str, tuple[Mapping[str, Any], list[dict[str, Any]], Mapping[str, Any]]],
                   progress: Progress | None = None) -> dict[str, str]:
    """Each game's record from its stored meta, events and state (`referee log`)."""
    out = {}
    for game, (meta, events, state) in stored.items():
        out[game] = write_log(meta, events, state)
        if progress:
            progress(1)
    return out


def write_archive(path: str | Path, t: Tournament, logs: Mapping[str, str]) -> str:
    """Write the archive (zip, or tar for .tar, .tar.gz, .tgz); the manifest's SHA-256."""
    files = archive_files(t, logs)
    head = manifest(t, files)
    members = {MANIFEST: head, **files}
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        if _is_tar(path):
            mode = "w:gz" if path.name.endswith(("gz", ".tgz")) else "w"
            with tarfile.open(tmp, mode) as tar:  # type: ignore[call-overload]
                for name, data in members.items():
                    info = tarfile.TarInfo(f"{t.name}/{name}")
                    info.size, info.mtime, info.mode = len(data), 946684800, 0o644
                    tar.addfile(info, io.BytesIO(data))
        else:
            with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
                for name, data in members.items():
                    info = zipfile.ZipInfo(f"{t.name}/{name}", FIXED_TIME)
                    info.compress_type = zipfile.ZIP_DEFLATED
                    info.external_attr = 0o644 << 16
                    zf.writestr(info, data)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return sha256(head)


def _is_tar(path: Path) -> bool:
    return path.name.endswith((".tar", ".tar.gz", ".tgz"))


def read_members(path: str | Path) -> dict[str, bytes]:
    """Every file of an archive by its path in it (ArchiveError when it is neither zip nor tar)."""
    path = Path(path)
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                return {info.filename: zf.read(info) for info in zf.infolist() if not info.is_dir()}
        if tarfile.is_tarfile(path):
            with tarfile.open(path) as tar:
                return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}  # type: ignore[union-attr]
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        raise ArchiveError(f"{path} cannot be read: {exc}") from None
    raise ArchiveError(f"{path} is neither a zip nor a tar file")


@dataclass
class Verdict:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    games: int = 0
    steps: int = 0
    manifest_sha256: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def count_games(members: Mapping[str, bytes]) -> int:
    return sum(1 for name in members if "/games/" in f"/{name}" and name.endswith(".log"))


def verify(members: Mapping[str, bytes], games: Callable[[str], Game], progress: Progress | None = None) -> Verdict:
    """Check an archive's files (`read_members`); every problem is listed with where it is."""
    v = Verdict()
    roots = {name.split("/", 1)[0] for name in members if "/" in name}
    if len(roots) != 1 or any("/" not in name for name in members):
        v.problems.append("the archive must hold one folder (the tournament's) and nothing beside it")
        return v
    root = roots.pop()
    files = {name.split("/", 1)[1]: data for name, data in members.items()}
    head = files.pop(MANIFEST, None)
    if head is None:
        v.problems.append(f"{root}/{MANIFEST}: missing; without it nothing can be checked")
        return v
    v.manifest_sha256 = sha256(head)
    try:
        listed = json.loads(head)["files"]
        assert isinstance(listed, dict)
    except (ValueError, KeyError, TypeError, AssertionError):
        v.problems.append(f"{root}/{MANIFEST}: not a manifest (JSON with a 'files' table of SHA-256 hashes)")
        return v
    for name in sorted(set(listed) | set(files)):
        if name not in files:
            v.problems.append(f"{root}/{name}: missing (the manifest lists it)")
        elif name not in listed:
            v.problems.append(f"{root}/{name}: not in the manifest (a file added after the archive was made)")
        elif sha256(files[name]) != listed[name]:
            v.problems.append(f"{root}/{name}: its SHA-256 differs from the manifest's (the file was changed after "
                              "the archive was made)")
    try:
        t = _tournament(files)
    except (ArchiveError, ValueError, KeyError, TypeError) as exc:
        v.problems.append(f"{root}: {exc}")
        return v
    _check_games(v, root, t, files, games, progress)
    _check_seed(v, root, t)
    try:
        game = games(t.game)
        bounds = (game.min_players, game.max_players)
    except LookupError:
        bounds = (2, 5)
    if t.seed_revealed:
        _check_tables(v, root, t, bounds)
    recomputed = archive_files(t, {})
    for name in ("standings.json", "standings.csv", "index.html"):
        if name not in files:
            continue
        if name == "standings.json":
            try:
                stated = json.loads(files[name])
            except ValueError:
                v.problems.append(f"{root}/{name}: not valid JSON")
                continue
            for diff in differences(stated, json.loads(recomputed[name])):
                v.problems.append(f"{root}/{name}: {diff}")
        elif files[name] != recomputed[name]:
            v.problems.append(f"{root}/{name}: differs from the standings recomputed from the games")
    return v


def _tournament(files: Mapping[str, bytes]) -> Tournament:
    for name in ("tournament.json", "roster.json", "tables.json"):
        if name not in files:
            raise ArchiveError(f"{name} is missing, so the games cannot be checked against the tournament")
    settings = json.loads(files["tournament.json"])
    players = [Player.from_json(p) for p in json.loads(files["roster.json"])]
    rounds = [Round.from_json(r) for r in json.loads(files["tables.json"])]
    t = Tournament.from_json({**settings, "seed": settings.get("seed") or "", "players": [], "round_list": []})
    t.players, t.rounds, t.seed_revealed = players, rounds, bool(settings.get("seed"))
    return t


def _check_games(v: Verdict, root: str, t: Tournament, files: Mapping[str, bytes], games: Callable[[str], Game],
                 progress: Progress | None) -> None:
    """Replay each game; its recomputed result replaces the one stated (which is compared)."""
    for rnd in t.rounds:
        for table in rnd.tables:
            stated, table.result = table.result, None
            where = f"{root}/games/{table.game}.log"
            data = files.get(f"games/{table.game}.log")
            if progress:
                progress(1)
            if data is None:
                if stated is not None:
                    v.problems.append(f"{where}: missing, so the result of {table.game} cannot be checked")
                continue
            v.games += 1
            text = data.decode("utf-8", "replace")
            header = _header(text)
            for problem in _header_problems(t, table, header):
                v.problems.append(f"{where}: {problem}")
            result = replay_log(text, games)
            if not result.ok:
                v.problems.append(f"{where}: {'line ' + str(result.line) + ': ' if result.line else ''}{result.message}")
                continue
            v.steps += result.steps
            outcome = games(t.game).result(result.state or {})
            table.result = {"ranking": [list(g) for g in outcome.ranking], "scores": outcome.to_json()["scores"]} \
                if outcome else None
            for diff in differences(stated, table.result):
                v.problems.append(f"{root}/tables.json: round {rnd.number}, table {table.number} ({table.game}) "
                                  f"result {diff.replace('recomputed', 'the replay gives')}")


def _header(text: str) -> dict[str, Any]:
    header = {}
    for line in text.splitlines()[1:]:
        if "\t" in line or ": " not in line:
            break
        key, _, value = line.partition(": ")
        try:
            header[key] = json.loads(value)
        except ValueError:  # a header line that is not JSON is not one of ours: left out, the rest read
            pass
    return header


def _header_problems(t: Tournament, table: Any, header: Mapping[str, Any]) -> Iterable[str]:
    if header.get("game_id") != table.game:
        yield f"the log is of game {header.get('game_id')!r}, not {table.game!r}"
    if header.get("game") != t.game:
        yield f"the log is of a {header.get('game')!r} game; the tournament plays {t.game!r}"
    if header.get("players") != table.seats:
        yield f"the log's players {header.get('players')} are not the table's seats {table.seats}"
    if header.get("commitment") != table.commitment:
        yield "the log's seed commitment is not the one published in tables.json"
    seed = header.get("seed")
    if seed is None:
        yield "the log has no seed: the game was not over when the archive was made"
    elif t.seed_revealed and seed != game_seed(t.seed, table.game):
        yield "the game's seed is not the one derived from the tournament's seed"


def _check_seed(v: Verdict, root: str, t: Tournament) -> None:
    if not t.seed_revealed:
        v.notes.append("the tournament's seed is not revealed (the tournament was not over when the archive was "
                       "made): the games' seeds were checked against their own commitments, but the tables "
                       "cannot be recomputed")
    elif not verify_commitment(t.seed, t.commitment):
        v.problems.append(f"{root}/tournament.json: the seed does not match the tournament's seed commitment")


def _check_tables(v: Verdict, root: str, t: Tournament, bounds: tuple[int, int]) -> None:
    """Make every round again from the rounds before it and compare its seats."""
    for rnd in t.rounds:
        try:
            again = make_round(t.before(rnd.number), top=rnd.top if rnd.kind == "final" else None, sizes=rnd.sizes,
                               players_per_game=bounds)
        except PairingError as exc:
            v.problems.append(f"{root}/tables.json: round {rnd.number} cannot be made again: {exc}")
            continue
        stated = [(x.game, x.seats) for x in rnd.tables]
        made = [(x.game, x.seats) for x in again.tables]
        if stated != made:
            for (game, seats), (_, seats_again) in zip(stated, made):
                if seats != seats_again:
                    v.problems.append(f"{root}/tables.json: round {rnd.number}, {game}: seats {seats}, but the "
                                      f"pairing from the seed and the earlier results gives {seats_again}")
            if len(stated) != len(made):
                v.problems.append(f"{root}/tables.json: round {rnd.number} has {len(stated)} tables; the pairing "
                                  f"gives {len(made)}")
