"""The file-system transaction of a conversion: temp tree, exchange, sweep.

DST is built complete in a hidden sibling ``.<DST name>.mmlint-tmp-<pid>-<random>/``,
synced, and then moved into place in one step (a rename when DST is absent,
an atomic exchange when it exists), so a run killed at any moment leaves DST
as it was or complete (docs/convert.md "Crash safety"). The leftovers of
killed runs are swept by the next run (:func:`sweep_leftovers`).

Nothing here knows about dialects or the loss policy.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from typing import Callable, Iterator

from mmlint.errors import CheckError
from mmlint.textutil import safe_path_text as esc


class CannotConvert(CheckError):
    """The file system did not let the conversion happen (exit 2: could not
    convert, never 1, which means refused): DST below a file, a folder that
    cannot be written, a full disk, an interruption, another conversion
    that wrote DST first. The message is one line for the user and says
    what became of DST."""


def write_tree(root: str, files: dict[str, bytes], step: Callable[[str, int, int], None] | None = None,
               sync: bool = True) -> None:
    """Write ``files`` (POSIX path -> bytes) below the folder ``root``, each
    file created exclusively (an existing file is ``FileExistsError``).
    With ``sync``, the whole tree is then made durable in one pass
    (:func:`sync_tree`). ``step("write", done, total)`` reports progress
    when given.

    Raises:
        OSError: the file system refused a write (``ENOSPC``, ``EACCES``...).
    """
    made = {root}
    every = max(1, len(files) // 100)
    for done, (rel, data) in enumerate(files.items(), start=1):
        if step is not None and (done % every == 0 or done == len(files)):
            step("write", done, len(files))
        full = os.path.join(root, *rel.split("/"))
        folder = os.path.dirname(full)
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        _write_file(full, data)
    if sync:
        sync_tree(root, files, made)


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _write_file(path: str, data: bytes) -> None:
    """Create ``path`` (it must not exist) holding ``data``; not synced.

    Raises:
        OSError: ``FileExistsError``, ``ENOSPC``, ``EACCES``...
    """
    fd = os.open(path, _CREATE, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def sync_tree(root: str, files: dict[str, bytes], folders: set[str]) -> None:
    """Make the tree just written below ``root`` durable: one ``syncfs`` of
    its file system where Linux has it, else an ``fsync`` of every file;
    then every folder in ``folders`` is synced, deepest first.

    Raises:
        OSError: a sync failed (an I/O error, a full disk found late).
    """
    if not _syncfs(root):
        for rel in files:
            fd = os.open(os.path.join(root, *rel.split("/")), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    for folder in sorted(folders, key=len, reverse=True):
        fsync_dir(folder)


def _syncfs(path: str) -> bool:
    """``syncfs(2)`` on the file system holding ``path``; ``False`` where it
    does not exist (not Linux)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.syncfs
    except (OSError, AttributeError):
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        if fn(fd) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), path)
    finally:
        os.close(fd)
    return True


def dest_state(dest: str) -> str:
    """``"absent"``, ``"empty"`` (an empty folder), ``"full"`` (a folder
    with entries) or ``"file"`` (anything else, a symlink included). Only
    looks. (``convert`` itself decides with :func:`mmlint.convert.dest.check`.)"""
    if not os.path.lexists(dest):
        return "absent"
    if os.path.isdir(dest) and not os.path.islink(dest):
        return "empty" if not os.listdir(dest) else "full"
    return "file"


#: Hidden siblings of DST that a run creates: ``.<DST name>.mmlint-tmp-<pid>-<random>``
#: (the tree being built, or after an exchange the replaced old DST) and,
#: where no atomic exchange exists, ``.<DST name>.mmlint-old-<pid>-<random>``
#: (the old DST moved aside for a moment).
LEFTOVER_RE = re.compile(r"^\.(?P<base>.+)\.mmlint-(?P<kind>tmp|old)-(?P<pid>[0-9]+)-[^/]*$")


