"""``mmlint convert`` output: the conversion plan as text or JSON.

Text: the files to write (kind, bytes, path, source, budget use), carriers,
fills, allowed losses, folders not copied, warnings, refusals with their metrics, and
the outcome; tables are drawn with rich when the stream is a terminal, as
aligned plain text otherwise. Store text is escaped
(:func:`mmlint.textutil.safe_path_text`).

JSON: one ``mmlint.convert/1`` object (:func:`plan_json`), the same data.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import islice
from typing import Any, TextIO

from mmlint.reporters import Reporter

FORMAT_ID = "mmlint.convert/1"


def budget_text(usage: dict) -> str:
    """A file's budget use in words, units named (code points, bytes, lines)."""
    u = usage
    if "bodyChars" in u:
        return f"{u['bodyChars']}/{u['writeBudget']} chars ({u['budgetUsedPct']}%), {u['noteBytes']}/{u['noteMaxBytes']} B"
    if "lineCap" in u:
        return f"{u['lines']}/{u['lineCap']} lines, {u['bytes']}/{u['byteCap']} B"
    if "lines" in u:
        return f"{u['lines']} lines, {u['bytes']} B (no cap)"
    if "maxEntryBytes" in u:
        return f"{u['bodyBytes']}/{u['maxEntryBytes']} body B"
    if "noteMaxBytes" in u:
        return f"{u['noteBytes']}/{u['noteMaxBytes']} B"
    return ""


#: Items of a list a text report shows of a refusal's usage (the JSON report has them all).
USAGE_LIST_SHOWN = 5


def usage_text(usage: dict) -> str:
    """A refusal's usage metrics for a text report: the JSON object, each
    list cut to its first :data:`USAGE_LIST_SHOWN` items and a count of the
    rest (an index over its cap by thousands of notes named them all on
    one line), and escaped for the terminal (:func:`mmlint.textutil.printable`:
    a note name is store text)."""
    from mmlint.textutil import printable

    def cut(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: cut(v) for k, v in value.items()}
        if isinstance(value, list) and len(value) > USAGE_LIST_SHOWN:
            return [cut(v) for v in value[:USAGE_LIST_SHOWN]] + [f"… {len(value) - USAGE_LIST_SHOWN} more"]
        return value

    return printable(json.dumps(cut(usage), ensure_ascii=False))


def carrier_rows(plan: Any) -> list[tuple[str, str, str]]:
    """``(carrier, where, count)`` rows: each key with the files holding it."""
    from collections import Counter

    keys = Counter(k for _, k in plan.carriers if k != "file")
    where: dict[str, set[str]] = {}
    for path, key in plan.carriers:
        where.setdefault(key, set()).add(path)
    rows = [(k, ", ".join(sorted(where[k])[:3]) + (f" (+{len(where[k]) - 3} files)" if len(where[k]) > 3 else ""), str(n))
            for k, n in sorted(keys.items())]
    rows += [("file", path, "1") for path, key in plan.carriers if key == "file"]
    return rows


def plan_json(plan: Any, dry_run: bool) -> dict:
    """The ``mmlint.convert/1`` JSON document for a plan
    (:class:`mmlint.convert.Plan`): the same data as the text. Sizes are
    bytes; ``usage`` keeps the target's metric names (see
    :class:`mmlint.convert.PlannedFile`)."""
    return {key: list(value) if isinstance(value, Iterator) else value for key, value in _members(plan, dry_run).items()}


def write_plan_json(plan: Any, dry_run: bool, out: TextIO) -> None:
    """Write ``json.dumps(plan_json(plan, dry_run), ensure_ascii=False,
    indent=2)`` and a newline to ``out``, the same text, one item of the
    long lists (files, carriers) at a time: a plan of 20,000 notes is
    never held as one document and one string (~80 MiB). Bytes that are
    not UTF-8 (lone surrogates) become ``\\udcXX`` escapes."""
    out.write("{")
    sep = "\n"
    for key, value in _members(plan, dry_run).items():
        out.write(sep + "  " + _json(key) + ": ")
        sep = ",\n"
        if not isinstance(value, Iterator):
            out.write(_json(value).replace("\n", "\n  "))
            continue
        opened = False
        while batch := list(islice(value, 500)):  # json per batch: one call per item would cost more than the list
            text = _json(batch)[2:-2]  # the items, without "[\n" and "\n]", indented one level
            out.write((",\n    " if opened else "[\n    ") + text[2:].replace("\n", "\n  "))
            opened = True
        out.write("\n  ]" if opened else "[]")
    out.write("\n}\n")


def _json(value: Any) -> str:
    """``value`` as ``json.dumps(..., ensure_ascii=False, indent=2)`` writes
    it at the top level, lone surrogates escaped (valid JSON, same strings)."""
    text = _ENCODER.encode(value)
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


#: ``json.dumps(..., ensure_ascii=False, indent=2)`` builds an encoder per call; one is enough.
_ENCODER = json.JSONEncoder(ensure_ascii=False, indent=2)


