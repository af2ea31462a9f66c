"""Walking a store safely: bounded reads, no path out of the root.

Every file below the root is listed once, in sorted order. Symlinks are
resolved before anything is read: a link whose target lies outside the root is
recorded as ``"symlink-escape"`` and never opened. Folders of other tools
(:data:`FOREIGN_DIRS`) are recorded but not walked; a result cache folder of
mmlint (:func:`mmlint.cache.is_own_cache`) is left out altogether. Nothing here raises on a
bad file: unreadable entries become records with ``kind="unreadable"``.
"""

from __future__ import annotations

import os
import stat

from mmlint._record import Record
from mmlint.model import FileRecord

#: Folders that belong to other tools; their files are never notes.
#: ``.git`` and ``.obsidian`` are tool state, ``.trash`` holds deleted notes,
#: ``.claude`` holds Claude Code settings, ``node_modules`` is a package tree.
FOREIGN_DIRS = frozenset({".git", ".hg", ".svn", ".obsidian", ".trash", ".Trash", ".claude", "node_modules", "__pycache__"})

#: Largest file read, in bytes. Larger files are listed but not read.
MAX_FILE_BYTES = 16 * 1024 * 1024


class Walk(Record):
    """The result of :func:`walk_store`.

    Attributes:
        root: the real (symlink-resolved) absolute root.
        files: POSIX relative path -> :class:`FileRecord`, sorted by path.
        skipped_dirs: ``(relative path, reason)`` for folders not walked.
        errors: ``(relative path, message)`` for folders that could not be listed.
    """

    _fields = ("root", "files", "skipped_dirs", "errors")

    def __init__(self, root: str, files: dict[str, FileRecord] | None = None,
                 skipped_dirs: list[tuple[str, str]] | None = None, errors: list[tuple[str, str]] | None = None) -> None:
        self.root = root
        self.files = {} if files is None else files
        self.skipped_dirs = [] if skipped_dirs is None else skipped_dirs
        self.errors = [] if errors is None else errors


def inside(root: str, path: str) -> bool:
    """True when real path ``path`` is ``root`` or below it (component-wise)."""
    if path == root:
        return True
    prefix = root if root.endswith(os.sep) else root + os.sep
    return path.startswith(prefix)


def rel_posix(root: str, path: str) -> str:
    """``path`` relative to ``root`` with ``/`` separators."""
    return os.path.relpath(path, root).replace(os.sep, "/")


