"""One conversion from start to end: :func:`plan_conversion`.

It strings together the DST checks (:mod:`mmlint.convert.dest`), the
policy (:mod:`mmlint.convert.policy`, no I/O) and the file-system
transaction (:mod:`mmlint.convert.transaction`). Everything up to the
transaction only reads: a dry run is the same steps without it.
"""

from __future__ import annotations

import os
from typing import Callable

from mmlint import carriers, dialects, tool_verify
from mmlint.convert import dest as dest_check
from mmlint.convert import policy, transaction
from mmlint.convert.plan import Plan
from mmlint.gcpause import gc_paused
from mmlint.model import Store
from mmlint.usage import Refusal


def plan_conversion(source: Store, dest: str, dialect: str, profile: str | None = None,
                    defaults: dict[str, str] | None = None, allow_loss: set[str] | None = None,
                    force: bool = False, dry_run: bool = False,
                    progress: Callable[[str, int, int], None] | None = None,
                    backup: bool = False) -> Plan:
    """Convert ``source`` into ``dialect``/``profile`` at ``dest``; write only
    when nothing is lost (and ``dry_run`` is false).

    ``defaults`` (model field -> value) fill fields notes lack
    (``--default``); ``allow_loss`` names fields that may be dropped
    (``--allow-loss``); ``force`` lets a non-empty ``dest`` that is a memory
    store be replaced (:func:`mmlint.convert.dest.check`), ``backup`` keeps
    the replaced one (``--backup``, ``plan.backup``). ``progress(step, done,
    total)`` is called as the work goes (``"render"``, ``"write"``,
    ``"verify"``).

    The steps: sweep what killed runs left next to ``dest`` (not in a dry
    run), check DST, render, check budgets, read the rendered files back
    with the target's reader in memory and compare (:func:`policy.verify`);
    a dry run stops there, having written nothing. A real run then writes
    the tree beside DST, syncs it and moves it into place in one step
    (:func:`mmlint.convert.transaction.commit`).

    Returns the :class:`~mmlint.convert.plan.Plan`; ``plan.written`` tells
    whether ``dest`` now holds the converted store. Never raises for
    refusals.

    Raises:
        dialects.UnknownDialect: a bad dialect or profile.
        mmlint.convert.transaction.CannotConvert: the file system did not
            let it happen (DST below a file or not writable, a full disk,
            another conversion writing DST, Ctrl-C); exit 2.
    """
    with gc_paused():
        return _plan(source, dest, dialect, profile, defaults, allow_loss, force, dry_run, progress, backup)


def _plan(source: Store, dest: str, dialect: str, profile: str | None, defaults: dict[str, str] | None,
          allow_loss: set[str] | None, force: bool, dry_run: bool,
          progress: Callable[[str, int, int], None] | None, backup: bool) -> Plan:
    target = dialects.get(dialect)
    profile = dialects.check_profile(dialect, profile) or target.DEFAULT_PROFILE
    dest = os.path.abspath(dest)
    plan = Plan(source.root, source.dialect, source.profile, dest, dialect, profile)
    allow = set(allow_loss or ())
    if not dry_run:
        try:
            plan.swept = transaction.sweep_leftovers(dest)
        except OSError as exc:
            raise transaction.CannotConvert(f"cannot clean up after an earlier run next to {dest}: {exc.strerror or exc}") from None
    plan.notes = len(source.notes)  # the plan's header names it, a refusal about DST too
    state, refusal = dest_check.check(dest, source.root, force)
    if refusal is not None:
        plan.refusals.append(refusal)
        return plan
    plan.removes = state.removes
    policy.blocking_problems(source, plan)
    if plan.refusals:
        return plan
    step = progress or (lambda what, done, total: None)
    step("render", 0, 1)
    model = policy.working_copy(source)
    same = source.dialect == dialect and source.profile == profile
    if not same:
        reading = tool_verify.source_reading(source)
        for path, keys in tool_verify.misread_keys(source, reading):
            shown = ", ".join(keys)
            plan.refusals.append(Refusal("E_LOSS", path, f"{reading.tool} does not see the key(s) {policy.short(shown)} that "
                                                         "this note's frontmatter lines show (a quoted value running over "
                                                         "several lines?); fix the frontmatter, then convert", "extra"))
        if plan.refusals:
            return plan
        tool_verify.adopt(model, reading)  # the values the source's tool sees
        made = policy.make_origin(source, model)
        policy.apply_defaults(model, target, profile, defaults or {}, plan)
        if made:
            policy.record_fills(model, plan)
        policy.native_only(source, allow, plan)
    if model.origin is not None:  # also for a copy into the same profile: a record passed on says where it is now
        model.origin = carriers.written_as(model.origin, dialect, profile)
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
    if plan.refusals:
        return plan
    if not same:
        policy.one_way(source, plan)
    step("verify", 0, 1)
    policy.verify(source, model, target, profile, files, allow, plan)
    if plan.refusals or dry_run:
        return plan
    bad, plan.backup = transaction.commit(files, dest, state.kind, state.ident, backup, step)
    if bad:
        plan.refusals.append(Refusal("E_VERIFY", bad[0], f"the written tree, read back, differs from what was rendered "
                                                          f"({len(bad)} file(s)); DST was put back as it was"))
        return plan
    plan.written = True
    step("verify", 1, 1)
    return plan
