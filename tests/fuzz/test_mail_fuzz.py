"""10,000 generated and mutated mails through the mail worker against real game files.

Each mail starts from one of the client-shaped samples (addressed to game g42 with the
players' real tokens, their orders turned into this game's orders or left as they are) or is
built here in one of several shapes, is addressed as a player, a stranger, a wrong or another
game's token, and is then mutated: bytes flipped, cut short, headers repeated, MIME broken,
hostile snippets, samples spliced, Message-IDs dropped or reused, automatic-mail headers.

After every mail: the worker did not fail; and a game file changed only if the worker
accepted the mail as an order from a player whose token the mail carries, exactly one game
changed, and the order recorded is what the mail's order text says at that position. Mails
built valid and left unmutated must be accepted, so the check cannot pass by refusing
everything.
"""

from __future__ import annotations

import json
import random
import re
from email.message import EmailMessage
from pathlib import Path

import orjson
import pytest

from mailer.daemon.wiring import build
from mailer.inbound.message import parse_message
from referee.config import Limits, Settings

from ..marks import chunks
from ..race import GAME as RACE
from ..service.conftest import FakeClock

SAMPLES = sorted((Path(__file__).parents[1] / "mailer" / "inbound" / "samples").glob("*.eml"))
assert SAMPLES, "the client-shaped samples are missing"
HOST = "referee.example"
TOKENS = {"g42": {"alice": "k3j4m5n6", "bob": "q8r7s6t5", "carol": "z9y8x7w6", "dieter": "a1b2c3d4"},
          "g43": {"alice": "aaaa1111bbbb2222", "bob": "cccc3333dddd4444"}}
MAILS = 10_000
CHUNK = 500  # a fresh data directory every CHUNK mails keeps game files small
DIPLOMACY_ORDER = re.compile(rb"(?m)^([AF] [A-Z]{3}[^\r\n]*)$")
SNIPPETS = [b"\r\nContent-Type: multipart/mixed; boundary=\"\"\r\n", b"=?utf-8?q?=0D=0ABcc:_x@y?=",
            b"\r\nContent-Transfer-Encoding: base64\r\n", b"charset=\"\xff\xfe\"", b"\x00\x00\r\n\r\n",
            b"<blockquote><div class=gmail_quote>", b"\r\nPLAYER alice k3j4m5n6\r\n", b"ORDERS g42 t0\r\n",
            b"\r\nDelivered-To: g42+bob+q8r7s6t5@referee.example\r\n", b"\r\nAuto-Submitted: auto-replied\r\n",
            b"\r\nContent-Type: text/plain; charset=utf-7\r\n\r\n+AGEAYgBj-", b"ADD 2\r\nADD 3\r\n", b"\xe2\x80\xa8"]


class NullRelay:
    def deliver(self, raw, mail_from, recipients, message_id):
        return None


class World:
    """Two race games whose players hold the samples' tokens, served by the real worker."""

    def __init__(self, root: Path) -> None:
        settings = Settings(hostname=HOST, data_dir=root, limits=Limits(mails_per_sender_per_hour=10**9))
        self.svc = build(settings, clock=FakeClock())
        for gid, seats in TOKENS.items():
            self.svc.referee.new_game("race", [(p, f"{p}@players.test") for p in seats], seed=gid,
                                      options={"target": 10**6}, game_id=gid)
            with self.svc.store.transaction(gid) as tx:
                tx.set_meta(seats=[dict(s, token=seats[s["name"]]) for s in tx.meta["seats"]])
        self.worker = self.svc.worker()

    def files(self) -> dict[str, bytes]:
        return {gid: self.svc.store.path(gid).read_bytes() for gid in TOKENS}

    def current(self, gid: str) -> str:
        """The player whose turn it is, from the game's file as it is now (only that game's
        file read, with the decoder the file is written with)."""
        state = orjson.loads(self.svc.store.path(gid).read_bytes())["current"]["1"]["state"]
        return RACE.prompts(state)[0].player


