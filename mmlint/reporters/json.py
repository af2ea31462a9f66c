"""``--format json``: one ``mmlint.diagnostics/1`` object (../shared/DESIGN.md).

Shape::

    {"format": "mmlint.diagnostics/1",
     "tool": {"name": "mmlint", "version": "0.1.0"},
     "summary": {"files": 3, "errors": 1, "warnings": 0, "infos": 2},
     "diagnostics": [{"rule": {"id": "P101", "name": "dangling-pointer"},
                      "severity": "error", "path": "store/MEMORY.md",
                      "range": {"start": {"line": 3, "column": 12},
                                "end": {"line": 3, "column": 24}},
                      "message": "...", "fix": null}]}

Paths are POSIX and relative to the current directory; diagnostics are
sorted by path, then line, then rule id. Lines and columns are 1-based,
columns count code points.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from mmlint import __version__
from mmlint.reporters import Located, Reporter, located

FORMAT_ID = "mmlint.diagnostics/1"


def diagnostic_dict(item: Located) -> dict[str, Any]:
    """One diagnostic as the JSON object of the format (see module docs)."""
    d, s = item.diagnostic, item.diagnostic.span
    end_line, end_col = item.end
    return {
        "rule": {"id": d.code, "name": d.name},
        "severity": d.severity,
        "path": item.path,
        "range": {"start": {"line": s.line, "column": s.column}, "end": {"line": end_line, "column": end_col}},
        "message": d.message,
        "fix": d.fix,
    }


def document(result: Any, cwd: str) -> dict[str, Any]:
    """The whole JSON document for a :class:`mmlint.api.CheckResult`."""
    return {"format": FORMAT_ID, "tool": {"name": "mmlint", "version": __version__}, "summary": result.counts(),
            "diagnostics": [diagnostic_dict(x) for x in located(result, cwd)]}


class JsonReporter(Reporter):
    """Writes :func:`document` as indented UTF-8 JSON."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        stream.write(json.dumps(document(result, cwd), ensure_ascii=False, indent=2))
        stream.write("\n")
