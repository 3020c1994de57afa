"""The /v1/games endpoints: games, moves (the Flask view and the fast path over one set of
steps), seats' tokens, time travel, replays, a creator's cancel."""
