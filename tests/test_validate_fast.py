"""The compiled schema predicate agrees with jsonschema (issue 9 item 7).

The JSON Schemas are the one contract: :func:`mmlint.validate.validate`
answers "valid" from a predicate compiled from the schema itself, and every
other answer comes from jsonschema. These tests run both on every instance
the rules validate in the fixtures, the rule cases and the real corpus, and
on generated instances, and require the same verdict; a failing instance must
still get jsonschema's messages and paths.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_stores, fixture_stores, make_store, needs_corpus
from mmlint import dialects, rules, validate

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import CASES  # noqa: E402

SCHEMAS = validate.schema_names()
#: Schemas with a predicate: all but recursive ones (their "$ref" cannot be inlined).
COMPILED = [n for n in SCHEMAS if validate.predicate(n) is not None]


def _slow_valid(name, instance) -> bool:
    return validate._validator(name).is_valid(instance)


def _recorded(monkeypatch, roots):
    """``(schema, instance)`` for every validation the rules do on ``roots``
    (``(root, dialect or None, profile or None)``)."""
    seen = []
    real = validate.validate

    def spy(name, instance):
        seen.append((name, instance))
        return real(name, instance)

    monkeypatch.setattr(validate, "validate", spy)
    for root, dialect, profile in roots:
        if dialect is None:
            found = dialects.detect(str(root))
            if not found:
                continue
            dialect, profile = found[0].dialect, found[0].profile
        mod = dialects.get(dialect)
        rules.run(mod.read(str(root), profile), mod)
    monkeypatch.undo()
    return seen


def test_every_bundled_schema_compiles():
    # A schema the compiler cannot read would silently lose the fast path;
    # only a recursive schema (schemas/store.json) has none, and is still valid for jsonschema.
    lost = [n for n in SCHEMAS if n not in COMPILED]
    assert all("$ref" in str(validate._inlined(n)) for n in lost), lost
    assert {"engramory-upstream.note", "engramory-claude-code.note", "engramory-recall-v1.note", "workspace.note",
            "mm.entry", "config"} <= set(COMPILED)
    for n in lost:
        assert validate.validate(n, {}) == validate.validate_slow(n, {})


@needs_corpus
def test_fixtures_cases_and_corpus_agree(tmp_path, monkeypatch):
    roots = [(p, None, None) for p in fixture_stores() + corpus_stores()]
    for code, case in CASES.items():
        # Frontmatter and mm entry cases (the ones that validate values);
        # others are run by tests/rules, some of them deliberately huge.
        if case is None or code[0] not in "FM":
            continue
        for which in ("bad", "good"):
            roots.append((make_store(tmp_path / code / which, getattr(case, which)), case.dialect, case.profile))
    seen = _recorded(monkeypatch, roots)
    assert len(seen) > 100
    assert {v for v in (validate.fast_valid(n, i) for n, i in seen)} == {True, False}
    for name, instance in seen:
        assert validate.fast_valid(name, instance) == _slow_valid(name, instance), (name, instance)
        assert validate.validate(name, instance) == validate.validate_slow(name, instance)


SCALARS = st.one_of(
    st.sampled_from(["user", "feedback", "project", "reference", "global", "repo", "", " ", "a", "2026-01-01",
                     "2026-02-30", "2026-1-01", "٢٠٢٦-٠١-٠١", "2026-01-01T03:04:05.000Z", "2026-01-01 03:04",
                     "0.5", "high", "5/4000", "x" * 300, "local", "alpha-beta"]),
    st.text(max_size=12), st.integers(-3, 3), st.floats(allow_nan=False, width=32), st.booleans(), st.none())
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                      max_leaves=6)


@st.composite
def instances(draw, name):
    schema = validate.load_schema(name)
    keys = list(schema.get("properties", {})) + ["extra", "x-y", ""]
    chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=len(keys)))
    return {k: draw(VALUES) for k in chosen}


@pytest.mark.parametrize("name", COMPILED)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_instances_agree(name, data):
    instance = data.draw(instances(name))
    assert validate.fast_valid(name, instance) == _slow_valid(name, instance)


@pytest.mark.parametrize("name", COMPILED)
@settings(max_examples=12, deadline=None)
@given(value=VALUES)
def test_any_top_level_value_agrees(name, value):
    assert validate.fast_valid(name, value) == _slow_valid(name, value)


def test_failing_value_keeps_jsonschema_message_and_path():
    bad = {"name": "a", "description": "d", "type": "user", "created": "2026-02-30", "updated": "2026-01-01"}
    assert not validate.fast_valid("engramory-upstream.note", bad)
    errs = validate.validate("engramory-upstream.note", bad)
    assert [(e.pointer, e.keyword) for e in errs] == [("/created", "format")]
    assert "real calendar date" in errs[0].message


def test_unknown_keyword_has_no_predicate():
    with pytest.raises(validate.Unsupported):
        validate.compile_predicate({"type": "object", "dependentSchemas": {}})
    with pytest.raises(validate.Unsupported):
        validate.compile_predicate({"type": "string", "format": "email"})


def test_shipped_predicates_are_the_schemas_own():
    # mmlint/_schema_predicates.py is generated from the schemas: regenerating it gives the same text
    # (see validate.predicates_module to regenerate), so the predicate a check uses is the one
    # compile_predicate builds from the schema file, which the tests above hold to jsonschema
    shipped = (Path(validate.__file__).parent / "_schema_predicates.py").read_text(encoding="utf-8")
    assert shipped == validate.predicates_module(), "stale: regenerate with validate.predicates_module()"
    from mmlint._schema_predicates import BUILDERS

    assert sorted(BUILDERS) == SCHEMAS
    for name in SCHEMAS:
        assert (validate.predicate(name) is None) == (validate._compiled(name) is None), name


def test_a_check_uses_the_shipped_predicate_without_json_or_compile(tmp_path):
    # the fast path of a valid note needs neither the schema file, its JSON parser nor compile()
    from conftest import after_cli

    note = "---\nname: a\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\nFact.\n"
    root = make_store(tmp_path / "s", {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n", "a.md": note})
    probe = ("import mmlint.validate as v\n"
             "result = [sorted(m for m in sys.modules if m == 'json' or m.startswith('json.')), "
             "v.load_schema.cache_info().currsize, 'mmlint._schema_predicates' in sys.modules]")
    assert after_cli(["check", str(root), "--format", "json", "--profile", "upstream", "--no-cache"], probe) == [[], 0, True]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789-\n x٣T:", max_size=12) | st.dates().map(str) | st.dates().map(lambda d: f"{d}\n"))
def test_date_format_is_jsonschemas_pattern_and_a_real_day(value):
    # format: date without a pattern to compile: ASCII YYYY-MM-DD (re.ASCII \d, fullmatch) and a real day
    import datetime
    import re

    want = bool(re.fullmatch(r"^\d{4}-\d{2}-\d{2}$", value, re.ASCII))
    if want:
        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            want = False
    assert validate._date_ok(value) == want
