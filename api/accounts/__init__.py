"""The /v1/accounts and /v1/me endpoints, and an account's public games and rating history."""
