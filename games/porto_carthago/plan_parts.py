"""The parts of a Porto Carthago plan and their names as players write them: shared by the
grammar, the checks and the plans (plans.py explains plans as a whole).
"""

from __future__ import annotations

from referee.wording import Phrase, phrase

PARTS: dict[str, tuple[str, ...]] = {
    "lighthouse": ("dock", "reject"),
    "intrigue": ("intrigue",),
    "privilege": ("accept", "decline"),
    "refill": ("buy", "pass"),
    "extras": ("expand", "palace", "use", "done", "pass"),
    "final": ("palace", "pass"),
}
TURNS = "turns"  # `TURNS:` lines are the queue, as lines without a part name
PART_NAMES = {"lighthouse": "lighthouse", "leuchtturm": "lighthouse", "arrival": "lighthouse",
              "intrigue": "intrigue", "privilege": "privilege", "privileges": "privilege",
              "refill": "refill", "market": "refill", "extras": "extras", "extra": "extras",
              "side actions": "extras", "final": "final", "final seat": "final",
              "turns": TURNS, "queue": TURNS, "actions": TURNS}
CANCELLABLE = {**PART_NAMES, "plan": "plan", "all": "plan"}
# the decision each standing part answers
DECISIONS = {"arrival.lighthouse": "lighthouse", "intrigue.reward": "intrigue", "privilege.immediate": "privilege",
             "market.refill_buy": "refill", "action.after": "extras", "end.final_seat": "final"}
# what each part is for, in the notes a player reads about their plan ("Your plan for ...")
WHEN: dict[str, Phrase] = {
    "lighthouse": phrase("the next ship arrival"), "intrigue": phrase("trade points you gain"),
    "privilege": phrase("immediate privileges"), "refill": phrase("the buy after a refill"),
    "extras": phrase("what follows your main action"), "final": phrase("the final palace seat")}
