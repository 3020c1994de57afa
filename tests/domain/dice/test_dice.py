"""W3: five identical dice, each with the five colour symbols and one wishing-stone face."""

from __future__ import annotations

import hashlib
from collections import Counter

from domain.chance import Chance
from domain.dice import RULES
from domain.playout import play_game

COLOURS = ["brown", "yellow", "pink", "green", "blue"]


def test_W3_every_roll_shows_five_dice_of_the_six_faces():
    seen: Counter = Counter()
    for number in range(40):
        seed = hashlib.sha256(f"w3:{number}".encode()).digest()
        playout = play_game(RULES, ["random", "random"], seed, number)
        for event in playout.events:
            if event["type"] in ("dice_rolled", "dice_rerolled"):
                assert len(event["dice"]) == 5
                seen.update(event["dice"])
    assert set(seen) == {*COLOURS, "stone"}


def test_W3_the_six_faces_are_equally_likely():
    # 6,000 dice from one seed: each face within 4 standard deviations of 1,000.
    chance = Chance(hashlib.sha256(b"w3-uniform").digest())
    faces = Counter()
    for roll in range(1200):
        faces.update(chance.draws(f"roll:{roll}", 5, 6))
    assert sorted(faces) == [0, 1, 2, 3, 4, 5]
    for count in faces.values():
        assert abs(count - 1000) < 4 * (6000 * (1 / 6) * (5 / 6)) ** 0.5
