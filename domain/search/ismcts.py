"""Information-set Monte Carlo tree search (single observer; Cowling, Powley and Whitehouse
2012), the search of the `mcts` bots of both games.

The tree holds the searching seat's own decisions only: a node is a sequence of that seat's
moves from the root (its information set as far as its own choices go), its children are
keyed by move code, so a play step, its draw step and the next turn's moves chain into
whole turns. Each iteration:

1. re-determinizes from the seat's VIEW alone (`Game.dealer`: the hidden cards, the
   future dice; never the real hidden state);
2. plays, in that one world, every root move the root's widening admits (the prior's best
   ROOT_BASE, one more every few iterations), each with the same rollout seed: the root
   moves are compared on common random numbers (a plain ISMCTS, one root move per
   iteration, was measured far weaker: the luck of the deal drowned the differences);
3. below each root move descends its tree: at each of the seat's decisions, among the moves
   legal in this world, the best-ranked untried one (by the game's prior, the greedy
   heuristic) is expanded, else UCB1 with availability counts picks one (a child's
   exploration term counts the visits of its parent in which it was legal, the ISMCTS
   "subset-armed bandit"); progressive widening admits the prior's next move as a node's
   visits grow (WIDEN_BASE + visits ** WIDEN_POWER moves), so every legal move is
   reachable and none is cut for good. The other seats' moves between are their policy's
   (the game's greedy bot, from the determinization's hands);
4. plays the game's rollout from the new leaf and backs up its reward in [0, 1] and its
   score margin in points (own estimated score minus the best other) along the path.

The move played is the best mean reward among the root moves still in the race and played in
at least half the iterations (ties: the prior's order). A search stops at its budget, or
earlier once the race has settled the move (every legal move played, one left). Pure and
deterministic: the randomness is `rng`, the only clock is the budget's
(domain.search.budget). `search_root` returns the root statistics for analysis.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import log, sqrt
from typing import NamedTuple, Protocol

EXPLORATION = 0.3  # UCB1 constant, on rewards in [0, 1]
WIDEN_BASE = 3  # below the root: a node considers WIDEN_BASE + visits ** WIDEN_POWER moves
WIDEN_POWER = 0.5
ROOT_BASE = 5  # the root: ROOT_BASE + iterations ** ROOT_POWER / ROOT_DIVISOR moves
ROOT_POWER = 0.5
ROOT_DIVISOR = 3.0
TREE_DEPTH = 99  # the seat's decisions a path of the tree holds, the root's included
RACE_Z = 2.5  # a root move trailing the leader by RACE_Z standard errors is dropped (0: never)
RACE_MIN_PER_SEAT = 16  # paired samples a root move has before it may be dropped, per seat
RACE_EVERY = 16  # iterations between two races
SETTLE = True  # stop the search once the race has settled the move


class Game(Protocol):
    """What the search needs of a game (`domain.search.card_tree`, `domain.search.dice_tree`)."""

    def dealer(self, view: dict) -> Callable[[object], tuple]:
        """A function of an rng: (a state consistent with `view`, a chance source for
        everything not yet drawn); `view` is read once, when the dealer is made."""

    def to_move(self, state) -> int | None:
        """The seat to move, None once the game is over."""

    def ranked(self, state, rng) -> list:
        """The legal moves of the seat to move, best first by the prior."""

    def policy(self, state, rng):
        """The move another seat plays in the tree (its greedy move)."""

    def step(self, state, move, chance):
        """The state after the seat to move plays `move` (may reuse `state`)."""

    def fork(self, state):
        """A copy of `state` that `step` may change without changing `state`."""

    def rollout(self, state, chance, rng, seat: int) -> tuple[float, float]:
        """(reward in [0, 1], score margin in points) of `seat` after a playout."""

    def code(self, move) -> int:
        """The code of a legal move (a client's dict or a shared command)."""


class RootStat(NamedTuple):
    """One root move after a search: its visits, mean reward in [0, 1] and mean final score
    margin in points of the searching seat (own score minus the best other)."""

    move: dict
    visits: int
    mean_reward: float
    mean_margin: float


class _Node:
    __slots__ = ("avail", "children", "margin", "order", "reward", "visits")

    def __init__(self, order: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.margin = 0.0
        self.order = order


def _select(node: _Node, ranked: list) -> tuple[object, _Node]:
    """The move to follow from `node` among `ranked` (legal now, best first)."""
    allowed = WIDEN_BASE + int(node.visits**WIDEN_POWER)
    considered = ranked[:allowed]
    children = node.children
    for move in considered:
        child = children.get(move.code)
        if child is not None:
            child.avail += 1
    for order, move in enumerate(considered):
        child = children.get(move.code)
        if child is None:
            child = children[move.code] = _Node(order)
            return move, child
        if child.visits == 0:
            return move, child
    best_move, best_child, best_value = None, None, -1.0
    for move in considered:
        child = children[move.code]
        value = child.reward / child.visits + EXPLORATION * sqrt(log(child.avail) / child.visits)
        if value > best_value:
            best_move, best_child, best_value = move, child, value
    return best_move, best_child


def _root_width(iterations: int) -> int:
    """How many of the prior's best root moves an iteration plays (progressive widening)."""
    return ROOT_BASE + int(iterations**ROOT_POWER / ROOT_DIVISOR)


def _descend(game: Game, state, chance, node: _Node, seat: int, rng) -> float:
    """From `node` (reached in `state`): down the tree, one new node, a rollout, back up."""
    path = [node]
    while node.visits and len(path) < TREE_DEPTH:
        mover = game.to_move(state)
        if mover is None:
            break
        if mover != seat:
            state = game.step(state, game.policy(state, rng), chance)
            continue
        ranked = game.ranked(state, rng)
        if len(ranked) == 1:
            state = game.step(state, ranked[0], chance)
            continue
        move, node = _select(node, ranked)
        state = game.step(state, move, chance)
        path.append(node)
    reward, margin = game.rollout(state, chance, rng, seat)
    for visited in path:
        visited.visits += 1
        visited.reward += reward
        visited.margin += margin
    return reward


class _Root:
    """The root of one search: its node, the prior's ranking of its moves (the same in every
    world: it reads only what the seat's view shows) and the race among them.

    Every root move an iteration plays gets the same world and rollout seed, so two moves'
    rewards of one iteration form a pair. Every RACE_EVERY iterations a move whose paired
    difference to the leader (the best mean) lies RACE_Z standard errors below zero, over
    at least `min_pairs` pairs (RACE_MIN_PER_SEAT a seat: the more seats, the more their
    hidden hands spread a reward, and the more pairs the normal approximation needs), is
    dropped for the rest of the search: the iterations it would have cost go to the moves
    still in the race (a racing bandit: Maron and Moore's Hoeffding races, on common random
    numbers)."""

    __slots__ = ("dropped", "min_pairs", "node", "ranked", "samples", "settled")

    def __init__(self, min_pairs: int):
        self.min_pairs = min_pairs
        self.node = _Node(0)
        self.ranked: list = []
        self.samples: dict[int, list[float]] = {}
        self.dropped: set[int] = set()
        self.settled = False

    def race(self) -> None:
        """Drop the moves the leader beats beyond doubt; the search is settled once every
        legal move has been played and one is left in the race (more iterations could not
        change the move)."""
        samples = self.samples
        running = [code for code in samples if code not in self.dropped]
        if len(running) < 2:
            self.settled = SETTLE and len(samples) == len(self.ranked)
            return
        leader = max(running, key=lambda code: sum(samples[code]) / len(samples[code]))
        best = samples[leader]
        for code in running:
            rewards = samples[code]
            pairs = min(len(rewards), len(best))
            if code == leader or pairs < self.min_pairs:
                continue
            gaps = [a - b for a, b in zip(best[-pairs:], rewards[-pairs:], strict=True)]
            mean = sum(gaps) / pairs
            spread = sum((g - mean) ** 2 for g in gaps) / (pairs - 1)
            if mean > 0 and mean * mean * pairs > RACE_Z * RACE_Z * spread:
                self.dropped.add(code)
        if len(running) - len(self.dropped.intersection(running)) == 1:
            self.settled = SETTLE and len(samples) == len(self.ranked)


def _iterate(game: Game, deal: Callable, root: _Root, seat: int, rng) -> None:
    """One iteration: one determinization, in which every root move the widening admits and
    the race keeps is played and searched below with the same rollout seed (common random
    numbers: the root moves are compared on the same hidden cards and dice)."""
    state, chance = deal(rng)
    seed = rng.getrandbits(64)
    ranked = root.ranked
    if not ranked:
        ranked.extend(game.ranked(state, rng))
    node = root.node
    for order, move in enumerate(ranked[: _root_width(node.visits)]):
        code = move.code
        if code in root.dropped:
            continue
        child = node.children.get(code)
        if child is None:
            child = node.children[code] = _Node(order)
            root.samples[code] = []
        after = game.step(game.fork(state), move, chance)
        root.samples[code].append(_descend(game, after, chance, child, seat, random.Random(seed)))
    node.visits += 1
    if RACE_Z and node.visits % RACE_EVERY == 0:
        root.race()


def search_root(game: Game, view: dict, legal_moves: list, rng, budget) -> list[RootStat]:
    """Search the position of `view` (the seat to move's view) within `budget` and return a
    RootStat for every root move played: first the move the bot plays, then the other
    well-visited ones by mean reward, then the rest. Moves are elements of `legal_moves`;
    a single legal move is returned unsearched (0 visits)."""
    if len(legal_moves) < 2:
        return [RootStat(m, 0, 0.0, 0.0) for m in legal_moves]
    seat = view["to_move"]
    race = _Root(RACE_MIN_PER_SEAT * view["players"])
    deal = game.dealer(view)
    more = budget.start()
    done = 0
    while more(done) and not race.settled:
        _iterate(game, deal, race, seat, rng)
        done += 1
    root = race.node
    by_code = {game.code(move): move for move in legal_moves}
    stats = [
        (child, by_code[code], code in race.dropped)
        for code, child in root.children.items()
        if child.visits and code in by_code
    ]
    most = max(child.visits for child, _, _ in stats)
    stats.sort(key=lambda s: (s[2], 2 * s[0].visits < most, -s[0].reward / s[0].visits, s[0].order))
    return [
        RootStat(move, c.visits, c.reward / c.visits, c.margin / c.visits) for c, move, _ in stats
    ]


def search(game: Game, view: dict, legal_moves: list, rng, budget) -> dict:
    """The move of `legal_moves` the search prefers, within `budget`."""
    if len(legal_moves) == 1:
        return legal_moves[0]
    stats = search_root(game, view, legal_moves, rng, budget)
    return stats[0].move if stats else legal_moves[0]
