"""What happened since a player's last mail, as the text part tells it (mailer/outbound/news.py):
each thing once, a plan step with what it did, and a long stretch in short."""

from __future__ import annotations

import random
import textwrap

from mailer.outbound import news
from mailer.outbound.news import LONG, SHORT, grouped, in_short, summary, told

PLAYERS = ["ann", "bob"]


def test_the_readers_own_plan_is_not_echoed_and_a_plan_step_reads_with_what_it_did():
    events = [("plan.set", "Your plan for the auction: stay or take free."),
              ("queue.set", "2 orders queued: TALENTS; REFILL."),
              ("defend.set", "You will defend your office up to 2 gold in the next auction."),
              ("plan.used", "Your plan plays 'stay'."), ("auction.stay", "ann stays in Consul."),
              ("auction.stay", "bob stays in Praefectus Urbi.")]
    assert grouped(events, PLAYERS) == ["Your plan plays 'stay': ann stays in Consul.",
                                        "bob stays in Praefectus Urbi."]
    # the step's player goes on on its line with what they did next
    more = [("queue.used", "Your queued order is carried out."), ("order", "ann: REFILL"),
            ("refill", "ann refills the market: G1 G2."), ("order", "bob: TALENTS")]
    assert grouped(more, PLAYERS) == ["Your queued order is carried out: ann: REFILL; refills the market: G1 G2.",
                                      "bob: TALENTS"]
    assert [t.lead for t in told(more)][:1] == ["ann: REFILL"]


def test_a_short_stretch_is_told_as_it_came_and_a_repeat_once():
    events = [("build", "ann buys Cura for 16 gold."), ("build", "bob buys Pistrinum for 6 gold.")]
    assert in_short(events, PLAYERS) == (grouped(events, PLAYERS), False)
    again = [("talents", "bob takes 3 talents."), ("x", "ann refills the market."), ("talents", "bob takes 3 talents.")]
    lines, short = in_short(again, PLAYERS)
    assert short and lines == ["bob takes 3 talents (2 times).", "ann refills the market."]


def test_a_longer_stretch_leaves_out_the_minor_kinds_and_never_everything():
    events = [(f"k{i}", f"ann does thing number {i} of a long list of things.") for i in range(4)]
    events += [("bid", f"bob bids {i} on something held by somebody else at the table.") for i in range(6)]
    assert len(grouped(events, PLAYERS)) > 1
    lines, short = in_short(events, PLAYERS, minor={"bid"})
    assert short and not any("bids" in line for line in lines) and lines[0].startswith("ann does thing number 0")
    assert in_short(events, PLAYERS, minor={"bid", "k0", "k1", "k2", "k3"}) == (grouped(events, PLAYERS), False)


def test_a_long_stretch_is_told_player_by_player():
    events = []
    for i in range(12):
        events += [("build", f"ann buys building number {i} for {i} gold in the construction."),
                   ("produce", f"bob produces {i} green and a great deal of other goods besides."),
                   ("market", "The market moves to another card.")]
    assert sum(len(line) // 70 + 1 for line in grouped(events, PLAYERS)) > LONG > SHORT
    lines, short = in_short(events, PLAYERS, table={"produce"})
    assert short and lines[0].startswith("ann: buys building number 0 for 0 gold") and "bob" not in " ".join(lines)
    assert lines[1] == "The market moves to another card (12 times)." and len(lines) == 2
    whole = summary(events, PLAYERS)
    assert whole[0].startswith("ann: buys") and whole[1].startswith("bob: produces 0 green")


def test_a_plan_step_keeps_the_minor_event_it_caused_and_joins_no_other_players_move():
    """A step whose event is of a minor kind (`done` ends a turn) is not glued to the next
    player's move when the minor kinds are left out."""
    events = [(f"k{i}", f"bob does thing number {i} of a long list of things.") for i in range(4)]
    events += [("plan.used", "Your plan plays 'done'."), ("construct.done", "ann ends the construction turn."),
               ("build", "bob buys Hospitium for 9 gold.")]
    events += [("bid", f"bob bids {i} on something held by somebody else at the table.") for i in range(6)]
    lines, short = in_short(events, PLAYERS, minor={"bid", "construct.done"})
    assert short and "Your plan plays 'done': ann ends the construction turn." in lines
    assert not [line for line in lines if "plays 'done': bob" in line]


def test_a_join_wraps_only_the_lines_end_again_and_counts_as_a_whole_wrap_does():
    """`Wrapped.joined` rewraps only the last two pieces; the line it gives, and the lines it
    counts, are those of wrapping the whole joined line, whatever the words: long ones, runs
    of spaces, full stops, capitals, a tab or a line break."""
    rng = random.Random("joins")
    words = ["a", "ann", "sells", "Emporium.", "gold;", "x" * 30, "y" * 80, "...", "  ", "\t", "B.", "z\nq"]
    for n in range(400):
        width = rng.choice([10, 20, 74])
        line = news.Wrapped.of(" ".join(rng.choice(words) for _ in range(rng.randrange(1, 30))), width)
        for _ in range(rng.randrange(1, 12)):
            text = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 8)))
            whole = textwrap.wrap(news._joined(line.text, text), width, break_long_words=False, break_on_hyphens=False)
            line = line.joined(text)
            assert line.lines == whole, (n, line.text)
            assert len(line) == (len(whole) or 1)


