"""Byte and text helpers shared by every dialect.

Units are explicit everywhere: *bytes* are raw on-disk bytes (a BOM counts),
*characters* are Unicode code points, *lines* follow the rule shared by the mm
spec (§1) and the engramory tools: the number of ``\\n`` characters, plus one
when the text is non-empty and does not end in ``\\n``. ``\\r``, U+2028, NEL and
friends never count as line breaks.
"""

from __future__ import annotations

import re

from mmlint._record import Frozen

class LazyPattern:
    """A regular expression compiled on first use: ``lazy_re(p).search(...)``
    does what ``re.compile(p).search(...)`` does (any attribute of the
    compiled pattern). A module-level pattern a run never uses then costs
    nothing at import (``re`` compiles in Python: ~0.1-2 ms a pattern, and
    a plain check imports ~100 of them)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str):
        compiled = re.compile(*self._args)
        for attr in ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"):
            setattr(self, attr, getattr(compiled, attr))  # later calls skip __getattr__
        self.pattern = compiled.pattern
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_re({self._args[0]!r})"


def lazy_re(pattern: str, flags: int = 0) -> LazyPattern:
    """A :class:`LazyPattern` for ``pattern`` (what ``re.compile`` takes)."""
    return LazyPattern(pattern, flags)


def fold_key(text: str) -> str:
    """``text`` in Unicode normalisation form NFC, case-folded: the key under
    which two names collide on a case-insensitive, normalising file system
    (macOS, Windows) or are the same name to a reader. ASCII text is only
    lower-cased, which gives the same key without importing
    :mod:`unicodedata` (a shared library, ~0.2 ms of a check)."""
    if text.isascii():
        return text.lower()
    import unicodedata

    return unicodedata.normalize("NFC", text).casefold()


def utf16_kind(data: bytes) -> str | None:
    """``"UTF-16LE"`` or ``"UTF-16BE"`` when ``data`` looks like UTF-16 text
    (a UTF-16 byte order mark, or, in its first 256 bytes, a NUL in at least
    nine of ten bytes on one side and in at most one of ten on the other, as
    mostly-ASCII text in UTF-16 has), else ``None``. Tools that read UTF-8
    see such a file as NUL bytes and garbage."""
    if data.startswith(b"\xff\xfe"):
        return "UTF-16LE"
    if data.startswith(b"\xfe\xff"):
        return "UTF-16BE"
    head = data[:256]
    if len(head) < 8 or len(head) % 2:
        return None
    odd, even = head[1::2].count(0), head[0::2].count(0)
    half = len(head) // 2
    if odd * 10 >= half * 9 and even * 10 <= half:
        return "UTF-16LE"
    if even * 10 >= half * 9 and odd * 10 <= half:
        return "UTF-16BE"
    return None


BOM = "\ufeff"
BOM_BYTES = b"\xef\xbb\xbf"


class Decoded(Frozen):
    """A file's text and how it was encoded.

    Attributes:
        text: the decoded text without the BOM. Invalid UTF-8 bytes are kept as
            lone surrogates (``surrogateescape``), so :func:`encode` gives back
            the exact bytes.
        bom: True when the file began with a UTF-8 BOM.
        newline: ``"\\n"``, ``"\\r\\n"``, ``"\\r"``, ``"mixed"`` or ``""`` (no line break).
        bad_bytes: number of bytes that are not valid UTF-8.
        nul: True when the text holds a NUL character.
    """

    __slots__ = _fields = ("text", "bom", "newline", "bad_bytes", "nul")

    def __init__(self, text: str, bom: bool, newline: str, bad_bytes: int, nul: bool) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "text", text)
        setattr_(self, "bom", bom)
        setattr_(self, "newline", newline)
        setattr_(self, "bad_bytes", bad_bytes)
        setattr_(self, "nul", nul)


def decode(data: bytes) -> Decoded:
    """Decode raw file bytes losslessly.

    Never raises: invalid UTF-8 survives as surrogate escapes and is counted in
    :attr:`Decoded.bad_bytes`.
    """
    bom = data.startswith(BOM_BYTES)
    if bom:
        data = data[3:]
    try:
        text = data.decode("utf-8")
        bad = 0
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
        # Each byte that is not UTF-8 became one surrogate escape, and is one
        # byte "ignore" drops: the difference in length counts them.
        bad = len(data) - len(data.decode("utf-8", "ignore").encode("utf-8"))
    return Decoded(text, bom, newline_style(text), bad, "\x00" in text)


def encode(text: str, bom: bool = False) -> bytes:
    """Encode text decoded by :func:`decode` back to the identical bytes."""
    data = text.encode("utf-8", "surrogateescape")
    return BOM_BYTES + data if bom else data


def newline_style(text: str) -> str:
    """Return the line-break style of ``text`` (see :class:`Decoded`)."""
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    kinds = [k for k, n in (("\r\n", crlf), ("\n", lf), ("\r", cr)) if n]
    if not kinds:
        return ""
    return kinds[0] if len(kinds) == 1 else "mixed"


def count_lines(text: str) -> int:
    """Lines as the mm spec §1 and the engramory tools count them.

    ``""`` -> 0, ``"a"`` -> 1, ``"a\\n"`` -> 1, ``"a\\nb"`` -> 2, ``"\\n\\n"`` -> 2.
    """
    if not text:
        return 0
    n = text.count("\n")
    return n if text.endswith("\n") else n + 1


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` only, keeping each line's ``\\r`` (if any).

    ``"a\\r\\nb"`` -> ``["a\\r", "b"]``; a trailing ``\\n`` gives a final ``""``.
    """
    return text.split("\n")


