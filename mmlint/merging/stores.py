"""``mmlint merge SRC... DST``: merge whole stores of one dialect.

The sources are read with their dialect (all must share it; engramory stores
also their profile, unless one is given). When DST is an existing store of
that dialect it is the first input (merging *into* it); an absent or empty
DST receives a new store. Sources are never modified.

* **Notes and auxiliary files** are copied byte for byte. The same path in
  two stores with the same bytes is kept once. Different bytes at one path
  (a slug collision), or two notes with the same ``name:`` at different
  paths (a name collision), are refused, naming both, unless ``resolve``
  says how: ``first`` keeps the earlier store's note and drops the other
  (with its pointer), ``last`` the later one's, ``rename`` keeps both,
  writing the later note as ``<stem>-2.md`` (``-3`` ...) and pointing its
  index line at the new name (name collisions are then kept and listed).
* **The index** is merged entry by entry (:mod:`mmlint.merging.index`, with
  an empty base: every store's entries are additions): the first store's
  order, each later store's new entries after the entry that precedes them
  there, one line per pointer target (mm: per topic). Two different lines
  for one target are a collision like the notes'. A workspace index is a
  generated projection and is generated from the merged notes.
* **Caps**: the merged store must fit the dialect's caps (index lines and
  bytes, note size, note count), else the merge is refused with the
  metrics, as ``convert`` refuses (:class:`mmlint.convert.Refusal`).
* **Writing** is convert's: the tree is written to a hidden sibling of DST,
  read back with the dialect's reader and compared, then moved into place in
  one rename (or an atomic exchange when DST exists), and DST is read again.
"""

from __future__ import annotations

import os
import posixpath
import shutil
from dataclasses import dataclass, field
from typing import Any

from mmlint import dialects
from mmlint.merging.index import Unit, merge_units, units

RESOLVE = ("first", "last", "rename")


@dataclass
class StoreMerge:
    """What :func:`merge_stores` did or would do.

    Attributes:
        sources: store roots in merge order (DST first when it was a store).
        dest: the destination folder.
        dialect, profile: of every input and of the result.
        files: DST path -> ``(source root, source path)`` of every copied
            file (``("", "")`` for the index, which is merged).
        kept_once: ``(path, [roots])`` identical in several stores.
        dropped: ``(root, path, reason)`` left out under ``first``/``last``.
        renamed: ``(root, old path, new path)`` under ``rename``.
        name_collisions: ``(name, [(root, path)])`` kept under ``rename``.
        refusals: :class:`mmlint.convert.Refusal` objects; nothing is
            written when there is one.
        dangling: pointer targets no source store has (carried as they were).
        written: DST now holds the merged store.
    """

    sources: list[str]
    dest: str
    dialect: str
    profile: str | None
    files: dict[str, tuple[str, str]] = field(default_factory=dict)
    kept_once: list[tuple[str, list[str]]] = field(default_factory=list)
    dropped: list[tuple[str, str, str]] = field(default_factory=list)
    renamed: list[tuple[str, str, str]] = field(default_factory=list)
    name_collisions: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    refusals: list[Any] = field(default_factory=list)
    dangling: list[str] = field(default_factory=list)
    written: bool = False

    @property
    def ok(self) -> bool:
        """Nothing refused."""
        return not self.refusals


def _refuse(plan: StoreMerge, code: str, path: str, message: str, usage: dict | None = None) -> None:
    from mmlint.convert import Refusal

    plan.refusals.append(Refusal(code, path, message, None, usage))


def _free_name(path: str, taken: set[str]) -> str:
    stem, ext = posixpath.splitext(path)
    k = 2
    while f"{stem}-{k}{ext}" in taken:
        k += 1
    return f"{stem}-{k}{ext}"


def _retarget(text: str, store: Any, renames: dict[str, str], drops: set[str]) -> str:
    """An index text with pointer destinations renamed and dropped notes'
    pointer lines removed (only lines holding one pointer are touched)."""
    if not renames and not drops or store.index is None:
        return text
    lines = text.splitlines(keepends=True)
    per_line: dict[int, list[Any]] = {}
    for e in store.index.entries:
        per_line.setdefault(e.span.line, []).append(e)
    for line, es in sorted(per_line.items(), reverse=True):
        if len(es) != 1 or es[0].target is None or line > len(lines):
            continue
        e = es[0]
        if e.target in drops:
            del lines[line - 1]
        elif e.target in renames and e.pointer_span is not None and e.kind != "mm":
            raw = lines[line - 1]
            a, b = e.pointer_span.column - 1, (e.pointer_span.end_column or e.pointer_span.column) - 1
            new = renames[e.target]
            dest = ("./" + new) if e.pointer.startswith("./") else new
            if raw[a:b] == e.pointer:
                lines[line - 1] = raw[:a] + dest + raw[b:]
    return "".join(lines)