def sibling(dest: str, kind: str) -> str:
    """A new, empty hidden folder next to ``dest`` named for this process
    (``kind`` is ``"tmp"`` or ``"old"``, :data:`LEFTOVER_RE`), with the mode
    any new folder would get under the umask."""
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

    Looks only at hidden siblings named like :data:`LEFTOVER_RE` for this
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
        m = LEFTOVER_RE.match(name)
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


_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2


def _renameat2(a: str, b: str, flags: int) -> None:
    """Linux ``renameat2(a, b, flags)``.

    Raises:
        OSError: the call failed, or the platform has no ``renameat2``
            (``ENOSYS``).
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    fn = getattr(libc, "renameat2", None)
    if fn is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available")
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd = -100
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), flags) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), b)


def _exchange(a: str, b: str) -> None:
    """Swap two existing paths atomically (Linux ``renameat2(RENAME_EXCHANGE)``).

    Raises:
        OSError: the platform or file system cannot (``ENOSYS``, ``EINVAL``...).
    """
    _renameat2(a, b, _RENAME_EXCHANGE)


def _rename_noreplace(a: str, b: str) -> None:
    """Rename ``a`` to ``b`` only if ``b`` does not exist (Linux
    ``RENAME_NOREPLACE``; elsewhere a check, then ``rename``).

    Raises:
        FileExistsError: ``b`` exists.
        OSError: the rename failed.
    """
    try:
        _renameat2(a, b, _RENAME_NOREPLACE)
        return
    except OSError as exc:
        if exc.errno not in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
            raise
    if os.path.lexists(b):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), b)
    os.rename(a, b)


def identity(path: str) -> tuple[int, int, int] | None:
    """``(st_dev, st_ino, st_mtime_ns)`` of ``path`` (not following a
    symlink); ``None`` when it does not exist."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns


def install(tmp: str, dest: str, kind: str) -> tuple[str | None, bool]:
    """Move the finished tree ``tmp`` into place at ``dest``.

    An absent ``dest`` (``kind == "absent"``) gets one rename that never
    replaces what appeared there meanwhile. An existing one (an empty
    folder, or a store replaced under ``--force``) is swapped with ``tmp``
    in one atomic exchange: the old tree is then at ``tmp``. Where no
    exchange exists the old ``dest`` is renamed aside to a ``-old-`` sibling
    first; a crash between the two renames is repaired by
    :func:`sweep_leftovers` on the next run.

    Returns ``(path holding the old DST or None, whether it was an
    exchange)``; the caller removes (or keeps) the old tree.

    Raises:
        FileExistsError: ``dest`` appeared although it was absent.
        OSError: a rename failed (the old ``dest`` is put back first).
    """
    if kind == "absent":
        _rename_noreplace(tmp, dest)
        return None, False
    try:
        _exchange(tmp, dest)
        return tmp, True
    except OSError:
        old = sibling(dest, "old")
        os.rmdir(old)
        os.rename(dest, old)
        try:
            os.rename(tmp, dest)
        except OSError:
            os.rename(old, dest)
            raise
        return old, False


