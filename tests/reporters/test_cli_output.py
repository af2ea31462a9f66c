"""``mmlint check --output FILE`` and ``--statistics``, run as a user runs them,
plus the promise that machine formats never import rich."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mmlint.reporters import REPORTERS

BROKEN = {
    "MEMORY.md": "# Memory Index\n\n- [Gone](gone.md) — missing\n- [Also gone](also.md) — missing\n- [A](a.md) — ok\n",
    "a.md": "---\nname: a\ndescription: a note\ntype: reference\n---\n\nbody\n",
    "orphan.md": "---\nname: orphan\ndescription: nobody points here\ntype: reference\n---\n",
}


def run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "mmlint", "check", *args], capture_output=True, cwd=cwd,
                          env=dict(os.environ, NO_COLOR="1"))


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_output_file_holds_what_stdout_would(fmt, store, tmp_path):
    root = store(BROKEN)
    plain = run(str(root), "--format", fmt, cwd=tmp_path)
    to_file = run(str(root), "--format", fmt, "--output", "report.out", cwd=tmp_path)
    assert to_file.returncode == plain.returncode == 1
    assert to_file.stdout == b""
    assert (tmp_path / "report.out").read_bytes() == plain.stdout


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_output_file_is_utf8_even_for_undecodable_file_names(fmt, store, tmp_path):
    try:
        root = store({**BROKEN, "bad\udcff\u2028name.md": "---\nname: x\n---\n"})
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses file names that are not UTF-8")
    proc = run(str(root), "--format", fmt, "--output", "report.out", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    text = (tmp_path / "report.out").read_bytes().decode("utf-8")  # strict
    if fmt == "json":
        assert any(d["path"].endswith("bad\udcff\u2028name.md") for d in json.loads(text)["diagnostics"])


def test_output_overwrites_and_unwritable_output_is_a_usage_error(store, tmp_path):
    root = store(BROKEN)
    (tmp_path / "report.sarif").write_text("old")
    assert run(str(root), "--format", "sarif", "--output", "report.sarif", cwd=tmp_path).returncode == 1
    assert json.loads((tmp_path / "report.sarif").read_text("utf-8"))["version"] == "2.1.0"
    proc = run(str(root), "--output", str(tmp_path / "no" / "such" / "dir" / "r.txt"), cwd=tmp_path)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert err.startswith("mmlint: cannot write") and "Traceback" not in err
    assert not (tmp_path / "no").exists()


def test_statistics_text(store, tmp_path):
    proc = run(str(store(BROKEN)), "--statistics", cwd=tmp_path)
    assert proc.returncode == 1
    # ruff's --statistics shows what --fix would fix; the severity comes last, so the first three fields stay
    assert proc.stdout.decode().splitlines() == ["2\tP101\tdangling-pointer\terror", "1\tP106\torphan-note\terror"]
    proc = run(str(store(BROKEN)), "--statistics", "--unsafe-fixes", cwd=tmp_path)
    assert proc.stdout.decode().splitlines()[1] == "1\tP106\torphan-note\terror\t[*] fixable"


def test_statistics_json_and_output(store, tmp_path):
    root = store(BROKEN)
    proc = run(str(root), "--statistics", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1
    assert json.loads(proc.stdout) == [{"code": "P101", "name": "dangling-pointer", "count": 2, "severity": "error", "fixable": 0},
                                       {"code": "P106", "name": "orphan-note", "count": 1, "severity": "error", "fixable": 0}]
    proc = run(str(root), "--statistics", "--output", "stats.txt", cwd=tmp_path)
    assert proc.stdout == b"" and (tmp_path / "stats.txt").read_text("utf-8").startswith("2\tP101\t")


def test_statistics_of_a_clean_store_is_empty(tmp_path):
    assert run("--example", "--statistics", cwd=tmp_path).stdout == b""
    assert json.loads(run("--example", "--statistics", "--format", "json", cwd=tmp_path).stdout) == []


@pytest.mark.parametrize("args", [["--format", f] for f in sorted(REPORTERS) if f != "text"] + [["--statistics"]])
def test_machine_formats_import_no_rich(args, store):
    root = store(BROKEN)
    code = ("import io, sys, mmlint.cli as c\n"
            "sys.stdout = io.StringIO()\n"
            f"c.main(['check', {str(root)!r}, *{args!r}])\n"
            "print('RICH' if 'rich' in sys.modules else 'NORICH', file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "NORICH" in proc.stderr, proc.stderr


class _Chunks:
    """A reporter writing 64 KB, looking at the folder, then failing or
    writing the rest (``fail``)."""

    color, quiet = "auto", False

    def __init__(self, folder, fail: bool):
        self.folder, self.fail, self.seen = folder, fail, []

    def report(self, result, stream, cwd):
        stream.write("x" * 65536)
        stream.flush()
        self.seen = sorted((p.name, p.stat().st_size) for p in self.folder.iterdir() if p.name.endswith(".mmlint.tmp"))
        if self.fail:
            raise RuntimeError("reporter failed")
        stream.write("end \udcff\n")


@pytest.mark.parametrize("fail", [False, True])
def test_output_is_written_as_it_is_made_and_only_whole(fail, store, tmp_path, monkeypatch):
    """The report goes into the temporary file as it is made (it was held
    whole in memory: ~20 MB at 20,000 findings, before its bytes), and a
    reporter that fails leaves the old file as it was and no temporary file."""
    from mmlint import cli, reporters

    root = store(BROKEN)
    out = tmp_path / "report.out"
    out.write_text("old")
    chunks = _Chunks(tmp_path, fail)
    monkeypatch.setattr(reporters, "get", lambda name: chunks)
    if fail:
        with pytest.raises(RuntimeError):
            cli.main(["check", str(root), "--no-cache", "--output", str(out)])
        assert out.read_text() == "old"
    else:
        assert cli.main(["check", str(root), "--no-cache", "--output", str(out)]) == 1
        assert out.read_bytes() == b"x" * 65536 + b"end \\udcff\n"
    assert len(chunks.seen) == 1 and chunks.seen[0][0].startswith(".report.out.") and chunks.seen[0][1] >= 65536
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".mmlint.tmp")]
