"""Redis itself: clients and where to find the server, one round trip of several commands, the
connection pool, the per-process cache, cursors and claim sets."""
