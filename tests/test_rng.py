"""The seeded stream is defined by referee/rng.py alone; these pinned values must never change,
or every recorded game log would stop replaying."""

import hashlib
import hmac
import json

import pytest

from referee.rng import Rng, commitment, new_seed, verify_commitment


def test_pinned_draws_of_a_known_seed():
    rng = Rng.from_seed("pinned-seed", "deck")
    assert [rng.randbelow(100) for _ in range(8)] == [19, 23, 82, 39, 72, 7, 70, 17]
    assert rng.shuffled(list(range(10))) == [8, 6, 4, 1, 5, 0, 7, 3, 2, 9]
    assert rng.counter == 17


def test_pinned_helpers():
    rng = Rng.from_seed("pinned-seed")
    assert rng.randint(1, 6) == 5
    assert rng.choice("abcdef") == "d"
    assert rng.sample(list(range(20)), 4) == [3, 17, 9, 0]
    assert rng.to_json() == {
        "key": "e546d8d74d389ea25b4ae3e995fa2c623270cf2769df486e4c5004f9775c92e3",
        "counter": 6,
    }


def test_the_stream_is_hmac_sha256_of_key_and_counter():
    """Written out by hand so the algorithm is documented and reproducible elsewhere."""
    key = hmac.new(b"pinned-seed", b"referee/deck", hashlib.sha256).digest()
    block = hmac.new(key, (0).to_bytes(8, "big"), hashlib.sha256).digest()
    word = int.from_bytes(block[:8], "big")
    assert Rng.from_seed("pinned-seed", "deck").randbelow(100) == word % 100


@pytest.mark.parametrize("key", [b"k" * 32, b"", b"long" * 40])
def test_every_word_is_the_hmac_of_the_counter(key):
    """The precomputed HMAC states give exactly the words the hmac module gives."""
    rng = Rng(key, 5)
    for counter in range(5, 305):
        block = hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        assert rng._word() == int.from_bytes(block[:8], "big")


def test_purposes_are_independent_streams():
    a = Rng.from_seed("s", "deck")
    b = Rng.from_seed("s", "order")
    assert [a.randbelow(1000) for _ in range(5)] != [b.randbelow(1000) for _ in range(5)]


def test_state_round_trips_through_json_and_resumes():
    rng = Rng.from_seed("resume", "x")
    for _ in range(7):
        rng.randbelow(50)
    saved = json.loads(json.dumps(rng.to_json()))
    expected = [rng.randbelow(1_000_000) for _ in range(20)]
    resumed = Rng.from_json(saved)
    assert [resumed.randbelow(1_000_000) for _ in range(20)] == expected


def test_randbelow_is_in_range_and_covers_it():
    rng = Rng.from_seed("range")
    seen = {rng.randbelow(7) for _ in range(500)}
    assert seen == set(range(7))
    assert all(1 <= rng.randint(1, 3) <= 3 for _ in range(100))


def test_shuffle_is_a_permutation():
    rng = Rng.from_seed("perm")
    items = list(range(50))
    assert sorted(rng.shuffled(items)) == items


def test_bad_arguments():
    rng = Rng.from_seed("bad")
    with pytest.raises(ValueError):
        rng.randbelow(0)
    with pytest.raises(IndexError):
        rng.choice([])
    with pytest.raises(ValueError):
        rng.sample([1, 2], 3)


def test_seed_commitment():
    assert commitment("pinned-seed") == hashlib.sha256(b"pinned-seed").hexdigest()
    assert commitment("pinned-seed") == "e32113b432ba53c778db6acb34d844c79b67ce022f8824993702aa3a653bf3b4"
    seed = new_seed()
    assert len(seed) == 64 and seed != new_seed()
    assert verify_commitment(seed, commitment(seed).upper())
    assert not verify_commitment(seed + "0", commitment(seed))
