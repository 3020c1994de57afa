"""The ladder in Redis: its append-only log, rating histories, rated games between the same two
accounts."""