@contextmanager
def locked(folder: str) -> Iterator[None]:
    """Hold an exclusive advisory lock (``flock``) on ``folder`` for the
    block: two mmlint conversions installing into one parent folder take
    turns. Where ``fcntl`` does not exist the block runs unlocked."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def differs(root: str, files: dict[str, bytes]) -> list[str]:
    """Paths (POSIX, relative) whose bytes below ``root`` are not those of
    ``files``, missing or extra, sorted: the tree read back after writing."""
    from mmlint.walk import walk_store

    w = walk_store(root)
    got = {p: r.data for p, r in w.files.items()}
    return sorted(p for p in set(files) | set(got) if files.get(p) != got.get(p)) + [d + "/" for d, _ in w.skipped_dirs]


def backup_path(dest: str) -> str:
    """A new visible sibling name for the replaced DST under ``--backup``:
    ``<DST>.mmlint-backup-<UTC time>`` (``-2``, ``-3``... if taken)."""
    import time

    base = f"{dest}.mmlint-backup-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    path, n = base, 1
    while os.path.lexists(path):
        n += 1
        path = f"{base}-{n}"
    return path


def _failed(dest: str, exc: OSError, what: str) -> CannotConvert:
    where = f" ({esc(exc.filename)})" if exc.filename and exc.filename != dest else ""
    return CannotConvert(f"cannot write {esc(dest)}: {exc.strerror or exc}{where}; {what}")


def commit(files: dict[str, bytes], dest: str, kind: str, ident: tuple[int, int, int] | None,
           keep_backup: bool = False, step: Callable[[str, int, int], None] | None = None) -> tuple[list[str], str | None]:
    """Write ``files`` as the new DST, all or nothing.

    The tree is written complete in a hidden sibling (:func:`sibling`),
    synced (:func:`sync_tree`), then, holding the parent's lock
    (:func:`locked`) and only if DST is still what the plan saw (``kind``
    and ``ident``, from :mod:`mmlint.convert.dest`), moved into place
    (:func:`install`). DST is then read back (:func:`differs`): on any
    difference the old DST is put back. The old tree is removed once the new
    one verified, or with ``keep_backup`` renamed to :func:`backup_path`.

    Returns ``(differing paths, backup path or None)``: an empty list means
    DST now holds ``files``; otherwise DST is as it was.

    Raises:
        CannotConvert: the file system refused (a full disk, permissions),
            another process changed DST since the plan, or the run was
            interrupted (Ctrl-C); the message says what DST holds.
    """
    parent = os.path.dirname(dest)
    try:
        os.makedirs(parent, exist_ok=True)
        tmp = sibling(dest, "tmp")
    except OSError as exc:
        raise _failed(dest, exc, "DST was not changed") from None
    old: str | None = None
    installed = False
    try:
        write_tree(tmp, files, step)
        with locked(parent):
            now = identity(dest)
            if kind == "absent" and now is not None or kind != "absent" and now != ident:
                raise CannotConvert(f"{esc(dest)} was changed by another process while this conversion ran "
                                    "(another mmlint convert?); nothing was written, DST is as that process left it")
            try:
                old, exchanged = install(tmp, dest, kind)
            except FileExistsError:
                raise CannotConvert(f"{esc(dest)} was created by another process while this conversion ran "
                                    "(another mmlint convert?); nothing was written, DST is as that process left it") from None
            installed = True
            fsync_dir(parent)
            if step is not None:
                step("verify", 0, 1)
            bad = differs(dest, files)
            if bad:
                _put_back(dest, tmp, old, exchanged)
                installed, old = False, None
                return bad, None
        kept = None
        if old is not None:
            if keep_backup:
                kept = backup_path(dest)
                os.rename(old, kept)
                fsync_dir(parent)
            else:
                shutil.rmtree(old, ignore_errors=True)
        return [], kept
    except KeyboardInterrupt:
        state = ("DST holds the complete conversion" if installed else "DST was not changed")
        raise CannotConvert(f"interrupted; {state}") from None
    except OSError as exc:
        raise _failed(dest, exc, "DST holds the complete conversion" if installed else "DST was not changed") from None
    finally:
        if not installed:
            shutil.rmtree(tmp, ignore_errors=True)


def _put_back(dest: str, tmp: str, old: str | None, exchanged: bool) -> None:
    """Undo :func:`install` after a failed read-back: the old DST (at
    ``old``, or nothing) goes back to ``dest``; the new tree ends at ``tmp``."""
    if old is None:
        os.rename(dest, tmp)
    elif exchanged:
        _exchange(old, dest)  # old == tmp: the new tree is back at tmp
    else:
        os.rename(dest, tmp)
        os.rename(old, dest)


def fsync_dir(path: str) -> None:
    """Sync the folder ``path`` (its entries); errors are ignored (a file
    system that cannot sync folders)."""
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
