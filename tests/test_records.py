"""The plain value classes of :mod:`mmlint._record` behave as the dataclasses
they replace (issue 9 item 8: no class built at import on a check's path):
same constructor, repr, equality, hashing, freezing and fresh mutable
defaults. The reference is a dataclass made from each class's own
``__init__`` signature and field lists, so a field added to one place and
not the other fails here."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from conftest import after_cli, make_store
from mmlint import _record, config, frontmatter, markdown, model, personal, projects, resolve, textutil, validate, walk
from mmlint import dialects
from mmlint import rules
from mmlint.dialects import engramory, mm, workspace
from mmlint.rules import suppressions

CLASSES = [model.Note, model.Entry, model.Index, model.Problem, model.FileRecord, rules.Rule, rules.Fix,
           rules.Finding, rules.Context, frontmatter.Item, frontmatter.FMProblem, textutil.Decoded, walk.Walk,
           dialects.Evidence, mm.IndexLayout, mm.NoteLayout, workspace.IndexLayout, engramory.IndexLayout,
           personal.Hit, validate.SchemaError, projects.Project,
           suppressions.Directive, suppressions.Region, model.Store, config.Config, config.PathIgnore,
           resolve.Resolution, resolve.Ref, markdown.Link, markdown.Outline]

# fields whose ``None`` default stands for a fresh object (the dataclass's default_factory)
FRESH = {model.Note: {"extra": dict, "spans": model.Spans, "header": dict}, model.Entry: {"data": dict},
         model.Index: {k: list for k in ("entries", "headings", "prose", "loose")} | {"header": dict},
         rules.Context: {"cache": dict}, frontmatter.Item: {"raw": list},
         walk.Walk: {"files": dict, "skipped_dirs": list, "errors": list}, dialects.Evidence: {"reasons": list},
         engramory.IndexLayout: {"read": dict, "prose": list},
         suppressions.Directive: {"unknown": list, "used": set, "groups": dict},
         model.Store: {"notes": list, "files": dict, "problems": list},
         config.Config: {k: list for k in ("ignore", "per_path_ignores", "extended")} | {k: dict for k in ("severity", "caps", "hygiene")}}
# fields set from the others whatever is passed (the dataclass's __post_init__): the compiled glob
DERIVED = {config.PathIgnore: {"regex"}}


def _params(cls) -> list[inspect.Parameter]:
    return list(inspect.signature(cls.__init__).parameters.values())[1:]


def _factory(cls, p: inspect.Parameter):
    """The factory of a parameter whose ``None`` default stands for a fresh object."""
    return FRESH.get(cls, {}).get(p.name)


def _reference(cls):
    """The dataclass ``cls`` stands for."""
    shown = set(cls._fields)
    compared = set(cls._fields if cls._compare is None else cls._compare)
    fields = []
    for p in _params(cls):
        kw: dict[str, Any] = {"repr": p.name in shown, "compare": p.name in compared}
        if p.default is not inspect.Parameter.empty:
            f = _factory(cls, p)
            kw["default_factory" if f else "default"] = f if f else p.default
        fields.append((p.name, Any, dataclasses.field(**kw)))
    return dataclasses.make_dataclass(cls.__qualname__, fields, frozen=issubclass(cls, _record.Frozen))


def _values(cls, salt: str) -> list[Any]:
    return [f"{p.name}-{salt}" for p in _params(cls)]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_record_matches_the_dataclass_it_replaces(cls):
    ref = _reference(cls)
    args, other = _values(cls, "x"), _values(cls, "y")
    a, r = cls(*args), ref(*args)
    assert repr(a) == repr(r)
    assert not dataclasses.is_dataclass(a)
    assert (a == cls(*args)) is True and (a != cls(*args)) is False
    assert a.__eq__(r) is NotImplemented  # another class, as a dataclass says
    for i, p in enumerate(_params(cls)):  # each compared field counts, the others do not
        changed = list(args)
        changed[i] = other[i]
        assert (cls(*changed) == a) == (ref(*changed) == r), p.name
    if issubclass(cls, _record.Frozen):
        assert hash(a) == hash(cls(*args))
        with pytest.raises(AttributeError):
            a.__setattr__(cls._fields[0], "z")
    else:
        with pytest.raises(TypeError):
            hash(a)
    # the defaults: the same values, mutable ones fresh for each instance
    required = [v for v, p in zip(args, _params(cls)) if p.default is inspect.Parameter.empty]
    d1, d2, dr = cls(*required), cls(*required), ref(*required)
    for p in _params(cls):
        if p.name not in DERIVED.get(cls, ()):
            assert getattr(d1, p.name) == getattr(dr, p.name), p.name
        if _factory(cls, p):
            assert getattr(d1, p.name) is not getattr(d2, p.name), p.name
    assert copy.copy(a) == a and copy.deepcopy(a) == a and pickle.loads(pickle.dumps(a)) == a


def test_a_plain_check_builds_no_dataclass(tmp_path):
    """No class on a check's path is a dataclass any more (the read, the
    engine, the resolution and markdown records, the configuration, the
    store)."""
    root = make_store(tmp_path / "s", {
        "MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n",
        "a.md": "---\nname: a\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\nA fact.\n"})
    probe = ("found = sorted(f'{m}.{k}' for m, mod in list(sys.modules.items()) if m.startswith('mmlint')\n"
             "               for k, v in vars(mod).items() if isinstance(v, type) and v.__module__ == m\n"
             "               and '__dataclass_fields__' in vars(v))\n"
             "result = ['mmlint.rules.pointers' in sys.modules, found]")
    ran, found = after_cli(["check", str(root), "--format", "json", "--profile", "upstream", "--no-cache"], probe)
    assert ran and found == []
