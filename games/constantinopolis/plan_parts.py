"""The parts of a Constantinopolis plan, their names as players write them, and what is said
when each lapses: shared by the grammar, the checks, the plan book and the plans' runner
(plans.py explains plans as a whole).
"""

from __future__ import annotations

from referee.wording import Phrase, phrase

from . import dealings

PARTS: dict[str, tuple[str, ...]] = {
    "auction": ("stay", "take", "bid"),
    "pretorio": ("good",),
    "consul": ("preempt-list", "preempt-ask"),
    "construction": ("build", "done") + dealings.KINDS,
    "donate": ("donate", "pass"),
    "store": ("keep",),
}
PART_NAMES = {"auction": "auction", "pretorio": "pretorio", "praefectus pretorio": "pretorio",
              "consul": "consul", "preempt": "consul", "construction": "construction", "construct": "construction",
              "buildings": "construction", "donate": "donate", "donation": "donate", "store": "store",
              "storage": "store", "end of round": "store"}
CANCELLABLE = {**PART_NAMES, "plan": "plan", "all": "plan", "defend": "defend"}
# why the plan for a part lapses, and what each part is for, in the notes a player reads about
# their plan ("Your plan for the donation lapses: ...")
LAPSES: dict[str, Phrase] = {
    "auction": phrase("the auction is over"),
    "pretorio": phrase("the Praefectus Pretorio's good was not yours to choose this round"),
    "consul": phrase("you are not the Consul with an unused ability this round"),
    "donate": phrase("you have nothing to donate this round"),
    "store": phrase("you have nothing to choose to keep this round")}
WHEN: dict[str, Phrase] = {
    "auction": phrase("the auction"), "pretorio": phrase("the Praefectus Pretorio's good"),
    "consul": phrase("the Consul's standing list"), "construction": phrase("your next construction turn"),
    "donate": phrase("the donation"), "store": phrase("the goods you keep")}
WHEN_DEFEND = phrase("the auction (defend limit)")  # `cancel defend`
# the prompt each part answers
DECISIONS = {"auction.choose": "auction", "auction.good": "pretorio", "construct.turn": "construction",
             "donate": "donate", "store": "store"}
SHIP = "ship"  # the other sizes of an accept-phase `ship medium or small`, while the phase runs
