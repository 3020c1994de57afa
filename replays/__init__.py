"""Replay format: export, verify, show in a terminal, render to HTML."""
