"""The log of one game: its entry format, the service's own events, and the fold of a log
into a `GameRecord`. Used by the store and by `replays/`; imports only `domain`."""
