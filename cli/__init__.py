"""The `keltis` command line."""
