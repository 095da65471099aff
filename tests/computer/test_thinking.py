"""The thinking process: a decision made in a process of its own is the one made here; one
that takes too long, or a process that dies, is `ThinkingFailed` and the next decision gets
a new process."""

from __future__ import annotations

import os
import signal

import pytest

from referee import registry
from referee.computer import Observation, decide, observe
from referee.computer.thinking import Thinker, ThinkingFailed


@pytest.fixture
def seen() -> Observation:
    game = registry.get("porto-carthago")
    components = game.load_components(None)
    state = game.setup(["ann", "bob", "cid"], "think", {}, components)
    return observe(game, state, game.prompts(state)[0].player, components)


def test_a_decision_thought_apart_is_the_one_thought_here(seen):
    thinker = Thinker(timeout=60)
    try:
        for level in ("fast", "strong"):
            assert thinker.decide(seen, level, "s") == decide(registry.get(seen.game), seen, level, "s")
    finally:
        thinker.close()


def test_too_long_or_a_dead_process_fails_and_the_next_decision_starts_again(seen):
    thinker = Thinker(timeout=60)
    try:
        thinker.decide(seen, "fast", "warm")  # the process is up
        thinker.timeout = 0.5
        stopped = thinker._process.pid  # type: ignore[union-attr]
        os.kill(stopped, signal.SIGSTOP)  # a process that never answers, however fast the machine
        with pytest.raises(ThinkingFailed, match="no decision within"):
            thinker.decide(seen, "strong", "slow")
        assert thinker._process is None  # the silent process was killed, not left stopped
        with pytest.raises(ProcessLookupError):
            os.kill(stopped, 0)
        thinker.timeout = 60
        assert thinker.decide(seen, "fast", "again")  # a new process
        os.kill(thinker._process.pid, signal.SIGKILL)  # type: ignore[union-attr]
        thinker._process.wait()  # type: ignore[union-attr]
        assert thinker.decide(seen, "fast", "after a crash")  # found dead and started again
        with pytest.raises(ThinkingFailed, match="unknown level"):
            thinker.decide(seen, "clever", "x")
    finally:
        thinker.close()