def _open_regular(path: str) -> tuple[int | None, os.stat_result | None, str]:
    """Open ``path`` for reading only if it is a regular file:
    ``(fd, fstat, "")`` or ``(None, None, why not)``.

    ``stat`` decides first, so a FIFO, socket or device (or a symlink to one)
    is never opened; ``O_NONBLOCK`` makes the open return at once if the file
    was swapped for a FIFO since, and ``fstat`` checks the opened file again.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        return None, None, exc.strerror or str(exc)
    if stat.S_ISDIR(st.st_mode):
        return None, None, "is a folder, not a file"
    if not stat.S_ISREG(st.st_mode):
        return None, None, "not a regular file (a FIFO, socket or device is never opened)"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return None, None, exc.strerror or str(exc)
    return _checked_regular(fd)


def _checked_regular(fd: int) -> tuple[int | None, os.stat_result | None, str]:
    """``(fd, stat, "")`` when the opened ``fd`` is a regular file; else the
    descriptor is closed and ``(None, None, why)`` returned."""
    try:
        st = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        return None, None, exc.strerror or str(exc)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        return None, None, "not a regular file"
    return fd, st, ""


#: How a file a listing showed to be regular is opened: read only, no
#: blocking, no controlling terminal, no symlink followed.
_LISTED_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NOFOLLOW", 0)


def _open_listed_regular(path: str) -> tuple[int | None, os.stat_result | None, str]:
    """:func:`_open_regular` for a path a directory listing just showed to be
    a regular file and no symlink: no ``stat`` before the open; the open
    does not follow a link (``O_NOFOLLOW``) nor block (``O_NONBLOCK``), and
    ``fstat`` checks the opened file, so a file swapped since for a link, a
    FIFO or a device is still refused."""
    try:
        fd = os.open(path, _LISTED_FLAGS)
    except OSError as exc:
        return None, None, exc.strerror or str(exc)
    return _checked_regular(fd)


def read_bounded(path: str, limit: int = MAX_FILE_BYTES, regular: bool = False) -> tuple[bytes | None, int, str]:
    """Read at most ``limit`` bytes: ``(data or None, size in bytes, error)``.

    Only a regular file is opened (:func:`_open_regular`; with ``regular``,
    the caller's directory listing already said so: :func:`_open_listed_regular`);
    a file over the limit (by ``fstat``) is not read.
    """
    fd, st, err = _open_listed_regular(path) if regular else _open_regular(path)
    if fd is None or st is None:
        return None, 0, err
    try:
        if st.st_size > limit:
            return None, st.st_size, f"file is {st.st_size} bytes, over the {limit}-byte read limit"
        # A regular file's read returns less than asked only at its end, so
        # a file no larger than fstat said is read in one call.
        want = min(limit + 1, st.st_size + 1, 1 << 20)
        data = os.read(fd, want)
        if len(data) == want:  # more may follow: a file over 1 MiB, or one that grew since fstat
            chunks = [data]
            remaining = limit + 1 - len(data)
            while remaining > 0:
                want = min(remaining, 1 << 20)
                chunk = os.read(fd, want)
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
                if len(chunk) < want:
                    break
            data = b"".join(chunks)
        if len(data) > limit:
            return None, len(data), f"file grew past the {limit}-byte read limit while being read"
        return data, len(data), ""
    except OSError as exc:
        return None, 0, exc.strerror or str(exc)
    finally:
        os.close(fd)


def contained(root: str, path: str) -> str | None:
    """The real path of ``path`` when it resolves (symlinks followed) to
    ``root``'s real path or below it, else ``None``. Nothing is opened."""
    real = os.path.realpath(path)
    return real if inside(os.path.realpath(root), real) else None


def regular_inside(root: str, path: str) -> bool:
    """True when ``path`` resolves inside ``root`` to a regular file
    (``stat`` only; nothing is opened)."""
    if os.path.dirname(path) == root.rstrip(os.sep):
        # Directly in ``root`` and not a link: its real path is root's real
        # path plus its name, so one lstat decides (no realpath per file).
        try:
            st = os.lstat(path)
        except OSError:
            return False
        if not stat.S_ISLNK(st.st_mode):
            return stat.S_ISREG(st.st_mode)
    real = contained(root, path)
    if real is None:
        return False
    try:
        return stat.S_ISREG(os.stat(real).st_mode)
    except OSError:
        return False


def _open_in_root(root: str, path: str) -> int | None:
    """An open descriptor of ``path`` when it lies directly in ``root`` and
    is a regular file that is not a symlink (one ``lstat``: its real path is
    then root's real path plus its name, so no ``realpath`` is needed), else
    ``None`` (the caller takes the general way, which also says no)."""
    if os.path.dirname(path) != root.rstrip(os.sep):
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def read_head(root: str, path: str, limit: int) -> bytes:
    """The first ``limit`` bytes of ``path``, or ``b""`` when it does not
    resolve inside ``root`` to a regular file or cannot be read. For cheap
    sniffing (dialect detection): never opens anything outside the root or
    anything that is not a regular file, never blocks."""
    fd = _open_in_root(root, path)
    if fd is None:
        real = contained(root, path)
        if real is None:
            return b""
        fd, _, _ = _open_regular(real)
    if fd is None:
        return b""
    try:
        return os.read(fd, limit)
    except OSError:
        return b""
    finally:
        os.close(fd)


def list_inside(root: str, folder: str) -> list[str]:
    """Sorted names in ``folder`` when it resolves inside ``root`` to a
    folder (``[]`` otherwise, or when it cannot be listed)."""
    real = contained(root, folder)
    if real is None or not os.path.isdir(real):
        return []
    try:
        return sorted(os.listdir(real))
    except OSError:
        return []


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


#: Real store root -> (store-relative POSIX path -> bytes) that
#: :func:`walk_store` uses instead of the files on disk (see :func:`overlay`).
_OVERLAYS: dict[str, dict[str, bytes]] = {}


class overlay:  # noqa: N801 - used as a function: ``with overlay(root, files):``
    """While active, :func:`walk_store` of ``root`` lists the store's folders
    as on disk but takes each file's bytes from ``files`` (store-relative
    POSIX path -> bytes) when it holds the path, and adds the paths of
    ``files`` that are not on disk. ``--fix`` re-reads the store it is fixing
    this way, in memory: no copy of the store is ever written (so a killed
    run leaves none behind). A class rather than a
    :func:`contextlib.contextmanager`: a check imports no :mod:`contextlib`."""

    __slots__ = ("_root", "_files", "_real", "_before")

    def __init__(self, root: str, files: dict[str, bytes]) -> None:
        self._root = root
        self._files = files

    def __enter__(self) -> None:
        self._real = real = os.path.realpath(self._root)
        self._before = _OVERLAYS.get(real)
        _OVERLAYS[real] = self._files

    def __exit__(self, *exc: object) -> None:
        if self._before is None:
            _OVERLAYS.pop(self._real, None)
        else:
            _OVERLAYS[self._real] = self._before


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
    ov = _OVERLAYS.get(real_root)

    def onerror(exc: OSError) -> None:
        w.errors.append((rel_posix(real_root, exc.filename or real_root), exc.strerror or str(exc)))

    for dirpath, dirnames, filenames in os.walk(real_root, onerror=onerror, followlinks=False):
        rel_dir = rel_posix(real_root, dirpath)
        # The folder's entries say what is a link or a regular file without
        # a stat per name (a name missing here, if the folder changed since
        # os.walk listed it, is looked at the slow way).
        try:
            with os.scandir(dirpath) as it:
                entries = {e.name: e for e in it}
        except OSError:
            entries = {}
        keep = []
        for d in sorted(dirnames):
            full = os.path.join(dirpath, d)
            rel = d if rel_dir == "." else f"{rel_dir}/{d}"
            e = entries.get(d)
            if e.is_symlink() if e is not None else os.path.islink(full):
                target = os.path.realpath(full)
                reason = "symlinked folder outside the store root" if not inside(real_root, target) else "symlinked folder (not followed)"
                w.skipped_dirs.append((rel, reason))
                continue
            if d in FOREIGN_DIRS:
                w.skipped_dirs.append((rel, "another tool's folder"))
                continue
            from mmlint.cache import is_own_cache  # here: a store without folders needs no cache module

            if is_own_cache(full):
                continue  # mmlint's result cache put inside the store: not store content
            keep.append(d)
        dirnames[:] = keep
        top = rel_dir.split("/", 1)[0].lower() if rel_dir != "." else ""
        sep = "" if dirpath.endswith(os.sep) else os.sep
        for name in sorted(filenames):
            full = dirpath + sep + name  # os.path.join, for a name with no separator
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            kind = "file"
            if top and top in skip_top:
                kind = "skipped"
            e = entries.get(name)
            link = e.is_symlink() if e is not None else os.path.islink(full)
            if link:
                target = os.path.realpath(full)
                if not inside(real_root, target):
                    w.files[rel] = FileRecord(rel, "symlink-escape", reason="symlink resolves outside the store root")
                    continue
                if not os.path.exists(target):
                    w.files[rel] = FileRecord(rel, "unreadable", reason=_broken_link(full))
                    continue
            if ov is not None and rel in ov:
                w.files[rel] = FileRecord(rel, kind, size=len(ov[rel]), data=ov[rel])
                continue
            if not read:
                try:
                    size = os.stat(full).st_size
                except OSError as exc:
                    w.files[rel] = FileRecord(rel, "unreadable", reason=exc.strerror or str(exc))
                    continue
                w.files[rel] = FileRecord(rel, kind, size=size)
                continue
            regular = not link and e is not None and e.is_file(follow_symlinks=False)
            data, size, err = read_bounded(full, regular=regular)
            if data is None:
                w.files[rel] = FileRecord(rel, "unreadable", size=size, reason=err)
            else:
                w.files[rel] = FileRecord(rel, kind, size=size, data=data)
    for rel, data in (ov or {}).items():
        if rel not in w.files:
            top = rel.split("/", 1)[0].lower() if "/" in rel else ""
            w.files[rel] = FileRecord(rel, "skipped" if top in skip_top else "file", size=len(data), data=data)
    w.files = dict(sorted(w.files.items()))
    return w


def walk_files(root: str, files: dict[str, bytes], skip_top: frozenset[str] = frozenset()) -> Walk:
    """A :class:`Walk` of an in-memory tree, as :func:`walk_store` would
    list it once written: ``files`` (POSIX relative path -> bytes, the
    output of a writer) seen below ``root``, which is only a name (nothing
    on disk is read). Files under a :data:`FOREIGN_DIRS` folder are left
    out (the folder is listed in ``skipped_dirs``); files under a top-level
    folder in ``skip_top`` get kind ``"skipped"``, as on disk.

    Used to verify a rendered store before anything is written (a dry run
    writes nothing). Paths must be safe (no ``..``, no absolute path): the
    caller checks them first.
    """
    w = Walk(root)
    skipped: set[str] = set()
    for rel in sorted(files):
        parts = rel.split("/")
        foreign = next((i for i, d in enumerate(parts[:-1]) if d in FOREIGN_DIRS), None)
        if foreign is not None:
            folder = "/".join(parts[: foreign + 1])
            if folder not in skipped:
                skipped.add(folder)
                w.skipped_dirs.append((folder, "another tool's folder"))
            continue
        kind = "skipped" if len(parts) > 1 and parts[0].lower() in skip_top else "file"
        data = files[rel]
        w.files[rel] = FileRecord(rel, kind, size=len(data), data=data)
    return w
