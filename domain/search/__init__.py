"""Information-set Monte Carlo tree search (the `mcts` bots of both games).

`ismcts.search` is game-free; `card` and `dice` adapt each game (determinization of the
view, a cheap rollout policy, an evaluation); `budget` says when a search stops.
"""
