"""Kill ``mmlint check --fix`` at random moments, 100 times by default, and
print the figures (see ``tests/killtest.py`` for what each trial checks).

Usage: ``nice -n 19 python scripts/kill_fix.py [--trials 100] [--seed 11]``
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import killtest  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mmlint-kill-") as work:
        figures = killtest.run_trials(args.trials, Path(work), args.seed)
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