def to_lf(text: str) -> str:
    """Normalise CRLF and lone CR to LF."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def apply_newline(text: str, newline: str) -> str:
    """Turn LF text into the given style (``mixed`` and ``""`` leave LF)."""
    if newline in ("\r\n", "\r"):
        return text.replace("\n", newline)
    return text


_ECHO_MAX = 80

#: Characters never written raw into human-readable output: C0 and C1
#: controls (line breaks and ESC included), DEL, the Unicode line and
#: paragraph separators, the bidirectional controls (which reorder what a
#: terminal shows: U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the
#: invisible format characters (zero-width space, non-joiner and joiner
#: U+200B-U+200D, word joiner and invisible operators U+2060-U+2064, the BOM /
#: zero-width no-break space U+FEFF: a name holding one looks like a name
#: without it) and every surrogate (an undecodable byte kept by
#: :func:`decode`, or a lone one). A one-character class, so escaping is one
#: linear pass. Compiled for the first non-ASCII text that needs it (~0.8 ms):
#: on ASCII text it matches what :data:`_ASCII_UNSAFE` matches.
UNSAFE_CHARS = lazy_re("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069"
                       "\ufeff\ud800-\udfff]")
#: The ASCII characters of :data:`UNSAFE_CHARS`: the C0 controls and DEL.
#: ASCII text without any is ``str.isprintable()`` (printable ASCII is
#: U+0020..U+007E): compiled for the first ASCII text holding one.
_ASCII_UNSAFE = lazy_re("[\x00-\x1f\x7f]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(m: re.Match) -> str:
    ch = m.group()
    o = ord(ch)
    if ch in _NAMED:
        return _NAMED[ch]
    if 0xDC80 <= o <= 0xDCFF:  # an undecodable byte kept by decode()
        return f"\\x{o - 0xDC00:02x}"
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def printable(text: str) -> str:
    """``text`` with every :data:`UNSAFE_CHARS` character written as a
    backslash escape (``\\n``, ``\\x1b``, ``\\u202e``; ``\\xNN`` for an
    undecodable byte); all other characters, backslashes included, are kept.
    The one helper for store text in human-readable output: the rule engine
    applies it to every message and hint, reporters to paths; after it, no
    store text can move the cursor, retitle or clear a terminal, reorder a
    line or start a new one."""
    if text.isascii():
        return text if text.isprintable() else _ASCII_UNSAFE.sub(_escape_char, text)
    return UNSAFE_CHARS.sub(_escape_char, text) if UNSAFE_CHARS.search(text) else text


def unsafe_chars(text: str) -> list[str]:
    """Every :data:`UNSAFE_CHARS` character of ``text``, in order (what
    ``UNSAFE_CHARS.findall(text)`` gives)."""
    if text.isascii():
        return [] if text.isprintable() else _ASCII_UNSAFE.findall(text)
    return UNSAFE_CHARS.findall(text)


def echo(value: str, limit: int = _ECHO_MAX) -> str:
    """Quote untrusted store text for a message: bounded and escaped.

    Backslashes and quotes are escaped, then :func:`printable`, so a hostile
    file name can never forge an output line. Text longer than ``limit``
    code points is cut and marked with ``...``.
    """
    cut = value[:limit].replace("\\", "\\\\").replace("'", "\\'")
    tail = "..." if len(value) > limit else ""
    return "'" + printable(cut) + tail + "'"


def safe_path_text(path: str) -> str:
    """A path for display: :func:`printable` (escapes control, bidi and
    undecodable characters) but keeps it unquoted."""
    return printable(path)


def lone_surrogate(text: str) -> str | None:
    """The first surrogate code point in ``text`` that is not an undecodable
    byte (``U+DC80``-``U+DCFF``, kept by :func:`decode`'s
    ``surrogateescape``): a character no file can hold. ``None`` when there
    is none."""
    for ch in text:
        if "\ud800" <= ch <= "\udfff" and not "\udc80" <= ch <= "\udcff":
            return ch
    return None


class FileLines:
    """The lines of a store's files, one file at a time, for a pass that
    goes file by file (a SARIF log, a baseline): each file is decoded
    (:func:`decode`) and split at ``\\n`` once, and only the current one is
    held (holding every file's took ~6 MiB at 20,000 files)."""

    __slots__ = ("_at", "_lines")

    def __init__(self) -> None:
        self._at: tuple[object, str] | None = None
        self._lines: list[str] = []

    def line(self, store: object, path: str, n: int) -> str:
        """Line ``n`` (1-based) of the file ``path`` of ``store`` (a
        :class:`mmlint.model.Store`) as read, without its line end; ``""``
        when the file was not read or has no such line."""
        if self._at is None or self._at[0] is not store or self._at[1] != path:
            rec = store.files.get(path)  # type: ignore[attr-defined]
            self._at = (store, path)
            self._lines = decode(rec.data).text.split("\n") if rec is not None and rec.data is not None else []
        return self._lines[n - 1] if 0 < n <= len(self._lines) else ""
