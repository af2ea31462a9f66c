"""Budget usage metrics and the refusal that carries them.

Dialects measure what a rendered store uses of their caps and report an
overflow as a :class:`Refusal`; ``mmlint convert`` and ``mmlint budget``
consume both. The names are the mm spec's (§6, research/mm-reference.md §4):
``bodyChars``, ``writeBudget``, ``overflow`` in code points; ``noteBytes``,
``noteMaxBytes`` in bytes; ``lines``/``lineCap``, ``bytes``/``byteCap``,
``overflowLines``, ``overflowBytes`` for the index.

This module sits beside the model and imports nothing of ``convert`` or of
the dialects, so dialects can use it without an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mmlint.textutil import count_lines


@dataclass
class Refusal:
    """Why a conversion cannot go ahead.

    Attributes:
        code: one of the codes in ``docs/convert.md`` "Refusal codes":
            ``E_DEST_NOT_EMPTY``, ``E_UNREADABLE``,
            ``E_REQUIRED``, ``E_UNREPRESENTABLE``, the budget codes
            (``E_WRITE_BUDGET_EXCEEDED``, ``E_FILE_BUDGET_EXCEEDED``,
            ``E_NOTE_TOO_LARGE``, ``E_TOO_MANY_NOTES``,
            ``E_INDEX_BUDGET_EXCEEDED``), ``E_LOSS``, ``E_VERIFY``.
        path: the source note (store-relative) or file concerned.
        message: a sentence for the user.
        field: the model field, when one is concerned.
        usage: budget metrics with the mm spec's names (``bodyChars``,
            ``writeBudget``, ``overflow`` in code points; ``noteBytes``,
            ``noteMaxBytes`` in bytes (workspace: ``bodyBytes``, ``maxEntryBytes``);
            ``{"index": {lines, lineCap, bytes,
            byteCap, overflowLines, overflowBytes, pastCap}}``).
    """

    code: str
    path: str
    message: str
    field: str | None = None
    usage: dict[str, Any] | None = None


def index_usage(data: bytes, lines_cap: int | None, bytes_cap: int | None, entries: int) -> dict[str, Any]:
    """mm ``IndexUsage`` for a serialized index (mm-reference §4):
    ``{entries, lines, bytes, lineCap, byteCap, overBudget, overflowLines,
    overflowBytes}``, lines by :func:`mmlint.textutil.count_lines`, bytes
    raw. A cap of ``None`` (a dialect without one) is never exceeded."""
    text = data.decode("utf-8", "surrogateescape")
    lines = count_lines(text)
    size = len(data)
    over_lines = max(0, lines - lines_cap) if lines_cap is not None else 0
    over_bytes = max(0, size - bytes_cap) if bytes_cap is not None else 0
    return {"entries": entries, "lines": lines, "bytes": size, "lineCap": lines_cap, "byteCap": bytes_cap,
            "overBudget": bool(over_lines or over_bytes), "overflowLines": over_lines, "overflowBytes": over_bytes}


#: How many notes past a cap a refusal message names (``usage`` lists all).
_NAMED = 5


def index_overflow(data: bytes, lines_cap: int, bytes_cap: int, entries: list[tuple[int, int, str]],
                   carried: int = 0) -> Refusal | None:
    """An ``E_INDEX_BUDGET_EXCEEDED`` refusal when the serialized index
    ``data`` is over ``lines_cap`` lines or ``bytes_cap`` bytes, else ``None``.

    ``entries`` are ``(first line, last line, source note path)`` of the
    notes' entries in ``data`` (1-based). The refusal's ``usage`` is
    ``{"index": index_usage(...) + {"pastCap": [note paths]}}``: the notes
    whose entry ends past a cap (a loader that stops at the cap never sees
    them), the ones to consolidate, merge or remove first. ``carried``: how
    many of the lines are ``mmlint-*`` carrier lines (an mm index holding
    values its entries have no field for); when not 0 the message says so
    and ``usage["index"]["carrierLines"]`` holds it.
    """
    usage = index_usage(data, lines_cap, bytes_cap, len(entries))
    if not usage["overBudget"]:
        return None
    ends = [0]
    for line in data.split(b"\n"):
        ends.append(ends[-1] + len(line) + 1)
    past = [path for _, last, path in sorted(entries) if last > lines_cap or min(ends[last], len(data)) > bytes_cap]
    usage["pastCap"] = past
    parts = []
    if usage["overflowLines"]:
        parts.append(f"{usage['lines']} lines > {lines_cap} (over by {usage['overflowLines']})")
    if usage["overflowBytes"]:
        parts.append(f"{usage['bytes']} bytes > {bytes_cap} (over by {usage['overflowBytes']})")
    named = ", ".join(past[:_NAMED]) + (f" and {len(past) - _NAMED} more" if len(past) > _NAMED else "")
    where = f"; {len(past)} note(s) would fall past the cap: {named}" if past else ""
    if carried:
        usage["carrierLines"] = carried
        where += (f"; {carried} of its lines are mmlint-* carrier lines (values an mm entry has no field for, such as "
                  "a name, title, type or index hook, kept for the way back)")
    return Refusal("E_INDEX_BUDGET_EXCEEDED", "MEMORY.md",
                   "the index would exceed its hard limit: " + " and ".join(parts) + where +
                   "; consolidate or remove notes before converting (never truncate)", usage={"index": usage})
