"""``mmlint budget``: how much of its budgets a store uses, for every dialect.

The fields are those of the mm spec's ``budget()`` report (§6,
research/mm-reference.md §4), computed with each dialect's own caps and the
configured ``caps`` overrides. Shape (``mmlint.budget/1``)::

    {"format": "mmlint.budget/1", "tool": {"name", "version"},
     "stores": [{"path": "memory", "dialect": "mm", "profile": null,
                 "index": {"entries", "lines", "bytes", "lineCap", "byteCap",
                           "overBudget", "overflowLines", "overflowBytes"} | null,
                 "notes": [{"path", "slug", "bodyChars", "noteBytes",
                            "writeBudget", "budgetUnit", "budgetUsedPct", "overBudget", "indexTokens"}],
                 "anomalies": {"danglingEntries": int, "orphanFiles": [path]},
                 "tokens": {"method", "alwaysLoaded", "loadedLines", "indexLines",
                            "indexTokens", "entries": [{"line", "target", "tokens", "loaded"}]}}]}

Each note also has ``indexTokens``: the tokens of the first index entry
pointing at it (``null`` when none does). ``tokens`` is the token cost of
what the agent loads every session (:mod:`mmlint.tokens`, which documents
the estimation method and the optional exact count).

Units: ``lines`` by the spec's line rule, ``bytes``/``noteBytes`` raw bytes
on disk, ``bodyChars`` code points of the body without leading and trailing
line breaks (measured, where the mm reference reports the recorded
``budget:`` value). ``writeBudget`` is the note's limit in ``budgetUnit``:
``bodyChars`` (mm write budget), ``bodyBytes`` (workspace ``maxEntryBytes``)
or ``noteBytes`` (engramory recall-v1 / upstream 4 MiB); ``null`` when the
dialect sets none. ``budgetUsedPct`` is ``used / writeBudget * 100`` rounded
half up and clamped to 0..100, ``null`` without a budget; a note's
``overBudget`` is true when its use exceeds ``writeBudget`` (a hard limit:
the owning tool refuses to save such a note). A cap the dialect
does not have (workspace index) is ``null`` and never exceeded.
``danglingEntries`` counts index entries whose local target is not in the
store; ``orphanFiles`` lists notes no index entry points at (store-relative
paths, where the reference lists bare names).
"""

from __future__ import annotations

from typing import Any

from mmlint import __version__, dialects
from mmlint.api import display_path
from mmlint.model import Span

FORMAT = "mmlint.budget/1"


def used_pct(used: int, limit: int | None) -> int | None:
    """``used / limit`` in percent, rounded half up, clamped to 0..100."""
    if not limit or limit <= 0:
        return None
    return max(0, min(100, (200 * used + limit) // (2 * limit)))


def store_report(res: Any, cwd: str, tokenizer: tuple[str, Any] | None = None) -> dict[str, Any]:
    """The report of one store (:class:`mmlint.api.StoreResult` read with its
    options); ``tokenizer`` is ``(method, count)`` from
    :func:`mmlint.tokens.counter` (default: the estimate)."""
    from mmlint import tokens
    from mmlint.usage import index_usage
    from mmlint.rules.index import dialect_index_caps

    store = res.store
    mod = dialects.get(store.dialect)
    caps = res.options.caps
    index = None
    pointed: set[str] = set()
    dangling = 0
    if store.index is not None:
        rec = store.files.get(store.index.path)
        hard = dialect_index_caps(mod, store.profile, caps)
        index = index_usage(rec.data if rec is not None and rec.data is not None else b"", hard["lines"], hard["bytes"],
                            len(store.index.entries))
        for e in store.index.entries:
            if e.target is not None:
                pointed.add(e.target)
                dangling += e.target not in store.files
    notes = []
    for n in sorted(store.notes, key=lambda n: n.path):
        rec = store.files.get(n.path)
        note_bytes = rec.size if rec is not None and rec.kind == "note" else 0
        chars = len(n.body.strip("\n")) if note_bytes else 0
        limit = mod.note_budget(n, store.profile, caps) if hasattr(mod, "note_budget") else None
        unit, cap = limit if limit is not None else (None, None)
        used = {"bodyChars": chars, "noteBytes": note_bytes,
                "bodyBytes": len(n.body.encode("utf-8", "surrogateescape"))}.get(unit or "", 0)
        notes.append({"path": n.path, "slug": n.slug, "bodyChars": chars, "noteBytes": note_bytes,
                      "writeBudget": cap, "budgetUnit": unit, "budgetUsedPct": used_pct(used, cap),
                      "overBudget": cap is not None and used > cap})
    orphans = sorted(n.path for n in store.notes if n.path not in pointed and store.files.get(n.path) is not None)
    method, count = tokenizer or tokens.counter(None)
    cost = tokens.report(store, caps, count, method)
    first: dict[str, int] = {}
    for e in cost["entries"]:
        if e["target"] is not None:
            first.setdefault(e["target"], e["tokens"])
    for n in notes:
        n["indexTokens"] = first.get(n["path"])
    return {"path": display_path(res.found.path, Span(""), cwd), "dialect": store.dialect, "profile": store.profile, "index": index, "notes": notes,
            "anomalies": {"danglingEntries": dangling, "orphanFiles": orphans}, "tokens": cost}


def over_hard_cap(doc: dict[str, Any]) -> bool:
    """Whether any store of the document is over a hard cap: its index
    (``overBudget``) or a note's write budget (``mmlint budget`` exits 1)."""
    return any((s["index"] or {}).get("overBudget") or any(n["overBudget"] for n in s["notes"]) for s in doc["stores"])


def document(results: list[Any], cwd: str, tokenizer: str | None = None) -> dict[str, Any]:
    """The whole ``mmlint.budget/1`` document; ``tokenizer`` names how
    tokens are counted (:func:`mmlint.tokens.counter`).

    Raises:
        mmlint.tokens.TokenizerUnavailable: the named tokenizer is not installed.
    """
    from mmlint import tokens

    tok = tokens.counter(tokenizer)
    return {"format": FORMAT, "tool": {"name": "mmlint", "version": __version__},
            "stores": [store_report(r, cwd, tok) for r in results]}
