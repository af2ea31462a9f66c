"""The hostile catalogue (``hostile_catalogue.py``), case by case: every
command finishes within a bound, never raises, reports what it must, prints
no raw control character, and with ``--fix`` converges."""

from __future__ import annotations

import io
import json
import re
import signal
import sys
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_catalogue import CASES, build  # noqa: E402

from mmlint import cli  # noqa: E402

#: Control characters no human-readable output may hold (\n separates lines).
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@contextmanager
def deadline(seconds: int):
    """Fail (instead of hanging) when the body runs longer than ``seconds``."""
    def fire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with deadline(20), redirect_stdout(out), redirect_stderr(err):
        status = cli.main(argv)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_case(name, tmp_path, monkeypatch):
    case = CASES[name]
    root, outside = tmp_path / "store", tmp_path / "outside"
    build(name, root, outside)
    monkeypatch.chdir(tmp_path)
    status, out, err = run(["check", str(root), *case.args, "--format", "json"])
    assert status in case.status, (status, err)
    if status != 2:
        found = {d["rule"]["id"] for d in json.loads(out)["diagnostics"]}
        assert case.codes <= found, (sorted(case.codes - found), sorted(found))
    status, out, err = run(["check", str(root), *case.args])
    assert status in case.status
    assert not RAW_CONTROL.search(out + err), repr(RAW_CONTROL.search(out + err))
    if case.fix and status != 2:
        status, out, err = run(["check", str(root), *case.args, "--fix", "--unsafe-fixes"])
        assert status in (0, 1), err
        assert not RAW_CONTROL.search(out + err)
        status, out, err = run(["check", str(root), *case.args, "--fix", "--unsafe-fixes"])
        assert "Fixed" not in out, f"a second --fix still fixed something: {out}"
    assert (outside / "secret.md").read_text().endswith("secret\n")


def test_config_inside_a_store_cannot_extend_outside(tmp_path, monkeypatch):
    build("config-extends-etc-passwd", tmp_path / "store", tmp_path / "outside")
    status, _, err = run(["check", str(tmp_path / "store")])
    assert status == 2 and "extend" in err and "absolute" in err
    build("config-extends-up", tmp_path / "s2", tmp_path / "outside")
    status, _, err = run(["check", str(tmp_path / "s2")])
    assert status == 2 and "outside the store" in err


def test_config_above_the_store_may_extend_beside_it(tmp_path):
    """A project's own configuration (above the store) is the user's: it
    may extend a file beside the project."""
    build("carrier-list-slug", tmp_path / "proj" / "store", tmp_path / "outside")
    (tmp_path / "proj" / ".mmlint.toml").write_text('extend = "../outside/secret.toml"\n')
    status, _, err = run(["check", str(tmp_path / "proj" / "store")])
    assert status in (0, 1), err


def test_detection_of_a_bracket_run_is_linear():
    """9 s of CPU once (a backtracking pattern on ``](``): detection of 64 KiB
    of brackets must cost about what 64 KiB of plain text costs."""
    import time

    from mmlint.dialects import engramory

    def took(text: str) -> float:
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            engramory._has_md_pointer(text)
            best = min(best, time.perf_counter() - t0)
        return best

    plain = "- [A](a.txt) x\n" * (65536 // 15)
    assert took("](" * 32768) < 20 * took(plain) + 0.01
