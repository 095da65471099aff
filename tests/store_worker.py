"""Run by the store tests in child processes: `python store_worker.py MODE ROOT GAME N TAG`."""

import sys

from referee.store import TinyDBStore


def main() -> None:
    mode, root, game, count, tag = sys.argv[1:6]
    store = TinyDBStore(root)
    if mode == "append":
        for i in range(int(count)):
            store.append(game, [{"type": "order", "by": tag, "n": i}])
    elif mode == "rewrite":
        # Large state rewritten over and over, so a kill lands mid-write often.
        i = 0
        while True:
            blob = f"{tag}-{i}-" + "x" * 400_000
            store.append(game, [{"type": "tick", "n": i}], state={"n": i, "blob": blob})
            print(i, flush=True)
            i += 1


if __name__ == "__main__":
    main()
