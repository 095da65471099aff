"""Replies composed by mutt itself: the real program quotes the report, sets the headers and
encodes the text (format=flowed or not, the charset it picks), and a scripted editor types
what a player would. `python -m tests.mailer.inbound.replies.mutt_replies DIR` writes them; the corpus
in mutt/ was written so, and tests/mailer/inbound/replies/test_mutt.py writes them again whenever mutt
is installed, to check they still read the same.
"""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .world import World

HERE = Path(__file__).parent / "mutt"
EXPECTED = HERE / "expected.json"
TIMEOUT = 60.0  # seconds mutt may take on a busy machine before it is given up on


@dataclass(frozen=True)
class Variant:
    name: str
    attribution: str
    edit: str  # top, bottom, block, uncomment: where the editor types
    text: str  # what the player types (the orders and their prose)
    taken: tuple[str, ...]
    flowed: bool = False
    charset: str = "utf-8"  # mutt's send_charset list starts with this
    signature: str = ""


_ORDERS = "take Consul\ndefend 4"
VARIANTS = [
    Variant("en-top", "On %d, %n wrote:", "top", f"Hi all,\n\n{_ORDERS}\n\nThanks,\nBob", ("take consul", "defend 4")),
    Variant("en-bottom-flowed", "On %d, %n wrote:", "bottom", f"{_ORDERS}\n\nCheers", ("take consul", "defend 4"),
            flowed=True, signature="Bob Miller\nhttps://bob.example"),
    Variant("en-in-block", "On %d, %n wrote:", "block", _ORDERS, ("take consul", "defend 4")),
    Variant("en-uncomment", "%n <%a> wrote:", "uncomment", "", ("stay",), flowed=True),
    Variant("de-top-latin1", "Am %{%d.%m.%Y} um %{%H:%M} schrieb %n:", "top",
            f"Hallo zusammen,\nhier meine Befehle:\n{_ORDERS}\n\nViele Grüße\nBob", ("take consul", "defend 4"),
            charset="iso-8859-1"),
    Variant("de-in-block-flowed", "Am %{%d.%m.%y} um %{%H:%M} schrieb %n:", "block", _ORDERS,
            ("take consul", "defend 4"), flowed=True),
    Variant("it-bottom", "Il %{%d/%m/%Y %H:%M}, %n ha scritto:", "bottom", f"Ciao,\n{_ORDERS}\n\nSaluti", 
            ("take consul", "defend 4"), signature="Bob"),
    Variant("fr-top-cp1252", "Le %{%d/%m/%Y à %H:%M}, %n a écrit :", "top",
            f"Bonjour à tous,\nvoici mes ordres « définitifs » :\n{_ORDERS}\n\nCordialement,\nBob",
            ("take consul", "defend 4"), charset="windows-1252"),
    Variant("es-in-block", "El %{%d/%m/%y a las %H:%M}, %n escribió:", "block", _ORDERS, ("take consul", "defend 4")),
    Variant("nl-top", "Op %{%d-%m-%Y om %H:%M} schreef %n:", "top", f"Hoi allemaal,\n{_ORDERS}\n\nGroeten,\nBob",
            ("take consul", "defend 4")),
    Variant("pl-bottom-latin2", "W dniu %{%d.%m.%Y o %H:%M}, %n pisze:", "bottom",
            f"Cześć wszystkim,\n{_ORDERS}\n\nPozdrawiam,\nBob", ("take consul", "defend 4"), charset="iso-8859-2"),
    Variant("sv-top-flowed", "Den %{%Y-%m-%d kl. %H:%M}, skrev %n:", "top", f"Hej allihop,\n{_ORDERS}\n\nHälsningar,\nBob",
            ("take consul", "defend 4"), flowed=True),
    Variant("da-in-block", "Den %{%d-%m-%Y kl. %H:%M} skrev %n:", "block", _ORDERS, ("take consul", "defend 4")),
    Variant("ru-top-koi8", "%{%d.%m.%Y %H:%M}, %n пишет:", "top", f"Привет всем,\n{_ORDERS}\n\nС уважением,\nБоб",
            ("take consul", "defend 4"), charset="koi8-r"),
    Variant("ja-bottom", "%{%Y年%m月%d日} %n <%a>:", "bottom", f"こんにちは。\n{_ORDERS}\n\nよろしくお願いします。",
            ("take consul", "defend 4"), charset="iso-2022-jp"),
    Variant("en-block-and-top", "On %d, %n wrote:", "both", "stay", ("stay",)),  # the own text wins
    Variant("en-untouched", "On %d, %n wrote:", "top", "Hi all,\nI will send my orders tomorrow.\n\nBob", ()),
]

