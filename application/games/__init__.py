"""Games: create, join, play, read, cancel; turn clocks, seating, time travel, stalls, sealed
deals, settling rated results, built-once answers of finished games."""
