"""``mmlint budget`` output: the ``mmlint.budget/1`` document as tables or JSON.

Text: per store, a summary (dialect and profile, index use against its caps
with ``OVER BUDGET`` when a hard cap is exceeded, anomalies), then a table of
notes (body chars, note bytes, budget, used). Tables are drawn with rich on a
terminal (see :func:`mmlint.reporters.use_color`), aligned plain text
otherwise; a note over its write budget is marked ``OVER``. JSON: the
document as :func:`mmlint.budget.document` builds it.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from mmlint.reporters import Reporter, use_color


def _n(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Summary lines and table rows (note, body chars, note bytes, budget,
    used, tokens of its index entry) of one store."""
    from mmlint.textutil import safe_path_text

    prof = f" (profile {report['profile']})" if report["profile"] else ""
    head = [f"{safe_path_text(report['path'])}: {report['dialect']}{prof}"]
    ix = report["index"]
    if ix is None:
        head.append("index: none")
    else:
        over = ""
        if ix["overBudget"]:
            over = f"; OVER BUDGET by {_n(ix['overflowLines'])} lines, {_n(ix['overflowBytes'])} bytes"
        head.append(f"index: {_n(ix['lines'])}/{_n(ix['lineCap'])} lines, {_n(ix['bytes'])}/{_n(ix['byteCap'])} bytes, "
                    f"{_count(ix['entries'], 'entry', 'entries')}{over}")
    an = report["anomalies"]
    orphans = ", ".join(safe_path_text(p) for p in an["orphanFiles"][:5]) + (" ..." if len(an["orphanFiles"]) > 5 else "")
    head.append(f"anomalies: {_count(an['danglingEntries'], 'dangling entry', 'dangling entries')}, "
                f"{_count(len(an['orphanFiles']), 'orphan file', 'orphan files')}" + (f" ({orphans})" if orphans else ""))
    tk = report.get("tokens")
    if tk is not None:
        how = "estimated" if tk["method"] == "estimate" else f"counted with {tk['method']}"
        if tk["loadedLines"]:
            where = f"index lines 1-{_n(tk['loadedLines'])} of {_n(tk['indexLines'])}"
        else:
            where = "nothing is loaded at session start" if report["dialect"] == "workspace" else "no index"
        head.append(f"tokens each session: {_n(tk['alwaysLoaded'])} ({where}; {how})")
    # a note whose every pointer lies past the load window: its index tokens are not loaded
    entries = tk["entries"] if tk is not None else []
    seen = {e["target"] for e in entries if e["loaded"]}
    unloaded = ({e["target"] for e in entries if not e["loaded"]} - seen) & {n["path"] for n in report["notes"]}
    if unloaded:
        head.append(f"not loaded: the pointers of {_count(len(unloaded), 'note', 'notes')} lie past the load window "
                    "(marked 'not loaded')")
    unit_word = {"bodyChars": "chars", "bodyBytes": "body bytes", "noteBytes": "bytes"}
    table = []
    for n in report["notes"]:
        budget = f"{_n(n['writeBudget'])} {unit_word[n['budgetUnit']]}" if n["budgetUnit"] else "-"
        pct = f"{n['budgetUsedPct']}%" if n["budgetUsedPct"] is not None else "-"
        if n.get("overBudget"):
            pct += " OVER"
        tokens = _n(n.get("indexTokens"))
        if n["path"] in unloaded:
            tokens += " not loaded"
        table.append([safe_path_text(n["path"]), _n(n["bodyChars"]), _n(n["noteBytes"]), budget, pct, tokens])
    return head, table


COLUMNS = ("note", "body chars", "note bytes", "budget", "used", "index tokens")


def print_text(doc: dict[str, Any], stream: TextIO, color_mode: str = "auto") -> None:
    """Tables: rich when :func:`mmlint.reporters.use_color` says so
    (``--color``, ``NO_COLOR``, ``FORCE_COLOR``, a terminal), aligned plain
    text otherwise."""
    color = use_color(stream, color_mode)
    for k, report in enumerate(doc["stores"]):
        head, table = rows(report)
        if k:
            stream.write("\n")
        if color:
            from rich.console import Console
            from rich.table import Table

            console = Console(file=stream, highlight=False, force_terminal=True)
            for line in head:
                console.print(line, markup=False)
            t = Table(*COLUMNS)
            for col in t.columns[1:]:
                col.justify = "right"
            for row in table:
                t.add_row(*row)
            console.print(t)
            continue
        widths = [max([len(c)] + [len(r[i]) for r in table]) for i, c in enumerate(COLUMNS)]
        for line in head:
            stream.write(line + "\n")
        stream.write("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(COLUMNS, widths))).rstrip() + "\n")
        for row in table:
            stream.write("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))).rstrip() + "\n")


class BudgetReporter(Reporter):
    """Writes a budget document (see module docs).

    Args:
        as_json: write the JSON document instead of the tables.
    """

    def __init__(self, as_json: bool = False) -> None:
        self.as_json = as_json

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the ``mmlint.budget/1`` document ``result`` to ``stream``
        (its paths are already relative to ``cwd``)."""
        if self.as_json:
            stream.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
        else:
            print_text(result, stream, self.color)
