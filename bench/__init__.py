"""Benchmarks run by `make bench`; each prints `name: value` lines."""
