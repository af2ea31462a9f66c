"""Files written whole or not at all: a temporary file beside the target,
flushed to disk, then renamed over it (``os.replace``, atomic on POSIX and
Windows). ``--fix`` writes the notes it changes this way, ``--output`` and
``--write-baseline`` the files the user named, the git merge driver the
merged file.

A module of its own, importing nothing of mmlint's: ``check --output``
needs it without the fix machinery (``dataclasses``, ``typing``: ~8 ms).
"""

from __future__ import annotations

import os
import re
import stat
import tempfile

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

#: Temporary files :func:`write_temp` makes: ``.<name>.<pid>.<random>.mmlint.tmp``
#: (older releases wrote ``.<name>.<random>.mmlint.tmp``, without the pid).
TEMP_RE = re.compile(r"^\.(?P<name>.+?)\.(?:(?P<pid>\d+)\.)?[A-Za-z0-9_]+\.mmlint\.tmp\Z", re.S)


def discard(path: str) -> None:
    """Remove the file ``path``; nothing when it cannot be (already gone, or not ours to remove)."""
    try:
        os.unlink(path)
    except OSError:
        pass


def write_temp(path: str, data: Any, mode: int | None) -> str:
    """A new temporary file beside ``path`` holding ``data``, flushed to
    disk, with permission bits ``mode`` (``None``: the umask's). Named
    ``.<name>.<pid>.<random>.mmlint.tmp`` (:data:`TEMP_RE`) so that
    :func:`mmlint.fixes.sweep` can tell a killed writer's leftover from a
    live one's. ``data``: the bytes, or a function that writes them to the
    binary file it is given. Raises ``OSError`` (and what ``data`` raises);
    the temporary file is then removed."""
    folder = os.path.dirname(path) or "."
    if mode is None:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask  # a new file gets the mode open() would give it, not mkstemp's 0600
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.{os.getpid()}.", suffix=".mmlint.tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            if callable(data):
                data(fh)
            else:
                fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        discard(tmp)
        raise
    return tmp


def atomic_write(path: str, data: Any) -> None:
    """Replace (or create) ``path`` with ``data``: a unique temporary file in
    the same folder (:func:`write_temp`), flushed to disk, then renamed over
    ``path``. The old file's permission bits are kept (a new file gets the
    umask's). ``data``: the bytes, or a function that writes them to the
    binary file it is given (what it raises leaves ``path`` untouched too).
    Raises ``OSError``; on failure ``path`` is untouched and the temporary
    file removed."""
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    tmp = write_temp(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise


def write_output(path: str, data: Any) -> None:
    """Write a file the user named on the command line (``--output``,
    ``--write-baseline``): a regular file, or a symlink to one, has its
    target replaced atomically (:func:`atomic_write`), the link kept; a
    FIFO, a device or a terminal (``/dev/stdout``) is written in place, as
    a shell's ``>`` would; a new path (or a dangling link's target) is
    created. Replacing the name itself swapped a symlink, a FIFO or (as
    root) ``/dev/stdout`` for a regular file.

    ``data``: the bytes, or a function that writes them to the binary file
    it is given (a report written as it is made, into the temporary file:
    one that fails leaves no half-written file; for a FIFO or a device it
    writes into memory first, for the same reason). Raises ``OSError``."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if callable(data):
            import io

            buf = io.BytesIO()
            data(buf)
            data = buf.getvalue()
        with open(real, "wb") as fh:
            fh.write(data)
        return
    atomic_write(real, data)


def text_writer(fill: Any, errors: str = "strict") -> Any:
    """A ``data`` function for :func:`write_output` and :func:`atomic_write`
    that has ``fill(stream)`` write text: encoded as UTF-8 (``errors``: the
    codec's error handler), line ends as written."""

    def write(fh: Any) -> None:
        import io

        text = io.TextIOWrapper(fh, encoding="utf-8", errors=errors, newline="")
        fill(text)
        text.flush()
        text.detach()

    return write
