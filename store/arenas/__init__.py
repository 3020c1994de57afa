"""Arenas in Redis."""
