"""``mmlint.dates``: calendar days as :mod:`datetime` counts them, without
importing it on a check's path (issue 9 item 8)."""

from __future__ import annotations

import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint import dates, validate


def test_every_day_of_every_year_is_numbered_as_datetime_numbers_it():
    one = datetime.timedelta(days=1)
    day = datetime.date(1, 1, 1)
    while True:  # 3,652,059 days: ~2 s
        assert dates.ordinal(day.year, day.month, day.day) == day.toordinal()
        if day == datetime.date.max:
            break
        day += one


def test_days_that_are_not_days_are_refused():
    for y, m, d in ((0, 1, 1), (10000, 1, 1), (2026, 0, 1), (2026, 13, 1), (2026, 1, 0), (2026, 1, 32),
                    (2026, 2, 29), (1900, 2, 29), (2026, 4, 31), (-1, 1, 1)):
        assert dates.ordinal(y, m, d) is None, (y, m, d)
    assert dates.ordinal(2000, 2, 29) == datetime.date(2000, 2, 29).toordinal()
    assert dates.today_ordinal() == datetime.date.today().toordinal()


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(
    st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z"),
    st.text(alphabet="0123456789-²٣", min_size=8, max_size=11),
    st.builds(lambda d: d.isoformat(), st.dates()),
    st.text(max_size=12)))
def test_an_iso_day_is_what_fromisoformat_takes_in_that_form(text):
    """:func:`dates.iso_ordinal` and the schemas' ``format: date``
    (:func:`mmlint.validate._date_ok`) accept exactly the ``YYYY-MM-DD``
    strings in ASCII digits that ``datetime.date.fromisoformat`` takes,
    with its day number."""
    shaped = len(text) == 10 and text.isascii() and text[4] == text[7] == "-" \
        and (text[:4] + text[5:7] + text[8:]).isdigit()
    try:
        want = datetime.date.fromisoformat(text).toordinal() if shaped else None
    except ValueError:
        want = None
    assert dates.iso_ordinal(text) == want
    assert validate._date_ok(text) is (want is not None)
