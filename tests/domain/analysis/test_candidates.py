"""The moves analysis values at a dice roll are the tree search's own roll choices
(domain.search.dice_tree.roll_moves): one function serves both, so analysis judges a roll
against the choices the search weighs: keep, the greedy bot's choice first and one reroll per
distinct set of rerolled faces, all legal, in a fixed order. Other stages value every move."""

from __future__ import annotations

from domain.analysis.values import candidates
from domain.dice.bots import greedy_bot
from domain.dice.commands import REROLL_BASE, REROLL_CHOICES, parse
from domain.game import evolve_all
from domain.registry import get_rules
from tests.domain.analysis.test_review import played

DICE = get_rules("keltis-dice")


def dice_decisions(seed_text: str, stage: str, limit: int = 12) -> list[tuple[dict, list]]:
    """(view, legal moves) of the first `limit` decisions at `stage` of a greedy dice game."""
    opening, turns = played(DICE, seed_text)
    state, found = DICE.fold(list(opening)), []
    for turn in turns:
        view = DICE.view(state, turn.seat)
        if view["stage"] == stage:
            found.append((view, DICE.legal_moves(state, turn.seat)))
        if len(found) == limit:
            break
        state = evolve_all(DICE.evolve, state, turn.events)
    return found


def rerolled_faces(view: dict, move) -> tuple:
    """The faces a move rerolls, sorted (keep: none)."""
    command = parse(move)
    if command.code < REROLL_BASE:
        return ()
    return tuple(sorted(view["dice"][i] for i in REROLL_CHOICES[command.code - REROLL_BASE]))


def test_roll_candidates_are_the_searchs_roll_choices():
    decisions = dice_decisions("analysis-candidates-1", "roll")
    assert len(decisions) == 12
    for view, legal in decisions:
        moves = candidates(view, legal)
        assert moves == candidates(view, legal)  # deterministic
        legal_codes = {parse(move).code for move in legal}
        assert all(parse(move).code in legal_codes for move in moves)
        faces = [rerolled_faces(view, move) for move in moves]
        assert len(faces) == len(set(faces))  # each distinct set of rerolled faces once
        assert set(faces) == {rerolled_faces(view, move) for move in legal}  # none left out
        assert faces[0] == rerolled_faces(view, greedy_bot(view, legal, None))  # greedy first


def test_other_dice_stages_value_every_legal_move():
    decisions = dice_decisions("analysis-candidates-1", "move", 4)
    assert decisions
    for view, legal in decisions:
        assert candidates(view, legal) == legal
