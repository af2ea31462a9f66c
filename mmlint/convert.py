"""Migrating a store between dialects without loss.

``Store -> writer(target) -> budget check -> temp folder -> re-read and
compare -> rename into place -> re-read DST and compare``.

A conversion either writes everything or nothing (DESIGN "The loss policy"):

* a value the target cannot hold (:class:`~mmlint.dialects.Unrepresentable`)
  is a refusal naming the note and the field;
* a budget overflow in the target is a refusal carrying the mm spec's usage
  metrics, reported in the spec's priority order (write budget, detail file
  cap, index caps);
* after writing to a temporary sibling folder the target is read back with the
  target's own reader and compared with the source model; any field that
  changed or vanished is a loss. ``--allow-loss FIELD`` accepts the loss of
  that field (listing every dropped value); fields the target fills in (e.g.
  an engramory ``name`` taken from the slug) are listed, not refused.

Converting a store to its own dialect reproduces it byte for byte.
"""

from __future__ import annotations

import copy
import errno
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import Any, Callable

from mmlint import carriers, dialects
from mmlint.dialects import Unrepresentable
from mmlint.model import NOTE_FIELDS, Store, semantic
from mmlint.textutil import count_lines
from mmlint.walk import inside

#: Reader problems that make a store unconvertible: data that was not read.
BLOCKING = {"S101": "a symlink out of the root was not read", "S102": "a file could not be read",
            "S105": "a folder could not be listed", "S117": "the index was too large to read"}

#: Failure priority (mm spec §6): write budget, detail file cap, index caps.
PRIORITY = {"E_WRITE_BUDGET_EXCEEDED": 1, "E_FILE_BUDGET_EXCEEDED": 2, "E_INDEX_BUDGET_EXCEEDED": 3,
            "E_NOTE_TOO_LARGE": 2, "E_TOO_MANY_NOTES": 3}


