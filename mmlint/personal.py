"""Finding personal data in store text: e-mail addresses, phone numbers and
national identity numbers (rule H106).

Every scanner is linear in the text: the patterns use bounded repetitions
whose pieces cannot overlap (a domain label excludes the dot that ends it),
so a match attempt costs at most a constant number of steps per position.

:func:`find` yields :class:`Hit` objects with the kind, the 0-based offset
in the text and the matched value; :func:`mask` is the only form a value is
ever shown in (first character, a run of ``*``, last two characters).

Identity numbers are validated beyond their shape where the number has a
check: Chinese resident identity numbers (18 characters, ISO 7064 MOD 11-2
check character) and Korean resident registration numbers (a valid birth
month and day, the gender/century digit 1-8); US social security numbers
exclude the area numbers never issued (000, 666, 900-999) and the group
``00`` and serial ``0000``; UK National Insurance numbers follow HMRC's
prefix letters.
"""

from __future__ import annotations

import re
from functools import lru_cache

from mmlint._record import Frozen
from mmlint.textutil import lazy_re

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Iterator

KINDS = ("email", "phone", "national-id")
#: Domains reserved for documentation and tests (RFC 2606, RFC 6761): never personal.
RESERVED_DOMAINS = ("example.com", "example.org", "example.net", "localhost")
RESERVED_TLDS = ("example", "test", "invalid", "localhost")

_EMAIL_RE = lazy_re(r"[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}")
# A run of digits, spaces, hyphens and parentheses; one bounded repetition
# keeps it linear. The groups are checked in Python (:func:`_phones`).
_PHONE_RE = lazy_re(r"(\+?\(?\d[\d ()-]{7,22}\d)(?![\w/]|[.-]\d)")
#: Every digit-based kind needs three digits in a row: one cheap scan decides whether to look.
_DIGITS_RE = lazy_re(r"\d\d\d")
# A run of digits, spaces, parentheses and hyphens from its first digit, of 6
# characters or more (one greedy class, nothing after it: a failed start costs
# at most 6 steps, a match ends its run). Every digit-based match lies in one.
_RUN_RE = re.compile(r"\d[\d ()-]{5,}")
_NOT_NINO_RE = re.compile(r"[()-]")
# Patterns start with their first character class (no leading lookbehind, which
# Python would evaluate at every position); the character before a match is
# checked in Python (:func:`_free_before`).
_SSN_RE = lazy_re(r"(\d{3})-(\d{2})-(\d{4})(?![\w-])")
_RRN_RE = lazy_re(r"(\d{2})(\d{2})(\d{2})-([1-8])\d{6}(?![\w-])")
_CNID_RE = lazy_re(r"(\d{17}[\dXx])(?!\w)")
_NINO_RE = lazy_re(r"([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]) ?\d{2} ?\d{2} ?\d{2} ?[A-D](?!\w)")
_DATE_RE = lazy_re(r"\d{4}-\d{2}-\d{2}")
_CN_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


class Hit(Frozen):
    """One finding: ``kind`` (one of :data:`KINDS`), ``label`` (what it is,
    e.g. ``"US social security number"``), ``offset`` (0-based, code points)
    and ``value`` (the matched text; show it only through :func:`mask`)."""

    _fields = ("kind", "label", "offset", "value")

    def __init__(self, kind: str, label: str, offset: int, value: str) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "value", value)


def mask(value: str) -> str:
    """``value`` with all but its first character and last two replaced by
    ``*`` (at most 8 of them): never the full value."""
    if len(value) <= 4:
        return value[:1] + "*" * max(1, len(value) - 1)
    return value[0] + "*" * min(8, len(value) - 3) + value[-2:]


def _reserved(domain: str) -> bool:
    d = domain.lower()
    return any(d == r or d.endswith("." + r) for r in RESERVED_DOMAINS) or d.rsplit(".", 1)[-1] in RESERVED_TLDS


def _cn_ok(num: str) -> bool:
    total = sum(int(c) * w for c, w in zip(num[:17], _CN_WEIGHTS))
    check = "10X98765432"[total % 11]
    month, day = int(num[10:12]), int(num[12:14])
    return num[17].upper() == check and 1 <= month <= 12 and 1 <= day <= 31


def _free_before(text: str, start: int, extra: str = "") -> bool:
    """No word character (nor one of ``extra``) right before ``start``."""
    if start == 0:
        return True
    c = text[start - 1]
    return not (c.isalnum() or c == "_" or c in extra)


