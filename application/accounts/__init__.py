"""Accounts: sign up, profiles, keys and who is acting (bearer tokens), names no account may
take, an account's public side."""