def _members(plan: Any, dry_run: bool) -> dict[str, Any]:
    """The members of :func:`plan_json`, each list as an iterator of its items."""
    return {
        "format": FORMAT_ID,
        "source": {"path": plan.source, "dialect": plan.source_dialect, "profile": plan.source_profile, "notes": plan.notes},
        "dest": {"path": plan.dest, "dialect": plan.dialect, "profile": plan.profile},
        "ok": plan.ok,
        "dryRun": dry_run,
        "written": plan.written,
        "files": ({"path": f.path, "bytes": f.size, "kind": f.kind, "source": f.source or None, "usage": f.usage or None}
                  for f in plan.files.values()),
        "carriers": ({"path": p, "key": k} for p, k in plan.carriers),
        "fills": ({"path": p, "field": f, "value": v} for p, f, v in plan.fills),
        "losses": ({"path": p, "field": f, "value": v} for p, f, v in plan.losses),
        "notCopied": ({"path": p, "reason": r} for p, r in plan.not_copied),
        "swept": ({"path": p, "action": a} for p, a in plan.swept),
        "removes": iter(plan.removes),
        "warnings": iter(plan.warnings),
        "backup": plan.backup,
        "refusals": ({"code": r.code, "path": r.path, "field": r.field, "message": r.message, "usage": r.usage}
                     for r in plan.refusals),
    }


def _table(out: TextIO, title: str, head: tuple[str, ...], rows: list[tuple[str, ...]], rich_console) -> None:
    if rich_console is not None:
        from rich.table import Table
        from rich.text import Text

        table = Table(title=Text(title), title_justify="left")
        for h in head:
            table.add_column(h, justify="right" if h == "bytes" else "left", overflow="fold")
        for row in rows:
            table.add_row(*(Text(c) for c in row))  # store text is never read as rich markup
        rich_console.print(table)
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    out.write(f"{title}:\n")
    for row in [head] + rows:
        cells = [c.rjust(w) if h == "bytes" else c.ljust(w) for c, w, h in zip(row, widths, head)]
        out.write("  " + "  ".join(cells).rstrip() + "\n")


def print_plan(plan: Any, dry_run: bool, out: TextIO) -> None:
    """The plan as text on ``out`` (see module docs)."""
    from mmlint.textutil import safe_path_text as esc

    console = None
    if hasattr(out, "isatty") and out.isatty():
        from rich.console import Console

        console = Console(file=out, highlight=False)
    prof = f" ({plan.profile})" if plan.profile else ""
    src_prof = f" ({plan.source_profile})" if plan.source_profile else ""
    out.write(f"convert {esc(plan.source)} [{plan.source_dialect}{src_prof}, {plan.notes} notes] -> {esc(plan.dest)} [{plan.dialect}{prof}]\n")
    for name, action in plan.swept:
        out.write(f"leftover of a killed run {action}: {esc(name)}\n")
    if plan.files:
        total = sum(f.size for f in plan.files.values())
        rows = [(f.kind, str(f.size), esc(f.path), esc(f.source) if f.source and f.source != f.path else "", budget_text(f.usage))
                for f in plan.files.values()]
        _table(out, f"files to write: {len(plan.files)} ({total} bytes)", ("kind", "bytes", "path", "from", "budget use"), rows, console)
    if plan.carriers:
        _table(out, "carriers (fields the target holds in mmlint-* keys or files)", ("carrier", "in", "uses"),
               [(k, esc(w), n) for k, w, n in carrier_rows(plan)], console)
    for p, f, v in plan.fills:
        out.write(f"fill: {esc(p)}: {f} := {v!r}\n")
    for p, f, v in plan.losses:
        out.write(f"loss (allowed): {esc(p)}: {f} was {v!r}\n")
    for p, reason in plan.not_copied:
        out.write(f"not copied: {esc(p)}/ ({esc(reason)})\n")
    if plan.removes:
        out.write(f"removes: {len(plan.removes)} file(s) of the old DST, which --force replaces:\n")
        for p in plan.removes:
            out.write(f"  {esc(p)}\n")
    for w in plan.warnings:
        out.write(f"warning: {esc(w)}\n")
    for r in plan.refusals:
        field = f" [{r.field}]" if r.field else ""
        out.write(f"refused: {r.code} {esc(r.path)}{field}: {esc(r.message)}\n")
        if r.usage:
            out.write(f"  usage: {usage_text(r.usage)}\n")
    if plan.refusals:
        out.write("nothing written.\n")
    elif dry_run:
        out.write("dry run: nothing written; the conversion would succeed and verify.\n")
    elif plan.written:
        out.write("written and verified: the target's own tool reads every value the source's tool read, "
                  "and DST holds the rendered bytes.\n")
    if plan.backup:
        out.write(f"the old DST is kept at {esc(plan.backup)}\n")


class PlanReporter(Reporter):
    """Writes a conversion plan.

    Args:
        dry_run: whether the plan was only planned (``--dry-run``).
        as_json: write :func:`plan_json` instead of the text.
    """

    def __init__(self, dry_run: bool, as_json: bool = False) -> None:
        self.dry_run = dry_run
        self.as_json = as_json

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the plan ``result`` (a :class:`mmlint.convert.Plan`) to
        ``stream``; ``cwd`` is unused (the plan's paths are as given)."""
        if not self.as_json:
            print_plan(result, self.dry_run, stream)
            return
        write_plan_json(result, self.dry_run, stream)