def address(rng: random.Random, world: World) -> tuple[str, bool]:
    """A recipient and whether it authenticates the player whose turn it is."""
    gid = rng.choice(list(TOKENS))
    player = world.current(gid) if rng.random() < 0.75 else rng.choice(list(TOKENS[gid]))
    token = TOKENS[gid][player]
    how = rng.randrange(10)
    if how == 0:
        token = token[:-1] + ("x" if token[-1] != "x" else "y")  # one character wrong
    elif how == 1:
        other = "g43" if gid == "g42" else "g42"
        token = next(iter(TOKENS[other].values()))  # another game's token
    elif how == 2:
        return f"nosuchgame+{player}+{token}@{HOST}", False
    elif how == 3:
        return f"{gid}+mallory+{token}@{HOST}", False
    elif how == 4:
        return f"{gid}-{player}+{token.upper()}@{HOST.upper()}", player == world.current(gid)
    return f"{gid}+{player}+{token}@{HOST}", how > 1 and player == world.current(gid)


def built(rng: random.Random, world: World, n: int) -> tuple[bytes, str, bool]:
    """A mail made here: (raw, envelope recipient, valid and authenticated and unmutated-safe)."""
    to, good = address(rng, world)
    body_kind = rng.randrange(7)
    step = rng.choice([1, 2, 3, 3, 7, 0])
    order = f"ADD {step}"
    good = good and step in (1, 2, 3)
    msg = EmailMessage()
    msg["From"] = rng.choice(["Ann <ann@players.test>", "ann@players.test"] * 4 + [f"g42@{HOST}", "bad address", ""])
    good = good and "@players.test" in msg["From"]
    msg["To"] = to
    msg["Subject"] = rng.choice(["orders", "Re: [g42] Round 3: add", "=?utf-8?q?caf=C3=A9?=", ""])
    msg["Message-ID"] = f"<fuzz-{n}@players.test>"
    if body_kind == 0:
        msg.set_content(f"{order}\n")
    elif body_kind == 1:
        msg.set_content(f"ORDERS {to.split('+')[0]} t999\n{order}\nEND\n")  # names a closed phase
        good = False
    elif body_kind == 2:
        msg.set_content(f"{order}\n\nOn Monday the referee wrote:\n> ORDERS g42 t0\n> ADD 1\n> END\n")
    elif body_kind == 3:
        msg.set_content(f"<p>{order}</p><blockquote>ADD 1</blockquote>", subtype="html")
    elif body_kind == 4:
        msg.set_content(f"{order}\n", cte="base64")
    elif body_kind == 5:
        gid, player = to.split("+")[0].split("-")[0], rng.choice(["alice", "bob", "carol"])
        token = TOKENS.get(gid, TOKENS["g42"]).get(player, "nope")
        msg.replace_header("To", f"{gid}@{HOST}")
        msg.set_content(f"PLAYER {player} {token}\n{order}\n")
        to = f"{gid}@{HOST}"
        good = good and gid in TOKENS and player in TOKENS[gid] and player == world.current(gid)
    else:
        msg.set_content(rng.choice(["", "hello", "ADD", "ADD two", "ADD 1 2", "\u202eADD 1", "ADD\u00a02"]))
        good = False
    return bytes(msg), to, good


def from_sample(rng: random.Random, world: World) -> tuple[bytes, str, bool]:
    raw = rng.choice(SAMPLES).read_bytes()
    if rng.random() < 0.6:
        raw = DIPLOMACY_ORDER.sub(lambda m: f"ADD {rng.choice([1, 2, 3, 5])}".encode(), raw)
    found = re.search(rb"g42[+-][a-z0-9+]*@referee\.example|g42@referee\.example", raw)
    return raw, found.group(0).decode() if found else f"g42@{HOST}", False


