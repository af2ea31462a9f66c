"""``python -m mmlint``: the same entry point as the ``mmlint`` console script."""

import sys

from mmlint.cli import main

sys.exit(main())
