"""The digit gates of :func:`mmlint.personal.find` held to the scanners
they skip: with and without the gates, every text gives the same hits."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from mmlint import personal

#: Pieces that build phone numbers, identity numbers, dates and near misses.
PIECES = ["0", "1", "5", "9", "12", "123", "4567", "900101", "0612", " ", "  ", "-", "(", ")", "+", "X",
          "123-45-6789", "+33 612 34 56 78", "(555) 123-4567", "900101-1234567", "11010519491231002X", "AB 12 34 56 C",
          "0612345678", "06 12 34 56 78", "AB", "CE", "QQ", "A", "C", "D", "a", "45", "6789", "12 34 56", "1234567", "\n", ".", "/", "_", "٣", "１", "²", "@", "x.fr", "2026-01-01"]


def ungated(text: str, kinds=personal.KINDS) -> list:
    """``find`` as it was before the run gates (only its three-digit gate)."""
    out = []
    if "email" in kinds and "@" in text:
        out += [personal.Hit("email", "e-mail address", m.start(), m.group()) for m in personal._EMAIL_RE.finditer(text)
                if not personal._reserved(m.group().rsplit("@", 1)[1])]
    if personal._DIGITS_RE.search(text) is None:
        if "national-id" in kinds:
            out += list(personal._ninos(text))
        return sorted(out, key=lambda h: (h.offset, h.kind, h.label))
    ids = list(personal._national_ids(text))
    if "national-id" in kinds:
        out += ids
    if "phone" in kinds:
        out += list(personal._phones(text, {h.offset for h in ids}))
    return sorted(out, key=lambda h: (h.offset, h.kind, h.label))


def gated(text: str, kinds=personal.KINDS) -> list:
    return sorted(personal.find(text, kinds), key=lambda h: (h.offset, h.kind, h.label))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text("0123456789", min_size=1, max_size=7)), max_size=30).map("".join),
       st.sampled_from([personal.KINDS, ("phone",), ("national-id",), ("email", "phone")]))
def test_gates_skip_only_texts_without_hits(text, kinds):
    want = ungated(text, kinds)
    assert gated(text, kinds) == want
    event("hits" if want else "no hits")


def test_gates_pass_every_kind():
    texts = ["call +33 612 34 56 78 now", "SSN 123-45-6789.", "RRN 900101-1234567", "id 11010519491231002X",
             "NI AB 12 34 56 C", "NI AB123456C", "(555) 123-4567", "١٢٣-٤٥-٦٧٨٩"]
    for t in texts:
        assert gated(t) == ungated(t) != [], t
    assert personal._digit_gates("created: 2026-01-01\nnote 101") == (False, False)


@settings(max_examples=250, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text("0123456789", min_size=1, max_size=7)), max_size=30).map("".join),
       st.sampled_from([personal.KINDS, ("phone",), ("national-id",), ("email",), ("email", "phone")]))
def test_may_hold_is_false_only_without_hits(text, kinds):
    data = text.encode("utf-8", "surrogatepass")
    if not personal.may_hold(data, kinds):
        assert gated(text, kinds) == []
    if gated(text, kinds):
        assert personal.may_hold(data, kinds)
