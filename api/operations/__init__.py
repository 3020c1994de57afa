"""Service endpoints: health, bots, metrics, the OpenAPI contract and its page."""