def test_a_long_run_of_one_kind_joins_as_wrapping_each_join_whole_did():
    events = [("order", f"{('ann', 'bob')[n % 2]} adds {n % 7}{'.' if n % 3 else ''}") for n in range(300)]
    events += [("order", "Bob. " + "w" * 90), ("order", "ann\tadds 1"), ("order", "cid adds 2")]

    def whole(line, text):  # how a join was decided before: the joined line wrapped whole
        joined = news._joined(line, text)
        return news._lines(joined, 74) <= news._lines(line, 74) + news._lines(text, 74)

    expected: list[str] = []
    for kind, text in events:
        if expected and whole(expected[-1], text):
            expected[-1] = news._joined(expected[-1], text)
        else:
            expected.append(text)
    assert news.grouped(events, ["cid", "dee"]) == expected


def test_players_who_do_the_same_thing_in_a_row_are_named_after_the_first():
    talents = "takes 3 talents instead of an action card."
    events = [("talents", f"{p} {talents}") for p in ("bob", "ann", "cid", "dee")]
    players = ["ann", "bob", "cid", "dee"]
    assert grouped(events[:2], players) == [f"bob {talents[:-1]}; likewise ann."]
    assert grouped(events, players) == [f"bob {talents[:-1]}; likewise ann, cid and dee."]
    assert grouped(events[:3], players, lang="de") == [f"bob {talents[:-1]}; ebenso ann und cid."]
    assert grouped(events[:3], players, lang="it") == [f"bob {talents[:-1]}; lo stesso per ann e cid."]
    # only word for word, only in a row of one kind, never the same player twice, and never
    # an order as sent ("ann: PASS") or a plan's step
    other = [("talents", "bob takes 3 talents instead of an action card."),
             ("talents", "ann takes 2 talents instead of an action card.")]
    assert "likewise" not in " ".join(grouped(other, players))
    apart = [events[0], ("refill", "cid refills the market."), events[1]]
    assert "likewise" not in " ".join(grouped(apart, players))
    twice = [("pass", "ann passes."), ("pass", "bob passes."), ("pass", "ann passes.")]
    assert grouped(twice, players) == ["ann passes; likewise bob; ann passes."]
    sent = [("order", "ann: PASS"), ("order", "bob: PASS")]
    assert "likewise" not in " ".join(grouped(sent, players))
    step = [("plan.used", "Your plan plays 'pass'."), ("pass", "ann passes."), ("pass", "bob passes.")]
    assert grouped(step, players) == ["Your plan plays 'pass': ann passes.", "bob passes."]


def test_a_plan_step_is_never_counted_as_a_repeat_nor_parted_from_what_it_did():
    """`Your queued order is carried out.` reads the same whatever it carries out: said once
    with how often it would tell one refill as three and leave the others without their step."""
    events = [("queue.used", "Your queued order is carried out."), ("refill", "ann refills the market: G2 G3."),
              ("talents", "bob takes 3 talents."), ("queue.used", "Your queued order is carried out."),
              ("done", "ann ends the action turn."), ("talents", "bob takes 3 talents."),
              ("plan.used", "Carried out from your plan."), ("refill", "ann buys G3 after the refill.")]
    said = news.once(events)
    assert said == [*events[:2], ("talents", "bob takes 3 talents (2 times)."), *events[3:5], *events[6:]]
    assert [t.text for t in told(said)] == [
        "Your queued order is carried out: ann refills the market: G2 G3.", "bob takes 3 talents (2 times).",
        "Your queued order is carried out: ann ends the action turn.",
        "Carried out from your plan: ann buys G3 after the refill."]


def test_a_long_stretch_told_whole_says_a_repeat_once_too():
    """Told whole because in short it takes no fewer lines, a stretch still says a repeat once:
    `bob takes 3 talents ...; likewise cid` would say again what its first line said."""
    talents = "{} takes 3 talents instead of an action card."
    events = [("talents", talents.format("bob"))] + [
        (f"k{i}", f"ann does thing number {i} of a list of things that is long enough.") for i in range(7)] + [
        ("talents", talents.format("bob")), ("talents", talents.format("cid"))]
    assert sum("bob takes 3 talents" in line for line in grouped(events, PLAYERS + ["cid"])) == 2
    lines, short = in_short(events, PLAYERS + ["cid"])
    assert short and sum("bob takes 3 talents" in line for line in lines) == 1
    assert "bob takes 3 talents instead of an action card (2 times)." in lines
