"""Accounts in Redis."""
