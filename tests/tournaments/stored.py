"""A served tournament stored straight into Redis (no HTTP, no workers) with its first game
played: the set-up of tests that look at a tournament after some of its games."""

from __future__ import annotations

from dataclasses import replace

from application.games.service import GameService
from application.tournaments import service as use_cases
from store.tournaments.records import TournamentStore
from tournaments import seeds
from tournaments.spec import TournamentSpec, make_spec, new_salt


def card_spec(seed: str, games: int) -> TournamentSpec:
    """A salted keltis-card tournament of greedy against random."""
    return replace(make_spec("keltis-card", ["greedy", "random"], 2, games, seed), salt=new_salt())


def stored_with_first_game(redis_client, spec: TournamentSpec) -> tuple[str, TournamentStore]:
    """The tournament of `spec`, stored, its game 0 played: (its id, the store)."""
    tid = seeds.new_tournament_id()
    store = TournamentStore(redis_client)
    store.create(tid, spec)
    use_cases.play_game(GameService(redis_client), store, tid, spec, 0)
    return tid, store
