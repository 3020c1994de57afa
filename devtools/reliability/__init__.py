"""Reliability proofs shared by tests/reliability and `python -m bench reliability`."""
