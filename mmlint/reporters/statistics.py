"""``mmlint check --statistics``: how many diagnostics each rule produced.

Text (any ``--format`` but json): one line per rule that fired,
``COUNT<TAB>CODE<TAB>name``, e.g. ``3\\tP101\\tdangling-pointer``. With
``--format json``: a JSON array of ``{"code", "name", "count"}`` objects.
Rows are ordered by count, highest first, then by code. No diagnostics: no
lines, or ``[]``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TextIO

from mmlint.reporters import Reporter
from mmlint.reporters.json import dumps


def rows(result: Any) -> list[dict[str, Any]]:
    """``[{"code": str, "name": str, "count": int}]`` for a
    :class:`mmlint.api.CheckResult`, ordered as the module docs say."""
    counts = Counter((d.code, d.name) for res in result.stores for d in res.diagnostics)
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0]))
    return [{"code": code, "name": name, "count": n} for (code, name), n in ordered]


class StatisticsReporter(Reporter):
    """Per-rule counts instead of the diagnostics.

    Args:
        as_json: write the JSON array instead of the tab-separated lines.
    """

    def __init__(self, as_json: bool = False) -> None:
        self.as_json = as_json

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the counts for ``result`` to ``stream`` (``cwd`` is unused:
        no paths are shown)."""
        table = rows(result)
        if self.as_json:
            stream.write(dumps(table, indent=2) + "\n")
            return
        for row in table:
            stream.write(f"{row['count']}\t{row['code']}\t{row['name']}\n")
