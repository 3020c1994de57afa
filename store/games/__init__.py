"""Games in Redis: the append-only event store, committing a version with its index writes, the
indexes, seat tokens, compaction of finished logs, derived answers, stalls."""
