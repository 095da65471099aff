"""Reading one long mail: what a mail up to the size limit costs the worker, whoever sends it.

Each mail goes the way the daemon takes it: into the spool, then one pass of the worker
(`MailWorker.run_once`, parse, identify, read the orders and prose in the game's unit of work,
answer). The shapes are the ones that used to be dear, every one under the SMTP size limit
(`max_message_bytes`, 1 MiB by default), from the player whose token the reply address holds
unless it says otherwise:

- 400,000 short lines that are no orders (and the same from a stranger, for comparison);
- 100,000 lines of `stay`;
- 8,000 garbage lines inside an ORDERS block;
- 70,000 lines that each look like a misspelt order (`tkae consul 5`);
- as many lines as the referee reads of a player's own text (200), each an order with a
  different slip in its keyword, or each a sentence of prose full of order words: every line
  is judged; or each as long as a line of orders may be (1,000 characters of alternatives);
- one line of 1 MB;
- two orders above 250,000 quoted lines;
- an HTML body of 80,000 `<div>`s;
- 40,000 quoted `ORDERS` lines that no END closes.

Each runs in a process of its own, so that its peak memory is its own: the figure is how much
the process's peak resident size grew while the worker read and answered the mail. Targets, per
mail: at most about a second (1.0 s) and 100 MB in the worker; the answer it gets quotes at most
a page of what it refuses (60 lines), so it stays small (below 8 KB) whatever the mail holds.

Run: `.venv/bin/python bench/bench_long_mail.py [--quick]` (`--quick`: three shapes only).
"""

from __future__ import annotations

import email
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from email import policy
from pathlib import Path

from _support import HOST, build, machine, quick, settings

from mailer.outbound.notifier import SYSTEM_GAME, reply_address
from mailer.outbound.outbox import TABLE

GAME = "c"
SECONDS, MEGABYTES, ANSWER_BYTES = 1.0, 100, 8_000


# Orders with their arguments, whose keywords are misspelt below in every way that stays near.
_ORDERS = (("bid", "consul 5 up to 9 or stay"), ("build", "Textrinum or Figulina"), ("defend", "4"),
           ("take", "consul"), ("sell", "2 green"), ("exchange", "green for red"), ("discard", "1 black"),
           ("unload", "17"), ("redraw", "12 40"), ("offer", "ann give 2 gold for 1 green"))


