"""Challenges in Redis."""
