"""Outbound webhook calls: which URLs the service may call (the SSRF guard) and one bounded
POST."""