@dataclass
class Refusal:
    """Why a conversion cannot go ahead.

    Attributes:
        code: one of the codes in ``docs/convert.md`` "Refusal codes":
            ``E_DEST_NOT_EMPTY``, ``E_UNREADABLE``, ``E_REQUIRED``,
            ``E_UNREPRESENTABLE``, the budget codes (``E_WRITE_BUDGET_EXCEEDED``,
            ``E_FILE_BUDGET_EXCEEDED``, ``E_NOTE_TOO_LARGE``, ``E_TOO_MANY_NOTES``,
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
    (:func:`sweep_leftovers`); ``notes`` counts the source's notes. Paths in
    ``fills``, ``losses`` and ``refusals`` are source paths.
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
    notes: int = 0
    written: bool = False

    @property
    def ok(self) -> bool:
        """Nothing refused: the conversion was (or, in a dry run, would be) written."""
        return not self.refusals


def _apply_defaults(store: Store, target: Any, profile: str | None, defaults: dict[str, str], plan: Plan) -> None:
    """Fill fields the notes lack: the user's ``--default`` values first, then
    the target's own fills (``target.fills(note, profile)``); then refuse each
    field ``target.required(profile)`` names that is still missing."""
    required = target.required(profile) if hasattr(target, "required") else {}
    for note in store.notes:
        for fname, value in defaults.items():
            if getattr(note, fname) is None:
                setattr(note, fname, value)
                plan.fills.append((note.path, fname, value))
        for fname, value in (target.fills(note, profile) if hasattr(target, "fills") else {}).items():
            setattr(note, fname, value)
            plan.fills.append((note.path, fname, value))
        for fname, key in required.items():
            if getattr(note, fname) is None:
                plan.refusals.append(Refusal("E_REQUIRED", note.path, f"{target.NAME}{' ' + profile if profile else ''} requires {key!r}, which this note lacks; "
                                             f"supply it with --default {key}=VALUE", fname))


def _unsafe(rel: str) -> bool:
    """True when a writer's output path could leave DST: empty, absolute,
    a backslash or drive letter, or an empty, ``.`` or ``..`` segment."""
    return (not rel or rel.startswith("/") or "\\" in rel or re.match(r"^[A-Za-z]:", rel) is not None
            or any(seg in ("", ".", "..") for seg in rel.split("/")))


def _native_only(source: Store, allow: set[str], plan: Plan) -> None:
    """Refuse what only the source's dialect holds (its ``native_only``),
    or list it as a loss when its field is in ``allow``."""
    module = dialects.get(source.dialect)
    for path, fname, value in (module.native_only(source) if hasattr(module, "native_only") else []):
        if fname in allow:
            plan.losses.append((path, fname, value))
        else:
            plan.refusals.append(Refusal("E_UNREPRESENTABLE", path, f"{fname}: {_short(value)} has no place outside "
                                         f"{source.dialect}; pass --allow-loss {fname} to drop it", fname))


def _describe(plan: Plan, model: Store, target: Any, profile: str | None, files: dict[str, bytes]) -> None:
    """Fill ``plan.files`` (kind, source, budget use) and ``plan.carriers``."""
    written = {dst: src for src, dst in target.note_paths(model, profile).items()} if hasattr(target, "note_paths") else {}
    use = target.budget_use(model, files, profile) if hasattr(target, "budget_use") else {}
    aux = {carriers.unpark(p) for p in model.aux_files()}
    for path, data in sorted(files.items()):
        if path == "MEMORY.md":
            kind, src = "index", ""
        elif path in written:
            kind, src = "note", written[path]
        elif carriers.unpark(path) in aux:
            kind, src = "aux", carriers.unpark(path)
        else:
            kind, src = "carrier", ""
        plan.files[path] = PlannedFile(path, len(data), kind, src, use.get(path, {}))
    plan.carriers = carriers.used(files)


def _compare(expected: dict[str, Any], got: dict[str, Any], allow: set[str], plan: Plan, paths: dict[str, str]) -> None:
    for slug, src in expected["notes"].items():
        path = paths.get(slug, slug)
        dst = got["notes"].get(slug)
        if dst is None:
            plan.refusals.append(Refusal("E_LOSS", path, f"note {slug!r} is missing after conversion", "slug"))
            continue
        for key in list(NOTE_FIELDS) + ["extra", "body", "category"]:
            a, b = src.get(key), dst.get(key)
            if a == b or (key in ("extra", "category") and not a and not b):
                continue
            if a is None:
                continue  # a fill, listed by _apply_defaults
            if key in allow:
                plan.losses.append((path, key, a))
                continue
            plan.refusals.append(Refusal("E_LOSS", path, f"{key!r} would change from {_short(a)} to {_short(b)}", key))
    if expected["index_lines"] != got["index_lines"] and "index_lines" not in allow:
        lost = [t for t in expected["index_lines"] if t not in got["index_lines"]]
        if lost:
            plan.refusals.append(Refusal("E_LOSS", "MEMORY.md", f"{len(lost)} index line(s) that are not note entries would be lost, "
                                         f"first: {_short(lost[0])}", "index_lines"))
    elif expected["index_lines"] != got["index_lines"]:
        plan.losses.append(("MEMORY.md", "index_lines", expected["index_lines"]))
    got_aux = {carriers.unpark(p): d for p, d in got["aux"].items()}
    for path, data in expected["aux"].items():
        if got_aux.get(carriers.unpark(path)) != data:
            plan.refusals.append(Refusal("E_LOSS", path, "auxiliary file would not be copied verbatim", "aux"))


def _short(v: Any) -> str:
    from mmlint.textutil import echo

    return echo(v if isinstance(v, str) else repr(v), 60)


def write_tree(root: str, files: dict[str, bytes], step: Callable[[str, int, int], None] | None = None) -> None:
    """Write ``files`` (POSIX path -> bytes) below the folder ``root``: each
    file created exclusively (an existing file is ``FileExistsError``) and
    synced, then every folder synced. ``step("write", done, total)`` reports
    progress when given."""
    folders = {root}
    for done, (rel, data) in enumerate(files.items(), start=1):
        if step is not None:
            step("write", done, len(files))
        full = os.path.join(root, *rel.split("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        folders.add(os.path.dirname(full))
        with open(full, "xb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    for folder in sorted(folders, key=len, reverse=True):
        _fsync_dir(folder)


def _dest_state(dest: str) -> str:
    if not os.path.lexists(dest):
        return "absent"
    if os.path.isdir(dest) and not os.path.islink(dest):
        return "empty" if not os.listdir(dest) else "full"
    return "file"


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
    left next to ``dest`` (:func:`sweep_leftovers`), then installs the
    verified tree with one rename (:func:`_install`) and re-reads ``dest``.

    Returns the :class:`Plan`; ``plan.written`` tells whether ``dest`` now
    holds the converted store. Never raises for refusals; raises
    ``dialects.UnknownDialect`` for a bad dialect or profile and ``OSError``
    when the file system fails.
    """
    target = dialects.get(dialect)
    profile = dialects.check_profile(dialect, profile) or target.DEFAULT_PROFILE
    dest = os.path.abspath(dest)
    plan = Plan(source.root, source.dialect, source.profile, dest, dialect, profile)
    allow = set(allow_loss or ())
    if not dry_run:
        plan.swept = sweep_leftovers(dest)
    real_dest, real_src = os.path.realpath(dest), os.path.realpath(source.root)
    if inside(real_src, real_dest) or inside(real_dest, real_src):
        # --force replaces DST whole: a DST holding the source would delete it.
        plan.refusals.append(Refusal("E_DEST_NOT_EMPTY", dest, "destination overlaps the source store (is it, lies inside it, or holds it)"))
        return plan
    state = _dest_state(dest)
    if state == "file" or (state == "full" and not force):
        plan.refusals.append(Refusal("E_DEST_NOT_EMPTY", dest, "destination exists and is not an empty folder; pass --force to replace it"))
        return plan
    plan.notes = len(source.notes)
    for p in source.problems:
        if p.code in BLOCKING:
            plan.refusals.append(Refusal("E_UNREADABLE", p.span.path, f"{BLOCKING[p.code]}: {p.message}"))
        elif p.code == "S104":
            plan.not_copied.append((p.span.path, p.message))
    if plan.refusals:
        return plan
    step = progress or (lambda what, done, total: None)
    step("render", 0, 1)
    model = copy.deepcopy(source)
    same = source.dialect == dialect and source.profile == profile
    if not same:
        _apply_defaults(model, target, profile, defaults or {}, plan)
        _native_only(source, allow, plan)
    files = _render_dropping(model, target, profile, allow, plan)
    if files is None:
        return plan
    for rel in files:
        if _unsafe(rel):
            plan.refusals.append(Refusal("E_UNREPRESENTABLE", rel, f"{_short(rel)} would be written outside DST", "slug"))
            return plan
    _describe(plan, model, target, profile, files)
    if not same and hasattr(target, "budget_overflows"):
        for ov in target.budget_overflows(model, files, profile):
            plan.refusals.append(ov)
    plan.refusals.sort(key=lambda r: (PRIORITY.get(r.code, 0), r.path))
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
        tmp = _sibling(dest, "tmp")
    try:
        write_tree(tmp, files, step)
        step("verify", 0, 1)
        back = target.read(tmp, profile)
        _compare(expected, semantic(back), allow, plan, paths)
        if plan.refusals or dry_run:
            return plan
        _install(tmp, dest, state)
        tmp = ""
        _fsync_dir(parent)
        plan.written = True
        again = target.read(dest, profile)
        check = Plan(plan.source, plan.source_dialect, plan.source_profile, dest, dialect, profile)
        _compare(expected, semantic(again), allow, check, paths)
        if check.refusals:
            plan.refusals.extend(Refusal("E_VERIFY", r.path, "after writing: " + r.message, r.field) for r in check.refusals)
        step("verify", 1, 1)
        return plan
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _render_dropping(model: Store, target: Any, profile: str | None, allow: set[str], plan: Plan) -> dict[str, bytes] | None:
    """Render; a value the target cannot hold is dropped (and listed) when
    its field is in ``allow``, else the conversion is refused."""
    for _ in range(len(model.notes) * (len(NOTE_FIELDS) + 4) + 8):
        try:
            return target.render(model, profile)
        except Unrepresentable as exc:
            base = exc.field.split(":", 1)[0]
            note = next((n for n in model.notes if n.path == exc.path), None)
            if note is None or (exc.field not in allow and base not in allow) or exc.field in ("slug", "aux"):
                plan.refusals.append(Refusal("E_UNREPRESENTABLE", exc.path, f"{exc.field}: {exc.reason}", exc.field))
                return None
            if exc.field.startswith("extra:"):
                key = exc.field[len("extra:"):].split(".", 1)[0]
                plan.losses.append((note.path, exc.field, note.extra.pop(key, None)))
            elif exc.field == "category":
                plan.losses.append((note.path, "category", "/".join(note.category)))
                note.category = ()
            else:
                plan.losses.append((note.path, exc.field, getattr(note, exc.field)))
                setattr(note, exc.field, None)
    plan.refusals.append(Refusal("E_UNREPRESENTABLE", "", "could not render the store"))
    return None


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
    for plan in (there, result.back):
        for path, fname, value in plan.fills:
            if slugs.get(path) in want["notes"]:
                want["notes"][slugs[path]].setdefault(fname, value)
    by_slug = {n.slug: n.path for n in source.notes}
    for slug, fields in want["notes"].items():
        other = got["notes"].get(slug, {})
        result.changed += [(by_slug[slug], k) for k in sorted(set(fields) | set(other)) if fields.get(k) != other.get(k)]
    result.changed += [("MEMORY.md", k) for k in ("index_lines", "aux") if want[k] != got[k]]
    result.same_paths = sorted(n.path for n in source.notes) == sorted(n.path for n in again.notes)
    result.same_bytes = {p: r.data for p, r in source.files.items()} == {p: r.data for p, r in again.files.items()}
    return result


