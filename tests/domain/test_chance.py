"""domain.chance: determinism, unbiased ranges, and a pinned derivation (R1, R3)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from domain.chance import Chance, Stream, seed_commitment

ZERO_SEED = bytes(32)


def test_R3_same_seed_same_stream_shuffle_and_draws():
    seed = hashlib.sha256(b"determinism").digest()
    first, second = Chance(seed), Chance(seed)
    assert first.shuffled(range(101), "deck") == second.shuffled(range(101), "deck")
    assert first.draws("roll:3", 5, 6) == second.draws("roll:3", 5, 6)
    assert Chance.from_hex(seed.hex()).shuffled("abcdef", "deck") == first.shuffled(
        "abcdef", "deck"
    )


def test_R3_labels_and_seeds_give_independent_streams():
    chance = Chance(ZERO_SEED)
    assert chance.draws("roll:0", 20, 1000) != chance.draws("roll:1", 20, 1000)
    other = Chance(b"\x01" + bytes(31))
    assert chance.shuffled(range(50), "deck") != other.shuffled(range(50), "deck")


def test_R3_known_vector_pins_the_derivation():
    block = hmac.new(ZERO_SEED, b"deck:0", hashlib.sha256).digest()
    assert block.hex() == "51ba967fb2a3b0eb094ff9ad2461ac1b7b9c95957d376aba425b971e22936804"
    stream = Chance(ZERO_SEED).stream("deck")
    values = [stream.randbelow(1000) for _ in range(6)]
    assert values[:4] == [int.from_bytes(block[i : i + 8], "big") % 1000 for i in range(0, 32, 8)]
    assert values == [931, 507, 994, 292, 520, 818]
    assert Chance(ZERO_SEED).shuffled(range(10), "deck") == [7, 5, 9, 0, 3, 4, 6, 8, 2, 1]
    assert Chance(ZERO_SEED).draws("roll:0", 5, 6) == [1, 2, 0, 3, 4]
    assert seed_commitment(ZERO_SEED) == hashlib.sha256(ZERO_SEED).hexdigest()


@pytest.mark.parametrize("bound", [1, 2, 3, 6, 7, 101, 2**40 + 3])
def test_R1_randbelow_stays_in_range(bound):
    stream = Chance(ZERO_SEED).stream(f"range:{bound}")
    assert all(0 <= stream.randbelow(bound) < bound for _ in range(500))


def test_R1_randbelow_is_roughly_uniform():
    counts = Counter(Chance(ZERO_SEED).draws("uniform", 6000, 6))
    assert set(counts) == set(range(6))
    chi_square = sum((n - 1000) ** 2 / 1000 for n in counts.values())
    assert chi_square < 20.5  # p < 0.001 for 5 degrees of freedom


def test_R1_randbelow_rejects_the_biased_tail(monkeypatch):
    values = iter([2**64 - 1, 5])
    monkeypatch.setattr(Stream, "_next_u64", lambda self: next(values))
    assert Chance(ZERO_SEED).stream("x").randbelow(3) == 2


def test_R1_shuffle_is_a_permutation_and_bad_input_is_refused():
    items = list(range(101))
    assert sorted(Chance(ZERO_SEED).shuffled(items, "deck")) == items
    with pytest.raises(ValueError):
        Chance(b"short")
    with pytest.raises(ValueError):
        Chance(ZERO_SEED).stream("x").randbelow(0)


def _reference_stream(seed: bytes, label: str):
    """The derivation exactly as documented in domain/chance.py, with the hmac module."""
    block = 0
    while True:
        digest = hmac.new(seed, label.encode() + b":" + str(block).encode(), hashlib.sha256)
        data = digest.digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(data[offset : offset + 8], "big")
        block += 1


def _reference_randbelow(stream, n: int) -> int:
    limit = 2**64 - (2**64 % n)
    while True:
        value = next(stream)
        if value < limit:
            return value % n


@pytest.mark.parametrize("bound", [1, 2, 6, 101, 2**63 + 1, 2**64 - 1])
def test_R3_draws_and_shuffles_equal_the_documented_derivation(bound):
    for number in range(25):
        seed = hashlib.sha256(f"reference:{number}".encode()).digest()
        label = ["roll:0", "deck", "ünïcode", ""][number % 4]
        reference = _reference_stream(seed, label)
        expected = [_reference_randbelow(reference, bound) for _ in range(9)]
        assert Chance(seed).draws(label, 9, bound) == expected
        stream = Chance(seed).stream(label)
        assert [stream.randbelow(bound) for _ in range(9)] == expected
    seed = hashlib.sha256(b"reference-shuffle").digest()
    reference = _reference_stream(seed, "deck")
    items = list(range(30))
    for i in range(len(items) - 1, 0, -1):
        j = _reference_randbelow(reference, i + 1)
        items[i], items[j] = items[j], items[i]
    assert Chance(seed).shuffled(range(30), "deck") == items


@pytest.mark.parametrize("every", [2, 3, 7, 40])
def test_R3_shuffle_redraws_the_biased_tail_as_the_stream_does(monkeypatch, every):
    """The shuffle hashes its blocks up front; a rejected value (here every `every`-th one
    of the stream, forced to the top of the range) must still be drawn again from the same
    stream, blocks past the first ones included."""
    real = Chance.block_u64s

    def biased(self, prefix, index):
        values = list(real(self, prefix, index))
        for k in range(4):
            if (index * 4 + k) % every == every - 1:
                values[k] = 2**64 - 1
        return tuple(values)

    monkeypatch.setattr(Chance, "block_u64s", biased)
    seed = hashlib.sha256(b"biased-shuffle").digest()
    for count in (2, 3, 10, 30, 101):
        stream = Chance(seed).stream("deck")
        items = list(range(count))
        for i in range(count - 1, 0, -1):
            j = stream.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
        assert Chance(seed).shuffled(range(count), "deck") == items
