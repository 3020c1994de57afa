"""Seeks, the rated pool: open, pair (the workers' pass), close."""
