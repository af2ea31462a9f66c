"""``python -m mmlint``: the same entry point as the ``mmlint`` console script."""

import sys

try:
    from mmlint.cli import script
except KeyboardInterrupt:  # Ctrl-C while the modules load, before main() can say it (exit as cli.main does)
    sys.stderr.write("mmlint: interrupted\n")
    sys.exit(130)

script()