#: Hidden siblings of DST that a run creates: ``.<DST name>.mmlint-tmp-<pid>-<random>``
#: (the tree being built, or after an exchange the replaced old DST) and,
#: where no atomic exchange exists, ``.<DST name>.mmlint-old-<pid>-<random>``
#: (the old DST moved aside for a moment).
_LEFTOVER_RE = re.compile(r"^\.(?P<base>.+)\.mmlint-(?P<kind>tmp|old)-(?P<pid>[0-9]+)-[^/]*$")


def _sibling(dest: str, kind: str) -> str:
    """A new, empty hidden folder next to ``dest`` named for this process."""
    path = tempfile.mkdtemp(prefix=f".{os.path.basename(dest)}.mmlint-{kind}-{os.getpid()}-", dir=os.path.dirname(dest))
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(path, 0o777 & ~mask)  # mkdtemp makes 0700; the store gets the mode any new folder would
    return path


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. EPERM: the process exists but belongs to someone else
        return True
    return True


def sweep_leftovers(dest: str) -> list[tuple[str, str]]:
    """Clean up after conversions to ``dest`` that were killed.

    Looks only at hidden siblings named like :data:`_LEFTOVER_RE` for this
    ``dest`` whose process is gone (a running conversion's folders are left
    alone). A ``-old-`` folder while ``dest`` is absent is the old DST of a
    fallback install that died between its two renames: it is renamed back
    to ``dest``. Every other leftover (a partial or finished tree that was
    never installed, or an old DST already replaced) is deleted.

    Returns ``[(folder name, "restored" | "removed")]``.
    """
    parent = os.path.dirname(dest)
    base = os.path.basename(dest)
    done: list[tuple[str, str]] = []
    try:
        names = sorted(os.listdir(parent))
    except OSError:
        return done
    for name in names:
        m = _LEFTOVER_RE.match(name)
        if m is None or m.group("base") != base or _alive(int(m.group("pid"))):
            continue
        full = os.path.join(parent, name)
        if os.path.islink(full) or not os.path.isdir(full):
            continue
        if m.group("kind") == "old" and not os.path.lexists(dest):
            os.rename(full, dest)
            done.append((name, "restored"))
        else:
            shutil.rmtree(full, ignore_errors=True)
            done.append((name, "removed"))
    return done


