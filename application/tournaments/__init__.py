"""Tournaments: built-in bots' tournaments, open tournaments of accounts, two-board matches,
entries."""
