"""Calendar days as ``datetime`` counts them, without importing it.

A check reads dates in every note of a store with ``created``/``updated``
(F117, F118, the ``format: date`` of the schemas), but it only needs to know
whether ``YYYY-MM-DD`` is a real day and how two days compare. The
:mod:`datetime` package costs ~1.5 ms of a cold check to import (its C
module is a shared library loaded at run time on most builds), so these
functions count days by the proleptic Gregorian calendar instead; a test
holds them to :meth:`datetime.date.toordinal` and
:meth:`datetime.date.fromisoformat` over every year.
"""

from __future__ import annotations

import time

_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
#: Days before the first of each month in a common year.
_BEFORE = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def ordinal(year: int, month: int, day: int) -> int | None:
    """The day's number, 1 for 0001-01-01 (what
    ``datetime.date(year, month, day).toordinal()`` gives), or ``None``
    when it is not a day ``datetime.date`` takes (years 1 to 9999, a month
    of 1 to 12, a day that month has)."""
    if not (1 <= year <= 9999 and 1 <= month <= 12 and day >= 1):
        return None
    leap = _leap(year)
    if day > _DAYS[month - 1] + (month == 2 and leap):
        return None
    y = year - 1
    return y * 365 + y // 4 - y // 100 + y // 400 + _BEFORE[month - 1] + (month > 2 and leap) + day


def iso_ordinal(text: str) -> int | None:
    """:func:`ordinal` of ``text`` when it is exactly ``YYYY-MM-DD`` in ASCII
    digits (what ``datetime.date.fromisoformat`` takes in that form), else
    ``None``."""
    if len(text) != 10 or text[4] != "-" or text[7] != "-" or not text.isascii():
        return None
    y, m, d = text[:4], text[5:7], text[8:]
    if not (y.isdigit() and m.isdigit() and d.isdigit()):
        return None
    return ordinal(int(y), int(m), int(d))


def today_ordinal() -> int:
    """:func:`ordinal` of today in local time (``datetime.date.today()``)."""
    now = time.localtime()
    return ordinal(now.tm_year, now.tm_mon, now.tm_mday)  # type: ignore[return-value] - a real day
