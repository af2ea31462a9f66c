"""Long differential campaign: mmlint against the upstream engramory doctor
on many mutated stores (the bounded version runs in the test suite,
``tests/reference/test_doctor_differential.py``).

    python scripts/doctor_differential.py --count 3000 --seed 1

Every mutant is a small valid store with 1..``--max`` named mutations
(``tests/reference/mutants.py``). Prints the number of mutants run, how many
disagree, and each disagreement, split into those explained by a listed
deliberate difference (``DIFFERENCES``, rendered in
``docs/reference-cases.md``) and the rest. Exit 1 when any disagreement is
not explained; 2 when the doctor is absent.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "reference"), str(ROOT / "tests"), str(ROOT)]

import mutants  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Run the campaign; see the module docs."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000, help="mutants to run (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max", type=int, default=3, help="most mutations per mutant (default 3)")
    args = ap.parse_args(argv)
    if not mutants.doctor_available():
        print(f"doctor not found at {mutants.DOCTOR}", file=sys.stderr)
        return 2
    listed: collections.Counter[str] = collections.Counter()
    unexplained: list[tuple[tuple[str, ...], list[str]]] = []
    disagree = 0
    cases = mutants.mutants(args.seed, args.count, args.max, listed=True)
    with tempfile.TemporaryDirectory() as tmp:
        for i, names in enumerate(cases):
            diff = mutants.compare(Path(tmp) / str(i), names)
            if not diff:
                continue
            disagree += 1
            if mutants.excused(names):
                for n in names:
                    if n in mutants.DIFFERENCES:
                        listed[n] += 1
            else:
                unexplained.append((names, diff))
    print(f"mutants run: {len(cases)}; disagreements: {disagree}; explained by a listed difference: "
          f"{disagree - len(unexplained)}; unexplained: {len(unexplained)}")
    for name, n in sorted(listed.items()):
        print(f"  listed {name}: in {n} disagreeing mutant(s) — {mutants.DIFFERENCES[name][0]}")
    for names, diff in unexplained:
        print(f"  UNEXPLAINED {'+'.join(names)}: {'; '.join(diff)}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
