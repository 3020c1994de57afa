"""Bot-vs-bot tournaments: schedule, seeds, standings, exports, charts.

Pure parts live here (no Redis, no Flask); the Redis records are in `store.tournaments.records`,
the use cases in `application.tournaments.service`, their RQ jobs in `application.operations.jobs`,
the HTTP
endpoints in `api.tournaments.endpoints` and the
command line in `cli.tournament`.
"""
