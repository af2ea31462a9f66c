"""mmlint side by side with the upstream engramory doctor on mutated stores
(issue 10 item 1): every disagreement must be a deliberate difference listed
in ``docs/reference-cases.md`` (the table :data:`mutants.DIFFERENCES`), and
every listed difference must still be one. The long campaign is
``scripts/doctor_differential.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutants  # noqa: E402

pytestmark = pytest.mark.skipif(not mutants.doctor_available(),
                                reason=f"{mutants.DOCTOR} is absent: the differential needs the upstream doctor from ../shared/peers")

SINGLE = [(n,) for n in sorted(mutants.MUTATIONS)]
COMBOS = mutants.mutants(seed=20261201, count=len(SINGLE) + 16)[len(SINGLE):]


def test_base_store_is_clean_for_both(tmp_path):
    assert mutants.compare(tmp_path, ()) == []
    assert not mutants.run_doctor(tmp_path).fails


@pytest.mark.parametrize("names", SINGLE, ids=lambda n: n[0])
def test_single_mutation(names, tmp_path):
    diff = mutants.compare(tmp_path, names)
    if names[0] in mutants.DIFFERENCES:
        assert diff, f"{names[0]} is listed as a deliberate difference but both tools now agree: remove it from DIFFERENCES"
    else:
        assert diff == [], f"{names[0]}: {diff}; fix mmlint, or list the difference with its reason in tests/reference/mutants.py"


@pytest.mark.parametrize("names", COMBOS, ids="+".join)
def test_combined_mutations_agree(names, tmp_path):
    assert mutants.compare(tmp_path, names) == []


def test_listed_differences_are_in_the_doc():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "reference-cases.md").read_text(encoding="utf-8")
    for name in mutants.DIFFERENCES:
        assert f"`{name}`" in doc, f"{name} is not in docs/reference-cases.md: run scripts/reference_cases.py"
