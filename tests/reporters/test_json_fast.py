"""The indenting JSON writer of the reporters held to :func:`json.dumps`."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint.reporters.json import _RAW_UNSAFE, dumps, indented

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8), st.floats(allow_nan=True))
trees = st.recursive(scalars, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                     st.dictionaries(st.text(max_size=4), kids, max_size=4)), max_leaves=15)


@settings(max_examples=120, deadline=None)
@given(trees, st.sampled_from([0, 1, 2, 4]))
def test_dumps_is_json_dumps(obj, indent):
    want = json.dumps(obj, ensure_ascii=False, indent=indent)
    assert dumps(obj, indent=indent) == _RAW_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", want)


def test_floats_and_odd_keys_go_to_json_dumps():
    for obj in ({"a": 1.5}, {1: "x"}, [float("nan")]):
        assert dumps(obj, indent=2) == json.dumps(obj, ensure_ascii=False, indent=2)
        try:
            indented(obj, 2)
        except Exception as exc:
            assert type(exc).__name__ == "_Unusual"
        else:
            raise AssertionError(obj)
