"""Notifications that a log grew (pub/sub, sharded on a Cluster), long-poll waits, leased slots
of held requests."""