def find(text: str, kinds: tuple[str, ...] | frozenset[str] = KINDS) -> Iterator[Hit]:
    """Personal data in ``text``, in text order within each kind."""
    if "email" in kinds and "@" in text:
        for m in _EMAIL_RE.finditer(text):
            if not _reserved(m.group().rsplit("@", 1)[1]):
                yield Hit("email", "e-mail address", m.start(), m.group())
    ids_or_phones, ninos = _digit_gates(text)
    if not ids_or_phones:
        if ninos and "national-id" in kinds:
            yield from _ninos(text)
        return
    if _DIGITS_RE.search(text) is None:
        if "national-id" in kinds:
            yield from _ninos(text)
        return
    ids = list(_national_ids(text)) if ("national-id" in kinds or "phone" in kinds) else []
    if "national-id" in kinds:
        yield from ids
    if "phone" in kinds:
        yield from _phones(text, {h.offset for h in ids})


_RUN_BYTES_RE = re.compile(rb"\d[\d ()-]{5,}")  # _RUN_RE on bytes: ASCII digits, as \d is on ASCII text


def may_hold(data: bytes, kinds: tuple[str, ...] | frozenset[str] = KINDS) -> bool:
    """Whether :func:`find` could find anything in the text of the file
    bytes ``data``: ``False`` only for ASCII bytes with no ``@`` (when
    e-mail is asked for) and no digit run that the identity-number or phone
    scanners need (:func:`_digit_gates`, on the bytes). Spares decoding the
    files that hold nothing; other bytes answer ``True``."""
    if not data.isascii():
        return True
    if "email" in kinds and b"@" in data:
        return True
    ids_phones = "phone" in kinds or "national-id" in kinds
    for run in set(_RUN_BYTES_RE.findall(data)):  # a store repeats its runs (dates): each asked once
        g = _run_gate(run.decode("ascii"))
        if (g == 2 and ids_phones) or (g == 1 and "national-id" in kinds):
            return True
    return False


def _digit_gates(text: str) -> tuple[bool, bool]:
    """``(ids_or_phones, ninos)``: whether ``text`` has a run of digits,
    spaces, parentheses and hyphens holding 9 digits (a US, Korean or Chinese
    identity number or a phone number needs one: 9, 13, 17 and 9-15 digits),
    and whether it has one holding 6 digits with only spaces between them
    (a UK National Insurance number needs that). Either ``False`` means
    those scanners would find nothing; one linear scan, only at digits."""
    ninos = False
    for run in _RUN_RE.findall(text):
        g = _run_gate(run)
        if g == 2:
            return True, True
        ninos = ninos or g == 1
    return False, ninos


@lru_cache(maxsize=4096)
def _run_gate(run: str) -> int:
    """2: ``run`` holds 9 digits; 1: 6 digits with only spaces between them;
    else 0 (runs repeat: dates, versions)."""
    digits = len(run) - run.count(" ") - run.count("(") - run.count(")") - run.count("-")
    if digits >= 9:
        return 2
    return 1 if digits >= 6 and any(len(p) - p.count(" ") >= 6 for p in _NOT_NINO_RE.split(run)) else 0


def _national_ids(text: str) -> Iterator[Hit]:
    for m in _SSN_RE.finditer(text):
        if not _free_before(text, m.start(), "-"):
            continue
        area, group, serial = m.group(1), m.group(2), m.group(3)
        if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
            continue
        yield Hit("national-id", "US social security number", m.start(), m.group())
    for m in _RRN_RE.finditer(text):
        if not _free_before(text, m.start(), "-"):
            continue
        month, day = int(m.group(2)), int(m.group(3))
        if 1 <= month <= 12 and 1 <= day <= 31:
            yield Hit("national-id", "Korean resident registration number", m.start(), m.group())
    for m in _CNID_RE.finditer(text):
        if _free_before(text, m.start()) and _cn_ok(m.group(1)):
            yield Hit("national-id", "Chinese resident identity number", m.start(), m.group())
    yield from _ninos(text)


def _ninos(text: str) -> Iterator[Hit]:
    for m in _NINO_RE.finditer(text):
        if _free_before(text, m.start()) and m.group(1) not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
            yield Hit("national-id", "UK National Insurance number", m.start(), m.group())


def _phones(text: str, ids: set[int]) -> Iterator[Hit]:
    for m in _PHONE_RE.finditer(text):
        raw = m.group(1).strip()
        start = m.start(1)
        if not _free_before(text, start, ".+/-"):
            continue
        digits = sum(c.isdigit() for c in raw)
        if not 9 <= digits <= 15 or start in ids or _DATE_RE.match(raw):
            continue
        if "  " in raw or "--" in raw or "- " in raw or " -" in raw or raw.count("(") != raw.count(")") or raw.count("(") > 1:
            continue
        plus = raw.startswith("+")
        seps = sum(c in " -()" for c in raw)
        if not plus and seps == 0:
            continue  # a bare run of digits is an id or a count, not a phone number
        groups = [len(g) for g in re.split(r"[ ()-]+", raw.lstrip("+")) if g]
        if not plus and not raw.startswith("0") and groups not in ([3, 3, 4], [1, 3, 3, 4]):
            continue  # national formats start with a trunk 0; else only the NANP 3-3-4 shape counts
        yield Hit("phone", "phone number", start, raw)
