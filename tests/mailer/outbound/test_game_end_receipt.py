"""The receipt that opens the mail of the game's end: a plan means nothing any more, so the
receipt names the orders it read and leaves the plan out; one that set nothing but a plan
says the plan is not needed."""

from __future__ import annotations

from mailer.outbound import folding
from referee.receipts import Receipt

PHASE = {"key": "d5-turn-139", "round": 5, "name": "action turn", "when": "decade 5"}


def receipt(echo: list[str], planned: list[str], lang: str = "en") -> Receipt:
    return Receipt("accepted", game="porto-1", player="ann", phase=PHASE, echo=echo, planned=planned,
                   language=lang)


def part(r: Receipt) -> dict:
    return {"kind": "receipt", "text": r.render(brief=True), "spent": r.render(brief=True, plan_left="spent"),
            "ended": r.render(brief=True, plan_left="over")}


def texts(parts: list[dict], **how) -> list[str]:
    return [" ".join(p["text"].split()) for p in folding.as_sent(parts, **how)]


def test_orders_and_a_plan_read_at_the_end_name_only_the_orders():
    both = part(receipt(["TALENTS", "PRIVILEGE: ACCEPT", "FINAL SEAT: PALACE or PASS"], ["", "plan", "plan"]))
    assert texts([both], plan_left=True) == [
        "Accepted (action turn, decade 5): TALENTS. Plan accepted: PRIVILEGE, FINAL SEAT; see Your plan."]
    assert texts([both], plan_left=False)[0].endswith("it is all used up already.")
    assert texts([both], plan_left=False, over=True) == ["Accepted (action turn, decade 5): TALENTS."]


def test_a_plan_alone_read_at_the_end_is_said_to_be_needed_no_more():
    alone = part(receipt(["SCHLUSSPLATZ: PASSEN"], ["plan"], lang="de"))  # echoed as the player wrote it
    assert texts([alone], plan_left=False, over=True) == [
        "Plan gelesen: SCHLUSSPLATZ; die Partie ist vorbei, er wird nicht mehr gebraucht."]


def test_a_receipt_kept_before_the_ended_text_existed_reads_as_before():
    old = {"kind": "receipt", "text": "Plan accepted: X; see Your plan.", "spent": "Plan accepted: X; it is all used "
                                                                                    "up already."}
    assert texts([old], plan_left=False, over=True) == ["Plan accepted: X; it is all used up already."]
    plain = {"kind": "receipt", "text": "Accepted: pass."}
    assert texts([plain], plan_left=True, over=True) == ["Accepted: pass."]
