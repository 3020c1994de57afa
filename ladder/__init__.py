"""The rating ladder, pure: ladder entries (one per finished rated game) and the ratings that
are their fold (openskill Plackett-Luce). No Redis, no clock: store/ladder/records.py keeps the log
and the stored ratings, application/games/settle.py writes the entries."""