def slips(count: int) -> list[str]:
    """*count* lines, each an order whose keyword has a different slip (a letter left out, added,
    changed or two swapped) that is near an order word and not one."""
    from referee import registry
    from referee.contract import order_keywords
    from referee.orderlines import folded_names, keyword_match

    keywords = folded_names(order_keywords(registry.get("constantinopolis")))
    letters = "abcdefghijklmnopqrstuvwxyz"
    out: list[str] = []
    for keyword, rest in _ORDERS:
        variants = {keyword[:i] + c + keyword[i + 1:] for i in range(len(keyword)) for c in letters}
        variants |= {keyword[:i] + c + keyword[i:] for i in range(len(keyword) + 1) for c in letters}
        near = [slip for slip in sorted(variants) if keyword_match(slip, keywords)[0] == "close"]
        out += [f"{slip} {rest}" for slip in near[:-(-count // len(_ORDERS))]]
    return out[:count]


def body(shape: str) -> tuple[str, str]:
    """The text of a mail of *shape*, and its content type."""
    if shape in ("short", "stranger"):
        return "\n".join("x" for _ in range(400_000)), "plain"
    if shape == "stay":
        return "\n".join("stay" for _ in range(100_000)), "plain"
    if shape == "garbage-block":
        garbage = "\n".join(f"zqx {n} wibble wobble frobnicate the quux again and again" for n in range(8_000))
        return f"ORDERS\n{garbage}\nEND", "plain"
    if shape == "near-orders":
        return "\n".join("tkae consul 5" for _ in range(70_000)), "plain"
    if shape == "near-orders-200":  # as many as are read, each a different slip: each one judged
        return "\n".join(slips(200)), "plain"
    if shape == "prose-200":
        line = ("Bidd you see what Ann did with the consul yesterday, and take the black and green "
                "goods before the end of round? Ship them on ship 2 or 3, and offer Bob 4 gold for it.")
        return "\n".join(f"{line} {n}" for n in range(200)), "plain"
    if shape == "alternatives-200":  # as many lines as are read, each as long as a line of orders may be
        alternatives = " or ".join(f"bid consul {n} up to {n + 1}" for n in range(1, 45))
        return "\n".join(f"{alternatives[:990]} or stay" for _ in range(200)), "plain"
    if shape == "one-line":
        return "word " * 200_000, "plain"
    if shape == "quoted":
        return "take consul\ndefend 4\n\n" + "\n".join("> x" for _ in range(250_000)), "plain"
    if shape == "html":
        return "<html><body>" + "".join("<div>x</div>" for _ in range(80_000)) + "</body></html>", "html"
    if shape == "open-blocks":
        return "take consul\n\n" + "\n".join("> ORDERS c r1-auction-2" for _ in range(40_000)), "plain"
    raise ValueError(shape)


SHAPES = ("short", "stranger", "stay", "garbage-block", "near-orders", "near-orders-200", "prose-200",
          "alternatives-200", "one-line", "quoted", "html", "open-blocks")
QUICK = ("short", "stay", "garbage-block")
LABELS = {"short": "400,000 short lines, no orders", "stranger": "the same from a stranger",
          "stay": "100,000 lines of stay", "garbage-block": "8,000 garbage lines in ORDERS",
          "near-orders": "70,000 misspelt-order lines", "near-orders-200": "200 misspelt-order lines (read)",
          "prose-200": "200 lines of prose (read)", "alternatives-200": "200 lines of 40 alternatives",
          "one-line": "one line of 1 MB",
          "quoted": "2 orders, 250,000 quoted lines", "html": "HTML, 80,000 divs",
          "open-blocks": "40,000 unclosed quoted blocks"}


def raw_mail(shape: str, to: str) -> bytes:
    """The mail; a stranger's goes to the game's plain address, without a player's token."""
    text, subtype = body(shape)
    sender = "stranger@elsewhere.test" if shape == "stranger" else "bob@players.test"
    if shape == "stranger":
        to = f"{GAME}@{HOST}"
    head = (f"Return-Path: <{sender}>\r\nDelivered-To: {to}\r\nFrom: {sender}\r\nTo: {to}\r\n"
            f"Subject: Re: your move\r\nMessage-ID: <{shape}@players.test>\r\nDate: Tue, 3 Mar 2026 11:02:45 +0100\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: text/{subtype}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
    return head.encode() + text.encode()


def prepare(root: Path) -> str:
    """A game with its first reports queued; the address bob replies to."""
    svc = build(settings(root))
    svc.referee.new_game("constantinopolis", [(n, f"{n}@players.test") for n in ("ann", "bob", "cid")],
                         seed="long-mail", game_id=GAME)
    seat = next(s for s in svc.store.load(GAME).meta["seats"] if s["name"] == "bob")
    return reply_address(GAME, seat, HOST)


def child(shape: str, template: Path, to: str) -> None:
    """One mail through one pass of the worker, in this process; prints the figures as JSON."""
    root = Path(tempfile.mkdtemp(prefix="bench-long-mail-"))
    try:
        shutil.copytree(template, root, dirs_exist_ok=True)
        svc = build(settings(root))
        svc.warm_up()
        worker = svc.worker()
        worker.run_once(svc.spool)  # the first pass: anything lazily loaded is loaded
        raw = raw_mail(shape, to)
        svc.spool.add(raw)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        handled = worker.run_once(svc.spool)
        took = time.perf_counter() - started
        grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        answers = []
        for store, name in ((svc.store, GAME), (svc.system_outbox.store, SYSTEM_GAME)):
            if store.exists(name):
                with store.transaction(name) as tx:
                    answers += [r["raw"] for r in tx.records(TABLE) if r["kind"] != "report"]
        text = email.message_from_string(answers[-1], policy=policy.default).get_content() if answers else ""
        print(json.dumps({"bytes": len(raw), "seconds": took, "mb": grew / 1024,
                          "outcome": handled[0].outcome if handled else "-",
                          "answer": len(answers[-1].encode()) if answers else 0, "lines": len(text.splitlines())}))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], Path(sys.argv[3]), sys.argv[4])
        return
    print(f"Long mails through the worker, {machine()}")
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-long-mail-") as tmp:
        template = Path(tmp) / "data"
        to = prepare(template)
        for shape in QUICK if quick() else SHAPES:
            out = subprocess.run([sys.executable, __file__, "--child", shape, str(template), to],
                                 capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(f"{shape}: the worker's process failed\n{out.stderr}")
            got = json.loads(out.stdout.strip().splitlines()[-1])
            ok = got["seconds"] <= SECONDS and got["mb"] <= MEGABYTES and got["answer"] <= ANSWER_BYTES
            failed |= not ok
            print(f"  {LABELS[shape]:32} {got['bytes'] / 1024:6.0f} KB  {got['outcome']:9} {got['seconds']:6.2f} s  "
                  f"{got['mb']:6.1f} MB  answer {got['answer']:6} bytes, {got['lines']:3} lines  "
                  f"{'PASS' if ok else 'FAIL'}")
    print(f"  target: each mail at most {SECONDS:g} s and {MEGABYTES} MB in the worker, its answer at most "
          f"{ANSWER_BYTES} bytes: {'FAIL' if failed else 'PASS'}")


if __name__ == "__main__":
    main()