def _index_text(store: Any) -> str:
    rec = store.files.get("MEMORY.md")
    data = rec.data if rec is not None and rec.data is not None else b""
    return data.decode("utf-8", "surrogateescape")


def merge_stores(stores: list[Any], dest: str, resolve: str | None = None, dry_run: bool = False,
                 caps: dict[str, int] | None = None) -> StoreMerge:
    """Merge read stores (:class:`mmlint.model.Store`, one dialect and
    profile, DST's own store first when merging into it) into ``dest``.

    Returns the :class:`StoreMerge`; ``written`` tells whether ``dest`` holds
    the result. Never raises for collisions or caps (they are refusals);
    raises ``ValueError`` for a bad ``resolve`` or mixed dialects, ``OSError``
    when the file system fails.
    """
    from mmlint.convert.policy import BLOCKING

    if resolve is not None and resolve not in RESOLVE:
        raise ValueError(f"resolve must be one of {', '.join(RESOLVE)}")
    if not stores:
        raise ValueError("nothing to merge")
    dialect, profile = stores[0].dialect, stores[0].profile
    if any(s.dialect != dialect or s.profile != profile for s in stores):
        raise ValueError("stores of different dialects or profiles: " + ", ".join(
            f"{s.root} ({s.dialect}{' ' + s.profile if s.profile else ''})" for s in stores))
    dest = os.path.abspath(dest)
    plan = StoreMerge([s.root for s in stores], dest, dialect, profile)
    for s in stores:
        for p in s.problems:
            if p.code in BLOCKING:
                _refuse(plan, "E_UNREADABLE", p.span.path, f"{s.root}: {BLOCKING[p.code]}: {p.message}")
    mod = dialects.get(dialect)
    files: dict[str, bytes] = {}
    origin: dict[str, tuple[str, str]] = {}
    note_paths: set[str] = set()
    names: dict[str, tuple[str, str]] = {}
    renames_of: dict[str, dict[str, str]] = {s.root: {} for s in stores}
    drops_of: dict[str, set[str]] = {s.root: set() for s in stores}
    for s in stores:
        renames, drops = renames_of[s.root], drops_of[s.root]
        notes = {n.path: n for n in s.notes}
        for path, rec in sorted(s.files.items()):
            if rec.kind not in ("note", "aux") or rec.data is None or path == "MEMORY.md":
                continue
            if path in files and files[path] == rec.data:
                plan.kept_once.append((path, [origin[path][0], s.root]))
                continue
            out = path
            if path in files:
                if resolve == "first":
                    plan.dropped.append((s.root, path, f"same path as in {origin[path][0]}"))
                    drops.add(path)
                    continue
                if resolve == "last":
                    plan.dropped.append(origin[path] + (f"same path as in {s.root}",))
                    files.pop(path)
                    note_paths.discard(path)  # the later note takes the path: the earlier pointer stays valid
                elif resolve == "rename":
                    out = _free_name(path, set(files))
                    renames[path] = out
                    plan.renamed.append((s.root, path, out))
                else:
                    _refuse(plan, "E_SLUG_COLLISION", path, f"{path} differs between {origin[path][0]} and {s.root}; "
                            "pass --resolve first|last|rename")
                    continue
            note = notes.get(path)
            name = note.name if note is not None and isinstance(note.name, str) else None
            if name is not None and name in names and names[name][1] != out:
                other = names[name]
                if resolve == "first":
                    plan.dropped.append((s.root, path, f"name {name!r} as {other[1]} in {other[0]}"))
                    drops.add(path)
                    continue
                if resolve == "last":
                    plan.dropped.append(other + (f"name {name!r} as {path} in {s.root}",))
                    files.pop(other[1], None)
                    origin.pop(other[1], None)
                    note_paths.discard(other[1])
                    drops_of[other[0]].add(other[1])
                elif resolve == "rename":
                    plan.name_collisions.append((name, [other, (s.root, out)]))  # out: where it is written
                else:
                    _refuse(plan, "E_NAME_COLLISION", path, f"name {name!r} is {other[1]} in {other[0]} and {path} in {s.root}; "
                            "pass --resolve first|last|rename")
                    continue
            files[out] = rec.data
            origin[out] = (s.root, path)
            if rec.kind == "note":
                note_paths.add(out)
            if name is not None:
                names[name] = (s.root, out)
    if plan.refusals:
        return plan
    index_parts = [(s, _retarget(_index_text(s), s, renames_of[s.root], drops_of[s.root])) for s in stores]
    plan.dangling = sorted({e.target for s in stores if s.index is not None for e in s.index.entries
                            if e.target and e.target not in s.files})
    index = _merge_indexes(index_parts, dialect, resolve, plan)
    if plan.refusals:
        return plan
    if dialect != "workspace" and index is not None:
        files["MEMORY.md"] = index
        origin["MEMORY.md"] = ("", "")
    plan.files = dict(sorted(origin.items()))
    return _write(plan, files, note_paths, stores, mod, dry_run, caps or {})


