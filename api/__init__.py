"""The Flask REST API of the Keltis service."""
