"""Rules on more than one process (issue 9 item 2, :mod:`mmlint.parallel`):
the diagnostics are the serial run's, in the same order, for full and
partial runs; a worker that fails in any way costs time, never findings,
and leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import fuzzing
import pytest
import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, ROOT
from mmlint import api, config, dialects, outside, parallel, rules
from mmlint.rules import Options, Partial
from test_scope import _read_stores

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="needs a POSIX fork")


def _dump(ds) -> list:
    return [(d.code, d.name, d.severity, d.span, d.message, d.hint, d.fix, d.edits, d.anchor) for d in ds]


@pytest.fixture(autouse=True)
def _many_cpus(monkeypatch):
    """``jobs_for`` never gives more processes than CPUs: the engine tests
    below ask for 2 or 3 whatever this machine has."""
    monkeypatch.setattr(parallel, "cpus", lambda: 8)


def _no_children() -> bool:
    """No child process of this one is left, not even a zombie."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def _partial(store, mod, jobs: int, first: Partial):
    """A partial run reusing the findings of every other note and file of
    the full run ``first``: ``(diagnostics, fresh, fresh_files, stray)``."""
    part = Partial({p: ds for i, (p, ds) in enumerate(sorted(first.fresh.items())) if i % 2 == 0},
                   {p: ds for i, (p, ds) in enumerate(sorted(first.fresh_files.items())) if i % 2 == 0})
    out = _dump(rules.run(store, mod, Options(jobs=jobs), part))
    return out, {p: _dump(ds) for p, ds in part.fresh.items()}, {p: _dump(ds) for p, ds in part.fresh_files.items()}, part.stray


def test_every_fixture_corpus_and_mixed_store_gives_the_serial_diagnostics_full_and_partial(tmp_path):
    seen = partial = 0
    for root, store, mod in _read_stores(tmp_path):
        first = Partial()
        serial = _dump(rules.run(store, mod, Options(jobs=1), first))
        assert _dump(rules.run(store, mod, Options(jobs=2))) == serial, str(root)
        seen += 1
        if "corpus" not in str(root):
            assert _dump(rules.run(store, mod, Options(jobs=3))) == serial, str(root)
        if len(store.notes) > 1:
            want = _partial(store, mod, 1, first)
            assert want[0] == serial, str(root)  # reusing findings changes nothing
            assert _partial(store, mod, 2, first) == want, str(root)
            partial += 1
    # the 29 corpus stores come from ../shared: without it, the fixtures and mixed stores alone
    assert seen > (20 if CORPUS.is_dir() else 8) and partial > (10 if CORPUS.is_dir() else 4) and _no_children()


@pytest.mark.parametrize("mode", ["plain", "dangling"])
def test_generated_stores_give_the_serial_diagnostics(tmp_path, mode):
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench

    root = tmp_path / "s"
    bench.make_store(str(root), 1200, mode)
    (root / "feedback-note-5.md").write_text("---\nname: x\ntype: nope\n---\n\nAKIAABCDEFGHIJKLMNOP [[gone]]\n")
    res = api.read_store(api.locate([str(root)])[0], profile="upstream")
    mod = dialects.get(res.dialect)
    serial = _dump(rules.run(res.store, mod, Options(jobs=1)))
    assert len(serial) > (1000 if mode == "dangling" else 3)
    assert _dump(rules.run(res.store, mod, Options(jobs=2))) == serial
    assert _dump(rules.run(res.store, mod, Options(jobs=0))) == serial  # automatic: parallel when 2 CPUs are idle
    assert _no_children()


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(files=strategies.ANY_STORE, reader=st.sampled_from(fuzzing.READERS), jobs=st.sampled_from((2, 3)))
def test_hypothesis_stores_give_the_serial_diagnostics(files, reader, jobs):
    store = fuzzing.read(files, *reader)
    mod = dialects.get(reader[0])
    assert _dump(rules.run(store, mod, Options(jobs=jobs))) == _dump(rules.run(store, mod, Options(jobs=1)))
    assert _no_children()


