"""Applying the fixes rules offer: safe ones by default, unsafe ones on
request, written atomically or shown as a unified diff.

A rule attaches a :class:`mmlint.rules.Fix` to a finding: the complete new
content of one or more store files. :func:`fix_store` works in memory, round
by round: a round takes every applicable fix that agrees
with the fixes already taken about each file's new content, and reads and
checks the store again with those contents (:func:`mmlint.walk.overlay`; no
copy is written anywhere), until a round changes nothing (at most
:data:`MAX_ROUNDS`). Nothing in the real store is touched until
:func:`write_changes` installs each changed file by compare-and-swap
(:func:`replace_if_unchanged`): a temporary file and a rename, only while the
file still holds the bytes that were read. :func:`sweep` removes the
temporary files of a killed run.

Fixes never delete a file and never drop a line of content (each fixing
rule's tests check it); a second run after a fix finds nothing left to fix.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import Any

from mmlint.atomic import TEMP_RE, discard, write_temp

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


def _key(d: Any) -> tuple:
    """What identifies a finding across fix rounds: rule, file, and its
    anchor (else its message)."""
    return (d.code, d.span.path, d.anchor if d.anchor is not None else d.message)


def fix_store(res: Any, unsafe: bool = False) -> Outcome:
    """Fix the store of ``res`` (an :class:`mmlint.api.StoreResult` with its
    diagnostics and options) in memory; the real store is not written.

    Each round re-reads the store through :func:`mmlint.walk.overlay` (the
    files as fixed so far, nothing copied to disk) and checks it again. A
    finding whose fix was applied and that is still there afterwards is not
    fixed again (its fix does not work on this input): so every run
    converges, and one finding whose fix fails never blocks the others.
    Returns the :class:`Outcome`; ``converged`` is False only when fixes
    kept changing files for :data:`MAX_ROUNDS` rounds."""
    from mmlint import api, dialects
    from mmlint.walk import overlay

    store = res.store
    out = Outcome(store.root)
    diagnostics = res.diagnostics
    if not any(applicable(d, unsafe) for d in diagnostics):
        return out
    original = {p: r.data for p, r in store.files.items() if r.data is not None and r.kind not in ("unreadable", "symlink-escape")}
    current = dict(original)
    mod = dialects.get(res.dialect)
    applied: set[tuple] = set()
    for _ in range(MAX_ROUNDS):
        taken: dict[str, bytes] = {}
        inserts: dict[str, tuple[str, list[tuple[int, bytes]]]] = {}  # path -> (rule, what it inserts this round)
        keys = []
        for d in diagnostics:
            if not applicable(d, unsafe) or not all(_safe_rel(p) for p in d.edits) or _key(d) in applied:
                continue
            if any(taken.get(p, new) != new for p, new in d.edits.items()):
                if _compose(d, current, inserts):
                    keys.append(_key(d))
                continue  # else it disagrees with a fix taken this round: next round
            if all(current.get(p) == new for p, new in d.edits.items()):
                continue  # already so
            taken.update(d.edits)
            keys.append(_key(d))
            if len(d.edits) == 1:
                (p, new), = d.edits.items()
                one = _insertion(current.get(p), new)
                if one is not None and p not in inserts:
                    inserts[p] = (d.code, [one])
        for p, (_, ins) in inserts.items():
            if len(ins) > 1:  # the insertions of one rule into one file, made once a round
                taken[p] = _inserted(current[p], ins)
        if not taken:
            break
        current.update(taken)
        applied.update(keys)
        out.fixed += len(keys)
        with overlay(store.root, current):
            again = mod.read(store.root, res.profile)
        diagnostics = api.lint(again, res.options)
    else:
        out.converged = False
    out.changes = {p: (original.get(p), new) for p, new in sorted(current.items()) if original.get(p) != new}
    return out


def _insertion(base: bytes | None, new: bytes) -> tuple[int, bytes] | None:
    """``(at, inserted)`` when ``new`` is ``base`` with one run of bytes
    inserted (``base[:at] + inserted + base[at:]``, ``at`` as far right as
    it goes), else ``None``. Linear: the common prefix and suffix are found
    by halving, comparing slices."""
    if base is None or len(new) <= len(base):
        return None
    lo, hi = 0, len(base)
    while lo < hi:  # the longest common prefix
        mid = (lo + hi + 1) // 2
        if new[:mid] == base[:mid]:
            lo = mid
        else:
            hi = mid - 1
    at, rest = lo, len(base) - lo
    if rest and new[len(new) - rest:] != base[at:]:
        return None
    return at, new[at:len(new) - rest]


def _compose(d: Any, current: dict[str, bytes], inserts: dict[str, tuple[str, list[tuple[int, bytes]]]]) -> bool:
    """Take the fix of ``d`` into this round beside the others when it
    edits one file that this round's fixes of the same rule only insert
    into, and it too only inserts (P106 adds a pointer line to the index
    for each orphan: one round for all of them, not one a round, where more
    than :data:`MAX_ROUNDS` orphans wrote nothing). The insertions go in at
    their places in the file as it was, in the order of the findings; the
    rule sees to it that they fit together (P106 offers as many as fit
    under the index's caps)."""
    if len(d.edits) != 1:
        return False
    (p, new), = d.edits.items()
    got = inserts.get(p)
    one = _insertion(current.get(p), new) if got is not None and got[0] == d.code else None
    if one is None:
        return False
    got[1].append(one)  # the file is made once the round's fixes are all taken (fix_store)
    return True


def _inserted(base: bytes, inserts: list[tuple[int, bytes]]) -> bytes:
    """``base`` with every ``(at, data)`` of ``inserts`` inserted at its
    place in ``base``; at one place, in list order."""
    pieces, last = [], 0
    for at, data in sorted(inserts, key=lambda x: x[0]):  # stable: same place, finding order
        pieces += [base[last:at], data]
        last = at
    pieces.append(base[last:])
    return b"".join(pieces)


#: Age (seconds) after which a temporary file without a live owner's pid is swept.
STALE_SECONDS = 600


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def sweep(root: str, now: float | None = None) -> list[str]:
    """Remove the temporary files a killed ``--fix`` left in the store at
    ``root``: regular files named by :data:`mmlint.atomic.TEMP_RE` whose writer's pid is
    no longer running (or, without a pid, older than :data:`STALE_SECONDS`).
    Returns their store-relative POSIX paths. Nothing else is touched;
    symlinks and other tools' folders are not followed."""
    import time

    from mmlint.walk import FOREIGN_DIRS, rel_posix

    real = os.path.realpath(root)
    now = time.time() if now is None else now
    removed = []
    for dirpath, dirnames, filenames in os.walk(real, followlinks=False):
        dirnames[:] = [d for d in dirnames if d not in FOREIGN_DIRS and not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames:
            m = TEMP_RE.match(name)
            if m is None:
                continue
            full = os.path.join(dirpath, name)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            pid = m.group("pid")
            stale = not _alive(int(pid)) if pid and int(pid) != os.getpid() else (pid is None and now - st.st_mtime > STALE_SECONDS)
            if stale:
                try:
                    os.unlink(full)
                except OSError:
                    continue
                removed.append(rel_posix(real, full))
    return sorted(removed)


def write_changes(out: Outcome) -> int:
    """Install ``out.changes`` in the real store; returns how many files
    were written. A file that is a symlink, lies outside the root, or no
    longer holds the bytes that were read is left alone and listed in
    ``out.skipped``; so is one that another program changed while it was
    being replaced (:func:`replace_if_unchanged`)."""
    from mmlint.walk import inside

    root = os.path.realpath(out.root)
    written = 0
    pending: list[tuple[str, str | _Swapped]] = []
    for rel, (old, new) in out.changes.items():
        full = os.path.join(out.root, *rel.split("/"))
        if not inside(root, os.path.realpath(os.path.dirname(full))):
            out.skipped.append((rel, "outside the store root"))
            continue
        if os.path.islink(full):
            out.skipped.append((rel, "a symlink; fix its target instead"))
            continue
        try:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            done = _swap(full, old, new)
        except OSError as exc:
            out.skipped.append((rel, f"cannot write: {exc.strerror or exc}"))
            continue
        pending.append((rel, done))
    if any(not isinstance(done, str) for _, done in pending):
        import time

        time.sleep(SETTLE_SECONDS)  # once for the whole run (see replace_if_unchanged)
    for rel, done in pending:
        why = _settle(done)
        if why:
            out.skipped.append((rel, why))
        else:
            written += 1
    return written


class _Changed(Exception):
    """The file changed under :func:`replace_if_unchanged`."""


#: Seconds to wait after the renames of a ``--fix`` run before the old files
#: are checked for late writes (once per run): a program that opened a file
#: just before the rename writes within this time or it is caught later.
SETTLE_SECONDS = 0.05


@dataclass
class _Swapped:
    """A rename done by :func:`_swap`, with the old file still open."""

    path: str
    fd: int
    st: os.stat_result


def replace_if_unchanged(path: str, old: bytes | None, new: bytes, settle: float = SETTLE_SECONDS) -> str:
    """Compare-and-swap: replace ``path`` by ``new`` only while it holds
    ``old`` (``None``: only while it does not exist). Returns ``""`` when
    written, else why not (nothing of the other writer's is lost).

    The old file stays open throughout. Its content is compared with
    ``old``; the new content goes to a temporary file beside it; right
    before the rename the path must still name the same file (inode) with
    the same size and modification time (:func:`_swap`). ``settle`` seconds
    after the rename the old file is checked once more: if a write reached
    it meanwhile (an append by a program that had it open), the old file's
    bytes, that write included, are put back the same way and the change is
    reported as skipped (:func:`_settle`). A new file is created with a hard
    link, which fails if the path appeared meanwhile.

    Raises:
        OSError: the folder cannot be written.
    """
    done = _swap(path, old, new)
    if isinstance(done, str):
        return done
    if settle:
        import time

        time.sleep(settle)
    return _settle(done)


def _swap(path: str, old: bytes | None, new: bytes) -> str | _Swapped:
    """The compare and the rename of :func:`replace_if_unchanged`: why not
    (text), ``""`` for a new file created, or the :class:`_Swapped` rename
    that :func:`_settle` must check."""
    from mmlint.walk import _open_regular

    if old is None:
        if os.path.lexists(path):
            return "created by someone else meanwhile"
        tmp = write_temp(path, new, None)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return "created by someone else meanwhile"
        finally:
            discard(tmp)
        return ""
    fd, st, err = _open_regular(path)
    if fd is None or st is None:
        return f"changed on disk since it was read ({err})"
    try:
        if _read_all(fd) != old:
            os.close(fd)
            return "changed on disk since it was read"
        tmp = write_temp(path, new, stat.S_IMODE(st.st_mode))
        try:
            now = os.stat(path)
            held = os.fstat(fd)
            if (now.st_ino, now.st_dev) != (st.st_ino, st.st_dev) or _sig(held) != _sig(st):
                os.close(fd)
                return "changed on disk while being fixed; run --fix again"
            os.replace(tmp, path)
        finally:
            discard(tmp)
    except BaseException:
        try:
            os.close(fd)
        except OSError:
            pass
        raise
    return _Swapped(path, fd, st)


def _settle(done: str | _Swapped) -> str:
    """The check after a rename (see :func:`replace_if_unchanged`); closes
    the old file. ``""`` when the rename stands."""
    if isinstance(done, str):
        return done
    try:
        if _sig(os.fstat(done.fd)) == _sig(done.st):
            return ""
        # A write reached the old file after the check: give the path back
        # the old file's bytes, that write included.
        mine = os.stat(done.path)
        theirs = _read_all(done.fd)
        back = write_temp(done.path, theirs, stat.S_IMODE(done.st.st_mode))
        try:
            if _sig(os.stat(done.path)) == _sig(mine):
                os.replace(back, done.path)
        finally:
            discard(back)
        return "changed on disk while being fixed; left as the other program wrote it"
    finally:
        os.close(done.fd)


def _sig(st: os.stat_result) -> tuple:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _read_all(fd: int) -> bytes:
    chunks = []
    pos = 0
    while True:
        chunk = os.pread(fd, 1 << 20, pos)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        pos += len(chunk)


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
