"""Bots' turns in Redis: webhook calls, claims on account seats' turns, the bulk lane's fair
queue."""
