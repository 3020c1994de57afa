"""E4, F5, E6: a game ended by 30 idle turns in a row can be analysed like any other: its
log folds to the end the rules named, and every decision with a choice is judged, those of
the idle run and (card) of the final round that follows it included."""

from __future__ import annotations

import pytest

from domain.analysis.review import Turn, analyse, decisions
from domain.analysis.values import candidates
from domain.endless import IDLE_TURNS
from domain.game import evolve_all
from domain.registry import get_rules
from domain.search.budget import IterationBudget
from tests.support.idle_play import idle_game


def _turns(opening: list[dict], played: list) -> list[Turn]:
    """The played turns as analysis reads them (versions as a stored log numbers them:
    entry 1 is game_created, the opening follows)."""
    version, made = len(opening) + 1, []
    for seat, move, events in played:
        made.append(Turn(version + 1, seat, move, events))
        version += len(events)
    return made


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_E4_F5_E6_a_game_ended_by_idle_turns_is_analysed_to_its_end(game):
    rules = get_rules(game)
    _, opening, played, final = idle_game(game, label="analysis idle end")
    assert rules.result(final)["ended_by"] == "idle_turns"
    turns = _turns(opening, played)

    folded = evolve_all(rules.evolve, rules.fold(opening), [e for t in turns for e in t.events])
    assert rules.result(folded) == rules.result(final)  # the log folds to the same end
    assert rules.full_view(folded)["idle_turns"] == IDLE_TURNS

    found = analyse(rules, "g-idle", opening, turns, 2, IterationBudget(1), candidates)
    choices = [d.step for d in decisions(rules, opening, turns) if len(d.legal) > 1]
    assert [line["step"] for line in found["decisions"]] == choices
    assert choices[-1] >= len(turns) - 2  # the last decisions, at the very end, are judged
    assert all(line["loss"] >= 0 for line in found["decisions"])
    assert [seat["decisions"] for seat in found["seats"]] == [
        sum(1 for line in found["decisions"] if line["seat"] == seat) for seat in (0, 1)
    ]
