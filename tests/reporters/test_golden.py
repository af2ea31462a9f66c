"""Golden files: every output format rendered from one fixed result.

Each format's output for :func:`fixed_result.build` is compared byte for byte
with ``tests/reporters/golden/<format>.<ext>``. A change in any reporter shows
up as a failing test and, once accepted, as a reviewable diff of the golden file.

To refresh the golden files after an intended change, run::

    MMLINT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/reporters/test_golden.py

then read ``git diff tests/reporters/golden`` before committing. Without that
variable the files are never written.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import fixed_result
import pytest

from mmlint import reporters
from mmlint.reporters import sarif
from mmlint.reporters.statistics import StatisticsReporter

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("MMLINT_UPDATE_GOLDEN") == "1"

#: File name of the golden output of each ``--format``.
FILES = {
    "text": "text.txt",
    "json": "json.json",
    "json-lines": "json-lines.jsonl",
    "sarif": "sarif.sarif",
    "github": "github.txt",
    "junit": "junit.xml",
}


@pytest.fixture(autouse=True)
def fixed_homepage(monkeypatch):
    """The SARIF driver's informationUri is the project's home page; pin it."""
    monkeypatch.setattr(sarif, "HOMEPAGE", "https://example.org/mmlint")


def render(reporter) -> bytes:
    buf = io.StringIO()
    reporter.report(fixed_result.build(), buf, fixed_result.CWD)
    return buf.getvalue().encode("utf-8")


def check_golden(name: str, got: bytes) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_bytes(got)
    assert path.is_file(), f"{path} is missing; create it with MMLINT_UPDATE_GOLDEN=1"
    assert got == path.read_bytes(), f"{name} differs from the golden file; if intended, refresh with MMLINT_UPDATE_GOLDEN=1"


def test_every_format_has_a_golden_file():
    assert set(FILES) == set(reporters.REPORTERS)


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_format_matches_golden(fmt):
    check_golden(FILES[fmt], render(reporters.get(fmt)))


@pytest.mark.parametrize("as_json, name", [(False, "statistics.txt"), (True, "statistics.json")])
def test_statistics_match_golden(as_json, name):
    check_golden(name, render(StatisticsReporter(as_json)))


def test_rendering_twice_gives_the_same_bytes():
    for fmt in FILES:
        assert render(reporters.get(fmt)) == render(reporters.get(fmt)), fmt