def _merge_indexes(parts: list[tuple[Any, str]], dialect: str, resolve: str | None, plan: StoreMerge) -> bytes | None:
    """The merged index of every store's (retargeted) index text."""
    texts = [t for _, t in parts if t]
    if not texts:
        return None
    current: list[Unit] = units(texts[0], dialect)
    for (s, text) in parts[1:]:
        if not text:
            continue
        merged, _ = merge_units([], current, units(text, dialect))
        out: list[Unit] = []
        for key, a_text, b_text, conflict in merged:
            if not conflict:
                out.append(Unit(key, b_text))
                continue
            if key[0] in ("blank", "line"):
                out.append(Unit(key, a_text))
                continue
            if resolve in ("first", "rename"):
                out.append(Unit(key, a_text))
            elif resolve == "last":
                out.append(Unit(key, b_text))
            else:
                what = f"topic {key[1]!r}" if key[0] == "topic" else f"the pointer to {key[1]}"
                _refuse(plan, "E_SLUG_COLLISION", "MEMORY.md", f"{what} is written differently in {s.root}; "
                        "pass --resolve first|last|rename")
                return None
        current = out
    nl = "\r\n" if "\r\n" in texts[0] else "\n"
    pieces = [u.text for u in current]
    for k in range(len(pieces) - 1):
        if not pieces[k].endswith("\n"):
            pieces[k] += nl
    return "".join(pieces).encode("utf-8", "surrogateescape")


def _write(plan: StoreMerge, files: dict[str, bytes], note_paths: set[str], stores: list[Any], mod: Any, dry_run: bool,
           caps: dict[str, int]) -> StoreMerge:
    """Read the planned files in memory and check caps and content; then
    (not ``dry_run``, nothing refused) write them into a sibling, read that
    back, install it, and read DST back."""
    import tempfile

    from mmlint.convert import transaction
    from mmlint.walk import inside

    dest = plan.dest
    into = stores[0].root == dest
    state = transaction.dest_state(dest)
    if state == "file" or (state == "full" and not into):
        _refuse(plan, "E_DEST_NOT_EMPTY", dest, "destination exists and is not an empty folder nor the first store to merge into")
        return plan
    for s in stores[int(into):]:
        if inside(os.path.realpath(s.root), os.path.realpath(dest)) or inside(os.path.realpath(dest), os.path.realpath(s.root)):
            _refuse(plan, "E_DEST_NOT_EMPTY", dest, f"destination overlaps the source store {s.root}")
            return plan
    if into and state == "full":
        lost = unkept(dest, stores[0])
        if lost:
            shown = ", ".join(lost[:6]) + (f" and {len(lost) - 6} more" if len(lost) > 6 else "")
            _refuse(plan, "E_DEST_NOT_EMPTY", dest,
                    f"the destination holds what the merged store would not keep: {shown}; the merge replaces the "
                    "folder with the merged store, so merge into a new folder (name this one among the sources) "
                    "or move these aside", {"unkept": lost})
            return plan
    parent = os.path.dirname(dest) or "."
    if not dry_run:
        transaction.sweep_leftovers(dest)
        os.makedirs(parent, exist_ok=True)
    # the merged store as its reader reads it, in memory: a refused or dry-run merge writes nothing
    # (it wrote the whole tree beside DST and deleted it: 1.3 s of 2.9 for 2,000 notes)
    if plan.dialect == "workspace":
        from mmlint.dialects.workspace import project_index

        model = mod.read(dest, plan.profile, tree=files)
        model.index = stores[0].index
        files["MEMORY.md"] = project_index(model, files)
        plan.files["MEMORY.md"] = ("", "")
    _check(plan, mod.read(dest, plan.profile, tree=files), files, note_paths, mod, caps)
    if plan.refusals or dry_run:
        return plan
    tmp = transaction.sibling(dest, "tmp") if os.path.isdir(parent) else tempfile.mkdtemp(prefix=".mmlint-merge-")
    try:
        transaction.write_tree(tmp, files)
        before = len(plan.refusals)
        _check(plan, mod.read(tmp, plan.profile), files, note_paths, mod, caps, budget=False)  # the bytes on disk
        if plan.refusals:
            for r in plan.refusals[before:]:
                r.message = "as written beside DST: " + r.message
            return plan
        if state != "absent":  # the merged store takes the place, and the mode, of the folder it replaces
            os.chmod(tmp, os.stat(dest).st_mode & 0o7777)
        old, _ = transaction.install(tmp, dest, "absent" if state == "absent" else "full")
        tmp = ""
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)  # the replaced store, moved aside by the exchange
        plan.written = True
        again = mod.read(dest, plan.profile)
        before = len(plan.refusals)
        _check(plan, again, files, note_paths, mod, caps, budget=False)
        for r in plan.refusals[before:]:
            r.code, r.message = "E_VERIFY", "after writing: " + r.message
        return plan
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def unkept(dest: str, store: Any) -> list[str]:
    """What in the folder ``dest`` a merge into it would not write back,
    ``store`` being ``dest`` as its reader read it: a file the reader did not
    read (in a folder the walk skips, such as ``.git/`` or ``.obsidian/``,
    or unreadable), a symlink (the merge writes what it points at as a
    file), anything that is not a file or a folder, an empty folder.
    Store-relative POSIX paths, one per top-level entry holding any (a
    folder with a ``/``: ``.git/``), sorted; symlinks are not followed."""
    import stat

    lost: set[str] = set()

    def top(rel: str, folder: bool) -> str:
        head, sep, _ = rel.partition("/")
        return head + "/" if sep or folder else head

    def walk(path: str, rel: str) -> None:
        try:
            entries = list(os.scandir(path))
        except OSError:
            lost.add(top(rel, True))
            return
        if not entries and rel:
            lost.add(top(rel, True))
        for e in entries:
            sub = f"{rel}/{e.name}" if rel else e.name
            try:
                mode = e.stat(follow_symlinks=False).st_mode
            except OSError:
                lost.add(top(sub, False))
                continue
            if stat.S_ISDIR(mode):
                walk(e.path, sub)
            elif not stat.S_ISREG(mode) or sub not in store.files or store.files[sub].data is None:
                lost.add(top(sub, False))

    walk(dest, "")
    return sorted(lost)


