"""The search's fast keltis-card position plays by the rules (P1-P4, D1-D2, E1-E3, K1-K3):
every legal move leaves the position the game's own `decide` and `evolve` leave."""

from __future__ import annotations

import random

from domain.card.bots import greedy_bot
from domain.card.scoring import seat_breakdown
from domain.chance import Chance
from domain.registry import get_rules
from domain.search import card as card_search
from domain.search.card_sim import CardSim

CARD = get_rules("keltis-card")


def positions(seeds, bot=None):
    """Every position of games played from `seeds` (2-4 players by the seed)."""
    for seed in seeds:
        chance = Chance(seed.to_bytes(32, "big"))
        state = CARD.fold(CARD.start(2 + seed % 3, {}, chance))
        rng = random.Random(seed)
        while state.to_move is not None:
            yield state
            seat = state.to_move
            legal = CARD.legal_moves(state, seat)
            move = bot(CARD.view(state, seat), legal, rng) if bot else rng.choice(legal)
            for event in CARD.decide(state, seat, move, chance):
                state = CARD.evolve(state, event)
        yield state


def fields(state) -> tuple:
    """What a `CardSim` holds of a `CardState`, read from the state itself."""
    return (
        [list(hand) for hand in state.hands],
        [list(rows) for rows in state.row_status],
        [[len(row) for row in rows] for rows in state.rows],
        [bin(mask).count("1") for mask in state.stones_held],
        [list(pile) for pile in state.piles],
        state.setup.deck[state.deck_pos :],
        (state.stones_table, state.closed_rows, state.to_move, state.step, state.draws_owed),
        (state.banned, state.final_left, state.laid_in_final),
    )


def sim_fields(sim: CardSim) -> tuple:
    return (
        sim.hands,
        sim.status,
        sim.counts,
        sim.held,
        sim.piles,
        sim.deck[sim.pos :],
        (sim.table, sim.closed, sim.seat, sim.step, sim.owed),
        (sim.banned, sim.final_left, sim.laid),
    )


def test_every_legal_move_leaves_the_position_the_rules_leave():
    steps = set()
    for state in positions(range(9)):
        sim = CardSim.of(state)
        assert sim_fields(sim) == fields(state)
        for move in CARD.legal_moves(state, state.to_move):
            after = card_search.step(state, move)
            played = sim.copy()
            played.play(move.code)
            steps.add((state.step, after.step))
            assert sim_fields(played) == fields(after)
            assert [played.score(s) for s in range(played.players)] == [
                seat_breakdown(after.rows[s], after.stones_held[s])["total"]
                for s in range(after.setup.players)
            ]
        assert sim_fields(sim) == fields(state)  # copies leave the original alone
    assert {("play", "final_round"), ("draw", "final_round"), ("final_round", "finished")} <= steps


def test_a_whole_game_on_one_position_passes_through_the_rules_states():
    """Every player count: one `CardSim` that plays the moves of a game (greedy's, from
    the views) holds the position of every state of the game."""
    for seed in range(3, 9):
        chance = Chance(seed.to_bytes(32, "big"))
        state = CARD.fold(CARD.start(2 + seed % 3, {}, chance))
        sim = CardSim.of(state)
        rng = random.Random(seed)
        while state.to_move is not None:
            seat = state.to_move
            move = greedy_bot(CARD.view(state, seat), CARD.legal_moves(state, seat), rng)
            state = card_search.step(state, move)
            sim.play(move.code)
            assert sim_fields(sim) == fields(state)
        assert sim.step == "finished"


def test_k1_k4_the_estimate_of_a_finished_game_is_its_score():
    for state in positions(range(3)):
        if state.to_move is None:
            sim = CardSim.of(state)
            scores = CARD.outcome(state).scores
            assert tuple(card_search.estimate(state, s) for s in range(sim.players)) == scores
            assert tuple(sim.score(s) for s in range(sim.players)) == scores


def test_a_dealer_deals_the_positions_of_the_determinizations():
    """Every deal of one dealer (the view read once) is the position of `determinize`
    with the same rng, and deals do not share their lists."""
    for state in positions(range(3)):
        if state.to_move is None:
            continue
        view = CARD.view(state, state.to_move)
        dealer = card_search.Dealer(view)
        deals = []
        for sample in range(3):
            sim = dealer.sim(random.Random(sample))
            expected = card_search.determinize(view, random.Random(sample))
            assert sim_fields(sim) == fields(expected)
            deals.append(sim)
        deals[0].play(CARD.legal_moves(state, state.to_move)[0].code)
        assert sim_fields(deals[1]) == fields(card_search.determinize(view, random.Random(1)))
