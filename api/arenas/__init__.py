"""The /v1/arenas endpoints."""
