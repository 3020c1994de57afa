"""Bot-vs-bot tournaments: schedule, seeds, standings, exports, charts.

Pure parts live here (no Redis, no Flask); the Redis records are in `store.tournaments`,
the use cases in `application.tournaments`, their RQ jobs in `application.jobs`, the HTTP
endpoints in `api.tournaments` and the
command line in `cli.tournament`.
"""
