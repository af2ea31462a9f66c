"""``--format json-lines``: one diagnostic object per line.

The objects, their keys and their order are exactly the ``diagnostics`` of
``--format json`` (:func:`mmlint.reporters.json.diagnostic_dict`), without the
wrapper, summary or indentation, so the output streams and greps. Each line is
one JSON object followed by ``\\n``; no other line break occurs in the output
(:func:`mmlint.reporters.json.dumps`). No diagnostics: empty output.
"""

from __future__ import annotations

from mmlint.reporters import Reporter, located
from mmlint.reporters.json import diagnostic_dict, dumps

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO


class JsonLinesReporter(Reporter):
    """Writes one :func:`~mmlint.reporters.json.diagnostic_dict` per line."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write every diagnostic of ``result`` to ``stream``, in report order."""
        for item in located(result, cwd):
            stream.write(dumps(diagnostic_dict(item)))
            stream.write("\n")
