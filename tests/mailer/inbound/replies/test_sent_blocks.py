"""The blocks sent are kept a few per address, found by Message-ID or by address and tag."""

from mailer.sent_blocks import KEPT_PER_ADDRESS, TABLE, fingerprint, remember, sent_block, sent_blocks_to


def mail(tag: str, *lines: str) -> str:
    return "\n".join(["Your move.", "", f"ORDERS {tag}", *lines, "END", "", "-- ", "Referee"])


def test_a_block_is_kept_by_message_id_and_found_again(world):
    with world.store.transaction("c") as tx:
        remember(tx, "<m1@games.test>", "dee@players.test", mail("c r9-x", "# stay", "", "#  Take  it"))
        remember(tx, "<m2@games.test>", "dee@players.test", "A mail without a block.")
        found = sent_block(tx, ["<nowhere@x>", "<m2@games.test>", "<m1@games.test>"])
    assert found.message_id == "<m1@games.test>" and found.tag == "c r9-x"
    assert found.prints == (fingerprint("# stay"), fingerprint("# take it"))


def test_only_the_last_few_blocks_to_an_address_are_kept(world):
    with world.store.transaction("c") as tx:
        for n in range(KEPT_PER_ADDRESS + 2):
            remember(tx, f"<d{n}@games.test>", "dee@players.test", mail(f"c r{n}-x", "# stay"))
        remember(tx, "<e0@games.test>", "eve@players.test", mail("c r0-x", "# stay"))
        kept = [r["message_id"] for r in tx.records(TABLE) if r["to"] == "dee@players.test"]
        assert kept == [f"<d{n}@games.test>" for n in range(2, KEPT_PER_ADDRESS + 2)]
        assert sent_block(tx, ["<e0@games.test>"]) is not None


def test_blocks_to_an_address_under_a_tag_newest_first(world):
    with world.store.transaction("c") as tx:
        remember(tx, "<a@games.test>", "dee@players.test", mail("c r1-x", "# old"))
        remember(tx, "<b@games.test>", "dee@players.test", mail("c r1-x", "# new"))
        remember(tx, "<c@games.test>", "eve@players.test", mail("c r1-x", "# other"))
        found = sent_blocks_to(tx, "dee@players.test", "C  R1-X")
        assert [block.message_id for block in found] == ["<b@games.test>", "<a@games.test>"]
        assert sent_blocks_to(tx, "dee@players.test", "c r2-x") == []