def mutate(rng: random.Random, raw: bytes, seen_ids: list[bytes]) -> bytes:
    kind = rng.randrange(9)
    buf = bytearray(raw)
    if kind == 0 and buf:
        for _ in range(rng.randint(1, 12)):
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        return bytes(buf)
    if kind == 1:
        return raw[: rng.randrange(len(raw) + 1)]
    if kind == 2:
        lines = raw.split(b"\r\n") if b"\r\n" in raw else raw.split(b"\n")
        end = lines.index(b"") if b"" in lines else len(lines)
        if end:
            pick = rng.randrange(end)
            lines.insert(pick, lines[pick])
        return b"\r\n".join(lines)
    if kind == 3:
        return re.sub(rb"--[A-Za-z0-9=_.-]{3,}", lambda m: m.group(0)[: rng.randint(0, len(m.group(0)))], raw)
    if kind == 4:
        pos = rng.randrange(len(raw) + 1)
        return raw[:pos] + rng.choice(SNIPPETS) + raw[pos:]
    if kind == 5:
        other = rng.choice(SAMPLES).read_bytes()
        return raw[: rng.randrange(len(raw) + 1)] + other[rng.randrange(len(other) + 1):]
    if kind == 6:
        return re.sub(rb"(?im)^message-id:[^\r\n]*\r?\n", b"", raw, count=1)
    if kind == 7 and seen_ids:
        return re.sub(rb"(?im)^(message-id:)[^\r\n]*", lambda m: m.group(1) + b" " + rng.choice(seen_ids), raw,
                      count=1)
    return raw.replace(b"\r\n\r\n", b"\r\nAuto-Submitted: auto-replied\r\nPrecedence: bulk\r\n\r\n", 1)


def check(world: World, raw: bytes, handled, before: dict[str, bytes], after: dict[str, bytes]) -> None:
    changed = [gid for gid in TOKENS if before[gid] != after[gid]]
    assert handled.outcome != "error", handled
    if not changed:
        assert handled.outcome != "accepted", handled
        return
    assert changed == [handled.game] and handled.outcome == "accepted", (changed, handled)
    token = TOKENS[handled.game][handled.player]
    assert token.encode() in raw.lower(), f"{handled.player}'s token is not in the mail"
    old = json.loads(before[handled.game])
    new = json.loads(after[handled.game])
    event = max(new["events"].values(), key=lambda e: e["seq"])
    assert len(new["events"]) == len(old["events"]) + 1 and event["type"] == "order"
    assert event["player"] == handled.player
    mail = parse_message(raw)
    expected = RACE.parse(old["current"]["1"]["state"], handled.player, mail.orders_text)
    assert event["text"] == "\n".join(RACE.format(o) for o in expected)
    assert event["message_id"] == mail.message_id


@pytest.mark.parametrize("chunk", chunks(MAILS // CHUNK))
def test_generated_and_mutated_mail_changes_a_game_only_for_a_valid_authenticated_order(chunk, tmp_path,
                                                                                         race_registered):
    world = World(tmp_path)
    rng = random.Random(f"mail fuzz {chunk}")
    seen_ids: list[bytes] = []
    outcomes: dict[str, int] = {}
    for n in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        raw, envelope, good = built(rng, world, n) if rng.random() < 0.6 else from_sample(rng, world)
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            raw, good = mutate(rng, raw, seen_ids), False
        if rng.random() < 0.8:
            raw = f"Return-Path: <ann@players.test>\r\nDelivered-To: {envelope}\r\n".encode() + raw
        found = re.search(rb"(?im)^message-id:\s*(<[^\r\n>]*>)", raw)
        if found:
            seen_ids.append(found.group(1))
        before = world.files()
        handled = world.worker.handle(raw)
        world.svc.notifier.flush_marks()
        after = world.files()
        check(world, raw, handled, before, after)
        if good:
            assert handled.outcome == "accepted", (handled, raw)
        outcomes[handled.outcome] = outcomes.get(handled.outcome, 0) + 1
        if n % 50 == 0:
            world.svc.send(NullRelay())
    assert outcomes.get("accepted", 0) >= CHUNK // 40, outcomes
    assert {"rejected", "refused", "unmatched", "ignored"} <= set(outcomes), outcomes


def test_a_utf7_body_that_decodes_to_lone_surrogates_still_gets_its_answer(tmp_path, race_registered):
    """Found by the fuzzing above: the rejection quoting such a line could not be encoded."""
    world = World(tmp_path)
    to = f"g42+alice+{TOKENS['g42']['alice']}@{HOST}"
    raw = (f"From: ann@players.test\r\nTo: {to}\r\nMessage-ID: <u7@players.test>\r\n"
           "Content-Type: text/plain; charset=utf-7\r\n\r\n+aaaa1111bbbb2222 ADD 1\r\n").encode()
    before = world.files()
    handled = world.worker.handle(raw)
    assert handled.outcome in ("rejected", "refused"), handled
    assert world.files() == before
    world.svc.notifier.flush_marks()
    assert world.svc.send(NullRelay()).sent
