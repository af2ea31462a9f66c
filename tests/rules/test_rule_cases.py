"""Every rule fires on its bad store and stays silent on its good one; every
rule is documented and has a case.

What the user sees is pinned too: the bad store's findings of the rule under
test (path, line, column, end, severity, message, hint) must equal the golden
record in ``tests/rules/expected.json``, so a wrong position or a changed
message fails a test. After an intended change, refresh the record with::

    MMLINT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/rules/test_rule_cases.py

and review ``git diff tests/rules/expected.json``; without that variable the
file is never written."""

from __future__ import annotations

import re

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cases import CASES  # noqa: E402
from conftest import make_store as build  # noqa: E402

from mmlint import dialects, rules  # noqa: E402
from mmlint.ruledocs import sections  # noqa: E402


EXPECTED = Path(__file__).resolve().parent / "expected.json"
UPDATE = os.environ.get("MMLINT_UPDATE_GOLDEN") == "1"


def diagnostics(root: Path, dialect: str, profile: str | None, caps: dict, hygiene: dict | None = None) -> list:
    mod = dialects.get(dialect)
    store = mod.read(str(root), profile)
    return rules.run(store, mod, rules.Options(caps=caps, hygiene=hygiene or {}))


def codes(root: Path, dialect: str, profile: str | None, caps: dict, hygiene: dict | None = None) -> set[str]:
    return {d.code for d in diagnostics(root, dialect, profile, caps, hygiene)}


def seen(diags: list, code: str, root: Path) -> list[dict]:
    """The findings of ``code`` as the user reads them (the store's own path
    replaced by ``<root>``, pytest's temporary folder by ``<tmp>``, so the
    record does not depend on tmp_path, even where a message cuts a path;
    a count of days up to today by ``<n>``, so it does not depend on the day
    it runs)."""
    out = []
    base = str(root.parent.parent)

    def shown(text: str) -> str:
        # a message that cuts a path under the temporary folder cuts it where that folder's
        # own length puts the cut (pytest-999 -> pytest-1000 moves it): keep "<tmp>" and the cut
        text = re.sub(r"<tmp>[^'\n]*\.\.\.'", "<tmp>...'", text.replace(str(root), "<root>").replace(base, "<tmp>"))
        # H103 "(2436 day(s) ago)", H104 "not updated for 2525 days": counted to today
        return re.sub(r"\(\d+ day\(s\) ago\)|(?<=not updated for )\d+(?= days)", lambda m: "(<n> day(s) ago)"
                      if m.group().startswith("(") else "<n>", text)

    for d in diags:
        if d.code != code:
            continue
        s = d.span
        out.append({"path": s.path, "line": s.line, "column": s.column, "end": [s.end_line, s.end_column],
                    "severity": d.severity, "message": shown(d.message), "hint": shown(d.hint) if d.hint else None})
    return out


def _golden() -> dict:
    return json.loads(EXPECTED.read_text("utf-8")) if EXPECTED.exists() else {}


