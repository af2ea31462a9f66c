"""``mmlint check --statistics``: how many diagnostics each rule produced.

Text (any ``--format`` but json): one line per rule that fired,
``COUNT<TAB>CODE<TAB>name<TAB>severity``, then ``<TAB>[*] fixable`` when
``--fix`` would fix some of them (as the text report marks them: a safe fix,
or any with ``--unsafe-fixes``), e.g. ``3\\tP106\\torphan-note\\terror\\t[*] fixable``.
With ``--format json``: a JSON array of ``{"code", "name", "count",
"severity", "fixable"}`` objects (``fixable``: how many). The severity is
the highest among the rule's diagnostics (a configuration or profile may
differ between stores). Rows are ordered by count, highest first, then by
code. No diagnostics: no lines, or ``[]``.
"""

from __future__ import annotations

from collections import Counter

from mmlint.reporters import Reporter
from mmlint.reporters.json import dumps

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO


def _rank(severity: str) -> int:
    """Position of ``severity`` in :data:`mmlint.rules.SEVERITIES` (worst first)."""
    from mmlint.rules import SEVERITIES

    return SEVERITIES.index(severity) if severity in SEVERITIES else len(SEVERITIES)


def rows(result: Any) -> list[dict[str, Any]]:
    """``[{"code": str, "name": str, "count": int, "severity": str,
    "fixable": int}]`` for a :class:`mmlint.api.CheckResult`, ordered as
    the module docs say."""
    unsafe = getattr(result, "unsafe_fixes", False)
    counts: Counter = Counter()
    fixable: Counter = Counter()
    worst: dict[tuple[str, str], str] = {}
    for res in result.stores:
        for d in res.diagnostics:
            key = (d.code, d.name)
            counts[key] += 1
            if d.fix and (d.fix["applicability"] == "safe" or unsafe):
                fixable[key] += 1
            if key not in worst or _rank(d.severity) < _rank(worst[key]):
                worst[key] = d.severity
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0]))
    return [{"code": code, "name": name, "count": n, "severity": worst.get((code, name), "info"),
             "fixable": fixable[(code, name)]} for (code, name), n in ordered]


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
            mark = "\t[*] fixable" if row["fixable"] else ""
            stream.write(f"{row['count']}\t{row['code']}\t{row['name']}\t{row['severity']}{mark}\n")
