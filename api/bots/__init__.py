"""Game analysis over HTTP."""