def test_automatic_jobs_need_a_large_store_and_an_idle_second_cpu(monkeypatch):
    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.9, 2.0, 2.0))
    assert parallel.jobs_for(0, parallel.AUTO_MIN_NOTES - 1) == 1
    assert parallel.jobs_for(0, 20 * parallel.AUTO_MIN_NOTES) == 2
    assert parallel.jobs_for(None, 20 * parallel.AUTO_MIN_NOTES) == 1  # not configured: serial, the default
    monkeypatch.setattr(os, "getloadavg", lambda: (1.6, 0.1, 0.1))  # both CPUs busy: a worker would only cost CPU
    assert parallel.jobs_for(0, 20 * parallel.AUTO_MIN_NOTES) == 1
    assert parallel.jobs_for(2, 20 * parallel.AUTO_MIN_NOTES) == 2  # asked for: used anyway
    monkeypatch.delattr(os, "getloadavg")
    assert parallel.jobs_for(0, 20 * parallel.AUTO_MIN_NOTES) == 2
    assert parallel.jobs_for(1, 10**6) == 1
    assert parallel.jobs_for(2, 5) == 2  # asked for: used even on a small store
    assert parallel.jobs_for(3, 5) == 2  # never more processes than CPUs (a store's own config is untrusted)
    assert parallel.jobs_for(10**6, 5) == 2
    monkeypatch.setattr(parallel, "cpus", lambda: 64)
    assert parallel.jobs_for(10**6, 5) == parallel.MAX_JOBS
    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    for bad in (-1, 2.0, True):
        with pytest.raises(ValueError):
            parallel.jobs_for(bad, 10)
    monkeypatch.setattr(parallel, "cpus", lambda: 1)
    assert parallel.jobs_for(0, 10**6) == 1
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    assert parallel.jobs_for(4, 10**6) == 1
    with pytest.raises(ValueError):
        parallel.jobs_for(-1, 10)


# --- failures ---------------------------------------------------------------

_PARENT = os.getpid()


def _square(i: int) -> int:
    time.sleep(0.005)  # long enough for the worker to claim some
    return i * i


def _in_worker(action):
    """A task that does ``action()`` when run by a worker (square otherwise)."""
    def run(i: int) -> int:
        if os.getpid() != _PARENT:
            action()
        return _square(i)
    return run


@pytest.mark.parametrize("how", ["raises", "exits", "killed", "unpicklable", "short", "garbage", "hangs"])
def test_a_lost_worker_costs_time_never_results(monkeypatch, how):
    monkeypatch.setattr(parallel, "MIN_WAIT", 0.5)
    run_one = _square
    extra = None
    if how == "raises":
        run_one = _in_worker(lambda: 1 / 0)
    elif how == "exits":
        run_one = _in_worker(lambda: os._exit(0))
    elif how == "killed":
        run_one = _in_worker(lambda: os.kill(os.getpid(), signal.SIGKILL))
    elif how == "hangs":
        run_one = _in_worker(lambda: time.sleep(30))
    elif how == "unpicklable":
        extra = lambda: (lambda: None)  # noqa: E731 - pickling it fails in the worker
    elif how in ("short", "garbage"):
        body = b"\x80\x05garbage" if how == "garbage" else b""

        def work(claim_r, res_w, run_one, extra):
            while len(os.read(claim_r, 2)) == 2:
                pass  # claims everything, answers badly
            os.write(res_w, (len(body) + (0 if body else 5)).to_bytes(8, "big") + body)
            return 0

        monkeypatch.setattr(parallel, "_work", work)
    t = time.monotonic()
    got = parallel.run_tasks(40, run_one, 2, extra, lambda state: None)
    assert got == [i * i for i in range(40)]
    assert _no_children()
    assert (0.5 if how == "hangs" else 0) <= time.monotonic() - t < 10


def test_two_workers_share_the_tasks_and_send_back_what_they_noted():
    def run_one(i: int) -> tuple[int, int]:
        outside.lexists(f"/nonexistent/{i}")
        time.sleep(0.002)
        return i, os.getpid()

    with outside.noting() as notes:
        got = parallel.run_tasks(60, run_one, 3, outside.current, outside.merge)
    assert [i for i, _ in got] == list(range(60))
    assert len({pid for _, pid in got}) == 3  # the parent and two workers each ran some
    assert set(notes) == {("lexists", f"/nonexistent/{i}") for i in range(60)}
    assert _no_children()


def test_an_exception_in_the_parent_kills_and_reaps_the_workers():
    def run_one(i: int) -> int:
        if os.getpid() == _PARENT and i > 3:
            raise KeyboardInterrupt
        time.sleep(0.01)
        return i

    with pytest.raises(KeyboardInterrupt):
        parallel.run_tasks(200, run_one, 3)
    assert _no_children()


