"""The hash chain of a replay.

    h_0 = SHA-256(canonical JSON of the replay's header part: every top-level key but
          "entries" and "chain")
    h_k = SHA-256(h_{k-1} as 32 raw bytes || canonical JSON of entry k)

`final` is h_N. Publishing it pins every entry, the seed and the result.
"""

from __future__ import annotations

import hashlib

from replays.canonical import canonical_json

ALGORITHM = "sha256"
UNCHAINED_KEYS = frozenset({"entries", "chain", "analysis"})  # analysis: derived, optional


def header_part(replay: dict) -> dict:
    """The top-level fields h_0 covers."""
    return {key: value for key, value in replay.items() if key not in UNCHAINED_KEYS}


def header_hash(replay: dict) -> str:
    """h_0 as hex."""
    return hashlib.sha256(canonical_json(header_part(replay))).hexdigest()


def entry_hashes(h0: str, entries) -> list[str]:
    """h_1 .. h_N as hex, each over the previous hash and one entry."""
    hashes = []
    previous = bytes.fromhex(h0)
    for entry in entries:
        previous = hashlib.sha256(previous + canonical_json(entry)).digest()
        hashes.append(previous.hex())
    return hashes


def build_chain(replay: dict) -> dict:
    """The `chain` object of a replay whose other keys are complete."""
    h0 = header_hash(replay)
    hashes = entry_hashes(h0, replay["entries"])
    return {
        "algorithm": ALGORITHM,
        "h0": h0,
        "entries": hashes,
        "final": hashes[-1] if hashes else h0,
    }
