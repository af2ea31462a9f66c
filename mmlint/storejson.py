"""``mmlint dump``: the model of a store as JSON (``mmlint.store/1``,
schema ``schemas/store.json``).

Shape::

    {"format": "mmlint.store/1", "tool": {"name", "version"},
     "root": str, "dialect": str, "profile": str | null,
     "notes": [{"path", "slug", "category": [str], "fields": {field: value},
                "extra": {key: value}, "body": text,
                "spans": {field: span}, "protocol": {...} (mm only)}],
     "index": {"path", "sizeBytes", "lineCount", "bom", "newline", "header": {key: text},
               "headings": [{"line", "level", "text"}],
               "entries": [{"span", "pointer", "target", "title", "hook", "section",
                            "kind", "pointerSpan"}],
               "prose": [{"line", "text"}], "loose": [{"line", "text"}]} | null,
     "files": [{"path", "kind", "size", "reason"}],
     "aux": [{"path", "text": str} | {"path", "base64": str}],
     "problems": [{"code", "message", "severity", "span"}]}

A span is ``{"path", "line", "column", "endLine", "endColumn"}`` (1-based;
columns in code points; ends ``null`` when unknown). ``fields`` holds every
model field the note has (:data:`mmlint.model.NOTE_FIELDS`), ``spans``
where each was read (``extra:<key>`` for unknown keys).

**Text that is not UTF-8.** Readers decode bytes that are not UTF-8 as lone
surrogates (``surrogateescape``). JSON cannot carry those, so such a string
is written as ``{"utf8b": "<base64 of the original bytes>"}``; every other
string is a JSON string. :func:`text` turns either form back into the
model's string, so the dump is reversible. Auxiliary files are bytes:
``{"text": ...}`` when they are UTF-8, else ``{"base64": ...}``. YAML values
of unknown keys that are not JSON types (dates) are ISO strings.

For an mm store each note also carries ``protocol``: the note as the Memory
Standard protocol exposes it (research/mm-memory.schema.json: ``topic``,
``memoryId``, ``uri``, ``summary``, ``tags``, ``file``, ``updated``,
``bodyChars``, ``writeBudget``, ``entryBody``, ``body``, ``missingFile``).
"""

from __future__ import annotations

import base64
import datetime as _dt
from typing import Any

from mmlint import __version__
from mmlint.model import NOTE_FIELDS, Span, Store

FORMAT = "mmlint.store/1"


def _has_escapes(s: str) -> bool:
    return any("\udc80" <= c <= "\udcff" for c in s)


def jtext(s: str) -> Any:
    """A model string as JSON: itself, or ``{"utf8b": base64}`` when it
    holds bytes that were not UTF-8 (see the module docs)."""
    if not _has_escapes(s):
        return s
    return {"utf8b": base64.b64encode(s.encode("utf-8", "surrogateescape")).decode("ascii")}


def text(value: Any) -> str:
    """The inverse of :func:`jtext`."""
    if isinstance(value, dict) and "utf8b" in value:
        return base64.b64decode(value["utf8b"]).decode("utf-8", "surrogateescape")
    return value


def jvalue(v: Any) -> Any:
    """Any model value as JSON (strings through :func:`jtext`)."""
    if isinstance(v, str):
        return jtext(v)
    if isinstance(v, bool) or v is None or isinstance(v, (int, float)):
        return v
    if isinstance(v, (_dt.date, _dt.datetime)):
        return v.isoformat()
    if isinstance(v, dict):
        return {str(k): jvalue(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jvalue(x) for x in v]
    return jtext(str(v))


def jspan(s: Span | None) -> Any:
    """A :class:`~mmlint.model.Span` as JSON (``None`` stays ``None``)."""
    if s is None:
        return None
    return {"path": jtext(s.path), "line": s.line, "column": s.column, "endLine": s.end_line, "endColumn": s.end_column}


def _protocol(store: Store, n: Any) -> dict[str, Any]:
    from mmlint.dialects import mm

    topic = mm.topic_for(n)
    memory_id = store.index.header.get("mm-id", "local") if store.index is not None else "local"
    rec = store.files.get(n.path)
    budget = mm._BUDGET_RE.match(n.budget or "")
    chars = int(budget.group(1)) if budget else mm.body_chars(n.body)
    write = mm.recorded_write_budget(n) or mm.WRITE_BUDGET
    return {"topic": topic, "memoryId": memory_id, "uri": f"mm://{memory_id}/{topic}", "summary": n.summary or "",
            "tags": list(n.tags or []), "file": n.path, "updated": n.updated or "", "bodyChars": chars,
            "writeBudget": write, "entryBody": n.entry_body or "", "body": n.body,
            "missingFile": rec is None or rec.kind != "note"}


def document(store: Store) -> dict[str, Any]:
    """The ``mmlint.store/1`` document of ``store`` (see the module docs)."""
    notes = []
    for n in store.notes:
        d = {"path": jtext(n.path), "slug": jtext(n.slug), "category": [jtext(c) for c in n.category],
             "fields": {k: jvalue(getattr(n, k)) for k in NOTE_FIELDS if getattr(n, k) is not None},
             "extra": jvalue(dict(n.extra)), "body": jtext(n.body),
             "spans": {k: jspan(v) for k, v in sorted(n.spans.items())}}
        if store.dialect == "mm":
            d["protocol"] = jvalue(_protocol(store, n))
        notes.append(d)
    idx = store.index
    index = None
    if idx is not None:
        index = {"path": jtext(idx.path), "sizeBytes": idx.size_bytes, "lineCount": idx.line_count, "bom": idx.bom,
                 "newline": idx.newline, "header": jvalue(dict(idx.header)),
                 "headings": [{"line": line, "level": level, "text": jtext(t)} for line, level, t in idx.headings],
                 "entries": [{"span": jspan(e.span), "pointer": jvalue(e.pointer), "target": jvalue(e.target),
                              "title": jvalue(e.title), "hook": jvalue(e.hook), "section": jvalue(e.section),
                              "kind": e.kind, "pointerSpan": jspan(e.pointer_span)} for e in idx.entries],
                 "prose": [{"line": line, "text": jtext(t)} for line, t in idx.prose],
                 "loose": [{"line": line, "text": jtext(t)} for line, t in idx.loose]}
    aux = []
    for path, data in store.aux_files().items():
        try:
            aux.append({"path": jtext(path), "text": data.decode("utf-8")})
        except UnicodeDecodeError:
            aux.append({"path": jtext(path), "base64": base64.b64encode(data).decode("ascii")})
    return {"format": FORMAT, "tool": {"name": "mmlint", "version": __version__}, "root": jtext(store.root),
            "dialect": store.dialect, "profile": store.profile, "notes": notes, "index": index,
            "files": [{"path": jtext(r.path), "kind": r.kind, "size": r.size, "reason": jtext(r.reason)}
                      for _, r in sorted(store.files.items())],
            "aux": aux,
            "problems": [{"code": p.code, "message": jtext(p.message), "severity": p.severity, "span": jspan(p.span)}
                         for p in store.problems]}