def _exchange(a: str, b: str) -> None:
    """Swap two existing paths atomically (Linux ``renameat2(RENAME_EXCHANGE)``).

    Raises:
        OSError: the platform or file system cannot (``ENOSYS``, ``EINVAL``...).
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    fn = getattr(libc, "renameat2", None)
    if fn is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available")
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), a)


def _install(tmp: str, dest: str, state: str) -> None:
    """Move the finished tree ``tmp`` into place at ``dest``.

    An absent ``dest`` gets one rename. An existing one (empty, or replaced
    under ``--force``) is swapped with ``tmp`` in one atomic exchange and the
    old tree, now at ``tmp``, is deleted. Where no exchange exists the old
    ``dest`` is renamed aside to a ``-old-`` sibling first; a crash between
    the two renames is repaired by :func:`sweep_leftovers` on the next run.
    """
    if state == "absent":
        os.rename(tmp, dest)
        return
    try:
        _exchange(tmp, dest)
    except OSError:
        old = _sibling(dest, "old")
        os.rmdir(old)
        os.rename(dest, old)
        try:
            os.rename(tmp, dest)
        except OSError:
            os.rename(old, dest)
            raise
        shutil.rmtree(old, ignore_errors=True)
        return
    shutil.rmtree(tmp, ignore_errors=True)


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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


def index_overflow(data: bytes, lines_cap: int, bytes_cap: int, entries: list[tuple[int, int, str]]) -> Refusal | None:
    """An ``E_INDEX_BUDGET_EXCEEDED`` refusal when the serialized index
    ``data`` is over ``lines_cap`` lines or ``bytes_cap`` bytes, else ``None``.

    ``entries`` are ``(first line, last line, source note path)`` of the
    notes' entries in ``data`` (1-based). The refusal's ``usage`` is
    ``{"index": index_usage(...) + {"pastCap": [note paths]}}``: the notes
    whose entry ends past a cap (a loader that stops at the cap never sees
    them), the ones to consolidate, merge or remove first.
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
    return Refusal("E_INDEX_BUDGET_EXCEEDED", "MEMORY.md",
                   "the index would exceed its hard limit: " + " and ".join(parts) + where +
                   "; consolidate or remove notes before converting (never truncate)", usage={"index": usage})


# ``mmlint.convert(src, dst, to=...)`` is the public function (mmlint.public.convert).
from mmlint._callable import make_callable  # noqa: E402

make_callable(__name__, "mmlint.public.convert")