EDITOR = r'''
import os, sys
path, how, text = sys.argv[1], os.environ["REPLY_EDIT"], os.environ["REPLY_TEXT"]
with open(path, encoding="utf-8") as f:
    lines = f.read().split("\n")
typed = text.split("\n") if text else []
if how in ("block", "both"):
    end = max(i for i, line in enumerate(lines) if line.rstrip() in ("> END", ">END"))
    lines[end:end] = ["take Consul", "defend 4"] if how == "both" else typed
    if how == "both":
        lines[0:0] = typed + [""]
elif how == "uncomment":
    at = next(i for i, line in enumerate(lines) if line.rstrip() in ("> # stay", "># stay"))
    lines[at] = lines[at].replace("# stay", "stay")
elif how == "top":
    lines[0:0] = typed + [""]
else:
    cut = next((i for i, line in enumerate(lines) if line == "-- "), len(lines))
    while cut > 0 and not lines[cut - 1].strip():
        cut -= 1
    lines[cut:cut] = [""] + typed
with open(path, "w", encoding="utf-8") as f:
    f.write("\n".join(lines))
'''


def available() -> bool:
    return shutil.which("mutt") is not None


def _muttrc(work: Path, variant: Variant) -> Path:
    sig = work / "signature"
    sig.write_text(variant.signature + "\n" if variant.signature else "", encoding="utf-8")
    rc = work / "muttrc"
    charsets = ":".join(dict.fromkeys(["us-ascii", variant.charset, "utf-8"]))
    attribution = variant.attribution.replace('"', '\\"')
    rc.write_text(f"""set from="Bob <bob@players.test>"
set use_from=yes
set realname="Bob"
set charset="utf-8"
set send_charset="{charsets}"
set sendmail="{sys.executable} {work / 'save.py'}"
set editor="{sys.executable} {work / 'edit.py'}"
set mbox_type=Maildir
set folder="{work}"
set record=""
set postpone=no
set move=no
set include=yes
set fast_reply=yes
set reply_to=yes
set askcc=no
set abort_unmodified=no
set edit_headers=no
set sig_dashes=yes
set signature="{sig if variant.signature else ''}"
set text_flowed={'yes' if variant.flowed else 'no'}
set indent_string="> "
set attribution="{attribution}"
set attribution_locale="C.UTF-8"
set date_format="!%a, %d %b %Y %H:%M"
set quit=yes
set beep=no
set wait_key=no
set header_cache=""
set mail_check_stats=no
set user_agent=yes
""", encoding="utf-8")
    return rc


def compose(report_raw: bytes, variant: Variant) -> bytes:
    """mutt's reply to the report, edited as the variant says."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for sub in ("cur", "new", "tmp"):
            (work / "inbox" / sub).mkdir(parents=True)
        (work / "inbox" / "new" / "1.report").write_bytes(report_raw)
        (work / "edit.py").write_text(EDITOR, encoding="utf-8")
        out = work / "sent.eml"
        (work / "save.py").write_text(f"import sys\nopen({str(out)!r}, 'wb').write(sys.stdin.buffer.read())\n")
        rc = _muttrc(work, variant)
        env = dict(os.environ, TERM="xterm", HOME=tmp, REPLY_EDIT=variant.edit, REPLY_TEXT=variant.text,
                   LANG="C.UTF-8", LC_ALL="C.UTF-8", TZ="UTC")
        _run(["mutt", "-n", "-F", str(rc), "-f", str(work / "inbox")], env,
             [(b"r:Reply", b"r"), (b"y:Send", b"y"), (b"r:Reply", b"q")])
        if not out.exists():
            raise RuntimeError(f"mutt wrote no reply for {variant.name}")
        return out.read_bytes()


def _run(argv: list[str], env: dict[str, str], steps: list[tuple[bytes, bytes]]) -> None:
    """mutt wants a terminal: run it on a pseudo-terminal and press each key once the screen
    shows what comes before it (the compose menu, then the index)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    deadline = time.monotonic() + TIMEOUT
    seen = b""
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            if steps and steps[0][0] in seen:
                os.write(fd, steps.pop(0)[1])
                seen = b""
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
        os.kill(pid, 9)
    finally:
        os.close(fd)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


def report_raw(world: World) -> bytes:
    """The report as it left the referee: its raw bytes from the game's outbox."""
    from mailer.outbound.outbox import TABLE

    report = world.report("c")
    with world.store.transaction("c") as tx:
        record = next(r for r in tx.records(TABLE) if r["message_id"] == report.message_id)
    return record["raw"].encode("utf-8", "surrogateescape")


def write(directory: Path, world: World) -> dict[str, list[str]]:
    directory.mkdir(parents=True, exist_ok=True)
    raw = report_raw(world)
    expected = {}
    for variant in VARIANTS:
        (directory / f"{variant.name}.eml").write_bytes(compose(raw, variant))
        expected[f"{variant.name}.eml"] = list(variant.taken)
    return expected


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp))
        world.start("c")
        found = write(target, world)
    (target / "expected.json").write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(found)} replies written to {target}")
