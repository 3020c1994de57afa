"""Arenas: an operator opens one, bot accounts join, the workers pair them; its stream, export
and errors."""
