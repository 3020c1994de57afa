"""The archive tier: finished games' compacted logs in PostgreSQL, its schema, the queue of
games waiting to move and the listings over both tiers."""
