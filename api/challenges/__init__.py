"""The /v1/challenges endpoints and GET /v1/matches/{id}."""
