"""Applying the fixes rules offer: safe ones by default, unsafe ones on
request, written atomically or shown as a unified diff.

A rule attaches a :class:`mmlint.rules.Fix` to a finding: the complete new
content of one or more store files. :func:`fix_store` works in a private copy
of the store, round by round: a round takes every applicable fix that agrees
with the fixes already taken about each file's new content, writes them into
the copy, and reads and checks the copy again, until a round changes nothing
(at most :data:`MAX_ROUNDS`). Nothing in the real store is touched until
:func:`write_changes` installs each changed file with a temporary file and a
rename, after making sure the file still holds the bytes that were read.

Fixes never delete a file and never drop a line of content (each fixing
rule's tests check it); a second run after a fix finds nothing left to fix.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from typing import Any

#: Rounds of fix, re-read and re-check before giving up (ruff uses 100).
MAX_ROUNDS = 100


@dataclass
class Outcome:
    """What fixing one store did (or would do).

    Attributes:
        root: the real store root.
        changes: store-relative path -> ``(old bytes or None for a new file,
            new bytes)`` for every file whose content changes.
        fixed: findings whose fix was applied.
        converged: False when fixes kept changing files for
            :data:`MAX_ROUNDS` rounds (a bug in a rule; nothing is written).
        skipped: ``(path, reason)`` for files :func:`write_changes` left alone.
    """

    root: str
    changes: dict[str, tuple[bytes | None, bytes]] = field(default_factory=dict)
    fixed: int = 0
    converged: bool = True
    skipped: list[tuple[str, str]] = field(default_factory=list)


def applicable(d: Any, unsafe: bool) -> bool:
    """Whether diagnostic ``d`` has a fix that runs (unsafe ones only with ``unsafe``)."""
    return bool(d.edits) and d.fix is not None and (d.fix["applicability"] == "safe" or unsafe)


def _safe_rel(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and "\\" not in path and ".." not in parts and "" not in parts


def fix_store(res: Any, unsafe: bool = False) -> Outcome:
    """Fix the store of ``res`` (an :class:`mmlint.api.StoreResult` with its
    diagnostics and options) in a temporary copy; the real store is not
    written. Returns the :class:`Outcome`."""
    from mmlint import api, dialects
    from mmlint.convert import write_tree

    store = res.store
    out = Outcome(store.root)
    diagnostics = res.diagnostics
    if not any(applicable(d, unsafe) for d in diagnostics):
        return out
    original = {p: r.data for p, r in store.files.items() if r.data is not None and r.kind not in ("unreadable", "symlink-escape")}
    current = dict(original)
    mod = dialects.get(res.dialect)
    tmp = tempfile.mkdtemp(prefix=".mmlint-fix-")
    try:
        write_tree(tmp, original)
        for _ in range(MAX_ROUNDS):
            taken: dict[str, bytes] = {}
            count = 0
            for d in diagnostics:
                if not applicable(d, unsafe) or not all(_safe_rel(p) for p in d.edits):
                    continue
                if any(taken.get(p, new) != new for p, new in d.edits.items()):
                    continue  # disagrees with a fix taken this round: next round
                if all(current.get(p) == new for p, new in d.edits.items()):
                    continue  # already so
                taken.update(d.edits)
                count += 1
            if not taken:
                break
            for p, new in taken.items():
                full = os.path.join(tmp, *p.split("/"))
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "wb") as fh:
                    fh.write(new)
                current[p] = new
            out.fixed += count
            again = mod.read(tmp, res.profile)
            again.root = store.root  # settings and folder checks see the real store
            diagnostics = api.lint(again, res.options)
        else:
            out.converged = False
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    out.changes = {p: (original.get(p), new) for p, new in sorted(current.items()) if original.get(p) != new}
    return out


def write_changes(out: Outcome) -> int:
    """Install ``out.changes`` in the real store; returns how many files
    were written. A file that is a symlink, lies outside the root, or no
    longer holds the bytes that were read is left alone and listed in
    ``out.skipped``. Each file is written atomically (:func:`atomic_write`)."""
    from mmlint.walk import inside, read_bounded

    root = os.path.realpath(out.root)
    written = 0
    for rel, (old, new) in out.changes.items():
        full = os.path.join(out.root, *rel.split("/"))
        if not inside(root, os.path.realpath(os.path.dirname(full))):
            out.skipped.append((rel, "outside the store root"))
            continue
        if os.path.islink(full):
            out.skipped.append((rel, "a symlink; fix its target instead"))
            continue
        if old is None:
            if os.path.lexists(full):
                out.skipped.append((rel, "created by someone else meanwhile"))
                continue
        elif read_bounded(full)[0] != old:
            out.skipped.append((rel, "changed on disk since it was read"))
            continue
        try:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            atomic_write(full, new)
        except OSError as exc:
            out.skipped.append((rel, f"cannot write: {exc.strerror or exc}"))
            continue
        written += 1
    return written


def atomic_write(path: str, data: bytes) -> None:
    """Replace (or create) ``path`` with ``data``: a unique temporary file in
    the same folder, flushed to disk, then renamed over ``path``. The old
    file's permission bits are kept (a new file gets the umask's). Raises ``OSError``; on failure ``path``
    is untouched and the temporary file removed."""
    folder = os.path.dirname(path) or "."
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask  # a new file gets the mode open() would give it, not mkstemp's 0600
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".mmlint.tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def unified_diff(path: str, old: bytes | None, new: bytes) -> str:
    """A unified diff of one file (``a/PATH`` -> ``b/PATH``; ``/dev/null``
    for a new file), with git's marker for a missing final newline.
    ``path`` is shown as given: escape it before calling."""
    import difflib

    def lines(data: bytes | None) -> list[str]:
        if data is None:
            return []
        parts = data.decode("utf-8", "replace").split("\n")
        return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])

    out = []
    for line in difflib.unified_diff(lines(old), lines(new), "/dev/null" if old is None else f"a/{path}", f"b/{path}"):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
