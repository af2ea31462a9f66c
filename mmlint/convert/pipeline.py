"""One conversion from start to end: :func:`plan_conversion`.

It strings together the policy (:mod:`mmlint.convert.policy`, no I/O) and
the file-system transaction (:mod:`mmlint.convert.transaction`).
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
from typing import Callable

from mmlint import dialects
from mmlint.convert import policy, transaction
from mmlint.convert.plan import Plan
from mmlint.model import Store, semantic
from mmlint.usage import Refusal
from mmlint.walk import inside


def plan_conversion(source: Store, dest: str, dialect: str, profile: str | None = None,
                    defaults: dict[str, str] | None = None, allow_loss: set[str] | None = None,
                    force: bool = False, dry_run: bool = False,
                    progress: Callable[[str, int, int], None] | None = None) -> Plan:
    """Convert ``source`` into ``dialect``/``profile`` at ``dest``; write only
    when nothing is lost (and ``dry_run`` is false).

    ``defaults`` (model field -> value) fill fields notes lack
    (``--default``); ``allow_loss`` names fields that may be dropped
    (``--allow-loss``); ``force`` lets a non-empty ``dest`` be replaced.
    ``progress(step, done, total)`` is called as the work goes
    (``"render"``, ``"write"`` once per file, ``"verify"``).

    A dry run renders, writes the tree to a temporary sibling, reads it back
    and compares, then deletes it. A real run first sweeps what killed runs
    left next to ``dest`` (:func:`~mmlint.convert.transaction.sweep_leftovers`),
    then installs the verified tree with one rename
    (:func:`~mmlint.convert.transaction.install`) and re-reads ``dest``.

    Returns the :class:`~mmlint.convert.plan.Plan`; ``plan.written`` tells
    whether ``dest`` now holds the converted store. Never raises for
    refusals; raises ``dialects.UnknownDialect`` for a bad dialect or
    profile and ``OSError`` when the file system fails.
    """
    target = dialects.get(dialect)
    profile = dialects.check_profile(dialect, profile) or target.DEFAULT_PROFILE
    dest = os.path.abspath(dest)
    plan = Plan(source.root, source.dialect, source.profile, dest, dialect, profile)
    allow = set(allow_loss or ())
    if not dry_run:
        plan.swept = transaction.sweep_leftovers(dest)
    real_dest, real_src = os.path.realpath(dest), os.path.realpath(source.root)
    if inside(real_src, real_dest) or inside(real_dest, real_src):
        # --force replaces DST whole: a DST holding the source would delete it.
        plan.refusals.append(Refusal("E_DEST_NOT_EMPTY", dest, "destination overlaps the source store (is it, lies inside it, or holds it)"))
        return plan
    state = transaction.dest_state(dest)
    if state == "file" or (state == "full" and not force):
        plan.refusals.append(Refusal("E_DEST_NOT_EMPTY", dest, "destination exists and is not an empty folder; pass --force to replace it"))
        return plan
    plan.notes = len(source.notes)
    policy.blocking_problems(source, plan)
    if plan.refusals:
        return plan
    step = progress or (lambda what, done, total: None)
    step("render", 0, 1)
    model = copy.deepcopy(source)
    same = source.dialect == dialect and source.profile == profile
    if not same:
        policy.apply_defaults(model, target, profile, defaults or {}, plan)
        policy.native_only(source, allow, plan)
    files = policy.render_dropping(model, target, profile, allow, plan)
    if files is None:
        return plan
    for rel in files:
        if policy.unsafe_path(rel):
            plan.refusals.append(Refusal("E_UNREPRESENTABLE", rel, f"{policy.short(rel)} would be written outside DST", "slug"))
            return plan
    policy.describe(plan, model, target, profile, files)
    if not same and hasattr(target, "budget_overflows"):
        for ov in target.budget_overflows(model, files, profile):
            plan.refusals.append(ov)
    plan.refusals.sort(key=lambda r: (policy.PRIORITY.get(r.code, 0), r.path))
    step("render", 1, 1)
    paths = {n.slug: n.path for n in source.notes}
    expected = semantic(model)  # the source with fills applied and allowed losses dropped
    parent = os.path.dirname(dest) or "."
    if plan.refusals:
        return plan
    if dry_run and not os.path.isdir(parent):
        # a dry run creates nothing next to DST: verify in the system temp folder
        tmp = tempfile.mkdtemp(prefix=".mmlint-dry-run-")
    else:
        os.makedirs(parent, exist_ok=True)
        tmp = transaction.sibling(dest, "tmp")
    try:
        transaction.write_tree(tmp, files, step)
        step("verify", 0, 1)
        back = target.read(tmp, profile)
        policy.compare(expected, semantic(back), allow, plan, paths)
        if plan.refusals or dry_run:
            return plan
        transaction.install(tmp, dest, state)
        tmp = ""
        transaction.fsync_dir(parent)
        plan.written = True
        again = target.read(dest, profile)
        check = Plan(plan.source, plan.source_dialect, plan.source_profile, dest, dialect, profile)
        policy.compare(expected, semantic(again), allow, check, paths)
        if check.refusals:
            plan.refusals.extend(Refusal("E_VERIFY", r.path, "after writing: " + r.message, r.field) for r in check.refusals)
        step("verify", 1, 1)
        return plan
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
