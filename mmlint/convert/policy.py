"""The conversion policy: what may be written, filled, dropped or refused.

No file-system access here: every function works on the model, the target
dialect module and the rendered files (POSIX path -> bytes). The steps, in
the order :func:`mmlint.convert.plan_conversion` runs them (DESIGN "The
loss policy", docs/convert.md):

* :func:`blocking_problems` — data the reader could not read makes the store
  unconvertible (``E_UNREADABLE``);
* :func:`apply_defaults` — ``--default`` values and the target's own fills,
  then ``E_REQUIRED`` for what is still missing;
* :func:`native_only` — values only the source dialect holds;
* :func:`render_dropping` — render, dropping (and listing) values the user
  allowed to lose, refusing the others (``E_UNREPRESENTABLE``);
* :func:`unsafe_path` — a rendered path that would leave DST;
* :func:`describe` — the plan's file list and carriers;
* :func:`verify` — **the value comparison**: the rendered files, read as
  the target reads them (in memory, nothing written), against the source.
  It is the one function a verification by the owning tools replaces
  (issue 8 items 1-2); its contract is its docstring. Today it reads with
  the target's mmlint reader and :func:`compare` s the models.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from mmlint import carriers, dialects, tool_verify
from mmlint.convert.plan import Plan, PlannedFile
from mmlint.dialects import Unrepresentable
from mmlint.model import NOTE_FIELDS, Store, semantic
from mmlint.usage import Refusal

#: Reader problems that make a store unconvertible: data that was not read.
BLOCKING = {"S101": "a symlink out of the root was not read", "S102": "a file could not be read",
            "S105": "a folder could not be listed", "S117": "the index was too large to read"}

#: Failure priority (mm spec §6): write budget, detail file cap, index caps.
PRIORITY = {"E_WRITE_BUDGET_EXCEEDED": 1, "E_FILE_BUDGET_EXCEEDED": 2, "E_INDEX_BUDGET_EXCEEDED": 3,
            "E_NOTE_TOO_LARGE": 2, "E_TOO_MANY_NOTES": 3}


def short(v: Any) -> str:
    """``v`` (a string, or any value by its ``repr``) escaped and cut to 60
    code points for a message (:func:`mmlint.textutil.echo`)."""
    from mmlint.textutil import echo

    return echo(v if isinstance(v, str) else repr(v), 60)


def working_copy(store: Store) -> Store:
    """A copy of ``store`` the policy may change (fills, dropped values):
    new :class:`~mmlint.model.Store` and :class:`~mmlint.model.Note`
    objects, each note's ``extra`` copied; values, spans, layouts and file
    records are shared, since no step changes them. O(notes), where a
    ``copy.deepcopy`` copied every value, span and layout."""
    notes = []
    for n in store.notes:
        c = copy.copy(n)
        c.extra = dict(n.extra)
        notes.append(c)
    return store.replace(notes=notes)


def blocking_problems(source: Store, plan: Plan) -> None:
    """Refuse (``E_UNREADABLE``) for each reader problem in :data:`BLOCKING`;
    list other tools' folders that are not walked (S104) in ``plan.not_copied``."""
    for p in source.problems:
        if p.code in BLOCKING:
            plan.refusals.append(Refusal("E_UNREADABLE", p.span.path, f"{BLOCKING[p.code]}: {p.message}"))
        elif p.code == "S104":
            plan.not_copied.append((p.span.path, p.message))


def apply_defaults(store: Store, target: Any, profile: str | None, defaults: dict[str, str], plan: Plan) -> None:
    """Fill fields the notes lack: the user's ``--default`` values first, then
    the target's own fills (``target.fills(note, profile)``); then refuse each
    field ``target.required(profile)`` names that is still missing.

    ``store`` is changed in place; every fill is listed in ``plan.fills``."""
    required = target.required(profile) if hasattr(target, "required") else {}
    origin = carriers.origin_for(store, target.NAME, profile)
    for note in store.notes:
        if carriers.origin_note(origin, note) is not None:
            continue  # going back to its own bytes, which had none of these
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


def unsafe_path(rel: str) -> bool:
    """True when a writer's output path could leave DST: empty, absolute,
    a backslash or drive letter, or an empty, ``.`` or ``..`` segment."""
    return (not rel or rel.startswith("/") or "\\" in rel or re.match(r"^[A-Za-z]:", rel) is not None
            or any(seg in ("", ".", "..") for seg in rel.split("/")))


