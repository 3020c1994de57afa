"""Seeks in Redis."""
