"""``docs/reference-cases.md`` is generated from the case tables and current."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("reference_cases", ROOT / "scripts" / "reference_cases.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_reference_cases_doc_is_current():
    doc = (ROOT / "docs" / "reference-cases.md").read_text(encoding="utf-8")
    assert doc == _script().render(), "docs/reference-cases.md is stale: run python scripts/reference_cases.py"