def native_only(source: Store, allow: set[str], plan: Plan) -> None:
    """Refuse what only the source's dialect holds (its ``native_only``),
    or list it as a loss when its field is in ``allow``."""
    module = dialects.get(source.dialect)
    for path, fname, value in (module.native_only(source) if hasattr(module, "native_only") else []):
        if fname in allow:
            plan.losses.append((path, fname, value))
        else:
            plan.refusals.append(Refusal("E_UNREPRESENTABLE", path, f"{fname}: {short(value)} has no place outside "
                                         f"{source.dialect}; pass --allow-loss {fname} to drop it", fname))


def describe(plan: Plan, model: Store, target: Any, profile: str | None, files: dict[str, bytes]) -> None:
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


def compare(expected: dict[str, Any], got: dict[str, Any], allow: set[str], plan: Plan, paths: dict[str, str],
            skip: tuple[str, ...] = ()) -> None:
    """Compare what a conversion must keep with what the target reads back
    (mmlint's own reading; the fields in ``skip`` are the ones the owning
    tools verify, :func:`tool_check`: their values are the tools', which
    mmlint's lenient reader may read otherwise).

    Args:
        expected: :func:`mmlint.model.semantic` of the source with fills
            applied and allowed losses dropped.
        got: :func:`mmlint.model.semantic` of the written store as the
            target reads it.
        allow: fields the user allowed to lose (``--allow-loss``).
        plan: receives an ``E_LOSS`` refusal per changed value (note, field,
            both values) and, for an allowed field, a loss instead.
        paths: slug -> source note path, to name notes by their source path.
    """
    for slug, src in expected["notes"].items():
        path = paths.get(slug, slug)
        dst = got["notes"].get(slug)
        if dst is None:
            plan.refusals.append(Refusal("E_LOSS", path, f"note {slug!r} is missing after conversion", "slug"))
            continue
        for key in list(NOTE_FIELDS) + ["extra", "body", "category"]:
            if key in skip:
                continue
            a, b = src.get(key), dst.get(key)
            if key == "index_hook" and a is not None and b is None:
                b = dst.get("summary")  # no hook of its own: the index shows the summary (the engramory reader's None)
            if a == b or (key in ("extra", "category") and not a and not b):
                continue
            if a is None:
                continue  # a fill, listed by apply_defaults
            if key in allow:
                plan.losses.append((path, key, a))
                continue
            plan.refusals.append(Refusal("E_LOSS", path, f"{key!r} would change from {short(a)} to {short(b)}", key))
    if expected["index_lines"] != got["index_lines"] and "index_lines" not in allow:
        lost = [t for t in expected["index_lines"] if t not in got["index_lines"]]
        if lost:
            plan.refusals.append(Refusal("E_LOSS", "MEMORY.md", f"{len(lost)} index line(s) that are not note entries would be lost, "
                                         f"first: {short(lost[0])}", "index_lines"))
    elif expected["index_lines"] != got["index_lines"]:
        plan.losses.append(("MEMORY.md", "index_lines", expected["index_lines"]))
    got_aux = {carriers.unpark(p): d for p, d in got["aux"].items()}
    for path, data in expected["aux"].items():
        if got_aux.get(carriers.unpark(path)) != data:
            plan.refusals.append(Refusal("E_LOSS", path, "auxiliary file would not be copied verbatim", "aux"))


def read_rendered(target: Any, dest: str, profile: str | None, files: dict[str, bytes]) -> Store:
    """The store the target's reader makes of ``files`` (POSIX path ->
    bytes) as if written at ``dest``, read in memory (the reader's ``tree``
    argument, :func:`mmlint.dialects.open_store`): nothing is written. A
    dialect plug-in whose ``read`` takes no ``tree`` reads a copy written to
    the system temp folder instead.

    Raises:
        OSError: only for such a plug-in, when the temp folder fails.
    """
    import inspect

    if "tree" in inspect.signature(target.read).parameters:
        return target.read(dest, profile, tree=files)
    import shutil
    import tempfile

    from mmlint.convert.transaction import write_tree

    tmp = tempfile.mkdtemp(prefix=".mmlint-verify-")
    try:
        write_tree(tmp, files, sync=False)
        return target.read(tmp, profile)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def verify(source: Store, model: Store, target: Any, profile: str | None, files: dict[str, bytes],
           allow: set[str], plan: Plan) -> None:
    """Check that the rendered ``files`` keep every value, before anything
    is written; add an ``E_LOSS`` refusal (or an allowed loss) to ``plan``
    for each value that does not come back.

    Args:
        source: the store as read from SRC (its notes' ``path`` name them).
        model: the source after fills and allowed drops: what DST must hold.
        target: the target dialect module; ``profile`` its profile.
        files: the rendered DST, POSIX path -> bytes (not written yet).
        allow: fields the user allowed to lose (``--allow-loss``).
        plan: receives refusals and losses; ``plan.dest`` is DST's path.

    This is the seam for a verification by the owning tools' readings: any
    replacement keeps the signature and reports through ``plan`` only.
    """
    got = semantic(read_rendered(target, plan.dest, profile, files))  # the store read back is not kept
    tools = source.dialect != target.NAME or source.profile != profile
    skip = tool_verify.COMPARED + ("extra", "body") if tools and hasattr(target, "reading") else ()
    compare(semantic(model), got, allow, plan, {n.slug: n.path for n in source.notes}, skip)
    del got
    if tools:
        tool_check(model, target, profile, files, allow, plan)


