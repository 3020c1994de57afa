"""The /v1/ratings endpoint and the levels of GET /v1/bots."""
