"""``mmlint stores`` output: the ``mmlint.stores/1`` document as a table
with the flags and merge commands below it, or as JSON."""

from __future__ import annotations

import json
from typing import Any, TextIO

COLUMNS = ("store", "project", "exists", "notes", "load", "last change")


def rows(doc: dict[str, Any]) -> list[list[str]]:
    """Table rows: folder name, project (or the naive guess), exists, notes,
    index use of the load window, last change."""
    from mmlint.textutil import safe_path_text

    out = []
    for s in doc["stores"]:
        if s["project"]:
            project = s["project"]
        elif s["candidates"]:
            project = f"{len(s['candidates'])} candidates: " + ", ".join(s["candidates"][:3])
        else:
            project = f"{s['guess']} (decoded guess)"
        load = f"{s['index']['loadUsedPct']}%" if s["index"] else "no index"
        out.append([safe_path_text(s["name"]), safe_path_text(project), "yes" if s["exists"] else "NO", f"{s['notes']:,}",
                    load, s["lastChange"] or "-"])
    return out


def print_text(doc: dict[str, Any], stream: TextIO) -> None:
    """The table, then one paragraph per flag with its merge command."""
    from mmlint.textutil import safe_path_text

    stores = doc["stores"]
    stream.write(f"{safe_path_text(doc['projects'])}: {len(stores)} Claude Code store{'s' if len(stores) != 1 else ''}\n")
    if not stores:
        return
    table = rows(doc)
    widths = [max([len(c)] + [len(r[i]) for r in table]) for i, c in enumerate(COLUMNS)]
    right = {3, 4}
    for row in [list(COLUMNS)] + table:
        stream.write("  ".join(v.rjust(w) if i in right else v.ljust(w) for i, (v, w) in enumerate(zip(row, widths))).rstrip() + "\n")
    flagged = [(s, f) for s in stores for f in s["flags"]]
    if not flagged:
        return
    stream.write("\nflags (project paths are decoded from folder names, which is lossy: check them):\n")
    seen: set[str] = set()
    for s, f in flagged:
        stream.write(f"  {safe_path_text(s['name'])}: {f['flag']}: {safe_path_text(f['message'])}\n")
        if f["command"] and f["command"] not in seen:
            seen.add(f["command"])
            stream.write(f"    {safe_path_text(f['command'])}\n")


def print_json(doc: dict[str, Any], stream: TextIO) -> None:
    """The document as JSON."""
    stream.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
