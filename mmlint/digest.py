"""SHA-256 digests from CPython's own hash module, not OpenSSL's.

:func:`hashlib.sha256` is OpenSSL's where the interpreter was built with it:
importing :mod:`hashlib` loads libcrypto, +3.8 MiB of peak RSS and ~4 ms for
a SARIF report, a baseline or a conversion, for the same digest. CPython
ships its own implementation (``_sha2`` from 3.12, ``_sha256`` before; what
:mod:`hashlib` falls back to); :mod:`hashlib` is used only where neither is
there (another interpreter).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

_SHA256: list[Any] = []


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` as 64 lowercase hex digits (FIPS 180-4; the
    same as ``hashlib.sha256(data).hexdigest()``)."""
    if not _SHA256:
        try:
            from _sha2 import sha256  # CPython 3.12 and later
        except ImportError:
            try:
                from _sha256 import sha256  # CPython before 3.12
            except ImportError:
                from hashlib import sha256
        _SHA256.append(sha256)
    return _SHA256[0](data).hexdigest()
