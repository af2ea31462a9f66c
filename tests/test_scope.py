"""Rule scope (issue 9 item 3, step 2): a rule declared ``scope="note"``
must give, on a store holding one note, exactly the findings it gives on
that note in the whole store, and never a finding outside the notes' files;
a ``scope="file"`` rule the same for one file; the engine may then run them
on changed notes and files only."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import corpus_stores, fixture_stores, make_store
from mmlint import api, dialects, rules
from mmlint.rules import FILE, NOTE, Context, Options

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import CASES  # noqa: E402


def _mixed_stores(tmp_path: Path) -> list[tuple[Path, str, str | None]]:
    """Per dialect and profile, one store holding the bad notes of every
    rule case written for it (so many notes with many findings side by side)."""
    groups: dict[tuple[str, str | None], dict[str, str | bytes]] = {}
    for code, case in sorted(CASES.items()):
        if case is None:
            continue
        files = groups.setdefault((case.dialect, case.profile), {})
        for rel, text in case.bad.items():
            if not isinstance(text, (str, bytes)):
                continue  # a symlink marker
            if rel == "MEMORY.md":
                files.setdefault(rel, text)
            elif "/" not in rel:
                files[f"{code.lower()}-{rel}"] = text
            else:
                files.setdefault(rel, text)
    out = []
    for (dialect, profile), files in sorted(groups.items(), key=str):
        out.append((make_store(tmp_path / f"{dialect}-{profile}", files), dialect, profile))
    return out


def _key(f) -> tuple:
    return (f.span, f.message, f.hint, f.anchor)


def _one_note(store, note):
    return rules._note_view(store, {n.path: 1 for n in store.notes if n.path != note.path})


def _read_stores(tmp_path):
    """``(root, store, dialect module)`` for every fixture and corpus store
    and the mixed stores, each read as detected (or as its case asks)."""
    stores = [(p, None, None) for p in fixture_stores() + corpus_stores()] + _mixed_stores(tmp_path)
    for root, dialect, profile in stores:
        try:
            res = api.read_store(api.locate([str(root)])[0], dialect, profile)
        except api.CheckError:
            continue
        yield root, res.store, dialects.get(res.dialect)


def test_note_rules_depend_on_their_note_alone(tmp_path):
    note_rules = [r for r in rules.load().values() if r.scope == NOTE]
    assert {r.code for r in note_rules} >= {"F111", "F112", "F114", "N103", "X105"}
    checked = Counter()
    for root, store, mod in _read_stores(tmp_path):
        paths = {n.path for n in store.notes}
        for r in note_rules:
            if not rules.runs_on(r, store, Options()):
                continue
            whole = list(r.func(Context(store, mod, Options())))
            stray = [f.span for f in whole if f.span.path not in paths]
            assert stray == [], (r.code, str(root), stray[:3])
            for n in store.notes:
                alone = Counter(_key(f) for f in r.func(Context(_one_note(store, n), mod, Options())))
                assert alone == Counter(_key(f) for f in whole if f.span.path == n.path), (r.code, str(root), n.path)
                checked[r.code] += sum(alone.values())
    # the stores exercise the rules: most note rules found something somewhere
    assert sum(1 for r in note_rules if checked[r.code]) >= len(note_rules) * 2 // 3, checked


def test_file_rules_depend_on_their_file_alone(tmp_path):
    file_rules = [r for r in rules.load().values() if r.scope == FILE]
    assert {r.code for r in file_rules} >= {"S106", "S114", "H106"}
    checked = Counter()
    for root, store, mod in _read_stores(tmp_path):
        for r in file_rules:
            if not rules.runs_on(r, store, Options()):
                continue
            whole = list(r.func(Context(store, mod, Options())))
            stray = [f.span for f in whole if f.span.path not in store.files]
            assert stray == [], (r.code, str(root), stray[:3])
            for path in store.files:
                view = rules._file_view(store, {p: 1 for p in store.files if p != path})
                alone = Counter(_key(f) for f in r.func(Context(view, mod, Options())))
                assert alone == Counter(_key(f) for f in whole if f.span.path == path), (r.code, str(root), path)
                checked[r.code] += sum(alone.values())
    assert sum(1 for r in file_rules if checked[r.code]) >= len(file_rules) * 2 // 3, checked


def test_scope_is_validated_and_defaults_to_store():
    assert rules.lookup("P106").scope == rules.STORE  # compares the index with every note
    assert rules.lookup("H101").scope == rules.STORE  # compares notes with each other
    with pytest.raises(ValueError):
        rules.rule("Z999", "zz-test-rule", rules.INFO, scope="folder")(lambda ctx: ())
