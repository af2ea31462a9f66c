"""What DST may be, checked before anything is rendered or written.

Never delete what is not ours (DESIGN "The loss policy", issue 8 item 5):

* without ``--force`` DST must be absent or an empty folder;
* with ``--force`` a non-empty DST is replaced only when it is a memory
  store: a ``MEMORY.md`` at its top and nothing but store files
  (:func:`is_store_file`) below it, no symlink, no other tool's folder
  (``.git``, ``.obsidian``... :data:`mmlint.walk.FOREIGN_DIRS`);
* a DST that is, or holds, the source, the user's home folder, the current
  folder or the file-system root is refused even with ``--force``.

The checks only look (``lstat``, ``scandir``, ``access``): a dry run runs
them all and writes nothing. What the file system will not allow (a DST
below a file, a folder that cannot be written) raises
:class:`~mmlint.convert.transaction.CannotConvert` (exit 2); what mmlint
will not do is a :class:`~mmlint.usage.Refusal` (exit 1).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

from mmlint import carriers
from mmlint.convert.transaction import CannotConvert
from mmlint.textutil import safe_path_text as esc
from mmlint.usage import Refusal
from mmlint.walk import FOREIGN_DIRS, inside

#: Files other than ``*.md`` that a memory store holds: the recall-v1
#: ledgers (spec "文件布局"), mmlint's carriers and configuration.
STORE_FILE_NAMES = frozenset({".engramory-recall.jsonl", ".engramory-audit.jsonl", carriers.INDEX_LINES_FILE, carriers.ORIGIN_FILE,
                              ".mmlint.toml", "mmlint.toml"})

#: How many offending files a refusal names.
_NAMED = 3


@dataclass
class DestState:
    """DST as the plan found it.

    Attributes:
        kind: ``"absent"``, ``"empty"`` (an empty folder) or ``"store"`` (a
            memory store ``--force`` may replace).
        ident: ``(st_dev, st_ino, st_mtime_ns)`` of the existing folder, so the
            install can tell whether something else changed DST meanwhile;
            ``None`` when absent.
        removes: POSIX paths (relative to DST) of every file the replacement
            removes, sorted.
    """

    kind: str
    ident: tuple[int, int, int] | None = None
    removes: list[str] = field(default_factory=list)


def is_store_file(rel: str) -> bool:
    """True for a path (POSIX, relative to a store) a memory store holds: a
    markdown file (notes, index, archives, READMEs), a recall-v1 ledger,
    an mmlint carrier (anything under :data:`mmlint.carriers.AUX_DIR`) or
    configuration (:data:`STORE_FILE_NAMES`)."""
    name = rel.rsplit("/", 1)[-1]
    return (name.lower().endswith(".md") or name in STORE_FILE_NAMES
            or rel.startswith(carriers.AUX_DIR + "/"))


def _protected() -> list[tuple[str, str]]:
    """``(real path, what it is)`` of the folders DST may never hold."""
    out = [(os.path.realpath(os.sep), "the file-system root")]
    try:
        out.append((os.path.realpath(os.getcwd()), "the current folder"))
    except OSError:
        pass
    for home in {os.path.expanduser("~"), os.environ.get("HOME") or ""}:
        if home and home != "~":
            out.append((os.path.realpath(home), "the home folder"))
    return out


def _scan(dest: str) -> tuple[list[str], str | None]:
    """Every file below ``dest`` (sorted POSIX paths) and the first reason
    it is not a memory store, or ``None``. Stops at the first offence;
    never follows a symlink."""
    files: list[str] = []
    todo = [""]
    while todo:
        rel_dir = todo.pop()
        try:
            with os.scandir(os.path.join(dest, rel_dir) if rel_dir else dest) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            return files, f"{esc(rel_dir or '.')}/ cannot be listed ({exc.strerror or exc})"
        for e in entries:
            rel = f"{rel_dir}/{e.name}" if rel_dir else e.name
            if e.is_symlink():
                return files, f"it holds a symlink, {esc(rel)}"
            if e.is_dir():
                if e.name in FOREIGN_DIRS:
                    return files, f"it holds another tool's folder, {esc(rel)}/"
                todo.append(rel)
                continue
            if not e.is_file():
                return files, f"it holds {esc(rel)}, which is not a regular file"
            if not is_store_file(rel):
                files.append(rel)
                return files, f"it holds {esc(rel)}, which is not a store file"
            files.append(rel)
    return sorted(files), None


def check(dest: str, source_root: str, force: bool) -> tuple[DestState | None, Refusal | None]:
    """Decide what may happen to ``dest`` (an absolute path).

    Returns ``(state, None)`` when the conversion may go ahead, or
    ``(None, refusal)``: ``E_DEST_NOT_EMPTY`` (DST overlaps the source, is a
    file or a symlink, or is a non-empty folder without ``force``) or
    ``E_DEST_NOT_STORE`` (``force`` given, but DST is not a memory store, or
    holds the home folder, the current folder or the root).

    Raises:
        CannotConvert: DST lies below a file, or the folder that would get
            DST (or DST itself, to be replaced) cannot be written.
    """
    real_dest, real_src = os.path.realpath(dest), os.path.realpath(source_root)
    if inside(real_src, real_dest) or inside(real_dest, real_src):
        # --force replaces DST whole: a DST holding the source would delete it.
        return None, Refusal("E_DEST_NOT_EMPTY", dest, "destination overlaps the source store (is it, lies inside it, or holds it)")
    _check_writable(dest)
    try:
        st = os.lstat(dest)
    except FileNotFoundError:
        return DestState("absent"), None
    except OSError as exc:
        raise CannotConvert(f"cannot convert into {esc(dest)}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(st.st_mode):
        return None, Refusal("E_DEST_NOT_EMPTY", dest, "destination exists and is not a folder (a file or a symlink); choose another DST")
    try:
        empty = not os.listdir(dest)
    except OSError as exc:
        raise CannotConvert(f"cannot list {esc(dest)}: {exc.strerror or exc}") from None
    ident = (st.st_dev, st.st_ino, st.st_mtime_ns)
    if empty:
        return DestState("empty", ident), None
    if not force:
        return None, Refusal("E_DEST_NOT_EMPTY", dest, "destination exists and is not an empty folder; pass --force to replace it")
    for path, what in _protected():
        if inside(real_dest, path):
            where = "is" if path == real_dest else "holds"
            return None, Refusal("E_DEST_NOT_STORE", dest, f"--force will not replace this folder: it {where} {what}")
    if not os.path.isfile(os.path.join(dest, "MEMORY.md")) or os.path.islink(os.path.join(dest, "MEMORY.md")):
        return None, Refusal("E_DEST_NOT_STORE", dest, "--force replaces only a memory store, and this folder has no MEMORY.md")
    files, why = _scan(dest)
    if why is not None:
        return None, Refusal("E_DEST_NOT_STORE", dest, f"--force replaces only a memory store, and this folder is not one: {why}; "
                                                       "move it away or choose another DST")
    if not os.access(dest, os.W_OK | os.X_OK):
        raise CannotConvert(f"cannot replace {esc(dest)}: the folder is not writable")
    return DestState("store", ident, files), None


def _check_writable(dest: str) -> None:
    """Raise :class:`CannotConvert` unless the folder that gets ``dest``
    (its parent, or the nearest existing ancestor from which the missing
    folders would be made) is a writable folder."""
    parent = os.path.dirname(dest)
    probe = parent
    while not os.path.lexists(probe):
        up = os.path.dirname(probe)
        if up == probe:
            break
        probe = up
    if not os.path.isdir(probe):
        raise CannotConvert(f"cannot convert into {esc(dest)}: {esc(probe)} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        why = "the file system is read-only" if _read_only(probe) else "permission denied"
        raise CannotConvert(f"cannot convert into {esc(dest)}: {esc(probe)} is not writable ({why})")


def _read_only(path: str) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & getattr(os, "ST_RDONLY", 1))
    except (OSError, AttributeError):
        return False
