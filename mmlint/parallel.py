"""Running independent pieces of work on more than one CPU with ``fork``.

The rule engine (:func:`mmlint.rules.run`) splits a check into *tasks*
(a store rule, or every note and file rule on one shard of the notes and
files) whose results do not depend on each other once the store is read.
:func:`run_tasks` runs them in this process and in forked workers: a forked
worker sees the store read by its parent without copying or pickling it
(copy-on-write pages; the garbage collector is off during a check, so it
touches no page on its own).

How the work is shared: every task number is written into a pipe before
the fork, as a fixed-size record; the parent and each worker read one
record at a time (a pipe read of a few bytes is atomic), run that task and
read the next, until the pipe is empty. A busy or slow CPU thus gets fewer
tasks. A worker sends all its results back at the end, in one
length-prefixed pickle on a pipe of its own, and exits with
:func:`os._exit` (no ``atexit`` handler, no flush of inherited buffers).

Nothing is lost and nothing is left behind: a worker that raises, crashes,
is killed, sends a short or unreadable answer, or does not answer within
:func:`deadline` is killed and reaped, and the parent runs the tasks it did
not get back itself (tasks are deterministic, so the result is the one a
serial run gives). Ctrl-C (``KeyboardInterrupt`` in the parent) kills and
reaps the workers before it propagates; a worker whose parent died stops
before its next task. Every pipe is closed on every path.

:func:`jobs_for` decides how many processes a check uses: ``jobs`` 1 is
serial, and so is ``None`` (not configured: the default); 0 is automatic (see
there).
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Callable

#: Stores with fewer notes than this run serially when ``jobs`` is automatic:
#: below it a fork and the results' round trip cost more than the second CPU
#: saves (measured with ``scripts/bench.py``, its ``--jobs auto`` row).
AUTO_MIN_NOTES = 1000
#: Most processes an automatic ``jobs`` uses (parent included).
AUTO_MAX_JOBS = 4
#: Most processes any ``jobs`` uses (a configuration inside a checked store
#: is untrusted: it may ask for any number).
MAX_JOBS = 32
#: A worker still running this long after the parent ran out of tasks
#: (seconds, at least; see :func:`deadline`) is taken for hung.
MIN_WAIT = 1.0

_RECORD = 2  # bytes per task number in the claim pipe (big-endian)


def cpus() -> int:
    """CPUs this process may run on (``os.sched_getaffinity``; ``os.cpu_count``
    where that does not exist; at least 1)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether forking workers is possible and safe here: a POSIX ``fork``
    and no other Python thread running (a fork copies only the calling
    thread; the others' locks would stay held in the child)."""
    if not hasattr(os, "fork") or sys.platform == "emscripten":
        return False
    threading = sys.modules.get("threading")  # never imported: no thread was started through it
    return threading is None or threading.active_count() == 1


def jobs_for(jobs: int | None, notes: int) -> int:
    """How many processes (parent included) a check of a store with
    ``notes`` notes uses.

    ``jobs``: ``None`` (not configured: the default) or 1 serial; N > 1
    N, at most the CPUs this process may use (:func:`cpus`: more processes
    than CPUs only add copies of the store's pages; a configuration inside
    a checked store is untrusted) and :data:`MAX_JOBS` (1 without a usable
    ``fork``, see :func:`can_fork`); 0 automatic: serial below :data:`AUTO_MIN_NOTES` notes or when no CPU is
    idle (:func:`busy`), else one process per :data:`AUTO_MIN_NOTES` notes,
    at most the CPUs this process may use (:func:`cpus`) and
    :data:`AUTO_MAX_JOBS`.

    Raises:
        ValueError: ``jobs`` negative.
    """
    if jobs is not None and (type(jobs) is not int or jobs < 0):
        raise ValueError(f"jobs must be a whole number, 0 (automatic) or more, not {jobs!r}")
    if jobs is None or jobs == 1:
        return 1
    if jobs == 0:
        if notes < AUTO_MIN_NOTES:
            return 1
        n = cpus()
        jobs = min(n, AUTO_MAX_JOBS, notes // AUTO_MIN_NOTES)
        if jobs < 2 or busy(n):
            return 1
    jobs = min(jobs, MAX_JOBS, cpus())
    return jobs if jobs > 1 and can_fork() else 1


def busy(n: int) -> bool:
    """Whether the machine has no CPU to spare for a worker: the 1-minute
    load average is at least ``n`` - 0.5 for ``n`` CPUs (``make -l`` asks
    the same before it starts another job). A worker on a saturated
    machine costs CPU (its copy-on-write page faults, ~10 % of the rules'
    CPU) and gains no wall time. ``False`` where the load is unknown."""
    try:
        return os.getloadavg()[0] >= n - 0.5
    except (AttributeError, OSError):
        return False


def deadline(parent_seconds: float) -> float:
    """Seconds the parent waits for a worker once its own share is done:
    :data:`MIN_WAIT`, or twice what the parent spent on tasks when that is
    longer. A worker sends its answers only at the end, so the parent that
    gives up runs every task the worker claimed: a slow or stopped worker
    costs at most about that much again, never a long idle wait (it was
    10 s at least; a stopped worker made a 20,000-note check take 12 s)."""
    return max(MIN_WAIT, 2 * parent_seconds)


def run_tasks(n: int, run_one: Callable[[int], Any], jobs: int, extra: Callable[[], Any] | None = None,
              merge_extra: Callable[[Any], None] | None = None, pack: Callable[[Any], Any] | None = None,
              unpack: Callable[[Any], Any] | None = None) -> list[Any]:
    """``[run_one(0), ..., run_one(n - 1)]``, computed by this process and
    ``jobs - 1`` forked workers (serially when ``jobs`` < 2 or ``n`` < 2).

    ``run_one(i)`` must be deterministic and its result picklable; it runs
    exactly once per ``i`` in the process whose result is kept (a task a lost
    worker had claimed runs again here). ``extra()``, called in a worker
    after its last task, gives a picklable value handed to
    ``merge_extra`` in the parent (state a task left behind that the parent
    needs, e.g. :mod:`mmlint.outside` notes); it is not called for a lost
    worker, whose tasks then run here and leave their state here.
    ``pack`` turns a worker's result into what it sends (something quicker
    to pickle), ``unpack`` turns that back in the parent.

    Exceptions of ``run_one`` in the parent propagate (after the workers
    are killed and reaped); in a worker they make it lost (its tasks run
    again here, where they raise as in a serial run).
    """
    if jobs < 2 or n < 2:
        return [run_one(i) for i in range(n)]
    if n >= 1 << (8 * _RECORD):
        raise ValueError(f"too many tasks: {n}")
    results: list[Any] = [None] * n
    done = [False] * n
    claim_r, claim_w = os.pipe()
    workers: list[tuple[int, int]] = []  # (pid, result pipe read end)
    try:
        # The whole list goes into the pipe's buffer before any reader starts,
        # so the write cannot block: a few hundred bytes for a check; a list
        # over 4 KiB only where the buffer is known to hold it (Linux: 64 KiB).
        data = b"".join(i.to_bytes(_RECORD, "big") for i in range(n))
        if len(data) > 4096 and not _fits(claim_w, len(data)):
            return [run_one(i) for i in range(n)]
        os.write(claim_w, data)
        os.close(claim_w)
        claim_w = -1
        for _ in range(min(jobs, n) - 1):
            w = _spawn(claim_r, run_one, extra, pack, [fd for _, fd in workers])
            if w is None:
                break
            workers.append(w)
        start = time.monotonic()
        while True:
            rec = os.read(claim_r, _RECORD)
            if len(rec) < _RECORD:
                break
            i = int.from_bytes(rec, "big")
            results[i] = run_one(i)
            done[i] = True
        wait = deadline(time.monotonic() - start)
        until = time.monotonic() + wait
        while workers:
            pid, fd = workers[-1]
            got = _collect(pid, fd, until)
            workers.pop()
            os.close(fd)
            if got is None:
                continue
            answers, state = got
            for i, value in answers:
                if 0 <= i < n and not done[i]:
                    results[i] = unpack(value) if unpack is not None else value
                    done[i] = True
            if merge_extra is not None:
                merge_extra(state)
    finally:
        for pid, fd in workers:
            _kill(pid)
            os.close(fd)
        if claim_w >= 0:
            os.close(claim_w)
        os.close(claim_r)
    for i in range(n):
        if not done[i]:
            results[i] = run_one(i)
    return results


def _fits(fd: int, size: int) -> bool:
    """Whether a pipe of ``size`` bytes can be written without blocking
    (Linux ``F_GETPIPE_SZ``; elsewhere only the POSIX minimum is assumed)."""
    try:
        import fcntl

        return fcntl.fcntl(fd, getattr(fcntl, "F_GETPIPE_SZ", 1032)) >= size
    except (ImportError, OSError):
        return False


def _spawn(claim_r: int, run_one: Callable[[int], Any], extra: Callable[[], Any] | None,
           pack: Callable[[Any], Any] | None, siblings: list[int]) -> tuple[int, int] | None:
    """Fork one worker; ``(pid, read end of its result pipe)``, or ``None``
    when the fork fails (the parent then does that share itself)."""
    res_r, res_w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(res_r)
        os.close(res_w)
        return None
    if pid == 0:  # the worker: never returns
        status = 70
        try:
            os.close(res_r)
            for fd in siblings:
                os.close(fd)
            status = _work(claim_r, res_w, run_one if pack is None else (lambda i: pack(run_one(i))), extra)
        except BaseException:  # noqa: BLE001 - a lost worker: the parent redoes its share
            pass
        finally:
            os._exit(status)
    os.close(res_w)
    return pid, res_r


def _work(claim_r: int, res_w: int, run_one: Callable[[int], Any], extra: Callable[[], Any] | None) -> int:
    """The worker's loop: claim, run, and at the end send ``(answers,
    extra())`` as one frame. Returns the exit status (0: sent)."""
    import _signal  # signal without its enums (~0.7 ms)

    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)  # Ctrl-C: die quietly; the parent cleans up
    _signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)
    pickle = _pickler()
    parent = os.getppid()
    answers = []
    while True:
        if os.getppid() != parent:
            return 71  # the parent is gone: nobody wants the rest
        rec = os.read(claim_r, _RECORD)
        if len(rec) < _RECORD:
            break
        i = int.from_bytes(rec, "big")
        answers.append((i, run_one(i)))
    body = pickle.dumps((answers, extra() if extra is not None else None), protocol=5)
    frame = len(body).to_bytes(8, "big") + body
    view = memoryview(frame)
    while view:
        view = view[os.write(res_w, view):]
    os.close(res_w)
    return 0


