"""A whole set the computer player writes for a phase played by all at once ends the player's
part of it in the real position: the sampled world's own phase key (its counters are not part
of any view) must not cut the set short, or a bot that mails it is asked again for ever."""

from referee import registry
from referee.computer import decide, observe
from referee.playthrough import play


def still_asked(game, state, player: str, lines: list[str]) -> bool:
    """Whether the player is still asked in the same phase after playing `lines` in turn in the
    real position (each must be legal when its turn comes)."""
    after = state
    for line in lines:
        order = next(o for o in game.legal_orders(after, player) if game.format(o) == line)
        after, _ = game.apply(after, player, [order])
    return game.phase(after).key == game.phase(state).key and any(p.player == player for p in game.prompts(after))


def test_a_whole_set_leaves_the_player_no_longer_asked():
    game = registry.get("constantinopolis")
    components = game.load_components(None)
    checked = []

    def look(pt):
        state = pt.state
        if len(checked) >= 12 or game.phase(state).key.split("-")[1] != "accept":
            return
        for prompt in game.prompts(state):
            seen = observe(game, state, prompt.player, components)
            lines = decide(game, seen, "fast", f"set/{len(checked)}", whole_set=True)
            assert not still_asked(game, state, prompt.player, lines), (game.phase(state).key, prompt.player, lines)
            checked.append(lines)

    for seed in ("w1", "w2", "w3"):
        play(game, ["ann", "bob", "cid"], seed, on_step=look, max_steps=400)
    assert len(checked) >= 12


def test_a_turn_by_mail_is_written_in_one_mail_up_to_its_end():
    """In the construction turn, taken one order at a time, a player by mail (`whole_set`)
    writes the turn in one mail, as a person does: the orders up to `done` (or up to one that
    draws hidden cards, after which it is asked again), all of them legal in turn in the real
    position. Without `whole_set` (a seat the referee plays, asked after every order) one."""
    game = registry.get("constantinopolis")
    components = game.load_components(None)
    longest = []

    def look(pt):
        state = pt.state
        if len(longest) >= 15 or game.phase(state).key.split("-")[1] != "construct":
            return
        for prompt in game.prompts(state):
            seen = observe(game, state, prompt.player, components)
            assert len(decide(game, seen, "fast", "turn")) == 1
            lines = decide(game, seen, "fast", "turn", whole_set=True)
            ended = not still_asked(game, state, prompt.player, lines)
            assert ended or len(lines) == 20 or lines[-1].split()[0] in ("use", "draw", "redraw"), lines
            longest.append(len(lines))

    for seed in ("t1", "t2"):
        play(game, ["ann", "bob", "cid"], seed, on_step=look, max_steps=400)
    assert len(longest) >= 15 and max(longest) >= 3, longest