def _record(code: str, got: list[dict]) -> None:
    data = _golden()
    data[code] = got
    EXPECTED.write_text(json.dumps(dict(sorted(data.items())), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def test_every_rule_has_a_case():
    missing = [c for c in rules.load() if c not in CASES]
    assert missing == []
    assert [c for c in CASES if c not in rules.load()] == []


@pytest.mark.parametrize("code", sorted(c for c, case in CASES.items() if case is not None))
def test_bad_fires_good_does_not(code, tmp_path):
    case = CASES[code]
    root = build(tmp_path / "bad", case.bad)
    diags = diagnostics(root, case.dialect, case.profile, case.caps, case.hygiene)
    bad = {d.code for d in diags}
    good = codes(build(tmp_path / "good", case.good), case.dialect, case.profile, case.caps, case.hygiene)
    assert code in bad, f"{code} did not fire on its bad store; got {sorted(bad)}"
    assert code not in good, f"{code} fired on its good store"
    got = seen(diags, code, root)
    if UPDATE:
        _record(code, got)
    assert got == _golden().get(code), (f"{code}: what the user sees changed; if intended, refresh with "
                                        "MMLINT_UPDATE_GOLDEN=1 and review the diff of tests/rules/expected.json")


def test_golden_records_only_cases_that_exist():
    assert sorted(_golden()) == sorted(c for c, case in CASES.items() if case is not None)


@pytest.mark.parametrize("code", sorted(rules.load()))
def test_rule_doc_is_complete(code):
    r = rules.load()[code]
    s = sections(r.doc)
    assert s["summary"] and s["why"] and s["bad"] and s["good"], f"{code} doc lacks a section"
    assert r.name == r.name.lower() and " " not in r.name
    declared = s["fix"].split(" ", 1)[0].rstrip(".:,;") if s["fix"] else rules.NO_FIX
    assert declared == r.fix, f"{code}: the doc's Fix section says {declared!r}, the rule declares {r.fix!r}"


def test_codes_and_names_unique_and_stable_prefixes():
    all_rules = rules.load()
    assert len({r.name for r in all_rules.values()}) == len(all_rules)
    for code in all_rules:
        assert code[0] in "SIPNFCMXQH" and code[1:].isdigit() and len(code) == 4


def test_unlistable_folder(tmp_path, monkeypatch):
    from mmlint import walk

    build(tmp_path, {"MEMORY.md": "# Memory Index\n", "locked/a.md": "x"})
    real_walk = os.walk

    def fake_walk(top, onerror=None, followlinks=False):
        for item in real_walk(top, onerror=onerror, followlinks=followlinks):
            dirpath, dirnames, files = item
            if "locked" in dirnames:
                dirnames.remove("locked")
                onerror(PermissionError(13, "Permission denied", os.path.join(dirpath, "locked")))
            yield dirpath, dirnames, files

    monkeypatch.setattr(walk.os, "walk", fake_walk)
    assert "S105" in codes(tmp_path, "engramory", "upstream", {})


def test_docs_rules_md_is_current():
    from mmlint.ruledocs import markdown

    path = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    assert path.read_text(encoding="utf-8") == markdown(), "docs/rules.md is stale: run mmlint rules --format markdown > docs/rules.md"


def test_severity_by_names_real_profiles_or_dialects_without_profiles():
    names = {p for d in dialects.names() for p in dialects.get(d).PROFILES}
    names |= {d for d in dialects.names() if not dialects.get(d).PROFILES}
    for r in rules.load().values():
        for where, sev in r.severity_by:
            assert where in names and sev in rules.SEVERITIES and sev != r.severity, (r.code, where, sev)


@pytest.mark.parametrize("code, profile, expected", [
    ("F114", "upstream", "error"),      # the upstream doctor fails the store (missing-why-how ISSUE)
    ("F114", "claude-code", "info"),    # Claude Code loads the note: advice
    ("C104", None, "error"),            # mem_write refuses the body (E_WRITE_BUDGET_EXCEEDED), as C103/C105
    ("F101", None, "warning"),          # workspace: the plugin ignores a broken line, it does not fail
])
def test_severity_follows_the_owning_tool(code, profile, expected, tmp_path):
    case = CASES[code]
    profile = profile or case.profile
    bad = case.bad if code != "F101" else {"MEMORY.md": "# 记忆索引\n", "甲.md": "---\ntitle: 甲\ntags:\n  - a\n---\n\nx\n"}
    dialect = case.dialect if code != "F101" else "workspace"
    mod = dialects.get(dialect)
    store = mod.read(str(build(tmp_path, bad)), profile if dialect == "engramory" else None)
    sevs = {d.severity for d in rules.run(store, mod, rules.Options(caps=case.caps)) if d.code == code}
    assert sevs == {expected}
