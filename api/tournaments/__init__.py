"""The /v1/tournaments endpoints."""