def _check(plan: StoreMerge, back: Any, files: dict[str, bytes], note_paths: set[str], mod: Any, caps: dict[str, int],
           budget: bool = True) -> None:
    """Compare a read-back store with the planned files; refuse what differs
    and (``budget``) what passes the dialect's caps."""
    got = {p: r.data for p, r in back.files.items() if r.data is not None}
    for path, data in files.items():
        if got.get(path) != data:
            _refuse(plan, "E_VERIFY", path, "file is not as planned after writing")
    if {n.path for n in back.notes} != note_paths:
        _refuse(plan, "E_VERIFY", "", "the merged store does not hold exactly the planned notes")
    if back.index is not None:
        dangling = sorted({e.target for e in back.index.entries if e.target and e.target not in back.files} - set(plan.dangling))
        if dangling:
            _refuse(plan, "E_VERIFY", "MEMORY.md", f"pointers to notes that were not written: {', '.join(dangling[:5])}")
    if budget and hasattr(mod, "budget_overflows"):
        try:
            plan.refusals.extend(mod.budget_overflows(back, files, plan.profile))
        except dialects.Unrepresentable as exc:  # e.g. a.md and A.md: paths that differ only in case
            _refuse(plan, "E_UNREPRESENTABLE", exc.path, f"{exc.field}: {exc.reason}")
            return
        _load_window(plan, back, caps)


def _load_window(plan: StoreMerge, back: Any, caps: dict[str, int]) -> None:
    """claude-code: refuse an index whose pointers would fall past the load window."""
    if back.dialect != "engramory" or back.profile != "claude-code" or back.index is None:
        return
    if any(r.code == "E_INDEX_BUDGET_EXCEEDED" for r in plan.refusals):
        return  # the index cap refusal already names the notes past it
    from mmlint.rules.interop import load_window

    lines, size = int(caps.get("load_lines", 200)), int(caps.get("load_bytes", 25000))
    last = load_window(back.index.text, lines, size)
    past = [e.target for e in back.index.entries if e.span.line > last and e.target]
    if past:
        _refuse(plan, "E_INDEX_BUDGET_EXCEEDED", "MEMORY.md",
                f"{len(past)} pointer(s) would fall past Claude Code's load window (lines 1-{last}), first: {past[0]}; "
                "consolidate the stores' notes before merging",
                {"index": {"lines": back.index.line_count, "lineCap": lines, "bytes": back.index.size_bytes, "byteCap": size,
                           "overflowLines": max(0, back.index.line_count - lines), "overflowBytes": max(0, back.index.size_bytes - size),
                           "pastCap": past}})

