"""Bots at the table: the service's bots' turns, webhook bots' turns and whether they answer,
and game analysis."""
