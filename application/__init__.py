"""The application layer: the use cases of games, bot turns and tournaments, and the jobs
that run them. Used by `api/`, `workers/` and `cli/`; uses `store/`, `gamelog/`, `domain/`.
"""
