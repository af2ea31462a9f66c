"""``mmlint.digest``: CPython's own SHA-256, the digest hashlib gives."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from mmlint import digest


@given(st.binary(max_size=3000))
def test_sha256_hex_is_hashlibs(data):
    assert digest.sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_known_vector():
    assert digest.sha256_hex(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # FIPS 180-2 B.1
