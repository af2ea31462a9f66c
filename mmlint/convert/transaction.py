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
from typing import Callable


def write_tree(root: str, files: dict[str, bytes], step: Callable[[str, int, int], None] | None = None) -> None:
    """Write ``files`` (POSIX path -> bytes) below the folder ``root``: each
    file created exclusively (an existing file is ``FileExistsError``) and
    synced, then every folder synced. ``step("write", done, total)`` reports
    progress when given.

    Raises:
        OSError: the file system refused a write (``ENOSPC``, ``EACCES``...).
    """
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
        fsync_dir(folder)


def dest_state(dest: str) -> str:
    """``"absent"``, ``"empty"`` (an empty folder), ``"full"`` (a folder
    with entries) or ``"file"`` (anything else, a symlink included)."""
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


def install(tmp: str, dest: str, state: str) -> None:
    """Move the finished tree ``tmp`` into place at ``dest``.

    An absent ``dest`` (``state`` from :func:`dest_state`) gets one rename.
    An existing one (empty, or replaced under ``--force``) is swapped with
    ``tmp`` in one atomic exchange and the old tree, now at ``tmp``, is
    deleted. Where no exchange exists the old ``dest`` is renamed aside to a
    ``-old-`` sibling first; a crash between the two renames is repaired by
    :func:`sweep_leftovers` on the next run.

    Raises:
        OSError: a rename failed (the old ``dest`` is put back first).
    """
    if state == "absent":
        os.rename(tmp, dest)
        return
    try:
        _exchange(tmp, dest)
    except OSError:
        old = sibling(dest, "old")
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