def _collect(pid: int, fd: int, until: float) -> tuple[list, Any] | None:
    """Read one worker's frame from ``fd`` (until the monotonic time
    ``until``; the caller closes ``fd``) and reap it; ``None`` when it sent none, a short or unreadable one, exited
    with a failure status or ran out of time (then it is killed first)."""
    import select

    chunks = []
    ok = True
    try:
        while True:
            left = until - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                ok = False
                break
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        ok = False
    if not ok:
        _kill(pid)
        return None
    status = _reap(pid)
    data = b"".join(chunks)
    del chunks
    if status != 0 or len(data) < 8 or int.from_bytes(data[:8], "big") != len(data) - 8:
        return None
    try:
        answers, state = _pickler().loads(memoryview(data)[8:])  # no copy of the frame
        return list(answers), state
    except Exception:  # noqa: BLE001 - an unreadable answer is a lost worker
        return None


def _pickler():
    """The C pickle module (``_pickle``: ~2 ms less to import than
    :mod:`pickle`), else :mod:`pickle`."""
    try:
        import _pickle

        return _pickle
    except ImportError:  # pragma: no cover - an interpreter without the accelerator
        import pickle

        return pickle


def _kill(pid: int) -> None:
    """Kill and reap a worker (no zombie is left)."""
    import _signal

    try:
        os.kill(pid, _signal.SIGKILL)
    except OSError:
        pass
    _reap(pid)


def _reap(pid: int) -> int:
    """Wait for a worker; its exit status (-1 when killed by a signal or
    already reaped)."""
    while True:
        try:
            _, status = os.waitpid(pid, 0)
        except InterruptedError:
            continue
        except ChildProcessError:
            return -1
        return os.waitstatus_to_exitcode(status) if status else 0
