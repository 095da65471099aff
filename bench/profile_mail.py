"""Where the mail worker's time goes on the loads of bench/bench_mail.py, under cProfile.

Not a benchmark (`make bench` runs only `bench_*.py`): a tool to find what to make cheaper.
The games and orders are bench_mail.py's; the worker is the daemon's own (`Services.worker`)
with the default settings, run in this process in one thread (`parallel = 1`, so that the
profiler sees the work). Mail reaches the spool the way it does under a sustained SMTP load:
`--run N` mails per game (default 2) before each pass, so most units of work hold one or two
orders, as in the daemon while mail keeps arriving; `--run 12` puts a game's whole share in
one pass (the spool filled beforehand). The sender is not run.

Run: `.venv/bin/python bench/profile_mail.py [--queued] [--games 50] [--run 2] [--send] [--top 40] [--dump FILE]`.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from pathlib import Path

from _support import NullRelay, build, settings

import bench_mail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queued", action="store_true", help="the queued-turns load instead of turns")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--run", type=int, default=2, help="mails per game in the spool before each pass")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--no-profile", action="store_true", help="only the rate, without the profiler")
    parser.add_argument("--dump", metavar="FILE", help="also write the profile to FILE, for pstats")
    parser.add_argument("--send", action="store_true", help="deliver the queued mail after each pass, unprofiled")
    parser.add_argument("--cpu", action="store_true",
                        help="time the profile in processor time, not wall-clock time (waits for the disk left out)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="profile-mail-") as tmp:
        root = Path(tmp) / "data"
        per_game: dict[str, list[tuple[str, bytes]]] = {}
        for to, raw in bench_mail.prepare(root, 1, args.queued, args.games)[0]:
            per_game.setdefault(to.split("+")[0], []).append((to, raw))
        svc = build(settings(root))
        svc.warm_up()
        worker = svc.worker()
        worker.parallel = 1
        profile = cProfile.Profile(time.process_time) if args.cpu else cProfile.Profile()
        handled, elapsed, cpu = 0, 0.0, 0.0
        for start in range(0, max(len(m) for m in per_game.values()), args.run):
            for mails in per_game.values():
                for to, raw in mails[start:start + args.run]:
                    svc.spool.add(f"Return-Path: <x@players.test>\r\nDelivered-To: {to}\r\n".encode() + raw)
            began, began_cpu = time.perf_counter(), time.process_time()
            if not args.no_profile:
                profile.enable()
            done = worker.run_once(svc.spool)
            profile.disable()
            elapsed += time.perf_counter() - began
            cpu += time.process_time() - began_cpu
            handled += len(done)
            if args.send:
                svc.send(NullRelay())
            if {h.outcome for h in done} != {"accepted"}:
                raise SystemExit(f"the worker did not accept everything: {sorted({h.outcome for h in done})}")
        print(f"{handled} mails, {'queued turns' if args.queued else 'turns'}, {args.run} per game per pass: "
              f"{handled / elapsed:.0f} mails/s{'' if args.no_profile else ' under the profiler'}, "
              f"{elapsed / handled * 1000:.2f} ms each, of which {cpu / handled * 1000:.2f} ms of processor time")
        if args.no_profile:
            return
        stats = pstats.Stats(profile)
        if args.dump:
            stats.dump_stats(args.dump)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
