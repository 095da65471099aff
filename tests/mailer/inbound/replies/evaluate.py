"""How each way of finding a reply's new text does on the corpus: ours (mailer/inbound/quotes.py),
the one before it (quotes.py at the base commit, given as a file), `mail-parser-reply` and
`quotequail`. Everything else (the ORDERS blocks, the comparison with the block sent, prose
set aside) is the same for all four, so the figures compare the quote finding alone.

Run in an environment that has the two libraries (they are not the project's dependencies):
``python -m tests.mailer.inbound.replies.evaluate [OLD_QUOTES_PY]``. It prints, per way, the shapes
read exactly (accepted with exactly the expected orders, or refused when none are expected),
those misread (an order taken that the player did not give) and the rest (refused or short).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable
from unittest import mock

from mailer.inbound import orders
from mailer.inbound.quotes import Reply, split_reply

from .mutt_replies import EXPECTED, HERE
from .shapes import SHAPES
from .world import World

Finder = Callable[[list[str]], Reply]


def from_text(reply_text: Callable[[str], str]) -> Finder:
    """A finder from a library that returns the new text: its lines found in order in the body."""
    def find(lines: list[str]) -> Reply:
        wanted = [line.strip() for line in reply_text("\n".join(lines)).split("\n") if line.strip()]
        own, at = [], 0
        for index, line in enumerate(lines):
            if at < len(wanted) and line.strip() == wanted[at]:
                own.append(index)
                at += 1
        cut = own[-1] + 1 if own else len(lines)
        return Reply(tuple(own), cut)
    return find


def finders(old: Path | None) -> dict[str, Finder]:
    found: dict[str, Finder] = {"ours": split_reply}
    if old is not None:
        spec = importlib.util.spec_from_file_location("old_quotes", old)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        found["before (base quotes.py)"] = from_text(lambda text: "\n".join(module.visible_lines(text.split("\n"))))
    try:
        from mailparser_reply import EmailReplyParser

        parser = EmailReplyParser(languages=["en", "de", "it", "fr", "es", "nl", "pl", "sv", "da", "ja", "cs"])
        found["mail-parser-reply"] = from_text(lambda text: parser.parse_reply(text) or "")
    except ImportError:  # the evaluated libraries are not project dependencies: install them to compare
        pass
    try:
        import quotequail

        found["quotequail"] = from_text(lambda text: "\n".join(part for shown, part in quotequail.quote(text) if shown))
    except ImportError:
        pass
    return found


def cases() -> list[tuple[str, str, Callable, tuple[str, ...]]]:
    out = [(shape.id, shape.game, shape.build, shape.taken) for shape in SHAPES]
    for name, taken in json.loads(EXPECTED.read_text(encoding="utf-8")).items():
        raw = (HERE / name).read_bytes()
        out.append((f"mutt-{name}", "c", lambda report, raw=raw: raw, tuple(taken)))
    return out


def run(finder: Finder, template: Path) -> dict[str, list[str]]:
    results: dict[str, list[str]] = {"exact": [], "misread": [], "not read": []}
    with mock.patch.object(orders, "split_reply", finder):
        for number, (name, game, build, taken) in enumerate(cases()):
            with tempfile.TemporaryDirectory() as tmp:
                import shutil

                shutil.copytree(template, tmp, dirs_exist_ok=True)
                world = World(Path(tmp))
                report = world.report(game)
                try:
                    world.read(build(report), report.reply_to)
                except Exception:
                    results["not read"].append(name)
                    continue
                got = world.taken(game)
            if got == list(taken):
                results["exact"].append(name)
            elif any(order not in taken for order in got):
                results["misread"].append(name)
            else:
                results["not read"].append(name)
    return results


def main() -> None:
    old = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "template"
        world = World(template)
        world.start("c")
        world.start("p")
        total = len(cases())
        for label, finder in finders(old).items():
            started = time.perf_counter()
            results = run(finder, template)
            took = time.perf_counter() - started
            print(f"{label:26} exact {len(results['exact']):3}/{total}  misread {len(results['misread']):2}  "
                  f"not read {len(results['not read']):3}  ({took:.1f} s)")
            for kind in ("misread", "not read"):
                if results[kind]:
                    print(f"    {kind}: {', '.join(results[kind][:40])}{' ...' if len(results[kind]) > 40 else ''}")


if __name__ == "__main__":
    main()
