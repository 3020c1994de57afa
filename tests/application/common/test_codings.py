"""Content codings of built-once bodies (application.common.codings): the strong validator,
the two codings built once (the same bytes each time), and the gzip body unpacked in pieces
of at most PIECE_BYTES for a client that accepts neither."""

from __future__ import annotations

import gzip
import random

import brotli

from application.common import codings


def _body(size: int) -> bytes:
    """Bytes that compress a little, the same on every run."""
    rng = random.Random(7)
    return bytes(rng.choice(b"abcdefgh{}:,0123456789") for _ in range(size))


def test_the_etag_is_the_same_for_the_same_bytes_and_differs_for_others():
    body = _body(1000)
    assert codings.etag_of(body) == codings.etag_of(bytes(body))
    assert codings.etag_of(body) != codings.etag_of(body + b" ")
    assert len(codings.etag_of(body)) == 32
    int(codings.etag_of(body), 16)  # hex


def test_both_codings_unpack_to_the_body():
    body = _body(5000)
    packed = codings.compressed(body)
    assert set(packed) == set(codings.CODINGS) == {"br", "gzip"}
    assert brotli.decompress(packed["br"]) == body
    assert gzip.decompress(packed["gzip"]) == body
    assert len(packed["br"]) < len(body) and len(packed["gzip"]) < len(body)


def test_compressing_twice_gives_the_same_bytes():
    """gzip carries no time stamp: a body built twice has one ETag per coding."""
    body = _body(3000)
    assert codings.compressed(body) == codings.compressed(body)
    assert codings.compressed(body)["gzip"][4:8] == b"\x00\x00\x00\x00"  # MTIME 0


def test_a_large_body_is_unpacked_in_pieces_no_larger_than_the_limit():
    body = b"x" * (codings.PIECE_BYTES * 5 + 123)  # packs to a few hundred bytes
    pieces = list(codings.unpacked(codings.compressed(body)["gzip"]))
    assert b"".join(pieces) == body
    assert len(pieces) >= 6
    assert all(0 < len(piece) <= codings.PIECE_BYTES for piece in pieces)


def test_a_small_body_is_one_piece_and_an_empty_one_none():
    assert list(codings.unpacked(codings.compressed(b"tiny")["gzip"])) == [b"tiny"]
    assert b"".join(codings.unpacked(codings.compressed(b"")["gzip"])) == b""
