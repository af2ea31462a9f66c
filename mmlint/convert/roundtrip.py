"""A->B->A: convert a store to another dialect and back, and compare.

Used by tests, ``scripts/convert_matrix.py`` and ``docs/convert-matrix.md``
to show what a pair of dialects keeps.
"""

from __future__ import annotations

from typing import Any

import os
from dataclasses import dataclass, field

from mmlint import dialects
from mmlint.convert.pipeline import plan_conversion
from mmlint.convert.plan import Plan
from mmlint.model import Store, semantic


@dataclass
class RoundTrip:
    """The result of :func:`round_trip` (A->B->A) for one store and target.

    Attributes:
        there: the plan of A->B (refused: nothing more was tried).
        back: the plan of B->A, or ``None`` when A->B was refused.
        changed: ``(note path or file, field)`` whose value after A->B->A
            differs from the source's (a field the source lacked and a plan
            filled is not a change; it is listed in the plans' ``fills``).
        same_paths: every note is back at its source path.
        same_bytes: every file of the store is back byte for byte.
    """

    there: Plan
    back: Plan | None = None
    changed: list[tuple[str, str]] = field(default_factory=list)
    same_paths: bool = False
    same_bytes: bool = False

    @property
    def ok(self) -> bool:
        """A->B and B->A were written and nothing changed on the way."""
        return self.back is not None and self.back.written and not self.changed and self.same_paths


def round_trip(source: Store, workdir: str, dialect: str, profile: str | None = None,
               defaults: dict[str, str] | None = None) -> RoundTrip:
    """Convert ``source`` (A) to ``dialect``/``profile`` (B) in
    ``<workdir>/b``, then back to A's dialect and profile in ``<workdir>/a``,
    with the same ``defaults`` both ways, and compare the result with the
    source (:func:`mmlint.model.semantic`, note paths, file bytes).

    ``workdir`` must not hold ``a`` or ``b`` yet. Never raises for refusals.
    """
    there = plan_conversion(source, os.path.join(workdir, "b"), dialect, profile, defaults)
    result = RoundTrip(there)
    if not there.written:
        return result
    mid = dialects.get(dialect).read(os.path.join(workdir, "b"), there.profile)
    result.back = plan_conversion(mid, os.path.join(workdir, "a"), source.dialect, source.profile, defaults)
    if not result.back.written:
        return result
    again = dialects.get(source.dialect).read(os.path.join(workdir, "a"), source.profile)
    want, got = semantic(source), semantic(again)
    slugs = {n.path: n.slug for n in source.notes} | {n.path: n.slug for n in mid.notes}
    filled: dict[tuple[str, str], Any] = {}
    for plan in (there, result.back):
        for path, fname, value in plan.fills:
            filled.setdefault((slugs.get(path, ""), fname), value)
    by_slug = {n.slug: n.path for n in source.notes}
    for slug, fields in want["notes"].items():
        other = got["notes"].get(slug, {})
        # a field the source lacked may come back filled, or not at all (the source's own bytes)
        result.changed += [(by_slug[slug], k) for k in sorted(set(fields) | set(other)) if fields.get(k) != other.get(k)
                           and not (k not in fields and (slug, k) in filled and other.get(k) == filled[(slug, k)])]
    result.changed += [("MEMORY.md", k) for k in ("index_lines", "aux") if want[k] != got[k]]
    result.same_paths = sorted(n.path for n in source.notes) == sorted(n.path for n in again.notes)
    result.same_bytes = {p: r.data for p, r in source.files.items()} == {p: r.data for p, r in again.files.items()}
    return result
