"""How the process's own command ends (:func:`mmlint.cli.script`, the console
script and ``python -m mmlint``): the same output, exit status and ``atexit``
handlers as ``sys.exit(main())``, without tearing down every module and
object (:func:`os._exit`); the normal exit when something needs it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import make_store

NOTE = "---\nname: {n}\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\n{body}"

#: A child's prologue: an atexit handler (registered first, so it runs last)
#: and :func:`os._exit` saying that it was called.
PROLOGUE = ("import atexit, os, sys\n"
            "atexit.register(lambda: sys.stderr.write('ATEXIT\\n'))\n"
            "_real = os._exit\n"
            "os._exit = lambda status: (os.write(2, b'FAST\\n'), _real(status))\n"
            "import mmlint.cli as c\n")


def _store(root, n=60):
    files = {"MEMORY.md": "# Memory Index\n\n## reference\n"
             + "".join(f"- [N{i}](n{i}.md) - h\n" for i in range(n))}
    for i in range(n):
        # a dangling link each: findings, exit status 1, a report of some size
        files[f"n{i}.md"] = NOTE.format(n=f"n{i}", body=f"Fact {i}, see [[missing-{i}]].\n")
    return make_store(root, files)


def _child(code: str, argv: list[str]) -> subprocess.CompletedProcess:
    """Run ``code`` in a child as a user's shell would: without
    ``PYTHONUNBUFFERED`` (set on some machines, this one included), which
    writes stdout through and so hides an output left unflushed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run([sys.executable, "-c", PROLOGUE + code, *argv], capture_output=True, env=env)


def test_script_ends_as_sys_exit_main_does_without_the_teardown(tmp_path):
    argv = ["check", str(_store(tmp_path / "s")), "--format", "json", "--profile", "upstream", "--no-cache",
            "--fail-on", "info"]
    fast = _child("c.script()", argv)
    slow = _child("sys.exit(c.main())", argv)
    assert slow.returncode == fast.returncode == 1
    assert fast.stdout == slow.stdout and len(fast.stdout) > 10_000  # flushed, whole, through a pipe
    assert slow.stderr.decode().endswith("ATEXIT\n")
    assert fast.stderr.decode().endswith("ATEXIT\nFAST\n")  # handlers run, then no teardown


def test_script_exit_status_of_a_usage_error_and_of_version(tmp_path):
    for argv, status in ((["check", str(tmp_path / "nowhere")], 2), (["--version"], 0)):
        fast = _child("c.script()", argv)
        slow = _child("sys.exit(c.main())", argv)
        assert fast.returncode == slow.returncode == status
        assert (fast.stdout, fast.stderr) == (slow.stdout, slow.stderr + b"FAST\n")


def test_script_waits_for_a_running_thread_as_shutdown_does():
    # a non-daemon thread still running: the normal exit, which joins it
    code = ("import threading, time\n"
            "threading.Thread(target=lambda: (time.sleep(0.3), sys.stdout.write('JOINED\\n'))).start()\n"
            "c.script()")
    r = _child(code, ["--version"])
    assert r.returncode == 0 and r.stdout.decode().splitlines() == ["mmlint 0.1.0", "JOINED"]
    assert "FAST" not in r.stderr.decode()


def test_script_a_failing_flush_exits_as_shutdown_reports_it():
    # stdout that cannot be flushed (a closed pipe): shutdown reports it and exits 120, as sys.exit does
    code = ("import io\n"
            "class _Broken(io.StringIO):\n    def flush(self):\n        raise BrokenPipeError(32, 'Broken pipe')\n"
            "sys.stdout = _Broken()\n")
    fast = _child(code + "c.script()", ["--version"])
    slow = _child(code + "sys.exit(c.main())", ["--version"])
    assert fast.returncode == slow.returncode == 120
    assert b"BrokenPipeError" in fast.stderr and b"ATEXIT" in fast.stderr and b"FAST" not in fast.stderr


def test_python_m_mmlint_and_the_console_script_end_through_script():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    assert tomllib.loads((root / "pyproject.toml").read_text())["project"]["scripts"]["mmlint"] == "mmlint.cli:script"
    assert "script()" in (root / "mmlint" / "__main__.py").read_text()
    r = subprocess.run([sys.executable, "-m", "mmlint", "--version"], capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "mmlint 0.1.0\n")


def test_a_profiled_run_ends_normally_so_the_profile_is_written(tmp_path):
    """``python -m cProfile -o F -m mmlint`` writes F after the module
    returns: the fast exit would have ended the process first."""
    out = tmp_path / "prof"
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), "-m", "mmlint", "--version"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "mmlint" in done.stdout
    assert out.exists() and out.stat().st_size > 0


def test_a_closed_stdout_or_stderr_is_no_traceback(tmp_path):
    """Started with stdout (or stderr) closed, Python gives ``None`` for it:
    writing the report raised AttributeError (a traceback, exit 1). The
    output goes nowhere, as into a closed pipe, and the exit status is the
    command's."""
    root = _store(tmp_path / "s", n=3)
    for redirect, status in ((">&-", 1), ("2>&-", 1), (">&- 2>&-", 1)):
        for args in (f'check "{root}" --no-cache --fail-on info', "--version"):
            done = subprocess.run(["sh", "-c", f'"{sys.executable}" -m mmlint {args} {redirect}'], capture_output=True, text=True)
            want = 0 if args == "--version" else status
            assert done.returncode == want and "Traceback" not in done.stderr, (redirect, args, done.stderr)


def test_an_interrupt_python_would_ignore_is_delivered_again(monkeypatch):
    """A Ctrl-C landing in the import system's module-lock callback was
    printed as "Exception ignored in ..." with a traceback, and the command
    went on (found by the convert kill test): during a command it is raised
    again where the command handles it."""
    import types

    from mmlint import cli

    seen = []
    monkeypatch.setattr(sys, "__unraisablehook__", lambda u: seen.append(u))
    with pytest.raises(KeyboardInterrupt):
        cli._unraisable(types.SimpleNamespace(exc_type=KeyboardInterrupt, exc_value=KeyboardInterrupt()))
        for _ in range(10000):  # the signal is handled between two bytecodes
            pass
    other = types.SimpleNamespace(exc_type=ValueError, exc_value=ValueError("x"))
    cli._unraisable(other)
    assert seen == [other]


def test_the_unraisable_hook_is_the_commands_only(tmp_path):
    from mmlint import cli

    before = sys.unraisablehook
    inside = []
    real = cli._command
    try:
        cli._command = lambda argv: inside.append(sys.unraisablehook) or 0
        assert cli._main(["check"]) == 0
    finally:
        cli._command = real
    assert inside == [cli._unraisable] and sys.unraisablehook is before
