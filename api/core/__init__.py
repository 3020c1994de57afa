"""The HTTP machinery every endpoint shares: the one JSON error shape, strict bodies, headers,
rate limits and quotas, request observation, the app's Redis clients, gunicorn's hooks, the
request and response schemas."""