def tool_check(model: Store, target: Any, profile: str | None, files: dict[str, bytes], allow: set[str], plan: Plan) -> None:
    """Verify the rendered ``files`` by the owning tools
    (:func:`mmlint.tool_verify.differences`): each value the target tool
    would see differently from the source tool is an ``E_LOSS`` refusal
    naming note, field, both values and the tool, or a listed loss when the
    field (or ``extra``) is in ``allow``."""
    for d in tool_verify.differences(model, target, profile, files):
        base = d.field.split(":", 1)[0]
        if d.field in allow or base in allow:
            plan.losses.append((d.path, d.field, d.want))
        elif d.field == "note":
            plan.refusals.append(Refusal("E_LOSS", d.path, f"{d.tool} would not list this note (written at {short(d.want)})", "slug"))
        elif d.field in ("fields", "store"):
            plan.refusals.append(Refusal("E_LOSS", d.path, f"{d.tool} would read no fields: {short(d.got)}", d.field))
        else:
            plan.refusals.append(Refusal("E_LOSS", d.path, f"{d.tool} would see {d.field!r} as {short(d.got)}, "
                                                           f"not {short(d.want)}", d.field))


def make_origin(source: Store, model: Store) -> bool:
    """Give ``model`` the origin record its writer carries
    (:data:`mmlint.carriers.ORIGIN_FILE`): the source's own layout. A store
    that already holds one (converted from somewhere else) keeps it: passed
    on, or, when the target is where it came from, used there. Returns True
    when a record was made for this source."""
    if source.origin is not None:
        return False
    module = dialects.get(source.dialect)
    if not hasattr(module, "origin_layouts"):
        return False
    model.origin = carriers.make_origin(source, model, *module.origin_layouts(source))
    return True


def one_way(source: Store, plan: Plan) -> None:
    """Warn (``plan.warnings``) when the source index is over its own
    dialect's hard caps: the conversion goes ahead, but the way back gives
    that index again and is refused (``E_INDEX_BUDGET_EXCEEDED``) until it
    is brought within them (1000ssam-claude-config: 249 lines in a
    200-line index)."""
    idx = source.index
    caps = getattr(dialects.get(source.dialect), "INDEX_CAPS", None) or {}
    caps = caps.get(source.profile, caps) if source.profile else caps
    lines, size = caps.get("lines"), caps.get("bytes")
    if idx is None or not isinstance(lines, int) or not isinstance(size, int):
        return
    over = [f"{idx.line_count} lines > {lines}"] if idx.line_count > lines else []
    over += [f"{idx.size_bytes} bytes > {size}"] if idx.size_bytes > size else []
    if over:
        plan.warnings.append(f"the source index is over its own caps ({' and '.join(over)}): converting back will be "
                             "refused (E_INDEX_BUDGET_EXCEEDED) until it is brought within them")


def record_fills(model: Store, plan: Plan) -> None:
    """Note in ``model.origin`` the fields the plan filled in, so the way
    back takes them back (:func:`mmlint.carriers.unfill`)."""
    slugs = {n.path: n.slug for n in model.notes}
    for path, fname, _ in plan.fills:
        rec = model.origin["notes"].get(slugs.get(path, "")) if model.origin else None
        if rec is not None and fname not in rec["filled"]:
            rec["filled"].append(fname)


def render_dropping(model: Store, target: Any, profile: str | None, allow: set[str], plan: Plan) -> dict[str, bytes] | None:
    """Render ``model`` with ``target.render(model, profile)``; a value the
    target cannot hold is dropped from ``model`` (and listed in
    ``plan.losses``) when its field is in ``allow``, else the conversion is
    refused (``E_UNREPRESENTABLE``) and ``None`` returned."""
    for _ in range(len(model.notes) * (len(NOTE_FIELDS) + 4) + 8):
        try:
            return target.render(model, profile)
        except Unrepresentable as exc:
            base = exc.field.split(":", 1)[0]
            note = next((n for n in model.notes if n.path == exc.path), None)
            if note is None or (exc.field not in allow and base not in allow) or exc.field in ("slug", "aux"):
                plan.refusals.append(Refusal("E_UNREPRESENTABLE", exc.path, exc.reason, exc.field))  # the field is shown beside it
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