def test_ctrl_c_leaves_no_process_behind(tmp_path):
    """SIGINT to the whole process group (what a terminal's Ctrl-C does)
    while the parent and its workers run tasks: all of them end."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent("""
        import sys, time
        from mmlint import parallel
        def run_one(i):
            time.sleep(0.05)
            return i
        print("started", flush=True)
        try:
            parallel.run_tasks(2000, run_one, 3)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
    """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout.readline() == "started\n"
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
        assert proc.returncode == 130 and out == "interrupted\n"
        time.sleep(0.1)
        with pytest.raises(ProcessLookupError):
            os.killpg(proc.pid, 0)  # no process of the group is left
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.parametrize("value, want", [("1", 1), ("0", 0), ('"auto"', 0), ("4", 4), ("-1", None), ('"two"', None),
                                         ("true", None), ("2.0", None), ("1.5", None)])
def test_configured_jobs_and_the_command_line_on_top(tmp_path, value, want):
    path = tmp_path / "mmlint.toml"
    path.write_text(f"jobs = {value}\n")
    if want is None:
        with pytest.raises(config.ConfigError, match="jobs"):
            config.load(str(path))
        return
    conf = config.load(str(path))
    assert conf.options().jobs == want
    assert conf.options(Options(jobs=1)).jobs == 1
    assert config.Config(path=str(path)).options().jobs is None


def test_cli_jobs_option(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench

    root = tmp_path / "s"
    bench.make_store(str(root), 40, "dangling")
    env = {k: v for k, v in os.environ.items() if k != "MMLINT_CACHE_DIR"} | {"MMLINT_CACHE_DIR": str(tmp_path / "c")}
    outs = set()
    for jobs in ("1", "2", "auto", "0"):
        r = subprocess.run([sys.executable, "-m", "mmlint", "check", "--no-cache", "--format", "json", "--profile",
                            "upstream", "--jobs", jobs, str(root)], capture_output=True, text=True, env=env)
        assert r.returncode == 0, r.stderr
        outs.add(r.stdout)
    assert len(outs) == 1
    r = subprocess.run([sys.executable, "-m", "mmlint", "check", "--jobs", "-1", str(root)], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 2 and "--jobs" in r.stderr


def test_a_cached_check_records_what_the_worker_looked_at(tmp_path, monkeypatch):
    """What a rule asks outside the store (H102's project and cited paths,
    :mod:`mmlint.outside`) goes into the cache entry whichever process asked:
    the worker's questions come back with its findings. The parent is slowed
    down so that the worker runs most tasks."""
    import json

    (tmp_path / "proj" / ".git").mkdir(parents=True)
    (tmp_path / "proj" / "src").mkdir()
    (tmp_path / "proj" / "src" / "here.py").write_text("")
    root = tmp_path / "proj" / "memory"
    notes = {f"n{i}.md": (f"---\nname: n{i}\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n"
                          f"---\n\nSee `src/here.py` and `src/gone{i}.py`.\n") for i in range(12)}
    notes["MEMORY.md"] = "# Memory Index\n\n## reference\n" + "".join(f"- [N{i}](n{i}.md) — h\n" for i in range(12))
    for rel, text in notes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    real = parallel.run_tasks

    def slow_parent(n, run_one, jobs, *rest):
        def run(i):
            if os.getpid() == _PARENT:
                time.sleep(0.02)
            return run_one(i)
        return real(n, run, jobs, *rest)

    entries = []
    for jobs in (1, 2):
        cache_dir = tmp_path / f"cache{jobs}"
        monkeypatch.setenv("MMLINT_CACHE_DIR", str(cache_dir))
        monkeypatch.setattr(parallel, "run_tasks", slow_parent)
        res = api.check([str(root)], profile="upstream", cache=True, options=Options(jobs=jobs))
        monkeypatch.setattr(parallel, "run_tasks", real)
        assert any(d.code == "H102" for d in res.stores[0].diagnostics)
        [entry] = [p for p in cache_dir.rglob("*.json") if not p.name.endswith(".notes.json")]
        entries.append((_dump(res.stores[0].diagnostics), json.loads(entry.read_text())["looked"]))
    assert entries[0] == entries[1] and entries[0][1]
    assert _no_children()


def test_library_lint_takes_jobs(tmp_path):
    import mmlint

    sys.path.insert(0, str(ROOT / "scripts"))
    import bench

    bench.make_store(str(tmp_path / "s"), 30, "dangling")
    store = mmlint.read_store(str(tmp_path / "s"), profile="upstream")
    assert _dump(mmlint.lint(store, jobs=2)) == _dump(mmlint.lint(store, jobs=1)) != []
    for bad in (-1, 2.0):  # 2.0 reached range() in the engine: a traceback with exit status 1
        with pytest.raises(api.CheckError, match="jobs"):
            mmlint.lint(store, jobs=bad)


def test_a_float_jobs_in_a_stores_config_is_a_configuration_error_not_a_crash(tmp_path):
    """TOML ``jobs = 2.0`` is a float that JSON Schema's "integer" accepts;
    it crashed every check of the store with exit status 1, which CI reads
    as findings. It is a configuration error now: exit 2, one line."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench

    root = tmp_path / "s"
    bench.make_store(str(root), 5, "plain")
    (root / ".mmlint.toml").write_text("jobs = 2.0\n")
    r = subprocess.run([sys.executable, "-m", "mmlint", "check", "--no-cache", str(root)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "jobs" in r.stderr, r.stderr
