"""The search's fast keltis-dice playout plays by the rules (T1-T6, F1) and its policy is
the greedy bot's, decision for decision."""

from __future__ import annotations

import random

from domain.chance import Chance
from domain.dice.bots import greedy_bot
from domain.dice.scoring import breakdown
from domain.registry import get_rules
from domain.search.dice import state_of
from domain.search.dice_playout import DiceTable, Sim
from domain.search.dice_tree import GAME as DICE_TREE

DICE = get_rules("keltis-dice")


def positions(seeds, bot=None):
    """Every position of games played from `seeds` (both boards, 2-4 players)."""
    for seed in seeds:
        chance = Chance(seed.to_bytes(32, "big"))
        options = {"board": ("basic", "advanced")[seed % 2]}
        state = DICE.fold(DICE.start(2 + seed % 3, options, chance))
        rng = random.Random(seed)
        while state.step != "finished":
            yield state, chance
            seat = state.to_move
            legal = DICE.legal_moves(state, seat)
            move = bot(DICE.view(state, seat), legal, rng) if bot else rng.choice(legal)
            for event in DICE.decide(state, seat, move, chance):
                state = DICE.evolve(state, event)


class PresetTable(DiceTable):
    """A dice table holding given rows."""

    def __init__(self, rows):
        super().__init__(random.Random(0))
        self.rows = rows


def test_the_playout_policy_is_the_greedy_bot():
    checked = 0
    for state, _ in positions(range(12), greedy_bot):
        view = DICE.view(state, state.to_move)
        sim = Sim.of(state_of(view), DiceTable(random.Random(0)))
        legal = DICE.legal_moves(state, state.to_move)
        assert sim.greedy_move() == greedy_bot(view, legal, random.Random(0))
        checked += 1
    assert checked > 500


def test_every_move_of_the_playout_follows_the_rules():
    """T1-T6, F1: each legal move leaves the same position as the game's own rules, given
    the dice the game rolled."""
    stages = set()
    for state, chance in positions(range(6)):
        for move in DICE.legal_moves(state, state.to_move):
            events = DICE.decide(state, state.to_move, move, chance)
            after = state
            rows = [[*state.dice, 0, 0, 0, 0, 0], [0] * 10]
            for event in events:
                after = DICE.evolve(after, event)
                if event["type"] == "dice_rerolled":
                    rows[0][5 : 5 + len(event["indexes"])] = [
                        after.dice[i] for i in event["indexes"]
                    ]
                if event["type"] == "dice_rolled":
                    rows[1] = [*after.dice, 0, 0, 0, 0, 0]
            sim = Sim.of(state, PresetTable(rows))
            sim.play(move)
            stages.add(after.step)
            assert sim.stage == after.step
            assert sim.pos == [list(row) for row in after.positions]
            assert (sim.tiles, sim.supply) == (list(after.tiles), after.supply)
            assert [sim.score(s) for s in range(sim.players)] == [
                breakdown(after, s)["total"] for s in range(after.players)
            ]
            if after.step != "finished":
                assert (sim.seat, sim.dice) == (after.to_move, list(after.dice))
    assert stages == {"roll", "move", "clover", "finished"}


def test_the_search_ends_a_game_it_leads_and_rewards_the_lead():
    """F1, F4: with four markers in goal zones, moving a fifth in ends the game; the seat
    ahead does it, and the evaluation rewards the leader above the other seat."""
    state = DICE.fold(DICE.start(2, {"board": "basic"}, Chance(bytes(32))))
    state = state.replace(
        positions=((6, 9, 9, 9, 0), (7, 2, 0, 0, 0)),
        tiles=(4, 1),
        step="move",
        dice=(0, 1, 1, 5, 3),
    )
    view = DICE.view(state, 0)
    legal = DICE.legal_moves(state, 0)
    move = DICE.bots["mcts:i20"](view, legal, random.Random(4))
    assert move == {"action": "move", "color": "brown"}
    sim = Sim.of(state, DiceTable(random.Random(0)))
    sim.play(move)
    assert sim.stage == "finished"
    ahead, behind = DICE_TREE.rollout(sim, None, None, 0), DICE_TREE.rollout(sim, None, None, 1)
    assert ahead[0] > 0.9 and behind[0] < 0.1 and ahead[1] == -behind[1] > 0
