"""C4, P1-P4: keltis-card's commands are shared values that compare as their fields do."""

from __future__ import annotations

import copy

from domain.card import RULES
from domain.card.commands import COMMANDS, parse
from tests.domain.card.positions import PLAY, position


def test_C4_a_shared_command_equals_exactly_the_dicts_of_its_fields():
    state = position(hands={0: ["blue-7", "blue-7", "point-5"]}, step=PLAY)
    moves = RULES.legal_moves(state, 0)
    discard = {"action": "discard", "card": "blue-7"}
    assert discard in moves and moves.count(discard) == 1  # a twin is listed once
    shared = parse(discard)
    assert shared == discard and discard == shared
    assert (shared != discard, discard != shared) == (False, False)
    assert shared == copy.deepcopy(shared) and type(copy.deepcopy(shared)) is dict
    assert shared != {"action": "discard", "card": "point-5"}
    others = [move for move in COMMANDS.values() if move is not shared]
    assert all(move != shared for move in others)
    assert not any(move == shared for move in others)
    assert {"action": "lay", "card": "point-5", "row": "point"} in moves
    assert {"action": "lay", "card": "point-5", "row": "blue"} not in moves
