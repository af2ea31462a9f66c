"""Walking a store safely: bounded reads, no path out of the root.

Every file below the root is listed once, in sorted order. Symlinks are
resolved before anything is read: a link whose target lies outside the root is
recorded as ``"symlink-escape"`` and never opened. Folders of other tools
(:data:`FOREIGN_DIRS`) are recorded but not walked. Nothing here raises on a
bad file: unreadable entries become records with ``kind="unreadable"``.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

from mmlint.model import FileRecord

#: Folders that belong to other tools; their files are never notes.
#: ``.git`` and ``.obsidian`` are tool state, ``.trash`` holds deleted notes,
#: ``.claude`` holds Claude Code settings, ``node_modules`` is a package tree.
FOREIGN_DIRS = frozenset({".git", ".hg", ".svn", ".obsidian", ".trash", ".Trash", ".claude", "node_modules", "__pycache__"})

#: Largest file read, in bytes. Larger files are listed but not read.
MAX_FILE_BYTES = 16 * 1024 * 1024


@dataclass
class Walk:
    """The result of :func:`walk_store`.

    Attributes:
        root: the real (symlink-resolved) absolute root.
        files: POSIX relative path -> :class:`FileRecord`, sorted by path.
        skipped_dirs: ``(relative path, reason)`` for folders not walked.
        errors: ``(relative path, message)`` for folders that could not be listed.
    """

    root: str
    files: dict[str, FileRecord] = field(default_factory=dict)
    skipped_dirs: list[tuple[str, str]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)


def inside(root: str, path: str) -> bool:
    """True when real path ``path`` is ``root`` or below it (component-wise)."""
    if path == root:
        return True
    prefix = root if root.endswith(os.sep) else root + os.sep
    return path.startswith(prefix)


def rel_posix(root: str, path: str) -> str:
    """``path`` relative to ``root`` with ``/`` separators."""
    return os.path.relpath(path, root).replace(os.sep, "/")


def read_bounded(path: str, limit: int = MAX_FILE_BYTES) -> tuple[bytes | None, int, str]:
    """Read at most ``limit`` bytes: ``(data or None, size in bytes, error)``.

    Decides from ``fstat`` first; a file over the limit is not read.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        return None, 0, exc.strerror or str(exc)
    if not stat.S_ISREG(st.st_mode):
        return None, 0, "not a regular file (a FIFO, socket or device is never opened)"
    try:
        # O_NONBLOCK: if the file was swapped for a FIFO since the stat, the
        # open returns at once instead of waiting for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return None, 0, exc.strerror or str(exc)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, 0, "not a regular file"
        if st.st_size > limit:
            return None, st.st_size, f"file is {st.st_size} bytes, over the {limit}-byte read limit"
        chunks = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            return None, len(data), f"file grew past the {limit}-byte read limit while being read"
        return data, len(data), ""
    except OSError as exc:
        return None, 0, exc.strerror or str(exc)
    finally:
        os.close(fd)


def _broken_link(path: str) -> str:
    """Why the symlink ``path`` cannot be followed: its target is missing
    (``dangling symlink``), or the error met on the way (a loop)."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return "dangling symlink"
    except OSError as exc:
        return f"symlink cannot be followed: {exc.strerror or exc}"
    return "symlink cannot be followed"


def walk_store(root: str, skip_top: frozenset[str] = frozenset(), read: bool = True) -> Walk:
    """List and read every file of the store at ``root``.

    Args:
        root: the store folder (a symlinked root is resolved first).
        skip_top: lower-cased top-level folder names whose files are kept as
            ``"aux"`` (for example engramory's ``archive`` and ``templates``).
        read: read file contents (``False``: sizes only).

    Returns:
        A :class:`Walk`. Never raises for problems inside the store.
    """
    real_root = os.path.realpath(root)
    w = Walk(real_root)

    def onerror(exc: OSError) -> None:
        w.errors.append((rel_posix(real_root, exc.filename or real_root), exc.strerror or str(exc)))

    for dirpath, dirnames, filenames in os.walk(real_root, onerror=onerror, followlinks=False):
        rel_dir = rel_posix(real_root, dirpath)
        keep = []
        for d in sorted(dirnames):
            full = os.path.join(dirpath, d)
            rel = d if rel_dir == "." else f"{rel_dir}/{d}"
            if os.path.islink(full):
                target = os.path.realpath(full)
                reason = "symlinked folder outside the store root" if not inside(real_root, target) else "symlinked folder (not followed)"
                w.skipped_dirs.append((rel, reason))
                continue
            if d in FOREIGN_DIRS:
                w.skipped_dirs.append((rel, "another tool's folder"))
                continue
            keep.append(d)
        dirnames[:] = keep
        top = rel_dir.split("/", 1)[0].lower() if rel_dir != "." else ""
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            kind = "file"
            if top and top in skip_top:
                kind = "skipped"
            if os.path.islink(full):
                target = os.path.realpath(full)
                if not inside(real_root, target):
                    w.files[rel] = FileRecord(rel, "symlink-escape", reason="symlink resolves outside the store root")
                    continue
                if not os.path.exists(target):
                    w.files[rel] = FileRecord(rel, "unreadable", reason=_broken_link(full))
                    continue
            if not read:
                try:
                    size = os.stat(full).st_size
                except OSError as exc:
                    w.files[rel] = FileRecord(rel, "unreadable", reason=exc.strerror or str(exc))
                    continue
                w.files[rel] = FileRecord(rel, kind, size=size)
                continue
            data, size, err = read_bounded(full)
            if data is None:
                w.files[rel] = FileRecord(rel, "unreadable", size=size, reason=err)
            else:
                w.files[rel] = FileRecord(rel, kind, size=size, data=data)
    w.files = dict(sorted(w.files.items()))
    return w
