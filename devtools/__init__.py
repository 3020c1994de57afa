"""Harnesses shared by the tests and the benchmarks: real Redis servers and clusters,
process reaping, free ports, and the reliability proofs (fault, race, leak, fuzz)."""
