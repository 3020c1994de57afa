"""Pure rules of the Keltis games: no I/O, no clock, no RNG inside a reducer."""
