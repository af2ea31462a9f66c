"""What a conversion writes and why it may not: the plan data.

A :class:`Plan` is filled by :func:`mmlint.convert.plan_conversion` and
printed by the CLI (``--format text`` or ``mmlint.convert/1`` JSON). It holds
no behaviour beyond :attr:`Plan.ok`; the policy (:mod:`mmlint.convert.policy`)
and the file-system transaction (:mod:`mmlint.convert.transaction`) add to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mmlint.usage import Refusal


@dataclass
class PlannedFile:
    """One file a conversion writes.

    Attributes:
        path: POSIX path relative to DST.
        size: bytes.
        kind: ``"index"``, ``"note"``, ``"aux"`` (copied verbatim) or
            ``"carrier"`` (:data:`mmlint.carriers.INDEX_LINES_FILE`).
        source: the source path it comes from (a note, or an auxiliary file),
            ``""`` for what the writer generates.
        usage: the target's budget use for it (``budget_use`` of the target
            dialect: mm ``bodyChars``/``writeBudget``/``budgetUsedPct``/
            ``noteBytes``; index ``lines``/``lineCap``/``bytes``/``byteCap``).
    """

    path: str
    size: int
    kind: str
    source: str = ""
    usage: dict[str, Any] = field(default_factory=dict)


@dataclass
class Plan:
    """What a conversion writes and why it may not.

    ``files`` maps DST paths to :class:`PlannedFile`; ``fills`` lists
    ``(path, field, value)`` the target filled in; ``losses`` lists
    ``(path, field, source value)`` dropped under ``--allow-loss``;
    ``carriers`` lists ``(DST path, carrier key or "file")`` the target holds
    fields in (:func:`mmlint.carriers.used`); ``not_copied`` lists
    ``(source folder, reason)`` for folders of other tools that are not part
    of the store; ``swept`` the leftovers of killed runs cleaned up
    (:func:`mmlint.convert.transaction.sweep_leftovers`); ``removes`` every
    file (POSIX, relative to DST) of the old DST that ``--force`` replaces;
    ``backup`` where the replaced DST was kept (``--backup``), else
    ``None``; ``notes`` counts the source's notes; ``warnings`` are
    sentences about a conversion that goes ahead (the way back will be
    refused: :func:`mmlint.convert.policy.one_way`). Paths in ``fills``,
    ``losses`` and ``refusals`` are source paths.
    """

    source: str
    source_dialect: str
    source_profile: str | None
    dest: str
    dialect: str
    profile: str | None
    files: dict[str, PlannedFile] = field(default_factory=dict)
    fills: list[tuple[str, str, Any]] = field(default_factory=list)
    losses: list[tuple[str, str, Any]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    carriers: list[tuple[str, str]] = field(default_factory=list)
    not_copied: list[tuple[str, str]] = field(default_factory=list)
    swept: list[tuple[str, str]] = field(default_factory=list)
    removes: list[str] = field(default_factory=list)
    backup: str | None = None
    notes: int = 0
    warnings: list[str] = field(default_factory=list)
    written: bool = False

    @property
    def ok(self) -> bool:
        """Nothing refused: the conversion was (or, in a dry run, would be) written."""
        return not self.refusals
